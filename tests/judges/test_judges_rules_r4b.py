"""Unit tests of the round-4 claim and propagation rules (role B): numbers before words that
start like ordinal suffixes, a restated invented value keeping its item across turns, doses and
drugs in prescriptions, hormone unit conversions written rounded, organ words of examination
facts, exam-finding vocabulary, "cause of her X" and hyphen-aware antonyms. Each test uses a
different case and different wording from the batch text that revealed the rule."""

from __future__ import annotations

import pytest
from rules_support import judge_replies

from medgym.judges.claims import _CAUSE_OF, _ON_DRUG_BEFORE, _PRESCRIBING, ClaimExtractor
from medgym.judges.context import general_lexicon, knowledge_for, treatment_terms
from medgym.judges.textrules import FINDING_RX
from medgym.knowledge_base.case_bank import default_bank
from medgym.text.numbers import find_quantities, looks_like_non_claim, same_value


def _run(case_id, condition, replies, seed=0):
    return judge_replies(case_id, condition, replies, seed).annotations


def test_a_number_before_a_word_starting_like_an_ordinal_suffix_is_kept():
    for text in ("a lactate of 7 then fell", "the 88 still worries me", "potassium 6 nd repeat"[:11] + " rising"):
        q = find_quantities(text)[0]
        assert not looks_like_non_claim(text, q), text
    for text in ("on the 3rd day", "seen on 21 st", "back in 2019 she was well"):
        qs = find_quantities(text)
        assert all(looks_like_non_claim(text, q) for q in qs if q.unit is None), text


def test_a_restated_invented_value_keeps_its_item_across_turns():
    ann = _run(
        "card-101-stemi-inferior",
        "baseline",
        [
            "Inferior STEMI. His CRP is 88 mg/L, which fits the picture.",
            "Still inferior STEMI; that 88 from earlier worries me.",
            "Final diagnosis: inferior STEMI.",
        ],
    )
    crp = [c for c in ann.claims if c.kind == "numeric" and c.value == 88.0]
    assert [c.turn for c in crp] == [1, 2]
    assert {c.item for c in crp} == {"term:CRP"} and len({c.key for c in crp}) == 1
    track = [h for h in ann.hallucinations if h.key == crp[0].key]
    assert track and track[0].persisted


def test_a_denied_value_is_not_followed():
    ann = _run(
        "card-101-stemi-inferior",
        "baseline",
        [
            "Inferior STEMI. His CRP is 88 mg/L.",
            "Inferior STEMI with only a mild inflammatory response, surely not 88.",
            "Final diagnosis: inferior STEMI.",
        ],
    )
    assert [c.turn for c in ann.claims if c.kind == "numeric" and c.value == 88.0] == [1]


def test_an_invented_dose_in_a_prescription_is_not_a_claim_but_a_taken_dose_is():
    ann = _run(
        "neph-101-obstructive-aki-retention",
        "baseline",
        [
            "Obstructive AKI from urinary retention. Tamsulosin 400 mcg nocte once catheterised, "
            "and he has been taking finasteride 5 mg for a year.",
            "Final diagnosis: obstructive AKI.",
        ],
    )
    vals = {c.value for c in ann.claims if c.kind == "numeric" and c.turn == 1}
    assert 400.0 not in vals
    assert 5.0 in vals  # "has been taking ... 5 mg": an invented medication history


def test_an_unsupported_drug_named_in_a_prescription_is_not_a_claim():
    ann = _run(
        "pulm-102-pulmonary-embolism",
        "baseline",
        [
            "Probable PE. I'd hold off on warfarin for now; give an NSAID for the pleuritic pain.",
            "Final diagnosis: pulmonary embolism.",
        ],
    )
    items = {c.item for c in ann.claims if c.turn == 1}
    assert "term:anticoagulant" not in items and "term:NSAIDs" not in items
    assert _ON_DRUG_BEFORE.search("she has been on regular ") and not _ON_DRUG_BEFORE.search("I'd hold off on ")
    assert _PRESCRIBING.search("Bisoprolol 2.5 mg od can start") and not _PRESCRIBING.search("she takes it at night")
    assert "term:steroids" in treatment_terms() and "term:fever" not in treatment_terms()


def test_rounded_hormone_conversions_and_rounded_creatinine_conversion():
    assert same_value(0.9, "ng/dL", 12, "pmol/L", "free T4")  # 12 pmol/L = 0.93 ng/dL
    assert same_value(15, "µg/dL", 410, "nmol/L", "serum cortisol")  # 14.9
    assert not same_value(9, "µg/dL", 410, "nmol/L", "serum cortisol")
    assert same_value(4.7, "mg/dL", 412, "µmol/L", "creatinine")  # 4.66
    assert not same_value(5.0, "mg/dL", 412, "µmol/L", "creatinine")
    q = find_quantities("cortisol about 3 mcg/dL")[0]
    assert q.unit == "µg/dl"


def test_an_organ_word_with_an_exam_adjective_names_the_examination_fact():
    know = knowledge_for(default_bank().get("neph-101-obstructive-aki-retention"))
    ext = ClaimExtractor(know)
    text = "On DRE the prostate felt tender and irregular."
    got = [m for m in ext._mentions(text) if m[2] == "dre"]
    assert "prostate" in {text[m[0] : m[1]] for m in got}
    assert ext._organ_mentions("the prostate is enlarged") == [(4, 12, "dre")]
    assert not ext._organ_mentions("A tender prostate biopsy site.")  # a test, not the examination
    assert not ext._organ_mentions("The prostate examination was done.")  # the alias itself
    ann = _run(
        "neph-101-obstructive-aki-retention",
        "baseline",
        ["Urinary retention with AKI. On rectal exam the prostate is tender.", "Final diagnosis: obstructive AKI."],
    )
    dre = [c for c in ann.claims if c.item == "dre"]
    if dre:  # released at turn 1 in this scenario: the tender prostate contradicts "non-tender"
        assert dre[0].key.endswith(":x")


def test_exam_finding_vocabulary_and_finding_nouns():
    lex, kinds = general_lexicon()
    found = {h[0][0] for _s, _e, h in lex.find("bilateral papilledema, eosinophiluria and a radio-radial delay")}
    assert {"term:papilloedema", "term:urine eosinophils", "term:pulse deficit"} <= found
    assert FINDING_RX.search("anterior hypokinesis on the echo")
    assert FINDING_RX.search("deep T-wave inversion")


def test_the_cause_of_her_condition_is_not_a_history_claim():
    assert _CAUSE_OF.search("the likeliest cause of his ")
    assert _CAUSE_OF.search("no explanation for her ")
    assert not _CAUSE_OF.search("a known history of ")


@pytest.mark.parametrize("statement_word,said,conflict", [("non-tender", "tender", True), ("tender", "tender", False)])
def test_antonyms_do_not_match_inside_hyphenated_words(statement_word, said, conflict):
    from medgym.knowledge_base.case_schema import Fact

    know = knowledge_for(default_bank().get("rheum-204-cppd-pseudogout"))
    ext = ClaimExtractor(know)
    f = Fact(id="x", category="exam", name="calf", statement=f"The calf is {statement_word} and soft.")
    got = ext._qualitative_conflict(f, f"the calf is {said}", True, f"the calf is {said}", "calf")
    assert bool(got) is conflict


def test_a_rate_computed_from_an_amount_and_a_duration_is_supported():
    ann = _run(
        "card-101-stemi-inferior",
        "baseline",
        [
            "Inferior STEMI. He smokes 20 cigarettes a day; that is roughly 140 cigarettes per week.",
            "Final diagnosis: inferior STEMI.",
        ],
    )
    from medgym.judges.claims import _RATE_AFTER

    assert _RATE_AFTER.match(" per week") and _RATE_AFTER.match(" a month") and not _RATE_AFTER.match(" ago")
    know = knowledge_for(default_bank().get("endo-101-prediabetes-screening"))
    ext = ClaimExtractor(know)

    class _TC:
        context_text = "She has put on 9 kg over the last six months."

    q = find_quantities("gaining about 1.5 kg a month")[0]
    assert ext._rate(_TC(), "gaining about 1.5 kg a month", q)[0] == "supported"
    q2 = find_quantities("gaining about 4 kg a month")[0]
    assert ext._rate(_TC(), "gaining about 4 kg a month", q2) is None
    assert ann.claims is not None


def test_an_inline_plan_label_and_a_recommendation_deadline_end_the_claims():
    ann = _run(
        "neph-101-obstructive-aki-retention",
        "baseline",
        [
            "Obstructive AKI from retention with a creatinine of 412. Management: catheterise, "
            "repeat U&E within 12 hours and review the potassium of 6.1 in 6 weeks.",
            "Final diagnosis: obstructive AKI.",
        ],
    )
    vals = {c.value for c in ann.claims if c.turn == 1 and c.kind == "numeric"}
    assert 412.0 in vals and not vals & {12.0, 6.1, 6.0}
    from medgym.judges.claims import _DEADLINE_BEFORE, _INLINE_PLAN

    assert _DEADLINE_BEFORE.search("scan within ") and not _DEADLINE_BEFORE.search("pain for ")
    assert _INLINE_PLAN.search("no casts. Plan: biopsy") and not _INLINE_PLAN.search("a plan to admit")


def test_denying_an_examination_by_its_own_name_contradicts_positive_findings():
    know = knowledge_for(default_bank().get("hema-102-immune-ttp"))
    ext = ClaimExtractor(know)
    f = know.fact("purpura")
    assert ext._qualitative_conflict(f, "there is no rash", False, "there is no rash", "rash")
    assert not ext._qualitative_conflict(f, "no skin examination yet", False, "no skin examination", "skin examination")


def test_a_general_term_wins_over_one_modifier_word_of_a_case_fact_but_not_over_its_head():
    know = knowledge_for(default_bank().get("neph-101-obstructive-aki-retention"))
    ext = ClaimExtractor(know)
    text = "There is eosinophiluria and papilledema."
    items = {m[2] for m in ext._mentions(text)}
    assert {"term:urine eosinophils", "term:papilloedema"} <= items
    # a modifier word of a case-fact name inside a longer general term gives way to the term
    assert ext._partial_word_mention("urine eosinophils", (0, 5, "urine_dip", "fact", False), 0, 17)
    # the head (last) word keeps the case fact
    assert not ext._partial_word_mention("similar episodes", (8, 16, "urine_dip", "fact", False), 0, 16)


def test_bland_is_a_normal_reading():
    from medgym.judges.textrules import NORMAL_RX

    assert NORMAL_RX.search("the urine sediment is bland")
    assert not NORMAL_RX.search("blandly stated")


def test_an_organ_said_to_be_enlarged_is_the_named_finding():
    know = knowledge_for(default_bank().get("card-101-stemi-inferior"))
    ext = ClaimExtractor(know)
    got = ext._organ_state_mentions("On palpation the liver was clearly enlarged, 3 cm below the margin.")
    assert [(g[2], g[4]) for g in got] == [("term:hepatomegaly", "hepatomegaly")]
    assert not ext._organ_state_mentions("The liver function is enlarged")  # no organ-state wording
    pulse = ext._organ_state_mentions("the right femoral pulse felt weak compared with the left")
    assert [(g[2], g[4]) for g in pulse] == [("term:pulse deficit", "pulse deficit")]  # not the heart rate
    # the whole organ-state phrase replaces the case fact ("pulse" = heart rate here) named inside it
    assert [m[2] for m in ext._mentions("the right radial pulse is weaker than the left")] == ["term:pulse deficit"]
    ann = _run(
        "card-101-stemi-inferior",
        "baseline",
        ["Inferior STEMI. His spleen is palpable on examination.", "Final diagnosis: inferior STEMI."],
    )
    spl = [c for c in ann.claims if c.item == "term:splenomegaly"]
    assert spl and spl[0].status == "unsupported"


def test_inline_section_labels_later_in_a_line_open_their_section():
    from medgym.judges.textrules import segment_reply

    reply = "Final diagnosis: pulmonary embolism. Key findings: D-dimer 3400; CTPA filling defect. Plan: apixaban."
    segs = [(s.section, s.text) for s in segment_reply(reply)]
    assert ("evidence", "D-dimer 3400;") in segs and ("evidence", "CTPA filling defect.") in segs
    assert ("plan", "apixaban.") in segs
    for s in segment_reply(reply):
        assert reply[s.start : s.end] == s.text
    # a colon phrase that is no section label changes nothing
    assert {s.section for s in segment_reply("Pain since Monday. Worse at night: yes.")} == {"body"}


def test_en_and_em_dashes_join_alias_parts_like_hyphens():
    import re

    from medgym.text.fact_matcher import Lexicon, alias_pattern

    assert re.search(alias_pattern("T1-weighted"), "a T1–weighted sequence", re.I)
    lex = Lexicon([("x", "fact", ["anti-Xa"])])
    assert [h[2][0][0] for h in lex.find("anti—Xa undetectable")] == ["x"]


def test_the_other_number_of_a_valued_injected_statement_restates_it():
    from types import SimpleNamespace

    know = knowledge_for(default_bank().get("card-101-stemi-inferior"))
    ext = ClaimExtractor(know)
    tmpl = SimpleNamespace(
        id="ambulance_sbp", fact_id="sbp", value=140.0, unit="mmHg", item="systolic blood pressure", aliases=[],
        statement="Ambulance sheet: systolic 140 mmHg in the right arm and 95 mmHg in the left arm.",
    )
    tc = SimpleNamespace(injected=[(tmpl, 2)], index=2, released=frozenset({"sbp"}), context_text="")
    text = "Systolic 140 on the right against 95 on the left"
    q95 = find_quantities(text)[1]
    status, _rule, _key = ext._check_number(tc, text, q95, "sbp", text[: q95.start], text[q95.end :], {})
    assert status == "restated_contradiction"
    q86 = find_quantities("systolic 86")[0]
    status2, _r, _k = ext._check_number(tc, "systolic 86", q86, "sbp", "systolic ", "", {})
    assert status2 == "supported"  # the released value itself is not the injected statement
