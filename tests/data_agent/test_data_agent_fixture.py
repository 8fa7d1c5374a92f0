"""The synthetic EHR generator, the loaders and the Synthea importer."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from medgym.db_fixtures import schema
from medgym.db_fixtures.generator import generate
from medgym.db_fixtures.loaders import (
    build_sqlite,
    csv_to_sqlite,
    default_database,
    detect_layout,
    export_csv,
    read_csv_folder,
)
from medgym.db_fixtures.sandbox import database_checksum, open_sandbox
from medgym.db_fixtures.synthea import parse_drug, read_synthea_folder
from medgym.db_fixtures.urls import parse_backend_url
from medgym.errors import DataValidationError, MedgymError

SYNTHEA = Path(__file__).resolve().parent / "synthea_sample"


def test_generation_is_deterministic(fixture_data):
    again = generate()
    assert again.tables == fixture_data.tables
    assert again.planted == fixture_data.planted
    other = generate(seed=8)
    assert other.tables["labs"] != fixture_data.tables["labs"]


def test_default_size_and_columns(fixture_data):
    counts = fixture_data.counts()
    assert counts["patients"] == 200
    assert 5000 < counts["labs"] < 20000
    for table, rows in fixture_data.tables.items():
        cols = set(schema.column_names(table))
        assert all(set(r) == cols for r in rows), table
    ids = [r["lab_id"] for r in fixture_data.tables["labs"]]
    assert len(ids) == len(set(ids))


def test_planted_anomalies_are_present(fixture_data):
    p = fixture_data.planted
    labs = {r["lab_id"]: r for r in fixture_data.tables["labs"]}
    assert len(p["duplicate_labs"]) == 12
    for lid in p["duplicate_labs"]:
        copy = labs[lid]
        twins = [r for r in fixture_data.tables["labs"] if r["lab_id"] != lid and all(
            r[k] == copy[k] for k in ("patient_id", "loinc_code", "collected_at", "value", "unit"))]
        assert twins, lid
    assert all(labs[lid]["value"] > 20 for lid in p["implausible_hba1c"])
    assert all(labs[lid]["value"] is None for lid in p["null_lab_values"])
    assert {labs[lid]["unit"] for lid in p["creatinine_umol"]} == {"umol/L"}
    assert {labs[lid]["unit"] for lid in p["glucose_mmol"]} == {"mmol/L"}
    vit = {r["vital_id"]: r for r in fixture_data.tables["vitals"]}
    assert {vit[v]["heart_rate"] for v in p["implausible_heart_rate"]} == {0.0, 312.0}
    assert all(vit[v]["temperature_c"] > 90 for v in p["temperature_fahrenheit"])
    notes = fixture_data.tables["notes"]
    fall_pids = {n["patient_id"] for n in notes if "fall" in n["note_text"].lower()}
    assert fall_pids == set(p["fall_notes"])
    enc = {e["encounter_id"]: e for e in fixture_data.tables["encounters"]}
    assert all(enc[e]["end_time"] is None for e in p["open_inpatient_stays"])


def test_planted_trends(fixture_data):
    labs = fixture_data.tables["labs"]
    for pid in fixture_data.planted["creatinine_rising"]:
        series = sorted((r["collected_at"], r["value"] / (88.4 if r["unit"] == "umol/L" else 1.0))
                        for r in labs if r["patient_id"] == pid and r["loinc_code"] == "2160-0" and r["value"])
        assert len(series) >= 10 and series[-1][1] > 1.5 * series[0][1]
    starts = {m["patient_id"]: m["start_date"] for m in fixture_data.tables["medications"]
              if m["drug_name"] == "semaglutide"}
    assert set(starts) == set(fixture_data.planted["semaglutide_started"])
    for pid, start in starts.items():
        a1c = sorted((r["collected_at"].date(), r["value"]) for r in labs
                     if r["patient_id"] == pid and r["loinc_code"] == "4548-4" and r["value"])
        before = [v for d, v in a1c if d < start]
        after = [v for d, v in a1c if d >= start]
        assert before and after and after[-1] < before[-1] - 1.0


def test_csv_round_trip_and_atomic_sqlite(fixture_data, tmp_path):
    folder = export_csv(fixture_data, tmp_path / "csv")
    assert detect_layout(folder) == "canonical"
    back = read_csv_folder(folder)
    for table in schema.CLINICAL_TABLES:
        assert back[table] == fixture_data.tables[table], table
    db = build_sqlite(tmp_path / "x.sqlite", back)
    assert db.exists() and not list(tmp_path.glob(".x.sqlite.*"))
    assert database_checksum(f"sqlite:///{db}") == database_checksum(f"sqlite:///{default_database()}")
    with open_sandbox(f"csv://{folder}") as sb:
        assert sb.run_sql("SELECT COUNT(*) FROM labs").rows[0][0] == len(fixture_data.tables["labs"])


def test_canonical_csv_with_unknown_column_is_rejected(fixture_data, tmp_path):
    folder = export_csv(fixture_data, tmp_path / "csv")
    text = (folder / "patients.csv").read_text().splitlines()
    text[0] += ",shoe_size"
    text[1] += ",42"
    (folder / "patients.csv").write_text("\n".join(text) + "\n")
    with pytest.raises(DataValidationError, match=r"(?s)patients\.csv.*shoe_size"):
        read_csv_folder(folder)


def test_synthea_sample_imports(tmp_path):
    assert detect_layout(SYNTHEA) == "synthea"
    tables = read_synthea_folder(SYNTHEA)
    assert len(tables["patients"]) == 8
    assert all(d["code_system"] == "SNOMED-CT" for d in tables["diagnoses"])
    assert {lab["loinc_code"] for lab in tables["labs"]} >= {"4548-4", "2093-3"}
    assert any(v["systolic_bp"] is not None for v in tables["vitals"])
    assert tables["notes"] == []
    path = csv_to_sqlite(SYNTHEA)
    with open_sandbox(f"csv://{SYNTHEA}") as sb:
        assert sb.run_sql("SELECT COUNT(*) FROM patients").rows[0][0] == 8
        assert sb.read_meta() == {}
    assert path.exists()


def test_synthea_empty_cells_are_null(tmp_path):
    src = tmp_path / "synthea"
    shutil.copytree(SYNTHEA, src)
    lines = (src / "conditions.csv").read_text().splitlines()
    cells = lines[1].split(",")
    cells[3] = ""  # ENCOUNTER
    lines[1] = ",".join(cells)
    (src / "conditions.csv").write_text("\n".join(lines) + "\n")
    tables = read_synthea_folder(src)
    assert tables["diagnoses"][0]["encounter_id"] is None
    assert tables["diagnoses"][1]["encounter_id"] is not None


def test_synthea_errors_name_file_and_column(tmp_path):
    bad = tmp_path / "synthea"
    shutil.copytree(SYNTHEA, bad)
    lines = (bad / "conditions.csv").read_text().splitlines()
    lines[1] = lines[1].replace(lines[1].split(",")[2], "not-a-patient", 1)
    (bad / "conditions.csv").write_text("\n".join(lines) + "\n")
    with pytest.raises(DataValidationError, match=r"(?s)conditions\.csv:2.*not-a-patient"):
        read_synthea_folder(bad)
    shutil.copy(SYNTHEA / "conditions.csv", bad / "conditions.csv")
    (bad / "observations.csv").write_text("DATE,PATIENT\n")
    with pytest.raises(DataValidationError, match=r"(?s)observations\.csv.*missing Synthea column"):
        read_synthea_folder(bad)


def test_parse_drug():
    assert parse_drug("Ibuprofen 100 MG Oral Tablet") == (100.0, "mg", "oral")
    assert parse_drug("insulin isophane 70 UNT/ML Injectable Suspension")[0] == 70.0
    assert parse_drug("Albuterol 0.09 MG/ACTUAT Metered Dose Inhaler")[2] == "inhaled"


@pytest.mark.parametrize("url,kind", [
    (None, "sqlite"), ("sqlite:////tmp/a.db", "sqlite"), ("postgresql://u:p@h:5/db", "postgresql"),
    ("postgresql+psycopg://u@h/db", "postgresql"), ("mysql+pymysql://u@h/db", "mysql"), ("mariadb://u@h/db", "mysql"),
    ("csv:///tmp/folder", "csv"), ("synthea:///tmp/folder", "csv"),
])
def test_url_parsing(url, kind):
    spec = parse_backend_url(url)
    assert spec.kind == kind
    if kind == "postgresql" and "p@" in (url or ""):
        assert "p@" not in spec.redacted()


def test_bad_urls_are_typed_errors():
    with pytest.raises(MedgymError, match="unsupported database URL scheme"):
        parse_backend_url("oracle://x/y")
    with pytest.raises(MedgymError, match="layout"):
        parse_backend_url("csv:///tmp?layout=excel")


def test_embedded_database_is_built_once(data_agent_cache):
    p1 = default_database()
    mtime = p1.stat().st_mtime_ns
    p2 = default_database()
    assert p1 == p2 and p2.stat().st_mtime_ns == mtime
    assert str(p1).startswith(str(data_agent_cache))
