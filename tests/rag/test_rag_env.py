"""``medgym/RAGAgent-v0``: gymnasium contract, tools, bad input, termination, trajectories."""

from __future__ import annotations

import json

import gymnasium as gym
import pytest
from gymnasium.utils.env_checker import check_env

from medgym.envs.rag.tools import TOOL_NAMES, tool_call
from medgym.envs.rag.trajectory import RAGTrajectory
from medgym.errors import EpisodeStateError, MedgymError, TrajectoryFormatError, UnknownNameError
from medgym.knowledge_base.rag.filters import FILTER_KEYS


def _step(env, action):
    obs, reward, term, trunc, info = env.step(action)
    assert env.observation_space.contains(obs)
    return json.loads(obs), reward, term, trunc, info


def test_check_env_and_registration(make_env):
    env = make_env()
    assert env.spec.id == "medgym/RAGAgent-v0" and env.spec.max_episode_steps == 30
    check_env(env.unwrapped, skip_render_check=True)


def test_reset_publishes_tools_and_hides_gold(make_env):
    env = make_env()
    obs, info = env.reset(seed=3)
    data = json.loads(obs)
    assert data["type"] == "question" and data["question_id"] in env.unwrapped.kb.questions
    names = [t["function"]["name"] for t in info["tools"]]
    assert names == TOOL_NAMES == ["rewrite_query", "search", "rerank", "read_document", "answer"]
    search = info["tools"][1]["function"]["parameters"]
    assert set(search["properties"]["filters"]["properties"]) == set(FILTER_KEYS)
    text = obs + json.dumps(info)
    q = env.unwrapped.kb.questions[data["question_id"]]
    assert q.gold_answer not in text and "relevant" not in info and q.type.value not in json.dumps(info)
    # fresh containers every reset
    _, info2 = env.reset(seed=3)
    assert info2["tools"] is not info["tools"] and info2["tools"] == info["tools"]


def test_seeded_question_choice_is_reproducible(make_env):
    a, b = make_env(), make_env()
    picks_a = [json.loads(a.reset(seed=s)[0])["question_id"] for s in range(6)]
    picks_b = [json.loads(b.reset(seed=s)[0])["question_id"] for s in range(6)]
    assert picks_a == picks_b and len(set(picks_a)) > 1


def test_tools_happy_path_and_scores(make_env):
    env = make_env()
    env.reset(options={"question_id": "q-t-004"})
    obs, *_ = _step(env, tool_call("rewrite_query", query="SGLT2 in HFrEF"))
    assert "heart failure with reduced ejection fraction" in obs["result"]["rewritten"]
    obs, *_ = _step(env, tool_call("search", query="SGLT2 inhibitor heart failure", k=4, filters={"year_min": 2020}))
    res = obs["result"]["results"]
    assert 1 <= len(res) <= 4 and all(r["publication_year"] >= 2020 for r in res)
    assert {"id", "title", "source_type", "issuing_body", "publication_year", "evidence_level", "snippet"} <= set(res[0])
    obs, *_ = _step(env, tool_call("rerank", query="SGLT2 heart failure", doc_ids=["card-gl-hf-2016", "card-gl-hf-2024"]))
    assert [r["id"] for r in obs["result"]["results"]][0] == "card-gl-hf-2024"
    obs, *_ = _step(env, tool_call("read_document", id="card-gl-hf-2016"))
    assert obs["result"]["superseded_by"] == ["card-gl-hf-2024"] and "SGLT2" in obs["result"]["text"]
    text = "The 2024 guideline supersedes the 2016 one and recommends dapagliflozin or empagliflozin for all patients."
    obs, reward, term, trunc, info = _step(env, tool_call("answer", text=text, cited_ids=["card-gl-hf-2024"]))
    assert term and not trunc and reward == 0.0 and obs["type"] == "episode_end"
    m = info["scores"]["metrics"]
    assert m["conflict_handling"] == 1.0 and m["citation_precision"] == 1.0 and m["map"] > 0.5
    with pytest.raises(EpisodeStateError):
        env.step(tool_call("search", query="x"))


@pytest.mark.parametrize(
    ("action", "needle"),
    [
        ("not json at all", "could not parse"),
        (json.dumps([1, 2]), "JSON object"),
        (json.dumps({"arguments": {}}), "'tool' field"),
        (tool_call("serch", query="x"), "did you mean 'search'"),
        (tool_call("search", query=""), "empty"),
        (tool_call("search", query="x", k=50), "k:"),
        (tool_call("search", query="x", filters={"year": 2020}), "year"),
        (tool_call("search", query="x", mode="semantic"), "mode"),
        (tool_call("read_document", id="card-gl-hf-2042"), "unknown document 'card-gl-hf-2042'; did you mean"),
        (tool_call("read_document"), "id: required"),
        (tool_call("rerank", query="x", doc_ids=["nope-doc"]), "unknown document"),
        (tool_call("rerank", query="x", doc_ids=[]), "doc_ids"),
        (json.dumps({"tool": "search", "arguments": "{bad"}), "not valid JSON"),
        (json.dumps({"tool": "search", "query": "x"}), "under 'arguments'"),
        ("x" * 25_000, "too long"),
    ],
)
def test_bad_actions_are_tool_errors_and_the_episode_goes_on(make_env, action, needle):
    env = make_env()
    env.reset(options={"question_id": "q-t-001"})
    obs, reward, term, trunc, info = _step(env, action)
    assert obs["type"] == "tool_error" and obs["ok"] is False and needle in obs["error"], obs
    assert not term and not trunc and reward == 0.0 and needle in info["tool_error"]
    obs, *_ = _step(env, tool_call("search", query="metformin"))
    assert obs["ok"] is True


def test_non_string_action_is_a_tool_error(make_env):
    env = make_env()
    env.reset(options={"question_id": "q-t-001"})
    obs, *_ = env.unwrapped.step({"tool": "search"})
    assert "must be a str" in json.loads(obs)["error"]


def test_openai_shaped_actions_are_accepted(make_env):
    env = make_env()
    env.reset(options={"question_id": "q-t-001"})
    obs, *_ = _step(env, json.dumps({"name": "search", "arguments": json.dumps({"query": "metformin eGFR"})}))
    assert obs["ok"] and obs["result"]["results"][0]["id"] == "endo-dm-metformin"
    obs, *_ = _step(env, json.dumps({"type": "function", "function": {"name": "read_document", "arguments": {"id": "endo-dm-metformin"}}}))
    assert obs["ok"] and obs["result"]["id"] == "endo-dm-metformin"


def test_ten_thousand_character_query_is_truncated_not_fatal(make_env):
    env = make_env()
    env.reset(options={"question_id": "q-t-001"})
    q = ("metformin eGFR contraindication " * 400)[:10_000]
    obs, *_ = _step(env, tool_call("search", query=q, k=3))
    assert obs["ok"] and obs["result"]["truncated"] is True and len(obs["result"]["query"]) <= 1000
    assert "cut" in obs["result"]["note"]


def test_unknown_citations_are_recorded_and_count_against_precision(make_env):
    env = make_env()
    env.reset(options={"question_id": "q-t-001"})
    text = "Metformin is contraindicated when the eGFR is below 30 mL/min/1.73 m2."
    obs, _, term, _, info = _step(env, tool_call("answer", text=text, cited_ids=["endo-dm-metformin", "made-up-doc"]))
    assert term and obs["result"]["unknown_cited_ids"] == ["made-up-doc"]
    assert info["scores"]["metrics"]["citation_precision"] == 0.5


def test_time_limit_truncates_and_unanswered_episodes_score_retrieval(make_env):
    from medgym.judges.rag_wrapper import RAGJudgeWrapper

    env = RAGJudgeWrapper(make_env())
    env.reset(options={"question_id": "q-t-002"})
    for i in range(30):
        obs, reward, term, trunc, info = env.step(tool_call("search", query="warfarin INR mechanical valve"))
        if i < 29:
            assert not (term or trunc) and reward == 0.0
    assert trunc and not term
    m = info["scores"]["metrics"]
    assert m["answer_correctness"] == 0.0 and m["map"] == 1.0 and info["reward_status"] == "ok"
    traj = env.unwrapped.trajectory(truncated=True)
    assert traj.truncated and traj.answer is None and len(traj.steps) == 30


def test_trajectory_roundtrip_and_version_check(make_env, tmp_path):
    env = make_env(agent_name="tester")
    env.reset(options={"question_id": "q-t-007"})
    env.step(tool_call("search", query="asthma reliever"))
    env.step(tool_call("read_document", id="nope"))
    env.step(tool_call("answer", text="Use as-needed low-dose ICS-formoterol.", cited_ids=["pulm-gl-asthma-2023"]))
    path = env.unwrapped.save_trajectory(tmp_path / "t.json")
    traj = RAGTrajectory.load(path)
    assert traj.format == "medgym.rag_trajectory" and traj.version == 1 and traj.agent == "tester"
    assert [s.tool for s in traj.steps] == ["search", "read_document", "answer"] and traj.steps[1].ok is False
    rec = traj.episode_record()
    assert rec.cited == ["pulm-gl-asthma-2023"] and rec.result_lists and rec.answered
    data = json.loads((tmp_path / "t.json").read_text())
    data["version"] = 99
    with pytest.raises(TrajectoryFormatError, match="unsupported RAG trajectory version 99"):
        RAGTrajectory.from_dict(data)
    data["version"], data["format"] = 1, "medgym.trajectory"
    with pytest.raises(TrajectoryFormatError, match="format"):
        RAGTrajectory.from_dict(data)


def test_render_and_state_errors(make_env):
    env = make_env(render_mode="ansi")
    with pytest.raises(EpisodeStateError):
        env.unwrapped.step(tool_call("search", query="x"))
    env.reset(options={"question_id": "q-t-001"})
    env.step(tool_call("search", query="metformin"))
    text = env.render()
    assert "q-t-001" in text and "search" in text and "endo-dm-metformin" in text


def test_constructor_and_reset_options_are_validated(make_env):
    with pytest.raises(UnknownNameError, match="did you mean 'q-t-001'"):
        make_env(question_ids=["q-t-01"])
    with pytest.raises(UnknownNameError, match="question type"):
        make_env(question_types=["conflicts"])
    env = make_env(question_types=["unanswerable"])
    assert set(env.unwrapped.question_pool) == {"q-t-006", "q-t-008"}
    with pytest.raises(MedgymError, match="unknown reset option"):
        env.reset(options={"case_id": "x"})


def test_auto_build_on_first_use_is_reported(tmp_path, tiny_data, caplog):
    import medgym  # noqa: F401

    env = gym.make("medgym/RAGAgent-v0", data_dir=str(tiny_data), index_root=str(tmp_path / "fresh"))
    _, info = env.reset(seed=0)
    assert info["kb"]["auto_built"] is True and "fresh" in info["kb"]["index_path"]
    assert any("building it now" in r.message for r in caplog.records)


def test_no_auto_build_raises_the_typed_error(tmp_path, tiny_data):
    from medgym.knowledge_base.rag.errors import IndexMissingError

    with pytest.raises(IndexMissingError, match="medgym kb build"):
        gym.make("medgym/RAGAgent-v0", data_dir=str(tiny_data), index_root=str(tmp_path / "none"), auto_build=False)


@pytest.mark.slow
def test_fresh_clone_defaults_auto_build_the_packaged_knowledge_base(tmp_path, monkeypatch):
    """gym.make with no arguments: packaged KB, index auto-built under $MEDGYM_CACHE_DIR/kb."""
    from medgym.agents.rag_reference import RAGReferenceAgent, run_episode
    from medgym.knowledge_base.rag.loader import DEFAULT_DATA_DIR

    if not DEFAULT_DATA_DIR.is_dir():
        pytest.skip("packaged knowledge base not present")
    monkeypatch.setenv("MEDGYM_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("MEDGYM_RAG_DATA_DIR", raising=False)
    env = gym.make("medgym/RAGAgent-v0")
    check_env(env.unwrapped, skip_render_check=True)
    _, info = env.reset(seed=0)
    assert info["kb"]["auto_built"] is True and info["kb"]["index_path"].startswith(str(tmp_path / "kb"))
    assert info["kb"]["n_documents"] >= 300
    out = run_episode(env, RAGReferenceAgent(), seed=1)
    assert out["terminated"] and out["scores"]["status"] == "ok"
