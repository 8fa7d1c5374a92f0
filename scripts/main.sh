#!/usr/bin/env bash
# The main job on embedded defaults (no API key, server or download):
# the whole case bank x the 8 stress conditions x the `careful` and `sloppy` offline
# reference agents, judged by the offline reference judge, then the report.
# Extra arguments go to `medgym run` (e.g. --out runs/other --concurrency 4).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup_env.sh >/dev/null
. .venv/bin/activate
exec medgym run "$@"
