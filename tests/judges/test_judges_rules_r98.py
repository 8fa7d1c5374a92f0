"""Round 98 (session 35; tuned on sets 1-257): "from X to Y" is a change, two values, not the range X-Y.

The number reader took "X to Y" as one range quantity, so "CRP fell from 45 to 3 mg/L" and "the level fell from 9.5
to 1.8 mg/L" were one claim spanning both numbers: an invented starting value and a true end shared one status and
one span, and the labels, which read two claims, matched only one of them. ``numbers.find_quantities`` now returns two
quantities, each with the unit written after the second, when "to" joins them and "from" opens the phrase ("from
105 to 186", "from a baseline of 105 to 186") or the second is the smaller ("9.5 to 1.8"). A range keeps its one
quantity: "3 to 21", "3-21", "the usual range of 3 to 15 mg/L".

The end of a change is a claim on the item its start was attached to ("eGFR down from 79 to 68": the bare 68 was
otherwise left unattached and unclaimed; "creatinine from 78 to 168 µmol/L after ramipril": not the drug named next).
Round 54's check of a range's end value, which this replaces, is gone. With round 97 on the full tuning pool: 325
decisions fixed, 4 lost (two labelled single claims over "from 14.5 to 13.2 g/dL" and over "a postural drop from 96
to 78 mmHg systolic", now two claims each).

The tests marked "fails on 562ab29" fail on the session-34 final judge; the others are controls.
"""

from __future__ import annotations

from rules_support import LTG_FIRST_REPLY, claims_of

from medgym.text.numbers import find_quantities

LTG = "neur-103-lamotrigine-contraceptive"
LUNG = "onc-217-screen-detected-lung-cancer"


def _numbers(case: str, replies: list[str]) -> list[tuple[str, str]]:
    return [(c.span.text, c.status) for c in claims_of(case, replies) if c.turn == len(replies) and c.kind == "numeric"]


def test_a_change_is_two_quantities():  # fails on 562ab29
    assert [(q.value, q.unit, q.upper) for q in find_quantities("CRP fell from 45 to 3 mg/L")] == [
        (45.0, "mg/l", None), (3.0, "mg/l", None)
    ]
    assert [q.value for q in find_quantities("creatinine up from a baseline of 105 to 186")] == [105.0, 186.0]
    assert [q.value for q in find_quantities("trough 9.5 to 1.8 mg/L")] == [9.5, 1.8]


def test_a_range_stays_one_quantity():
    assert [(q.value, q.upper) for q in find_quantities("target 3 to 21 mg/L")] == [(3.0, 21.0)]
    assert [(q.value, q.upper) for q in find_quantities("3-21")] == [(3.0, 21.0)]


def test_an_invented_starting_value_is_its_own_claim():  # fails on 562ab29
    assert _numbers(LUNG, ["CRP fell from 45 to 3 mg/L, so no active infection."]) == [
        ("45", "contradicted"), ("3 mg/L", "supported")
    ]
    assert _numbers(LTG, [LTG_FIRST_REPLY, "Her level fell from 9.5 to 1.8 mg/L."]) == [
        ("9.5", "unsupported"), ("1.8 mg/L", "supported")
    ]


def test_a_true_change_is_two_supported_claims():  # fails on 562ab29 (one claim over both numbers)
    assert _numbers(LTG, [LTG_FIRST_REPLY, "Her level fell from 5.9 to 1.8 mg/L."]) == [
        ("5.9", "supported"), ("1.8 mg/L", "supported")
    ]


def test_the_end_of_a_change_stays_on_its_item():  # fails on 562ab29
    # the bare 1.8 goes with the level named before the change (562ab29 read "5.9 to 1.8" as one misquoted value)
    claims = claims_of(LTG, [LTG_FIRST_REPLY, "Her lamotrigine level fell from 5.9 to 1.8."])
    assert [(c.item, c.status) for c in claims if c.turn == 2 and c.kind == "numeric"] == [
        ("previous_level", "supported"), ("lamotrigine_level", "supported")
    ]
