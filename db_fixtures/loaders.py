"""Load the fixture into SQLite, PostgreSQL or MySQL/MariaDB (SQLAlchemy 2), export/import CSV.

* :func:`load_database` creates the canonical schema at a URL and inserts the rows
  (replacing existing canonical tables), through SQLAlchemy Core in batches.
* :func:`build_sqlite` writes an SQLite file atomically (temporary file, then
  rename), so a crash or a concurrent reader never sees half a database.
* :func:`default_database` returns the embedded fixture, building it on first use
  in the cache directory from the default seed: nothing is ever downloaded.
* :func:`export_csv` / :func:`read_csv_folder` write and read the canonical CSV
  layout (one ``<table>.csv`` per table, header row, empty cell = NULL);
  Synthea exports are read by :mod:`medgym.db_fixtures.synthea`.
* :func:`provision_readonly_user` creates the SELECT-only role/user that the
  sandbox connects as on PostgreSQL and MariaDB.
"""

from __future__ import annotations

import contextlib
import csv
import datetime as dt
import hashlib
import os
import re
import tempfile
from pathlib import Path
from typing import Any

from sqlalchemy import create_engine, text
from sqlalchemy.engine import Engine, make_url

from medgym.db_fixtures import generator as generator_module
from medgym.db_fixtures import schema
from medgym.db_fixtures.generator import (
    DEFAULT_PATIENTS,
    DEFAULT_SEED,
    FIXTURE_NAME,
    GENERATOR_VERSION,
    FixtureData,
    generate,
)
from medgym.db_fixtures.urls import BackendSpec, data_agent_cache_dir, parse_backend_url, sqlalchemy_url
from medgym.errors import DataValidationError, MedgymError

BATCH = 2000
READONLY_USER = "medgym_ro"
READONLY_PASSWORD = "medgym_ro_pw"


# --------------------------------------------------------------------------- SQL loading
def _engine(url: str) -> Engine:
    return create_engine(url, future=True, pool_pre_ping=True)


def load_into_engine(engine: Engine, data: FixtureData | dict[str, list[dict[str, Any]]], meta: bool = True) -> None:
    """Drop and recreate the canonical tables, then insert every row (one transaction per table)."""
    tables = dict(data.tables if isinstance(data, FixtureData) else data)
    if meta and isinstance(data, FixtureData):
        tables["medgym_meta"] = data.meta_rows()
    schema.metadata.drop_all(engine)
    schema.metadata.create_all(engine)
    with engine.begin() as conn:
        for name in schema.ALL_TABLES:
            rows = tables.get(name, [])
            tbl = schema.metadata.tables[name]
            for i in range(0, len(rows), BATCH):
                conn.execute(tbl.insert(), rows[i : i + BATCH])


def load_database(url: str, data: FixtureData | None = None) -> BackendSpec:
    """Load ``data`` (default: the default fixture) at ``url``; returns the parsed backend.

    For ``csv://`` URLs this exports the CSV files; for server URLs the account in the
    URL needs CREATE/DROP rights (use an admin DSN, then :func:`provision_readonly_user`).
    """
    data = data if data is not None else generate()
    spec = parse_backend_url(url)
    if spec.embedded:
        raise MedgymError("the embedded database is built automatically; give an explicit URL to load into")
    if spec.kind == "csv":
        if spec.path is None:
            raise MedgymError(f"{url}: csv URL without a folder")
        export_csv(data, spec.path)
        return spec
    if spec.kind == "sqlite":
        if spec.path is None:
            raise MedgymError(f"{url}: sqlite URL without a file path")
        build_sqlite(spec.path, data)
        return spec
    engine = _engine(sqlalchemy_url(spec))
    try:
        load_into_engine(engine, data)
    finally:
        engine.dispose()
    return spec


def build_sqlite(path: Path, data: FixtureData | dict[str, list[dict[str, Any]]]) -> Path:
    """Write an SQLite file with the canonical schema atomically (tmp file + rename)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    os.close(fd)
    try:
        engine = _engine(f"sqlite:///{tmp}")
        try:
            load_into_engine(engine, data)
        finally:
            engine.dispose()
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path


def generator_fingerprint() -> str:
    """Short hash of the generator and schema sources: a code change invalidates the cache
    even if someone forgot to bump GENERATOR_VERSION."""
    h = hashlib.sha256()
    for mod in (generator_module, schema):
        h.update(Path(mod.__file__).read_bytes())
    return h.hexdigest()[:10]


def default_database_path(seed: int = DEFAULT_SEED, n_patients: int = DEFAULT_PATIENTS) -> Path:
    name = f"{FIXTURE_NAME}-s{seed}-n{n_patients}-v{GENERATOR_VERSION}-{generator_fingerprint()}.sqlite"
    return data_agent_cache_dir() / name


def default_database(seed: int = DEFAULT_SEED, n_patients: int = DEFAULT_PATIENTS) -> Path:
    """The embedded fixture's SQLite file, generated and built on first use."""
    path = default_database_path(seed, n_patients)
    if not path.exists() or not _looks_complete(path):
        build_sqlite(path, generate(seed, n_patients))
    return path


def _looks_complete(path: Path) -> bool:
    import sqlite3

    try:
        con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            rows = dict(con.execute("SELECT meta_key, meta_value FROM medgym_meta").fetchall())
        finally:
            con.close()
    except sqlite3.Error:
        return False
    return rows.get("generator_version") == str(GENERATOR_VERSION)


# --------------------------------------------------------------------------- read-only accounts
def provision_readonly_user(
    admin_url: str, user: str = READONLY_USER, password: str = READONLY_PASSWORD, timeout_s: float = 2.0
) -> str:
    """Create (or reset) a SELECT-only account on the database in ``admin_url``; return its URL.

    PostgreSQL: a LOGIN role with CONNECT + USAGE + SELECT on the schema's tables,
    ``default_transaction_read_only = on`` and ``statement_timeout`` as role defaults;
    ``CREATE`` on schema ``public`` is revoked from ``PUBLIC`` (the PostgreSQL 15 default).
    MariaDB/MySQL: ``user@'%'`` and ``user@'localhost'`` with SELECT on
    the database only (no FILE, so ``INTO OUTFILE`` fails) and ``MAX_STATEMENT_TIME``.
    """
    spec = parse_backend_url(admin_url)
    if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]{0,30}", user) or "'" in password:
        raise MedgymError(f"invalid read-only user name {user!r} or password")
    engine = _engine(sqlalchemy_url(spec))
    u = make_url(sqlalchemy_url(spec))
    db = u.database
    try:
        if spec.kind == "postgresql":
            with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
                exists = conn.execute(text("SELECT 1 FROM pg_roles WHERE rolname = :u"), {"u": user}).first()
                if exists is None:
                    conn.execute(text(f"CREATE ROLE {user} LOGIN PASSWORD '{password}'"))
                else:
                    conn.execute(text(f"ALTER ROLE {user} LOGIN PASSWORD '{password}'"))
                conn.execute(text(f"ALTER ROLE {user} NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION"))
                conn.execute(text(f"ALTER ROLE {user} SET default_transaction_read_only = on"))
                conn.execute(text(f"ALTER ROLE {user} SET statement_timeout = '{int(timeout_s * 1000)}ms'"))
                conn.execute(text(f'GRANT CONNECT ON DATABASE "{db}" TO {user}'))
                # PostgreSQL 15's default, applied to older servers too (CVE-2018-1058 hardening)
                conn.execute(text("REVOKE CREATE ON SCHEMA public FROM PUBLIC"))
                conn.execute(text(f"REVOKE ALL ON ALL TABLES IN SCHEMA public FROM {user}"))
                conn.execute(text(f"GRANT USAGE ON SCHEMA public TO {user}"))
                conn.execute(text(f"GRANT SELECT ON ALL TABLES IN SCHEMA public TO {user}"))
            ro = u.set(username=user, password=password)
        elif spec.kind == "mysql":
            limit = max(1, int(round(timeout_s)))
            with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
                for host in ("%", "localhost"):
                    conn.execute(text(f"CREATE USER IF NOT EXISTS '{user}'@'{host}' IDENTIFIED BY '{password}'"))
                    conn.execute(text(f"ALTER USER '{user}'@'{host}' IDENTIFIED BY '{password}'"))
                    conn.execute(text(f"REVOKE ALL PRIVILEGES, GRANT OPTION FROM '{user}'@'{host}'"))
                    conn.execute(text(f"GRANT SELECT ON `{db}`.* TO '{user}'@'{host}'"))
                    # MariaDB resource option; MySQL has none (the sandbox also sets it per session)
                    with contextlib.suppress(Exception):
                        conn.execute(text(f"ALTER USER '{user}'@'{host}' WITH MAX_STATEMENT_TIME {limit}"))
                conn.execute(text("FLUSH PRIVILEGES"))
            ro = u.set(username=user, password=password)
        else:
            raise MedgymError(f"read-only accounts are for PostgreSQL/MySQL URLs, got {spec.kind}")
    finally:
        engine.dispose()
    return ro.render_as_string(hide_password=False)


# --------------------------------------------------------------------------- CSV
def _csv_cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, dt.datetime):
        return value.isoformat(sep=" ", timespec="seconds")
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, float):
        return repr(value)
    return str(value)


def export_csv(data: FixtureData | dict[str, list[dict[str, Any]]], folder: Path) -> Path:
    """Write one ``<table>.csv`` per canonical table (plus ``medgym_meta.csv``)."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    tables = dict(data.tables if isinstance(data, FixtureData) else data)
    if isinstance(data, FixtureData):
        tables["medgym_meta"] = data.meta_rows()
    for name in schema.ALL_TABLES:
        if name not in tables:
            continue
        cols = schema.column_names(name)
        tmp = folder / f".{name}.csv.tmp"
        with tmp.open("w", encoding="utf-8", newline="") as fh:
            w = csv.writer(fh)
            w.writerow(cols)
            for row in tables[name]:
                w.writerow([_csv_cell(row.get(c)) for c in cols])
        os.replace(tmp, folder / f"{name}.csv")
    return folder


def _parse_csv_value(table: str, column: str, raw: str, where: str) -> Any:
    if raw == "":
        return None
    kind = schema.column_kind(table, column)
    try:
        if kind == "date":
            return dt.date.fromisoformat(raw[:10])
        if kind == "timestamp":
            return dt.datetime.fromisoformat(raw.replace("Z", "+00:00")).replace(tzinfo=None)
        if kind == "float":
            return float(raw)
    except ValueError as exc:
        raise DataValidationError(where, [f"column {column!r}: expected a {kind}, found {raw!r}"]) from exc
    return raw


def detect_layout(folder: Path) -> str:
    """'canonical' if patients.csv has patient_id, 'synthea' if it has Id + BIRTHDATE."""
    pfile = Path(folder) / "patients.csv"
    if not pfile.exists():
        raise DataValidationError(str(folder), ["no patients.csv: not a canonical or Synthea CSV folder"])
    with pfile.open(encoding="utf-8", newline="") as fh:
        header = next(csv.reader(fh), [])
    if "patient_id" in header:
        return "canonical"
    if "Id" in header and "BIRTHDATE" in header:
        return "synthea"
    raise DataValidationError(
        str(pfile), [f"unrecognised header {header[:6]}...: expected patient_id (canonical) or Id,BIRTHDATE (Synthea)"]
    )


def read_csv_folder(folder: Path) -> dict[str, list[dict[str, Any]]]:
    """Read the canonical CSV layout; missing tables are empty, unknown columns are an error."""
    folder = Path(folder)
    out: dict[str, list[dict[str, Any]]] = {}
    for name in schema.ALL_TABLES:
        f = folder / f"{name}.csv"
        if not f.exists():
            out[name] = []
            continue
        cols = set(schema.column_names(name))
        with f.open(encoding="utf-8", newline="") as fh:
            reader = csv.DictReader(fh)
            header = reader.fieldnames or []
            unknown = [h for h in header if h not in cols]
            if unknown:
                raise DataValidationError(str(f), [f"unknown column(s) {unknown}; expected a subset of {sorted(cols)}"])
            rows = []
            for i, raw in enumerate(reader, start=2):
                rows.append({c: _parse_csv_value(name, c, v or "", f"{f}:{i}") for c, v in raw.items()})
        out[name] = rows
    return out


def csv_folder_digest(folder: Path) -> str:
    """SHA-256 over the names and bytes of the folder's CSV files (cache key and checksum part)."""
    h = hashlib.sha256()
    for f in sorted(Path(folder).glob("*.csv")):
        h.update(f.name.encode() + b"\0")
        with f.open("rb") as fh:
            for chunk in iter(lambda: fh.read(1 << 20), b""):
                h.update(chunk)
        h.update(b"\0")
    return h.hexdigest()


def csv_to_sqlite(folder: Path, layout: str = "auto") -> Path:
    """Import a CSV folder into an SQLite file in the cache (keyed by the files' digest)."""
    folder = Path(folder).expanduser()
    if not folder.is_dir():
        raise MedgymError(f"CSV folder {folder} does not exist")
    if layout == "auto":
        layout = detect_layout(folder)
    digest = csv_folder_digest(folder)
    path = data_agent_cache_dir() / f"csv-{layout}-{digest[:24]}.sqlite"
    if path.exists():
        return path
    if layout == "synthea":
        from medgym.db_fixtures.synthea import read_synthea_folder

        tables = read_synthea_folder(folder)
    else:
        tables = read_csv_folder(folder)
    build_sqlite(path, tables)
    return path
