"""Shared pytest configuration.

Tests never touch the internet: model loading is forced offline here as well as in
``medgym.text.embeddings``.
"""

from __future__ import annotations

import os

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
