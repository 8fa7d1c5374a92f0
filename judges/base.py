"""The judge interface, the judge registry and the failure boundary.

Every judge is a :class:`BaseJudge`: ``judge(trajectory) -> JudgeResult`` and
``judge_many(trajectories) -> list[JudgeResult]``. Subclasses implement
:meth:`BaseJudge._annotate`; the base class turns annotations into counts and
metrics with the shared formulas and draws the failure boundary:

* a backend failure the judge expects (LLM transport error, malformed output) is
  raised by the backend as :class:`JudgeUnscored` and becomes ``status="unscored"``;
* any other exception becomes ``status="error"`` with the exception in ``reason``
  (or propagates when the judge was built with ``raise_errors=True``, as tests do);
* in both cases every metric is None: never a silent 0.

A malformed trajectory file is a user error (:class:`TrajectoryFormatError`) and is
reported as ``status="error"`` with the file's problem in ``reason``.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from medgym.envs.trajectory import Trajectory
from medgym.errors import MedgymError, TrajectoryFormatError
from medgym.judges.formulas import counts_from_annotations, derive, metrics_from_counts
from medgym.judges.results import Annotations, JudgeResult, JudgeUsage
from medgym.registry import Registry

TrajectoryLike = Trajectory | dict | str | Path


class JudgeUnscored(MedgymError):
    """The judge could not score this item (backend failure); the item is 'unscored', not 0."""

    def __init__(self, message: str, usage: JudgeUsage | None = None):
        super().__init__(message)
        self.usage = usage or JudgeUsage()


def load_trajectory(obj: TrajectoryLike) -> Trajectory:
    """A Trajectory from an object, a dict, a JSON string or a file path."""
    if isinstance(obj, Trajectory):
        return obj
    if isinstance(obj, dict):
        return Trajectory.from_dict(obj)
    if isinstance(obj, Path) or (isinstance(obj, str) and not obj.lstrip().startswith("{")):
        return Trajectory.load(obj)
    if isinstance(obj, str):
        try:
            data = json.loads(obj)
        except json.JSONDecodeError as exc:
            raise TrajectoryFormatError(f"<string>: not valid JSON: {exc}") from exc
        return Trajectory.from_dict(data)
    raise TrajectoryFormatError(f"expected a Trajectory, dict, JSON text or path, got {type(obj).__name__}")


def finalize(ann: Annotations, traj: Trajectory) -> Annotations:
    """Run the shared derivation (propagation, CHO, per-turn view) on base annotations."""
    sc = traj.scenario
    last = traj.turns[-1].index if traj.turns else 0
    injected_turn: dict[str, int] = {}
    for t in traj.turns:
        for tid in t.injected_contradictions:
            injected_turn.setdefault(tid, t.index)
    fact_of = {c.id: c.fact_id for c in sc.case.stressors.contradictions}
    injected = [(tid, fact_of.get(tid, ""), turn) for tid, turn in injected_turn.items()]
    return derive(
        ann,
        last_turn=last,
        injected=injected,
        key_evidence=sc.case.gold.key_evidence,
        released_final=traj.released_by(last),
    )


class BaseJudge:
    """Common machinery of every judge (see module docstring)."""

    name: str = "base"
    version: str = "0"
    #: whether ``judge_many(..., workers>1)`` may fork worker processes for this judge: true
    #: for CPU-bound judges; an HTTP judge's concurrency and rate limits belong to one process
    process_parallel: bool = False

    def __init__(self, raise_errors: bool = False):
        self.raise_errors = raise_errors

    # ---- to implement ------------------------------------------------------------
    def _annotate(self, traj: Trajectory) -> tuple[Annotations, JudgeUsage]:
        raise NotImplementedError

    def config(self) -> dict[str, Any]:
        """JSON-able description of the judge (recorded in results and ``env.spec``)."""
        return {"name": self.name, "version": self.version}

    # ---- public API -------------------------------------------------------------
    def _identity(self, traj: Trajectory) -> dict[str, Any]:
        sc = traj.scenario
        return {
            "scenario_id": sc.id,
            "case_id": sc.case.id,
            "condition": sc.condition,
            "agent": traj.agent,
            "seed": sc.seed,
            "mode": traj.mode,
            "num_turns": len(traj.turns),
        }

    def _failed(self, status: str, reason: str, ident: dict, usage: JudgeUsage, t0: float) -> JudgeResult:
        return JudgeResult(
            status=status,  # type: ignore[arg-type]
            reason=reason,
            judge=self.name,
            judge_version=self.version,
            judge_config=self.config(),
            usage=usage,
            elapsed_s=time.perf_counter() - t0,
            **ident,
        )

    def judge(self, trajectory: TrajectoryLike) -> JudgeResult:
        """Score one trajectory. Never raises for backend failures (see module docstring)."""
        t0 = time.perf_counter()
        try:
            traj = load_trajectory(trajectory)
        except TrajectoryFormatError as exc:
            if self.raise_errors:
                raise
            return self._failed("error", f"invalid trajectory: {exc}", {}, JudgeUsage(), t0)
        ident = self._identity(traj)
        try:
            ann, usage = self._annotate(traj)
            ann = finalize(ann, traj)
            counts = counts_from_annotations(ann)
            audit, halluc = metrics_from_counts(counts)
        except JudgeUnscored as exc:
            return self._failed("unscored", str(exc), ident, exc.usage, t0)
        except Exception as exc:  # the boundary: an item error must not kill a batch
            if self.raise_errors:
                raise
            return self._failed("error", f"{type(exc).__name__}: {exc}", ident, JudgeUsage(), t0)
        return JudgeResult(
            status="ok",
            judge=self.name,
            judge_version=self.version,
            judge_config=self.config(),
            audit=audit,
            hallucination=halluc,
            counts=counts,
            annotations=ann,
            usage=usage,
            elapsed_s=time.perf_counter() - t0,
            **ident,
        )

    def judge_many(self, trajectories: Iterable[TrajectoryLike], workers: int | str = 1) -> list[JudgeResult]:
        """Score many trajectories; results in input order (one failure never stops the others).

        ``workers`` > 1 (or ``"auto"``, one per core) forks that many processes, for judges
        with ``process_parallel`` (see :mod:`medgym.judges.parallel`).
        """
        from medgym.judges.parallel import judge_in_processes, resolve_workers

        n = resolve_workers(workers)
        if n > 1 and not self.process_parallel:
            raise MedgymError(
                f"judge {self.name!r} cannot run in worker processes (workers={workers!r}): its "
                "concurrency and rate limits are per process; use workers=1, or the batch runner's "
                "concurrency setting"
            )
        return judge_in_processes(self, trajectories, n)  # it takes the list once


JUDGES: Registry[Callable[..., BaseJudge]] = Registry("judge")


def get_judge(name: str | BaseJudge = "reference", **kwargs: Any) -> BaseJudge:
    """A judge by name ("reference", "llm") or a judge instance passed through."""
    if isinstance(name, BaseJudge):
        return name
    _ensure_registered()
    return JUDGES.get(name)(**kwargs)


def _reference_factory(**kwargs: Any) -> BaseJudge:
    from medgym.judges.reference import ReferenceJudge

    return ReferenceJudge(**kwargs)


def _llm_factory(**kwargs: Any) -> BaseJudge:
    from medgym.judges.llm_judge import LLMJudge

    return LLMJudge(**kwargs)


def _ensure_registered() -> None:
    """Built-in judges are registered lazily so importing medgym.judges stays cheap."""
    if "reference" not in JUDGES:
        JUDGES.register("reference", _reference_factory)
    if "llm" not in JUDGES:
        JUDGES.register("llm", _llm_factory)


def judge_names() -> list[str]:
    _ensure_registered()
    return JUDGES.names()
