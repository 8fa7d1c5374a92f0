"""Hybrid search, filters, re-ranking, query rewriting, BM25 and chunking."""

from __future__ import annotations

import pytest

from medgym.errors import ActionError, UnknownNameError
from medgym.knowledge_base.rag.bm25 import BM25Index, tokenize
from medgym.knowledge_base.rag.chunking import chunk_document, split_sentences
from medgym.knowledge_base.rag.filters import SearchFilters
from medgym.knowledge_base.rag.retriever import RRF_K
from medgym.knowledge_base.rag.rewrite import QueryRewriter, mine_abbreviations


@pytest.mark.parametrize("mode", ["hybrid", "dense", "lexical"])
def test_every_answerable_question_finds_its_top_document(retriever, tiny_kb, mode):
    for q in tiny_kb.questions.values():
        if not q.relevant:
            continue
        best = max(q.relevant, key=q.relevant.get)
        ids = [h.doc_id for h in retriever.search(q.question, k=3, mode=mode)]
        assert best in ids, (mode, q.id, ids)


def test_hybrid_is_reciprocal_rank_fusion(retriever):
    q = "warfarin INR target mechanical valve"
    hits = retriever.search(q, k=5)
    for h in hits:
        expected = sum(1.0 / (RRF_K + r) for r in (h.dense_rank, h.lexical_rank) if r is not None)
        assert h.score == pytest.approx(expected, abs=1e-6)
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)


@pytest.mark.parametrize(
    ("filters", "check"),
    [
        ({"year_min": 2023}, lambda d: d.publication_year >= 2023),
        ({"year_max": 2021}, lambda d: d.publication_year <= 2021),
        ({"source_type": ["drug_monograph"]}, lambda d: d.source_type.value == "drug_monograph"),
        ({"source_type": "guideline", "specialty": "cardiology"}, lambda d: d.source_type.value == "guideline" and d.specialty == "cardiology"),
        ({"evidence_level": ["A"]}, lambda d: d.evidence_level.value == "A"),
    ],
)
@pytest.mark.parametrize("mode", ["hybrid", "dense", "lexical"])
def test_filters_apply_to_every_mode(retriever, tiny_kb, filters, check, mode):
    hits = retriever.search("treatment dose guideline heart failure warfarin asthma", k=10, filters=filters, mode=mode)
    assert hits, (filters, mode)
    assert all(check(tiny_kb.documents[h.doc_id]) for h in hits)


def test_filters_with_no_match_return_nothing(retriever):
    assert retriever.search("heart failure", k=5, filters={"year_min": 2025}) == []


@pytest.mark.parametrize(
    ("bad", "needle"),
    [
        ({"year": 2020}, "year"),
        ({"source_type": "blog"}, "source_type"),
        ({"year_min": 2024, "year_max": 2020}, "after year_max"),
        ("cardiology", "must be an object"),
    ],
)
def test_invalid_filters_are_action_errors(retriever, bad, needle):
    with pytest.raises(ActionError, match=needle):
        retriever.search("heart failure", filters=bad)


def test_filter_translation_is_consistent():
    f = SearchFilters.parse({"year_min": 2020, "source_type": ["guideline", "review"], "specialty": "Cardiology"})
    assert f.chroma_where() == {
        "$and": [
            {"publication_year": {"$gte": 2020}},
            {"source_type": {"$in": ["guideline", "review"]}},
            {"specialty": {"$in": ["cardiology"]}},
        ]
    }
    meta = {"publication_year": 2021, "source_type": "review", "specialty": "cardiology", "evidence_level": "B"}
    assert f.matches(meta) and not f.matches({**meta, "publication_year": 2019})


def test_empty_and_huge_queries(retriever):
    with pytest.raises(ActionError, match="empty"):
        retriever.search("   ")
    huge = ("metformin contraindicated eGFR " * 400)[:10_000]
    hits = retriever.search(huge, k=3)
    assert hits and hits[0].doc_id == "endo-dm-metformin"


def test_rerank_orders_candidates_and_rejects_unknown_ids(retriever):
    ids = ["pulm-gl-asthma-2023", "heme-dm-warfarin", "endo-dm-metformin"]
    hits = retriever.rerank("maximum metformin dose with reduced eGFR", ids)
    assert [h.doc_id for h in hits][0] == "endo-dm-metformin"
    assert sorted(h.doc_id for h in hits) == sorted(ids)
    with pytest.raises(UnknownNameError, match="did you mean 'heme-dm-warfarin'"):
        retriever.rerank("warfarin", ["heme-dm-warfrin"])


def test_document_lookup_suggests_near_misses(retriever):
    assert retriever.document("card-gl-hf-2024").publication_year == 2024
    with pytest.raises(UnknownNameError, match="card-gl-hf-2024"):
        retriever.document("card-gl-hf-2042")


def test_rewriter_expands_both_ways_and_mines_definitions():
    mined = mine_abbreviations(["Patients with chronic obstructive pulmonary disease (COPD) need review."])
    assert mined == {"COPD": "chronic obstructive pulmonary disease"}
    rw = QueryRewriter.from_texts(["Use a sodium-glucose co-transporter 2 (SGLT2) inhibitor."])
    out = rw.rewrite("SGLT2 inhibitor in HFrEF")
    assert "heart failure with reduced ejection fraction" in out["rewritten"]
    assert "sodium-glucose co-transporter 2" in out["expansions"]
    assert rw.rewrite("chronic kidney disease and metformin")["expansions"] == ["CKD"]
    long = rw.rewrite("word " * 3000)
    assert long["truncated"] is True and len(long["original"]) <= rw.max_chars


def test_bm25_tokenizer_and_scores():
    assert tokenize("SGLT2 inhibitors, e.g. dapagliflozin 10 mg") == ["sglt2", "inhibitor", "e.g", "e", "g", "dapagliflozin", "10", "mg"]
    assert "sacubitril" in tokenize("sacubitril/valsartan") and "1.73" in tokenize("eGFR 30 mL/min/1.73 m2")
    idx = BM25Index(["warfarin INR target", "metformin eGFR", "asthma reliever inhaler"])
    s = idx.scores("warfarin target")
    assert s.argmax() == 0 and s[1] == 0 and s[2] == 0
    assert not idx.scores("the of and").any()


def test_sentences_and_passages():
    text = "Give 10 mg daily, e.g. with food. The eGFR is 1.73 m2 adjusted. Dr. Smith agrees! Next step (A). 2 doses."
    assert split_sentences(text) == [
        "Give 10 mg daily, e.g. with food.", "The eGFR is 1.73 m2 adjusted.", "Dr. Smith agrees!", "Next step (A).", "2 doses.",
    ]
    long = " ".join(f"Sentence number {i} has exactly seven words." for i in range(40))
    ps = chunk_document("doc-x", long)
    assert len(ps) >= 3 and all(len(p.text.split()) <= 130 for p in ps)
    assert " ".join(p.text for p in ps) == long
    assert [p.id for p in ps][:2] == ["doc-x#p0", "doc-x#p1"]
