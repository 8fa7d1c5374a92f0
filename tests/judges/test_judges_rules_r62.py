"""Round 62 (session 27; tuned on sets 1-221 after 218-221 were scored once).

Two readings of the 218-221 scoring that were wrong on their face, measured on all 222 sets (3733 trajectories):
6 decisions fixed (five "RV MI" turns of the STEMI replies judged to name no diagnosis, one contradiction), none
lost.

- "RV MI" and "RV infarct" are written forms of a right-ventricular infarction (lexicon ``dx_name_synonyms``):
  "Inferior + RV MI." holds the inferior STEMI with right-ventricular involvement, where it was read as naming
  no diagnosis.
- A repeat booked for the morning, tomorrow, overnight or daily is monitoring, like one booked "in 6 h": "Repeat
  lipase in the morning" after a reply adopted the injected lipase is not a request to confirm the contradicted
  test.

- Round 62b: a drug in the list under a medication label ("Meds: oxybutynin, amlodipine, lisinopril") is what the
  patient takes, and the one claim the list makes on the medication fact is a contradiction when a later drug of the
  list is one the statement denies (it took the status of the first drug, amlodipine, which the statement names);
  a denied list ("no NSAIDs, ACE inhibitors or diuretics") stays one supported denial.

The tests marked "fails on 2fcaed5" fail on the round-61 judge; the others are controls.
"""

from __future__ import annotations

from rules_support import claims_of, claims_on, judge_replies, lead_of

STEMI = "card-101-stemi-inferior"
GOLD = "inferior ST-elevation myocardial infarction with right ventricular involvement"


def test_inferior_plus_rv_mi_holds_the_gold_diagnosis():  # fails on 2fcaed5
    assert lead_of(STEMI, "V4R STE 1.5 mm = RV involvement. Inferior + RV MI. Cath lab en route.") == (GOLD, "gold")


def test_rv_infarction_as_written_in_the_case_still_holds_it():
    assert lead_of(STEMI, "RV infarction.") == (GOLD, "gold")


def _lipase_flagged(second: str) -> bool:
    first = "Inferior STEMI. Cath lab now; please send troponin and a lipase."
    res = judge_replies(STEMI, "I", [first, second])
    return {c.template_id: c.detected for c in res.annotations.contradictions}["lipase_high"]


def test_a_repeat_lipase_booked_for_the_morning_is_monitoring():  # fails on 2fcaed5
    assert _lipase_flagged("The lipase of 1450 points to pancreatitis. IV fluids. Repeat lipase in the morning.") is False


def test_a_repeat_lipase_asked_for_now_still_checks_the_conflict():
    assert _lipase_flagged("A lipase of 1450 does not fit the ECG. Please repeat the lipase now.") is True


RETENTION = "neph-101-obstructive-aki-retention"


def _med_list_statuses(meds: str) -> list[str]:
    reply = f"76M, LUTS for a year, oliguric.\n- Palpable bladder\n- Meds: {meds}\n\nA/P: AKI, likely obstructive."
    return [c.status for c in claims_on(claims_of(RETENTION, [reply]), "amlodipine")]


def test_a_denied_drug_later_in_a_med_list_contradicts_the_denial():  # fails on 2fcaed5
    assert _med_list_statuses("oxybutynin, amlodipine, lisinopril") == ["contradicted"]


def test_a_med_list_of_drugs_the_statement_names_stays_supported():
    assert _med_list_statuses("oxybutynin, amlodipine") == ["supported"]


def test_a_denied_list_of_drugs_stays_a_supported_denial():
    reply = "76M, LUTS for a year, oliguric. He takes no NSAIDs, ACE inhibitors or diuretics. Most likely retention."
    statuses = [c.status for c in claims_on(claims_of(RETENTION, [reply]), "NSAIDs")]
    assert statuses == ["supported"], statuses
