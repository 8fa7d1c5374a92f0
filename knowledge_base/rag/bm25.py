"""Lexical retrieval: BM25 (rank-bm25's Okapi variant) over the indexed passages.

Dense MiniLM retrieval misses exact tokens that matter clinically -- drug names,
"eGFR 30", "CHA2DS2-VASc" -- so hybrid search fuses it with BM25. The BM25 index
is built in memory from the passages the chroma index already holds (milliseconds
for a thousand documents), so it can never disagree with the dense index.

Tokenisation keeps alphanumeric runs (so "CHA2DS2" and "1.73" survive as tokens),
lower-cases, drops a short stop-word list and strips a plural "s" from longer
words, which is enough for "inhibitors" to match "inhibitor".
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np
from rank_bm25 import BM25Okapi

_TOKEN = re.compile(r"[a-z0-9]+(?:[.\-/][a-z0-9]+)*")
_PART = re.compile(r"\d+(?:\.\d+)?|[a-z0-9]+")  # parts of a compound token, decimals kept whole
_DECIMAL = re.compile(r"\d+(?:\.\d+)?")
STOPWORDS = frozenset(
    [
        "a", "an", "and", "are", "as", "at", "be", "been", "being", "but", "by", "can", "could", "do", "does",
        "did", "for", "from", "had", "has", "have", "how", "i", "if", "in", "into", "is", "it", "its", "may",
        "might", "more", "most", "no", "not", "of", "on", "or", "our", "should", "so", "such", "than", "that",
        "the", "their", "them", "then", "there", "these", "they", "this", "those", "to", "was", "were", "what",
        "when", "where", "which", "while", "who", "whom", "why", "will", "with", "would", "you", "your",
        "patient", "patients", "adult", "adults",
    ]
)


def _stem(tok: str) -> str:
    if len(tok) > 4 and tok.endswith("ies"):
        return tok[:-3] + "y"
    if len(tok) > 3 and tok.endswith("s") and not tok.endswith(("ss", "us", "is")):
        return tok[:-1]
    return tok


def tokenize(text: str) -> list[str]:
    """Lower-cased content tokens; compound tokens ("sacubitril/valsartan") also yield their parts."""
    out: list[str] = []
    for m in _TOKEN.finditer(text.lower()):
        tok = m.group(0)
        parts = _PART.findall(tok) if re.search(r"[.\-/]", tok) and not _DECIMAL.fullmatch(tok) else []
        for t in [tok, *parts]:
            if t and t not in STOPWORDS:
                out.append(_stem(t))
    return out


def content_terms(text: str) -> set[str]:
    return set(tokenize(text))


class BM25Index:
    """BM25 scores for every passage; filtering is a boolean mask applied by the caller."""

    def __init__(self, texts: Sequence[str], k1: float = 1.5, b: float = 0.75):
        self._tokens = [tokenize(t) for t in texts]
        # rank-bm25 divides by the corpus size; an empty corpus is a caller bug, not a query-time error
        self._bm25 = BM25Okapi(self._tokens or [["empty"]], k1=k1, b=b)
        self.size = len(texts)

    def scores(self, query: str) -> np.ndarray:
        """One score per passage (0 where no query term occurs)."""
        terms = list(dict.fromkeys(tokenize(query)))  # dedupe: rank-bm25 loops per term
        if not terms or not self.size:
            return np.zeros(self.size, dtype=np.float64)
        return np.asarray(self._bm25.get_scores(terms), dtype=np.float64)[: self.size]
