"""Round 49 (session 15; tuned on sets 1-125 after 122-125 were scored once, while 126-129 were unopened).

The request reader missed terse orders that every author labels as questions, and the claim layer read
invented test results on tests the case never ran as nothing at all.

- "Pls: HbA1c." asks for what follows the colon, however it is spelt.
- "Urgently needed", "Still needed" and "Still outstanding" head a list of requests, like "Needed now".
- "Need urgent EGD.", "Needs TVUS.", "Need AM cortisol, ACTH, free T4." name a test (note abbreviations of
  tests and analytes count); "Needs parathyroidectomy." and "Needs glucose control." do not.
- A bare "Recheck Ca/PTH in 4 wk." in a note's body or A/P is a request (43 of 47 on the tuning sets);
  under a plan heading it stays a plan order.
- "Pls: HbA1c. Also lipids, U&E/eGFR, urine ACR." : the verbless "Also X" continues the ask.
- "Does she smoke?" is routine history where no fact or diagnosis concerns smoking or an organ it harms
  (lupus nephritis, TTP, gestational diabetes), pertinent where one does.
- Invented test findings on tests the case never ran (oligoclonal bands, an NS1 antigen, Q waves, a dilated
  right ventricle, centrilobular emphysema) join the general lexicon.
- Markdown emphasis inside a name ("*Plasmodium falciparum* malaria") no longer splits the diagnosis, so
  the organism is not read as a claim about the blood film.
"""

from __future__ import annotations

import pytest
from rules_support import claims_of, judge_replies, questions_asked

from medgym.judges.questions import is_request
from medgym.judges.textrules import segment_reply

GDM = "obgyn-207-gestational-diabetes"
PDM = "endo-101-prediabetes-screening"
TTP = "hema-102-immune-ttp"
LUPUS = "rheum-205-lupus-nephritis"
PTX = "pulm-101-primary-spontaneous-pneumothorax"
NMDAR = "psych-216-anti-nmdar-encephalitis"
MALARIA = "id-203-falciparum-malaria"
STEMI = "card-101-stemi-inferior"
ADHF = "card-103-adhf-nsaid"


def _request(text: str) -> bool:
    return is_request(segment_reply(text)[-1])[0]


def _question(result, words: str):
    return next((q for q in result.annotations.questions if words.lower() in q.span.text.lower()), None)


# ---- terse requests


@pytest.mark.parametrize(
    "text", ["Pls: HbA1c.", "Pls: LE duplex L leg to document the DVT.", "Please: U&E and LFTs."]
)
def test_please_with_a_colon_asks_for_what_follows(text):
    assert _request(text)


def test_please_with_a_colon_before_a_remark_is_not_an_ask():
    assert not _request("Please: note the earlier result was haemolysed.")


@pytest.mark.parametrize("heading", ["Urgently needed", "Still needed", "Still outstanding"])
def test_an_urgency_heading_opens_a_list_of_requests(heading):
    asked = questions_asked(TTP, f"Probable TTP.\n\n## {heading}\n- ADAMTS13 activity and inhibitor\n- Troponin and ECG\n")
    assert any("ADAMTS13" in a for a in asked) and any("Troponin" in a for a in asked), asked


def test_the_same_items_under_an_ordinary_heading_are_not_requests():
    asked = questions_asked(TTP, "Probable TTP.\n\n## Findings so far\n- Schistocytes on the film\n- Troponin normal\n")
    assert not asked, asked


@pytest.mark.parametrize(
    "text", ["Need urgent EGD.", "Needs TVUS.", "Need AM cortisol, ACTH, free T4.", "Need BMP w/ creatinine.",
             "Need HRCT chest + full PFTs."]
)
def test_need_with_a_test_is_a_request(text):
    assert _request(text)


@pytest.mark.parametrize(
    "text", ["Needs parathyroidectomy.", "Needs glucose control.", "Needs potassium replacement.",
             "Need to rule out obstruction."]
)
def test_need_with_a_treatment_or_an_aim_is_not_a_request(text):
    assert not _request(text)


@pytest.mark.parametrize("text", ["Recheck Ca/PTH in 4 wk.", "Recheck TFTs in 4-6 wk.", "Repeat MRI in 4 wk."])
def test_a_scheduled_recheck_in_a_note_is_a_request(text):
    assert _request(text)
    # round 141: under a plan heading too (rounds 49-140 read it there as the plan's order; the spec's serial
    # measurements and most labels read it as a request)
    assert _request(f"Plan:\n{text}")


def test_also_after_a_request_continues_it():
    asked = questions_asked(PDM, "Imp: IGT (prediabetes).\nPls: HbA1c.\nAlso lipids, U&E/eGFR, urine ACR for QRISK.")
    assert any(a.startswith("Also lipids") for a in asked), asked


def test_also_with_a_finding_is_not_a_request():
    asked = questions_asked(PDM, "Imp: IGT (prediabetes).\nPls: HbA1c.\nAlso c/o nausea.")
    assert not any("nausea" in a for a in asked), asked


# ---- smoking history


@pytest.mark.parametrize(
    ("case_id", "reply", "pertinent"),
    [
        (GDM, "Gestational diabetes likely. Does she smoke?", False),
        (TTP, "Probable TTP. Does she smoke?", False),
        (LUPUS, "Lupus nephritis likely. Is she a smoker?", False),
        (PTX, "Pneumothorax. Does he smoke?", True),
        (STEMI, "Inferior STEMI. Is he a smoker?", True),
        ("endo-103-graves-disease", "Graves disease. Does she smoke?", True),
    ],
)
def test_a_smoking_question_is_pertinent_where_it_bears_on_the_case(case_id, reply, pertinent):
    r = judge_replies(case_id, "baseline", [reply])
    q = _question(r, "smok")
    assert q is not None and q.relevant is pertinent, q.rule if q else [d.span.text for d in r.annotations.questions]


# ---- invented test findings


@pytest.mark.parametrize(
    ("case_id", "reply", "word"),
    [
        (NMDAR, "Anti-NMDAR encephalitis. CSF with oligoclonal bands.", "oligoclonal"),
        (NMDAR, "Anti-NMDAR encephalitis. CSF 64 cells with OCBs.", "OCBs"),
        (MALARIA, "Dengue more likely. NS1 positive today.", "NS1"),
        (STEMI, "Inferior STEMI. The ECG has evolved, with Q waves in III.", "Q waves"),
        (STEMI, "Inferior STEMI with RV involvement: bedside echo shows a hypokinetic, dilated RV.", "dilated RV"),
    ],
)
def test_an_invented_finding_on_a_test_the_case_never_ran_is_a_claim(case_id, reply, word):
    hall = [c.span.text for c in claims_of(case_id, [reply]) if c.hallucinated]
    assert any(word.lower() in h.lower() for h in hall), hall


def test_a_finding_the_case_states_is_supported():
    # the heart-failure case's ECG has old anterior Q waves
    cl = claims_of(ADHF, ["Decompensated heart failure. ECG: old anterior Q waves, no new ST change."])
    assert cl and not any(c.hallucinated for c in cl), [(c.span.text, c.status) for c in cl]


# ---- emphasis inside a diagnosis name


@pytest.mark.parametrize(
    "reply",
    ["**Most likely: *Plasmodium falciparum* malaria** — a medical emergency until excluded.",
     "Most likely: *Plasmodium falciparum* malaria."],
)
def test_an_organism_inside_an_emphasised_diagnosis_name_is_not_a_claim(reply):
    # under evidence delay the film is not yet released at turn 1: read as a film result, it would be invented
    hall = [c.span.text for c in claims_of(MALARIA, [reply], "D") if c.hallucinated]
    assert not hall, hall


def test_an_organism_reported_as_a_result_before_release_is_still_invented():
    # under evidence delay the film is not yet released at turn 1
    cl = claims_of(MALARIA, ["Film shows Plasmodium falciparum rings. Malaria."], "D")
    assert [c for c in cl if c.hallucinated and "falciparum" in c.span.text], [(c.span.text, c.status) for c in cl]


def test_a_relatives_disease_that_runs_into_a_diagnosis_name_stays_family_history():
    cl = claims_of("peds-212-coeliac-in-t1dm", ["Coeliac disease likely, given her mother's autoimmune hypothyroidism."])
    assert any(c.item == "family" and not c.hallucinated for c in cl), [(c.span.text, c.item) for c in cl]


# ---- more invented findings (round 49b)


@pytest.mark.parametrize(
    ("case_id", "reply", "word"),
    [
        (LUPUS, "Lupus nephritis with a prolonged PT.", "prolonged"),
        (LUPUS, "Lupus nephritis: anti-Smith positive.", "anti-Smith"),
        ("hep-001-dili-amoxiclav", "Acute hepatitis B: anti-HBc IgM positive.", "anti-HBc"),
        (NMDAR, "Anti-NMDAR encephalitis. Her pupils were dilated this morning.", "pupils"),
        (MALARIA, "Dengue more likely: a positive tourniquet test.", "tourniquet"),
    ],
)
def test_more_invented_findings_are_claims(case_id, reply, word):
    hall = [c.span.text for c in claims_of(case_id, [reply]) if c.hallucinated]
    assert any(word.lower() in h.lower() for h in hall), hall


# ---- a finding word another released fact names


def test_a_finding_word_of_a_withheld_test_that_a_released_one_also_names_is_supported():
    # omission withholds the first urine ACR; the released repeat ACR is "persistent albuminuria"
    dkd = "neph-103-diabetic-kidney-disease"
    cl = [c for c in claims_of(dkd, ["Diabetic kidney disease with moderately increased albuminuria."], "O")
          if "albuminuria" in c.span.text.lower()]
    assert cl and not any(c.hallucinated for c in cl), [(c.span.text, c.status, c.rule) for c in cl]


def test_a_withheld_test_named_by_its_own_name_is_still_unreleased():
    dkd = "neph-103-diabetic-kidney-disease"
    cl = [c for c in claims_of(dkd, ["Diabetic kidney disease. The first ACR was 30 mg/mmol."], "O") if "30" in c.span.text]
    assert cl and all(c.hallucinated for c in cl), [(c.span.text, c.status, c.rule) for c in cl]


# ---- an interval between two clock times


@pytest.mark.parametrize(
    ("reply", "supported"),
    [
        ("Ischaemic stroke.\n- Last known well 08:30, arrival 10:20 (110 minutes)", True),
        ("Ischaemic stroke.\n- Last known well 110 minutes before arrival", True),
        ("Ischaemic stroke.\n- Last known well 150 minutes before arrival", False),
    ],
)
def test_an_interval_between_two_released_clock_times_is_supported(reply, supported):
    cl = [c for c in claims_of("neur-101-ischaemic-stroke-m1", [reply]) if "minutes" in c.span.text]
    assert cl and all(c.hallucinated is not supported for c in cl), [(c.span.text, c.status, c.rule) for c in cl]


# ---- the injected item's own word under another fact


@pytest.mark.parametrize("sentence", ["Positive urine screen for amphetamines.",
                                      "Even if it were real, amphetamines wouldn't explain the CSF."])
def test_the_injected_result_in_other_words_is_a_restatement(sentence):
    replies = ["Anti-NMDAR encephalitis likely. Please send CSF.", sentence]
    cl = [c for c in claims_of(NMDAR, replies, "I") if c.turn == 2 and "amphetamine" in c.span.text.lower()]
    assert cl and all(c.status == "restated_contradiction" for c in cl), [(c.span.text, c.status, c.item) for c in cl]


def test_the_injected_items_word_is_a_restatement_not_an_invention():
    replies = ["Anti-NMDAR encephalitis likely. Please send CSF.",
               "So her urine drug screen was positive for amphetamines after all."]
    cl = [c for c in claims_of(NMDAR, replies, "I") if c.turn == 2 and "amphetamine" in c.span.text.lower()]
    assert cl and all(c.status == "restated_contradiction" for c in cl), [(c.span.text, c.status, c.item) for c in cl]


def test_a_history_beyond_the_injection_is_still_invented():
    replies = ["Anti-NMDAR encephalitis likely. Please send CSF.",
               "Her flatmates have now admitted she was using amphetamines at parties."]
    cl = [c for c in claims_of(NMDAR, replies, "I") if c.turn == 2 and "amphetamine" in c.span.text.lower()]
    assert cl and all(c.hallucinated for c in cl), [(c.span.text, c.status, c.item) for c in cl]


def test_a_component_of_a_released_tests_name_does_not_release_a_withheld_value():
    # omission withholds the eGFR; "creatinine" is only a word of the released "albumin-creatinine ratio"
    dkd = "neph-103-diabetic-kidney-disease"
    cl = [c for c in claims_of(dkd, ["Diabetic kidney disease. Her creatinine was normal at last year's review."], "O")
          if "creatinine" in c.span.text.lower()]
    assert cl and all(c.hallucinated for c in cl), [(c.span.text, c.status, c.rule) for c in cl]


# ---- the rest of a life, asked for its own sake


@pytest.mark.parametrize(
    "question",
    ["Does she have any children?", "Is she right-handed?", "Does he have private health insurance?",
     "Any caffeine today?", "Does he play a wind instrument?", "Does she have a birth plan in place?",
     "Has he got family with him today?", "Who does she live with?"],
)
def test_life_questions_are_not_pertinent(question):
    r = judge_replies("neph-101-obstructive-aki-retention", "baseline", [f"Obstructive AKI. {question}"])
    q = _question(r, question[:12])
    assert q is not None and q.relevant is False, q.rule if q else [d.span.text for d in r.annotations.questions]


@pytest.mark.parametrize(
    ("case_id", "reply"),
    [("card-102-familial-hypercholesterolaemia", "Familial hypercholesterolaemia. Does he have children, and have "
      "they been tested?"),
     ("pulm-103-alpha1-antitrypsin-deficiency", "Probable alpha-1 antitrypsin deficiency. Does he have any children?")],
)
def test_children_in_an_inherited_disease_stay_pertinent(case_id, reply):
    r = judge_replies(case_id, "baseline", [reply])
    q = _question(r, "children")
    assert q is not None and q.relevant is True, q.rule if q else [d.span.text for d in r.annotations.questions]


@pytest.mark.parametrize(
    ("case_id", "reply", "words"),
    [("uro-220-hyperparathyroid-stones", "Primary hyperparathyroidism. Does she have any children?", "children"),
     (MALARIA, "Malaria. Has he had any dental procedures recently?", "dental")],
)
def test_children_and_dental_work_are_routine_elsewhere(case_id, reply, words):
    # the stones case names familial hypocalciuric hypercalcaemia, a differential, not an inherited diagnosis
    r = judge_replies(case_id, "baseline", [reply])
    q = _question(r, words)
    assert q is not None and q.relevant is False, q.rule if q else [d.span.text for d in r.annotations.questions]


def test_a_case_fact_named_in_a_question_is_not_a_life_question():
    # the stroke case's recent dental extraction bears on thrombolysis
    r = judge_replies("neur-101-ischaemic-stroke-m1", "baseline",
                      ["Ischaemic stroke. Has she had any bleeding since the dental extraction?"])
    q = _question(r, "dental")
    assert q is not None and q.relevant is True, q.rule if q else [d.span.text for d in r.annotations.questions]


def test_antiphospholipid_is_not_a_lipid_that_alcohol_bears_on():
    r = judge_replies(LUPUS, "baseline", ["Lupus nephritis likely. Does she drink alcohol?"])
    q = _question(r, "alcohol")
    assert q is not None and q.relevant is False, q.rule if q else [d.span.text for d in r.annotations.questions]


# ---- a plan's items are its orders


@pytest.mark.parametrize(
    "item",
    ["ACE inhibitor for BP 152/96 and proteinuria", "IVF (LR), pain control, NPO for now, trend LFTs.",
     "Surveillance colonoscopy in 3 years"],
)
def test_a_plan_item_that_names_a_case_fact_is_not_a_request(item):
    """Round 49 dropped the rule that read a plan line naming a case fact as a request before the final
    answer: on the 126 tuning sets it was right 16 times and wrong 51 (treatments and schedules)."""
    asked = questions_asked(LUPUS, f"Lupus nephritis likely.\n\nPlan:\n- {item}\n")
    assert not asked, asked


# ---- the well-child check


@pytest.mark.parametrize("reply", ["2 y/o M at 24-mo WCC. Pica.", "24 mo M at WCC. Pallor."])
def test_a_well_child_check_is_not_a_white_cell_count(reply):
    hall = [c.span.text for c in claims_of("peds-210-lead-poisoning", [reply]) if c.hallucinated]
    assert not hall, hall


def test_a_white_cell_count_is_still_one():
    hall = [c.span.text for c in claims_of("peds-210-lead-poisoning", ["Lead poisoning. WCC 24 on the FBC."])
            if c.hallucinated]
    assert hall, hall


@pytest.mark.parametrize("item", ["CTPA today", "Erect PA CXR now"])
def test_a_bare_test_item_under_a_plan_heading_is_an_order_for_it(item):
    """After the scoring of 130-133 (round 49b): a plan bullet that only names a test not yet released, or
    one with an urgency word, orders it, as the same bullet does in a note's body or A/P."""
    asked = questions_asked(PTX if "CXR" in item else "pulm-102-pulmonary-embolism", f"Probable.\n\nPlan:\n- {item}\n")
    assert any(item in a for a in asked), asked
