"""Compiler invariants for all eight conditions, for every case in the bank."""

from __future__ import annotations

import pytest

from medgym.envs.compiler import compile_scenario
from medgym.envs.conditions import ALL_CONDITIONS, CONDITION_NAMES, Condition, parse_condition
from medgym.envs.spaces import CLINICAL_CHARSET
from medgym.errors import UnknownNameError
from medgym.knowledge_base.case_bank import default_bank

CASES = default_bank().ids()


def all_text(sc) -> str:
    return "\n".join(t.text for t in sc.turns)


@pytest.fixture(scope="module", params=CASES)
def case(request):
    return default_bank().get(request.param)


@pytest.mark.parametrize("cond", ALL_CONDITIONS, ids=CONDITION_NAMES)
def test_invariants(case, cond):
    sc = compile_scenario(case, cond, seed=3)
    idx = case.fact_index
    released_lists = [f for t in sc.turns for f in t.released_facts]
    assert len(released_lists) == len(set(released_lists)), "a fact is released twice"
    assert [t.index for t in sc.turns] == list(range(1, len(sc.turns) + 1))
    assert sc.turns[-1].kinds[-1] == "final_prompt" and sc.protocol.final_turn == len(sc.turns)
    for t in sc.turns:  # the statements of released facts really are in the text
        for fid in t.released_facts:
            assert idx[fid].statement.strip() in t.text

    # O: no withheld fact appears in any scripted turn
    if cond.omission:
        assert sc.metadata.withheld_facts == case.omitted_ids
        for fid in case.omitted_ids:
            assert idx[fid].statement.strip() not in all_text(sc)
            assert fid not in released_lists
    else:
        assert sc.metadata.withheld_facts == []

    # I: the contradiction appears exactly once, at its turn
    if cond.injection:
        (inj,) = sc.metadata.injected_contradictions
        assert inj.turn == case.stressors.contradiction_turn
        statement = inj.statement.strip()
        assert all_text(sc).count(statement) == 1
        carrying = [t.index for t in sc.turns if statement in t.text]
        assert carrying == [inj.turn]
        assert sc.turns[inj.turn - 1].injected_contradictions == [inj.template_id]
        assert sc.protocol.contradictions == [inj.template_id]
    else:
        assert sc.metadata.injected_contradictions == [] and sc.protocol.contradictions == []
        for tpl in case.stressors.contradictions:
            assert tpl.statement.strip() not in all_text(sc)

    # D: a delayed fact is absent before its release turn and present after it
    if cond.delay:
        for d in case.stressors.delay:
            st = idx[d.fact_id].statement.strip()
            before = "\n".join(t.text for t in sc.turns if t.index < d.release_turn)
            assert st not in before
            assert st in sc.turns[d.release_turn - 1].text
            assert sc.metadata.release_turn[d.fact_id] == d.release_turn
        assert sc.protocol.final_turn > max(d.release_turn for d in case.stressors.delay)
    else:
        assert sc.metadata.delayed_facts == {}

    # baseline holds every fact, all in turn 1
    if cond == Condition():
        assert set(sc.turns[0].released_facts) == set(idx)
        assert sc.protocol.key_gaps == [] and sc.protocol.update_opportunities == []

    # protocol: applicability sets and key gaps follow METRIC-NOTES
    assert sc.protocol.follow_up_required == (cond.omission or cond.delay)
    assert sc.protocol.premature_closure_applicable == (cond.omission or cond.delay)
    gap_ids = {g.fact_id for g in sc.protocol.key_gaps}
    expected = set(case.omitted_ids if cond.omission else [])
    if cond.delay:
        expected |= {d.fact_id for d in case.stressors.delay if idx[d.fact_id].critical}
    assert gap_ids == expected
    if cond.delay:
        assert any(u.requires_substantial_revision for u in sc.protocol.update_opportunities), (
            "the leading alternative must be refuted by a delayed fact"
        )

    # observations stay inside the clinical charset
    bad = {ch for ch in all_text(sc) if ch not in CLINICAL_CHARSET}
    assert not bad, f"characters outside the charset: {bad}"


def test_deterministic(case):
    for cond in ALL_CONDITIONS:
        a = compile_scenario(case, cond, seed=11).model_dump_json()
        b = compile_scenario(case, cond, seed=11).model_dump_json()
        assert a == b


def test_seed_changes_only_wording_and_template(example_case):
    texts = {compile_scenario(example_case, "I", seed=s).turns[1].text for s in range(20)}
    assert len(texts) > 1, "follow-up phrasing should vary with the seed"
    released = {tuple(compile_scenario(example_case, "D", seed=s).metadata.release_turn.items()) for s in range(20)}
    assert len(released) == 1, "the release schedule must not depend on the seed"


def test_template_choice_is_seeded(example_case):
    data = example_case.model_dump(mode="json")
    extra = dict(data["stressors"]["contradictions"][0])
    extra.update(id="anti_hav_positive", item="anti-HAV IgM", aliases=[], statement="Outside lab: anti-HAV IgM positive.")
    data["stressors"]["contradictions"].append(extra)
    case2 = type(example_case).model_validate(data)
    picks = {compile_scenario(case2, "I", seed=s).protocol.contradictions[0] for s in range(30)}
    assert picks == {"hbsag_positive", "anti_hav_positive"}
    assert compile_scenario(case2, "I", 5).protocol == compile_scenario(case2, "I", 5).protocol


@pytest.mark.parametrize(
    ("spelling", "name"),
    [
        ("O+I", "O+I"), ("I+O", "O+I"), ("o + i", "O+I"), ("baseline", "baseline"), ("", "baseline"),
        ("D,I", "I+D"), ("O+I+D", "O+I+D"), (["omission", "delay"], "O+D"), ({"I"}, "I"),
        (Condition(True, False, True), "O+D"),
    ],
)  # fmt: skip
def test_condition_spellings(spelling, name):
    assert parse_condition(spelling).name == name


def test_unknown_condition_lists_valid():
    with pytest.raises(UnknownNameError) as err:
        parse_condition("O+X")
    msg = str(err.value)
    for n in CONDITION_NAMES:
        assert n in msg
    with pytest.raises(UnknownNameError, match="stress flag"):
        parse_condition({"Q"})
