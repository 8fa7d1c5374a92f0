"""Rounds 126-127 (session 38; tuned on sets 1-269): a blood pressure named by its state, a shortened diagnosis.

* Round 126: "Hypotensive 88/50", "hypotensive at 90/60": a pair of numbers after the state a blood pressure names
  is that pressure (``medgym.text.numbers``), one numeric claim as the labels read it, not a factual claim on
  "hypotensive" with the numbers lost.
* Round 127: "Less likely: a structural lesion" shortens the lamotrigine case's "new structural brain lesion": a
  diagnosis under discussion, not a claim on the MRI whose statement ("no structural lesion") gave the words a fact.

The tests marked "fails on 521619c" fail on the session-37 final judge; the others are controls.
"""

from __future__ import annotations

from rules_support import last_reply_claims

from medgym.text.numbers import find_quantities

STEMI = "card-101-stemi-inferior"
LTG = "neur-103-lamotrigine-contraceptive"


def test_a_pressure_after_hypotensive_is_a_blood_pressure():  # fails on 521619c
    text = "Hypotensive 88/50 after GTN, hypertensive at 190/110 before."
    assert [(q.value, q.unit) for q in find_quantities(text)] == [(88, "mmhg"), (50, "mmhg"), (190, "mmhg"), (110, "mmhg")]


def test_a_score_after_another_word_is_no_pressure():
    assert [(q.value, q.unit) for q in find_quantities("Hypotonic, power 3/5 in the legs")] == [(3, None)]


def test_hypotensive_with_its_pressure_is_one_numeric_claim():  # fails on 521619c
    claims = last_reply_claims(STEMI, ["Inferior STEMI. Hypotensive 88/50 after GTN, so fluids."])
    on_bp = [(c.span.text, c.kind) for c in claims if c.item == "sbp"]
    assert on_bp and all(kind == "numeric" for _t, kind in on_bp), on_bp


def test_a_shortened_differential_is_no_mri_claim():  # fails on 521619c
    reply = "Less likely: sleep loss, or a structural lesion given the new headaches."
    assert not [c for c in last_reply_claims(LTG, [reply]) if c.item == "mri_brain"]


def test_a_fact_word_inside_a_diagnosis_name_stays_a_claim():
    reply = "The combined pill started two months ago will have induced lamotrigine clearance."
    assert [c.item for c in last_reply_claims(LTG, [reply]) if "pill" in c.span.text] == ["cocp"]
