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
from medgym.judges.metrics import ALL_NODES
from medgym.judges.validation import agreement, agreement_lines, load_validation_set

DEFAULT_DIR = Path(__file__).resolve().parents[1] / "tests" / "judges" / "validation"
TARGET_F1 = 0.85



def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dir", type=Path, default=DEFAULT_DIR, help="folder of validation JSON files")
    ap.add_argument("--judge", default="reference", help="judge name (reference or llm)")
    ap.add_argument("--show-errors", action="store_true", help="list every disagreement")
    ap.add_argument("--per-class", action="store_true", help="print each node's per-class F1 (tp/fp/fn)")
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
    print("\n".join(agreement_lines(rep, target=TARGET_F1, show_errors=args.show_errors, per_class=args.per_class)))
    if args.json:
        out = {k: v for k, v in rep.items() if k != "decisions"}
        out["unscored"] = unscored
        args.json.write_text(json.dumps(out, indent=2))
    below = [n for n in ALL_NODES if (rep["nodes"][n]["macro_f1"] or 0) < TARGET_F1]
    return 1 if below else 0


if __name__ == "__main__":
    sys.exit(main())
