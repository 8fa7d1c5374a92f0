"""The StressedDialogue environment: Gymnasium contract, determinism, both modes, bad actions."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import gymnasium as gym
import pytest
from gymnasium.utils.env_checker import check_env

import medgym  # noqa: F401  (registers the ids)
from medgym.envs.compiler import compile_scenario
from medgym.envs.conditions import CONDITION_NAMES
from medgym.envs.trajectory import Trajectory
from medgym.errors import ActionError, EpisodeStateError, TrajectoryFormatError, UnknownNameError

ENV_ID = "medgym/StressedDialogue-v0"
CASE = "hep-001-dili-amoxiclav"


def rollout(env, actions, **reset_kw):
    obs, info = env.reset(**reset_kw)
    seen = [(obs, info)]
    for a in actions:
        obs, reward, term, trunc, info = env.step(a)
        seen.append((obs, reward, term, trunc, info))
        if term or trunc:
            break
    return seen


def test_check_env_passes():
    env = gym.make(ENV_ID)
    check_env(env.unwrapped, skip_render_check=True)
    env_i = gym.make(ENV_ID, mode="interactive")
    check_env(env_i.unwrapped, skip_render_check=True)


def test_spaces_accept_clinical_text():
    env = gym.make(ENV_ID)
    obs, _ = env.reset(seed=0, options={"case_id": CASE})
    assert env.observation_space.contains(obs)
    assert env.action_space.contains("Temp 38.5 °C, Na ≥ 135 mmol/L, µg ± 2 “quoted” — ok")
    assert env.action_space.contains("")
    sample = env.action_space.sample()
    assert isinstance(sample, str)


def test_import_free_make_in_fresh_process():
    code = "import gymnasium as g; e=g.make('medgym:medgym/StressedDialogue-v0'); o,i=e.reset(seed=1); print(i['condition'])"
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert res.returncode == 0, res.stderr
    assert res.stdout.strip() in CONDITION_NAMES


@pytest.mark.parametrize("mode", ["scripted", "interactive"])
def test_same_seed_same_actions_same_episode(mode):
    actions = ["Please check the ALP and an ultrasound?", "Any coagulation profile?", "Final diagnosis: DILI"]
    runs = []
    for _ in range(2):
        env = gym.make(ENV_ID, mode=mode)
        seen = rollout(env, actions, seed=123)
        runs.append((json.dumps(seen, default=str), env.unwrapped.trajectory().to_json()))
    assert runs[0] == runs[1]
    env = gym.make(ENV_ID, mode=mode)
    rollout(env, actions, seed=124)
    assert env.unwrapped.trajectory().scenario.seed != json.loads(runs[0][1])["scenario"]["seed"]


def test_scripted_plays_fixed_sequence_and_terminates():
    env = gym.make(ENV_ID)
    sc = compile_scenario(env.unwrapped.bank.get(CASE), "O+I+D", 7)
    obs, info = env.reset(options={"case_id": CASE, "condition": "O+I+D", "scenario_seed": 7})
    assert obs == sc.turns[0].text and info["turn"] == 1 and info["condition"] == "O+I+D"
    for t in range(1, sc.num_turns + 1):
        obs, reward, term, trunc, info = env.step("Final diagnosis: something")  # ignored in scripted mode
        assert reward == 0.0 and not trunc
        if t < sc.num_turns:
            assert obs == sc.turns[t].text and not term
            assert info["released_facts"] == sc.turns[t].released_facts
        else:
            assert term and obs == ""
    traj = env.unwrapped.trajectory()
    assert [t.user for t in traj.turns] == [u.text for u in sc.turns]
    assert traj.terminated
    with pytest.raises(EpisodeStateError):
        env.step("more")


def test_interactive_releases_withheld_fact_only_when_asked():
    env = gym.make(ENV_ID, mode="interactive")
    obs, info = env.reset(seed=0, options={"case_id": CASE, "condition": "O"})
    assert "612 U/L" not in obs
    obs, _, term, _, info = env.step("I think this is hepatitis. Tell me about his alcohol intake?")
    assert "612 U/L" not in obs and not term
    obs, _, term, _, info = env.step("Could you check the alkaline phosphatase and a hepatitis screen?")
    assert "612 U/L" in obs and "Viral hepatitis serology is negative" in obs
    assert set(info["released_facts"]) == {"alp", "hep_serology"}
    traj = env.unwrapped.trajectory()
    assert traj.turns[-1].agent.startswith("Could you check")


def test_interactive_delayed_fact_is_pending_before_schedule():
    env = gym.make(ENV_ID, mode="interactive")
    case = env.unwrapped.bank.get(CASE)
    # move the ultrasound to turn 3 so a turn-1 request is "pending"
    data = case.model_dump(mode="json")
    data["stressors"]["delay"][0]["release_turn"] = 3
    sc = compile_scenario(type(case).model_validate(data), "D", 0)
    obs, _ = env.reset(options={"scenario": sc})
    obs, _, _, _, info = env.step("Please arrange an abdominal ultrasound.")
    assert "still pending" in obs and "no biliary duct dilatation" not in obs
    assert "us_biliary" not in info["released_facts"]
    obs, _, _, _, info = env.step("OK.")
    assert "no biliary duct dilatation" in obs and info["released_facts"] == ["us_biliary"]


def test_interactive_unmatched_questions_get_realistic_answers():
    env = gym.make(ENV_ID, mode="interactive")
    env.reset(seed=0, options={"case_id": CASE, "condition": "baseline"})
    obs, *_ = env.step("Could you examine the thyroid? Was a chest CT scan done? Any pets at home?")
    assert "unremarkable" in obs or "normal" in obs
    assert "no result" in obs.lower() or "not available" in obs.lower() or "has not been done" in obs
    assert "nothing further" in obs.lower() or "nothing more" in obs.lower()


def test_interactive_terminates_on_final_diagnosis_after_schedule_else_truncates():
    env = gym.make(ENV_ID, mode="interactive", max_episode_steps=6)
    env.reset(seed=0, options={"case_id": CASE, "condition": "baseline"})
    _, _, term, _, _ = env.step("Final diagnosis: DILI")  # premature: before the last scheduled turn
    assert not term
    _, _, term, _, _ = env.step("Working on it.")
    assert not term
    obs, _, term, trunc, _ = env.step("I am not sure yet.")  # last scheduled turn, no commitment
    assert not term and not trunc and "Final diagnosis" in obs
    _, _, term, trunc, _ = env.step("Final diagnosis: drug-induced liver injury.")
    assert term and not trunc
    env.reset(seed=0, options={"case_id": CASE, "condition": "baseline"})
    for _ in range(6):
        _, _, term, trunc, _ = env.step("Hmm.")
    assert trunc and not term


def test_bad_actions_raise_clear_errors():
    env = gym.make(ENV_ID)
    with pytest.raises(EpisodeStateError, match="reset"):
        env.unwrapped.step("hello")
    env.reset(seed=0)
    with pytest.raises(ActionError, match="must be a str, got int"):
        env.step(42)
    with pytest.raises(ActionError, match="too long"):
        env.step("x" * 20_000)
    with pytest.raises(UnknownNameError, match="did you mean"):
        env.reset(options={"case_id": "hep-001-dili"})
    with pytest.raises(UnknownNameError, match="valid: baseline"):
        env.reset(options={"case_id": CASE, "condition": "Z"})
    with pytest.raises(UnknownNameError, match="interactive"):
        env.reset(options={"mode": "interactiv"})
    with pytest.raises(ActionError, match="unknown reset option"):
        env.reset(options={"case": CASE})


def test_render_ansi_transcript():
    env = gym.make(ENV_ID, render_mode="ansi")
    env.reset(seed=0, options={"case_id": CASE})
    env.step("My reply")
    text = env.render()
    assert "[user 1]" in text and "[agent 1] My reply" in text and "[user 2]" in text


def test_trajectory_round_trip_and_versioning(tmp_path):
    env = gym.make(ENV_ID)
    env.reset(seed=5, options={"case_id": CASE, "condition": "I+D"})
    done = False
    while not done:
        _, _, term, trunc, _ = env.step("Final diagnosis: DILI")
        done = term or trunc
    path = env.unwrapped.save_trajectory(str(tmp_path / "t.json"))
    traj = Trajectory.load(path)
    assert traj.scenario.condition == "I+D" and len(traj.turns) == traj.scenario.num_turns
    assert traj.released_by(1) == set(traj.scenario.turns[0].released_facts)
    data = json.loads(Path(path).read_text())
    data["version"] = 99
    (tmp_path / "v99.json").write_text(json.dumps(data))
    with pytest.raises(TrajectoryFormatError, match="unsupported trajectory version 99"):
        Trajectory.load(tmp_path / "v99.json")
    (tmp_path / "junk.json").write_text("{not json")
    with pytest.raises(TrajectoryFormatError, match="junk.json"):
        Trajectory.load(tmp_path / "junk.json")


def test_reset_draws_case_and_condition_from_np_random():
    env = gym.make(ENV_ID)
    a = [env.reset(seed=s)[1]["scenario_id"] for s in range(10)]
    b = [env.reset(seed=s)[1]["scenario_id"] for s in range(10)]
    assert a == b and len(set(a)) > 1
