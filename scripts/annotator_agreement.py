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

from medgym.judges.validation import (
    agreement,
    agreement_lines,
    labels_as_result,
    load_validation_set,
    same_replies_key,
)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--a", type=Path, required=True, help="first annotator's folder (the reference labels)")
    ap.add_argument("--b", type=Path, required=True, help="second annotator's folder (same replies)")
    ap.add_argument("--show-errors", action="store_true", help="list every disagreement")
    ap.add_argument("--per-class", action="store_true", help="print each node's per-class F1 (tp/fp/fn)")
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
    print("\n".join(agreement_lines(rep, show_errors=args.show_errors, per_class=args.per_class, sides="annotator a -> annotator b")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
