"""``medgym rag eval``: run a RAG agent over the knowledge-base questions and score it.

Every question of the pool is one episode of ``medgym/RAGAgent-v0`` wrapped in
:class:`~medgym.judges.rag_wrapper.RAGJudgeWrapper`. One JSON line per episode
(format ``medgym.rag_episode`` v1: scores, reward, timing and the full trajectory)
is appended to ``--out``; a summary (``<out>.summary.json``: aggregate metrics,
per question type, configuration, package versions, git revision) is written next
to it and printed. An agent failure (e.g. the LLM endpoint is down) is recorded as
an ``error`` episode and excluded from the means -- never scored 0.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path
from typing import Any

EPISODE_FORMAT = "medgym.rag_episode"
EPISODE_VERSION = 1
BUILTIN_AGENTS = {
    "reference": "medgym.agents.rag_reference:make_reference_agent",
    "llm": "medgym.agents.rag_llm:make_llm_agent",
}
TABLE_METRICS = [
    ("map", "MAP"),
    ("ndcg@10", "nDCG@10"),
    ("recall@k", "Recall@k"),
    ("citation_precision", "citation precision"),
    ("claim_support", "claim support"),
    ("answer_correctness", "answer correctness"),
    ("conflict_handling", "conflict handling"),
    ("abstention", "abstention (unanswerable)"),
]


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("rag", help="evaluate RAG agents on the RAGAgent testbed")
    sub = p.add_subparsers(dest="rag_command", metavar="ACTION", required=True)
    ev = sub.add_parser("eval", help="run an agent over the questions, print metrics, write a JSONL of episodes")
    ev.add_argument("--agent", default="reference", help="reference, llm, or package.module:factory")
    ev.add_argument("--judge", choices=["reference", "llm"], default="reference")
    ev.add_argument("--judge-citations", action="store_true", help="LLM judge also checks citation support")
    ev.add_argument("--data-dir", type=Path, default=None)
    ev.add_argument("--index-dir", type=Path, default=None)
    ev.add_argument("--no-auto-build", action="store_true", help="fail instead of building a missing index")
    ev.add_argument("--question", action="append", dest="questions", help="question id (repeatable)")
    ev.add_argument("--type", action="append", dest="types", help="question type (repeatable)")
    ev.add_argument("--limit", type=int, default=None, help="first N questions of the pool")
    ev.add_argument("--seed", type=int, default=0)
    ev.add_argument("--out", type=Path, default=Path("runs/rag/episodes.jsonl"), help="JSONL of episodes")
    ev.add_argument("--model", help="LLM agent: model name")
    ev.add_argument("--base-url", help="LLM agent: OpenAI-compatible base URL")
    ev.add_argument("--json", action="store_true", help="print the summary as JSON")
    ev.set_defaults(func=_eval)


def make_rag_agent(spec: str, **config: Any) -> Any:
    from medgym.agents.base import as_policy
    from medgym.agents.registry import resolve_factory
    from medgym.errors import UnknownNameError
    from medgym.registry import did_you_mean

    target = BUILTIN_AGENTS.get(spec, spec)
    if ":" not in target:
        known = sorted(BUILTIN_AGENTS)
        raise UnknownNameError("RAG agent", spec, known, did_you_mean(spec, known))
    return as_policy(resolve_factory(target)(**config))


def run_eval(
    agent_spec: str = "reference",
    *,
    judge: str = "reference",
    judge_citations: bool = False,
    data_dir: Path | str | None = None,
    index_dir: Path | str | None = None,
    auto_build: bool = True,
    questions: list[str] | None = None,
    types: list[str] | None = None,
    limit: int | None = None,
    seed: int = 0,
    out: Path | str | None = None,
    agent_config: dict[str, Any] | None = None,
    env: Any = None,
) -> dict[str, Any]:
    """Run the evaluation; returns the summary (and writes the JSONL when ``out`` is given)."""
    import gymnasium as gym

    import medgym  # noqa: F401 - registers the environment ids
    from medgym.judges.rag_scoring import RAGScore, aggregate
    from medgym.judges.rag_wrapper import RAGJudgeWrapper
    from medgym.llm import LLMError

    if env is None:
        env = gym.make(
            "medgym/RAGAgent-v0",
            data_dir=str(data_dir) if data_dir else None,
            index_root=str(index_dir) if index_dir else None,
            auto_build=auto_build,
            question_ids=questions,
            question_types=types,
        )
        env = RAGJudgeWrapper(env, judge=judge, judge_citations=judge_citations)
    base = env.unwrapped
    pool = list(base.question_pool)[:limit] if limit else list(base.question_pool)
    agent = make_rag_agent(agent_spec, **(agent_config or {}))
    agent_name = getattr(agent, "name", agent_spec)
    out_path = Path(out) if out else None
    if out_path:
        out_path.parent.mkdir(parents=True, exist_ok=True)
        out_path.write_text("", encoding="utf-8")
    scores: list[RAGScore] = []
    rewards: list[float] = []
    errors = 0
    t_start = time.perf_counter()
    for i, qid in enumerate(pool):
        t0 = time.perf_counter()
        obs, info = env.reset(seed=seed + i, options={"question_id": qid})
        if hasattr(agent, "reset"):
            agent.reset()
        record: dict[str, Any] = {"format": EPISODE_FORMAT, "version": EPISODE_VERSION, "question_id": qid,
                                  "question_type": base.kb.questions[qid].type.value, "agent": agent_name,
                                  "judge": judge, "seed": seed + i}
        terminated = truncated = False
        reward = 0.0
        try:
            while not (terminated or truncated):
                action = agent.act(obs, info)
                obs, reward, terminated, truncated, info = env.step(action)
        except LLMError as exc:
            errors += 1
            record.update(status="error", error=f"{type(exc).__name__}: {exc}")
        else:
            score = RAGScore.model_validate(info["scores"])
            scores.append(score)
            if not math.isnan(reward):
                rewards.append(float(reward))
            record.update(status=score.status, reward=None if math.isnan(reward) else reward,
                          reward_status=info.get("reward_status"), scores=info["scores"])
        record.update(terminated=terminated, truncated=truncated, steps=len(base.trajectory().steps),
                      seconds=round(time.perf_counter() - t0, 4),
                      trajectory=base.trajectory(truncated=truncated).model_dump(mode="json"))
        if out_path:
            with open(out_path, "a", encoding="utf-8") as fh:
                fh.write(json.dumps(record, ensure_ascii=False) + "\n")
    elapsed = time.perf_counter() - t_start
    summary = aggregate(scores)
    summary.update(
        agent=agent_name,
        judge=judge,
        n_errors=errors,
        mean_reward=(sum(rewards) / len(rewards)) if rewards else None,
        seconds=round(elapsed, 3),
        questions_per_second=round(len(pool) / elapsed, 3) if elapsed > 0 else None,
        kb={"documents": len(base.kb.documents), "content_hash": base.kb.content_hash, "data_dir": base.kb.data_dir},
        seed=seed,
    )
    if out_path:
        summary["episodes_file"] = str(out_path)
        try:
            from medgym.runner.manifest import git_revision, package_versions

            summary["provenance"] = {"packages": package_versions(), "git": git_revision()}
        except ImportError:  # pragma: no cover - the runner is part of medgym
            pass
        Path(str(out_path) + ".summary.json").write_text(json.dumps(summary, indent=2, default=str), encoding="utf-8")
    return summary


def format_summary(summary: dict[str, Any]) -> str:
    lines = [
        f"agent {summary['agent']} | judge {summary['judge']} | {summary['episodes']} episodes "
        f"({summary['n_unscored']} unscored, {summary['n_errors']} errors) | {summary['questions_per_second']} questions/s",
        f"{'metric':<28}{'mean':>8}{'n':>6}",
    ]
    for key, label in TABLE_METRICS:
        m = summary["metrics"].get(key, {})
        mean = m.get("mean")
        lines.append(f"{label:<28}{(f'{mean:.3f}' if mean is not None else 'n/a'):>8}{m.get('n', 0):>6}")
    if summary.get("mean_reward") is not None:
        lines.append(f"{'reward (judge wrapper)':<28}{summary['mean_reward']:>8.3f}")
    return "\n".join(lines)


def _eval(args: argparse.Namespace) -> int:
    agent_config: dict[str, Any] = {}
    if args.model:
        agent_config["model"] = args.model
    if args.base_url:
        agent_config["base_url"] = args.base_url
    summary = run_eval(
        args.agent,
        judge=args.judge,
        judge_citations=args.judge_citations,
        data_dir=args.data_dir,
        index_dir=args.index_dir,
        auto_build=not args.no_auto_build,
        questions=args.questions,
        types=args.types,
        limit=args.limit,
        seed=args.seed,
        out=args.out,
        agent_config=agent_config,
    )
    if args.json:
        print(json.dumps(summary, indent=2, default=str))
    else:
        print(format_summary(summary))
        print(f"episodes: {args.out}  summary: {args.out}.summary.json", file=sys.stderr)
    return 0
