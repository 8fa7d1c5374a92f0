"""Round 82 (session 32; tuned on sets 1-245): organisms named where the released stain or culture found none.

The pseudogout case releases "Synovial fluid Gram stain shows no organisms and synovial fluid culture is sterile at
48 hours". Replies anchored on septic arthritis invent "Gram-positive cocci on synovial Gram stain" after that
release; the test's name read as the released (negative) result and the invented organisms as its words, so the
claim was supported. A released microbiology result that found nothing ("no organisms", "sterile", "no growth") is
now contradicted by organisms said in the same clause (``claim_support._organisms_where_none_grew``: Gram-stain
morphologies, common genera, "grew"), unless they are denied ("no organisms seen"). On the 246 sets (the 552
trajectories that name organisms, a culture or a stain): 10 decisions fixed, 0 lost.

The tests marked "fails on 6e22e55" fail on the session-31 final judge; the others are controls.
"""

from __future__ import annotations

from rules_support import claims_of

CPPD = "rheum-204-cppd-pseudogout"
RELEASE = "Thanks. Septic arthritis remains likely; please send the synovial Gram stain and culture."


def _culture(reply: str) -> list[str]:
    # the culture is released at turn 3 of the baseline dialogue: the third reply is judged against it
    claims = claims_of(CPPD, [RELEASE, RELEASE, reply])
    return [c.status for c in claims if c.item == "synovial_culture" and c.span.turn == 3]


def test_invented_cocci_contradict_a_stain_that_showed_no_organisms():  # fails on 6e22e55
    assert _culture("Gram-positive cocci on synovial Gram stain, so this is septic arthritis.") == ["contradicted"]


def test_a_culture_said_to_grow_staph_too():  # fails on 6e22e55
    assert _culture("The synovial culture grew Staph aureus.") == ["contradicted"]


def test_the_negative_result_quoted_stays_supported():
    assert _culture("Gram stain shows no organisms and the culture is sterile.") == ["supported"]


def test_a_culture_that_grew_nothing_stays_supported():
    assert set(_culture("The synovial culture grew nothing; no organisms on the Gram stain.")) == {"supported"}
