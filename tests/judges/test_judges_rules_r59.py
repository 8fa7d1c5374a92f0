"""Round 59 (session 25; tuned on sets 1-205 after 202-205 were scored once).

The 202-205 scoring left update at 0.848 with no "no diagnosis" error: the turns it lost name the diagnosis the
agent holds as "the main problem" beside another name the same reply entertains, and the judge took the other
name. Each change below was measured on all 206 sets (3477 trajectories).

- A name called the main problem is the one held: "Likely a small PE secondary to the pneumonia and immobility;
  the primary problem is still RLL CAP", "A pneumothorax does not account for a heart rate of 114 - PE remains
  the main concern", "The inferior STEMI with RV infarction remains the main diagnosis".
- A name introduced as coexisting is a second problem, not a revision: "so he has a concurrent acute
  pancreatitis ... but that does not change the priority".

The first four tests fail on the session-24 judge (70f3be6); the other four are controls (a rule-out is not a
lead, the first name on a final line keeps its place, a coexisting name alone is still held).
"""

from __future__ import annotations

import pytest
from rules_support import lead_of

PE = "pulm-102-pulmonary-embolism"
PTX = "pulm-101-primary-spontaneous-pneumothorax"
STEMI = "card-101-stemi-inferior"



@pytest.mark.parametrize(
    "case, reply, held",
    [
        (PE, "CTPA: RLL segmental filling defects, no RV strain. Likely a small PE secondary to the pneumonia and "
             "immobility; the primary problem is still RLL CAP. Add apixaban.", "community-acquired pneumonia"),
        (PE, "There is a small subsegmental clot, probably a PE from immobility; my main diagnosis remains "
             "community-acquired pneumonia.", "community-acquired pneumonia"),
        (PTX, "1. Pleural edge 3.2 cm from the chest wall on the right.\n2. A pneumothorax does not account for a "
              "heart rate of 114 and the calf swelling - PE remains the main concern.",
         "pulmonary embolism"),
        (STEMI, "His lipase is 1450 U/L, so he has a concurrent acute pancreatitis, but that does not change the "
                "priority. The inferior STEMI remains the main diagnosis.",
         "inferior ST-elevation myocardial infarction with right ventricular involvement"),
    ],
)
def test_the_name_called_the_main_problem_is_held(case, reply, held):
    assert lead_of(case, reply)[0] == held


@pytest.mark.parametrize(
    "case, reply, held",
    [
        # a rule-out is not a lead: the pneumothorax stays
        (PTX, "The CXR confirms a right pneumothorax. My main concern is to exclude a coexisting PE.",
         "primary spontaneous pneumothorax"),
        # the first name on a final line keeps its place, whatever qualifies the second
        (STEMI, "Final diagnosis: acute pancreatitis with a concurrent inferior STEMI",
         "acute pancreatitis"),
        # a coexisting name alone is still what the reply holds
        (STEMI, "He has a concurrent acute pancreatitis.", "acute pancreatitis"),
        # a main-problem cue on the gold itself
        (PE, "The CTPA shows bilateral segmental emboli: the main diagnosis is PE.", "acute pulmonary embolism"),
    ],
)
def test_controls(case, reply, held):
    assert lead_of(case, reply)[0] == held
