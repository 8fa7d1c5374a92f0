"""``judge_many(..., workers=N)``: the same results as one process, in input order; a dead
worker's items become ``error`` results (never missing, never 0); judges that cannot fork
refuse with a clear error."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from medgym.errors import MedgymError
from medgym.forking import cores, fork_available
from medgym.judges import get_judge
from medgym.judges.parallel import case_key, chunk_by_case, judge_in_processes, resolve_workers
from medgym.judges.reference import ReferenceJudge
from medgym.judges.validation import load_validation_set
from medgym.llm import LLMConfig

VALIDATION = Path(__file__).parent / "validation"
needs_fork = pytest.mark.skipif(not fork_available(), reason="worker processes need fork (Linux)")


@pytest.fixture(scope="module")
def trajectories():
    items = load_validation_set(VALIDATION)
    # three cases, interleaved, so that grouping by case must reorder and results must be put back
    by_case: dict[str, list] = {}
    for it in items:
        by_case.setdefault(it.trajectory.scenario.case.id, []).append(it.trajectory)
    cases = sorted(by_case, key=lambda c: -len(by_case[c]))[:3]
    return [by_case[c][k] for k in range(3) for c in cases]


def _comparable(res):
    return res.model_dump(mode="json", exclude={"elapsed_s"})


@needs_fork
def test_two_workers_give_the_one_process_results_in_input_order(trajectories):
    serial = get_judge("reference").judge_many(trajectories)
    parallel = get_judge("reference").judge_many(trajectories, workers=2)
    assert len(parallel) == len(trajectories)
    assert [r.scenario_id for r in parallel] == [t.scenario.id for t in trajectories]
    assert all(r.status == "ok" for r in parallel)
    assert [_comparable(r) for r in parallel] == [_comparable(r) for r in serial]


@needs_fork
def test_a_bad_item_is_an_error_at_its_own_place(trajectories):
    items = [trajectories[0], {"format": "medgym.trajectory", "turns": "not a list"}, trajectories[1]]
    res = get_judge("reference").judge_many(items, workers=2)
    assert [r.status for r in res] == ["ok", "error", "ok"]
    assert "invalid trajectory" in res[1].reason
    assert all(v is None for v in res[1].metrics().values())


class _DiesOnSecondCase(ReferenceJudge):
    """Kills its worker process (as an OOM kill or a native crash would) on one case."""

    def __init__(self, doomed_case: str):
        super().__init__()
        self.doomed_case = doomed_case

    def judge(self, trajectory):
        if os.getpid() != self.parent and case_key(trajectory) == self.doomed_case:
            os._exit(3)
        return super().judge(trajectory)


@needs_fork
def test_a_dead_worker_leaves_error_results_not_gaps(trajectories):
    doomed = trajectories[1].scenario.case.id
    judge = _DiesOnSecondCase(doomed)
    judge.parent = os.getpid()
    res = judge_in_processes(judge, trajectories, 2)
    assert len(res) == len(trajectories)
    lost = [r for r in res if r.status == "error"]
    assert lost, "the doomed case's items must be reported"
    for t, r in zip(trajectories, res, strict=True):
        if case_key(t) == doomed:
            assert r.status == "error"
        if r.status == "error":
            assert "worker process died" in r.reason
            assert r.case_id == t.scenario.case.id  # the item is named, so a rerun can find it
            assert all(v is None for v in r.metrics().values())
        else:
            assert r.status == "ok"


def test_chunks_keep_a_case_together_and_cut_only_large_cases():
    items = [{"scenario": {"case": {"id": c}}} for c in "aabbbbbbcab"]
    chunks = chunk_by_case(items, max_size=4)
    assert sorted(i for c in chunks for i in c) == list(range(len(items)))
    assert [len(c) for c in chunks] == sorted((len(c) for c in chunks), reverse=True)
    for c in chunks:
        assert len({case_key(items[i]) for i in c}) == 1
    assert sorted(len(c) for c in chunks if case_key(items[c[0]]) == "b") == [3, 4]  # 7 b's, cut once
    assert case_key("a/path.json") == "" and case_key({"scenario": "x"}) == ""


def test_workers_must_be_a_positive_integer_or_auto():
    assert resolve_workers("auto") == cores()
    assert resolve_workers(3) == 3
    for bad in (0, -1, "2", 1.5, True, None):
        with pytest.raises(ValueError, match="positive integer or 'auto'"):
            resolve_workers(bad)


def test_the_llm_judge_refuses_worker_processes(trajectories):
    judge = get_judge("llm", config=LLMConfig(base_url="http://127.0.0.1:9/v1", model="m", max_retries=0))
    with pytest.raises(MedgymError, match="cannot run in worker processes"):
        judge.judge_many(trajectories[:2], workers=2)


def test_without_fork_it_warns_and_judges_in_one_process(trajectories, monkeypatch):
    import medgym.judges.parallel as parallel

    monkeypatch.setattr(parallel, "fork_available", lambda: False)
    with pytest.warns(RuntimeWarning, match="needs the 'fork' start method"):
        res = get_judge("reference").judge_many(trajectories[:2], workers=2)
    assert [r.status for r in res] == ["ok", "ok"]
