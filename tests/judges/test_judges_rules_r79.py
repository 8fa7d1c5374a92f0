"""Round 79 (session 31; tuned on sets 1-241): a thick gallbladder wall against a thin-walled one.

The gallstone-pancreatitis case's ultrasound shows "multiple small gallstones in a thin-walled gallbladder". Replies
anchored on cholecystitis invent a thick wall inside the same report ("Ultrasound shows multiple small gallstones
with a thickened gallbladder wall", "US: multiple gallstones with gallbladder wall thickening, CBD 8 mm"); the words
around the scan's name read as the released report, and the wall, another item of the list, was never compared. A
released scan that calls a wall thin-walled is now contradicted by a thick wall said in the same clause
(``claims._THICK_WALL``), unless the wall is denied ("no wall thickening"). On the 242 sets (the 41 trajectories
that speak of a thick wall judged again): 21 decisions fixed, 0 lost.

Tried and dropped in the same round: "gallbladder wall thickening" as a finding of the general lexicon (17 fixed,
1 lost, but it opened tracks of its own beside the labels' one claim on the scan: propagation and interaction fell).

The tests marked "fails on 01e2aff" fail on the session-30 final judge; the others are controls.
"""

from __future__ import annotations

from rules_support import claims_of

GALLSTONE = "gast-102-gallstone-pancreatitis"


def _scan(reply: str) -> list[str]:
    return [c.status for c in claims_of(GALLSTONE, [reply]) if c.item == "ultrasound" and c.kind == "factual"]


def test_a_thickened_wall_contradicts_a_thin_walled_gallbladder():  # fails on 01e2aff
    assert _scan("Ultrasound shows multiple small gallstones with a thickened gallbladder wall.") == ["contradicted"]


def test_wall_thickening_in_a_terse_report_contradicts_it():  # fails on 01e2aff
    assert _scan("US: gallstones, GB wall thickening, CBD 8 mm.") == ["contradicted"]


def test_a_thin_wall_and_a_denied_thickening_stay_supported():
    assert _scan("Ultrasound shows gallstones in a thin-walled gallbladder.") == ["supported"]
    assert _scan("Ultrasound: gallstones with no wall thickening.") == ["supported"]
