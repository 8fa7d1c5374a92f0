"""``medgym run``: the stress audit grid (the project's main job) and its report.

With no arguments it runs the embedded defaults: the whole case bank x the 8
conditions x the ``careful`` and ``sloppy`` reference agents, judged by the offline
reference judge, into ``runs/main``, then writes the report. No API key, server or
download is needed. Rerunning the same command resumes.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from medgym.envs.conditions import CONDITION_NAMES

LLM_OPTIONS = ("model", "base_url", "api_key", "temperature", "max_tokens", "cache_dir")


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("run", help="run the stress-audit grid (default: the offline main job) and report")
    p.add_argument("--config", help="YAML/JSON RunConfig file (command-line flags override it)")
    p.add_argument("--out", help="run directory (default runs/main)")
    p.add_argument("--agents", nargs="+", help="agent names or module:factory specs (default: careful sloppy)")
    p.add_argument("--cases", help="comma-separated case ids (default: the whole bank)")
    p.add_argument("--specialty")
    p.add_argument("--track", choices=["llm", "multimodal", "agent"])
    p.add_argument("--difficulty", choices=["L1", "L2", "L3"])
    p.add_argument("--conditions", nargs="+", help=f"subset of {' '.join(CONDITION_NAMES)}")
    p.add_argument("--seeds", nargs="+", type=int)
    p.add_argument("--repeats", type=int, help="k repeats per scenario (pass^k)")
    p.add_argument("--mode", choices=["scripted", "interactive"])
    p.add_argument("--judge", choices=["reference", "llm"])
    p.add_argument("--concurrency", type=int, help="episodes in flight (default 8)")
    p.add_argument("--workers", type=_workers_arg,
                   help="worker processes sharing the in-flight episodes: N or 'auto' (one per core; default 1). "
                        "Several help the CPU-bound reference judge use every core")
    p.add_argument("--max-episode-steps", type=int)
    g = p.add_argument_group("LLM agent / LLM judge endpoint (any OpenAI-compatible server)")
    g.add_argument("--model")
    g.add_argument("--base-url")
    g.add_argument("--api-key", help="prefer the OPENAI_API_KEY environment variable")
    g.add_argument("--temperature", type=float)
    g.add_argument("--max-tokens", type=int)
    g.add_argument("--llm-concurrency", type=int, help="requests in flight per endpoint")
    g.add_argument("--rpm", type=float, help="requests-per-minute limit per endpoint")
    g.add_argument("--cache-dir", help="disk cache of LLM responses (identical reruns cost nothing)")
    p.add_argument("--no-retry-unscored", action="store_true", help="do not rerun episodes whose judging failed")
    p.add_argument("--force", action="store_true", help="overwrite a manifest that describes another grid")
    p.add_argument("--no-report", action="store_true")
    p.add_argument("--no-progress", action="store_true")
    p.set_defaults(func=_run)


def _workers_arg(text: str) -> int | str:
    if text == "auto":
        return text
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of processes or 'auto', got {text!r}") from None


def build_config(args: argparse.Namespace):
    from medgym.datafiles import read_data_file
    from medgym.runner.config import AgentSpec, RunConfig

    base = read_data_file(Path(args.config)) if args.config else {}
    cfg = RunConfig.model_validate(base or {})
    upd: dict = {}
    for name in ("out", "seeds", "repeats", "mode", "judge", "concurrency", "workers", "max_episode_steps", "conditions"):
        v = getattr(args, name, None)
        if v is not None:
            upd[name] = v
    if args.no_retry_unscored:
        upd["retry_unscored"] = False
    cases = cfg.cases.model_copy(update={k: v for k, v in {
        "ids": args.cases.split(",") if args.cases else None,
        "specialty": args.specialty, "track": args.track, "difficulty": args.difficulty}.items() if v is not None})
    upd["cases"] = cases
    llm_kw = {k: getattr(args, k) for k in LLM_OPTIONS if getattr(args, k, None) is not None}
    if args.llm_concurrency is not None:
        llm_kw["max_concurrency"] = args.llm_concurrency
    if args.rpm is not None:
        llm_kw["requests_per_minute"] = args.rpm
    agents = [AgentSpec(spec=a) for a in args.agents] if args.agents else list(cfg.agents)
    if llm_kw:
        agents = [a.model_copy(update={"kwargs": {**a.kwargs, **llm_kw}}) if a.spec == "llm" else a for a in agents]
        if (args.judge or cfg.judge) == "llm":
            upd["judge_kwargs"] = {**cfg.judge_kwargs, **llm_kw}
    upd["agents"] = agents
    return RunConfig.model_validate({**cfg.model_dump(), **{k: (v.model_dump() if hasattr(v, "model_dump") else
                                     [a.model_dump() if hasattr(a, "model_dump") else a for a in v]
                                     if isinstance(v, list) else v) for k, v in upd.items()}})


def _run(args: argparse.Namespace) -> int:
    from medgym.runner.batch import run_batch

    cfg = build_config(args)
    t0 = time.perf_counter()
    print(f"medgym run -> {cfg.out}  (agents: {', '.join(a.name for a in cfg.agents)}; judge: {cfg.judge}; "
          f"mode: {cfg.mode}; concurrency: {cfg.concurrency}; workers: {cfg.workers})", file=sys.stderr)
    try:
        summary = run_batch(cfg, progress=not args.no_progress, force=args.force)
    except KeyboardInterrupt:
        print(f"\ninterrupted: results so far are kept in {cfg.out}/results.jsonl; rerun the same command to resume",
              file=sys.stderr)
        return 130
    print(f"{summary.total} episodes in the grid: {summary.skipped} already finished, {summary.ran} run now "
          f"({dict(summary.status)}) in {summary.wall_s:.1f} s ({summary.rate:.1f} episodes/s)", file=sys.stderr)
    if summary.lost:
        print(f"warning: {summary.lost} episodes were lost with a worker process that died; "
              "rerun the same command to run them", file=sys.stderr)
    if not args.no_report:
        from medgym.report import write_report

        paths = write_report([cfg.out])
        from medgym.report.summary import print_summary

        print_summary(cfg.out)
        print(f"\nreport: {paths['markdown']}")
        if paths.get("html"):
            print(f"        {paths['html']}")
    print(f"total wall time {time.perf_counter() - t0:.1f} s", file=sys.stderr)
    return 0
