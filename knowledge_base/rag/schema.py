"""The RAG knowledge-base schema (pydantic v2), version 1.

Three kinds of data file live under ``knowledge_base/rag/data/``:

* ``documents_<part>.yaml`` -- ``{documents: [...]}``: guideline-style
  recommendations, drug monographs, disease overviews, patient leaflets and reviews,
  each with the metadata the search tool filters on;
* ``conflicts_<part>.yaml`` -- ``{conflicts: [...]}``: sets of 2+ documents that
  disagree, with the resolution a careful answer should follow;
* ``questions_<part>.yaml`` -- ``{questions: [...]}``: questions with a gold answer,
  key facts and graded relevance of the supporting documents.

The models are strict (``extra="forbid"``) because a misspelt field (``supercedes``)
would otherwise silently drop a conflict edge. Per-record rules are checked here;
rules that span files (every referenced id exists...) are checked by
:mod:`medgym.knowledge_base.rag.loader`.
"""

from __future__ import annotations

import re
from enum import StrEnum
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, field_validator, model_validator

SCHEMA_VERSION = 1

DOC_ID_PATTERN = r"^[a-z0-9]+(?:-[a-z0-9]+)*$"
DocId = Annotated[str, StringConstraints(pattern=DOC_ID_PATTERN, min_length=2, max_length=80)]
RecordId = Annotated[str, StringConstraints(pattern=DOC_ID_PATTERN, min_length=2, max_length=80)]
NonEmpty = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1)]

MIN_WORDS = 80
MAX_WORDS = 300
_WORD = re.compile(r"\S+")


def word_count(text: str) -> int:
    return len(_WORD.findall(text))


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class SourceType(StrEnum):
    guideline = "guideline"
    drug_monograph = "drug_monograph"
    disease_overview = "disease_overview"
    patient_leaflet = "patient_leaflet"
    review = "review"


class EvidenceLevel(StrEnum):
    A = "A"
    B = "B"
    C = "C"
    expert_opinion = "expert_opinion"
    not_applicable = "not_applicable"


# Higher is stronger. ``not_applicable`` (a leaflet, an overview) ranks with expert opinion:
# it carries no graded evidence of its own.
EVIDENCE_RANK: dict[str, int] = {"A": 4, "B": 3, "C": 2, "expert_opinion": 1, "not_applicable": 1}


class ConflictKind(StrEnum):
    outdated_revision = "outdated_revision"
    dose_disagreement = "dose_disagreement"
    threshold_disagreement = "threshold_disagreement"
    oversimplified_leaflet = "oversimplified_leaflet"


class Resolution(StrEnum):
    prefer_newer = "prefer_newer"
    prefer_higher_evidence = "prefer_higher_evidence"
    state_disagreement = "state_disagreement"


class QuestionType(StrEnum):
    single = "single"
    multi_doc = "multi_doc"
    conflict = "conflict"
    unanswerable = "unanswerable"


class Document(_Strict):
    """One knowledge-base document: 80-300 words of plain prose plus metadata."""

    id: DocId
    title: NonEmpty
    source_type: SourceType
    issuing_body: NonEmpty
    publication_year: int = Field(ge=1990, le=2026)
    version: NonEmpty
    evidence_level: EvidenceLevel
    specialty: NonEmpty
    supersedes: list[DocId] = Field(default_factory=list)
    text: NonEmpty

    @field_validator("version", mode="before")
    @classmethod
    def _version_as_text(cls, v: object) -> object:
        # YAML reads ``version: 3.0`` as a float; "3.0" is what the author meant.
        if isinstance(v, int | float) and not isinstance(v, bool):
            return str(v)
        return v

    @field_validator("specialty")
    @classmethod
    def _specialty_slug(cls, v: str) -> str:
        if not re.fullmatch(r"[a-z][a-z0-9_\- ]*", v):
            raise ValueError(f"expected a lowercase specialty name such as 'cardiology', got {v!r}")
        return v

    @field_validator("text")
    @classmethod
    def _length(cls, v: str) -> str:
        n = word_count(v)
        if not MIN_WORDS <= n <= MAX_WORDS:
            raise ValueError(f"expected {MIN_WORDS}-{MAX_WORDS} words of prose, got {n} words")
        return v

    @model_validator(mode="after")
    def _no_self_supersede(self) -> Document:
        if self.id in self.supersedes:
            raise ValueError(f"document {self.id!r} lists itself in 'supersedes'")
        if len(set(self.supersedes)) != len(self.supersedes):
            raise ValueError("'supersedes' lists the same id twice")
        return self

    @property
    def evidence_rank(self) -> int:
        return EVIDENCE_RANK[self.evidence_level.value]


class ConflictSet(_Strict):
    """Documents that disagree, and how a careful answer resolves the disagreement."""

    id: RecordId
    kind: ConflictKind
    documents: list[DocId] = Field(min_length=2)
    topic: NonEmpty
    expected_resolution: Resolution
    preferred_document: DocId | None = None
    note: NonEmpty | None = None

    @model_validator(mode="after")
    def _preferred(self) -> ConflictSet:
        if len(set(self.documents)) != len(self.documents):
            raise ValueError("'documents' lists the same id twice")
        if self.expected_resolution is Resolution.state_disagreement:
            if self.preferred_document is not None:
                raise ValueError(
                    "'preferred_document' must be omitted when expected_resolution is state_disagreement"
                )
        else:
            if self.preferred_document is None:
                raise ValueError(
                    f"'preferred_document' is required when expected_resolution is {self.expected_resolution.value}"
                )
            if self.preferred_document not in self.documents:
                raise ValueError(
                    f"'preferred_document' {self.preferred_document!r} is not one of 'documents' {self.documents}"
                )
        return self


class Question(_Strict):
    """A question with its gold answer, key facts and graded relevance (1 = useful .. 3 = essential)."""

    id: RecordId
    question: NonEmpty
    type: QuestionType
    specialty: NonEmpty
    gold_answer: NonEmpty
    key_facts: list[NonEmpty] = Field(default_factory=list)
    relevant: dict[DocId, Annotated[int, Field(ge=1, le=3)]] = Field(default_factory=dict)
    conflict_id: RecordId | None = None

    @model_validator(mode="after")
    def _by_type(self) -> Question:
        if self.type is QuestionType.unanswerable:
            if self.relevant:
                raise ValueError("an unanswerable question must have relevant: {}")
            if self.key_facts:
                raise ValueError("an unanswerable question must have key_facts: []")
        else:
            if not self.relevant:
                raise ValueError(f"a {self.type.value} question needs at least one relevant document")
            if not self.key_facts:
                raise ValueError(f"a {self.type.value} question needs at least one key fact")
        if self.type is QuestionType.multi_doc and len(self.relevant) < 2:
            raise ValueError("a multi_doc question needs at least two relevant documents")
        if self.type is QuestionType.conflict and self.conflict_id is None:
            raise ValueError("a conflict question needs 'conflict_id'")
        return self


class DocumentsFile(_Strict):
    documents: list[dict]


class ConflictsFile(_Strict):
    conflicts: list[dict]


class QuestionsFile(_Strict):
    questions: list[dict]


# File-name prefix -> (list key, record model). The loader dispatches on the prefix.
FILE_KINDS: dict[str, tuple[str, type[BaseModel]]] = {
    "documents": ("documents", Document),
    "conflicts": ("conflicts", ConflictSet),
    "questions": ("questions", Question),
}
