"""Fixtures of the medgym.llm tests: every test talks to a real local HTTP server."""

from __future__ import annotations

from typing import Any

import pytest

from medgym.llm import LLMClient, LLMConfig, reset_limits, reset_structured_memory
from medgym.llm.fake_server import FakeOpenAIServer


@pytest.fixture(autouse=True)
def _fresh_llm_process_state():
    """Endpoint limits and json_schema rejections are process-wide by design; a port reused
    by a later server must not inherit them."""
    reset_limits()
    reset_structured_memory()
    yield
    reset_limits()
    reset_structured_memory()


def make_client(srv: FakeOpenAIServer, **overrides: Any) -> LLMClient:
    """A client with short backoff so the suite stays fast.

    The default timeout (3 s) leaves room for a loaded 2-core machine; tests of the
    "timeout" fault pass a shorter one (and make the server hang for much longer).
    """
    params: dict[str, Any] = {"base_url": srv.base_url, "model": "fake-model", "timeout": 3.0,
                              "backoff_base": 0.01, "backoff_max": 0.05, "max_retries": 3}
    params.update(overrides)
    return LLMClient(LLMConfig(**params))


@pytest.fixture
def client_for():
    return make_client


USER = [{"role": "user", "content": "What is the working diagnosis?"}]


@pytest.fixture
def user_messages() -> list[dict[str, Any]]:
    return [dict(m) for m in USER]
