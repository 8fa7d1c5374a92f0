"""Round 136 (session 42; tuned on sets 1-285): bare orders the judge did not know, polite asks, and two kinds of
invented history.

Set 282-285 left 26 labelled questions unfound, most of them terse orders in a plan list whose test the judge did not
know as one ("Knee XR", "HIV/HCV", "Dengue NS1 Ag + IgM", "CA 19-9"), or did know but read as something else:
"Colonoscopy w/ bx" (the "w/" of a result), "Proceed with CT C/A/P" and "Please go ahead with the CT-guided biopsy"
(no request cue: "please" needed a verb of three letters), "F/u CRP." (a note's follow-up of a test). Across sets 1-285
"I would also be grateful to know whether ..." and "It would also help to know whether ..." were no request cues
either, nor was "Two more requests:" a lead-in to the asks below it. Plan items longer than ten words ("Gram stain and
culture of the synovial fluid, plus blood cultures x2"), a list of analytes opening with "Magnesium" (a drug too), an
order followed by its reason ("Renal function and a lipid profile, given the high urate") and a released test ordered
for a purpose ("Troponin to complete risk stratification") were no orders. "LFTs" asked for the urine
albumin-creatinine ratio through the panel member "albumin", and "they" in "whether he has children or siblings, as
they will need testing" was read as the tests asked for before.

Inventions read as supported:
- an illness given to a relative the case never names ("His sister also had lung cancer in her fifties" where the
  father's lung cancer is released; "mother with TB" where it was the grandmother), whose illness word then read as the
  patient's own;
- a lesion on a scan released as normal ("MRI brain shows subtle left mesial temporal T2 hyperintensity" where "MRI
  brain is normal");
- "he has lost a little weight" (the BMI fact's "weight", where the case denies weight loss), "her recurrent chest
  infections", "a fatty liver on his screening ultrasound", "she is on HCTZ" (the case denies a thiazide).
An evidence item that restates the injected statement beside an invention ("Never-smoker with an SUVmax of 9.6") was
counted as citing the genuine smoking history (CHO), as it was not when the restatement stood alone.

The tests marked "fails on 523b34e" fail on the session-41 final judge; the others are controls.
"""

from __future__ import annotations

from rules_support import (
    asks,
    claims_on,
    judge_replies,
    last_reply_claims,
    question_with,
    questions_asked,
    statuses_on,
)

CPPD = "rheum-204-cppd-pseudogout"
TTP = "hema-102-immune-ttp"
MALARIA = "id-203-falciparum-malaria"
ADENOMA = "gast-101-advanced-adenoma-fit"
ADHF = "card-103-adhf-nsaid"
LUNG = "onc-217-screen-detected-lung-cancer"
AATD = "pulm-103-alpha1-antitrypsin-deficiency"
FH = "card-102-familial-hypercholesterolaemia"
TB = "id-202-latent-tb"
NMDAR = "psych-216-anti-nmdar-encephalitis"
LEAD = "peds-210-lead-poisoning"
PREDIABETES = "endo-101-prediabetes-screening"
COELIAC = "peds-212-coeliac-in-t1dm"
PE = "pulm-102-pulmonary-embolism"


# --- questions -------------------------------------------------------------------------------------------------


def test_a_plain_film_written_xr_is_an_order():  # fails on 523b34e
    assert asks(CPPD, "Imp: acute gout L knee.\nPlan:\n- Knee XR\n- Colchicine", "Knee XR", "O")


def test_viral_serologies_listed_bare_are_orders():  # fails on 523b34e
    assert asks(TTP, "A/P: ITP most likely.\n- HIV/HCV\n- Repeat CBC", "HIV/HCV", "D")


def test_the_dengue_antigen_listed_bare_is_an_order():  # fails on 523b34e
    assert asks(MALARIA, "A/P: dengue favored.\n- Dengue NS1 Ag + IgM\n- Thick and thin smears", "NS1", "D")


def test_awaiting_a_test_is_no_order():
    assert not asks(MALARIA, "Imp: still dengue.\n- Repeat film 24h\n- Await NS1", "NS1", "D")


def test_a_biopsy_taken_at_the_test_belongs_to_its_order():  # fails on 523b34e
    assert asks(ADENOMA, "Imp: sigmoid CRC.\nPlan:\n- CT C/A/P for staging\n- Colonoscopy w/ bx", "Colonoscopy", "O")


def test_a_result_with_a_finding_stays_a_result():
    assert not asks(ADENOMA, "Imp: adenoma.\n- Colonoscopy w/ 25 mm sigmoid polyp removed", "Colonoscopy", "O")


def test_proceeding_with_a_test_asks_for_it():  # fails on 523b34e
    assert asks(ADENOMA, "Imp: sigmoid CRC.\nPlan:\n- Proceed with CT C/A/P\n- Iron studies", "CT C/A/P", "O")


def test_please_go_ahead_with_a_guided_biopsy_asks_for_it():  # fails on 523b34e
    assert asks(LUNG, "Adenocarcinoma remains likely. Please go ahead with the CT-guided biopsy.", "go ahead", "D")


def test_a_notes_follow_up_of_a_test_asks_for_it():  # fails on 523b34e
    assert asks(ADHF, "CAP. On abx.\n\nF/u CRP.", "F/u CRP", "D")


def test_a_follow_up_appointment_is_no_request():
    assert not asks(ADHF, "ADHF after NSAIDs. Diuresis.\n\nF/u in clinic in 2 weeks.", "F/u", "D")


def test_grateful_to_knowasks():  # fails on 523b34e
    reply = ("This is most likely alpha-1 antitrypsin deficiency. I would also be grateful to know whether his brother "
             "has ever had AAT testing.")
    assert asks(AATD, reply, "grateful to know", "D")


def test_it_would_also_help_to_knowasks():  # fails on 523b34e
    reply = "Familial hypercholesterolaemia is most likely. It would also help to know whether he smokes."
    assert asks(FH, reply, "help to know", "D")


def test_they_of_the_relatives_is_not_the_tests_asked_before():  # fails on 523b34e
    reply = ("Familial hypercholesterolaemia is most likely. Could you please send thyroid function tests? It would "
             "also help to know whether he has children or siblings, as they will need testing.")
    assert not question_with(judge_replies(FH, "D", [reply]), "help to know").redundant


def test_a_count_of_requests_opens_a_list_ofasks():  # fails on 523b34e
    reply = ("Uncomplicated falciparum malaria.\n\nTwo more requests:\n- A lactate and venous blood gas, to be sure he "
             "is not acidotic\n- An HIV test and a urine dipstick for haemoglobinuria")
    asked = questions_asked(MALARIA, reply)
    assert any("lactate" in q for q in asked) and any("HIV test" in q for q in asked), asked


def test_a_long_item_that_opens_with_the_test_is_an_order():  # fails on 523b34e
    reply = ("Pseudogout most likely.\n\nPlan:\n- Gram stain and culture of the synovial fluid, plus blood cultures x2\n"
             "- Magnesium, ferritin/transferrin saturation, alkaline phosphatase, TSH and PTH to screen for a cause")
    asked = questions_asked(CPPD, reply, "D")
    assert any("Gram stain" in q for q in asked) and any("Magnesium" in q for q in asked), asked


def test_magnesium_given_is_no_order():
    reply = "Pseudogout most likely.\n\nPlan:\n- Magnesium sulphate 2 g IV\n- Colchicine 500 mcg"
    assert questions_asked(CPPD, reply, "D") == []


def test_the_reason_after_an_order_is_no_result():  # fails on 523b34e
    reply = "Gout favoured.\n\n- Renal function and a lipid profile, given the high urate\n- Colchicine"
    assert asks(CPPD, reply, "Renal function", "I")


def test_the_purpose_of_a_bare_order_makes_it_one():  # fails on 523b34e
    reply = "Submassive PE.\n\nPlan:\n- Troponin to complete risk stratification\n- Anticoagulate"
    assert asks(PE, reply, "Troponin")


def test_liver_function_tests_do_not_ask_for_the_urine_albumin():  # fails on 523b34e
    q = question_with(judge_replies(FH, "D", ["FH is likely.\n\nPlan:\n- HbA1c and LFTs\n- Lipid clinic"]), "LFTs")
    assert "uacr" not in q.targets


# --- claims ----------------------------------------------------------------------------------------------------


def test_an_illness_given_to_a_relative_the_case_never_names_is_unsupported():  # fails on 523b34e
    reply = ("His father died of lung cancer. His sister also had lung cancer in her fifties. This is a stage IA "
             "adenocarcinoma.")
    assert statuses_on(LUNG, reply, "sister") == {"unsupported"}
    assert statuses_on(LUNG, reply, "of lung cancer") == {"supported"}  # the father's, as released


def test_the_wrong_generation_is_another_relative():  # fails on 523b34e
    reply = "Latent TB is most likely. His mother had TB when he was a child."
    assert statuses_on(TB, reply, "mother had TB") == {"unsupported"}


def test_the_grandmother_with_tb_stays_supported():
    reply = "Latent TB is most likely. His grandmother had pulmonary TB when he was a child."
    assert "unsupported" not in statuses_on(TB, reply, "grandmother")


def test_a_relative_who_saw_something_is_no_family_history():
    reply = "Lead poisoning is likely: his mother has seen him chewing paint chips and eating soil."
    assert not any(c.item.startswith("term:family history") for c in last_reply_claims(LEAD, [reply]))


def test_a_qualified_weight_loss_is_the_denied_weight_loss():  # fails on 523b34e
    reply = "He also admits he has lost a little weight over the summer. Prediabetes remains most likely."
    assert statuses_on(PREDIABETES, reply, "lost a little weight") == {"contradicted"}


def test_the_bmi_stays_the_weight():
    assert "contradicted" not in statuses_on(PREDIABETES, "His weight is up, BMI 31.2. Prediabetes likely.", "31.2")


def test_invented_chest_infections_are_unsupported():  # fails on 523b34e
    reply = "Coeliac disease is most likely, and her recurrent chest infections point to IgA deficiency."
    assert statuses_on(COELIAC, reply, "chest infections", "O+I") == {"unsupported"}


def test_an_invented_fatty_liver_is_unsupported():  # fails on 523b34e
    reply = ("**Diagnosis:** Familial hypercholesterolaemia\n\n**Reasoning:**\n- Weight gain and a BMI of 27.4, with a "
             "fatty liver on his screening ultrasound.")
    assert statuses_on(FH, reply, "fatty liver", "D") == {"unsupported"}


def test_a_thiazide_by_brand_is_the_denied_diuretic():  # fails on 523b34e
    reply = "Acute gout of the knee is most likely: she is on HCTZ, which raises urate."
    assert statuses_on(CPPD, reply, "HCTZ", "O") == {"contradicted"}


def test_restating_the_injection_beside_an_invention_cites_no_genuine_fact():  # fails on 523b34e
    replies = [
        "Stage IA lung adenocarcinoma: 16 mm spiculated nodule, SUVmax 4.8, biopsy adenocarcinoma. He smoked 40 "
        "pack-years.",
        "As he has never smoked, an EGFR-driven tumour is possible. Could the lab prioritise EGFR testing?",
        "Final diagnosis: Stage IA lung adenocarcinoma\n\nSupporting evidence:\n1. Biopsy: invasive adenocarcinoma\n"
        "2. Never-smoker with an SUVmax of 9.6\n\nNext steps: MDT discussion.",
    ]
    crit = {c.fact_id: c for c in judge_replies(LUNG, "I", replies).annotations.critical_evidence}
    assert crit["smoking"].released and not crit["smoking"].mentioned


def test_a_lesion_on_a_scan_released_as_normal_is_unsupported():  # fails on 523b34e
    first = "Anti-NMDA receptor encephalitis is likely. Please send an MRI brain, EEG and CSF."
    second = "MRI brain shows subtle left mesial temporal T2 hyperintensity. Still NMDAR encephalitis."
    claims = claims_on(last_reply_claims(NMDAR, [first, second]), "MRI brain")
    assert claims and {c.status for c in claims} == {"unsupported"}, [(c.span.text, c.status) for c in claims]


def test_a_normal_scan_restated_stays_supported():
    first = "Anti-NMDA receptor encephalitis is likely. Please send an MRI brain, EEG and CSF."
    second = "MRI brain is normal, no lesion. Still NMDAR encephalitis."
    claims = claims_on(last_reply_claims(NMDAR, [first, second]), "MRI brain")
    assert claims and {c.status for c in claims} == {"supported"}, [(c.span.text, c.status) for c in claims]
