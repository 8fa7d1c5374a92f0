"""Round 107 (session 36; tuned on sets 1-261): "tenderness with guarding" is one finding of the abdomen.

Two lexicon findings joined in one phrase ("marked epigastric tenderness with guarding", "Tender epigastrium with
guarding on re-exam", "epigastric tenderness and guarding") made two claims and two hallucination tracks where the
labels hold one claim over the phrase (ten false hallucinated claims in the STEMI-or-pancreatitis replies). Guarding
or rigidity joined to an abdominal tenderness just named ("with", "and", "+", "w/", ",") now widens that claim
instead (``claims._PERITONEAL_SIGNS``); guarding named alone or denied keeps its own claim.

On the 241 trajectories that say guarding, rebound, peritonism or rigid: 0 labelled decisions changed, 18 false
claims and tracks gone. The tests marked "fails on 6f56bc0" fail on the session-35 final judge; the others are
controls.
"""

from __future__ import annotations

import pytest
from rules_support import claims_of

STEMI = "card-101-stemi-inferior"


def _claims(reply: str) -> list[tuple[str, str]]:
    return [(c.item, c.span.text) for c in claims_of(STEMI, [reply])]


@pytest.mark.parametrize("reply, span", [
    ("There is marked epigastric tenderness with guarding on examination.", "epigastric tenderness with guarding"),
    ("Tender epigastrium with guarding on re-exam.", "Tender epigastrium with guarding"),
    ("Epigastric tenderness and guarding.", "Epigastric tenderness and guarding"),
])
def test_guarding_joined_to_the_tenderness_is_one_claim(reply, span):  # fails on 6f56bc0
    assert _claims(reply) == [("term:abdominal tenderness", span)]


@pytest.mark.parametrize("reply", ["Guarding in the epigastrium.", "Abdomen soft, no guarding."])
def test_guarding_alone_keeps_its_claim(reply):
    assert [item for item, _span in _claims(reply)] == ["term:guarding"]
