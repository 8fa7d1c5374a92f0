"""Judge-as-reward: a gymnasium wrapper that scores the episode with a judge.

    env = JudgeReward(gym.make("medgym/StressedDialogue-v0"), judge="reference",
                      metrics=["CDR", "RUR", "NFR"], weights={"CDR": 2.0})

At the end of an episode (terminated or truncated) the wrapper runs the judge on
``env.unwrapped.trajectory(truncated=...)`` and puts everything in ``info``:

* ``info["audit"]`` / ``info["hallucination"]``: the 11 + 8 metrics (None = not applicable);
* ``info["judge"]``: status, reason, judge name/version/config, counts, annotations, judge tokens;
* ``info["reward_status"]``: ``"ok"``, ``"not_applicable"`` or ``"unscored"``;
* ``info["reward_components"]``: each chosen metric, oriented so that higher is better.

The reward is the weighted mean of the chosen metrics, each sign-corrected with its
registry direction (``1 - x`` for lower-is-better ratios; CIHGR, which can exceed 1,
is clipped at 0 after the flip). Metrics that are not applicable are dropped and the
remaining weights renormalised. With ``single_metric="CDR"`` the reward is exactly
that one metric (oriented, so ``single_metric="FCR"`` gives ``1 - FCR``).

When no chosen metric applies, or the judge could not score the episode, the reward
is ``0.0`` and ``info["reward_status"]`` says why. It is never NaN (RL code breaks on
NaN), and a 0.0 with a status other than ``"ok"`` must never be averaged as a score:
aggregate ``info["audit"]``/``info["hallucination"]`` (which hold None) instead.

Optional per-turn shaping (``per_turn_shaping=True``) adds, after every reply,
``-shaping_weight * h_t / z_t``: the share of that reply's claims that are
hallucinated (the per-turn NFR/UFR numerators over their denominators). It always
uses the offline reference judge on the trajectory so far, whatever judge gives the
final reward. The wrapper records its constructor arguments (Gymnasium's
``RecordConstructorArgs``), so ``env.spec`` shows the judge configuration.
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym

from medgym.errors import MedgymError
from medgym.judges.base import BaseJudge, get_judge
from medgym.judges.metrics import ALL_METRICS, METRICS
from medgym.judges.results import JudgeResult


def _canon(name: str) -> str:
    return METRICS.get(name.strip().upper()).name


def reward_from_result(
    result: JudgeResult, weights: dict[str, float]
) -> tuple[float, str, dict[str, float | None]]:
    """(reward, status, oriented components) for a judge result and metric weights."""
    components: dict[str, float | None] = {}
    if result.status != "ok":
        return 0.0, "unscored", dict.fromkeys(weights)
    values = result.metrics()
    total = 0.0
    wsum = 0.0
    for name, w in weights.items():
        v = values.get(name)
        if v is None:
            components[name] = None
            continue
        o = METRICS.get(name).oriented(float(v))
        components[name] = o
        total += w * o
        wsum += w
    if wsum <= 0:
        return 0.0, "not_applicable", components
    return total / wsum, "ok", components


class JudgeReward(gym.Wrapper, gym.utils.RecordConstructorArgs):
    """Reward = weighted, sign-corrected judge metrics at episode end (see module docstring)."""

    def __init__(
        self,
        env: gym.Env,
        judge: str | BaseJudge = "reference",
        metrics: list[str] | None = None,
        weights: dict[str, float] | None = None,
        single_metric: str | None = None,
        per_turn_shaping: bool = False,
        shaping_weight: float = 0.1,
        judge_kwargs: dict[str, Any] | None = None,
    ):
        judge_obj = get_judge(judge, **(judge_kwargs or {})) if isinstance(judge, str) else judge
        if not isinstance(judge_obj, BaseJudge):
            raise MedgymError(f"judge must be a judge name or a BaseJudge, got {type(judge).__name__}")
        if single_metric is not None:
            if metrics is not None or weights is not None:
                raise MedgymError("single_metric excludes metrics/weights: give one or the other")
            chosen = {_canon(single_metric): 1.0}
        else:
            names = [_canon(m) for m in (metrics if metrics is not None else (weights or ALL_METRICS))]
            w = {_canon(k): float(v) for k, v in (weights or {}).items()}
            unknown = set(w) - set(names)
            if unknown:
                raise MedgymError(f"weights given for metrics not chosen: {sorted(unknown)}")
            if any(v < 0 for v in w.values()):
                raise MedgymError(f"weights must be >= 0, got {w}")
            chosen = {n: w.get(n, 1.0) for n in names}
            if not chosen:
                raise MedgymError("expected at least one metric for the reward")
        if shaping_weight < 0:
            raise MedgymError(f"shaping_weight must be >= 0, got {shaping_weight}")
        recorded_kwargs = dict(judge_kwargs or {})
        if not isinstance(judge, str):  # record enough of an instance's config to rebuild it by name
            recorded_kwargs = {k: v for k, v in judge_obj.config().items() if k not in ("name", "version")}
        gym.utils.RecordConstructorArgs.__init__(
            self,
            judge=judge if isinstance(judge, str) else judge_obj.name,
            metrics=list(chosen) if single_metric is None else None,
            weights=dict(chosen) if single_metric is None else None,
            single_metric=_canon(single_metric) if single_metric else None,
            per_turn_shaping=per_turn_shaping,
            shaping_weight=shaping_weight,
            judge_kwargs=recorded_kwargs,
        )
        gym.Wrapper.__init__(self, env)
        self.judge = judge_obj
        self.judge_config = judge_obj.config()
        self.weights = chosen
        self.single_metric = _canon(single_metric) if single_metric else None
        self.per_turn_shaping = per_turn_shaping
        self.shaping_weight = shaping_weight
        self._shaper: BaseJudge | None = None
        self.last_result: JudgeResult | None = None

    def _shaping(self) -> tuple[float, dict[str, Any]]:
        if self._shaper is None:
            self._shaper = self.judge if self.judge.name == "reference" else get_judge("reference")
        res = self._shaper.judge(self.env.unwrapped.trajectory())
        if res.status != "ok" or res.annotations is None or not res.annotations.turns:
            return 0.0, {"status": res.status}
        ts = res.annotations.turns[-1]
        z = ts.numeric_total + ts.factual_total
        h = ts.numeric_fabricated + ts.factual_unsupported
        penalty = -self.shaping_weight * (h / z) if z else 0.0
        return penalty, {
            "status": "ok",
            "turn": ts.turn,
            "NFR_t": ts.numeric_fabricated / ts.numeric_total if ts.numeric_total else None,
            "UFR_t": ts.factual_unsupported / ts.factual_total if ts.factual_total else None,
            "penalty": penalty,
        }

    def step(self, action):
        obs, reward, terminated, truncated, info = self.env.step(action)
        reward = float(reward)
        if self.per_turn_shaping:
            penalty, shaping = self._shaping()
            reward += penalty
            info["shaping"] = shaping
        if terminated or truncated:
            traj = self.env.unwrapped.trajectory(truncated=bool(truncated))
            result = self.judge.judge(traj)
            self.last_result = result
            score, status, components = reward_from_result(result, self.weights)
            reward += score
            info["audit"] = dict(result.audit)
            info["hallucination"] = dict(result.hallucination)
            info["judge"] = {
                "status": result.status,
                "reason": result.reason,
                "name": result.judge,
                "version": result.judge_version,
                "config": result.judge_config,
                "counts": result.counts.model_dump() if result.counts else None,
                "annotations": result.annotations.model_dump(mode="json") if result.annotations else None,
                "usage": result.usage.model_dump(),
            }
            info["reward_status"] = status
            info["reward_components"] = components
        return obs, reward, terminated, truncated, info
