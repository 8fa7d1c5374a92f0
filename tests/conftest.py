"""Shared pytest configuration.

Tests never touch the internet: model loading is forced offline here as well as in
``medgym.text.embeddings``.
"""

from __future__ import annotations

import os

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")


@pytest.fixture(autouse=True)
def _fresh_llm_state():
    """Process-wide LLM limits and remembered structured-output modes are per endpoint; a later
    test's fake server may reuse a port, so every test starts from a clean slate."""
    from medgym.llm import reset_limits, reset_structured_memory

    reset_limits()
    reset_structured_memory()
    yield
    reset_limits()
    reset_structured_memory()
