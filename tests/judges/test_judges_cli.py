"""``medgym audit``: one trajectory -> JSON; JSONL -> aggregate table; errors -> exit 2 / error items."""

from __future__ import annotations

import json
from pathlib import Path

from medgym.cli.main import main
from medgym.judges.validation import load_validation_set

VALIDATION = Path(__file__).parent / "validation"


def test_audit_single_trajectory_prints_json(tmp_path, capsys):
    item = load_validation_set(VALIDATION)[0]
    path = item.trajectory.save(tmp_path / "t.json")
    assert main(["audit", str(path)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["status"] == "ok" and out["annotations"]["claims"] is not None
    assert set(out["audit"]) == {"GDR", "IR", "PIR", "RIR", "CDR", "CIR", "RUR", "PCR", "SMR", "EF", "FCR"}
    assert main(["audit", str(path), "--metrics-only"]) == 0
    assert "annotations" not in json.loads(capsys.readouterr().out)


def test_audit_jsonl_prints_aggregate_tables(tmp_path, capsys):
    items = load_validation_set(VALIDATION)[:6]
    lines = [it.trajectory.model_copy(update={"agent": f"agent{i % 2}"}).model_dump_json() for i, it in enumerate(items)]
    lines.append(json.dumps({"trajectory": items[0].trajectory.model_dump(mode="json")}))  # runner-log shape
    lines.append("{broken")
    src = tmp_path / "many.jsonl"
    src.write_text("\n".join(lines) + "\n")
    res_out = tmp_path / "results.jsonl"
    assert main(["audit", str(src), "--by", "agent", "--n-boot", "50", "--results-out", str(res_out)]) == 0
    text = capsys.readouterr().out
    assert "8 trajectories, 1 not scored" in text and "agent0" in text and "CIHGR" in text
    assert len(res_out.read_text().splitlines()) == 8
    assert main(["audit", str(src), "--json", "--n-boot", "20"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["n"] == 8 and len(data["not_scored"]) == 1 and data["rows"]


def test_audit_missing_file_exits_2(capsys):
    assert main(["audit", "/no/such/file.json"]) == 2
    assert "no such file" in capsys.readouterr().err


def test_audit_jsonl_with_worker_processes_matches_one_process(tmp_path, capsys):
    items = load_validation_set(VALIDATION)[:5]
    lines = [it.trajectory.model_dump_json() for it in items]
    lines.insert(2, "{broken")
    src = tmp_path / "many.jsonl"
    src.write_text("\n".join(lines) + "\n")
    outs = {}
    for w in ("1", "2"):
        res = tmp_path / f"res{w}.jsonl"
        assert main(["audit", str(src), "--json", "--n-boot", "20", "--workers", w, "--results-out", str(res)]) == 0
        outs[w] = (json.loads(capsys.readouterr().out),
                   [{k: v for k, v in json.loads(x).items() if k != "elapsed_s"} for x in res.read_text().splitlines()])
    assert outs["1"] == outs["2"]
    data, results = outs["2"]
    assert data["not_scored"] == [{"line": 3, "status": "error", "reason": data["not_scored"][0]["reason"]}]
    assert [r["status"] for r in results] == ["ok", "ok", "error", "ok", "ok", "ok"]
    assert [r.get("scenario_id") for r in results if r["status"] == "ok"] == [it.trajectory.scenario.id for it in items]


def test_audit_rejects_a_bad_worker_count(tmp_path, capsys):
    src = tmp_path / "many.jsonl"
    src.write_text(load_validation_set(VALIDATION)[0].trajectory.model_dump_json() + "\n")
    try:
        main(["audit", str(src), "--workers", "0"])
    except SystemExit as exc:
        assert exc.code == 2
    assert "expected a positive integer or 'auto', got '0'" in capsys.readouterr().err
