"""Hybrid search and offline re-ranking over the passage index.

``Retriever`` is what the environment's tools and the reference agent call:

* :meth:`Retriever.dense` -- chroma vector search (MiniLM, cosine) with the metadata
  filters as a ``where`` clause;
* :meth:`Retriever.lexical` -- BM25 over the same passages with the same filters;
* :meth:`Retriever.search` -- both, aggregated to documents (a document ranks by its
  best passage) and fused with reciprocal rank fusion (RRF, k=60). RRF needs no score
  calibration between cosine and BM25, which live on unrelated scales;
* :meth:`Retriever.rerank` -- re-scores given documents against the query: the best
  MiniLM similarity of any of the document's passages (the "cross-similarity"),
  plus the share of query content terms found in the document and in its title. No
  cross-encoder ships its weights on PyPI, and nothing may be downloaded, so this is
  the offline re-ranker; it reuses the stored passage vectors and embeds only the
  query.

Opening the retriever checks the index (see :mod:`.index`); with ``auto_build=True``
a missing or stale index is (re)built first, and ``auto_built`` records it.
"""

from __future__ import annotations

import logging
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from medgym.errors import ActionError, UnknownNameError
from medgym.knowledge_base.rag.bm25 import BM25Index, content_terms
from medgym.knowledge_base.rag.embedding import embed_small
from medgym.knowledge_base.rag.errors import IndexMissingError, IndexStaleError
from medgym.knowledge_base.rag.filters import SearchFilters
from medgym.knowledge_base.rag.index import PassageIndex, build_index
from medgym.knowledge_base.rag.loader import KnowledgeBase, load_kb
from medgym.knowledge_base.rag.rewrite import QueryRewriter
from medgym.knowledge_base.rag.schema import Document
from medgym.registry import did_you_mean

log = logging.getLogger(__name__)

RRF_K = 60
SEARCH_MODES = ("hybrid", "dense", "lexical")
RERANK_WEIGHTS = {"dense": 0.65, "lexical": 0.25, "title": 0.10}
SNIPPET_CHARS = 320


@dataclass
class DocHit:
    """One document in a result list, with the passage that matched best."""

    doc_id: str
    score: float
    passage_id: str
    snippet: str
    dense_rank: int | None = None
    lexical_rank: int | None = None

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def _snippet(text: str, limit: int = SNIPPET_CHARS) -> str:
    if len(text) <= limit:
        return text
    cut = text[:limit]
    return cut[: cut.rfind(" ")] + " ..." if " " in cut else cut + " ..."


class Retriever:
    def __init__(self, kb: KnowledgeBase, index: PassageIndex, auto_built: bool = False):
        self.kb = kb
        self.index = index
        self.auto_built = auto_built
        titles = {d.id: d.title for d in kb.documents.values()}
        self.bm25 = BM25Index([f"{titles[m['doc_id']]}. {t}" for m, t in zip(index.metadatas, index.texts, strict=True)])
        self.rewriter = QueryRewriter.from_texts(d.text for d in kb.documents.values())
        self.doc_terms = {d.id: content_terms(d.title + " " + d.text) for d in kb.documents.values()}
        self.title_terms = {d.id: content_terms(d.title) for d in kb.documents.values()}
        missing = sorted(set(kb.documents) - set(index.rows_of_doc))
        if missing:  # the content hash matched, so this is a bug, not user error
            raise IndexStaleError(str(index.path), f"documents {missing[:5]} have no passages in the index")

    # ------------------------------------------------------------------ opening
    @classmethod
    def open(
        cls,
        kb: KnowledgeBase | None = None,
        *,
        data_dir: Path | str | None = None,
        index_root: Path | str | None = None,
        auto_build: bool = False,
        progress: bool = False,
    ) -> Retriever:
        kb = kb if kb is not None else load_kb(data_dir)
        built = False
        try:
            index = PassageIndex.open(index_root, expected_hash=kb.content_hash)
        except (IndexMissingError, IndexStaleError) as exc:
            if not auto_build:
                raise
            log.warning("%s -- building it now (auto_build=True)", exc.problem)
            build_index(kb, index_root, progress=progress)
            index = PassageIndex.open(index_root, expected_hash=kb.content_hash)
            built = True
        return cls(kb, index, auto_built=built)

    def close(self) -> None:
        self.index.close()

    # ------------------------------------------------------------------ lookups
    def document(self, doc_id: str) -> Document:
        if not isinstance(doc_id, str) or doc_id not in self.kb.documents:
            known = sorted(self.kb.documents)
            raise UnknownNameError("document", str(doc_id), known, did_you_mean(str(doc_id), known))
        return self.kb.documents[doc_id]

    def _clean_query(self, query: object) -> str:
        if not isinstance(query, str):
            raise ActionError(f"query must be a string, got {type(query).__name__}")
        q, _ = self.rewriter.normalise(query)
        if not q:
            raise ActionError("query is empty: give a question or keywords to search for")
        return q

    # ------------------------------------------------------------------ retrieval
    def _passage_limit(self, k: int) -> int:
        return min(len(self.index.passage_ids), max(50, 8 * k))

    def dense_passages(self, query: str, n: int, filters: SearchFilters) -> list[tuple[int, float]]:
        vec = embed_small([query])[0]
        hits = self.index.query(vec, n, filters.chroma_where())
        return [(self.index.row_of[pid], sim) for pid, sim in hits]

    def lexical_passages(self, query: str, n: int, filters: SearchFilters) -> list[tuple[int, float]]:
        scores = self.bm25.scores(query)
        if not filters.is_empty():
            scores = np.where(filters.mask(self.index.metadatas), scores, 0.0)
        positive = np.flatnonzero(scores > 0)
        if positive.size == 0:
            return []
        top = positive[np.argpartition(-scores[positive], n - 1)[:n]] if positive.size > n else positive
        order = sorted(top.tolist(), key=lambda i: (-scores[i], self.index.passage_ids[i]))
        return [(i, float(scores[i])) for i in order]

    def _docs_from_passages(self, hits: list[tuple[int, float]]) -> list[tuple[str, float, int]]:
        """Documents in order of their best passage: (doc id, best score, best passage row)."""
        seen: dict[str, tuple[float, int]] = {}
        for row, score in hits:
            d = self.index.doc_ids[row]
            if d not in seen:
                seen[d] = (score, row)
        return [(d, s, r) for d, (s, r) in seen.items()]

    def _hit(self, doc_id: str, score: float, row: int, dense_rank: int | None = None, lexical_rank: int | None = None) -> DocHit:
        return DocHit(
            doc_id, round(float(score), 6), self.index.passage_ids[row], _snippet(self.index.texts[row]), dense_rank, lexical_rank
        )

    def dense(self, query: str, k: int = 5, filters: Any = None) -> list[DocHit]:
        q, f = self._clean_query(query), SearchFilters.parse(filters)
        docs = self._docs_from_passages(self.dense_passages(q, self._passage_limit(k), f))
        return [self._hit(d, s, r, dense_rank=i + 1) for i, (d, s, r) in enumerate(docs[:k])]

    def lexical(self, query: str, k: int = 5, filters: Any = None) -> list[DocHit]:
        q, f = self._clean_query(query), SearchFilters.parse(filters)
        docs = self._docs_from_passages(self.lexical_passages(q, self._passage_limit(k), f))
        return [self._hit(d, s, r, lexical_rank=i + 1) for i, (d, s, r) in enumerate(docs[:k])]

    def search(self, query: str, k: int = 5, filters: Any = None, mode: str = "hybrid") -> list[DocHit]:
        """Top ``k`` documents for ``query`` (``mode``: hybrid, dense or lexical)."""
        if mode not in SEARCH_MODES:
            raise ActionError(f"mode must be one of {list(SEARCH_MODES)}, got {mode!r}")
        if mode == "dense":
            return self.dense(query, k, filters)
        if mode == "lexical":
            return self.lexical(query, k, filters)
        q, f = self._clean_query(query), SearchFilters.parse(filters)
        n = self._passage_limit(k)
        dense = self._docs_from_passages(self.dense_passages(q, n, f))
        lexical = self._docs_from_passages(self.lexical_passages(q, n, f))
        fused: dict[str, float] = {}
        best_row: dict[str, int] = {}
        d_rank = {d: i + 1 for i, (d, _, _) in enumerate(dense)}
        l_rank = {d: i + 1 for i, (d, _, _) in enumerate(lexical)}
        for ranking in (dense, lexical):
            for i, (d, _, row) in enumerate(ranking):
                fused[d] = fused.get(d, 0.0) + 1.0 / (RRF_K + i + 1)
                best_row.setdefault(d, row)  # dense passage first: it reads best as a snippet
        order = sorted(fused, key=lambda d: (-fused[d], d))[:k]
        return [self._hit(d, fused[d], best_row[d], d_rank.get(d), l_rank.get(d)) for d in order]

    def rerank(self, query: str, doc_ids: list[str]) -> list[DocHit]:
        """Re-score ``doc_ids`` against ``query``, best first; unknown ids raise UnknownNameError."""
        q = self._clean_query(query)
        if not isinstance(doc_ids, list) or not all(isinstance(d, str) for d in doc_ids):
            raise ActionError("doc_ids must be a list of document id strings")
        for d in doc_ids:
            self.document(d)
        ids = list(dict.fromkeys(doc_ids))
        if not ids:
            return []
        qv = embed_small([q])[0]
        q_terms = content_terms(q)
        out = []
        for d in ids:
            rows = self.index.rows_of_doc[d]
            sims = self.index.embeddings[rows] @ qv
            best = int(np.argmax(sims))
            lex = len(q_terms & self.doc_terms[d]) / len(q_terms) if q_terms else 0.0
            title = len(q_terms & self.title_terms[d]) / len(q_terms) if q_terms else 0.0
            score = RERANK_WEIGHTS["dense"] * float(sims[best]) + RERANK_WEIGHTS["lexical"] * lex + RERANK_WEIGHTS["title"] * title
            out.append(self._hit(d, score, rows[best]))
        out.sort(key=lambda h: (-h.score, h.doc_id))
        return out


# ---------------------------------------------------------------------- process-wide cache
_SHARED: dict[tuple[str, str], tuple[tuple, Retriever]] = {}


def _data_signature(data_dir: Path) -> tuple:
    files = sorted(p for p in data_dir.rglob("*") if p.is_file())
    return tuple((str(p), p.stat().st_mtime_ns, p.stat().st_size) for p in files)


def shared_retriever(
    data_dir: Path | str | None = None,
    index_root: Path | str | None = None,
    *,
    auto_build: bool = False,
    progress: bool = False,
) -> Retriever:
    """One Retriever per (data dir, index root) per process, reopened when a data file changes.

    Environments are cheap to create (the batch runner makes one per episode); the
    knowledge base, the BM25 index and the passage vectors are loaded once.
    """
    from medgym.knowledge_base.rag.index import default_index_root
    from medgym.knowledge_base.rag.loader import default_data_dir

    ddir = Path(data_dir).resolve() if data_dir is not None else default_data_dir().resolve()
    iroot = Path(index_root).resolve() if index_root is not None else default_index_root().resolve()
    key = (str(ddir), str(iroot))
    sig = _data_signature(ddir) if ddir.is_dir() else ()
    hit = _SHARED.get(key)
    if hit is not None and hit[0] == sig:
        return hit[1]
    r = Retriever.open(data_dir=ddir, index_root=iroot, auto_build=auto_build, progress=progress)
    if hit is not None:
        hit[1].close()
    _SHARED[key] = (sig, r)
    return r


def clear_shared_retrievers() -> None:
    for _, r in _SHARED.values():
        r.close()
    _SHARED.clear()
