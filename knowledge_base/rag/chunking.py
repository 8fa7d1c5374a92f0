"""Split documents into passages and sentences.

MiniLM reads at most 256 word pieces and was trained on 128, while the knowledge-base
documents run to 300 words of abbreviation-dense prose (often 300+ word pieces). A
document is therefore indexed as a few passages of consecutive whole sentences, each
about ``target_words`` long, never cut mid-sentence. The passage keeps its
document id in its metadata; search results are aggregated back to documents.

Sentence splitting is a small regular expression that knows the abbreviations and
decimals of clinical prose ("e.g.", "1.73 m2", "vs.") -- good enough for passage
boundaries and for the extractive answers and the citation judge, which work on
sentences.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

TARGET_WORDS = 90
MAX_WORDS = 130

_ABBREV = (
    "e.g",
    "i.e",
    "vs",
    "etc",
    "approx",
    "dr",
    "mr",
    "mrs",
    "ms",
    "no",
    "fig",
    "min",
    "max",
    "incl",
    "al",
)
# A sentence ends at . ! or ? followed by whitespace and an upper-case letter, a digit or
# an opening quote/bracket; the look-behind guards skip "e.g. " and "Dr. ".
_SPLIT = re.compile(r"(?<=[.!?])[\"')\]]?\s+(?=[A-Z0-9\"'(\[])")
_WS = re.compile(r"\s+")


@dataclass(frozen=True)
class Passage:
    """A run of whole sentences from one document."""

    id: str  # "<doc_id>#p<n>"
    doc_id: str
    index: int
    text: str


def normalise_ws(text: str) -> str:
    return _WS.sub(" ", text).strip()


def split_sentences(text: str) -> list[str]:
    """Sentences of ``text`` (whitespace normalised, empty pieces dropped)."""
    text = normalise_ws(text)
    if not text:
        return []
    out: list[str] = []
    start = 0
    for m in _SPLIT.finditer(text):
        piece = text[start : m.end()].strip()
        last_word = piece.rstrip(".!?\"')]").rsplit(" ", 1)[-1].lower()
        if last_word in _ABBREV or re.fullmatch(r"[a-z]", last_word):
            continue  # "e.g. Smith", "vs. placebo", initials
        out.append(piece)
        start = m.end()
    tail = text[start:].strip()
    if tail:
        out.append(tail)
    return [s for s in out if s]


def chunk_document(doc_id: str, text: str, target_words: int = TARGET_WORDS, max_words: int = MAX_WORDS) -> list[Passage]:
    """Group whole sentences into passages of about ``target_words`` words.

    A passage closes once it reaches ``target_words``, or before a sentence that
    would push it past ``max_words``. A short tail (under a third of the target) is
    merged into the previous passage so no passage is a lone fragment.
    """
    sentences = split_sentences(text)
    groups: list[list[str]] = []
    cur: list[str] = []
    cur_words = 0
    for s in sentences:
        n = len(s.split())
        if cur and cur_words + n > max_words:
            groups.append(cur)
            cur, cur_words = [], 0
        cur.append(s)
        cur_words += n
        if cur_words >= target_words:
            groups.append(cur)
            cur, cur_words = [], 0
    if cur:
        if groups and cur_words < target_words / 3:
            groups[-1].extend(cur)
        else:
            groups.append(cur)
    return [Passage(f"{doc_id}#p{i}", doc_id, i, " ".join(g)) for i, g in enumerate(groups)]
