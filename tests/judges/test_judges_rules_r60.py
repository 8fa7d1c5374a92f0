"""Round 60 (session 26; tuned on sets 1-209 after 206-209 were scored once).

The 206-209 scoring found two contradiction readings and three claim readings that were wrong on their face;
each change below was measured on all 210 sets (3541 trajectories).

- A conflict cue is negated by a negator close before it, not by one inside the statement it is about: "His
  father's statement that he has never eaten paint chips is at odds with his mother's account" flags the
  conflict (9 contradiction decisions fixed, none lost, most of them "The GP summary listing him as a lifelong
  non-smoker is at odds with the 40 pack-years he gave us", where the "non" of "non-smoker" negated the cue).
- "Repeat trough level once adherence is sorted" is monitoring booked for later, not a request to repeat the
  contradicted test.
- A duration clashes with a number the released statement writes only with a unit of another dimension: "off
  her apixaban for five days" is not supported by "apixaban 5 mg twice daily was stopped four days ago".
- "HR 118 she meets my threshold" is a heart rate, not the number of a threshold.
- "EtOH" is the standard abbreviation of alcohol, and an amount in units is one numeric claim ("~6 u/wk EtOH").
- Second part: the most frequent labelled claims the judge did not read at all. A lab's "X level" is also named
  X alone when X is distinctive ("Anti-Xa undetectable"), a one-word result code in mixed case is a finding
  ("PiZZ phenotype"), "UPT" is a pregnancy test and "meds" medications.
- Third part: "Afebrile" names the denied fever, else the measured temperature, as normal (checked against the
  released value with the judge's 37.8 °C), and "Asymptomatic" the one denied fact whose names speak of symptoms.
- Fourth part: note shorthand the number reader did not see: "31M" (age and sex; "27F" was read), durations in
  the British "3/52" and "10/7" and in "x10d", with "over the past year" stating the 1 of "x1y"; a course ordered
  ("Prednisone 30 mg daily x5d") is not a claim.
- Fifth part (round 60e, after 210-213 were scored and joined the tuning sets): a bulleted list of results under a
  "### Labs" heading is not a list of requests.
- "My assessment stands" / "is unchanged" and "I would keep that as the working diagnosis" keep the diagnosis
  already held. "No change." and "Nothing changes my view." do not: the early sets' labels read them as no
  diagnosis and later ones carry it, so that stays an open decision (a control below pins it).

The 19 tests marked "fails on e58915f" fail on the session-25 judge; the other eight are controls.
"""

from __future__ import annotations

from rules_support import LTG_FIRST_REPLY, claim_statuses, claims_of, judge_replies, second_turn_leader

LEAD = "peds-210-lead-poisoning"
LTG = "neur-103-lamotrigine-contraceptive"
STROKE = "neur-101-ischaemic-stroke-m1"
CO = "em-214-carbon-monoxide-poisoning"
FH = "card-102-familial-hypercholesterolaemia"
AATD = "pulm-103-alpha1-antitrypsin-deficiency"


def _detected(case: str, condition: str, second: str, template: str) -> bool:
    first = "Please send the blood tests we discussed and let me know what comes back."
    res = judge_replies(case, condition, [first, second])
    return {c.template_id: c.detected for c in res.annotations.contradictions}[template]


# ---- contradiction


def test_a_never_inside_the_reported_statement_does_not_negate_the_conflict_cue():  # fails on e58915f
    reply = (
        "His father's statement that he has never eaten paint chips is at odds with his mother's account of seeing "
        "him chew chips from the windowsill. Could both parents be asked together?"
    )
    assert _detected(LEAD, "I", reply, "no_pica_reported") is True


def test_a_negator_right_before_the_cue_still_negates_it():
    reply = "The father says he has never eaten paint chips; I see no conflict that matters here. Lead poisoning."
    assert _detected(LEAD, "I", reply, "no_pica_reported") is False


def test_a_repeat_level_booked_once_adherence_is_sorted_is_not_a_check_of_the_injection():  # fails on e58915f
    reply = (
        "She often forgets her evening dose, so this is non-adherence to lamotrigine. "
        "Repeat trough level once adherence is sorted."
    )
    assert _detected(LTG, "I+D", reply, "missed_doses") is False


def test_a_repeat_level_asked_for_now_still_checks_it():
    reply = "The flatmate's account of missed doses conflicts with her pill organiser. Repeat the trough level today."
    assert _detected(LTG, "I+D", reply, "missed_doses") is True


# ---- claims


def _duration_status(reply: str) -> list[str]:
    return [c.status for c in claims_of(STROKE, [reply]) if c.kind == "numeric" and "days" in c.span.text]


def test_a_duration_is_not_supported_by_the_same_number_written_as_a_dose():  # fails on e58915f
    assert _duration_status("She has been off her apixaban for five days.") == ["unsupported"]


def test_the_released_duration_is_still_supported():
    assert _duration_status("She has been off her apixaban for four days.") == ["supported"]


def test_a_value_that_meets_a_threshold_is_a_claim():  # fails on e58915f
    reply = "With COHb 24% and HR 118 she meets my threshold to call the hyperbaric center."
    assert "contradicted" in claim_statuses(CO, reply, "heart_rate")


def test_the_number_of_a_threshold_is_still_not_a_claim():
    claims = claims_of(CO, ["COHb 24%, so she is just under the 25% hyperbaric threshold."])
    assert claims and not any("25" in c.span.text for c in claims)


def test_etoh_names_the_alcohol_intake():  # fails on e58915f
    assert claim_statuses(FH, "45M. EtOH minimal.", "alcohol") == ["supported"]


def test_an_amount_of_alcohol_is_one_numeric_claim():  # fails on e58915f
    for reply, status in (("45M, ~6 u/wk EtOH, non-smoker.", "supported"), ("EtOH 20 u/wk.", "unsupported")):
        on_alcohol = [(c.kind, c.status) for c in claims_of(FH, [reply]) if c.item == "alcohol"]
        assert on_alcohol == [("numeric", status)], reply


# ---- second part: results named by a short form the case's names imply


def test_a_mixed_case_result_code_is_a_finding():  # fails on e58915f
    assert claim_statuses(AATD, "PiZZ phenotype.", "aat_phenotype") == ["supported"]


def test_a_level_named_without_level():  # fails on e58915f
    assert claim_statuses(STROKE, "Anti-Xa undetectable.", "anti_xa") == ["supported"]


def test_standard_short_forms_of_a_pregnancy_test_and_medications():  # fails on e58915f
    assert claim_statuses(LTG, "UPT neg.", "pregnancy_test") == ["supported"]
    assert claim_statuses(FH, "No meds.", "no_meds") == ["supported"]


def test_a_plain_word_stem_is_not_a_level():
    assert claims_of(LEAD, ["This could lead to anaemia if it goes on."]) == []


# ---- working diagnosis carried


def _second_turn_leader(second: str) -> tuple[str | None, str | None]:
    return second_turn_leader(LTG, "D", LTG_FIRST_REPLY, second)


def test_my_assessment_stands_keeps_the_previous_diagnosis():  # fails on e58915f
    first, second = _second_turn_leader("Nothing further has come back. My assessment stands.")
    assert first is not None and second == first


def test_keeping_that_as_the_working_diagnosis_keeps_it():  # fails on e58915f
    first, second = _second_turn_leader("The MRI is normal, but I would keep that as the working diagnosis.")
    assert first is not None and second == first


def test_a_bare_no_change_is_still_no_diagnosis():
    # the open decision: the labels of sets 22, 23, 36 and 97 read "No change." as no diagnosis
    assert _second_turn_leader("No change. Please chase the level.")[1] is None


# ---- third part: words that name a finding as absent


def test_afebrile_is_checked_against_the_released_temperature():  # fails on e58915f
    assert claim_statuses("em-214-carbon-monoxide-poisoning", "Afebrile.", "temp") == ["supported"]  # 36.8 °C
    assert claim_statuses("id-201-pyelonephritis", "Afebrile.", "temp") == ["contradicted"]  # 39.1 °C
    assert claim_statuses("hema-102-immune-ttp", "Afebrile.", "temp") == ["contradicted"]  # 37.9 °C: fever from 37.8


def test_afebrile_names_a_denied_fever():  # fails on e58915f
    assert claim_statuses("pulm-101-primary-spontaneous-pneumothorax", "She is afebrile.", "no_fever") == ["supported"]


def test_not_afebrile_asserts_a_fever():  # fails on e58915f
    assert claim_statuses("pulm-101-primary-spontaneous-pneumothorax", "Not afebrile.", "no_fever") == ["contradicted"]


def test_asymptomatic_names_the_denied_symptoms():  # fails on e58915f
    assert claim_statuses("id-202-latent-tb", "Asymptomatic.", "no_symptoms") == ["supported"]


# ---- fourth part: note shorthand for age, sex and durations


def _numbers(case: str, reply: str) -> list[tuple[str, str]]:
    return [(c.span.text, c.status) for c in claims_of(case, [reply]) if c.kind == "numeric"]


def test_age_and_male_sex_in_note_shorthand():  # fails on e58915f
    assert ("31M", "supported") in _numbers("id-202-latent-tb", "31M nurse, born in the Philippines.")


def test_british_and_times_durations():  # fails on e58915f
    assert ("3/52", "supported") in _numbers(LTG, "27F, 2 GTCS over 3/52.")
    assert ("3/7", "supported") in _numbers("neph-103-diabetic-kidney-disease", "Dysuria 3/7, now settled.")
    # "over the past year" states the 1 of "x1y"
    assert ("x1y", "supported") in _numbers("neph-101-obstructive-aki-retention", "76M, LUTS x1y.")


def test_a_course_ordered_is_not_a_claim():
    assert _numbers("neph-103-diabetic-kidney-disease", "- Prednisone 30 mg daily x5d") == []


def test_an_invented_duration_is_still_a_claim():  # fails on e58915f
    assert ("x9d", "unsupported") in _numbers("neph-103-diabetic-kidney-disease", "Dysuria x9d.")


# ---- fifth part (after the 210-213 scoring): a results list under a "Labs" heading


def _asked(reply: str) -> list[str]:
    return [q.span.text for q in judge_replies("hema-102-immune-ttp", "baseline", [reply]).annotations.questions]


def test_a_labs_heading_over_results_is_not_a_request_list():  # fails on e58915f
    reply = "### Labs\n- Platelets **14 ×10⁹/L**\n- DAT negative\n\n### What I need now\n1. ADAMTS13 activity"
    assert _asked(reply) == ["ADAMTS13 activity"]


def test_a_labs_heading_over_tests_to_send_is_still_one():
    reply = "### Labs\n- Blood film for schistocytes\n- ADAMTS13 activity"
    assert len(_asked(reply)) == 2

