"""Round 91 (session 34; tuned on sets 1-253): a daily excretion written as its amount, and a name inside another
fact's name in the released context.

In the hyperparathyroidism case the 24-hour urine calcium is released as "9.2 mmol/24 h". Replies write it "24-hour
urine calcium 9.2 mmol": the bare "mmol" reads as mmol/L, which the fact's unit refused, so the number became a
free-standing claim (or, in one reply of set 253, a claim on the withheld serum calcium) and the urine calcium a
factual claim, where the labels read one numeric claim. An amount without "/24 h" is now the value of a fact
measured per day (``claims._PER_DAY_UNIT``, ``_BARE_AMOUNT``).

"Her serum calcium was normal" invented while the serum calcium is withheld was read as supported, because the
released context says "Her 24-hour urine calcium is 9.2 mmol/24 h, with normal urinary oxalate and citrate": its
"calcium" and "normal" seemed to report the serum calcium as normal. A name of the fact inside another fact's longer
name ("urine calcium") no longer counts there (``claims._context_reports_test``).

On the 825 tuning trajectories that name calcium or a daily unit: 25 decisions fixed, 0 lost, and 17 false number
claims gone. The tests marked "fails on 3f155cd" fail on the session-33 final judge; the others are controls.
"""

from __future__ import annotations

from rules_support import claims_of

PHPT = "uro-220-hyperparathyroid-stones"


def test_a_daily_amount_without_its_per_day_unit():  # fails on 3f155cd
    got = [(c.item, c.kind, c.status) for c in claims_of(PHPT, ["24h urine Ca 9.2 mmol."], "O+I+D")]
    assert got == [("urine_calcium", "numeric", "supported")]


def test_a_misquoted_daily_amount_is_contradicted():  # fails on 3f155cd
    got = [(c.item, c.status) for c in claims_of(PHPT, ["Hypercalciuria 9.6 mmol."], "O+I+D")]
    assert got == [("urine_calcium", "contradicted")]


def test_a_serum_value_keeps_its_own_unit():
    got = [(c.item, c.status) for c in claims_of(PHPT, ["Calcium 2.78 mmol/L."], "O+I+D")]
    assert got == [("calcium", "unsupported")]


def test_an_invented_normal_serum_calcium_while_withheld():  # fails on 3f155cd
    got = [(c.item, c.status) for c in claims_of(PHPT, ["Her serum calcium was normal when checked in the ED."], "O+I+D")]
    assert got == [("calcium", "unsupported")]
