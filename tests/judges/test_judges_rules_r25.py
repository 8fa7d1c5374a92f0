"""Regression tests of the round-25 rules (requests, follow-up redundancy, diagnosis reading; tuned on sets 1-60
before the blind set 61-64 was scored). Written on other cases or wording than the batch text that revealed
each rule."""

from __future__ import annotations

import pytest
from rules_support import case_knowledge, judge_replies

from medgym.judges.diagnoses import expand_dx_abbreviations
from medgym.judges.questions import _SERIAL, QuestionReader, is_request
from medgym.judges.textrules import heading_section, segment_reply


def _questions(case: str, cond: str, replies: list[str]):
    return judge_replies(case, cond, replies).annotations.questions


def test_a_request_label_inside_a_numbered_item_makes_each_part_a_question():
    reply = (
        "1. Likely gallstone pancreatitis.\n"
        "2. Requests: please send a lipase; please arrange an abdominal ultrasound; please check a calcium.\n"
        "3. Start IV fluids."
    )
    segs = {s.text: s for s in segment_reply(reply)}
    asks = [t for t, s in segs.items() if s.section == "questions"]
    assert len(asks) == 3, asks
    assert segs["Start IV fluids."].section != "questions"  # the label holds for its own item only


def test_a_results_label_inside_a_numbered_item_stays_a_result():
    reply = "1. Tests: troponin 14 ng/L, ECG sinus rhythm.\n2. No chest pain now."
    assert all(s.section != "questions" for s in segment_reply(reply))


@pytest.mark.parametrize(
    "text",
    [
        "I still need those bloods before deciding.",
        "We still need her ferritin before starting iron.",
        "I should still like the ECG and an echo.",
        "CXR + sputum cx pls given the cough.",
    ],
)
def test_more_request_cues_are_read(text):
    seg = segment_reply(text)[0]
    assert is_request(seg)[0], text


@pytest.mark.parametrize(
    "text",
    ["Urine culture needed.", "Repeat ECG still required today.", "Troponin and lipase needed now."],
)
def test_tests_named_as_needed_are_a_terse_order(text):
    assert is_request(segment_reply(text)[0])[0], text


@pytest.mark.parametrize("text", ["Admission needed.", "No further tests needed.", "Nothing else required."])
def test_needed_without_a_test_is_not_a_request(text):
    assert not is_request(segment_reply(text)[0])[0], text


def test_needed_now_heads_a_list_of_requests():
    assert heading_section("Needed now") == "questions"


@pytest.mark.parametrize(
    "text",
    [
        "Pls repeat the lactate q2h.",
        "Recheck the potassium 4-hourly.",
        "Please repeat the renal function weekly.",
        "Could we repeat the ferritin three months after the iron course?",
        "Please arrange a postpartum glucose test.",
        "Repeat the chest X-ray after the drain removal.",
        "Rpt FBC 2 wks.",
    ],
)
def test_more_schedules_make_a_repeat_a_new_measurement(text):
    assert _SERIAL.search(text), text


@pytest.mark.parametrize("text", ["Has the pain been there for 3 weeks?", "Repeat the ESR done 6 weeks ago?"])
def test_a_duration_or_a_past_date_is_not_a_schedule(text):
    assert not _SERIAL.search(text), text


def test_politeness_if_does_not_cut_off_what_is_asked():
    reader = QuestionReader(case_knowledge("gast-102-gallstone-pancreatitis"))
    ids, _, _ = reader._targets("I would be grateful if you could check her lipase today.")
    assert ids, "the lipase is the ask, not a condition"
    cond, _, _ = reader._targets("Abdominal ultrasound if the lipase is normal.")
    assert "lipase" not in " ".join(cond)


def test_us_is_a_new_investigation_only_when_the_case_has_no_ultrasound_fact():
    no_us = QuestionReader(case_knowledge("card-102-familial-hypercholesterolaemia"))
    assert no_us._unmatched_investigation("Pls arrange a carotid US.") is not None
    with_us = QuestionReader(case_knowledge("gast-102-gallstone-pancreatitis"))
    assert with_us._unmatched_investigation("US abdo back yet?") is None


def test_a_chase_of_an_earlier_examination_is_redundant():
    qs = _questions(
        "card-103-adhf-nsaid",
        "O",
        [
            "Likely decompensated heart failure. Please examine her for a raised JVP and ankle oedema.",
            "Still likely heart failure. I still need the examination before I finalise.",
        ],
    )
    chase = next(q for q in qs if q.span.turn == 2)
    assert chase.redundant is True, chase.rule


def test_a_serial_repeat_of_a_released_test_is_new():
    qs = _questions(
        "endo-102-euglycaemic-dka-sglt2",
        "baseline",
        ["Euglycaemic DKA on an SGLT2 inhibitor. Pls repeat the ketones and VBG 2-hourly."],
    )
    assert qs and qs[0].redundant is False, qs[0].rule if qs else None


def test_genus_abbreviations_do_not_end_a_kept_diagnosis():
    r = judge_replies(
        "gast-103-nsaid-duodenal-ulcer-bleed",
        "baseline",
        ["Bleeding duodenal ulcer, likely NSAID related.", "Urease test positive. No change — H. pylori DU bleed."],
    )
    wd = {w.turn: w for w in r.annotations.working_diagnoses}
    assert wd[2].leading == "bleeding NSAID-associated duodenal ulcer", wd[2].rule


def test_a_favoured_name_is_the_working_diagnosis():
    r = judge_replies(
        "neur-103-lamotrigine-contraceptive",
        "baseline",
        ["I would favour a pill-induced drop in her lamotrigine level, though a structural lesion needs excluding."],
    )
    wd = r.annotations.working_diagnoses[0]
    assert wd.leading == "breakthrough seizures from oestrogen-induced lowering of lamotrigine levels", wd.rule


def test_i_would_favour_a_plan_is_not_a_diagnosis():
    r = judge_replies("neur-103-lamotrigine-contraceptive", "baseline", ["I would favour a repeat level in 2 weeks."])
    assert r.annotations.working_diagnoses[0].leading is None


def test_a_kept_name_longer_than_its_head_is_read_whole():
    r = judge_replies(
        "neur-103-lamotrigine-contraceptive", "baseline", ["Unchanged: breakthrough sz from the estrogen-driven LTG fall."]
    )
    wd = r.annotations.working_diagnoses[0]
    assert wd.leading == "breakthrough seizures from oestrogen-induced lowering of lamotrigine levels", wd.rule


def test_note_shorthand_for_alcohol_disease_and_seizures_is_expanded():
    assert expand_dx_abbreviations("EtOH liver dz") == "alcohol-related liver disease"
    assert expand_dx_abbreviations("provoked sz") == "provoked seizures"


# ---- round 26 (tuned on sets 1-64 after the one scoring of 61-64) ----------------------------------------


def test_a_pls_lead_in_opens_its_list_and_is_not_itself_a_question():
    reply = "Imp: ?pre-eclampsia.\nPls send:\n- urine PCR\n- LFTs\nStart labetalol."
    segs = segment_reply(reply)
    assert [s.text for s in segs if s.section == "questions"] == ["urine PCR", "LFTs"]


def test_a_grateful_for_lead_in_opens_a_list_in_a_letter():
    reply = "Most likely this is iron deficiency. To finish the work-up I would be grateful for:\n- a ferritin\n- a coeliac screen"
    assert [s.text for s in segment_reply(reply) if s.section == "questions"] == ["a ferritin", "a coeliac screen"]


def test_a_lone_query_mark_of_note_shorthand_is_not_a_question():
    for seg in segment_reply("A/P: ? renal colic vs pyelonephritis. CT KUB pls."):
        if seg.text.strip() == "?":
            assert not is_request(seg)[0]


@pytest.mark.parametrize(
    "text",
    ["Post-void bladder scan before and after catheter removal pls.", "Repeat the potassium after the IV dose."],
)
def test_paired_and_post_treatment_measurements_are_scheduled(text):
    assert _SERIAL.search(text), text


def test_asking_about_an_earlier_time_is_not_the_released_finding():
    qs = _questions(
        "peds-211-intussusception", "baseline",
        ["Likely intussusception. Any redcurrant jelly stool before today?", "Any redcurrant jelly stool?"],
    )
    assert [q.redundant for q in qs] == [False, True], [q.rule for q in qs]


@pytest.mark.parametrize(
    "replies,expected",
    [
        (["Probably PMR.", "Halo on US but it fits PMR too. Remains PMR, continue pred."], "isolated polymyalgia rheumatica"),
        (["GI bleed.", "Low platelets add to it. The duodenal ulcer remains the source."],
         "bleeding NSAID-associated duodenal ulcer"),
        (["GI bleed.", "Urease positive. Imp now: bleeding DU. Stop the terlipressin."],
         "bleeding NSAID-associated duodenal ulcer"),
    ],
)
def test_more_ways_of_keeping_or_naming_a_diagnosis(replies, expected):
    case = "rheum-206-giant-cell-arteritis" if "PMR" in replies[0] else "gast-103-nsaid-duodenal-ulcer-bleed"
    wd = judge_replies(case, "baseline", replies).annotations.working_diagnoses[-1]
    assert wd.leading == expected, wd.rule


def test_a_name_whose_words_all_sit_in_one_case_diagnosis_names_it():
    r = judge_replies("id-201-pyelonephritis", "baseline", ["Still think infected obstructing calculus, given the fever."])
    assert r.annotations.working_diagnoses[0].leading == "infected obstructing ureteric stone"


# ---- round 27 (small; tuned on 65-68 after their one scoring; not yet measured on a fresh set) -----------


@pytest.mark.parametrize(
    "text",
    [
        "The ferritin is still not back, so please chase it.",
        "I still have no urine culture result; please expedite it.",
        "Still outstanding: blood film and LDH, pls chase.",
    ],
)
def test_a_stated_outstanding_result_with_a_request_to_chase_it_is_a_question(text):
    assert any(is_request(s)[0] for s in segment_reply(text)), text


def test_a_bare_outstanding_statement_is_still_not_a_question():
    assert not any(is_request(s)[0] for s in segment_reply("The ferritin is still not back."))
