"""On-disk cache of LLM responses, keyed by the full request.

Why: an identical rerun of a grid (same cases, prompts, model, seed...) must cost
nothing and return exactly the same completions, which also makes a run
reproducible after the fact. Only successful (and, for ``chat_json``, validated)
responses are stored, so a cached failure can never be replayed.

Storage is one SQLite file in WAL mode: readers never block writers, several
processes can share the file (SQLite's file locks plus a busy timeout), and a write
is a single atomic transaction, so a crash cannot leave a torn entry.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

CACHE_FILENAME = "llm_cache.sqlite3"
#: Bumped when the meaning of a cached value changes, so old entries stop matching.
KEY_VERSION = "medgym-llm-cache-v1"


def _json_default(obj: Any) -> Any:
    if hasattr(obj, "model_dump"):
        return obj.model_dump(mode="json")
    if isinstance(obj, set | frozenset | tuple):
        return list(obj)
    if isinstance(obj, bytes):
        return obj.decode("utf-8", errors="replace")
    raise TypeError(f"cannot put a {type(obj).__name__} in an LLM request cache key")


def canonical_json(obj: Any) -> str:
    """Deterministic JSON (sorted keys, no whitespace) used for cache keys."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=_json_default)


def request_key(request: dict[str, Any]) -> str:
    """sha256 of the canonical JSON of a request (plus the cache key version)."""
    return hashlib.sha256(canonical_json({"v": KEY_VERSION, "request": request}).encode("utf-8")).hexdigest()


class ResponseCache:
    """A thread- and process-safe key -> JSON value store on disk.

    ``path`` is a directory (the file ``llm_cache.sqlite3`` is created inside it) or a
    file path ending in ``.sqlite3`` / ``.sqlite`` / ``.db``.
    """

    _shared: dict[str, ResponseCache] = {}
    _shared_lock = threading.Lock()

    def __init__(self, path: str | os.PathLike[str]):
        p = Path(path).expanduser()
        if p.suffix not in (".sqlite3", ".sqlite", ".db"):
            p = p / CACHE_FILENAME
        p.parent.mkdir(parents=True, exist_ok=True)
        self.path = p.resolve()
        self._lock = threading.Lock()
        self._conn: sqlite3.Connection | None = None
        self._pid = -1
        self._orphans: list[sqlite3.Connection] = []
        with self._lock:
            self._connection()

    @classmethod
    def shared(cls, path: str | os.PathLike[str]) -> ResponseCache:
        """One instance per cache file in this process (clients share the connection)."""
        probe = Path(path).expanduser()
        if probe.suffix not in (".sqlite3", ".sqlite", ".db"):
            probe = probe / CACHE_FILENAME
        key = str(probe.resolve())
        with cls._shared_lock:
            inst = cls._shared.get(key)
            if inst is None:
                inst = cls._shared[key] = cls(probe)
            return inst

    # -- connection handling -------------------------------------------------------------------
    def _connection(self) -> sqlite3.Connection:
        """The connection of this process (caller holds ``self._lock``).

        A connection must not cross a fork, so a child process opens its own (the
        inherited one is kept referenced, never used or closed, as SQLite advises).
        """
        if self._conn is not None and self._pid == os.getpid():
            return self._conn
        if self._conn is not None:
            self._orphans.append(self._conn)
        conn = sqlite3.connect(str(self.path), timeout=60.0, isolation_level=None, check_same_thread=False)
        for attempt in range(50):
            try:
                conn.execute("PRAGMA journal_mode=WAL")
                conn.execute("PRAGMA synchronous=NORMAL")
                conn.execute(
                    "CREATE TABLE IF NOT EXISTS responses ("
                    " key TEXT PRIMARY KEY, value TEXT NOT NULL, created REAL NOT NULL)"
                )
                break
            except sqlite3.OperationalError:  # another process is creating the file
                if attempt == 49:
                    raise
                time.sleep(0.05)
        self._conn, self._pid = conn, os.getpid()
        return conn

    # -- public API ----------------------------------------------------------------------------
    key_for = staticmethod(request_key)

    def get(self, key: str) -> dict[str, Any] | None:
        """The stored value, or ``None`` on a miss (an unreadable row is a miss)."""
        with self._lock:
            row = self._connection().execute("SELECT value FROM responses WHERE key = ?", (key,)).fetchone()
        if row is None:
            return None
        try:
            value = json.loads(row[0])
        except json.JSONDecodeError:
            return None
        return value if isinstance(value, dict) else None

    def put(self, key: str, value: dict[str, Any]) -> None:
        """Store ``value`` (a JSON-serialisable dict) atomically; last writer wins."""
        payload = json.dumps(value, ensure_ascii=False, default=_json_default)
        with self._lock:
            self._connection().execute(
                "INSERT OR REPLACE INTO responses (key, value, created) VALUES (?, ?, ?)",
                (key, payload, time.time()),
            )

    def __contains__(self, key: object) -> bool:
        if not isinstance(key, str):
            return False
        with self._lock:
            row = self._connection().execute("SELECT 1 FROM responses WHERE key = ?", (key,)).fetchone()
        return row is not None

    def __len__(self) -> int:
        with self._lock:
            return int(self._connection().execute("SELECT COUNT(*) FROM responses").fetchone()[0])

    def clear(self) -> None:
        with self._lock:
            self._connection().execute("DELETE FROM responses")

    def close(self) -> None:
        with self._lock:
            if self._conn is not None and self._pid == os.getpid():
                self._conn.close()
            self._conn = None
        with ResponseCache._shared_lock:
            for k, v in list(ResponseCache._shared.items()):
                if v is self:
                    del ResponseCache._shared[k]

    def __repr__(self) -> str:
        return f"ResponseCache({str(self.path)!r})"
