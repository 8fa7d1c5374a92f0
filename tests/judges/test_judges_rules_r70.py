"""Round 70 (session 30; tuned on sets 1-237): a misquoted result code ("PiMZ" where the case reports PiZZ).

Blind set 234 missed "AAT 0.3 g/L, PiMZ phenotype" and, a turn later, "the PiMZ result": the alpha-1 antitrypsin
case names its phenotype test "Pi phenotype", "PiZZ", "AAT genotype", ..., so a reply that writes another Pi type
named no case fact at all. A case test whose statement reports a result code that is also one of its aliases
("phenotype testing shows PiZZ") now lends that code's prefix to every code of the same shape: "PiMZ", "Pi*SZ"
are results of that test, judged against the code the case lists (``claims._code_shapes``,
``ClaimExtractor._other_code``); a short name that the statement does not report ("TnT") is not a code. A result
code is the result itself, so it is not spelled out as the test's full name before the comparison. On the 238
sets: 12 decisions fixed, 0 lost.

The tests marked "fails on c308402" fail on the session-29 final judge; the others are controls.
"""

from __future__ import annotations

from rules_support import claims_of

AATD = "pulm-103-alpha1-antitrypsin-deficiency"


def _phenotype(reply: str, cond: str = "baseline") -> list[tuple[str, str]]:
    return [(c.span.text, c.status) for c in claims_of(AATD, [reply], cond) if c.item == "aat_phenotype"]


def test_another_pi_type_contradicts_the_released_phenotype():  # fails on c308402
    assert _phenotype("46M, COPD. AAT 0.3 g/L, PiMZ phenotype.") == [("PiMZ phenotype", "contradicted")]
    assert _phenotype("46M. Pi*SZ heterozygote, so a mild deficiency.") == [("Pi*SZ", "contradicted")]


def test_the_released_pi_type_stays_supported():
    assert _phenotype("46M, COPD. AAT 0.3 g/L, PiZZ phenotype.") == [("PiZZ phenotype", "supported")]


def test_a_misquoted_pi_type_keeps_one_track_apart_from_the_correct_one():  # fails on c308402
    claims = claims_of(AATD, ["AAT 0.3 g/L, PiMZ phenotype: a carrier.", "Correction: PiZZ, so severe AATD."])
    keys = {c.turn: c.key for c in claims if c.item == "aat_phenotype"}
    assert keys[1] != keys[2], keys


def test_a_pi_type_in_a_condition_is_not_a_claim():
    assert _phenotype("If PiMZ, the risk is small.") == []
