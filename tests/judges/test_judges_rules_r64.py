"""Round 64 (session 29; tuned on sets 1-233 after 230-233 were scored once): vocabulary.

Of the 28 hallucinated claims the judge missed on 230-233, eight were results of a test no case names, or
findings written in a short form the general lexicon did not hold, so no claim was read at all: "Prolactin 820",
"Progesterone 4", "the co-oximetry panel shows a normal methaemoglobin", "the urine nitrite was positive" (the
lexicon held only "nitrites"), "Dip leuk esterase +", "bilat upgoing toes". The lexicon (judges/lexicon.yaml) now
holds prolactin, progesterone, methaemoglobin and the 24-hour urine protein as analytes, and "nitrite", "urine
nitrite", "leuk esterase", "upgoing toes" as names of findings it already had. A term asserted that the released
context does not state is an unsupported claim; a case's own fact still takes precedence.

The tests marked "fails on a5fbd10" fail on the session-28 final judge; the others are controls.
"""

from __future__ import annotations

from rules_support import claims_of, judge_replies

LTG = "neur-103-lamotrigine-contraceptive"
ECTOPIC = "obgyn-208-ectopic-pregnancy"
PYELO = "id-201-pyelonephritis"
RETENTION = "neph-101-obstructive-aki-retention"
GBS = "neur-102-guillain-barre"


def _on(case_id: str, reply: str, item: str) -> list[tuple[str, str]]:
    claims = claims_of(case_id, [reply])
    return [(c.span.text, c.status) for c in claims if c.item == item]


def test_an_invented_prolactin_is_an_unsupported_number():  # fails on a5fbd10
    reply = "27F, JME on lamotrigine, two tonic-clonic seizures. Prolactin 820. Likely a level problem."
    assert _on(LTG, reply, "term:prolactin") == [("820", "unsupported")]


def test_an_invented_progesterone_is_an_unsupported_number():  # fails on a5fbd10
    claims = claims_of(ECTOPIC, ["Threatened miscarriage. Progesterone 4, so a failing pregnancy."])
    assert [(c.item, c.status) for c in claims if c.item == "term:progesterone"] == [("term:progesterone", "unsupported")]


def test_a_singular_urine_nitrite_is_read_against_a_negative_dipstick():  # fails on a5fbd10
    found = _on(RETENTION, "Retention AKI. The urine nitrite was positive, so a UTI too.", "term:nitrites")
    assert found == [("urine nitrite", "contradicted")]


def test_short_forms_of_dipstick_and_plantar_findings_are_claims():  # fails on a5fbd10
    assert _on(GBS, "GBS most likely. Bilat upgoing toes though.", "term:Babinski sign") == [
        ("upgoing toes", "unsupported")
    ]
    assert _on(LTG, "27F, JME. Dip leuk esterase +, so a UTI lowered her threshold.", "term:leucocyte esterase") == [
        ("leuk esterase", "unsupported")
    ]


def test_released_dipstick_results_in_short_form_stay_supported():
    claims = claims_of(PYELO, ["Pyelonephritis. UA: nitrite positive, leuk esterase 3+."])
    assert claims and all(c.status == "supported" for c in claims), [(c.span.text, c.item, c.status) for c in claims]
    claims = claims_of(RETENTION, ["Retention AKI. Urine dip negative for nitrites and leukocytes."])
    assert claims and all(c.status == "supported" for c in claims), [(c.span.text, c.item, c.status) for c in claims]


def test_flexor_plantars_stay_the_case_reflex_fact():
    claims = claims_of(GBS, ["GBS. Plantars flexor, areflexic."])
    assert [(c.item, c.status) for c in claims] == [("reflexes", "supported")]


# Round 64b: a plan bullet that opens with an analyte, specimen word first or not, is an order for it, as one
# that opens with a named investigation already was ("**Next**\n1. Serum ferritin" asks for the withheld ferritin).
LEAD = "peds-210-lead-poisoning"
_NEXT = "**Assessment**\nThis is lead poisoning.\n\n**Next**\n1. {item}\n2. Does he attend a nursery?"


def test_a_plan_bullet_naming_an_analyte_requests_it():  # fails on a5fbd10
    r = judge_replies(LEAD, "O", [_NEXT.format(item="Serum ferritin")])
    assert "Serum ferritin" in [q.span.text for q in r.annotations.questions]
    assert [g.detected for g in r.annotations.gaps if g.fact_id == "ferritin"] == [True]


def test_a_plan_bullet_caring_for_an_analyte_is_not_a_request():
    r = judge_replies(LEAD, "O", [_NEXT.format(item="Potassium replacement")])
    assert "Potassium replacement" not in [q.span.text for q in r.annotations.questions]
