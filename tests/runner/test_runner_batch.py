"""The batch runner: grid, resume, errors vs unscored, SIGKILL and Ctrl-C, fault-injecting LLM server."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from collections import Counter
from pathlib import Path

import pytest
from conftest import medgym_cmd, run_cli

from medgym.knowledge_base.case_bank import default_bank
from medgym.llm.fake_server import FakeOpenAIServer, RandomFaults
from medgym.runner import RunConfig, build_grid, read_results, run_batch

CASES = default_bank().ids()[:3]


def small_config(tmp_path, **kw) -> RunConfig:
    base = dict(out=str(tmp_path / "run"), cases={"ids": CASES}, conditions=["baseline", "O+I+D"],
                agents=["careful", "sloppy"], concurrency=4)  # fmt: skip
    base.update(kw)
    return RunConfig.model_validate(base)


def test_grid_resume_and_manifest(tmp_path, reference_judge):
    cfg = small_config(tmp_path)
    s1 = run_batch(cfg, judge=reference_judge, progress=False)
    assert s1.total == 3 * 2 * 2 and s1.ran == 12 and s1.status["ok"] == 12
    results = read_results(cfg.out)
    assert set(results) == {e.key for e in build_grid(cfg, default_bank())}
    rec = next(iter(results.values()))
    for field in ("case_id", "condition", "agent", "seed", "repeat", "trajectory", "judge", "audit",
                  "hallucination", "status", "timing", "tokens", "scenario_id"):
        assert field in rec
    assert rec["trajectory"]["format"] == "medgym.trajectory"
    manifest = json.loads((tmp_path / "run" / "manifest.json").read_text())
    assert manifest["config"]["agents"][0]["spec"] == "careful" and "packages" in manifest and "git" in manifest
    n_lines = len((tmp_path / "run" / "results.jsonl").read_text().splitlines())
    s2 = run_batch(cfg, judge=reference_judge, progress=False)
    assert s2.ran == 0 and s2.skipped == 12
    assert len((tmp_path / "run" / "results.jsonl").read_text().splitlines()) == n_lines


def test_changed_grid_in_same_dir_is_refused(tmp_path, reference_judge):
    from medgym.errors import MedgymError

    run_batch(small_config(tmp_path, conditions=["baseline"]), judge=reference_judge, progress=False)
    with pytest.raises(MedgymError, match="different grid"):
        run_batch(small_config(tmp_path, conditions=["O"]), judge=reference_judge, progress=False)


def test_resuming_with_other_code_is_refused_unless_forced(tmp_path, reference_judge, monkeypatch):
    """Episodes already in the run were judged by the code that wrote them: a resume with another revision
    would put two judges' numbers in one report, so it needs --force, and the manifest then says so."""
    from medgym.errors import MedgymError
    from medgym.runner import manifest

    cfg = small_config(tmp_path, conditions=["baseline"])
    monkeypatch.setattr(manifest, "git_revision", lambda: {"revision": "a" * 40, "dirty": False})
    run_batch(cfg, judge=reference_judge, progress=False)
    again = run_batch(cfg, judge=reference_judge, progress=False)  # same code: resumes
    assert again.ran == 0 and again.skipped == 6
    monkeypatch.setattr(manifest, "git_revision", lambda: {"revision": "b" * 40, "dirty": False})
    with pytest.raises(MedgymError, match=r"revision aaaaaaaaaaaa.*revision bbbbbbbbbbbb.*--out"):
        run_batch(cfg, judge=reference_judge, progress=False)
    forced = run_batch(cfg, judge=reference_judge, progress=False, force=True)
    assert forced.ran == 0 and forced.skipped == 6  # the old results are kept, not rerun
    written = json.loads((tmp_path / "run" / "manifest.json").read_text())
    assert written["code_history"] == ["revision aaaaaaaaaaaa", "revision bbbbbbbbbbbb"]


def test_without_git_the_installed_version_identifies_the_code(tmp_path, reference_judge, monkeypatch):
    from medgym.errors import MedgymError
    from medgym.runner import manifest

    cfg = small_config(tmp_path, conditions=["baseline"])
    monkeypatch.setattr(manifest, "git_revision", lambda: {"revision": None, "dirty": None})
    monkeypatch.setattr(manifest, "package_versions", lambda: {"medgym": "0.1.0"})
    run_batch(cfg, judge=reference_judge, progress=False)
    monkeypatch.setattr(manifest, "package_versions", lambda: {"medgym": "0.2.0"})
    with pytest.raises(MedgymError, match="version 0.1.0.*version 0.2.0"):
        run_batch(cfg, judge=reference_judge, progress=False)


class ExplodingJudge:
    def judge(self, traj):
        raise RuntimeError("judge endpoint down")


def test_judge_failure_is_unscored_and_retried(tmp_path, reference_judge):
    cfg = small_config(tmp_path, agents=["careful"], conditions=["I"])
    s = run_batch(cfg, judge=ExplodingJudge(), progress=False)
    assert s.status == Counter({"unscored": 3})
    for rec in read_results(cfg.out).values():
        assert rec["status"] == "unscored" and rec["audit"] is None and rec["hallucination"] is None
        assert "judge endpoint down" in rec["error"]["message"] and rec["error"]["stage"] == "judge"
    s2 = run_batch(cfg, judge=reference_judge, progress=False)
    assert s2.ran == 3 and s2.status["ok"] == 3


def test_agent_errors_are_recorded_not_scored(tmp_path, reference_judge):
    cfg = small_config(tmp_path, agents=[{"spec": "tests_nonexistent_module:factory"}], conditions=["O"])
    s = run_batch(cfg, judge=reference_judge, progress=False)
    assert s.status == Counter({"error": 3})
    rec = next(iter(read_results(cfg.out).values()))
    assert rec["error"]["stage"] == "agent_init" and "cannot import agent module" in rec["error"]["message"]
    assert rec["audit"] is None


def test_fault_injecting_llm_server_errors_then_rerun_retries(tmp_path, reference_judge):
    """Random 429/500/timeouts/drops/garbage: the run finishes, failures are errors with reasons, none scored 0."""
    kwargs = {"model": "fake", "timeout": 0.5, "max_retries": 1, "backoff_base": 0.01, "backoff_max": 0.02,
              "retry_after_max": 0.05}  # fmt: skip
    with FakeOpenAIServer(default_reply="Could you provide the results? Final diagnosis: unclear.",
                          faults=RandomFaults(rate=0.45, seed=3), timeout_s=1.0) as srv:  # fmt: skip
        cfg = small_config(tmp_path, agents=[{"spec": "llm", "kwargs": {**kwargs, "base_url": srv.base_url}}],
                           conditions=["baseline", "O", "I", "D"], concurrency=4)  # fmt: skip
        s1 = run_batch(cfg, judge=reference_judge, progress=False)
        assert s1.ran == 12
        assert s1.status["error"] > 0, "the fault plan should break some episodes"
        for rec in read_results(cfg.out).values():
            if rec["status"] == "error":
                assert rec["error"]["stage"] == "agent" and rec["error"]["type"] == "LLMTransportError"
                assert rec["audit"] is None and rec["hallucination"] is None and rec["judge"] is None
        errors_before = s1.status["error"]
    with FakeOpenAIServer(default_reply="Final diagnosis: unclear.") as srv2:
        # same grid (the base_url is part of kwargs, which the grid fingerprint does not include)
        cfg2 = cfg.model_copy(update={"agents": [a.model_copy(update={"kwargs": {**a.kwargs, "base_url": srv2.base_url}})
                                                 for a in cfg.agents]})  # fmt: skip
        s2 = run_batch(cfg2, judge=reference_judge, progress=False)
        assert s2.ran == errors_before and s2.status["ok"] == errors_before
    assert all(r["status"] == "ok" for r in read_results(cfg.out).values())


def _count_lines(path):
    return len(path.read_bytes().splitlines()) if path.exists() else 0


def _default_sigint() -> None:
    """In the child before exec: SIGINT back to its default, as a terminal's process gets it."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _start_and_wait_for_lines(args: list[str], results, n: int, timeout_s: float = 240, **popen_kw):
    """Start ``medgym ARGS`` and return once ``results`` has ``n`` lines (the run still going)."""
    proc = subprocess.Popen(medgym_cmd(*args), stderr=subprocess.PIPE, **popen_kw)
    deadline = time.time() + timeout_s
    while _count_lines(results) < n and time.time() < deadline and proc.poll() is None:
        time.sleep(0.05)
    assert proc.poll() is None, "run finished before it could be stopped; grow the grid"
    return proc


def _processes_mentioning(text: str) -> list[int]:
    """Live processes whose command line contains ``text`` (forked workers share the parent's)."""
    pids = []
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                if text in (d / "cmdline").read_bytes().decode(errors="replace"):
                    pids.append(int(d.name))
            except OSError:
                continue
    return pids


def _assert_no_survivors(out, wait_s: float = 10) -> None:
    deadline = time.time() + wait_s
    while _processes_mentioning(str(out)) and time.time() < deadline:
        time.sleep(0.1)
    assert _processes_mentioning(str(out)) == [], "worker processes outlived the run"


@pytest.mark.parametrize("workers", ["1", "2"])
def test_sigkill_midway_then_resume_gives_exact_set(tmp_path, workers):
    out = tmp_path / "killed"
    args = ["run", "--out", str(out), "--agents", "careful", "--concurrency", "4", "--workers", workers,
            "--no-report", "--no-progress"]  # fmt: skip
    results = out / "results.jsonl"
    proc = _start_and_wait_for_lines(args, results, 40, stdout=subprocess.DEVNULL)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    _assert_no_survivors(out)  # forked workers die with the run (no orphan keeps calling an endpoint)
    raw = results.read_bytes()
    complete = raw.splitlines(keepends=True)
    for line in complete:  # every terminated line is valid JSON; at most the last one is unterminated
        if line.endswith(b"\n"):
            json.loads(line)
    before = len(read_results(out))
    assert 40 <= before < len(default_bank()) * 8
    res = run_cli(*args)
    assert res.returncode == 0, res.stderr
    lines = results.read_text().splitlines()
    keys = [json.loads(x)["key"] for x in lines]
    expected = {f"{c}|{cond}|careful|s0|r0" for c in default_bank().ids()
                for cond in ("baseline", "O", "I", "D", "O+I", "O+D", "I+D", "O+I+D")}  # fmt: skip
    assert set(keys) == expected
    assert len(keys) == len(set(keys)), "an episode was written twice"


@pytest.mark.parametrize("workers", ["1", "2"])
def test_ctrl_c_stops_cleanly_and_keeps_results(tmp_path, workers):
    with FakeOpenAIServer(default_reply="Final diagnosis: unclear.", latency_s=0.15) as srv:
        out = tmp_path / "interrupted"
        args = ["run", "--out", str(out), "--agents", "llm", "--model", "fake", "--base-url", srv.base_url,
                "--cases", ",".join(CASES), "--concurrency", "4", "--workers", workers, "--no-report",
                "--no-progress"]  # fmt: skip
        # its own process group, so SIGINT reaches the run and its workers as a terminal's Ctrl-C would; and
        # SIGINT's default disposition, as under a terminal: a suite started in the background by a
        # non-interactive shell (`./.ci/run &`) inherits SIGINT ignored, and Python then never raises
        # KeyboardInterrupt, so the run would (rightly) carry on to the end
        proc = _start_and_wait_for_lines(args, out / "results.jsonl", 3, stdout=subprocess.PIPE, text=True,
                                         start_new_session=True, preexec_fn=_default_sigint)  # fmt: skip
        os.killpg(proc.pid, signal.SIGINT)
        _, err = proc.communicate(timeout=60)
        assert proc.returncode == 130, err
        assert "interrupted" in err and "Traceback" not in err
        kept = read_results(out)
        assert len(kept) >= 3 and all(r["status"] == "ok" for r in kept.values())
        _assert_no_survivors(out)
        res = run_cli(*args)
        assert res.returncode == 0, res.stderr
        assert len(read_results(out)) == len(CASES) * 8


def test_a_run_directory_named_like_a_jsonl_file_is_read_as_a_directory(tmp_path):
    from medgym.runner.store import RESULTS_FILE, read_results

    run = tmp_path / "episodes.jsonl"
    run.mkdir()
    (run / RESULTS_FILE).write_text('{"key": "a", "v": 1}\n{"key": "a", "v": 2}\n', encoding="utf-8")
    assert read_results(run) == {"a": {"key": "a", "v": 2}}
    assert read_results(run / RESULTS_FILE) == {"a": {"key": "a", "v": 2}}
