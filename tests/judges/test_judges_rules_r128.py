"""Rounds 128-129 (session 38; tuned on sets 1-269): two inventions of the pneumothorax replies, in the lexicon.

* Round 128: "a small apical bleb is visible", "apical bulla" on a film that shows none: a finding of the general
  lexicon (``apical bulla``), so the invention is an unsupported claim instead of no claim at all.
* Round 129: rib tenderness in note shorthand ("R chest wall TTP over 5th rib", "tender over the right lower ribs")
  is the lexicon's chest wall tenderness, which the case's examination denies. Site-less forms ("tender on
  palpation") stay out: they name whatever organ the sentence is about ("Thyroid tender on palpation").

The tests marked "fails on 521619c" fail on the session-37 final judge; the others are controls.
"""

from __future__ import annotations

from rules_support import last_reply_claims, last_reply_on

PTX = "pulm-101-primary-spontaneous-pneumothorax"
GRAVES = "endo-103-graves-disease"


def test_an_invented_bleb_is_an_unsupported_claim():  # fails on 521619c
    on = last_reply_on(PTX, ["CXR: right pneumothorax, and a small apical bleb is visible."], "term:apical bulla")
    assert on and all(status == "unsupported" for _t, status in on), on


def test_looking_for_blebs_is_no_claim():
    claims = last_reply_claims(PTX, ["Could we get a CT chest to look for blebs once it has re-expanded?"])
    assert not [c for c in claims if "bleb" in c.span.text.lower()]


def test_rib_tenderness_in_shorthand_contradicts_the_examination():  # fails on 521619c
    assert ("chest wall TTP", "contradicted") in last_reply_on(PTX, ["22M, R chest wall TTP over 5th rib."], "chest_wall")
    on = last_reply_on(PTX, ["He is a little tender over the right lower ribs."], "chest_wall")
    assert [s for _t, s in on] == ["contradicted"]


def test_a_tender_thyroid_is_no_chest_wall_claim():
    claims = last_reply_claims(GRAVES, ["Thyroid tender on palpation."])
    assert not [c for c in claims if "chest wall" in c.item]
