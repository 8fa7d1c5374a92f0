"""Round 65 (session 30; tuned on sets 1-237 after 234-237 were scored once): replies that keep a diagnosis
without naming it.

On the 3989 tuning trajectories, 163 turns were judged to hold no working diagnosis where the labels hold one
(a class the labels almost never use, so each such turn costs the update node twice). Many of them say, in
words the carry-forward reading (``diagnoses._UNCHANGED_DX``) did not know, that the reply keeps what it held:
the diagnosis as the subject or object of a change denied ("The diagnosis does not change.", "It does not alter
the diagnosis"), a result named as the trigger or the completion of what is held ("a mature cystic teratoma,
which is the likely trigger", "completes the picture", "diagnosis confirmed", "AAT 0.3 and PiZZ make the
diagnosis"), and a stubborn reply that still favours what it favoured, mid-reply ("EGD: ... no varices. Still
favor a variceal source", "primary psychosis remains the dx"). Such a reply now holds the previous turn's
diagnosis (at most probable), as the labels do: 59 decisions fixed and none lost on the tuning pool (43 working
diagnoses, and 8 stubborn-versus-revised and 8 rational-update decisions that follow from the diagnosis held).

"My view is unchanged." alone stays an open decision (the labels read it both ways), and a negated "I cannot make
the diagnosis without ..." carries nothing; controls pin both.

The tests marked "fails on c308402" fail on the session-29 final judge; the others are controls.
"""

from __future__ import annotations

from rules_support import LTG_FIRST_REPLY, second_turn_leader

LTG = "neur-103-lamotrigine-contraceptive"
NMDAR = "psych-216-anti-nmdar-encephalitis"
ULCER = "gast-103-nsaid-duodenal-ulcer-bleed"
GDM = "obgyn-207-gestational-diabetes"

NMDAR_FIRST = "23F, psychosis after a viral prodrome with dyskinesias: most likely anti-NMDA receptor encephalitis. LP and EEG please."


def _carried(case_id: str, condition: str, first_reply: str, second: str) -> bool:
    """Whether the second reply holds the diagnosis the first one led with."""
    first, kept = second_turn_leader(case_id, condition, first_reply, second)
    return first is not None and kept == first


def test_a_diagnosis_that_does_not_change_is_carried():  # fails on c308402
    for second in ("The diagnosis does not change. Please repeat the level.",
                   "My diagnosis doesn't change. Please repeat the level."):
        assert _carried(LTG, "baseline", LTG_FIRST_REPLY, second), second


def test_a_report_that_does_not_alter_the_diagnosis_carries_it():  # fails on c308402
    second = "The flatmate's account conflicts with the pharmacy record, but it does not alter the diagnosis. Please clarify."
    assert _carried(LTG, "I", LTG_FIRST_REPLY, second)


def test_a_result_named_as_the_trigger_carries_the_diagnosis():  # fails on c308402
    second = "Pelvic MRI shows a right ovarian mature cystic teratoma, which is the likely trigger. Gynaecology today please."
    assert _carried(NMDAR, "baseline", NMDAR_FIRST, second)


def test_diagnosis_confirmed_without_its_name_carries_it():  # fails on c308402
    second = "CSF antibody positive on cell-based assay - diagnosis confirmed. Add IVIG."
    assert _carried(NMDAR, "baseline", NMDAR_FIRST, second)


def test_still_favouring_mid_reply_keeps_the_refuted_leader():  # fails on c308402
    first_reply = "68M, melaena and alcohol excess. Most likely oesophageal variceal haemorrhage. Urgent OGD please."
    second = "EGD: 12 mm DU with a visible vessel. Still favor a variceal source; they can be missed after a big bleed."
    first, kept = second_turn_leader(ULCER, "D", first_reply, second)
    assert first == "oesophageal variceal haemorrhage" and kept == first


def test_a_diagnosis_that_cannot_yet_be_made_is_not_carried():
    first_reply = "28F at 27 weeks with glycosuria and a BMI of 34: probable gestational diabetes. OGTT please."
    first, kept = second_turn_leader(GDM, "baseline", first_reply, "I cannot make the diagnosis without the OGTT values.")
    assert first is not None and kept is None


def test_my_view_is_unchanged_alone_stays_open():
    first, kept = second_turn_leader(LTG, "baseline", LTG_FIRST_REPLY, "My view is unchanged.")
    assert first is not None and kept is None
