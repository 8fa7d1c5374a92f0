"""The persistent passage index: ChromaDB embedded, built atomically, checked on open.

Layout of an index root (``$MEDGYM_CACHE_DIR/kb``, default ``~/.cache/medgym/kb``)::

    CURRENT                     # one line: the name of the active index directory
    index-<hash12>-<uuid8>/     # a chroma PersistentClient directory + manifest.json
    .lock                       # serialises concurrent builds

Why a pointer file: a build writes a brand-new directory, writes its
``manifest.json`` last, and only then replaces ``CURRENT`` with ``os.replace``
(atomic on every platform). A crash at any point leaves either the old index or the
new one active, never a half-built one; leftovers are removed by the next build.

Opening checks, in order, and raises a typed error telling the user what to run:
``CURRENT`` and the directory exist (:class:`IndexMissingError`); the manifest parses,
the collection opens, holds the manifest's passage count and answers a self-query
(:class:`IndexCorruptError`); the manifest's content hash matches the documents on
disk, when the caller passes them (:class:`IndexStaleError`).

Telemetry is off (``Settings(anonymized_telemetry=False)``) and every collection
gets our registered MiniLM embedding function, never chromadb's downloading default.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import shutil
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")

import chromadb  # noqa: E402
from chromadb.config import Settings  # noqa: E402

from medgym.knowledge_base.rag.chunking import MAX_WORDS, TARGET_WORDS, Passage, chunk_document  # noqa: E402
from medgym.knowledge_base.rag.embedding import (  # noqa: E402
    EF_NAME,
    AdaptiveThreads,
    MedgymMiniLMEmbeddingFunction,
    embed_bulk,
    torch_threads,
    truncate_to_tokens,
)
from medgym.knowledge_base.rag.errors import (  # noqa: E402
    IndexCorruptError,
    IndexMissingError,
    IndexStaleError,
)
from medgym.knowledge_base.rag.loader import KnowledgeBase  # noqa: E402

log = logging.getLogger(__name__)

INDEX_FORMAT = "medgym.rag.index"
INDEX_FORMAT_VERSION = 1
COLLECTION_NAME = "medgym_rag_passages"
CURRENT_FILE = "CURRENT"
MANIFEST_FILE = "manifest.json"
CACHE_ENV = "MEDGYM_CACHE_DIR"
MAX_PASSAGE_TOKENS = 128  # what MiniLM-L6-v2 was trained on (see embedding.truncate_to_tokens)

try:  # chromadb's Rust core reports some failures as a pyo3 panic, a BaseException subclass
    from pyo3_runtime import PanicException  # type: ignore[import-not-found]
except ImportError:  # pragma: no cover - depends on the chromadb build
    PanicException = RuntimeError  # type: ignore[misc,assignment]

_CHROMA_FAILURES: tuple[type[BaseException], ...] = (Exception, PanicException)


def default_index_root() -> Path:
    """``$MEDGYM_CACHE_DIR/kb`` if the variable is set, else ``~/.cache/medgym/kb``."""
    base = os.environ.get(CACHE_ENV)
    root = Path(base).expanduser() if base else Path.home() / ".cache" / "medgym"
    return root / "kb"


def chroma_settings() -> Settings:
    return Settings(anonymized_telemetry=False, allow_reset=False)


def open_client(path: Path) -> Any:
    return chromadb.PersistentClient(path=str(path), settings=chroma_settings())


def _close_client(client: Any) -> None:
    close = getattr(client, "close", None)
    if callable(close):
        with contextlib.suppress(*_CHROMA_FAILURES):
            close()


def config_key() -> dict[str, Any]:
    """Everything besides the documents that changes what a build produces."""
    return {
        "format_version": INDEX_FORMAT_VERSION,
        "embedding_function": EF_NAME,
        "chunking": {"target_words": TARGET_WORDS, "max_words": MAX_WORDS, "max_tokens": MAX_PASSAGE_TOKENS},
    }


def passage_text_for_embedding(title: str, passage: Passage) -> str:
    """What is embedded for a passage: its document title gives every passage its topic."""
    return f"{title}. {passage.text}"


def passages_of(kb: KnowledgeBase) -> list[Passage]:
    out: list[Passage] = []
    for doc_id in sorted(kb.documents):
        out.extend(chunk_document(doc_id, kb.documents[doc_id].text))
    return out


def passage_metadata(kb: KnowledgeBase, p: Passage) -> dict[str, Any]:
    d = kb.documents[p.doc_id]
    return {
        "doc_id": d.id,
        "passage": p.index,
        "title": d.title,
        "source_type": d.source_type.value,
        "specialty": d.specialty,
        "publication_year": d.publication_year,
        "evidence_level": d.evidence_level.value,
        "issuing_body": d.issuing_body,
    }


@contextlib.contextmanager
def _build_lock(root: Path) -> Iterator[None]:
    """An exclusive lock on ``root/.lock`` (POSIX); a no-op where fcntl is missing."""
    root.mkdir(parents=True, exist_ok=True)
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows
        yield
        return
    with open(root / ".lock", "w") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


def _write_atomic(path: Path, text: str) -> None:
    tmp = path.with_name(f".{path.name}.{uuid.uuid4().hex[:8]}.tmp")
    tmp.write_text(text, encoding="utf-8")
    with open(tmp, "rb") as fh:
        os.fsync(fh.fileno())
    os.replace(tmp, path)


def read_manifest(root: Path | str | None = None) -> tuple[Path, dict[str, Any]]:
    """The active index directory and its manifest; raises Missing/Corrupt errors."""
    root = Path(root) if root is not None else default_index_root()
    pointer = root / CURRENT_FILE
    if not pointer.is_file():
        raise IndexMissingError(str(root), "no index has been built here")
    name = pointer.read_text(encoding="utf-8").strip()
    path = root / name
    if not name or "/" in name or not path.is_dir():
        raise IndexMissingError(str(root), f"the active index directory {name!r} does not exist")
    try:
        manifest = json.loads((path / MANIFEST_FILE).read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise IndexCorruptError(str(path), f"manifest unreadable ({exc})") from exc
    if not isinstance(manifest, dict) or manifest.get("format") != INDEX_FORMAT:
        raise IndexCorruptError(str(path), "manifest is not a medgym index manifest")
    return path, manifest


@dataclass
class BuildResult:
    status: str  # "built" | "up-to-date"
    path: Path
    n_documents: int
    n_passages: int
    seconds: float
    content_hash: str


def index_is_current(kb: KnowledgeBase, root: Path | str | None = None) -> bool:
    """True when a readable index built from exactly these documents is active."""
    try:
        PassageIndex.open(root, expected_hash=kb.content_hash).close()
    except (IndexMissingError, IndexCorruptError, IndexStaleError):
        return False
    return True


def build_index(
    kb: KnowledgeBase,
    root: Path | str | None = None,
    *,
    force: bool = False,
    progress: bool = False,
    batch_size: int = 128,
) -> BuildResult:
    """Build the passage index for ``kb`` unless an identical one is already active.

    Idempotent: returns ``status="up-to-date"`` without touching anything when the
    active index was built from the same documents (content hash) and the same
    chunking/embedding configuration. ``force`` rebuilds regardless.
    """
    root = Path(root) if root is not None else default_index_root()
    t0 = time.perf_counter()
    with _build_lock(root):
        if not force:
            try:
                idx = PassageIndex.open(root, expected_hash=kb.content_hash)
            except (IndexMissingError, IndexCorruptError, IndexStaleError):
                pass
            else:
                idx.close()
                return BuildResult(
                    "up-to-date", idx.path, idx.manifest["n_documents"], idx.manifest["n_passages"],
                    time.perf_counter() - t0, kb.content_hash,
                )
        name = f"index-{kb.content_hash[:12]}-{uuid.uuid4().hex[:8]}"
        path = root / name
        passages = passages_of(kb)
        try:
            _write_collection(kb, path, passages, progress=progress, batch_size=batch_size)
            manifest = {
                "format": INDEX_FORMAT,
                **config_key(),
                "content_hash": kb.content_hash,
                "n_documents": len(kb.documents),
                "n_passages": len(passages),
                "collection": COLLECTION_NAME,
                "embedding_config": MedgymMiniLMEmbeddingFunction().get_config(),
                "chromadb_version": chromadb.__version__,
                "data_dir": kb.data_dir,
                "built_at": datetime.now(UTC).isoformat(timespec="seconds"),
                "build_seconds": round(time.perf_counter() - t0, 3),
            }
            _write_atomic(path / MANIFEST_FILE, json.dumps(manifest, indent=2, sort_keys=True))
        except BaseException:
            shutil.rmtree(path, ignore_errors=True)
            raise
        _write_atomic(root / CURRENT_FILE, name + "\n")
        _remove_stale_dirs(root, keep=name)
    log.info("built knowledge-base index %s (%d passages) in %.1fs", path, len(passages), manifest["build_seconds"])
    return BuildResult("built", path, len(kb.documents), len(passages), time.perf_counter() - t0, kb.content_hash)


def _write_collection(kb: KnowledgeBase, path: Path, passages: list[Passage], *, progress: bool, batch_size: int) -> None:
    """Embed every passage (bf16 where native, thread count chosen by timing) and add it to a new collection."""
    from tqdm.auto import tqdm

    client = open_client(path)
    try:
        coll = client.create_collection(
            COLLECTION_NAME,
            embedding_function=MedgymMiniLMEmbeddingFunction(),
            configuration={"hnsw": {"space": "cosine"}},
            metadata={"medgym_format_version": INDEX_FORMAT_VERSION},
        )
        max_batch = max(1, min(int(client.get_max_batch_size()), 4096))
        texts = [passage_text_for_embedding(kb.documents[p.doc_id].title, p) for p in passages]
        vectors = np.zeros((len(passages), 384), dtype=np.float32)
        threads = AdaptiveThreads()
        with tqdm(total=len(passages), desc="embedding passages", unit="passage", disable=not progress) as bar:
            for i in range(0, len(texts), batch_size):
                chunk = texts[i : i + batch_size]
                n_threads = threads.next_threads()
                t0 = time.perf_counter()
                with torch_threads(n_threads):
                    vectors[i : i + batch_size] = embed_bulk(truncate_to_tokens(chunk, MAX_PASSAGE_TOKENS), batch_size=16)
                threads.record(n_threads, sum(map(len, chunk)), time.perf_counter() - t0)
                bar.update(len(chunk))
        for i in range(0, len(passages), max_batch):
            chunk = passages[i : i + max_batch]
            coll.add(
                ids=[p.id for p in chunk],
                embeddings=vectors[i : i + len(chunk)],
                documents=[p.text for p in chunk],
                metadatas=[passage_metadata(kb, p) for p in chunk],
            )
        if coll.count() != len(passages):
            raise IndexCorruptError(str(path), f"wrote {len(passages)} passages but the collection holds {coll.count()}")
    finally:
        _close_client(client)


def _remove_stale_dirs(root: Path, keep: str) -> None:
    for child in root.iterdir():
        if child.is_dir() and child.name.startswith("index-") and child.name != keep:
            shutil.rmtree(child, ignore_errors=True)


class PassageIndex:
    """An opened, checked index: the chroma collection plus every passage in memory.

    The passage texts, document ids and embeddings are loaded once (a few MB for a
    thousand documents) so that BM25, re-ranking and extractive answering never
    re-embed a passage.
    """

    def __init__(self, path: Path, manifest: dict[str, Any], client: Any, collection: Any):
        self.path = path
        self.manifest = manifest
        self.client = client
        self.collection = collection
        got = collection.get(include=["embeddings", "metadatas", "documents"])
        order = sorted(range(len(got["ids"])), key=lambda i: got["ids"][i])
        self.passage_ids: list[str] = [got["ids"][i] for i in order]
        self.texts: list[str] = [got["documents"][i] for i in order]
        self.metadatas: list[dict[str, Any]] = [got["metadatas"][i] for i in order]
        self.doc_ids: list[str] = [m["doc_id"] for m in self.metadatas]
        emb = got["embeddings"]
        self.embeddings = np.asarray([emb[i] for i in order], dtype=np.float32).reshape(len(order), -1)
        self.row_of = {pid: i for i, pid in enumerate(self.passage_ids)}
        self.rows_of_doc: dict[str, list[int]] = {}
        for i, d in enumerate(self.doc_ids):
            self.rows_of_doc.setdefault(d, []).append(i)

    @classmethod
    def open(cls, root: Path | str | None = None, expected_hash: str | None = None) -> PassageIndex:
        path, manifest = read_manifest(root)
        expected_cfg = config_key()
        if {k: manifest.get(k) for k in expected_cfg} != expected_cfg:
            raise IndexStaleError(str(path), "built by another medgym index format or chunking configuration")
        if expected_hash is not None and manifest.get("content_hash") != expected_hash:
            raise IndexStaleError(str(path), "the documents changed since the index was built")
        client = None
        try:
            client = open_client(path)
            coll = client.get_collection(COLLECTION_NAME, embedding_function=MedgymMiniLMEmbeddingFunction())
            n = coll.count()
            if n != manifest.get("n_passages"):
                raise IndexCorruptError(str(path), f"collection holds {n} passages, the manifest says {manifest.get('n_passages')}")
            idx = cls(path, manifest, client, coll)
            idx._self_check()
        except (IndexCorruptError, IndexStaleError):
            if client is not None:
                _close_client(client)
            raise
        except _CHROMA_FAILURES as exc:
            if client is not None:
                _close_client(client)
            raise IndexCorruptError(str(path), f"chroma cannot read it ({type(exc).__name__}: {exc})") from exc
        return idx

    def _self_check(self) -> None:
        """The first passage, queried by its own vector, must come back first."""
        if not self.passage_ids:
            raise IndexCorruptError(str(self.path), "the collection is empty")
        if self.embeddings.shape[1] != 384 or not np.isfinite(self.embeddings).all():
            raise IndexCorruptError(str(self.path), f"stored embeddings have shape {self.embeddings.shape}")
        res = self.collection.query(query_embeddings=self.embeddings[:1], n_results=1, include=["distances"])
        if not res["ids"] or not res["ids"][0] or res["distances"][0][0] > 1e-3:
            raise IndexCorruptError(str(self.path), "a stored passage does not find itself")

    def query(self, vector: np.ndarray, n: int, where: dict[str, Any] | None = None) -> list[tuple[str, float]]:
        """(passage id, cosine similarity) of the ``n`` nearest passages, best first."""
        n = max(1, min(n, len(self.passage_ids)))
        res = self.collection.query(
            query_embeddings=np.asarray(vector, dtype=np.float32).reshape(1, -1),
            n_results=n,
            where=where or None,
            include=["distances"],
        )
        return [(pid, 1.0 - float(d)) for pid, d in zip(res["ids"][0], res["distances"][0], strict=True)]

    def close(self) -> None:
        _close_client(self.client)
