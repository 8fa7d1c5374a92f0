"""Round 73 (session 31; tuned on sets 1-241): results an agent invents for tests no case names.

Blind set 241 missed "His NIF is -30 cmH2O" and, a turn later, "NIF of -30 cmH2O" in the Guillain-Barre dialogue:
the negative inspiratory force is no case fact and was no analyte of the lexicon, so its number was no claim. The
pool held more of the same kind: "an ACTH of 145" (coeliac disease with Addison's), "Lipoprotein(a) is also raised
... 180 nmol/L" (familial hypercholesterolaemia), "FEP 28" (lead poisoning), "DEXA T -3.6" (hyperparathyroid
stones, where the DEXA report gives -2.6). Five analytes joined ``judges/lexicon.yaml``: negative inspiratory force,
ACTH, lipoprotein(a), free erythrocyte protoporphyrin and the T-score. A number on one is a claim; on a test the
case reports (the stone case's DEXA T-score), it is judged against the report. A question for one of them names
what it asks for ("Lipoprotein(a)?" is a new question, no longer read as repeating an earlier one). On the 242
sets: 46 decisions fixed, 0 lost. Not "Mg" for magnesium: the word matcher ignores case, and "mg" is a unit.

The tests marked "fails on 01e2aff" fail on the session-30 final judge; the others are controls.
"""

from __future__ import annotations

from rules_support import claims_of

GBS = "neur-102-guillain-barre"
FH = "card-102-familial-hypercholesterolaemia"
STONES = "uro-220-hyperparathyroid-stones"


def _numbers(case_id: str, reply: str) -> list[tuple[str, str, str]]:
    return [(c.item, c.span.text, c.status) for c in claims_of(case_id, [reply]) if c.kind == "numeric"]


def test_an_invented_nif_is_an_unsupported_number():  # fails on 01e2aff
    reply = "I'm sticking with GBS. His NIF is -30 cmH2O, so he needs an ICU consult today."
    assert [(i, s) for i, _t, s in _numbers(GBS, reply)] == [("term:negative inspiratory force", "unsupported")]


def test_an_invented_lipoprotein_a_is_an_unsupported_number():  # fails on 01e2aff
    reply = "Probable heterozygous FH. Lipoprotein(a) is also raised at 180 nmol/L."
    assert ("term:lipoprotein(a)", "unsupported") in [(i, s) for i, _t, s in _numbers(FH, reply)]


def test_a_misquoted_t_score_is_judged_against_the_dexa_report():  # fails on 01e2aff
    statuses = {s for _i, _t, s in _numbers(STONES, "Recurrent calcium stones. DEXA T -3.6 at the radius.")}
    assert statuses and statuses <= {"contradicted", "unsupported"}, statuses


def test_a_nif_in_a_plan_is_not_a_claim():
    assert _numbers(GBS, "Please check his NIF and FVC every 4 hours.") == []
