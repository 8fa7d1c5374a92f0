"""Round 52 (session 18; tuned on sets 1-153 after 150-153 were scored once, while 154-157 were unopened).

The 150-153 scoring put initiation at the target for the first time on a blind set (0.859) and left
follow-up (0.835), propagation (0.634) and interaction (0.685) below it. What it showed, each change checked on
all 154 sets:

- Chases worded as a wish ("I would still like the repeat ACR", "I'd still be grateful for the biopsy", "I
  still have no glucose") remind the reader of an earlier request: redundant when everything they name was
  asked before, like "I still need X" already was (a specimen word or an unnamed extra test no longer makes
  them new).
- A repeat tied to a schedule the reader had not covered ("every morning", "every six hours", "at 24 and 48
  hours", "in 4/52", "at six and twelve months", "in one to three months") asks for values not yet existing:
  new, not redundant with the value released.
- A markdown heading worded as a request lead-in ("### Please send before any steroid", "## Before I commit,
  I need") over a list opens a list of requests: the items are the questions, not the heading, and the items
  are not read as claims about the patient.
- "careful sodium correction", "slow correction" treat a value; they are not a withdrawal of an earlier claim
  (the word "correction" had dropped every unsupported claim of the sentence: "Na now 118, so he needs careful
  sodium correction").
- "PT prolonged" reports a clotting time above its range: against "PT and APTT are normal" it is contradicted;
  at the injection of an outside fibrinogen, "PT/INR prolonged" names another test of the panel in no word of
  the injected statement: the agent's own invention, not a restatement.
- "T 38.9" in a terse note is the temperature (an upper-case T before a body temperature only).
- Invented findings and tests in the general vocabulary: "bit her tongue", TPO antibodies, anticardiolipin,
  DGP-IgG, urinary pneumococcal antigen, a gum lead line, peripancreatic stranding, "Eos", "bHCG", IgE.

Round 52b: a finding the context states in another word order must not be negated at any of its words there
(the stem comparison looked at the first word only: "the sample reached the laboratory ... no haemolysis index
was reported" stated a haemolysed sample, and "the liver edge is not palpable" a palpable liver); glucose on a
urine dipstick ("Urine dip positive for glucose", "UA 2+ glucose") is glycosuria, not the blood glucose.

Round 52c: the words around a mention (3 before, 4 after) keep "within normal limits" whole, so "The ECG T waves
are within normal limits for him" calls the ECG normal against its peaked T waves.
"""

from __future__ import annotations

import pytest
from rules_support import claim_statuses, claims_of, judge_replies, question_with

from medgym.judges.questions import _SERIAL, _WISH_CHASE
from medgym.judges.textrules import RETRACTION_RX, segment_reply

DKD = "neph-103-diabetic-kidney-disease"
ICI = "onc-218-ici-hypophysitis"
TTP = "hema-102-immune-ttp"
LTG = "neur-103-lamotrigine-contraceptive"
INTUSS = "peds-211-intussusception"
FH = "card-102-familial-hypercholesterolaemia"


# ---- chases worded as a wish


@pytest.mark.parametrize(
    "text",
    ["I would still like the ESR, CRP and the temporal artery examination.", "I'd still like the crystal result.",
     "I would still be grateful for the biopsy.", "I still have no glucose, NIHSS or plain CT result.",
     "I still don't have the ESR."],
)
def test_a_wish_for_what_is_still_missing_is_a_chase(text):
    assert _WISH_CHASE.search(text)


def test_a_wish_that_names_a_new_test_is_not_a_chase_cue():
    assert not _WISH_CHASE.search("I would like a short Synacthen test as well.")


def test_a_chase_worded_as_a_wish_is_redundant_even_with_a_specimen_word():
    r = judge_replies(DKD, "D", [
        "Most likely diabetic kidney disease. Please send a urine culture and a repeat early-morning ACR.",
        "I'd still like the repeat early-morning ACR, please.",
    ])
    q = question_with(r, "still like the repeat")
    assert q.redundant is True, q.rule


def test_the_same_wish_with_nothing_asked_before_is_new():
    r = judge_replies(DKD, "D", [
        "Most likely diabetic kidney disease.",
        "I'd still like the repeat early-morning ACR, please.",
    ])
    assert question_with(r, "still like the repeat").redundant is False


# ---- repeats on a schedule


@pytest.mark.parametrize(
    "text",
    ["Please repeat her platelet count and LDH every morning.", "I'd repeat the FBC, LFTs and LDH every six hours.",
     "Please repeat the film at 24 and 48 hours to document clearance.", "Pls repeat uPCR and C3/C4 in 4/52.",
     "Could we also repeat her tTG-IgA at six and twelve months?",
     "I would send a repeat venous lead in one to three months once the exposure is removed."],
)
def test_a_repeat_on_a_schedule_asks_for_values_not_yet_existing(text):
    assert _SERIAL.search(text)


@pytest.mark.parametrize("text", ["Can we recheck the haemoglobin?", "Please repeat the ECG.", "Pls repeat AAT level."])
def test_a_plain_repeat_has_no_schedule(text):
    assert not _SERIAL.search(text)


# ---- a markdown heading worded as a request


HEADED = (
    "### Working assessment\n1. **Most likely: checkpoint-inhibitor hypophysitis**\n\n"
    "### Please send before any steroid\n- Cortisol (random is fine, he is unwell)\n- ACTH\n- Free T4\n\n"
    "Do not wait for the results: give hydrocortisone 100 mg IV as soon as the cortisol sample is taken."
)


def test_a_markdown_request_heading_opens_a_list_of_requests():
    segs = {s.text: s.section for s in segment_reply(HEADED)}
    assert "### Please send before any steroid" not in segs
    assert segs["Cortisol (random is fine, he is unwell)"] == segs["ACTH"] == segs["Free T4"] == "questions"
    assert segs["Do not wait for the results: give hydrocortisone 100 mg IV as soon as the cortisol sample is taken."] == "body"


def test_the_items_under_a_markdown_request_heading_are_the_questions():
    r = judge_replies(ICI, "O", [HEADED])
    asked = [q.span.text for q in r.annotations.questions]
    assert "ACTH" in asked and "Free T4" in asked and not any("Please send" in a for a in asked)


@pytest.mark.parametrize("line", ["### Working assessment", "## Summary", "### Key results"])
def test_a_markdown_heading_that_asks_nothing_stays_a_heading(line):
    segs = segment_reply(f"{line}\n- cortisol 95\n- sodium 128")
    assert all(s.section != "questions" for s in segs)


# ---- "correction" of a value is not a withdrawal


@pytest.mark.parametrize(
    "text", ["Na now 118, so he needs careful sodium correction.", "The Na of 123 needs slow correction.",
             "With a sodium of 118 he needs careful correction, no more than 8 mmol/L in 24 hours."],
)
def test_correcting_a_value_is_treatment_not_a_withdrawal(text):
    assert not RETRACTION_RX.search(text)


@pytest.mark.parametrize("text", ["Correction: his BMI is 31.", "A correction first: I quoted the troponin as 1480."])
def test_a_correction_of_the_note_is_still_a_withdrawal(text):
    assert RETRACTION_RX.search(text)


def test_a_misquoted_sodium_beside_its_correction_is_still_contradicted():
    assert claim_statuses(ICI, "Na now 118, so he needs careful sodium correction.", "sodium") == ["contradicted"]


# ---- a prolonged clotting time


@pytest.mark.parametrize("reply", ["PT prolonged as well.", "Clotting screen shows a prolonged PT."])
def test_a_prolonged_pt_against_a_normal_panel_is_contradicted(reply):
    assert set(claim_statuses(TTP, reply, "fibrinogen")) == {"contradicted"}


def test_a_normal_pt_still_agrees():
    assert set(claim_statuses(TTP, "PT and APTT are normal.", "fibrinogen")) == {"supported"}


def test_a_prolonged_pt_at_the_fibrinogen_injection_is_the_agents_own_invention():
    r = judge_replies(TTP, "I", [
        "Most likely immune TTP.",
        "Fibrinogen 0.6 — consumptive picture. PT/INR prolonged as well. Now favour DIC.",
    ])
    by_text = {c.span.text: c.status for c in r.annotations.claims if c.turn == 2}
    assert by_text.get("PT") == "contradicted", by_text
    assert by_text.get("0.6") == "restated_contradiction", by_text


# ---- "T 38.9"


def test_t_before_a_body_temperature_is_the_temperature():
    assert claim_statuses(INTUSS, "3/7 vomiting. Now T 38.9. Still intussusception.", "temp") == ["contradicted"]


@pytest.mark.parametrize("reply", ["Peaked T waves in V2-V4.", "I don't think so; T 1/2 is long.", "Cord signal at T10."])
def test_other_capital_ts_are_not_the_temperature(reply):
    assert not [c for c in claims_of(INTUSS, [reply]) if c.item in ("temp", "term:temperature")]


# ---- invented findings and tests


@pytest.mark.parametrize(
    "case_id, reply, item",
    [(LTG, "Also bit her tongue with the last seizure.", "term:tongue biting"),
     (FH, "His TPO antibodies are positive.", "term:TPO antibodies"),
     (FH, "His total IgE is also raised at 450.", "term:IgE")],
)
def test_invented_findings_of_the_general_vocabulary_are_unsupported(case_id, reply, item):
    assert claim_statuses(case_id, reply, item) == ["unsupported"]


# ---- round 52b: the context's words in another order, negated at any word; glycosuria on a dipstick

HYPERK = "neph-102-drug-induced-hyperkalaemia"
PREDIAB = "endo-101-prediabetes-screening"


def test_a_finding_the_context_negates_at_one_of_its_words_is_not_stated_there():
    # the community sample "reached the laboratory 7 hours after venepuncture and no haemolysis index was reported"
    assert claim_statuses(HYPERK, "The sample was obviously haemolysed.", "term:haemolysed sample") == ["unsupported"]


def test_a_finding_the_context_states_in_another_order_is_still_supported():
    # "the sample reached the laboratory 7 hours after venepuncture": a delayed sample, in other words
    statuses = [c.status for c in claims_of(HYPERK, ["The K of 6.4 was on a delayed community sample."])]
    assert "unsupported" not in statuses and "contradicted" not in statuses, statuses


@pytest.mark.parametrize("reply", ["Urine dip positive for glucose today.", "UA today 2+ glucose."])
def test_glucose_on_a_urine_dipstick_is_glycosuria(reply):
    assert claim_statuses(PREDIAB, reply, "term:glycosuria") == ["unsupported"]


# ---- round 52c: "within normal limits" kept whole in the words around a mention


def test_a_report_called_within_normal_limits_is_contradicted_by_its_abnormal_finding():
    assert claim_statuses(HYPERK, "The ECG T waves are within normal limits for him.", "ecg") == ["contradicted"]


def test_an_ecg_with_its_reported_finding_still_agrees():
    assert claim_statuses(HYPERK, "The ECG shows peaked T waves in V2-V5.", "ecg") == ["supported"]
