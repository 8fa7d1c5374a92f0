"""Agreement of a judge with the hand-labelled validation set.

    python scripts/judge_agreement.py                     # reference judge, summary tables
    python scripts/judge_agreement.py --show-errors       # also list every disagreement
    python scripts/judge_agreement.py --json out.json     # machine-readable report

Prints, per node (the five audit nodes and the four hallucination dimensions), the
accuracy and macro-F1 of the judge's decisions against the labels, and, per metric,
the mean and maximum absolute error between the judge's metrics and the metrics the
labels imply (same shared formulas). Target: macro-F1 >= 0.85 on every node.
See docs/judges.md for how items are matched.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from medgym.judges import get_judge
from medgym.judges.metrics import ALL_NODES, METRICS
from medgym.judges.validation import NONE, agreement, load_validation_set

DEFAULT_DIR = Path(__file__).resolve().parents[1] / "tests" / "judges" / "validation"
TARGET_F1 = 0.85


def _f(v: float | None, digits: int = 3) -> str:
    return "n/a" if v is None else f"{v:.{digits}f}"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dir", type=Path, default=DEFAULT_DIR, help="folder of validation JSON files")
    ap.add_argument("--judge", default="reference", help="judge name (reference or llm)")
    ap.add_argument("--show-errors", action="store_true", help="list every disagreement")
    ap.add_argument("--only", default=None, help="only validation ids containing this text")
    ap.add_argument("--json", type=Path, default=None, help="write the full report as JSON")
    args = ap.parse_args(argv)

    items = load_validation_set(args.dir)
    if args.only:
        items = [i for i in items if args.only in i.id]
    if not items:
        print(f"no validation files in {args.dir}", file=sys.stderr)
        return 2
    judge = get_judge(args.judge)
    t0 = time.perf_counter()
    results = [judge.judge(i.trajectory) for i in items]
    elapsed = time.perf_counter() - t0
    unscored = [i.id for i, r in zip(items, results, strict=True) if r.status != "ok"]
    rep = agreement(items, results)

    print(f"judge={args.judge}  trajectories={len(items)}  unscored/error={len(unscored)}  time={elapsed:.1f}s")
    if unscored:
        print("  not scored:", ", ".join(unscored))
    print()
    print(f"{'node':<20}{'n':>6}{'accuracy':>10}{'macro-F1':>10}  target>={TARGET_F1}")
    for node in ALL_NODES:
        row = rep["nodes"][node]
        ok = row["macro_f1"] is not None and row["macro_f1"] >= TARGET_F1
        print(f"{node:<20}{row['n']:>6}{_f(row['accuracy']):>10}{_f(row['macro_f1']):>10}  {'ok' if ok else 'BELOW'}")
    h = rep["claim_hallucination"]
    print(f"  (diagnostic) hallucinated claims alone: precision {_f(h['precision'])}  recall {_f(h['recall'])}"
          f"  F1 {_f(h['f1'])}  (tp {h['tp']}, fp {h['fp']}, fn {h['fn']})")
    print()
    print(f"{'metric':<8}{'dir':>6}{'n':>5}{'MAE':>8}{'max':>8}{'n/a mismatch':>14}")
    for m, row in rep["metrics"].items():
        print(f"{m:<8}{METRICS.get(m).direction:>6}{row['n']:>5}{_f(row['mae']):>8}{_f(row['max_error']):>8}"
              f"{row['applicability_mismatches']:>14}")
    if args.show_errors:
        print("\ndisagreements (key: gold -> judge):")
        for node, decs in rep["decisions"].items():
            bad = [d for d in decs if d[1] != d[2]]
            if bad:
                print(f"[{node}]")
                for key, g, p in bad:
                    print(f"  {key}: {g if g != NONE else '-'} -> {p if p != NONE else '-'}")
    if args.json:
        out = {k: v for k, v in rep.items() if k != "decisions"}
        out["unscored"] = unscored
        args.json.write_text(json.dumps(out, indent=2))
    below = [n for n in ALL_NODES if (rep["nodes"][n]["macro_f1"] or 0) < TARGET_F1]
    return 1 if below else 0


if __name__ == "__main__":
    sys.exit(main())
