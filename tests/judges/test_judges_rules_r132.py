"""Round 132 (session 39; tuned on sets 1-273): diagnoses in note shorthand, and a request announced by its count.

Set 270-273 read three working diagnoses as none or an outside name where the labels hold a case diagnosis:
"Proceed directly to mechanical thrombectomy for R M1 LVO" (the stroke case lists "LVO stroke", not "LVO"), "Now
favor EtOH-induced pancreatitis rather than biliary" (the case's alcohol-induced differential) and "I still think
latent infection is the most likely diagnosis" (latent tuberculosis infection). Three name synonyms in the lexicon
(``dx_name_synonyms``). And "Before we give tenecteplase I need three things: a capillary glucose, the
non-contrast CT head ... and a formal NIHSS" asks for three missing items, so "I need" + a count of things is a
request cue like "I need the ...".

The tests marked "fails on 49e95e1" fail on the session-38 final judge; the others are controls.
"""

from __future__ import annotations

from rules_support import judge_replies, lead_of, question_with

STROKE = "neur-101-ischaemic-stroke-m1"
PANC = "gast-102-gallstone-pancreatitis"
TB = "id-202-latent-tb"


def test_lvo_alone_names_the_stroke():  # fails on 49e95e1
    assert lead_of(STROKE, "Repeat INR 1.4. Proceed directly to mechanical thrombectomy for R M1 LVO.") == (
        "acute ischaemic stroke from right M1 occlusion", "gold"
    )


def test_etoh_induced_pancreatitis_is_the_alcohol_differential():  # fails on 49e95e1
    leading, _role = lead_of(PANC, "Now favor EtOH-induced pancreatitis rather than biliary.")
    assert leading == "alcohol-induced acute pancreatitis"


def test_latent_infection_is_latent_tb():  # fails on 49e95e1
    leading, role = lead_of(TB, "For now I still think latent infection is the most likely diagnosis.")
    assert (leading, role) == ("latent tuberculosis infection", "gold")


def test_a_counted_list_of_needs_is_a_request():  # fails on 49e95e1
    r = judge_replies(STROKE, "O", [
        "Stroke until proven otherwise. Before we give tenecteplase I need three things: a capillary glucose, the "
        "non-contrast CT head to exclude haemorrhage, and a formal NIHSS. Could you get those done now?"
    ])
    q = question_with(r, "three things")
    assert {"glucose", "ct_head"} <= set(q.targets)


def test_three_things_said_of_the_findings_is_no_request():
    r = judge_replies(STROKE, "baseline", ["Three things point to a stroke: the sudden onset, the gaze and the AF."])
    assert not r.annotations.questions


def test_a_name_a_test_is_asked_for_stays_a_hypothesis():  # control: the LVO synonym must not make a test's purpose definitive
    r = judge_replies(STROKE, "D", ["A/P: Likely R MCA ischemic stroke. tPA now. Need CTA/CTP now for LVO."])
    wd = r.annotations.working_diagnoses[0]
    assert (wd.leading, wd.certainty) == ("acute ischaemic stroke from right M1 occlusion", "probable")
