"""The on-disk response cache: an identical rerun costs no request and no tokens;
failures are never cached; safe under threads and processes."""

from __future__ import annotations

import multiprocessing as mp
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

from medgym.llm import LLMOutputError, ResponseCache, request_key, reset_structured_memory
from medgym.llm.fake_server import FakeOpenAIServer, Fault

SCHEMA = {"type": "object", "properties": {"ok": {"type": "boolean"}}, "required": ["ok"]}


def test_identical_request_is_served_from_cache_with_zero_tokens(client_for, user_messages, tmp_path):
    with FakeOpenAIServer(replies=["first answer"]) as srv:
        client = client_for(srv, cache_dir=str(tmp_path), role="judge")
        a = client.chat(user_messages)
        b = client.chat(user_messages)
        assert len(srv.requests) == 1, "the identical second call must not reach the server"
        assert (a.cached, b.cached) == (False, True)
        assert b.text == a.text == "first answer" and b.message == a.message
        assert b.usage.total_tokens == 0 and b.attempts == 0
        snap = client.usage.snapshot()["judge"]
        assert snap["calls"] == 2 and snap["cached"] == 1 and snap["requests"] == 1
        assert snap["total_tokens"] == a.usage.total_tokens


def test_any_change_in_the_request_misses(client_for, user_messages, tmp_path):
    with FakeOpenAIServer(replies=["a", "b", "c", "d"]) as srv:
        client = client_for(srv, cache_dir=str(tmp_path))
        client.chat(user_messages)
        client.chat(user_messages, temperature=0.3)
        client_for(srv, cache_dir=str(tmp_path), seed=1).chat(user_messages)
        client_for(srv, cache_dir=str(tmp_path), model="other").chat(user_messages)
        assert len(srv.requests) == 4
        assert client.chat(user_messages).text == "a"  # still the first entry
        assert len(srv.requests) == 4


def test_cache_survives_a_new_client_and_is_shared_between_roles(client_for, user_messages, tmp_path):
    with FakeOpenAIServer(replies=["only once"]) as srv:
        client_for(srv, cache_dir=str(tmp_path)).chat(user_messages)
        ResponseCache.shared(tmp_path).close()  # drop the process-wide instance: reopen from disk
        again = client_for(srv, cache_dir=str(tmp_path), role="judge").chat(user_messages)
        assert again.cached and again.text == "only once" and len(srv.requests) == 1


def test_failures_are_not_cached(client_for, user_messages, tmp_path):
    with FakeOpenAIServer(replies=[Fault.MALFORMED_JSON, '{"ok": true}']) as srv:
        client = client_for(srv, cache_dir=str(tmp_path), output_retries=0)
        with pytest.raises(LLMOutputError):
            client.chat_json(user_messages, SCHEMA)
        parsed, res = client.chat_json(user_messages, SCHEMA)
        assert parsed == {"ok": True} and not res.cached and len(srv.requests) == 2
        parsed2, res2 = client.chat_json(user_messages, SCHEMA)
        assert parsed2 == parsed and res2.cached and len(srv.requests) == 2


def test_chat_json_rerun_is_free_even_before_the_fallback_is_relearned(client_for, user_messages, tmp_path):
    with FakeOpenAIServer(replies=['{"ok": false}'], reject_json_schema=True, cycle=True) as srv:
        client = client_for(srv, cache_dir=str(tmp_path))
        parsed, res = client.chat_json(user_messages, SCHEMA, name="check")
        assert res.structured_mode == "json_object" and len(srv.requests) == 2
        reset_structured_memory()  # as in a fresh process
        parsed2, res2 = client_for(srv, cache_dir=str(tmp_path)).chat_json(user_messages, SCHEMA, name="check")
        assert parsed2 == {"ok": False} and res2.cached and res2.structured_mode == "json_object"
        assert len(srv.requests) == 2
        assert res2.usage.total_tokens == 0
        # a different schema (or name) is a different logical request
        client.chat_json(user_messages, {**SCHEMA, "additionalProperties": False}, name="check")
        assert len(srv.requests) == 4  # json_schema (rejected: memory was reset) + json_object


def test_request_key_is_canonical():
    a = {"model": "m", "messages": [{"role": "user", "content": "x"}], "temperature": 0.0}
    b = {"temperature": 0.0, "messages": [{"content": "x", "role": "user"}], "model": "m"}
    assert request_key(a) == request_key(b)
    assert request_key(a) != request_key({**a, "seed": 1})
    assert len(request_key(a)) == 64


def test_cache_is_thread_safe(tmp_path):
    cache = ResponseCache(tmp_path / "c.sqlite3")

    def work(i: int) -> None:
        for j in range(50):
            key = request_key({"i": i, "j": j})
            cache.put(key, {"completion": {"i": i, "j": j}})
            assert cache.get(key) == {"completion": {"i": i, "j": j}}

    with ThreadPoolExecutor(8) as pool:
        list(pool.map(work, range(8)))
    assert len(cache) == 400


def _process_worker(path: str, worker: int, barrier: threading.Barrier | None) -> int:
    cache = ResponseCache(path)
    if barrier is not None:
        barrier.wait()
    for j in range(100):
        cache.put(request_key({"shared": j}), {"by": worker, "j": j})
        cache.put(request_key({"w": worker, "j": j}), {"by": worker, "j": j})
        got = cache.get(request_key({"shared": j}))
        if got is None or got["j"] != j:
            return -1
    return len(cache)


def test_cache_is_safe_across_processes(tmp_path):
    ctx = mp.get_context("spawn")
    path = str(tmp_path / "shared.sqlite3")
    with ctx.Manager() as manager:
        barrier = manager.Barrier(3)
        with ctx.Pool(3) as pool:
            results = pool.starmap(_process_worker, [(path, w, barrier) for w in range(3)])
    assert all(r > 0 for r in results)
    cache = ResponseCache(path)
    assert len(cache) == 100 + 3 * 100
    for w in range(3):
        assert cache.get(request_key({"w": w, "j": 99})) == {"by": w, "j": 99}
