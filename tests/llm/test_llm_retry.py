"""Bounded retries over real sockets: 429 (Retry-After), 5xx, timeouts, dropped
connections and garbage bodies are retried; exhausted retries raise, never a default."""

from __future__ import annotations

import email.utils
import math
import socket
import time

import pytest

from medgym.llm import LLMClient, LLMConfig, LLMTransportError, remembered_mode
from medgym.llm.fake_server import ErrorReply, FakeOpenAIServer, Fault, RandomFaults
from medgym.llm.retry import Failure, backoff_delay, parse_retry_after


@pytest.mark.parametrize("fault", ["500", "timeout", "drop", "garbage", "503"])
def test_transient_fault_is_retried_then_succeeds(client_for, user_messages, fault):
    first = ErrorReply(503, "overloaded") if fault == "503" else Fault(fault)
    with FakeOpenAIServer(replies=[first, "recovered"], timeout_s=5.0) as srv:
        client = client_for(srv, timeout=0.8 if fault == "timeout" else 3.0)
        res = client.chat(user_messages)
        assert res.text == "recovered" and res.attempts == 2
        assert len(srv.requests) == 2
        snap = client.usage.snapshot()["agent"]
        assert snap["requests"] == 2 and snap["retries"] == 1 and snap["errors"] == 0


def test_429_honours_retry_after(client_for, user_messages):
    with FakeOpenAIServer(replies=["ok"], faults=[Fault.RATE_LIMIT], retry_after_s=0.4) as srv:
        client = client_for(srv, backoff_base=0.0, backoff_max=0.0)  # only Retry-After can delay
        t0 = time.perf_counter()
        res = client.chat(user_messages)
        elapsed = time.perf_counter() - t0
        assert res.text == "ok" and res.attempts == 2
        assert elapsed >= 0.4, "the client retried before the server's Retry-After"
        assert srv.faults_applied == [(0, "429")]


def test_retry_after_is_capped(client_for, user_messages):
    with FakeOpenAIServer(replies=["ok"], faults=["429"], retry_after_s=30) as srv:
        client = client_for(srv, retry_after_max=0.1)
        t0 = time.perf_counter()
        assert client.chat(user_messages).text == "ok"
        assert time.perf_counter() - t0 < 5


@pytest.mark.parametrize(("fault", "reason", "status"), [
    ("500", "server_error", 500), ("429", "rate_limited", 429), ("timeout", "timeout", None),
    ("drop", "connection", None), ("garbage", "bad_response", None),
])
def test_exhausted_retries_raise_transport_error(client_for, user_messages, fault, reason, status):
    with FakeOpenAIServer(faults=[fault] * 10, retry_after_s=0.01, timeout_s=5.0) as srv:
        client = client_for(srv, max_retries=2, timeout=0.5 if fault == "timeout" else 3.0, role="judge")
        with pytest.raises(LLMTransportError) as info:
            client.chat(user_messages)
        err = info.value
        assert (err.reason, err.status, err.attempts, err.retryable) == (reason, status, 3, True)
        assert len(srv.requests) == 3
        snap = client.usage.snapshot()["judge"]
        assert snap["transport_errors"] == 1 and snap["retries"] == 2 and snap["total_tokens"] == 0


def test_judge_style_caller_gets_nan_not_zero_when_the_server_is_down(client_for, user_messages):
    with FakeOpenAIServer(faults=["500"] * 50) as srv:
        client = client_for(srv, max_retries=1, role="judge")

        def score() -> float:
            try:
                parsed, _ = client.chat_json(user_messages, {"type": "object"})
            except LLMTransportError:
                return math.nan
            return 1.0

        assert math.isnan(score())
        # json_schema and json_object got 2 bare 500s each, then prompt mode used its retries
        assert len(srv.requests) == 2 + 2 + 2
        # an outage must not be mistaken for a server that rejects json_schema
        assert remembered_mode(client.config.endpoint, "fake-model") == "json_schema"


def test_connection_refused_is_retried_then_raised(user_messages):
    with socket.socket() as s:  # a port with nothing listening
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    client = LLMClient(LLMConfig(base_url=f"http://127.0.0.1:{port}/v1", model="m", timeout=0.5,
                                 max_retries=2, backoff_base=0.01))
    with pytest.raises(LLMTransportError) as info:
        client.chat(user_messages)
    assert info.value.reason == "connection" and info.value.attempts == 3


def test_error_object_in_a_200_body_is_a_server_fault(client_for, user_messages):
    with FakeOpenAIServer(replies=[{"choices": [], "error": {"message": "upstream died"}}, "fine"]) as srv:
        res = client_for(srv).chat(user_messages)
        assert res.text == "fine" and res.attempts == 2


def test_random_fault_plan_never_yields_a_silent_default(client_for, user_messages):
    plan = RandomFaults(rate=0.4, kinds=["429", "500", "drop", "garbage"], seed=3)
    with FakeOpenAIServer(faults=plan, cycle=True, replies=["ok"], retry_after_s=0.01) as srv:
        client = client_for(srv, max_retries=1)
        outcomes = []
        for _ in range(20):
            try:
                outcomes.append(client.chat(user_messages).text)
            except LLMTransportError as exc:
                outcomes.append(exc.reason)
        assert set(outcomes) <= {"ok", "rate_limited", "server_error", "connection", "bad_response"}
        assert outcomes.count("ok") >= 10
        assert len(srv.faults_applied) > 0
        snap = client.usage.snapshot()["agent"]
        assert snap["requests"] == len(srv.requests)
        assert snap["transport_errors"] == sum(o != "ok" for o in outcomes)


def test_parse_retry_after_forms():
    assert parse_retry_after({"retry-after": "2"}) == 2.0
    assert parse_retry_after({"retry-after": "0.25"}) == 0.25
    assert parse_retry_after({"retry-after-ms": "1500", "retry-after": "9"}) == 1.5
    assert parse_retry_after({"retry-after": "soon"}) is None
    assert parse_retry_after({}) is None
    future = email.utils.formatdate(time.time() + 30, usegmt=True)
    assert 25 < parse_retry_after({"retry-after": future}) <= 31


def test_backoff_is_exponential_capped_and_jittered():
    f = Failure("server_error", True, 500, "x")
    for i in range(8):
        d = backoff_delay(i, f, base=0.5, cap=4.0, retry_after_max=60)
        exp = min(4.0, 0.5 * 2**i)
        assert exp * 0.5 <= d <= exp
    ra = Failure("rate_limited", True, 429, "x", retry_after=100.0)
    assert 10.0 <= backoff_delay(0, ra, base=0.5, cap=4.0, retry_after_max=10.0) <= 11.0
