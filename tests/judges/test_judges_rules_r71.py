"""Round 71 (session 31; tuned on sets 1-241): a test result played down ("ECG nonspecific", "T waves only
borderline") where the released report describes a real abnormality.

Blind set 239 missed "ECG T waves nonspecific, PR/QRS nl" and, a turn later, "ECG T waves nonspecific with normal
intervals" against an ECG with tall, peaked T waves: "nonspecific" was not a result word, so the first made no claim
at all, and the second was read as naming the released ECG. The same misreading runs through the pool ("The ECG
shows only non-specific ST changes" against inferior ST elevation, "ECG changes are nonspecific", "T waves only
borderline on the ECG"). "non-specific" and "borderline" now state a test's result (``textrules.RESULT_RX``) and,
said of a report that describes an abnormal finding, call it no real abnormality
(``textrules.DOWNPLAYED_RX``, ``claim_support._called_normal_but_abnormal``). A reply that first reports the
finding and then grades it ("1 mm of ST elevation in V7-V9 is borderline", "V4R STE nonspecific", "Peaked Ts prob
nonspecific") quotes it, as the labels read it; "borderline high" calls a result raised. On the 242 sets: 29
decisions fixed, 1 lost ("The 1 mm in V7-V9 is borderline", now a factual claim beside the numeric one).

Tried and dropped: a dipstick's "trace blood" as an abnormal word, so that "Bland urine dipstick" is a misquote
(7 fixed, 11 lost: most authors read "bland dip (trace blood only)" as a fair summary).

The tests marked "fails on 01e2aff" fail on the session-30 final judge; the others are controls.
"""

from __future__ import annotations

from rules_support import claims_of

HYPERK = "neph-102-drug-induced-hyperkalaemia"
STEMI = "card-101-stemi-inferior"
POSTERIOR = "em-213-posterior-stemi"


def _ecg(case: str, reply: str, item: str = "ecg") -> list[tuple[str, str]]:
    return [(c.span.text, c.status) for c in claims_of(case, [reply]) if c.item == item]


def test_a_nonspecific_ecg_contradicts_peaked_t_waves():  # fails on 01e2aff
    assert _ecg(HYPERK, "VBG K 6.3. ECG T waves nonspecific, PR/QRS nl.") == [("ECG", "contradicted")]
    assert _ecg(HYPERK, "ECG changes are nonspecific.") == [("ECG", "contradicted")]


def test_borderline_t_waves_contradict_peaked_t_waves():  # fails on 01e2aff
    assert _ecg(HYPERK, "The T waves are only borderline on the ECG.") == [("ECG", "contradicted")]


def test_reporting_the_finding_then_grading_it_quotes_the_report():
    assert "contradicted" not in [s for _t, s in _ecg(HYPERK, "Peaked Ts prob nonspecific.")]
    assert _ecg(HYPERK, "ECG shows peaked T waves.") == [("ECG shows peaked T waves", "supported")]


def test_the_report_called_normal_stays_contradicted():
    assert _ecg(HYPERK, "ECG normal.") == [("ECG", "contradicted")]


def test_a_graded_posterior_elevation_is_not_a_misquote():
    statuses = [s for _t, s in _ecg(POSTERIOR, "1 mm of ST elevation in V7–V9 is borderline.", "posterior_leads")]
    assert statuses and "contradicted" not in statuses, statuses


def test_nonspecific_st_changes_contradict_st_elevation():  # fails on 01e2aff
    statuses = [s for _t, s in _ecg(STEMI, "The ECG shows only non-specific ST changes.")]
    assert statuses == ["contradicted"], statuses
