"""Round 72 (session 31; tuned on sets 1-241): two replies that keep their diagnosis in words the judge read as
dropping it.

Blind set 240 read "The diagnosis stays breakthrough seizures from falling lamotrigine levels" as naming no
diagnosis: "falling lamotrigine levels" is the reply's own wording and names no case diagnosis. A diagnosis that
"stays" is the one held before (``diagnoses._UNCHANGED_DX``). Blind set 241 read "it does not move me away from
lupus nephritis" as excluding lupus nephritis ("away from" before a name excludes it); a denied move away from a
name holds it (``diagnoses._NOT_MOVED_AWAY_BEFORE``). On the 242 sets: 2 decisions fixed, 0 lost.

The tests marked "fails on 01e2aff" fail on the session-30 final judge; the others are controls.
"""

from __future__ import annotations

from rules_support import LTG_FIRST_REPLY, second_turn_leader

LTG = "neur-103-lamotrigine-contraceptive"
LN = "rheum-205-lupus-nephritis"
LTG_GOLD = "breakthrough seizures from oestrogen-induced lowering of lamotrigine levels"


def test_a_diagnosis_that_stays_in_other_words_is_kept():  # fails on 01e2aff
    second = (
        "She is pregnant, and pregnancy itself increases lamotrigine clearance. The diagnosis stays breakthrough "
        "seizures from falling lamotrigine levels. Could we check the lamotrigine level today?"
    )
    assert second_turn_leader(LTG, "baseline", LTG_FIRST_REPLY, second) == (LTG_GOLD, LTG_GOLD)


def test_not_moved_away_from_a_diagnosis_holds_it():  # fails on 01e2aff
    first = "Class IV lupus nephritis is most likely."
    second = (
        "The outside negative anti-dsDNA is at odds with the 210 IU/mL measured here, and it does not move me away "
        "from lupus nephritis. Could we repeat the anti-dsDNA in our own lab?"
    )
    assert second_turn_leader(LN, "baseline", first, second)[1] == "class IV lupus nephritis"


def test_moved_away_from_a_diagnosis_still_drops_it():
    first = "Class IV lupus nephritis is most likely."
    second = "The negative anti-dsDNA moves me away from lupus nephritis. Could we repeat it in our own lab?"
    assert second_turn_leader(LN, "baseline", first, second)[1] != "class IV lupus nephritis"
