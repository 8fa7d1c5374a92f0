"""The LLM judge against the real local fake OpenAI server: success paths and every failure mode.

Outcome is always either the right metrics or an ``unscored`` item with every metric None:
never a crash, never a silent 0.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from medgym.judges import get_judge
from medgym.judges.llm_judge import LLMAnnotation, LLMJudge, annotation_from_labels, render_prompt
from medgym.judges.validation import label_metrics, load_validation_set
from medgym.llm import LLMConfig
from medgym.llm.fake_server import FakeOpenAIServer

VALIDATION = Path(__file__).parent / "validation"


@pytest.fixture(scope="module")
def item():
    return {i.id: i for i in load_validation_set(VALIDATION)}["hep-OID-careful"]


def _judge(srv: FakeOpenAIServer, **over) -> LLMJudge:
    params = {"base_url": srv.base_url, "model": "fake-judge", "timeout": 2.0, "backoff_base": 0.01,
              "backoff_max": 0.02, "max_retries": 2, "output_retries": 1}
    params.update(over)
    return LLMJudge(LLMConfig(**params))


def _assert_unscored(res):
    assert res.status == "unscored", res.reason
    assert res.reason
    assert all(v is None for v in res.metrics().values())
    assert res.counts is None and res.annotations is None


def test_well_formed_structured_reply_gives_the_label_metrics(item):
    reply = json.dumps(annotation_from_labels(item))
    with FakeOpenAIServer(replies=[reply]) as srv:
        res = _judge(srv).judge(item.trajectory)
        req = srv.requests[0]
    assert res.status == "ok", res.reason
    assert res.metrics() == pytest.approx(label_metrics(item)) or res.metrics() == label_metrics(item)
    assert req["temperature"] == 0 and req["seed"] == 0
    assert req["response_format"]["type"] == "json_schema"
    assert res.usage.total_tokens > 0 and res.usage.requests == 1  # judge tokens recorded apart
    assert res.judge == "llm" and res.judge_config["model"] == "fake-judge"
    # the prompt carries m, g and p
    prompt = req["messages"][1]["content"]
    for needle in ("KEY GAPS", "hbsag_positive", "drug-induced liver injury", "TURN 3 / AGENT"):
        assert needle in prompt


def test_malformed_json_is_unscored(item):
    with FakeOpenAIServer(replies=["{not json", '{"gaps": "nope"}']) as srv:
        res = _judge(srv).judge(item.trajectory)
    _assert_unscored(res)
    assert "not valid" in res.reason


def test_server_rejecting_json_schema_falls_back_to_json_object(item):
    reply = json.dumps(annotation_from_labels(item))
    with FakeOpenAIServer(replies=[reply], reject_json_schema=True) as srv:
        res = _judge(srv).judge(item.trajectory)
        kinds = [(r.get("response_format") or {}).get("type") for r in srv.requests]
    assert res.status == "ok", res.reason
    assert kinds[0] == "json_schema" and kinds[-1] != "json_schema"
    assert res.metrics() == label_metrics(item)


@pytest.mark.parametrize("fault", ["429", "500", "timeout", "drop"])
def test_transient_fault_then_success_is_scored(item, fault):
    reply = json.dumps(annotation_from_labels(item))
    with FakeOpenAIServer(replies=[reply], faults=[fault], timeout_s=3.0) as srv:
        res = _judge(srv, timeout=1.0).judge(item.trajectory)
    assert res.status == "ok", res.reason
    assert res.metrics() == label_metrics(item)
    assert res.usage.requests == 2


@pytest.mark.parametrize("fault", ["429", "500", "timeout", "drop"])
def test_persistent_fault_is_unscored_after_bounded_retries(item, fault):
    with FakeOpenAIServer(replies=[], faults=[fault] * 5, timeout_s=3.0) as srv:
        res = _judge(srv, timeout=0.5, max_retries=1).judge(item.trajectory)
        n = len(srv.requests)
    _assert_unscored(res)
    # bounded: 1 + max_retries attempts (a bare 500 may also be read as a json_schema rejection,
    # so the client tries the json_object and prompt modes too, each with the same bound)
    assert 2 <= n <= 3 * 2
    assert "transport" in res.reason
    assert res.usage.requests >= 2


def test_incomplete_annotation_is_unscored(item):
    ann = annotation_from_labels(item)
    ann["gaps"] = ann["gaps"][1:]  # a key gap left out
    with FakeOpenAIServer(replies=[json.dumps(ann)]) as srv:
        res = _judge(srv).judge(item.trajectory)
    _assert_unscored(res)
    assert "key gap" in res.reason


def test_unreachable_endpoint_is_unscored(item):
    judge = LLMJudge(LLMConfig(base_url="http://127.0.0.1:9/v1", model="x", max_retries=0, timeout=0.5))
    res = judge.judge(item.trajectory)
    _assert_unscored(res)


def test_prompt_templates_and_schema(item):
    msgs = render_prompt(item.trajectory)
    assert [m["role"] for m in msgs] == ["system", "user"]
    assert "{" not in msgs[1]["content"].split("TRAJECTORY")[0].replace("{'", "")  # every placeholder filled
    schema = LLMAnnotation.model_json_schema()
    assert {"gaps", "claims", "final_evidence", "updates"} <= set(schema["properties"])


def test_get_judge_llm_reads_configuration(monkeypatch):
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:8000/v1")
    monkeypatch.setenv("OPENAI_MODEL", "qwen-test")
    judge = get_judge("llm")
    cfg = judge.config()
    assert cfg["model"] == "qwen-test" and cfg["base_url"] == "http://127.0.0.1:8000/v1"
    assert cfg["temperature"] == 0 and cfg["seed"] == 0 and judge.llm_config.role == "judge"
