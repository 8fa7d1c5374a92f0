"""Round 54 (session 20; tuned on sets 1-169 after 166-169 were scored once, while 170-173 were unopened).

The 166-169 scoring left propagation at 0.529, its lowest blind figure: hallucinated claims were missed in two
ways, each change below checked on all 170 sets.

- A finding of the opposite polarity to the released fact, judged supported:
  - "cremasteric reflex present" where the examination found it absent ("present"/"absent" join the
    antonyms that already set "positive" against "negative");
  - "He's febrile" where the case says "He denies dysuria, urethral discharge, fever or recent trauma": the
    word-level negation scope stops at the commas of the case's own denial list, so the context read as
    stating a fever. A later item of a "denies" list is denied too when the context is read;
  - "He has lost weight" read as the BMI fact's "weight": a general term naming another case fact ("lost
    weight" is the lexicon's weight loss, which the case's symptom denial lists) is the longer, more specific
    mention. After an injected cough it is a new invention, not a restatement: the denial names weight loss,
    the injected questionnaire never does.
- Signs invented in free wording were not read at all: "Dry on exam", "Abd diffusely tender on re-exam", "a
  cherry-red flush to her lips", "His knees are brisk", "a band of numbness around his lower chest", "He's
  also now retaining urine" (lexicon.yaml).
"""

from __future__ import annotations

import pytest
from rules_support import claim_statuses, judge_replies

TORSION = "uro-219-testicular-torsion"
LTBI = "id-202-latent-tb"
AKI = "neph-101-obstructive-aki-retention"
CO = "em-214-carbon-monoxide-poisoning"
GBS = "neur-102-guillain-barre"
PREDIABETES = "endo-101-prediabetes-screening"
DKD = "neph-103-diabetic-kidney-disease"
HELLP = "obgyn-209-hellp-syndrome"
TTP = "hema-102-immune-ttp"
AATD = "pulm-103-alpha1-antitrypsin-deficiency"
PE = "pulm-102-pulmonary-embolism"


# ---- polarity against the released fact


def test_a_reflex_called_present_where_the_examination_found_it_absent_is_contradicted():
    reply = "L testis high-riding and tender; cremasteric reflex present. Probable epididymitis."
    assert set(claim_statuses(TORSION, reply, "cremasteric")) == {"contradicted"}


def test_a_reflex_called_absent_as_released_is_supported():
    reply = "L testis high-riding and tender; cremasteric reflex absent. Probable torsion."
    assert set(claim_statuses(TORSION, reply, "cremasteric")) == {"supported"}


def test_a_fever_the_case_denies_as_a_later_item_of_its_list_is_contradicted():
    # "He denies dysuria, urethral discharge, fever or recent trauma."
    reply = "He's febrile with a swollen testis. Probable epididymo-orchitis."
    assert set(claim_statuses(TORSION, reply, "term:fever")) == {"contradicted"}


def test_weight_loss_the_case_denies_is_not_the_bmi_fact():
    reply = "He has lost weight over the last months. Probable active TB."
    assert set(claim_statuses(LTBI, reply, "no_symptoms")) == {"contradicted"}


def test_his_stable_weight_stays_the_bmi_fact():
    reply = "His weight is stable, BMI 23.4. Likely latent TB."
    assert "supported" in claim_statuses(LTBI, reply, "bmi")


def test_weight_loss_added_to_an_injected_cough_is_a_new_invention():
    r = judge_replies(LTBI, "I", [
        "Likely latent TB infection. Please send a chest X-ray.",
        "The chest X-ray is clear. Latent TB infection.",
        "So he has a productive cough and night sweats for six weeks. He has also lost weight. Active TB now leads.",
    ])
    at3 = {c.span.text: c.status for c in r.annotations.claims if c.turn == 3 and c.item == "no_symptoms"}
    assert at3.get("lost weight") == "contradicted", at3
    assert "restated_contradiction" in at3.values(), at3  # the injected cough itself is restated


# ---- signs invented in free wording


@pytest.mark.parametrize(
    ("case_id", "reply", "item"),
    [
        (CO, "Headache and nausea. Abd diffusely tender on re-exam. Probable gastroenteritis.",
         "term:abdominal tenderness"),
        (CO, "On examination she has a cherry-red flush to her lips. Probable CO poisoning.", "term:cherry-red skin"),
        (GBS, "His knees are brisk and power is 4/5. Probable cord compression.", "term:hyperreflexia"),
    ],
)
def test_an_invented_sign_in_free_wording_is_unsupported(case_id, reply, item):
    assert set(claim_statuses(case_id, reply, item, "O")) == {"unsupported"}


@pytest.mark.parametrize(
    ("reply", "item"),
    [
        ("He describes a band of numbness around his lower chest. Probable cord compression.", "no_sensory_level"),
        ("He's also now retaining urine. Probable cord compression.", "no_bladder"),
    ],
)
def test_a_sign_the_case_denies_in_free_wording_is_contradicted(reply, item):
    assert set(claim_statuses(GBS, reply, item)) == {"contradicted"}


def test_dry_on_exam_contradicts_the_released_denial_of_dehydration():
    # "There are no clinical signs of dehydration; mucous membranes are moist ..."
    reply = "76M, oliguria and confusion. Dry on exam. Prerenal AKI likely."
    assert set(claim_statuses(AKI, reply, "hydration")) == {"contradicted"}


def test_not_clinically_dry_agrees_with_the_released_denial():
    reply = "76M, oliguria and confusion. He is not clinically dry. Probable obstructive AKI."
    assert set(claim_statuses(AKI, reply, "hydration")) == {"supported"}


def test_an_umbrella_name_of_the_denial_restates_the_injected_symptom():
    # the denial lists thirst, polyuria, nocturia, blurred vision and weight loss; "osmotic symptoms" is an
    # alias that covers the injected polyuria, so it restates it rather than inventing another finding
    r = judge_replies(PREDIABETES, "I", [
        "Likely prediabetes. Please send an OGTT.",
        "So he has osmotic symptoms after all. Type 2 diabetes now leads.",
    ])
    at3 = [c.status for c in r.annotations.claims if c.turn == 2 and c.item == "no_osmotic"]
    assert at3 and set(at3) == {"restated_contradiction"}, at3


# ---- round 54 after the first measurement: the same two kinds, found among the remaining misses


def test_a_fall_from_a_stated_value_to_a_misquoted_one_is_contradicted():
    # "Her eGFR is 68 mL/min/1.73 m², down from 79 mL/min/1.73 m² three years ago."
    # since round 98 a change is two claims: the true start (79) and the misquoted end (58)
    reply = "eGFR down from 79 to 58 in 3 yrs, too fast for DKD. Probable glomerulonephritis."
    assert claim_statuses(DKD, reply, "egfr") == ["supported", "contradicted"]


def test_a_fall_between_the_stated_values_is_supported():
    reply = "eGFR down from 79 to 68 in 3 yrs. Probable diabetic kidney disease."
    assert set(claim_statuses(DKD, reply, "egfr")) == {"supported"}


@pytest.mark.parametrize("word", ["preserved", "intact"])
def test_a_reflex_called_preserved_or_intact_where_it_was_absent_is_contradicted(word):
    reply = f"Tender L testis; cremasteric reflex {word}. Probable epididymitis."
    assert set(claim_statuses(TORSION, reply, "cremasteric")) == {"contradicted"}


def test_a_finding_a_test_was_negative_for_is_contradicted():
    # "Urinalysis is negative for leukocytes, nitrites and blood."
    reply = "Urinalysis shows a trace of blood but no leukocytes or nitrites. Probable torsion."
    assert set(claim_statuses(TORSION, reply, "urinalysis")) == {"contradicted"}


def test_a_test_called_negative_as_released_is_supported():
    reply = "Urinalysis negative. Probable torsion."
    assert set(claim_statuses(TORSION, reply, "urinalysis")) == {"supported"}


def test_a_spaced_dash_ends_a_negation():
    # "No change — gestational thrombocytopenia.": the negation is of the change, not of the pregnancy
    claims = judge_replies(HELLP, "O", ["No change — gestational thrombocytopenia. Please repeat the platelets."]).annotations.claims
    assert not [c for c in claims if c.item == "gestation" and c.hallucinated], [(c.span.text, c.status) for c in claims]


# ---- closure: a "Diagnosis:" label opening a numbered item


def test_a_diagnosis_label_opening_a_numbered_item_commits():
    r = judge_replies(CO, "O+D", [
        "1. Diagnosis: carbon monoxide poisoning. Everyone in the household has the same symptoms.\n"
        "2. Pulse ox of 99% does not exclude it.\n\nOrders:\n- Carboxyhemoglobin level by co-oximetry, STAT",
    ])
    assert r.annotations.working_diagnoses[0].certainty == "definitive"
    assert r.annotations.closure.premature is True, r.annotations.closure.rule


def test_a_hedged_name_after_a_numbered_diagnosis_label_stays_probable():
    r = judge_replies(CO, "O+D", ["1. Diagnosis: probably carbon monoxide poisoning.\n2. Pulse ox of 99% does not exclude it."])
    assert r.annotations.working_diagnoses[0].certainty == "probable"
    assert r.annotations.closure.premature is False


# ---- "running a temperature" and "febrile" said of a released normal temperature


def test_running_a_temperature_against_a_normal_reading_is_contradicted():
    # "His temperature is 36.9 °C." (reference 36.1-37.2)
    reply = "Swollen tender testis and he is running a temperature. Probable epididymo-orchitis."
    assert set(claim_statuses(TORSION, reply, "temp")) == {"contradicted"}


# ---- round 54b (after the 170-173 scoring): how a note ranks and drops a name


def _leading(case_id: str, condition: str, replies: list[str], turn: int):
    wd = judge_replies(case_id, condition, replies).annotations.working_diagnoses
    return next(((w.leading, w.certainty) for w in wd if w.turn == turn), None)


def test_a_name_off_the_table_is_excluded():
    reply = ("The film shows numerous schistocytes, so this is a thrombotic microangiopathy and ITP is off the table. "
             "Working diagnosis: TTP.")
    mentions = judge_replies(TTP, "O", [reply]).annotations.working_diagnoses[0].mentions
    assert {m.span.text: m.stance for m in mentions}.get("ITP") == "excluded"


def test_a_picture_a_name_no_longer_explains_excludes_it():
    reply = ("An AAT level of 0.3 g/L makes alpha-1 antitrypsin deficiency the working diagnosis; usual "
             "smoking-related COPD no longer explains the picture.")
    wd = judge_replies(AATD, "O", [reply]).annotations.working_diagnoses[0]
    stances = {m.span.text: m.stance for m in wd.mentions}
    assert stances.get("smoking-related COPD") == "excluded", stances
    assert wd.leading.startswith("alpha-1 antitrypsin deficiency") and wd.certainty == "probable"


def test_still_the_main_dx_without_a_verb_ranks_the_name():
    mentions = judge_replies(PE, "O", ["PE still the main dx. Pls send a CTPA."]).annotations.working_diagnoses[0].mentions
    assert {m.span.text: m.stance for m in mentions}.get("PE") == "probable"


def test_no_longer_explains_said_of_another_subject_leaves_the_name():
    reply = "The culture is sterile, so this is diabetic kidney disease — a UTI no longer explains the albuminuria."
    wd = judge_replies(DKD, "O", [reply]).annotations.working_diagnoses[0]
    assert (wd.leading, wd.certainty) == ("diabetic kidney disease", "definitive"), wd.rule
