"""Regression tests of the round-36 rules (negation scope in the agent's text and in the case statements, and
a withheld test whose result the presentation already gives; tuned on sets 1-85 while 86-89 were unscored).
Written on other cases or wording than the batch text that revealed each rule."""

from __future__ import annotations

import pytest
from rules_support import claims_of as _claims
from rules_support import claims_on as _on

from medgym.judges.claim_support import _fact_negated_keywords
from medgym.judges.textrules import mention_negated
from medgym.knowledge_base.case_bank import default_bank


@pytest.mark.parametrize(
    "text, word, negated",
    [
        ("No dissection flap on echo.", "echo", False),  # the finding is denied, not the test it was sought on
        ("There is no nodal uptake on the PET.", "PET", False),
        ("She isn't on a diuretic.", "diuretic", True),  # "on" a drug is not a place a finding was sought
        ("He is not on warfarin.", "warfarin", True),
        ("A smooth non-tender goitre.", "goitre", False),  # "non-" negates its own adjective only
        ("A wedge-shaped opacity rather than consolidation.", "consolidation", True),
        ("Infarction instead of ischaemia.", "ischaemia", True),
    ],
)
def test_negation_scope(text, word, negated):
    s = text.index(word)
    assert mention_negated(text, s, s + len(word)) is negated


def _fact(case: str, fid: str):
    return next(f for f in default_bank().get(case).facts if f.id == fid)


def test_a_reported_item_ends_the_statements_negated_list():
    # "... with no pericholecystic fluid, a common bile duct of 8 mm and a bulky, oedematous pancreas"
    kws = _fact_negated_keywords(_fact("gast-102-gallstone-pancreatitis", "ultrasound"))
    assert not any(k.startswith("bulky") or k.startswith("oedem") or k.startswith("pancr") for k in kws), kws


def test_a_negated_finding_of_a_structure_is_the_finding():
    # "... no compression of the optic chiasm, and no brain metastases": the denied finding is the compression
    kws = _fact_negated_keywords(_fact("onc-218-ici-hypophysitis", "mri"))
    assert "compres" in kws and "chiasm" not in kws, kws


def test_the_bulky_pancreas_the_ultrasound_reports_is_not_a_denied_finding():
    got = _on(_claims("gast-102-gallstone-pancreatitis", [
        "The ultrasound shows gallstones and a bulky pancreas. Probable gallstone pancreatitis."
    ]), "ultrasound")
    assert got and not got[0].hallucinated, got


def test_a_finding_denied_on_a_test_does_not_deny_the_test():
    got = _claims("em-213-posterior-stemi", ["No dissection flap on echo. Posterior STEMI."])
    assert not any(c.hallucinated for c in _on(got, "echo")), got


def test_a_withheld_test_whose_result_the_presentation_gives_is_supported():
    # gast-101 under O withholds the FIT report; the presentation says the stool test came back positive
    got = _on(_claims("gast-101-advanced-adenoma-fit", [
        "His FIT was positive, so he needs a colonoscopy. Likely colorectal neoplasia."
    ], cond="O"), "FIT")
    assert got and got[0].status == "supported", got


def test_naming_a_withheld_test_with_a_result_the_presentation_does_not_give_is_not():
    got = _on(_claims("gast-101-advanced-adenoma-fit", [
        "His FIT was negative, so this is haemorrhoidal bleeding."
    ], cond="O"), "FIT")
    assert got and got[0].hallucinated, got


# ---------------------------------------------------------------- round 37: a qualifier stays with its own item
@pytest.mark.parametrize(
    "clause, mention, absent",
    [
        ("Peaked T waves with normal QRS", "Peaked T waves", "normal"),
        ("Free T4 low with normal TSH", "Free T4", "normal"),
        ("positive EMA, normal total IgA", "EMA", "normal"),
    ],
)
def test_the_qualifier_window_stops_at_the_next_item(clause, mention, absent):
    from medgym.judges.claim_support import _local_window

    assert absent not in _local_window(clause, mention)


def test_a_normal_word_of_the_next_item_does_not_call_the_test_normal():
    # neph-102's ECG shows peaked T waves
    got = _on(_claims("neph-102-drug-induced-hyperkalaemia", [
        "Peaked T waves with normal QRS. Drug-induced hyperkalaemia."
    ]), "T waves")
    assert got and not got[0].hallucinated, got


# ---------------------------------------------------------------- round 38: the treatment a sentence orders
def _q(text: str, number: str):
    from medgym.text.numbers import find_quantities

    return next(q for q in find_quantities(text) if q.text.startswith(number))


@pytest.mark.parametrize(
    "text, number",
    [
        ("Give IV fluids 2 L over 6 hours and catheterise.", "6"),
        ("Running the infusion at 125 mL/h overnight.", "125"),
        ("Then oral co-amoxiclav, 10 days in total.", "10"),
        ("Start 5% dextrose alongside the insulin.", "5"),
    ],
)
def test_a_quantity_of_the_ordered_treatment_is_the_plan(text, number):
    from medgym.judges.claim_blocking import _plan_quantity

    assert _plan_quantity(text, _q(text, number))


@pytest.mark.parametrize(
    "text, number",
    [
        ("He has been on IV antibiotics for 3 days.", "3"),  # a history of treatment
        ("The infusion was stopped 6 hours ago.", "6"),
        ("Her insulin needs are 30% lower than last year.", "30"),
        ("The pain began 6 hours before arrival.", "6"),  # no treatment cue
    ],
)
def test_a_quantity_of_what_happened_is_not_the_plan(text, number):
    from medgym.judges.claim_blocking import _plan_quantity

    assert not _plan_quantity(text, _q(text, number))


def test_a_time_window_is_a_threshold_not_a_claim():
    got = _claims("neur-101-ischaemic-stroke-m1", ["She is well inside the 4.5 h window. Acute ischaemic stroke."])
    assert not _on(got, "4.5"), got


# ---------------------------------------------------------------- round 39: a one-word alias the statement denies
@pytest.mark.parametrize(
    "case, reply, word",
    [
        # card-101: "... yet the lung fields are clear with no crackles" (alias "crackles")
        ("card-101-stemi-inferior", "Fine crackles at both bases. Inferior STEMI.", "crackles"),
        # neph-101: "The urine dipstick shows trace blood, no protein ..." (alias "proteinuria")
        ("neph-101-obstructive-aki-retention", "There is proteinuria on the dip. Obstructive AKI.", "proteinuria"),
    ],
)
def test_a_one_word_alias_the_statement_denies_is_contradicted(case, reply, word):
    got = _on(_claims(case, [reply]), word)
    assert got and got[0].hallucinated, got


# ---------------------------------------------------------------- round 40: monitoring is not a check of the item
@pytest.mark.parametrize(
    "text",
    [
        "Statin, diet, repeat lipids 3 months.",
        "Colchicine now; repeat urate when the flare settles.",
        "Could we recheck the calcium once she has been off them for a month?",
        "Repeat the ferritin at follow-up.",
    ],
)
def test_a_scheduled_repeat_is_monitoring_not_a_conflict_cue(text):
    from medgym.judges.contradictions import _cue

    assert _cue(text) is None


@pytest.mark.parametrize(
    "text", ["Please repeat the urate today to confirm it.", "Can we recheck the calcium on a fresh sample?"]
)
def test_a_repeat_to_check_the_result_is_still_a_cue(text):
    from medgym.judges.contradictions import _cue

    assert _cue(text) is not None
