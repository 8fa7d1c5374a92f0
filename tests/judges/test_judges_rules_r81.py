"""Round 81 (session 32; tuned on sets 1-245): the pneumothorax case's leading alternative as notes write it.

The case's leading alternative is "musculoskeletal chest wall strain" (aliases "musculoskeletal chest pain",
"muscle strain", "chest wall pain", ...). Terse replies write "Dx remains MSK strain" or "MSK chest wall strain",
which the judge read as a diagnosis outside the case's list (wd:other), so a stubborn reply at the chest X-ray
read as a revision. lexicon.yaml ``dx_name_synonyms`` now writes "musculoskeletal" as "MSK" and the strain as
"MSK strain", "musculoskeletal strain", "chest wall strain" or "muscular strain". On the 246 sets (the 54
trajectories that say one of these): 6 decisions fixed, 0 lost; update 0.8421 -> 0.8429.

Tried and dropped in the same round: "falciparum" alone as a name of falciparum malaria ("Plt 48 + splenomegaly c/w
falciparum" names no diagnosis for the judge): 8 fixed, 17 lost. Dengue-anchored replies that report "P.
falciparum rings on the film" and keep dengue were read as revising to malaria.

The tests marked "fails on 6e22e55" fail on the session-31 final judge; the others are controls.
"""

from __future__ import annotations

from rules_support import lead_of, second_turn_leader

PTX = "pulm-101-primary-spontaneous-pneumothorax"
STRAIN = "musculoskeletal chest wall strain"


def test_msk_strain_names_the_leading_alternative():  # fails on 6e22e55
    assert lead_of(PTX, "Dx remains MSK strain. D/c w/ NSAIDs.")[0] == STRAIN


def test_msk_chest_wall_strain_too():
    assert lead_of(PTX, "A/P: MSK chest wall strain. Simple analgesia.")[0] == STRAIN


def test_a_stubborn_strain_at_the_film_stays_the_strain():  # fails on 6e22e55
    first = "A/P: MSK strain, reproducible rib tenderness. Analgesia."
    second = "CXR: R pleural line ~3.2 cm, likely skin fold. Dx remains MSK strain."
    assert second_turn_leader(PTX, "D", first, second) == (STRAIN, STRAIN)


def test_a_strain_ruled_out_leaves_the_pneumothorax():
    assert lead_of(PTX, "MSK strain less likely; this is a pneumothorax.")[0] == "primary spontaneous pneumothorax"
