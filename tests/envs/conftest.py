from __future__ import annotations

from pathlib import Path

import pytest

from medgym.knowledge_base.case_bank import CASES_DIR, default_bank

EXAMPLE_CASE = CASES_DIR / "hep_001_dili_amoxiclav.yaml"


@pytest.fixture(scope="session")
def bank():
    return default_bank()


@pytest.fixture(scope="session")
def example_case(bank):
    return bank.get("hep-001-dili-amoxiclav")


@pytest.fixture()
def example_yaml() -> str:
    return Path(EXAMPLE_CASE).read_text(encoding="utf-8")
