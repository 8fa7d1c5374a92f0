#!/usr/bin/env bash
# Create (or reuse) .venv and install medgym into it, editable, with its test extras.
# torch==2.13.0 goes first: these machines hold a CPU wheel of it, while an unpinned
# torch would pull a multi-GB CUDA build. Safe to run repeatedly.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
fi
. .venv/bin/activate
export PIP_DISABLE_PIP_VERSION_CHECK=1
if ! python -c "import torch, sys; sys.exit(0 if torch.__version__.startswith('2.13.0') else 1)" 2>/dev/null; then
  pip install -q "torch==2.13.0"
fi
pip install -q -e ".[test]" 2>&1 | grep -v "is ignored: it is neither a file nor a directory" || true
python -c "import medgym" || { echo "medgym failed to install" >&2; exit 1; }
