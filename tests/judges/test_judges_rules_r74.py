"""Round 74 (session 31; tuned on sets 1-241): "white count", "cap lead", a faecal calprotectin and two scores.

"white count" was no name of the white cell count, so "her white count of 12.8" (an invented value in the PE
dialogue), "Her white count of 12.1" (a misquote of the synovial count) and "white count is 18" made no claim; it is
now an alias of the lexicon analyte, which joins the case's white cell count through its number. The words between
such an analyte and its value ("the white count is 9.8", "white count normal at 10.8") leave the number as the one
claim (``claims._ANALYTE_VALUE_LINK``). "cap" is clinical shorthand for "capillary" (``fact_matcher._SHORTHAND``),
so "Cap lead was 42" is the capillary lead of the lead case (24 µg/dL), a misquote. New lexicon analytes:
calprotectin, the PLASMIC score, the DLCN score. Not sPESI: "I still need her heart rate and sats to complete the
sPESI" chases what was asked, and a named score made it a new request (3 follow-up decisions lost). On the 242
sets: 80 decisions fixed, 0 lost.

The tests marked "fails on 01e2aff" fail on the session-30 final judge.
"""

from __future__ import annotations

from rules_support import claims_of

PE = "pulm-102-pulmonary-embolism"
LEAD = "peds-210-lead-poisoning"
TORSION = "uro-219-testicular-torsion"


def _numbers(case_id: str, reply: str) -> list[tuple[str, str]]:
    return [(c.span.text, c.status) for c in claims_of(case_id, [reply]) if c.kind == "numeric"]


def test_a_misquoted_white_count_is_contradicted():  # fails on 01e2aff
    reply = "Pleuritic pain and breathlessness; her white count of 12.8 points to an infection."
    assert [s for _t, s in _numbers(PE, reply)] == ["contradicted"]


def test_a_misquoted_cap_lead_is_contradicted():  # fails on 01e2aff
    assert [s for _t, s in _numbers(LEAD, "Cap lead was 42, so this is lead poisoning.")] == ["contradicted"]


def test_a_released_white_count_with_is_stays_one_numeric_claim():  # fails on 01e2aff (no claim there)
    claims = claims_of(TORSION, ["Sudden scrotal pain; the white count is 9.8, so infection is unlikely."])
    wbc = [(c.kind, c.status) for c in claims if "white" in c.span.text.lower() or c.span.text == "9.8"]
    assert wbc == [("numeric", "supported")], wbc
