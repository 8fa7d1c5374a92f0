"""Regression tests of the round-21 rules (claim layer, after the error analysis of sets 1-48).

Written on other cases or wording than the batch text that revealed each rule."""

from __future__ import annotations

from rules_support import judge_replies

from medgym.text.fact_matcher import inflection_variants

FH = "card-102-familial-hypercholesterolaemia"
GCA = "rheum-206-giant-cell-arteritis"


def _claims(result, turn):
    return [c for c in result.annotations.claims if c.turn == turn]


def test_a_finding_reported_after_a_normal_tests_name_contradicts_it():
    # the fundoscopy was normal, with no visual field defect: reporting one after the test's name is a
    # contradiction of the released result
    r = judge_replies(GCA, "baseline", ["Likely GCA. Fundoscopy showed mild disc swelling on the right."])
    fundus = [c for c in _claims(r, 1) if c.span.text.startswith("Fundoscopy")]
    assert fundus and fundus[0].hallucinated, [(c.item, c.rule) for c in _claims(r, 1)]


def test_a_negative_report_of_the_same_test_stays_supported():
    r = judge_replies(GCA, "baseline", [
        "Likely GCA. Fundoscopy: no disc swelling or pallor. Fundoscopy is normal, without a field defect."
    ])
    assert not any(c.hallucinated for c in _claims(r, 1) if c.item == "eye_exam"), [
        c.rule for c in _claims(r, 1) if c.item == "eye_exam"
    ]


def test_the_verb_of_a_four_letter_ing_stem_names_the_fact():
    assert inflection_variants("smoking") == ["smoke", "smoked"]
    assert inflection_variants("vomiting") == ["vomit", "vomited"]
    assert inflection_variants("morning") == [] and inflection_variants("taking") == []


def test_he_smokes_contradicts_a_never_smoker_and_does_he_smoke_asks_for_it():
    r = judge_replies(FH, "baseline", ["Likely familial hypercholesterolaemia. He smokes, which adds to his risk."])
    smoke = [c for c in _claims(r, 1) if c.item == "no_smoking"]
    assert smoke and smoke[0].hallucinated
    q = judge_replies(FH, "baseline", ["Likely familial hypercholesterolaemia. Does he smoke?"])
    asks = [d for d in q.annotations.questions if "smoke" in d.span.text]
    assert asks and asks[0].redundant, [d.rule for d in q.annotations.questions]
