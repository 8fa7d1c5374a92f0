"""Regression tests of the round-14 rules (after the batch 25-28 error analysis).

Other cases and other wording than the batch text that revealed each rule, as in the earlier rule
tests. Diagnosis tests that need the meaning of a paraphrase run the MiniLM matcher (semantic=True)."""

from __future__ import annotations

import pytest
from rules_support import blocked_at, case_knowledge, judge_replies
from test_judges_rules_r4a import _questions

from medgym.judges.diagnoses import reply_diagnoses
from medgym.judges.questions import is_request
from medgym.judges.textrules import segment_reply

PANC = "gast-102-gallstone-pancreatitis"
NMDAR = "psych-216-anti-nmdar-encephalitis"
AKI = "neph-101-obstructive-aki-retention"
STONES = "uro-220-hyperparathyroid-stones"
PE = "pulm-102-pulmonary-embolism"
STEMI = "card-101-stemi-inferior"


def _lead(case_id: str, reply: str, turn: int = 1):
    know = case_knowledge(case_id)
    return reply_diagnoses(reply, segment_reply(reply), know, turn, semantic=True)


# ---- diagnosis: names in the agent's own words -------------------------------------------------


@pytest.mark.parametrize(
    "reply",
    [
        "Epigastric pain into the back with a lipase of 2840. This looks like pancreatitis from a stone in the duct.",
        "My impression is gallstone-related pancreatitis. Could we get an ultrasound?",
        "Lipase 2840 and a dilated duct. My diagnosis remains biliary pancreatitis.",
        "I still think biliary pancreatitis; the alcohol history is light.",
    ],
)
def test_a_paraphrased_name_after_a_diagnosis_cue_is_matched_by_meaning(reply):
    wd = _lead(PANC, reply)
    assert wd.leading == "acute gallstone pancreatitis", wd.rule


def test_a_bare_restatement_names_the_diagnosis_but_no_change_to_the_diagnosis_does_not():
    assert _lead(AKI, "Still prerenal. Can we get a urine sodium?", 2).leading == "prerenal acute kidney injury"
    wd = _lead(AKI, "No change to the diagnosis. Please repeat the U&E.", 2)
    assert all(m.role != "other" for m in wd.mentions), wd.rule


def test_the_first_line_under_a_label_alone_on_its_line_is_the_call_but_prose_is_not_an_other_name():
    wd = _lead(PANC, "## Assessment\n**Gallstone-related acute pancreatitis.**\n\n- Lipase 2840 U/L")
    assert wd.leading == "acute gallstone pancreatitis", wd.rule
    wd = _lead(PANC, "## Assessment\nThe raised lipase needs interpreting against the timing of her meal.\n")
    assert all(m.role != "other" for m in wd.mentions), wd.rule


def test_an_explicit_working_diagnosis_outranks_a_flat_name_the_case_does_not_hold():
    reply = ("The CT shows oedematous pancreatic necrosis in the head. "
             "My working diagnosis is acute gallstone pancreatitis.")
    wd = _lead(PANC, reply)
    assert wd.leading == "acute gallstone pancreatitis", wd.rule


def test_what_pushes_the_reasoning_towards_a_diagnosis_ranks_it():
    reply = "This is acute epigastric pain with vomiting. The lipase and the stones push me to gallstone pancreatitis."
    assert _lead(PANC, reply).leading == "acute gallstone pancreatitis"


def test_a_result_said_to_fit_perfectly_keeps_the_diagnosis_held():
    r = judge_replies(PANC, "baseline", [
        "Acute gallstone pancreatitis.", "The ultrasound fits perfectly — stones and a dilated duct.",
        "Final diagnosis: acute gallstone pancreatitis",
    ])
    wd = {w.turn: w for w in r.annotations.working_diagnoses}
    assert wd[2].leading == "acute gallstone pancreatitis", wd[2].rule


# ---- follow-up: list lead-ins, terse orders, family history, more redundancy ---------------------


def test_a_bold_lead_in_with_its_colon_inside_the_bold_opens_a_request_list():
    segs = segment_reply("Likely pancreatitis.\n\n**We need:**\n- Lipase\n- Abdominal ultrasound\n")
    assert [s.text for s in segs if s.section == "questions"] == ["Lipase", "Abdominal ultrasound"]


@pytest.mark.parametrize(
    ("text", "asks"),
    [
        ("Probably NMS — needs a CK.", True),
        ("Anti-NMDAR more likely — send serum and CSF antibodies.", True),
        ("Would recheck the lipase before discharge.", True),
        ("I would clarify the alcohol history with her husband.", True),
        ("Need MRI pelvis today.", True),
        ("She'll need an ultrasound of the gallbladder too.", True),
        ("Histology pending — pls expedite.", True),
        ("I'd add colchicine.", False),  # a drug, not a test
        ("He needs IV fluids.", False),
    ],
)
def test_terse_orders_for_tests_are_requests(text, asks):
    seg = segment_reply(text)[-1]
    assert is_request(seg)[0] is asks, is_request(seg)


@pytest.mark.parametrize(
    ("question", "redundant"),
    [
        ("Is there any family history of kidney stones?", True),  # the released family fact speaks of stones
        ("Is there any family history of osteoporosis?", False),  # it says nothing of osteoporosis
    ],
)
def test_a_family_history_question_targets_the_family_fact_only_for_the_condition_it_names(question, redundant):
    qs = _questions(STONES, "baseline", [f"Primary hyperparathyroidism. {question}"])
    assert qs[question].redundant is redundant, qs[question].rule


def test_a_family_history_question_is_not_the_patients_own_history():
    q = "Is there a family history of venous thromboembolism?"
    r = judge_replies(PE, "baseline", [f"Acute PE. {q}", "No change.", "Final diagnosis: pulmonary embolism"])
    dec = next(d for d in r.annotations.questions if d.span.text == q)
    assert "no_prior_vte" not in dec.targets and not dec.redundant, dec.rule


@pytest.mark.parametrize(
    "question",
    ["Could we check the lipase again at the next visit?", "Please send a fasting triglyceride level.",
     "Could we add a CT with DLCO-style lung volumes? No — just the lipase and a gas transfer test."],
)
def test_timed_fasting_and_other_tests_are_new(question):
    case = PANC if "DLCO" not in question else "pulm-103-alpha1-antitrypsin-deficiency"
    qs = _questions(case, "baseline", [f"Working diagnosis as before. {question}"])
    decs = [d for t, d in qs.items() if t in question]
    assert decs and not any(d.redundant for d in decs), [d.rule for d in decs]


# ---- claims: plans, treatments named after a finding, other tests on a specimen ---------------


def test_drugs_in_a_plan_line_are_not_claims():
    r = judge_replies(STEMI, "baseline", ["Inferior STEMI.\nNext: PCI, DAPT, heparin, no nitrates.", "No change.",
                                          "Final diagnosis: inferior STEMI"])
    assert not [c for c in r.annotations.claims if c.span.text.lower() == "heparin"]


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("This is TTP: urgent plasma exchange and no platelet transfusion.", "platelet"),
        ("Without the abdominal examination and a look at the nappy I can't be certain.", "abdominal examination"),
    ],
)
def test_a_treatment_named_after_a_finding_and_a_long_missing_list_are_not_claims(text, word):
    from medgym.judges.claims import _TREATMENT_AFTER

    s = text.index(word)
    assert blocked_at(text, word) is not None or _TREATMENT_AFTER.match(text[s + len(word):])


def test_another_test_on_a_specimen_is_not_the_specimens_cell_count():
    r = judge_replies(NMDAR, "baseline", ["CSF GluN1 antibodies positive: anti-NMDA receptor encephalitis.",
                                          "No change.", "No change.", "Final diagnosis: anti-NMDA receptor encephalitis"])
    assert not [c for c in r.annotations.claims if c.item == "csf" and c.turn == 1]


# ---- round 15 (claims only; after the batch 29-32 error analysis) ------------------------------


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("Calcium gluconate 10%, 10 mL IV over 5 minutes now.", "10%"),
        ("Calcium gluconate 10%, 10 mL IV over 5 minutes now.", "10 mL"),
        ("Calcium gluconate 10%, 10 mL IV over 5 minutes now.", "5 minutes"),
        ("A/P: CIDP. IVIG 0.4 g/kg/d x5d.", "0.4"),
        ("Insulin 10 units with 50 mL of 50% glucose.", "10 units"),
        ("Repeat the hCG q48h.", "48h"),
    ],
)
def test_doses_and_dosing_intervals_in_an_order_are_not_claims(text, word):
    assert blocked_at(text, word, numeric=True) is not None


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("Colicky episodes q15min with pallor between.", "15min"),  # a frequency of the patient's episodes
        ("Urine PCR 320 mg/mmol despite the infusion.", "320"),  # a ratio unit is not a dose
    ],
)
def test_patient_values_beside_treatment_words_stay_claims(text, word):
    assert blocked_at(text, word, numeric=True) is None


def test_a_culture_that_grew_nothing_and_a_test_written_neg_are_not_invented_results():
    r = judge_replies("neph-103-diabetic-kidney-disease", "baseline", [
        "Diabetic kidney disease. The MSU grew nothing significant.", "No change.", "No change.",
        "Final diagnosis: diabetic kidney disease",
    ])
    assert not [c for c in r.annotations.claims if c.item == "urine_culture" and c.hallucinated]
    from medgym.judges.textrules import mention_negated

    assert mention_negated("HIV neg, ALT 24.", 0, 3)
