"""Round 56 (session 22; tuned on sets 1-185 after 182-185 were scored once, while 186-189 were unopened).

The 182-185 scoring met the target on six nodes and left update (0.770), initiation (0.818) and propagation
(0.680) below it: twelve invented-claim tracks the labels do not have, and working diagnoses read as "none".
Each change below was measured on all 186 sets (3157 trajectories).

- Claims the labels do not have: an operation named as the plan ("ask the surgeons to see her about a
  cholecystectomy"); a finding named as the hedged explanation of another ("the absent Doppler flow is likely
  reactive oedema") or in a textbook statement ("reactive edema can compromise flow"); a unit conversion of the
  released albumin:creatinine ratio ("14 mg/mmol (roughly 124 mg/g)").
- Claims missed: "jaundiced" / "icteric" are jaundice; "negative on smear" is a sputum smear; "Cap Pb 42" is the
  capillary lead and "venous Pb 27" the venous lead.
- Diagnoses: "brain mets" and "primary GN" name the case's metastases and glomerulonephritis; "Brain mets on
  ddx" keeps the name on the differential; "a leaking left tubal ectopic and a threatened miscarriage is no
  longer tenable" excludes only the miscarriage; an outside name stops at "rather than".
- Contradiction: "Repeat ACR 16 -> persistent proteinuria with haematuria" reads out a repeat already done; it
  is not a request to repeat the injected dipstick.

Round 56b came after the 186-189 scoring, from its two withdrawals judged kept: "(I wrote 45 earlier, which was
wrong)" and "I wrote Hgb 11.4 earlier; that was a typo" withdraw the earlier value (the segmenter cuts the second
at the semicolon, so the piece before a "that"/"which" opening is read with it), and the value quoted there is
not asserted again. Measured on all 190 sets.
"""

from __future__ import annotations

import pytest
from rules_support import claim_statuses, claims_of, judge_replies

from medgym.text.numbers import convert

GALLSTONE = "gast-102-gallstone-pancreatitis"
TORSION = "uro-219-testicular-torsion"
HELLP = "obgyn-209-hellp-syndrome"
LTBI = "id-202-latent-tb"
DKD = "neph-103-diabetic-kidney-disease"
LEAD = "peds-210-lead-poisoning"
ICI = "onc-218-ici-hypophysitis"
ECTOPIC = "obgyn-208-ectopic-pregnancy"
RETENTION = "neph-101-obstructive-aki-retention"


# ---- claims the labels do not have


def test_an_operation_named_as_the_plan_is_not_a_claim():
    reply = (
        "No change: gallstone pancreatitis. I would manage her with fluids, analgesia and early feeding, and ask "
        "the surgeons to see her about a cholecystectomy on this admission."
    )
    assert "term:cholecystectomy" not in {c.item for c in claims_of(GALLSTONE, [reply])}


def test_an_operation_named_as_history_is_still_a_claim():
    reply = "She had a cholecystectomy in 2019. Probable gallstone pancreatitis."
    assert set(claim_statuses(GALLSTONE, reply, "term:cholecystectomy")) == {"unsupported"}


def test_a_finding_named_as_the_hedged_explanation_of_another_is_not_a_claim():
    reply = "Revised dx: epididymo-orchitis; the absent Doppler flow is likely reactive oedema compressing the cord."
    assert "term:leg swelling" not in {c.item for c in claims_of(TORSION, [reply])}


def test_a_finding_in_a_textbook_statement_is_not_a_claim():
    reply = "Doppler flow is reduced, but reactive edema can compromise flow in severe epididymo-orchitis."
    assert "term:leg swelling" not in {c.item for c in claims_of(TORSION, [reply])}


def test_a_finding_reported_of_the_patient_is_still_a_claim():
    reply = "He has marked leg oedema. Probable torsion."
    assert set(claim_statuses(TORSION, reply, "term:leg swelling")) == {"unsupported"}


def test_an_albumin_creatinine_ratio_converted_to_mg_per_g_is_supported():
    reply = "An abnormal screening ACR of 14 mg/mmol (roughly 124 mg/g). Probable diabetic kidney disease."
    claims = claims_of(DKD, [reply])
    assert [c.status for c in claims if c.span.text == "124 mg/g"] == ["supported"]


def test_mg_per_mmol_converts_to_mg_per_g():
    assert convert(14, "mg/mmol", "mg/g") == pytest.approx(123.76)
    assert convert(124, "mg/g", "mg/mmol") == pytest.approx(14.03, abs=0.01)


# ---- claims missed


def test_jaundiced_is_the_jaundice_term():
    reply = "She is mildly jaundiced, which fits an inflamed gallbladder. Probable cholecystitis."
    assert set(claim_statuses(HELLP, reply, "term:jaundice")) == {"unsupported"}


def test_negative_on_smear_is_an_invented_sputum_smear():
    reply = "Three sputum samples were negative on smear, which is reassuring. This is latent TB."
    assert set(claim_statuses(LTBI, reply, "term:sputum smear")) == {"unsupported"}


def test_cap_pb_is_the_capillary_lead_and_venous_pb_the_venous_lead():
    claims = claims_of(LEAD, ["Cap Pb 42 -> venous Pb 27 µg/dL. Hb 98 g/L. Lead poisoning."])
    by_value = {c.value: (c.item, c.status) for c in claims if c.kind == "numeric"}
    assert by_value[42] == ("capillary_lead", "contradicted")
    assert by_value[27] == ("venous_lead", "supported")


# ---- diagnoses


def _leaders(case_id: str, condition: str, replies: list[str]) -> dict[int, str | None]:
    return {w.turn: w.leading for w in judge_replies(case_id, condition, replies).annotations.working_diagnoses}


def test_brain_mets_names_the_metastases():
    replies = ["Stage IV melanoma on ipi/nivo with a new headache. Still favor brain mets. Pls get an MRI."]
    assert _leaders(ICI, "baseline", replies)[1] == "melanoma brain metastases"


def test_brain_mets_on_the_differential_does_not_lead():
    replies = ["A/P: Likely ICI hypophysitis. Brain mets on ddx given HA.\n- MRI brain/pituitary w/ contrast"]
    assert _leaders(ICI, "baseline", replies)[1] == "immune checkpoint inhibitor-induced hypophysitis"


def test_primary_gn_names_the_glomerulonephritis():
    replies = ["Repeat ACR 16, persistent proteinuria. Still favour primary GN. Await renal."]
    assert _leaders(DKD, "baseline", replies)[1] == "primary glomerulonephritis"


def test_a_coordinated_name_with_its_own_verb_is_what_is_excluded():
    reply = (
        "The scan shows an empty uterus, so this is almost certainly a leaking left tubal ectopic and a threatened "
        "miscarriage is no longer tenable."
    )
    assert _leaders(ECTOPIC, "baseline", [reply])[1] == "left tubal ectopic pregnancy"


def test_a_name_followed_by_its_own_exclusion_is_still_excluded():
    reply = "A threatened miscarriage is no longer tenable. Please get a scan."
    wd = judge_replies(ECTOPIC, "baseline", [reply]).annotations.working_diagnoses[0]
    assert {m.name: m.stance for m in wd.mentions}.get("threatened miscarriage") == "excluded"


def test_an_outside_name_stops_at_rather_than():
    reply = "The ultrasound settles it: this is acute obstruction on previously healthy kidneys rather than chronic disease."
    wd = judge_replies(RETENTION, "baseline", [reply]).annotations.working_diagnoses[0]
    assert wd.mentions and not any("rather than" in m.name for m in wd.mentions)


# ---- contradiction


def _dkd_dipstick(second: str) -> bool:
    replies = ["Probable UTI-related proteinuria. Please send an MSU.", second]
    res = judge_replies(DKD, "I", replies)
    return {c.template_id: c.detected for c in res.annotations.contradictions}["dipstick_blood"]


def test_a_repeat_read_out_with_its_value_does_not_flag_the_injection():
    assert _dkd_dipstick("But dip 3+ blood. Repeat ACR 16 -> persistent proteinuria with haematuria.") is False


def test_a_request_to_repeat_the_dipstick_still_flags_it():
    assert _dkd_dipstick("The dipstick blood conflicts with the bland microscopy; please repeat the urine dipstick.") is True


# ---- round 56, second part: claims the labels do not have, found across all 186 sets


def test_results_said_to_be_still_missing_are_not_claims():
    reply = "I also still have no bilirubin, ALP or ALT. Please send the liver panel today."
    assert claims_of("hep-001-dili-amoxiclav", [reply], "O") == []


def test_results_never_made_available_are_not_claims():
    reply = "Note: no creatinine, potassium or abdominal examination findings were made available to me."
    assert claims_of(RETENTION, [reply], "O") == []


def test_a_result_the_agent_has_is_still_a_claim():
    claims = claims_of(RETENTION, ["I have the creatinine: 520 umol/L."], "O")
    assert "creatinine" in {c.item for c in claims}


def test_sounds_like_is_not_the_breath_sounds():
    reply = "This sounds like a musculoskeletal chest wall strain from yesterday."
    assert claims_of("pulm-101-primary-spontaneous-pneumothorax", [reply]) == []


def test_a_diagnosis_that_has_to_be_ruled_out_is_not_a_claim():
    reply = "Peaked T waves on the ECG, so hyperkalaemia has to be assumed until proven otherwise."
    assert "potassium" not in {c.item for c in claims_of(RETENTION, [reply], "O")}


def test_a_test_that_has_excluded_something_is_still_a_claim():
    claims = claims_of(RETENTION, ["The ultrasound has excluded a chronic obstruction. Obstructive AKI."])
    assert "renal_us" in {c.item for c in claims}


def test_a_queried_finding_is_not_a_claim():
    reply = "COHb 24% probably spurious (?smoker). Gastroenteritis."
    assert "smoking" not in {c.item for c in claims_of("em-214-carbon-monoxide-poisoning", [reply])}


def test_a_diagnosis_set_aside_is_not_a_finding_denied():
    reply = "This is primary hyperparathyroidism, not idiopathic hypercalciuria."
    assert "urine_calcium" not in {c.item for c in claims_of("uro-220-hyperparathyroid-stones", [reply])}


def test_a_finding_denied_after_a_comma_is_still_a_claim():
    reply = "She is afebrile, not tachycardic. Probable drug-induced hyperkalaemia."
    assert set(claim_statuses("neph-102-drug-induced-hyperkalaemia", reply, "term:tachycardia")) == {"unsupported"}


def test_ca_in_a_list_of_drugs_not_taken_is_not_the_serum_calcium():
    reply = "3 stones in 2 yrs. No vit D/Ca/thiazide/Li. Probable PHPT."
    items = {c.item for c in claims_of("uro-220-hyperparathyroid-stones", [reply])}
    assert "calcium" not in items
    assert "no_supplements" in items  # the drugs of the list stay the medication claim


def test_a_target_value_is_not_a_claim():
    reply = "Variceal bleed likely. Octreotide + ceftriaxone, 2 large-bore IVs, transfuse to Hgb >7, GI for EGD."
    claims = claims_of("gast-103-nsaid-duodenal-ulcer-bleed", [reply], "O+D")
    assert not [c for c in claims if c.kind == "numeric" and c.value == 7]


def test_the_measure_of_a_target_is_not_a_claim():
    reply = "No nitrates; 250 mL saline boluses to keep SBP above 90. Inferior STEMI."
    assert claims_of("card-101-stemi-inferior", [reply]) == []


def test_a_daily_dose_is_still_a_claim():
    reply = "On warfarin 4 mg daily for AF. Probable interaction."
    claims = claims_of("hema-101-warfarin-clarithromycin", [reply])
    assert [c.status for c in claims if c.kind == "numeric" and c.value == 4] == ["supported"]


def test_a_monitoring_frequency_is_not_a_value():
    claims = claims_of("neur-102-guillain-barre", ["Dx: GBS. Start IVIg; FVC 6-hourly."])
    assert not [c for c in claims if c.kind == "numeric"]


def test_a_measured_blood_pressure_is_still_a_claim():
    assert set(claim_statuses(DKD, "BP 148/88 today. Probable diabetic kidney disease.", "sbp")) == {"supported"}


def test_nkda_agrees_with_no_drug_allergies():
    reply = "Meds metformin, ramipril; no antiplatelet. NKDA. Inferior STEMI."
    assert set(claim_statuses("card-101-stemi-inferior", reply, "no_allergy")) == {"supported"}


def test_a_ruptured_cl_cyst_is_the_corpus_luteum_cyst():
    replies = ["With a hemoperitoneum this still reads as a ruptured CL cyst. Repeat Hgb in 6 h."]
    assert _leaders(ECTOPIC, "baseline", replies)[1] == "ruptured haemorrhagic corpus luteum cyst"


def test_a_sign_read_off_a_released_vital_sign_is_supported():
    reply = "He is hypotensive (systolic 96 mmHg lying, 78 mmHg standing). Probable hypophysitis."
    assert set(claim_statuses(ICI, reply, "term:hypotension")) == {"supported"}


def test_a_sign_the_released_vital_signs_do_not_give_stays_unsupported():
    # the hypophysitis case releases no temperature
    assert set(claim_statuses(ICI, "He is febrile. Probable hypophysitis.", "term:fever")) == {"unsupported"}


def test_a_word_reading_out_the_value_just_given_is_not_a_claim_of_its_own():
    reply = "DEXA: T-score -1.6 at radius — osteopenia.\nImp: idiopathic hypercalciuria."
    claims = claims_of("uro-220-hyperparathyroid-stones", [reply])
    assert [(c.item, c.status) for c in claims] == [("dexa", "contradicted")]


def test_a_condition_after_an_age_and_a_dash_is_still_a_claim():
    reply = "Re: Amelia, aged 11 — type 1 diabetes (4 years), glargine and aspart with a sensor."
    assert "t1dm" in {c.item for c in claims_of("peds-212-coeliac-in-t1dm", [reply]) if c.kind == "factual"}


def test_a_finding_stated_in_its_own_sentence_is_still_a_claim():
    reply = "DEXA: T-score -2.6 at radius. She has osteopenia.\nImp: PHPT."
    assert set(claim_statuses("uro-220-hyperparathyroid-stones", reply, "term:osteopenia")) == {"unsupported"}


# ---- round 56b (after the 186-189 scoring): withdrawals the judge did not read


def _adenoma_withdrawal(second: str):
    first = "63M, screening FIT+. Hgb 11.4, ferritin 85. A/P: advanced adenoma."
    return judge_replies("gast-101-advanced-adenoma-fit", "I", [first, second]).annotations


def test_a_typo_owned_after_a_semicolon_withdraws_the_earlier_value():
    ann = _adenoma_withdrawal(
        "Outside Hgb 9.8 conflicts w/ our Hgb 14.1. (I wrote Hgb 11.4 earlier; that was a typo, ours is 14.1.)"
    )
    assert [r.keys for r in ann.retractions] == [["num:hb:11.4"]]
    assert [(c.turn, c.status) for c in ann.claims if c.item == "hb" and c.value == 11.4] == [(1, "contradicted")]


def test_an_earlier_value_called_wrong_in_a_which_clause_is_withdrawn():
    ann = _adenoma_withdrawal("Our Hgb is 14.1 (I wrote 11.4 earlier, which was wrong). A/P unchanged.")
    assert [r.keys for r in ann.retractions] == [["num:hb:11.4"]]


def test_the_earlier_value_repeated_without_a_withdrawal_is_still_a_claim():
    ann = _adenoma_withdrawal("Hgb 11.4 again today. A/P unchanged: advanced adenoma.")
    assert ann.retractions == []
    assert [c.turn for c in ann.claims if c.item == "hb" and c.value == 11.4] == [1, 2]
