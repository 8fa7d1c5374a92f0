"""``medgym/StressedDialogue-v0``: a multi-turn clinical dialogue under information-flow stress.

The observation is the next user turn (text) and the action is the agent's reply
(text). ``reset`` compiles a Scenario for a (case, condition, seed); ``step``
releases evidence, withholds it or injects a contradiction according to that
scenario. The reward is always 0.0 here: judges are wrappers
(``medgym.judges``) that score the trajectory and shape the reward, so the core
stays a faithful simulator and users choose what to optimise.

Modes:
    * ``scripted`` (default) plays the paper's fixed sequence U whatever the agent
      says; the episode terminates after the reply to the last turn.
    * ``interactive`` also answers the agent through a :class:`Responder`: withheld
      facts are released only when asked for, delayed facts keep their schedule,
      other questions get "not available"/"unremarkable". It terminates when the
      agent commits to a final diagnosis ("Final diagnosis: ...") after the last
      scheduled turn; until then it keeps asking for one, and ``max_episode_steps``
      (TimeLimit) truncates.

Reset options: ``case_id``, ``condition`` ("O+I", a set of flags, or a Condition),
``mode``, ``scenario_seed`` (defaults to a draw from ``np_random``), or a
precompiled ``scenario``. Unspecified case/condition are drawn with ``np_random``.

Version History:
    * v0: initial release (trajectory format version 1).
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

import gymnasium as gym

from medgym.envs.compiler import FINAL_NUDGE, compile_scenario, has_final_diagnosis
from medgym.envs.conditions import ALL_CONDITIONS, Condition, parse_condition
from medgym.envs.responder import FactResponder, Responder
from medgym.envs.scenario import Scenario
from medgym.envs.spaces import coerce_text, text_space, to_charset
from medgym.envs.trajectory import Trajectory, TrajectoryTurn
from medgym.errors import ActionError, EpisodeStateError, UnknownNameError
from medgym.knowledge_base.case_bank import CaseBank, default_bank
from medgym.registry import did_you_mean

MODES = ("scripted", "interactive")
MAX_OBSERVATION_LENGTH = 32_000
MAX_ACTION_LENGTH = 16_000


class StressedDialogueEnv(gym.Env[str, str]):
    metadata = {"render_modes": ["ansi"], "render_fps": 1}

    def __init__(
        self,
        render_mode: str | None = None,
        mode: str = "scripted",
        case_bank: CaseBank | None = None,
        case_ids: list[str] | None = None,
        conditions: list[str] | None = None,
        responder: Responder | None = None,
        max_action_length: int = MAX_ACTION_LENGTH,
        agent_name: str | None = None,
    ):
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(
                f"render_mode must be one of {self.metadata['render_modes']} or None, got {render_mode!r}"
            )
        self.render_mode = render_mode
        self.default_mode = self._check_mode(mode)
        self.bank = case_bank if case_bank is not None else default_bank()
        self.case_ids = [self.bank.get(c).id for c in case_ids] if case_ids else self.bank.ids()
        self.conditions: list[Condition] = (
            [parse_condition(c) for c in conditions] if conditions else list(ALL_CONDITIONS)
        )
        self.responder: Responder = responder or FactResponder()
        self.max_action_length = max_action_length
        self.agent_name = agent_name
        self.observation_space = text_space(MAX_OBSERVATION_LENGTH)
        self.action_space = text_space(max_action_length)
        self._compiled: OrderedDict[tuple[str, str, int], Scenario] = OrderedDict()
        self._scenario: Scenario | None = None
        self._turns: list[TrajectoryTurn] = []
        self._pending: dict[str, Any] | None = None  # the user turn awaiting a reply
        self._released: set[str] = set()
        self._done = True
        self._terminated = False
        self._truncated = False

    # ------------------------------------------------------------------ helpers
    @staticmethod
    def _check_mode(mode: str) -> str:
        if mode not in MODES:
            raise UnknownNameError("mode", mode, list(MODES), did_you_mean(mode, list(MODES)))
        return mode

    def _compile(self, case_id: str, condition: Condition, seed: int) -> Scenario:
        key = (case_id, condition.name, seed)
        sc = self._compiled.get(key)
        if sc is None:
            sc = compile_scenario(self.bank.get(case_id), condition, seed)
            self._compiled[key] = sc
            if len(self._compiled) > 2048:
                self._compiled.popitem(last=False)
        return sc

    @property
    def scenario(self) -> Scenario:
        if self._scenario is None:
            raise EpisodeStateError("no scenario yet: call reset() first")
        return self._scenario

    def _info(self) -> dict[str, Any]:
        sc = self.scenario
        pend = self._pending or {}
        return {
            "turn": pend.get("index", len(self._turns)),
            "condition": sc.condition,
            "case_id": sc.case.id,
            "scenario_id": sc.id,
            "mode": self.mode,
            "num_scheduled_turns": sc.num_turns,
            "released_facts": list(pend.get("released_facts", [])),
            "injected_contradictions": list(pend.get("injected_contradictions", [])),
            "final_prompt": bool(pend.get("final_prompt", False)),
        }

    # ---------------------------------------------------------------- gym API
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[str, dict[str, Any]]:
        super().reset(seed=seed)
        options = dict(options or {})
        unknown = set(options) - {"case_id", "condition", "mode", "scenario_seed", "scenario"}
        if unknown:
            raise ActionError(
                f"unknown reset option(s) {sorted(unknown)}; expected case_id, condition, mode, scenario_seed, scenario"
            )
        self.mode = self._check_mode(options.get("mode", self.default_mode))
        if options.get("scenario") is not None:
            sc = options["scenario"]
            if not isinstance(sc, Scenario):
                raise ActionError(f"option 'scenario' must be a Scenario, got {type(sc).__name__}")
        else:
            case_id = options.get("case_id")
            if case_id is None:
                case_id = self.case_ids[int(self.np_random.integers(len(self.case_ids)))]
            cond_opt = options.get("condition")
            cond = (
                parse_condition(cond_opt)
                if cond_opt is not None
                else self.conditions[int(self.np_random.integers(len(self.conditions)))]
            )
            sseed = options.get("scenario_seed")
            if sseed is None:
                sseed = int(self.np_random.integers(2**31 - 1))
            sc = self._compile(str(case_id), cond, int(sseed))
        self._scenario = sc
        self._turns = []
        first = sc.turns[0]
        self._released = set(first.released_facts)
        self._pending = {
            "index": 1,
            "user": to_charset(first.text),
            "released_facts": list(first.released_facts),
            "injected_contradictions": list(first.injected_contradictions),
            "scripted": True,
            "responder_events": [],
            "final_prompt": "final_prompt" in first.kinds,
        }
        self._done = False
        self._terminated = self._truncated = False
        return self._pending["user"], self._info()

    def step(self, action: str) -> tuple[str, float, bool, bool, dict[str, Any]]:
        if self._done or self._pending is None:
            raise EpisodeStateError("episode is over (or not started): call reset() before step()")
        text = coerce_text(action, self.max_action_length)
        sc = self.scenario
        pend = self._pending
        t = pend["index"]
        self._turns.append(
            TrajectoryTurn(
                index=t,
                user=pend["user"],
                agent=text,
                released_facts=pend["released_facts"],
                injected_contradictions=pend["injected_contradictions"],
                scripted=pend["scripted"],
                responder_events=pend["responder_events"],
            )
        )
        T = sc.num_turns
        if self.mode == "scripted":
            terminated = t >= T
            nxt = None if terminated else self._scripted_turn(t + 1, extra="", extra_released=[], events=[])
        else:
            reply = self.responder.respond(text, sc, t, set(self._released), self.np_random)
            terminated = t >= T and has_final_diagnosis(text)
            if terminated:
                nxt = None
            elif t + 1 <= T:
                nxt = self._scripted_turn(t + 1, reply.text, reply.released, reply.events)
            else:
                nxt = {
                    "index": t + 1,
                    "user": to_charset("\n\n".join(p for p in (reply.text, FINAL_NUDGE) if p)),
                    "released_facts": [f for f in reply.released if f not in self._released],
                    "injected_contradictions": [],
                    "scripted": False,
                    "responder_events": reply.events,
                    "final_prompt": True,
                }
        if nxt is None:
            self._pending = None
            self._done = True
            self._terminated = True
            obs = ""
            info = self._info()
            info["turn"] = t
        else:
            self._released.update(nxt["released_facts"])
            self._pending = nxt
            obs = nxt["user"]
            info = self._info()
        info["final_diagnosis_given"] = has_final_diagnosis(text)
        return obs, 0.0, terminated, False, info

    def _scripted_turn(
        self, index: int, extra: str, extra_released: list[str], events: list[dict]
    ) -> dict[str, Any]:
        ut = self.scenario.turns[index - 1]
        released = [
            f for f in dict.fromkeys([*extra_released, *ut.released_facts]) if f not in self._released
        ]
        return {
            "index": index,
            "user": to_charset("\n\n".join(p for p in (extra, ut.text) if p)),
            "released_facts": released,
            "injected_contradictions": list(ut.injected_contradictions),
            "scripted": True,
            "responder_events": events,
            "final_prompt": "final_prompt" in ut.kinds,
        }

    # --------------------------------------------------------------- outputs
    def trajectory(self, truncated: bool | None = None) -> Trajectory:
        """The trajectory so far (a finished episode gives the complete τ)."""
        return Trajectory(
            mode=self.mode,  # type: ignore[arg-type]
            scenario=self.scenario,
            turns=[t.model_copy() for t in self._turns],
            terminated=self._terminated,
            truncated=bool(truncated) if truncated is not None else self._truncated,
            agent=self.agent_name,
        )

    def save_trajectory(self, path: str) -> str:
        return str(self.trajectory().save(path))

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        if self._scenario is None:
            return ""
        lines = [f"== {self.scenario.id} ({self.mode}) =="]
        for tt in self._turns:
            lines.append(f"[user {tt.index}] {tt.user}")
            lines.append(f"[agent {tt.index}] {tt.agent}")
        if self._pending is not None:
            lines.append(f"[user {self._pending['index']}] {self._pending['user']}")
        return "\n".join(lines) + "\n"
