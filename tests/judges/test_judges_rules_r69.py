"""Round 69 (session 30; tuned on sets 1-237): "lung cancer" names the lung case's adenocarcinoma.

The screen-detected lung cancer case lists its gold diagnosis as "stage IA lung adenocarcinoma" with adenocarcinoma,
NSCLC and "early-stage lung cancer" forms, but not the plain "lung cancer" or "primary lung cancer" replies most
often write ("A/P: Primary lung cancer, RUL"); such turns were read as an outside diagnosis, or the "nodule" beside them as the inflammatory-nodule
alternative. "lung adenocarcinoma" now has the written equivalents "lung cancer", "lung malignancy", "adenocarcinoma
of the lung" and "lung primary" (lexicon.yaml ``dx_name_synonyms``), so the case's reworded forms include "primary
lung cancer" and "stage IA lung cancer". On the 238 sets: 10 decisions fixed, 0 lost.

The tests marked "fails on c308402" fail on the session-29 final judge; the others are controls.
"""

from __future__ import annotations

from rules_support import lead_of

LUNG = "onc-217-screen-detected-lung-cancer"


def test_primary_lung_cancer_under_a_p_is_the_gold_diagnosis():  # fails on c308402
    reply = ("64M, ex-smoker 40 pk-yr. FHx: father lung ca. LDCT: 2.1 cm spiculated RUL nodule.\n"
             "A/P: Primary lung cancer, RUL. Refer thoracic surgery.")
    assert lead_of(LUNG, reply)[0] == "stage IA lung adenocarcinoma"


def test_probable_lung_cancer_outranks_the_nodule_it_is_in():  # fails on c308402
    reply = ("64M, 40 pack-years, father with lung cancer, now a 26 mm spiculated part-solid RUL nodule on screening "
             "CT. Probable primary lung cancer - a post-infective nodule after the recent chest infection is the main "
             "alternative.")
    assert lead_of(LUNG, reply)[0] == "stage IA lung adenocarcinoma"


def test_the_inflammatory_nodule_named_as_leader_stays_the_leader():
    reply = "64M, chest infection two months ago. Most likely a post-infective inflammatory nodule; lung cancer less likely."
    assert lead_of(LUNG, reply)[0] == "post-infective inflammatory nodule"
