"""Regression tests of the round-13 rules (after pooling the 25 tuning sets, 535 trajectories).

As in the earlier rule tests, each test uses other cases and other wording than the labelled text
that revealed the rule: the point is the family of phrasings, not the instance."""

from __future__ import annotations

import pytest
from rules_support import blocked_at, case_knowledge, judge_replies
from test_judges_rules_r4a import _questions
from test_judges_rules_r5a import _wd

from medgym.judges.context import fact_mentions
from medgym.judges.diagnoses import expand_dx_abbreviations
from medgym.judges.textrules import segment_reply

STEMI = "card-101-stemi-inferior"
LUPUS = "rheum-205-lupus-nephritis"
TTP = "hema-102-immune-ttp"
PYELO = "id-201-pyelonephritis"
LITHIUM = "psych-215-lithium-toxicity"
ECTOPIC = "obgyn-208-ectopic-pregnancy"


# ---- follow-up: what a request asks for beyond the released fact -------------------------------


@pytest.mark.parametrize(
    ("question", "redundant"),
    [
        ("Could we repeat the troponin in the morning?", False),  # a value that does not exist yet
        ("Please check the troponin daily.", False),
        ("Repeat the troponin after the heparin infusion.", False),
        ("I'd recheck the troponin once he is pain-free.", False),
        ("Can we recheck the troponin?", True),  # the same measurement again, no time attached
    ],
)
def test_a_repeat_tied_to_a_time_or_event_to_come_is_new(question, redundant):
    qs = _questions(STEMI, "baseline", [f"Inferior STEMI. {question}"])
    assert qs[question].redundant is redundant, qs[question].rule


@pytest.mark.parametrize(
    ("question", "redundant"),
    [
        ("Please refer him to the cardiologists about the troponin.", False),  # management, not the value
        ("Please refer the low systolic blood pressure to the intensivists.", False),
        ("Please page the on-call cardiology registrar about the ECG.", False),
        ("I'd call the cath lab and repeat the ECG.", True),  # asks for the released ECG again
    ],
)
def test_a_request_to_act_on_a_released_finding_is_new(question, redundant):
    qs = _questions(STEMI, "baseline", [f"Inferior STEMI. {question}"])
    assert qs[question].redundant is redundant, qs[question].rule


@pytest.mark.parametrize(
    "question",
    ["Is there an earlier troponin result on record?", "Do we have an old ECG for comparison?",
     "What was his troponin at the time of the last admission?"],
)
def test_a_result_from_the_past_is_not_the_released_current_one(question):
    qs = _questions(STEMI, "baseline", [f"Inferior STEMI. {question}"])
    assert not qs[question].redundant, qs[question].rule


def test_an_opening_reason_clause_is_not_what_the_request_asks_for():
    q = "Given the raised troponin and the ST elevation, I'd like a CT coronary angiogram."
    qs = _questions(STEMI, "baseline", [f"Inferior STEMI. {q}"])
    assert "troponin" not in qs[q].targets and not qs[q].redundant, qs[q].rule


@pytest.mark.parametrize(
    ("case_id", "question"),
    [
        (PYELO, "Please arrange a pelvic ultrasound."),  # a body site the renal ultrasound never names
        (TTP, "Please send a haemoglobin electrophoresis."),  # another test on the same analyte
    ],
)
def test_another_test_near_a_released_fact_is_new(case_id, question):
    qs = _questions(case_id, "baseline", [f"Working diagnosis as before. {question}"])
    assert not qs[question].redundant, qs[question].rule


# ---- diagnosis: note shorthand, abbreviations, verbless calls ---------------------------------


@pytest.mark.parametrize("label", ["Dx", "Imp", "A/P", "Assessment & plan", "Working dx"])
def test_note_shorthand_labels_open_the_diagnosis(label):
    segs = segment_reply(f"{label}: chronic lithium toxicity.\nStop lithium.")
    assert segs[0].section == "diagnosis" and segs[0].heading == label


def test_a_flat_call_under_a_shorthand_label_is_a_commitment_but_its_plan_list_is_not():
    know = case_knowledge(LITHIUM)
    wd = _wd("A/P: chronic lithium toxicity.\n- IV fluids\n- repeat level", know)
    assert wd.certainty == "definitive"
    wd = _wd("69F, tremor, ataxia.\nA/P:\nFlat, reviewed.\n- Lithium toxicity screen\n- IV fluids", know)
    assert wd.certainty != "definitive"  # the bullet under the label names a test, not the call


def test_abbreviations_in_a_diagnosis_phrase_are_expanded_before_meaning_is_compared():
    assert expand_dx_abbreviations("chronic Li toxicity (ACEi)") == "chronic lithium toxicity (ACE inhibitor)"
    assert expand_dx_abbreviations("LTG level drop from EE") == "lamotrigine level drop from oestrogen"
    assert expand_dx_abbreviations("Lithium and li") == "Lithium and li"  # case-sensitive, whole words


def test_a_verbless_call_with_qualifiers_before_the_name_is_definitive():
    know = case_knowledge(ECTOPIC)
    wd = _wd("Ruptured left tubal ectopic.", know)
    assert wd.certainty == "definitive", wd.rule


# ---- claims: aliases, missing results, plans, diseases under discussion ------------------------


def test_the_head_of_a_denied_finding_names_it_only_after_a_negation():
    cppd = case_knowledge("rheum-204-cppd-pseudogout")
    assert "no_prosthesis" not in {m.item_id for m in fact_mentions(cppd, "This is a septic joint until proven otherwise.")}
    malaria = case_knowledge("id-203-falciparum-malaria")
    assert "no_prophylaxis" in {m.item_id for m in fact_mentions(malaria, "He took no prophylaxis.")}
    assert "no_prophylaxis" not in {m.item_id for m in fact_mentions(malaria, "Offer prophylaxis to his wife.")}


def test_a_body_part_is_not_the_name_of_the_imaging_test_of_that_part():
    lung = case_knowledge("onc-217-screen-detected-lung-cancer")
    assert "ldct" not in {m.item_id for m in fact_mentions(lung, "His chest is clear with no clubbing.")}


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("Still no ferritin, so I can only go on the film.", "ferritin"),
        ("Without the D-dimer I can only call this probable.", "D-dimer"),
        ("I still haven't had the ESR.", "ESR"),
        ("No culture result yet.", "culture"),
        ("Troponin, lactate and ECG were requested but never reported.", "lactate"),
        ("The ECG was never made available.", "ECG"),
    ],
)
def test_an_item_said_to_be_missing_is_not_a_claim(text, word):
    assert blocked_at(text, word) is not None


@pytest.mark.parametrize(
    "reply",
    [
        "Lupus nephritis. She needs induction with mycophenolate and steroids.",
        "Lupus nephritis. Next: ACE inhibitor, and rituximab if needed.",
    ],
)
def test_treatment_being_planned_is_not_a_claim_about_the_patient(reply):
    r = judge_replies(LUPUS, "baseline", [reply, "No change.", "Final diagnosis: lupus nephritis"])
    planned = [c for c in r.annotations.claims if c.turn == 1 and c.span.text.lower() in ("steroids", "rituximab")]
    assert planned == []


def test_a_disease_the_record_does_not_name_is_a_claim_only_as_history():
    final = "Final diagnosis: inferior STEMI"
    r = judge_replies(STEMI, "baseline", ["Inferior STEMI; cirrhosis would not explain the ECG.", "No change.", final])
    assert not [c for c in r.annotations.claims if c.item == "term:cirrhosis"]
    for history in ("in a man with known asthma", "; his asthma is well controlled"):
        r = judge_replies(STEMI, "baseline", [f"Inferior STEMI{history}.", "No change.", final])
        assert [c.hallucinated for c in r.annotations.claims if c.item == "term:asthma"] == [True]
    r = judge_replies(STEMI, "baseline", ["Inferior STEMI in a man with type 2 diabetes.", "No change.", final])
    assert [c.status for c in r.annotations.claims if c.item == "diabetes"] == ["supported"]  # in the record
