"""Canonical cell values and database checksums, identical across backends.

The three drivers return the same data as different Python types: SQLite gives
dates as text, PostgreSQL and MySQL give ``date``/``datetime`` objects, MySQL and
PostgreSQL give ``Decimal`` for some aggregates, MySQL may give ``bytes``. Scoring,
gold answers and checksums all go through :func:`canonical_cell`, so "the same
answer" means the same thing on every backend.

A checksum is the SHA-256 of a canonical dump: every table (sorted by name), its
column names, and its rows canonicalised and sorted. It changes if any row, table
or column is added, removed or altered, and it does not depend on the backend:
the fixture loaded into SQLite, PostgreSQL, MariaDB or CSV has one checksum.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import math
from collections.abc import Iterable, Sequence
from decimal import Decimal
from typing import Any

Cell = str | int | float | None


def canonical_cell(value: Any) -> Cell:
    """A JSON-able, backend-independent form of one result cell."""
    if value is None:
        return None
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        if math.isnan(value) or math.isinf(value):
            return str(value)
        return value
    if isinstance(value, Decimal):
        if value == value.to_integral_value() and abs(value) < 2**53:
            return int(value)
        return float(value)
    if isinstance(value, dt.datetime):
        return value.replace(tzinfo=None).isoformat(sep=" ", timespec="seconds")
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, dt.time):
        return value.isoformat(timespec="seconds")
    if isinstance(value, dt.timedelta):
        return value.total_seconds()
    if isinstance(value, (bytes, bytearray, memoryview)):
        raw = bytes(value)
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError:
            return raw.hex()
    return str(value)


def canonical_rows(rows: Iterable[Sequence[Any]]) -> list[list[Cell]]:
    return [[canonical_cell(v) for v in row] for row in rows]


def _dump_cell(v: Cell) -> str:
    if v is None:
        return "\\N"
    if isinstance(v, float):
        # 12 significant digits: drivers agree on doubles, this absorbs nothing but noise
        return "f:" + (repr(float(f"{v:.12g}")) if v != 0 else "0.0")
    if isinstance(v, int):
        return "f:" + repr(float(v)) if abs(v) < 2**53 else "i:" + str(v)
    return "s:" + v


def table_digest(name: str, columns: Sequence[str], rows: Iterable[Sequence[Any]]) -> str:
    dumped = sorted(json.dumps([_dump_cell(canonical_cell(v)) for v in row]) for row in rows)
    h = hashlib.sha256()
    h.update(json.dumps([name, [c.lower() for c in columns]]).encode())
    for line in dumped:
        h.update(line.encode())
        h.update(b"\n")
    return h.hexdigest()


def combine_digests(digests: dict[str, str]) -> str:
    h = hashlib.sha256()
    for name in sorted(digests):
        h.update(f"{name}={digests[name]}\n".encode())
    return h.hexdigest()
