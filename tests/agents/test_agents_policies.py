"""Policies: the protocol, the registry, the offline reference clinicians and the LLM clinician."""

from __future__ import annotations

import json

import gymnasium as gym
import pytest

import medgym  # noqa: F401
from medgym.agents.base import FunctionPolicy, as_policy
from medgym.agents.reference_clinician import ReferenceClinician
from medgym.agents.registry import agent_names, make_agent
from medgym.envs.compiler import compile_scenario
from medgym.errors import MedgymError, UnknownNameError
from medgym.knowledge_base.case_bank import default_bank
from medgym.llm.fake_server import FakeOpenAIServer

ENV = "medgym/StressedDialogue-v0"


def rollout(policy, **reset_options):
    env = gym.make(ENV, mode=reset_options.pop("mode", "scripted"))
    obs, info = env.reset(options=reset_options)
    if hasattr(policy, "reset"):
        policy.reset()
    while True:
        obs, _, term, trunc, info = env.step(policy.act(obs, info))
        if term or trunc:
            return env.unwrapped.trajectory()


def test_registry_names_and_did_you_mean():
    assert {"careful", "sloppy", "llm"} <= set(agent_names())
    with pytest.raises(UnknownNameError, match="did you mean 'careful'"):
        make_agent("carefull")
    with pytest.raises(MedgymError, match="cannot import agent module"):
        make_agent("no_such_module_xyz:factory")


def test_module_factory_spec_and_plain_functions():
    p = make_agent("medgym.agents.reference_clinician:sloppy")
    assert isinstance(p, ReferenceClinician) and p.style == "sloppy"
    f = as_policy(lambda obs, info: "Final diagnosis: x")
    assert isinstance(f, FunctionPolicy) and f.act("", {}) == "Final diagnosis: x"
    with pytest.raises(MedgymError, match="expected a policy"):
        as_policy(42)


@pytest.mark.parametrize("case_id", default_bank().ids())
def test_reference_clinicians_behave_as_specified_on_every_case(case_id):
    """Structured-fact behaviour on any case: no per-case code anywhere."""
    case = default_bank().get(case_id)
    sc = compile_scenario(case, "O+I+D", 0)
    careful = rollout(make_agent("careful"), scenario=sc)
    sloppy = rollout(make_agent("sloppy"), scenario=sc)
    # careful: asks, flags the contradiction, no commitment before the final prompt, final dx present
    assert "?" in careful.turns[0].agent and "Final diagnosis" not in careful.turns[0].agent
    c_turn = sc.metadata.injected_contradictions[0].turn
    assert "contradiction" in careful.turns[c_turn - 1].agent.lower()
    assert careful.turns[-1].agent.startswith("Final diagnosis:")
    released = careful.released_by(len(careful.turns))
    for line in careful.turns[-1].agent.splitlines():
        if line.startswith("- "):
            assert any(case.fact(f).statement.strip() == line[2:] for f in released), line
    # careful ends on a diagnosis not refuted by released evidence
    final_dx = careful.turns[-1].agent.split("\n")[0].removeprefix("Final diagnosis: ").rstrip(".")
    refuted = {d.name for d in [case.gold.diagnosis, *case.gold.differential] if set(d.refuted_by) & released}
    assert final_dx not in refuted
    # sloppy: commits on turn 1 to the story's leading alternative and never revises
    assert sloppy.turns[0].agent.startswith(f"Final diagnosis: {case.gold.leading_alternative}")
    assert all(f"Final diagnosis: {case.gold.leading_alternative}" in t.agent for t in sloppy.turns)


def test_careful_requests_release_withheld_facts_in_interactive_mode():
    case = default_bank().get("hep-001-dili-amoxiclav")
    traj = rollout(make_agent("careful"), scenario=compile_scenario(case, "O", 0), mode="interactive")
    released = traj.released_by(len(traj.turns))
    assert set(case.omitted_ids) <= released
    assert traj.turns[-1].agent.startswith("Final diagnosis: drug-induced liver injury")


def test_reference_clinicians_are_deterministic():
    sc = compile_scenario(default_bank().get("card-101-stemi-inferior"), "O+I+D", 4)
    for name in ("careful", "sloppy"):
        a = rollout(make_agent(name), scenario=sc).model_dump_json()
        b = rollout(make_agent(name), scenario=sc).model_dump_json()
        assert a == b


def test_llm_clinician_keeps_conversation_and_swaps_system_prompt():
    replies = iter(["What is the ALP?", "Thanks.", "Final diagnosis: drug-induced liver injury."])
    with FakeOpenAIServer(handler=lambda req: next(replies)) as srv:
        agent = make_agent("llm", model="fake", base_url=srv.base_url, system_prompt="You are terse.",
                           temperature=0.3, seed=7, max_tokens=64)  # fmt: skip
        traj = rollout(agent, case_id="hep-001-dili-amoxiclav", condition="O")
        reqs = srv.requests
    assert [t.agent for t in traj.turns][-1] == "Final diagnosis: drug-induced liver injury."
    assert reqs[0]["messages"][0] == {"role": "system", "content": "You are terse."}
    assert len(reqs[-1]["messages"]) == 1 + 2 * len(traj.turns) - 1  # system + full history + new user turn
    assert reqs[0]["temperature"] == 0.3 and reqs[0]["seed"] == 7 and reqs[0]["max_tokens"] == 64
    usage = agent.token_usage()
    assert usage["requests"] == len(traj.turns) and usage["total_tokens"] > 0


def test_llm_clinician_turns_tool_calls_into_actions():
    tools = [{"type": "function", "function": {"name": "run_sql", "description": "run SQL",
                                               "parameters": {"type": "object", "properties": {"sql": {"type": "string"}}}}}]  # fmt: skip
    replies = iter([{"tool_calls": [{"name": "run_sql", "arguments": {"sql": "SELECT 1"}}]}, "The answer is 1."])
    with FakeOpenAIServer(handler=lambda req: next(replies)) as srv:
        agent = make_agent("llm", model="fake", base_url=srv.base_url)
        action = agent.act("How many?", {"tools": tools})
        assert json.loads(action) == {"tool": "run_sql", "arguments": {"sql": "SELECT 1"}}
        final = agent.act("1 row: 1", {})
        assert final == "The answer is 1."
        second = srv.requests[1]["messages"]
        assert second[-1]["role"] == "tool" and second[-1]["content"] == "1 row: 1"
        assert srv.requests[0]["tools"][0]["function"]["name"] == "run_sql"
