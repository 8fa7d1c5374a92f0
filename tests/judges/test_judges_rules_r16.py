"""Regression tests of the round-16 rules (diagnosis reading, after the batch 33-36 error analysis).

Other cases and wording than the batch text that revealed each rule."""

from __future__ import annotations

import pytest
from rules_support import case_knowledge, judge_replies
from test_judges_rules_r5a import _wd

PANC = "gast-102-gallstone-pancreatitis"
PE = "pulm-102-pulmonary-embolism"


def _stances(case_id, reply):
    wd = _wd(reply, case_knowledge(case_id))
    return wd, {m.span.text.lower(): m.stance for m in wd.mentions}


@pytest.mark.parametrize(
    "reply",
    ["Most likely gallstone pancreatitis, alcohol-induced pancreatitis not excluded.",
     "?Gallstone pancreatitis, acute cholecystitis unlikely."],
)
def test_an_exclusion_after_a_comma_belongs_to_the_next_name_not_the_first(reply):
    wd, st = _stances(PANC, reply)
    assert wd.leading == "acute gallstone pancreatitis", wd.rule
    assert st.get("alcohol-induced pancreatitis", "possible") != "excluded"


def test_the_alternative_ranks_below_the_diagnosis_to_exclude_first():
    wd, st = _stances(PE, "Pulmonary embolism has to be excluded first; pneumonia is the alternative.")
    assert st["pneumonia"] == "possible"


def test_what_a_rival_would_not_explain_is_not_excluded():
    wd, st = _stances(PE, "Most likely pulmonary embolism. Pneumonia would not explain the pulmonary embolism on CTPA.")
    assert wd.leading == "acute pulmonary embolism", wd.rule


def test_the_main_driver_is_the_held_diagnosis():
    wd, _st = _stances(PANC, "Lipase 2840. I still think acute cholecystitis is the main driver.")
    assert wd.leading == "acute cholecystitis", wd.rule


@pytest.mark.parametrize(
    "second",
    ["Still most likely the stone. Is the ultrasound back?", "The duct stone remains the main cause, please chase the MRCP.",
     "The stone is the culprit until proven otherwise."],
)
def test_a_reply_that_keeps_its_diagnosis_without_naming_it_carries_the_previous_one(second):
    r = judge_replies(PANC, "O", ["Acute gallstone pancreatitis.", second, "Final diagnosis: acute gallstone pancreatitis"])
    wd = {w.turn: w for w in r.annotations.working_diagnoses}
    assert wd[2].leading == "acute gallstone pancreatitis", wd[2].rule


# ---- round 17 (after the batch 37-40 error analysis) --------------------------------------------


def test_a_chase_of_a_pending_request_is_redundant():
    from test_judges_rules_r4a import _questions

    qs = _questions(PANC, "O", ["Likely gallstone pancreatitis. Please send an ALT.", "Any ALT result yet?"])
    assert qs["Any ALT result yet?"].redundant, qs["Any ALT result yet?"].rule
    qs = _questions(PANC, "O", ["Likely gallstone pancreatitis. Please send an ALT and a CRP.",
                                "Could we still have the ALT, and an MRCP?"])
    second = qs["Could we still have the ALT, and an MRCP?"]
    assert not second.redundant, second.rule  # the MRCP is a new ask


def test_support_after_an_exclusion_is_not_excluded():
    wd, st = _stances(PE, "The scan excludes pneumonia and fits pulmonary embolism.")
    assert wd.leading == "acute pulmonary embolism", wd.rule


def test_common_short_forms_of_diagnosis_names():
    from medgym.judges.diagnoses import reworded_forms

    assert "IDA" in reworded_forms("iron deficiency anaemia")
    assert "coeliac" in reworded_forms("coeliac disease")


def test_a_long_summary_under_an_impression_label_is_not_a_diagnosis_name():
    wd, _st = _stances(PE, "**Impression:** Sudden pleuritic pain and breathlessness after a long-haul flight on the "
                           "pill, with a heart rate of 112 and saturations of 93%. That points towards pulmonary embolism.")
    assert all(m.role != "other" for m in wd.mentions), wd.rule


# ---- round 18 (after the batch 41-44 error analysis; no fresh measurement yet) -------------------


def test_a_bare_restatement_may_run_on_after_a_comma():
    from rules_support import case_knowledge as ck
    from test_judges_rules_r5a import _wd as wd_of

    wd = wd_of("Still prerenal, the creatinine should fall with fluids.", ck("neph-101-obstructive-aki-retention"))
    assert wd.leading is None  # semantic=False in _wd: the name is matched by meaning only
    from medgym.judges.diagnoses import reply_diagnoses
    from medgym.judges.textrules import segment_reply

    text = "Still prerenal, the creatinine should fall with fluids."
    wd = reply_diagnoses(text, segment_reply(text), ck("neph-101-obstructive-aki-retention"), 2, semantic=True)
    assert wd.leading == "prerenal acute kidney injury", wd.rule


def test_ectopic_alone_names_an_ectopic_pregnancy():
    from medgym.judges.diagnoses import reworded_forms

    assert "ectopic" in reworded_forms("ectopic pregnancy")
