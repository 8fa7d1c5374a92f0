"""Aggregation of judge results: macro-averages with n, unscored counts and bootstrap CIs.

Per group (default: agent x condition) and per metric:

* ``mean`` is the macro-average over the *applicable, scored* samples: a result with
  status other than "ok" is counted in ``n_unscored``; a metric that is None (zero
  denominator) is counted in ``n_not_applicable``; neither ever enters the mean as 0.
* IR and PCR are set-level ratios in the paper: the per-sample value is the scenario's
  indicator (q or c), so the mean over applicable scenarios *is* the set ratio, and
  the bootstrap resamples scenarios.
* ``ci_low``/``ci_high`` is a seeded percentile bootstrap 95% CI (resampling samples
  with replacement ``n_boot`` times); the same seed gives the same interval.
* ``pooled`` is sum(numerators) / sum(denominators) over scored samples, for
  readers who want the micro view.

The batch runner's report calls :func:`aggregate`; :func:`format_table` renders rows
as a plain-text table for the CLI.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
from pydantic import BaseModel, ConfigDict

from medgym.judges.formulas import ratio
from medgym.judges.metrics import ALL_METRICS, METRICS
from medgym.judges.results import JudgeResult


class Row(BaseModel):
    """One (group, metric) cell of an aggregate table."""

    model_config = ConfigDict(extra="forbid")

    group: dict[str, Any]
    metric: str
    family: str
    node: str
    direction: str
    level: str
    n: int
    n_results: int
    n_unscored: int
    n_not_applicable: int
    mean: float | None
    ci_low: float | None
    ci_high: float | None
    pooled: float | None

    def __getattr__(self, name: str) -> Any:  # row.agent, row.condition
        group = self.__dict__.get("group") or {}
        if name in group:
            return group[name]
        raise AttributeError(name)


def _as_result(r: JudgeResult | dict) -> JudgeResult:
    return r if isinstance(r, JudgeResult) else JudgeResult.model_validate(r)


def _group_value(r: JudgeResult, key: str) -> Any:
    if not hasattr(r, key):
        raise ValueError(
            f"cannot group by {key!r}: expected a JudgeResult field such as agent, condition, case_id, judge"
        )
    return getattr(r, key)


def _rng(seed: int, group: tuple, metric: str) -> np.random.Generator:
    digest = hashlib.sha256(f"{seed}|{group!r}|{metric}".encode()).digest()
    return np.random.default_rng(int.from_bytes(digest[:8], "little"))


def bootstrap_ci(
    values: Sequence[float], rng: np.random.Generator, n_boot: int = 1000, level: float = 0.95
) -> tuple[float | None, float | None]:
    """Percentile bootstrap CI of the mean (None, None for an empty sample)."""
    if len(values) == 0:
        return None, None
    arr = np.asarray(values, dtype=float)
    if len(arr) == 1 or n_boot <= 0:
        return float(arr.mean()), float(arr.mean())
    idx = rng.integers(0, len(arr), size=(n_boot, len(arr)))
    means = arr[idx].mean(axis=1)
    alpha = (1.0 - level) / 2.0
    return float(np.quantile(means, alpha)), float(np.quantile(means, 1.0 - alpha))


def aggregate(
    results: Iterable[JudgeResult | dict],
    by: Sequence[str] = ("agent", "condition"),
    seed: int = 0,
    n_boot: int = 1000,
    metrics: Sequence[str] | None = None,
) -> list[Row]:
    """Aggregate per group and metric (see module docstring). Rows are ordered by group, then metric."""
    names = [METRICS.get(m.upper()).name for m in metrics] if metrics else list(ALL_METRICS)
    groups: dict[tuple, list[JudgeResult]] = {}
    for raw in results:
        r = _as_result(raw)
        key = tuple(_group_value(r, k) for k in by)
        groups.setdefault(key, []).append(r)
    rows: list[Row] = []
    for key in sorted(groups, key=lambda k: tuple("" if v is None else str(v) for v in k)):
        members = groups[key]
        scored = [r for r in members if r.status == "ok"]
        n_unscored = len(members) - len(scored)
        for name in names:
            spec = METRICS.get(name)
            vals = [v for r in scored if (v := r.metrics().get(name)) is not None]
            num = sum(getattr(r.counts, spec.numerator) for r in scored if r.counts is not None)
            den = sum(getattr(r.counts, spec.denominator) for r in scored if r.counts is not None)
            lo, hi = bootstrap_ci(vals, _rng(seed, key, name), n_boot)
            rows.append(
                Row(
                    group=dict(zip(by, key, strict=True)),
                    metric=name,
                    family=spec.family,
                    node=spec.node,
                    direction=spec.direction,
                    level=spec.level,
                    n=len(vals),
                    n_results=len(members),
                    n_unscored=n_unscored,
                    n_not_applicable=len(scored) - len(vals),
                    mean=float(np.mean(vals)) if vals else None,
                    ci_low=lo,
                    ci_high=hi,
                    pooled=ratio(num, den),
                )
            )
    return rows


def _fmt(v: float | None) -> str:
    return "n/a" if v is None else f"{v:.3f}"


def format_table(rows: Sequence[Row]) -> str:
    """A fixed-width text table: one line per (group, metric)."""
    if not rows:
        return "(no results)"
    gkeys = list(rows[0].group)
    header = [*gkeys, "metric", "dir", "n", "unscored", "n/a", "mean", "95% CI", "pooled"]
    body = []
    for r in rows:
        ci = "n/a" if r.ci_low is None else f"[{r.ci_low:.3f}, {r.ci_high:.3f}]"
        arrow = "↑" if r.direction == "higher" else "↓"
        body.append(
            [
                *("-" if r.group[k] is None else str(r.group[k]) for k in gkeys),
                r.metric,
                arrow,
                str(r.n),
                str(r.n_unscored),
                str(r.n_not_applicable),
                _fmt(r.mean),
                ci,
                _fmt(r.pooled),
            ]
        )
    widths = [max(len(h), *(len(b[i]) for b in body)) for i, h in enumerate(header)]
    lines = ["  ".join(h.ljust(w) for h, w in zip(header, widths, strict=True))]
    lines.append("  ".join("-" * w for w in widths))
    lines.extend("  ".join(c.ljust(w) for c, w in zip(b, widths, strict=True)) for b in body)
    return "\n".join(lines)
