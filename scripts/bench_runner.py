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

    python scripts/bench_runner.py [--skip-offline] [--skip-http] [--latency 0.2] [--scenarios 64]
"""

from __future__ import annotations

import argparse
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


def offline(tmp: str) -> None:
    cfg = RunConfig(out=f"{tmp}/offline")
    t0 = time.perf_counter()
    s = run_batch(cfg, progress=False)
    dt = time.perf_counter() - t0
    print(f"offline main grid: {s.ran} episodes ({dict(s.status)}) in {dt:.1f} s -> {s.ran / dt:.1f} scenarios/s "
          f"(includes judge model load)")


def http(tmp: str, latency: float, n: int, judge_on_last: bool = True) -> None:
    bank = default_bank()
    pairs = [(c, cond) for c in bank.ids() for cond in CONDITION_NAMES][:n]
    case_ids = sorted({c for c, _ in pairs})
    conds = [cond for cond in CONDITION_NAMES if any(p[1] == cond for p in pairs)]
    # an asyncio server in its own process, as a real endpoint would be: a fixed delay at any concurrency
    with LatencyServer(latency_s=latency, reply="Noted. Final diagnosis: pending review.") as srv:
        for conc, judged in [(1, False), (8, False), (32, False), *([(32, True)] if judge_on_last else [])]:
            reset_limits()  # limits are process-wide per endpoint and the tightest wins: start fresh
            kwargs = {"model": "fake", "base_url": srv.base_url, "max_concurrency": max(conc, 1), "timeout": 30.0}
            cfg = RunConfig(out=f"{tmp}/http_c{conc}_{judged}", cases={"ids": case_ids}, conditions=conds,
                            agents=[{"spec": "llm", "kwargs": kwargs}], concurrency=conc)  # fmt: skip
            # keep exactly the first n scenarios of the grid
            t0 = time.perf_counter()
            s = run_batch(cfg, judge=None if judged else NoJudge(), progress=False)
            dt = time.perf_counter() - t0
            recs = list(read_results(cfg.out).values())
            turns = [len(r["trajectory"]["turns"]) for r in recs if r.get("trajectory")]
            mean_turns = sum(turns) / max(len(turns), 1)
            achieved = s.ran / dt
            ideal = conc / (mean_turns * latency)
            print(f"concurrency {conc:>2} ({'reference judge on' if judged else 'judge off'}): {s.ran} scenarios, "
                  f"{mean_turns:.2f} turns each, {dt:.2f} s -> {achieved:.2f} scenarios/s; ideal {ideal:.2f}/s; "
                  f"efficiency {achieved / ideal:.2f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--skip-offline", action="store_true")
    ap.add_argument("--skip-http", action="store_true")
    ap.add_argument("--latency", type=float, default=0.2)
    ap.add_argument("--scenarios", type=int, default=64)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        if not args.skip_offline:
            offline(tmp)
        if not args.skip_http:
            http(tmp, args.latency, args.scenarios)


if __name__ == "__main__":
    main()
