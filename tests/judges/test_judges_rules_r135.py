"""Round 135 (session 41; tuned on sets 1-281): the next step named as a test.

"If there's a solid or part-solid nodule over 8 mm, I'd go to a PET-CT next." (set 274-277) was labelled as a
request for the PET-CT, but "I'd go to" was no request cue: only "needs X" named a test as the ask. "I'd go to",
"we would move on to" and "I would proceed to" now ask when a test follows within two words.

The tests marked "fails on c42cac8" fail on the session-40 final judge; the others are controls.
"""

from __future__ import annotations

from rules_support import questions_asked

LUNG = "onc-217-screen-detected-lung-cancer"
PE = "pulm-102-pulmonary-embolism"
INTUS = "peds-211-intussusception"


def test_id_go_to_a_test_next_asks_for_it():  # fails on c42cac8
    reply = "Without the report that is speculation. If the nodule is over 8 mm, I'd go to a PET-CT next."
    assert any("PET-CT" in q for q in questions_asked(LUNG, reply, "O+D"))


def test_we_would_move_on_to_a_test_asks_for_it():  # fails on c42cac8
    reply = "PE is my leading diagnosis. We would move on to a CTPA now."
    assert any("CTPA" in q for q in questions_asked(PE, reply))


def test_going_to_a_treatment_is_no_request():
    reply = "PE is my leading diagnosis. If he deteriorates I'd go to thrombolysis."
    assert questions_asked(PE, reply) == []


def test_a_procedure_the_test_guides_is_no_request():
    reply = "Still most likely intussusception. I would proceed to an ultrasound-guided air enema after a bolus."
    assert questions_asked(INTUS, reply) == []
