"""Knowledge-base data files: strict validation with errors naming file, record id and field."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from medgym.errors import DataValidationError
from medgym.knowledge_base.rag.loader import DEFAULT_DATA_DIR, check_kb, load_kb
from medgym.knowledge_base.rag.schema import Document, Question

WORDS = " ".join(["word"] * 90)


def _edit(path: Path, key: str, index: int, **changes):
    data = yaml.safe_load(path.read_text())
    rec = data[key][index]
    for k, v in changes.items():
        if v is ...:
            rec.pop(k, None)
        else:
            rec[k] = v
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    return rec["id"]


def _problem(data_dir: Path) -> DataValidationError:
    with pytest.raises(DataValidationError) as ei:
        load_kb(data_dir)
    return ei.value


def test_tiny_kb_loads_with_all_kinds(tiny_kb):
    assert len(tiny_kb.documents) == 10 and len(tiny_kb.conflicts) == 2 and len(tiny_kb.questions) == 8
    assert {q.type.value for q in tiny_kb.questions.values()} == {"single", "multi_doc", "conflict", "unanswerable"}
    assert tiny_kb.warnings == []
    assert tiny_kb.superseded_by == {"card-gl-hf-2016": ["card-gl-hf-2024"]}
    assert len(tiny_kb.content_hash) == 64


@pytest.mark.parametrize(
    ("file", "key", "index", "changes", "field", "needle"),
    [
        ("documents_tiny.yaml", "documents", 0, {"supercedes": ["x"]}, "supercedes", "Extra inputs"),
        ("documents_tiny.yaml", "documents", 1, {"source_type": "blog"}, "source_type", "guideline"),
        ("documents_tiny.yaml", "documents", 2, {"publication_year": 1980}, "publication_year", "1990"),
        ("documents_tiny.yaml", "documents", 3, {"text": "too short"}, "text", "80-300 words"),
        ("documents_tiny.yaml", "documents", 4, {"evidence_level": "D"}, "evidence_level", "expert_opinion"),
        ("documents_tiny.yaml", "documents", 5, {"id": "Bad_ID"}, "id", "pattern"),
        ("documents_tiny.yaml", "documents", 6, {"title": ...}, "title", "required"),
        ("conflicts_tiny.yaml", "conflicts", 0, {"preferred_document": ...}, "<record>", "preferred_document"),
        ("conflicts_tiny.yaml", "conflicts", 1, {"preferred_document": "card-gl-htn-nbcs-2023"}, "<record>", "omitted"),
        ("conflicts_tiny.yaml", "conflicts", 0, {"documents": ["card-gl-hf-2024"]}, "documents", "at least 2"),
        ("conflicts_tiny.yaml", "conflicts", 0, {"kind": "typo"}, "kind", "outdated_revision"),
        ("questions_tiny.yaml", "questions", 5, {"relevant": {"endo-dm-metformin": 2}}, "<record>", "unanswerable"),
        ("questions_tiny.yaml", "questions", 3, {"conflict_id": ...}, "<record>", "conflict_id"),
        ("questions_tiny.yaml", "questions", 0, {"relevant": {"endo-dm-metformin": 4}}, "relevant.endo-dm-metformin", "less than or equal"),
        ("questions_tiny.yaml", "questions", 2, {"relevant": {"card-dm-dapagliflozin": 3}}, "<record>", "two relevant"),
    ],
)
def test_bad_record_names_file_id_and_field(data_copy, file, key, index, changes, field, needle):
    rid = _edit(data_copy / file, key, index, **changes)
    err = _problem(data_copy)
    assert err.path.endswith(file)
    if "id" not in changes:
        assert err.record_id == rid
    text = str(err)
    assert f"field {field!r}" in text and needle in text, text


def test_cross_file_unknown_document_is_named_with_suggestion(data_copy):
    _edit(data_copy / "questions_tiny.yaml", "questions", 0, relevant={"endo-dm-metformim": 3})
    err = _problem(data_copy)
    assert err.record_id == "q-t-001" and "questions_tiny.yaml" in err.path
    assert "unknown document id 'endo-dm-metformim'" in str(err) and "endo-dm-metformin" in str(err)


def test_cross_file_unknown_conflict_and_supersedes(data_copy):
    _edit(data_copy / "questions_tiny.yaml", "questions", 3, conflict_id="cf-nope")
    err = _problem(data_copy)
    assert "field 'conflict_id': unknown conflict set 'cf-nope'" in str(err)
    _edit(data_copy / "questions_tiny.yaml", "questions", 3, conflict_id="cf-hf-sglt2")
    _edit(data_copy / "documents_tiny.yaml", "documents", 1, supersedes=["card-gl-hf-1999"])
    err = _problem(data_copy)
    assert err.record_id == "card-gl-hf-2024" and "field 'supersedes'" in str(err)


def test_duplicate_ids_across_files(data_copy):
    extra = yaml.safe_load((data_copy / "documents_tiny.yaml").read_text())
    extra["documents"] = extra["documents"][:1]
    (data_copy / "documents_more.yaml").write_text(yaml.safe_dump(extra))
    err = _problem(data_copy)
    assert "duplicate document id 'card-gl-hf-2016'" in str(err)


def test_file_level_problems(data_copy):
    (data_copy / "notes.yaml").write_text("a: 1\n")
    assert "unrecognised data file name" in str(_problem(data_copy))
    (data_copy / "notes.yaml").unlink()
    (data_copy / "questions_x.yaml").write_text("question:\n  - id: q\n")
    assert "single key 'questions'" in str(_problem(data_copy))
    (data_copy / "questions_x.yaml").write_text("questions: [\n")
    assert "not valid YAML" in str(_problem(data_copy))


def test_check_kb_collects_every_problem(data_copy):
    _edit(data_copy / "documents_tiny.yaml", "documents", 1, source_type="blog")
    _edit(data_copy / "questions_tiny.yaml", "questions", 0, relevant={"nope-doc": 3})
    kb, errors = check_kb(data_copy)
    assert kb is not None and len(errors) >= 2
    ids = {e.record_id for e in errors}
    assert {"card-gl-hf-2024", "q-t-001"} <= ids


def test_yaml_float_version_is_kept_as_text():
    doc = Document.model_validate(
        {"id": "x-doc", "title": "T", "source_type": "review", "issuing_body": "B", "publication_year": 2020,
         "version": 3.0, "evidence_level": "B", "specialty": "cardiology", "text": WORDS}
    )
    assert doc.version == "3.0"


def test_unanswerable_question_needs_empty_facts():
    with pytest.raises(ValueError, match="key_facts"):
        Question.model_validate(
            {"id": "q-x", "question": "?", "type": "unanswerable", "specialty": "x", "gold_answer": "no",
             "key_facts": ["a"], "relevant": {}}
        )


def test_packaged_knowledge_base_is_valid_and_complete():
    """The issue's floor: 300+ documents, 20+ conflict sets, 120+ questions of every type."""
    if not DEFAULT_DATA_DIR.is_dir():
        pytest.skip("packaged knowledge base not present")
    kb, errors = check_kb(DEFAULT_DATA_DIR)
    assert not errors, "\n".join(str(e) for e in errors[:10])
    assert len(kb.documents) >= 300
    assert len(kb.conflicts) >= 20
    assert len(kb.questions) >= 120
    types = {q.type.value for q in kb.questions.values()}
    assert types == {"single", "multi_doc", "conflict", "unanswerable"}
    assert {c.expected_resolution.value for c in kb.conflicts.values()} == {
        "prefer_newer", "prefer_higher_evidence", "state_disagreement"
    }
