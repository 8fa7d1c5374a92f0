"""Round 96 (session 34; tuned on sets 1-253): the diagnosis named after "assessment unchanged:".

"My assessment is unchanged: breakthrough seizures because the combined pill has lowered her lamotrigine level."
named no diagnosis for the judge (a letter of set 85): the words before the colon only say the view is kept, and the
name after it is the diagnosis kept (``diagnoses._OTHER_DX_GUARDED``). A bare "No change." stays without a name,
as the early sets label it.

On the 298 tuning trajectories with such a phrase: 1 decision fixed, 0 lost. The test marked "fails on 3f155cd"
fails on the session-33 final judge; the other is a control.
"""

from __future__ import annotations

from rules_support import lead_of

LTG = "neur-103-lamotrigine-contraceptive"


def test_the_name_after_assessment_unchanged():  # fails on 3f155cd
    reply = "My assessment is unchanged: breakthrough seizures because the combined pill has lowered her lamotrigine level."
    assert lead_of(LTG, reply)[1] == "gold"


def test_a_bare_no_change_names_nothing():
    assert lead_of(LTG, "No change.") == (None, None)
