"""Round 63 (session 28; tuned on sets 1-225 after 222-225 were scored once).

Readings of the 222-225 scoring that were wrong on their face: a finding named by an alias of a released normal
test was read as the test itself, and so as supported, where the test's statement rules the finding out. Measured
on all 226 tuning sets (3797 trajectories) against 65160d9: 108 decisions fixed, 1 lost, 27 changed between two
wrong readings. The most frequent fix is "glycosuria on her dipstick" where the dipstick is negative for glucose
(the case lists "glycosuria" among the dipstick's names); the one loss is a correction ("I was wrong about the
papilledema: the fundi are documented as sharp with no papilledema") now read as withdrawing the turn-1 claim, not
as a claim of its own.

- The statement's British spelling is the denied keyword ("no papilloedema"): "Fundi: mild papilledema" asserts the
  finding it denies.
- A negative test's alias that names a finding of the general lexicon ("haematuria" for the urine microscopy that
  "shows no red cells") is a finding the test rules out: "microscopic hematuria" asserts it.
- A "trace" on a dipstick the case reports negative is a positive result: "UA trace leuks".
- A measure the report calls normal, said to be widened or prolonged ("QRS widening" where "PR and QRS intervals are
  normal"), contradicts it.
- "Increased flow" where the Doppler shows absent flow is the opposite reading (the antonym pairs already held
  "reduced"/"absent").
- A finding the negative test rules out stays denied as a later item of a denied list ("No fever, loin pain or
  frank haematuria"); applied to every mention, that list reading lost 113 decisions ("his neurological examination
  is normal" after an earlier "no"), so it is kept to those findings.
- A later mention merged into the claim on a negative test is judged too, as round 62b does for a drug list
  ("Fundi: mild papilloedema"), unless the span reads the test as normal or reassuring ("The MRI brain is normal, so
  a structural lesion is excluded", "her injection sites are fine, so ... lipohypertrophy").
- "Assessment unchanged." carries the diagnosis held, like "Diagnosis unchanged." and "No change to Dx".

The tests marked "fails on 65160d9" fail on the session-27 final judge; the others are controls.
"""

from __future__ import annotations

from rules_support import LTG_FIRST_REPLY, claims_of, claims_on, judge_replies, second_turn_leader

LTG = "neur-103-lamotrigine-contraceptive"
DKD = "neph-103-diabetic-kidney-disease"
TORSION = "uro-219-testicular-torsion"
HYPERK = "neph-102-drug-induced-hyperkalaemia"


def _statuses(case_id: str, reply: str, words: str) -> list[str]:
    claims = claims_of(case_id, [reply])
    found = [c.status for c in claims_on(claims, words)]
    assert found, [(c.span.text, c.item, c.status) for c in claims]
    return found


def _item_statuses(case_id: str, reply: str, item: str) -> list[str]:
    return [c.status for c in claims_of(case_id, [reply]) if c.item == item]


def test_papilledema_in_american_spelling_contradicts_no_papilloedema():  # fails on 65160d9
    statuses = _statuses(LTG, "27F, JME on lamotrigine. Fundi: mild papilledema. Needs an MRI brain.", "papilledema")
    assert "supported" not in statuses, statuses


def test_no_papilledema_stays_supported():
    assert _statuses(LTG, "27F, JME on lamotrigine. Fundi: no papilledema. Likely a level problem.", "papilledema") == [
        "supported"
    ]


def test_hematuria_named_by_the_negative_microscopys_alias_is_not_supported():  # fails on 65160d9
    reply = "58M, T2DM, ACR 45. Urine micro shows microscopic hematuria, so I'd think about a primary GN."
    statuses = _statuses(DKD, reply, "hematuria")
    assert "supported" not in statuses, statuses


def test_no_hematuria_on_microscopy_stays_supported():
    reply = "58M, T2DM, ACR 45. Urine microscopy: no hematuria. Most likely diabetic kidney disease."
    assert "supported" in _statuses(DKD, reply, "hematuria")


def test_trace_leukocytes_on_a_negative_urinalysis_are_not_supported():  # fails on 65160d9
    # since round 84 the grade carries the urinalysis claim ("trace leuks"), not the test's name
    statuses = _statuses(TORSION, "14M, sudden L scrotal pain 4 h. UA trace leuks. A/P: torsion until proven otherwise.", "leuks")
    assert statuses == ["contradicted"], statuses


def test_a_negative_urinalysis_stays_supported():
    assert "supported" in _statuses(TORSION, "14M, sudden L scrotal pain 4 h. UA negative. A/P: torsion.", "UA")


def test_qrs_widening_contradicts_a_report_that_calls_the_qrs_normal():  # fails on 65160d9
    reply = "K 6.4 on ramipril and spironolactone. EKG: peaked T waves with early QRS widening. Calcium gluconate now."
    assert _item_statuses(HYPERK, reply, "ecg") == ["contradicted"]


def test_a_normal_qrs_stays_supported():
    reply = "K 6.4 on ramipril and spironolactone. EKG: peaked T waves, QRS normal. Calcium gluconate now."
    assert "contradicted" not in [c.status for c in claims_of(HYPERK, [reply])]


def test_assessment_unchanged_carries_the_diagnosis_held():  # fails on 65160d9
    first, second = second_turn_leader(LTG, "baseline", LTG_FIRST_REPLY, "Assessment unchanged. Check the level today.")
    assert first is not None and second == first


def test_increased_flow_contradicts_a_doppler_with_absent_flow():  # fails on 65160d9
    reply = "14M, L scrotal pain. The ultrasound shows increased flow in the left epididymis, so epididymo-orchitis."
    assert _item_statuses(TORSION, reply, "doppler") == ["contradicted"]


def test_absent_flow_on_the_doppler_stays_supported():
    reply = "14M, L scrotal pain. The Doppler shows absent flow in the left testis: torsion."
    assert _item_statuses(TORSION, reply, "doppler") == ["supported"]


def test_a_later_item_of_a_denied_list_stays_denied():  # fails on 65160d9
    reply = "58F, T2DM. No fever, loin pain or frank haematuria. Most likely diabetic kidney disease."
    claims = [c for c in claims_of(DKD, [reply]) if c.item == "urine_microscopy"]
    assert [(c.status, c.present) for c in claims] == [("supported", False)]


def test_a_normal_mri_that_sets_a_lesion_aside_stays_supported():
    first = LTG_FIRST_REPLY
    second = "The MRI brain is normal, so a structural lesion is excluded. Check the level."
    claims = [c for c in judge_replies(LTG, "D", [first, second]).annotations.claims if c.turn == 2 and c.item == "mri_brain"]
    assert claims and all(c.status == "supported" for c in claims), [(c.span.text, c.status, c.rule) for c in claims]


def test_a_mediastinum_that_is_not_widened_is_not_called_widened():
    reply = "Inferior STEMI. CXR: the mediastinum is not widened. Cath lab now."
    assert "contradicted" not in [c.status for c in claims_of("card-101-stemi-inferior", [reply])]
