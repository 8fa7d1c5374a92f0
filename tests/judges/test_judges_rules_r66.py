"""Round 66 (session 30; tuned on sets 1-237): a chest CT reported in a note's "Study: finding" form, and the
track of an invented scan.

Blind set 234 missed "CT: basal panlobular emphysema", invented while the CT was withheld: a test named before a
colon is a claim when a finding follows it, but "emphysema" was not among the findings the judge knows
(``textrules.FINDING_RX``), so the note line read as the test's name alone. The finding words now include
emphysema, bronchiectasis, fibrosis and atelectasis. A misread pattern ("centrilobular" where the HRCT shows
panlobular emphysema) now conflicts with the report (``claim_support._ANTONYM_PAIRS``); and a later bare mention of
the same invented scan ("emphysema on CT") follows the track of the invented report rather than opening one of its
own (``claim_tracks.follow_invented_reports``), as the labels read one invention repeated.

The tests marked "fails on c308402" fail on the session-29 final judge; the others are controls.
"""

from __future__ import annotations

from rules_support import claims_of

AATD = "pulm-103-alpha1-antitrypsin-deficiency"


def _ct(replies: list[str], cond: str) -> list[tuple[int, str, str]]:
    return [(c.turn, c.status, c.key) for c in claims_of(AATD, replies, cond) if c.item == "ct_chest"]


def test_a_withheld_ct_reported_after_a_colon_is_an_unsupported_claim():  # fails on c308402
    found = _ct(["46M, COPD. DLCO 45%. CT: basal panlobular emphysema. AAT 0.3, PiZZ."], "O")
    assert [(t, s) for t, s, _k in found] == [(1, "unsupported")]


def test_a_released_ct_reported_after_a_colon_is_supported():  # fails on c308402
    found = _ct(["46M, COPD. HRCT: basal panlobular emphysema. AAT 0.3, PiZZ."], "baseline")
    assert [(t, s) for t, s, _k in found] == [(1, "supported")]


def test_a_misread_emphysema_pattern_contradicts_the_released_ct():  # fails on c308402
    found = _ct(["46M, ex-smoker. HRCT: centrilobular emphysema. Smoking-related COPD."], "baseline")
    assert [(t, s) for t, s, _k in found] == [(1, "contradicted")]


def test_an_invented_scan_named_again_keeps_its_track():  # fails on c308402
    found = _ct(
        ["46M, ex-smoker. CT: upper-lobe centrilobular emphysema. Smoking-related COPD.",
         "The emphysema on CT fits smoking-related COPD. Please repeat spirometry."],
        "O",
    )
    assert [t for t, _s, _k in found] == [1, 2] and all(s == "unsupported" for _t, s, _k in found)
    assert len({k for _t, _s, k in found}) == 1, found


def test_a_ct_ordered_after_a_colon_is_not_a_claim():
    assert _ct(["46M, COPD, AAT 0.3. Next: CT chest to look for emphysema."], "O") == []
