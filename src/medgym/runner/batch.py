"""Run a grid concurrently, resumably, with a progress bar and a summary.

Episodes run on a thread pool (``config.concurrency`` in flight, default 8; see
``threads.py``), optionally sharded over ``config.workers`` forked processes (see
``workers.py``: one per core removes the GIL queue at high concurrency and lets a
CPU-bound judge use every core). Only this process writes the results file.
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
from dataclasses import dataclass, field
from typing import Any

from medgym.knowledge_base.case_bank import CaseBank, default_bank
from medgym.runner.config import RunConfig
from medgym.runner.grid import EpisodeSpec, build_grid, longest_first
from medgym.runner.manifest import write_or_check_manifest
from medgym.runner.store import ResultStore
from medgym.runner.threads import run_threads, warm_agents
from medgym.runner.workers import effective_workers, run_processes


@dataclass
class RunSummary:
    run_dir: str
    total: int
    skipped: int
    ran: int
    status: Counter = field(default_factory=Counter)
    wall_s: float = 0.0
    interrupted: bool = False
    workers: int = 1
    lost: int = 0  # episodes a dead worker process took with it (rerun on resume)

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

    # no monitor thread: worker processes are forked while the bar is alive
    tqdm.monitor_interval = 0
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
    todo = longest_first(todo, bank)
    judge = judge if judge is not None else _make_judge(config)
    stop = stop or threading.Event()
    workers = effective_workers(config, len(todo))
    summary.workers = workers
    bar = None
    t0 = time.perf_counter()

    def on_record(rec: dict[str, Any]) -> None:
        store.append(rec)
        summary.ran += 1
        summary.status[rec["status"]] += 1
        if bar is not None:
            bar.update(1)
            bar.set_postfix({k: v for k, v in sorted(summary.status.items())}, refresh=False)

    warm_agents(config)
    try:
        bar = _progress(len(todo), progress)
        if workers > 1:
            summary.lost = run_processes(todo, config, bank, judge, workers, stop, on_record)
        else:
            run_threads(iter(todo), config, bank, judge, stop, config.concurrency, on_record,
                        start_interval_s=config.start_interval_s)
    except KeyboardInterrupt:
        summary.interrupted = True
        raise
    finally:
        summary.wall_s = time.perf_counter() - t0
        if bar is not None:
            bar.close()
        store.close()
    return summary
