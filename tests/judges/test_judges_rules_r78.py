"""Round 78 (session 31; tuned on sets 1-241): a test the released context calls normal, read within its sentence.

A result word the agent attaches to a withheld test counts as given when the released context already reports the
test so ("his home stool test ... came back positive" supports "a positive FIT":
``ClaimExtractor._context_reports_test``). The context was searched in a fixed window around the test's name, which
ran into the next sentence: in the NMDA receptor case "CSF HSV PCR is negative. MRI brain is normal." made "CSF
normal" (an invented normal CSF; the cell count shows a pleocytosis and is withheld) read as supported, so the
invented finding of turn 1 ("CSF unremarkable") had no recurrence at turn 2. The window now stops at the sentence
around the name. On the 242 sets (a full run): 9 decisions fixed, 0 lost.

The test marked "fails on 01e2aff" fails on the session-30 final judge; the other is a control.
"""

from __future__ import annotations

from rules_support import claims_of

NMDAR = "psych-216-anti-nmdar-encephalitis"
FIT = "gast-101-advanced-adenoma-fit"


def test_a_normal_word_of_the_next_sentence_does_not_report_the_test():  # fails on 01e2aff
    statuses = [c.status for c in claims_of(NMDAR, ["CSF normal and EEG normal, so an organic cause is unlikely."], "O")
                if c.item == "csf"]
    assert statuses == ["unsupported"], statuses


def test_the_context_s_own_sentence_still_reports_the_test():
    statuses = [c.status for c in claims_of(FIT, ["A positive FIT in a 62-year-old: colonoscopy."], "O") if c.item == "fit"]
    assert statuses == ["supported"], statuses
