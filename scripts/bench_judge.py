"""Reference-judge throughput on 6-turn trajectories (prints figures; not a timed test).

    python scripts/bench_judge.py                 # 200 trajectories over the whole case bank
    python scripts/bench_judge.py -n 500 --cases 5

Trajectories are built by playing the interactive StressedDialogue env for six turns
with a seeded synthetic agent whose replies vary per episode (quoted and misquoted
values, invented labs, questions, hedged and committed diagnoses), so the embedding
cache cannot make every reply a hit. The model load is timed separately; the figure
that matters is trajectories/second after the model is in memory (target: >= 20/s on
2 cores).

Three passes over the same trajectories, each with a fresh judge:
1. ``judge_many(trajs, workers=W)``: W forked processes (default one per core), caches
   cold: it runs first, while this process has built nothing the workers could inherit;
2. one process, caches cold (the figure of earlier sessions);
3. one process again, caches warm.
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np

from medgym.envs.stressed_dialogue import StressedDialogueEnv
from medgym.judges import get_judge
from medgym.judges.parallel import resolve_workers
from medgym.knowledge_base.case_bank import default_bank

TURNS = 6


def _reply(case, rng: np.random.Generator, turn: int) -> str:
    facts = [f for f in case.facts]
    numeric = [f for f in facts if f.value is not None]
    parts = []
    for f in rng.choice(numeric, size=min(2, len(numeric)), replace=False) if numeric else []:
        v = f.value if rng.random() < 0.7 else round(f.value * float(rng.uniform(0.5, 1.5)), 1)
        parts.append(f"The {f.name} is {v:g} {f.unit or ''}.".replace(" .", "."))
    if rng.random() < 0.4:
        parts.append(f"Her haemoglobin is {int(rng.integers(70, 140))} g/L.")
    f = facts[int(rng.integers(len(facts)))]
    parts.append(f"{f.statement}")
    dx = [case.gold.diagnosis, *case.gold.differential]
    d = dx[int(rng.integers(len(dx)))]
    cue = ["This is most likely", "I would consider", "Could this be", "The working diagnosis is"][int(rng.integers(4))]
    parts.append(f"{cue} {d.name}{'?' if cue.startswith('Could') else '.'}")
    q = facts[int(rng.integers(len(facts)))]
    parts.append(f"Could you tell me the {q.name}? Please also check the {facts[int(rng.integers(len(facts)))].name}.")
    if turn == TURNS:
        parts.insert(0, f"Final diagnosis: {d.name}.\nEvidence:\n- {f.statement}")
    return " ".join(parts)


def build(n: int, max_cases: int | None, seed: int) -> list:
    bank = default_bank()
    ids = bank.ids()[:max_cases] if max_cases else bank.ids()
    env = StressedDialogueEnv(mode="interactive", case_ids=ids)
    rng = np.random.default_rng(seed)
    out = []
    for i in range(n):
        env.reset(seed=seed + i)
        case = env.unwrapped.scenario.case
        for t in range(1, TURNS + 1):
            _obs, _r, term, _trunc, _info = env.step(_reply(case, rng, t))
            if term:
                break
        out.append(env.trajectory())
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-n", type=int, default=200, help="number of trajectories")
    ap.add_argument("--cases", type=int, default=None, help="use only the first N cases of the bank")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--workers", default="auto", help="processes for the parallel pass ('auto': one per core)")
    args = ap.parse_args(argv)
    workers = resolve_workers(args.workers if args.workers == "auto" else int(args.workers))

    from medgym.text.embeddings import get_model

    t0 = time.perf_counter()
    get_model()
    t_model = time.perf_counter() - t0
    t0 = time.perf_counter()
    trajs = build(args.n, args.cases, args.seed)
    t_build = time.perf_counter() - t0
    turns = [len(t.turns) for t in trajs]

    t0 = time.perf_counter()
    par = get_judge("reference").judge_many(trajs, workers=workers)
    t_par = time.perf_counter() - t0
    judge = get_judge("reference")
    t0 = time.perf_counter()
    results = judge.judge_many(trajs)
    t_cold = time.perf_counter() - t0
    t0 = time.perf_counter()
    judge.judge_many(trajs)
    t_warm = time.perf_counter() - t0

    ok = sum(r.status == "ok" for r in results)
    same = all(a.metrics() == b.metrics() for a, b in zip(par, results, strict=True))
    print(f"cpus={os.cpu_count()}  trajectories={len(trajs)}  turns/trajectory={np.mean(turns):.1f} "
          f"(min {min(turns)}, max {max(turns)})  scored={ok}")
    print(f"build (env rollouts): {t_build:.2f}s   MiniLM load: {t_model:.2f}s")
    print(f"{workers} worker processes, caches cold: {len(trajs) / t_par:.1f} trajectories/s  ({t_par:.2f}s)"
          f"  same metrics as one process: {same}")
    print(f"one process, caches cold:          {len(trajs) / t_cold:.1f} trajectories/s  ({t_cold:.2f}s)")
    print(f"one process, caches warm:          {len(trajs) / t_warm:.1f} trajectories/s  ({t_warm:.2f}s)")
    for label, t in ((f"{workers} workers", t_par), ("one process", t_cold)):
        print(f"target >= 20 trajectories/s, caches cold, {label}: {'met' if len(trajs) / t >= 20 else 'NOT met'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
