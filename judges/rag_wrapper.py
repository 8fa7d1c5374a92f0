"""The RAGAgent judge wrapper: turns an episode's scores into the reward.

``RAGJudgeWrapper`` wraps ``medgym/RAGAgent-v0`` (outside its TimeLimit). When the
episode ends -- answered (terminated) or out of steps (truncated) -- it scores the
episode with the chosen judge and puts the full :class:`RAGScore` in
``info["scores"]``; intermediate steps get reward 0.0.

The reward is the weighted mean of the *declared* components (``weights``) that
apply to the question (``None`` metrics are dropped and the weights renormalised:
MAP does not apply to an unanswerable question, conflict handling only to conflict
questions). Every other metric is still recorded in ``info`` with no weight. If a
declared component is unscored because the LLM judge failed, the reward is NaN and
``info["reward_status"] == "unscored"`` -- never a silent 0.

Judges: ``"reference"`` (offline; reuses the environment's own scoring when it is
there) or ``"llm"`` (agent-as-judge for answer correctness, optionally citations,
through ``medgym.llm.LLMClient``; pass ``llm_config`` -- keyword arguments of
``LLMConfig`` -- or a ready ``client``).
"""

from __future__ import annotations

import math
from typing import Any

import gymnasium as gym

from medgym.errors import UnknownNameError
from medgym.judges.rag_scoring import METRIC_KEYS, LLMRAGJudge, RAGScore, ReferenceRAGJudge
from medgym.registry import did_you_mean

DEFAULT_WEIGHTS: dict[str, float] = {
    "answer_correctness": 0.4,
    "citation_precision": 0.2,
    "ndcg@10": 0.2,
    "conflict_handling": 0.2,
}
JUDGES = ("reference", "llm")


def reward_from(score: RAGScore, weights: dict[str, float]) -> tuple[float, str, dict[str, Any]]:
    """(reward, status, breakdown) from a score and declared component weights."""
    failed = _failed(score) & {k for k, w in weights.items() if w}
    if failed:
        return float("nan"), "unscored", {"unscored": sorted(failed), "errors": list(score.errors)}
    used: dict[str, float] = {}
    for key, w in weights.items():
        v = score.metrics.get(key)
        if w and v is not None and not (isinstance(v, float) and math.isnan(v)):
            used[key] = float(v)
    total_w = sum(weights[k] for k in used)
    if total_w <= 0:
        return 0.0, "ok", {"components": used, "note": "no declared component applies"}
    reward = sum(weights[k] * v for k, v in used.items()) / total_w
    return reward, "ok", {"components": used, "weights": {k: weights[k] for k in used}}


def _failed(score: RAGScore) -> set[str]:
    out = set()
    for e in score.errors:
        if e.startswith("answer judge"):
            out.update({"answer_correctness", "abstention"})
        elif e.startswith("citation judge"):
            out.add("citation_precision")
    return out


class RAGJudgeWrapper(gym.Wrapper, gym.utils.RecordConstructorArgs):
    def __init__(
        self,
        env: gym.Env,
        judge: str = "reference",
        weights: dict[str, float] | None = None,
        llm_config: dict[str, Any] | None = None,
        client: Any = None,
        judge_citations: bool = False,
    ):
        gym.utils.RecordConstructorArgs.__init__(
            self, judge=judge, weights=weights, llm_config=llm_config, judge_citations=judge_citations
        )
        gym.Wrapper.__init__(self, env)
        if judge not in JUDGES:
            raise UnknownNameError("RAG judge", judge, list(JUDGES), did_you_mean(judge, list(JUDGES)))
        w = dict(DEFAULT_WEIGHTS if weights is None else weights)
        bad = [k for k in w if k not in METRIC_KEYS]
        if bad:
            raise UnknownNameError("RAG metric", bad[0], list(METRIC_KEYS), did_you_mean(bad[0], list(METRIC_KEYS)))
        if any(v < 0 for v in w.values()) or not any(w.values()):
            raise ValueError(f"weights must be non-negative with at least one positive, got {w}")
        self.weights = w
        self.judge_name = judge
        base = env.unwrapped
        if judge == "llm":
            if client is None:
                from medgym.llm import LLMClient, LLMConfig

                cfg = LLMConfig.from_env(**{"role": "judge", **(llm_config or {})})
                client = LLMClient(cfg)
            self.judge = LLMRAGJudge(base.kb, client, recall_k=base.recall_k, judge_citations=judge_citations)
        else:
            self.judge = ReferenceRAGJudge(base.kb, recall_k=base.recall_k)

    def step(self, action: str):
        obs, _reward, terminated, truncated, info = self.env.step(action)
        if not (terminated or truncated):
            return obs, 0.0, terminated, truncated, info
        info = dict(info)
        if self.judge_name == "reference" and terminated and "scores" in info:
            score = RAGScore.model_validate(info["scores"])
        else:
            score = self.env.unwrapped.score(self.judge)
        reward, status, breakdown = reward_from(score, self.weights)
        info["scores"] = score.model_dump(mode="json")
        info["reward_status"] = status
        info["reward_breakdown"] = breakdown
        return obs, reward, terminated, truncated, info
