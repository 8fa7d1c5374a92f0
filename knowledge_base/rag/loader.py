"""Load and cross-check the RAG knowledge base (documents, conflict sets, questions).

Every file goes through :mod:`medgym.datafiles`, so a bad record is reported with
file, record id and field. Loading is all-or-nothing. After the per-record checks,
the cross-file rules run:

* document, conflict and question ids are unique across all files;
* every referenced document id exists (``supersedes``, conflict ``documents``,
  ``preferred_document``, question ``relevant``);
* every ``conflict_id`` names a conflict set, and conflict questions have one;
* unanswerable questions have no relevant documents.

Softer problems (a conflict question whose relevant documents leave out the
conflict's preferred document, a ``supersedes`` cycle...) are returned as
``warnings``; ``medgym kb validate`` prints them.

The content hash covers the documents only (what the index is built from), so the
index is rebuilt when a document changes and not when a question is edited.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from medgym.datafiles import DATA_SUFFIXES, read_data_file, validate_record
from medgym.errors import DataValidationError
from medgym.knowledge_base.rag.schema import (
    FILE_KINDS,
    SCHEMA_VERSION,
    ConflictSet,
    Document,
    Question,
    QuestionType,
    Resolution,
)
from medgym.registry import did_you_mean

DEFAULT_DATA_DIR = Path(__file__).resolve().parent / "data"
DATA_DIR_ENV = "MEDGYM_RAG_DATA_DIR"


def default_data_dir() -> Path:
    """``$MEDGYM_RAG_DATA_DIR`` if set, else the packaged ``knowledge_base/rag/data``."""
    env = os.environ.get(DATA_DIR_ENV)
    return Path(env).expanduser() if env else DEFAULT_DATA_DIR


@dataclass
class KnowledgeBase:
    """The validated, cross-checked knowledge base held in memory."""

    documents: dict[str, Document]
    conflicts: dict[str, ConflictSet]
    questions: dict[str, Question]
    sources: dict[str, str] = field(default_factory=dict)  # record key -> file it came from
    warnings: list[str] = field(default_factory=list)
    data_dir: str = ""

    @cached_property
    def content_hash(self) -> str:
        return documents_hash(self.documents.values())

    @cached_property
    def superseded_by(self) -> dict[str, list[str]]:
        """Old document id -> ids of the documents that declare they supersede it."""
        out: dict[str, list[str]] = {}
        for d in self.documents.values():
            for old in d.supersedes:
                out.setdefault(old, []).append(d.id)
        return out

    def document(self, doc_id: str) -> Document:
        try:
            return self.documents[doc_id]
        except KeyError:
            from medgym.errors import UnknownNameError

            known = sorted(self.documents)
            raise UnknownNameError("document", doc_id, known, did_you_mean(doc_id, known)) from None

    def question(self, question_id: str) -> Question:
        try:
            return self.questions[question_id]
        except KeyError:
            from medgym.errors import UnknownNameError

            known = sorted(self.questions)
            raise UnknownNameError("question", question_id, known, did_you_mean(question_id, known)) from None


def documents_hash(documents: Iterable[Document]) -> str:
    """SHA-256 over the canonical JSON of every document (order-independent) and the schema version."""
    h = hashlib.sha256(f"rag-kb-schema-{SCHEMA_VERSION}\n".encode())
    for d in sorted(documents, key=lambda d: d.id):
        h.update(json.dumps(d.model_dump(mode="json"), sort_keys=True, ensure_ascii=False).encode())
        h.update(b"\n")
    return h.hexdigest()


def _kind_of(path: Path) -> str | None:
    stem = path.stem
    for prefix in FILE_KINDS:
        if stem == prefix or stem.startswith(prefix + "_"):
            return prefix
    return None


def data_files(data_dir: Path) -> dict[str, list[Path]]:
    """The data files under ``data_dir`` grouped by kind; unrecognised names are an error."""
    if not data_dir.is_dir():
        raise DataValidationError(str(data_dir), ["knowledge-base data directory does not exist"])
    groups: dict[str, list[Path]] = {k: [] for k in FILE_KINDS}
    for p in sorted(data_dir.rglob("*")):
        if not p.is_file() or p.suffix not in DATA_SUFFIXES:
            continue
        kind = _kind_of(p)
        if kind is None:
            raise DataValidationError(
                str(p),
                [f"unrecognised data file name: expected documents_*.yaml, conflicts_*.yaml or questions_*.yaml, got {p.name!r}"],
            )
        groups[kind].append(p)
    return groups


def _raw_records(path: Path, list_key: str) -> list:
    """A file must be ``{<list_key>: [...]}``; anything else names the expected key."""
    raw = read_data_file(path)
    if not isinstance(raw, dict) or set(raw) != {list_key}:
        found = sorted(raw) if isinstance(raw, dict) else type(raw).__name__
        raise DataValidationError(str(path), [f"expected a mapping with the single key {list_key!r}, found {found}"])
    if not isinstance(raw[list_key], list):
        raise DataValidationError(
            str(path), [f"field {list_key!r}: expected a list of records, found {type(raw[list_key]).__name__}"]
        )
    return raw[list_key]


def _load(root: Path, collect: bool) -> tuple[KnowledgeBase | None, list[DataValidationError]]:
    groups = data_files(root)
    docs: dict[str, Document] = {}
    conflicts: dict[str, ConflictSet] = {}
    questions: dict[str, Question] = {}
    sources: dict[str, str] = {}
    targets: dict[str, dict] = {"documents": docs, "conflicts": conflicts, "questions": questions}
    errors: list[DataValidationError] = []

    def fail(err: DataValidationError) -> None:
        if not collect:
            raise err
        errors.append(err)

    for kind, paths in groups.items():
        list_key, model = FILE_KINDS[kind]
        for path in paths:
            try:
                raws = _raw_records(path, list_key)
            except DataValidationError as exc:
                fail(exc)
                continue
            for i, raw in enumerate(raws):
                try:
                    rec = validate_record(model, raw, path, i)
                except DataValidationError as exc:
                    fail(exc)
                    continue
                store = targets[kind]
                if rec.id in store:
                    fail(DataValidationError(
                        str(path), [f"duplicate {kind[:-1]} id {rec.id!r} (also in {sources[f'{kind}:{rec.id}']})"], rec.id
                    ))
                    continue
                store[rec.id] = rec
                sources[f"{kind}:{rec.id}"] = str(path)
    if not docs:
        fail(DataValidationError(str(root), ["no documents found: expected at least one documents_*.yaml file"]))
        return None, errors
    kb = KnowledgeBase(docs, conflicts, questions, sources, data_dir=str(root))
    cross_errors, kb.warnings = _cross_check(kb)
    for e in cross_errors:
        fail(e)
    return kb, errors


def load_kb(data_dir: Path | str | None = None, require_questions: bool = False) -> KnowledgeBase:
    """Load, validate and cross-check every data file under ``data_dir`` (first problem raises)."""
    root = Path(data_dir) if data_dir is not None else default_data_dir()
    kb, _ = _load(root, collect=False)
    if kb is None:  # pragma: no cover - _load raised already
        raise DataValidationError(str(root), ["no documents found"])
    if require_questions and not kb.questions:
        raise DataValidationError(str(root), ["no questions found: expected at least one questions_*.yaml file"])
    return kb


def check_kb(data_dir: Path | str | None = None) -> tuple[KnowledgeBase | None, list[DataValidationError]]:
    """Validate everything and return *all* problems (``medgym kb validate``), not just the first.

    Invalid records are left out of the returned knowledge base, so its cross-file
    checks may report follow-on problems (a reference to a document that was itself
    invalid).
    """
    root = Path(data_dir) if data_dir is not None else default_data_dir()
    try:
        return _load(root, collect=True)
    except DataValidationError as exc:  # data_files() problems (missing folder, bad file name)
        return None, [exc]


def _unknown(doc_id: str, kb: KnowledgeBase) -> str:
    hint = did_you_mean(doc_id, list(kb.documents), n=1)
    return f"unknown document id {doc_id!r}" + (f" (did you mean {hint[0]!r}?)" if hint else "")


def _cross_check(kb: KnowledgeBase) -> tuple[list[DataValidationError], list[str]]:
    """Broken references (errors) and softer problems (warnings), all of them."""
    errors: list[DataValidationError] = []
    warnings: list[str] = []
    for d in kb.documents.values():
        bad = [s for s in d.supersedes if s not in kb.documents]
        if bad:
            errors.append(DataValidationError(
                kb.sources[f"documents:{d.id}"], [f"field 'supersedes': {_unknown(b, kb)}" for b in bad], d.id
            ))
        for old in d.supersedes:
            if old not in kb.documents:
                continue
            od = kb.documents[old]
            if od.publication_year > d.publication_year:
                warnings.append(
                    f"document {d.id!r} ({d.publication_year}) supersedes {old!r}, which is newer ({od.publication_year})"
                )
    # supersedes cycles
    for start in kb.documents:
        seen, stack = set(), [start]
        while stack:
            cur = stack.pop()
            for nxt in kb.documents[cur].supersedes:
                if nxt not in kb.documents:
                    continue
                if nxt == start:
                    warnings.append(f"'supersedes' cycle through document {start!r}")
                    stack = []
                    break
                if nxt not in seen:
                    seen.add(nxt)
                    stack.append(nxt)
    for c in kb.conflicts.values():
        src = kb.sources[f"conflicts:{c.id}"]
        problems = [f"field 'documents': {_unknown(x, kb)}" for x in c.documents if x not in kb.documents]
        if problems:
            errors.append(DataValidationError(src, problems, c.id))
            continue
        if c.expected_resolution is Resolution.prefer_newer and c.preferred_document:
            pref = kb.documents[c.preferred_document]
            older = [x for x in c.documents if kb.documents[x].publication_year > pref.publication_year]
            if older:
                warnings.append(
                    f"conflict {c.id!r}: prefer_newer but preferred {pref.id!r} ({pref.publication_year}) is older than {older}"
                )
        if c.kind.value == "outdated_revision" and c.preferred_document:
            undeclared = [
                x for x in c.documents if x != c.preferred_document and x not in kb.documents[c.preferred_document].supersedes
            ]
            if undeclared:
                warnings.append(
                    f"conflict {c.id!r}: outdated_revision but {c.preferred_document!r} does not list {undeclared} "
                    "in 'supersedes' (agents read supersession from document metadata)"
                )
        if c.expected_resolution is Resolution.prefer_higher_evidence and c.preferred_document:
            pref = kb.documents[c.preferred_document]
            stronger = [x for x in c.documents if kb.documents[x].evidence_rank > pref.evidence_rank]
            if stronger:
                warnings.append(
                    f"conflict {c.id!r}: prefer_higher_evidence but {stronger} have a higher evidence level than {pref.id!r}"
                )
    for q in kb.questions.values():
        src = kb.sources[f"questions:{q.id}"]
        problems = [f"field 'relevant': {_unknown(x, kb)}" for x in q.relevant if x not in kb.documents]
        if q.conflict_id is not None and q.conflict_id not in kb.conflicts:
            hint = did_you_mean(q.conflict_id, list(kb.conflicts), n=1)
            problems.append(
                f"field 'conflict_id': unknown conflict set {q.conflict_id!r}"
                + (f" (did you mean {hint[0]!r}?)" if hint else "")
            )
        if q.type is QuestionType.unanswerable and q.relevant:  # also enforced per record
            problems.append("field 'relevant': an unanswerable question must have no relevant documents")
        if problems:
            errors.append(DataValidationError(src, problems, q.id))
            continue
        if q.conflict_id is not None:
            c = kb.conflicts[q.conflict_id]
            if c.preferred_document and c.preferred_document not in q.relevant:
                warnings.append(
                    f"question {q.id!r}: relevant documents leave out {c.preferred_document!r}, the preferred document of {c.id!r}"
                )
            if c.expected_resolution is Resolution.state_disagreement:
                missing = [x for x in c.documents if x not in q.relevant]
                if missing:
                    warnings.append(f"question {q.id!r}: relevant documents leave out {missing} of disagreement set {c.id!r}")
    used = {q.conflict_id for q in kb.questions.values() if q.conflict_id}
    if kb.questions:
        for cid in sorted(set(kb.conflicts) - used):
            warnings.append(f"conflict set {cid!r} is not used by any question")
    return errors, warnings
