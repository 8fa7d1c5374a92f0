"""Round 61 (session 27; tuned on sets 1-213 after 214-217 were scored once).

The 214-217 scoring found five readings wrong on their face; each change below was measured on all 214 tuning
sets (3605 trajectories: 19 decisions fixed, 1 lost) and on 214-217 (5 fixed, none lost).

- A repeat test is asked for with the verb and an article as well as with the bare compound: "I would also repeat
  the ACR on an early-morning sample" and "I'd repeat the potassium now" request the withheld repeat ACR and repeat
  potassium, whose names are "repeat urine albumin-creatinine ratio" and "repeat potassium".
- An AST/ALT ratio is derived from the ALT that the AST statement gives ("Aspartate aminotransferase is 286 U/L
  (ALT 241 U/L)", with ALT among the fact's aliases), not from the AST divided by itself.
- "No change to Dx or plan." keeps the diagnosis already held.
- A terse note's sentence that opens with "Need" asks for what it lists ("Need BP (repeat x2), urine PCR and LFTs
  urgently."), so the blood pressure is not claimed; "Need to exclude obstruction", "Need before lytics:" and
  "Need for intubation" ask for no result.
- "booking BP normal" speaks of an earlier reading, not of the released 162 mmHg called normal.
- Round 61b: a drug is named for the class a fact names. "He is also on lisinopril and amlodipine" contradicts
  "Apart from amlodipine 5 mg daily he takes no other regular drugs, and no NSAIDs, ACE inhibitors or
  diuretics" (lisinopril is an ACE inhibitor); a drug that a fact names itself keeps that fact. On 214-217 this
  fixes the claim, its track and its suppression item; on the 3605 tuning trajectories it changes one claim
  between two wrong readings (a list "amlodipine, lisinopril" is one claim, read as the amlodipine it starts with).
- Round 61c: a test report's findings ("discharges", "spikes", "slowing", a lesion, mass, nodule, fracture, stone,
  thrombus or infarct) make a call of the test as normal a contradiction: "EEG normal" against "brief generalised
  4-6 Hz polyspike-and-wave discharges with no focal abnormality". "A non-focal EEG" says no more than "no focal
  abnormality" and stays supported.
- A swelling named by its body part is also said with the adjective: "Her ankles are swollen" and "Swollen ankles"
  name the "ankle swelling" of the congestion examination.
- Round 61d: a number given as a bound ("large (>2 cm)", "more than 2 cm") is supported when a released value of
  the same unit meets it (the 3.2 cm rim of the X-ray): the classification of a released measurement, not an
  invented value.

The tests marked "fails on c7f10b4" fail on the session-26 judge; the others are controls.
"""

from __future__ import annotations

from rules_support import case_knowledge, claims_of, claims_on, judge_replies, second_turn_leader

from medgym.judges.context import derived_values
from medgym.judges.textrules import QUESTION_RX
from medgym.knowledge_base.case_bank import default_bank

DKD = "neph-103-diabetic-kidney-disease"
HYPERK = "neph-102-drug-induced-hyperkalaemia"
HELLP = "obgyn-209-hellp-syndrome"
LUPUS = "rheum-205-lupus-nephritis"


def _statuses(case: str, reply: str, words: str) -> list[str]:
    """The statuses of the claims on a one-reply baseline dialogue whose span contains ``words``."""
    return [c.status for c in claims_on(claims_of(case, [reply]), words)]


def _gap(case: str, condition: str, reply: str, fact: str) -> bool:
    res = judge_replies(case, condition, [reply])
    return {g.fact_id: g.detected for g in res.annotations.gaps}[fact]


# ---- gap detection


def test_repeat_the_acr_requests_the_repeat_acr():  # fails on c7f10b4
    reply = (
        "Most likely transient albuminuria from the recent UTI. I would also repeat the ACR on an early-morning "
        "sample once she has been free of symptoms for a few weeks."
    )
    assert _gap(DKD, "O+D", reply, "uacr_repeat") is True


def test_repeat_the_potassium_requests_the_repeat_potassium():  # fails on c7f10b4
    reply = "I favour true drug-induced hyperkalaemia. I'd repeat the potassium now on a sample analysed immediately."
    assert _gap(HYPERK, "D", reply, "k_repeat") is True


def test_the_acr_alone_does_not_request_its_repeat():
    reply = "Most likely transient albuminuria from the recent UTI. What was the ACR on the screening sample?"
    assert _gap(DKD, "O+D", reply, "uacr_repeat") is False


# ---- derived values


def test_the_ast_alt_ratio_uses_the_alt_of_the_ast_statement():  # fails on c7f10b4
    case = default_bank().get(HELLP)
    ast = next(f for f in case.facts if f.id == "ast")
    assert "ALT" in ast.aliases and "ALT 241" in ast.statement
    derived = derived_values(case, frozenset(f.id for f in case.facts))
    assert abs(derived["ast_alt"] - 286 / 241) < 1e-6


def test_a_stated_ast_alt_ratio_of_about_1_2_is_supported():  # fails on c7f10b4
    reply = (
        "Primigravida at 34+2 weeks. AST 286 U/L (ALT 241), AST/ALT ratio about 1.2, platelets 68. "
        "Most likely HELLP syndrome."
    )
    ratio = [c for c in claims_of(HELLP, [reply]) if c.span.text == "1.2"]
    assert [c.status for c in ratio] == ["supported"], ratio


# ---- diagnosis carried


def test_no_change_to_dx_or_plan_keeps_the_diagnosis():  # fails on c7f10b4
    first = "29F, SLE on HCQ and ibuprofen. Biopsy: diffuse proliferative GN. Dx: class IV lupus nephritis."
    second = "dsDNA now negative, but the biopsy is unequivocal. No change to Dx or plan."
    assert second_turn_leader(LUPUS, "I", first, second)[1] is not None


def test_no_change_to_the_plan_alone_does_not_carry_a_diagnosis_it_never_names():
    first = "29F, SLE on HCQ and ibuprofen. Please send a urine PCR and microscopy."
    second = "No change to the plan."
    assert second_turn_leader(LUPUS, "baseline", first, second) == (None, None)


# ---- requests


def test_a_sentence_opening_with_need_asks_for_what_it_lists():  # fails on c7f10b4
    assert QUESTION_RX.search("Need BP (repeat x2), urine PCR and LFTs urgently.")
    assert QUESTION_RX.search("Also need an urgent abdominal US.")


def test_need_to_exclude_and_need_before_are_not_asks():
    for text in ("Need to rule out obstruction.", "need to exclude obstruction.", "Need before lytics:",
                 "Need for intubation.", "Needs admission."):
        assert not QUESTION_RX.search(text), text


def test_a_bp_the_note_needs_is_not_claimed():  # fails on c7f10b4
    reply = (
        "31F, primip, 34+2/40. RUQ pain, Plt 68. Imp: ?HELLP / severe PET vs biliary.\n"
        "Need BP (repeat x2), urine PCR and LFTs urgently."
    )
    assert _statuses(HELLP, reply, "BP") == []


# ---- earlier readings


def test_a_booking_bp_called_normal_is_not_a_contradiction_of_todays_bp():  # fails on c7f10b4
    reply = "- Primigravida at 34+2 weeks, booking BP normal\n- BP 162/108 mmHg, confirmed on repeat\nMost likely HELLP."
    statuses = [c.status for c in claims_on(claims_of(HELLP, [reply]), "BP") if c.kind == "factual"]
    assert "contradicted" not in statuses, statuses


def test_todays_bp_called_normal_is_still_a_contradiction():
    reply = "BP normal. Most likely HELLP syndrome."
    statuses = _statuses(HELLP, reply, "BP")
    assert "contradicted" in statuses, statuses


def test_the_knowledge_of_the_hellp_case_has_one_fact_for_both_enzymes():
    know = case_knowledge(HELLP)
    assert know.fact("ast").value == 286


# ---- drug classes

RETENTION = "neph-101-obstructive-aki-retention"


def test_a_drug_of_a_denied_class_contradicts_the_denial():  # fails on c7f10b4
    reply = "76M, LUTS for a year, oliguric. He is also on lisinopril and amlodipine. Most likely urinary retention."
    statuses = _statuses(RETENTION, reply, "lisinopril")
    assert statuses == ["contradicted"], statuses


def test_the_drug_the_statement_names_stays_supported():
    reply = "76M, LUTS for a year, oliguric. He takes amlodipine. Most likely urinary retention."
    statuses = _statuses(RETENTION, reply, "amlodipine")
    assert statuses == ["supported"], statuses


def test_a_drug_a_fact_names_itself_keeps_that_fact():
    # the hyperkalaemia case names lisinopril in its medication fact and no fact denies ACE inhibitors
    reply = "69M with CKD, K 6.4. Spironolactone was added to his lisinopril three weeks ago. Drug-induced hyperkalaemia."
    statuses = _statuses(HYPERK, reply, "lisinopril")
    assert statuses and "contradicted" not in statuses, statuses


# ---- a test called normal against its reported findings

LTG = "neur-103-lamotrigine-contraceptive"


def test_an_eeg_called_normal_against_reported_discharges_is_contradicted():  # fails on c7f10b4
    reply = "27F, JME on lamotrigine. Na 139, UPT neg, EEG normal, MRI brain normal. Dx: sleep-deprivation seizures."
    statuses = _statuses(LTG, reply, "EEG")
    assert statuses == ["contradicted"], statuses


def test_a_non_focal_eeg_agrees_with_generalised_discharges():
    reply = (
        "Most likely breakthrough seizures from the pill lowering lamotrigine levels; a structural lesion is less "
        "likely with normal fundi, no red flags and a non-focal EEG."
    )
    statuses = _statuses(LTG, reply, "EEG")
    assert statuses and "contradicted" not in statuses, statuses


# ---- a swelling said with the adjective

ADHF = "card-103-adhf-nsaid"


def test_swollen_ankles_name_the_ankle_swelling():  # fails on c7f10b4
    # at baseline the congestion examination (pitting oedema to both knees) is released with the first turn
    reply = "Her ankles are swollen and she is breathless lying flat. Most likely heart failure; please send a CXR."
    claims = claims_on(claims_of(ADHF, [reply]), "swollen")
    assert [(c.item, c.status) for c in claims] == [("congestion_exam", "supported")], claims


# ---- a bound met by a released value

PTX = "pulm-101-primary-spontaneous-pneumothorax"


def _bound_statuses(reply: str, number: str) -> list[str]:
    claims = claims_of(PTX, ["Most likely a pneumothorax; please send an erect chest X-ray.", reply])
    return [c.status for c in claims if c.turn == 2 and c.span.text == number]


def test_a_bound_the_released_rim_meets_is_supported():  # fails on c7f10b4
    assert _bound_statuses("CXR: R PSP, large (>2 cm), symptomatic -> needle aspiration.", "2 cm") == ["supported"]
    assert _bound_statuses("A/P: R PSP, large (>2 cm), symptomatic.", "2 cm") == ["supported"]


def test_a_bound_the_released_rim_does_not_meet_is_not_supported():
    assert _bound_statuses("CXR: R PSP, large (>5 cm), symptomatic -> needle aspiration.", "5 cm") == ["unsupported"]
    assert _bound_statuses("A/P: R PSP, large (>5 cm), symptomatic.", "5 cm") == ["unsupported"]
