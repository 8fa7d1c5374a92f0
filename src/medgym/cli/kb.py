"""``medgym kb build|status|search|validate``: the RAG knowledge base and its ChromaDB index.

``build`` is idempotent (nothing happens when the documents' content hash matches
the active index) and atomic (a new index directory becomes active only once it
is complete). ``--data-dir`` and ``--index-dir`` default to the packaged knowledge
base (or ``$MEDGYM_RAG_DATA_DIR``) and to ``$MEDGYM_CACHE_DIR/kb`` (or
``~/.cache/medgym/kb``).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path


def _common(p: argparse.ArgumentParser, index: bool = True) -> None:
    p.add_argument("--data-dir", type=Path, default=None, help="knowledge-base data folder (documents_*.yaml ...)")
    if index:
        p.add_argument("--index-dir", type=Path, default=None, help="index root (default $MEDGYM_CACHE_DIR/kb)")


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("kb", help="build, inspect, search or validate the RAG knowledge base")
    sub = p.add_subparsers(dest="kb_command", metavar="ACTION", required=True)

    b = sub.add_parser("build", help="build the ChromaDB index (no-op when it is up to date)")
    _common(b)
    b.add_argument("--force", action="store_true", help="rebuild even if the index is up to date")
    b.add_argument("--no-progress", action="store_true", help="no progress bar")
    b.set_defaults(func=_build)

    st = sub.add_parser("status", help="show the active index and whether it matches the documents")
    _common(st)
    st.add_argument("--json", action="store_true")
    st.set_defaults(func=_status)

    se = sub.add_parser("search", help="hybrid search from the command line")
    _common(se)
    se.add_argument("query")
    se.add_argument("-k", type=int, default=5)
    se.add_argument("--mode", choices=["hybrid", "dense", "lexical"], default="hybrid")
    se.add_argument("--year-min", type=int)
    se.add_argument("--year-max", type=int)
    se.add_argument("--source-type", action="append", help="repeatable")
    se.add_argument("--specialty", action="append", help="repeatable")
    se.add_argument("--evidence-level", action="append", help="repeatable")
    se.add_argument("--rerank", action="store_true", help="re-rank the hits before printing")
    se.add_argument("--json", action="store_true")
    se.set_defaults(func=_search)

    va = sub.add_parser("validate", help="validate documents, conflict sets and questions (exit 1 if invalid)")
    _common(va, index=False)
    va.add_argument("--strict", action="store_true", help="treat warnings as errors")
    va.set_defaults(func=_validate)


def _build(args: argparse.Namespace) -> int:
    from medgym.knowledge_base.rag.index import build_index, default_index_root
    from medgym.knowledge_base.rag.loader import load_kb

    kb = load_kb(args.data_dir)
    root = args.index_dir or default_index_root()
    progress = not args.no_progress and sys.stderr.isatty()
    res = build_index(kb, root, force=args.force, progress=progress)
    if res.status == "up-to-date":
        print(f"index is up to date ({res.n_documents} documents, {res.n_passages} passages): {res.path}")
    else:
        print(f"built index of {res.n_documents} documents ({res.n_passages} passages) in {res.seconds:.1f}s: {res.path}")
    return 0


def _status(args: argparse.Namespace) -> int:
    from medgym.knowledge_base.rag.errors import KnowledgeBaseIndexError
    from medgym.knowledge_base.rag.index import PassageIndex, default_index_root, read_manifest
    from medgym.knowledge_base.rag.loader import load_kb

    kb = load_kb(args.data_dir)
    root = args.index_dir or default_index_root()
    out: dict = {
        "data_dir": kb.data_dir,
        "documents": len(kb.documents),
        "conflict_sets": len(kb.conflicts),
        "questions": len(kb.questions),
        "content_hash": kb.content_hash,
        "index_root": str(root),
    }
    code = 0
    try:
        path, manifest = read_manifest(root)
        out.update(index_path=str(path), built_at=manifest.get("built_at"), index_hash=manifest.get("content_hash"),
                   passages=manifest.get("n_passages"))
        idx = PassageIndex.open(root, expected_hash=kb.content_hash)
        idx.close()
        out["state"] = "up-to-date"
    except KnowledgeBaseIndexError as exc:
        out["state"] = type(exc).__name__.removeprefix("Index").removesuffix("Error").lower()
        out["problem"] = str(exc)
        code = 1
    if args.json:
        print(json.dumps(out, indent=2))
    else:
        for k, v in out.items():
            print(f"{k:>14}: {v}")
    return code


def _search(args: argparse.Namespace) -> int:
    from medgym.knowledge_base.rag.retriever import Retriever

    filters = {
        k: v
        for k, v in {
            "year_min": args.year_min,
            "year_max": args.year_max,
            "source_type": args.source_type,
            "specialty": args.specialty,
            "evidence_level": args.evidence_level,
        }.items()
        if v is not None
    }
    r = Retriever.open(data_dir=args.data_dir, index_root=args.index_dir)
    hits = r.search(args.query, k=args.k, filters=filters or None, mode=args.mode)
    if args.rerank and hits:
        hits = r.rerank(args.query, [h.doc_id for h in hits])
    if args.json:
        print(json.dumps([h.as_dict() for h in hits], indent=2, ensure_ascii=False))
        return 0
    if not hits:
        print("no results")
    for i, h in enumerate(hits, 1):
        d = r.kb.documents[h.doc_id]
        print(f"{i:>2}. {h.doc_id}  ({d.source_type.value}, {d.publication_year}, evidence {d.evidence_level.value})  score={h.score:.4f}")
        print(f"    {d.title}")
        print(f"    {h.snippet}")
    return 0


def _validate(args: argparse.Namespace) -> int:
    from medgym.knowledge_base.rag.loader import check_kb

    kb, errors = check_kb(args.data_dir)
    for err in errors:
        print(f"INVALID: {err}", file=sys.stderr)
    if kb is None:
        return 1
    by_type: dict[str, int] = {}
    for q in kb.questions.values():
        by_type[q.type.value] = by_type.get(q.type.value, 0) + 1
    status = "OK" if not errors else f"{len(errors)} problem(s)"
    print(
        f"{status}: {len(kb.documents)} valid documents, {len(kb.conflicts)} conflict sets, {len(kb.questions)} "
        f"questions ({', '.join(f'{k} {v}' for k, v in sorted(by_type.items()))}) in {kb.data_dir}"
    )
    for w in kb.warnings:
        print(f"warning: {w}", file=sys.stderr)
    return 1 if errors or (args.strict and kb.warnings) else 0
