"""Run episodes on a thread pool: the in-process engine of the batch runner.

LLM agents spend their time waiting on HTTP and the shared LLM client enforces the
global in-flight and requests-per-minute limits, so threads are the right tool inside
one process. The same loop runs in the parent (``workers=1``) and inside each worker
process of a sharded run (see ``workers.py``).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from typing import Any

from medgym.knowledge_base.case_bank import CaseBank
from medgym.runner.config import RunConfig
from medgym.runner.episode import run_episode
from medgym.runner.grid import EpisodeSpec


def judge_slots_for(judge: Any) -> threading.BoundedSemaphore | None:
    """CPU-bound judges (the reference judge) say how many may run at once per process;
    I/O-bound ones (LLM judges) do not, and run at the episode concurrency."""
    max_parallel = getattr(judge, "max_parallel", None)
    return threading.BoundedSemaphore(max_parallel) if max_parallel else None


def _start_threads(ex: ThreadPoolExecutor, n: int) -> None:
    """Start the pool's threads before any episode runs.

    ThreadPoolExecutor starts a thread per submit, and ``Thread.start`` waits until the
    new thread has run; once episodes are running, each such wait queues on the GIL
    behind them (~2 ms per thread), so 32 lazily started threads spread the first
    wave's requests over ~60 ms. Started up front, on an idle interpreter, they cost
    ~0.1 ms each and the first wave leaves together.
    """
    barrier = threading.Barrier(n + 1)
    futures = [ex.submit(barrier.wait) for _ in range(n)]
    barrier.wait()
    wait(futures)


def warm_agents(config: RunConfig) -> None:
    """Build (and drop) one agent per spec before any episode starts.

    The first construction imports the agent's stack (LangGraph, the openai client: ~0.7 s
    for the LLM clinician) under the import lock; done by 32 episode threads at once, every
    thread waits behind it, and in forked workers each worker would pay it again. Built
    here once, workers inherit it. A factory that fails is left for the episodes, which
    record it as an ``agent_init`` error.
    """
    from medgym.agents.registry import make_agent

    for agent in config.agents:
        try:
            make_agent(agent.spec, **agent.kwargs)
        except Exception:  # noqa: BLE001 - recorded per episode, where it belongs
            continue


def run_threads(
    specs: Iterator[EpisodeSpec],
    config: RunConfig,
    bank: CaseBank,
    judge: Any,
    stop: Any,
    concurrency: int,
    on_record: Callable[[dict[str, Any]], None],
    queue_depth: int | None = None,
    start_interval_s: float = 0.0,
) -> None:
    """Run every spec from ``specs`` with ``concurrency`` episodes in flight.

    ``on_record`` receives each finished record in the calling thread (NaN metrics may
    remain: ``ResultStore.append`` writes them as null). Specs are drawn lazily, ``concurrency + queue_depth`` ahead at most, so a
    shared task queue stays shared. The first ``concurrency`` episodes start
    ``start_interval_s`` apart (see ``RunConfig.start_interval_s``). ``stop`` is a threading or multiprocessing Event: once set, no
    new episode starts and in-flight ones end at their next step (they return nothing
    and rerun on resume). On KeyboardInterrupt the finished in-flight records are still
    delivered before the interrupt propagates.
    """
    judge_slots = judge_slots_for(judge)
    in_flight: dict[Future, EpisodeSpec] = {}
    depth = concurrency if queue_depth is None else queue_depth

    def deliver(fut: Future) -> None:
        rec = fut.result()
        if rec is not None:
            on_record(rec)

    def submit_next(ex: ThreadPoolExecutor) -> None:
        if stop.is_set():
            return
        spec = next(specs, None)
        if spec is not None:
            in_flight[ex.submit(run_episode, spec, config, bank, judge, stop, judge_slots)] = spec

    ex = ThreadPoolExecutor(max_workers=concurrency, thread_name_prefix="medgym-ep")
    _start_threads(ex, concurrency)
    try:
        for i in range(concurrency + depth):  # a small queue keeps threads busy without drawing everything
            if start_interval_s and 0 < i < concurrency:
                stop.wait(start_interval_s)  # returns at once on a stop request
            submit_next(ex)
        while in_flight:
            done, _ = wait(list(in_flight), return_when=FIRST_COMPLETED)
            for fut in done:
                in_flight.pop(fut)
                deliver(fut)
                submit_next(ex)
    except KeyboardInterrupt:
        stop.set()
        for fut in list(in_flight):  # keep what finished; the rest stops at its next step
            if not fut.cancel():
                deliver(fut)
        raise
    finally:
        ex.shutdown(wait=True, cancel_futures=True)
