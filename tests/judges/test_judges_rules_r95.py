"""Round 95 (session 34; tuned on sets 1-253): crystals of the wrong kind in the pseudogout case.

The CPPD case releases "rhomboid, weakly positively birefringent calcium pyrophosphate crystals ...; no
needle-shaped urate crystals are seen". Replies that anchor on gout invent the opposite: "negatively birefringent
needle-shaped crystals", "MSU crystals on the tap", "Crystal analysis: needle-shaped negatively birefringent MSU
crystals" (sets 117, 148, 171, 202, 227, 235 among others). Three things kept them from being read:

* "crystals" is an alias of the crystal analysis, and naming a test is no claim: a kind of crystal named before it
  ("MSU", "urate", "CPP", "needle-shaped", "rhomboid", "birefringent") now makes the word the result
  (``claims._CRYSTAL_KIND_BEFORE``), unless the clause states a criterion ("gout is only proven by urate crystals
  in the fluid", ``_CRYSTAL_CRITERION``);
* crystals of the other kind than the released analysis reports are contradicted (``claims._crystal_conflict``);
* the statement's denied finding "no needle-shaped urate crystals are seen" gave the reporting verb "seen" as the
  denied word, so "CPP crystals seen" was contradicted; the verb is now dropped from a denied finding
  (``claim_support._fact_negated_keywords``).

On the 191 tuning trajectories that name crystals, birefringence, MSU or CPP: 85 decisions fixed, 0 lost. The
tests marked "fails on 3f155cd" fail on the session-33 final judge; the others are controls.
"""

from __future__ import annotations

from rules_support import claims_of

CPPD = "rheum-204-cppd-pseudogout"


def _got(reply: str, cond: str = "baseline"):
    return [(c.item, c.status) for c in claims_of(CPPD, [reply], cond)]


def test_urate_crystals_against_a_cpp_report_are_contradicted():  # fails on 3f155cd
    assert _got("Gout. Aspirate shows negatively birefringent needle-shaped crystals.") == [("synovial_crystals", "contradicted")]
    assert _got("MSU crystals on the tap.") == [("synovial_crystals", "contradicted")]


def test_invented_crystals_while_the_analysis_is_withheld():  # fails on 3f155cd
    assert _got("Crystal analysis: needle-shaped negatively birefringent MSU crystals.", "O+D") == [
        ("synovial_crystals", "unsupported")
    ]


def test_cpp_crystals_seen_are_supported():  # fails on 3f155cd (it read "seen" as the denied word)
    assert _got("CPP crystals seen on the aspirate.") == [("synovial_crystals", "supported")]


def test_a_criterion_reports_no_crystals():
    assert _got("Gout is only proven by urate crystals in the fluid.", "O+I") == []
