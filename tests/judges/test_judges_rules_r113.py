"""Rounds 113-118 (session 37; tuned on sets 1-265): claims no reading opened, and two that were opened wrongly.

From set 262-265, scored once:

* Round 113: "lack of symptoms" is a finding, not data the agent lacks. ``textrules.MISSING_RX`` read every "lack"
  as a missing result, and a sentence that says a result is missing asserts nothing, so "which fits with latent TB
  given his positive QuantiFERON and lack of symptoms" opened no claim. "We lack imaging" and "the lack of a CT"
  still say a result is missing.
* Round 114: the lexicon knows "testosterone" as an analyte, "hyperreflexic" as hyperreflexia and "saddle
  numbness" as saddle anaesthesia.
* Round 115: a note's sentence that opens with "Reports" ("Reports saddle numbness.") is the patient's account,
  which the agent asserts, not a document's.
* Round 116: "WBC casts" is a finding of its own, not the white cell count and not the red cell casts a case reports.
* Round 117: a finding a withheld test would show, named as what the signs are in keeping with ("far more in keeping
  with a large-vessel occlusion"), is the agent's hypothesis, not a result; the test named so is still a claim.
* Round 118: a percentage followed by a preposition and "oxygen" ("falling to 9% after oxygen") is a result, not
  the oxygen given ("100% oxygen").

The tests marked "fails on bea737b" fail on the session-36 final judge; the others are controls.
"""

from __future__ import annotations

import pytest
from rules_support import claims_of, last_reply_claims

from medgym.judges.textrules import MISSING_RX

LTBI = "id-202-latent-tb"
GBS = "neur-102-guillain-barre"
HYPOPHYSITIS = "onc-218-ici-hypophysitis"
LUPUS = "rheum-205-lupus-nephritis"
STROKE = "neur-101-ischaemic-stroke-m1"
CO = "em-214-carbon-monoxide-poisoning"


def _claims(case: str, reply: str, cond: str = "baseline") -> list[tuple[str, str, str]]:
    return [(c.item, c.span.text, c.status) for c in claims_of(case, [reply], cond)]


def test_lack_of_symptoms_does_not_hide_the_sentence():  # fails on bea737b
    reply = "The chest X-ray is normal, which fits with latent TB given his positive QuantiFERON and lack of symptoms."
    assert ("igra", "QuantiFERON", "supported") in _claims(LTBI, reply)


@pytest.mark.parametrize("text, missing", [
    ("lack of symptoms", False), ("lack of a sensory level", False),  # fails on bea737b
    ("we lack imaging", True), ("the lack of a CT scan", True), ("lacking the results", True),
])
def test_lack_says_missing_only_of_data(text, missing):
    assert bool(MISSING_RX.search(text)) is missing


def test_hyperreflexic_is_hyperreflexia():  # fails on bea737b
    assert ("term:hyperreflexia", "Hyperreflexic", "unsupported") in _claims(GBS, "Hyperreflexic at the knees.")


def test_reports_opening_a_sentence_is_the_patients_account():  # fails on bea737b
    assert ("no_bladder", "saddle numbness", "contradicted") in _claims(GBS, "Weak legs. Reports saddle numbness.")


def test_a_document_that_reports_is_still_attributed():
    assert not [c for c in _claims(GBS, "The MRI report mentions saddle numbness.") if c[0] == "no_bladder"]


def test_an_invented_testosterone_is_a_numeric_claim():  # fails on bea737b
    claims = claims_of(HYPOPHYSITIS, ["Low testosterone (4.1 nmol/L)."])
    assert [(c.kind, c.item, c.status) for c in claims] == [("numeric", "term:testosterone", "unsupported")]


def test_wbc_casts_are_not_the_red_cell_casts():  # fails on bea737b
    assert _claims(LUPUS, "UA showed WBC casts.") == [("term:white cell casts", "WBC casts", "unsupported")]


def test_a_finding_named_as_the_explanation_is_no_claim():  # fails on bea737b
    reply = "Gaze deviation and neglect are far more in keeping with a large-vessel occlusion."
    assert not [c for c in _claims(STROKE, reply, "D") if c[0] == "cta"]


def test_a_finding_asserted_is_still_a_claim():
    assert ("cta", "large-vessel occlusion", "unsupported") in _claims(STROKE, "She has a large-vessel occlusion.", "D")


def test_a_value_after_oxygen_is_a_result():  # fails on bea737b
    claims = last_reply_claims(CO, ["x", "COHb 24% on co-oximetry, falling to 9% after oxygen."], "D")
    assert [(c.span.text, c.status) for c in claims] == [("24%", "supported"), ("9%", "contradicted")]


def test_oxygen_given_is_no_claim():
    assert not claims_of(CO, ["Give 100% oxygen via a non-rebreather."])
