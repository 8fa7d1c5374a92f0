"""Versioned JSON documents (trajectories, results) and atomic file writes.

Every file medgym writes for another program to read carries ``format`` (the
document type) and ``version`` (its schema). Readers refuse a format or version they
do not know instead of guessing, and report file and field on a schema error. Files
are written through a temporary file and a rename, so a crash never leaves half a
document. The environments' trajectory classes all inherit this behaviour.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any, ClassVar, Self

from pydantic import BaseModel, ValidationError

from medgym.datafiles import format_validation_error
from medgym.errors import TrajectoryFormatError


def atomic_write_text(path: Path, text: str) -> Path:
    """Write ``text`` to ``path`` via a temporary file in the same directory and a rename."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path


class VersionedDocument(BaseModel):
    """Base for documents with ``format``/``version`` fields; subclasses set the two class constants."""

    FORMAT_NAME: ClassVar[str]
    FORMAT_VERSION: ClassVar[int]
    DOCUMENT_LABEL: ClassVar[str] = "trajectory"

    def to_json(self, indent: int | None = 2) -> str:
        return self.model_dump_json(indent=indent)

    def save(self, path: str | Path) -> Path:
        return atomic_write_text(Path(path), self.to_json())

    @classmethod
    def from_dict(cls, data: Any, source: str = "<memory>") -> Self:
        if not isinstance(data, dict):
            raise TrajectoryFormatError(f"{source}: expected a JSON object, found {type(data).__name__}")
        if data.get("format") != cls.FORMAT_NAME:
            raise TrajectoryFormatError(
                f"{source}: field 'format' must be {cls.FORMAT_NAME!r}, found {data.get('format')!r}"
            )
        if data.get("version") != cls.FORMAT_VERSION:
            raise TrajectoryFormatError(
                f"{source}: unsupported {cls.DOCUMENT_LABEL} version {data.get('version')!r}; this medgym reads "
                f"version {cls.FORMAT_VERSION}"
            )
        try:
            return cls.model_validate(data)
        except ValidationError as exc:
            raise TrajectoryFormatError(f"{source}: " + "; ".join(format_validation_error(exc))) from exc

    @classmethod
    def load(cls, path: str | Path) -> Self:
        p = Path(path)
        try:
            data = json.loads(p.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as exc:
            raise TrajectoryFormatError(f"{p}: cannot read {cls.DOCUMENT_LABEL} JSON: {exc}") from exc
        return cls.from_dict(data, str(p))
