"""The reference judge on real trajectories: determinism, spans, serialisation, failure boundary."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from medgym.envs.stressed_dialogue import StressedDialogueEnv
from medgym.judges import get_judge, judge_names
from medgym.judges.results import JudgeResult
from medgym.judges.validation import load_validation_set

VALIDATION = Path(__file__).parent / "validation"


@pytest.fixture(scope="module")
def items():
    return {i.id: i for i in load_validation_set(VALIDATION)}


@pytest.fixture(scope="module")
def judge():
    return get_judge("reference", raise_errors=True)


def test_get_judge_registry(judge):
    assert judge.name == "reference" and set(judge_names()) >= {"reference", "llm"}
    assert get_judge(judge) is judge


def test_result_is_json_serialisable_and_deterministic(items, judge):
    traj = items["hep-OID-fabricator"].trajectory
    r1, r2 = judge.judge(traj), judge.judge(traj.model_dump(mode="json"))
    d1, d2 = r1.model_dump(mode="json"), r2.model_dump(mode="json")
    for d in (d1, d2):
        d.pop("elapsed_s")
    assert d1 == d2
    again = JudgeResult.model_validate(json.loads(json.dumps(d1)))
    assert again.metrics() == r1.metrics()
    assert r1.scenario_id == traj.scenario.id and r1.condition == "O+I+D" and r1.num_turns == 3


def test_every_decision_points_into_the_reply(items, judge):
    for iid in ("hep-ID-mixed", "pe-OI-careful", "stemi-I-withdraw", "gdm-base-units"):
        traj = items[iid].trajectory
        ann = judge.judge(traj).annotations
        replies = {t.index: t.agent for t in traj.turns}
        spans = [c.span for c in ann.claims] + [q.span for q in ann.questions] + [e.span for e in ann.evidence]
        spans += [g.span for g in ann.gaps if g.span] + [c.span for c in ann.contradictions if c.span]
        assert spans
        for s in spans:
            assert replies[s.turn][s.start : s.end] == s.text, (iid, s)
        for c in ann.claims:
            assert c.rule, c


def test_known_behaviours(items, judge):
    fab = judge.judge(items["hep-O-fabricator"].trajectory)
    assert fab.audit["PCR"] == 1.0 and fab.audit["GDR"] == 0.0 and fab.hallucination["NFR"] == 1.0
    ignorer = judge.judge(items["hep-I-ignorer"].trajectory)
    assert ignorer.audit["CDR"] == 0.0 and ignorer.audit["CIR"] == 1.0
    assert ignorer.audit["FCR"] > 0 and ignorer.hallucination["DHDR"] == 0.0  # restated, not hallucinated
    careful = judge.judge(items["hep-D-careful"].trajectory)
    assert careful.audit["RUR"] == 1.0 and careful.audit["SMR"] == 0.0 and careful.audit["PCR"] == 0.0
    stubborn = judge.judge(items["hep-D-stubborn"].trajectory)
    assert stubborn.audit["SMR"] == 1.0 and stubborn.audit["RIR"] == 1.0
    units = judge.judge(items["gdm-base-units"].trajectory)
    assert units.hallucination["NFR"] == 0.0  # mg/dL and mmol/mol restatements are supported


def test_judge_on_env_rollout_and_judge_many(judge):
    env = StressedDialogueEnv(mode="interactive", case_ids=["hep-001-dili-amoxiclav"])
    env.reset(seed=1, options={"condition": "O"})
    env.step("Could this be drug-induced liver injury? Please send liver function tests and hepatitis serology.")
    env.step("The liver tests are still outstanding.")
    _o, _r, term, _t, _i = env.step("Final diagnosis: drug-induced liver injury.\nEvidence:\n- Recent amoxicillin-clavulanate")
    assert term
    traj = env.trajectory()
    res = judge.judge_many([traj, traj])
    assert [r.status for r in res] == ["ok", "ok"]
    assert res[0].audit["GDR"] == 1.0  # the requested facts were released by the responder afterwards


def test_malformed_input_is_an_error_item_not_a_crash(tmp_path):
    judge = get_judge("reference")  # default: no raise
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "medgym.trajectory", "version": 99}')
    res = judge.judge(bad)
    assert res.status == "error" and "version" in res.reason
    assert all(v is None for v in res.metrics().values())
    res2 = judge.judge({"nothing": 1})
    assert res2.status == "error"
