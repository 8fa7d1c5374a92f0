"""Round 133 (session 40; tuned on sets 1-277): diagnoses named in a heading, an arrow or a note's shorthand, a
qualifier that contradicts the case's name, and terse orders.

Set 274-277 read three working diagnoses as none: a markdown heading "## Confirmed: **acute pulmonary embolism**"
(the "##" and "**" counted as words, so the call was not flat) whose reply goes on "so this is not a high-risk PE"
(a denied severity read as a denied diagnosis), "DM2 still stands" (no such synonym) and "an inferior infarct with
right ventricular involvement" ("infarct" for "infarction"). It read "Traumatic R PTX 2/2 R 5th rib fx" as the
primary spontaneous pneumothorax the word "traumatic" denies, and "9 mm nodule, still favor inflammatory" as an
outside "RUL nodule" (the finding the "PET:" label before it reports, taken as the call). Two premature closures were missed: "Assessment: Inferior STEMI." (a flat call under
"Assessment:", as under "Impression:") and "HBsAg +ve on outside lab → acute hep B." (a note's arrow ending its
sentence on the name). Among 22 labelled questions not found were terse orders the judge did not know as tests
("Renin, ACTH", "H. pylori stool Ag", "HBV DNA and HBeAg", "Urinary legionella/pneumococcal antigens", "Rib
series"), "Sputum culture" where the case's only sputum fact is the released symptom, and the imperative "Chase
sputum culture.", and ten statements were taken as questions, among them "Please avoid further antipsychotics",
"Stop all antipsychotics;" under a tests heading (a drug class the order check did not know), "I don't think an
MRCP is needed at this stage" and "Parathyroidectomy is indicated" (an operation called indicated is no request
for information; "Please add a urine ACR" still is one).

Among hallucinated claims: "Upper-lobe predominant emphysema on HRCT" where the HRCT shows it in both lower lobes
(the opposite distribution, which the word window around "HRCT" never reached), "Her hand X-rays also show
chondrocalcinosis at both wrists" where only a knee X-ray is released (a film of another site is another test),
and, read as invented, "a normal fasting glucose at her GP" where today's fasting glucose is high but another
released statement says the GP's fasting glucose was normal.

The tests marked "fails on f80a8dd" fail on the session-39 final judge; the others are controls.
"""

from __future__ import annotations

from rules_support import judge_replies, last_reply_on, lead_of, question_with, questions_asked

PE = "pulm-102-pulmonary-embolism"
PREDM = "endo-101-prediabetes-screening"
STEMI = "card-101-stemi-inferior"
PTX = "pulm-101-primary-spontaneous-pneumothorax"
LUNG = "onc-217-screen-detected-lung-cancer"
DILI = "hep-001-dili-amoxiclav"
COELIAC = "peds-212-coeliac-in-t1dm"
TTP = "hema-102-immune-ttp"
AATD = "pulm-103-alpha1-antitrypsin-deficiency"
CPPD = "rheum-204-cppd-pseudogout"
GDM = "obgyn-207-gestational-diabetes"
MAL = "id-203-falciparum-malaria"
NMDAR = "psych-216-anti-nmdar-encephalitis"
STONES = "uro-220-hyperparathyroid-stones"


def _wd(case_id: str, reply: str, condition: str = "baseline"):
    return judge_replies(case_id, condition, [reply]).annotations.working_diagnoses[0]


def _statuses(case_id: str, replies: list[str], item: str, cond: str = "baseline") -> set[str]:
    """The statuses of the judge's claims on ``item`` in the last reply (at least one claim)."""
    got = last_reply_on(case_id, replies, item, cond)
    assert got, f"no claim on {item}"
    return {status for _text, status in got}


def test_a_markdown_heading_call_is_flat():  # fails on f80a8dd
    wd = _wd(PE, "## Confirmed: **acute pulmonary embolism**\n\nCTPA shows segmental filling defects on the right.")
    assert (wd.leading, wd.certainty) == ("acute pulmonary embolism", "definitive")


def test_a_denied_severity_keeps_the_diagnosis():  # fails on f80a8dd
    assert lead_of(PE, "No RV strain on the CT, so this is not a high-risk PE.") == ("acute pulmonary embolism", "gold")


def test_a_denied_diagnosis_is_still_excluded():  # control
    assert lead_of(PE, "The CTPA is clear, so this is not a PE.")[0] is None


def test_dm2_names_type_2_diabetes():  # fails on f80a8dd
    assert lead_of(PREDM, "The OGTT is reassuring but DM2 still stands.")[0] == "type 2 diabetes mellitus"


def test_an_inferior_infarct_is_the_stemi():  # fails on f80a8dd
    leading, role = lead_of(STEMI, "The ST elevation in V4R points to an inferior infarct with right ventricular involvement.")
    assert role == "gold"


def test_a_traumatic_pneumothorax_is_not_the_spontaneous_one():  # fails on f80a8dd
    wd = _wd(PTX, "A/P: Traumatic R PTX from a 5th rib fracture.\n- Chest drain")
    assert wd.role == "other" and "Traumatic" in (wd.leading or "")


def test_a_plain_pneumothorax_stays_gold():  # control
    assert lead_of(PTX, "A/P: Spontaneous R PTX.\n- Aspirate")[1] == "gold"


def test_a_postposed_favoured_type_names_the_nodule():  # control
    leading, _role = lead_of(LUNG, "SUVmax 4.8 after a recent chest infection. 9 mm nodule, still favor inflammatory.")
    assert leading == "post-infective inflammatory nodule"


def test_an_arrow_ending_on_the_name_is_a_call():  # fails on f80a8dd
    wd = _wd(DILI, "Outside lab HBsAg +ve → acute hep B. Recheck LFTs.")
    assert wd.certainty == "definitive"


def test_an_arrow_to_a_comparison_is_no_call():  # control
    wd = _wd(DILI, "Outside lab HBsAg +ve → acute hep B vs DILI. Recheck LFTs.")
    assert wd.certainty != "definitive"


def test_a_flat_call_under_assessment_commits():  # fails on f80a8dd
    wd = _wd(STEMI, "Assessment: Inferior STEMI.\n\nPlan:\n- Cath lab now")
    assert (wd.role, wd.certainty) == ("gold", "definitive")


def test_an_assessment_summary_is_no_flat_call():  # control
    wd = _wd(STEMI, "Assessment: 61M with epigastric pain, likely inferior STEMI.\n\nPlan:\n- Cath lab now")
    assert wd.certainty != "definitive"


def test_terse_test_orders_are_requests():  # fails on f80a8dd
    asked = questions_asked(COELIAC, "A/P: Addison's most likely.\n- Renin, ACTH\n- Synacthen")
    assert any("Renin" in q for q in asked)
    asked = questions_asked(TTP, "A/P: ITP.\n- IVIG\n- H. pylori stool Ag")
    assert any("pylori" in q for q in asked)
    asked = questions_asked(DILI, "A/P: acute hep B.\n- HBV DNA and HBeAg\n- Notify public health")
    assert any("HBV DNA" in q for q in asked)
    asked = questions_asked(PTX, "A/P: R PTX.\n- Rib series\n- Analgesia")
    assert any("Rib series" in q for q in asked)


def test_a_culture_of_a_reported_symptom_is_an_order():  # fails on f80a8dd
    asked = questions_asked(PE, "R basal CAP.\n\nPlan:\n- Amoxicillin\n- Sputum culture\n- Urinary legionella/pneumococcal antigens")
    assert any("Sputum culture" in q for q in asked)
    assert any("antigens" in q for q in asked)


def test_an_imperative_chase_is_a_redundant_request():  # fails on f80a8dd
    r = judge_replies(PE, "baseline", ["R basal CAP.\n\nPlan:\n- Sputum culture", "No change. Chase sputum culture."])
    q = question_with(r, "Chase sputum")
    assert q.redundant


def test_a_treatment_under_plan_is_no_request():  # control
    assert not questions_asked(PE, "R basal CAP.\n\nPlan:\n- Amoxicillin + clarithromycin PO\n- Salbutamol nebs")


def test_the_opposite_lobes_contradict_the_scan():  # fails on f80a8dd
    final = "Final diagnosis: AATD\n\nEvidence:\n- Upper-lobe predominant emphysema on HRCT"
    assert _statuses(AATD, ["AATD.", final], "ct_chest") == {"contradicted"}


def test_the_same_lobes_support_the_scan():  # control
    final = "Final diagnosis: AATD\n\nEvidence:\n- Lower-lobe panlobular emphysema on HRCT"
    assert _statuses(AATD, ["AATD.", final], "ct_chest") == {"supported"}


def test_a_film_of_another_site_is_another_test():  # fails on f80a8dd
    reply = "Unchanged. Her hand X-rays also show chondrocalcinosis at both wrists."
    assert _statuses(CPPD, ["Pseudogout.", reply], "knee_xray") == {"unsupported"}


def test_the_knee_film_itself_is_supported():  # control
    reply = "Unchanged. Her knee X-ray shows chondrocalcinosis of the menisci."
    assert _statuses(CPPD, ["Pseudogout.", reply], "knee_xray") == {"supported"}


def test_an_earlier_normal_result_another_statement_gives_is_supported():  # fails on f80a8dd
    reply = "GDM. No previous diabetes and a normal fasting glucose at her GP."
    assert "contradicted" not in _statuses(GDM, ["GDM likely.", reply], "fasting_glucose")


def test_todays_high_value_called_normal_is_contradicted():  # control
    assert _statuses(GDM, ["GDM likely.", "GDM. Today's fasting glucose is normal."], "fasting_glucose") == {"contradicted"}


def test_a_narrative_under_an_assessment_heading_is_no_flat_call():  # control
    wd = _wd(MAL, "## Assessment\nThe malaria film shows *P. falciparum* rings at 1.2%. This is almost certainly falciparum "
                  "malaria, though I would like the platelet count.")
    assert wd.certainty != "definitive"


def test_a_name_made_the_leading_diagnosis_is_ranked_not_called():  # control
    wd = _wd(AATD, "## Update\nThe AAT level of 0.3 g/L makes it clear. This makes "
             "**AATD with panlobular emphysema** the leading diagnosis.")
    assert wd.certainty != "definitive"


def test_a_finding_under_a_scan_label_is_no_diagnosis():  # fails on f80a8dd
    leading, _role = lead_of(LUNG, "PET: RUL nodule SUVmax 4.8, no nodal uptake. 9 mm nodule, still favor inflammatory.\n- Repeat LDCT 3 mo")
    assert leading == "post-infective inflammatory nodule"


def test_avoiding_a_drug_is_no_request():  # fails on f80a8dd
    assert not questions_asked(NMDAR, "Please avoid further antipsychotics; they may be worsening her.")
    assert questions_asked(NMDAR, "Tests:\n- Stop all antipsychotics;\n- CK") == ["CK"]


def test_a_test_judged_unneeded_is_no_request():  # fails on f80a8dd
    assert not questions_asked(DILI, "Given the normal ultrasound, I don't think an MRCP is needed at this stage.")


def test_an_indicated_operation_is_no_request():  # fails on f80a8dd
    assert not questions_asked(STONES, "Parathyroidectomy is indicated given the stones and the bone loss.")


def test_an_indicated_test_is_still_a_request():  # control
    assert questions_asked(STONES, "A neck ultrasound is indicated to localise the adenoma.")


def test_a_urine_acr_added_is_a_request():  # fails on f80a8dd
    assert questions_asked("neph-103-diabetic-kidney-disease", "Please add a urine ACR as a baseline.")


def test_an_invented_molecular_result_is_unsupported():  # fails on f80a8dd
    replies = ["Lung adenocarcinoma.", "Biopsy confirms it, and his tumour is EGFR-mutant."]
    assert _statuses(LUNG, replies, "term:EGFR mutation", "O") == {"unsupported"}


def test_a_withheld_result_named_beside_its_test_is_not_restated_elsewhere():  # fails on f80a8dd
    # under O the CSF count is withheld while the antibody result, which names the CSF, is released
    reply = "Confirmed: her CSF shows a lymphocytic pleocytosis and the antibodies are positive."
    assert _statuses(NMDAR, ["Anti-NMDAR encephalitis.", reply], "csf", "O+I") == {"unsupported"}


def test_a_molecular_kind_of_tumour_is_no_claim():  # control: the new finding must not read a tumour's kind as a result
    replies = ["Lung adenocarcinoma.", "He has never smoked, which makes an EGFR-mutant adenocarcinoma more likely."]
    got = [c for c in judge_replies(LUNG, "O", replies).annotations.claims if "EGFR" in c.span.text]
    assert not got
