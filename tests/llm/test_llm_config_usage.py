"""LLMConfig (environment, validation, secrets) and usage accounting per role."""

from __future__ import annotations

import json
import pickle
from concurrent.futures import ThreadPoolExecutor

import pytest
from pydantic import ValidationError

from medgym.llm import (
    GLOBAL_USAGE,
    LLMClient,
    LLMConfig,
    LLMError,
    UsageMeter,
    is_local_base_url,
)
from medgym.llm.fake_server import FakeOpenAIServer


def test_from_env_precedence():
    env = {"OPENAI_BASE_URL": "http://10.0.0.5:8000/v1/", "OPENAI_MODEL": "gpt-x", "OPENAI_API_KEY": "sk-a",
           "MEDGYM_LLM_MODEL": "qwen", "MEDGYM_LLM_MAX_CONCURRENCY": "32", "MEDGYM_LLM_SEED": "none"}
    cfg = LLMConfig.from_env(env=env, role="judge", timeout=None)
    assert cfg.base_url == "http://10.0.0.5:8000/v1"  # trailing slash removed
    assert cfg.model == "qwen" and cfg.api_key == "sk-a"
    assert cfg.max_concurrency == 32 and cfg.seed is None
    assert cfg.role == "judge" and cfg.timeout == 60.0  # None overrides are ignored
    assert LLMConfig.from_env(env=env, model="override").model == "override"
    assert LLMConfig.from_env(env={}).base_url is None


def test_local_endpoints_get_the_empty_key():
    assert LLMConfig(base_url="http://127.0.0.1:8080/v1").api_key == "EMPTY"
    assert LLMConfig(base_url="http://localhost:11434/v1").api_key == "EMPTY"
    assert LLMConfig(base_url="http://vllm:8000/v1").api_key == "EMPTY"
    assert LLMConfig(base_url="http://192.168.1.20:8000/v1").api_key == "EMPTY"
    assert LLMConfig(base_url="https://api.together.xyz/v1").api_key is None
    assert LLMConfig(base_url="http://127.0.0.1:8080/v1", api_key="k").api_key == "k"
    assert not is_local_base_url(None) and not is_local_base_url("https://api.openai.com/v1")


def test_remote_endpoint_without_key_fails_early(monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    with pytest.raises(LLMError, match="no API key"):
        LLMClient(LLMConfig(model="gpt-4o-mini"))


def test_config_is_validated_and_hides_the_key():
    with pytest.raises(ValidationError, match="temprature"):
        LLMConfig(temprature=0)
    with pytest.raises(ValidationError):
        LLMConfig(max_concurrency=0)
    with pytest.raises(ValidationError, match="http"):
        LLMConfig(base_url="127.0.0.1:8000")
    cfg = LLMConfig(api_key="sk-secret-123", base_url="https://api.example.com/v1")
    assert "sk-secret" not in repr(cfg)
    assert "sk-secret" not in cfg.model_dump_json()
    assert json.loads(cfg.model_dump_json())["api_key"] == "***"
    assert cfg.model_dump()["api_key"] == "sk-secret-123"  # copyable in-process
    judge = cfg.for_role("judge", temperature=0.0)
    assert judge.role == "judge" and judge.api_key == "sk-secret-123" and cfg.role == "agent"
    with pytest.raises(ValidationError):
        cfg.for_role("judge", temperature=9)


def test_usage_is_kept_per_role_and_aggregated_globally(client_for, user_messages):
    before = GLOBAL_USAGE.snapshot()
    with FakeOpenAIServer() as srv:
        agent = client_for(srv, role="agent")
        judge = client_for(srv, role="judge")
        with ThreadPoolExecutor(8) as pool:
            list(pool.map(lambda c: c.chat(user_messages), [agent] * 10 + [judge] * 6))
        a, j = agent.usage.snapshot(), judge.usage.snapshot()
        assert a["agent"]["calls"] == 10 and a["agent"]["requests"] == 10 and a["judge"]["calls"] == 0
        assert j["judge"]["calls"] == 6 and j["agent"]["calls"] == 0
        # "What is the working diagnosis?" = 5 words, "OK" = 1 word
        assert a["agent"]["prompt_tokens"] == 50 and a["agent"]["completion_tokens"] == 10
        assert a["agent"]["total_tokens"] == 60 and j["judge"]["total_tokens"] == 36
        assert a["total"]["total_tokens"] == 60
        after = GLOBAL_USAGE.snapshot()
        assert after["agent"]["total_tokens"] - before["agent"]["total_tokens"] == 60
        assert after["judge"]["total_tokens"] - before["judge"]["total_tokens"] == 36


def test_with_meter_gives_per_episode_accounting(client_for, user_messages):
    with FakeOpenAIServer() as srv:
        shared = client_for(srv)
        episode = UsageMeter()
        view = shared.with_meter(episode)
        view.chat(user_messages)
        view.with_role("judge").chat(user_messages)
        assert episode.role("agent")["calls"] == 1 and episode.role("judge")["calls"] == 1
        assert shared.usage.role("agent")["calls"] == 0  # the view does not write the parent's meter
        assert view.limits is shared.limits


def test_usage_meter_api():
    m = UsageMeter()
    m.record("agent", calls=1, total_tokens=5)
    m.record("patient-sim", calls=2)
    snap = m.snapshot()
    assert set(snap) == {"agent", "judge", "patient-sim", "total"}
    assert snap["total"]["calls"] == 3 and snap["judge"]["calls"] == 0
    with pytest.raises(ValueError, match="unknown usage counters"):
        m.record("agent", tokens=1)
    clone = pickle.loads(pickle.dumps(m))
    assert clone.snapshot() == snap
    m.reset()
    assert m.snapshot()["total"]["calls"] == 0
