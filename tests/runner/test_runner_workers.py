"""Sharding a run over worker processes: same results, same guarantees (kill -9, Ctrl-C, limits)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from pathlib import Path

import pytest
from conftest import medgym_cmd, run_cli

from medgym.knowledge_base.case_bank import default_bank
from medgym.llm import limits as llm_limits
from medgym.llm.fake_server import FakeOpenAIServer
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


def _count_lines(path: Path) -> int:
    return len(path.read_bytes().splitlines()) if path.exists() else 0


def _processes_mentioning(text: str) -> list[int]:
    pids = []
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                if text in (d / "cmdline").read_bytes().decode(errors="replace"):
                    pids.append(int(d.name))
            except OSError:
                continue
    return pids


def test_sigkill_of_a_sharded_run_leaves_no_orphans_and_resumes_exactly(tmp_path):
    out = tmp_path / "killed-workers"
    args = ["run", "--out", str(out), "--agents", "careful", "--concurrency", "4", "--workers", "2",
            "--no-report", "--no-progress"]  # fmt: skip
    proc = subprocess.Popen(medgym_cmd(*args), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    results = out / "results.jsonl"
    deadline = time.time() + 240
    while _count_lines(results) < 40 and time.time() < deadline and proc.poll() is None:
        time.sleep(0.05)
    assert proc.poll() is None, "run finished before it could be killed; grow the grid"
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    deadline = time.time() + 10
    while _processes_mentioning(str(out)) and time.time() < deadline:
        time.sleep(0.1)
    assert _processes_mentioning(str(out)) == [], "worker processes outlived the killed run"
    for line in results.read_bytes().splitlines(keepends=True):
        if line.endswith(b"\n"):
            json.loads(line)
    res = run_cli(*args)
    assert res.returncode == 0, res.stderr
    keys = [json.loads(x)["key"] for x in results.read_text().splitlines()]
    expected = {f"{c}|{cond}|careful|s0|r0" for c in default_bank().ids()
                for cond in ("baseline", "O", "I", "D", "O+I", "O+D", "I+D", "O+I+D")}  # fmt: skip
    assert set(keys) == expected and len(keys) == len(set(keys))


def test_ctrl_c_of_a_sharded_run_keeps_results_and_exits_130(tmp_path):
    with FakeOpenAIServer(default_reply="Final diagnosis: unclear.", latency_s=0.15) as srv:
        out = tmp_path / "interrupted-workers"
        args = ["run", "--out", str(out), "--agents", "llm", "--model", "fake", "--base-url", srv.base_url,
                "--cases", ",".join(CASES), "--concurrency", "4", "--workers", "2", "--no-report",
                "--no-progress"]  # fmt: skip
        # a new process group, as a terminal would send SIGINT to the run and its workers alike
        proc = subprocess.Popen(medgym_cmd(*args), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                start_new_session=True)  # fmt: skip
        results = out / "results.jsonl"
        deadline = time.time() + 120
        while _count_lines(results) < 3 and time.time() < deadline and proc.poll() is None:
            time.sleep(0.05)
        os.killpg(proc.pid, signal.SIGINT)
        _, err = proc.communicate(timeout=60)
        assert proc.returncode == 130, err
        assert "interrupted" in err and "Traceback" not in err
        kept = read_results(out)
        assert len(kept) >= 3 and all(r["status"] == "ok" for r in kept.values())
        assert _processes_mentioning(str(out)) == []
        res = run_cli(*args)
        assert res.returncode == 0, res.stderr
        assert len(read_results(out)) == len(CASES) * 8
