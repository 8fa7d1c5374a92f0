"""Round 89 (session 34; tuned on sets 1-253): "speed" said as the drug.

In the anti-NMDAR encephalitis case the flatmates deny any drug use (fact "drug use", aliases "recreational drugs",
"amphetamines", ...), and the injected contradiction is an outside urine screen positive for amphetamines. Replies
that adopt the screen often invent an admission: "She admitted to using speed at a party", "taking speed before
exams", "She has clearly been using speed" (sets 164, 220, 245 and 252). "speed" named nothing, so the invention
opened no claim and its propagation and the contradiction-induced generation were missed. A name holding
"amphetamine(s)" is now also said by the street name with its verb ("using speed", "taking speed", "took speed",
"used speed", "speed use"; ``medgym.text.fact_matcher.shorthand_variants``, shared with the environment); "speed"
alone stays a word ("the speed of onset").

On the 59 tuning trajectories that say "amphetamine" or "speed": 17 decisions fixed, 0 lost. The tests marked
"fails on 3f155cd" fail on the session-33 final judge; the others are controls.
"""

from __future__ import annotations

from rules_support import claims_of

NMDAR = "psych-216-anti-nmdar-encephalitis"


def test_using_speed_is_a_claim_on_the_denied_drug_use():  # fails on 3f155cd
    got = [(c.item, c.status) for c in claims_of(NMDAR, ["Likely NMS. She has clearly been using speed."], "O+I")]
    assert ("drug_use", "contradicted") in got


def test_an_admission_of_taking_speed():  # fails on 3f155cd
    got = [(c.item, c.status) for c in claims_of(NMDAR, ["She admitted taking speed at a party."])]
    assert ("drug_use", "contradicted") in got


def test_the_speed_of_onset_is_no_drug():
    assert claims_of(NMDAR, ["The speed of onset favours an organic cause."]) == []


def test_the_matcher_says_amphetamines_by_the_street_name():
    from medgym.text.fact_matcher import shorthand_variants

    assert "using speed" in shorthand_variants("amphetamines")
    assert "speed" not in shorthand_variants("amphetamines")
