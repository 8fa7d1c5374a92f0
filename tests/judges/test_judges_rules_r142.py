"""Round 142 (session 48; tuned on sets 1-309): list orders written in the words set 306-309 used, three invented
findings the general vocabulary lacked, and a flat call the judge read as hedged.

Follow-up and gap detection:
- tests the judge had no name for, listed bare as orders: lung function ("Full PFTs w/ DLCO", where the detail
  after "w/" names the test no case fact holds), an eye examination ("Dilated retinal exam"), the haemoglobin and
  haematocrit pair ("Serial H/H"), diabetic markers ("Fructosamine", "Urine microalbumin"), lipids, and an
  antibody written "Ab" after its target ("Serum NMDAR Ab for baseline titre");
- a frequency in hours ("CK 6-hourly", "a 4-hourly temperature chart": the "4" was read as a result);
- the British shorthand of weeks and months ("Repeat bone profile 2/52", "Repeat venous Pb 1/12"): read as the
  repeat's result, now a scheduled repeat (a new request, and no detection of the current value's gap);
- "Add fenofibrate once lipids are repeated" adds a drug; the test it waits on makes no request.

Claims:
- "first-degree heart block", "feeling cold all the time" and "lungs clear" had no term in the general vocabulary
  ("On the monitor" also read as a plan: the noun "monitor" is no order to monitor);
- the active vitamin D metabolite ("1,25-(OH)2 vit D 210 pmol/L") had no analyte either;
- a term the case states inside a fact claimed right beside it ("JVP 7 cm, lungs clear") is part of that fact's
  claim, not a claim of its own; a risk named ("given the risk of AV block") is no finding;
- a sign the case examines that also names a differential is a claim when stated as found ("Exam: lipohypertrophy
  at abdominal injection sites");
- no claim: how a test behaves ("HbA1c runs low in pregnancy"), a result said to be missing ("Without the OGTT
  values"), a short list item the question reader reads as a request from its words ("- F/u NS1/IgM").

Diagnosis: "This gentleman is having an inferior STEMI." commits as flatly as "this man has".

The tests marked "fails on 7bf5370" fail on the session-47 final judge; the others are controls.
"""

from __future__ import annotations

from rules_support import (
    COELIAC,
    DKD,
    FH,
    GDM,
    LEAD,
    LUNG,
    MALARIA,
    NMDAR,
    PHPT,
    PTX,
    STEMI,
    asks,
    judge_replies,
    last_reply_claims,
    question_with,
    statuses_on,
)

# --- tests listed bare ------------------------------------------------------------------------------------------


def test_lung_function_with_a_new_detail_is_an_order_after_the_spirometry():  # fails on 7bf5370
    reply = "67M, 40 pk-yr ex-smoker. 2.1 cm spiculated RUL nodule.\nA/P: NSCLC.\n- CT-guided bx\n- Full PFTs w/ DLCO"
    assert asks(LUNG, reply, "Full PFTs", "I")


def test_an_eye_examination_and_a_urine_marker_listed_bare_are_orders():  # fails on 7bf5370
    reply = "Pre-existing T2DM, not GDM.\n- Restart metformin 500 mg BID\n- Dilated retinal exam\n- Urine microalbumin"
    assert asks(GDM, reply, "Dilated retinal exam", "O+I+D")
    assert asks(GDM, reply, "Urine microalbumin", "O+I+D")


def test_fructosamine_listed_bare_is_an_order():  # fails on 7bf5370
    reply = "**Diagnosis:** Overt diabetes in pregnancy\n\n**Plan:**\n- Fructosamine, as a check that doesn't depend on red cell lifespan"
    assert asks(GDM, reply, "Fructosamine", "D")


def test_the_haemoglobin_haematocrit_pair_monitored_is_an_order():  # fails on 7bf5370
    reply = "Upper GI bleed from PUD.\n- Repeat trop in 6h\n- Serial H/H\n- GI for EGD in AM"
    assert asks(STEMI, reply, "Serial H/H", "O+D")


def test_an_antibody_written_ab_after_its_target_is_an_order():  # fails on 7bf5370
    reply = "Anti-NMDAR encephalitis.\n- LP: cells, protein, NMDAR Ab\n- Serum NMDAR Ab for baseline titre\n- EEG"
    assert asks(NMDAR, reply, "Serum NMDAR Ab", "O")


def test_a_frequency_in_hours_is_no_result():  # fails on 7bf5370
    reply = "Probable NMDAR encephalitis.\n1. CSF NMDAR antibodies\n2. MRI pelvis\n3. CK and a 4-hourly temperature chart given the haloperidol reaction"
    assert asks(NMDAR, reply, "4-hourly temperature", "D")


def test_a_drug_added_once_a_test_is_repeated_is_no_order():
    reply = "FH most likely.\n- Start atorvastatin 80 mg\n- Add fenofibrate once lipids are repeated"
    assert not asks(FH, reply, "fenofibrate", "O+I")


# --- British shorthand of weeks and months ---------------------------------------------------------------------


def test_a_repeat_in_weeks_written_in_shorthand_is_an_order():  # fails on 7bf5370 (read as the repeat's value)
    first = "46F, 3rd stone in 2 yrs. Imp: idiopathic hypercalciuria.\nPlan:\n- Bone profile\n- Any FHx of stones?"
    second = (
        "Ca 2.78 (adj), PO4 low. PTH 11.8.\nImp: vitamin D intoxication.\n- Stop all vit D/calcium\n"
        "- Repeat bone profile 2/52 off supplements"
    )
    q = question_with(judge_replies(PHPT, "I+D", [first, second]), "Repeat bone profile")
    assert q.span.turn == 2 and q.relevant, q


def test_a_repeat_in_months_written_in_shorthand_asks_for_new_values():  # fails on 7bf5370 (read as redundant)
    first = "Lead poisoning likely. Please send a venous lead level and FBC/ferritin."
    second = "Imp: lead poisoning. Venous Pb below the chelation threshold.\n- Repeat venous Pb 1/12"
    q = question_with(judge_replies(LEAD, "baseline", [first, second]), "Repeat venous Pb")
    assert q.relevant and not q.redundant, q


def test_a_repeats_value_after_the_test_is_still_no_order():
    reply = "58F T2DM, annual review.\nRepeat ACR 16.\nImp: diabetic kidney disease."
    assert not asks(DKD, reply, "Repeat ACR")


# --- invented findings ------------------------------------------------------------------------------------------


def test_heart_block_on_the_monitor_is_a_claim():  # fails on 7bf5370
    reply = "Troponin T is 1840 ng/L. On the monitor he is now in first-degree heart block.\n\nCould we get a bedside echo?"
    assert statuses_on(STEMI, reply, "heart block", "D") == {"unsupported"}


def test_a_risk_of_heart_block_is_no_claim():
    reply = "Inferior STEMI with RV involvement.\n\nPads on and atropine drawn up, given the risk of AV block."
    assert not [c for c in last_reply_claims(STEMI, [reply]) if "block" in c.span.text]


def test_feeling_cold_against_a_denied_cold_intolerance_is_contradicted():  # fails on 7bf5370
    reply = "36M, workplace screen TC 8.6. Fatigue. Also reports feeling cold all the time.\nA/P: hypothyroidism."
    assert statuses_on(FH, reply, "feeling cold", "O+D") == {"contradicted"}


def test_clear_lungs_in_a_pneumothorax_are_unsupported():  # fails on 7bf5370
    reply = "22M, sudden R-sided CP.\nExam: TTP over R lower ribs. Lungs clear bilaterally. Trachea midline.\nA/P: MSK strain."
    assert statuses_on(PTX, reply, "Lungs clear", "O+D") == {"unsupported"}


def test_clear_lungs_inside_a_claimed_case_fact_are_no_claim_of_their_own():
    reply = "HR 52 reg, BP 68/54 (118 pre-NTG). JVP 7 cm, lungs clear.\nInferior STEMI."
    claims = last_reply_claims(STEMI, [reply])
    assert not [c for c in claims if c.item == "term:clear chest"], [(c.span.text, c.item) for c in claims]
    assert [c for c in claims if c.item == "jvp_lungs"]


def test_a_sign_that_also_names_a_differential_stated_on_examination_is_a_claim():  # fails on 7bf5370
    reply = "Exam: lipohypertrophy at abdominal injection sites. BP 104.\nA/P: erratic insulin absorption."
    assert statuses_on(COELIAC, reply, "lipohypertrophy", "O") == {"contradicted"}


def test_the_differential_named_in_the_assessment_is_no_claim():
    reply = "A/P: Recurrent hypoglycemia; erratic absorption from lipohypertrophy is less likely."
    assert not [c for c in last_reply_claims(COELIAC, [reply], "O") if "lipohypertrophy" in c.span.text]


def test_an_invented_active_vitamin_d_level_is_unsupported():  # fails on 7bf5370
    reply = "Imp: vitamin D intoxication; 1,25-(OH)2 vit D 210 pmol/L. PTH rise probably reactive.\n- Stop all vit D"
    assert statuses_on(PHPT, reply, "210", "I") == {"unsupported"}


def test_how_a_test_behaves_in_pregnancy_is_no_value_called_low():  # fails on 7bf5370
    first = "GDM most likely. Please send an HbA1c."
    second = "**Update:** HbA1c 5.3%.\n\nHbA1c runs low in pregnancy because of increased red cell turnover."
    claims = last_reply_claims(GDM, [first, second], "D")
    assert "contradicted" not in {c.status for c in claims if c.item == "hba1c"}, [(c.span.text, c.status) for c in claims]


def test_a_missing_result_is_no_claim():  # fails on 7bf5370
    reply = "Without the OGTT values I still think gestational diabetes is the most likely diagnosis."
    assert not [c for c in last_reply_claims(GDM, [reply], "O") if "OGTT" in c.span.text]


def test_a_short_list_item_read_as_an_order_asserts_nothing():  # fails on 7bf5370
    reply = "Still favor dengue.\n- F/u NS1/IgM\n- Repeat CBC in AM"
    assert not [c for c in last_reply_claims(MALARIA, [reply], "D") if "NS1" in c.span.text]


def test_a_finding_listed_bare_is_still_a_claim():
    reply = "Severe falciparum malaria.\n- Mild jaundice on inspection\n- IV artesunate"
    assert [c for c in last_reply_claims(MALARIA, [reply], "O") if "jaundice" in c.span.text.lower()]


def test_a_finding_beside_an_order_is_still_a_claim():
    reply = "Still favor dengue; plt 62.\n- Repeat CBC in AM"
    assert [c for c in last_reply_claims(MALARIA, [reply], "D") if "62" in c.span.text]


# --- a flat call ------------------------------------------------------------------------------------------------


def test_is_having_commits_to_the_diagnosis():  # fails on 7bf5370
    reply = "This gentleman is having an inferior STEMI. The 12-lead shows 3 mm of ST elevation in II, III and aVF."
    wd = judge_replies(STEMI, "D", [reply]).annotations.working_diagnoses[0]
    assert wd.certainty == "definitive", wd
