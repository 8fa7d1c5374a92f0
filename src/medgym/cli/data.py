"""``medgym data``: the DataAgent testbed (fixture database, tasks, evaluation).

    medgym data generate --url sqlite:///ehr.db        # or postgresql+psycopg://..., mysql+pymysql://..., csv:///dir
    medgym data import /path/to/synthea/csv --url sqlite:///mine.db
    medgym data tasks [--family F] [--portable] [--show TASK_ID]
    medgym data eval [--url URL] --agent reference|llm [--out runs/data_agent/episodes.jsonl]
    medgym data report runs/data_agent/episodes.jsonl [--out report.md]
    medgym data checksum --url URL
    medgym data regen-gold [--check]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from medgym.errors import MedgymError


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("data", help="DataAgent testbed: build databases, list tasks, evaluate agents")
    sub = p.add_subparsers(dest="data_command", metavar="ACTION")

    g = sub.add_parser("generate", help="generate the synthetic EHR and load it at a URL")
    g.add_argument("--url", required=True, help="sqlite:///file.db, postgresql+psycopg://..., mysql+pymysql://..., "
                                                "csv:///folder (server URLs need an account that can create tables)")
    g.add_argument("--seed", type=int, default=None, help="generator seed (default: the fixture's)")
    g.add_argument("--patients", type=int, default=None, help="number of patients (default: the fixture's)")
    g.add_argument("--readonly-user", action="store_true",
                   help="servers only: also create the SELECT-only account and print its URL")
    g.set_defaults(func=_generate)

    i = sub.add_parser("import", help="load a CSV folder (canonical or Synthea layout) into a database")
    i.add_argument("source", help="folder with patients.csv, encounters.csv, ... (layout auto-detected)")
    i.add_argument("--url", required=True, help="destination database URL")
    i.add_argument("--layout", choices=["auto", "canonical", "synthea"], default="auto")
    i.set_defaults(func=_import)

    t = sub.add_parser("tasks", help="list the DataAgent tasks")
    t.add_argument("--family")
    t.add_argument("--portable", action="store_true", help="only tasks meaningful on any database")
    t.add_argument("--show", metavar="TASK_ID", help="print one task's rounds with gold SQL")
    t.add_argument("--json", action="store_true")
    t.set_defaults(func=_tasks)

    e = sub.add_parser("eval", help="run an agent on the tasks and print Acc / F1 / success")
    e.add_argument("--url", default=None, help="backend URL (default: the embedded SQLite fixture)")
    e.add_argument("--agent", default="reference", help="reference, llm, or module:factory")
    e.add_argument("--tasks", help="comma-separated task ids (default: all; --portable for other databases)")
    e.add_argument("--family")
    e.add_argument("--portable", action="store_true")
    e.add_argument("--limit", type=int, help="at most this many tasks")
    e.add_argument("--seed", type=int, default=0)
    e.add_argument("--out", default="runs/data_agent/episodes.jsonl", help="JSONL of episodes")
    e.add_argument("--trajectories", help="folder for one trajectory JSON per episode")
    e.add_argument("--interpretation-judge", action="store_true", help="LLM agent-as-judge of the answer text")
    llm = e.add_argument_group("LLM agent / judge endpoint (any OpenAI-compatible server)")
    llm.add_argument("--model")
    llm.add_argument("--base-url")
    llm.add_argument("--api-key", help="prefer the OPENAI_API_KEY environment variable")
    llm.add_argument("--temperature", type=float)
    llm.add_argument("--max-tokens", type=int)
    llm.add_argument("--cache-dir")
    e.set_defaults(func=_eval)

    rp = sub.add_parser("report", help="summarise an episodes JSONL file (no re-run)")
    rp.add_argument("episodes", nargs="?", default="runs/data_agent/episodes.jsonl")
    rp.add_argument("--out", help="write the Markdown report here (default: print it)")
    rp.set_defaults(func=_report)

    c = sub.add_parser("checksum", help="print the canonical checksum of a database")
    c.add_argument("--url", default=None)
    c.set_defaults(func=_checksum)

    r = sub.add_parser("regen-gold", help="recompute the stored gold answers from the gold SQL")
    r.add_argument("--check", action="store_true", help="only report rounds whose stored gold is stale")
    r.add_argument("--url", default=None, help="database to compute on (default: the embedded fixture)")
    r.set_defaults(func=_regen)

    p.set_defaults(func=lambda args: (p.print_help(), 1)[1])


def _generate(args: argparse.Namespace) -> int:
    from medgym.db_fixtures.generator import DEFAULT_PATIENTS, DEFAULT_SEED, generate
    from medgym.db_fixtures.loaders import load_database, provision_readonly_user

    t0 = time.perf_counter()
    data = generate(args.seed if args.seed is not None else DEFAULT_SEED,
                    args.patients if args.patients is not None else DEFAULT_PATIENTS)
    t1 = time.perf_counter()
    spec = load_database(args.url, data)
    t2 = time.perf_counter()
    counts = ", ".join(f"{k} {v}" for k, v in data.counts().items())
    print(f"generated {counts} in {t1 - t0:.2f} s; loaded into {spec.redacted()} in {t2 - t1:.2f} s")
    if args.readonly_user:
        if spec.kind not in ("postgresql", "mysql"):
            raise MedgymError("--readonly-user applies to PostgreSQL and MySQL/MariaDB URLs")
        ro = provision_readonly_user(args.url)
        print(f"read-only URL: {ro}")
    return 0


def _import(args: argparse.Namespace) -> int:
    from medgym.db_fixtures.loaders import detect_layout, load_into_engine, read_csv_folder
    from medgym.db_fixtures.synthea import read_synthea_folder
    from medgym.db_fixtures.urls import parse_backend_url, sqlalchemy_url

    src = Path(args.source).expanduser()
    if not src.is_dir():
        raise MedgymError(f"{src} is not a folder")
    layout = detect_layout(src) if args.layout == "auto" else args.layout
    tables = read_synthea_folder(src) if layout == "synthea" else read_csv_folder(src)
    spec = parse_backend_url(args.url)
    if spec.kind == "csv" or spec.embedded:
        raise MedgymError("import into sqlite:///, postgresql or mysql URLs (a CSV folder is already usable as csv://)")
    if spec.kind == "sqlite":
        from medgym.db_fixtures.loaders import build_sqlite

        build_sqlite(spec.path, tables)  # type: ignore[arg-type]
    else:
        from sqlalchemy import create_engine

        engine = create_engine(sqlalchemy_url(spec))
        try:
            load_into_engine(engine, tables)
        finally:
            engine.dispose()
    print(f"imported {layout} CSV from {src} into {spec.redacted()}: "
          + ", ".join(f"{k} {len(v)}" for k, v in tables.items() if not k.startswith("medgym_")))
    return 0


def _select_tasks(args: argparse.Namespace) -> list[str]:
    from medgym.db_fixtures.task_models import default_tasks

    ts = default_tasks()
    ids = [x.strip() for x in args.tasks.split(",")] if getattr(args, "tasks", None) else ts.ids()
    out = []
    for tid in ids:
        task = ts.get(tid)
        if args.family and task.family != args.family:
            continue
        if args.portable and not task.portable:
            continue
        out.append(task.id)
    if getattr(args, "limit", None):
        out = out[: args.limit]
    if not out:
        raise MedgymError("no task matches the selection")
    return out


def _tasks(args: argparse.Namespace) -> int:
    from medgym.db_fixtures.task_models import default_tasks

    ts = default_tasks()
    if args.show:
        task = ts.get(args.show)
        if args.json:
            print(task.model_dump_json(indent=2))
            return 0
        print(f"{task.id}: {task.title} [{task.family}]{' (portable)' if task.portable else ''}")
        for i, r in enumerate(task.rounds, start=1):
            print(f"\n  Round {i} ({', '.join(r.kinds)}): {r.utterance}")
            if r.unanswerable:
                print(f"    unanswerable: {r.unanswerable_reason}")
            else:
                print("    gold SQL: " + (r.gold_sql or "").replace("\n", "\n              "))
                if r.gold is not None:
                    print(f"    gold: {len(r.gold.rows)} row(s) {r.gold.columns} {r.gold.rows[:5]}")
        return 0
    args.tasks = None
    args.limit = None
    ids = _select_tasks(args)
    rows = [ts.get(t) for t in ids]
    if args.json:
        print(json.dumps([{"id": t.id, "family": t.family, "rounds": t.n_rounds, "portable": t.portable,
                           "title": t.title} for t in rows], indent=2))
        return 0
    fams: dict[str, int] = {}
    for t in rows:
        fams[t.family] = fams.get(t.family, 0) + 1
        print(f"{t.id:40s} {t.family:22s} {t.n_rounds} rounds{'  portable' if t.portable else ''}")
    n_rounds = sum(t.n_rounds for t in rows)
    unans = sum(1 for t in rows for r in t.rounds if r.unanswerable)
    print(f"\n{len(rows)} tasks, {n_rounds} rounds ({unans} unanswerable) in {len(fams)} families")
    return 0


def _agent_factory(args: argparse.Namespace):
    name = args.agent
    if name in ("reference", "sql-reference", "sql_reference"):
        from medgym.agents.sql_reference import SQLReferenceAgent

        return SQLReferenceAgent
    llm_kw = {k: getattr(args, k) for k in ("model", "base_url", "api_key", "temperature", "max_tokens", "cache_dir")
              if getattr(args, k, None) is not None}
    if name in ("llm", "sql-llm", "sql_llm"):
        from medgym.agents.sql_llm import SQLLLMAgent

        return lambda: SQLLLMAgent(**llm_kw)
    if ":" in name:
        from medgym.agents.registry import resolve_factory

        factory = resolve_factory(name)
        return lambda: factory()
    from medgym.errors import UnknownNameError
    from medgym.registry import did_you_mean

    known = ["reference", "llm"]
    raise UnknownNameError("DataAgent agent", name, known, did_you_mean(name, known))


def _fmt(v: Any) -> str:
    return "n/a" if v is None else f"{v:.3f}"


def _eval(args: argparse.Namespace) -> int:
    from medgym.envs.data_agent.evaluate import evaluate

    ids = _select_tasks(args)
    factory = _agent_factory(args)
    judge_kwargs: dict[str, Any] = {}
    if args.interpretation_judge:
        judge_kwargs["interpretation_judge"] = True
        judge_kwargs["llm_config"] = {k: getattr(args, k) for k in ("model", "base_url", "api_key", "cache_dir")
                                      if getattr(args, k, None) is not None}

    def progress(rec: dict[str, Any]) -> None:
        if rec["status"] == "ok":
            print(f"  {rec['task_id']:40s} acc {_fmt(rec['accuracy'])}  f1 {_fmt(rec['f1'])}  "
                  f"{'success' if rec['success'] else ''}", file=sys.stderr)
        else:
            print(f"  {rec['task_id']:40s} ERROR {rec['error'][:120]}", file=sys.stderr)

    s = evaluate(factory, url=args.url, task_ids=ids, seed=args.seed, out=args.out,
                 trajectory_dir=args.trajectories, judge_kwargs=judge_kwargs, progress=progress)
    print(f"DataAgent on {s['url']}: {s['episodes']} episodes, {s['rounds']} scored rounds "
          f"({s['unscored_rounds']} unscored, {s['errors']} errored episodes)")
    print(f"  Acc {_fmt(s['accuracy'])}  F1 {_fmt(s['f1'])}  task success {_fmt(s['success_rate'])}  "
          f"(task-mean Acc {_fmt(s['task_accuracy'])}, F1 {_fmt(s['task_f1'])})")
    print("  per kind: " + ", ".join(f"{k} {_fmt(v)}" for k, v in s["per_kind_accuracy"].items()))
    print(f"  episodes written to {args.out} ({s['elapsed_s']:.1f} s); `medgym data report {args.out}` summarises it")
    return 0 if s["errors"] == 0 else 1


def _report(args: argparse.Namespace) -> int:
    from medgym.envs.data_agent.evaluate import load_records, render_report

    path = Path(args.episodes)
    if not path.exists():
        raise MedgymError(f"{path} does not exist: run `medgym data eval --out {path}` first")
    text = render_report(load_records(path), title=f"DataAgent report: {path.name}")
    if args.out:
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        Path(args.out).write_text(text, encoding="utf-8")
        print(f"report written to {args.out}")
    else:
        print(text, end="")
    return 0


def _checksum(args: argparse.Namespace) -> int:
    from medgym.db_fixtures.sandbox import database_checksum

    print(database_checksum(args.url))
    return 0


def _regen(args: argparse.Namespace) -> int:
    from medgym.db_fixtures.gold import regenerate_gold

    rep = regenerate_gold(url=args.url, check_only=args.check)
    verb = "stale" if args.check else "updated"
    print(f"{rep['files']} files, {rep['rounds']} rounds; {len(rep['changed'])} {verb}")
    for c in rep["changed"][:50]:
        print(f"  {c}")
    return 1 if (args.check and rep["changed"]) else 0
