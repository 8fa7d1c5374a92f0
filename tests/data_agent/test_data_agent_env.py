"""``medgym/DataAgent-v0``: Gymnasium contract, tools, answers, trajectory, judge wrapper."""

from __future__ import annotations

import json
import math

import gymnasium as gym
import pytest
from gymnasium.utils.env_checker import check_env

import medgym  # noqa: F401
from medgym.envs.data_agent.env import DataAgentEnv
from medgym.envs.data_agent.tools import TOOL_NAMES, parse_action, tool_call
from medgym.envs.data_agent.trajectory import DataAgentTrajectory
from medgym.errors import ActionError, EpisodeStateError, TrajectoryFormatError, UnknownNameError
from medgym.judges.data_agent_wrapper import DataAgentJudge


@pytest.fixture()
def env():
    e = gym.make("medgym/DataAgent-v0")
    yield e
    e.close()


def test_check_env_passes():
    e = gym.make("medgym/DataAgent-v0")
    try:
        check_env(e.unwrapped)
    finally:
        e.close()
    assert e.spec.max_episode_steps == 60


def test_reset_publishes_tools_and_question(env):
    obs, info = env.reset(seed=3, options={"task_id": "creatinine_trend_01"})
    assert "User (round 1 of 5): Which patients have chronic kidney disease" in obs
    assert [t["function"]["name"] for t in info["tools"]] == TOOL_NAMES
    assert all(t["type"] == "function" and "parameters" in t["function"] for t in info["tools"])
    assert info["gold_source"] == "stored" and info["backend"] == "sqlite"
    assert not any("gold" in k for k in info if k != "gold_source")


def test_seeded_task_choice_is_deterministic(env):
    a = env.reset(seed=11)[1]["task_id"]
    b = env.reset(seed=11)[1]["task_id"]
    ids = {env.reset(seed=s)[1]["task_id"] for s in range(12)}
    assert a == b and len(ids) > 3


def test_tools_and_errors_keep_the_episode_going(env):
    env.reset(seed=0, options={"task_id": "demographics_01"})
    obs, r, term, trunc, info = env.step("not json")
    assert obs.startswith("Tool error:") and info["tool_error"]["category"] == "invalid_action" and not term
    obs, *_ , info = env.step(json.dumps({"tool": "run_sq", "arguments": {}}))
    assert "did you mean 'run_sql'" in obs
    obs, *_ , info = env.step(tool_call("run_sql", sql="SELECT * FROM nosuch"))
    assert info["tool_error"]["category"] == "unknown_object"
    obs, *_ , info = env.step(tool_call("describe_table", table="patients"))
    assert "patient_id" in obs and "Example rows" in obs
    obs, *_ , info = env.step(tool_call("search_notes", query="current smoker", limit=2))
    assert "note(s) match" in obs and len(info["tool_result"]["rows"]) == 2
    obs, *_ , info = env.step(json.dumps({"name": "run_sql", "arguments": json.dumps({"sql": "SELECT 1 AS x"})}))
    assert info["tool_result"]["rows"] == [[1]]  # OpenAI shape accepted
    obs, *_ , info = env.step(tool_call("run_sql", sql="SELECT patient_id FROM patients"))
    assert "(200 rows; showing the first 30" in obs and info["tool_result"]["n_rows"] == 200
    assert info["round"] == 1 and info["rounds_answered"] == 0


def test_answer_precedence_and_termination():
    env = DataAgentJudge(gym.make("medgym/DataAgent-v0"))
    try:
        env.reset(seed=0, options={"task_id": "demographics_01"})
        # round 1: last run_sql result
        env.step(tool_call("run_sql", sql="SELECT COUNT(*) FROM patients"))
        _o, r, term, _t, info = env.step(tool_call("answer", text="200 patients."))
        assert info["submission"]["source"] == "last_result" and info["round_score"]["correct"] and r == 1.0
        assert "User (round 2 of 4)" in _o
        # round 2: explicit values win over the last result
        env.step(tool_call("run_sql", sql="SELECT COUNT(*) FROM patients"))
        _o, r, term, _t, info = env.step(tool_call("answer", text="x", values=[[95]]))
        assert info["submission"]["source"] == "values"
        # round 3: sql argument (bad SQL is a tool error; the round stays open)
        _o, r, term, _t, info = env.step(tool_call("answer", text="x", sql="SELEC nope"))
        assert "tool_error" in info and info["round"] == 3
        _o, r, term, _t, info = env.step(tool_call(
            "answer", text="x", sql="SELECT COUNT(*) FROM patients WHERE birth_date < '1950-01-01'"))
        assert info["submission"]["source"] == "sql" and info["round_score"]["correct"]
        # round 4: text only, wrong number
        _o, r, term, _t, info = env.step(tool_call("answer", text="I count 7 deaths."))
        assert info["submission"]["source"] == "text" and r == 0.0 and term
        es = info["episode_score"]
        assert es["scored_rounds"] == 4 and es["success"] is False
        assert 0.5 <= es["accuracy"] < 1.0
        with pytest.raises(EpisodeStateError):
            env.step(tool_call("list_tables"))
    finally:
        env.close()


def test_unanswerable_flag_and_phrase():
    env = DataAgentJudge(gym.make("medgym/DataAgent-v0"))
    try:
        env.reset(options={"task_id": "demographics_02"})
        for _ in range(3):
            env.step(tool_call("answer", text="skip", values=[]))
        _o, r, term, _t, info = env.step(tool_call("answer", text="The database does not contain income data."))
        assert term and info["submission"]["unanswerable"] and info["round_score"]["correct"]
        env.reset(options={"task_id": "demographics_02"})
        _o, r, *_rest, info = env.step(tool_call("answer", text="x", unanswerable=True))
        assert not info["round_score"]["correct"] and r == 0.0  # round 1 is answerable
    finally:
        env.close()


def test_invalid_answer_arguments():
    e = DataAgentEnv()
    try:
        e.reset(options={"task_id": "demographics_01"})
        obs, *_ , info = e.step(tool_call("answer", values=[1]))
        assert "text: Field required" in obs and e.current_round == 0
        with pytest.raises(ActionError):
            e.step(123)  # type: ignore[arg-type]
        with pytest.raises(ActionError, match="unknown reset option"):
            e.reset(options={"task": "x"})
        with pytest.raises(UnknownNameError):
            e.reset(options={"task_id": "nope"})
        with pytest.raises(UnknownNameError):
            DataAgentEnv(gold="sometimes")
    finally:
        e.close()


def test_truncation_counts_unanswered_rounds_as_zero():
    env = DataAgentJudge(gym.make("medgym/DataAgent-v0", max_episode_steps=3))
    try:
        env.reset(options={"task_id": "demographics_01"})
        env.step(tool_call("run_sql", sql="SELECT COUNT(*) FROM patients"))
        env.step(tool_call("answer", text="ok"))
        _o, _r, term, trunc, info = env.step(tool_call("list_tables"))
        assert trunc and not term
        es = info["episode_score"]
        assert es["accuracy"] == 0.25 and es["success"] is False and es["rounds_answered"] == 1
        traj = env.unwrapped.trajectory()
        assert traj.truncated and traj.rounds[3].score["answered"] is False
    finally:
        env.close()


def test_trajectory_round_trip(tmp_path):
    env = DataAgentJudge(gym.make("medgym/DataAgent-v0"))
    try:
        env.reset(seed=5, options={"task_id": "notes_falls_01"})
        env.step(tool_call("search_notes", query="fall"))
        env.step(tool_call("run_sql", sql="SELECT DISTINCT patient_id FROM notes WHERE LOWER(note_text) LIKE '%fall%'"))
        env.step(tool_call("answer", text="Nine patients fell."))
        path = tmp_path / "t.json"
        env.unwrapped.save_trajectory(str(path))
        t = DataAgentTrajectory.load(path)
        assert t.format == "medgym.data_agent.trajectory" and t.version == 1 and t.seed == 5
        assert [c.tool for c in t.rounds[0].tool_calls] == ["search_notes", "run_sql"]
        assert t.rounds[0].answer.source == "last_result" and t.rounds[0].score["correct"]
        assert len(t.rounds[0].answer.rows) == 9
        data = json.loads(path.read_text())
        data["version"] = 2
        with pytest.raises(TrajectoryFormatError, match="unsupported DataAgent trajectory version 2"):
            DataAgentTrajectory.from_dict(data)
        data["version"] = 1
        data["rounds"][0]["answer"]["source"] = "telepathy"
        with pytest.raises(TrajectoryFormatError, match="source"):
            DataAgentTrajectory.from_dict(data)
    finally:
        env.close()


def test_execute_gold_mode_and_unscored_rounds(tmp_path):
    """On a database where a gold query fails, that round is unscored (NaN), never 0."""
    import sqlite3

    db = tmp_path / "tiny.db"
    con = sqlite3.connect(db)
    con.execute("CREATE TABLE patients (patient_id TEXT, sex TEXT, birth_date TEXT, death_date TEXT, postal_code TEXT)")
    con.executemany("INSERT INTO patients VALUES (?, ?, ?, NULL, NULL)",
                    [("A", "F", "1940-01-01"), ("B", "M", "1970-05-05"), ("C", "F", "1980-01-01")])
    con.commit()
    con.close()
    env = DataAgentJudge(gym.make("medgym/DataAgent-v0", url=f"sqlite:///{db}"))
    try:
        _o, info = env.reset(options={"task_id": "demographics_02"})
        assert info["gold_source"] == "execute"
        _o, r, *_x, info = env.step(tool_call("answer", text="x", values=[[0]]))
        assert info["round_score"]["correct"]  # nobody born in the 1960s
        env.step(tool_call("answer", text="x", values=[[0]]))
        _o, r, *_x, info = env.step(tool_call("answer", text="x", values=[[0]]))  # needs the encounters table
        assert info["round_score"]["status"] == "unscored" and math.isnan(r)
        assert info["reward_status"] == "unscored"
        _o, r, term, _t, info = env.step(tool_call("answer", text="no income data", unanswerable=True))
        es = info["episode_score"]
        assert term and es["unscored_rounds"] == 1 and es["scored_rounds"] == 3 and es["success"] is None
        assert es["accuracy"] == 1.0
    finally:
        env.close()


def test_wrapper_spec_and_weights():
    env = DataAgentJudge(gym.make("medgym/DataAgent-v0"), weights={"f1": 1.0}, success_bonus=2.0)
    try:
        assert env.spec.additional_wrappers[-1].kwargs["success_bonus"] == 2.0
        env.reset(options={"task_id": "demographics_03"})
        env.step(tool_call("answer", text="x", sql="SELECT encounter_type, COUNT(*) FROM encounters GROUP BY 1"))
        env.step(tool_call("answer", text="x", sql="SELECT COUNT(DISTINCT patient_id) FROM encounters "
                                                   "WHERE encounter_type = 'emergency'"))
        _o, r, term, _t, info = env.step(tool_call("answer", text="x", sql=(
            "SELECT COUNT(DISTINCT patient_id) FROM encounters WHERE encounter_type = 'inpatient' AND patient_id IN "
            "(SELECT patient_id FROM encounters WHERE encounter_type = 'emergency')")))
        assert term and info["episode_score"]["success"] and r == 3.0  # F1 1.0 + bonus 2.0
    finally:
        env.close()
    with pytest.raises(UnknownNameError):
        DataAgentJudge(gym.make("medgym/DataAgent-v0"), weights={"acc": 1.0})
    with pytest.raises(ValueError, match="interpretation_judge"):
        DataAgentJudge(gym.make("medgym/DataAgent-v0"), weights={"interpretation": 1.0})


def test_parse_action_shapes():
    assert parse_action('{"tool": "list_tables"}') == ("list_tables", {})
    assert parse_action('{"type": "function", "function": {"name": "run_sql", "arguments": "{\\"sql\\": \\"x\\"}"}}') \
        == ("run_sql", {"sql": "x"})
    with pytest.raises(ActionError, match="put tool parameters under 'arguments'"):
        parse_action('{"tool": "run_sql", "sql": "x"}')


def test_render(env):
    e = gym.make("medgym/DataAgent-v0", render_mode="ansi")
    try:
        e.reset(options={"task_id": "demographics_01"})
        e.step(tool_call("list_tables"))
        out = e.render()
        assert "demographics_01" in out and "list_tables" in out
    finally:
        e.close()


def test_same_seed_same_episode():
    """Seeded determinism end to end: same seed and agent give the same trajectory."""
    from medgym.agents.sql_reference import SQLReferenceAgent

    def play(seed: int) -> dict:
        env = DataAgentJudge(gym.make("medgym/DataAgent-v0"))
        agent = SQLReferenceAgent()
        try:
            obs, info = env.reset(seed=seed)
            done = False
            while not done:
                obs, _r, term, trunc, info = env.step(agent.act(obs, info))
                done = term or trunc
            traj = env.unwrapped.trajectory().model_dump(mode="json")
        finally:
            env.close()
        for r in traj["rounds"]:
            for c in r["tool_calls"]:
                c.pop("elapsed_ms")
        return traj

    a, b = play(123), play(123)
    assert a == b and a["seed"] == 123
