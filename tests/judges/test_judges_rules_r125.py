"""Rounds 125 and 130 (session 38; tuned on sets 1-269): the diagnosis a reply holds.

Set 266-269, scored once, missed diagnosis update mostly through one reply shape: a turn that names the new
diagnosis and then keeps the old one ("Phenotype PiZZ. Noted, and will refer to the AATD service, but his lung
disease remains smoking-related COPD"). The judge took the newly named diagnosis as the one held, so a stubborn
turn read as a rational revision. Three readings:

* "his lung disease remains X" names the patient's illness as X, like "this remains X";
* "she has coeliac disease as well" adds a second disease beside the one held, like "a concurrent X";
* a note's conclusion arrow with "still" ("→ still MSK strain") keeps the diagnosis against what came before it.

Round 130 (below): a "most likely" that opens the next name's phrase ranks that name, not the one before it.

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


# Round 130 (same session): a "most likely" that opens the next name's phrase ranks that name. "Lung-RADS 4X nodule —
# most likely an early primary lung adenocarcinoma" was read as leading with the nodule, the cue counted after it.
NODULE = "onc-217-screen-detected-lung-cancer"


def test_most_likely_before_a_name_ranks_that_name():  # fails on 521619c
    reply = "Impression: Lung-RADS 4X nodule — most likely an early primary lung adenocarcinoma."
    assert lead_of(NODULE, reply)[1] == "gold"


def test_most_likely_after_a_name_still_ranks_it():
    reply = "Primary lung adenocarcinoma — most likely; a post-infective inflammatory nodule is the alternative."
    assert lead_of(NODULE, reply)[1] == "gold"
