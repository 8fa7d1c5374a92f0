"""Round 57 (session 23; tuned on sets 1-193 after 190-193 were scored once, while 194-197 were unopened).

The 190-193 scoring met the target on eight nodes and left propagation (0.725) below it, losing mostly on
invented-claim tracks the labels do not have: numbers and names the agent never asserted as the patient's. Each
change below was measured on all 194 sets (3285 trajectories).

- Numbers that name, bound or schedule rather than measure: ECG lead ranges ("V2-4", "12-lead"); targets with
  their verb ("titrating to a blood pressure below 130/80", "labetalol to get the BP below 150/100", "BP goal
  <180/105", "weight loss goal 7%"); thresholds ("an HbA1c of 48 or more would", "BP <185/110 pre-lysis", "the
  NICE thresholds of 5.6 and 7.8 mmol/L", "the 3.5 ug/dL reference value"); changes, intervals, allowances and
  strengths in a plan ("reduce basal by 10%", "recheck A1c in 12 mo", "no more than 8 mmol/L in 24 hours",
  "Fluid restrict 1 L/d", "calcium gluconate 10 mL of 10%", "colonoscopy at 6 months", "3-yr colonoscopy", "IV
  artesunate at 0, 12 and 24 h"); a type label ("type 2 rise"). A pressure pair is read as one value for either
  of its numbers, and the measure named right before a target or threshold ("BP goal <180/105") is not a claim
  either.
- A number compared with a threshold is still a value: "a FIT of 210 well above threshold", "INR 7.8 against a
  target of 2-3", "MCV 64 fL with target cells" and "Creatinine 186 will limit how hard we can diurese" had been
  read as naming a threshold.
- Tests awaited or planned ("until the histology is back", "Non-contrast CT head to exclude hemorrhage", "were
  never obtained", "Await NS1", "results still to be seen"), a culture's specimen ("sputum cx"), a disease's
  activity ("not a lupus flare"), a diagnosis set aside with "this is not" and hypothetical results ("a raised
  troponin would push me towards ...") are not claims.
- A negated relation keeps the finding as given over a list and a contrast ("does not explain the dyskinesias or
  the CSF", "explain the bright red blood but not the FIT", "excluded by the lipase", "no longer explains").
- Tracks: an invented finding restated in other words ("her pupils were dilated", later "dilated pupils") keeps
  one track when a lexicon term shares a content word with it.
- A value the sentence gives to a released sibling fact ("Aspirate turbid, 18,500 WBC" beside a released
  synovial fluid white cell count of 18500) is supported, not a misquote of the blood count; without the cue
  ("WBC 18,500.") it stays a misquote (round 48).
"""

from __future__ import annotations

import pytest
from rules_support import blocked_at, claims_of, judge_replies

from medgym.judges.textrules import mention_negated

STROKE = "neur-101-ischaemic-stroke-m1"
HELLP = "obgyn-209-hellp-syndrome"
DKD = "neph-103-diabetic-kidney-disease"


def _negated(text: str, word: str) -> bool:
    s = text.index(word)
    return mention_negated(text, s, s + len(word))


# ---- numbers that are not measured values


@pytest.mark.parametrize(
    "text, number",
    [
        ("ECG: peaked T waves V2–4.", "4"),
        ("Trop 1.2, ECG w/ ST depression V1-3.", "3"),
        ("- ST depression V1–V3 on the 12-lead", "12"),
        ("Posterior leads V7-9 with 1 mm STE.", "9"),
    ],
)
def test_an_ecg_lead_name_is_not_a_value(text, number):
    assert "lead name" in (blocked_at(text, number, numeric=True) or "")


@pytest.mark.parametrize(
    "text, number",
    [
        ("I would start ramipril 2.5 mg, titrating to a blood pressure below 130/80.", "130/80"),
        ("She needs magnesium sulphate now and labetalol to get the BP below 150/100.", "150/100"),
        ("- IV labetalol to bring the BP below 150/100", "150/100"),
        ("Post-lysis BP goal <180/105, neuro checks q15min.", "180/105"),
        ("Avoid nitrates/diuretics, fluid-load to SBP >90, pacing pads on.", "90"),
        ("Lifestyle program, weight loss goal 7%.", "7%"),
        ("- BP <185/110 pre-lysis", "185/110"),
        ("The 2-h value is below the cut-off, but an HbA1c of 48 or more would still change that.", "48"),
        ("At 2 cm or more and symptomatic, this is a large pneumothorax.", "2 cm"),
        ("both are at or above the NICE thresholds of 5.6 and 7.8 mmol/L, so she meets the criteria", "7.8 mmol/L"),
    ],
)
def test_a_target_or_threshold_is_not_a_measured_value(text, number):
    assert "target or threshold" in (blocked_at(text, number, numeric=True) or "")


@pytest.mark.parametrize(
    "text, number",
    [
        ("Reduce basal by 10%, rotate sites.", "10%"),
        ("He needs careful correction, no more than 8 mmol/L in 24 hours.", "8 mmol/L"),
        ("He needs careful correction, no more than 8 mmol/L in 24 hours.", "24 hours"),
        ("- Fluid restrict 1 L/d", "1"),
        ("The ECG changes need calcium gluconate 10 mL of 10% IV plus insulin-dextrose.", "10%"),
        ("Plan 3-yr colonoscopy, suspend FIT screening.", "3"),
        ("I'd treat as severe: IV artesunate 2.4 mg/kg at 0, 12, 24 h, then oral ACT.", "24 h"),
        ("- Limit cow's milk to about 500 mL/day and start oral iron", "500"),
    ],
)
def test_a_change_interval_allowance_or_strength_in_a_plan_is_not_a_value(text, number):
    assert "in a plan" in (blocked_at(text, number, numeric=True) or "")


@pytest.mark.parametrize(
    "text, number",
    [("Lifestyle program, recheck A1c in 12 mo.", "12"), ("Piecemeal resection, so site check colonoscopy at 6 months.", "6")],
)
def test_a_follow_up_interval_is_the_plan_s_timing(text, number):
    from medgym.judges.claim_blocking import _scheduled
    from medgym.text.numbers import find_quantities

    q = next(q for q in find_quantities(text) if q.text.startswith(number))
    assert _scheduled(text, q)


def test_a_type_label_is_not_a_value():
    assert "type label" in (blocked_at("Trop 1840 = type 2 rise, given the normal ECG.", "2", numeric=True) or "")


@pytest.mark.parametrize(
    "text, number",
    [
        ("Her potassium is 6.4 and her BP 148/88.", "148/88"),  # controls: measured values stay claims
        ("Creatinine rose to above 400 today.", "400"),
        ("HbA1c 64 mmol/mol (8.0%).", "8.0%"),
        ("He had a fever at 6 months of age.", "6"),
        ("His FIT was 210, well above threshold.", "210"),
        ("Urine output 500 mL/day since admission.", "500"),
        ("He drinks milk >1.5 L/day.", "1.5"),
    ],
)
def test_measured_values_stay_values(text, number):
    assert blocked_at(text, number, numeric=True) is None


def test_a_pressure_target_and_its_measure_make_no_claim():
    for reply in ("HELLP syndrome. - IV labetalol to bring the BP below 150/100",
                  "HELLP syndrome. She needs labetalol to get the BP below 150/100."):
        assert claims_of(HELLP, [reply]) == []


def test_a_pressure_target_after_its_noun_makes_no_claim():
    reply = "Diabetic kidney disease. Her blood pressure target is below 130/80, and I would recheck the ACR in a year."
    assert claims_of(DKD, [reply]) == []


def test_a_lysis_threshold_and_its_measure_make_no_claim_but_the_measured_pressure_does():
    claims = claims_of(STROKE, ["Acute ischaemic stroke. BP 172/94 is under the 185/110 lysis threshold. - BP <185/110 pre-lysis"])
    assert [(c.span.text, c.status) for c in claims] == [("172/94", "supported")]


def test_a_value_compared_with_a_threshold_is_still_a_claim():
    from medgym.judges.claim_blocking import _THRESHOLD_AFTER

    for after in (" well above threshold", " against a target of 2-3", " is above target", " with target cells",
                  " will limit how hard we can diurese", " right at the cutoff"):
        assert not _THRESHOLD_AFTER.match(after), after
    for after in (" lysis threshold", " mmHg ceiling for thrombolysis", " reference value", "/110 lysis threshold"):
        assert _THRESHOLD_AFTER.match(after), after


# ---- tests awaited or planned, specimens, activity, diagnoses set aside


@pytest.mark.parametrize(
    "text, word",
    [
        ("Malignant polyp not excluded until histology.", "histology"),
        ("- Non-contrast CT head to exclude hemorrhage", "Non-contrast CT head"),
        ("- RUQ US to confirm stones", "RUQ US"),
        ("Note: BP, urine PCR, AST/ALT and LDH were never obtained.", "BP"),
        ("P: Await NS1.", "NS1"),
        ("Final diagnosis: latent TB (probable; IGRA/TST results still to be seen)", "TST"),
        ("Ignore the Hb I quoted earlier — no FBC result has actually come back.", "FBC"),
        ("I still have neither the crystal microscopy nor the X-ray.", "X-ray"),
        ("A raised troponin would push me towards hyperbaric oxygen.", "troponin"),
        ("- BCx x2, sputum cx", "sputum"),
        ("A/P: NSAID-induced nephropathy, not a lupus flare.", "lupus"),
        ("The DAT is negative, so this is not autoimmune hemolysis.", "hemolysis"),
        ("The venous lead shows this isn't just a contaminated fingerstick.", "fingerstick"),
        ("So this is lead poisoning and not iron deficiency alone.", "iron deficiency"),
    ],
)
def test_a_test_awaited_planned_or_set_aside_is_not_a_claim(text, word):
    assert blocked_at(text, word) is not None


@pytest.mark.parametrize(
    "text, word",
    [
        ("The histology shows a tubulovillous adenoma.", "histology"),  # controls: stated findings
        ("He was well until 2 days ago when fever started.", "fever"),
        ("She is not a smoker.", "smoker"),
        ("Sputum is green and purulent.", "Sputum"),
    ],
)
def test_stated_findings_stay_claims(text, word):
    assert blocked_at(text, word) is None


# ---- negated relations


@pytest.mark.parametrize(
    "text, word",
    [
        ("Primary psychosis does not explain the dyskinesias or the CSF, and the UDS is negative.", "CSF"),
        ("Haemorrhoids explain the bright red blood but not the FIT.", "FIT"),
        ("This is gallstone pancreatitis; cholecystitis is excluded by the lipase.", "lipase"),
        ("The culture is sterile, so a UTI no longer explains the albuminuria.", "albuminuria"),
        ("Idiopathic hypercalciuria doesn't raise the serum calcium.", "serum calcium"),
    ],
)
def test_a_finding_after_a_negated_relation_is_taken_as_given(text, word):
    assert not _negated(text, word)


@pytest.mark.parametrize(
    "text, word",
    [("No fever or rigors.", "rigors"), ("There is no fever and the CSF is clear.", "fever"), ("He does not smoke or drink.", "drink")],
)
def test_plain_negations_still_negate(text, word):
    assert _negated(text, word)


# ---- one invented finding in other words is one track


def test_an_invented_finding_restated_in_other_words_keeps_one_track():
    result = judge_replies("psych-216-anti-nmdar-encephalitis", "baseline", [
        "Likely anti-NMDAR encephalitis. On review her pupils were dilated.",
        "Anti-NMDAR encephalitis still; the dilated pupils fit autonomic instability.",
        "Final diagnosis: anti-NMDAR encephalitis. Evidence: dilated pupils.",
    ])
    tracks = result.annotations.hallucinations
    assert [(t.first_turn, t.persisted) for t in tracks] == [(1, True)]
    later = [c for c in result.annotations.claims if c.hallucinated and c.turn > 1]
    assert later and all(c.key == tracks[0].key and "follows its track" in c.rule for c in later)


def test_inventions_sharing_only_a_specimen_word_stay_two_tracks():
    from medgym.judges.claim_tracks import _finding_words
    from medgym.judges.results import Claim, Span

    def claim(text: str, item: str) -> Claim:
        return Claim(id="c", turn=1, kind="factual", span=Span(turn=1, text=text), item=item, key=f"fact:{item}:+",
                     status="unsupported", rule="")

    assert not _finding_words(claim("urine shows eosinophils", "term:eosinophils")) & _finding_words(
        claim("urine culture", "term:urine culture"))


# ---- a value of a released sibling fact


def test_a_value_of_a_released_sibling_count_is_supported():
    reply = "Pseudogout. Aspirate turbid, 18,500 WBC, PMN-predominant."
    assert {c.status for c in claims_of("rheum-204-cppd-pseudogout", [reply]) if c.span.text == "18,500"} == {"supported"}


def test_a_value_of_no_released_fact_stays_a_misquote():
    reply = "Pseudogout. Aspirate turbid, WBC 12.5K, PMN-predom."
    assert {c.status for c in claims_of("rheum-204-cppd-pseudogout", [reply]) if c.span.text == "12.5K"} == {"contradicted"}
