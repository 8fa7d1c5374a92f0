#!/usr/bin/env python
"""Benchmark of medgym.llm against the local fake OpenAI-compatible server.

Prints (does not assert):
  * concurrency efficiency: throughput at concurrency 1 / 8 / 32 against a server that
    answers every request after a fixed latency, as a fraction of the ideal
    (concurrency / latency), for the sync (threads) and async (asyncio) paths, with the
    server in a child process (its CPU does not compete for the client's GIL) and
    in-process (as in the tests);
  * per-call client overhead against a zero-latency server (sync, sequential);
  * cache-hit throughput (identical requests answered from the SQLite cache).

    python scripts/bench_llm_client.py [--latency 0.2] [--concurrency 1 8 32]
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

from medgym.llm import LLMClient, LLMConfig, reset_limits
from medgym.llm.fake_server import FakeOpenAIServer, FakeOpenAIServerProcess

MESSAGES = [{"role": "system", "content": "You are a careful clinician."},
            {"role": "user", "content": "A 67-year-old with fever and productive cough. Next step?"}]


def _client(srv: FakeOpenAIServer | FakeOpenAIServerProcess, concurrency: int, **kw) -> LLMClient:
    reset_limits(srv.base_url)
    return LLMClient(LLMConfig(base_url=srv.base_url, model="fake", max_concurrency=max(1, concurrency),
                               timeout=30, **kw))


def bench_sync(srv: FakeOpenAIServer | FakeOpenAIServerProcess, concurrency: int, n: int) -> float:
    client = _client(srv, concurrency)
    client.chat(MESSAGES)  # warm the connection pool
    t0 = time.perf_counter()
    with ThreadPoolExecutor(concurrency) as pool:
        list(pool.map(lambda _: client.chat(MESSAGES), range(n)))
    return n / (time.perf_counter() - t0)


def bench_async(srv: FakeOpenAIServer | FakeOpenAIServerProcess, concurrency: int, n: int) -> float:
    client = _client(srv, concurrency)

    async def main() -> float:
        await client.achat(MESSAGES)
        t0 = time.perf_counter()
        await asyncio.gather(*(client.achat(MESSAGES) for _ in range(n)))
        rate = n / (time.perf_counter() - t0)
        await client.aclose()
        return rate

    return asyncio.run(main())


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--latency", type=float, default=0.2, help="server latency per request (s)")
    ap.add_argument("--concurrency", type=int, nargs="+", default=[1, 8, 32])
    ap.add_argument("--rounds", type=int, default=8, help="requests per worker at each concurrency")
    args = ap.parse_args()

    print(f"server latency {args.latency:.3f} s; ideal throughput = concurrency / latency")
    print(f"{'server':<11} {'path':<6} {'conc':>5} {'requests':>9} {'req/s':>8} {'ideal':>8} {'efficiency':>10}")
    for where, server_cls in (("subprocess", FakeOpenAIServerProcess), ("in-process", FakeOpenAIServer)):
        with server_cls(latency_s=args.latency) as srv:
            for path, fn in (("sync", bench_sync), ("async", bench_async)):
                for c in args.concurrency:
                    n = c * args.rounds
                    rate = fn(srv, c, n)
                    ideal = c / args.latency
                    print(f"{where:<11} {path:<6} {c:>5} {n:>9} {rate:>8.1f} {ideal:>8.1f} {rate / ideal:>10.2f}")
            print(f"{where} server: max requests in flight {srv.max_in_flight}")

    with FakeOpenAIServer() as srv:
        client = _client(srv, 1)
        for _ in range(20):
            client.chat(MESSAGES)
        n = 300
        t0 = time.perf_counter()
        for i in range(n):
            client.chat(MESSAGES, user=str(i))
        dt = (time.perf_counter() - t0) / n
        print(f"sequential round trip, zero-latency server: {dt * 1000:.2f} ms/call ({1 / dt:.0f} calls/s)")

        with tempfile.TemporaryDirectory() as tmp:
            cached = _client(srv, 1, cache_dir=tmp)
            cached.chat(MESSAGES)
            t0 = time.perf_counter()
            for _ in range(n):
                res = cached.chat(MESSAGES)
            dt = (time.perf_counter() - t0) / n
            print(f"cache hit: {dt * 1000:.3f} ms/call ({1 / dt:.0f} calls/s); cached={res.cached}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
