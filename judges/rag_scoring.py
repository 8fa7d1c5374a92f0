"""Scoring of one RAGAgent episode: retrieval, citations, answer correctness, conflicts.

Metrics (all in [0, 1]; ``None`` = not applicable, excluded from averages; a judge
failure makes the affected metrics ``None`` and the result ``status="unscored"`` --
never 0):

``map`` / ``ndcg@10`` / ``recall@k``
    Over the agent's *evidence ranking*: the documents it cited, in citation order,
    then every other document it retrieved (search or rerank results, documents it
    read), ordered by the best rank they reached in any result list. AP uses binary
    relevance (grade >= 1) normalised by the number of relevant documents; nDCG uses
    the graded relevance with gain ``2**grade - 1``. Not applicable to unanswerable
    questions (no relevant documents).
``citation_precision``
    Share of cited documents that support at least one claim of the answer. A claim
    is a sentence of the answer; a document supports it when one of its sentences is
    close enough (MiniLM cosine >= ``SUPPORT_COSINE``, or lexical containment >=
    ``SUPPORT_LEXICAL`` with cosine >= ``SUPPORT_COSINE_LOW``); thresholds were
    calibrated on the test knowledge base (tests/rag/test_rag_scoring.py keeps them
    honest). Cited ids that do not exist count as unsupported. Not applicable when
    nothing is cited.
``claim_support``
    Share of the answer's claims supported by some cited document (not applicable
    without claims).
``answer_correctness``
    Answerable questions: coverage of the key facts. A key fact is covered when every
    number in it appears in the answer and either most of its content terms appear
    (lexical recall >= ``FACT_LEXICAL``) or an answer sentence is semantically close
    (cosine >= ``FACT_COSINE``). Unanswerable questions: 1 when the answer says the
    knowledge base does not contain the answer, else 0.
``conflict_handling``
    Questions tied to a conflict set. ``prefer_newer`` / ``prefer_higher_evidence``:
    the preferred document is cited, and any other document of the set is cited only
    with language that marks it as outdated, superseded or weaker. ``state_disagreement``:
    at least two documents of the set are cited and the answer uses disagreement
    language. 1 or 0.
``abstention``
    Unanswerable questions only: 1 when the answer declines for lack of evidence.

The LLM judge (:class:`LLMRAGJudge`) replaces key-fact coverage (and optionally
citation support) by an agent-as-judge call through ``medgym.llm.LLMClient.chat_json``
with a rubric and JSON output; transport or output failures leave those metrics
``None`` with status ``unscored``.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from pydantic import BaseModel, ConfigDict, Field

from medgym.knowledge_base.rag.bm25 import content_terms
from medgym.knowledge_base.rag.chunking import split_sentences
from medgym.knowledge_base.rag.loader import KnowledgeBase
from medgym.knowledge_base.rag.schema import Question, QuestionType, Resolution

SCORE_FORMAT = "medgym.rag_score"
SCORE_VERSION = 1

# Calibrated on tests/rag/data (see test_rag_scoring.py::test_thresholds_separate_support).
SUPPORT_COSINE = 0.60
SUPPORT_COSINE_LOW = 0.30
SUPPORT_LEXICAL = 0.7
FACT_COSINE = 0.70
FACT_LEXICAL = 0.5
MIN_CLAIM_WORDS = 3

METRIC_KEYS = (
    "map",
    "ndcg@10",
    "recall@k",
    "citation_precision",
    "claim_support",
    "answer_correctness",
    "conflict_handling",
    "abstention",
)

_CITATION_MARK = re.compile(r"\[[^\]]{1,120}\]")
_NUMBER = re.compile(r"(?<![\w.])\d+(?:[.,]\d+)?(?![\w])|\d+(?:\.\d+)?(?=\s?(?:%|mg|g|ml|mmol|mmhg|kg|mcg|µg|units?)\b)")

ABSTAIN_PATTERNS = [
    r"\b(?:knowledge base|kb|available (?:documents?|sources?|evidence|information)|retrieved (?:documents?|sources?)|"
    r"(?:the|these|provided|indexed) (?:documents?|sources?))\b[^.]{0,80}?\b(?:does not|doesn't|do not|don't|did not|"
    r"contains? no|has no|have no|lacks?|is silent|are silent)\b",
    r"\b(?:no|not find any|could not find|couldn't find|unable to find|cannot find|can't find|found no|did not find|"
    r"didn't find|not locate)\b[^.]{0,50}?\b(?:information|evidence|documents?|sources?|guidance|data|answer|mention)",
    r"\b(?:cannot|can't|can not|unable to|not able to) (?:be )?(?:answer|determine|provide an answer)",
    r"\bnot (?:covered|addressed|contained|included|available|mentioned|discussed) (?:in|by)\b",
    r"\binsufficient (?:information|evidence)\b",
    r"\boutside (?:the )?(?:scope|coverage) of\b",
]
_ABSTAIN = [re.compile(p, re.IGNORECASE) for p in ABSTAIN_PATTERNS]
DISAGREEMENT = re.compile(
    r"\b(?:disagree\w*|differ\w*|conflict\w*|inconsisten\w*|contradict\w*|discrepan\w*|diverg\w*|whereas|"
    r"in contrast|by contrast|on the other hand|vary|varies|not (?:all )?agree|no consensus|two (?:different )?"
    r"(?:thresholds|recommendations|positions|views))\b",
    re.IGNORECASE,
)
PREFERENCE = re.compile(
    r"\b(?:supersed\w*|replac\w*|outdated|out of date|older|newer|updated?|revis\w*|current|previous(?:ly)?|earlier|"
    r"no longer|obsolete|withdrawn|higher[- ](?:quality|level)|stronger evidence|higher evidence|lower evidence|"
    r"weaker evidence|evidence level|level [abc]\b|oversimplif\w*|simplif\w*|leaflet|less precise|more precise)\b",
    re.IGNORECASE,
)


# --------------------------------------------------------------------------- ranking metrics
def _dedupe(seq: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(seq))


def average_precision(ranking: Sequence[str], relevant: Mapping[str, int]) -> float | None:
    """AP with binary relevance (grade >= 1), normalised by the number of relevant docs."""
    rel = {d for d, g in relevant.items() if g >= 1}
    if not rel:
        return None
    hits, total = 0, 0.0
    for i, d in enumerate(_dedupe(ranking), 1):
        if d in rel:
            hits += 1
            total += hits / i
    return total / len(rel)


def ndcg_at_k(ranking: Sequence[str], relevant: Mapping[str, int], k: int = 10) -> float | None:
    """nDCG@k with graded gains ``2**grade - 1`` and log2 discounts."""
    if not relevant or k <= 0:
        return None
    ideal = sorted((g for g in relevant.values() if g > 0), reverse=True)[:k]
    idcg = sum((2**g - 1) / math.log2(i + 2) for i, g in enumerate(ideal))
    if idcg == 0:
        return None
    dcg = sum((2 ** relevant.get(d, 0) - 1) / math.log2(i + 2) for i, d in enumerate(_dedupe(ranking)[:k]))
    return dcg / idcg


def recall_at_k(ranking: Sequence[str], relevant: Mapping[str, int], k: int = 10) -> float | None:
    rel = {d for d, g in relevant.items() if g >= 1}
    if not rel or k <= 0:
        return None
    return len(rel & set(_dedupe(ranking)[:k])) / len(rel)


def evidence_ranking(cited: Sequence[str], result_lists: Sequence[Sequence[str]], read: Sequence[str] = ()) -> list[str]:
    """Cited documents first, then retrieved ones by best rank reached (ties: earlier list first)."""
    best: dict[str, tuple[int, int]] = {}
    for li, lst in enumerate(result_lists):
        for rank, d in enumerate(lst):
            key = (rank, li)
            if d not in best or key < best[d]:
                best[d] = key
    order = _dedupe(cited)
    seen = set(order)
    for d in sorted(best, key=lambda d: best[d]):
        if d not in seen:
            order.append(d)
            seen.add(d)
    for d in read:
        if d not in seen:
            order.append(d)
            seen.add(d)
    return order


# --------------------------------------------------------------------------- text helpers
def strip_citations(text: str) -> str:
    return _CITATION_MARK.sub("", text)


def claims_of(answer: str) -> list[str]:
    """Sentences of the answer long enough to assert something (citation marks removed)."""
    out = []
    for s in split_sentences(strip_citations(answer)):
        s = s.strip()
        if len(s.split()) >= MIN_CLAIM_WORDS:
            out.append(s)
    return out


def numbers_in(text: str) -> set[str]:
    return {n.replace(",", ".") for n in _NUMBER.findall(text)}


def abstains(answer: str) -> bool:
    """Does the answer say the knowledge base does not contain the answer?"""
    return any(rx.search(answer) for rx in _ABSTAIN)


def _embed(texts: Sequence[str]) -> np.ndarray:
    from medgym.knowledge_base.rag.embedding import bulk_autocast, torch_threads
    from medgym.text.embeddings import embed

    with bulk_autocast(), torch_threads(1 if len(texts) <= 32 else None):
        return embed(list(texts))


SENTENCES_PER_DOC = 8  # document sentences compared with the claims (the most term-overlapping ones)


def _term_present(term: str, pool: set[str]) -> bool:
    """Exact, or a close inflection ("recommends" ~ "recommended") for words of 5+ letters."""
    if term in pool:
        return True
    if len(term) < 5 or term.isdigit():
        return False
    from rapidfuzz.distance import Levenshtein

    head = term[:4]
    return any(
        len(p) >= 5 and p.startswith(head) and Levenshtein.normalized_similarity(term, p) >= 0.75 for p in pool
    )


def term_recall(terms: set[str], pool: set[str]) -> float:
    """Share of ``terms`` found in ``pool`` (fuzzy on inflections); 0 for no terms."""
    if not terms:
        return 0.0
    return sum(_term_present(t, pool) for t in terms) / len(terms)


def lexical_containment(claim: str, passage_terms: set[str]) -> float:
    return term_recall(content_terms(claim), passage_terms)


# --------------------------------------------------------------------------- result model
class RAGScore(BaseModel):
    """Scores of one episode (``info["scores"]``, one JSONL line in ``medgym rag eval``)."""

    model_config = ConfigDict(extra="forbid")

    format: str = SCORE_FORMAT
    version: int = SCORE_VERSION
    question_id: str
    question_type: str
    judge: str = "reference"
    status: str = Field("ok", description="'ok' or 'unscored' (a judge call failed: affected metrics are None)")
    metrics: dict[str, float | None]
    details: dict[str, Any] = Field(default_factory=dict)
    errors: list[str] = Field(default_factory=list)


@dataclass
class EpisodeRecord:
    """What the judge needs from an episode (the env builds it from its trajectory)."""

    question_id: str
    answer: str
    cited: list[str]
    result_lists: list[list[str]] = field(default_factory=list)
    read: list[str] = field(default_factory=list)
    answered: bool = True


# --------------------------------------------------------------------------- the reference judge
class ReferenceRAGJudge:
    """Offline judge: ranking metrics, MiniLM/lexical citation support and key-fact coverage."""

    name = "reference"

    def __init__(self, kb: KnowledgeBase, recall_k: int = 10):
        from medgym.knowledge_base.rag.rewrite import QueryRewriter

        self.kb = kb
        self.recall_k = recall_k
        self._doc_sentences: dict[str, list[str]] = {}
        self._doc_terms: dict[str, set[str]] = {}
        self.rewriter = QueryRewriter.from_texts(d.text for d in kb.documents.values())

    def terms(self, text: str) -> set[str]:
        """Content terms of ``text`` plus those of the other form of its abbreviations.

        Used on the side that is searched (answer, document), never on the side whose
        terms are counted (fact, claim), so "HFrEF" in a fact matches the long form in
        an answer without the expansion inflating the fact's term count.
        """
        extra = self.rewriter.expansions(text)
        return content_terms(text + (" " + " ".join(extra) if extra else ""))

    def doc_terms(self, doc_id: str) -> set[str]:
        if doc_id not in self._doc_terms:
            d = self.kb.documents[doc_id]
            self._doc_terms[doc_id] = self.terms(d.title + " " + d.text)
        return self._doc_terms[doc_id]

    def doc_sentences(self, doc_id: str) -> list[str]:
        if doc_id not in self._doc_sentences:
            d = self.kb.documents[doc_id]
            self._doc_sentences[doc_id] = split_sentences(d.text)
        return self._doc_sentences[doc_id]

    # -- pieces ------------------------------------------------------------------------
    def retrieval(self, q: Question, ranking: list[str]) -> dict[str, float | None]:
        return {
            "map": average_precision(ranking, q.relevant),
            "ndcg@10": ndcg_at_k(ranking, q.relevant, 10),
            "recall@k": recall_at_k(ranking, q.relevant, self.recall_k),
        }

    def support_matrix(self, claims: list[str], doc_ids: list[str]) -> np.ndarray:
        """(claims x docs) boolean: does doc j support claim i?"""
        out = np.zeros((len(claims), len(doc_ids)), dtype=bool)
        if not claims or not doc_ids:
            return out
        cv = _embed(claims)
        claim_terms = [content_terms(c) for c in claims]
        for j, d in enumerate(doc_ids):
            sents = self.doc_sentences(d)
            if not sents:
                continue
            if len(sents) > SENTENCES_PER_DOC:
                # embedding dominates the judge's cost; a supporting sentence shares terms with the claim
                def overlap(sent: str) -> float:
                    st = content_terms(sent)
                    return max((len(ct & st) / len(ct) if ct else 0.0) for ct in claim_terms)

                ranked = sorted(range(len(sents)), key=lambda i: (-overlap(sents[i]), i))
                sents = [sents[i] for i in sorted(ranked[:SENTENCES_PER_DOC])]
            sims = cv @ _embed(sents).T  # claims x sentences
            best_cos = sims.max(axis=1)
            dterms = self.doc_terms(d)
            for i, c in enumerate(claims):
                lex = term_recall(content_terms(c), dterms)
                out[i, j] = best_cos[i] >= SUPPORT_COSINE or (lex >= SUPPORT_LEXICAL and best_cos[i] >= SUPPORT_COSINE_LOW)
        return out

    def citations(self, answer: str, cited: list[str]) -> tuple[dict[str, float | None], dict[str, Any]]:
        claims = claims_of(answer)
        cited_u = _dedupe(cited)
        known = [d for d in cited_u if d in self.kb.documents]
        unknown = [d for d in cited_u if d not in self.kb.documents]
        sup = self.support_matrix(claims, known)
        supporting = [d for j, d in enumerate(known) if sup[:, j].any()]
        precision = len(supporting) / len(cited_u) if cited_u else None
        if not claims or (not cited_u and abstains(answer)):
            claim_support = None  # nothing asserted, or a declared abstention
        elif not known:
            claim_support = 0.0  # claims made, none attributed to an existing document
        else:
            claim_support = float(sup.any(axis=1).mean())
        details = {
            "claims": len(claims),
            "supporting_citations": supporting,
            "unsupported_citations": [d for d in known if d not in supporting],
            "unknown_citations": unknown,
        }
        return {"citation_precision": precision, "claim_support": claim_support}, details

    def key_fact_coverage(self, answer: str, key_facts: list[str]) -> tuple[float | None, list[bool]]:
        if not key_facts:
            return None, []
        text = strip_citations(answer)
        sents = split_sentences(text) or ([text] if text.strip() else [])
        a_terms = self.terms(text)
        a_numbers = numbers_in(text)
        if sents:
            sims = _embed(list(key_facts)) @ _embed(sents).T
            best = sims.max(axis=1)
        else:
            best = np.zeros(len(key_facts))
        covered = []
        for i, fact in enumerate(key_facts):
            nums_ok = numbers_in(fact) <= a_numbers
            lex = term_recall(content_terms(fact), a_terms)
            covered.append(bool(nums_ok and (lex >= FACT_LEXICAL or best[i] >= FACT_COSINE)))
        return sum(covered) / len(covered), covered

    def conflict(self, q: Question, answer: str, cited: list[str]) -> tuple[float | None, dict[str, Any]]:
        if q.conflict_id is None or q.conflict_id not in self.kb.conflicts:
            return None, {}
        c = self.kb.conflicts[q.conflict_id]
        cited_set = set(cited)
        in_set = [d for d in c.documents if d in cited_set]
        text = strip_citations(answer)
        disagreement = bool(DISAGREEMENT.search(text))
        preference = bool(PREFERENCE.search(text))
        if c.expected_resolution is Resolution.state_disagreement:
            ok = len(in_set) >= 2 and disagreement
        else:
            pref = c.preferred_document
            others = [d for d in in_set if d != pref]
            ok = pref in cited_set and (not others or preference)
        return float(ok), {
            "conflict_id": c.id,
            "expected_resolution": c.expected_resolution.value,
            "preferred_document": c.preferred_document,
            "cited_from_set": in_set,
            "disagreement_language": disagreement,
            "preference_language": preference,
        }

    # -- whole episode -----------------------------------------------------------------
    def score(self, rec: EpisodeRecord) -> RAGScore:
        q = self.kb.question(rec.question_id)
        ranking = evidence_ranking(rec.cited, rec.result_lists, rec.read)
        metrics: dict[str, float | None] = dict.fromkeys(METRIC_KEYS)
        details: dict[str, Any] = {"ranking": ranking[:20], "answered": rec.answered}
        if not rec.answered:
            # Truncated before answering: retrieval is still measurable, the answer is missing (0, not unscored).
            metrics.update(self.retrieval(q, ranking))
            if q.type is QuestionType.unanswerable:
                metrics["abstention"] = 0.0
            metrics["answer_correctness"] = 0.0
            if q.conflict_id:
                metrics["conflict_handling"] = 0.0
            return RAGScore(question_id=q.id, question_type=q.type.value, metrics=metrics, details=details)
        metrics.update(self.retrieval(q, ranking))
        cit, cdet = self.citations(rec.answer, rec.cited)
        metrics.update(cit)
        details["citations"] = cdet
        abstained = abstains(rec.answer)
        details["abstained"] = abstained
        if q.type is QuestionType.unanswerable:
            metrics["abstention"] = float(abstained)
            metrics["answer_correctness"] = float(abstained)
        else:
            cov, covered = self.key_fact_coverage(rec.answer, list(q.key_facts))
            metrics["answer_correctness"] = cov
            details["key_facts_covered"] = covered
        conf, confdet = self.conflict(q, rec.answer, rec.cited)
        metrics["conflict_handling"] = conf
        if confdet:
            details["conflict"] = confdet
        return RAGScore(question_id=q.id, question_type=q.type.value, metrics=metrics, details=details)


# --------------------------------------------------------------------------- the LLM judge
class KeyFactVerdict(BaseModel):
    model_config = ConfigDict(extra="forbid")
    index: int = Field(description="1-based number of the key fact")
    met: bool
    evidence: str = Field("", description="short quote from the answer, empty if not met")


class AnswerJudgement(BaseModel):
    model_config = ConfigDict(extra="forbid")
    criteria_met: list[KeyFactVerdict]
    abstained: bool = Field(description="the answer says the knowledge base does not contain the answer")
    explanation: str


class CitationVerdict(BaseModel):
    model_config = ConfigDict(extra="forbid")
    id: str
    supports_answer: bool


class CitationJudgement(BaseModel):
    model_config = ConfigDict(extra="forbid")
    documents: list[CitationVerdict]
    explanation: str


ANSWER_RUBRIC = """You grade answers of a clinical retrieval-augmented QA system against a reference.
For each numbered key fact decide whether the ANSWER states it (paraphrase is fine; a wrong number is not met;
a fact the answer contradicts is not met). Also decide whether the answer declines because the knowledge base
does not contain the information. Reply with JSON only: {"criteria_met": [{"index": 1, "met": true,
"evidence": "..."}], "abstained": false, "explanation": "..."}."""

CITATION_RUBRIC = """You check source attribution. For each cited DOCUMENT decide whether it supports at least one
claim made in the ANSWER (the claim must follow from the document text). Reply with JSON only:
{"documents": [{"id": "...", "supports_answer": true}], "explanation": "..."}."""


class LLMRAGJudge(ReferenceRAGJudge):
    """Agent-as-judge: answer correctness (and optionally citation support) from an LLM rubric.

    Ranking and conflict metrics stay rule-based (they are exact given the citations).
    A transport/output failure of the LLM makes the metric it was asked for ``None``
    and the score ``unscored``; it is never scored 0.
    """

    name = "llm"

    def __init__(self, kb: KnowledgeBase, client: Any, recall_k: int = 10, judge_citations: bool = False):
        super().__init__(kb, recall_k)
        self.client = client
        self.judge_citations = judge_citations

    def _answer_messages(self, q: Question, answer: str) -> list[dict[str, str]]:
        facts = "\n".join(f"{i}. {f}" for i, f in enumerate(q.key_facts, 1)) or "(none: the question is not answerable)"
        user = (
            f"QUESTION: {q.question}\nREFERENCE ANSWER: {q.gold_answer}\nKEY FACTS:\n{facts}\n\n"
            f"ANSWER TO GRADE:\n{answer}"
        )
        return [{"role": "system", "content": ANSWER_RUBRIC}, {"role": "user", "content": user}]

    def _citation_messages(self, answer: str, cited: list[str]) -> list[dict[str, str]]:
        docs = "\n\n".join(f"DOCUMENT {d}:\n{self.kb.documents[d].text}" for d in cited)
        return [
            {"role": "system", "content": CITATION_RUBRIC},
            {"role": "user", "content": f"ANSWER:\n{answer}\n\n{docs}"},
        ]

    def score(self, rec: EpisodeRecord) -> RAGScore:
        from medgym.llm import LLMOutputError, LLMTransportError

        base = super().score(rec)
        base.judge = self.name
        if not rec.answered:
            return base
        q = self.kb.question(rec.question_id)
        metrics, details, errors = dict(base.metrics), dict(base.details), list(base.errors)
        try:
            parsed, _ = self.client.chat_json(self._answer_messages(q, rec.answer), AnswerJudgement, name="rag_answer_judgement")
            verdict = parsed if isinstance(parsed, AnswerJudgement) else AnswerJudgement.model_validate(parsed)
            if q.type is QuestionType.unanswerable:
                metrics["abstention"] = float(verdict.abstained)
                metrics["answer_correctness"] = float(verdict.abstained)
            else:
                met = {v.index for v in verdict.criteria_met if v.met and 1 <= v.index <= len(q.key_facts)}
                metrics["answer_correctness"] = len(met) / len(q.key_facts)
                details["key_facts_covered"] = [i in met for i in range(1, len(q.key_facts) + 1)]
            details["llm_explanation"] = verdict.explanation
        except (LLMTransportError, LLMOutputError) as exc:
            metrics["answer_correctness"] = None
            if q.type is QuestionType.unanswerable:
                metrics["abstention"] = None
            errors.append(f"answer judge unscored: {type(exc).__name__}: {exc}")
        known = [d for d in _dedupe(rec.cited) if d in self.kb.documents]
        if self.judge_citations and known:
            try:
                parsed, _ = self.client.chat_json(self._citation_messages(rec.answer, known), CitationJudgement, name="rag_citation_judgement")
                cj = parsed if isinstance(parsed, CitationJudgement) else CitationJudgement.model_validate(parsed)
                ok = {v.id for v in cj.documents if v.supports_answer and v.id in known}
                metrics["citation_precision"] = len(ok) / len(_dedupe(rec.cited))
                details["llm_supporting_citations"] = sorted(ok)
            except (LLMTransportError, LLMOutputError) as exc:
                metrics["citation_precision"] = None
                errors.append(f"citation judge unscored: {type(exc).__name__}: {exc}")
        return RAGScore(
            question_id=base.question_id,
            question_type=base.question_type,
            judge=self.name,
            status="unscored" if errors else "ok",
            metrics=metrics,
            details=details,
            errors=errors,
        )


# --------------------------------------------------------------------------- aggregation
def aggregate(scores: Iterable[RAGScore | Mapping[str, Any]]) -> dict[str, Any]:
    """Mean of every metric over the episodes where it applies; unscored episodes are counted apart."""
    rows = [s if isinstance(s, RAGScore) else RAGScore.model_validate(s) for s in scores]
    out: dict[str, Any] = {"episodes": len(rows), "n_unscored": sum(r.status != "ok" for r in rows), "metrics": {}}
    by_type: dict[str, list[RAGScore]] = {}
    for r in rows:
        by_type.setdefault(r.question_type, []).append(r)
    for key in METRIC_KEYS:
        vals = [r.metrics.get(key) for r in rows]
        vals = [v for v in vals if v is not None and not (isinstance(v, float) and math.isnan(v))]
        out["metrics"][key] = {"mean": (sum(vals) / len(vals)) if vals else None, "n": len(vals)}
    out["by_type"] = {
        t: {
            key: (lambda vs: (sum(vs) / len(vs)) if vs else None)([r.metrics[key] for r in rs if r.metrics.get(key) is not None])
            for key in METRIC_KEYS
        }
        | {"episodes": len(rs)}
        for t, rs in sorted(by_type.items())
    }
    return out
