"""``medgym/RAGAgent-v0``: retrieval-augmented clinical QA over a ChromaDB knowledge base.

Each episode is one question from the knowledge base. The agent works through JSON
tool calls (schemas in ``reset``'s ``info["tools"]``):

* ``rewrite_query(query)`` -- abbreviation expansion and normalisation;
* ``search(query, k=5, filters={year_min, year_max, source_type, specialty,
  evidence_level}, mode="hybrid")`` -- hybrid dense + BM25 search;
* ``rerank(query, doc_ids)`` -- offline re-ranking of candidates;
* ``read_document(id)`` -- the full document with its metadata, including which
  documents it supersedes and which supersede it;
* ``answer(text, cited_ids)`` -- the final answer; terminates the episode.

Observations are JSON text: ``{"type": "question", ...}`` after reset, then
``{"type": "tool_result", "tool": ..., "ok": true, "result": {...}}`` or
``{"type": "tool_error", "ok": false, "error": "..."}``. A bad action (unparsable JSON,
unknown tool, unknown document id, empty query, invalid filter) yields a tool error
and the episode goes on; a 10,000-character query is cut to 1,000 characters and
the result says so. ``max_episode_steps`` (registration: 30) truncates.

The environment's reward is always 0.0. On termination ``info["scores"]`` holds the
offline reference scoring (:mod:`medgym.judges.rag_scoring`: MAP, nDCG@10, Recall@k,
citation precision, answer correctness, conflict handling) and the reward comes
from :class:`medgym.judges.rag_wrapper.RAGJudgeWrapper`.

Index: the knowledge base is loaded from ``data_dir`` (default: the packaged
``knowledge_base/rag/data``) and the chroma index from ``index_root`` (default
``$MEDGYM_CACHE_DIR/kb`` or ``~/.cache/medgym/kb``). With ``auto_build=True`` (the
default) a missing or out-of-date index is built on first use, with a logged
warning and ``info["kb"]["auto_built"] = True``; a *corrupted* index always raises
:class:`~medgym.knowledge_base.rag.errors.IndexCorruptError` telling the user to run
``medgym kb build --force``.

Reset options: ``question_id`` (else drawn with ``np_random`` from the env's
question pool, optionally restricted by the ``question_ids`` / ``question_types``
constructor arguments).

Version History:
    * v0: initial release (trajectory format ``medgym.rag_trajectory`` version 1).
"""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

import gymnasium as gym

from medgym.envs.rag.tools import (
    AnswerArgs,
    ReadArgs,
    RerankArgs,
    RewriteArgs,
    SearchArgs,
    parse_action,
    tool_schemas,
    validate_arguments,
)
from medgym.envs.rag.trajectory import RAGAnswer, RAGStep, RAGTrajectory
from medgym.envs.spaces import coerce_text, text_space, to_charset
from medgym.errors import ActionError, EpisodeStateError, MedgymError, UnknownNameError
from medgym.judges.rag_scoring import EpisodeRecord, RAGScore, ReferenceRAGJudge
from medgym.knowledge_base.rag.filters import SearchFilters
from medgym.knowledge_base.rag.retriever import DocHit, Retriever, shared_retriever
from medgym.knowledge_base.rag.schema import QuestionType
from medgym.registry import did_you_mean

log = logging.getLogger(__name__)

MAX_OBSERVATION_LENGTH = 32_000
MAX_ACTION_LENGTH = 20_000
INSTRUCTIONS = (
    "Answer the clinical question using the knowledge base tools. Search (optionally rewrite the query first, "
    "filter by year, source type, specialty or evidence level), rerank and read documents, then call answer "
    "with your answer text and the ids of the documents that support it. Prefer newer and higher-evidence "
    "sources when documents conflict and say so, or state the disagreement openly. If the knowledge base does "
    "not contain the answer, say that it does not and cite nothing. Actions are JSON: "
    '{"tool": "<name>", "arguments": {...}}.'
)


class RAGAgentEnv(gym.Env[str, str]):
    metadata = {"render_modes": ["ansi"], "render_fps": 1}

    def __init__(
        self,
        render_mode: str | None = None,
        data_dir: str | Path | None = None,
        index_root: str | Path | None = None,
        auto_build: bool = True,
        question_ids: list[str] | None = None,
        question_types: list[str] | None = None,
        recall_k: int = 10,
        score_in_env: bool = True,
        max_action_length: int = MAX_ACTION_LENGTH,
        agent_name: str | None = None,
        retriever: Retriever | None = None,
    ):
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']} or None, got {render_mode!r}")
        self.render_mode = render_mode
        self.retriever = (
            retriever if retriever is not None else shared_retriever(data_dir, index_root, auto_build=auto_build)
        )
        self.kb = self.retriever.kb
        if not self.kb.questions:
            raise MedgymError(f"the knowledge base at {self.kb.data_dir} has no questions (questions_*.yaml)")
        pool = sorted(self.kb.questions)
        if question_ids:
            pool = [self.kb.question(q).id for q in question_ids]
        if question_types:
            valid = [t.value for t in QuestionType]
            for t in question_types:
                if t not in valid:
                    raise UnknownNameError("question type", t, valid, did_you_mean(t, valid))
            pool = [q for q in pool if self.kb.questions[q].type.value in question_types]
        if not pool:
            raise MedgymError("no question matches the given question_ids / question_types")
        self.question_pool = pool
        self.recall_k = int(recall_k)
        self.score_in_env = score_in_env
        self.max_action_length = max_action_length
        self.agent_name = agent_name
        self.judge = ReferenceRAGJudge(self.kb, recall_k=self.recall_k)
        self.observation_space = text_space(MAX_OBSERVATION_LENGTH)
        self.action_space = text_space(max_action_length)
        self._question_id: str | None = None
        self._steps: list[RAGStep] = []
        self._answer: RAGAnswer | None = None
        self._done = True
        self._last_obs = ""

    # ------------------------------------------------------------------ helpers
    def _obs(self, payload: dict[str, Any]) -> str:
        """Serialise an observation, shrinking snippets if it would not fit the space."""
        text = to_charset(json.dumps(payload, ensure_ascii=False))
        if len(text) <= MAX_OBSERVATION_LENGTH:
            return text
        res = payload.get("result") or {}
        for limit in (160, 60, 0):
            for item in res.get("results", []):
                if "snippet" in item:
                    item["snippet"] = item["snippet"][:limit]
            text = to_charset(json.dumps(payload, ensure_ascii=False))
            if len(text) <= MAX_OBSERVATION_LENGTH:
                return text
        return to_charset(json.dumps({"type": "tool_error", "ok": False, "error": "result too large to display"}))

    def _doc_summary(self, hit: DocHit) -> dict[str, Any]:
        d = self.kb.documents[hit.doc_id]
        return {
            "id": d.id,
            "title": d.title,
            "source_type": d.source_type.value,
            "issuing_body": d.issuing_body,
            "publication_year": d.publication_year,
            "version": d.version,
            "evidence_level": d.evidence_level.value,
            "specialty": d.specialty,
            "score": hit.score,
            "snippet": hit.snippet,
        }

    def _info(self) -> dict[str, Any]:
        return {
            "question_id": self._question_id,
            "step": len(self._steps),
            "kb": {
                "n_documents": len(self.kb.documents),
                "content_hash": self.kb.content_hash,
                "index_path": str(self.retriever.index.path),
                "auto_built": self.retriever.auto_built,
            },
        }

    @property
    def question(self):
        if self._question_id is None:
            raise EpisodeStateError("no question yet: call reset() first")
        return self.kb.questions[self._question_id]

    # ------------------------------------------------------------------ tools
    def _query(self, raw: str) -> tuple[str, bool]:
        q, truncated = self.retriever.rewriter.normalise(raw)
        if not q:
            raise ActionError("query is empty: give a question or keywords")
        return q, truncated

    def _run_tool(self, name: str, args: Any) -> tuple[dict[str, Any], list[str]]:
        if name == "rewrite_query":
            a: RewriteArgs = args
            self._query(a.query)  # empty queries are an error here too
            return self.retriever.rewriter.rewrite(a.query), []
        if name == "search":
            s: SearchArgs = args
            q, truncated = self._query(s.query)
            filters = SearchFilters.parse(s.filters)
            hits = self.retriever.search(q, k=s.k, filters=filters, mode=s.mode)
            res = {
                "query": q,
                "truncated": truncated,
                "mode": s.mode,
                "filters": filters.as_dict(),
                "results": [self._doc_summary(h) for h in hits],
            }
            if truncated:
                res["note"] = f"the query was cut to {len(q)} characters"
            if not hits:
                res["note"] = "no document matches this query and these filters"
            return res, [h.doc_id for h in hits]
        if name == "rerank":
            r: RerankArgs = args
            q, truncated = self._query(r.query)
            hits = self.retriever.rerank(q, r.doc_ids)
            return {"query": q, "truncated": truncated, "results": [self._doc_summary(h) for h in hits]}, [h.doc_id for h in hits]
        if name == "read_document":
            rd: ReadArgs = args
            d = self.retriever.document(rd.id)
            return {
                "id": d.id,
                "title": d.title,
                "source_type": d.source_type.value,
                "issuing_body": d.issuing_body,
                "publication_year": d.publication_year,
                "version": d.version,
                "evidence_level": d.evidence_level.value,
                "specialty": d.specialty,
                "supersedes": list(d.supersedes),
                "superseded_by": list(self.kb.superseded_by.get(d.id, [])),
                "text": d.text.strip(),
            }, [d.id]
        raise ActionError(f"unknown tool {name!r}")  # parse_action already rejects these

    # ------------------------------------------------------------------ gym API
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[str, dict[str, Any]]:
        super().reset(seed=seed)
        options = dict(options or {})
        unknown = set(options) - {"question_id"}
        if unknown:
            raise ActionError(f"unknown reset option(s) {sorted(unknown)}; expected question_id")
        qid = options.get("question_id")
        if qid is None:
            qid = self.question_pool[int(self.np_random.integers(len(self.question_pool)))]
        self._question_id = self.kb.question(str(qid)).id
        self._steps = []
        self._answer = None
        self._done = False
        q = self.question
        obs = self._obs({"type": "question", "question_id": q.id, "question": q.question, "instructions": INSTRUCTIONS})
        self._last_obs = obs
        info = self._info()
        info["tools"] = tool_schemas()
        return obs, info

    def step(self, action: str) -> tuple[str, float, bool, bool, dict[str, Any]]:
        if self._done or self._question_id is None:
            raise EpisodeStateError("episode is over (or not started): call reset() before step()")
        index = len(self._steps) + 1
        raw = action if isinstance(action, str) else repr(action)
        name: str | None = None
        try:
            text = coerce_text(action, self.max_action_length)
            name, raw_args = parse_action(text)
            args = validate_arguments(name, raw_args)
            if name == "answer":
                return self._finish(index, raw, args)  # type: ignore[arg-type]
            result, ids = self._run_tool(name, args)
        except (ActionError, UnknownNameError) as exc:
            msg = str(exc)
            self._steps.append(RAGStep(index=index, action=raw[:2000], tool=name, ok=False, error=msg))
            obs = self._obs({"type": "tool_error", "tool": name, "ok": False, "error": msg})
            self._last_obs = obs
            info = self._info()
            info["tool_error"] = msg
            return obs, 0.0, False, False, info
        self._steps.append(
            RAGStep(index=index, action=raw[:2000], tool=name, arguments=args.model_dump(mode="json"), ok=True, result=result, result_ids=ids)
        )
        obs = self._obs({"type": "tool_result", "tool": name, "ok": True, "result": result})
        self._last_obs = obs
        return obs, 0.0, False, False, self._info()

    def _finish(self, index: int, raw: str, args: AnswerArgs) -> tuple[str, float, bool, bool, dict[str, Any]]:
        cited = list(dict.fromkeys(args.cited_ids))
        unknown = [c for c in cited if c not in self.kb.documents]
        self._answer = RAGAnswer(text=args.text, cited_ids=cited)
        result = {"accepted": True, "cited_ids": cited, "unknown_cited_ids": unknown}
        self._steps.append(
            RAGStep(index=index, action=raw[:2000], tool="answer", arguments=args.model_dump(mode="json"), ok=True, result=result, result_ids=[])
        )
        self._done = True
        obs = self._obs({"type": "episode_end", "tool": "answer", "ok": True, "result": result})
        self._last_obs = obs
        info = self._info()
        info["answer"] = {"text": args.text, "cited_ids": cited, "unknown_cited_ids": unknown}
        if self.score_in_env:
            info["scores"] = self.score().model_dump(mode="json")
        return obs, 0.0, True, False, info

    # ------------------------------------------------------------------ outputs
    def trajectory(self, truncated: bool = False) -> RAGTrajectory:
        q = self.question
        return RAGTrajectory(
            question_id=q.id,
            question=q.question,
            kb_content_hash=self.kb.content_hash,
            steps=[s.model_copy(deep=True) for s in self._steps],
            answer=self._answer.model_copy() if self._answer else None,
            terminated=self._answer is not None,
            truncated=truncated and self._answer is None,
            agent=self.agent_name,
        )

    def episode_record(self) -> EpisodeRecord:
        return self.trajectory().episode_record()

    def score(self, judge: Any = None) -> RAGScore:
        """Score the episode so far (an unanswered episode scores its retrieval; the answer is missing)."""
        return (judge or self.judge).score(self.episode_record())

    def save_trajectory(self, path: str | Path, truncated: bool = False) -> str:
        return str(self.trajectory(truncated=truncated).save(path))

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        if self._question_id is None:
            return ""
        lines = [f"== {self._question_id}: {self.question.question}"]
        for s in self._steps:
            status = "ok" if s.ok else f"error: {s.error}"
            lines.append(f"[{s.index}] {s.tool or '?'} {json.dumps(s.arguments, ensure_ascii=False)[:200]} -> {status}")
            if s.result_ids:
                lines.append("     " + ", ".join(s.result_ids[:10]))
        if self._answer:
            lines.append(f"ANSWER: {self._answer.text}\nCITED: {', '.join(self._answer.cited_ids)}")
        return "\n".join(lines) + "\n"
