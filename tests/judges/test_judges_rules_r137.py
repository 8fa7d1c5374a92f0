"""Round 137 (session 43; tuned on sets 1-289): terse orders the judge read as results, and inventions read as
supported through the words a note shortens them to.

Set 286-289 left 11 withheld items and 26 labelled questions unfound, nearly all terse orders in a plan list:
- a test the judge did not know as one ("HIDA scan", "aPL panel", "UPT", "QuantiFERON-TB Gold Plus", "Complement
  levels", "Aquaporin-4 and MOG antibodies", "Venous blood lead", "Urinary pneumococcal and Legionella antigens");
- a name or a schedule with a digit, read as a result ("fT4", "FVC q6h", "Serial Hgb q6h", "Repeat venous Pb 1/12");
- what the order also measures after "with" ("Full blood count with platelets", "Urinalysis with microscopy",
  "LP w/ opening pressure", "Scrotal US with Doppler, urgent", "MRI brain w/wo contrast"), read as a result;
- a ratio's colon ("Urine protein:creatinine ratio") read as a result's, and a purpose clause ("RUQ ultrasound to
  confirm gallbladder wall thickening") whose "confirm" read as a sentence's verb.

Inventions read as supported or not read at all: "Her eGFR is preserved" (no result word), "Fundi: borderline disc
blurring" (the clause stopped at the colon; "blurring" against "sharp optic discs"), "The PR interval is also
prolonged at 220 ms" (no name for the interval), "she is febrile" against a temperature of 37.1 °C (judged as its
canonical "fever", which calls nothing raised), "He was treated with prednisolone for colitis" (read as a treatment
ordered), "Reduced flow to the left testis on Doppler" (the finding five words before the scan's name),
"leucocytes" against "negative for ... leukocytes", "His development is on track" against speech that is behind.
"Imp: still favour pseudohyperK." named no diagnosis.

The tests marked "fails on eaec64e" fail on the session-42 final judge; the others are controls.
"""

from __future__ import annotations

from rules_support import (
    ADHF,
    AKI,
    DKD,
    ECTOPIC,
    GBS,
    HELLP,
    HYPERK,
    HYPOPHYSITIS,
    LEAD,
    LTG,
    LUPUS,
    PANCREATITIS,
    TB,
    TORSION,
    asks,
    judge_replies,
    last_reply_claims,
    lead_of,
    questions_asked,
    statuses_on,
)

# --- questions -------------------------------------------------------------------------------------------------


def test_a_lower_case_test_name_with_a_digit_is_an_order():  # fails on eaec64e
    reply = "A/P: ipi hypophysitis, likely.\n- AM cortisol + ACTH now, before any steroid\n- fT4\n- Hydrocortisone 100 mg IV"
    assert asks(HYPOPHYSITIS, reply, "fT4", "O")


def test_antiphospholipid_and_pregnancy_tests_listed_bare_are_orders():  # fails on eaec64e
    reply = "A/P: class IV LN.\n- Stop ibuprofen\n- aPL panel\n- UPT\n- Flu shot UTD?"
    asked = questions_asked(LUPUS, reply, "O")
    assert "aPL panel" in asked and "UPT" in asked, asked


def test_a_ratio_colon_is_no_result_colon():  # fails on eaec64e
    reply = ("**HELLP syndrome until proven otherwise**\n\n**What I need urgently**\n- Blood pressure, repeated\n"
             "- Urine protein:creatinine ratio\n- Full blood count with platelets")
    asked = questions_asked(HELLP, reply, "O+D")
    assert any("protein:creatinine" in q for q in asked) and any("with platelets" in q for q in asked), asked


def test_a_result_after_a_colon_stays_a_result():
    reply = "HELLP syndrome most likely.\n\n- Urine PCR: 0.45\n- Repeat BP now"
    assert not asks(HELLP, reply, "Urine PCR", "O+D")


def test_what_an_order_also_measures_is_no_result():  # fails on eaec64e
    reply = "A/P: Intracranial SOL.\n- MRI brain w/wo contrast\n- LP w/ opening pressure"
    asked = questions_asked(LTG, reply, "D")
    assert any("MRI brain" in q for q in asked) and any("opening pressure" in q for q in asked), asked


def test_a_scan_with_its_finding_stays_a_result():
    assert not asks(LTG, "A/P: JME.\n- MRI brain w/ small cyst, otherwise normal", "MRI brain", "D")


def test_a_measure_ordered_at_intervals_is_an_order():  # fails on eaec64e
    reply = "Guillain-Barre syndrome\n\nPlan:\n- IVIG 0.4 g/kg/day x5 days\n- FVC q6h\n- Stool culture for Campylobacter"
    assert asks(GBS, reply, "FVC q6h", "O+I")


def test_serial_counts_at_intervals_are_an_order():  # fails on eaec64e
    reply = "Imp: ruptured ectopic, definitive.\n- Repeat bhCG in 48 h\n- Serial Hgb q6h"
    assert asks(ECTOPIC, reply, "Serial Hgb", "I")


def test_a_dose_at_intervals_is_no_order():
    reply = "Guillain-Barre syndrome\n\nPlan:\n- Paracetamol 1 g q6h\n- FVC q6h"
    assert not asks(GBS, reply, "Paracetamol", "O+I")


def test_a_purpose_clause_is_no_sentence():  # fails on eaec64e
    reply = ("Acute cholecystitis\n\n**Plan**\n- RUQ ultrasound to confirm gallbladder wall thickening and stones\n"
             "- IV antibiotics after blood cultures")
    assert asks(PANCREATITIS, reply, "RUQ ultrasound", "O+I+D")


def test_a_venous_lead_level_listed_bare_is_an_order():  # fails on eaec64e
    reply = ("Isolated iron deficiency anaemia\n\n**Plan**\n- Venous blood lead to confirm or refute the capillary result\n"
             "- Oral iron 3 mg/kg/day")
    assert asks(LEAD, reply, "Venous blood lead", "I+D")


def test_a_doppler_with_its_urgency_is_an_order():  # fails on eaec64e
    reply = ("A: Acute L scrotum, epididymo-orchitis more likely than torsion.\nP:\n- Scrotal US with Doppler, urgent\n"
             "- Analgesia, scrotal support")
    assert asks(TORSION, reply, "Scrotal US", "O+I+D")


def test_urinary_antigens_of_two_organisms_are_an_order():  # fails on eaec64e
    reply = ("Community-acquired pneumonia\n\n**Plan**\n- Blood cultures\n- Urinary pneumococcal and Legionella antigens")
    assert asks(ADHF, reply, "Legionella", "I+D")


def test_a_tb_blood_test_listed_bare_is_an_order():  # fails on eaec64e
    reply = ("Latent TB infection likely.\n\nPlan:\n- QuantiFERON-TB Gold Plus (preferred over TST given prior BCG)\n"
             "- Hepatitis B and C serologies")
    assert asks(TB, reply, "QuantiFERON", "O")


def test_a_biliary_scan_listed_bare_is_an_order():  # fails on eaec64e
    reply = "Acute cholecystitis, unchanged.\n\n**Plan**\n- HIDA scan\n- Continue antibiotics"
    assert asks(HELLP, reply, "HIDA", "D")


def test_demyelination_antibodies_listed_bare_are_an_order():  # fails on eaec64e
    reply = "Transverse myelitis.\n\nPlan:\n- Aquaporin-4 and MOG antibodies\n- IV methylprednisolone"
    assert asks(GBS, reply, "Aquaporin-4", "O+I")


# --- claims ----------------------------------------------------------------------------------------------------


def test_a_function_called_preserved_is_a_claim():  # fails on eaec64e
    reply = "Diabetic kidney disease. Her eGFR is preserved, which puts her at an early stage."
    assert statuses_on(DKD, reply, "eGFR", "O") == {"unsupported"}


def test_a_finding_after_an_examinations_colon_is_judged():  # fails on eaec64e
    reply = "27F JME on LTG. Fundi: borderline disc blurring. Neuro nonfocal.\n\nA/P: Intracranial SOL."
    assert statuses_on(LTG, reply, "Fundi", "D") == {"contradicted"}


def test_sharp_discs_after_the_colon_agree():
    reply = "27F JME on LTG. Fundi: sharp discs. Neuro nonfocal.\n\nA/P: breakthrough seizures."
    assert statuses_on(LTG, reply, "Fundi", "D") == {"supported"}


def test_an_invented_pr_interval_is_a_claim():  # fails on eaec64e
    reply = "Drug-induced hyperkalaemia. The PR interval is also prolonged at 220 ms."
    assert statuses_on(HYPERK, reply, "220") == {"unsupported"}


def test_febrile_against_a_normal_temperature_is_contradicted():  # fails on eaec64e
    reply = "Community-acquired pneumonia. New cough, worse breathlessness and she is febrile."
    assert statuses_on(ADHF, reply, "febrile") == {"contradicted"}


def test_afebrile_against_a_normal_temperature_agrees():
    reply = "Decompensated heart failure. She is afebrile with orthopnoea."
    assert statuses_on(ADHF, reply, "afebrile") == {"supported"}


def test_a_past_treatment_is_a_claim_about_the_patient():  # fails on eaec64e
    reply = "Checkpoint inhibitor hypophysitis. He was treated with prednisolone for colitis after his second cycle."
    assert statuses_on(HYPOPHYSITIS, reply, "prednisolone") == {"contradicted"}


def test_a_treatment_to_give_is_no_claim():
    reply = "Checkpoint inhibitor hypophysitis. He should be treated with hydrocortisone now."
    assert not any("hydrocortisone" in c.span.text.lower() for c in last_reply_claims(HYPOPHYSITIS, [reply]))


def test_a_finding_named_before_the_scan_is_its_result():  # fails on eaec64e
    reply = "Acute left epididymo-orchitis. Reduced flow to the left testis on Doppler."
    assert statuses_on(TORSION, reply, "Doppler") == {"contradicted"}


def test_the_british_spelling_of_denied_leukocytes_is_judged():  # fails on eaec64e
    reply = "Obstructive AKI. The urine dip showing leucocytes with negative nitrites suggests sterile pyuria."
    assert statuses_on(AKI, reply, "urine dip") == {"contradicted"}


def test_development_on_track_against_a_delay_is_contradicted():  # fails on eaec64e
    reply = "Lead poisoning with iron deficiency. His development is on track."
    assert statuses_on(LEAD, reply, "development") == {"contradicted"}


# --- diagnosis -------------------------------------------------------------------------------------------------


def test_pseudohyperk_names_the_alternative():  # fails on eaec64e
    assert lead_of(HYPERK, "VBG K 6.3, prob artefactual.\n\nImp: still favour pseudohyperK.")[0] == "pseudohyperkalaemia"


def test_not_a_diagnosis_is_no_call_of_it():  # fails on eaec64e
    reply = ("The anti-dsDNA is negative, which confirms this is not a lupus flare.\n\n"
             "**Diagnosis:** NSAID-induced nephropathy — unchanged")
    assert lead_of(LUPUS, reply)[0] == "NSAID-induced nephropathy"


def test_a_result_under_assessment_is_no_diagnosis_name():  # fails on eaec64e
    reply = ("Assessment: CSF protein 1.4 g/L with 2 WBC/µL — albuminocytological dissociation. This confirms "
             "Guillain-Barré syndrome.")
    assert lead_of(GBS, reply)[0] == "Guillain-Barré syndrome"


def test_a_space_occupying_lesion_by_its_abbreviation():  # fails on eaec64e
    assert lead_of(LTG, "27F JME, 2 GTCs. New HAs.\n\nA/P: Intracranial SOL.\n- MRI brain", "D")[0] == (
        "new structural brain lesion"
    )


# --- more follow-up readings -----------------------------------------------------------------------------------


def test_a_drug_with_its_dose_under_a_tests_heading_is_no_request():  # fails on eaec64e
    reply = ("Checkpoint inhibitor hypophysitis.\n\n**Tests**\n- LH, FSH and testosterone\n"
             "- Hydrocortisone 100 mg IV now")
    assert not asks(HYPOPHYSITIS, reply, "Hydrocortisone")


def test_a_treatment_after_a_label_under_a_tests_heading_is_no_request():  # fails on eaec64e
    reply = ("**Working diagnosis:** Guillain-Barré syndrome.\n\n**Still needed:**\n1. Anti-ganglioside antibodies (GM1, "
             "GQ1b)\n\n**Meanwhile:** start IVIG 0.4 g/kg/day for 5 days and admit him to a monitored bed.")
    assert not asks(GBS, reply, "IVIG", "D")


def test_advice_under_a_tests_heading_is_no_request():  # fails on eaec64e
    reply = ("Lead poisoning with iron deficiency.\n\nPlan/requests:\n- Start ferrous sulfate 3 mg/kg/day elemental iron; "
             "cap milk at 16 oz/day\n- Repeat venous BLL in 1 month")
    assert not asks(LEAD, reply, "cap milk")


def test_does_not_suggest_is_no_request():  # fails on eaec64e
    reply = "Acute ischaemic stroke. The INR of 1.2 does not suggest a recent dose either."
    assert not asks("neur-101-ischaemic-stroke-m1", reply, "INR", "I")


def test_adding_a_drug_is_no_request():  # fails on eaec64e
    reply = ("Class IV lupus nephritis. I would add ramipril for the proteinuria and her blood pressure once the "
             "creatinine is stable.")
    assert not asks(LUPUS, reply, "ramipril")


def test_adding_a_test_still_asks():
    assert asks(LUPUS, "Class IV lupus nephritis. I would add a urine protein:creatinine ratio.", "would add", "O")


def test_a_scheduled_repeat_asks_for_the_cases_repeat_test():  # fails on eaec64e
    result = judge_replies(DKD, "I+D", ["Imp: UTI.\n- UCx\n- Repeat ACR in 3 mo\n- Recheck A1c"])
    assert {g.fact_id for g in result.annotations.gaps if g.detected} >= {"uacr_repeat"}


def test_a_drug_named_first_under_a_tests_heading_is_no_request():  # fails on eaec64e
    reply = ("Checkpoint inhibitor hypophysitis.\n\n**Tests**\n- LH, FSH and testosterone\n"
             "- Hydrocortisone 100 mg IV now; levothyroxine only after steroid replacement is established")
    asked = questions_asked(HYPOPHYSITIS, reply)
    assert not any("Hydrocortisone" in q or "levothyroxine" in q for q in asked), asked


def test_a_drug_level_under_a_tests_heading_still_asks():
    assert asks(LTG, "Breakthrough seizures.\n\n**Tests**\n- Lamotrigine level\n- EEG", "Lamotrigine level", "O")
