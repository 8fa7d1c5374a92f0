"""Start throwaway PostgreSQL and MariaDB servers (tests and the benchmark share this).

Each server gets a private data directory, a unix socket in that directory and a
free TCP port on 127.0.0.1, and is stopped and deleted by ``handle.stop()``.
Nothing touches a system-wide instance.

* PostgreSQL: ``initdb`` and ``pg_ctl`` come from ``pg_config --bindir`` (Debian keeps
  them off the PATH). ``initdb`` refuses to run as root, so as root the server runs
  as the ``postgres`` OS user (``runuser -u postgres``); the data directory is then a
  fresh ``mkdtemp`` folder chowned to that user.
* MariaDB: ``mariadb-install-db`` then ``mariadbd --user=root`` (needs the
  ``mariadb-server`` package).

Or give admin DSNs of servers you run yourself in ``MEDGYM_TEST_PG_DSN`` /
``MEDGYM_TEST_MYSQL_DSN`` (the account must be able to create tables and users);
:func:`postgres_from_env_or_start` and :func:`mariadb_from_env_or_start` prefer them.

A server that cannot start raises :class:`ServerStartError` with the reason and the
tail of its log; callers (tests) turn that into a failure, never a skip.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from medgym.errors import MedgymError

PG_DSN_ENV = "MEDGYM_TEST_PG_DSN"
MYSQL_DSN_ENV = "MEDGYM_TEST_MYSQL_DSN"
DB_NAME = "medgym"


class ServerStartError(MedgymError):
    """A database server could not be started or reached."""


@dataclass
class ServerHandle:
    kind: str  # postgresql | mysql
    admin_url: str
    external: bool = False
    datadir: Path | None = None
    log_path: Path | None = None
    _stop: Callable[[], None] | None = field(default=None, repr=False)

    def stop(self) -> None:
        if self._stop is not None:
            stop, self._stop = self._stop, None
            stop()


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _tail(path: Path | None, n: int = 15) -> str:
    if path is None or not path.exists():
        return "(no log)"
    lines = path.read_text(errors="replace").splitlines()
    return "\n".join(lines[-n:])


def _run(cmd: list[str], what: str, timeout: float = 120) -> subprocess.CompletedProcess:
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except FileNotFoundError as exc:
        raise ServerStartError(f"{what}: command not found: {cmd[0]} ({exc})") from exc
    except subprocess.TimeoutExpired as exc:
        raise ServerStartError(f"{what}: timed out after {timeout} s: {' '.join(cmd)}") from exc
    if proc.returncode != 0:
        raise ServerStartError(
            f"{what} failed (exit {proc.returncode}): {' '.join(cmd)}\n{proc.stdout[-1500:]}\n{proc.stderr[-1500:]}"
        )
    return proc


# =========================================================================== PostgreSQL
def pg_bindir() -> Path:
    found = shutil.which("pg_config")
    if found:
        out = subprocess.run([found, "--bindir"], capture_output=True, text=True).stdout.strip()
        if out and (Path(out) / "initdb").exists():
            return Path(out)
    for cand in sorted(Path("/usr/lib/postgresql").glob("*/bin"), reverse=True):
        if (cand / "initdb").exists():
            return cand
    if shutil.which("initdb"):
        return Path(shutil.which("initdb")).parent  # type: ignore[arg-type]
    raise ServerStartError(
        "PostgreSQL binaries not found: install PostgreSQL (Debian: apt-get install -y postgresql) "
        f"or set {PG_DSN_ENV} to an admin DSN"
    )


def start_postgres(dbname: str = DB_NAME, startup_timeout: float = 60.0) -> ServerHandle:
    """initdb + pg_ctl start a private PostgreSQL; returns a handle with an admin URL."""
    import psycopg

    bindir = pg_bindir()
    base = Path(tempfile.mkdtemp(prefix="medgym-pg-"))
    data, sock, log = base / "data", base / "sock", base / "server.log"
    sock.mkdir()
    prefix: list[str] = []
    if os.geteuid() == 0:
        try:
            pw = pwd.getpwnam("postgres")
        except KeyError as exc:
            shutil.rmtree(base, ignore_errors=True)
            raise ServerStartError(
                "running as root and there is no 'postgres' OS user: initdb refuses root. "
                "Create one (useradd -r postgres) or run the tests as a normal user"
            ) from exc
        for p in (base, sock):
            os.chown(p, pw.pw_uid, pw.pw_gid)
        prefix = ["runuser", "-u", "postgres", "--"]
    port = free_port()
    try:
        _run([*prefix, str(bindir / "initdb"), "-D", str(data), "-U", "postgres", "-A", "trust",
              "-E", "UTF8", "--no-locale", "--no-sync"], "initdb")
        opts = (f"-p {port} -k {sock} -c listen_addresses=127.0.0.1 -c fsync=off "
                "-c synchronous_commit=off -c full_page_writes=off -c shared_buffers=32MB -c max_connections=40")
        _run([*prefix, str(bindir / "pg_ctl"), "-D", str(data), "-l", str(log), "-w",
              "-t", str(int(startup_timeout)), "-o", opts, "start"], "pg_ctl start", timeout=startup_timeout + 10)
    except ServerStartError as exc:
        tail = _tail(log)
        _pg_stop(prefix, bindir, data, base)
        raise ServerStartError(f"{exc}\nserver log:\n{tail}") from exc

    def stop() -> None:
        _pg_stop(prefix, bindir, data, base)

    try:
        with psycopg.connect(host="127.0.0.1", port=port, user="postgres", dbname="postgres",
                             autocommit=True, connect_timeout=10) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{dbname}"')
            conn.execute(f'CREATE DATABASE "{dbname}" TEMPLATE template0 ENCODING \'UTF8\'')
    except psycopg.Error as exc:
        stop()
        raise ServerStartError(f"PostgreSQL started but is not reachable on port {port}: {exc}") from exc
    url = f"postgresql+psycopg://postgres@127.0.0.1:{port}/{dbname}"
    return ServerHandle("postgresql", url, datadir=data, log_path=log, _stop=stop)


def _pg_stop(prefix: list[str], bindir: Path, data: Path, base: Path) -> None:
    if (data / "postmaster.pid").exists():
        subprocess.run([*prefix, str(bindir / "pg_ctl"), "-D", str(data), "-m", "immediate", "-w", "stop"],
                       capture_output=True, text=True, timeout=60)
    shutil.rmtree(base, ignore_errors=True)


# =========================================================================== MariaDB
def _mariadb_binaries() -> tuple[str, str]:
    server = shutil.which("mariadbd") or shutil.which("mysqld") or (
        "/usr/sbin/mariadbd" if Path("/usr/sbin/mariadbd").exists() else None)
    install = shutil.which("mariadb-install-db") or shutil.which("mysql_install_db")
    if not server or not install:
        raise ServerStartError(
            "MariaDB server binaries not found (mariadbd, mariadb-install-db): "
            f"apt-get install -y mariadb-server, or set {MYSQL_DSN_ENV} to an admin DSN"
        )
    return server, install


def start_mariadb(dbname: str = DB_NAME, startup_timeout: float = 60.0) -> ServerHandle:
    """mariadb-install-db + mariadbd --user=root on a private datadir/socket/port."""
    import pymysql

    server, install = _mariadb_binaries()
    base = Path(tempfile.mkdtemp(prefix="medgym-mariadb-"))
    data, sock, log, secure = base / "data", base / "mysqld.sock", base / "server.log", base / "secure"
    secure.mkdir()
    port = free_port()
    user = pwd.getpwuid(os.geteuid()).pw_name
    try:
        _run([install, "--no-defaults", f"--user={user}", f"--datadir={data}",
              "--auth-root-authentication-method=normal", "--skip-test-db"], "mariadb-install-db")
    except ServerStartError:
        shutil.rmtree(base, ignore_errors=True)
        raise
    cmd = [server, "--no-defaults", f"--user={user}", f"--datadir={data}", f"--socket={sock}", f"--port={port}",
           "--bind-address=127.0.0.1", f"--pid-file={base / 'mysqld.pid'}", f"--log-error={log}",
           f"--secure-file-priv={secure}", "--skip-log-bin", "--innodb-buffer-pool-size=32M",
           "--innodb-flush-log-at-trx-commit=0", "--innodb-doublewrite=0", "--skip-name-resolve",
           "--character-set-server=utf8mb4", "--collation-server=utf8mb4_bin", "--max-connections=40"]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)

    def stop() -> None:
        if proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(timeout=10)
        shutil.rmtree(base, ignore_errors=True)

    deadline = time.monotonic() + startup_timeout
    last: Exception | None = None
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            tail = _tail(log)
            stop()
            raise ServerStartError(f"mariadbd exited with code {proc.returncode}\nserver log:\n{tail}")
        if sock.exists():
            try:
                conn = pymysql.connect(unix_socket=str(sock), user="root", password="", connect_timeout=2)
                with conn.cursor() as cur:
                    cur.execute(f"CREATE DATABASE IF NOT EXISTS `{dbname}` "
                                "CHARACTER SET utf8mb4 COLLATE utf8mb4_bin")
                conn.close()
                break
            except pymysql.Error as exc:
                last = exc
        time.sleep(0.2)
    else:
        tail = _tail(log)
        stop()
        raise ServerStartError(f"mariadbd did not accept connections within {startup_timeout} s ({last})\n{tail}")
    url = f"mysql+pymysql://root@localhost/{dbname}?unix_socket={sock}"
    return ServerHandle("mysql", url, datadir=data, log_path=log, _stop=stop)


# =========================================================================== env or start
def postgres_from_env_or_start() -> ServerHandle:
    dsn = os.environ.get(PG_DSN_ENV)
    if dsn:
        _check_reachable(dsn, "postgresql")
        return ServerHandle("postgresql", dsn, external=True)
    return start_postgres()


def mariadb_from_env_or_start() -> ServerHandle:
    dsn = os.environ.get(MYSQL_DSN_ENV)
    if dsn:
        _check_reachable(dsn, "mysql")
        return ServerHandle("mysql", dsn, external=True)
    return start_mariadb()


def _check_reachable(dsn: str, kind: str) -> None:
    from sqlalchemy import create_engine, text

    from medgym.db_fixtures.urls import parse_backend_url, sqlalchemy_url

    engine = create_engine(sqlalchemy_url(parse_backend_url(dsn)))
    try:
        with engine.connect() as conn:
            conn.execute(text("SELECT 1"))
    except Exception as exc:  # noqa: BLE001 - reported as a typed start error
        raise ServerStartError(f"cannot reach the {kind} server given in the environment: {exc}") from exc
    finally:
        with contextlib.suppress(Exception):
            engine.dispose()
