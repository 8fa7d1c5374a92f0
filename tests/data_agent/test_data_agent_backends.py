"""Every backend holds the same data and answers every gold SQL with the stored gold answer."""

from __future__ import annotations

import pytest

from medgym.db_fixtures.gold import compute_gold
from medgym.db_fixtures.sandbox import database_checksum, open_sandbox
from medgym.db_fixtures.task_models import default_tasks
from medgym.judges.sql_scoring import multiset_equal

EXPECTED_TABLES = ["diagnoses", "encounters", "labs", "medications", "notes", "patients", "vitals"]


def test_checksum_is_identical_across_backends(sqlite_backend, pg_backend, mariadb_backend, csv_backend):
    sums = {
        "sqlite": database_checksum(sqlite_backend.url),
        "postgresql": database_checksum(pg_backend.admin_url),
        "mariadb": database_checksum(mariadb_backend.admin_url),
    }
    with open_sandbox(csv_backend.url) as sb:  # the CSV import itself (the CSV bytes are hashed separately)
        sums["csv"] = sb.checksum()
    assert len(set(sums.values())) == 1, sums


def test_stored_gold_equals_fresh_execution(backend):
    """Catches drift (generator or task edits) and dialect differences in the gold SQL."""
    tasks = default_tasks()
    mismatches = []
    with open_sandbox(backend.url, timeout_s=30, max_rows=1000) as sb:
        for task in tasks:
            for i, rnd in enumerate(task.rounds):
                if rnd.unanswerable:
                    continue
                fresh = compute_gold(rnd, sb)
                if not multiset_equal(fresh.rows, rnd.gold.rows):
                    mismatches.append(f"{task.id}#{i + 1}: stored {rnd.gold.rows[:3]} fresh {fresh.rows[:3]}")
    assert not mismatches, f"{len(mismatches)} rounds differ on {backend.name}:\n" + "\n".join(mismatches[:20])


def test_tools_work_on_every_backend(backend):
    with open_sandbox(backend.url) as sb:
        assert sb.list_tables() == EXPECTED_TABLES
        cols = [c.name for c in sb.describe_table("LABS")]
        assert cols[:4] == ["lab_id", "patient_id", "encounter_id", "loinc_code"]
        assert sb.read_meta()["fixture"] == "medgym-ehr"
        res = sb.run_sql("SELECT unit, COUNT(*) AS n FROM labs WHERE loinc_code = '2160-0' GROUP BY unit")
        units = {r[0] for r in res.rows}
        assert {"mg/dL", "mg/dl", "umol/L"} <= units, "case-sensitive units must stay distinct (binary collation)"
        res = sb.run_sql("SELECT MIN(collected_at), MAX(birth_date) FROM labs, patients WHERE labs.patient_id = "
                         "patients.patient_id")
        ts, d = res.rows[0]
        assert len(ts) == 19 and ts[10] == " " and len(d) == 10  # canonical timestamp / date text


@pytest.mark.parametrize("sql", [
    "SELECT COUNT(*) FROM notes WHERE LOWER(note_text) LIKE '%fall%'",
    "SELECT AVG(value) FROM labs WHERE loinc_code = '4548-4' AND value <= 20",
    "SELECT patient_id FROM patients WHERE birth_date < '1950-01-01'",
])
def test_same_results_everywhere(sql, sqlite_backend, pg_backend, mariadb_backend, csv_backend):
    results = []
    for b in (sqlite_backend, pg_backend, mariadb_backend, csv_backend):
        with open_sandbox(b.url) as sb:
            results.append(sb.run_sql(sql).rows)
    for other in results[1:]:
        assert multiset_equal(other, results[0])


def test_env_tools_on_every_backend(backend):
    import gymnasium as gym

    import medgym  # noqa: F401
    from medgym.envs.data_agent.tools import tool_call

    env = gym.make("medgym/DataAgent-v0", url=backend.url)
    try:
        obs, info = env.reset(options={"task_id": "notes_falls_01"})
        assert info["gold_source"] == "stored"  # the fixture is recognised on every backend
        obs, *_, info = env.step(tool_call("search_notes", query="fall home", limit=3))
        assert obs.startswith("9 note(s) match 'fall home'; showing 3:"), obs[:200]
        obs, *_, info = env.step(tool_call("search_notes", query="100%_!", limit=3))
        assert obs.startswith("0 note(s) match")
        obs, *_, info = env.step(tool_call("describe_table", table="notes"))
        assert "note_text" in obs and "Example rows" in obs
    finally:
        env.close()
