"""The chroma index: idempotent atomic builds, typed errors, our embedding function across processes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
import yaml

from medgym.knowledge_base.rag import index as index_mod
from medgym.knowledge_base.rag.embedding import EF_NAME, MedgymMiniLMEmbeddingFunction
from medgym.knowledge_base.rag.errors import IndexCorruptError, IndexMissingError, IndexStaleError
from medgym.knowledge_base.rag.index import (
    COLLECTION_NAME,
    CURRENT_FILE,
    MANIFEST_FILE,
    PassageIndex,
    build_index,
    default_index_root,
    open_client,
    read_manifest,
)
from medgym.knowledge_base.rag.loader import load_kb


def _index_dirs(root: Path) -> list[str]:
    return sorted(p.name for p in root.iterdir() if p.is_dir() and p.name.startswith("index-"))


def test_build_is_idempotent_and_rebuilds_on_change(tmp_path, data_copy):
    kb = load_kb(data_copy)
    root = tmp_path / "kb"
    first = build_index(kb, root)
    assert first.status == "built" and first.n_documents == 10 and first.n_passages >= 10
    again = build_index(load_kb(data_copy), root)
    assert again.status == "up-to-date" and again.path == first.path
    assert _index_dirs(root) == [first.path.name]
    # edit one document: the content hash changes, the index is stale, a build replaces it
    path = data_copy / "documents_tiny.yaml"
    data = yaml.safe_load(path.read_text())
    data["documents"][0]["text"] += " An added sentence about follow-up appointments."
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    kb2 = load_kb(data_copy)
    assert kb2.content_hash != kb.content_hash
    with pytest.raises(IndexStaleError, match="medgym kb build"):
        PassageIndex.open(root, expected_hash=kb2.content_hash)
    second = build_index(kb2, root)
    assert second.status == "built" and second.path != first.path
    assert _index_dirs(root) == [second.path.name]  # the old index directory is gone
    forced = build_index(kb2, root, force=True)
    assert forced.status == "built" and forced.path != second.path


def test_questions_do_not_invalidate_the_index(tmp_path, data_copy):
    root = tmp_path / "kb"
    build_index(load_kb(data_copy), root)
    path = data_copy / "questions_tiny.yaml"
    path.write_text(path.read_text().replace("Below which eGFR", "Under which eGFR"))
    assert build_index(load_kb(data_copy), root).status == "up-to-date"


def test_missing_index_says_what_to_run(tmp_path):
    with pytest.raises(IndexMissingError) as ei:
        PassageIndex.open(tmp_path / "nothing")
    assert "run `medgym kb build`" in str(ei.value)
    (tmp_path / "nothing").mkdir()
    (tmp_path / "nothing" / CURRENT_FILE).write_text("index-gone\n")
    with pytest.raises(IndexMissingError, match="does not exist"):
        PassageIndex.open(tmp_path / "nothing")


def test_corrupted_index_is_detected(tmp_path, tiny_kb):
    root = tmp_path / "kb"
    res = build_index(tiny_kb, root)
    (res.path / MANIFEST_FILE).write_text("{not json")
    with pytest.raises(IndexCorruptError) as ei:
        PassageIndex.open(root)
    assert "medgym kb build --force" in str(ei.value)
    # a rebuild without --force repairs it (a corrupt index is never "up to date")
    res2 = build_index(tiny_kb, root)
    assert res2.status == "built"
    (res2.path / "chroma.sqlite3").write_bytes(b"this is not a database" * 100)
    with pytest.raises(IndexCorruptError, match="chroma cannot read it|passages"):
        PassageIndex.open(root)


def test_manifest_count_mismatch_is_corruption(tmp_path, tiny_kb):
    root = tmp_path / "kb"
    res = build_index(tiny_kb, root)
    manifest = json.loads((res.path / MANIFEST_FILE).read_text())
    manifest["n_passages"] += 3
    (res.path / MANIFEST_FILE).write_text(json.dumps(manifest))
    with pytest.raises(IndexCorruptError, match="passages"):
        PassageIndex.open(root)


def test_crash_during_build_keeps_the_old_index(tmp_path, data_copy, monkeypatch):
    root = tmp_path / "kb"
    good = build_index(load_kb(data_copy), root)
    path = data_copy / "documents_tiny.yaml"
    path.write_text(path.read_text().replace("Warfarin is a vitamin K antagonist.", "Warfarin antagonises vitamin K."))
    kb2 = load_kb(data_copy)

    def boom(*a, **k):
        raise KeyboardInterrupt("simulated crash mid-build")

    monkeypatch.setattr(index_mod, "_write_collection", boom)
    with pytest.raises(KeyboardInterrupt):
        build_index(kb2, root)
    assert read_manifest(root)[0] == good.path  # CURRENT still points at the complete old index
    assert _index_dirs(root) == [good.path.name]  # the half-built directory was removed
    PassageIndex.open(root)  # and it still opens


def test_collection_uses_our_registered_embedding_function(tiny_index):
    path, manifest = read_manifest(tiny_index)
    assert manifest["embedding_function"] == EF_NAME
    client = open_client(path)
    assert client.get_settings().anonymized_telemetry is False
    coll = client.get_collection(COLLECTION_NAME)  # no embedding function passed: taken from the config
    ef = coll.configuration.get("embedding_function")
    assert isinstance(ef, MedgymMiniLMEmbeddingFunction)
    assert coll.configuration_json["embedding_function"]["name"] == EF_NAME


def test_collection_reopens_in_a_new_process(tiny_index):
    """A fresh interpreter reopens the collection by name and embeds query texts with our function."""
    path, _ = read_manifest(tiny_index)
    code = textwrap.dedent(
        f"""
        import json
        import medgym.knowledge_base.rag.embedding  # registers the embedding function with chromadb
        import chromadb
        from chromadb.config import Settings
        client = chromadb.PersistentClient(path={str(path)!r}, settings=Settings(anonymized_telemetry=False))
        coll = client.get_collection({COLLECTION_NAME!r})
        res = coll.query(query_texts=["target INR for a mechanical mitral valve"], n_results=1)
        print(json.dumps({{"ef": type(coll.configuration["embedding_function"]).__name__, "top": res["ids"][0][0]}}))
        """
    )
    env = dict(os.environ, HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, env=env)
    assert out.returncode == 0, out.stderr[-2000:]
    got = json.loads(out.stdout.strip().splitlines()[-1])
    assert got == {"ef": "MedgymMiniLMEmbeddingFunction", "top": "heme-dm-warfarin#p0"}


def test_default_index_root_follows_cache_env(monkeypatch, tmp_path):
    monkeypatch.setenv("MEDGYM_CACHE_DIR", str(tmp_path))
    assert default_index_root() == tmp_path / "kb"
    monkeypatch.delenv("MEDGYM_CACHE_DIR")
    assert default_index_root() == Path.home() / ".cache" / "medgym" / "kb"


def test_passages_cover_every_document(tiny_index, tiny_kb):
    idx = PassageIndex.open(tiny_index, expected_hash=tiny_kb.content_hash)
    assert set(idx.rows_of_doc) == set(tiny_kb.documents)
    assert idx.embeddings.shape == (len(idx.passage_ids), 384)
    norms = (idx.embeddings**2).sum(axis=1)
    assert abs(norms - 1).max() < 1e-3
    assert all(m["doc_id"] == pid.split("#")[0] for pid, m in zip(idx.passage_ids, idx.metadatas, strict=True))
