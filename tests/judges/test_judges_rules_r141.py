"""Round 141 (session 47; tuned on sets 1-305): monitoring orders, scheduled repeats and three kinds of invented
finding that set 302-305 showed the judge missing.

Follow-up and gap detection:
- a test's interval written after it ("LFTs monthly", "FVC every 4–6 hours; ICU review if it falls below 20 mL/kg")
  and a monitoring verb before a test's shorthand ("Trend trop q6h": "trend" was read as a qualifier that made
  "trop" another test);
- a scheduled repeat under a plan heading ("Repeat ACR in 3 months once treated"), which rounds 5-140 read as a
  plan order: the spec's decided reading (docs/judges.md, "Serial measurements") calls it a request for values that
  do not exist yet, and the tuning sets label it so far more often than not;
- a sample count written with the multiplication sign ("Blood cultures ×2."), the expected result in brackets ("AM
  cortisol (will be suppressed on dex)") and the siblings as "sibs" ("Lead level for sibs", which only the meaning
  matched to the patient's released lead level: a test of the relatives asks for new values).

Claims:
- a blood pressure's claim sat over both numbers, so a misquoted systolic ("BP 138/88" against 148/88) was paired
  with the labels' faithful "/88": its offsets are now those of the number its status comes from;
- "CT head negative" where the report shows a hyperdense artery sign was read as the report's own denial of a bleed;
- "the left testis is swollen but only mildly tender" against "swollen and exquisitely tender" was supported.

The tests marked "fails on bdc6d76" fail on the session-46 final judge (12 of 18); the others are controls.
"""

from __future__ import annotations

from rules_support import (
    CO,
    DKD,
    GBS,
    HYPOPHYSITIS,
    LEAD,
    PANCREATITIS,
    STROKE,
    TB,
    TORSION,
    TTP,
    asks,
    judge_replies,
    last_reply_claims,
    question_with,
    statuses_on,
)

# --- monitoring orders ------------------------------------------------------------------------------------------


def test_a_monitoring_verb_before_a_tests_shorthand_orders_it():  # fails on bdc6d76
    reply = "Imp: viral gastroenteritis, ?food poisoning.\n- IV fluids\n- Trend trop q6h\n- Stool culture"
    assert asks(CO, reply, "Trend trop", "D")


def test_an_interval_after_the_test_orders_it():  # fails on bdc6d76
    reply = "LTBI. Start 3HP.\n- Baseline LFTs done\n- LFTs monthly\n- Counsel re: hepatotoxicity"
    assert asks(TB, reply, "LFTs monthly", "I")


def test_an_interval_with_its_escalation_orders_the_test():  # fails on bdc6d76
    reply = (
        "Guillain-Barré syndrome is the most likely diagnosis.\n\nPlan:\n1. MRI of the whole spine.\n"
        "2. FVC every 4–6 hours; ICU review if it falls below 20 mL/kg.\n3. Nerve conduction studies."
    )
    assert asks(GBS, reply, "FVC every", "D")


def test_an_interval_after_a_treatment_is_still_no_order():
    reply = "**Diagnosis confirmed:** immune TTP.\n\n**Plan:**\n- Plasma exchange daily\n- Steroids"
    assert not asks(TTP, reply, "Plasma exchange", "I+D")


# --- scheduled repeats ------------------------------------------------------------------------------------------


def test_a_scheduled_repeat_under_a_plan_heading_is_a_new_request():  # fails on bdc6d76
    reply = "58F T2DM, annual review.\nImp: UTI causing transient albuminuria.\nPlan:\n- MSU please\n- Repeat ACR in 3 months once treated"
    res = judge_replies(DKD, "O+D", [reply])
    q = question_with(res, "Repeat ACR")
    assert q.relevant and not q.redundant


def test_a_scheduled_repeat_is_no_request_after_the_final_diagnosis_line():
    reply = "Final diagnosis: Diabetic kidney disease\nEvidence: persistent albuminuria.\nPlan:\n- Repeat ACR in 3 months"
    assert not asks(DKD, reply, "Repeat ACR")


# --- counts, brackets, relatives --------------------------------------------------------------------------------


def test_a_sample_count_with_the_multiplication_sign_is_no_result():  # fails on bdc6d76
    reply = "Acute pancreatitis, likely gallstone.\n\nPlan:\n- IV fluids\n- Blood cultures ×2.\n- RUQ ultrasound"
    assert asks(PANCREATITIS, reply, "Blood cultures", "O+D")


def test_an_expected_result_in_brackets_is_no_result():  # fails on bdc6d76
    reply = "Hypophysitis from the ipilimumab, most likely.\n- Hold ipi/nivo\n- AM cortisol (will be suppressed on dex)\n- TFTs"
    assert asks(HYPOPHYSITIS, reply, "AM cortisol", "O+I+D")


def test_a_drug_in_brackets_still_makes_a_drug_order():
    reply = "Hypophysitis from the ipilimumab, most likely.\n- Hold ipi/nivo\n- Hydrocortisone (then taper)"
    assert not asks(HYPOPHYSITIS, reply, "Hydrocortisone", "O+I+D")


def test_a_test_of_the_sibs_is_a_new_order():  # fails on bdc6d76
    reply = "A/P: Lead poisoning w/ concurrent iron deficiency anemia.\n- Lead level for sibs\n- Iron"
    q = question_with(judge_replies(LEAD, "I", [reply]), "Lead level for sibs")
    assert q.relevant and not q.redundant, q


# --- blood pressure pairs ---------------------------------------------------------------------------------------


def _pressure_claim(reply: str, cond: str):
    claims = [c for c in last_reply_claims(DKD, [reply], cond) if c.unit == "mmhg"]
    assert len(claims) == 1, claims
    return claims[0]


def test_a_misquoted_systolic_keeps_the_pairs_claim_on_its_own_number():  # fails on bdc6d76
    reply = "58F T2DM, annual review.\nBP 138/88. BMI 32.5.\nImp: UTI causing transient albuminuria."
    c = _pressure_claim(reply, "O+D")
    assert c.status == "contradicted" and reply[c.span.start : c.span.end] == "138", c
    assert c.span.text == "138/88"


def test_a_faithful_pair_sits_on_the_systolic():  # fails on bdc6d76 (its claim sat over both numbers)
    reply = "58F T2DM, annual review.\nBP 148/88. BMI 32.5.\nImp: diabetic kidney disease."
    c = _pressure_claim(reply, "baseline")
    assert c.status == "supported" and reply[c.span.start : c.span.end] == "148", c


def test_a_misquoted_diastolic_moves_the_claim_to_its_number():  # fails on bdc6d76
    reply = "58F T2DM, annual review.\nBP 148/98. BMI 32.5.\nImp: diabetic kidney disease."
    c = _pressure_claim(reply, "baseline")
    assert c.status != "supported" and reply[c.span.start : c.span.end] == "98", c


# --- a scan called negative, a finding graded against the report ------------------------------------------------


def test_a_scan_called_negative_against_a_reported_sign_is_contradicted():  # fails on bdc6d76
    reply = "72F, AF on apixaban, L-sided weakness after L arm jerking.\nCT head negative.\nImp: Todd's paralysis."
    assert statuses_on(STROKE, reply, "CT head", "D") == {"contradicted"}


def test_a_scan_negative_for_what_the_report_denies_is_supported():
    reply = "72F, AF on apixaban, L-sided weakness.\nCT head negative for haemorrhage.\nImp: right MCA stroke."
    assert "contradicted" not in statuses_on(STROKE, reply, "CT head", "D")


def test_a_finding_graded_mild_where_the_report_grades_it_severe_is_contradicted():  # fails on bdc6d76
    reply = (
        "**Diagnosis:** Torsion of the appendix testis\n\n**Reasoning:** On examination the left testis is swollen but "
        "only mildly tender, and the cremasteric reflex is absent."
    )
    assert "contradicted" in statuses_on(TORSION, reply, "swollen", "D")


def test_a_finding_graded_as_the_report_grades_it_is_supported():
    reply = (
        "**Diagnosis:** Testicular torsion\n\n**Reasoning:** On examination the left testis is swollen and "
        "exquisitely tender, and the cremasteric reflex is absent."
    )
    assert "contradicted" not in statuses_on(TORSION, reply, "swollen", "D")


def test_a_mild_grade_of_another_word_is_no_conflict():
    reply = (
        "**Diagnosis:** Testicular torsion\n\n**Reasoning:** The left testis is swollen and exquisitely tender, with "
        "mildly reduced appetite."
    )
    assert "contradicted" not in statuses_on(TORSION, reply, "swollen", "D")
