"""Run agents on DataAgent tasks and aggregate Acc / F1 / task success.

``evaluate`` plays one episode per task through ``gymnasium.make`` (so the
registered TimeLimit applies) wrapped in :class:`DataAgentJudge`, appends one JSON
line per episode to ``out`` and returns the summary:

* ``accuracy`` / ``f1``: means over all scored rounds (micro); ``task_accuracy``
  / ``task_f1``: means of per-episode means (macro);
* ``success_rate``: share of tasks whose every round is correct;
* ``per_kind_accuracy``: accuracy by round kind (trend, anomaly, join...);
* ``unscored_rounds`` (judge could not score: excluded) and ``errors`` (the
  episode crashed on infrastructure, e.g. the LLM endpoint: excluded, counted).
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import gymnasium as gym

from medgym.errors import MedgymError

ENV_ID = "medgym/DataAgent-v0"


def make_judged_env(url: str | None = None, task_ids: list[str] | None = None, **judge_kwargs: Any) -> gym.Env:
    import medgym  # noqa: F401 - registers the environment ids
    from medgym.judges.data_agent_wrapper import DataAgentJudge

    kwargs: dict[str, Any] = {"url": url}
    if task_ids:
        kwargs["task_ids"] = task_ids
    return DataAgentJudge(gym.make(ENV_ID, **kwargs), **judge_kwargs)


def run_episode(env: gym.Env, agent: Any, task_id: str, seed: int | None = None,
                trajectory_dir: Path | None = None) -> dict[str, Any]:
    """One episode; returns the JSONL record. Infrastructure errors give status 'error'."""
    from medgym.llm import LLMError

    t0 = time.perf_counter()
    reset = getattr(agent, "reset", None)
    if callable(reset):
        reset()
    base = env.unwrapped
    record: dict[str, Any] = {"task_id": task_id, "status": "ok"}
    try:
        obs, info = env.reset(seed=seed, options={"task_id": task_id})
        record.update(family=info["family"], backend=info["backend"], dialect=info["dialect"],
                      gold_source=info["gold_source"], n_rounds=info["n_rounds"])
        done, steps = False, 0
        while not done:
            obs, _r, terminated, truncated, info = env.step(agent.act(obs, info))
            steps += 1
            done = terminated or truncated
        score = info["episode_score"]
        record.update(
            steps=steps, truncated=bool(truncated and not terminated), accuracy=score["accuracy"], f1=score["f1"],
            success=score["success"], scored_rounds=score["scored_rounds"], unscored_rounds=score["unscored_rounds"],
            interpretation=score.get("interpretation"),
            rounds=[{k: r.score.get(k) for k in ("round", "status", "correct", "execution_accuracy", "f1", "kinds")}
                    for r in base.trajectory().rounds if r.score is not None],
        )
    except (LLMError, MedgymError) as exc:
        record.update(status="error", error=f"{type(exc).__name__}: {exc}"[:1000])
    record["elapsed_s"] = round(time.perf_counter() - t0, 4)
    name = getattr(agent, "name", type(agent).__name__)
    record["agent"] = name
    usage = getattr(agent, "token_usage", None)
    if callable(usage):
        record["usage"] = usage()
    if trajectory_dir is not None and base._task is not None and record["status"] == "ok":
        trajectory_dir.mkdir(parents=True, exist_ok=True)
        base.agent_name = str(name)
        base.save_trajectory(str(trajectory_dir / f"{task_id}.json"))
    return record


def summarize(records: list[dict[str, Any]]) -> dict[str, Any]:
    ok = [r for r in records if r["status"] == "ok"]
    rounds = [x for r in ok for x in r.get("rounds", []) if x.get("status") == "scored"]
    per_kind: dict[str, list[float]] = {}
    for x in rounds:
        for k in x.get("kinds") or []:
            per_kind.setdefault(k, []).append(float(x["execution_accuracy"]))

    def mean(vals: list[float]) -> float | None:
        vals = [v for v in vals if v is not None and not (isinstance(v, float) and math.isnan(v))]
        return sum(vals) / len(vals) if vals else None

    succ = [r["success"] for r in ok if r.get("success") is not None]
    return {
        "episodes": len(records),
        "errors": len(records) - len(ok),
        "rounds": len(rounds),
        "unscored_rounds": sum(r.get("unscored_rounds", 0) for r in ok),
        "accuracy": mean([float(x["execution_accuracy"]) for x in rounds]),
        "f1": mean([float(x["f1"]) for x in rounds]),
        "task_accuracy": mean([r["accuracy"] for r in ok]),
        "task_f1": mean([r["f1"] for r in ok]),
        "success_rate": (sum(1 for s in succ if s) / len(succ)) if succ else None,
        "truncated": sum(1 for r in ok if r.get("truncated")),
        "per_kind_accuracy": {k: mean(v) for k, v in sorted(per_kind.items())},
    }


def render_report(records: list[dict[str, Any]], title: str = "DataAgent report") -> str:
    """A Markdown report computed from episode records alone (e.g. a JSONL file)."""

    def f(v: Any) -> str:
        return "n/a" if v is None else f"{v:.3f}"

    s = summarize(records)
    lines = [f"# {title}", "",
             f"{s['episodes']} episodes ({s['errors']} errored), {s['rounds']} scored rounds "
             f"({s['unscored_rounds']} unscored), {s['truncated']} truncated.", "",
             "| metric | value |", "|---|---|",
             f"| Acc (rounds) | {f(s['accuracy'])} |", f"| F1 (rounds) | {f(s['f1'])} |",
             f"| Acc (task mean) | {f(s['task_accuracy'])} |", f"| F1 (task mean) | {f(s['task_f1'])} |",
             f"| task success | {f(s['success_rate'])} |", "", "## By round kind", "",
             "| kind | accuracy |", "|---|---|"]
    lines += [f"| {k} | {f(v)} |" for k, v in s["per_kind_accuracy"].items()]
    fams: dict[str, list[dict[str, Any]]] = {}
    for r in records:
        if r["status"] == "ok":
            fams.setdefault(r.get("family", "?"), []).append(r)
    lines += ["", "## By family", "", "| family | tasks | Acc | F1 | success |", "|---|---|---|---|---|"]
    for fam, rs in sorted(fams.items()):
        sub = summarize(rs)
        lines.append(f"| {fam} | {len(rs)} | {f(sub['accuracy'])} | {f(sub['f1'])} | {f(sub['success_rate'])} |")
    failed = [(r["task_id"], x["round"]) for r in records if r["status"] == "ok" for x in r.get("rounds", [])
              if x.get("status") == "scored" and not x.get("correct")]
    errors = [(r["task_id"], r.get("error", "")) for r in records if r["status"] != "ok"]
    if failed:
        lines += ["", "## Incorrect rounds", ""] + [f"- {t} round {i}" for t, i in failed[:200]]
    if errors:
        lines += ["", "## Errored episodes", ""] + [f"- {t}: {e[:200]}" for t, e in errors]
    return "\n".join(lines) + "\n"


def load_records(path: str | Path) -> list[dict[str, Any]]:
    """Episode records from a JSONL file written by :func:`evaluate`."""
    out = []
    for i, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            rec = json.loads(line)
        except json.JSONDecodeError as exc:
            raise MedgymError(f"{path}:{i}: not a JSON line ({exc.msg})") from exc
        if not isinstance(rec, dict) or "task_id" not in rec or "status" not in rec:
            raise MedgymError(f"{path}:{i}: expected an episode record with task_id and status")
        out.append(rec)
    return out


def _manifest(agent_factory: Callable[[], Any], url: str | None, ids: list[str], seed: int,
              judge_kwargs: dict[str, Any]) -> dict[str, Any]:
    import datetime as dt
    import subprocess

    import medgym
    from medgym.db_fixtures.generator import GENERATOR_VERSION

    try:
        rev = subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True, timeout=5,
                             cwd=Path(__file__).resolve().parent).stdout.strip() or None
    except (OSError, subprocess.SubprocessError):
        rev = None
    return {
        "env_id": ENV_ID,
        "agent": getattr(agent_factory, "__name__", repr(agent_factory)),
        "url": url or "embedded",
        "task_ids": ids,
        "seed": seed,
        "judge": {k: v for k, v in judge_kwargs.items() if k != "client"},
        "medgym_version": medgym.__version__,
        "generator_version": GENERATOR_VERSION,
        "gymnasium_version": gym.__version__,
        "git_revision": rev,
        "started_at": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
    }


def evaluate(
    agent_factory: Callable[[], Any],
    *,
    url: str | None = None,
    task_ids: list[str] | None = None,
    seed: int = 0,
    out: str | Path | None = None,
    trajectory_dir: str | Path | None = None,
    judge_kwargs: dict[str, Any] | None = None,
    progress: Callable[[dict[str, Any]], None] | None = None,
) -> dict[str, Any]:
    """Evaluate a fresh agent per task on ``url`` (default: the embedded fixture)."""
    env = make_judged_env(url, task_ids, **(judge_kwargs or {}))
    ids = list(task_ids or env.unwrapped.task_ids)
    out_path = Path(out) if out else None
    if out_path is not None:
        from medgym.db_fixtures.urls import parse_backend_url

        out_path.parent.mkdir(parents=True, exist_ok=True)
        out_path.write_text("", encoding="utf-8")
        manifest = _manifest(agent_factory, parse_backend_url(url).redacted(), ids, seed, judge_kwargs or {})
        out_path.with_suffix(".manifest.json").write_text(json.dumps(manifest, indent=2, default=str) + "\n")
    traj = Path(trajectory_dir) if trajectory_dir else None
    records = []
    t0 = time.perf_counter()
    try:
        for i, tid in enumerate(ids):
            rec = run_episode(env, agent_factory(), tid, seed=seed + i, trajectory_dir=traj)
            records.append(rec)
            if out_path is not None:
                with out_path.open("a", encoding="utf-8") as fh:
                    fh.write(json.dumps(_clean(rec), default=str) + "\n")
            if progress is not None:
                progress(rec)
    finally:
        env.close()
    summary = summarize(records)
    summary["elapsed_s"] = round(time.perf_counter() - t0, 3)
    summary["url"] = env.unwrapped.sandbox.spec.redacted() if env.unwrapped._sandbox is not None else url
    return summary


def _clean(v: Any) -> Any:
    """NaN -> None recursively, so every line is strict JSON."""
    if isinstance(v, float) and math.isnan(v):
        return None
    if isinstance(v, dict):
        return {k: _clean(x) for k, x in v.items()}
    if isinstance(v, list | tuple):
        return [_clean(x) for x in v]
    return v
