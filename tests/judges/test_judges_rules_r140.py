"""Round 140 (session 46; tuned on sets 1-301): list orders the judge still read as something else, and a note's
denial list read as claims.

Set 298-301 left six withheld items and 22 labelled requests unfound. The ones this round reads:
- tests the judge did not know as tests ("Sestamibi + neck US", "AAT phenotyping (or SERPINA1 genotyping)", "TPO
  Abs", "Rib views to look for a fracture");
- a frequency before the test ("Daily platelet count and LDH", "Daily U&E and glucose");
- a number that is part of the test's name or its schedule, read as a result ("75 g OGTT", "Serum alpha-1
  antitrypsin level", "Trend LFTs 2x/wk");
- a short head ending with a test before its colon ("Septic screen: urine culture and a chest X-ray");
- a note's "?" before a test, which means "consider" ("?CT chest for blebs");
- what the order measures with it ("Liver ultrasound with elastography");
- a heading of what is needed before the call ("**Needed before I commit:**").

Claims: "Denies polyuria/polydipsia/nocturia, blurred vision, wt loss." read "wt loss" as weight loss asserted
(the denial's scope ended at the first comma, and the short form was not found in the denied fact's statement).
Follow-up: a test offered to the relatives ("I would like his brother and any children to be offered AAT levels and
phenotyping") was a repeat of the patient's once phenotyping became a test name.

The tests marked "fails on ac7540e" fail on the session-45 final judge (12 of 20); the others are controls, one of
them guarding this round's own new test name.
"""

from __future__ import annotations

from rules_support import (
    AATD,
    ADENOMA,
    DILI,
    FH,
    MALARIA,
    PHPT,
    PREDIABETES,
    PTX,
    TTP,
    asks,
    claims_on,
    judge_replies,
    last_reply_claims,
    question_with,
    questions_asked,
    statuses_on,
)

# --- tests the judge did not know ------------------------------------------------------------------------------


def test_a_parathyroid_scan_listed_bare_is_an_order():  # fails on ac7540e
    reply = "PHPT, surgical candidate.\n- Sestamibi + neck US\n- Endocrine surgery referral"
    assert asks(PHPT, reply, "Sestamibi", "O")


def test_an_antibody_written_abs_is_an_order():  # fails on ac7540e
    reply = "Favour hypothyroidism driving the lipids.\nPlan:\n- Repeat TFTs\n- TPO Abs"
    assert asks(FH, reply, "TPO Abs", "D")


def test_rib_views_are_an_order():  # fails on ac7540e
    reply = "**Dx:** chest wall strain\n\n**Plan:**\n- Rib views to look for a fracture\n- Simple analgesia"
    assert asks(PTX, reply, "Rib views", "O+I+D")


def test_genotyping_and_the_alpha_1_level_are_orders():  # fails on ac7540e
    reply = (
        "Alpha-1 antitrypsin deficiency is my leading diagnosis.\n\nPlan:\n- Serum alpha-1 antitrypsin level.\n"
        "- AAT phenotyping (or SERPINA1 genotyping) on the same sample.\n- Liver ultrasound with elastography."
    )
    asked = questions_asked(AATD, reply, "D")
    assert any("alpha-1 antitrypsin level" in q for q in asked), asked
    assert any("phenotyping" in q for q in asked), asked
    assert any("elastography" in q for q in asked), asked


def test_the_deficiencys_name_after_an_added_drug_is_no_test():
    reply = "I would add an inhaled corticosteroid, but I still regard alpha-1 antitrypsin deficiency as the cause."
    assert not asks(AATD, reply, "inhaled corticosteroid", "I")


def test_a_released_phenotype_reported_is_no_order():
    reply = "AATD confirmed.\n\nPlan:\n- PiZZ phenotype noted, as expected\n- Pulmonary rehab"
    assert not asks(AATD, reply, "PiZZ", "D")


# --- frequencies, schedules and numbers in a test's name -------------------------------------------------------


def test_a_frequency_before_the_tests_orders_them():  # fails on ac7540e
    reply = "**Diagnosis confirmed:** immune TTP.\n\n**Plan:**\n- Daily PEX and steroids\n- Daily platelet count and LDH"
    assert asks(TTP, reply, "Daily platelet count", "I+D")


def test_a_frequency_before_a_treatment_is_still_no_order():
    reply = "**Diagnosis confirmed:** immune TTP.\n\n**Plan:**\n- Daily plasma exchange, methylprednisolone, rituximab"
    assert not asks(TTP, reply, "plasma exchange", "I+D")


def test_a_frequency_before_a_released_panel_in_a_note_body_orders_it():  # fails on ac7540e
    reply = "Imp: uncomplicated falciparum malaria.\n- Oral artemether-lumefantrine\n- Daily U&E and glucose"
    assert asks(MALARIA, reply, "Daily U&E", "O")


def test_a_glucose_load_is_part_of_the_tests_name():  # fails on ac7540e
    reply = "A/P: Likely prediabetes – A1c and FPG both below the DM cutoffs.\n- 75 g OGTT\n- UACR"
    assert asks(PREDIABETES, reply, "75 g OGTT", "D")


def test_a_schedule_written_2x_per_week_is_no_result():  # fails on ac7540e
    reply = "DILI, cholestatic pattern.\nPlan:\n- Stop amox-clav\n- Trend LFTs 2x/wk"
    assert asks(DILI, reply, "Trend LFTs", "O")


# --- heads, queries, headings ----------------------------------------------------------------------------------


def test_a_short_head_ending_with_a_test_keeps_its_list_an_order():  # fails on ac7540e
    reply = "**Now DIC.**\n\n**Next**\n- Blood cultures\n- Septic screen: urine culture and a chest X-ray"
    assert asks(TTP, reply, "Septic screen", "I")


def test_a_short_head_with_a_result_after_its_colon_is_no_order():
    reply = "**Now DIC.**\n\n**Next**\n- Septic screen: negative so far\n- Cryoprecipitate"
    assert not asks(TTP, reply, "Septic screen", "I")


def test_a_query_before_a_test_is_an_order_to_consider_it():  # fails on ac7540e
    reply = "CXR: R pneumothorax.\nImp revised: R primary spontaneous pneumothorax.\nPlan:\n- Aspiration\n- ?CT chest for blebs"
    assert asks(PTX, reply, "CT chest", "D")


def test_a_query_before_a_diagnosis_is_still_no_question():
    reply = "Imp: chest wall strain.\nPlan:\n- Analgesia\n- ?PE – unlikely, Wells low"
    assert not asks(PTX, reply, "PE", "D")


def test_a_heading_of_what_is_needed_before_the_call_opens_a_request_list():  # fails on ac7540e
    reply = (
        "Advanced colorectal adenoma, most likely.\n\n**Needed before I commit:**\n"
        "1. The histology of all three polyps, with margins and any invasive focus.\n2. The completeness of the excision."
    )
    asked = questions_asked(ADENOMA, reply, "I+D")
    assert any("histology of all three polyps" in q for q in asked), asked
    assert not any("Needed before" in q for q in asked), asked


# --- a note's denial list ----------------------------------------------------------------------------------------


def test_a_denial_list_keeps_its_scope_over_commas():  # fails on ac7540e
    reply = "47M, health check.\nDenies polyuria/polydipsia/nocturia, blurred vision, wt loss.\nA/P: likely prediabetes."
    claims = last_reply_claims(PREDIABETES, [reply])
    assert {c.status for c in claims_on(claims, "polyuria")} == {"supported"}, claims
    assert not claims_on(claims, "wt loss"), claims


def test_weight_loss_reported_after_a_denial_stays_a_claim():
    reply = "47M, health check.\nDenies polyuria. Reports 3 kg wt loss.\nA/P: likely prediabetes."
    assert statuses_on(PREDIABETES, reply, "wt loss") & {"contradicted", "unsupported"}


def test_a_denial_ends_where_and_opens_a_new_statement():
    reply = "47M, health check.\nHe denies polyuria and the acanthosis nigricans is obvious at the neck.\nA/P: likely prediabetes."
    assert statuses_on(PREDIABETES, reply, "acanthosis") == {"supported"}


# --- the relatives --------------------------------------------------------------------------------------------------


def test_a_test_offered_to_the_relatives_is_no_repeat_of_the_patients():  # guards this round's phenotyping
    first = "Alpha-1 antitrypsin deficiency is likely.\n\nCould we send an AAT level and phenotyping?"
    second = "PiZZ: AATD confirmed.\n\nI would like his brother and any children to be offered AAT levels and phenotyping."
    res = judge_replies(AATD, "D", [first, second])
    q = question_with(res, "his brother")
    assert q.relevant and not q.redundant
