"""Round 104 (session 36; tuned on sets 1-261): a specialty named as the care team, and bearing weight.

Two bare words opened false hallucinated claims in plans and presenting lines (the labels hold no claim there):

* "Neurology to see today", "admission under neurology", "Neurology should be involved", "Haldane, Neurology
  registrar": the encephalitis case names its neurological examination among the dyskinesia finding's names,
  so the team read as an examination finding, invented while the examination is withheld. A specialty followed
  by what a team does ("to see", "registrar", "team", "input", "is aware") or after "under", "involve",
  "discussed with" is the team (``claim_blocking._care_team``); "Her neurology is normal" is a finding.
* "can't bear weight": the act of standing on the knee, not the body weight, read as "weight-bearing" already was
  (``claims._NOT_THE_TERM``).

The tests marked "fails on 6f56bc0" fail on the session-35 final judge; the others are controls.
"""

from __future__ import annotations

import pytest
from rules_support import claims_of

NMDAR = "psych-216-anti-nmdar-encephalitis"
CPPD = "rheum-204-cppd-pseudogout"


def _items(case: str, reply: str, cond: str = "O") -> list[tuple[str, str]]:
    return [(c.item, c.span.text) for c in claims_of(case, [reply], cond)]


@pytest.mark.parametrize("reply", [
    "Neurology to see today.",
    "She needs admission under neurology with ICU access.",
    "Neurology should be involved today.",
    "Haldane, Neurology registrar",
])
def test_the_team_is_not_a_finding(reply):  # fails on 6f56bc0
    assert _items(NMDAR, reply) == []


def test_the_examination_still_is():
    assert _items(NMDAR, "Her neurology is normal.") == [("dyskinesia", "neurology")]


def test_bearing_weight_is_not_the_body_weight():  # fails on 6f56bc0
    assert ("term:weight", "weight") not in _items(CPPD, "78F, 2d hot swollen R knee, can't bear weight.")


def test_a_stated_weight_is_still_a_claim():
    assert _items(CPPD, "Weight 70 kg.") == [("term:weight", "70 kg")]
