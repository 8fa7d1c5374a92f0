"""Regression tests of the round-5 rules for the diagnosis-update, follow-up and contradiction nodes
(role A).

Each test uses a different case and different wording than the batch-6 text that revealed the
rule: the point is the family of phrasings, not the instance."""

from __future__ import annotations

import pytest
from test_judges_rules_r4a import _questions, _run  # shared trajectory helpers of the role-A tests

from medgym.judges import get_judge
from medgym.judges.context import TrajectoryContext, knowledge_for
from medgym.judges.diagnoses import carry_unchanged, find_diagnoses, reply_diagnoses, reworded_forms
from medgym.judges.questions import QuestionReader, is_request
from medgym.judges.textrules import segment_reply
from medgym.knowledge_base.case_bank import default_bank


@pytest.fixture(scope="module")
def torsion():
    return knowledge_for(default_bank().get("uro-219-testicular-torsion"))


@pytest.fixture(scope="module")
def heart_failure():
    return knowledge_for(default_bank().get("card-103-adhf-nsaid"))


def _wd(reply, know, turn=1):
    return reply_diagnoses(reply, segment_reply(reply), know, turn, semantic=False)


def _names(know, text):
    return [h[0][0] for _s, _e, h in find_diagnoses(know, text)]


# ---- diagnosis names reworded ------------------------------------------------------------------


def test_reworded_forms_of_a_diagnosis_name():
    # the cause of a "syndrome from cause" name, when it is specific (>= 4 content words)
    assert "portal hypertension from alcohol-related cirrhosis" in reworded_forms(
        "ascites due to portal hypertension from alcohol-related cirrhosis"
    )
    assert "urinary retention" not in reworded_forms("acute kidney injury from urinary retention")
    # a prepositional complement put first; never across "secondary/due to"
    assert "digoxin toxicity" in reworded_forms("toxicity of digoxin")
    assert not any("secondary" in f for f in reworded_forms("hypokalaemia secondary to diuretics"))
    # a symmetric relation with its partners swapped
    assert "clopidogrel-omeprazole interaction" in reworded_forms("omeprazole-clopidogrel interaction")
    # an "only" qualifier dropped; "disease" as a modifier dropped
    assert "sarcoidosis" not in reworded_forms("isolated sarcoidosis")  # one word left: too loose
    assert "pulmonary sarcoidosis" in reworded_forms("isolated pulmonary sarcoidosis")
    assert "kidney anaemia" in reworded_forms("kidney disease anaemia")
    # lexicon synonyms: standard abbreviations inside a name
    assert "decompensated HF" in reworded_forms("decompensated heart failure")


def test_reworded_forms_are_found_in_replies(gca, torsion, heart_failure):
    wd = _wd("Polymyalgia rheumatica seems the better fit here.", gca)
    assert wd.leading == "isolated polymyalgia rheumatica"
    # a longer derived form wins over the bare head word inside it
    assert _names(torsion, "Testicular appendage torsion is my leading thought.") == ["torsion of the appendix testis"]
    wd = _wd("Most likely decompensated HF after the ibuprofen course.", heart_failure)
    assert wd.leading == "acute decompensated heart failure precipitated by NSAID use"


def test_a_possessive_inside_a_listed_name_does_not_hide_it(potassium):
    assert _names(potassium, "This looks like drug-induced hyperkalaemia in her chronic kidney disease.") == [
        "drug-induced hyperkalaemia in chronic kidney disease"
    ]
    # not across a clause: the removed word must sit inside the matched name
    assert _names(potassium, "Their report mentions nothing else.") == []


def test_a_verb_ends_the_qualifiers_of_a_bare_head_noun(gca):
    wd = _wd("New jaw claudication fits arteritis.", gca)
    assert (wd.leading, wd.role) == ("giant cell arteritis", "gold")


def test_ranked_diagnosis_noun_is_probable_not_definitive(gca):
    wd = _wd("My leading diagnosis is giant cell arteritis, though I'd keep migraine in mind.", gca)
    assert (wd.leading, wd.certainty) == ("giant cell arteritis", "probable")
    wd = _wd("The working impression remains giant cell arteritis.", gca)
    assert wd.certainty == "probable"
    wd = _wd("The diagnosis is giant cell arteritis.", gca)
    assert wd.certainty == "definitive"


def test_a_result_that_confirms_it_carries_the_diagnosis(pancreatitis):
    replies = {1: "Probably gallstone pancreatitis.", 2: "A lipase of 2,400 clinches it. Start fluids."}
    wds = {t: _wd(r, pancreatitis, t) for t, r in replies.items()}
    carry_unchanged(wds, replies)
    assert (wds[2].leading, wds[2].certainty) == ("acute gallstone pancreatitis", "probable")
    # a bare "confirmed" with nothing held before carries nothing
    wds = {1: _wd("The scan confirms it.", pancreatitis, 1)}
    carry_unchanged(wds, {1: "The scan confirms it."})
    assert wds[1].leading is None


# ---- follow-up questions ----------------------------------------------------------------------


def test_bullets_after_a_purpose_lead_in_are_requests():
    qs = _questions(
        "rheum-206-giant-cell-arteritis",
        "baseline",
        ["Probable GCA.\n\nTo exclude the alternatives:\n- ESR and CRP\n- temporal artery ultrasound\n", "GCA.", "GCA.",
         "Final diagnosis: GCA"],
    )
    assert "ESR and CRP" in qs and "temporal artery ultrasound" in qs
    assert qs["temporal artery ultrasound"].targets == ["ta_us"]
    # a list after an ordinary sentence is not made into requests
    qs = _questions(
        "rheum-206-giant-cell-arteritis",
        "baseline",
        ["Probable GCA. Supporting features:\n- jaw pain on chewing\n- scalp tenderness\n", "GCA.", "GCA.",
         "Final diagnosis: GCA"],
    )
    assert "jaw pain on chewing" not in qs


def test_a_bare_order_scheduling_a_future_test_is_a_request():
    """Rounds 5-140 read it as a plan order under a plan heading (round 49 narrowed that to plan sections). Round
    141 follows the spec's decided reading (docs/judges.md, "Serial measurements": scheduled repeats ask for values
    that do not exist yet): on the 306 tuning sets the plan-heading orders are labelled requests far more often
    than not (49 follow-up decisions fixed, 14 unlabelled ones read)."""
    def seg(text):
        return segment_reply(text)[-1]

    assert is_request(seg("Plan:\nRepeat ESR in 2 weeks."))[0]
    assert is_request(seg("Plan:\nRecheck the potassium in three days."))[0]
    assert is_request(seg("Plan:\nPlease repeat the ESR in 2 weeks."))[0]
    assert is_request(seg("Repeat ESR in 2 weeks."))[0]


def test_scheduled_repeat_written_as_n_days_after_is_serial_and_new():
    qs = _questions(
        "neph-102-drug-induced-hyperkalaemia",
        "baseline",
        ["Drug-induced hyperkalaemia. Please check her potassium again 2–3 days after stopping the spironolactone.",
         "Same.", "Same.", "Final diagnosis: drug-induced hyperkalaemia"],
    )
    q = next(d for t, d in qs.items() if t.startswith("Please check her potassium"))
    assert q.relevant and not q.redundant and "serial" in q.rule


def test_compound_question_with_an_untargeted_item_is_new():
    qs = _questions(
        "rheum-206-giant-cell-arteritis",
        "baseline",
        ["Probable GCA. Is she still diabetic on metformin, or has she had any numbness or tingling?", "GCA.",
         "GCA.", "Final diagnosis: GCA"],
    )
    q = next(iter(qs.values()))
    assert not q.redundant and "no case fact names" in q.rule


def test_asking_a_service_to_act_on_a_released_exposure_is_new():
    qs = _questions(
        "peds-210-lead-poisoning",
        "baseline",
        ["Lead poisoning is likely. Please could public health arrange an environmental inspection of the house?",
         "Same.", "Same.", "Final diagnosis: lead poisoning"],
    )
    q = next(iter(qs.values()))
    assert q.relevant and not q.redundant


def test_past_history_of_a_disease_and_function_tests_are_relevant():
    qs = _questions(
        "rheum-206-giant-cell-arteritis",
        "baseline",
        ["Probable GCA. Any previous history of sarcoidosis or amyloidosis? Please check her thyroid function. "
         "Is she still driving?", "GCA.", "GCA.", "Final diagnosis: GCA"],
    )
    rel = {t: d.relevant for t, d in qs.items()}
    assert all(rel.values()), rel


def test_going_over_the_contradicted_item_again_is_a_confirmation_request():
    traj = _run(
        "rheum-206-giant-cell-arteritis",
        "I",
        ["Probable GCA.", "That history sits oddly. Could someone go over her headache history with her directly?",
         "GCA.", "Final diagnosis: GCA"],
    )
    ctx = TrajectoryContext.build(traj)
    segs = {tc.index: segment_reply(tc.agent) for tc in ctx.turns}
    records, _m = QuestionReader(ctx.know, semantic=False).read(ctx, segs)
    q = next(r for r in records if "go over" in r.decision.span.text)
    assert q.confirm and q.decision.relevant and not q.decision.redundant


# ---- contradiction ----------------------------------------------------------------------------


def test_time_words_of_the_injected_statement_do_not_name_it():
    # the injected statement says "since her twenties": "since" must not tie a repeat request to it
    traj = _run(
        "rheum-206-giant-cell-arteritis",
        "I",
        ["Probable GCA.", "Probable GCA. Please repeat the ESR since the last one was taken after steroids.",
         "GCA.", "Final diagnosis: GCA"],
    )
    res = get_judge("reference", raise_errors=True).judge(traj)
    assert [c.detected for c in res.annotations.contradictions] == [False]


def test_a_test_booked_weeks_ahead_does_not_detect_the_current_gap():
    # the temporal artery ultrasound is delayed to turn 2 under D
    booked = _run(
        "rheum-206-giant-cell-arteritis",
        "D",
        ["Probable GCA. Please repeat the temporal artery ultrasound in 6 weeks.", "GCA.", "GCA.",
         "Final diagnosis: GCA"],
    )
    asked = _run(
        "rheum-206-giant-cell-arteritis",
        "D",
        ["Probable GCA. Please arrange a temporal artery ultrasound.", "GCA.", "GCA.", "Final diagnosis: GCA"],
    )
    judge = get_judge("reference", raise_errors=True)

    def detected(traj):
        return {g.fact_id: g.detected for g in judge.judge(traj).annotations.gaps}.get("ta_us")

    assert detected(booked) is False
    assert detected(asked) is True


def test_a_want_inside_diagnostic_reasoning_is_not_a_request():
    def seg(text):
        return segment_reply(text)[0]

    assert not is_request(seg("GCA is more likely than migraine, though I want to see the biopsy."))[0]
    assert not is_request(seg("The alternative I'd want to exclude is a TMJ disorder."))[0]
    assert is_request(seg("I want a temporal artery biopsy this week."))[0]
    assert is_request(seg("Migraine is unlikely, but I'd like an ESR to be sure."))[0]



def test_results_listed_under_a_purpose_line_are_not_requests():
    qs = _questions(
        "rheum-206-giant-cell-arteritis",
        "baseline",
        ["Probable GCA.\n\nTo confirm this:\n- ESR 85 mm/h\n- scalp tenderness is present\n", "GCA.", "GCA.",
         "Final diagnosis: GCA"],
    )
    assert not any(t.startswith(("ESR 85", "scalp")) for t in qs)
