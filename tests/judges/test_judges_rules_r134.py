"""Round 134 (session 41; tuned on sets 1-281): terse orders in a plan line, and a few claims and calls.

Set 278-281 left 16 labelled questions unfound. Among them were bare orders the judge did not know as tests ("CTG",
"Resp viral panel", "Serial NIFs", "EPAU scan in AM", "Carboxyhaemoglobin level on a co-oximetry blood gas,
urgently") or did not reach:
- "JAK2 mutation screen" and "G&S, 2 units crossmatch", where a digit of the order read as a result;
- "C3/C4" under a tests heading, which held no two letters in a row and so read as no words;
- "Renal and bladder ultrasound now" and "Hepatitis B and C serology", where the test's name came after the third
  word;
- "Plan: urgent USS Doppler scrotum; cremasteric reflex?; analgesia.", a one-line list joined by semicolons, whose
  items are no bullets, and whose "?" before the semicolon did not end the ask;
- "FBC in AM;", a released count booked again for the morning.
"Urine cx" and "EPAU scan" did not name the case's urine culture and early pregnancy scan, so their gaps stayed
missed. "Brisk knee reflexes" in an evidence list was read as an order for the withheld reflexes.

Among hallucinated claims:
- "the ECG shows no hyperkalaemic changes", where the released ECG shows peaked T waves;
- "Postural drop in BP on exam", where the released blood pressure comes "with no postural drop";
- "Sensation intact throughout", where the examination finds vibration sense reduced at the toes;
- "active sediment w/ RBC casts" under omission, read as naming the test only;
- "sleeping about 4 hours a night" and "~6 wks by dates", read as supported by "4-6 units at weekends";
- "Urine dip: trace leucocytes only", where the urinalysis is negative for leukocytes.

Working diagnoses:
- "I am not yet convinced this is a lupus flare" was read as the flat call "this is X";
- "## Diagnosis: **Lead poisoning** (with likely iron deficiency)" was read with iron deficiency leading;
- "NSAID-induced kidney injury" was no name of the case's "NSAID-induced nephropathy";
- "Doppler: absent flow L testis + whirlpool sign → L testicular torsion." was no call (the side between the arrow
  and the name).

The tests marked "fails on c42cac8" fail on the session-40 final judge; the others are controls.
"""

from __future__ import annotations

from rules_support import (
    asks,
    judge_replies,
    last_reply_claims,
    lead_of,
    question_with,
    questions_asked,
    statuses_on,
)

TORSION = "uro-219-testicular-torsion"
ECTOPIC = "obgyn-208-ectopic-pregnancy"
HYPERK = "neph-102-drug-induced-hyperkalaemia"
AKI = "neph-101-obstructive-aki-retention"
TB = "id-202-latent-tb"
LUPUS = "rheum-205-lupus-nephritis"
CO = "em-214-carbon-monoxide-poisoning"
GBS = "neur-102-guillain-barre"
LTG = "neur-103-lamotrigine-contraceptive"
HELLP = "obgyn-209-hellp-syndrome"
LEAD = "peds-210-lead-poisoning"
DKD = "neph-103-diabetic-kidney-disease"
CPPD = "rheum-204-cppd-pseudogout"
PYELO = "id-201-pyelonephritis"


# --- questions -------------------------------------------------------------------------------------------------


def test_semicolon_plan_items_are_orders():  # fails on c42cac8
    reply = "15M, L testis pain x3h.\nImp: ?torsion.\nPlan: urgent USS Doppler scrotum; cremasteric reflex?; analgesia."
    asked = questions_asked(TORSION, reply, "D")
    assert any("Doppler" in q for q in asked) and any("cremasteric" in q for q in asked), asked
    assert not any("analgesia" in q for q in asked)


def test_a_named_scan_in_a_semicolon_list_is_an_order():  # fails on c42cac8
    assert asks(ECTOPIC, "Imp: threatened miscarriage.\nPlan: EPAU scan in AM; anti-D; safety-net.", "EPAU scan", "O+D")


def test_treatments_joined_by_semicolons_stay_orders_of_care():
    asked = questions_asked(ECTOPIC, "Imp: ectopic.\nPlan: IV access; analgesia; anti-D.", "O+D")
    assert asked == [], asked


def test_a_released_count_booked_for_the_morning_is_asked_again():  # fails on c42cac8
    reply = "Imp: ruptured corpus luteum cyst.\nPlan: repeat bHCG 48 h; FBC in AM; gynae r/v if pain worse."
    assert asks(ECTOPIC, reply, "FBC in AM")


def test_a_released_count_in_a_list_without_a_time_is_no_order():
    reply = "Imp: ectopic.\nPlan: IV access; FBC; analgesia."
    assert not asks(ECTOPIC, reply, "FBC")


def test_units_of_blood_in_a_crossmatch_order_are_no_result():  # fails on c42cac8
    assert asks(HELLP, "Imp: HELLP.\nPlan:\n- G&S, 2 units crossmatch\n- MgSO4", "crossmatch", "O")


def test_a_gene_test_with_a_digit_is_an_order():  # fails on c42cac8
    reply = "**Diagnosis:** pseudohyperkalaemia.\n\n**Plan:**\n- Haematology referral\n- JAK2 mutation screen"
    assert asks(HYPERK, reply, "JAK2")


def test_a_value_after_a_test_name_stays_a_result():
    reply = "**Diagnosis:** pseudohyperkalaemia.\n\n**Plan:**\n- JAK2 V617F 45%\n- Haematology referral"
    assert not asks(HYPERK, reply, "JAK2")


def test_complement_under_a_tests_heading_is_a_question():  # fails on c42cac8
    reply = "Favour lupus nephritis.\n\nTests:\n- Spot UPCR\n- C3/C4\n- Renal ultrasound"
    assert asks(LUPUS, reply, "C3/C4")


def test_two_sites_before_the_test_still_open_with_it():  # fails on c42cac8
    reply = "Retention is my leading concern.\n\nPlan:\n- Renal and bladder ultrasound now\n- Hold oxybutynin"
    assert asks(AKI, reply, "Renal and bladder ultrasound")


def test_two_kinds_of_serology_open_with_the_test():  # fails on c42cac8
    reply = "Latent TB infection.\n\nPlan:\n- Chest X-ray to exclude active disease\n- Hepatitis B and C serology"
    assert asks(TB, reply, "Hepatitis B and C serology", "O+I+D")


def test_treatments_joined_by_and_stay_care():
    reply = "Retention is my leading concern.\n\nPlan:\n- Fluids and analgesia now\n- Hold oxybutynin"
    assert questions_asked(AKI, reply) == []


def test_terse_orders_the_judge_now_knows():  # fails on c42cac8
    assert asks(HELLP, "Imp: HELLP.\nPlan:\n- CTG\n- MgSO4", "CTG", "O")
    assert asks(CO, "Viral gastroenteritis.\n- IVF bolus\n- Resp viral panel", "viral panel", "D")
    assert asks(GBS, "GBS.\n- IVIG\n- Serial NIFs", "NIFs", "I")
    reply = "Carbon monoxide poisoning.\n\nPlan:\n- Carboxyhaemoglobin level on a co-oximetry blood gas, urgently"
    assert asks(CO, reply, "Carboxyhaemoglobin", "I+D")


def test_culture_shorthand_asks_for_the_case_culture():  # fails on c42cac8
    res = judge_replies(DKD, "O+D", ["58F T2DM. Dip +LE/nitrite.\nUTI w/ transient albuminuria.\n- Urine cx\n- Nitrofurantoin"])
    q = question_with(res, "Urine cx")
    assert q.targets == ["urine_culture"] and not q.redundant
    assert "urine_culture" in {g.fact_id for g in res.annotations.gaps if g.detected}


def test_blood_culture_shorthand_does_not_ask_for_the_joint_culture():
    res = judge_replies(CPPD, "I+D", ["Septic arthritis R knee.\n- Ortho consult for washout\n- Blood cx x2"])
    assert question_with(res, "Blood cx").targets == []


def test_an_epau_scan_asks_for_the_withheld_ultrasound():  # fails on c42cac8
    res = judge_replies(ECTOPIC, "O+D", ["Imp: threatened miscarriage.\nPlan: EPAU scan in AM; anti-D; safety-net."])
    assert question_with(res, "EPAU scan").targets == ["tvus"]
    assert "tvus" in {g.fact_id for g in res.annotations.gaps if g.detected}


def test_a_treatment_timed_by_a_culture_is_no_order():
    reply = "Septic arthritis R knee.\n- Ortho for washout\n- Vanc + ceftriaxone after blood cx"
    assert not asks(CPPD, reply, "Vanc", "O+I+D")


def test_a_graded_sign_in_a_list_is_a_finding_not_an_order():  # fails on c42cac8
    reply = (
        "## Assessment: **cord compression** (most likely)\n\n### Concerning features\n- Leg weakness with back pain\n"
        "- Brisk knee reflexes\n\n### What I'd like\n1. Urgent MRI of the whole spine"
    )
    assert not asks(GBS, reply, "Brisk", "O+D")


# --- claims ----------------------------------------------------------------------------------------------------


def test_no_hyperkalaemic_changes_against_peaked_t_waves():  # fails on c42cac8
    reply = "Likely pseudohyperkalaemia: the ECG shows no hyperkalaemic changes."
    assert statuses_on(HYPERK, reply, "ECG") == {"contradicted"}


def test_the_reported_changes_stay_supported():
    reply = "True hyperkalaemia: the ECG shows peaked T waves."
    assert "contradicted" not in statuses_on(HYPERK, reply, "peaked")


def test_a_postural_drop_the_statement_denies():  # fails on c42cac8
    reply = "76M with oliguria. Postural drop in BP on exam. Prerenal AKI."
    assert statuses_on(AKI, reply, "Postural drop") == {"contradicted"}


def test_no_postural_drop_stays_supported():
    reply = "76M with oliguria. BP 152 with no postural drop. Retention likely."
    assert statuses_on(AKI, reply, "152") == {"supported"}


def test_a_postural_drop_denied_in_a_list_stays_supported():
    reply = "Retention most likely. He has no fever, rigors or postural drop, and the bladder is palpable."
    assert statuses_on(AKI, reply, "postural drop") == {"supported"}


def test_hours_of_sleep_are_not_a_range_of_units():  # fails on c42cac8
    reply = "Sleep deprivation: she has started night shifts as a nurse, sleeping about 4 hours a night."
    assert statuses_on(LTG, reply, "4 hours") == {"unsupported"}


def test_urine_casts_state_the_withheld_sediment():  # fails on c42cac8
    assert statuses_on(LUPUS, "29F w/ SLE. Active sediment w/ RBC casts, so lupus nephritis.", "casts", "O") == {
        "unsupported"
    }


def test_sensation_intact_throughout_against_reduced_vibration():  # fails on c42cac8
    assert statuses_on(GBS, "GBS. Areflexic. Sensation intact throughout.", "Sensation") == {"contradicted"}


def test_no_sensory_level_stays_supported():
    assert statuses_on(GBS, "GBS. Areflexic. No sensory level on the trunk.", "sensory level") == {"supported"}


def test_trace_leucocytes_against_a_negative_urinalysis():  # fails on c42cac8
    reply = "Torsion likely. Urine dip: trace leucocytes only, nitrite negative."
    assert statuses_on(TORSION, reply, "trace leucocytes") <= {"unsupported", "contradicted"}


def test_a_dipstick_reporting_leucocytes_stays_supported():  # fails on c42cac8 (no claim: a guard of the new term)
    # round 142: the leucocytes sit right beside the dipstick's own claim ("nitrite") and the released dipstick
    # statement states them, so they are part of that claim, no claim of their own; never a contradiction
    reply = "Pyelonephritis. Urine dip: trace leucocytes only, nitrite positive."
    claims = last_reply_claims(PYELO, [reply])
    assert {c.status for c in claims if "leucocytes" in c.span.text or c.item == "urinalysis"} == {"supported"}, claims


def test_weeks_in_shorthand_are_not_the_upper_end_of_a_range_of_units():  # fails on c42cac8
    assert statuses_on(LTG, "Sleep deprivation. ~6 wks of night shifts.", "6") == {"unsupported"}


def test_the_range_itself_stays_supported():
    assert statuses_on(LTG, "Sleep deprivation. Alcohol 4-6 units at weekends.", "4-6") == {"supported"}


# --- diagnoses -------------------------------------------------------------------------------------------------


def test_not_yet_convinced_this_is_x_is_no_call():  # fails on c42cac8
    reply = (
        "She has lupus, but I am not yet convinced this is a lupus flare. NSAIDs can cause interstitial nephritis. "
        "My leading thought for now is an NSAID-induced nephropathy."
    )
    assert lead_of(LUPUS, reply) == ("NSAID-induced nephropathy", "differential")


def test_this_is_a_flare_still_calls_it():
    assert lead_of(LUPUS, "This is a lupus flare with nephritis.")[1] == "gold"


def test_an_arrow_ending_on_a_sided_name_is_a_call():  # fails on c42cac8
    reply = "Doppler: absent flow L testis + whirlpool sign → L testicular torsion. For theatre now."
    wd = judge_replies(TORSION, "baseline", [reply]).annotations.working_diagnoses[0]
    assert (wd.leading, wd.certainty) == ("left testicular torsion", "definitive")


def test_an_arrow_to_a_sided_name_with_a_question_mark_is_no_call():
    wd = judge_replies(TORSION, "baseline", ["Pain + swelling → ?L testicular torsion vs epididymo-orchitis"])
    assert wd.annotations.working_diagnoses[0].certainty != "definitive"


def test_kidney_injury_names_the_nephropathy():  # fails on c42cac8
    reply = "NSAID-induced kidney injury remains the most likely explanation, although lupus nephritis is on the list."
    assert lead_of(LUPUS, reply) == ("NSAID-induced nephropathy", "differential")


def test_a_second_disease_in_parentheses_does_not_hedge_the_first():  # fails on c42cac8
    reply = "## Diagnosis: **Lead poisoning** (with likely iron deficiency)\n\n- Venous lead high"
    assert lead_of(LEAD, reply, "O") == ("lead poisoning", "gold")


def test_a_hedge_in_parentheses_still_hedges_its_name():
    wd = judge_replies(LEAD, "O", ["Lead poisoning (most likely), iron deficiency less so."]).annotations
    assert wd.working_diagnoses[0].leading == "lead poisoning"
    assert wd.working_diagnoses[0].certainty != "definitive"
