#!/usr/bin/env python
"""Benchmark the batch runner.

1. Offline throughput of the main job's grid (whole bank x 8 conditions x careful/sloppy,
   reference judge): scenarios per second, and the wall time of the whole job.
2. Harness overhead against a real HTTP server: a local OpenAI-compatible server answers
   every request after a fixed 200 ms; 64 scenarios run with the LLM clinician at
   concurrency 1, 8 and 32. Ideal throughput = concurrency / (turns per scenario x 0.2 s);
   the script prints achieved / ideal (target >= 0.8 at concurrency 32). Judging is switched
   off in this part so the figure isolates the harness (runner + env + agent + LLM client);
   a last line repeats concurrency 32 with the reference judge on, for context.
   Each concurrency runs with one process and with ``--workers`` processes (default: one
   per core); worker start-up (fork) is inside the timed section.

    python scripts/bench_runner.py [--skip-offline] [--skip-http] [--latency 0.2] [--scenarios 64] [--workers N]
"""

from __future__ import annotations

import argparse
import gc
import os
import tempfile
import time

from medgym.envs.conditions import CONDITION_NAMES
from medgym.knowledge_base.case_bank import default_bank
from medgym.llm import reset_limits
from medgym.llm.latency_server import LatencyServer
from medgym.runner import RunConfig, read_results, run_batch


class NoJudge:
    """Judging disabled for the harness measurement (records say so: status unscored)."""

    def judge(self, traj):
        return {"status": "unscored", "reason": "benchmark: judging disabled"}


def offline(tmp: str, workers: int) -> None:
    for w in sorted({1, workers}):
        cfg = RunConfig(out=f"{tmp}/offline_w{w}", workers=w)
        t0 = time.perf_counter()
        s = run_batch(cfg, progress=False)
        dt = time.perf_counter() - t0
        print(f"offline main grid, {w} process(es): {s.ran} episodes ({dict(s.status)}) in {dt:.1f} s -> "
              f"{s.ran / dt:.1f} scenarios/s (includes judge model load)")


def http(tmp: str, latency: float, n: int, workers: int, judge_on_last: bool = True) -> None:
    bank = default_bank()
    pairs = [(c, cond) for c in bank.ids() for cond in CONDITION_NAMES][:n]
    case_ids = sorted({c for c, _ in pairs})
    conds = [cond for cond in CONDITION_NAMES if any(p[1] == cond for p in pairs)]
    # an asyncio server in its own process, as a real endpoint would be: a fixed delay at any concurrency
    with LatencyServer(latency_s=latency, reply="Noted. Final diagnosis: pending review.") as srv:
        runs = [(c, w, False) for c in (1, 8, 32) for w in sorted({1, min(workers, c)})]
        for conc, procs, judged in [*runs, *([(32, workers, True)] if judge_on_last else [])]:
            reset_limits()  # limits are process-wide per endpoint and the tightest wins: start fresh
            kwargs = {"model": "fake", "base_url": srv.base_url, "max_concurrency": max(conc, 1), "timeout": 30.0}
            cfg = RunConfig(out=f"{tmp}/http_c{conc}_w{procs}_{judged}", cases={"ids": case_ids}, conditions=conds,
                            agents=[{"spec": "llm", "kwargs": kwargs}], concurrency=conc,
                            workers=procs)  # fmt: skip
            gc.collect()  # each measurement starts from a clean heap, not the previous run's garbage
            t0 = time.perf_counter()
            s = run_batch(cfg, judge=None if judged else NoJudge(), progress=False)
            dt = time.perf_counter() - t0
            turns = [len(r["trajectory"]["turns"]) for r in read_results(cfg.out).values() if r.get("trajectory")]
            mean_turns = sum(turns) / max(len(turns), 1)
            achieved = s.ran / dt
            ideal = conc / (mean_turns * latency)
            print(f"concurrency {conc:>2}, {procs} process(es) ({'reference judge on' if judged else 'judge off'}): "
                  f"{s.ran} scenarios, "
                  f"{mean_turns:.2f} turns each, {dt:.2f} s -> {achieved:.2f} scenarios/s; ideal {ideal:.2f}/s; "
                  f"efficiency {achieved / ideal:.2f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--skip-offline", action="store_true")
    ap.add_argument("--skip-http", action="store_true")
    ap.add_argument("--latency", type=float, default=0.2)
    ap.add_argument("--scenarios", type=int, default=64)
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="worker processes (default: cores)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        if not args.skip_offline:
            offline(tmp, args.workers)
        if not args.skip_http:
            http(tmp, args.latency, args.scenarios, args.workers)


if __name__ == "__main__":
    main()
