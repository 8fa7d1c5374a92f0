"""Run a grid over several worker processes (``RunConfig.workers > 1``).

Why processes: an LLM episode spends most of its time waiting on HTTP, but every turn
also costs about 2 ms of Python CPU (openai client, LangGraph, env). With 32 episodes in
flight in one interpreter their replies arrive together and queue on the GIL, which
costs ~20% of throughput at concurrency 32 on 2 cores. Sharding the in-flight episodes
over one process per core removes that queue; CPU-bound judging (the reference judge)
also gets every core instead of one.

Design:
- Workers are forked from the parent after the bank and the judge are loaded (the
  judge is warmed first, so the MiniLM weights are shared copy-on-write rather than
  loaded once per worker). ``fork`` is required; where it is unavailable the runner
  falls back to one process (with a warning).
- Episodes are handed out through a task queue, so a worker that draws short episodes
  takes more of them. Each worker runs ``concurrency / workers`` episode threads.
- Only the parent writes ``results.jsonl``: workers send finished records back over a
  result queue, so the append-only, whole-line guarantees of ``ResultStore`` are kept
  unchanged, and resume works exactly as in one process.
- LLM limits are per process; each worker takes 1/workers of every endpoint's
  in-flight and requests-per-minute limits (:func:`medgym.llm.limits.set_process_share`),
  so the run as a whole keeps the configured global limits.
- Ctrl-C: workers ignore SIGINT; the parent sets a shared stop event, collects what
  finishes, and re-raises. Workers die with the parent (PR_SET_PDEATHSIG on Linux, and a
  parent-pid check between episodes), so a ``kill -9`` of the run leaves no orphans
  calling an endpoint.
- A worker that dies (OOM, segfault) loses only its episodes in flight: they are not
  in results.jsonl, so the next run retries them; the summary counts them as ``lost``.
"""

from __future__ import annotations

import multiprocessing as mp
import os
import queue
import signal
import sys
import threading
import warnings
from collections.abc import Callable, Iterator
from typing import Any

from medgym.forking import after_fork, cores, fork_available
from medgym.knowledge_base.case_bank import CaseBank
from medgym.runner.config import RunConfig
from medgym.runner.grid import EpisodeSpec
from medgym.runner.threads import run_threads

_PR_SET_PDEATHSIG = 1


def effective_workers(config: RunConfig, n_todo: int) -> int:
    """Worker processes actually used: never more than episodes or in-flight slots."""
    asked = cores() if config.workers == "auto" else config.workers
    want = max(1, min(asked, config.concurrency, n_todo))
    if want > 1 and not fork_available():
        warnings.warn(f"workers={config.workers} needs the 'fork' start method (Linux); running in one process",
                      RuntimeWarning, stacklevel=3)
        return 1
    return want


def warm_judge(judge: Any) -> None:
    """Load what the judge loads lazily, before forking, so workers share it."""
    warm = getattr(judge, "warm_up", None)
    if callable(warm):
        warm()


def _die_with_parent(parent_pid: int) -> None:
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
        except (OSError, AttributeError):  # no prctl: the parent-pid check below still applies
            pass
    if os.getppid() != parent_pid:  # the parent died before prctl took effect
        os._exit(1)


def _child_setup(share: float, parent_pid: int) -> None:
    """Make the forked interpreter safe and fair to use."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent owns Ctrl-C
    _die_with_parent(parent_pid)
    after_fork()  # torch's thread pool does not survive fork (see medgym.forking)
    from medgym.llm.limits import set_process_share

    set_process_share(share)


def _task_iter(tasks: Any, stop: Any, parent_pid: int) -> Iterator[EpisodeSpec]:
    while not stop.is_set() and os.getppid() == parent_pid:
        spec = tasks.get()
        if spec is None:
            return
        yield spec


def _worker_main(tasks: Any, results: Any, stop: Any, config: RunConfig, bank: CaseBank, judge: Any,
                 threads: int, share: float, parent_pid: int, index: int, workers: int) -> None:
    _child_setup(share, parent_pid)
    # interleave the workers' ramp-ups so the run as a whole starts one episode per interval
    if config.start_interval_s and index:
        stop.wait(index * config.start_interval_s)
    try:
        run_threads(_task_iter(tasks, stop, parent_pid), config, bank, judge, stop, threads,
                    on_record=lambda rec: results.put(("record", rec)), queue_depth=threads,
                    start_interval_s=config.start_interval_s * workers)
    finally:
        results.put(("done", os.getpid()))
        results.close()
        results.join_thread()  # flush every record to the pipe before exiting


def run_processes(todo: list[EpisodeSpec], config: RunConfig, bank: CaseBank, judge: Any, workers: int,
                  stop: threading.Event, on_record: Callable[[dict[str, Any]], None]) -> int:
    """Run ``todo`` over ``workers`` forked processes; returns how many episodes were lost.

    ``on_record`` is called in this (the parent) process for every finished episode.
    """
    ctx = mp.get_context("fork")
    warm_judge(judge)
    tasks, results, shared_stop = ctx.Queue(), ctx.Queue(), ctx.Event()
    for spec in todo:
        tasks.put(spec)
    threads = -(-config.concurrency // workers)
    for _ in range(workers * threads):  # one end marker per episode thread
        tasks.put(None)
    procs = [
        ctx.Process(target=_worker_main, name=f"medgym-worker-{i}", daemon=True,
                    args=(tasks, results, shared_stop, config, bank, judge, threads, 1.0 / workers, os.getpid(), i, workers))
        for i in range(workers)
    ]
    for p in procs:
        p.start()
    received, done = 0, set()
    try:
        while len(done) < workers:
            if stop.is_set():
                shared_stop.set()
            try:
                kind, payload = results.get(timeout=0.2)
            except queue.Empty:
                for p in procs:  # a worker killed before saying "done" will never say it
                    if p.exitcode is not None and p.pid not in done:
                        done.add(p.pid)
                continue
            if kind == "record":
                received += 1
                on_record(payload)
            else:
                done.add(payload)
    except KeyboardInterrupt:
        shared_stop.set()
        stop.set()
        _drain(results, procs, done, on_record)
        raise
    finally:
        shared_stop.set()
        for p in procs:
            p.join(timeout=5)
            if p.is_alive():
                p.kill()
                p.join()
        tasks.cancel_join_thread()
        tasks.close()
    if stop.is_set():
        return 0  # stopped on request: the rest was never started, nothing was lost
    return len(todo) - received


def _drain(results: Any, procs: list[Any], done: set[int], on_record: Callable[[dict[str, Any]], None],
           timeout_s: float = 30.0) -> None:
    """After a stop request, keep whatever the workers still finish (in-flight episodes
    end at their next step, so this is quick)."""
    import time

    deadline = time.monotonic() + timeout_s
    while len(done) < len(procs) and time.monotonic() < deadline:
        try:
            kind, payload = results.get(timeout=0.2)
        except queue.Empty:
            done.update(p.pid for p in procs if p.exitcode is not None)
            continue
        except KeyboardInterrupt:  # a second Ctrl-C: stop waiting
            return
        if kind == "record":
            on_record(payload)
        else:
            done.add(payload)
