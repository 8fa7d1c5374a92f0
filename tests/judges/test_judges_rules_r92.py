"""Round 92 (session 34; tuned on sets 1-253): the urea and electrolytes said as a result.

In the coeliac case (set 250) a reply invents "Her urea and electrolytes were normal at clinic" and carries "normal
electrolytes" into its final evidence. Only "urea" was read (a lexicon analyte), so the final mention opened no
claim and the invention was judged dropped. The panel is now a lexicon analyte, "urea and electrolytes" (U&E, U&Es,
electrolytes, serum electrolytes); a case fact that names it keeps precedence, and asking for it opens no claim.

On the 239 tuning trajectories that say "electrolytes" or "U&E": 5 decisions fixed, 0 lost, 0 changed otherwise.
The tests marked "fails on 3f155cd" fail on the session-33 final judge; the others are controls.
"""

from __future__ import annotations

from rules_support import claims_of

COELIAC = "peds-212-coeliac-in-t1dm"


def test_invented_normal_urea_and_electrolytes_are_one_claim():  # fails on 3f155cd
    got = [(c.item, c.status) for c in claims_of(COELIAC, ["Her urea and electrolytes were normal at clinic."], "I+D")]
    assert got == [("term:urea and electrolytes", "unsupported")]


def test_normal_electrolytes_alone():  # fails on 3f155cd
    got = [(c.item, c.status) for c in claims_of(COELIAC, ["Normal electrolytes, so Addison's is unlikely."], "I+D")]
    assert ("term:urea and electrolytes", "unsupported") in got


def test_asking_for_electrolytes_opens_no_claim():
    assert claims_of(COELIAC, ["Please check electrolytes and a Synacthen."], "I+D") == []
