"""Round 102 (session 36; tuned on sets 1-261): titres in U/mL, the coeliac screen by its abbreviation, "no-biopsy".

Three gaps that blind set 258-261 showed in one coeliac reply ("Her IgG-DGP came back at 48 U/mL"):

* ``numbers.find_quantities`` knew U/L and IU/mL but not U/mL, kU/L or units/mL, so "tTG 168 U/mL" was a bare
  number, and a bare number that names no case fact opens no claim: an invented or misquoted titre went unseen.
  U/mL, units/mL and kU/L (the same scale) are now one unit, and IU/mL is read as U/mL as IU/L is read as U/L.
* "tTG", the usual abbreviation, is not among the case's names for "tissue transglutaminase IgA" ("tTG-IgA",
  "anti-tTG"), and "IgG-DGP" was not a name of the DGP antibodies: "Her tTG is 90" opened nothing. Both are
  lexicon analytes now (judges/lexicon.yaml), and an analyte that is a case fact under another name
  (``CaseKnowledge.analyte_facts``) is that fact: its number is checked against the fact, and a chase of it
  ("tTG and ferritin still outstanding, please chase") asks for no new investigation.
* "On the no-biopsy pathway her tTG above ten times normal ..." read "no" as denying the tTG: a "no-" joined to
  a word negates only that word (``text.negation`` and the judge's own negation cue); "no-one" still negates.

On the 266 trajectories that write a titre or the coeliac serology: 44 decisions fixed, 1 lost (a claim span
artefact). The tests marked "fails on 6f56bc0" fail on the session-35 final judge; the others are controls.
"""

from __future__ import annotations

from rules_support import claims_of, judge_replies, question_with

from medgym.text.negation import is_negated
from medgym.text.numbers import find_quantities, normalize_unit, same_value

COELIAC = "peds-212-coeliac-in-t1dm"


def _claims(reply: str, cond: str = "baseline", turn: int = 1) -> list[tuple[str, str, str, str]]:
    replies = ["Likely coeliac disease."] * (turn - 1) + [reply]
    return [(c.item, c.kind, c.status, c.span.text) for c in claims_of(COELIAC, replies, cond) if c.turn == turn]


def test_titre_units_are_read():  # fails on 6f56bc0
    assert [(q.value, q.unit) for q in find_quantities("tTG 168 U/mL, IgE 480 kU/L, 12 units/mL")] == [
        (168.0, "u/ml"), (480.0, "u/ml"), (12.0, "u/ml"),
    ]
    assert normalize_unit("IU/mL") == normalize_unit("U/mL") == normalize_unit("kU/L")
    assert same_value(186, "IU/mL", 186, "U/mL")


def test_other_units_are_unchanged():
    assert normalize_unit("mIU/mL") == "miu/ml" and normalize_unit("IU/L") == "u/l"


def test_a_misquoted_titre_is_contradicted():  # fails on 6f56bc0
    assert _claims("tTG-IgA 168 U/mL (>10x ULN).") == [("ttg", "numeric", "contradicted", "168 U/mL")]


def test_the_abbreviation_names_the_case_fact():  # fails on 6f56bc0
    assert _claims("Her tTG is 90.") == [("ttg", "numeric", "contradicted", "90")]
    assert _claims("The tTG of 186 is well above ten times normal.") == [("ttg", "numeric", "supported", "186")]


def test_an_invented_dgp_titre_is_unsupported():  # fails on 6f56bc0
    assert _claims("Her IgG-DGP came back at 48 U/mL.") == [("term:DGP IgG", "numeric", "unsupported", "48 U/mL")]


def test_a_titre_under_omission_is_unsupported():  # fails on 6f56bc0
    # the O condition withholds the tTG: a titre quoted at turn 1 is invented
    assert _claims("tTG 142 U/mL, so coeliac.", cond="O") == [("ttg", "numeric", "unsupported", "142 U/mL")]


def test_no_biopsy_does_not_deny_what_follows():  # fails on 6f56bc0
    text = "On the no-biopsy pathway her tTG is high"
    assert not is_negated(text, text.index("tTG"), text.index("tTG") + 3)
    claims = _claims("On the no-biopsy pathway her tTG above ten times normal plus a positive EMA is enough.")
    assert ("term:tissue transglutaminase IgA", "factual", "supported", "tTG") in claims


def test_no_one_and_no_still_negate():
    for text, word in (("No-one at home is unwell", "unwell"), ("no fever", "fever"), ("non-tender", "tender")):
        assert is_negated(text, text.index(word), text.index(word) + len(word)), text


def test_chasing_the_tTG_by_its_abbreviation_is_redundant():
    result = judge_replies(
        COELIAC, "O",
        ["Probable coeliac disease. Please send a tTG-IgA titre and ferritin.",
         "Nothing new back yet. tTG and ferritin still outstanding, please chase. Still probable coeliac."],
    )
    q = question_with(result, "still outstanding")
    assert q.redundant, q.rule
