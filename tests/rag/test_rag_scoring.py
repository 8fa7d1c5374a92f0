"""RAG scoring: ranking metrics, citation support, key facts, conflicts, the LLM judge, the reward wrapper."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from medgym.judges.rag_scoring import (
    EpisodeRecord,
    LLMRAGJudge,
    RAGScore,
    ReferenceRAGJudge,
    abstains,
    aggregate,
    average_precision,
    claims_of,
    evidence_ranking,
    ndcg_at_k,
    recall_at_k,
)
from medgym.judges.rag_wrapper import RAGJudgeWrapper, reward_from
from medgym.llm import LLMClient, LLMConfig
from medgym.llm.fake_server import ErrorReply, FakeOpenAIServer


@pytest.fixture(scope="module")
def judge(tiny_kb):
    return ReferenceRAGJudge(tiny_kb)


def rec(qid, answer, cited, lists=(), read=()):
    return EpisodeRecord(qid, answer, list(cited), [list(x) for x in lists], list(read))


# ------------------------------------------------------------------ ranking metrics
def test_average_precision_hand_computed():
    rel = {"a": 3, "b": 1}
    assert average_precision(["a", "x", "b"], rel) == pytest.approx((1 / 1 + 2 / 3) / 2)
    assert average_precision(["x", "y"], rel) == 0.0
    assert average_precision(["a", "a", "b"], rel) == 1.0  # duplicates are ignored
    assert average_precision(["a"], {}) is None


def test_ndcg_uses_graded_gains():
    rel = {"a": 3, "b": 1}
    assert ndcg_at_k(["a", "b"], rel) == pytest.approx(1.0)
    swapped = (1 / 1 + 7 / math.log2(3)) / (7 / 1 + 1 / math.log2(3))
    assert ndcg_at_k(["b", "a"], rel) == pytest.approx(swapped)
    assert ndcg_at_k([f"x{i}" for i in range(10)] + ["a"], rel, k=10) == 0.0
    assert ndcg_at_k(["a"], {}) is None


def test_recall_at_k():
    rel = {"a": 3, "b": 1, "c": 2}
    assert recall_at_k(["a", "x", "b", "c"], rel, k=3) == pytest.approx(2 / 3)
    assert recall_at_k(["a"], {}, k=3) is None


def test_evidence_ranking_puts_citations_first_then_best_rank():
    ranking = evidence_ranking(["c"], [["a", "b", "c"], ["d", "a"]], read=["e"])
    assert ranking == ["c", "a", "d", "b", "e"]


# ------------------------------------------------------------------ citations, facts, conflicts
def test_supported_unsupported_and_unknown_citations(judge):
    ans = "Metformin is contraindicated when the eGFR is below 30 mL/min/1.73 m2."
    s = judge.score(rec("q-t-001", ans, ["endo-dm-metformin", "pulm-gl-asthma-2023", "ghost-doc"]))
    assert s.metrics["citation_precision"] == pytest.approx(1 / 3)
    c = s.details["citations"]
    assert c["supporting_citations"] == ["endo-dm-metformin"]
    assert c["unsupported_citations"] == ["pulm-gl-asthma-2023"] and c["unknown_citations"] == ["ghost-doc"]
    assert s.metrics["claim_support"] == 1.0


def test_no_citation_is_not_applicable_for_precision_but_claims_are_unsupported(judge):
    s = judge.score(rec("q-t-001", "Metformin must be stopped below an eGFR of 30.", []))
    assert s.metrics["citation_precision"] is None and s.metrics["claim_support"] == 0.0


def test_gold_answers_cover_their_key_facts_and_not_others(judge, tiny_kb):
    """Calibration check of FACT_* thresholds on the tiny KB."""
    own, cross = [], []
    qs = [q for q in tiny_kb.questions.values() if q.key_facts]
    for q in qs:
        for other in qs:
            cov, _ = judge.key_fact_coverage(other.gold_answer, list(q.key_facts))
            (own if other.id == q.id else cross).append(cov)
    assert np.mean(own) >= 0.8
    assert np.mean(cross) <= 0.1


def test_support_thresholds_separate_relevant_from_irrelevant_documents(judge, tiny_kb):
    """Calibration check of SUPPORT_* thresholds: gold-answer claims vs grade>=2 documents and unrelated ones."""
    tp = fp = pos = neg = 0
    for q in tiny_kb.questions.values():
        claims = claims_of(q.gold_answer)
        if not claims or not q.relevant:
            continue
        docs = list(tiny_kb.documents)
        sup = judge.support_matrix(claims, docs).any(axis=0)
        for j, d in enumerate(docs):
            g = q.relevant.get(d, 0)
            if g >= 2:
                pos += 1
                tp += bool(sup[j])
            elif g == 0:
                neg += 1
                fp += bool(sup[j])
    assert tp / pos >= 0.8 and fp / neg <= 0.1, (tp, pos, fp, neg)


def test_numbers_must_match_for_a_fact(judge):
    cov, covered = judge.key_fact_coverage("The target INR is 3.5 with a range of 3.0 to 4.0.", ["target INR 3.0", "INR range 2.5 to 3.5 for mechanical mitral valves"])
    assert covered[1] is False


@pytest.mark.parametrize(
    ("answer", "cited", "expected"),
    [
        ("The 2024 guideline recommends SGLT2 inhibitors for everyone.", ["card-gl-hf-2024"], 1.0),
        ("SGLT2 inhibitors are not recommended outside trials.", ["card-gl-hf-2016"], 0.0),
        ("Both say different things about SGLT2 inhibitors.", ["card-gl-hf-2016", "card-gl-hf-2024"], 0.0),
        ("The 2024 guideline supersedes the older 2016 advice: use SGLT2 inhibitors.", ["card-gl-hf-2016", "card-gl-hf-2024"], 1.0),
    ],
)
def test_conflict_prefer_newer(judge, answer, cited, expected):
    assert judge.score(rec("q-t-004", answer, cited)).metrics["conflict_handling"] == expected


@pytest.mark.parametrize(
    ("answer", "cited", "expected"),
    [
        ("Northbridge uses 130/80 mmHg whereas Eastmoor uses 140/90 mmHg.", ["card-gl-htn-nbcs-2023", "card-gl-htn-ehc-2022"], 1.0),
        ("Hypertension is diagnosed at 130/80 mmHg.", ["card-gl-htn-nbcs-2023"], 0.0),
        ("Hypertension is diagnosed at 130/80 or 140/90 mmHg.", ["card-gl-htn-nbcs-2023", "card-gl-htn-ehc-2022"], 0.0),
    ],
)
def test_conflict_state_disagreement(judge, answer, cited, expected):
    assert judge.score(rec("q-t-005", answer, cited)).metrics["conflict_handling"] == expected


def test_unanswerable_questions(judge):
    yes = judge.score(rec("q-t-006", "The knowledge base does not contain information on yellow fever vaccination.", []))
    assert yes.metrics["abstention"] == 1.0 and yes.metrics["answer_correctness"] == 1.0
    assert yes.metrics["map"] is None and yes.metrics["citation_precision"] is None and yes.metrics["claim_support"] is None
    no = judge.score(rec("q-t-006", "Give the vaccine at 9 months of age.", ["card-do-af-2022"]))
    assert no.metrics["abstention"] == 0.0 and no.metrics["answer_correctness"] == 0.0


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("The knowledge base does not contain this information.", True),
        ("I could not find any information about this drug in the documents.", True),
        ("This question cannot be answered from the available sources.", True),
        ("The retrieved documents do not mention teprotumumab.", True),
        ("Start metformin at 500 mg daily.", False),
        ("Information is limited but the dose is 10 mg.", False),
    ],
)
def test_abstention_detection(text, expected):
    assert abstains(text) is expected


def test_unanswered_episode(judge):
    r = rec("q-t-002", "", [], lists=[["heme-dm-warfarin", "card-do-af-2022"]])
    r.answered = False
    s = judge.score(r)
    assert s.metrics["answer_correctness"] == 0.0 and s.metrics["map"] == 1.0 and s.status == "ok"


def test_aggregate_excludes_not_applicable_and_unscored(judge):
    a = judge.score(rec("q-t-006", "The knowledge base does not contain it.", []))
    b = judge.score(rec("q-t-001", "Metformin is contraindicated when the eGFR is below 30.", ["endo-dm-metformin"]))
    c = RAGScore(question_id="q-t-007", question_type="single", status="unscored", metrics=dict.fromkeys(b.metrics))
    out = aggregate([a, b, c.model_dump()])
    assert out["episodes"] == 3 and out["n_unscored"] == 1
    assert out["metrics"]["map"]["n"] == 1 and out["metrics"]["abstention"] == {"mean": 1.0, "n": 1}
    assert out["by_type"]["unanswerable"]["map"] is None


# ------------------------------------------------------------------ LLM judge (real local HTTP server)
def _client(srv, **kw):
    params = {"base_url": srv.base_url, "model": "fake-judge", "timeout": 3.0, "backoff_base": 0.01,
              "backoff_max": 0.02, "max_retries": 1, "role": "judge"}
    params.update(kw)
    return LLMClient(LLMConfig(**params))


def test_llm_judge_scores_key_facts_from_json(tiny_kb):
    reply = json.dumps({"criteria_met": [{"index": 1, "met": True, "evidence": "below 30"}, {"index": 2, "met": False, "evidence": ""}],
                        "abstained": False, "explanation": "first fact only"})
    with FakeOpenAIServer(handler=lambda body: reply) as srv:
        j = LLMRAGJudge(tiny_kb, _client(srv))
        s = j.score(rec("q-t-001", "Metformin is contraindicated below an eGFR of 30.", ["endo-dm-metformin"]))
        body = srv.requests[0]
    assert s.status == "ok" and s.judge == "llm" and s.metrics["answer_correctness"] == 0.5
    assert s.details["key_facts_covered"] == [True, False] and s.metrics["map"] == 1.0
    prompt = json.dumps(body["messages"])
    assert "KEY FACTS" in prompt and "metformin is contraindicated below an eGFR of 30" in prompt


def test_llm_judge_failures_are_unscored_never_zero(tiny_kb):
    answer = "Metformin is contraindicated below an eGFR of 30."
    with FakeOpenAIServer(handler=lambda body: "this is not json at all") as srv:
        s = LLMRAGJudge(tiny_kb, _client(srv, output_retries=0)).score(rec("q-t-001", answer, ["endo-dm-metformin"]))
    assert s.status == "unscored" and s.metrics["answer_correctness"] is None and "LLMOutputError" in s.errors[0]
    assert s.metrics["citation_precision"] == 1.0  # the offline parts are still scored
    with FakeOpenAIServer(handler=lambda body: ErrorReply(500, "down")) as srv:
        s = LLMRAGJudge(tiny_kb, _client(srv, max_retries=0)).score(rec("q-t-001", answer, ["endo-dm-metformin"]))
    assert s.status == "unscored" and s.metrics["answer_correctness"] is None and "LLMTransportError" in s.errors[0]
    reward, status, _ = reward_from(s, {"answer_correctness": 1.0})
    assert math.isnan(reward) and status == "unscored"


def test_llm_judge_can_check_citations(tiny_kb):
    def handler(body):
        if "DOCUMENT" in json.dumps(body["messages"]):
            return json.dumps({"documents": [{"id": "endo-dm-metformin", "supports_answer": True},
                                             {"id": "pulm-gl-asthma-2023", "supports_answer": False}], "explanation": "."})
        return json.dumps({"criteria_met": [{"index": 1, "met": True, "evidence": "x"}], "abstained": False, "explanation": "."})

    with FakeOpenAIServer(handler=handler) as srv:
        j = LLMRAGJudge(tiny_kb, _client(srv), judge_citations=True)
        s = j.score(rec("q-t-001", "Metformin is contraindicated below 30.", ["endo-dm-metformin", "pulm-gl-asthma-2023"]))
    assert s.metrics["citation_precision"] == 0.5 and s.details["llm_supporting_citations"] == ["endo-dm-metformin"]


# ------------------------------------------------------------------ reward wrapper
def test_reward_is_weighted_mean_of_applicable_components(judge):
    s = judge.score(rec("q-t-006", "The knowledge base does not contain it.", []))
    reward, status, br = reward_from(s, {"answer_correctness": 0.5, "ndcg@10": 0.5})
    assert status == "ok" and reward == 1.0 and br["components"] == {"answer_correctness": 1.0}


def test_wrapper_rewards_on_termination_and_records_args(make_env):
    from medgym.envs.rag.tools import tool_call

    env = RAGJudgeWrapper(make_env(), weights={"answer_correctness": 1.0})
    env.reset(options={"question_id": "q-t-001"})
    _, r0, *_ = env.step(tool_call("search", query="metformin"))
    assert r0 == 0.0
    text = "Metformin is contraindicated when the eGFR is below 30; when the eGFR is between 30 and 45 do not start it."
    _, r, term, _, info = env.step(tool_call("answer", text=text, cited_ids=["endo-dm-metformin"]))
    assert term and r == pytest.approx(info["scores"]["metrics"]["answer_correctness"]) and r == 1.0
    assert info["reward_breakdown"]["components"] == {"answer_correctness": 1.0}
    assert env.spec.kwargs["data_dir"]
    with pytest.raises(Exception, match="did you mean"):
        RAGJudgeWrapper(make_env(), weights={"mapp": 1.0})


def test_wrapper_with_failing_llm_judge_gives_nan_reward_not_zero(make_env):
    from medgym.envs.rag.tools import tool_call

    with FakeOpenAIServer(handler=lambda body: ErrorReply(500, "down")) as srv:
        env = RAGJudgeWrapper(make_env(), judge="llm", client=_client(srv, max_retries=0))
        env.reset(options={"question_id": "q-t-001"})
        text = "Metformin is contraindicated when the eGFR is below 30."
        _, r, term, _, info = env.step(tool_call("answer", text=text, cited_ids=["endo-dm-metformin"]))
    assert term and math.isnan(r)
    assert info["reward_status"] == "unscored" and info["scores"]["status"] == "unscored"
    assert info["scores"]["metrics"]["answer_correctness"] is None
    assert info["scores"]["metrics"]["map"] == 1.0  # rule-based metrics are still recorded
