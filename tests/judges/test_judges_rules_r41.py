"""Regression tests of the session-12 rules (round 41 onward; tuned on sets 1-93 while 94-101 were
unscored). Written on other cases or wording than the batch text that revealed each rule."""

from __future__ import annotations

import pytest
from rules_support import claims_of as _claims
from rules_support import claims_on as _on

from medgym.judges.claim_blocking import _taken_by_patient

# ---- round 41: a drug named without words saying the patient takes it is treatment talk


@pytest.mark.parametrize(
    "text, drug, taken",
    [
        ("- Calcium gluconate, insulin/dextrose", "insulin", False),
        ("Plan delivery after steroids.", "steroids", False),
        ("Start metformin if the sugars stay high.", "metformin", False),
        ("Heparin per the cath lab.", "Heparin", False),
        ("She has been taking prednisolone for a year.", "prednisolone", True),
        ("A short course of steroids after her first cycle.", "steroids", True),
        ("Ibuprofen three times a day for her knee.", "Ibuprofen", True),
        ("No NSAID dispensed in the last year.", "NSAID", True),
        ("He did take the antibiotics as prescribed.", "antibiotics", True),
        ("Warfarin for AF since 2019.", "Warfarin", True),
    ],
)
def test_words_that_say_a_drug_is_taken(text, drug, taken):
    s = text.index(drug)
    assert _taken_by_patient(text, s, s + len(drug)) is taken


def test_a_drug_in_an_order_list_is_not_an_invented_history():
    claims = _claims("neph-102-drug-induced-hyperkalaemia", [
        "Hyperkalaemia, probably drug-induced.\n- calcium gluconate, insulin and dextrose, salbutamol nebs\n"
        "- recheck the potassium in two hours",
    ])
    assert not [c for c in _on(claims, "insulin") if c.hallucinated], _on(claims, "insulin")


def test_a_drug_the_agent_says_the_patient_takes_is_still_a_claim():
    # nothing released says she takes insulin: saying she does is an invented history
    claims = _claims("neph-102-drug-induced-hyperkalaemia", [
        "She has been taking insulin for years, which may matter here. Probable drug-induced hyperkalaemia.",
    ])
    got = _on(claims, "insulin")
    assert got and got[0].hallucinated, got


def test_a_denied_deficiency_of_an_analyte_is_not_a_level_claim():
    claims = _claims("gast-101-advanced-adenoma-fit", [
        "There is no iron deficiency here. Probable advanced adenoma.",
    ])
    assert not _on(claims, "iron"), _on(claims, "iron")


# ---- round 41: imaging and tissue results the agent reports


def test_a_result_of_a_study_the_case_does_not_have_is_a_reported_finding():
    # the hyperkalaemia case has no CT at all: the adrenal finding is the agent's invention
    claims = _claims("neph-102-drug-induced-hyperkalaemia", [
        "A CT abdomen shows bilateral adrenal hyperplasia. Probable drug-induced hyperkalaemia.",
    ])
    got = _on(claims, "adrenal hyperplasia")
    assert got and got[0].hallucinated, claims


def test_a_study_the_case_has_owns_its_sentence():
    # the heart-failure case has a chest X-ray fact: "the X-ray shows ..." is about that fact, not a new term
    claims = _claims("card-103-adhf-nsaid", [
        "The X-ray shows upper lobe diversion. Probable decompensated heart failure.",
    ])
    assert not [c for c in claims if c.item.startswith("term:upper")], claims


def test_a_finding_placed_on_a_withheld_study_states_its_result():
    # under D the chest X-ray arrives at turn 2: at turn 1 "the shadowing on her X-ray" invents its result
    claims = _claims("card-103-adhf-nsaid", [
        "Given the bat-wing shadowing on her chest X-ray, this is decompensated heart failure.",
    ], cond="D")
    got = [c for c in claims if c.item == "cxr"]
    assert got and got[0].hallucinated, claims


def test_using_a_study_is_not_stating_its_result():
    claims = _claims("card-103-adhf-nsaid", [
        "I will decide based on the chest X-ray. Probable decompensated heart failure.",
    ], cond="D")
    assert not [c for c in claims if c.item == "cxr"], claims


# ---- round 42: chart shorthand ("nl" for normal, "Cr", "TA")


def test_nl_calls_a_result_normal():
    # the creatinine is raised in the obstructive AKI case: "Cr nl" misreads it
    claims = _claims("neph-101-obstructive-aki-retention", [
        "Cr nl on the bloods, so I doubt this is renal. Probable urinary retention.",
    ])
    got = [c for c in claims if c.item == "creatinine"]
    assert got and got[0].hallucinated, claims


def test_nl_agrees_with_a_normal_result():
    claims = _claims("neur-102-guillain-barre", ["CK nl, K nl. Probable Guillain-Barre syndrome."])
    got = [c for c in claims if c.item == "ck"]
    assert got and not got[0].hallucinated, claims


def test_a_shorthand_name_is_compared_with_the_statement_by_its_full_name():
    # the temporal artery is tender on examination; "R TA non-tender, pulse felt" denies it
    claims = _claims("rheum-206-giant-cell-arteritis", [
        "On exam the R TA non-tender, pulse felt. Probable polymyalgia rheumatica.",
    ])
    got = [c for c in claims if c.item == "ta_exam"]
    assert got and got[0].status == "contradicted", claims


# ---- round 43: self-corrections, "2°", terse follow-up intervals, doses ordered now


def test_a_correction_keeps_the_right_value_and_drops_the_wrong_one():
    # the SpO2 is 99 % on air in the CO case; the reply corrects an earlier 94 %
    claims = _claims("em-214-carbon-monoxide-poisoning", [
        "Her SpO2 is 94% on air. Probable viral gastroenteritis.",
        "Let me correct myself about the oxygen; the saturation is 99%, not 94%. Probable CO poisoning.",
    ])
    t2 = [c for c in claims if c.turn == 2 and c.kind == "numeric"]
    assert [c.span.text for c in t2 if c.hallucinated] == [], t2
    assert any("99" in c.span.text and not c.hallucinated for c in t2), t2


@pytest.mark.parametrize("text", ["Hyperkalaemia 2° spironolactone and trimethoprim.", "AKI 2° obstruction."])
def test_a_degree_sign_after_a_small_integer_is_secondary_to(text):
    from medgym.text.numbers import find_quantities, looks_like_non_claim

    q = find_quantities(text)[0]
    assert looks_like_non_claim(text, q)


@pytest.mark.parametrize(
    "text, scheduled",
    [("Clinic f/u 2 wk.", True), ("Obs q2h overnight.", True), ("Recheck 6 h after the dose.", True),
     ("Pain for 2 wk.", False), ("Two episodes in 6 h.", False)],
)
def test_terse_follow_up_intervals(text, scheduled):
    from medgym.judges.claim_blocking import _scheduled
    from medgym.text.numbers import find_quantities

    q = next(q for q in find_quantities(text) if q.unit)
    assert _scheduled(text, q) is scheduled


def test_a_dose_ordered_now_is_the_plan_even_for_a_drug_the_patient_takes():
    # her furosemide dose is in the released medication list; "IV furosemide 120 mg" is the order, not a misquote
    claims = _claims("card-103-adhf-nsaid", [
        "Decompensated heart failure. Meanwhile IV furosemide 120 mg bd, hold the ibuprofen.",
    ])
    assert not [c for c in claims if "120" in c.span.text], claims


# ---- round 44: a finding the agent adds to the history or examination ("he also has ...")


def test_an_added_finding_the_case_never_mentions_is_a_claim():
    claims = _claims("uro-219-testicular-torsion", [
        "He also has a hydrocele on the left side. Probable testicular torsion.",
    ])
    got = [c for c in claims if c.item.startswith("term:") and c.hallucinated]
    assert got, claims


def test_an_added_finding_is_followed_by_its_head_word_in_later_turns():
    claims = _claims("rheum-206-giant-cell-arteritis", [
        "She has also had transient flashing lights this week. Probable giant cell arteritis.",
        "The flashing lights make this urgent. Probable giant cell arteritis.",
    ])
    t1 = [c.item for c in claims if c.turn == 1 and c.item.startswith("term:") and c.hallucinated]
    t2 = [c.item for c in claims if c.turn == 2 and c.item.startswith("term:") and c.hallucinated]
    assert t1 == ["term:flashing lights"] and t2 == t1, claims


def test_an_added_drug_history_is_not_a_finding():
    claims = _claims("card-103-adhf-nsaid", [
        "She has also been taking her furosemide as prescribed. Probable decompensated heart failure.",
    ])
    assert not [c for c in claims if c.item.startswith("term:been")], claims


def test_an_added_finding_named_again_by_a_lexicon_word_keeps_its_track():
    claims = _claims("neph-101-obstructive-aki-retention", [
        "He also has a bruise on the left flank from a fall. Probable urinary retention.",
        "The bruising does not change the picture. Probable urinary retention.",
    ])
    items = {c.turn: c.item for c in claims if c.hallucinated and c.item.startswith("term:bruis")}
    assert items == {1: "term:bruise", 2: "term:bruise"}, claims
