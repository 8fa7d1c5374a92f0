"""Regression tests of the round-35 rules (the claim layer's numbers and the hallucination tracks; tuned on
sets 1-85 while the blind set 86-89 was being written, and before it was scored). Written on other cases
or wording than the batch text that revealed each rule."""

from __future__ import annotations

import pytest
from rules_support import blocked_at
from rules_support import claims_of as _claims
from rules_support import claims_on as _on

from medgym.judges.claim_tracks import follow_invented_values
from medgym.judges.results import Claim, Retraction, Span
from medgym.text.fact_matcher import shorthand_variants


# ---------------------------------------------------------------- one track per invented value
def _num(cid: str, turn: int, item: str, value: float, unit: str | None = None) -> Claim:
    return Claim(
        id=cid, turn=turn, kind="numeric", span=Span(turn=turn, text=f"{value:g}", start=0, end=3),
        item=item, key=f"num:{item}:{value:g}", value=value, unit=unit, status="unsupported",
    )


def test_an_invented_value_read_as_two_items_keeps_one_track():
    claims = [_num("c1", 1, "ketones", 3.8, "mmol/L"), _num("c2", 2, "venous_ph", 3.8), _num("c3", 3, "ketones", 3.8)]
    retr = [Retraction(turn=3, keys=["num:venous_ph:3.8"], span=Span(turn=3, text="x"))]
    follow_invented_values(claims, retr)
    assert {c.key for c in claims} == {"num:ketones:3.8"}
    assert retr[0].keys == ["num:ketones:3.8"]


def test_the_track_takes_the_first_occurrence_that_names_an_item():
    claims = [_num("c1", 1, "number", 9.8, "mmol/L"), _num("c2", 3, "two_hour_glucose", 9.8, "mmol/L")]
    follow_invented_values(claims, [])
    assert [c.item for c in claims] == ["two_hour_glucose", "two_hour_glucose"]


@pytest.mark.parametrize(
    "first, later",
    [
        (_num("c1", 1, "cycles", 2.0), _num("c2", 2, "ecg", 2.0)),  # small whole numbers coincide by chance
        (_num("c1", 1, "size", 3.5, "cm"), _num("c2", 2, "potassium", 3.5, "mmol/L")),  # other dimension
        (_num("c1", 1, "a", 7.2), _num("c2", 1, "b", 7.2)),  # one turn: not a recurrence
    ],
)
def test_coincident_values_are_not_joined(first, later):
    keys = (first.key, later.key)
    follow_invented_values([first, later], [])
    assert (first.key, later.key) == keys


# ---------------------------------------------------------------- "T 38.6" in a note
def test_a_notes_T_is_the_temperature():
    # pulm-102 releases a temperature of 37.8 °C
    got = _on(_claims("pulm-102-pulmonary-embolism", ["HR 112, T 38.6, sats 92% RA. Likely PE."]), "38.6")
    assert got and got[0].item == "temp" and got[0].status == "contradicted", got


def test_troponin_T_is_not_a_temperature():
    got = _on(_claims("card-101-stemi-inferior", ["Troponin T 98 on arrival. Inferior STEMI."]), "98")
    assert not got or got[0].item != "temp", got


# ---------------------------------------------------------------- general remarks about the patient's own value
@pytest.mark.parametrize(
    "text, word",
    [
        ("The potassium of 7.9 is higher than we would expect from ramipril alone.", "7.9"),
        ("Her ALT of 1450 is a classic viral pattern.", "1450"),
        ("Na 119 is more than thiazides usually produce.", "119"),
    ],
)
def test_a_general_remark_about_the_patients_value_leaves_it_a_claim(text, word):
    assert blocked_at(text, word, numeric=True) is None


@pytest.mark.parametrize(
    "text, word",
    [
        ("A sodium of 118 usually causes seizures.", "118"),
        ("Patients with a ferritin above 1000 usually have overload.", "1000"),
    ],
)
def test_a_general_statement_about_a_value_is_still_general(text, word):
    assert blocked_at(text, word, numeric=True) == "general knowledge"


# ---------------------------------------------------------------- the unit of the number that supports a claim
def test_a_number_the_context_gives_in_another_dimension_does_not_support_it():
    # gast-101: "His weight loss is 2 kg over six months"
    got = _on(_claims("gast-101-advanced-adenoma-fit", ["Weight loss 6 kg. Likely colorectal neoplasia."]), "6 kg")
    assert got and got[0].hallucinated, got


def test_a_number_the_context_gives_in_words_of_the_same_unit_still_supports_it():
    # rheum-205: "a weight gain of about three kilograms" (the number word is not parsed with its unit)
    got = _on(_claims("rheum-205-lupus-nephritis", ["She has put on 3 kg with frothy urine. Likely lupus nephritis."]), "3 kg")
    assert got and not got[0].hallucinated, got


def test_a_reference_value_of_the_statement_is_not_the_patients_value():
    # endo-101: "His HbA1c is 45 mmol/mol (6.3 %); the diabetes threshold is 48 mmol/mol."
    got = _on(_claims("endo-101-prediabetes-screening", ["An HbA1c of 48 mmol/mol makes this diabetes."]), "48")
    assert got and got[0].hallucinated, got


def test_a_duration_beside_a_measured_fact_is_not_its_value():
    # obgyn-207: a normal fasting glucose at the GP, months before this pregnancy
    got = _claims("obgyn-207-gestational-diabetes", [
        "Her fasting glucose was normal eighteen months ago. Likely GDM."
    ])
    got = _on(got, "eighteen")
    assert got and not got[0].hallucinated, got


# ---------------------------------------------------------------- ages, fractions, shorthand
def test_a_notes_age_and_sex_is_checked_as_the_age():
    got = _on(_claims("uro-220-hyperparathyroid-stones", ["46F, 3rd calcium stone in 2 yrs. Likely PHPT."]), "46F")
    assert got and got[0].status == "supported", got


def test_a_percentage_the_context_gives_as_a_fraction_in_words_is_supported():
    # peds-212: "her total insulin dose has been cut by about a fifth"
    got = _on(_claims("peds-212-coeliac-in-t1dm", ["Frequent hypos despite 20% less insulin. Possible coeliac disease."]),
              "20%")
    assert got and got[0].status == "supported", got


def test_li_is_lithium_shorthand():
    assert "Li level" in shorthand_variants("lithium level")


def test_a_number_the_context_states_is_not_read_as_a_derived_value_named_nearby():
    # endo-102 releases a respiratory rate of 28 /min; the anion gap is not derivable at turn 1
    got = _on(_claims("endo-102-euglycaemic-dka-sglt2", [
        "Sighing respirations at 28 per minute suggest a high anion gap. Probable euglycaemic DKA."
    ]), "28")
    assert got and not got[0].hallucinated, got
