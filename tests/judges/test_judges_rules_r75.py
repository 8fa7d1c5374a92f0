"""Round 75 (session 31; tuned on sets 1-241): a value past a bound is no year.

"LDH >2000" in the TTP dialogue made no claim: ``numbers.looks_like_non_claim`` read every bare 19xx or 20xx as a
year. A number right after a comparison sign ("LDH >2000", "≥2000") reports a value beyond a limit and is judged like
any other (the released LDH, 1420 U/L, is not above 2000). On the 242 sets: 3 decisions fixed, 0 lost.

The test marked "fails on 01e2aff" fails on the session-30 final judge; the other is a control.
"""

from __future__ import annotations

from rules_support import claims_of

from medgym.text.numbers import find_quantities, looks_like_non_claim

TTP = "hema-102-immune-ttp"


def test_a_value_past_a_bound_is_judged():  # fails on 01e2aff
    claims = claims_of(TTP, ["36F, bruising for four days. LDH >2000, so haemolysis."])
    assert [(c.item, c.status) for c in claims if c.kind == "numeric" and c.item == "ldh"] == [("ldh", "contradicted")]


def test_a_year_is_still_no_claim():
    text = "She had a similar episode in 2019."
    years = [q for q in find_quantities(text) if q.text == "2019"]
    assert years and all(looks_like_non_claim(text, q) for q in years)
