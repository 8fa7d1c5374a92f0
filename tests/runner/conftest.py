from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def medgym_cmd(*args: str) -> list[str]:
    return [sys.executable, "-m", "medgym.cli.main", *args]


def run_cli(*args: str, timeout: float = 300, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(medgym_cmd(*args), capture_output=True, text=True, timeout=timeout,
                          env={**os.environ, **(env or {})})  # fmt: skip


@pytest.fixture(scope="session")
def reference_judge():
    from medgym.judges import get_judge

    return get_judge("reference")
