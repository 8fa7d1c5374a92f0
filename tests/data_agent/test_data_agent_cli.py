"""``medgym data ...`` commands, run in-process through the real argument parser."""

from __future__ import annotations

import json
from pathlib import Path

from medgym.cli.main import main
from medgym.db_fixtures.sandbox import database_checksum

SYNTHEA = Path(__file__).resolve().parent / "synthea_sample"


def test_tasks_listing(capsys):
    assert main(["data", "tasks"]) == 0
    out = capsys.readouterr().out
    assert "63 tasks" in out and "rounds" in out
    assert main(["data", "tasks", "--portable", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert rows and all(r["portable"] for r in rows)
    assert main(["data", "tasks", "--show", "creatinine_trend_01"]) == 0
    assert "gold SQL:" in capsys.readouterr().out


def test_unknown_names_exit_2(capsys):
    assert main(["data", "tasks", "--show", "creatinine_trend"]) == 2
    assert "did you mean" in capsys.readouterr().err
    assert main(["data", "eval", "--agent", "gpt"]) == 2


def test_generate_eval_checksum(tmp_path, capsys):
    db = tmp_path / "ehr.db"
    assert main(["data", "generate", "--url", f"sqlite:///{db}"]) == 0
    assert "loaded into" in capsys.readouterr().out
    out = tmp_path / "ep.jsonl"
    assert main(["data", "eval", "--url", f"sqlite:///{db}", "--agent", "reference", "--limit", "4",
                 "--out", str(out), "--trajectories", str(tmp_path / "traj")]) == 0
    text = capsys.readouterr().out
    assert "Acc 1.000  F1 1.000" in text
    lines = [json.loads(x) for x in out.read_text().splitlines()]
    assert len(lines) == 4 and all(x["status"] == "ok" and x["gold_source"] == "stored" for x in lines)
    assert len(list((tmp_path / "traj").glob("*.json"))) == 4
    manifest = json.loads(out.with_suffix(".manifest.json").read_text())
    assert manifest["env_id"] == "medgym/DataAgent-v0" and len(manifest["task_ids"]) == 4
    assert main(["data", "report", str(out), "--out", str(tmp_path / "r.md")]) == 0
    assert "report written" in capsys.readouterr().out
    report = (tmp_path / "r.md").read_text()
    assert "| Acc (rounds) | 1.000 |" in report and "## By family" in report
    assert main(["data", "checksum", "--url", f"sqlite:///{db}"]) == 0
    assert capsys.readouterr().out.strip() == database_checksum(f"sqlite:///{db}")


def test_import_synthea_and_eval_portable(tmp_path, capsys):
    db = tmp_path / "synthea.db"
    assert main(["data", "import", str(SYNTHEA), "--url", f"sqlite:///{db}"]) == 0
    assert "imported synthea CSV" in capsys.readouterr().out
    assert main(["data", "eval", "--url", f"sqlite:///{db}", "--portable", "--out", str(tmp_path / "e.jsonl")]) == 0
    out = capsys.readouterr().out
    assert "Acc" in out and "0 errored episodes" in out


def test_regen_gold_check_is_clean(capsys):
    assert main(["data", "regen-gold", "--check"]) == 0
    assert "0 stale" in capsys.readouterr().out
