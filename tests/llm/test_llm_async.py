"""The async path (AsyncOpenAI): same behaviour as the sync one."""

from __future__ import annotations

import asyncio

import pytest
from pydantic import BaseModel

from medgym.llm import LLMOutputError, LLMTransportError
from medgym.llm.fake_server import FakeOpenAIServer, Fault


class Verdict(BaseModel):
    contradiction_flagged: bool
    turn: int


def test_achat_text_and_tool_calls(client_for, user_messages):
    replies = ["hello", {"tool_calls": [{"name": "order_lab", "arguments": {"test": "Na"}}]}]
    with FakeOpenAIServer(replies=replies) as srv:
        client = client_for(srv)

        async def main():
            a = await client.achat(user_messages)
            b = await client.achat(user_messages, tools=[{"name": "order_lab", "parameters": {}}])
            await client.aclose()
            return a, b

        a, b = asyncio.run(main())
        assert a.text == "hello" and a.usage.total_tokens > 0
        assert b.tool_calls[0].arguments == {"test": "Na"} and b.message["tool_calls"]
        assert srv.requests[1]["tools"][0]["type"] == "function"


def test_achat_json_with_fallback_and_faults(client_for, user_messages):
    good = '{"contradiction_flagged": true, "turn": 4}'
    with FakeOpenAIServer(replies=[Fault.RATE_LIMIT, Fault.DROP, good], reject_json_schema=True,
                          retry_after_s=0.05) as srv:
        client = client_for(srv, role="judge")
        parsed, res = asyncio.run(client.achat_json(user_messages, Verdict))
        assert parsed == Verdict(contradiction_flagged=True, turn=4)
        assert res.structured_mode == "json_object"
        # json_schema (500, remembered) -> json_object: 429, drop, success
        assert len(srv.requests) == 4 and res.attempts == 4
        assert client.usage.snapshot()["judge"]["retries"] == 2


def test_async_errors_are_raised_not_defaulted(client_for, user_messages):
    with FakeOpenAIServer(faults=["500"] * 10, replies=[Fault.MALFORMED_JSON] * 4) as srv:
        client = client_for(srv, max_retries=1)
        with pytest.raises(LLMTransportError) as info:
            asyncio.run(client.achat(user_messages))
        assert info.value.status == 500 and info.value.attempts == 2
    with FakeOpenAIServer(replies=[Fault.MALFORMED_JSON] * 2) as srv:
        client = client_for(srv)
        with pytest.raises(LLMOutputError) as out:
            asyncio.run(client.achat_json(user_messages, Verdict))
        assert out.value.raw_text and out.value.attempts == 2


def test_async_cache_hit_and_timeout_retry(client_for, user_messages, tmp_path):
    with FakeOpenAIServer(replies=[Fault.TIMEOUT, "slow but fine"], timeout_s=5.0) as srv:
        client = client_for(srv, timeout=0.8, cache_dir=str(tmp_path))

        async def main():
            first = await client.achat(user_messages)
            second = await client.achat(user_messages)
            return first, second

        first, second = asyncio.run(main())
        assert first.text == second.text == "slow but fine"
        assert first.attempts == 2 and second.cached and len(srv.requests) == 2
        # the sync path sees the same cache entry
        assert client.chat(user_messages).cached


def test_async_concurrency_gives_parallel_speedup(client_for, user_messages):
    with FakeOpenAIServer(latency_s=0.4) as srv:
        client = client_for(srv, max_concurrency=16, timeout=10)

        async def main():
            return await asyncio.gather(*(client.achat(user_messages) for _ in range(16)))

        results = asyncio.run(main())
        assert len(results) == 16 and srv.max_in_flight == 16


def test_one_asyncio_run_per_call_does_not_leak_clients(client_for, user_messages):
    import gc
    import pickle

    with FakeOpenAIServer() as srv:
        client = client_for(srv)
        for _ in range(3):
            assert asyncio.run(client.achat(user_messages)).text == "OK"
        gc.collect()
        # each loop's AsyncOpenAI was closed and forgotten at that loop's shutdown
        assert len(client._aclients) == 0
        clone = pickle.loads(pickle.dumps(client))
        assert clone.config == client.config and clone.chat(user_messages).text == "OK"
