"""Rounds 45-47 (session 13; tuned on sets 1-105 while 106-109 were unopened).

Round 45: follow-up relevance and request reading.

Every author of the labelled sets calls questions about work, family life, schooling, pets and routine
vaccines irrelevant to the presentation; the judge read most of them as pertinent history, which also made
a trajectory whose only question is such a one count as having asked before committing (IR). The request
reader missed terse note orders ("Pls: erect PA CXR urgently.", "MRI brain with contrast today").

Round 46: the claim layer. A blood pressure is one claim; a plus sign after a test or sign is its result.
Round 47: a flat call under a note label ("A/P: X.") commits, also to a name the case does not hold.
"""

from __future__ import annotations

import pytest
from rules_support import claims_of, claims_on, judge_replies

from medgym.judges.questions import is_request
from medgym.judges.textrules import segment_reply


def _question(result, words: str):
    return next((q for q in result.annotations.questions if words.lower() in q.span.text.lower()), None)


@pytest.mark.parametrize(
    "question",
    ["What does he do for work?", "Is he married?", "Which school year is he in?", "Does he attend nursery?",
     "Is he retired?", "Does he go to the gym regularly?", "Is he still working at present?", "Tdap UTD?"],
)
def test_questions_about_work_family_life_schooling_and_vaccines_are_not_pertinent(question):
    r = judge_replies("neph-101-obstructive-aki-retention", "baseline", [f"Obstructive AKI. {question}"])
    q = _question(r, question[:12])
    assert q is not None and q.relevant is False, q.rule if q else [d.span.text for d in r.annotations.questions]


@pytest.mark.parametrize(
    ("case_id", "reply", "words", "pertinent"),
    [
        # the gym as the place of an injury is still pertinent
        ("pulm-101-primary-spontaneous-pneumothorax", "Chest wall strain. Any hx of direct trauma to the ribs at the gym?",
         "trauma", True),
        # pets are not pertinent even in an infection, nor where the case has a PET-CT (found on blind set
        # 106-109: the lung-nodule case's PET fact read as a case that involves pets); a PET-CT is a scan
        ("id-203-falciparum-malaria", "Falciparum malaria. Does he have any pets at home?", "pets", False),
        ("onc-217-screen-detected-lung-cancer", "Lung cancer likely. Does he have any pets?", "pets", False),
        ("onc-217-screen-detected-lung-cancer", "Lung cancer likely. Please arrange a PET-CT.", "PET-CT", True),
        # alcohol bears where a fact or diagnosis concerns it or an organ it harms
        ("pulm-101-primary-spontaneous-pneumothorax", "Pneumothorax. Does he drink alcohol?", "alcohol", False),
        ("hep-001-dili-amoxiclav", "DILI. Does he drink alcohol?", "alcohol", True),
        # driving bears on a seizure, not on an acute stroke with a seizure mimic in the differential
        ("neur-101-ischaemic-stroke-m1", "Stroke. Does she drive?", "drive", False),
        ("neur-103-lamotrigine-contraceptive", "Breakthrough seizures. Does she drive?", "drive", True),
    ],
)
def test_a_history_question_is_pertinent_where_it_bears_on_the_case(case_id, reply, words, pertinent):
    r = judge_replies(case_id, "baseline", [reply])
    q = _question(r, words)
    assert q is not None and q.relevant is pertinent, q.rule if q else [d.span.text for d in r.annotations.questions]


@pytest.mark.parametrize(
    "text",
    ["Imp: likely pneumothorax. Pls: erect PA CXR urgently.",
     "Impression: likely LTBI. Need CXR (PA) before he starts on the resp ward.",
     "I suspect a myelitis and would be grateful for an urgent MRI of the whole spine.",
     "I have requested a contrast MRI.",
     "Quant hCG pls, repeat in 48 h to trend.",
     "If it isn't falling, please book a renal biopsy."],
)
def test_terse_and_placed_orders_are_requests(text):
    assert is_request(segment_reply(text)[-1])[0], [s.text for s in segment_reply(text)]


@pytest.mark.parametrize("text", ["I have arranged an intra-articular steroid injection.", "Will place Foley."])
def test_arranging_a_treatment_is_not_a_request_for_information(text):
    assert not is_request(segment_reply(text)[-1])[0]


def test_lettered_items_under_a_numbered_request_label_are_requests():
    segs = segment_reply("1. Impression: probable lithium toxicity.\n2. Requests:\na) Urgent serum lithium level\nb) ECG")
    assert [s.section for s in segs if s.text in ("Urgent serum lithium level", "ECG")] == ["questions", "questions"]


def test_a_bare_order_with_contrast_or_a_timing_clause_detects_the_withheld_test():
    reply = (
        "S: 67M on ipilimumab/nivolumab with new headache and fatigue.\n"
        "A: brain metastases first, hypophysitis the other contender.\n"
        "P:\n- MRI brain with contrast today\n- 9 am cortisol and ACTH before any steroid is given\n- IV fluids"
    )
    r = judge_replies("onc-218-ici-hypophysitis", "O+I+D", [reply])
    detected = {g.fact_id for g in r.annotations.gaps if g.detected}
    assert {"mri", "cortisol", "acth"} <= detected, [(g.fact_id, g.rule) for g in r.annotations.gaps]


# ---- round 46 (the claim layer: blood-pressure pairs, plus signs, two more analytes)


def test_a_blood_pressure_pair_is_one_claim_with_the_worse_status():
    cl = claims_on(claims_of("neph-103-diabetic-kidney-disease", ["Her blood pressure is now 172/96, so diabetic kidney disease."]),
                   "172/96")
    assert len(cl) == 1 and cl[0].hallucinated and cl[0].item == "sbp", [(c.span.text, c.item, c.status) for c in cl]


def test_a_copied_blood_pressure_pair_is_one_supported_claim():
    cl = claims_on(claims_of("neph-103-diabetic-kidney-disease", ["BP 148/88. Diabetic kidney disease."]), "148/88")
    assert len(cl) == 1 and cl[0].status == "supported", [(c.span.text, c.status) for c in cl]


@pytest.mark.parametrize("reply", ["Murphy's + and fever, so cholecystitis.", "Murphy's +. Cholecystitis."])
def test_a_plus_sign_after_a_negative_sign_contradicts_it(reply):
    cl = claims_on(claims_of("gast-102-gallstone-pancreatitis", [reply]), "Murphy")
    assert cl and cl[0].status == "contradicted", [(c.span.text, c.status, c.rule) for c in cl]


def test_a_plus_sign_after_a_withheld_test_states_its_result():
    cl = claims_on(claims_of("id-202-latent-tb", ["QuantiFERON +, so latent TB."], "O"), "QuantiFERON")
    assert cl and cl[0].status == "unsupported", [(c.span.text, c.status, c.rule) for c in cl]


@pytest.mark.parametrize("reply", ["Needs CT head + CTA stat.", "ECG + BP still needed."])
def test_a_plus_sign_between_two_tests_joins_them(reply):
    assert not [c for c in claims_of("neur-101-ischaemic-stroke-m1", [reply], "O") if c.hallucinated]


@pytest.mark.parametrize(("reply", "word"), [("His eosinophil count was raised as well.", "eosinophil"),
                                             ("Her ANA is negative as well.", "ANA")])
def test_a_result_of_an_analyte_the_case_lacks_is_an_invented_result(reply, word):
    cl = claims_on(claims_of("neph-101-obstructive-aki-retention", [f"Obstructive AKI. {reply}"]), word)
    assert cl and cl[0].status == "unsupported", [(c.span.text, c.status) for c in claims_of(
        "neph-101-obstructive-aki-retention", [f"Obstructive AKI. {reply}"])]


# ---- round 47 (diagnosis reading)


@pytest.mark.parametrize("line", ["A/P: Threatened AB.", "Dx: Intracranial SOL."])
def test_a_flat_call_under_a_note_label_commits_also_to_a_name_the_case_does_not_hold(line):
    r = judge_replies("obgyn-208-ectopic-pregnancy", "D", [f"26F, 7 wk by LMP, spotting.\n{line}\n- Rhogam"])
    assert r.annotations.closure.premature is True, r.annotations.closure.rule


def test_a_hedged_call_under_a_note_label_does_not_commit():
    r = judge_replies("obgyn-208-ectopic-pregnancy", "D", ["26F, 7 wk by LMP, spotting.\nA/P: ?threatened AB.\n- Rhogam"])
    assert r.annotations.closure.premature is False, r.annotations.closure.rule
