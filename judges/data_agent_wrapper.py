"""The DataAgent judge wrapper: scores every answer into ``info`` and turns it into the reward.

``DataAgentJudge`` wraps ``medgym/DataAgent-v0`` (outside its TimeLimit). On every
``answer`` step it scores the round with :mod:`medgym.judges.sql_scoring` against the
gold answer, which it reads from the unwrapped environment (the agent never sees
it), and puts the breakdown in ``info["round_score"]``. When the episode ends
(terminated, or truncated by the step budget: unanswered rounds then count as 0)
``info["episode_score"]`` holds accuracy (mean EX over rounds), mean F1, task
success and per-kind accuracy, and both go into the trajectory.

Reward: per answered round, ``sum(weights[c] * component)`` over the declared
components ``execution_accuracy``, ``f1`` and ``interpretation``; at the end of the
episode ``success_bonus`` if every round is correct. Components without weight
are still recorded. Defaults: EX only, so the episode return is the number of
correct rounds.

Unscored, never 0: if the gold answer could not be computed on the backend (a
gold query failed on a user's database) or the optional LLM interpretation judge
failed, the affected component is NaN with ``status: "unscored"``, excluded from
the episode averages and counted in ``unscored_rounds``. A declared component that
is unscored makes that step's reward NaN and sets ``info["reward_status"] =
"unscored"``.

The optional LLM agent-as-judge grades the answer *text* (is the interpretation
consistent with the gold result, and does it address the question?) on 0..1
through ``medgym.llm.LLMClient.chat_json``; pass ``llm_config`` (keyword arguments of
``LLMConfig``) or a ready ``client``.
"""

from __future__ import annotations

import json
import math
from typing import Any

import gymnasium as gym
from pydantic import BaseModel, Field

from medgym.errors import UnknownNameError
from medgym.judges.sql_scoring import DEFAULT_CONFIG, RoundScore, ScoringConfig, score_round
from medgym.registry import did_you_mean

COMPONENTS = ("execution_accuracy", "f1", "interpretation")
DEFAULT_WEIGHTS = {"execution_accuracy": 1.0}

JUDGE_SYSTEM = (
    "You grade the explanation a data assistant gave a clinician. You see the clinician's question, the "
    "correct result of the database query (or a note that the database cannot answer it), and the "
    "assistant's answer text. Score 1.0 if the text states the correct result (or correctly says the data "
    "does not hold it) and any interpretation is clinically sound; 0.5 if it is partly right or vague; 0.0 "
    "if it is wrong, contradicts the result, or invents data. Reply with JSON: "
    '{"score": <0..1>, "explanation": "<one sentence>"}.'
)


class InterpretationVerdict(BaseModel):
    score: float = Field(ge=0.0, le=1.0)
    explanation: str = ""


class InterpretationJudge:
    """LLM agent-as-judge of an answer's interpretation text (0..1, or unscored)."""

    def __init__(self, client: Any, max_gold_rows: int = 20):
        self.client = client
        self.max_gold_rows = max_gold_rows

    def grade(self, question: str, gold_columns: list[str], gold_rows: list[list[Any]] | None,
              unanswerable: bool, answer_text: str, hint: str | None = None) -> dict[str, Any]:
        from medgym.llm import LLMError

        if unanswerable:
            gold_txt = "The database does not contain this information; the right answer says so."
        else:
            rows = (gold_rows or [])[: self.max_gold_rows]
            more = f" (+{len(gold_rows or []) - len(rows)} more rows)" if gold_rows and len(gold_rows) > len(rows) else ""
            gold_txt = f"columns {gold_columns}; rows {json.dumps(rows, default=str)}{more}"
        user = f"Question: {question}\nCorrect result: {gold_txt}\n"
        if hint:
            user += f"Expected interpretation: {hint}\n"
        user += f"Assistant's answer: {answer_text}"
        messages = [{"role": "system", "content": JUDGE_SYSTEM}, {"role": "user", "content": user}]
        try:
            verdict, res = self.client.chat_json(messages, InterpretationVerdict, name="interpretation")
        except LLMError as exc:
            return {"status": "unscored", "score": float("nan"), "error": f"{type(exc).__name__}: {exc}"[:500]}
        return {"status": "ok", "score": float(verdict.score), "explanation": verdict.explanation,
                "usage": res.usage.model_dump() if getattr(res, "usage", None) is not None else None}


class DataAgentJudge(gym.Wrapper, gym.utils.RecordConstructorArgs):
    """Scores DataAgent answers (see module docstring)."""

    def __init__(
        self,
        env: gym.Env,
        weights: dict[str, float] | None = None,
        success_bonus: float = 0.0,
        rel_tol: float = DEFAULT_CONFIG.rel_tol,
        abs_tol: float = DEFAULT_CONFIG.abs_tol,
        interpretation_judge: bool = False,
        llm_config: dict[str, Any] | None = None,
        client: Any = None,
    ):
        gym.utils.RecordConstructorArgs.__init__(
            self, weights=weights, success_bonus=success_bonus, rel_tol=rel_tol, abs_tol=abs_tol,
            interpretation_judge=interpretation_judge, llm_config=llm_config,
        )
        gym.Wrapper.__init__(self, env)
        w = dict(DEFAULT_WEIGHTS if weights is None else weights)
        for k in w:
            if k not in COMPONENTS:
                raise UnknownNameError("DataAgent reward component", k, list(COMPONENTS),
                                       did_you_mean(k, list(COMPONENTS)))
        if any(v < 0 for v in w.values()):
            raise ValueError(f"weights must be non-negative, got {w}")
        if w.get("interpretation") and not interpretation_judge:
            raise ValueError("weights include 'interpretation' but interpretation_judge is False")
        self.weights = w
        self.success_bonus = float(success_bonus)
        self.cfg = ScoringConfig(rel_tol=rel_tol, abs_tol=abs_tol)
        self.judge: InterpretationJudge | None = None
        if interpretation_judge:
            if client is None:
                from medgym.llm import LLMClient, LLMConfig

                client = LLMClient(LLMConfig.from_env(**{"role": "judge", **(llm_config or {})}))
            self.judge = InterpretationJudge(client)
        self._scores: list[dict[str, Any]] = []

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        self._scores = []
        return self.env.reset(seed=seed, options=options)

    # ----------------------------------------------------------------- scoring
    def _score(self, index: int) -> dict[str, Any]:
        base = self.env.unwrapped
        task = base.task
        rnd = task.rounds[index]
        gold = base.gold_for_round(index)
        sub = base.submission(index)
        if gold.status != "ok":
            out: dict[str, Any] = {
                "round": index + 1, "kinds": list(rnd.kinds), "status": "unscored",
                "execution_accuracy": float("nan"), "f1": float("nan"), "precision": float("nan"),
                "recall": float("nan"), "correct": None, "error": gold.error,
                "answered": sub is not None,
            }
        else:
            rs: RoundScore = score_round(index + 1, rnd.kinds, gold.rows, gold.unanswerable, sub, self.cfg)
            out = {"status": "scored", **rs.to_dict(), "round": index + 1}
            out.pop("round_index", None)
        if self.judge is not None and sub is not None and gold.status == "ok":
            out["interpretation"] = self.judge.grade(rnd.utterance, gold.columns, gold.rows, gold.unanswerable,
                                                     str(sub.get("text") or ""), rnd.interpretation)
        base.record_score(index, out)
        return out

    def _reward(self, score: dict[str, Any]) -> tuple[float, str]:
        total, status = 0.0, "ok"
        for comp, w in self.weights.items():
            if not w:
                continue
            v = score.get("interpretation", {}).get("score") if comp == "interpretation" else score.get(comp)
            if v is None or (isinstance(v, float) and math.isnan(v)):
                return float("nan"), "unscored"
            total += w * float(v)
        return total, status

    def _summary(self) -> dict[str, Any]:
        base = self.env.unwrapped
        n = base.task.n_rounds
        by_round = {s["round"]: s for s in self._scores}
        scored: list[dict[str, Any]] = []
        unscored = 0
        for i in range(n):
            s = by_round.get(i + 1)
            if s is None:  # never answered: the agent's failure, scored 0
                s = {"round": i + 1, "status": "scored", "execution_accuracy": 0.0, "f1": 0.0, "correct": False,
                     "kinds": list(base.task.rounds[i].kinds), "answered": False}
                base.record_score(i, s)
            if s["status"] != "scored":
                unscored += 1
                continue
            scored.append(s)
        k = len(scored)
        acc = sum(s["execution_accuracy"] for s in scored) / k if k else float("nan")
        f1 = sum(s["f1"] for s in scored) / k if k else float("nan")
        interp = [s["interpretation"]["score"] for s in self._scores
                  if isinstance(s.get("interpretation"), dict) and s["interpretation"].get("status") == "ok"]
        per_kind: dict[str, list[float]] = {}
        for s in scored:
            for kind in s.get("kinds", []):
                per_kind.setdefault(kind, []).append(s["execution_accuracy"])
        success: bool | None = (all(s["correct"] for s in scored) and len(scored) == n) if not unscored else None
        return {
            "task_id": base.task.id,
            "n_rounds": n,
            "rounds_answered": sum(1 for s in self._scores if s.get("answered")),
            "scored_rounds": k,
            "unscored_rounds": unscored,
            "accuracy": acc,
            "f1": f1,
            "success": success,
            "interpretation": (sum(interp) / len(interp)) if interp else None,
            "interpretation_unscored": sum(
                1 for s in self._scores
                if isinstance(s.get("interpretation"), dict) and s["interpretation"].get("status") != "ok"),
            "per_kind_accuracy": {kk: sum(v) / len(v) for kk, v in sorted(per_kind.items())},
        }

    def step(self, action: str):
        base = self.env.unwrapped
        before = base.current_round
        obs, _r, terminated, truncated, info = self.env.step(action)
        reward, status = 0.0, "ok"
        if "submission" in info:
            score = self._score(before)
            self._scores.append(score)
            info = dict(info)
            info["round_score"] = score
            reward, status = self._reward(score)
        if terminated or truncated:
            if truncated and not terminated:
                base.mark_truncated()
            summary = self._summary()
            base.record_summary(summary)
            info = dict(info)
            info["episode_score"] = summary
            if self.success_bonus and summary["success"] and status == "ok":
                reward += self.success_bonus
        info["reward_status"] = status
        return obs, reward, terminated, truncated, info
