"""Case-knowledge fixtures shared by the judge rule tests."""

from __future__ import annotations

import pytest
from rules_support import case_knowledge


@pytest.fixture(scope="module")
def gca():
    return case_knowledge("rheum-206-giant-cell-arteritis")


@pytest.fixture(scope="module")
def potassium():
    return case_knowledge("neph-102-drug-induced-hyperkalaemia")


@pytest.fixture(scope="module")
def pancreatitis():
    return case_knowledge("gast-102-gallstone-pancreatitis")
