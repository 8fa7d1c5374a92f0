"""Loading YAML/JSON data files through pydantic, with errors that name the file.

Cases, documents, tasks and attack libraries are all data files. They all go
through :func:`load_records`, so every loader reports problems the same way:
file path, record id, dotted field path, what was expected and what was found.
Loading is all-or-nothing: a caller either gets every record or an exception.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any, TypeVar

import yaml
from pydantic import BaseModel, ValidationError

from medgym.errors import DataValidationError

M = TypeVar("M", bound=BaseModel)

DATA_SUFFIXES = (".yaml", ".yml", ".json")


def read_data_file(path: Path) -> Any:
    """Parse a YAML or JSON file; syntax errors become DataValidationError."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise DataValidationError(str(path), [f"cannot read file: {exc.strerror or exc}"]) from exc
    try:
        if path.suffix == ".json":
            return json.loads(text)
        return yaml.safe_load(text)
    except (yaml.YAMLError, json.JSONDecodeError) as exc:
        raise DataValidationError(str(path), [f"not valid {path.suffix.lstrip('.').upper()}: {exc}"]) from exc


def format_validation_error(exc: ValidationError) -> list[str]:
    """One readable line per pydantic error: field path, expectation and the value found."""
    lines = []
    for err in exc.errors(include_url=False):
        loc = ".".join(str(p) for p in err.get("loc", ())) or "<record>"
        found = err.get("input")
        found_txt = repr(found)
        if len(found_txt) > 80:
            found_txt = found_txt[:77] + "..."
        msg = err.get("msg", "invalid")
        if err.get("type") == "missing":
            lines.append(f"field {loc!r}: required field is missing")
        else:
            lines.append(f"field {loc!r}: {msg}; found {found_txt}")
    return lines


def validate_record(model: type[M], raw: Any, path: Path | str, index: int | None = None) -> M:
    """Validate one raw record, raising DataValidationError naming path and id."""
    record_id = raw.get("id") if isinstance(raw, dict) else None
    if not isinstance(raw, dict):
        where = f"record #{index}" if index is not None else "file"
        raise DataValidationError(
            str(path), [f"{where}: expected a mapping, found {type(raw).__name__}"], record_id
        )
    try:
        return model.model_validate(raw)
    except ValidationError as exc:
        raise DataValidationError(str(path), format_validation_error(exc), record_id) from exc


def iter_data_files(paths: Iterable[Path | str]) -> list[Path]:
    """Expand directories into their data files (sorted, recursive); keep files as given."""
    out: list[Path] = []
    for p in map(Path, paths):
        if p.is_dir():
            out.extend(sorted(f for f in p.rglob("*") if f.suffix in DATA_SUFFIXES and f.is_file()))
        elif p.exists():
            out.append(p)
        else:
            raise DataValidationError(str(p), ["no such file or directory"])
    return out


def load_records(model: type[M], path: Path, list_key: str | None = None) -> list[M]:
    """Load one file holding a single record, a list of records, or ``{list_key: [...]}``."""
    raw = read_data_file(path)
    if list_key and isinstance(raw, dict) and list_key in raw:
        raw = raw[list_key]
    if isinstance(raw, list):
        return [validate_record(model, r, path, i) for i, r in enumerate(raw)]
    return [validate_record(model, raw, path)]
