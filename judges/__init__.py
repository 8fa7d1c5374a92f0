"""Judges: the five-node process audit and hallucination propagation monitoring of MedBench v5.

Quick use::

    from medgym.judges import get_judge
    judge = get_judge("reference")          # offline, deterministic (default)
    result = judge.judge(trajectory)        # a Trajectory, dict, JSON text or path
    result.audit["CDR"], result.hallucination["NFR"]
    result.model_dump(mode="json")          # JSON-serialisable

``get_judge("llm")`` gives the LLM judge (any OpenAI-compatible endpoint).
Aggregation: :func:`medgym.judges.aggregate.aggregate`. Reward wrappers:
:class:`medgym.judges.wrappers.JudgeReward`. Metric directions:
:mod:`medgym.judges.metrics`. Definitions: docs/judges.md.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from medgym.judges.metrics import ALL_METRICS, AUDIT_METRICS, HALLUCINATION_METRICS, METRICS, metric
from medgym.judges.results import Annotations, Counts, JudgeResult

if TYPE_CHECKING:  # pragma: no cover
    from medgym.judges.base import BaseJudge

__all__ = [
    "ALL_METRICS",
    "AUDIT_METRICS",
    "HALLUCINATION_METRICS",
    "METRICS",
    "Annotations",
    "Counts",
    "JudgeResult",
    "get_judge",
    "judge_names",
    "metric",
]


def get_judge(name: Any = "reference", **kwargs: Any) -> BaseJudge:
    """A judge by name ("reference" or "llm"), or an instance passed through."""
    from medgym.judges.base import get_judge as _get

    return _get(name, **kwargs)


def judge_names() -> list[str]:
    from medgym.judges.base import judge_names as _names

    return _names()
