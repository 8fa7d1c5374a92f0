"""Round 76 (session 31; tuned on sets 1-241): the lamotrigine case's interaction as notes write it.

The pool held the gold diagnosis of the lamotrigine case written as "Dx: LTG–COCP interaction", "the pill interaction
remains my working diagnosis", "an interaction with her new combined pill" and "the lamotrigine–pill interaction";
none named a case diagnosis, so the turn was read as naming none, or as another diagnosis. ``dx_name_synonyms`` in
``judges/lexicon.yaml`` now give "LTG" for "lamotrigine" and these wordings for "lamotrigine-oral contraceptive
interaction" (a case alias). On the 242 sets (the 116 lamotrigine
trajectories judged again): 10 decisions fixed, 0 lost. Left open: "Breakthrough seizures — most likely from
estrogen-mediated induction of lamotrigine metabolism", "subtherapeutic lamotrigine 2° COCP".

The tests marked "fails on 01e2aff" fail on the session-30 final judge; the others are controls.
"""

from __future__ import annotations

from rules_support import LTG_FIRST_REPLY, lead_of, second_turn_leader

LTG = "neur-103-lamotrigine-contraceptive"
GOLD = "breakthrough seizures from oestrogen-induced lowering of lamotrigine levels"


def test_the_pill_interaction_names_the_gold_diagnosis():
    assert lead_of(LTG, "27F, JME, two GTCs in three weeks. Working diagnosis: the pill interaction.")[0] == GOLD


def test_a_note_s_ltg_cocp_interaction_names_the_gold_diagnosis():  # fails on 01e2aff
    second = "Urine hCG positive: pregnancy lowers the level further. Dx: LTG–COCP interaction."
    assert second_turn_leader(LTG, "baseline", LTG_FIRST_REPLY, second)[1] == GOLD


def test_an_interaction_with_her_new_combined_pill_names_the_gold_diagnosis():  # fails on 01e2aff
    assert lead_of(LTG, "**Most likely explanation:** an interaction with her new combined pill.")[0] == GOLD


def test_the_written_out_interaction_still_names_it():
    assert lead_of(LTG, "Most likely a lamotrigine-oral contraceptive interaction.")[0] == GOLD
