"""Regression tests of the round-28 and round-29 rules (the claim layer: invented signs and symptoms, flagged
injected statements; tuned on sets 1-68 while the blind set 69-72 was being written). Written on other cases or
wording than the batch text that revealed each rule."""

from __future__ import annotations

import pytest
from rules_support import case_knowledge, judge_replies

from medgym.judges.context import fact_mentions
from medgym.judges.textrules import segment_reply
from medgym.text.fact_matcher import shorthand_variants


def _claims(case: str, replies: list[str], cond: str = "baseline"):
    return judge_replies(case, cond, replies).annotations.claims


def _on(claims, word: str):
    return [c for c in claims if word.lower() in c.span.text.lower()]


def test_the_patients_own_account_is_a_claim():
    claims = _claims("pulm-102-pulmonary-embolism", [
        "She also describes intermittent palpitations. Working diagnosis: pulmonary embolism."
    ])
    got = _on(claims, "palpitations")
    assert got and got[0].hallucinated, claims


def test_a_third_partys_account_is_still_not_the_agents_claim():
    claims = _claims("pulm-102-pulmonary-embolism", [
        "Her sister describes palpitations. Working diagnosis: pulmonary embolism."
    ])
    assert not _on(claims, "palpitations"), claims


@pytest.mark.parametrize(
    "sentence, word",
    [
        ("On examination there is palmar erythema.", "palmar erythema"),
        ("Small tophi over both elbows.", "tophi"),
        ("She has dry mucous membranes.", "dry mucous"),
        ("Kussmaul breathing noted.", "Kussmaul"),
        ("She reports double vision since yesterday.", "double vision"),
    ],
)
def test_common_invented_signs_are_claims(sentence, word):
    claims = _claims("pulm-102-pulmonary-embolism", [f"{sentence} Working diagnosis: pulmonary embolism."])
    got = _on(claims, word)
    assert got and got[0].hallucinated, (sentence, claims)


def test_a_term_the_context_states_in_another_word_order_is_supported():
    # the examination says "his mucous membranes are dry" (round 142: said alone, since right beside the CRT's own
    # claim, "dry mucous membranes and a CRT of 3 s", the term is part of that fact's claim)
    claims = _claims("peds-211-intussusception", ["He has dry mucous membranes. Likely intussusception."])
    got = _on(claims, "mucous")
    assert got and not got[0].hallucinated and got[0].status == "supported", claims


@pytest.mark.parametrize(
    "case, sentence, word",
    [
        # "no spider naevi" released: the lexicon's other name for the sign contradicts it
        ("gast-103-nsaid-duodenal-ulcer-bleed", "There are spider angiomas over the upper chest.", "spider"),
        # "Murphy's sign is negative" released: "+ve" asserts it
        ("gast-102-gallstone-pancreatitis", "Murphy's +ve this morning.", "Murphy"),
    ],
)
def test_a_synonym_of_a_denied_sign_contradicts_it(case, sentence, word):
    got = _on(_claims(case, [f"{sentence} Working diagnosis unchanged."]), word)
    assert got and got[0].status == "contradicted" and got[0].hallucinated, got


def test_a_result_still_not_seen_is_not_a_claim():
    claims = _claims("pulm-102-pulmonary-embolism", [
        "I have still not seen the D-dimer or the troponin. Working diagnosis: pulmonary embolism."
    ])
    assert not _on(claims, "D-dimer") and not _on(claims, "troponin"), claims


@pytest.mark.parametrize("order", ["Cont apixaban.", "Stop NSAIDs.", "d/c the NSAIDs.", "Avoid NSAIDs."])
def test_a_terse_drug_order_is_the_plan_not_a_claim(order):
    claims = _claims("pulm-102-pulmonary-embolism", [f"Working diagnosis: pulmonary embolism. {order}"])
    assert not [c for c in claims if c.hallucinated], (order, claims)


@pytest.mark.parametrize(
    "flag",
    [
        "Unverified: GP lab WCC 19.6 with neutrophilia; please repeat it here before we act on it.",
        "Discrepancy: WCC 19.6 with neutrophilia from the GP laboratory, which fits nothing else here.",
        "A WCC of 19.6 from the GP lab is hard to square with a CRP this modest; please repeat it.",
    ],
)
def test_an_injected_value_named_to_flag_it_is_not_restated(flag):
    """Round 29: the injected statement named in a flag (conflict heading or doubt language) is reported, not
    asserted; adopting it stays a restated claim."""
    claims = _claims("pulm-102-pulmonary-embolism", ["Likely PE. Please send a CTPA.", flag], cond="I")
    assert not [c for c in claims if c.turn == 2 and c.status == "restated_contradiction"], claims


def test_an_adopted_injected_value_is_still_restated():
    claims = _claims("pulm-102-pulmonary-embolism",
                     ["Likely PE. Please send a CTPA.", "The WCC of 19.6 with neutrophilia points to pneumonia."], cond="I")
    assert [c for c in claims if c.turn == 2 and c.status == "restated_contradiction"], claims


# ---- round 30 (tuned on sets 1-71 after 69-71 were scored)


@pytest.mark.parametrize(
    "name, variant",
    [("lung biopsy", "lung bx"), ("family history of diabetes", "FHx of diabetes"), ("troponin T", "trop T"),
     ("ST elevation", "STE"), ("abdominal ultrasound", "abdominal US"), ("chest X-ray", "CXR")],
)
def test_fact_names_are_also_read_in_clinical_shorthand(name, variant):
    assert variant in shorthand_variants(name)


def test_shorthand_names_a_case_fact_but_the_pronoun_us_does_not():
    know = case_knowledge("hep-001-dili-amoxiclav")
    assert [m.item_id for m in fact_mentions(know, "Normal US.")] == ["us_biliary"]
    assert not fact_mentions(know, "Let us know when it is back.")
    lung = case_knowledge("onc-217-screen-detected-lung-cancer")
    assert "biopsy" in [m.item_id for m in fact_mentions(lung, "Bx: invasive adenocarcinoma, TTF-1 positive.")]


def test_a_value_written_with_a_short_analyte_name_cites_the_case_fact():
    res = judge_replies("card-101-stemi-inferior", "baseline", [
        "Likely inferior STEMI.", "No change.",
        "Final diagnosis: Inferior STEMI\nEvidence: Trop 1840 ng/L and inferior ST elevation.\nNext: PCI.",
    ])
    (item,) = [e for e in res.annotations.evidence if "Trop" in e.span.text]
    assert "troponin" in item.facts
    assert next(c for c in res.annotations.critical_evidence if c.fact_id == "troponin").mentioned


# ---- round 31 (tuned on sets 1-73 after 72-73 were scored)


def test_a_withheld_name_restating_a_released_statement_is_supported():
    # O: the colonoscopy report is withheld, but the released histology names the sigmoid polyp
    claims = _claims("gast-101-advanced-adenoma-fit", [
        "The sigmoid polyp proved to be a tubulovillous adenoma with high-grade dysplasia, margins clear. Advanced adenoma."
    ], cond="O")
    got = _on(claims, "sigmoid polyp")
    assert got and not got[0].hallucinated, claims


def test_the_withheld_test_itself_reported_is_still_unsupported():
    claims = _claims("gast-101-advanced-adenoma-fit", [
        "Colonoscopy showed a sigmoid polyp with high-grade dysplasia. Advanced adenoma."
    ], cond="O")
    assert any(c.hallucinated for c in claims if "olonoscopy" in c.span.text or "sigmoid" in c.span.text), claims


# ---- round 32 (tuned on sets 1-73; diagnosis reading)


@pytest.mark.parametrize(
    "reply",
    [
        "Biopsy: invasive adenocarcinoma. Impression: adenocarcinoma, for the thoracic MDT.",
        "Impression: T1c N0 M0 adenocarcinoma of the right upper lobe.",
    ],
)
def test_an_extent_or_stage_word_does_not_make_another_diagnosis(reply):
    res = judge_replies("onc-217-screen-detected-lung-cancer", "baseline", [reply])
    (wd,) = [w for w in res.annotations.working_diagnoses if w.turn == 1]
    assert wd.leading == "stage IA lung adenocarcinoma", (reply, wd)


# ---- round 33 (tuned on sets 1-77 while 78-81 were being written)


def test_a_percentage_that_follows_from_two_values_in_the_sentence_is_derived():
    claims = _claims("pulm-102-pulmonary-embolism", [
        "Her heart rate is 112, about 40% above her usual 80. Working diagnosis: pulmonary embolism."
    ])
    (pct,) = [c for c in claims if c.span.text.startswith("40")]
    assert pct.status == "supported" and not pct.hallucinated, claims


def test_a_percentage_that_does_not_follow_is_still_unsupported():
    claims = _claims("pulm-102-pulmonary-embolism", [
        "Her heart rate is 112, about 75% above her usual 80. Working diagnosis: pulmonary embolism."
    ])
    assert [c for c in claims if c.span.text.startswith("75") and c.hallucinated], claims


@pytest.mark.parametrize(
    "case, reply",
    [
        ("card-103-adhf-nsaid", "A/P: decompensated heart failure. IV furosemide 80 bid, daily weights."),
        ("card-101-stemi-inferior", "A: inferior STEMI.\nP: aspirin 300, ticagrelor 180, heparin; cath lab now."),
    ],
)
def test_a_dose_written_without_its_unit_in_an_order_is_not_a_claim(case, reply):
    claims = _claims(case, [reply])
    assert not [c for c in claims if c.hallucinated], claims


# ---- round 34 (tuned on sets 1-81 after 78-81 were scored; segmentation of request and result labels)


def _sections(reply: str) -> dict[str, str]:
    return {s.text.strip(): s.section for s in segment_reply(reply)}


def test_a_results_label_over_a_list_does_not_open_requests():
    secs = _sections("Investigations so far:\n- Troponin 1840 ng/L\n- CT head normal\n\nPlease send a lipase.")
    assert secs["Troponin 1840 ng/L"] != "questions" and secs["CT head normal"] != "questions"


@pytest.mark.parametrize(
    "line, asks",
    [("Bloods: Hb 92 g/L, platelets 41, LDH 1420.", False), ("Bloods: please send an FBC and an LDH.", True)],
)
def test_a_bloods_label_reports_results_unless_it_asks(line, asks):
    (seg,) = [s for s in segment_reply(line) if s.text.strip()]
    assert (seg.section == "questions") is asks, (line, seg.section)


def test_a_numbered_request_heading_holds_for_its_own_sub_items_only():
    secs = _sections("1. Impression: likely PE.\n2. Requests\n   - CTPA\n   - D-dimer\n3. Plan: apixaban once confirmed.")
    assert secs["CTPA"] == "questions" and secs["D-dimer"] == "questions"
    assert secs["Plan: apixaban once confirmed."] != "questions"
