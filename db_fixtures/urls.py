"""Backend URLs and the cache directory.

A backend is chosen by URL:

* ``None`` / ``"embedded"`` / ``"sqlite://"``: the default fixture, an SQLite file
  built on first use in the cache directory (never downloaded);
* ``sqlite:///relative.db`` or ``sqlite:////absolute.db``: any SQLite file;
* ``postgresql+psycopg://user:pw@host:port/db`` (``postgresql://`` works too; a
  unix-socket directory goes in ``?host=/path``);
* ``mysql+pymysql://user:pw@host:port/db`` (also ``mysql://``, ``mariadb://``,
  ``mariadb+pymysql://``; ``?unix_socket=/path``);
* ``csv:///path/to/folder``: a folder of CSV files in the canonical layout or the
  Synthea export layout (auto-detected; force with ``?layout=synthea`` or
  ``?layout=canonical``). ``synthea:///path`` is the same with ``layout=synthea``.
  A bare path to an existing folder is read as ``csv://``.

The cache directory is ``$MEDGYM_CACHE_DIR`` or ``$XDG_CACHE_HOME/medgym`` (default
``~/.cache/medgym``); DataAgent files live in its ``data_agent/`` subfolder, or in
``$MEDGYM_DATA_AGENT_CACHE_DIR`` when that is set (the tests use it, so they never touch
the shared cache other components keep there).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlsplit

from sqlalchemy.engine import make_url

from medgym.errors import MedgymError

BACKEND_KINDS = ("sqlite", "postgresql", "mysql", "csv")


@dataclass(frozen=True)
class BackendSpec:
    """What a URL points at. ``dialect`` is the SQL dialect that gold SQL must run on."""

    kind: str  # sqlite | postgresql | mysql | csv
    url: str
    path: Path | None = None  # sqlite file or csv folder
    layout: str = "auto"  # csv only: auto | canonical | synthea
    embedded: bool = False
    params: dict[str, str] = field(default_factory=dict)

    @property
    def dialect(self) -> str:
        return "sqlite" if self.kind in ("sqlite", "csv") else self.kind

    def redacted(self) -> str:
        """The URL with any password hidden (for logs, info and trajectories)."""
        if self.kind in ("postgresql", "mysql"):
            try:
                return make_url(self.url).render_as_string(hide_password=True)
            except Exception:  # noqa: BLE001 - a display helper must not fail
                return f"{self.kind}://***"
        return self.url


def cache_dir() -> Path:
    """The medgym cache folder (created on demand by callers)."""
    env = os.environ.get("MEDGYM_CACHE_DIR")
    if env:
        return Path(env).expanduser()
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = Path(xdg).expanduser() if xdg else Path.home() / ".cache"
    return base / "medgym"


def data_agent_cache_dir() -> Path:
    """``$MEDGYM_DATA_AGENT_CACHE_DIR`` if set, else ``<cache_dir>/data_agent``."""
    env = os.environ.get("MEDGYM_DATA_AGENT_CACHE_DIR")
    return Path(env).expanduser() if env else cache_dir() / "data_agent"


def parse_backend_url(url: str | None) -> BackendSpec:
    """Parse a backend URL (see the module docstring); errors name the accepted forms."""
    if url is None or url in ("", "embedded", "sqlite://", "default"):
        return BackendSpec(kind="sqlite", url="embedded", embedded=True)
    if "://" not in url:
        p = Path(url).expanduser()
        if p.is_dir():
            return BackendSpec(kind="csv", url=f"csv://{p.resolve()}", path=p.resolve())
        if p.is_file() and p.suffix in (".db", ".sqlite", ".sqlite3"):
            return BackendSpec(kind="sqlite", url=f"sqlite:///{p.resolve()}", path=p.resolve())
        raise MedgymError(
            f"cannot use {url!r} as a database: expected a URL such as sqlite:///file.db, "
            "postgresql+psycopg://user@host/db, mysql+pymysql://user@host/db or csv:///folder"
        )
    scheme = url.split("://", 1)[0].lower()
    base = scheme.split("+", 1)[0]
    if base in ("csv", "synthea"):
        parts = urlsplit(url)
        raw_path = unquote(parts.netloc + parts.path)
        query = {k: v[-1] for k, v in parse_qs(parts.query).items()}
        layout = query.get("layout", "synthea" if base == "synthea" else "auto")
        if layout not in ("auto", "canonical", "synthea"):
            raise MedgymError(f"csv layout must be auto, canonical or synthea, got {layout!r}")
        if not raw_path:
            raise MedgymError(f"{url!r}: a csv URL needs a folder, e.g. csv:///data/my_export")
        return BackendSpec(kind="csv", url=url, path=Path(raw_path).expanduser(), layout=layout)
    try:
        u = make_url(url)
    except Exception as exc:  # noqa: BLE001 - re-raised as a typed error
        raise MedgymError(f"cannot parse database URL {url!r}: {exc}") from exc
    if base == "sqlite":
        if not u.database:
            return BackendSpec(kind="sqlite", url="embedded", embedded=True)
        return BackendSpec(kind="sqlite", url=url, path=Path(u.database).expanduser())
    if base in ("postgresql", "postgres"):
        return BackendSpec(kind="postgresql", url=url)
    if base in ("mysql", "mariadb"):
        return BackendSpec(kind="mysql", url=url)
    raise MedgymError(
        f"unsupported database URL scheme {scheme!r}; use sqlite, postgresql+psycopg, mysql+pymysql or csv"
    )


def sqlalchemy_url(spec: BackendSpec) -> str:
    """A SQLAlchemy URL with the driver this project uses (psycopg 3 / PyMySQL)."""
    if spec.kind == "postgresql":
        u = make_url(spec.url)
        return u.set(drivername="postgresql+psycopg").render_as_string(hide_password=False)
    if spec.kind == "mysql":
        u = make_url(spec.url)
        u = u.set(drivername="mysql+pymysql")
        if "charset" not in u.query:
            u = u.update_query_dict({"charset": "utf8mb4"})
        return u.render_as_string(hide_password=False)
    if spec.kind == "sqlite" and spec.path is not None:
        return f"sqlite:///{spec.path}"
    raise MedgymError(f"no SQLAlchemy URL for backend {spec.kind!r} ({spec.url})")
