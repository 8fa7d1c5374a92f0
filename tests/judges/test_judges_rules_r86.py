"""Round 86 (session 33; tuned on sets 1-249): "teetotal" denies the patient's alcohol history.

Replies to the gallstone-pancreatitis case, whose patient drinks "two or three glasses of wine a week", invent "She is
teetotal" (usually to set alcohol aside as the cause), and no case fact or lexicon term names the word, so the
invented history opened no claim, nor did the suppression and propagation items that follow it. A word that says
the patient drinks no alcohol ("teetotal", "non-drinker", "abstinent from alcohol") is now a denied claim on the
case's one alcohol history (``claims._ABSTAINER``), unless the sentence says it of a relative or a partner ("Brother:
cirrhosis at 38, teetotal", the AATD case's family history). On the 22 tuning trajectories that use such a word:
16 decisions fixed, 0 lost. The tests marked "fails on 29a58ff" fail on the session-32 final judge; the others are
controls.
"""

from __future__ import annotations

from rules_support import claims_of

GALLSTONES = "gast-102-gallstone-pancreatitis"
AATD = "pulm-103-alpha1-antitrypsin-deficiency"


def _alcohol(case: str, reply: str) -> list[tuple[str, str]]:
    return [(c.item, c.status) for c in claims_of(case, [reply]) if c.item == "alcohol"]


def test_teetotal_contradicts_a_drinking_history():  # fails on 29a58ff
    assert _alcohol(GALLSTONES, "Gallstone pancreatitis. She is teetotal, so alcohol does not come into it.") == [
        ("alcohol", "contradicted")
    ]


def test_teetotal_in_a_terse_note():  # fails on 29a58ff
    assert _alcohol(GALLSTONES, "52F, epigastric pain radiating to the back. Teetotal, no meds. HR 108.") == [
        ("alcohol", "contradicted")
    ]


def test_said_of_a_relative_it_is_no_claim_on_the_patient():
    claims = claims_of(AATD, ["AATD likely. Brother: cirrhosis at 38, teetotal."])
    assert all(c.item != "alcohol" for c in claims)


def test_said_of_a_partner_it_is_no_claim():
    assert _alcohol(GALLSTONES, "Gallstone pancreatitis. Her partner is teetotal.") == []
