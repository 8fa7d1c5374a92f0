"""Metric registry (names, directions, levels) and aggregation (macro-average, n, unscored, CIs)."""

from __future__ import annotations

import numpy as np
import pytest

from medgym.errors import UnknownNameError
from medgym.judges.aggregate import aggregate, bootstrap_ci, format_table
from medgym.judges.metrics import (
    ALL_METRICS,
    AUDIT_METRICS,
    HALLUCINATION_METRICS,
    METRICS,
    SET_LEVEL_METRICS,
    metric,
)
from medgym.judges.results import Counts, JudgeResult


def test_registry_holds_the_19_paper_metrics_with_directions():
    assert AUDIT_METRICS == ("GDR", "IR", "PIR", "RIR", "CDR", "CIR", "RUR", "PCR", "SMR", "EF", "FCR")
    assert HALLUCINATION_METRICS == ("NFR", "UFR", "HPR", "HCCR", "DHDR", "CHO", "CIHSR", "CIHGR")
    higher = {m for m in ALL_METRICS if METRICS.get(m).direction == "higher"}
    assert higher == {"GDR", "IR", "PIR", "CDR", "RUR", "EF", "CIHSR"}
    assert SET_LEVEL_METRICS == ("IR", "PCR")
    assert metric("cdr").name == "CDR"
    with pytest.raises(UnknownNameError, match="did you mean"):
        metric("CDX")


def test_oriented_values_make_higher_better():
    assert metric("CDR").oriented(0.25) == 0.25
    assert metric("FCR").oriented(0.25) == 0.75
    assert metric("CIHGR").oriented(2.0) == 0.0  # unbounded, clipped after the flip
    assert not metric("CIHGR").bounded


def _res(agent, cond, status="ok", **m) -> JudgeResult:
    audit = {k: m.get(k) for k in AUDIT_METRICS}
    halluc = {k: m.get(k) for k in HALLUCINATION_METRICS}
    counts = Counts(**{k: v for k, v in m.items() if k in Counts.model_fields}) if status == "ok" else None
    return JudgeResult(status=status, judge="t", judge_version="0", agent=agent, condition=cond,
                       audit=audit, hallucination=halluc, counts=counts)


def test_macro_average_excludes_not_applicable_and_unscored():
    results = [
        _res("a", "O", CDR=1.0, IR=1.0, inquiry_applicable=1, inquiry_q=1),
        _res("a", "O", CDR=0.0, IR=0.0, inquiry_applicable=1, inquiry_q=0),
        _res("a", "O", CDR=None, IR=None),  # not applicable
        _res("a", "O", status="unscored"),  # judge failed
        _res("b", "O", CDR=0.5),
    ]
    rows = {(r.group["agent"], r.metric): r for r in aggregate(results, n_boot=200)}
    cdr = rows[("a", "CDR")]
    assert cdr.mean == 0.5 and cdr.n == 2 and cdr.n_not_applicable == 1 and cdr.n_unscored == 1
    assert cdr.n_results == 4
    assert cdr.ci_low <= cdr.mean <= cdr.ci_high
    ir = rows[("a", "IR")]  # set-level: ratio of q over applicable scenarios
    assert ir.mean == 0.5 and ir.pooled == 0.5 and ir.level == "set"
    assert rows[("b", "CDR")].n == 1 and rows[("b", "CDR")].ci_low == rows[("b", "CDR")].ci_high == 0.5
    assert rows[("b", "GDR")].mean is None and rows[("b", "GDR")].ci_low is None


def test_aggregate_accepts_dicts_is_seeded_and_renders():
    results = [_res("a", "I", CDR=float(i % 2)).model_dump(mode="json") for i in range(20)]
    r1 = aggregate(results, seed=3, n_boot=500, metrics=["CDR"])
    r2 = aggregate(results, seed=3, n_boot=500, metrics=["cdr"])
    assert r1 == r2 and len(r1) == 1
    assert r1[0].agent == "a" and r1[0].condition == "I"
    r3 = aggregate(results, seed=4, n_boot=500, metrics=["CDR"])
    assert (r3[0].ci_low, r3[0].ci_high) != (r1[0].ci_low, r1[0].ci_high) or r3[0].ci_low == r1[0].ci_low
    table = format_table(r1)
    assert "CDR" in table and "0.500" in table and "↑" in table


def test_group_by_unknown_field_is_a_clear_error():
    with pytest.raises(ValueError, match="cannot group by"):
        aggregate([_res("a", "O", CDR=1.0)], by=("colour",))


def test_bootstrap_ci_edges():
    rng = np.random.default_rng(0)
    assert bootstrap_ci([], rng) == (None, None)
    assert bootstrap_ci([0.3], rng) == (0.3, 0.3)
    lo, hi = bootstrap_ci([0, 1] * 50, rng, n_boot=2000)
    assert 0.35 < lo < 0.5 < hi < 0.65
