#!/usr/bin/env bash
# The whole test suite, from a fresh clone on a fresh machine:
#   1. set up .venv (torch CPU wheel first, then medgym editable + test extras);
#   2. make sure the database servers the DataAgent tests start are installed
#      (PostgreSQL 15 ships with the machine; MariaDB comes from Debian's packages);
#   3. ruff, the pytest suite (real PostgreSQL, MariaDB, ChromaDB and a local
#      OpenAI-compatible HTTP server; nothing touches the internet);
#   4. a non-editable install into a scratch directory, imported from elsewhere,
#      to prove every subpackage and data file is really packaged.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup_env.sh
. .venv/bin/activate

apt_install() {
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$@" >/dev/null 2>&1 \
      || { apt-get update -q >/dev/null 2>&1 && DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$@" >/dev/null; }
  else
    echo "warning: cannot apt-get install $*; the tests that need it will fail" >&2
  fi
}
if ! command -v pg_config >/dev/null 2>&1 || [ ! -x "$(pg_config --bindir)/initdb" ]; then
  echo "installing postgresql (Debian package) for the DataAgent tests..."
  apt_install postgresql
fi
if ! command -v mariadbd >/dev/null 2>&1 && [ ! -x /usr/sbin/mariadbd ]; then
  echo "installing mariadb-server (Debian package) for the DataAgent tests..."
  apt_install mariadb-server
fi

echo "== ruff"
ruff check .

echo "== pytest"
python -m pytest "$@"

echo "== non-editable install check"
./scripts/check_wheel_install.sh
