"""Aggregates used by every report section, computed once per run."""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass
from typing import Any

from medgym.judges.aggregate import Row, aggregate
from medgym.judges.metrics import ALL_METRICS, METRICS
from medgym.report.load import RunData


@dataclass
class CellStats:
    """Per (agent, condition): metric rows plus episode status counts and outcome."""

    rows: dict[str, Row]
    status: Counter
    final_correct: float | None
    pass_k: float | None
    k: int


def cell_table(run: RunData, seed: int = 0, n_boot: int = 1000) -> dict[tuple[str, str], CellStats]:
    rows = aggregate(run.judge_results, by=("agent", "condition"), seed=seed, n_boot=n_boot)
    by_cell: dict[tuple[str, str], dict[str, Row]] = defaultdict(dict)
    for r in rows:
        by_cell[(r.group["agent"], r.group["condition"])][r.metric] = r
    status: dict[tuple[str, str], Counter] = defaultdict(Counter)
    outcome: dict[tuple[str, str], list[bool]] = defaultdict(list)
    groups: dict[tuple[str, str], dict[tuple[str, int], list[Any]]] = defaultdict(lambda: defaultdict(list))
    for rec in run.records:
        cell = (rec["agent"], rec["condition"])
        status[cell][rec["status"]] += 1
        if rec["status"] == "ok" and rec.get("final_correct") is not None:
            outcome[cell].append(bool(rec["final_correct"]))
        groups[cell][(rec["case_id"], rec["seed"])].append(rec.get("final_correct") if rec["status"] == "ok" else None)
    k = run.repeats
    out: dict[tuple[str, str], CellStats] = {}
    from medgym.envs.conditions import CONDITION_NAMES

    order = {c: i for i, c in enumerate(CONDITION_NAMES)}
    for cell in sorted(set(by_cell) | set(status), key=lambda c: (c[0], order.get(c[1], 99), c[1])):
        oc = outcome.get(cell, [])
        complete = [v for v in groups[cell].values() if len(v) == k and all(x is not None for x in v)]
        pk = sum(all(v) for v in complete) / len(complete) if (k > 1 and complete) else None
        out[cell] = CellStats(by_cell.get(cell, {}), status[cell], sum(oc) / len(oc) if oc else None, pk, k)
    return out


def oriented_delta(metric: str, value: float | None, base: float | None) -> float | None:
    """value - base, sign-flipped for lower-is-better metrics, so positive always means better."""
    if value is None or base is None:
        return None
    d = value - base
    return d if METRICS.get(metric).direction == "higher" else -d


METRIC_ORDER = list(ALL_METRICS)
