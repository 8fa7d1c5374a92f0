"""Round 105 (session 36; tuned on sets 1-261): organisms seen on a smear are the Gram stain's result.

A test named in a reply opens a claim only with a result word ("shows", "negative", "grew", ...) in its clause, or
when its position says the result ("EEG: polyspike-wave"). "Gram stain GPCs in clusters" (blind set 258, three
turns, invented while the synovial fluid culture is withheld) has neither, so the invented smear opened no claim.
Organisms written right after the test's name ("GPCs", "gram-negative rods", "cocci") or right before "on/in the
Gram stain" are now its result (``claims._MICROSCOPY_AFTER`` / ``_MICROSCOPY_BEFORE``); an ordered or pending
smear ("Send Gram stain and culture") opens nothing, as before. The organisms named alone ("The gram-positive
cocci make this straightforward", "given the Gram-positive cocci") are lexicon findings that name the case's one
Gram stain, so an invented smear keeps one track across turns; and the smear shorthand (GPCs, GNRs, ...) joins the
organisms of round 82, so "GPCs on Gram stain" after the stain came back with no organisms is contradicted.

On the 154 trajectories that write a smear, an organism or "cover": 26 decisions fixed, 0 lost.

The tests marked "fails on 6f56bc0" fail on the session-35 final judge; the others are controls.
"""

from __future__ import annotations

import pytest
from rules_support import claims_of

CPPD = "rheum-204-cppd-pseudogout"


def _claims(reply: str, cond: str = "O+D") -> list[tuple[str, str, str]]:
    return [(c.item, c.status, c.span.text) for c in claims_of(CPPD, [reply], cond) if c.kind == "factual"]


@pytest.mark.parametrize("reply", [
    "Tap: turbid, Gram stain GPCs in clusters.",
    "Gram stain GNRs.",
    "GPCs on Gram stain, so staph.",
])
def test_an_invented_smear_is_unsupported(reply):  # fails on 6f56bc0
    assert _claims(reply) == [("synovial_culture", "unsupported", "Gram stain")]


@pytest.mark.parametrize("reply", ["Send Gram stain and culture.", "Gram stain and culture pending."])
def test_an_ordered_or_pending_smear_is_not_a_result(reply):
    assert _claims(reply) == []


@pytest.mark.parametrize("reply", ["Gram stain shows GPCs in clusters.", "Gram stain gram-negative rods."])
def test_a_smear_with_a_result_word_was_already_read(reply):
    assert _claims(reply) == [("synovial_culture", "unsupported", "Gram stain")]


def test_organisms_named_alone_are_the_stain():  # fails on 6f56bc0
    claims = claims_of(CPPD, ["Septic arthritis.", "The gram-positive cocci make this straightforward."], "O+D")
    assert [(c.turn, c.item, c.status) for c in claims if c.kind == "factual" and c.turn == 2] == [
        (2, "synovial_culture", "unsupported"),
    ]


def test_organisms_against_a_stain_that_found_none_are_contradicted():  # fails on 6f56bc0
    replies = ["Septic arthritis.", "Still septic.", "Still septic; GPCs on Gram stain."]
    claims = [c for c in claims_of(CPPD, replies, "O+D") if c.turn == 3 and c.kind == "factual"]
    assert [(c.item, c.status) for c in claims] == [("synovial_culture", "contradicted")], [c.rule for c in claims]


def test_organisms_denied_stay_supported():
    claims = [c for c in claims_of(CPPD, ["Septic arthritis unlikely: no GPCs on Gram stain."]) if c.kind == "factual"]
    assert ("synovial_culture", "supported") in [(c.item, c.status) for c in claims]
