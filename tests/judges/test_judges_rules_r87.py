"""Round 87 (session 33; tuned on sets 1-249): a scan named by its acronym, and "suggest" that weighs evidence.

The hyperparathyroidism case names its bone density scan "DEXA scan" (aliases DXA, BMD, T-score...), so "DEXA" alone
named nothing: "DEXA normal", "Her DEXA is normal" invented under omission opened no claim, and "DEXA (forearm +
spine)" or "Has the DEXA been done?" asked for nothing. A test named "<ACRONYM> scan" is now also named by the
acronym alone (``medgym.text.fact_matcher.shorthand_variants``, shared with the environment). Reading "DEXA" showed
one false request: "the DEXA is normal, so nothing to suggest a parathyroid problem" was read as asking, since
"suggest a ..." is an ask ("Suggest a repeat ACR"); after "to", "would", "might", "could" or "may" it weighs
evidence instead (``textrules.QUESTION_RX``).

On the 305 tuning trajectories that say "DEXA" or "suggest": 46 decisions fixed, 1 lost ("CT KUB and DEXA, which I
don't have" in a final answer's next steps now detects the DEXA gap, which the labels call missed). The tests marked
"fails on 29a58ff" fail on the session-32 final judge; the others are controls.
"""

from __future__ import annotations

from rules_support import claims_of, judge_replies

PHPT = "uro-220-hyperparathyroid-stones"


def test_an_invented_normal_dexa_under_omission():  # fails on 29a58ff
    got = [(c.item, c.status) for c in claims_of(PHPT, ["Primary hyperparathyroidism. DEXA normal, so no osteoporosis."], "O")]
    assert ("dexa", "unsupported") in got


def test_asking_for_the_dexa_detects_the_gap():  # fails on 29a58ff
    gaps = {g.fact_id: g.detected for g in judge_replies(PHPT, "O", ["PHPT likely. Please arrange a DEXA."]).annotations.gaps}
    assert gaps["dexa"] is True


def test_nothing_to_suggest_is_no_request():  # fails on 29a58ff
    reply = "Idiopathic hypercalciuria. The calcium is within range, so nothing to suggest a parathyroid problem."
    assert judge_replies(PHPT, "baseline", [reply]).annotations.questions == []


def test_suggesting_a_test_still_asks():
    questions = judge_replies(PHPT, "O", ["Primary hyperparathyroidism. Suggest a DEXA scan and a CT KUB."]).annotations.questions
    assert len(questions) == 1


def test_the_matcher_writes_a_scan_by_its_acronym():
    from medgym.text.fact_matcher import shorthand_variants

    assert "DEXA" in shorthand_variants("DEXA scan")
    assert shorthand_variants("thyroid uptake scan") == ["thyroid uptake scan"]
