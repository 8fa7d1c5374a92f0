"""Fixtures of the RAGAgent tests: the tiny knowledge base in tests/rag/data and tmp indexes.

Nothing is downloaded: embeddings come from the packaged MiniLM, indexes live in
pytest tmp directories, and the shared retriever cache is cleared after the session.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

TINY_DATA = Path(__file__).resolve().parent / "data"


@pytest.fixture(scope="session")
def tiny_data() -> Path:
    return TINY_DATA


@pytest.fixture(scope="session")
def tiny_kb(tiny_data):
    from medgym.knowledge_base.rag.loader import load_kb

    return load_kb(tiny_data)


@pytest.fixture(scope="session")
def tiny_index(tmp_path_factory, tiny_kb) -> Path:
    """A built index of the tiny KB, shared read-only by the session."""
    from medgym.knowledge_base.rag.index import build_index

    root = tmp_path_factory.mktemp("rag-index")
    build_index(tiny_kb, root)
    return root


@pytest.fixture(scope="session")
def retriever(tiny_kb, tiny_index):
    from medgym.knowledge_base.rag.retriever import Retriever

    r = Retriever.open(tiny_kb, index_root=tiny_index)
    yield r
    r.close()


@pytest.fixture()
def data_copy(tmp_path, tiny_data) -> Path:
    """A writable copy of the tiny KB (for tests that edit or break files)."""
    dst = tmp_path / "data"
    shutil.copytree(tiny_data, dst)
    return dst


@pytest.fixture()
def make_env(tiny_data, tiny_index, retriever):
    import gymnasium as gym

    import medgym  # noqa: F401

    def _make(**kw):
        kw.setdefault("data_dir", str(tiny_data))
        kw.setdefault("index_root", str(tiny_index))
        return gym.make("medgym/RAGAgent-v0", **kw)

    return _make


@pytest.fixture(scope="session", autouse=True)
def _clear_shared_retrievers():
    yield
    from medgym.knowledge_base.rag.retriever import clear_shared_retrievers

    clear_shared_retrievers()
