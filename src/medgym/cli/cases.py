"""``medgym cases list|show|validate``: browse and check the case bank."""

from __future__ import annotations

import argparse
import json
import sys

from medgym.errors import DataValidationError


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("cases", help="list, show or validate clinical cases")
    sub = p.add_subparsers(dest="cases_command", metavar="ACTION", required=True)

    ls = sub.add_parser("list", help="list the cases in the bank")
    ls.add_argument("--specialty")
    ls.add_argument("--track", choices=["llm", "multimodal", "agent"])
    ls.add_argument("--difficulty", choices=["L1", "L2", "L3"])
    ls.add_argument(
        "--stats", action="store_true", help="print counts per specialty, level, care stage, track"
    )
    ls.set_defaults(func=_list)

    show = sub.add_parser("show", help="print one case as YAML-like JSON")
    show.add_argument("case_id")
    show.set_defaults(func=_show)

    val = sub.add_parser("validate", help="validate case files or folders (exit 1 if any is invalid)")
    val.add_argument("paths", nargs="+")
    val.set_defaults(func=_validate)


def _list(args: argparse.Namespace) -> int:
    from medgym.knowledge_base.case_bank import default_bank

    bank = default_bank()
    if args.stats:
        print(json.dumps({"cases": len(bank), **bank.stats()}, indent=2))
        return 0
    rows = bank.filter(specialty=args.specialty, track=args.track, difficulty=args.difficulty)
    width = max((len(c.id) for c in rows), default=10)
    for c in rows:
        print(
            f"{c.id:<{width}}  {c.specialty:<26} {c.track.value:<10} {c.difficulty.value}  "
            f"{c.care_stage.value:<21} {c.title}"
        )
    print(f"{len(rows)} case(s)", file=sys.stderr)
    return 0


def _show(args: argparse.Namespace) -> int:
    from medgym.knowledge_base.case_bank import default_bank

    case = default_bank().get(args.case_id)
    print(case.model_dump_json(indent=2))
    return 0


def _validate(args: argparse.Namespace) -> int:
    from medgym.datafiles import iter_data_files
    from medgym.knowledge_base.case_bank import load_case_file

    bad = 0
    seen: dict[str, str] = {}
    try:
        files = iter_data_files(args.paths)
    except DataValidationError as exc:
        print(f"INVALID {exc}", file=sys.stderr)
        return 1
    for f in files:
        try:
            cases = load_case_file(f)
        except DataValidationError as exc:
            bad += 1
            print(f"INVALID {exc}", file=sys.stderr)
            continue
        for c in cases:
            if c.id in seen:
                bad += 1
                print(f"INVALID {f}: case id {c.id!r} already defined in {seen[c.id]}", file=sys.stderr)
            seen[c.id] = str(f)
        print(f"ok      {f} ({', '.join(c.id for c in cases)})")
    print(f"{len(files) - bad} valid, {bad} invalid", file=sys.stderr)
    return 1 if bad else 0
