"""The LLM SQL agent and the LLM interpretation judge, over a real local OpenAI-compatible server."""

from __future__ import annotations

import json
import math

import gymnasium as gym
import pytest

import medgym  # noqa: F401
from medgym.agents.sql_llm import SQLLLMAgent
from medgym.envs.data_agent.evaluate import make_judged_env, run_episode
from medgym.envs.data_agent.tools import tool_call
from medgym.judges.data_agent_wrapper import DataAgentJudge
from medgym.llm import LLMClient, LLMConfig
from medgym.llm.fake_server import FakeOpenAIServer

SQL_FOR = {
    "How many patients are in the database?": "SELECT COUNT(*) FROM patients",
    "How many of them are female?": "SELECT COUNT(*) FROM patients WHERE sex = 'F'",
    "How many patients were born before 1950-01-01?": "SELECT COUNT(*) FROM patients WHERE birth_date < '1950-01-01'",
    "How many patients have a recorded date of death?": "SELECT COUNT(*) FROM patients WHERE death_date IS NOT NULL",
}


def scripted_model(body: dict) -> dict:
    """A tiny 'model': run_sql for a new question, then answer from the last result."""
    msgs = body["messages"]
    last = msgs[-1]
    if last["role"] == "user":
        question = next((q for q in SQL_FOR if q in last["content"]), None)
        if question is None:
            return {"content": "The database does not contain that; unanswerable."}
        return {"tool_calls": [{"name": "run_sql", "arguments": {"sql": SQL_FOR[question]}}]}
    if last["role"] == "tool":
        return {"tool_calls": [{"name": "answer", "arguments": {"text": "Counted with SQL."}}]}
    return {"content": "?"}


def client_for(srv: FakeOpenAIServer, **kw) -> LLMClient:
    return LLMClient(LLMConfig(model="fake", base_url=srv.base_url, max_retries=kw.pop("max_retries", 1),
                               backoff_base=0.01, timeout=10, **kw))


def test_llm_agent_plays_an_episode_through_real_http():
    with FakeOpenAIServer(handler=scripted_model) as srv:
        agent = SQLLLMAgent(client=client_for(srv))
        env = make_judged_env()
        try:
            rec = run_episode(env, agent, "demographics_01")
        finally:
            env.close()
        reqs = srv.requests
    assert rec["status"] == "ok" and rec["success"] and rec["accuracy"] == 1.0, rec
    assert rec["usage"]["requests"] == len(reqs) == 8
    names = [t["function"]["name"] for t in reqs[0]["tools"]]
    assert names == ["list_tables", "describe_table", "run_sql", "search_notes", "answer"]
    msgs = reqs[-1]["messages"]
    assert msgs[0]["role"] == "system" and "read-only SQL" in msgs[0]["content"]
    calls = {tc["id"] for m in msgs if m["role"] == "assistant" for tc in m.get("tool_calls") or []}
    answered = {m["tool_call_id"] for m in msgs if m["role"] == "tool"}
    assert answered <= calls and len(answered) == 7
    users = [m["content"] for m in msgs if m["role"] == "user"]
    assert users[1:] == list(SQL_FOR)[1:]  # each later question arrives as its own user turn


def test_plain_text_reply_becomes_an_answer_and_unanswerable_flag():
    replies = [
        "There are 200 patients.",  # round 1, plain text -> answer (text fallback)
        {"tool_calls": [{"name": "answer", "arguments": {"text": "x", "values": [[95]]}}]},
        {"tool_calls": [{"name": "run_sql", "arguments": {"sql": "SELECT COUNT(*) FROM patients WHERE "
                                                                 "birth_date < '1950-01-01'"}}]},
        {"tool_calls": [{"name": "answer", "arguments": {"text": "x"}}]},
        "This is not recorded in the database, so it is unanswerable.",  # wrong: round 4 is answerable
    ]
    with FakeOpenAIServer(replies=replies) as srv:
        env = make_judged_env()
        try:
            rec = run_episode(env, SQLLLMAgent(client=client_for(srv)), "demographics_01")
            traj = env.unwrapped.trajectory()
        finally:
            env.close()
    assert [r["correct"] for r in rec["rounds"]] == [True, True, True, False]
    assert traj.rounds[0].answer.source == "text"
    assert traj.rounds[3].answer.unanswerable


def test_forced_answer_after_the_round_budget():
    loop = {"tool_calls": [{"name": "list_tables", "arguments": {}}]}

    def handler(body):
        if body.get("tool_choice"):
            return {"tool_calls": [{"name": "answer", "arguments": {"text": "giving up", "values": []}}]}
        return loop

    with FakeOpenAIServer(handler=handler) as srv:
        agent = SQLLLMAgent(client=client_for(srv), max_steps_per_round=3)
        env = make_judged_env()
        try:
            rec = run_episode(env, agent, "demographics_01")
        finally:
            env.close()
        forced = [r for r in srv.requests if r.get("tool_choice")]
    assert rec["status"] == "ok" and rec["steps"] == 12 and len(forced) == 4
    assert forced[0]["tool_choice"] == {"type": "function", "function": {"name": "answer"}}


def test_transport_failure_is_an_error_not_a_score():
    with FakeOpenAIServer(faults=["500"] * 10) as srv:
        env = make_judged_env()
        try:
            rec = run_episode(env, SQLLLMAgent(client=client_for(srv, max_retries=1)), "demographics_01")
        finally:
            env.close()
    assert rec["status"] == "error" and "LLMTransportError" in rec["error"]
    assert "accuracy" not in rec


def test_interpretation_judge_scores_text():
    verdict = json.dumps({"score": 0.75, "explanation": "states the count"})
    with FakeOpenAIServer(replies=[verdict], cycle=True) as srv:
        env = DataAgentJudge(gym.make("medgym/DataAgent-v0"), interpretation_judge=True,
                             weights={"execution_accuracy": 1.0, "interpretation": 1.0}, client=client_for(srv))
        try:
            env.reset(options={"task_id": "demographics_01"})
            env.step(tool_call("run_sql", sql="SELECT COUNT(*) FROM patients"))
            _o, r, _t, _tr, info = env.step(tool_call("answer", text="There are 200 patients."))
        finally:
            env.close()
        prompt = srv.requests[0]["messages"][1]["content"]
    assert info["round_score"]["interpretation"]["score"] == 0.75 and r == 1.75
    assert "How many patients are in the database?" in prompt and "[[200]]" in prompt


def test_interpretation_judge_failure_is_unscored():
    with FakeOpenAIServer(faults=["500"] * 20) as srv:
        env = DataAgentJudge(gym.make("medgym/DataAgent-v0"), interpretation_judge=True,
                             weights={"execution_accuracy": 1.0, "interpretation": 0.5},
                             client=client_for(srv, max_retries=0))
        try:
            env.reset(options={"task_id": "demographics_01"})
            env.step(tool_call("run_sql", sql="SELECT COUNT(*) FROM patients"))
            _o, r, _t, _tr, info = env.step(tool_call("answer", text="There are 200 patients."))
        finally:
            env.close()
    interp = info["round_score"]["interpretation"]
    assert interp["status"] == "unscored" and math.isnan(interp["score"])
    assert info["round_score"]["correct"]  # the deterministic metrics are unaffected
    assert math.isnan(r) and info["reward_status"] == "unscored"


@pytest.mark.parametrize("weights", [None, {"execution_accuracy": 1.0}])
def test_judge_failure_without_weight_keeps_reward(weights):
    with FakeOpenAIServer(faults=["500"] * 20) as srv:
        env = DataAgentJudge(gym.make("medgym/DataAgent-v0"), interpretation_judge=True, weights=weights,
                             client=client_for(srv, max_retries=0))
        try:
            env.reset(options={"task_id": "demographics_01"})
            _o, r, _t, _tr, info = env.step(tool_call("answer", text="200", values=[[200]]))
        finally:
            env.close()
    assert r == 1.0 and info["reward_status"] == "ok"
    assert info["round_score"]["interpretation"]["status"] == "unscored"
