"""Offline reference RAG agent: a compiled LangGraph graph, deterministic, no LLM.

Pipeline (one tool call per environment step): ``rewrite_query`` -> hybrid
``search`` -> ``rerank`` -> ``read_document`` of the best few (and of any newer
document that supersedes one of them) -> lexical ``search`` probes of question words
no read document uses -> an extractive ``answer`` with citations.

The graph runs once per ``act`` call: ``ingest`` folds the latest observation into
the state, a router picks the next stage from what is already known, and that
stage's node writes the next action. The state (a TypedDict with an
``add_messages`` message log and a step budget) lives in the agent between calls.

The answer is extractive: the sentences of the read documents most similar to the
question (MiniLM cosine plus term overlap), at most two per document, each followed
by its ``[doc-id]``. Conflicts are handled from document metadata only -- never
from the gold conflict sets:

* a read document that a newer read document supersedes is dropped, and the
  answer says which document supersedes which;
* when the two best documents make different numeric statements about the question
  (a dose, a threshold), the higher-evidence one is followed and the answer says
  so; at equal evidence level the answer states the disagreement and cites both;
* a patient leaflet is not cited next to a higher-evidence document on the same
  topic.

When the best re-ranked document is not similar enough to the question -- or only
moderately similar while the question names a word (a drug, a disease) that the
whole knowledge base never uses, as the lexical probes show -- the agent answers
that the knowledge base does not contain the answer and cites nothing.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Annotated, Any, TypedDict

from langchain_core.messages import AIMessage, HumanMessage
from langgraph.graph import END, START, StateGraph
from langgraph.graph.message import add_messages

from medgym.knowledge_base.rag.bm25 import content_terms
from medgym.knowledge_base.rag.chunking import split_sentences
from medgym.knowledge_base.rag.embedding import bulk_autocast, torch_threads
from medgym.knowledge_base.rag.schema import EVIDENCE_RANK
from medgym.text.embeddings import embed

_NUM = re.compile(r"(?<![\w.])\d+(?:\.\d+)?(?:/\d+(?:\.\d+)?)?")
ABSTAIN_TEXT = (
    "The knowledge base does not contain information that answers this question, so I cannot answer it "
    "from the available documents."
)


@dataclass
class ReferenceConfig:
    k_search: int = 10
    n_rerank: int = 10
    n_read: int = 3
    read_margin: float = 0.15  # read documents whose rerank score is within this of the best
    max_sentences: int = 6
    per_doc: int = 4
    sentence_margin: float = 0.40  # quote sentences scoring within this of the best sentence
    max_embed: int = 16  # sentences embedded per answer (the rest score on term overlap)
    abstain_below: float = 0.40  # best rerank score under which the KB is taken not to cover the question
    abstain_unknown_below: float = 0.56  # ... when the question names a term the KB never uses
    max_probes: int = 5
    same_topic: float = 0.60  # cosine of two statements about the same point
    max_steps: int = 28


class RAGState(TypedDict, total=False):
    messages: Annotated[list, add_messages]
    question_id: str
    question: str
    observation: dict[str, Any]
    rewritten: str | None
    search_results: list[dict[str, Any]] | None
    reranked: list[dict[str, Any]] | None
    to_read: list[str]
    read_docs: list[dict[str, Any]]
    to_probe: list[str] | None
    probing: str | None
    unknown_terms: list[str]
    steps: int
    budget: int
    action: str
    route: str


def _call(name: str, **arguments: Any) -> str:
    return json.dumps({"tool": name, "arguments": arguments}, ensure_ascii=False)


def _numbers(text: str) -> set[str]:
    return set(_NUM.findall(text))


_QUANTITATIVE = re.compile(
    r"\b(?:dose|doses|dosing|dosage|mg|how much|how many|target|threshold|level|levels|range|maximum|minimum|"
    r"how long|how often|interval|duration|rate|score|value|values|concentration|above|below|at what|when|"
    r"within|up to|limit|limits)\b",
    re.IGNORECASE,
)
_WORD = re.compile(r"[A-Za-z][a-z]+")
_GENERAL_SUFFIXES = ("ing", "ed", "ly", "ness", "ment", "ful", "able", "ible")


@dataclass
class Sentence:
    doc_id: str
    text: str
    score: float
    order: int
    cosine: float = 0.0


@dataclass
class ComposedAnswer:
    text: str
    cited: list[str]
    notes: list[str] = field(default_factory=list)


def _score_sentences(question: str, docs: Sequence[dict[str, Any]], max_embed: int = 24) -> list[Sentence]:
    """Score sentences by MiniLM cosine to the question plus term-overlap and number bonuses.

    Only the ``max_embed`` sentences with the most query-term overlap are embedded
    (the rest score on overlap alone): embedding dominates the agent's run time,
    and a sentence sharing no term with the question is rarely the one to quote.
    Quantitative questions ("what dose", "at what level") favour sentences with numbers.
    """
    q_terms = content_terms(question)
    quantitative = bool(_QUANTITATIVE.search(question))
    items: list[tuple[str, str, int, float]] = []
    for d in docs:
        for i, s in enumerate(split_sentences(d["text"])):
            terms = content_terms(s)
            overlap = len(q_terms & terms) / len(q_terms) if q_terms else 0.0
            items.append((d["id"], s, i, overlap))
    if not items:
        return []
    order = sorted(range(len(items)), key=lambda j: (-items[j][3], j))
    chosen = order[:max_embed]
    with bulk_autocast(), torch_threads(1):
        vecs = embed([question] + [items[j][1] for j in chosen])
    sims = dict(zip(chosen, (vecs[1:] @ vecs[0]).tolist(), strict=True))
    out = []
    for j, (doc_id, s, i, overlap) in enumerate(items):
        cos = float(sims.get(j, 0.0))
        bonus = 0.06 if quantitative and _numbers(s) else 0.0
        out.append(Sentence(doc_id, s, cos + 0.15 * overlap + bonus, i, cos))
    return out


def _cosine(a: str, b: str) -> float:
    with torch_threads(1):
        va, vb = embed([a, b])
    return float(va @ vb)


def probe_terms(question: str, docs: Sequence[dict[str, Any]], limit: int = 3) -> list[str]:
    """Words of the question (6+ letters) that no read document uses, even inflected (same 6-letter stem).

    They are probed with a lexical search: a question naming a drug or disease the
    knowledge base never mentions is a sign it cannot be answered from it.
    """
    seen = set()
    for d in docs:
        for w in _WORD.findall(d.get("title", "") + " " + d.get("text", "")):
            seen.add(w.lower()[:6])
    out = []
    for w in _WORD.findall(question):
        lw = w.lower()
        if lw.endswith(_GENERAL_SUFFIXES):
            continue  # "recovering", "appeared": general English, not a drug or disease name
        if len(lw) >= 6 and lw[:6] not in seen and lw not in out:
            out.append(lw)
    return sorted(out, key=lambda t: (-len(t), t))[:limit]


def compose_answer(
    question: str, docs: Sequence[dict[str, Any]], doc_scores: dict[str, float], cfg: ReferenceConfig
) -> ComposedAnswer:
    """Extractive answer with citations and metadata-based conflict handling."""
    if not docs:
        return ComposedAnswer(ABSTAIN_TEXT, [])
    by_id = {d["id"]: d for d in docs}
    ranked = sorted(by_id, key=lambda i: (-doc_scores.get(i, 0.0), i))
    notes: list[str] = []
    # 1. supersession among the read documents: the older one is not quoted
    superseded: dict[str, str] = {}
    for d in docs:
        for old in d.get("supersedes", []):
            if old in by_id:
                superseded[old] = d["id"]
        for new in d.get("superseded_by", []):
            if new in by_id:
                superseded[d["id"]] = new
    active = [i for i in ranked if i not in superseded]
    sentences = _score_sentences(question, [by_id[i] for i in active], cfg.max_embed)
    best_of: dict[str, list[Sentence]] = {}
    for s in sorted(sentences, key=lambda s: (-s.score, s.doc_id, s.order)):
        best_of.setdefault(s.doc_id, []).append(s)
    top = [i for i in active if best_of.get(i)]
    must_cite: list[str] = []
    for old, new in sorted(superseded.items()):
        # say so only when the pair is about this question: the old or new version ranks among the best two
        if old in ranked[:2] or new in ranked[:2]:
            o, n = by_id[old], by_id[new]
            notes.append(
                f"Note: the {n['publication_year']} document \"{n['title']}\" supersedes the older "
                f"{o['publication_year']} version, so this answer follows the current recommendation [{new}]."
            )
            must_cite.append(new)
    # 2. competing documents on the same point: leaflet, evidence level, or open disagreement
    excluded: set[str] = set()
    quantitative = bool(_QUANTITATIVE.search(question))

    def point_of(doc_id: str) -> Sentence:
        """The document's statement on the question: its best sentence (with a number, if asked for one)."""
        cands = best_of[doc_id]
        if quantitative:
            numeric = [s for s in cands[:4] if _numbers(s.text)]
            if numeric:
                return numeric[0]
        return cands[0]

    for a, b in [(top[0], x) for x in top[1:3]] if top else []:
        if a in excluded or b in excluded:
            continue
        sa, sb = point_of(a), point_of(b)
        same_point = _cosine(sa.text, sb.text) >= cfg.same_topic
        ea, eb = EVIDENCE_RANK[by_id[a]["evidence_level"]], EVIDENCE_RANK[by_id[b]["evidence_level"]]
        na, nb = _numbers(sa.text), _numbers(sb.text)
        numeric_conflict = same_point and bool(na and nb and na != nb)
        leaflet = [x for x in (a, b) if by_id[x]["source_type"] == "patient_leaflet"]
        if len(leaflet) == 1 and ea != eb and (same_point or leaflet[0] == a):
            weak = leaflet[0]
            strong = b if weak == a else a
            if EVIDENCE_RANK[by_id[strong]["evidence_level"]] > EVIDENCE_RANK[by_id[weak]["evidence_level"]]:
                excluded.add(weak)
                notes.append(
                    f"The patient leaflet [{weak}] simplifies this; the answer follows the higher-evidence "
                    f"{by_id[strong]['source_type'].replace('_', ' ')} [{strong}]."
                )
                must_cite.append(strong)
        elif numeric_conflict and ea != eb:
            weak, strong = (a, b) if ea < eb else (b, a)
            excluded.add(weak)
            notes.append(
                f"Sources differ: [{weak}] (evidence level {by_id[weak]['evidence_level']}) gives different "
                f"figures; the answer follows the higher-evidence source [{strong}] "
                f"(evidence level {by_id[strong]['evidence_level']})."
            )
            must_cite.append(strong)
        elif numeric_conflict and by_id[a]["issuing_body"] != by_id[b]["issuing_body"]:
            text = (
                f"The sources disagree. {by_id[a]['issuing_body']} ({by_id[a]['publication_year']}) states: "
                f"{sa.text} [{a}] Whereas {by_id[b]['issuing_body']} ({by_id[b]['publication_year']}) states: "
                f"{sb.text} [{b}]"
            )
            cited = [a, b] + [c for c in must_cite if c not in (a, b)]
            return ComposedAnswer(text + ("\n" + " ".join(notes) if notes else ""), cited, notes)
    # 3. the best sentences, at most per_doc per document
    pool = sorted((s for s in sentences if s.doc_id not in excluded), key=lambda s: (-s.score, s.doc_id, s.order))
    if not pool:
        return ComposedAnswer(ABSTAIN_TEXT, [])
    top_score = pool[0].score
    picked: list[Sentence] = []
    per_doc: dict[str, int] = {}
    for s in pool:
        if len(picked) >= cfg.max_sentences or s.score < top_score - cfg.sentence_margin:
            break
        if per_doc.get(s.doc_id, 0) >= cfg.per_doc:
            continue
        picked.append(s)
        per_doc[s.doc_id] = per_doc.get(s.doc_id, 0) + 1
    doc_order = list(dict.fromkeys(s.doc_id for s in picked))  # documents in rank order of their best sentence
    parts = []
    for d in doc_order:
        sents = sorted((s for s in picked if s.doc_id == d), key=lambda s: s.order)
        parts.append(" ".join(s.text for s in sents) + f" [{d}]")
    cited = doc_order + [c for c in must_cite if c not in doc_order]
    body = " ".join(parts) + ("\n" + " ".join(notes) if notes else "")
    return ComposedAnswer(body, cited, notes)


class RAGReferenceAgent:
    """The offline reference policy (``act(observation, info) -> action``)."""

    name = "rag-reference"

    def __init__(self, config: ReferenceConfig | None = None, **overrides: Any):
        cfg = config or ReferenceConfig()
        for k, v in overrides.items():
            if not hasattr(cfg, k):
                raise TypeError(f"unknown ReferenceConfig field {k!r}")
            setattr(cfg, k, v)
        self.cfg = cfg
        self.graph = build_graph(cfg)
        self.state: RAGState = {}

    def reset(self) -> None:
        self.state = {}

    def act(self, observation: str, info: dict[str, Any]) -> str:
        try:
            obs = json.loads(observation)
        except (json.JSONDecodeError, TypeError):
            obs = {"type": "unparsed", "text": str(observation)}
        if obs.get("type") == "question" or not self.state:
            self.state = {"messages": [], "steps": 0, "budget": self.cfg.max_steps, "read_docs": [], "to_read": []}
        state = dict(self.state)
        state["observation"] = obs
        state["messages"] = [*self.state.get("messages", []), HumanMessage(content=observation)]
        out = self.graph.invoke(state)
        out["steps"] = out.get("steps", 0) + 1
        self.state = out  # type: ignore[assignment]
        return out["action"]


def build_graph(cfg: ReferenceConfig):
    """Compile the per-step graph: ingest -> (router) -> one action node -> END."""

    def ingest(state: RAGState) -> dict[str, Any]:
        obs = state.get("observation") or {}
        upd: dict[str, Any] = {}
        if obs.get("type") == "question":
            upd.update(
                question=obs["question"], question_id=obs.get("question_id"), rewritten=None, search_results=None,
                reranked=None, to_probe=None, probing=None, unknown_terms=[],
            )
            return upd
        tool, ok, res = obs.get("tool"), obs.get("ok"), obs.get("result") or {}
        if tool == "rewrite_query":
            upd["rewritten"] = res.get("rewritten") if ok else state.get("question", "")
        elif tool == "search" and state.get("probing"):
            if ok and not res.get("results"):
                upd["unknown_terms"] = [*state.get("unknown_terms", []), state["probing"]]
            upd["probing"] = None
        elif tool == "search":
            upd["search_results"] = res.get("results", []) if ok else []
        elif tool == "rerank":
            ranked = res.get("results", []) if ok else list(state.get("search_results") or [])
            upd["reranked"] = ranked
            best = ranked[0]["score"] if ranked else 0.0
            upd["to_read"] = [r["id"] for r in ranked[: cfg.n_read] if r["score"] >= best - cfg.read_margin]
        elif tool == "read_document":
            to_read = list(state.get("to_read", []))
            if ok:
                doc = res
                upd["read_docs"] = [*state.get("read_docs", []), doc]
                known = {d["id"] for d in upd["read_docs"]} | set(to_read)
                for new in doc.get("superseded_by", []):  # the current version must be read too
                    if new not in known:
                        to_read.append(new)
                to_read = [i for i in to_read if i != doc.get("id")]
            else:
                to_read = to_read[1:]
            upd["to_read"] = to_read
        return upd

    def route(state: RAGState) -> str:
        if state.get("steps", 0) >= state.get("budget", cfg.max_steps) - 1:
            return "answer"
        if state.get("rewritten") is None:
            return "rewrite"
        if state.get("search_results") is None:
            return "search"
        if state.get("reranked") is None:
            return "rerank" if state.get("search_results") else "answer"
        if state.get("to_read"):
            return "read"
        if state.get("to_probe") is None or state.get("to_probe"):
            return "probe"
        return "answer"

    def rewrite(state: RAGState) -> dict[str, Any]:
        return _emit("rewrite_query", query=state["question"])

    def search(state: RAGState) -> dict[str, Any]:
        return _emit("search", query=state.get("rewritten") or state["question"], k=cfg.k_search)

    def rerank(state: RAGState) -> dict[str, Any]:
        ids = [r["id"] for r in (state.get("search_results") or [])][: cfg.n_rerank]
        return _emit("rerank", query=state.get("rewritten") or state["question"], doc_ids=ids)

    def read(state: RAGState) -> dict[str, Any]:
        return _emit("read_document", id=state["to_read"][0])

    def probe(state: RAGState) -> dict[str, Any]:
        todo = state.get("to_probe")
        if todo is None:
            todo = probe_terms(state.get("question", ""), state.get("read_docs", []), cfg.max_probes)
        if not todo:
            return {**answer(state), "to_probe": []}
        term, rest = todo[0], todo[1:]
        return {**_emit("search", query=term, k=1, mode="lexical"), "to_probe": rest, "probing": term}

    def answer(state: RAGState) -> dict[str, Any]:
        docs = state.get("read_docs", [])
        ranked = state.get("reranked") or []
        scores = {r["id"]: float(r["score"]) for r in ranked}
        best = ranked[0]["score"] if ranked else 0.0
        unknown = state.get("unknown_terms", [])
        if not docs or best < cfg.abstain_below or (unknown and best < cfg.abstain_unknown_below):
            text = ABSTAIN_TEXT + (f" It does not mention {', '.join(unknown)}." if unknown else "")
            return _emit("answer", text=text, cited_ids=[])
        ans = compose_answer(state.get("question", ""), docs, scores, cfg)
        return _emit("answer", text=ans.text, cited_ids=ans.cited)

    def _emit(name: str, **arguments: Any) -> dict[str, Any]:
        action = _call(name, **arguments)
        return {"action": action, "route": name, "messages": [AIMessage(content=action)]}

    g = StateGraph(RAGState)
    g.add_node("ingest", ingest)
    nodes = {"rewrite": rewrite, "search": search, "rerank": rerank, "read": read, "probe": probe, "answer": answer}
    for name, fn in nodes.items():
        g.add_node(name, fn)
        g.add_edge(name, END)
    g.add_edge(START, "ingest")
    g.add_conditional_edges("ingest", route, list(nodes))
    return g.compile()


def make_reference_agent(**config: Any) -> RAGReferenceAgent:
    """Factory for the agent registry (``rag-reference``)."""
    return RAGReferenceAgent(**config)


def run_episode(env: Any, agent: Any, *, seed: int | None = None, options: dict[str, Any] | None = None) -> dict[str, Any]:
    """Play one episode; returns the last info (with ``scores`` when the agent answered)."""
    obs, info = env.reset(seed=seed, options=options)
    if hasattr(agent, "reset"):
        agent.reset()
    while True:
        action = agent.act(obs, info)
        obs, _reward, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            info = dict(info)
            info["terminated"], info["truncated"] = terminated, truncated
            return info

