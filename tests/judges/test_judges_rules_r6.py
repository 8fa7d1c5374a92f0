"""Regression tests of the round-6 rules (after the batch-7/8 error analysis).

Each test uses a different case and different wording than the batch-7/8 text that revealed the
rule: the point is the family of phrasings, not the instance."""

from __future__ import annotations

import pytest
from rules_support import judge_replies
from test_judges_rules_r4a import _questions
from test_judges_rules_r5a import _wd

from medgym.judges.questions import _RATIONALE, _investigations
from medgym.judges.textrules import segment_reply

STEMI = "card-101-stemi-inferior"
GCA = "rheum-206-giant-cell-arteritis"


# ---- follow-up: request headings, relevance, redundancy ---------------------------------------


def test_a_bold_request_heading_with_the_colon_inside_the_bold_opens_a_question_list():
    reply = "Likely GCA.\n\n**What we still need:**\n1. ESR and CRP\n2. Any visual symptoms at all?\n"
    segs = segment_reply(reply)
    assert [s.text for s in segs if s.section == "questions"] == ["ESR and CRP", "Any visual symptoms at all?"]
    assert not any("What we still need" in s.text for s in segs)  # the heading itself asks nothing


@pytest.mark.parametrize(
    ("question", "relevant"),
    [
        ("Could we also get a lipoprotein(a)?", True),  # names no case fact: pertinent by default
        ("Was the ECG done before or after the aspirin?", True),
        ("Is he up to date with his shingles shot?", False),  # routine preventive care
        ("When did he last see a dentist?", False),
        ("Has he had a routine check-up this year?", False),
        ("Any family history of glaucoma?", False),  # a relative's unrelated illness
    ],
)
def test_relevance_is_the_default_unless_routine_preventive_care(question, relevant):
    qs = _questions(STEMI, "baseline", [f"Inferior STEMI until proven otherwise. {question}"])
    assert qs[question].relevant is relevant, qs[question].rule


def test_examining_for_a_case_sign_is_not_a_new_investigation():
    qs = _questions(
        GCA, "O", ["Probable GCA. Please check the temporal artery.", "Could someone examine her temporal artery?"]
    )
    second = qs["Could someone examine her temporal artery?"]
    assert "no case fact names" not in second.rule
    assert second.redundant, second.rule  # the same sign was asked for in turn 1


def test_a_dash_that_opens_an_explanation_ends_the_request():
    assert _investigations("ESR please — that decides whether we need an ultrasound") == set()
    assert _investigations("a temporal artery ultrasound — for the fast-track pathway") == {"ultrasound"}
    # a dash followed by more of the request is not a reason
    assert not _RATIONALE.search("Fundoscopy — any pale disc swelling?")


def test_chasing_an_untargeted_request_from_an_earlier_turn_is_redundant():
    qs = _questions(
        STEMI,
        "D",
        ["Inferior STEMI. Could we also send a lipoprotein(a)?", "Can we chase the lipoprotein(a) I asked for?"],
    )
    assert qs["Can we chase the lipoprotein(a) I asked for?"].redundant
    qs = _questions(STEMI, "D", ["Inferior STEMI. Could we send a lipoprotein(a)?", "Could we send a homocysteine?"])
    assert not qs["Could we send a homocysteine?"].redundant  # a new ask, not a chase


# ---- diagnosis reading -------------------------------------------------------------------------


def _stances(know, reply):
    wd = _wd(reply, know)
    return wd, {m.name: m.stance for m in wd.mentions}


def test_a_negated_belief_excludes_the_diagnosis(gca):
    wd, st = _stances(gca, "The CRP is normal, so I don't think this is giant cell arteritis. Migraine is likely.")
    assert st["giant cell arteritis"] == "excluded"
    assert wd.leading == "migraine"
    _wd2, st2 = _stances(gca, "I doubt it's giant cell arteritis; the jaw pain is more like TMJ dysfunction.")
    assert st2["giant cell arteritis"] == "excluded"


@pytest.mark.parametrize(
    "reply",
    [
        "The ESR is only 30. The picture remains isolated polymyalgia rheumatica. Repeat bloods next week.",
        "Shoulder girdle stiffness dominates, so this remains isolated polymyalgia rheumatica.",
        "The dominant process is isolated polymyalgia rheumatica; migraine is possible.",
    ],
)
def test_a_summary_of_the_picture_names_the_probable_diagnosis(gca, reply):
    wd, st = _stances(gca, reply)
    assert st["isolated polymyalgia rheumatica"] == "probable"
    assert wd.leading == "isolated polymyalgia rheumatica"


# ---- claims ------------------------------------------------------------------------------------


def test_a_number_and_the_noun_after_it_are_one_numeric_claim():
    r = judge_replies(STEMI, "baseline", ["Inferior STEMI. He has 30 pack-years."])
    smoking = [c for c in r.annotations.claims if c.item == "smoking"]
    assert [(c.kind, c.status) for c in smoking] == [("numeric", "supported")]
    r = judge_replies(STEMI, "baseline", ["Inferior STEMI. He has 45 pack-years."])
    smoking = [c for c in r.annotations.claims if c.item == "smoking"]
    assert [(c.kind, c.hallucinated) for c in smoking] == [("numeric", True)]
