"""Fixtures of the DataAgent tests: a private cache, real PostgreSQL and MariaDB servers, a CSV export.

Servers are started once per session on free ports with private data directories
(``medgym.db_fixtures.servers``), or taken from ``MEDGYM_TEST_PG_DSN`` /
``MEDGYM_TEST_MYSQL_DSN`` (admin DSNs). A server that cannot start FAILS the tests
that need it, with the reason: it never silently skips.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from medgym.db_fixtures.generator import generate
from medgym.db_fixtures.loaders import export_csv, load_database, provision_readonly_user
from medgym.db_fixtures.servers import ServerStartError, mariadb_from_env_or_start, postgres_from_env_or_start


@pytest.fixture(scope="session", autouse=True)
def data_agent_cache() -> Iterator[Path]:
    """A private DataAgent cache, so tests never reuse (or pollute) ~/.cache/medgym/data_agent.

    Only the DataAgent variable is set: other components' caches (the RAG index under
    MEDGYM_CACHE_DIR) are left alone."""
    old = os.environ.get("MEDGYM_DATA_AGENT_CACHE_DIR")
    path = Path(tempfile.mkdtemp(prefix="medgym-da-cache-"))
    os.environ["MEDGYM_DATA_AGENT_CACHE_DIR"] = str(path)
    yield path
    if old is None:
        os.environ.pop("MEDGYM_DATA_AGENT_CACHE_DIR", None)
    else:
        os.environ["MEDGYM_DATA_AGENT_CACHE_DIR"] = old
    shutil.rmtree(path, ignore_errors=True)


@pytest.fixture(scope="session")
def fixture_data():
    return generate()


@dataclass
class Backend:
    name: str
    url: str  # what the sandbox / env connects with (read-only account on servers)
    admin_url: str | None  # what checksums use (sees every table); None = same as url


def _server(kind: str, fixture_data) -> Iterator[Backend]:
    starter = postgres_from_env_or_start if kind == "postgresql" else mariadb_from_env_or_start
    try:
        handle = starter()
    except ServerStartError as exc:
        pytest.fail(f"cannot start or reach the {kind} server for the DataAgent tests: {exc}", pytrace=False)
    try:
        load_database(handle.admin_url, fixture_data)
        ro = provision_readonly_user(handle.admin_url)
        yield Backend(kind, ro, handle.admin_url)
    finally:
        handle.stop()


@pytest.fixture(scope="session")
def pg_backend(fixture_data) -> Iterator[Backend]:
    yield from _server("postgresql", fixture_data)


@pytest.fixture(scope="session")
def mariadb_backend(fixture_data) -> Iterator[Backend]:
    yield from _server("mysql", fixture_data)


@pytest.fixture(scope="session")
def sqlite_backend(data_agent_cache, fixture_data) -> Backend:
    from medgym.db_fixtures.loaders import default_database

    return Backend("sqlite", f"sqlite:///{default_database()}", None)


@pytest.fixture(scope="session")
def csv_backend(data_agent_cache, fixture_data, tmp_path_factory) -> Backend:
    folder = tmp_path_factory.mktemp("fixture_csv")
    export_csv(fixture_data, folder)
    return Backend("csv", f"csv://{folder}", None)


BACKENDS = ["sqlite", "postgresql", "mariadb", "csv"]


@pytest.fixture(scope="session", params=BACKENDS)
def backend(request) -> Backend:
    name = {"postgresql": "pg_backend", "mariadb": "mariadb_backend"}.get(request.param, f"{request.param}_backend")
    return request.getfixturevalue(name)
