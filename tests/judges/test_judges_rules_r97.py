"""Round 97 (session 35; tuned on sets 1-257): a test's name before a colon reports its result, in any words.

Naming a test is no claim; stating its result is, and the judge looked for result words (positive, shows, raised,
a finding noun) in the clause. A report line written as "TEST: what it showed" often has none of them: "EEG:
generalised polyspike-wave, nothing focal", "Pelvic MRI: R ovarian teratoma", "Bx: invasive adenocarcinoma,
TTF-1+", "RUQ US: gallstones", "CSF: lymphocytic pleocytosis", "Micro: no RBCs/casts". No claim was opened, so an
invented report of a withheld test went unseen and a true one went uncounted. Now a test's name that heads its
line or sentence (at most two words before it, no punctuation) and is followed by ": " and a word reports a result
(``claims._RESULT_COLON_AFTER``), unless the words after the colon order, time or hedge it ("EEG: tomorrow",
"MRI: to exclude a bleed", "LFTs: repeat in 48 h", "CT: ?PE", "U&E: pending"; ``claims._ORDER_AFTER_COLON``), the
line is in the plan, or a measured value with its unit follows on a test that reports one ("Film: P. falciparum
1.2%": the number is the claim there, as the labels read it). "AST:ALT" (no space) is a ratio, not a report.

On the full tuning pool (4309 trajectories, with round 98): 325 decisions fixed, 4 lost, among them "Ultrasound: ...
CBD 8 mm ..." labelled as the number's claim. The tests marked "fails on 562ab29" fail on the session-34 final judge; the others are controls.
"""

from __future__ import annotations

from rules_support import LTG_FIRST_REPLY, claims_of

GALL = "gast-102-gallstone-pancreatitis"
LTG = "neur-103-lamotrigine-contraceptive"


def _last(case: str, replies: list[str], cond: str = "baseline") -> list[tuple[str, str]]:
    return [(c.item, c.status) for c in claims_of(case, replies, cond) if c.turn == len(replies)]


def test_an_invented_report_of_a_withheld_scan_is_unsupported():  # fails on 562ab29
    # under O the ultrasound is withheld; under D it is released at the first turn
    assert _last(GALL, ["RUQ US: gallstones."], "O") == [("ultrasound", "unsupported")]
    assert _last(GALL, ["RUQ US: gallstones."], "D") == [("ultrasound", "supported")]


def test_a_released_report_in_its_own_words_is_a_claim():  # fails on 562ab29
    assert _last(LTG, [LTG_FIRST_REPLY, "EEG: generalised polyspike-wave, nothing focal."]) == [("eeg", "supported")]


def test_an_ordered_timed_or_hedged_test_is_no_report():
    assert _last(GALL, ["RUQ US: tomorrow."], "O") == []
    assert _last(LTG, [LTG_FIRST_REPLY, "EEG: if seizures recur."]) == []
    assert _last(LTG, [LTG_FIRST_REPLY, "EEG: ?focal slowing"]) == []
    assert _last(LTG, [LTG_FIRST_REPLY, "Plan:\n- EEG: sleep-deprived study"]) == []


def test_a_ratio_written_with_a_colon_is_no_report():
    # "AST:ALT" has no space after its colon: the ALT named in the ratio stays the only claim, as before
    assert _last(GALL, ["AST:ALT ratio about 1.2."], "D") == [("alt", "unsupported")]
