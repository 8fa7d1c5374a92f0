"""The read-only, time-limited SQL executor the DataAgent's tools run through.

Read-only is enforced by the database, never by parsing the agent's SQL:

* **SQLite** (and CSV folders, imported into SQLite): the file is opened through a
  read-only URI (``file:...?mode=ro``), ``PRAGMA query_only = ON`` is set, and an
  authorizer (SQLite's own access-control hook) denies ``ATTACH``/``DETACH``,
  ``load_extension`` and every PRAGMA except a few schema-reading ones. A progress
  handler interrupts a statement past the timeout.
* **PostgreSQL**: the sandbox connects as a role with SELECT grants only; its
  transactions are ``READ ONLY`` (and ``default_transaction_read_only`` is on for
  the role); ``statement_timeout`` is set; every agent statement runs in its own
  transaction that is always rolled back, so even a ``SET`` does not outlive it.
  The statement goes through the extended query protocol, which accepts exactly
  one statement.
* **MySQL/MariaDB**: a user with SELECT grants only (no FILE privilege, so
  ``INTO OUTFILE`` fails), ``START TRANSACTION READ ONLY`` + rollback around every
  statement, ``max_statement_time`` (MariaDB) / ``max_execution_time`` (MySQL)
  re-set before every statement, and PyMySQL without ``CLIENT.MULTI_STATEMENTS``.

On top: a cap on returned rows, and a client-side watchdog that cancels a
statement the server failed to stop (PostgreSQL ``cancel``, MariaDB ``KILL QUERY``).
Every failure becomes a :class:`SqlToolError` whose message says what happened
(read-only refusal, timeout, more than one statement, syntax, unknown table...)
and carries the database's own message.
"""

from __future__ import annotations

import contextlib
import re
import sqlite3
import threading
import time
from abc import ABC, abstractmethod
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

from medgym.db_fixtures import schema
from medgym.db_fixtures.urls import BackendSpec, parse_backend_url
from medgym.db_fixtures.values import Cell, canonical_rows, combine_digests, table_digest
from medgym.errors import MedgymError

DEFAULT_TIMEOUT_S = 2.0
DEFAULT_MAX_ROWS = 500
MAX_SQL_LENGTH = 20_000

# SQLite authorizer action codes (sqlite3.h); the module exposes them in recent Pythons.
SQLITE_PRAGMA = getattr(sqlite3, "SQLITE_PRAGMA", 19)
SQLITE_ATTACH = getattr(sqlite3, "SQLITE_ATTACH", 24)
SQLITE_DETACH = getattr(sqlite3, "SQLITE_DETACH", 25)
SQLITE_FUNCTION = getattr(sqlite3, "SQLITE_FUNCTION", 31)
SCHEMA_PRAGMAS = {"table_info", "table_xinfo", "index_list", "index_info", "index_xinfo", "foreign_key_list"}
READABLE_PRAGMAS = {"query_only", "user_version", "schema_version", "page_count", "page_size", "encoding"}
DENIED_FUNCTIONS = {"load_extension", "readfile", "writefile", "edit", "fts3_tokenizer"}


class SqlToolError(MedgymError):
    """A tool call failed; ``category`` is machine-readable, the message is for the agent."""

    CATEGORIES = (
        "read_only",
        "permission",
        "timeout",
        "multiple_statements",
        "syntax",
        "unknown_object",
        "invalid",
        "connection",
        "error",
    )

    def __init__(self, category: str, message: str):
        self.category = category if category in self.CATEGORIES else "error"
        super().__init__(message)


HINTS = {
    "read_only": "the database is read-only: only SELECT queries are allowed",
    "permission": "this account may only read (SELECT) the clinical tables",
    "timeout": "the statement exceeded the time limit; add filters, aggregate, or LIMIT",
    "multiple_statements": "send exactly one SQL statement per run_sql call",
    "syntax": "check the SQL syntax for this dialect",
    "unknown_object": "use list_tables / describe_table to see the available tables and columns",
}


def tool_error(category: str, detail: str, dialect: str) -> SqlToolError:
    detail = " ".join(str(detail).split())[:500]
    hint = HINTS.get(category)
    msg = f"SQL error [{category}] on {dialect}: {detail}"
    if hint:
        msg += f" (hint: {hint})"
    return SqlToolError(category, msg)


def _has_second_statement(sql: str) -> bool:
    """Only used to word an error message well, never to decide what may run."""
    stripped = re.sub(r"'(?:[^']|'')*'|\"(?:[^\"]|\"\")*\"", "''", sql)
    stripped = re.sub(r"--[^\n]*|/\*.*?\*/", " ", stripped, flags=re.S)
    return bool(re.search(r";\s*\S", stripped))


@dataclass
class QueryResult:
    """Rows of one statement (canonicalised cells), capped at ``row_cap``."""

    columns: list[str]
    rows: list[list[Cell]]
    truncated: bool = False
    row_cap: int = DEFAULT_MAX_ROWS
    elapsed_ms: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        return {
            "columns": list(self.columns),
            "rows": [list(r) for r in self.rows],
            "truncated": self.truncated,
            "row_cap": self.row_cap,
            "elapsed_ms": round(self.elapsed_ms, 3),
        }


@dataclass
class ColumnInfo:
    name: str
    type: str
    nullable: bool
    note: str = ""


class SqlSandbox(ABC):
    """One read-only connection to a backend. Not thread-safe: one per environment."""

    def __init__(self, spec: BackendSpec, timeout_s: float = DEFAULT_TIMEOUT_S, max_rows: int = DEFAULT_MAX_ROWS,
                 require_readonly: bool = True):
        if timeout_s <= 0 or max_rows <= 0:
            raise MedgymError(f"timeout_s and max_rows must be positive, got {timeout_s} and {max_rows}")
        self.spec = spec
        self.timeout_s = float(timeout_s)
        self.max_rows = int(max_rows)
        self.require_readonly = require_readonly
        self._closed = False

    def _refuse_write_account(self, problems: list[str]) -> None:
        if problems and self.require_readonly:
            self._close()
            raise MedgymError(
                f"refusing to run agent SQL on {self.spec.redacted()}: the account can change the database "
                f"({'; '.join(problems)}). Connect with a SELECT-only account (`medgym data generate --url ADMIN_URL "
                "--readonly-user` creates one, or see provision_readonly_user)"
            )

    @property
    def dialect(self) -> str:
        return self.spec.dialect

    @property
    def backend(self) -> str:
        return self.spec.kind

    # ---------------------------------------------------------------- API
    def run_sql(self, sql: str) -> QueryResult:
        """Run one agent statement; any failure raises :class:`SqlToolError`."""
        if not isinstance(sql, str) or not sql.strip():
            raise SqlToolError("invalid", "run_sql needs a non-empty 'sql' string")
        if len(sql) > MAX_SQL_LENGTH:
            raise SqlToolError("invalid", f"SQL is too long ({len(sql)} characters, maximum {MAX_SQL_LENGTH})")
        if self._closed:
            raise SqlToolError("connection", "the database connection is closed")
        t0 = time.perf_counter()
        cols, rows, truncated = self._execute(sql, None)
        return QueryResult(cols, canonical_rows(rows), truncated, self.max_rows, (time.perf_counter() - t0) * 1000)

    def query(self, sql: str, params: tuple[Any, ...] | None = None) -> QueryResult:
        """Run a statement written by medgym itself (tool implementations), same sandbox."""
        t0 = time.perf_counter()
        cols, rows, truncated = self._execute(sql, params)
        return QueryResult(cols, canonical_rows(rows), truncated, self.max_rows, (time.perf_counter() - t0) * 1000)

    @property
    def placeholder(self) -> str:
        return "?" if self.dialect == "sqlite" else "%s"

    def list_tables(self, include_meta: bool = False) -> list[str]:
        names = self._table_names()
        if not include_meta:
            names = [n for n in names if not n.lower().startswith(schema.META_PREFIX)]
        return sorted(names)

    def describe_table(self, name: str) -> list[ColumnInfo]:
        if not isinstance(name, str) or not name.strip():
            raise SqlToolError("invalid", "describe_table needs a 'table' name")
        known = self.list_tables(include_meta=True)
        match = next((t for t in known if t.lower() == name.strip().lower()), None)
        if match is None:
            from medgym.registry import did_you_mean

            sugg = did_you_mean(name, self.list_tables())
            extra = f"; did you mean {' or '.join(repr(s) for s in sugg)}?" if sugg else ""
            raise SqlToolError(
                "unknown_object", f"no table named {name!r}{extra} (tables: {', '.join(self.list_tables())})"
            )
        cols = self._columns(match)
        canon = schema.metadata.tables.get(match)
        if canon is not None:
            for c in cols:
                if c.name in canon.columns and canon.columns[c.name].comment:
                    c.note = canon.columns[c.name].comment or ""
        return cols

    def read_meta(self) -> dict[str, str]:
        """The ``medgym_meta`` key/values, or {} if the database has none."""
        if "medgym_meta" not in {t.lower() for t in self._table_names()}:
            return {}
        try:
            res = self.query("SELECT meta_key, meta_value FROM medgym_meta")
        except SqlToolError:
            return {}
        return {str(k): str(v) for k, v in res.rows}

    def checksum(self) -> str:
        """Hash of a canonical dump of every table this account can see."""
        digests = {}
        for t in self.list_tables(include_meta=True):
            res = self._dump(t)
            digests[t.lower()] = table_digest(t.lower(), res[0], res[1])
        return combine_digests(digests)

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            self._close()

    def __enter__(self) -> SqlSandbox:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --------------------------------------------------------- backend hooks
    @abstractmethod
    def _execute(
        self, sql: str, params: tuple[Any, ...] | None, unlimited: bool = False
    ) -> tuple[list[str], list[tuple], bool]:
        """Run one statement; ``unlimited`` (checksums only) lifts the row cap and timeout."""

    @abstractmethod
    def _table_names(self) -> list[str]: ...

    @abstractmethod
    def _columns(self, table: str) -> list[ColumnInfo]: ...

    @abstractmethod
    def _close(self) -> None: ...

    def _dump(self, table: str) -> tuple[list[str], list[tuple]]:
        q = self._quote(table)
        cols, rows, _ = self._execute(f"SELECT * FROM {q}", None, unlimited=True)
        return cols, rows

    def _quote(self, ident: str) -> str:
        if self.dialect == "mysql":
            return "`" + ident.replace("`", "``") + "`"
        return '"' + ident.replace('"', '""') + '"'


# =========================================================================== SQLite
class SqliteSandbox(SqlSandbox):
    def __init__(self, spec: BackendSpec, path: Path, timeout_s: float = DEFAULT_TIMEOUT_S,
                 max_rows: int = DEFAULT_MAX_ROWS, require_readonly: bool = True):
        super().__init__(spec, timeout_s, max_rows, require_readonly)
        self.path = Path(path)
        if not self.path.exists():
            raise MedgymError(f"SQLite database {self.path} does not exist")
        uri = f"file:{quote(str(self.path.resolve()))}?mode=ro"
        self._deadline: float | None = None
        self.conn = sqlite3.connect(uri, uri=True, check_same_thread=False, isolation_level=None)
        self.conn.execute("PRAGMA query_only = ON")
        self.conn.set_authorizer(self._authorize)
        self.conn.set_progress_handler(self._progress, 2000)

    @staticmethod
    def _authorize(action: int, arg1: str | None, arg2: str | None, _db: str | None, _trigger: str | None) -> int:
        if action in (SQLITE_ATTACH, SQLITE_DETACH):
            return sqlite3.SQLITE_DENY
        if action == SQLITE_PRAGMA:
            name = (arg1 or "").lower()
            if name in SCHEMA_PRAGMAS or (arg2 is None and name in READABLE_PRAGMAS):
                return sqlite3.SQLITE_OK
            return sqlite3.SQLITE_DENY
        if action == SQLITE_FUNCTION and (arg2 or "").lower() in DENIED_FUNCTIONS:
            return sqlite3.SQLITE_DENY
        return sqlite3.SQLITE_OK

    def _progress(self) -> int:
        return 1 if self._deadline is not None and time.monotonic() > self._deadline else 0

    def _execute(self, sql: str, params: tuple[Any, ...] | None, unlimited: bool = False):
        self._deadline = None if unlimited else time.monotonic() + self.timeout_s
        cur = self.conn.cursor()
        try:
            cur.execute(sql, params or ())
            cols = [d[0] for d in cur.description] if cur.description else []
            if not cols:
                return [], [], False
            if unlimited:
                return cols, cur.fetchall(), False
            rows = cur.fetchmany(self.max_rows + 1)
            truncated = len(rows) > self.max_rows
            return cols, rows[: self.max_rows], truncated
        except (sqlite3.Error, sqlite3.Warning) as exc:
            raise self._classify(exc, sql) from None
        finally:
            self._deadline = None
            cur.close()

    def _classify(self, exc: Exception, sql: str) -> SqlToolError:
        msg = str(exc)
        low = msg.lower()
        if "interrupted" in low:
            cat = "timeout"
            msg = f"statement interrupted after {self.timeout_s:g} s"
        elif "one statement at a time" in low:
            cat = "multiple_statements"
        elif "readonly" in low or "read-only" in low or "query_only" in low:
            cat = "read_only"
        elif "not authorized" in low or "authorization denied" in low or "prohibited" in low:
            cat = "permission"
        elif "no such table" in low or "no such column" in low or "no such function" in low:
            cat = "unknown_object"
        elif "syntax error" in low or "incomplete input" in low or "unrecognized token" in low:
            cat = "multiple_statements" if _has_second_statement(sql) else "syntax"
        else:
            cat = "error"
        return tool_error(cat, msg, "sqlite")

    def _table_names(self) -> list[str]:
        cols, rows, _ = self._execute(
            "SELECT name FROM sqlite_master WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite_%'", None
        )
        return [r[0] for r in rows]

    def _columns(self, table: str) -> list[ColumnInfo]:
        _, rows, _ = self._execute(f"PRAGMA table_info({self._quote(table)})", None)
        return [ColumnInfo(name=r[1], type=str(r[2] or ""), nullable=not r[3]) for r in rows]

    def _close(self) -> None:
        self.conn.close()


# =========================================================================== servers
class _Watchdog:
    """Cancels a statement the server did not stop in time (belt and braces)."""

    def __init__(self, seconds: float, cancel):
        self._timer = threading.Timer(seconds, self._fire)
        self._timer.daemon = True
        self._cancel = cancel
        self.fired = False

    def _fire(self) -> None:
        self.fired = True
        # a failed cancel leaves the server-side timeout in charge
        with contextlib.suppress(Exception):
            self._cancel()

    def __enter__(self) -> _Watchdog:
        self._timer.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._timer.cancel()


class PostgresSandbox(SqlSandbox):
    PG_CODES = {
        "25006": "read_only",
        "42501": "permission",
        "57014": "timeout",
        "42601": "syntax",
        "42P01": "unknown_object",
        "42703": "unknown_object",
        "42883": "unknown_object",
        "3F000": "unknown_object",
    }

    def __init__(self, spec: BackendSpec, timeout_s: float = DEFAULT_TIMEOUT_S, max_rows: int = DEFAULT_MAX_ROWS,
                 require_readonly: bool = True):
        super().__init__(spec, timeout_s, max_rows, require_readonly)
        self._connect()
        if require_readonly:
            self._refuse_write_account(self._write_powers())

    def _write_powers(self) -> list[str]:
        out = []
        _, rows, _ = self._execute(
            "SELECT rolsuper, rolcreaterole, rolcreatedb FROM pg_roles WHERE rolname = current_user", None)
        if rows and rows[0][0]:
            out.append("superuser")
        elif rows and (rows[0][1] or rows[0][2]):
            out.append("CREATEROLE/CREATEDB")
        _, rows, _ = self._execute(
            "SELECT COUNT(*) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
            "WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p') AND ("
            "has_table_privilege(c.oid, 'INSERT') OR has_table_privilege(c.oid, 'UPDATE') OR "
            "has_table_privilege(c.oid, 'DELETE') OR has_table_privilege(c.oid, 'TRUNCATE'))", None)
        if rows and rows[0][0]:
            out.append(f"write privileges on {rows[0][0]} table(s)")
        _, rows, _ = self._execute("SELECT has_schema_privilege(current_schema(), 'CREATE')", None)
        if rows and rows[0][0]:
            out.append("CREATE on the schema")
        return out

    def _connect(self) -> None:
        import psycopg
        from sqlalchemy.engine import make_url

        u = make_url(self.spec.url)
        kwargs: dict[str, Any] = {
            "host": u.query.get("host") or u.host or "localhost",
            "port": u.port or 5432,
            "user": u.username,
            "password": u.password,
            "dbname": u.database,
            "connect_timeout": 5,
            "application_name": "medgym-data-agent",
        }
        try:
            self.conn = psycopg.connect(**{k: v for k, v in kwargs.items() if v is not None}, autocommit=False)
        except psycopg.Error as exc:
            raise tool_error("connection", f"cannot connect to PostgreSQL: {exc}", "postgresql") from None
        self.conn.read_only = True
        ms = int(self.timeout_s * 1000)
        with self.conn.cursor() as cur:
            cur.execute(f"SET statement_timeout = {ms}")
            cur.execute("SET idle_in_transaction_session_timeout = 60000")
        self.conn.commit()

    def _execute(self, sql: str, params: tuple[Any, ...] | None, unlimited: bool = False):
        import psycopg

        if self.conn.closed:
            self._connect()
        try:
            watchdog_s = 3600.0 if unlimited else self.timeout_s + 1.5
            with _Watchdog(watchdog_s, self.conn.cancel), self.conn.cursor() as cur:
                if unlimited:
                    cur.execute("SET LOCAL statement_timeout = 0")
                # binary=True forces the extended query protocol: one statement only.
                if params is None:
                    cur.execute(sql, binary=True)
                else:
                    cur.execute(sql, params, binary=True)
                if cur.description is None:
                    return [], [], False
                cols = [d.name for d in cur.description]
                if unlimited:
                    return cols, cur.fetchall(), False
                rows = cur.fetchmany(self.max_rows + 1)
                return cols, rows[: self.max_rows], len(rows) > self.max_rows
        except psycopg.Error as exc:
            raise self._classify(exc, sql) from None
        finally:
            try:
                self.conn.rollback()
            except psycopg.Error:
                self.conn.close()

    def _classify(self, exc: Exception, sql: str) -> SqlToolError:
        code = getattr(exc, "sqlstate", None) or ""
        msg = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        cat = self.PG_CODES.get(code, "error")
        if "multiple commands" in msg or (cat == "syntax" and _has_second_statement(sql)):
            cat = "multiple_statements"
        if cat == "timeout":
            msg = f"statement cancelled after {self.timeout_s:g} s ({msg})"
        if code == "08006" or "connection" in type(exc).__name__.lower():
            cat = "connection"
        return tool_error(cat, msg, "postgresql")

    def _table_names(self) -> list[str]:
        _, rows, _ = self._execute(
            "SELECT table_name FROM information_schema.tables "
            "WHERE table_schema = current_schema() AND table_type IN ('BASE TABLE', 'VIEW')",
            None,
        )
        return [r[0] for r in rows]

    def _columns(self, table: str) -> list[ColumnInfo]:
        _, rows, _ = self._execute(
            "SELECT column_name, data_type, is_nullable FROM information_schema.columns "
            "WHERE table_schema = current_schema() AND table_name = %s ORDER BY ordinal_position",
            (table,),
        )
        return [ColumnInfo(name=r[0], type=r[1], nullable=r[2] == "YES") for r in rows]

    def _close(self) -> None:
        self.conn.close()


class MysqlSandbox(SqlSandbox):
    MY_CODES = {
        1142: "permission",
        1143: "permission",
        1044: "permission",
        1045: "permission",
        1227: "permission",
        1370: "permission",
        1290: "read_only",
        1792: "read_only",
        1969: "timeout",
        3024: "timeout",
        1317: "timeout",
        1064: "syntax",
        1146: "unknown_object",
        1054: "unknown_object",
        1305: "unknown_object",
        1049: "unknown_object",
    }

    READ_PRIVILEGES = {"USAGE", "SELECT", "SHOW VIEW", "SHOW DATABASES"}

    def __init__(self, spec: BackendSpec, timeout_s: float = DEFAULT_TIMEOUT_S, max_rows: int = DEFAULT_MAX_ROWS,
                 require_readonly: bool = True):
        super().__init__(spec, timeout_s, max_rows, require_readonly)
        self._connect()
        if require_readonly:
            self._refuse_write_account(self._write_powers())

    def _write_powers(self) -> list[str]:
        grantee = ("CONCAT(\"'\", SUBSTRING_INDEX(CURRENT_USER(), '@', 1), \"'@'\", "
                   "SUBSTRING_INDEX(CURRENT_USER(), '@', -1), \"'\")")
        found: set[str] = set()
        for view in ("user_privileges", "schema_privileges", "table_privileges"):
            _, rows, _ = self._execute(
                f"SELECT DISTINCT privilege_type FROM information_schema.{view} WHERE grantee = {grantee}", None)
            found |= {str(r[0]).upper() for r in rows}
        extra = sorted(found - self.READ_PRIVILEGES)
        return [f"privileges {', '.join(extra[:8])}{'...' if len(extra) > 8 else ''}"] if extra else []

    def _connect_kwargs(self) -> dict[str, Any]:
        from sqlalchemy.engine import make_url

        u = make_url(self.spec.url)
        kw: dict[str, Any] = {
            "user": u.username,
            "password": u.password or "",
            "database": u.database,
            "charset": "utf8mb4",
            "connect_timeout": 5,
            "client_flag": 0,  # no CLIENT.MULTI_STATEMENTS
            "local_infile": False,
            "autocommit": False,
        }
        if u.query.get("unix_socket"):
            kw["unix_socket"] = u.query["unix_socket"]
        else:
            kw["host"] = u.host or "localhost"
            kw["port"] = u.port or 3306
        return kw

    def _connect(self) -> None:
        import pymysql

        kw = self._connect_kwargs()
        try:
            self.conn = pymysql.connect(read_timeout=int(self.timeout_s + 10), **kw)
        except pymysql.Error as exc:
            raise tool_error("connection", f"cannot connect to MySQL/MariaDB: {exc}", "mysql") from None
        with self.conn.cursor() as cur:
            cur.execute("SELECT VERSION()")
            self.server_version = str(cur.fetchone()[0])
            self.conn_id = self.conn.thread_id()
        self.is_mariadb = "mariadb" in self.server_version.lower()

    def _limit_sql(self, seconds: float) -> str:
        if self.is_mariadb:
            return f"SET SESSION max_statement_time = {seconds:g}"
        return f"SET SESSION max_execution_time = {int(seconds * 1000)}"

    def _kill_query(self) -> None:
        import pymysql

        kw = self._connect_kwargs()
        other = pymysql.connect(**kw)
        try:
            with other.cursor() as cur:
                cur.execute(f"KILL QUERY {int(self.conn_id)}")
        finally:
            other.close()

    def _execute(self, sql: str, params: tuple[Any, ...] | None, unlimited: bool = False):
        import pymysql

        if not self.conn.open:
            self._connect()
        try:
            with self.conn.cursor() as cur:
                cur.execute(self._limit_sql(0 if unlimited else self.timeout_s))
                cur.execute("START TRANSACTION READ ONLY")
                with _Watchdog(3600.0 if unlimited else self.timeout_s + 1.5, self._kill_query):
                    cur.execute(sql, params)
                    if cur.description is None:
                        return [], [], False
                    cols = [d[0] for d in cur.description]
                    if unlimited:
                        return cols, list(cur.fetchall()), False
                    rows = list(cur.fetchmany(self.max_rows + 1))
                    return cols, rows[: self.max_rows], len(rows) > self.max_rows
        except pymysql.Error as exc:
            raise self._classify(exc, sql) from None
        finally:
            try:
                self.conn.rollback()
            except pymysql.Error:
                self.conn.close()

    def _classify(self, exc: Exception, sql: str) -> SqlToolError:
        code = exc.args[0] if exc.args and isinstance(exc.args[0], int) else 0
        msg = str(exc.args[1]) if len(exc.args) > 1 else str(exc)
        cat = self.MY_CODES.get(code, "error")
        if cat == "syntax" and _has_second_statement(sql):
            cat = "multiple_statements"
        if cat == "timeout":
            msg = f"statement interrupted after {self.timeout_s:g} s ({msg})"
        if code in (2006, 2013, 2003):
            cat = "connection"
        return tool_error(cat, f"({code}) {msg}", "mysql")

    def _table_names(self) -> list[str]:
        _, rows, _ = self._execute(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = DATABASE()", None
        )
        return [r[0] for r in rows]

    def _columns(self, table: str) -> list[ColumnInfo]:
        _, rows, _ = self._execute(
            "SELECT column_name, column_type, is_nullable FROM information_schema.columns "
            "WHERE table_schema = DATABASE() AND table_name = %s ORDER BY ordinal_position",
            (table,),
        )
        return [ColumnInfo(name=r[0], type=str(r[1]), nullable=r[2] == "YES") for r in rows]

    def _close(self) -> None:
        with contextlib.suppress(Exception):  # closing an already-broken connection
            self.conn.close()


# =========================================================================== factory
def open_sandbox(
    url: str | BackendSpec | None = None,
    *,
    timeout_s: float = DEFAULT_TIMEOUT_S,
    max_rows: int = DEFAULT_MAX_ROWS,
    require_readonly: bool = True,
) -> SqlSandbox:
    """Open a read-only sandbox on a backend URL (``None`` = the embedded fixture).

    On PostgreSQL and MySQL/MariaDB the account must be SELECT-only (superuser, table
    ownership, INSERT/UPDATE/DELETE... are refused with a MedgymError) unless
    ``require_readonly=False``, which only admin tooling (checksums) uses.
    """
    spec = url if isinstance(url, BackendSpec) else parse_backend_url(url)
    if spec.kind == "sqlite":
        if spec.embedded:
            from medgym.db_fixtures.loaders import default_database

            path = default_database()
        else:
            path = spec.path  # type: ignore[assignment]
        return SqliteSandbox(spec, Path(path), timeout_s, max_rows, require_readonly)
    if spec.kind == "csv":
        from medgym.db_fixtures.loaders import csv_to_sqlite

        path = csv_to_sqlite(spec.path, spec.layout)  # type: ignore[arg-type]
        return SqliteSandbox(spec, path, timeout_s, max_rows, require_readonly)
    if spec.kind == "postgresql":
        return PostgresSandbox(spec, timeout_s, max_rows, require_readonly)
    if spec.kind == "mysql":
        return MysqlSandbox(spec, timeout_s, max_rows, require_readonly)
    raise MedgymError(f"unsupported backend {spec.kind!r}")


def database_checksum(url: str | None) -> str:
    """Checksum of a database (through a sandbox on ``url``; use an admin URL on servers
    to see tables the read-only account cannot). For CSV folders the CSV bytes count too."""
    spec = parse_backend_url(url)
    with open_sandbox(spec, timeout_s=60.0, require_readonly=False) as sb:
        digest = sb.checksum()
    if spec.kind == "csv" and spec.path is not None:
        from medgym.db_fixtures.loaders import csv_folder_digest

        digest = combine_digests({"db": digest, "csv": csv_folder_digest(spec.path)})
    return digest
