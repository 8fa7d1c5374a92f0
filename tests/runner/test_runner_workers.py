"""Sharding a run over worker processes: same results, bounded worker count, shared-out limits.

kill -9 and Ctrl-C with workers are in test_runner_batch.py (parametrized over the worker count).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from conftest import run_cli

from medgym.knowledge_base.case_bank import default_bank
from medgym.llm import limits as llm_limits
from medgym.runner import RunConfig, build_grid, read_results, run_batch
from medgym.runner.grid import longest_first
from medgym.runner.workers import effective_workers, fork_available

pytestmark = pytest.mark.skipif(not fork_available(), reason="worker processes need fork (Linux)")

CASES = default_bank().ids()[3:6]


def _config(out: Path, **kw) -> RunConfig:
    base = dict(out=str(out), cases={"ids": CASES}, conditions=["baseline", "O", "I+D", "O+I+D"],
                agents=["careful", "sloppy"], concurrency=4)  # fmt: skip
    return RunConfig.model_validate({**base, **kw})


def _scored(run_dir: Path) -> dict[str, tuple]:
    return {k: (r["status"], r["audit"], r["hallucination"], r["final_correct"])
            for k, r in read_results(run_dir).items()}  # fmt: skip


def test_two_workers_give_exactly_the_results_of_one_process(tmp_path, reference_judge):
    one = run_batch(_config(tmp_path / "w1", workers=1), judge=reference_judge, progress=False)
    two = run_batch(_config(tmp_path / "w2", workers=2), judge=reference_judge, progress=False)
    assert (one.workers, two.workers) == (1, 2)
    assert one.ran == two.ran == len(CASES) * 4 * 2 and two.lost == 0
    a, b = _scored(tmp_path / "w1"), _scored(tmp_path / "w2")
    assert a == b
    assert all(v[0] == "ok" for v in b.values())
    lines = (tmp_path / "w2" / "results.jsonl").read_text().splitlines()
    assert len(lines) == len({json.loads(x)["key"] for x in lines}), "an episode was written twice"
    # a rerun with another worker count is the same grid: nothing left to do
    again = run_batch(_config(tmp_path / "w2", workers="auto"), judge=reference_judge, progress=False)
    assert again.ran == 0 and again.skipped == one.ran


def test_worker_count_is_bounded_and_validated(tmp_path):
    assert effective_workers(_config(tmp_path, workers=8, concurrency=2), n_todo=100) == 2
    assert effective_workers(_config(tmp_path, workers=8, concurrency=32), n_todo=3) == 3
    assert effective_workers(_config(tmp_path, workers="auto", concurrency=32), n_todo=100) == len(
        os.sched_getaffinity(0))
    with pytest.raises(ValueError, match="workers"):
        _config(tmp_path, workers=0)
    res = run_cli("run", "--workers", "many", "--out", str(tmp_path / "x"))
    assert res.returncode == 2 and "'auto'" in res.stderr


def test_longest_dialogues_start_first_and_nothing_is_dropped():
    bank = default_bank()
    grid = build_grid(_config(Path("unused")), bank)
    ordered = longest_first(grid, bank)
    assert sorted(ordered, key=lambda s: s.key) == sorted(grid, key=lambda s: s.key)
    from medgym.envs.compiler import compile_scenario

    turns = [compile_scenario(bank.get(s.case_id), s.condition, s.seed).num_turns for s in ordered]
    assert turns == sorted(turns, reverse=True) and turns[0] > turns[-1]


def test_process_share_splits_endpoint_limits():
    endpoint = "http://share-test.invalid/v1"
    saved = llm_limits._process_share
    try:
        lim = llm_limits.limits_for(endpoint, 32, 600)
        llm_limits.set_process_share(0.5)
        assert lim.inflight.capacity == 16 and lim.pacer.interval == pytest.approx(0.2)
        later = llm_limits.limits_for(endpoint + "/other", 3, None)
        assert later.inflight.capacity == 1  # never below one request in flight
        with pytest.raises(ValueError):
            llm_limits.set_process_share(0)
    finally:
        llm_limits._process_share = saved
        llm_limits.reset_limits(endpoint)
        llm_limits.reset_limits(endpoint + "/other")
