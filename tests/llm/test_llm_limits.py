"""Process-wide limits per endpoint, measured on the server side (max requests in flight)."""

from __future__ import annotations

import asyncio
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from medgym.llm.fake_server import FakeOpenAIServer
from medgym.llm.limits import InFlightLimiter, RatePacer, limits_for


def test_sync_concurrency_limit_is_respected(client_for, user_messages):
    with FakeOpenAIServer(latency_s=0.15) as srv:
        client = client_for(srv, max_concurrency=3)
        with ThreadPoolExecutor(12) as pool:
            texts = list(pool.map(lambda _: client.chat(user_messages).text, range(12)))
        assert texts == ["OK"] * 12
        assert srv.max_in_flight == 3
        assert client.limits.inflight.max_in_flight == 3 and client.limits.inflight.in_flight == 0


def test_limit_is_shared_by_all_clients_of_an_endpoint(client_for, user_messages):
    with FakeOpenAIServer(latency_s=0.15) as srv:
        agent = client_for(srv, max_concurrency=2, role="agent")
        judge = client_for(srv, max_concurrency=2, role="judge")
        clients = [agent, judge] * 5
        with ThreadPoolExecutor(10) as pool:
            list(pool.map(lambda c: c.chat(user_messages), clients))
        assert srv.max_in_flight == 2


def test_tightest_limit_wins(client_for):
    with FakeOpenAIServer() as srv:
        a = client_for(srv, max_concurrency=8)
        b = client_for(srv, max_concurrency=4)
        assert a.limits is b.limits and a.limits.inflight.capacity == 4
        client_for(srv, max_concurrency=16)
        assert a.limits.inflight.capacity == 4


def test_server_serves_requests_concurrently_without_serialising(client_for, user_messages):
    with FakeOpenAIServer(latency_s=0.5) as srv:  # generous: all 32 must overlap on 2 busy cores
        client = client_for(srv, max_concurrency=32, timeout=10)
        with ThreadPoolExecutor(32) as pool:
            list(pool.map(lambda _: client.chat(user_messages), range(32)))
        assert srv.max_in_flight == 32


def test_async_limit_holds_within_one_loop(client_for, user_messages):
    with FakeOpenAIServer(latency_s=0.15) as srv:
        client = client_for(srv, max_concurrency=4)

        async def main():
            results = await asyncio.gather(*(client.achat(user_messages) for _ in range(12)))
            await client.aclose()
            return results

        assert [r.text for r in asyncio.run(main())] == ["OK"] * 12
        assert srv.max_in_flight == 4


def test_limit_holds_across_event_loops_and_threads(client_for, user_messages):
    with FakeOpenAIServer(latency_s=0.1) as srv:
        client = client_for(srv, max_concurrency=3)
        errors: list[BaseException] = []

        def loop_worker():
            async def main():
                await asyncio.gather(*(client.achat(user_messages) for _ in range(5)))
            try:
                asyncio.run(main())
            except BaseException as exc:  # collected and re-raised below
                errors.append(exc)

        def sync_worker():
            for _ in range(3):
                client.chat(user_messages)

        threads = [threading.Thread(target=loop_worker) for _ in range(3)]
        threads += [threading.Thread(target=sync_worker) for _ in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(30)
        assert not errors
        assert len(srv.requests) == 3 * 5 + 2 * 3
        assert srv.max_in_flight == 3


def test_requests_per_minute_paces_request_starts(client_for, user_messages):
    with FakeOpenAIServer() as srv:
        client = client_for(srv, requests_per_minute=600, max_concurrency=8)  # one start every 0.1 s
        t0 = time.perf_counter()
        with ThreadPoolExecutor(5) as pool:
            list(pool.map(lambda _: client.chat(user_messages), range(5)))
        assert time.perf_counter() - t0 >= 0.4


def test_pacer_reservations_are_spaced():
    pacer = RatePacer(rpm=60)  # 1 s apart
    delays = [pacer.reserve() for _ in range(4)]
    assert delays[0] == pytest.approx(0, abs=0.01)
    for i, d in enumerate(delays):
        assert d == pytest.approx(i * 1.0, abs=0.05)
    pacer.tighten(30)
    assert pacer.interval == 2.0
    lim = limits_for("http://example.invalid/v1", 4, None)
    assert lim.pacer is None
    limits_for("http://example.invalid/v1", 4, 120)
    assert lim.pacer is not None and lim.pacer.interval == 0.5


def test_cancelled_async_waiter_does_not_leak_a_slot():
    lim = InFlightLimiter(1)

    async def main():
        await lim.acquire_async()  # hold the only slot
        waiter = asyncio.create_task(lim.acquire_async())
        await asyncio.sleep(0.01)
        waiter.cancel()
        with pytest.raises(asyncio.CancelledError):
            await waiter
        lim.release()
        assert lim.in_flight == 0
        async with lim.slot_async():  # the slot is available again
            assert lim.in_flight == 1

    asyncio.run(main())
    assert lim.in_flight == 0


def test_slot_granted_to_a_waiter_on_a_closed_loop_is_passed_on():
    lim = InFlightLimiter(1)
    lim.acquire()
    loop = asyncio.new_event_loop()
    task = loop.create_task(lim.acquire_async())
    loop.run_until_complete(asyncio.sleep(0.01))  # the task now waits for a slot
    task._log_destroy_pending = False  # it is abandoned on purpose
    loop.close()  # its loop dies with the waiter queued
    got = threading.Event()

    def thread_waiter():
        lim.acquire()
        got.set()
        lim.release()

    t = threading.Thread(target=thread_waiter)
    t.start()
    time.sleep(0.05)
    lim.release()  # the dead waiter is skipped; the thread gets the slot
    assert got.wait(2)
    t.join(2)
    assert lim.in_flight == 0
    del task


def test_no_slot_leaks_under_concurrent_random_faults(client_for, user_messages):
    from medgym.llm import LLMTransportError
    from medgym.llm.fake_server import RandomFaults

    plan = RandomFaults(rate=0.35, kinds=["429", "500", "timeout", "drop", "garbage"], seed=11)
    with FakeOpenAIServer(faults=plan, latency_s=0.02, retry_after_s=0.01, timeout_s=1.5) as srv:
        client = client_for(srv, max_concurrency=4, timeout=0.6, max_retries=2)

        def call(_):
            try:
                return client.chat(user_messages).text
            except LLMTransportError as exc:
                return exc.reason

        async def acall_all():
            async def one():
                try:
                    return (await client.achat(user_messages)).text
                except LLMTransportError as exc:
                    return exc.reason
            return await asyncio.gather(*(one() for _ in range(16)))

        with ThreadPoolExecutor(8) as pool:
            sync_out = list(pool.map(call, range(24)))
        async_out = asyncio.run(acall_all())
        outcomes = sync_out + async_out
        assert set(outcomes) <= {"OK", "rate_limited", "server_error", "timeout", "connection", "bad_response"}
        assert outcomes.count("OK") >= 20
        assert client.limits.inflight.in_flight == 0  # every slot came back
        # (server-side counts can exceed 4 here: a timed-out request stays open on the server)
        assert client.limits.inflight.max_in_flight == 4
