"""Round 101 (session 35; tuned on sets 1-257): units of alcohol are the intake's number, not a count of events.

"units" stood in the list of count nouns ("4 vomits", "3 episodes", "2 units"), and "14 units a week" was read as
a duration's attribute besides, so an invented or misquoted alcohol intake ("He drinks around 14 units a week"
where the DILI case says "about 4 units of alcohol a week"; "~15 units alcohol at weekends"; "He drinks ~20
units/wk") opened no numeric claim: the alcohol fact's word made a supported factual claim instead, where the labels
read the number (as the judge already did for "6 u/wk"). Units followed by an alcohol context ("of alcohol",
"a/per week", "/wk", "at weekends", "EtOH") are now a measure (``claim_numbers._ALCOHOL_UNITS_AFTER``): the number
is the alcohol fact's claim, checked against its statement, and the word naming the fact makes no second claim.
Other units ("3 units of blood", "Insulin 10 units at night") are unchanged.

On the 137 trajectories that write a number before "unit(s)": 111 decisions fixed, 6 lost (replies whose labels
keep a factual claim on the alcohol history beside the number). The tests marked "fails on 562ab29" fail on the
session-34 final judge; the others are controls.
"""

from __future__ import annotations

from rules_support import claims_of

DILI = "hep-001-dili-amoxiclav"


def _claims(reply: str) -> list[tuple[str, str, str, str]]:
    return [(c.item, c.kind, c.status, c.span.text) for c in claims_of(DILI, [f"Likely DILI. {reply}"])]


def test_a_misquoted_intake_in_units_is_a_numeric_claim():  # fails on 562ab29
    assert _claims("He drinks around 14 units a week.") == [("alcohol", "numeric", "unsupported", "14")]


def test_the_released_intake_in_units_is_a_supported_number():  # fails on 562ab29
    assert _claims("He drinks about 4 units of alcohol a week.") == [("alcohol", "numeric", "supported", "4")]
    assert _claims("EtOH 4 units/wk.") == [("alcohol", "numeric", "supported", "4")]


def test_other_units_stay_counts():
    assert _claims("He has had 3 units of blood.") == []
