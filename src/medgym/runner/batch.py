"""Run a grid concurrently, resumably, with a progress bar and a summary.

Episodes run in a thread pool (``config.concurrency`` workers, default 8): LLM
agents spend their time waiting on HTTP, and the shared LLM client enforces the
global in-flight and requests-per-minute limits, so threads are the right tool.
Every finished episode is appended to results.jsonl immediately, so a crash loses
only episodes in flight. Rerunning the same command skips finished episodes and
retries errors (and unscored ones unless ``retry_unscored`` is off).

Ctrl-C sets a stop flag: no new episode starts, in-flight episodes stop at their
next step and are dropped (they rerun on resume), everything already written is
kept, and a KeyboardInterrupt is re-raised for the CLI to exit with code 130.
"""

from __future__ import annotations

import threading
import time
from collections import Counter
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from typing import Any

from medgym.knowledge_base.case_bank import CaseBank, default_bank
from medgym.runner.config import RunConfig
from medgym.runner.episode import jsonable, run_episode
from medgym.runner.grid import EpisodeSpec, build_grid
from medgym.runner.manifest import write_or_check_manifest
from medgym.runner.store import ResultStore


@dataclass
class RunSummary:
    run_dir: str
    total: int
    skipped: int
    ran: int
    status: Counter = field(default_factory=Counter)
    wall_s: float = 0.0
    interrupted: bool = False

    @property
    def rate(self) -> float:
        return self.ran / self.wall_s if self.wall_s > 0 else 0.0


def _make_judge(config: RunConfig) -> Any:
    from medgym.judges import get_judge

    return get_judge(config.judge, **config.judge_kwargs)


def _progress(total: int, enabled: bool):
    if not enabled:
        return None
    from tqdm.auto import tqdm

    return tqdm(total=total, unit="ep", desc="episodes", dynamic_ncols=True, smoothing=0.1)


def pending_specs(config: RunConfig, grid: list[EpisodeSpec], latest: dict[str, dict]) -> list[EpisodeSpec]:
    """Episodes still to run: never finished, errored, or unscored (when retrying those)."""
    finished = {"ok"} if config.retry_unscored else {"ok", "unscored"}
    return [s for s in grid if latest.get(s.key, {}).get("status") not in finished]


def run_batch(
    config: RunConfig,
    bank: CaseBank | None = None,
    judge: Any | None = None,
    progress: bool = True,
    force: bool = False,
    stop: threading.Event | None = None,
) -> RunSummary:
    bank = bank or default_bank()
    grid = build_grid(config, bank)
    store = ResultStore(config.out)
    write_or_check_manifest(config.out, config, len(grid), force=force)
    todo = pending_specs(config, grid, store.latest())
    summary = RunSummary(run_dir=str(store.dir), total=len(grid), skipped=len(grid) - len(todo), ran=0)
    if not todo:
        store.close()
        return summary
    judge = judge if judge is not None else _make_judge(config)
    # CPU-bound judges (the reference judge) say how many may run at once; I/O-bound ones
    # (LLM judges) do not, and run at the episode concurrency.
    max_parallel = getattr(judge, "max_parallel", None)
    judge_slots = threading.BoundedSemaphore(max_parallel) if max_parallel else None
    stop = stop or threading.Event()
    bar = _progress(len(todo), progress)
    t0 = time.perf_counter()
    it = iter(todo)
    in_flight: dict[Future, EpisodeSpec] = {}

    def submit_next(ex: ThreadPoolExecutor) -> None:
        spec = next(it, None)
        if spec is not None and not stop.is_set():
            in_flight[ex.submit(run_episode, spec, config, bank, judge, stop, judge_slots)] = spec

    ex = ThreadPoolExecutor(max_workers=config.concurrency, thread_name_prefix="medgym-ep")
    try:
        for _ in range(config.concurrency * 2):  # a small queue keeps workers busy without pre-building all
            submit_next(ex)
        while in_flight:
            done, _ = wait(list(in_flight), return_when=FIRST_COMPLETED)
            for fut in done:
                in_flight.pop(fut)
                rec = fut.result()
                if rec is not None:
                    store.append(jsonable(rec))
                    summary.ran += 1
                    summary.status[rec["status"]] += 1
                    if bar is not None:
                        bar.update(1)
                        bar.set_postfix({k: v for k, v in sorted(summary.status.items())}, refresh=False)
                submit_next(ex)
    except KeyboardInterrupt:
        summary.interrupted = True
        stop.set()
        for fut in list(in_flight):  # keep what finished; the rest stops at its next step
            if not fut.cancel():
                rec = fut.result()
                if rec is not None:
                    store.append(jsonable(rec))
                    summary.ran += 1
                    summary.status[rec["status"]] += 1
        raise
    finally:
        ex.shutdown(wait=True, cancel_futures=True)
        summary.wall_s = time.perf_counter() - t0
        if bar is not None:
            bar.close()
        store.close()
    return summary
