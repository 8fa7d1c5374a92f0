"""JudgeReward: info keys, sign-corrected weighted reward, N/A handling, unscored, shaping, env.spec."""

from __future__ import annotations

import math

import gymnasium as gym
import pytest

import medgym  # noqa: F401  (registers the environments)
from medgym.errors import MedgymError
from medgym.judges.base import BaseJudge, JudgeUnscored
from medgym.judges.results import JudgeResult
from medgym.judges.wrappers import JudgeReward, reward_from_result

CAREFUL = [
    "Drug-induced liver injury is most likely given the ALT of 148 U/L.",
    "The HBsAg positive result conflicts with the negative serology; please repeat HBsAg.",
    "Final diagnosis: drug-induced liver injury.\nEvidence:\n- ALT 148 U/L\n- Hb 87 g/L",
]


def _play(env, replies, condition="I"):
    env.reset(seed=0, options={"case_id": "hep-001-dili-amoxiclav", "condition": condition, "scenario_seed": 0})
    out = None
    for i in range(10):
        out = env.step(replies[min(i, len(replies) - 1)])
        if out[2] or out[3]:
            return out
    return out


def _make(**kw):
    return JudgeReward(gym.make("medgym/StressedDialogue-v0"), **kw)


def test_reward_info_and_spec():
    env = _make(metrics=["CDR", "FCR", "NFR"], weights={"CDR": 2.0})
    spec = env.spec.additional_wrappers[-1]
    assert spec.name == "JudgeReward"
    assert spec.kwargs["judge"] == "reference"
    assert spec.kwargs["weights"] == {"CDR": 2.0, "FCR": 1.0, "NFR": 1.0}
    obs, reward, term, trunc, info = _play(env, CAREFUL)
    assert term
    assert set(info["audit"]) >= {"GDR", "CDR", "PCR"} and set(info["hallucination"]) >= {"NFR", "CIHGR"}
    assert info["judge"]["status"] == "ok" and info["judge"]["annotations"]["claims"]
    assert info["reward_status"] == "ok"
    comps = info["reward_components"]
    assert comps["CDR"] == info["audit"]["CDR"] == 1.0
    assert comps["FCR"] == pytest.approx(1 - info["audit"]["FCR"])
    assert comps["NFR"] == pytest.approx(1 - info["hallucination"]["NFR"])
    want = (2 * comps["CDR"] + comps["FCR"] + comps["NFR"]) / 4
    assert reward == pytest.approx(want)
    assert 0 < reward < 1  # the invented Hb costs something


def test_single_metric_and_not_applicable():
    env = _make(single_metric="cdr")
    assert env.spec.additional_wrappers[-1].kwargs["single_metric"] == "CDR"
    *_, reward, term, trunc, info = _play(env, CAREFUL)
    assert reward == 1.0
    # baseline has no contradiction: CDR is N/A -> reward 0.0 flagged not_applicable, never NaN
    *_, reward, term, trunc, info = _play(env, CAREFUL, condition="baseline")
    assert reward == 0.0 and not math.isnan(reward) and info["reward_status"] == "not_applicable"
    assert info["audit"]["CDR"] is None


def test_na_metrics_are_dropped_and_weights_renormalised():
    res = JudgeResult(status="ok", judge="t", judge_version="0",
                      audit={"CDR": None, "GDR": 0.5}, hallucination={"FCR": None, "NFR": 0.25})
    r, status, comps = reward_from_result(res, {"CDR": 5.0, "GDR": 1.0, "NFR": 1.0})
    assert status == "ok" and r == pytest.approx((0.5 + 0.75) / 2) and comps["CDR"] is None


class _Failing(BaseJudge):
    name = "failing"

    def _annotate(self, traj):
        raise JudgeUnscored("backend down")


def test_unscored_judge_gives_zero_with_status():
    env = _make(judge=_Failing())
    *_, reward, term, trunc, info = _play(env, CAREFUL)
    assert reward == 0.0 and info["reward_status"] == "unscored"
    assert info["judge"]["status"] == "unscored" and info["judge"]["reason"] == "backend down"
    assert all(v is None for v in info["audit"].values())
    assert env.spec.additional_wrappers[-1].kwargs["judge"] == "failing"


def test_per_turn_shaping_penalises_fabrication():
    env = _make(metrics=["CDR"], per_turn_shaping=True, shaping_weight=0.5)
    env.reset(seed=0, options={"case_id": "hep-001-dili-amoxiclav", "condition": "I", "scenario_seed": 0})
    _o, r1, *_rest, info1 = env.step("His haemoglobin is 87 g/L and his INR is 1.9.")
    assert info1["shaping"]["NFR_t"] == 1.0 and r1 == pytest.approx(-0.5)
    _o, r2, *_rest, info2 = env.step("Drug-induced liver injury is most likely given the ALT of 148 U/L.")
    assert info2["shaping"]["penalty"] == 0.0 and r2 == 0.0


def test_bad_configuration_is_rejected():
    with pytest.raises(MedgymError):
        _make(single_metric="CDR", metrics=["GDR"])
    with pytest.raises(MedgymError):
        _make(metrics=["CDR"], weights={"GDR": 1.0})
    with pytest.raises(MedgymError):
        _make(weights={"CDR": -1.0})
    with pytest.raises(Exception, match="did you mean"):
        _make(single_metric="CDX")
