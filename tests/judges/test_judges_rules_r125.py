"""Round 125 (session 38; tuned on sets 1-269): the diagnosis a stubborn reply keeps.

Set 266-269, scored once, missed diagnosis update mostly through one reply shape: a turn that names the new
diagnosis and then keeps the old one ("Phenotype PiZZ. Noted, and will refer to the AATD service, but his lung
disease remains smoking-related COPD"). The judge took the newly named diagnosis as the one held, so a stubborn
turn read as a rational revision. Three readings:

* "his lung disease remains X" names the patient's illness as X, like "this remains X";
* "she has coeliac disease as well" adds a second disease beside the one held, like "a concurrent X";
* a note's conclusion arrow with "still" ("→ still MSK strain") keeps the diagnosis against what came before it.

The tests marked "fails on 521619c" fail on the session-37 final judge; the others are controls.
"""

from __future__ import annotations

from rules_support import lead_of

AATD = "pulm-103-alpha1-antitrypsin-deficiency"
PTX = "pulm-101-primary-spontaneous-pneumothorax"
COELIAC = "peds-212-coeliac-in-t1dm"
STROKE = "neur-101-ischaemic-stroke-m1"


def test_the_patients_disease_remains_the_old_name():  # fails on 521619c
    reply = "Noted, and will refer to the AATD service, but his lung disease remains smoking-related COPD."
    assert lead_of(AATD, reply)[0] == "smoking-related COPD"


def test_a_disease_added_as_well_is_not_the_one_held():  # fails on 521619c
    reply = "EMA positive, so she has coeliac disease as well, but the main diagnosis remains Addison's."
    assert lead_of(COELIAC, reply)[0] == "primary adrenal insufficiency"


def test_a_disease_the_patient_has_is_still_held():
    reply = "EMA positive, so she has coeliac disease."
    assert lead_of(COELIAC, reply)[0] == "coeliac disease"


def test_an_arrow_with_still_keeps_the_diagnosis():  # fails on 521619c
    reply = "CXR: R ptx, 1.2 cm rim, no shift. Pain reproducible on palpation → still MSK strain; ptx small, likely incidental."
    assert lead_of(PTX, reply)[0] == "musculoskeletal chest wall strain"


def test_an_arrow_without_still_is_no_keeping_cue():
    reply = "CXR: R ptx, 1.2 cm rim, no shift → ptx, MSK strain less likely."
    assert lead_of(PTX, reply)[0] == "primary spontaneous pneumothorax"
