"""Judge a list of trajectories over forked worker processes (``judge_many(..., workers=N)``).

Why processes: the reference judge is pure-Python rule work (regexes, number parsing)
plus small MiniLM batches, so threads queue on the GIL and one process uses one core.
Workers are forked after the judge is warmed, so the MiniLM weights are shared
copy-on-write and a worker starts at once.

How the work is cut: a judge builds per-case knowledge (lexicons, claim rules) the first
time it meets a case, which costs as much as judging a trajectory or two. Each case's
trajectories therefore go to one worker as one chunk (a very large case is cut into a
few), so each case is built once per run; chunks are handed out largest first, one at a
time, so a worker that draws quick items takes more of them and none idles long at the end.

Honest failures: results come back in input order. A worker that dies (OOM, a segfault
in a native library) breaks the pool; every item not yet returned is then an ``error``
result naming the cause, never a missing row and never a 0.
"""

from __future__ import annotations

import math
import multiprocessing as mp
import threading
import time
import warnings
from collections.abc import Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from typing import TYPE_CHECKING, Any

from medgym.envs.trajectory import Trajectory
from medgym.forking import after_fork, cores, fork_available
from medgym.judges.results import JudgeResult, JudgeUsage

if TYPE_CHECKING:
    from medgym.judges.base import BaseJudge, TrajectoryLike

#: a case is cut into pieces when it holds more than 1/(workers * CHUNKS_PER_WORKER) of the
#: items, so one large case cannot leave the other workers idle at the end
CHUNKS_PER_WORKER = 4

# Set in the parent just before the pool forks; the children read it from their copy of
# the parent's memory, so trajectories and the warmed judge are never pickled.
_SHARED: tuple[BaseJudge, Sequence[TrajectoryLike]] | None = None
_SHARED_LOCK = threading.Lock()  # one pool at a time per process: _SHARED is process-wide


def resolve_workers(workers: int | str) -> int:
    """``"auto"`` is one worker per core; any other value must be a positive integer."""
    if workers == "auto":
        return cores()
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ValueError(f"workers must be a positive integer or 'auto', got {workers!r}")
    return workers


def case_key(obj: Any) -> str:
    """The case a trajectory belongs to, read without loading it ("" when unknown)."""
    if isinstance(obj, Trajectory):
        return obj.scenario.case.id
    if isinstance(obj, dict):
        case = (obj.get("scenario") or {}).get("case") if isinstance(obj.get("scenario"), dict) else None
        if isinstance(case, dict) and isinstance(case.get("id"), str):
            return case["id"]
    return ""


def chunk_by_case(items: Sequence[Any], max_size: int) -> list[list[int]]:
    """Indices of ``items``, one chunk per case, a case larger than ``max_size`` cut into
    pieces of at most ``max_size``; largest chunks first (the last to finish are short)."""
    by_case: dict[str, list[int]] = {}
    for i, obj in enumerate(items):
        by_case.setdefault(case_key(obj), []).append(i)
    chunks = [idx[k : k + max_size] for idx in by_case.values() for k in range(0, len(idx), max_size)]
    chunks.sort(key=len, reverse=True)
    return chunks


def _judge_chunk(indices: list[int]) -> list[tuple[int, JudgeResult]]:
    assert _SHARED is not None, "worker started without the shared judge"
    judge, items = _SHARED
    return [(i, judge.judge(items[i])) for i in indices]


def judge_in_processes(judge: BaseJudge, items: Iterable[TrajectoryLike], workers: int) -> list[JudgeResult]:
    """``judge.judge`` over ``items`` in ``workers`` forked processes; results in input order.

    Falls back to this process when there is one worker or one item, and, with a warning (as the
    batch runner does), where ``fork`` is unavailable.
    """
    global _SHARED
    items = list(items)
    can_fork = fork_available()
    if workers > 1 and not can_fork:
        warnings.warn(f"workers={workers} needs the 'fork' start method (Linux); judging in one process",
                      RuntimeWarning, stacklevel=3)
    if workers <= 1 or len(items) < 2 or not can_fork:
        return [judge.judge(t) for t in items]
    warm = getattr(judge, "warm_up", None)
    if callable(warm):
        warm()  # load the model before forking, so the workers share it
    workers = min(workers, len(items))
    chunks = chunk_by_case(items, max(1, math.ceil(len(items) / (workers * CHUNKS_PER_WORKER))))
    out: list[JudgeResult | None] = [None] * len(items)
    with _SHARED_LOCK:
        _SHARED = (judge, items)
        try:
            _run_pool(judge, items, chunks, workers, out)
        finally:
            _SHARED = None
    missing = [i for i, r in enumerate(out) if r is None]
    if missing:  # every chunk is either returned or marked lost in _run_pool
        raise RuntimeError(f"judge_in_processes: no result for items {missing[:10]}")
    return out  # type: ignore[return-value]


def _run_pool(judge: BaseJudge, items: list[TrajectoryLike], chunks: list[list[int]], workers: int,
              out: list[JudgeResult | None]) -> None:
    """Fill ``out`` from a pool of forked workers; a broken pool marks every item not yet returned."""
    with ProcessPoolExecutor(workers, mp_context=mp.get_context("fork"), initializer=after_fork) as pool:
        futures = [pool.submit(_judge_chunk, c) for c in chunks]
        try:
            for fut in as_completed(futures):
                for i, res in fut.result():
                    out[i] = res
        except BrokenProcessPool as exc:
            reason = f"judge worker process died before this item was returned ({exc})"
            for i, res in enumerate(out):
                if res is None:
                    out[i] = _lost(judge, items[i], reason)


def _lost(judge: BaseJudge, obj: TrajectoryLike, reason: str) -> JudgeResult:
    """An ``error`` result for an item a dead worker took with it, with the item's identity
    (case, condition, agent) where the trajectory can be read."""
    from medgym.judges.base import load_trajectory

    try:
        ident = judge._identity(load_trajectory(obj))
    except Exception:  # unreadable: its own judge() would have said so; the loss is the news here
        ident = {}
    return judge._failed("error", reason, ident, JudgeUsage(), time.perf_counter())
