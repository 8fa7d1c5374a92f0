"""Deterministic query rewriting: abbreviation expansion both ways, whitespace, length.

Clinical questions and documents mix abbreviations and long forms ("HFrEF" /
"heart failure with reduced ejection fraction"); BM25 only matches one of the two,
and MiniLM knows few clinical abbreviations. The rewriter appends the other form of
every abbreviation or long form it recognises. Its dictionary is a small built-in
list plus the "long form (ABBR)" definitions mined from the knowledge base itself
(a light Schwartz-Hearst matcher), so new documents extend it without code changes.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

MAX_QUERY_CHARS = 1000

BASE_ABBREVIATIONS: dict[str, str] = {
    "ACE": "angiotensin-converting enzyme",
    "AF": "atrial fibrillation",
    "AKI": "acute kidney injury",
    "ARB": "angiotensin receptor blocker",
    "BMI": "body mass index",
    "BP": "blood pressure",
    "CKD": "chronic kidney disease",
    "COPD": "chronic obstructive pulmonary disease",
    "CRP": "C-reactive protein",
    "CT": "computed tomography",
    "DKA": "diabetic ketoacidosis",
    "DOAC": "direct oral anticoagulant",
    "DVT": "deep vein thrombosis",
    "ECG": "electrocardiogram",
    "eGFR": "estimated glomerular filtration rate",
    "GI": "gastrointestinal",
    "HbA1c": "glycated haemoglobin",
    "HF": "heart failure",
    "HFpEF": "heart failure with preserved ejection fraction",
    "HFrEF": "heart failure with reduced ejection fraction",
    "ICS": "inhaled corticosteroid",
    "INR": "international normalised ratio",
    "IV": "intravenous",
    "LABA": "long-acting beta-agonist",
    "LAMA": "long-acting muscarinic antagonist",
    "LDL": "low-density lipoprotein",
    "LVEF": "left ventricular ejection fraction",
    "MI": "myocardial infarction",
    "MRA": "mineralocorticoid receptor antagonist",
    "NSAID": "non-steroidal anti-inflammatory drug",
    "PE": "pulmonary embolism",
    "PPI": "proton pump inhibitor",
    "SABA": "short-acting beta-agonist",
    "SGLT2": "sodium-glucose co-transporter 2",
    "TIA": "transient ischaemic attack",
    "T2DM": "type 2 diabetes",
    "T1DM": "type 1 diabetes",
    "UTI": "urinary tract infection",
    "VTE": "venous thromboembolism",
}

_DEF = re.compile(r"((?:[A-Za-z0-9][\w'/-]*[ ]+){1,10})\(([A-Za-z][A-Za-z0-9-]{1,9})\)")
_WS = re.compile(r"\s+")


def _long_form(words: list[str], abbr: str) -> str | None:
    """Schwartz-Hearst: shortest word suffix whose letters cover the abbreviation in order."""
    letters = [c.lower() for c in abbr if c.isalnum()]
    if sum(c.isalpha() for c in letters) < 2:
        return None
    cand = " ".join(words).lower()
    s_idx, l_idx = len(letters) - 1, len(cand) - 1
    while s_idx >= 0:
        c = letters[s_idx]
        while l_idx >= 0 and (cand[l_idx] != c or (s_idx == 0 and l_idx > 0 and cand[l_idx - 1].isalnum())):
            l_idx -= 1
        if l_idx < 0:
            return None
        l_idx -= 1
        s_idx -= 1
    start = cand.rfind(" ", 0, l_idx + 1) + 1
    long = " ".join(words)[start:].strip()
    n_words = len(long.split())
    if not long or n_words > min(len(letters) + 5, 2 * len(letters)) or long.lower() == abbr.lower():
        return None
    return long


def mine_abbreviations(texts: Iterable[str]) -> dict[str, str]:
    """``{ABBR: long form}`` from "long form (ABBR)" definitions in ``texts`` (first wins)."""
    found: dict[str, str] = {}
    for text in texts:
        for m in _DEF.finditer(_WS.sub(" ", text)):
            abbr = m.group(2)
            if not any(c.isupper() for c in abbr) or abbr in found:
                continue
            long = _long_form(m.group(1).split(), abbr)
            if long:
                found[abbr] = long
    return found


@dataclass
class QueryRewriter:
    abbreviations: dict[str, str] = field(default_factory=lambda: dict(BASE_ABBREVIATIONS))
    max_chars: int = MAX_QUERY_CHARS

    def __post_init__(self) -> None:
        self._abbr_re = {a: re.compile(rf"(?<![\w-]){re.escape(a)}(?![\w-])") for a in self.abbreviations}
        self._long_re = {
            a: re.compile(rf"(?<!\w){re.escape(lf)}(?!\w)", re.IGNORECASE) for a, lf in self.abbreviations.items()
        }

    @classmethod
    def from_texts(cls, texts: Iterable[str]) -> QueryRewriter:
        merged = dict(BASE_ABBREVIATIONS)
        for abbr, long in mine_abbreviations(texts).items():
            merged.setdefault(abbr, long)
        return cls(merged)

    def normalise(self, query: str) -> tuple[str, bool]:
        """Whitespace-normalised query cut to ``max_chars`` (at a word boundary); flag if cut."""
        q = _WS.sub(" ", query).strip()
        if len(q) <= self.max_chars:
            return q, False
        cut = q[: self.max_chars]
        if " " in cut[self.max_chars // 2 :]:
            cut = cut[: cut.rfind(" ")]
        return cut, True

    def expansions(self, query: str) -> list[str]:
        """The other form of every abbreviation / long form found in ``query``, in query order."""
        hits: list[tuple[int, str]] = []
        for abbr, rx in self._abbr_re.items():
            m = rx.search(query)
            long = self.abbreviations[abbr]
            if m and not self._long_re[abbr].search(query):
                hits.append((m.start(), long))
        for abbr, rx in self._long_re.items():
            m = rx.search(query)
            if m and not self._abbr_re[abbr].search(query):
                hits.append((m.start(), abbr))
        out: list[str] = []
        for _, text in sorted(hits):
            if text not in out:
                out.append(text)
        return out

    def rewrite(self, query: str) -> dict[str, object]:
        q, truncated = self.normalise(query)
        extra = self.expansions(q)
        rewritten = q + (" (" + "; ".join(extra) + ")" if extra else "")
        return {"original": q, "rewritten": rewritten, "expansions": extra, "truncated": truncated}
