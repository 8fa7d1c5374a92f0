#!/usr/bin/env bash
# Build medgym as a regular (non-editable) install into a scratch directory and use it
# from outside the repository. setuptools silently drops subpackages missing from
# pyproject's `packages` list and data files missing from package-data; this catches both.
set -euo pipefail
cd "$(dirname "$0")/.."
. .venv/bin/activate
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
pip install -q --no-deps --no-build-isolation --target "$scratch/site" . 2>&1 | grep -v "is ignored" || true
src_dir=$(pwd)
cd "$scratch"
MEDGYM_SRC="$src_dir" PYTHONPATH="$scratch/site" python - <<'PY'
import importlib, os, pathlib, sys
import medgym
root = pathlib.Path(medgym.__file__).parent
assert str(root).startswith(sys.path[0]) or "site" in str(root), root
expected = ["medgym.envs", "medgym.agents", "medgym.judges", "medgym.knowledge_base", "medgym.db_fixtures",
            "medgym.cli", "medgym.llm", "medgym.text", "medgym.envs.data_agent", "medgym.envs.rag",
            "medgym.knowledge_base.rag"]
for name in expected:
    mod = importlib.import_module(name)
    assert "site" in mod.__file__, (name, mod.__file__)
from medgym.knowledge_base.case_bank import default_bank
bank = default_bank()
src = pathlib.Path(os.environ["MEDGYM_SRC"])
n_src = len(list((src / "knowledge_base" / "cases").glob("*.yaml")))
assert len(bank) == n_src, f"packaged bank has {len(bank)} cases, the repo {n_src}"
# every data file of the repo's package folders is in the install
missing = []
for pkg_dir, dest in [("envs", "envs"), ("agents", "agents"), ("judges", "judges"),
                      ("knowledge_base", "knowledge_base"), ("db_fixtures", "db_fixtures")]:
    for f in (src / pkg_dir).rglob("*"):
        if f.suffix in {".yaml", ".yml", ".json", ".jsonl", ".txt", ".md", ".csv", ".sql", ".py"} and "__pycache__" not in f.parts:
            if not (root / dest / f.relative_to(src / pkg_dir)).exists():
                missing.append(str(f.relative_to(src)))
assert not missing, f"not packaged: {missing[:10]} ({len(missing)} files)"
import gymnasium
env = gymnasium.make("medgym:medgym/StressedDialogue-v0")
env.reset(seed=0)
print(f"non-editable install OK: {len(bank)} cases, all subpackages and data files present")
PY
