"""Sentence splitting that survives clinical text (decimals, units, abbreviations)."""

from __future__ import annotations

import re
from dataclasses import dataclass

# Split after . ! ? ; or a newline, but not inside numbers ("36.8") or common abbreviations.
# A sentence may also open with a lower-case prefix on an upper-case name ("tTG 186 noted.", "eGFR 52.", "pH 7.31"):
# these are how clinicians write such tests, and no common abbreviation before a full stop is followed by one.
_SPLIT_RE = re.compile(r"(?<=[!?;])\s+|(?<=[.])\s+(?=[A-Z0-9\"'(“‘\-•*]|[a-z]{1,2}[A-Z])|\n+")
_ABBREV_END = re.compile(r"\b(?:e\.g|i\.e|vs|approx|dr|mr|mrs|ms|no|fig|ref)\.$", re.IGNORECASE)


@dataclass(frozen=True)
class Sentence:
    text: str
    start: int
    end: int
    index: int


def split_sentences(text: str) -> list[Sentence]:
    """Sentences with their character offsets in ``text`` (empty pieces dropped)."""
    out: list[Sentence] = []
    pos = 0
    pending_start: int | None = None
    for m in [*_SPLIT_RE.finditer(text), None]:
        end = m.start() if m else len(text)
        piece_start = pending_start if pending_start is not None else pos
        piece = text[piece_start:end]
        if m is not None and _ABBREV_END.search(piece.rstrip()):
            pending_start = piece_start
            pos = m.end()
            continue
        pending_start = None
        stripped = piece.strip()
        if stripped:
            lead = len(piece) - len(piece.lstrip())
            s = piece_start + lead
            out.append(Sentence(stripped, s, s + len(stripped), len(out)))
        if m is not None:
            pos = m.end()
    return out
