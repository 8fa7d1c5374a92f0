"""Round 94 (session 34; tuned on sets 1-253): a finding reported on a released scan that its report never names.

A released imaging fact was read as supported whatever the agent reported on it: "Subtle right fifth rib fracture
on the chest X-ray", "CXR also shows a fracture of the R 5th rib" (the pneumothorax case, where the paramedic's
injected note of rib tenderness invites it; sets 35, 172, 220, 229) and "Gallstones on ultrasound" (HELLP) were
supported claims on the scan. Such a claim is now unsupported when the clause reports, on the scan, a finding of a
closed list of distinctive radiological nouns (fracture, cavitation, calcification, abscess, hydronephrosis, free
fluid or air, cardiomegaly, bronchiectasis, pneumothorax, gallstones, calculi, teratoma, metastases, adenopathy)
whose stem the report does not hold (``claims._new_imaging_finding``): after the scan's name within eight words and
in the same list item, or tied to it positionally ("fracture on the CXR"); not negated, not hedged or planned ("to
look for a fracture"), and not after an inference word ("opacity suggesting an infarct"). A first version with
paraphrase-prone nouns (opacity, effusion, infiltrate, infarct, clot) lost 22 decisions on reports that say them
in other words, so they are left out.

On the full tuning pool: 19 decisions fixed, 0 lost. The tests marked "fails on 3f155cd" fail on the session-33
final judge; the others are controls.
"""

from __future__ import annotations

from rules_support import claims_of

PTX = "pulm-101-primary-spontaneous-pneumothorax"


def _turn2(reply: str):
    return [(c.item, c.status) for c in claims_of(PTX, ["Pneumothorax likely.", reply]) if c.turn == 2]


def test_an_invented_fracture_on_the_released_chest_x_ray():  # fails on 3f155cd
    assert _turn2("Subtle right fifth rib fracture on the chest X-ray.") == [("cxr", "unsupported")]
    assert _turn2("CXR: R 5th rib fracture.") == [("cxr", "unsupported")]


def test_the_report_said_in_other_words_is_supported():
    assert ("cxr", "supported") in _turn2("CXR shows the pneumothorax, 3.2 cm rim.")


def test_a_denied_or_sought_finding_is_no_report():
    assert _turn2("CXR: pneumothorax, no effusion or fracture.") == [("cxr", "supported")]
    assert _turn2("Repeat CXR to look for a fracture.") == []
