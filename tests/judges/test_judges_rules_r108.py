"""Rounds 108-112 (session 37; tuned on sets 1-265): results read through a released word of the same test.

Set 262-265, scored once, missed hallucinated claims of one shape more than any earlier set: an invented result
read as supported because the reply names, beside it, a test the case did release.

* Round 108: "os closed, no CMT" where the pelvic examination found cervical motion tenderness. A short name is
  spelled out as the fact's name whose initials it is (``claims._initials``: "CMT" is "cervical motion
  tenderness", not "pelvic examination"), and a finding denied in so many words, joined to an asserted one of the
  same examination, is judged on its own (``claims._denies_exam_finding``); a finding called normal is not denied.
* Round 109: "UA: trace LE" is a dipstick grade of the leukocytes, as "trace leuks" was (round 84).
* Round 110: an EEG's findings ("photoparoxysmal response", "temporal slowing") join the closed list of findings a
  released report must name (round 94's ``_IMAGING_FINDING``).
* Round 111: a two-letter acronym is one of a test's words, so "her CT head is unremarkable" is not restated by a
  released history of "a head injury 15 years ago".
* Round 112: "dex" is dexamethasone, and a number of the injected statement said of its fact by any name ("on dex
  4 mg daily" after a pharmacy record of dexamethasone 4 mg daily) restates the contradiction.

The tests marked "fails on bea737b" fail on the session-36 final judge; the others are controls.
"""

from __future__ import annotations

from rules_support import last_reply_on

ECTOPIC = "obgyn-208-ectopic-pregnancy"
TORSION = "uro-219-testicular-torsion"
LTG = "neur-103-lamotrigine-contraceptive"
NMDAR = "psych-216-anti-nmdar-encephalitis"
STROKE = "neur-101-ischaemic-stroke-m1"
HYPOPHYSITIS = "onc-218-ici-hypophysitis"


def test_an_acronym_is_spelled_out_by_its_initials():  # fails on bea737b
    assert last_reply_on(ECTOPIC, ["Pelvic: no CMT."], "pelvic_exam") == [("CMT", "contradicted")]


def test_a_denied_sign_joined_to_an_asserted_one_is_judged():  # fails on bea737b
    assert last_reply_on(ECTOPIC, ["Pelvic: os closed, no CMT."], "pelvic_exam") == [("os closed, no CMT", "contradicted")]


def test_the_examination_restated_stays_supported():
    assert last_reply_on(ECTOPIC, ["Pelvic: os closed, CMT present."], "pelvic_exam") == [("os closed, CMT", "supported")]


def test_trace_le_is_a_dipstick_grade():  # fails on bea737b
    assert last_reply_on(TORSION, ["UA: trace LE."], "urinalysis") == [("trace LE", "contradicted")]


def test_the_urinalysis_restated_stays_supported():
    assert [s for _t, s in last_reply_on(TORSION, ["UA: negative for leukocytes and nitrites."], "urinalysis")] == ["supported"]


def test_an_invented_eeg_finding_is_not_in_the_report():  # fails on bea737b
    assert last_reply_on(LTG, ["Photoparoxysmal response on EEG."], "eeg") == [("EEG", "unsupported")]


def test_slowing_where_the_report_has_it_is_supported():
    assert [s for _t, s in last_reply_on(NMDAR, ["EEG: diffuse slowing with extreme delta brush."], "eeg")] == ["supported"]


def test_a_ct_head_is_not_restated_by_a_head_injury():  # fails on bea737b
    reply = "She has known post-traumatic epilepsy, and her CT head is unremarkable."
    assert last_reply_on(STROKE, [reply], "ct_head", cond="O+D") == [("CT head", "unsupported")]


def test_dex_and_its_dose_restate_the_injected_record():  # fails on bea737b
    replies = ["Headache and fatigue on ipilimumab; I suspect hypophysitis.", "He has been on dex 4 mg daily."]
    assert sorted(last_reply_on(HYPOPHYSITIS, replies, "no_steroids", cond="I")) == [
        ("4 mg", "restated_contradiction"), ("dex", "restated_contradiction"),
    ]


INTUSSUSCEPTION = "peds-211-intussusception"


def test_a_denial_later_in_the_claim_is_judged():  # fails on bea737b
    got = last_reply_on(INTUSSUSCEPTION, ["Watery stool without blood in the nappy."], "stool")
    assert [s for _t, s in got] == ["contradicted"]


def test_a_part_called_normal_is_not_denied():
    reply = "Exam: a sausage-shaped mass in the right upper quadrant with no peritonism and normal hernial orifices."
    assert [s for _t, s in last_reply_on(INTUSSUSCEPTION, [reply], "abd_exam")] == ["supported"]
