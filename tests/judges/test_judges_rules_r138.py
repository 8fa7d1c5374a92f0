"""Round 138 (session 44; tuned on sets 1-293): terse orders the judge still read as something else, statements read
as questions, and the premise of a hedged call read as hedged.

Set 290-293 left nine withheld items and 25 labelled requests unfound, again terse list orders:
- a test the judge did not know as one ("DEXA (include the forearm)", "Apolipoprotein B level", "Urine
  strep/legionella Ag");
- a name with digits read as a result ("Magnesium and 1,25-dihydroxyvitamin D");
- what the order also measures or is for ("PFTs w/ DLCO for surgical fitness"), read as a result;
- a released measure to be followed ("Trend LFTs daily", "CBC daily, trend plt"), or listed beside a test no case
  fact names ("Fasting lipids, UACR"), read as a repeat ask for the released value;
- an examination with what to look for after a colon ("A full examination: conscious level, jaundice, spleen"),
  where the article kept the colon a result's.
Statements read as questions: a note's "– ?" (shorthand for "query" before a hypothesis), a contingency under a
"Plan / requests" heading ("If aspiration fails, small-bore drain") and a surveillance test due in years ("He will
need a surveillance colonoscopy at three years").

Claims: the premise after "given" of a hedged call ("Still suspect dengue coinfection given petechiae") was read as
hedged; "a normal bilirubin mean he can be managed as uncomplicated" was read as general knowledge ("can be");
"Clinic fingerstick today 11.6" named no glucose.

The tests marked "fails on b19274f" fail on the session-43 final judge; the others are controls.
"""

from __future__ import annotations

from rules_support import (
    ADENOMA,
    COELIAC,
    DILI,
    FH,
    HYPERK,
    LUNG,
    MALARIA,
    PE,
    PHPT,
    PREDIABETES,
    PTX,
    asks,
    last_reply_claims,
    questions_asked,
    statuses_on,
)

# --- questions -------------------------------------------------------------------------------------------------


def test_bone_densitometry_listed_bare_is_an_order():  # fails on b19274f
    reply = "Impression: primary hyperparathyroidism.\n\nPlan:\n- Stop the thiazide\n- DXA of hip, spine and radius"
    assert asks(PHPT, reply, "DXA", "O")


def test_an_instruction_in_brackets_belongs_to_the_order():  # fails on b19274f
    reply = "Impression: primary hyperparathyroidism.\n\nPlan:\n- Bone density scan (including the distal radius)"
    assert asks(PHPT, reply, "Bone density", "O")


def test_apolipoprotein_b_listed_bare_is_an_order():  # fails on b19274f
    reply = "**Working diagnosis:** familial hypercholesterolaemia\n\n**Plan**\n- Apolipoprotein B\n- Start a statin"
    assert asks(FH, reply, "Apolipoprotein B", "D")


def test_a_urine_antigen_written_ag_after_the_organism_is_an_order():  # fails on b19274f
    reply = "A/P: PE vs CAP.\n- CTPA\n- Urine pneumococcal/legionella Ag"
    assert asks(PE, reply, "legionella Ag", "O")


def test_the_digits_of_a_vitamin_d_metabolite_are_its_name():  # fails on b19274f
    reply = "Impression: PHPT.\n\nPlan:\n- Phosphate and 1,25-dihydroxyvitamin D"
    assert asks(PHPT, reply, "dihydroxyvitamin", "O")


def test_a_value_of_a_vitamin_d_metabolite_stays_a_result():
    reply = "Impression: PHPT.\n\n- 25-OH vitamin D 54 nmol/L, replete"
    assert not asks(PHPT, reply, "vitamin D", "O")


def test_gas_transfer_and_a_fitness_purpose_belong_to_the_order():  # fails on b19274f
    reply = "A/P: stage IA adenocarcinoma.\n- Full PFTs w/ DLCO for fitness for surgery\n- Thoracic MDT"
    assert asks(LUNG, reply, "PFTs", "O")


def test_a_released_panel_to_be_trended_is_an_order_for_new_values():  # fails on b19274f
    reply = "A/P: DILI from co-amoxiclav.\n- Stop the antibiotic\n- Trend LFTs and INR"
    assert asks(DILI, reply, "Trend LFTs", "D")


def test_a_daily_habit_in_a_list_is_no_order():
    reply = "A/P: drug-induced hyperkalaemia.\n- Drinks a daily banana-and-orange smoothie\n- Stop the spironolactone"
    assert not asks(HYPERK, reply, "smoothie")


def test_a_released_value_beside_a_test_no_fact_names_is_an_order():  # fails on b19274f
    reply = "A/P: prediabetes.\n- Non-fasting lipids, UACR\n- Lifestyle advice"
    assert asks(PREDIABETES, reply, "UACR", "O+I+D")


def test_a_finding_on_examination_in_a_list_is_no_order():
    reply = "A/P: coeliac disease.\n- Slight knuckle pigmentation on examination\n- Refer to the dietitian"
    assert not asks(COELIAC, reply, "knuckle", "O+I+D")


def test_an_examination_with_what_to_look_for_is_an_order():  # fails on b19274f
    reply = "A/P: falciparum malaria.\n- A full examination: conscious level, spleen, jaundice"
    assert asks(MALARIA, reply, "examination", "O")


def test_an_examination_with_its_findings_stays_a_result():
    reply = "A/P: falciparum malaria.\n- A full examination: no jaundice, spleen not palpable"
    assert not asks(MALARIA, reply, "examination", "O")


def test_a_query_dash_is_no_question_mark():  # fails on b19274f
    reply = "TSH 2.1, FT4 nl. Still suspect thyroid – ? subclinical hypothyroidism given the fatigue.\nPlan: statin."
    assert not any("suspect thyroid" in q for q in questions_asked(FH, reply, "D"))


def test_a_question_with_a_space_before_its_mark_stays_a_question():
    assert asks(FH, "Probable FH.\nAny family history of early MI ?", "family history")


def test_a_contingency_under_a_requests_heading_is_no_request():  # fails on b19274f
    reply = "Large primary pneumothorax.\n\n### Plan / requests\n- Repeat CXR after aspiration\n- If aspiration fails, Seldinger drain"
    asked = questions_asked(PTX, reply, "D")
    assert any("Repeat CXR" in q for q in asked) and not any("aspiration fails" in q for q in asked), asked


def test_a_contingency_that_orders_a_test_stays_a_request():
    reply = "Large primary pneumothorax.\n\n### Plan / requests\n- Aspirate\n- If the pain persists, CT chest"
    assert asks(PTX, reply, "CT chest", "D")


def test_a_test_due_in_years_is_not_asked_now():  # fails on b19274f
    reply = "Advanced adenoma, completely excised.\n\nHe will need a surveillance colonoscopy in three years."
    assert not asks(ADENOMA, reply, "surveillance", "D")


def test_a_test_needed_now_stays_a_request():
    reply = "Advanced adenoma, possibly malignant.\n\nHe will need a staging CT before the MDT."
    assert asks(ADENOMA, reply, "staging CT", "D")


# --- claims ----------------------------------------------------------------------------------------------------


def test_the_premise_of_a_hedged_call_is_stated():  # fails on b19274f
    reply = "Falciparum malaria on the film. I still suspect dengue coinfection given the petechiae."
    assert statuses_on(MALARIA, reply, "petechiae", "D") == {"contradicted"}


def test_a_drug_that_may_have_been_given_stays_hedged():
    reply = "Falciparum malaria. He may have been given chloroquine abroad."
    assert not [c for c in last_reply_claims(MALARIA, [reply], "D") if "chloroquine" in c.span.text.lower()]


def test_what_the_patient_can_be_is_said_of_him():  # fails on b19274f
    reply = "Falciparum malaria. A normal bilirubin means he can be managed as uncomplicated."
    assert statuses_on(MALARIA, reply, "bilirubin", "O") == {"unsupported"}


def test_what_a_disease_can_be_stays_general_knowledge():
    reply = "Falciparum malaria. Jaundice can be seen in severe malaria."
    assert not [c for c in last_reply_claims(MALARIA, [reply], "O") if "jaundice" in c.span.text.lower()]


def test_a_fingerstick_is_a_glucose():  # fails on b19274f
    reply = "Impaired glucose tolerance. Clinic fingerstick today 14.2."
    assert statuses_on(PREDIABETES, reply, "14.2") == {"contradicted"}
