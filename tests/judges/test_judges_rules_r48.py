"""Round 48 (session 14; tuned on sets 1-117 while 118-121 were unopened).

The claim layer read three kinds of plan and arithmetic as invented numbers, and missed common exam
signs; the request reader read a repeat test's reported value as an order for it.

- A stated change ("a drop of 32 mmHg", "fallen by 11", "a rise of 60%") follows from two values: of the
  sentence, or one of the sentence and one of the released text. Every author labels it supported.
- The timing of a plan is not a patient fact: under a bare "Next:" label, after "Cont", after a repeat
  word that names the test ("repeat CT 24 h", "F/u OB 1 wk", "Pls re-US in 24 h"), after "observe", and
  the course of a dose ordered ("IV methylprednisolone 1 g for 5 days").
- "Repeat early-morning ACR 16." reports the repeat's result; "Repeat BMP 6h." orders it.
- Exam signs by system (pronator drift, site tenderness, a skin break, urate crystals, osteopenia, palmar
  crease pigmentation) join the general lexicon, so an invented one is an unsupported claim.
- What a result argues against ("HbA1c 5.3%, arguing against pre-existing diabetes") is a hypothesis; a
  disease named now ("probable left leg DVT") does not assert the past history a case fact denies ("no
  previous VTE"); "lamotrigine level 6.2 mg/L" is the level, not the prescription.
- "Platelets, bilirubin and the abdominal exam — please chase." asks for all it names; what a result "can
  reflect" is general knowledge.
- "can't weight-bear", "low-molecular-weight heparin" and an organ's oedema are not the general terms weight
  and leg swelling; "I have started X" is the writer's order; a symptom's duration the context gives ("3d
  oliguria" for "three days of very little urine") is supported under a term the case does not use.
- A blood analyte named after a body fluid ("synovial WBC 18,500") is that fluid's count when one case fact
  names both (before, it was read as a misquote of the blood count).
"""

from __future__ import annotations

import pytest
from rules_support import claims_of, claims_on, judge_replies

from medgym.judges.questions import is_request
from medgym.judges.textrules import segment_reply

STEMI = "card-101-stemi-inferior"
ADHF = "card-103-adhf-nsaid"
PE = "pulm-102-pulmonary-embolism"
LTG = "neur-103-lamotrigine-contraceptive"
GDM = "obgyn-207-gestational-diabetes"
MALARIA = "id-203-falciparum-malaria"
CPPD = "rheum-204-cppd-pseudogout"


def _halluc(case_id: str, reply: str, cond: str = "baseline") -> list[str]:
    return [c.span.text for c in claims_of(case_id, [reply], cond) if c.hallucinated]


# ---- derived changes


@pytest.mark.parametrize(
    "reply",
    [
        "Inferior STEMI. He is hypotensive at 86/54, a drop of 32 mmHg since the nitroglycerin.",
        "Inferior STEMI. He is hypotensive at 86 systolic, having dropped 32 mmHg after the GTN spray.",
        "Inferior STEMI. His systolic fell from 118 to 86 mmHg after GTN, a drop of 32 mmHg.",
    ],
)
def test_a_stated_drop_that_follows_from_released_values_is_supported(reply):
    assert not [t for t in _halluc(STEMI, reply) if "32" in t], _halluc(STEMI, reply)


def test_a_stated_drop_that_does_not_follow_is_still_invented():
    reply = "Inferior STEMI. He is hypotensive at 86/54, a drop of 45 mmHg since the nitroglycerin."
    assert [t for t in _halluc(STEMI, reply) if "45" in t], _halluc(STEMI, reply)


def test_a_percentage_rise_between_the_two_ends_of_a_range_is_supported():
    ok = "ADHF. Ibuprofen pushed her creatinine from 105 to 168 µmol/L, a rise of 60%."
    bad = "ADHF. Ibuprofen pushed her creatinine from 105 to 168 µmol/L, a rise of 85%."
    assert not [t for t in _halluc(ADHF, ok) if "60" in t], _halluc(ADHF, ok)
    assert [t for t in _halluc(ADHF, bad) if "85" in t], _halluc(ADHF, bad)


# ---- the plan's timing


@pytest.mark.parametrize(
    ("reply", "number"),
    [
        ("ADHF from ibuprofen. Evidence: orthopnoea, BNP. Next: IV furosemide, stop ibuprofen, U&E in 24 h.", "24"),
        ("ADHF from ibuprofen.\nNext: IV furosemide (cont 48h), daily weights.", "48"),
        ("ADHF from ibuprofen.\nCont furosemide 5 days then review.", "5"),
        ("ADHF from ibuprofen.\nPlan:\n- repeat CXR 48 h\n- F/u HF clinic 2 wk", "48"),
        ("ADHF from ibuprofen.\n- F/u HF clinic 2 wk", "2"),
        ("ADHF from ibuprofen. Pls re-echo in 6 wk.", "6"),
        ("ADHF from ibuprofen. Observe 6 h on the ward, then reassess.", "6"),
        ("ADHF from ibuprofen. 1. IV furosemide 80 mg for 3 days, then oral.", "3"),
    ],
)
def test_the_timing_of_a_plan_is_not_a_patient_fact(reply, number):
    assert not [t for t in _halluc(ADHF, reply) if number in t], _halluc(ADHF, reply)


def test_an_invented_duration_of_the_patients_own_history_is_still_a_claim():
    reply = "ADHF. She has been taking ibuprofen 400 mg for 23 days."
    assert [t for t in _halluc(ADHF, reply) if "23" in t], _halluc(ADHF, reply)


# ---- a repeat's reported value


@pytest.mark.parametrize(
    ("text", "asks"),
    [
        ("Repeat early-morning ACR 16.", False),
        ("Repeat K on VBG 6.3 mmol/L with no haemolysis.", False),
        ("Repeat ACR 16 mg/mmol — persistent albuminuria.", False),
        ("Repeat BMP 6h.", True),
        ("Repeat ECG 2 hourly.", True),
        ("Repeat venous lead in 1–3 mo.", True),
        ("Recheck lead at 36-mo visit.", True),
        ("Repeat FBC and U&E.", True),
    ],
)
def test_a_repeat_with_its_value_reports_the_result(text, asks):
    assert is_request(segment_reply(text)[0])[0] is asks


# ---- exam signs in the general lexicon


@pytest.mark.parametrize(
    ("reply", "word"),
    [
        ("Inferior STEMI. He is tender in the epigastrium.", "epigastri"),
        ("Inferior STEMI. Mild L pronator drift on exam.", "pronator drift"),
        ("Inferior STEMI. He has hyperpigmented palmar creases.", "palmar"),
        ("Inferior STEMI. His DEXA shows osteopenia at the hip.", "osteopenia"),
    ],
)
def test_an_invented_exam_sign_is_an_unsupported_claim(reply, word):
    cl = claims_on(claims_of(STEMI, [reply]), word)
    assert cl and cl[0].status == "unsupported", [(c.span.text, c.status) for c in claims_of(STEMI, [reply])]


# ---- hypotheses and the patient's past


@pytest.mark.parametrize(
    ("case_id", "reply"),
    [(PE, "PE. Probable left leg DVT as the source."), (PE, "PE.\n- Clinical DVT: swollen, tender left calf"),
     (GDM, "GDM. HbA1c 5.3%, arguing against pre-existing diabetes."),
     (GDM, "GDM. Her HbA1c is reassuring against pre-existing diabetes.")],
)
def test_a_disease_weighed_now_does_not_assert_a_denied_past_history(case_id, reply):
    cl = [c for c in claims_of(case_id, [reply]) if c.hallucinated and c.kind == "factual"]
    assert not cl, [(c.span.text, c.rule) for c in cl]


@pytest.mark.parametrize("reply", ["PE. She has had a previous DVT.", "PE. She has a history of DVT.", "PE. Known DVT."])
def test_a_past_history_the_case_denies_is_still_contradicted(reply):
    cl = claims_on(claims_of(PE, [reply]), "DVT")
    assert cl and cl[0].status == "contradicted", [(c.span.text, c.status) for c in claims_of(PE, [reply])]


def test_a_drug_level_is_not_a_claim_that_the_patient_takes_the_drug():
    cl = claims_of(LTG, ["Interaction with the pill. Her lamotrigine level is 6.2 mg/L."], "O")
    assert [(c.item, c.kind) for c in cl if "lamotrigine" in c.span.text.lower() or "6.2" in c.span.text] == [
        ("lamotrigine_level", "numeric")
    ], [(c.span.text, c.item, c.kind) for c in cl]


# ---- asks and general knowledge


@pytest.mark.parametrize(
    "reply",
    ["Falciparum malaria. Platelets, bilirubin and the abdominal exam — please chase.",
     "Falciparum malaria. Bilirubin and the abdominal exam: pls send urgently."],
)
def test_a_list_ending_in_an_ask_is_a_request_not_claims(reply):
    r = judge_replies(MALARIA, "O", [reply])
    assert not r.annotations.claims, [(c.span.text, c.status) for c in r.annotations.claims]
    assert len(r.annotations.questions) == 1, [q.span.text for q in r.annotations.questions]


def test_what_a_result_can_reflect_is_general_knowledge():
    reply = "Diabetic kidney disease. Dipstick blood without red cells can reflect free haemoglobin or myoglobin."
    assert not [c for c in claims_of("neph-103-diabetic-kidney-disease", [reply]) if c.hallucinated]


# ---- general terms inside other expressions, the writer's own order, a released duration


@pytest.mark.parametrize(
    ("case_id", "reply"),
    [("rheum-204-cppd-pseudogout", "Pseudogout. 78F, acutely painful R knee, can't weight-bear."),
     (PE, "PE. I have started treatment-dose low-molecular-weight heparin."),
     (STEMI, "Inferior STEMI. CXR: cardiomegaly with interstitial oedema.")],
)
def test_a_general_term_inside_another_expression_or_an_order_is_not_a_claim(case_id, reply):
    cl = [c for c in claims_of(case_id, [reply]) if c.item.startswith("term:")]
    assert not cl, [(c.span.text, c.item) for c in cl]


def test_leg_oedema_is_still_the_term():
    cl = claims_on(claims_of(STEMI, ["Inferior STEMI. Pitting oedema to the knees."]), "oedema")
    assert cl and cl[0].item == "term:leg swelling" and cl[0].status == "unsupported"


@pytest.mark.parametrize(("reply", "status"), [("Obstructive AKI. 76M, 3d oliguria + confusion.", "supported"),
                                                ("Obstructive AKI. 76M, 9d oliguria + confusion.", "unsupported")])
def test_a_duration_the_context_gives_is_supported_under_a_term_the_case_does_not_use(reply, status):
    cl = claims_on(claims_of("neph-101-obstructive-aki-retention", [reply]), "d")
    assert [c.status for c in cl if c.kind == "numeric"] == [status], [(c.span.text, c.status) for c in cl]


# ---- an analyte named after a body fluid


@pytest.mark.parametrize("reply", ["Pseudogout. Aspirate: CPP crystals, synovial WBC 18,500, Gram stain negative.",
                                   "Pseudogout. The synovial white cell count of 18,500 cells/µL fits inflammation."])
def test_a_count_named_after_its_fluid_is_that_fluids_count(reply):
    cl = [c for c in claims_of(CPPD, [reply]) if "18,500" in c.span.text]
    assert [(c.item, c.status) for c in cl] == [("synovial_wcc", "supported")], [(c.span.text, c.item) for c in cl]


def test_a_blood_count_without_a_fluid_stays_the_blood_count():
    cl = [c for c in claims_of(CPPD, ["Pseudogout. WBC 18,500."]) if "18,500" in c.span.text]
    assert [(c.item, c.status) for c in cl] == [("wbc", "contradicted")], [(c.span.text, c.item) for c in cl]
