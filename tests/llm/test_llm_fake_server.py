"""The fake OpenAI-compatible server itself, spoken to with plain httpx."""

from __future__ import annotations

import json
import socket
import time

import httpx
import pytest

from medgym.llm.fake_server import ErrorReply, FakeOpenAIServer, Fault, RandomFaults

BODY = {"model": "m", "messages": [{"role": "user", "content": "hi"}]}


def _post(srv: FakeOpenAIServer, body: dict | None = None, timeout: float = 2.0) -> httpx.Response:
    return httpx.post(f"{srv.base_url}/chat/completions", json=body or BODY, timeout=timeout)


def test_models_endpoint_and_openai_shape():
    with FakeOpenAIServer(replies=["x"], model_name="llama-3-8b") as srv:
        assert srv.base_url.startswith("http://127.0.0.1:") and srv.base_url.endswith("/v1")
        models = httpx.get(f"{srv.base_url}/models").json()
        assert models["data"][0]["id"] == "llama-3-8b"
        data = _post(srv).json()
        assert data["object"] == "chat.completion"
        assert data["choices"][0]["message"] == {"role": "assistant", "content": "x"}
        assert data["usage"] == {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}
        assert httpx.get(f"{srv.base_url}/nope").status_code == 404


def test_replies_exhausted_is_loud_unless_cycling():
    with FakeOpenAIServer(replies=["a"]) as srv:
        assert _post(srv).status_code == 200
        r = _post(srv)
        assert r.status_code == 410 and "exhausted" in r.json()["error"]["message"]
    with FakeOpenAIServer(replies=["a", "b"], cycle=True) as srv:
        texts = [_post(srv).json()["choices"][0]["message"]["content"] for _ in range(5)]
        assert texts == ["a", "b", "a", "b", "a"]


def test_handler_sees_the_request_and_can_return_errors():
    def handler(req):
        last = req["messages"][-1]["content"]
        if last == "fail":
            return ErrorReply(503, "busy", {"Retry-After": "1"})
        return {"content": last.upper()}

    with FakeOpenAIServer(handler=handler) as srv:
        assert _post(srv, {"messages": [{"role": "user", "content": "echo"}]}).json()[
            "choices"][0]["message"]["content"] == "ECHO"
        r = _post(srv, {"messages": [{"role": "user", "content": "fail"}]})
        assert r.status_code == 503 and r.headers["retry-after"] == "1"
        assert len(srv.requests) == 2


def test_each_fault_kind_on_the_wire():
    faults = ["429", "500", "garbage", "malformed_json", "drop", "timeout"]
    with FakeOpenAIServer(faults=faults, retry_after_s=2, timeout_s=0.5) as srv:
        r = _post(srv)
        assert r.status_code == 429 and r.headers["retry-after"] == "2"
        assert _post(srv).status_code == 500
        g = _post(srv)
        assert g.status_code == 200 and g.headers["content-type"] == "application/json"
        with pytest.raises(ValueError):
            g.json()
        content = _post(srv).json()["choices"][0]["message"]["content"]
        with pytest.raises(ValueError):
            json.loads(content)
        with pytest.raises(httpx.TransportError):
            _post(srv)
        with pytest.raises(httpx.TransportError):  # server closes after timeout_s, or the client times out
            _post(srv, timeout=0.2)
        assert [k for _, k in srv.faults_applied] == faults
        assert _post(srv).status_code == 200  # the fault list is over


def test_faults_do_not_consume_replies_and_fault_replies_work():
    with FakeOpenAIServer(replies=[Fault.SERVER_ERROR, "a"], faults=["429"]) as srv:
        codes = [_post(srv).status_code for _ in range(3)]
        assert codes == [429, 500, 200]


def test_random_faults_are_seeded():
    def plan(seed):
        rf = RandomFaults(rate=0.5, seed=seed)
        return [rf(i, {}) for i in range(30)]

    assert plan(1) == plan(1) != plan(2)
    assert {Fault.MALFORMED_JSON} - set(plan(1)) == {Fault.MALFORMED_JSON}
    with pytest.raises(ValueError):
        RandomFaults(rate=2)
    with pytest.raises(ValueError, match="unknown fault"):
        FakeOpenAIServer(faults=["explode"])


def test_reject_json_schema_like_llama_cpp():
    with FakeOpenAIServer(replies=["{}"], reject_json_schema=True) as srv:
        r = _post(srv, {**BODY, "response_format": {"type": "json_schema", "json_schema": {"name": "x"}}})
        assert r.status_code == 500 and "json_schema" in r.json()["error"]["message"]
        ok = _post(srv, {**BODY, "response_format": {"type": "json_object"}})
        assert ok.status_code == 200


def test_shutdown_is_clean_even_with_requests_in_flight():
    srv = FakeOpenAIServer(faults=["timeout"], timeout_s=30).start()
    port = srv.port
    with httpx.Client(timeout=0.2) as c, pytest.raises(httpx.TransportError):
        c.post(f"{srv.base_url}/chat/completions", json=BODY)
    t0 = time.perf_counter()
    srv.stop()
    assert time.perf_counter() - t0 < 3
    with socket.socket() as s:
        assert s.connect_ex(("127.0.0.1", port)) != 0  # nothing listens any more


def test_out_of_process_server_speaks_the_same_protocol():
    from medgym.llm.fake_server import FakeOpenAIServerProcess

    replies = ["first", Fault.SERVER_ERROR, ErrorReply(418, "teapot"), {"content": "last"}]
    with FakeOpenAIServerProcess(replies=replies, faults=["429"], retry_after_s=1) as srv:
        assert _post(srv).status_code == 429
        assert _post(srv).json()["choices"][0]["message"]["content"] == "first"
        assert _post(srv).status_code == 500
        assert _post(srv).status_code == 418
        assert _post(srv).json()["choices"][0]["message"]["content"] == "last"
        stats = srv.stats()
        assert stats["requests"] == 5 and stats["faults_applied"] == [[0, "429"], [2, "500"]]
        assert srv.requests[0]["messages"] == BODY["messages"]
    with pytest.raises(TypeError, match="handler"):
        FakeOpenAIServerProcess(handler=lambda r: "x")
