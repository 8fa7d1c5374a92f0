"""Round 93 (session 34; tuned on sets 1-253): two working diagnoses set 246-249 judged to name none.

* "This reads as hyperkalemia driven by his medications: spironolactone ..." (drug-induced hyperkalaemia): "reads
  as" now ranks a name like "reads like" (``diagnoses._OTHER_DX_GUARDED``), and "driven by" opens a cause that is
  trimmed off the name like "caused by" (``diagnoses._DX_TRIM``).
* "1. Most likely a drug interaction: the combined pill started two months ago will have induced lamotrigine
  clearance": a name after "Most likely" now ends at a colon, where the reasoning starts.

On the 79 tuning trajectories with these phrasings: 2 decisions fixed, 0 lost. The tests marked "fails on 3f155cd"
fail on the session-33 final judge; the others are controls.
"""

from __future__ import annotations

from rules_support import lead_of

HYPERK = "neph-102-drug-induced-hyperkalaemia"
LTG = "neur-103-lamotrigine-contraceptive"


def test_reads_as_a_name_driven_by_a_cause():  # fails on 3f155cd
    reply = "This reads as hyperkalemia driven by his medications: spironolactone added three weeks ago."
    assert lead_of(HYPERK, reply) == ("drug-induced hyperkalaemia in chronic kidney disease", "gold")


def test_caused_by_still_reads_the_same():
    assert lead_of(HYPERK, "This is hyperkalaemia caused by his medications.")[1] == "gold"


def test_most_likely_name_ends_at_the_colon():  # fails on 3f155cd
    reply = (
        "Impression\n1. Most likely a drug interaction: the combined pill started two months ago will have induced "
        "lamotrigine clearance, and the return of her jerks fits a falling level."
    )
    assert lead_of(LTG, reply)[1] == "gold"
