"""Reports from run directories alone, and the main job's discrimination: careful beats sloppy."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import run_cli

from medgym.knowledge_base.case_bank import default_bank
from medgym.llm.fake_server import FakeOpenAIServer
from medgym.report import write_report
from medgym.report.load import load_run
from medgym.report.stats import cell_table
from medgym.runner import RunConfig, read_results, run_batch

CASES = default_bank().ids()[::4]  # every 4th case: all specialties represented, ~11 cases


@pytest.fixture(scope="module")
def main_like_run(tmp_path_factory, reference_judge):
    out = tmp_path_factory.mktemp("runs") / "main"
    cfg = RunConfig(out=str(out), cases={"ids": CASES}, repeats=2)
    summary = run_batch(cfg, judge=reference_judge, progress=False)
    assert summary.status["ok"] == len(CASES) * 8 * 2 * 2
    return out


def test_careful_beats_sloppy_on_the_headline_metrics(main_like_run):
    """The main job's acceptance: careful is better on CDR, RUR, PCR, NFR and DHDR.

    Per condition careful is never worse; averaged over the stressed conditions where the
    metric applies it is strictly better. (Under I alone every fact is released, so neither
    agent has anything to invent and NFR/DHDR tie at 0 there.)
    """
    cells = cell_table(load_run(main_like_run), n_boot=50)
    better = {"CDR": 1, "RUR": 1, "PCR": -1, "NFR": -1, "DHDR": -1}  # +1: higher is better
    for metric, sign in better.items():
        diffs = []
        for cond in ("O", "I", "D", "O+I", "O+D", "I+D", "O+I+D"):
            c = cells[("careful", cond)].rows[metric].mean
            s = cells[("sloppy", cond)].rows[metric].mean
            if c is None or s is None:
                continue
            assert sign * (c - s) >= 0, f"{metric} under {cond}: careful {c} vs sloppy {s}"
            diffs.append(sign * (c - s))
        assert len(diffs) >= 3, metric
        assert sum(diffs) / len(diffs) > 0.3, f"{metric}: careful is not clearly better ({diffs})"


def test_report_tables_na_heatmaps_profiles_and_pass_k(main_like_run):
    paths = write_report([main_like_run])
    md = Path(paths["markdown"]).read_text(encoding="utf-8")
    assert "## Five-node process audit" in md and "## Hallucination propagation" in md
    # CDR has no contradiction at baseline: shown as N/A, never as 0
    base_row = next(line for line in md.splitlines() if line.startswith("| careful | baseline |") and "GDR" not in line
                    and "N/A" in line)  # fmt: skip
    assert "N/A" in base_row
    assert "pass^2" in md
    assert (main_like_run / "report" / "heatmap_careful.png").stat().st_size > 10_000
    assert "most fragile node" in md
    cells = cell_table(load_run(main_like_run), n_boot=50)
    assert cells[("careful", "O")].pass_k == 1.0 and cells[("sloppy", "O")].pass_k == 0.0
    row = cells[("careful", "O+I")].rows["GDR"]
    assert row.n == len(CASES) * 2 and row.ci_low <= row.mean <= row.ci_high


def test_compare_runs_and_agents_via_cli(main_like_run, tmp_path, reference_judge):
    other = tmp_path / "other"
    run_batch(RunConfig(out=str(other), cases={"ids": CASES[:3]}, agents=["careful"]), judge=reference_judge,
              progress=False)  # fmt: skip
    res = run_cli("report", str(main_like_run), str(other))
    assert res.returncode == 0, res.stderr
    cmp_path = next((main_like_run / "report").glob("compare_main_vs_other.md"))
    assert "| O+I | CDR ↑ |" in cmp_path.read_text()
    res = run_cli("report", str(main_like_run), "--compare-agents", "careful", "sloppy")
    assert res.returncode == 0, res.stderr
    text = (main_like_run / "report" / "compare_careful_vs_sloppy.md").read_text()
    assert "✗" in text  # sloppy is worse somewhere
    bad = run_cli("report", str(main_like_run), "--compare-agents", "careful", "nobody")
    assert bad.returncode == 2 and "nobody" in bad.stderr
    missing = run_cli("report", str(tmp_path / "nope"))
    assert missing.returncode == 2 and "not a run directory" in missing.stderr


def test_llm_response_cache_makes_identical_rerun_free(tmp_path, reference_judge):
    cache = tmp_path / "cache"
    kwargs = {"model": "fake", "cache_dir": str(cache)}
    with FakeOpenAIServer(default_reply="Final diagnosis: unclear.") as srv:
        cfg = RunConfig(out=str(tmp_path / "a"), cases={"ids": CASES[:2]}, conditions=["O", "I"],
                        agents=[{"spec": "llm", "kwargs": {**kwargs, "base_url": srv.base_url}}])  # fmt: skip
        run_batch(cfg, judge=reference_judge, progress=False)
        n_first = len(srv.requests)
        cfg2 = cfg.model_copy(update={"out": str(tmp_path / "b")})
        run_batch(cfg2, judge=reference_judge, progress=False)
        assert n_first > 0 and len(srv.requests) == n_first, "the rerun must be served from the cache"
    a = {k: r["trajectory"]["turns"] for k, r in read_results(tmp_path / "a").items()}
    b = {k: r["trajectory"]["turns"] for k, r in read_results(tmp_path / "b").items()}
    assert a == b
    tokens = [r["tokens"]["agent"] for r in read_results(tmp_path / "b").values()]
    assert all(t["total_tokens"] == 0 and t["cached"] > 0 for t in tokens)
