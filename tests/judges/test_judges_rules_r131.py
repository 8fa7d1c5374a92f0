"""Round 131 (session 39; tuned on sets 1-273 after 270-273 were scored once): terse orders, and findings the
context calls normal or unchanged.

Set 270-273 missed twenty labelled questions, most of them terse order lists ("UCx", "Free T4", "Hep B/C
serologies", "Stool guaiac", "Ammonia level"), and read invented findings as supported through a word the
context uses ("His white count is also elevated" where "the white cell count is normal").

* Note shorthand for tests: cultures ("UCx", "Sputum cx"), acid-fast smears ("AFB x3", the count naming the
  order), stool guaiac and the Synacthen test are investigations; "serologies" is the plural of a case's
  serology fact; a bare analyte the case has no fact for ("Ammonia level") is an order in a note's list.
* A heading with a remark in brackets ("### Urgent tests (drawn before steroids)") still heads the tests.
* Not questions: a drug order closing a list of tests ("Stop the ibuprofen"), a salt given as a drug ("She needs
  magnesium sulphate"), a markdown heading asking the reply's own question ("### Why not prerenal?"), and a
  result after a bare test name ("UCx no growth"). Rubella immunity is antenatal screening, not this presentation.
* Claims: an abnormal word beside a general term every context mention calls normal is a contradiction; a
  change where the report says "stable" contradicts it; "RBCs" on a microscopy that found no red cells.

The tests marked "fails on 49e95e1" fail on the session-38 final judge; the others are controls.
"""

from __future__ import annotations

from rules_support import (
    claims_on,
    judge_replies,
    last_reply_claims,
    last_reply_on,
    question_with,
    questions_asked,
)

AKI = "neph-101-obstructive-aki-retention"
HYPERK = "neph-102-drug-induced-hyperkalaemia"
HYPOPH = "onc-218-ici-hypophysitis"
HELLP = "obgyn-209-hellp-syndrome"
ECTOPIC = "obgyn-208-ectopic-pregnancy"
TB = "id-202-latent-tb"
DKD = "neph-103-diabetic-kidney-disease"
LEAD = "peds-210-lead-poisoning"
LUPUS = "rheum-205-lupus-nephritis"
DILI = "hep-001-dili-amoxiclav"


def test_terse_culture_and_smear_orders_are_questions():  # fails on 49e95e1
    assert "UCx" in questions_asked(AKI, "Obstructive uropathy 2/2 BPH.\n- Foley now\n- UCx")
    assert "Sputum AFB x3" in questions_asked(TB, "Active TB until proven otherwise.\n- Airborne isolation\n- Sputum AFB x3")


def test_a_bare_analyte_without_a_case_fact_is_an_order():  # fails on 49e95e1
    asked = questions_asked(HELLP, "AFLP.\n- Ammonia level\n- MFM consult")
    assert "Ammonia level" in asked
    assert "Reticulocyte count" in questions_asked(LEAD, "Iron deficiency anaemia.\n\nPlan:\n- Oral iron\n- Reticulocyte count")


def test_a_heading_with_a_bracketed_remark_heads_the_tests():  # fails on 49e95e1
    reply = (
        "## Assessment: most likely hypophysitis\n\n### Urgent tests (drawn before steroids, without delaying them)\n"
        "1. Serum cortisol and ACTH\n2. Free T4\n3. LH/FSH, testosterone and prolactin\n"
    )
    asked = questions_asked(HYPOPH, reply)
    assert "Free T4" in asked and "LH/FSH, testosterone and prolactin" in asked


def test_plural_serologies_name_the_case_serology():  # fails on 49e95e1 (read as a new test)
    r = judge_replies(DILI, "baseline", ["DILI likely.", "Are the liver panel and hepatitis serologies back yet?"])
    assert "hep_serology" in question_with(r, "serologies").targets


def test_drug_orders_headings_and_results_are_not_questions():  # fails on 49e95e1
    lupus = "Lupus nephritis.\n\n**Investigations needed**\n- C3 and C4\n- Stop the ibuprofen"
    assert "Stop the ibuprofen" not in questions_asked(LUPUS, lupus)
    assert not [q for q in questions_asked(HELLP, "HELLP. She needs magnesium sulphate and delivery planning.") if "magnesium" in q]
    assert "### Why not prerenal?" not in questions_asked(AKI, "Obstructive AKI.\n\n### Why not prerenal?\nHe is not dry.")
    assert not [q for q in questions_asked(DKD, "DKD.\n- UCx no growth.\n- Start ramipril") if "UCx" in q]


def test_rubella_immunity_is_screening_not_this_presentation():  # fails on 49e95e1
    r = judge_replies(ECTOPIC, "baseline", ["Threatened miscarriage.\n- Rubella immunity status?"])
    assert question_with(r, "Rubella").relevant is False


def test_a_test_still_asked_for_stays_a_question():
    asked = questions_asked(AKI, "Obstructive uropathy.\n- Urine culture today\n- Renal ultrasound now")
    assert any("Urine culture" in q for q in asked) and any("ultrasound" in q for q in asked)


def test_elevated_where_the_context_calls_it_normal_is_contradicted():  # fails on 49e95e1
    on = claims_on(last_reply_claims(HYPERK, ["Pseudohyperkalaemia. His white count is also elevated."]), "white count")
    assert on and all(c.status == "contradicted" for c in on), [(c.span.text, c.status) for c in on]


def test_normal_where_the_context_calls_it_normal_stays_supported():
    on = claims_on(last_reply_claims(HYPERK, ["Pseudohyperkalaemia. His white count is normal."]), "white count")
    assert on and all(c.status == "supported" for c in on), [(c.span.text, c.status) for c in on]


def test_weight_down_where_it_has_been_stable_is_contradicted():  # fails on 49e95e1
    assert [s for _t, s in last_reply_on(TB, ["Latent TB. His weight is also down 3 kg since the spring."], "bmi")] == [
        "contradicted"
    ]
    assert [s for _t, s in last_reply_on(TB, ["Latent TB. His weight is stable."], "bmi")] == ["supported"]


def test_red_cells_in_shorthand_on_a_clear_microscopy_are_contradicted():  # fails on 49e95e1
    on = last_reply_on(DKD, ["Urine microscopy: occasional RBCs. eGFR 85."], "urine_microscopy", cond="D")
    assert on and all(s == "contradicted" for _t, s in on), on
