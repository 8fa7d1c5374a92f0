"""Regression tests of the round-20 rules (requests, relevance and diagnosis reading, after scoring the
blind set 45-48). Written on other cases or wording than the batch text that revealed each rule."""

from __future__ import annotations

import pytest
from rules_support import judge_replies

from medgym.judges.questions import is_request
from medgym.judges.textrules import Segment, segment_reply


def _seg(text: str) -> Segment:
    return segment_reply(text)[0]


def _question(result, words: str):
    return next((q for q in result.annotations.questions if words.lower() in q.span.text.lower()), None)


@pytest.mark.parametrize("heading", ["**Would like:**", "Would like:", "Pls:", "Please:"])
def test_a_subjectless_request_heading_opens_a_request_list(heading):
    reply = f"Likely pulmonary embolism.\n{heading}\n- CT pulmonary angiogram\n- D-dimer\n\nStart apixaban."
    sections = {s.text: s.section for s in segment_reply(reply)}
    assert sections.get("CT pulmonary angiogram") == "questions" and sections.get("D-dimer") == "questions"
    assert heading.strip("*") not in sections  # the heading itself asks for nothing


@pytest.mark.parametrize(
    "text",
    ["Urine hCG pls.", "Ferritin and B12 plz.", "I would also still like the chest X-ray report.",
     "She needs an urgent bedside echocardiogram.", "He needs a formal CT head before any anticoagulation."],
)
def test_terse_and_doubly_adverbed_asks_are_requests(text):
    assert is_request(_seg(text))[0]


@pytest.mark.parametrize(
    "text",
    ["Please start IV hydrocortisone 100 mg now.", "Please commence a fixed-rate insulin infusion.",
     "He needs IV fluids and a catheter.", "Repeat troponin is 12 ng/L, unchanged.",
     "Repeat potassium was normal at 4.6."],
)
def test_treatment_orders_and_repeat_results_are_not_requests(text):
    assert not is_request(_seg(text))[0]


def test_please_give_me_a_result_is_still_a_request():
    assert is_request(_seg("Please give me the ferritin result."))[0]


def test_a_bare_list_item_that_is_a_sentence_is_not_an_order():
    r = judge_replies("pulm-102-pulmonary-embolism", "O", [
        "Assessment:\n- Likely pulmonary embolism\n- Pneumonia should be excluded\n- D-dimer\n"
    ])
    assert _question(r, "Pneumonia should be excluded") is None
    assert _question(r, "D-dimer") is not None


@pytest.mark.parametrize("ask", ["Occupation?", "Does she live alone?", "What did he do for a living?"])
def test_social_circumstances_are_not_pertinent(ask):
    r = judge_replies("card-103-adhf-nsaid", "baseline", [f"Likely decompensated heart failure. {ask}"])
    q = _question(r, ask.rstrip("?"))
    assert q is not None and q.relevant is False, q.rule if q else None


def test_driving_is_pertinent_only_where_fitness_to_drive_is_in_play():
    seizure = judge_replies("neur-103-lamotrigine-contraceptive", "baseline", ["Breakthrough seizure. Is she still driving?"])
    heart = judge_replies("card-103-adhf-nsaid", "baseline", ["Heart failure. Is she still driving?"])
    assert _question(seizure, "driving").relevant is True
    assert _question(heart, "driving").relevant is False


def test_a_dental_procedure_is_not_preventive_care_but_a_dental_check_up_is():
    r = judge_replies("rheum-204-cppd-pseudogout", "baseline", [
        "Crystal arthritis. Any problems after her recent dental extraction? When was her last dental check-up?"
    ])
    assert _question(r, "dental extraction").relevant is True
    assert _question(r, "check-up").relevant is False


def test_a_family_history_of_the_case_disease_named_by_its_head_word_is_pertinent():
    r = judge_replies("gast-102-gallstone-pancreatitis", "baseline", ["Pancreatitis. Any family history of pancreatitis?"])
    assert _question(r, "family history").relevant is True


def test_an_eponym_alone_names_the_eponymous_diagnosis():
    r = judge_replies("neur-101-ischaemic-stroke-m1", "D", [
        "A/P: Todd's paresis after a seizure.", "CTA: R M1 occlusion. Still favour Todd's; the occlusion may be old."
    ])
    wd = {w.turn: w for w in r.annotations.working_diagnoses}
    assert wd[2].leading == "post-ictal Todd's paresis", wd[2].rule


def test_a_consequence_of_a_case_diagnosis_named_with_its_cause_keeps_the_case_diagnosis():
    r = judge_replies("onc-218-ici-hypophysitis", "O", [
        "Dx: ICI hypophysitis.", "The low cortisol confirms central adrenal insufficiency secondary to hypophysitis."
    ])
    wd = {w.turn: w for w in r.annotations.working_diagnoses}
    assert wd[2].leading == "immune checkpoint inhibitor-induced hypophysitis", wd[2].rule
