"""One episode of the grid: build the agent and env, roll out, judge, and make the result record.

Failures are data, not crashes: an agent that raises (an LLM endpoint that stays
down, a bad tool call) makes the record ``status="error"`` with the stage and
reason; a judge that fails makes it ``status="unscored"``. Neither ever produces a
metric value, so nothing is counted as a score of 0. An episode interrupted by a
stop request returns None and is simply rerun on resume.
"""

from __future__ import annotations

import threading
import time
import traceback
from datetime import UTC, datetime
from typing import Any

from gymnasium.wrappers import TimeLimit

from medgym import __version__
from medgym.agents.base import reset_policy, usage_of
from medgym.agents.registry import make_agent
from medgym.envs.stressed_dialogue import StressedDialogueEnv
from medgym.knowledge_base.case_bank import CaseBank
from medgym.runner.config import RunConfig
from medgym.runner.grid import EpisodeSpec
from medgym.runner.outcome import final_correct


def _error(stage: str, exc: BaseException) -> dict[str, Any]:
    return {
        "stage": stage,
        "type": type(exc).__name__,
        "message": str(exc)[:2000],
        "traceback": "".join(traceback.format_exception(exc, limit=6))[-4000:],
    }


def _judge_payload(result: Any) -> dict[str, Any]:
    if hasattr(result, "model_dump"):
        return result.model_dump(mode="json")
    if isinstance(result, dict):
        return result
    raise TypeError(f"judge returned {type(result).__name__}, expected a JudgeResult")


def run_episode(
    spec: EpisodeSpec,
    config: RunConfig,
    bank: CaseBank,
    judge: Any,
    stop: threading.Event | None = None,
    judge_slots: threading.Semaphore | None = None,
) -> dict[str, Any] | None:
    t_start = time.perf_counter()
    rec: dict[str, Any] = {
        "key": spec.key,
        "case_id": spec.case_id,
        "condition": spec.condition,
        "agent": spec.agent.name,
        "seed": spec.seed,
        "repeat": spec.repeat,
        "mode": config.mode,
        "medgym_version": __version__,
        "started_at": datetime.now(UTC).isoformat(timespec="milliseconds"),
        "status": "error",
        "error": None,
        "scenario_id": None,
        "trajectory": None,
        "judge": None,
        "audit": None,
        "hallucination": None,
        "final_correct": None,
        "tokens": {"agent": {}, "judge": {}},
        "timing": {},
    }
    try:
        agent = make_agent(spec.agent.spec, **spec.agent.kwargs)
    except Exception as exc:  # a broken user factory is a recorded error, not a crash of the run
        rec["error"] = _error("agent_init", exc)
        rec["timing"]["episode_s"] = time.perf_counter() - t_start
        return rec

    env = TimeLimit(
        StressedDialogueEnv(mode=config.mode, case_bank=bank, agent_name=spec.agent.name),
        max_episode_steps=config.max_episode_steps,
    )
    agent_s = 0.0
    truncated = False
    try:
        obs, info = env.reset(
            seed=spec.env_seed, options={"case_id": spec.case_id, "condition": spec.condition, "scenario_seed": spec.seed}
        )
        rec["scenario_id"] = info["scenario_id"]
        reset_policy(agent)
        while True:
            if stop is not None and stop.is_set():
                return None
            t0 = time.perf_counter()
            try:
                action = agent.act(obs, info)
            except Exception as exc:  # LLM transport failure, agent bug: an error record
                rec["error"] = _error("agent", exc)
                return rec
            finally:
                agent_s += time.perf_counter() - t0
            try:
                obs, _, terminated, truncated, info = env.step(action)
            except Exception as exc:  # invalid action (wrong type, too long)
                rec["error"] = _error("env", exc)
                return rec
            if terminated or truncated:
                break
        traj = env.unwrapped.trajectory(truncated=truncated)
        if config.save_trajectories:
            rec["trajectory"] = traj.model_dump(mode="json")
        rec["final_correct"] = final_correct(traj)
        t_j = time.perf_counter()
        try:
            if judge_slots is not None:
                with judge_slots:
                    payload = _judge_payload(judge.judge(traj))
            else:
                payload = _judge_payload(judge.judge(traj))
        except Exception as exc:  # a judge failure is unscored, never a 0
            rec["status"] = "unscored"
            rec["error"] = _error("judge", exc)
            return rec
        finally:
            rec["timing"]["judge_s"] = time.perf_counter() - t_j
        rec["judge"] = payload
        rec["audit"] = payload.get("audit")
        rec["hallucination"] = payload.get("hallucination")
        rec["tokens"]["judge"] = payload.get("usage") or payload.get("tokens") or {}
        if payload.get("status", "ok") == "ok":
            rec["status"] = "ok"
        else:
            rec["status"] = "unscored"
            rec["error"] = {"stage": "judge", "type": "Unscored", "message": str(payload.get("reason", ""))}
        return rec
    finally:
        rec["tokens"]["agent"] = usage_of(agent)
        rec["timing"]["agent_s"] = agent_s
        rec["timing"]["episode_s"] = time.perf_counter() - t_start
        rec["finished_at"] = datetime.now(UTC).isoformat(timespec="milliseconds")
        env.close()
