#!/usr/bin/env python
"""Benchmark the DataAgent testbed and PRINT the figures.

* generate + load time of the default fixture into each backend (SQLite file, CSV
  export + import, PostgreSQL, MariaDB);
* ``run_sql`` latency p50 / p95 per backend, over every gold query of the task
  files (the realistic query mix) run through the read-only sandbox;
* reference-agent episodes per second on the embedded SQLite fixture.

PostgreSQL and MariaDB are throwaway servers started the same way the tests start
them (``medgym.db_fixtures.servers``), or the admin DSNs in ``MEDGYM_TEST_PG_DSN`` /
``MEDGYM_TEST_MYSQL_DSN``. Usage::

    python scripts/bench_data_agent.py [--backends sqlite,csv,postgresql,mariadb] [--repeats 3]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path


def pct(values: list[float], q: float) -> float:
    s = sorted(values)
    k = (len(s) - 1) * q
    lo, hi = int(k), min(int(k) + 1, len(s) - 1)
    return s[lo] + (s[hi] - s[lo]) * (k - lo)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--backends", default="sqlite,csv,postgresql,mariadb")
    ap.add_argument("--repeats", type=int, default=3, help="passes over the gold queries per backend")
    ap.add_argument("--episodes-passes", type=int, default=3, help="passes over all tasks for episodes/s")
    args = ap.parse_args(argv)

    tmp = Path(tempfile.mkdtemp(prefix="medgym-bench-"))
    os.environ.setdefault("MEDGYM_DATA_AGENT_CACHE_DIR", str(tmp / "cache"))
    try:
        return _bench(args, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _bench(args: argparse.Namespace, tmp: Path) -> int:
    backends = [b.strip() for b in args.backends.split(",") if b.strip()]

    from medgym.db_fixtures.generator import generate
    from medgym.db_fixtures.loaders import (
        build_sqlite,
        csv_to_sqlite,
        export_csv,
        load_database,
        provision_readonly_user,
    )
    from medgym.db_fixtures.sandbox import open_sandbox
    from medgym.db_fixtures.servers import mariadb_from_env_or_start, postgres_from_env_or_start
    from medgym.db_fixtures.task_models import default_tasks

    t0 = time.perf_counter()
    data = generate()
    gen_s = time.perf_counter() - t0
    counts = data.counts()
    print(f"fixture: {sum(counts.values())} rows ({', '.join(f'{k} {v}' for k, v in counts.items())})")
    print(f"generate: {gen_s:.3f} s")

    urls: dict[str, str] = {}
    load_s: dict[str, float] = {}
    handles = []
    try:
        for b in backends:
            t0 = time.perf_counter()
            if b == "sqlite":
                path = build_sqlite(tmp / "fixture.sqlite", data)
                urls[b] = f"sqlite:///{path}"
            elif b == "csv":
                folder = export_csv(data, tmp / "csv")
                csv_to_sqlite(folder)  # the import an env does on first use
                urls[b] = f"csv://{folder}"
            elif b in ("postgresql", "mariadb"):
                starter = postgres_from_env_or_start if b == "postgresql" else mariadb_from_env_or_start
                ts = time.perf_counter()
                h = starter()
                handles.append(h)
                start_s = time.perf_counter() - ts
                t0 = time.perf_counter()
                load_database(h.admin_url, data)
                urls[b] = provision_readonly_user(h.admin_url)
                print(f"{b}: server start {start_s:.2f} s (not counted in load)")
            else:
                print(f"unknown backend {b!r}", file=sys.stderr)
                return 2
            load_s[b] = time.perf_counter() - t0
        for b in backends:
            print(f"load into {b:10s}: {load_s[b]:.3f} s   (generate + load {gen_s + load_s[b]:.3f} s)")

        queries = [(r.sql_for("sqlite"), r) for t in default_tasks() for r in t.rounds if not r.unanswerable]
        print(f"\nrun_sql latency over {len(queries)} gold queries x {args.repeats} passes")
        for b in backends:
            lat: list[float] = []
            with open_sandbox(urls[b]) as sb:
                for _ in range(args.repeats):
                    for _sql, rnd in queries:
                        sql = rnd.sql_for(sb.dialect)
                        t1 = time.perf_counter()
                        sb.run_sql(sql)
                        lat.append((time.perf_counter() - t1) * 1000)
            print(f"  {b:10s} p50 {pct(lat, 0.5):7.2f} ms   p95 {pct(lat, 0.95):7.2f} ms   "
                  f"max {max(lat):7.1f} ms   mean {statistics.fmean(lat):6.2f} ms")
    finally:
        for h in handles:
            h.stop()

    from medgym.agents.sql_reference import SQLReferenceAgent
    from medgym.envs.data_agent.evaluate import make_judged_env, run_episode

    env = make_judged_env()
    ids = env.unwrapped.task_ids
    run_episode(env, SQLReferenceAgent(), ids[0])  # warm up: build the cache, compile the graph
    n, correct, rounds = 0, 0, 0
    t0 = time.perf_counter()
    for _ in range(args.episodes_passes):
        for tid in ids:
            rec = run_episode(env, SQLReferenceAgent(), tid)
            n += 1
            rounds += len(rec["rounds"])
            correct += sum(1 for r in rec["rounds"] if r["correct"])
    el = time.perf_counter() - t0
    env.close()
    print(f"\nreference agent on embedded SQLite: {n} episodes in {el:.2f} s = {n / el:.1f} episodes/s "
          f"({rounds / el:.0f} rounds/s; round accuracy {correct / rounds:.3f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
