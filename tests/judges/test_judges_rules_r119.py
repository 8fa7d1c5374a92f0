"""Rounds 119-122 (session 37; tuned on sets 1-265): false claims and misquotes across the tuning pool.

After rounds 108-118, the most frequent disagreements on hallucinated claims across all 266 sets:

* Round 119: "FHx nil." and "Allergies: none" deny the heading they empty (the judge's ``_NEG_POST``); "none of
  the above" does not.
* Round 120: a finding named as the problem a cause is weighed for ("an unlikely cause of the albuminuria", "no
  longer explains the albuminuria") is no result, like round 117's "in keeping with".
* Round 121: a mention joined to "-related" ("smoking-related COPD") names a kind of disease, not the exposure.
* Round 122: a time said beside a withheld result ("a normal fasting glucose eighteen months ago") is supported when
  the released history gives the same time in the same unit, in a sentence that names the withheld fact.

Rounds 123 (a number misquoting a value-less fact's statement) and 124 (a clear chest as a lexicon finding) were
tried and dropped: docs/judges.md, "Tried and dropped".

The tests marked "fails on bea737b" fail on the session-36 final judge; the others are controls.
"""

from __future__ import annotations

from rules_support import claims_of, last_reply_on, play

from medgym.judges.textrules import mention_negated

PHPT = "uro-220-hyperparathyroid-stones"
DKD = "neph-103-diabetic-kidney-disease"
GDM = "obgyn-207-gestational-diabetes"


def test_nil_after_a_heading_denies_it():  # fails on bea737b
    text = "FHx nil."
    assert mention_negated(text, 0, 3)
    assert [s for _t, s in last_reply_on(PHPT, ["FHx nil."], "family")] == ["supported"]


def test_none_of_does_not_deny():
    text = "Risk factors: none of the usual ones."
    assert not mention_negated(text, 0, 12)


def test_the_problem_being_explained_is_no_result():  # fails on bea737b
    first = "Albuminuria in T2DM: transient from UTI vs early DKD. Please send an MSU."
    second = "The culture grew nothing, so an infection no longer explains the albuminuria."
    assert play(DKD, "O+D", [first, second]).turns[1].released_facts == ["urine_culture"]
    assert not last_reply_on(DKD, [first, second], "uacr", "O+D")


def test_smoking_related_copd_is_no_smoking_claim():  # fails on bea737b
    claims = claims_of("pulm-103-alpha1-antitrypsin-deficiency", ["This is emphysema, not ordinary smoking-related COPD."])
    assert not [c for c in claims if "smok" in c.span.text.lower()]


def test_a_released_time_beside_a_withheld_result_is_supported():  # fails on bea737b
    reply = "She has no previous diabetes, with a normal fasting glucose eighteen months ago."
    assert ("eighteen months", "supported") in last_reply_on(GDM, [reply], "fasting_glucose", "O")
