"""Unit tests of the round-5 claim, evidence and propagation rules (role B): the user's own words in
another inflection, a fact's own alias words never contradicting it, "with" clauses of the diagnosis
line, supported drugs ordered at the mention, "(1)"-style enumerators, follow-up intervals, and
findings asserted as signs or film results that neither the case nor the lexicon names. Each test
uses a different case and different wording from the batch text that revealed the rule."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from rules_support import judge_replies

from medgym.judges.claims import ClaimExtractor, _fact_negated_keywords, _ordered_here, _scheduled
from medgym.judges.context import knowledge_for
from medgym.judges.evidence import evidence_segments
from medgym.judges.textrules import segment_reply
from medgym.knowledge_base.case_bank import default_bank
from medgym.text.numbers import find_quantities


def _run(case_id, condition, replies, seed=0):
    return judge_replies(case_id, condition, replies, seed).annotations


def _extractor(case_id: str) -> ClaimExtractor:
    return ClaimExtractor(knowledge_for(default_bank().get(case_id)))


@pytest.mark.parametrize(
    ("context", "said", "present", "expected"),
    [
        ("She says her ankles swell by the evening and she wheezes at night.", "ankle swelling", True, True),
        ("He has been vomiting since noon.", "vomits since noon", True, True),
        ("She has not noticed her ankles swelling.", "ankle swelling", True, False),
        ("Her knees ache in the morning.", "ankle swelling", True, False),
    ],
)
def test_the_users_own_words_in_another_inflection_are_what_the_context_says(context, said, present, expected):
    ext = _extractor("card-103-adhf-nsaid")
    tc = SimpleNamespace(context_text=context)
    assert ext._context_says(tc, said, present) is expected


def test_a_word_of_the_facts_own_name_is_never_a_negated_keyword():
    case = default_bank().get("gast-103-nsaid-duodenal-ulcer-bleed")
    base = case.facts[0]
    f = base.model_copy(update={
        "name": "melaena", "aliases": ["black stools", "tarry stools"],
        "statement": "She has passed black tarry stools twice, with no fresh blood and no stools today.",
        "negated": False,
    })
    words = _fact_negated_keywords(f)
    assert not any(w.startswith("stool") for w in words)
    assert any(w.startswith("blood") for w in words)


def test_a_with_clause_on_the_diagnosis_line_is_part_of_the_diagnosis_not_evidence():
    reply = ("Final diagnosis: community-acquired pneumonia, with a parapneumonic effusion\n\n"
             "Evidence:\n- CRP 180 mg/L\n- Right basal consolidation on the chest film\n\nPlan: antibiotics.")
    spans = [reply[a:b] for a, b, _why in evidence_segments(reply, segment_reply(reply))]
    assert spans == ["CRP 180 mg/L", "Right basal consolidation on the chest film"]
    reply2 = "Final diagnosis: acute cholecystitis given the positive Murphy's sign and a thick-walled gallbladder."
    spans2 = [reply2[a:b] for a, b, _why in evidence_segments(reply2, segment_reply(reply2))]
    assert spans2 == ["given the positive Murphy's sign and a thick-walled gallbladder."]


@pytest.mark.parametrize(
    ("text", "drug", "ordered"),
    [
        ("Clopidogrel 600 mg load, then fondaparinux.", "Clopidogrel", True),
        ("Please stop the bendroflumethiazide today.", "bendroflumethiazide", True),
        ("Lisinopril started four weeks ago and naproxen 500 mg bd since Monday.", "Lisinopril", False),
        ("Breathless since he began the diltiazem, which is the likely trigger.", "diltiazem", False),
    ],
)
def test_a_supported_drug_is_the_plan_only_when_ordered_at_the_mention(text, drug, ordered):
    s = text.index(drug)
    assert _ordered_here(text, s, s + len(drug)) is ordered


def test_parenthesised_numbers_open_list_items_and_are_not_values():
    reply = "Evidence\n(1) Sodium 121 mmol/L\n(2) Urine osmolality high\n(10) Euvolaemic on examination"
    segs = segment_reply(reply)
    assert [s.text for s in segs] == ["Sodium 121 mmol/L", "Urine osmolality high", "Euvolaemic on examination"]
    assert all(s.bullet for s in segs)


@pytest.mark.parametrize(
    ("text", "number", "scheduled"),
    [
        ("Recheck the ferritin in 2–4 months after starting iron.", "2–4", True),
        ("Review her in clinic in 6 weeks.", "6 weeks", True),
        ("Echo again in about 12 months to look at the valve.", "12 months", True),
        ("A CT coronary angiogram within 48 hours.", "48 hours", True),
        ("The cough began in 3 weeks of the trip.", "3 weeks", False),
        ("Her symptoms started 5 days ago.", "5 days", False),
    ],
)
def test_a_follow_up_interval_of_the_plan_is_not_a_patient_fact(text, number, scheduled):
    q = next(q for q in find_quantities(text) if number.split()[0] in q.text)
    assert _scheduled(text, q) is scheduled


def test_an_invented_sign_named_by_unknown_words_is_a_hallucination_followed_across_turns():
    ann = _run(
        "card-101-stemi-inferior",
        "baseline",
        [
            "Inferior STEMI. Examination reveals bilateral xanthelasma around the eyes.",
            "Still inferior STEMI; the xanthelasma points to long-standing hyperlipidaemia.",
            "Final diagnosis: inferior STEMI.",
        ],
    )
    xan = [c for c in ann.claims if c.item == "term:xanthelasma"]
    assert [c.turn for c in xan] == [1, 2]
    assert all(c.status == "unsupported" for c in xan)
    track = [h for h in ann.hallucinations if h.key == xan[0].key]
    assert track and track[0].persisted


def test_a_sign_the_users_words_give_is_supported_and_a_risk_is_not_a_finding():
    ext = _extractor("card-101-stemi-inferior")
    spans = [m for m in ext._mentions("There is a small risk of bleeding, and she has marked pitting oedema.")
             if m[3] == "reported"]
    assert not any("risk" in m[2] for m in spans)


def test_a_drug_named_with_its_dose_is_a_factual_claim_beside_the_dose_claim():
    ann = _run(
        "neph-102-drug-induced-hyperkalaemia",
        "baseline",
        [
            "Drug-induced hyperkalaemia: spironolactone 25 mg daily on top of lisinopril, plus trimethoprim.",
            "Same view.",
            "Final diagnosis: drug-induced hyperkalaemia.",
        ],
    )
    t1 = [c for c in ann.claims if c.turn == 1 and c.item == "spironolactone"]
    assert {c.kind for c in t1} == {"numeric", "factual"}
    assert all(c.status == "supported" for c in t1)


@pytest.mark.parametrize(
    ("text", "word", "negated"),
    [
        ("He isn't on any anticoagulant.", "anticoagulant", True),
        ("She hasn't had a fever.", "fever", True),
        ("They don't smoke.", "smoke", True),
        ("She is on an anticoagulant.", "anticoagulant", False),
    ],
)
def test_contracted_negations_negate_the_mention(text, word, negated):
    from medgym.judges.textrules import mention_negated
    from medgym.text.negation import is_negated

    s = text.index(word)
    assert mention_negated(text, s, s + len(word)) is negated
    assert is_negated(text, s, s + len(word)) is negated


@pytest.mark.parametrize(
    ("text", "word", "blocked"),
    [
        ("The normal CT takes away the malignancy worry.", "malignancy", True),
        ("A normal bilirubin makes cirrhosis very unlikely.", "cirrhosis", True),
        ("Keep a lab error in mind until it's confirmed by a repeat.", "confirmed", True),
        ("He has known cirrhosis.", "cirrhosis", False),
        ("She was well until Tuesday, then the fever began.", "fever", False),
    ],
)
def test_a_hypothesis_under_discussion_or_a_pending_condition_is_not_a_claim(text, word, blocked):
    from medgym.judges.claims import _blocked

    s = text.index(word)
    assert (_blocked(text, s, s + len(word), objective=False) is not None) is blocked


def test_thousands_per_microlitre_and_molar_lead_and_iron_conversions():
    from medgym.text.numbers import convert

    q = find_quantities("WBC 14.2 × 10³/µL")[0]
    assert q.unit == "×10^9/l" and q.value == 14.2
    assert convert(0.5, "µmol/l", "µg/dl", "blood lead") == pytest.approx(10.36, rel=0.01)
    assert convert(20.0, "µmol/l", "µg/dl", "serum iron") == pytest.approx(111.7, rel=0.01)


@pytest.mark.parametrize("text", ["Urine hCG neg.", "CT head clean.", "Neuro exam non-focal.", "CXR NAD."])
def test_terse_chart_result_words_are_results(text):
    from medgym.judges.textrules import NORMAL_RX, RESULT_RX

    assert RESULT_RX.search(text)
    if "neg" not in text:
        assert NORMAL_RX.search(text)


def test_an_ing_alias_also_matches_its_verb_forms_but_short_stems_do_not_shrink():
    from medgym.text.fact_matcher import Lexicon, inflection_variants

    # round 21: a four-letter stem takes back its silent "e" ("smokes"), never the bare stem "smok"
    assert inflection_variants("smoking") == ["smoke", "smoked"]
    assert inflection_variants("evening") == []
    lex = Lexicon([("vom", "fact", ["vomiting"]), ("sw", "fact", ["ankle swelling"])], inflect=True)
    found = [(m[2][0][0], "She vomits after meals and her ankle swells"[m[0]:m[1]])
             for m in lex.find("She vomits after meals and her ankle swells")]
    assert found == [("vom", "vomits"), ("sw", "ankle swells")]
    plain = Lexicon([("vom", "fact", ["vomiting"])])
    assert plain.find("She vomits after meals") == []


def test_a_general_term_only_the_injected_statement_gives_is_a_restatement():
    case = default_bank().get("endo-102-euglycaemic-dka-sglt2")
    tmpl = case.stressors.contradictions[0]
    ext = _extractor("endo-102-euglycaemic-dka-sglt2")
    ctx = "A man on an SGLT2 inhibitor is unwell with abdominal pain.\n" + tmpl.statement
    tc = SimpleNamespace(context_text=ctx, injected=[(tmpl, 2)], index=2, released=frozenset())
    status, _why = ext._check_fact(tc, "he has had diarrhoea", "diarrhoea", "term:diarrhoea", "finding", True)
    assert status == "restated_contradiction"
    tc_before = SimpleNamespace(context_text=ctx + "\nHe also had diarrhoea last month.", injected=[(tmpl, 2)],
                                index=2, released=frozenset())
    status2, _ = ext._check_fact(tc_before, "he has had diarrhoea", "diarrhoea", "term:diarrhoea", "finding", True)
    assert status2 == "supported"
