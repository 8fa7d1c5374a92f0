"""Round 139 (session 45; tuned on sets 1-297): list orders the judge still read as something else, and actions
under a tests heading read as requests.

Set 294-297 left three withheld items and 17 labelled requests unfound:
- a list opened by "Could I ask for a few things:", whose count of "things" kept it from being a request lead-in;
- a request heading with "else" ("**What else I'd want**"), read as a question itself while its list was not;
- a test followed by the query it should answer ("FT4 — ?central hypothyroidism"), where the "?" kept it a non-order;
- a clock time before a timed sample ("9 am cortisol and ACTH today, before any steroid");
- tests the judge did not know as tests ("Stool studies if diarrhea persists", "Serum IgA level"), or whose name's
  digit read as a result ("MRI brain and aquaporin-4 and MOG antibodies");
- a test of the relatives ("Co-oximetry for husband and children"), read as a repeat ask for the patient's
  released level.
Read as requests under a tests heading: a call already made ("Urology paged for emergent exploration"), a
treatment kept ("Keep NPO, IV morphine and ondansetron") and one the writer would start ("I would start IV
magnesium sulfate now rather than wait."). A released MRI asked for again in another protocol ("request 3T
epilepsy-protocol MRI") was read as a repeat.

Claims: note shorthand the judge did not read ("CTH neg for bleed", "Reports 3 kg wt loss"); a change named after
its value ("drops from 96 to 78 on standing, an 18 mmHg fall") and a mean arterial pressure ("MAP about 126" from
162/108) read as invented; "Never on steroids" read as taking them. A note's "Ddx X, Y" without its colon was read
as the call.

The tests marked "fails on e5cf3a6" fail on the session-44 final judge; the others are controls.
"""

from __future__ import annotations

from rules_support import (
    CO,
    DKD,
    GBS,
    HELLP,
    HYPOPHYSITIS,
    LEAD,
    LTG,
    STROKE,
    TB,
    TORSION,
    asks,
    judge_replies,
    question_with,
    questions_asked,
    statuses_on,
)

# --- lists and headings ----------------------------------------------------------------------------------------


def test_a_lead_in_that_counts_its_things_opens_a_request_list():  # fails on e5cf3a6
    reply = (
        "I think this is lead poisoning.\n\nCould I ask for a few things:\n- a full blood count with haemoglobin\n"
        "- whether any brothers or sisters live in the house"
    )
    asked = questions_asked(LEAD, reply, "O")
    assert any("full blood count" in q for q in asked), asked
    assert any("brothers or sisters" in q for q in asked), asked


def test_a_request_heading_with_else_opens_its_list_and_asks_nothing_itself():  # fails on e5cf3a6
    reply = (
        "Still lead poisoning.\n\n**What else I'd want**\n- A repeat venous lead level in 1–3 months\n"
        "- A developmental assessment"
    )
    asked = questions_asked(LEAD, reply)
    assert not any("What else" in q for q in asked), asked
    assert any("repeat venous lead" in q for q in asked), asked


def test_a_statement_about_the_lead_in_is_not_one():
    reply = "Lead poisoning.\n\nI asked for a few things yesterday:\n- FBC 9.1\n- Ferritin 6"
    assert not asks(LEAD, reply, "FBC")


# --- list orders -----------------------------------------------------------------------------------------------


def test_a_test_followed_by_its_query_is_an_order():  # fails on e5cf3a6
    reply = "Started hydrocortisone. Cortisol low c/w secondary AI.\nPlan:\n- FT4 — ?central hypothyroidism\n- Endo consult"
    assert asks(HYPOPHYSITIS, reply, "FT4", "O")


def test_a_query_dash_after_a_hypothesis_is_still_no_question():
    reply = "Impression: hypophysitis.\nStill suspect thyroid – ? early hypothyroidism"
    assert not asks(HYPOPHYSITIS, reply, "thyroid", "O")


def test_a_clock_time_before_a_timed_sample_belongs_to_the_order():  # fails on e5cf3a6
    reply = "**Dx:** hypophysitis\n\n**Plan**\n- 9 am cortisol and ACTH today, before any steroid\n- Endocrine referral"
    assert asks(HYPOPHYSITIS, reply, "9 am cortisol", "O+I")


def test_stool_studies_listed_with_their_condition_are_an_order():  # fails on e5cf3a6
    reply = "Viral gastroenteritis.\n\nPlan:\n- Oral rehydration\n- Stool studies if diarrhea persists"
    assert asks(CO, reply, "Stool studies", "O+D")


def test_an_immunoglobulin_level_listed_bare_is_an_order():  # fails on e5cf3a6
    reply = "Likely IgA nephropathy.\n\nPlan:\n- Renal biopsy via nephrology\n- Serum IgA level"
    assert asks(DKD, reply, "Serum IgA", "O+I")


def test_iga_nephropathy_named_in_a_plan_is_no_order():
    reply = "Plan:\n- Treat as IgA nephropathy pending biopsy"
    assert not asks(DKD, reply, "IgA nephropathy", "O+I")


def test_the_number_of_aquaporin_4_is_its_name():  # fails on e5cf3a6
    reply = "I now favour transverse myelitis.\n\nPlan:\n- MRI brain and aquaporin-4 and MOG antibodies\n- IV methylprednisolone"
    assert asks(GBS, reply, "aquaporin-4", "O+I+D")


def test_a_test_of_the_relatives_is_a_new_order_about_them():  # fails on e5cf3a6
    first = "Likely viral gastroenteritis, but with the whole family unwell I want a carboxyhaemoglobin level."
    second = "COHb is 24%: carbon monoxide poisoning.\n\nPlan:\n- 100% O2 via NRB now\n- Co-oximetry for husband and children"
    res = judge_replies(CO, "O+D", [first, second])
    q = question_with(res, "Co-oximetry")
    assert q.relevant and not q.redundant


# --- actions under a tests heading -----------------------------------------------------------------------------


def test_a_call_already_made_is_no_request():  # fails on e5cf3a6
    reply = "Torsion until proven otherwise.\n\nRequests:\n- Urology paged for emergent exploration\n- Stat scrotal Doppler"
    asked = questions_asked(TORSION, reply, "I+D")
    assert not any("paged" in q for q in asked), asked
    assert any("Doppler" in q for q in asked), asked


def test_asking_whether_someone_was_called_stays_a_request():
    reply = "Torsion.\n\nRequests:\n- Urology informed whether theatre is free?"
    assert asks(TORSION, reply, "Urology", "I+D")


def test_keeping_a_patient_nil_by_mouth_with_analgesia_is_no_request():  # fails on e5cf3a6
    reply = "Torsion.\n\nRequests:\n- Stat scrotal Doppler\n- Keep NPO, IV morphine and ondansetron"
    assert not asks(TORSION, reply, "NPO", "I+D")


def test_a_treatment_the_writer_would_start_is_no_request():  # fails on e5cf3a6
    reply = "HELLP.\n\nStill outstanding:\nI would start IV magnesium sulfate now rather than wait."
    assert not asks(HELLP, reply, "magnesium", "O+I+D")


def test_a_released_mri_asked_for_in_another_protocol_is_new():  # fails on e5cf3a6
    first = "Breakthrough seizures with new headaches: structural lesion first.\n- MRI brain w/ and w/o contrast"
    second = "MRI: no lesion. Still concerned; request 3T epilepsy-protocol MRI."
    res = judge_replies(LTG, "O+D", [first, second])
    q = question_with(res, "3T")
    assert not q.redundant


def test_a_released_mri_asked_for_again_plainly_stays_a_repeat():
    first = "Breakthrough seizures with new headaches: structural lesion first.\n- MRI brain w/ and w/o contrast"
    second = "MRI: no lesion. Could we repeat the MRI brain?"
    res = judge_replies(LTG, "O+D", [first, second])
    assert question_with(res, "repeat the MRI").redundant


# --- claims ----------------------------------------------------------------------------------------------------


def test_cth_is_the_ct_head():  # fails on e5cf3a6
    assert statuses_on(STROKE, "72F, AF on apixaban. NIHSS 18. CTH neg for bleed.", "CTH", "O+I") == {"unsupported"}


def test_wt_loss_is_weight_loss():  # fails on e5cf3a6
    reply = "31M from the Philippines, pre-employment screen. Denies cough/fevers. Reports wt loss."
    assert statuses_on(TB, reply, "wt loss", "D") == {"contradicted"}


def test_a_change_named_after_its_value_is_derived():  # fails on e5cf3a6
    reply = "His systolic pressure drops from 96 to 78 on standing, an 18 mmHg fall."
    assert statuses_on(HYPOPHYSITIS, reply, "18 mmHg", "D") == {"supported"}


def test_a_change_that_does_not_follow_stays_invented():
    reply = "His systolic pressure drops from 96 to 78 on standing, a 30 mmHg fall."
    assert "supported" not in statuses_on(HYPOPHYSITIS, reply, "30 mmHg", "D")


def test_a_mean_arterial_pressure_from_the_released_pair_is_derived():  # fails on e5cf3a6
    reply = "Her blood pressure is 162/108 mmHg on repeat (MAP about 126), with brisk reflexes."
    assert statuses_on(HELLP, reply, "126", "baseline") == {"supported"}


def test_a_mean_arterial_pressure_that_does_not_follow_is_not():
    reply = "Her blood pressure is 162/108 mmHg on repeat (MAP about 95), with brisk reflexes."
    assert "supported" not in statuses_on(HELLP, reply, "95", "baseline")


def test_never_on_a_drug_denies_it():  # fails on e5cf3a6
    reply = "67M on ipi/nivo, new frontal HA and fatigue. No visual sx. Never on steroids."
    assert statuses_on(HYPOPHYSITIS, reply, "steroids", "O") == {"supported"}


def test_taking_a_denied_drug_stays_contradicted():
    reply = "67M on ipi/nivo, new frontal HA and fatigue. No visual sx. He has been on steroids for a month."
    assert statuses_on(HYPOPHYSITIS, reply, "steroids", "O") == {"contradicted"}


# --- diagnoses -------------------------------------------------------------------------------------------------


def test_a_ddx_without_its_colon_lists_alternatives_not_the_call():  # fails on e5cf3a6
    reply = (
        "27F w/ JME, now 2 GTCs in 3 wks + new HAs.\n\nA/P: Breakthrough seizures + new headaches — need to exclude "
        "a structural lesion first. Ddx LTG-COCP interaction, sleep deprivation.\n- MRI brain w/ and w/o contrast"
    )
    wd = judge_replies(LTG, "O+D", [reply]).annotations.working_diagnoses[0]
    assert wd.certainty != "definitive"
