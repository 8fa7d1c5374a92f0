"""The agent cannot change or escape the data, on every backend (enforced by the database)."""

from __future__ import annotations

import contextlib
import os
import time
from pathlib import Path

import gymnasium as gym
import pytest

import medgym  # noqa: F401
from medgym.db_fixtures.sandbox import SqlToolError, database_checksum, open_sandbox
from medgym.envs.data_agent.tools import tool_call

ATTACKS = {
    "drop": ("DROP TABLE labs", None),
    "insert": ("INSERT INTO patients (patient_id, sex) VALUES ('X9999', 'F')", None),
    "update": ("UPDATE labs SET value = 0", None),
    "delete": ("DELETE FROM notes", None),
    "create": ("CREATE TABLE evil (x INT)", None),
    "create_temp": ("CREATE TEMPORARY TABLE evil (x INT)", None),
    "truncate": ("TRUNCATE TABLE labs", None),
    "attach": ("ATTACH DATABASE '{tmp}/evil.db' AS evil", None),
    "pragma_query_only_off": ("PRAGMA query_only = OFF", None),
    "pragma_writable_schema": ("PRAGMA writable_schema = ON", None),
    "copy_to_program": ("COPY labs TO PROGRAM 'touch {tmp}/pwned'", None),
    "copy_from_program": ("COPY labs FROM PROGRAM 'echo 1'", None),
    "into_outfile": ("SELECT * FROM patients INTO OUTFILE '{tmp}/out.csv'", None),
    "stacked_drop": ("SELECT 1; DROP TABLE labs", "multiple_statements"),
    "stacked_insert": ("SELECT COUNT(*) FROM patients; INSERT INTO patients (patient_id) VALUES ('X1')",
                       "multiple_statements"),
    "grant": ("GRANT ALL PRIVILEGES ON labs TO PUBLIC", None),
}
WRITE_CATEGORIES = {"read_only", "permission", "syntax", "multiple_statements", "unknown_object"}


@pytest.fixture(scope="module")
def checksums(backend):
    """Checksum of the backend before any attack (admin view on servers)."""
    return database_checksum(backend.admin_url or backend.url)


@pytest.mark.parametrize("attack", sorted(ATTACKS))
def test_attack_is_refused_and_data_unchanged(backend, checksums, attack, tmp_path):
    os.chmod(tmp_path, 0o777)  # a server running as another user could write here: make the test meaningful
    sql, want = ATTACKS[attack]
    sql = sql.format(tmp=tmp_path)
    with open_sandbox(backend.url) as sb:
        with pytest.raises(SqlToolError) as err:
            sb.run_sql(sql)
        assert err.value.category in WRITE_CATEGORIES, str(err.value)
        if want:
            assert err.value.category == want, str(err.value)
        assert str(err.value).startswith("SQL error ["), str(err.value)
        # the connection is still usable afterwards
        assert sb.run_sql("SELECT COUNT(*) FROM patients").rows[0][0] == 200
    assert database_checksum(backend.admin_url or backend.url) == checksums
    assert not list(tmp_path.iterdir()), f"{attack} created a file: {list(tmp_path.iterdir())}"


def test_sqlite_vacuum_into_cannot_write_a_file(sqlite_backend, tmp_path):
    target = tmp_path / "copy.db"
    with open_sandbox(sqlite_backend.url) as sb, pytest.raises(SqlToolError):
        sb.run_sql(f"VACUUM INTO '{target}'")
    assert not target.exists()


def _sleep_sql(dialect: str) -> str:
    return {"postgresql": "SELECT pg_sleep(10)", "mysql": "SELECT SLEEP(10)"}.get(
        dialect, "WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c) SELECT COUNT(*) FROM c")


def test_long_statement_is_stopped_by_the_timeout(backend):
    with open_sandbox(backend.url, timeout_s=1.0) as sb:
        t0 = time.monotonic()
        with pytest.raises(SqlToolError) as err:
            sb.run_sql(_sleep_sql(sb.dialect))
        elapsed = time.monotonic() - t0
        assert err.value.category == "timeout", str(err.value)
        assert elapsed < 4.0
        assert sb.run_sql("SELECT COUNT(*) FROM labs").rows[0][0] > 0


def test_heavy_cross_join_is_stopped(backend):
    with open_sandbox(backend.url, timeout_s=1.0) as sb:
        t0 = time.monotonic()
        with pytest.raises(SqlToolError) as err:
            sb.run_sql("SELECT COUNT(*) FROM labs a, labs b, labs c")
        assert err.value.category == "timeout", str(err.value)
        assert time.monotonic() - t0 < 4.0


def test_agent_cannot_lift_the_timeout(backend):
    """SET statement_timeout / max_statement_time from the agent does not outlive its statement."""
    lift = {"postgresql": "SET statement_timeout = 0", "mysql": "SET SESSION max_statement_time = 0"}
    with open_sandbox(backend.url, timeout_s=1.0) as sb:
        if sb.dialect in lift:
            with contextlib.suppress(SqlToolError):  # refusing it is fine too
                sb.run_sql(lift[sb.dialect])
        t0 = time.monotonic()
        with pytest.raises(SqlToolError) as err:
            sb.run_sql(_sleep_sql(sb.dialect))
        assert err.value.category == "timeout"
        assert time.monotonic() - t0 < 4.0


def test_postgres_cannot_turn_read_write(pg_backend):
    before = database_checksum(pg_backend.admin_url)
    with open_sandbox(pg_backend.url) as sb:
        for sql in ("SET default_transaction_read_only = off", "SET TRANSACTION READ WRITE"):
            with contextlib.suppress(SqlToolError):
                sb.run_sql(sql)
        with pytest.raises(SqlToolError) as err:
            sb.run_sql("DELETE FROM labs")
        assert err.value.category in ("read_only", "permission")
    assert database_checksum(pg_backend.admin_url) == before


def test_row_cap(backend):
    with open_sandbox(backend.url, max_rows=50) as sb:
        res = sb.run_sql("SELECT lab_id FROM labs")
        assert len(res.rows) == 50 and res.truncated


def test_env_reports_attacks_as_tool_errors_and_continues(backend):
    env = gym.make("medgym/DataAgent-v0", url=backend.url)
    try:
        obs, info = env.reset(seed=0, options={"task_id": "demographics_01"})
        for sql in ("DROP TABLE patients", "SELECT 1; DELETE FROM labs"):
            obs, reward, term, trunc, info = env.step(tool_call("run_sql", sql=sql))
            assert obs.startswith("Tool error: SQL error [")
            assert info["tool_error"]["category"] in WRITE_CATEGORIES
            assert not term and not trunc and reward == 0.0
        obs, _r, _t, _tr, info = env.step(tool_call("run_sql", sql="SELECT COUNT(*) AS n FROM patients"))
        assert info["tool_result"]["rows"] == [[200]]
    finally:
        env.close()


def test_csv_source_files_untouched(csv_backend):
    folder = Path(csv_backend.url.split("://", 1)[1])
    before = {p.name: p.read_bytes() for p in folder.glob("*.csv")}
    with open_sandbox(csv_backend.url) as sb:
        for sql in ("DELETE FROM labs", "DROP TABLE patients"):
            with pytest.raises(SqlToolError):
                sb.run_sql(sql)
    assert {p.name: p.read_bytes() for p in folder.glob("*.csv")} == before


def test_write_capable_accounts_are_refused(pg_backend, mariadb_backend):
    """Pointing the env at an admin DSN is refused: agent SQL only runs as a SELECT-only account."""
    from medgym.errors import MedgymError

    for b in (pg_backend, mariadb_backend):
        with pytest.raises(MedgymError, match="refusing to run agent SQL"):
            open_sandbox(b.admin_url)
        with pytest.raises(MedgymError, match="SELECT-only account"):
            gym.make("medgym/DataAgent-v0", url=b.admin_url).reset(options={"task_id": "demographics_01"})
