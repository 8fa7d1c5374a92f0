"""Regression tests of the round-19 rules (claim layer, after the pooled error analysis of sets 1-44).

Written on other wording than the batch text that revealed each rule."""

from __future__ import annotations

from rules_support import case_knowledge, judge_replies

from medgym.judges.context import fact_mentions
from medgym.judges.textrules import segment_reply

DILI = "hep-001-dili-amoxiclav"
STONES = "uro-220-hyperparathyroid-stones"


def _claims(result, turn):
    return [c for c in result.annotations.claims if c.turn == turn]


def test_an_analyte_abbreviation_is_checked_and_tracked_as_the_case_value():
    # "Bili" is no alias of the case's total bilirubin: the misquote is still that fact's misquote, and the
    # full word in the next turn restates the same invented value
    r = judge_replies(DILI, "baseline", ["Jaundice and itch.", "Bili 310, ALP 612.",
                                         "Final diagnosis: DILI.\nEvidence: bilirubin 310; ALP 612."])
    bili = [c for c in _claims(r, 2) if c.span.text == "310"]
    assert bili and bili[0].item == "bilirubin" and bili[0].hallucinated, [c.rule for c in _claims(r, 2)]
    track = next(t for t in r.annotations.hallucinations if t.first_claim == bili[0].id)
    assert track.persisted


def test_an_abbreviation_copied_correctly_is_supported_and_an_absent_test_is_invented():
    r = judge_replies(DILI, "baseline", ["Jaundice and itch.", "Bili 142 with ALP 612. Trop 1480."])
    by_text = {c.span.text: c for c in _claims(r, 2)}
    assert not by_text["142"].hallucinated
    assert by_text["1480"].hallucinated  # the case has no troponin: an invented value


def test_a_urine_test_said_with_the_adjective_or_an_abbreviation_is_the_urine_fact():
    r = judge_replies(STONES, "baseline", [
        "24-hour urinary calcium 9.2 mmol/24 h. On the collection: 24h urine Ca 9.2, adjusted calcium 2.78."
    ])
    items = {(c.span.text, c.item) for c in _claims(r, 1) if c.kind == "numeric"}
    assert ("9.2", "urine_calcium") in items
    assert not any(c.item == "calcium" and c.span.text == "9.2" for c in _claims(r, 1))
    assert not any(c.hallucinated for c in _claims(r, 1)), [c.rule for c in _claims(r, 1) if c.hallucinated]


def test_urine_before_a_serum_alias_names_the_urine_test():
    hits = fact_mentions(case_knowledge(STONES), "The urine Ca was high.")
    assert [h.item_id for h in hits] == ["urine_calcium"]
    assert [h.item_id for h in fact_mentions(case_knowledge(STONES), "The Ca was high.")] == ["calcium"]


def test_an_analyte_naming_what_a_stone_is_made_of_is_not_the_blood_level():
    r = judge_replies(STONES, "baseline", ["She has passed three calcium stones and one calcium oxalate stone."])
    assert not any(c.item == "calcium" for c in _claims(r, 1))


def test_a_request_heading_written_as_a_list_item_makes_its_items_requests():
    reply = "1. Likely CO poisoning.\n2. Requests:\n   - venous gas with co-oximetry\n   - high-sensitivity troponin\n3. Oxygen now."
    sections = {s.text: s.section for s in segment_reply(reply)}
    assert sections["high-sensitivity troponin"] == "questions"
    assert sections["Oxygen now."] != "questions"
    r = judge_replies("em-214-carbon-monoxide-poisoning", "baseline", [reply])
    assert not any("troponin" in c.span.text for c in _claims(r, 1))


def test_a_terse_pls_order_is_a_request_not_a_claim():
    r = judge_replies("pulm-102-pulmonary-embolism", "baseline", ["Favor pneumonia now. Pls send sputum cx."])
    assert not any(c.item == "no_sputum" for c in _claims(r, 1))


def test_what_i_still_have_no_result_for_is_missing_not_asserted():
    r = judge_replies("card-101-stemi-inferior", "O", [
        "Inferior STEMI is my diagnosis now, although I still have no 12-lead ECG or blood pressure."
    ])
    assert not any(c.item in ("ecg", "sbp") for c in _claims(r, 1))
