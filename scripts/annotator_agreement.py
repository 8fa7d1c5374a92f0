"""Agreement between two annotators who labelled the same agent replies.

    python scripts/annotator_agreement.py --a tests/judges/heldout6 --b tests/judges/relabel6
    python scripts/annotator_agreement.py --a ... --b ... --show-errors

The second annotator's labels are turned into a judge-shaped result
(:func:`medgym.judges.validation.labels_as_result`) and compared with the first's by
the same :func:`~medgym.judges.validation.agreement` the judges are measured with:
per node accuracy and macro-F1, per metric absolute error. This is the human
ceiling: a judge cannot be expected to agree with one annotator better than a second
careful annotator does. Trajectories are paired by case, condition and replies, not
by id, so the second annotator can work from anonymised ids.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from medgym.judges.metrics import ALL_NODES, METRICS
from medgym.judges.validation import (
    NONE,
    agreement,
    labels_as_result,
    load_validation_set,
    same_replies_key,
)


def _f(v: float | None) -> str:
    return "n/a" if v is None else f"{v:.3f}"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--a", type=Path, required=True, help="first annotator's folder (the reference labels)")
    ap.add_argument("--b", type=Path, required=True, help="second annotator's folder (same replies)")
    ap.add_argument("--show-errors", action="store_true", help="list every disagreement")
    args = ap.parse_args(argv)

    a_items = {same_replies_key(i): i for i in load_validation_set(args.a)}
    b_items = {same_replies_key(i): i for i in load_validation_set(args.b)}
    common = [k for k in a_items if k in b_items]
    if not common:
        print(f"no trajectory of {args.a} has the same case, condition and replies in {args.b}", file=sys.stderr)
        return 2
    unpaired = (len(a_items) - len(common), len(b_items) - len(common))
    items = [a_items[k] for k in common]
    rep = agreement(items, [labels_as_result(b_items[k], "annotator-b") for k in common])

    print(f"paired trajectories={len(common)}  unpaired (a, b)={unpaired}")
    print(f"{'node':<20}{'n':>6}{'accuracy':>10}{'macro-F1':>10}")
    for node in ALL_NODES:
        row = rep["nodes"][node]
        print(f"{node:<20}{row['n']:>6}{_f(row['accuracy']):>10}{_f(row['macro_f1']):>10}")
    h = rep["claim_hallucination"]
    print(f"  (diagnostic) hallucinated claims alone: precision {_f(h['precision'])}  recall {_f(h['recall'])}"
          f"  F1 {_f(h['f1'])}")
    print(f"\n{'metric':<8}{'dir':>6}{'n':>5}{'MAE':>8}{'max':>8}{'n/a mismatch':>14}")
    for m, row in rep["metrics"].items():
        print(f"{m:<8}{METRICS.get(m).direction:>6}{row['n']:>5}{_f(row['mae']):>8}{_f(row['max_error']):>8}"
              f"{row['applicability_mismatches']:>14}")
    if args.show_errors:
        print("\ndisagreements (key: annotator a -> annotator b):")
        for node, decs in rep["decisions"].items():
            bad = [d for d in decs if d[1] != d[2]]
            if bad:
                print(f"[{node}]")
                for key, g, p in bad:
                    print(f"  {key}: {g if g != NONE else '-'} -> {p if p != NONE else '-'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
