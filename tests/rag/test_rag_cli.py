"""``medgym kb ...`` and ``medgym rag eval`` end to end (tmp index dirs, tiny knowledge base)."""

from __future__ import annotations

import json

import yaml

from medgym.cli.main import main


def test_kb_build_status_search(tmp_path, tiny_data, capsys):
    idx = str(tmp_path / "kb")
    common = ["--data-dir", str(tiny_data), "--index-dir", idx]
    assert main(["kb", "status", *common]) == 1
    assert "run `medgym kb build`" in capsys.readouterr().out
    assert main(["kb", "search", "warfarin", *common]) == 2
    assert "run `medgym kb build`" in capsys.readouterr().err
    assert main(["kb", "build", *common]) == 0
    assert "built index of 10 documents" in capsys.readouterr().out
    assert main(["kb", "build", *common]) == 0
    assert "up to date" in capsys.readouterr().out
    assert main(["kb", "status", "--json", *common]) == 0
    st = json.loads(capsys.readouterr().out)
    assert st["state"] == "up-to-date" and st["documents"] == 10
    assert main(["kb", "search", "mechanical valve INR", "-k", "2", "--source-type", "drug_monograph", "--json", *common]) == 0
    hits = json.loads(capsys.readouterr().out)
    assert hits[0]["doc_id"] == "heme-dm-warfarin" and len(hits) <= 2
    assert main(["kb", "search", "asthma", "--rerank", "--year-min", "2023", *common]) == 0
    assert "pulm-gl-asthma-2023" in capsys.readouterr().out
    assert main(["kb", "build", "--force", *common]) == 0
    assert "built index" in capsys.readouterr().out


def test_kb_validate_reports_every_problem(tmp_path, data_copy, capsys):
    assert main(["kb", "validate", "--data-dir", str(data_copy)]) == 0
    assert "OK: 10 valid documents, 2 conflict sets, 8 questions" in capsys.readouterr().out
    path = data_copy / "documents_tiny.yaml"
    data = yaml.safe_load(path.read_text())
    data["documents"][2]["source_type"] = "blog"
    data["documents"][3]["evidence"] = "A"
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    assert main(["kb", "validate", "--data-dir", str(data_copy)]) == 1
    err = capsys.readouterr().err
    assert "documents_tiny.yaml (id 'card-dm-dapagliflozin')" in err and "field 'source_type'" in err
    assert "(id 'card-gl-htn-nbcs-2023')" in err and "field 'evidence'" in err
    assert main(["kb", "validate", "--data-dir", str(tmp_path / "missing")]) == 1


def test_rag_eval_reference_writes_episodes_and_summary(tmp_path, tiny_data, tiny_index, capsys):
    out = tmp_path / "run" / "episodes.jsonl"
    code = main(["rag", "eval", "--agent", "reference", "--data-dir", str(tiny_data), "--index-dir", str(tiny_index),
                 "--out", str(out)])
    assert code == 0
    printed = capsys.readouterr().out
    for label in ("MAP", "nDCG@10", "Recall@k", "citation precision", "answer correctness", "conflict handling"):
        assert label in printed
    lines = [json.loads(x) for x in out.read_text().splitlines()]
    assert len(lines) == 8 and {x["question_id"] for x in lines} == {f"q-t-00{i}" for i in range(1, 9)}
    first = lines[0]
    assert first["format"] == "medgym.rag_episode" and first["version"] == 1 and first["status"] == "ok"
    assert first["trajectory"]["format"] == "medgym.rag_trajectory" and first["scores"]["metrics"]["map"] is not None
    summary = json.loads((tmp_path / "run" / "episodes.jsonl.summary.json").read_text())
    assert summary["episodes"] == 8 and summary["metrics"]["conflict_handling"]["n"] == 2
    assert summary["questions_per_second"] > 0


def test_rag_eval_unknown_agent_is_a_one_line_error(tmp_path, tiny_data, tiny_index, capsys):
    code = main(["rag", "eval", "--agent", "referense", "--data-dir", str(tiny_data), "--index-dir", str(tiny_index),
                 "--out", str(tmp_path / "x.jsonl")])
    assert code == 2
    assert "did you mean 'reference'" in capsys.readouterr().err
