"""results.jsonl: the append-only record of finished episodes.

Guarantees:

* a line is written whole or not at all: each record is one ``os.write`` of the full
  encoded line on an ``O_APPEND`` descriptor, serialised by a lock;
* a crash (even ``kill -9``) loses at most the episodes in flight: finished lines
  are already in the file;
* if a line was ever torn (disk full, power loss), opening the store for appending
  truncates the file back to its last complete line before writing, and readers
  skip an unterminated last line; the file never holds a corrupt line in the middle;
* the latest line for a key wins (a retried error is superseded, not deleted).
"""

from __future__ import annotations

import json
import math
import os
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

RESULTS_FILE = "results.jsonl"


def _repair_tail(path: Path) -> int:
    """Truncate ``path`` after its last newline; return the number of bytes dropped."""
    if not path.exists():
        return 0
    size = path.stat().st_size
    if size == 0:
        return 0
    with open(path, "rb+") as fh:
        fh.seek(max(0, size - 1))
        if fh.read(1) == b"\n":
            return 0
        # scan backwards for the last newline
        pos = size
        chunk = 65536
        last_nl = -1
        while pos > 0 and last_nl < 0:
            start = max(0, pos - chunk)
            fh.seek(start)
            data = fh.read(pos - start)
            i = data.rfind(b"\n")
            if i >= 0:
                last_nl = start + i
            pos = start
        keep = last_nl + 1 if last_nl >= 0 else 0
        fh.truncate(keep)
        return size - keep


def iter_lines(path: Path) -> Iterator[dict[str, Any]]:
    """Complete, valid JSON records of ``path`` (an unterminated or invalid line is skipped)."""
    if not path.exists():
        return
    with open(path, "rb") as fh:
        for raw in fh:
            if not raw.endswith(b"\n"):
                break  # torn tail: not a record
            try:
                rec = json.loads(raw)
            except json.JSONDecodeError:
                continue
            if isinstance(rec, dict) and "key" in rec:
                yield rec


def read_results(run_dir: str | Path) -> dict[str, dict[str, Any]]:
    """key -> latest record for a run directory (or a results.jsonl path)."""
    p = Path(run_dir)
    # decided by what the path is, not its name: a run directory may itself be called "x.jsonl"
    path = p / RESULTS_FILE if p.is_dir() or p.suffix != ".jsonl" else p
    out: dict[str, dict[str, Any]] = {}
    for rec in iter_lines(path):
        out[rec["key"]] = rec
    return out


def jsonable(x: Any) -> Any:
    """Recursively replace NaN/inf with None so every record is strict JSON."""
    if isinstance(x, float):
        return x if math.isfinite(x) else None
    if isinstance(x, dict):
        return {k: jsonable(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [jsonable(v) for v in x]
    return x


class ResultStore:
    """Thread-safe appender for one run directory's results.jsonl."""

    def __init__(self, run_dir: str | Path):
        self.dir = Path(run_dir)
        self.dir.mkdir(parents=True, exist_ok=True)
        self.path = self.dir / RESULTS_FILE
        self.dropped_bytes = _repair_tail(self.path)
        self._lock = threading.Lock()
        self._fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)

    def latest(self) -> dict[str, dict[str, Any]]:
        return read_results(self.path)

    def append(self, record: dict[str, Any]) -> None:
        """Append one record as one whole line; NaN/inf become null (strict JSON)."""
        try:
            text = json.dumps(record, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
        except ValueError:  # rare (a NaN metric): walking every record up front would cost more
            text = json.dumps(jsonable(record), ensure_ascii=False, separators=(",", ":"), allow_nan=False)
        line = (text + "\n").encode()
        with self._lock:
            view = memoryview(line)
            while view:  # os.write may be partial only on exotic filesystems; finish the line
                n = os.write(self._fd, view)
                view = view[n:]

    def sync(self) -> None:
        with self._lock:
            os.fsync(self._fd)

    def close(self) -> None:
        with self._lock:
            if self._fd >= 0:
                os.fsync(self._fd)
                os.close(self._fd)
                self._fd = -1

    def __enter__(self) -> ResultStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
