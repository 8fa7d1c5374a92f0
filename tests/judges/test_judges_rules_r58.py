"""Round 58 (session 24; tuned on sets 1-201 after 198-201 were scored once, while 202-205 were unopened).

The 198-201 scoring left update at 0.823 over all classes: the judge reads "no diagnosis" on 217 turns of the
tuning sets where the labels read one on 174, and the labels use that class only 51 times, so each false
"none" weighs on a class the labels hardly use. Most of those turns name the diagnosis; the judge either read
the name as excluded or did not know the name. Each change below was measured on all 202 sets (3413
trajectories).

- A stance cue belongs to the nearest name on its side of a coordinator: "a UTI is now unlikely to be the
  explanation and diabetic kidney disease remains the working diagnosis", "TTP is now my working diagnosis and
  ITP is effectively excluded", "which makes TTP the most likely diagnosis and ITP unlikely", "That fits
  hypophysitis and makes metastatic disease unlikely", "Falciparum malaria — dengue much less likely now",
  "metastatic disease is effectively ruled out and hypophysitis remains the most likely diagnosis". Names joined
  as a list still share one cue ("GBS and myelitis are unlikely").
- A shorter form of a held name, excluded, does not withdraw it: "this fits euDKA rather than classic DKA",
  "chronic lithium toxicity remains my working diagnosis ... not a feature of lithium toxicity".
- Written equivalents inside diagnosis names: "Still IDA" (isolated iron deficiency anaemia), "Still active pulm
  TB", "Still threatened AB", "Still drug-induced hyperK", "Still COPD from smoking" (the case lists "COPD due to
  smoking"); a relative's condition ("Grandmother w/ pulm TB") is family history, not a hypothesis.
- A long phrase on a "Final diagnosis" line clearly closest to one case diagnosis by meaning names it even below
  the usual similarity threshold ("Breakthrough generalised seizures in juvenile myoclonic epilepsy due to
  ethinylestradiol-induced reduction in lamotrigine levels"); elsewhere the looser reading took case summaries.

Fourteen tests fail on the session-23 judge (62b39a2); the other nine are controls ("Still active pulm TB" was
already read right by meaning).
"""

from __future__ import annotations

import pytest
from rules_support import claims_of, lead_of

TTP = "hema-102-immune-ttp"
DKD = "neph-103-diabetic-kidney-disease"
HYPO = "onc-218-ici-hypophysitis"
MALARIA = "id-203-falciparum-malaria"
DKA = "endo-102-euglycaemic-dka-sglt2"
LITHIUM = "psych-215-lithium-toxicity"
LEAD = "peds-210-lead-poisoning"
LTBI = "id-202-latent-tb"
AATD = "pulm-103-alpha1-antitrypsin-deficiency"
ECTOPIC = "obgyn-208-ectopic-pregnancy"
HYPERK = "neph-102-drug-induced-hyperkalaemia"
LTG = "neur-103-lamotrigine-contraceptive"
PTX = "pulm-101-primary-spontaneous-pneumothorax"



# ---- a stance cue belongs to the nearest name on its side of a coordinator


@pytest.mark.parametrize(
    "case, reply",
    [
        (DKD, "No significant growth on the culture, so a urinary tract infection is now unlikely to be the "
              "explanation and diabetic kidney disease remains the working diagnosis."),
        (TTP, "The film shows numerous schistocytes. **TTP is now my working diagnosis** and ITP is effectively "
              "excluded."),
        (TTP, "The film shows numerous schistocytes, which makes TTP the most likely diagnosis and ITP unlikely."),
        (HYPO, "The MRI shows a thickened stalk and no brain metastases. That fits hypophysitis and makes "
               "metastatic disease unlikely."),
        (HYPO, "The MRI shows no brain metastases, so metastatic disease is effectively ruled out and hypophysitis "
               "remains the most likely diagnosis."),
        (MALARIA, "Films: P. falciparum rings, 1.2% parasitaemia. Falciparum malaria — dengue much less likely now."),
        (MALARIA, "The film confirms falciparum. This is uncomplicated falciparum malaria and dengue is effectively "
                  "excluded."),
    ],
)
def test_an_exclusion_of_the_other_name_leaves_the_held_one(case, reply):
    assert lead_of(case, reply)[1] == "gold"


@pytest.mark.parametrize(
    "case, reply",
    [
        (TTP, "The film is not microangiopathic, so TTP and DIC are unlikely; ITP is the working diagnosis."),
        (DKD, "A urinary tract infection and diabetic kidney disease are both unlikely to explain this alone."),
        (MALARIA, "Falciparum malaria — unlikely with a negative film."),
    ],
)
def test_names_in_a_list_still_share_their_exclusion(case, reply):
    lead, role = lead_of(case, reply)
    assert role != "gold", (lead, role)


@pytest.mark.parametrize(
    "case, reply",
    [
        (DKA, "BG 14 is only modestly up, so this fits euDKA rather than classic DKA. Pls send serum BHB."),
        (LITHIUM, "The lithium of 2.6 mmol/L is well into the toxic range, and chronic lithium toxicity remains my "
                  "working diagnosis. Lateralising signs are not a feature of lithium toxicity."),
    ],
)
def test_a_shorter_form_excluded_does_not_withdraw_the_held_name(case, reply):
    assert lead_of(case, reply)[1] == "gold"


def test_the_held_name_itself_excluded_is_still_withdrawn():
    lead, role = lead_of(LITHIUM, "Lithium toxicity is unlikely with a level of 0.8; this is not lithium toxicity.")
    assert role != "gold", (lead, role)


# ---- written equivalents inside diagnosis names; a relative's condition


@pytest.mark.parametrize(
    "case, reply",
    [
        (LEAD, "Venous lead 27. Still IDA. Continue iron."),
        (LTBI, "CXR neg. Still active pulm TB given wt loss. Pls send sputum AFB x3."),
        (ECTOPIC, "hCG only 1200, below the discriminatory zone. Still threatened AB. Repeat hCG in 48h pls."),
        (AATD, "AAT 0.3 g/L — low, likely MZ. Still COPD from smoking (25 pk-yr)."),
    ],
)
def test_a_written_equivalent_names_the_leading_alternative(case, reply):
    assert lead_of(case, reply)[1] == "differential"


def test_hyperk_shorthand_names_the_gold():
    assert lead_of(HYPERK, "VBG K 6.3. Still drug-induced hyperK — true, not spurious.")[1] == "gold"


def test_what_a_relative_saw_is_the_patient_s_history():
    # the control for the family-history reading: "mom has seen him eat paint chips" is about the child
    claims = claims_of(LEAD, ["Mom has seen him eat paint chips and soil. Lead poisoning is likely."])
    assert any("paint chips" in c.span.text for c in claims), [(c.span.text, c.item) for c in claims]


def test_a_relative_s_condition_is_family_history_not_a_hypothesis():
    lead, role = lead_of(
        LTBI, "31M RN. Grandmother w/ pulm TB (household, age 12). QuantiFERON +, CXR clear. A/P: LTBI."
    )
    assert role == "gold", (lead, role)


# ---- a long phrase clearly closest to one case diagnosis


def test_a_long_final_diagnosis_phrase_names_the_case_diagnosis_it_means():
    lead, role = lead_of(
        LTG,
        "Final diagnosis: Breakthrough generalised seizures in juvenile myoclonic epilepsy due to "
        "ethinylestradiol-induced reduction in lamotrigine levels",
    )
    assert role == "gold", (lead, role)


def test_a_phrase_between_two_case_diagnoses_names_neither_by_the_margin_rule():
    # the control: a phrase equally near two diagnoses stays unmatched by meaning (an outside name or none)
    lead, role = lead_of(LTG, "Final diagnosis: seizures.")
    assert role != "gold", (lead, role)


def test_a_case_summary_is_not_read_as_a_diagnosis_by_the_looser_reading():
    # the control: the looser reading is for "Final diagnosis" lines only; a summary under a heading keeps its
    # claims ("Young, tall, thin smoker (BMI 18.9) ..." had been matched to the gold and its claims dropped)
    reply = (
        "## Assessment\nYoung, tall, thin smoker (BMI 18.9) with sudden right pleuritic chest pain at rest.\n\n"
        "**Most likely diagnosis:** primary spontaneous pneumothorax."
    )
    claims = claims_of(PTX, [reply])
    assert any("18.9" in c.span.text for c in claims), [(c.span.text, c.item) for c in claims]
