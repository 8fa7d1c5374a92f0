"""The offline reference RAG agent and the LLM RAG agent (against a real local OpenAI-compatible server)."""

from __future__ import annotations

import json

import pytest
from langgraph.graph.state import CompiledStateGraph

from medgym.agents.rag_llm import RAGLLMAgent
from medgym.agents.rag_reference import RAGReferenceAgent, compose_answer, probe_terms, run_episode
from medgym.judges.rag_scoring import aggregate
from medgym.llm import LLMClient, LLMConfig, LLMTransportError
from medgym.llm.fake_server import ErrorReply, FakeOpenAIServer


def _play(env, agent, qid):
    obs, info = env.reset(options={"question_id": qid})
    agent.reset()
    actions = []
    while True:
        a = agent.act(obs, info)
        actions.append(json.loads(a))
        obs, _, term, trunc, info = env.step(a)
        if term or trunc:
            return actions, info, term


def test_reference_agent_is_a_compiled_langgraph():
    agent = RAGReferenceAgent()
    assert isinstance(agent.graph, CompiledStateGraph)
    with pytest.raises(TypeError, match="unknown ReferenceConfig field"):
        RAGReferenceAgent(k_serch=3)


def test_reference_agent_pipeline_and_scores(make_env, tiny_kb):
    env = make_env()
    agent = RAGReferenceAgent()
    scores = []
    for qid in sorted(tiny_kb.questions):
        actions, info, term = _play(env, agent, qid)
        assert term, qid
        tools = [a["tool"] for a in actions]
        assert tools[:4] == ["rewrite_query", "search", "rerank", "read_document"], (qid, tools)
        assert tools[-1] == "answer" and len(tools) <= 28
        scores.append(info["scores"])
    summary = aggregate(scores)["metrics"]
    assert summary["map"]["mean"] >= 0.9
    assert summary["conflict_handling"]["mean"] == 1.0
    assert summary["abstention"]["mean"] == 1.0
    assert summary["citation_precision"]["mean"] >= 0.9
    assert summary["answer_correctness"]["mean"] >= 0.7


def test_reference_agent_handles_conflicts_from_metadata(make_env):
    env = make_env()
    agent = RAGReferenceAgent()
    actions, info, _ = _play(env, agent, "q-t-004")
    ans = actions[-1]["arguments"]
    assert "supersedes" in ans["text"] and "card-gl-hf-2024" in ans["cited_ids"]
    assert "card-gl-hf-2016" not in ans["cited_ids"]
    actions, info, _ = _play(env, agent, "q-t-005")
    ans = actions[-1]["arguments"]
    assert ans["text"].startswith("The sources disagree")
    assert set(ans["cited_ids"]) == {"card-gl-htn-nbcs-2023", "card-gl-htn-ehc-2022"}


def test_reference_agent_abstains_and_probes_unknown_terms(make_env):
    env = make_env()
    actions, info, _ = _play(env, RAGReferenceAgent(), "q-t-006")
    assert actions[-1]["arguments"]["cited_ids"] == []
    assert "does not contain" in actions[-1]["arguments"]["text"]
    probes = [a for a in actions if a["tool"] == "search" and a["arguments"].get("mode") == "lexical"]
    assert probes and all(len(p["arguments"]["query"].split()) == 1 for p in probes)


def test_reference_agent_is_deterministic(make_env):
    env = make_env()
    a1, *_ = _play(env, RAGReferenceAgent(), "q-t-003")
    a2, *_ = _play(env, RAGReferenceAgent(), "q-t-003")
    assert a1 == a2


def test_run_episode_helper(make_env):
    info = run_episode(make_env(), RAGReferenceAgent(), options={"question_id": "q-t-007"})
    assert info["terminated"] and info["scores"]["metrics"]["answer_correctness"] == 1.0


def test_probe_terms_skip_general_words_and_known_stems():
    docs = [{"title": "Menopause", "text": "Hormone therapy for menopause symptoms."}]
    assert probe_terms("Is teprotumumab appropriate for menopausal women recovering?", docs) == ["teprotumumab", "appropriate"]


def test_compose_answer_prefers_higher_evidence_over_leaflet():
    from medgym.agents.rag_reference import ReferenceConfig

    docs = [
        {"id": "leaf", "title": "Sunscreen", "text": "Any sunscreen with an SPF of 15 gives all the protection you need.",
         "source_type": "patient_leaflet", "evidence_level": "not_applicable", "issuing_body": "Trust", "publication_year": 2015},
        {"id": "gl", "title": "Sun protection", "text": "Use a sunscreen with an SPF of at least 30 and reapply every 2 hours.",
         "source_type": "guideline", "evidence_level": "A", "issuing_body": "Society", "publication_year": 2023},
    ]
    ans = compose_answer("What SPF sunscreen should be used?", docs, {"leaf": 0.8, "gl": 0.75}, ReferenceConfig())
    assert ans.cited == ["gl"] and "leaflet" in ans.text and "SPF of at least 30" in ans.text


# ------------------------------------------------------------------ LLM agent
def _client(srv, **kw):
    params = {"base_url": srv.base_url, "model": "fake-agent", "timeout": 3.0, "backoff_base": 0.01,
              "backoff_max": 0.02, "max_retries": 1}
    params.update(kw)
    return LLMClient(LLMConfig(**params))


def test_llm_agent_drives_the_tools_over_http(make_env):
    script = [
        {"content": None, "tool_calls": [{"name": "search", "arguments": {"query": "warfarin INR mechanical valve", "k": 3}}]},
        {"content": None, "tool_calls": [{"name": "read_document", "arguments": {"id": "heme-dm-warfarin"}}]},
        {"content": None, "tool_calls": [{"name": "answer", "arguments": {
            "text": "A higher target INR of 3.0, range 2.5 to 3.5, applies to mechanical mitral valves.",
            "cited_ids": ["heme-dm-warfarin"]}}]},
    ]
    with FakeOpenAIServer(replies=script) as srv:
        agent = RAGLLMAgent(client=_client(srv))
        actions, info, term = _play(make_env(), agent, "q-t-002")
        reqs = srv.requests
    assert term and [a["tool"] for a in actions] == ["search", "read_document", "answer"]
    assert info["scores"]["metrics"]["answer_correctness"] == 1.0
    assert [t["function"]["name"] for t in reqs[0]["tools"]] == ["rewrite_query", "search", "rerank", "read_document", "answer"]
    assert reqs[1]["messages"][-1]["role"] == "tool" and "heme-dm-warfarin" in reqs[1]["messages"][-1]["content"]
    assert "q-t-002" in reqs[0]["messages"][1]["content"]
    assert agent.token_usage()["requests"] == 3


def test_llm_agent_text_reply_becomes_an_answer_with_bracket_citations(make_env):
    with FakeOpenAIServer(replies=["The preferred reliever is as-needed ICS-formoterol [pulm-gl-asthma-2023]."]) as srv:
        actions, info, term = _play(make_env(), RAGLLMAgent(client=_client(srv)), "q-t-007")
    assert term and actions[-1] == {"tool": "answer", "arguments": {
        "text": "The preferred reliever is as-needed ICS-formoterol [pulm-gl-asthma-2023].", "cited_ids": ["pulm-gl-asthma-2023"]}}


def test_llm_agent_forces_an_answer_before_the_budget(make_env):
    def handler(body):
        if body.get("tool_choice"):
            return {"content": None, "tool_calls": [{"name": "answer", "arguments": {"text": "Not in the knowledge base.", "cited_ids": []}}]}
        return {"content": None, "tool_calls": [{"name": "search", "arguments": {"query": "yellow fever"}}]}

    with FakeOpenAIServer(handler=handler) as srv:
        actions, info, term = _play(make_env(), RAGLLMAgent(client=_client(srv), max_steps=5), "q-t-006")
        forced = [r for r in srv.requests if r.get("tool_choice")]
    assert term and len(actions) == 4 and actions[-1]["tool"] == "answer"
    assert forced and forced[0]["tool_choice"]["function"]["name"] == "answer"


def test_llm_agent_bad_arguments_reach_the_env_as_tool_errors(make_env):
    script = [
        {"content": None, "tool_calls": [{"name": "read_document", "arguments": "{not json"}]},
        {"content": None, "tool_calls": [{"name": "answer", "arguments": {"text": "No.", "cited_ids": []}}]},
    ]
    env = make_env()
    with FakeOpenAIServer(replies=script) as srv:
        agent = RAGLLMAgent(client=_client(srv))
        obs, info = env.reset(options={"question_id": "q-t-008"})
        obs, *_ = env.step(agent.act(obs, info))
        assert json.loads(obs)["ok"] is False
        env.step(agent.act(obs, {}))
        assert srv.requests[1]["messages"][-1]["role"] == "tool"


def test_llm_agent_transport_failure_propagates(make_env):
    env = make_env()
    with FakeOpenAIServer(handler=lambda body: ErrorReply(500, "down")) as srv:
        agent = RAGLLMAgent(client=_client(srv, max_retries=0))
        obs, info = env.reset(options={"question_id": "q-t-001"})
        with pytest.raises(LLMTransportError):
            agent.act(obs, info)
