"""Task files: size, coverage, validation errors, and gold answers that match what was planted."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from medgym.db_fixtures.task_models import TASK_DIR, default_tasks, load_tasks
from medgym.errors import DataValidationError, UnknownNameError


def test_counts_and_shape():
    ts = default_tasks()
    assert len(ts) >= 60
    assert ts.n_rounds >= 200
    assert all(3 <= t.n_rounds <= 5 for t in ts)
    assert not ts.missing_gold()


def test_round_kinds_are_covered():
    kinds = {k for t in default_tasks() for r in t.rounds for k in r.kinds}
    assert {"trend", "anomaly", "aggregation", "join", "temporal", "note_search", "unanswerable"} <= kinds
    unans = [r for t in default_tasks() for r in t.rounds if r.unanswerable]
    assert 10 <= len(unans) <= 40


def test_later_rounds_refer_back():
    back = re.compile(r"\b(of those|of them|of these|those|their|they|them|each of them)\b", re.I)
    follow = [r for t in default_tasks() for r in t.rounds[1:] if back.search(r.utterance)]
    assert len(follow) >= 80


def test_gold_sql_is_portable_or_overridden():
    forbidden = re.compile(r"strftime|julianday|date_trunc|datediff|\|\||\bILIKE\b|\bTOP\b|\bROUND\(", re.I)
    for t in default_tasks():
        for r in t.rounds:
            if r.gold_sql and forbidden.search(r.gold_sql):
                assert r.gold_sql_overrides, f"{t.id}: dialect-specific SQL without overrides"
            for sql in r.gold_sql_overrides.values():
                assert sql.strip()


def test_gold_matches_planted_manifest(fixture_data):
    ts = default_tasks()
    p = fixture_data.planted

    def col(task_id, rnd, j=0):
        return sorted(row[j] for row in ts.get(task_id).rounds[rnd - 1].gold.rows)

    assert col("creatinine_trend_01", 2) == sorted(p["creatinine_rising"])
    assert col("creatinine_trend_03", 1) == sorted(p["creatinine_rising"])
    assert ts.get("duplicate_labs_01").rounds[0].gold.rows == [[len(p["duplicate_labs"])]]
    assert col("potassium_spike_01", 1) == sorted(p["potassium_spikes"])
    assert col("sodium_dip_01", 1) == sorted(p["sodium_dips"])
    assert col("notes_falls_01", 1) == sorted(p["fall_notes"])
    assert col("notes_penicillin_01", 1) == sorted(p["penicillin_allergy"])
    assert set(p["penicillin_allergy_given_amoxicillin"]) <= set(col("notes_penicillin_01", 2))
    assert col("notes_nonadherence_01", 1) == sorted(p["non_adherent"])
    assert col("semaglutide_hba1c_02", 1) == sorted(p["semaglutide_started"])
    assert col("semaglutide_hba1c_01", 3) == sorted(p["semaglutide_started"])
    assert col("missing_values_01", 4) == sorted(p["postal_code_missing"])
    assert ts.get("missing_values_01").rounds[0].gold.rows == [[len(p["null_lab_values"])]]
    assert ts.get("missing_values_01").rounds[2].gold.rows == [[len(p["null_blood_pressure"])]]
    assert col("implausible_heart_rate_01", 1) == sorted(p["implausible_heart_rate"])
    assert col("implausible_temperature_01", 1) == sorted(p["temperature_fahrenheit"])
    assert ts.get("missing_values_02").rounds[2].gold.rows == [[len(p["open_inpatient_stays"])]]
    unit_counts = dict(map(tuple, ts.get("messy_units_creatinine_01").rounds[0].gold.rows))
    assert unit_counts["umol/L"] == len(p["creatinine_umol"])
    assert unit_counts["mg/dl"] == len(p["creatinine_mgdl_lowercase"])


def _write(tmp_path: Path, doc) -> Path:
    f = tmp_path / "tasks.yaml"
    f.write_text(yaml.safe_dump(doc, sort_keys=False))
    return f


def _one_task(**round_over):
    rnd = {"utterance": "How many patients are there?", "kinds": ["aggregation"],
           "gold_sql": "SELECT COUNT(*) FROM patients", **round_over}
    return {"tasks": [{"id": "t_one", "title": "T", "family": "f", "rounds": [rnd, dict(rnd), dict(rnd)]}]}


def test_validation_errors_name_file_task_and_field(tmp_path):
    f = _write(tmp_path, _one_task(kinds=["not_a_kind"]))
    with pytest.raises(DataValidationError) as err:
        load_tasks([f], require_gold=False)
    msg = str(err.value)
    assert str(f) in msg and "t_one" in msg and "rounds.0.kinds.0" in msg

    f = _write(tmp_path, _one_task(gold_sql=None))
    with pytest.raises(DataValidationError, match="needs gold_sql"):
        load_tasks([f], require_gold=False)

    doc = _one_task()
    doc["tasks"][0]["rounds"] = doc["tasks"][0]["rounds"][:2]
    with pytest.raises(DataValidationError, match=r"(?s)rounds.*at least 3"):
        load_tasks([_write(tmp_path, doc)], require_gold=False)

    bad = _one_task(unanswerable=True, unanswerable_reason="x", kinds=["unanswerable"])
    with pytest.raises(DataValidationError, match="no gold_sql"):
        load_tasks([_write(tmp_path, bad)], require_gold=False)


def test_missing_gold_and_duplicate_ids(tmp_path):
    f = _write(tmp_path, _one_task())
    with pytest.raises(DataValidationError, match="regen-gold"):
        load_tasks([f])
    g = tmp_path / "more.yaml"
    g.write_text(f.read_text())
    with pytest.raises(DataValidationError, match="duplicate task id 't_one'"):
        load_tasks([f, g], require_gold=False)


def test_unknown_task_has_did_you_mean():
    with pytest.raises(UnknownNameError, match="did you mean 'demographics_01'"):
        default_tasks().get("demographic_01")


def test_packaged_files_are_canonical_yaml():
    from medgym.datafiles import read_data_file
    from medgym.db_fixtures.gold import dump_task_yaml

    for f in sorted(TASK_DIR.glob("*.yaml")):
        assert dump_task_yaml(read_data_file(f)) == f.read_text(), f"{f.name}: run `medgym data regen-gold`"
