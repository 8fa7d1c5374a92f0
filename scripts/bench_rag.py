#!/usr/bin/env python
"""Benchmark of the RAGAgent testbed; prints its figures (targets from issue 6 in brackets).

1. Indexing 1,000 documents [< 30 s]: the packaged knowledge base, topped up to
   1,000 documents with synthetic ones that recombine the sentences of real
   documents (first half of one, second half of another), built into a temporary
   index root. The model is loaded before the clock starts (its load time is
   printed separately).
2. Search latency [p50 < 50 ms, p95 < 150 ms]: every question text of the knowledge
   base as a hybrid query (k=10) against the 1,000-document index, each query seen
   for the first time (the query-embedding cache is cleared); dense, lexical and
   filtered searches are reported too.
3. Reference agent throughput [>= 5 questions/s] and quality: the offline reference
   agent over every question of the real knowledge base, through the environment
   (scores computed in the environment), after one warm-up episode. MAP, nDCG@10,
   Recall@10, citation precision, answer correctness and conflict handling.

Usage: python scripts/bench_rag.py [--data-dir DIR] [--docs 1000] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")


def synthesise(kb, n_docs: int):
    """The KB's documents plus synthetic recombinations up to ``n_docs`` documents."""
    from medgym.knowledge_base.rag.chunking import split_sentences
    from medgym.knowledge_base.rag.loader import KnowledgeBase

    real = [kb.documents[k] for k in sorted(kb.documents)]
    docs = {d.id: d for d in real}
    i = 0
    while len(docs) < n_docs:
        a, b = real[i % len(real)], real[(7 * i + 3) % len(real)]
        sa, sb = split_sentences(a.text), split_sentences(b.text)
        text = " ".join(sa[: max(1, len(sa) // 2)] + sb[len(sb) // 2 :])
        doc = a.model_copy(update={"id": f"synth-{i:04d}", "title": f"{a.title} / {b.title}", "text": text, "supersedes": []})
        docs[doc.id] = doc
        i += 1
    return KnowledgeBase(docs, {}, {}, data_dir=f"{kb.data_dir} (+synthetic)")


def pct(values: list[float], p: float) -> float:
    s = sorted(values)
    k = (len(s) - 1) * p / 100
    lo, hi = int(k), min(int(k) + 1, len(s) - 1)
    return s[lo] + (s[hi] - s[lo]) * (k - lo)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data-dir", type=Path, default=None)
    ap.add_argument("--docs", type=int, default=1000)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()

    import gymnasium as gym

    import medgym  # noqa: F401
    from medgym.agents.rag_reference import RAGReferenceAgent
    from medgym.judges.rag_scoring import aggregate
    from medgym.knowledge_base.rag.index import build_index
    from medgym.knowledge_base.rag.loader import load_kb
    from medgym.knowledge_base.rag.retriever import Retriever
    from medgym.text import embeddings

    fig: dict = {"machine": {"cpus": os.cpu_count(), "python": platform.python_version(),
                             "load_avg_start": os.getloadavg()[0] if hasattr(os, "getloadavg") else None}}
    t = time.perf_counter()
    embeddings.get_model()
    embeddings.embed(["warm-up"])
    fig["model_load_s"] = round(time.perf_counter() - t, 2)

    kb = load_kb(args.data_dir)
    big = synthesise(kb, args.docs)
    with tempfile.TemporaryDirectory(prefix="medgym-bench-") as tmp:
        root_big = Path(tmp) / "big"
        t = time.perf_counter()
        res = build_index(big, root_big)
        fig["index"] = {"documents": res.n_documents, "passages": res.n_passages,
                        "seconds": round(time.perf_counter() - t, 2), "target_s": 30}

        r = Retriever.open(big, index_root=root_big)
        queries = [q.question for q in kb.questions.values()] or [d.title for d in list(kb.documents.values())[:100]]
        lat: dict[str, list[float]] = {"hybrid": [], "dense": [], "lexical": [], "hybrid+filters": []}
        embeddings._cache.data.clear()
        for q in queries:
            t = time.perf_counter()
            r.search(q, k=10)
            lat["hybrid"].append((time.perf_counter() - t) * 1000)
        for mode in ("dense", "lexical"):
            embeddings._cache.data.clear()
            for q in queries:
                t = time.perf_counter()
                r.search(q, k=10, mode=mode)
                lat[mode].append((time.perf_counter() - t) * 1000)
        embeddings._cache.data.clear()
        for q in queries:
            t = time.perf_counter()
            r.search(q, k=10, filters={"year_min": 2015, "source_type": ["guideline", "drug_monograph"]})
            lat["hybrid+filters"].append((time.perf_counter() - t) * 1000)
        fig["search_ms"] = {
            m: {"p50": round(statistics.median(v), 1), "p95": round(pct(v, 95), 1), "n": len(v)} for m, v in lat.items()
        }
        fig["search_ms"]["targets"] = {"p50": 50, "p95": 150}
        r.close()

        if kb.questions:
            root_real = Path(tmp) / "real"
            build_index(kb, root_real)
            env = gym.make("medgym/RAGAgent-v0", data_dir=str(kb.data_dir), index_root=str(root_real))
            agent = RAGReferenceAgent()
            qids = list(env.unwrapped.question_pool)

            def play(qid: str) -> dict:
                obs, info = env.reset(options={"question_id": qid})
                agent.reset()
                while True:
                    obs, _, term, trunc, info = env.step(agent.act(obs, info))
                    if term or trunc:
                        return info

            play(qids[0])  # warm-up (graph, caches)
            embeddings._cache.data.clear()
            t = time.perf_counter()
            scores = [play(q)["scores"] for q in qids]
            dt = time.perf_counter() - t
            agg = aggregate(scores)
            fig["reference_agent"] = {
                "questions": len(qids),
                "seconds": round(dt, 2),
                "questions_per_second": round(len(qids) / dt, 2),
                "target_qps": 5,
                "metrics": {k: (round(v["mean"], 3) if v["mean"] is not None else None) for k, v in agg["metrics"].items()},
                "n": {k: v["n"] for k, v in agg["metrics"].items()},
                "by_type": {t_: {k: (round(v, 3) if isinstance(v, float) else v) for k, v in row.items()}
                            for t_, row in agg["by_type"].items()},
            }
    fig["machine"]["load_avg_end"] = os.getloadavg()[0] if hasattr(os, "getloadavg") else None

    if args.json:
        print(json.dumps(fig, indent=2))
        return 0
    ix = fig["index"]
    print(f"model load            {fig['model_load_s']:.2f} s (excluded from indexing)")
    ok = "OK " if ix["seconds"] < 30 else "MISS"
    print(f"[{ok}] index           {ix['documents']} documents / {ix['passages']} passages in {ix['seconds']:.2f} s (target < 30 s)")
    for m, v in fig["search_ms"].items():
        if m == "targets":
            continue
        ok = "OK " if v["p50"] < 50 and v["p95"] < 150 else "MISS"
        print(f"[{ok}] search {m:<14} p50 {v['p50']:.1f} ms  p95 {v['p95']:.1f} ms  (n={v['n']}; target p50 < 50, p95 < 150)")
    if "reference_agent" in fig:
        ra = fig["reference_agent"]
        ok = "OK " if ra["questions_per_second"] >= 5 else "MISS"
        print(f"[{ok}] reference agent {ra['questions_per_second']:.2f} questions/s over {ra['questions']} questions (target >= 5)")
        for k, v in ra["metrics"].items():
            print(f"      {k:<20} {v if v is not None else 'n/a'}  (n={ra['n'][k]})")
    print(f"load average: start {fig['machine']['load_avg_start']}, end {fig['machine']['load_avg_end']} "
          f"(other processes on this {fig['machine']['cpus']}-core machine slow every figure)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
