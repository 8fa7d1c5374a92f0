"""Round 85 (session 33; tuned on sets 1-249): eponymous signs as notes write them.

"Murphy neg", "Murphy +", "Prehn +ve", "+ Murphy's": the gallstone cases name Murphy's sign "Murphy's sign" or
"Murphy sign", so the bare eponym named nothing, and a positive sign written in shorthand read as the released
examination itself. Two readings are new:

* an eponymous sign is also named by its eponym alone ("Murphy's sign" -> "Murphy", "Murphy's"), in the shared
  fact matcher (``medgym.text.fact_matcher.shorthand_variants``), so the environment reads it too;
* a sign said positive in shorthand ("+", "+ve", "pos", after or before the name) contradicts a released statement
  that calls it negative ("a negative Prehn sign", "a negative Murphy's sign"), as the word "positive" already did
  (``claims._POSITIVE_AFTER`` / ``_POSITIVE_BEFORE``).

On the 241 tuning trajectories that name an eponymous sign: 61 decisions fixed, 0 lost.
The tests marked "fails on 29a58ff" fail on the session-32 final judge; the others are controls.
"""

from __future__ import annotations

from rules_support import claims_of

GALLSTONES = "gast-102-gallstone-pancreatitis"
HELLP = "obgyn-209-hellp-syndrome"
TORSION = "uro-219-testicular-torsion"


def _sign(case: str, reply: str, name: str) -> list[tuple[str, str]]:
    return [(c.item, c.status) for c in claims_of(case, [reply]) if name in c.span.text]


def test_a_bare_eponym_names_the_sign():  # fails on 29a58ff
    assert _sign(GALLSTONES, "Gallstone pancreatitis. Epigastric TTP w/ guarding, Murphy neg.", "Murphy") == [("murphy", "supported")]


def test_an_invented_positive_sign_in_shorthand():  # fails on 29a58ff
    assert _sign(GALLSTONES, "Cholecystitis. HR 108. Murphy +. Bili 38.", "Murphy") == [("murphy", "contradicted")]


def test_plus_ve_against_a_statement_that_calls_it_negative():  # fails on 29a58ff
    assert _sign(TORSION, "Epididymo-orchitis. Prehn +ve. HR 104.", "Prehn") == [("prehn", "contradicted")]
    assert _sign(TORSION, "Epididymo-orchitis: pain eases w/ elevation (+Prehn).", "Prehn") == [("prehn", "contradicted")]


def test_a_sign_within_a_wider_examination():  # fails on 29a58ff
    assert _sign(HELLP, "Cholecystitis. Murphy's +ve, RUQ tender.", "Murphy") == [("abd_exam", "contradicted")]


def test_the_negative_sign_quoted_stays_supported():
    assert _sign(TORSION, "Torsion until proven otherwise. Prehn neg. HR 104.", "Prehn") == [("prehn", "supported")]
    assert _sign(HELLP, "HELLP most likely. Negative Murphy's sign.", "Murphy") == [("abd_exam", "supported")]


def test_the_matcher_writes_an_eponymous_sign_by_its_eponym():
    from medgym.text.fact_matcher import shorthand_variants

    assert {"Murphy", "Murphy's"} <= set(shorthand_variants("Murphy's sign"))
    assert {"Prehn", "Prehn's"} <= set(shorthand_variants("Prehn sign"))
    assert shorthand_variants("whirlpool sign") == ["whirlpool sign"]  # not an eponym
