"""``medgym report RUN_DIR [RUN_DIR2]``: Markdown report, heatmaps, failure profiles, comparisons."""

from __future__ import annotations

import argparse


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("report", help="write the report of a run (or compare two runs / two agents)")
    p.add_argument("run_dirs", nargs="+", metavar="RUN_DIR", help="one run, or two runs to compare side by side")
    p.add_argument("--out", help="report directory (default RUN_DIR/report)")
    p.add_argument("--compare-agents", nargs=2, metavar=("A", "B"), help="compare two agents of the first run")
    p.add_argument("--seed", type=int, default=0, help="bootstrap seed")
    p.set_defaults(func=_run)


def _run(args: argparse.Namespace) -> int:
    from medgym.report import write_report

    paths = write_report(args.run_dirs, out=args.out, compare_agents=tuple(args.compare_agents) if args.compare_agents
                         else None, seed=args.seed)  # fmt: skip
    for kind, path in paths.items():
        print(f"{kind}: {path}")
    return 0
