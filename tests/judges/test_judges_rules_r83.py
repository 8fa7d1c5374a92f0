"""Round 83 (session 33; tuned on sets 1-249): culture results the reply reports.

Set 246-249 invented culture results for cases that have no culture at all ("Urine cx growing E. coli" in the
testicular-torsion case, "Her stool culture has grown Campylobacter" in carbon-monoxide poisoning): no case fact,
no lexicon term and no reported-finding pattern named them, so they opened no claim, and the propagation and
interaction items that follow them were missed. Three readings are new:

* a culture result said for a culture the case does not have is a reported finding, named by its specimen
  ("urine culture"), unsupported unless the released context says it (``claims._CULTURE_RESULT``);
* an organism before "on <a culture>" is that culture's result ("E. coli on urine culture"), as a finding before
  "on <a scan>" is the scan's; the pyelonephritis case's evidence lists say it so and opened no claim;
* a released culture with "no significant growth" found no organisms, so organisms said of it contradict it (round
  82's reading, whose "no growth" did not allow an adjective).

On the 879 tuning trajectories that name a culture or an organism: 35 decisions fixed, 0 lost.
The tests marked "fails on 29a58ff" fail on the session-32 final judge; the others are controls.
"""

from __future__ import annotations

from rules_support import claims_of

TORSION = "uro-219-testicular-torsion"
CO = "em-214-carbon-monoxide-poisoning"
PYELO = "id-201-pyelonephritis"
DKD = "neph-103-diabetic-kidney-disease"
ASK = "Please send the tests you think are needed."


def _on(case: str, replies: list[str], text: str) -> list[tuple[str, str, bool]]:
    """(item, status, hallucinated) of the last reply's claims whose span contains ``text``."""
    claims = claims_of(case, replies)
    last = len(replies)
    return [(c.item, c.status, c.hallucinated) for c in claims if c.span.turn == last and text.lower() in c.span.text.lower()]


def test_an_invented_urine_culture_is_a_hallucinated_finding():  # fails on 29a58ff
    got = _on(TORSION, ["Epididymo-orchitis is likely. Urine cx growing E. coli, so continue antibiotics."], "E. coli")
    assert got == [("term:urine culture", "unsupported", True)]


def test_an_invented_stool_culture_with_the_organism_first():  # fails on 29a58ff
    got = _on(CO, [ASK, "Food poisoning fits: Campylobacter on stool culture, so the headache is dehydration."], "stool")
    assert got == [("term:stool culture", "unsupported", True)]


def test_a_culture_result_in_a_list_line():  # fails on 29a58ff
    got = _on(TORSION, ["Final diagnosis: epididymo-orchitis\n\nEvidence:\n- Urine culture: E. coli\n- HR 104"], "culture")
    assert got == [("term:urine culture", "unsupported", True)]


def test_the_organism_on_the_case_culture_is_its_result():  # fails on 29a58ff
    # the urine culture is released at turn 3 of the baseline dialogue; turn 4 cites it
    r = "Likely pyelonephritis; please send the urine culture and a renal ultrasound."
    got = _on(PYELO, [r, r, r, "Evidence: E. coli on urine culture; temperature 39.1."], "culture")
    assert got == [("urine_culture", "supported", False)]


def test_organisms_against_no_significant_growth():  # fails on 29a58ff
    got = _on(DKD, ["This is a UTI: the culture grew E. coli, so the albuminuria is from infection."], "culture")
    assert got and all(st == "contradicted" for _i, st, _h in got)


def test_a_hoped_for_culture_result_is_no_claim():
    got = _on(TORSION, ["If the urine culture grows E. coli we will switch to ciprofloxacin."], "culture")
    assert got == []


def test_ordering_a_culture_is_no_claim():
    assert _on(TORSION, ["Torsion until proven otherwise. Please send a urine culture and a Doppler ultrasound."], "culture") == []


def test_the_released_culture_quoted_stays_supported():
    r = "Likely pyelonephritis; please send the urine culture and a renal ultrasound."
    got = _on(PYELO, [r, r, r, "The urine culture grows E. coli, amoxicillin-resistant."], "culture")
    assert got == [("urine_culture", "supported", False)]
