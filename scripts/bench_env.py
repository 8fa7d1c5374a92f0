#!/usr/bin/env python
"""Benchmark: compile the whole bank x 8 conditions, then step a trivial policy through every scenario.

Prints scenarios per second (compile) and environment steps per second (policy takes no
time), in scripted and interactive mode. Targets on a 2-core machine: the bank x 8
compiles in under 2 s; the env does more than 1,000 steps/s.

    python scripts/bench_env.py [--repeat 3]
"""

from __future__ import annotations

import argparse
import time

import gymnasium as gym

import medgym  # noqa: F401
from medgym.envs.compiler import compile_scenario
from medgym.envs.conditions import ALL_CONDITIONS
from medgym.knowledge_base.case_bank import default_bank


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()

    t0 = time.perf_counter()
    bank = default_bank()
    load_s = time.perf_counter() - t0
    print(f"case bank: {len(bank)} cases loaded in {load_s:.3f} s")

    best = float("inf")
    scenarios = []
    for _ in range(args.repeat):
        t0 = time.perf_counter()
        scenarios = [compile_scenario(c, cond, seed=0) for c in bank for cond in ALL_CONDITIONS]
        best = min(best, time.perf_counter() - t0)
    n = len(scenarios)
    print(f"compile: {n} scenarios (bank x 8) in {best:.3f} s -> {n / best:,.0f} scenarios/s (best of {args.repeat})")

    for mode, reply in (("scripted", "Noted."), ("interactive", "Final diagnosis: unknown.")):
        env = gym.make("medgym/StressedDialogue-v0", mode=mode).unwrapped  # no wrappers: pure env cost
        steps = 0
        t0 = time.perf_counter()
        for sc in scenarios:
            env.reset(options={"scenario": sc})
            done = False
            while not done:
                _, _, term, trunc, _ = env.step(reply)
                steps += 1
                done = term or trunc or steps > 10**7
        dt = time.perf_counter() - t0
        print(f"{mode:>11}: {n} episodes, {steps} steps in {dt:.3f} s -> {steps / dt:,.0f} steps/s, "
              f"{n / dt:,.0f} episodes/s")


if __name__ == "__main__":
    main()
