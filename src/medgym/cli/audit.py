"""``medgym audit``: judge trajectories and print annotations, metrics and aggregate tables.

    medgym audit run/ep_0001.json                  # one trajectory: annotations + metrics as JSON
    medgym audit run/episodes.jsonl                # many: aggregate table per (agent, condition)
    medgym audit run/episodes.jsonl --json         # the same as JSON (rows + per-item status)
    medgym audit run/episodes.jsonl --workers auto # reference judge over one process per core
    medgym audit ep.json --judge llm --model qwen2.5 --base-url http://127.0.0.1:8000/v1

A JSONL line may be a trajectory document or an object holding one under
``"trajectory"`` (as batch-runner logs do). A line that cannot be read or judged is
reported as an ``error`` item and counted in ``n_unscored``; it never becomes a 0.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from medgym.errors import MedgymError, TrajectoryFormatError


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("audit", help="judge trajectories (five-node audit + hallucination metrics)")
    p.add_argument("path", help="a trajectory .json file, or a .jsonl file of trajectories")
    p.add_argument("--judge", default="reference", choices=["reference", "llm"], help="judge backend")
    p.add_argument("--json", action="store_true", help="JSONL input: print aggregate rows as JSON")
    p.add_argument("--metrics-only", action="store_true", help="single file: omit the annotations")
    p.add_argument("--by", default="agent,condition", help="aggregation keys (default: agent,condition)")
    p.add_argument("--seed", type=int, default=0, help="bootstrap seed")
    p.add_argument("--n-boot", type=int, default=1000, help="bootstrap resamples")
    p.add_argument("--results-out", type=Path, default=None, help="JSONL input: write per-item results here")
    p.add_argument("--workers", default="1", type=_workers,
                   help="JSONL input, reference judge: worker processes ('auto': one per core; default 1)")
    p.add_argument("--model", default=None, help="LLM judge: model name (else MEDGYM_LLM_MODEL/OPENAI_MODEL)")
    p.add_argument("--base-url", default=None, help="LLM judge: OpenAI-compatible base URL")
    p.set_defaults(func=run)


def _workers(value: str) -> int | str:
    if value == "auto":
        return value
    try:
        n = int(value)
    except ValueError:
        n = 0
    if n < 1:
        raise argparse.ArgumentTypeError(f"expected a positive integer or 'auto', got {value!r}")
    return n


def _judge(args: argparse.Namespace):
    from medgym.judges import get_judge

    if args.judge == "llm":
        return get_judge("llm", model=args.model, base_url=args.base_url)
    return get_judge("reference")


def _read_jsonl(path: Path) -> list[tuple[int, Any]]:
    items: list[tuple[int, Any]] = []
    with path.open(encoding="utf-8") as fh:
        for n, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                obj = json.loads(line)
            except json.JSONDecodeError as exc:
                items.append((n, TrajectoryFormatError(f"{path}:{n}: not valid JSON: {exc}")))
                continue
            if isinstance(obj, dict) and "trajectory" in obj and obj.get("format") != "medgym.trajectory":
                obj = obj["trajectory"]
            items.append((n, obj))
    return items


def run(args: argparse.Namespace) -> int:
    path = Path(args.path)
    if not path.exists():
        raise MedgymError(f"no such file: {path}")
    judge = _judge(args)
    if path.suffix.lower() == ".jsonl":
        return _run_many(args, path, judge)
    result = judge.judge(path)
    exclude = {"annotations"} if args.metrics_only else set()
    print(json.dumps(result.model_dump(mode="json", exclude=exclude), indent=2, ensure_ascii=False))
    return 0 if result.status == "ok" else 1


def _run_many(args: argparse.Namespace, path: Path, judge) -> int:
    from medgym.judges.aggregate import aggregate, format_table
    from medgym.judges.results import JudgeResult

    results: list[JudgeResult] = []
    failures: list[dict[str, Any]] = []
    lines = _read_jsonl(path)
    readable = [obj for _n, obj in lines if not isinstance(obj, Exception)]
    judged = iter(judge.judge_many(readable, workers=args.workers))
    for line_no, obj in lines:
        if isinstance(obj, Exception):
            res = JudgeResult(status="error", reason=str(obj), judge=judge.name, judge_version=judge.version)
        else:
            res = next(judged)
        if res.status != "ok":
            failures.append({"line": line_no, "status": res.status, "reason": res.reason})
        results.append(res)
    if args.results_out:
        with args.results_out.open("w", encoding="utf-8") as fh:
            for r in results:
                fh.write(r.model_dump_json() + "\n")
    by = tuple(k.strip() for k in args.by.split(",") if k.strip())
    rows = aggregate(results, by=by, seed=args.seed, n_boot=args.n_boot)
    if args.json:
        print(json.dumps({"n": len(results), "not_scored": failures,
                          "rows": [r.model_dump(mode="json") for r in rows]}, indent=2))
    else:
        print(f"{len(results)} trajectories, {len(failures)} not scored (judge={judge.name})")
        for f in failures:
            print(f"  line {f['line']}: {f['status']}: {f['reason']}", file=sys.stderr)
        print(format_table(rows))
    return 0
