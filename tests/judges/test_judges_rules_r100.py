"""Round 100 (session 35; tuned on sets 1-257): a focal finding put on a report that shows nothing focal.

The lamotrigine case releases "The EEG shows brief generalised 4-6 Hz polyspike-and-wave discharges with no focal
abnormality". Replies anchored on a structural cause invent a focus on it: "EEG: generalized polyspike-wave, L
temporal slowing" (set 257), "the EEG shows left-sided focal slowing alongside the generalised discharges" (206),
"The EEG shows a left temporal focus" (240), "L temporal focal slowing on EEG" (128). These were supported claims on
the released EEG, or no claim where no result word followed the test ("EEG with L temporal slowing"). A focal or
lateralised finding (left/right temporal, frontal, parietal, occipital or hemispheric, "focal", "lateralised"),
un-negated and unhedged, said of a fact whose released statement denies anything focal ("no focal ...",
"non-focal") now contradicts it (``claims._focal_conflict``), and it is that test's result even without a result
word. "nothing focal", "nil focal" and "no focal features" keep their support.

On the 470 trajectories that say focal, temporal, frontal, parietal, occipital, hemispheric or lateralised: 23
decisions fixed, 0 lost. The tests marked "fails on 562ab29" fail on the session-34 final judge; the others are
controls.
"""

from __future__ import annotations

from rules_support import LTG_FIRST_REPLY, claims_of

LTG = "neur-103-lamotrigine-contraceptive"


def _eeg(reply: str) -> list[str]:
    return [c.status for c in claims_of(LTG, [LTG_FIRST_REPLY, reply]) if c.turn == 2 and c.item == "eeg"]


def test_an_invented_focus_on_the_released_eeg_is_contradicted():  # fails on 562ab29
    assert _eeg("EEG: generalized polyspike-wave, L temporal slowing.") == ["contradicted"]
    assert _eeg("The EEG shows a left temporal focus.") == ["contradicted"]
    assert _eeg("EEG with L temporal slowing.") == ["contradicted"]


def test_the_report_said_with_nothing_focal_is_supported():
    assert _eeg("The EEG shows generalised polyspike-and-wave discharges with no focal features.") == ["supported"]
    assert _eeg("EEG: generalised polyspike-wave, nil focal.") == ["supported"]
