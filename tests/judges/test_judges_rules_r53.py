"""Round 53 (session 19; tuned on sets 1-161 after 158-161 were scored once, while 162-165 were unopened).

Round 53b (after the 162-165 scoring): only the piece that opens the line under "Impression" can commit, not
the piece after a semicolon ("Impression: likely CBD stone; DILI also on the ddx").

The 158-161 scoring left update, initiation, propagation and interaction below the target. What it and the
154-157 scoring showed, each change checked on all 162 sets:

- A flat call right under an "Impression" label commits ("**Impression:** Acute ischaemic stroke — right M1
  occlusion on CTA."), as under "Diagnosis:" or "Dx:" already: seven premature closures on 154-161 were judged
  not premature. Only the name that opens the line counts, after at most a few words of its own ("Acute
  calculous cholecystitis", "hypercholesterolaemia secondary to hypothyroidism"): impression lines as often
  carry a case summary ("New temporal headache in a 76-year-old with ..."), a picture ("this does not behave
  like ordinary smoking COPD") or results in brackets ("Oliguric AKI (creatinine 412, up from 98) with ..."),
  and those stay probable.
- "so this little guy has lead poisoning": a person named by a noun has the disease as flatly as "he has" does.
- Questions every author labels irrelevant: daycare, a sick note, screen time, a bungalow or stairs at home,
  diet soda, what he was lifting at the gym.
- A finding the report names and the agent calls normal ("bland sediment" against red cell casts): the words
  that mark an abnormal report now include casts, dysmorphic cells, crackles, consolidation, effusion,
  hydronephrosis, oedema, infiltrates and haemorrhage.
- Invented signs and results in free wording: spastic legs, epileptiform discharges, interstitial
  inflammation, "sexually active", "mucous membranes dry", "urine eos", ZPP, a bluish line along the gums.
"""

from __future__ import annotations

import pytest
from rules_support import claim_statuses, judge_replies, question_with

from medgym.judges.claim_support import reported_abnormal

STROKE = "neur-101-ischaemic-stroke-m1"
GCA = "rheum-206-giant-cell-arteritis"
AATD = "pulm-103-alpha1-antitrypsin-deficiency"
AKI = "neph-101-obstructive-aki-retention"
PE = "pulm-102-pulmonary-embolism"
LEAD = "peds-210-lead-poisoning"
LUPUS = "rheum-205-lupus-nephritis"
GBS = "neur-102-guillain-barre"
PTX = "pulm-101-primary-spontaneous-pneumothorax"
DKD = "neph-103-diabetic-kidney-disease"


def _first_certainty(case_id: str, reply: str, condition: str = "O") -> str | None:
    wd = judge_replies(case_id, condition, [reply]).annotations.working_diagnoses
    return wd[0].certainty if wd else None


# ---- a flat call under "Impression"


@pytest.mark.parametrize(
    ("case_id", "reply"),
    [
        (STROKE, "**Impression:** Acute ischaemic stroke — right MCA territory, right M1 occlusion on CTA.\n\n"
                 "**Plan:**\n- Thrombectomy referral"),
        (PE, "**Impression:** Right lower lobe community-acquired pneumonia.\n\n44F, pleuritic right chest pain."),
    ],
)
def test_a_flat_name_opening_an_impression_line_commits(case_id, reply):
    assert _first_certainty(case_id, reply) == "definitive"


def test_a_flat_impression_before_the_key_gaps_is_premature_closure():
    r = judge_replies(STROKE, "O", [
        "**Impression:** Acute ischaemic stroke — right MCA territory, right M1 occlusion on CTA.\n\n"
        "**Plan:**\n- Thrombolysis and thrombectomy referral",
    ])
    assert r.annotations.closure.premature is True, r.annotations.closure.rule


@pytest.mark.parametrize(
    ("case_id", "reply"),
    [
        # a case summary with the age
        (GCA, "**Impression:** New temporal headache in a 76-year-old with jaw claudication and scalp "
              "tenderness; the most likely diagnosis is **giant cell arteritis**."),
        # a picture, negated
        (AATD, "Impression: this does not behave like ordinary smoking COPD. He's 46 with only 15 pack-years."),
        # results in brackets
        (AKI, "**Impression:** Oliguric AKI (creatinine 412 µmol/L, up from 98 — roughly a fourfold rise) with "
              "hyperkalaemia (K 6.1) and ECG changes."),
        # a hedge before the name
        (LUPUS, "**Impression:** most likely a lupus nephritis flare with a nephrotic-range picture."),
    ],
)
def test_an_impression_line_that_summarises_or_hedges_does_not_commit(case_id, reply):
    assert _first_certainty(case_id, reply) != "definitive"


def test_only_the_piece_that_opens_the_impression_line_can_commit():
    # round 53b: the piece after a semicolon carries the label too, but it is not the call
    reply = ("Impression: cholestatic pattern — likely obstructive jaundice from a CBD stone; DILI from the "
             "Augmentin also on the ddx.\n\nPlan:\n- RUQ US")
    assert _first_certainty("hep-001-dili-amoxiclav", reply, "D") != "definitive"


def test_a_noun_for_the_patient_has_the_disease_flatly():
    reply = ("Okay, so this little guy has lead poisoning. His venous lead is 27 µg/dL and mom has seen him "
             "chewing paint chips.\n\nHas he had his MMR booster yet?")
    assert _first_certainty(LEAD, reply, "O+I") == "definitive"


def test_a_worry_that_the_patient_has_something_is_not_a_commitment():
    reply = ("I am worried this man has a metabolic acidosis: he is breathing deeply at 28 a minute. "
             "Could we have a venous blood gas, please?")
    assert _first_certainty("endo-102-euglycaemic-dka-sglt2", reply, "O+I+D") != "definitive"


# ---- questions every author labels irrelevant


@pytest.mark.parametrize(
    ("case_id", "words", "text"),
    [
        (LEAD, "daycare", "Q: is he in daycare?"),
        (LEAD, "screen time", "Does he watch much screen time?"),
        (PTX, "sick note", "Does he want a sick note for work?"),
        (PTX, "lifting", "How much was he lifting, and does he use a spotter?"),
        (STROKE, "bungalow", "Does she live in a bungalow or a house with stairs?"),
        (DKD, "soda", "Diet soda intake?"),
    ],
)
def test_questions_about_life_around_the_illness_are_irrelevant(case_id, words, text):
    r = judge_replies(case_id, "baseline", [f"Most likely as documented. {text}"])
    q = question_with(r, words)
    assert q.relevant is False, q.rule


def test_exercise_tolerance_on_the_stairs_stays_relevant():
    r = judge_replies("onc-217-screen-detected-lung-cancer", "baseline", [
        "Probable stage IA adenocarcinoma. What is his exercise tolerance — can he climb two flights of stairs?",
    ])
    q = question_with(r, "exercise tolerance")
    assert q.relevant is True, q.rule


# ---- a reported finding called normal


def test_bland_sediment_against_red_cell_casts_is_contradicted():
    statuses = claim_statuses(LUPUS, "UA: bland sediment. Probable lupus nephritis.", "sediment")
    assert set(statuses) == {"contradicted"}


def test_a_sediment_described_as_the_report_says_stays_supported():
    statuses = claim_statuses(LUPUS, "Urine microscopy shows red cell casts. Probable lupus nephritis.", "sediment")
    assert "contradicted" not in statuses


def test_normal_imaging_against_a_report_denying_a_list_of_findings_stays_supported():
    # "shows no infarct, haemorrhage or mass": every name of the list is denied, not only the first
    statuses = claim_statuses("psych-215-lithium-toxicity", "Normal CT/MRI brain. Probable lithium toxicity.",
                              "brain_imaging", "baseline")
    assert "contradicted" not in statuses


def test_the_words_a_report_uses_for_an_abnormal_finding_skip_a_denied_list():
    assert reported_abnormal("Brain imaging shows no infarct, haemorrhage or mass.") is None
    assert reported_abnormal("CXR shows no consolidation, effusion or pneumothorax.") is None
    assert reported_abnormal("Urine sediment shows dysmorphic red cells and red cell casts.").group(0) == "dysmorphic"


# ---- invented findings in free wording


@pytest.mark.parametrize(
    ("case_id", "reply", "item"),
    [
        (GBS, "His legs are also spastic. Spastic legs make me think of the cord.", "term:spasticity"),
        (STROKE, "EEG this morning shows right hemispheric epileptiform discharges.", "term:epileptiform discharges"),
        (LEAD, "His ZPP is 120. Lead poisoning.", "term:zinc protoporphyrin"),
        (LEAD, "There is a bluish line along his gums. Lead poisoning.", "term:gum lead line"),
    ],
)
def test_invented_findings_in_free_wording_are_unsupported(case_id, reply, item):
    statuses = claim_statuses(case_id, reply, item, "O")
    assert "unsupported" in statuses
