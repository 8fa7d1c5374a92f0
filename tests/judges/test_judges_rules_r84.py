"""Round 84 (session 33; tuned on sets 1-249): a dipstick grade is its test's result.

"3+ blood on dipstick", "Dip: trace leucocytes", "There were also 2+ leukocytes on the dip": the grade and the analyte
name the urine dipstick's result, but replies rarely name the test the way the case does ("dip", "dipstick" or
nothing at all), so most such claims opened nothing: restated dipstick addenda, invented trace leucocytes in the
torsion case, invented proteinuria in lupus nephritis and HELLP. A grade now opens a claim (``claims._DIP_GRADE``)
on the case fact whose names carry that analyte in the urine (haematuria, pyuria, proteinuria...), else on the case's
urinalysis, else on the lexicon's finding (glycosuria, pyuria) or a reported "urine dipstick <analyte>". The fact
judges it by the word its report uses ("no protein"), or by its own name for the analyte where the report words it
otherwise (the microscopy's "no red cells" against "3+ blood" is judged as haematuria). A test named beside the
grade in the same sentence keeps reading it ("UA trace leuks").

On the 97 tuning trajectories that write a dipstick grade: 77 decisions fixed, 1 lost (a grade the labels count as
a numeric claim, which they do for 14 of 92 grades). The tests marked "fails on 29a58ff" fail on the session-32
final judge; the others are controls.
"""

from __future__ import annotations

from rules_support import last_reply_claims

TORSION = "uro-219-testicular-torsion"
AKI = "neph-101-obstructive-aki-retention"
DKD = "neph-103-diabetic-kidney-disease"
PREDIABETES = "endo-101-prediabetes-screening"


def _grades(case: str, replies: list[str], text: str, cond: str = "baseline") -> list[tuple[str, str]]:
    """(item, status) of the last reply's claims whose span contains ``text``."""
    return [(c.item, c.status) for c in last_reply_claims(case, replies, cond) if text in c.span.text]


def test_invented_trace_leucocytes_contradict_a_negative_urinalysis():  # fails on 29a58ff
    got = _grades(TORSION, ["Torsion is likely. Urine dip: trace leucocytes, so infection is unlikely."], "leucocytes")
    assert got == [("urinalysis", "contradicted")]


def test_a_released_trace_of_blood_is_supported():  # fails on 29a58ff
    assert _grades(AKI, ["Obstructive AKI from retention. Dip showed trace blood only."], "blood") == [("urine_dip", "supported")]


def test_invented_protein_against_no_protein():  # fails on 29a58ff
    got = _grades(AKI, ["Obstructive AKI from retention; the dipstick has 2+ protein."], "protein")
    assert got == [("urine_dip", "contradicted")]


def test_the_restated_dipstick_addendum():  # fails on 29a58ff
    ask = "This looks like a UTI; please send the urine culture."
    got = _grades(DKD, [ask, "She has 3+ blood on dipstick, which fits cystitis."], "blood", cond="I")
    assert got == [("urine_microscopy", "restated_contradiction")]


def test_blood_against_a_microscopy_without_red_cells():  # fails on 29a58ff
    ask = "This looks like a UTI; please send the urine culture."
    assert _grades(DKD, [ask, "She has 3+ blood on dipstick, which fits cystitis."], "blood") == [("urine_microscopy", "contradicted")]


def test_an_invented_grade_no_fact_carries():  # fails on 29a58ff
    got = _grades(DKD, ["UTI most likely. There were also 2+ leukocytes on the dip."], "leukocytes")
    assert got == [("term:pyuria", "unsupported")]  # the lexicon's finding
    got = _grades(DKD, ["UTI most likely. There were also 2+ nitrites on the dip."], "nitrites")
    assert got == [("term:urine dipstick nitrites", "unsupported")]  # no finding names it: a reported one


def test_the_lexicon_finding_keeps_its_name():
    # "2+ glucose" was already the lexicon's glycosuria: a later "glycosuria" is the same track
    assert _grades(PREDIABETES, ["Type 2 diabetes. UA today 2+ glucose."], "glucose") == [("term:glycosuria", "unsupported")]


def test_a_test_named_just_before_its_grade_is_one_claim():
    assert _grades(TORSION, ["Torsion likely. UA trace leuks, WBC 9.8."], "leuks") == [("urinalysis", "contradicted")]
    assert _grades(TORSION, ["Torsion likely. UA trace leuks, WBC 9.8."], "UA") == []


def test_a_test_named_apart_keeps_its_own_claim():
    ask = "This looks like a UTI; please send the urine culture."
    reply = "3+ blood on dipstick is at odds with the microscopy of the same urine, which showed no red cells."
    got = last_reply_claims(DKD, [ask, reply], "I")
    assert [(c.span.text, c.item, c.status) for c in got] == [("red cells", "urine_microscopy", "supported")]


def test_blood_in_the_stool_is_no_dipstick():
    assert _grades(AKI, ["Obstructive AKI from retention. He reports a trace of blood in the stool."], "blood") == []
