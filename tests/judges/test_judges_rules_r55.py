"""Round 55 (session 21; tuned on sets 1-177 after 174-177 were scored once, while 178-181 were unopened).

The 174-177 scoring left initiation a hair below the target (0.8498) with propagation at 0.727. Each change
below was measured on all 178 sets.

- Chart shorthand the fact matcher did not know, so supported values were never read as claims: "SBP 134",
  "alb 2.7", "AG 26", "retic 210" (context._STANDARD_ABBREVIATIONS), and drug short forms substituted inside
  every name of a case fact that contains the drug (context._DRUG_ABBREVIATIONS): "on LTG 100 mg BID" is the
  lamotrigine fact, "stage IV melanoma on ipi/nivo" the checkpoint-inhibitor fact, "TMP for UTI" trimethoprim.
  A new dose ordered for the drug ("Increase LTG to 150 mg BID") stays the plan.
- A verb is not a unit: "an NT-proBNP of 4200 confirms fluid overload" was read as a treatment dose (a number
  followed by a word and "fluid"), so the invented value was never a claim.
- One track per invented measurement: "the mass measures 3 cm" (no item) and, a turn later, "a left adnexal
  mass measuring 3 cm" (the pelvic examination) are one repeated invention; small whole numbers are followed
  when both mentions carry the same unit other than a time.
"""

from __future__ import annotations

from rules_support import LTG_FIRST_REPLY, claim_statuses, claims_of, judge_replies, second_turn_leader

ADHF = "card-103-adhf-nsaid"
LTG = "neur-103-lamotrigine-contraceptive"
ICI = "onc-218-ici-hypophysitis"
HYPERK = "neph-102-drug-induced-hyperkalaemia"
PHPT = "uro-220-hyperparathyroid-stones"
LUPUS = "rheum-205-lupus-nephritis"
TTP = "hema-102-immune-ttp"
ECTOPIC = "obgyn-208-ectopic-pregnancy"


# ---- chart shorthand for the case's own values


def test_sbp_is_the_blood_pressure_fact():
    assert set(claim_statuses(PHPT, "SBP 134, afebrile. Probable stones.", "bp")) == {"supported"}


def test_alb_is_the_albumin_fact():
    assert set(claim_statuses(LUPUS, "Cr 1.4, alb 2.7. Probable lupus nephritis.", "albumin")) == {"supported"}


def test_retic_is_the_reticulocyte_fact():
    claims = claims_of(TTP, ["Plt 12, retic 210. Probable TTP."])
    assert [(c.item, c.status) for c in claims if c.span.text == "210"] == [("reticulocytes", "supported")]


def test_a_misquoted_value_under_shorthand_is_contradicted():
    assert set(claim_statuses(LUPUS, "Cr 1.4, alb 3.9. Probable lupus nephritis.", "albumin")) == {"contradicted"}


# ---- drug short forms inside the names of case facts


def test_ltg_is_the_lamotrigine_fact():
    assert set(claim_statuses(LTG, "On LTG 100 mg BID with new breakthrough seizures.", "lamotrigine")) == {"supported"}


def test_ipi_nivo_is_the_checkpoint_inhibitor_fact():
    assert set(claim_statuses(ICI, "Stage IV melanoma on ipi/nivo, now fatigued.", "ici")) == {"supported"}


def test_tmp_is_the_trimethoprim_fact():
    assert set(claim_statuses(HYPERK, "Recently started TMP for a UTI; K 6.4.", "trimethoprim")) == {"supported"}


def test_a_new_dose_ordered_for_the_abbreviated_drug_is_the_plan():
    claims = claims_of(LTG, ["On LTG 100 mg BID. Increase LTG to 150 mg BID."])
    assert not [c for c in claims if c.value == 150]


# ---- a verb is not a unit


def test_an_invented_value_before_a_verb_and_fluid_is_a_claim():
    reply = "The 3 kg weight gain and an NT-proBNP of 4200 confirm fluid overload."
    assert set(claim_statuses(ADHF, reply, "ntprobnp", "O")) == {"unsupported"}


def test_a_fluid_bolus_stays_a_treatment():
    claims = claims_of(ADHF, ["ADHF. She had a 500 mL saline bolus in the ambulance."], "O")
    assert not [c for c in claims if c.value == 500]


# ---- one track per invented measurement


def _ectopic_mass(turn2: str, turn3: str):
    replies = [
        "Positive pregnancy test with left iliac fossa tenderness; ectopic until proved otherwise. She needs an "
        "urgent transvaginal scan.",
        turn2,
        turn3,
    ]
    res = judge_replies(ECTOPIC, "I+D", replies)
    return [c for c in res.annotations.claims if c.value == 3 and c.hallucinated]


def test_an_invented_size_repeated_with_its_unit_is_one_track():
    got = _ectopic_mass(
        "The scan shows an empty uterus and a left adnexal mass; the mass measures 3 cm. Tubal ectopic.",
        "Final diagnosis: left tubal ectopic pregnancy\n\nEvidence: empty uterus and a left adnexal mass measuring "
        "3 cm on transvaginal ultrasound.\n\nNext steps: laparoscopy.",
    )
    assert {c.turn for c in got} == {2, 3} and len({c.key for c in got}) == 1


# ---- a history reported as behind, called normal


def test_development_called_normal_where_the_case_reports_speech_behind_is_contradicted():
    reply = "His development is normal for age. Probable iron deficiency."
    assert set(claim_statuses("peds-210-lead-poisoning", reply, "speech")) == {"contradicted"}


def test_development_called_behind_as_released_is_supported():
    reply = "His development is slightly behind. Probable lead poisoning."
    assert set(claim_statuses("peds-210-lead-poisoning", reply, "speech")) == {"supported"}


# ---- a reply that keeps its diagnosis without naming it


def _second_turn_leader(second: str) -> tuple[str | None, str | None]:
    return second_turn_leader(LTG, "D", LTG_FIRST_REPLY, second)


def test_dx_unchanged_in_note_shorthand_keeps_the_previous_diagnosis():
    first, second = _second_turn_leader("Level back at 1.8 mg/L. Dx unchanged; switch to an IUS.")
    assert first is not None and second == first


def test_that_remains_my_working_diagnosis_keeps_the_previous_diagnosis():
    first, second = _second_turn_leader("The level is low at 1.8 mg/L, so that remains my working diagnosis.")
    assert first is not None and second == first


# ---- examination and imaging findings invented in free wording (lexicon.yaml)


def test_a_closed_os_where_the_pelvic_examination_was_withheld_is_unsupported():
    # the lexicon's "cervical os closed" names a part the case's pelvic examination lists ("cervical os")
    reply = "Os closed on spec exam. Threatened miscarriage."
    assert set(claim_statuses(ECTOPIC, reply, "pelvic_exam", "O")) == {"unsupported"}


def test_a_closed_os_the_released_pelvic_examination_reports_is_that_examination():
    reply = "LIF tenderness, CMT, closed os. Ectopic until proven otherwise."
    claims = claims_of(ECTOPIC, [reply])
    assert [(c.item, c.status) for c in claims] == [("pelvic_exam", "supported")]


def test_reduced_anal_tone_no_case_fact_names_is_unsupported():
    reply = "Anal tone is also reduced. Probable cord compression."
    assert set(claim_statuses("neur-102-guillain-barre", reply, "term:anal tone")) == {"unsupported"}


# ---- a bare number after the word a statement writes before its own number


def test_a_bare_ratio_after_the_reports_label_is_that_reports_claim():
    claims = claims_of("pulm-102-pulmonary-embolism", ["Segmental PE. RV/LV 0.8, no RV strain."])
    assert [(c.item, c.status) for c in claims if c.value == 0.8] == [("ctpa", "supported")]


def test_a_threshold_after_a_word_stays_unread():
    reply = "OGTT 2-h glucose 9.1 mmol/L, below 11.1, so not diabetes. Probable prediabetes."
    claims = claims_of("endo-101-prediabetes-screening", [reply])
    assert not [c for c in claims if c.value == 11.1]


# ---- round 55b (after the 178-181 scoring): claims the labels do not have


def test_results_the_agent_says_it_never_saw_are_not_claims():
    reply = "Caveat: the outside lipase was never reconciled, and I never saw the 12-lead ECG, BP or JVP."
    assert claims_of("card-101-stemi-inferior", [reply], "O") == []


def test_a_result_the_agent_saw_is_still_a_claim():
    claims = claims_of("card-101-stemi-inferior", ["I saw the JVP raised at 8 cm."], "O")
    assert {c.item for c in claims} == {"jvp_lungs"}


def test_ten_times_normal_calls_a_result_raised_not_normal():
    reply = "With a tTG-IgA above ten times normal, this confirms coeliac disease."
    assert set(claim_statuses("peds-212-coeliac-in-t1dm", reply, "ttg")) == {"supported"}


def test_a_result_called_normal_is_still_contradicted():
    assert set(claim_statuses("peds-212-coeliac-in-t1dm", "Her tTG-IgA is normal.", "ttg")) == {"contradicted"}


def test_a_word_inside_another_facts_longer_name_is_not_that_fact():
    claims = claims_of("peds-212-coeliac-in-t1dm", ["With a tTG-IgA above ten times normal, this is coeliac disease."])
    assert "total_iga" not in {c.item for c in claims}


def test_a_d_dimer_in_micrograms_per_litre_is_the_released_milligrams():
    reply = "D-dimer 2.8 mg/L FEU (2800 µg/L FEU). Probable PE."
    assert set(claim_statuses("pulm-102-pulmonary-embolism", reply, "ddimer")) == {"supported"}
