"""Gold answers: computed by running the gold SQL, stored in the task files.

Gold answers are never typed by hand. ``regenerate_gold`` runs every round's gold
SQL on the SQLite build of the default fixture (through the same read-only
sandbox the agent uses) and writes the canonical result into the YAML files
(``medgym data regen-gold``). A test runs the gold SQL again on every backend and
compares with the stored answer, which both catches drift (generator or task
edits) and shows that SQLite, PostgreSQL, MariaDB and CSV hold the same data.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from medgym.datafiles import iter_data_files, read_data_file
from medgym.db_fixtures.sandbox import SqlSandbox, SqlToolError, open_sandbox
from medgym.db_fixtures.task_models import TASK_DIR, GoldAnswer, TaskRound, load_task_file
from medgym.db_fixtures.values import Cell
from medgym.errors import DataValidationError

GOLD_ROW_LIMIT = 400
GOLD_TIMEOUT_S = 30.0


def stable_cell(v: Cell) -> Cell:
    """Round floats to 10 significant digits so stored gold is stable across drivers."""
    if isinstance(v, float):
        return float(f"{v:.10g}")
    return v


def compute_gold(rnd: TaskRound, sandbox: SqlSandbox) -> GoldAnswer | None:
    """Run a round's gold SQL for the sandbox's dialect; None for unanswerable rounds."""
    sql = rnd.sql_for(sandbox.dialect)
    if sql is None:
        return None
    res = sandbox.query(sql)
    if res.truncated or len(res.rows) > GOLD_ROW_LIMIT:
        raise DataValidationError(
            "<gold>", [f"gold SQL returns more than {GOLD_ROW_LIMIT} rows; narrow the question: {sql[:120]}"]
        )
    return GoldAnswer(columns=list(res.columns), rows=[[stable_cell(c) for c in row] for row in res.rows])


class _Dumper(yaml.SafeDumper):
    pass


def _str_representer(dumper: yaml.SafeDumper, data: str) -> Any:
    style = "|" if "\n" in data else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", data, style=style)


_Dumper.add_representer(str, _str_representer)


def _flow_rows(dumper: yaml.SafeDumper, data: list) -> Any:
    return dumper.represent_sequence("tag:yaml.org,2002:seq", data, flow_style=True)


class _Row(list):
    """A gold row, dumped on one line."""


_Dumper.add_representer(_Row, _flow_rows)


def dump_task_yaml(doc: dict[str, Any]) -> str:
    """Deterministic YAML for a task file (gold rows one per line, SQL as literal blocks)."""
    doc = _flow_gold(doc)
    return yaml.dump(doc, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=120)


def _flow_gold(doc: Any) -> Any:
    if isinstance(doc, dict):
        out = {}
        for k, v in doc.items():
            if k == "gold" and isinstance(v, dict):
                out[k] = {"columns": _Row(v["columns"]), "rows": [_Row(r) for r in v["rows"]]}
            else:
                out[k] = _flow_gold(v)
        return out
    if isinstance(doc, list):
        return [_flow_gold(x) for x in doc]
    return doc


def regenerate_gold(
    task_dir: Path | None = None, url: str | None = None, check_only: bool = False
) -> dict[str, Any]:
    """Recompute every stored gold answer on ``url`` (default: the embedded fixture).

    With ``check_only`` nothing is written; the report lists the rounds whose stored
    gold differs from a fresh run. Returns {"files": n, "rounds": n, "changed": [...]}.
    """
    files = iter_data_files([task_dir or TASK_DIR])
    changed: list[str] = []
    n_rounds = 0
    with open_sandbox(url, timeout_s=GOLD_TIMEOUT_S, max_rows=GOLD_ROW_LIMIT + 1) as sb:
        for f in files:
            load_task_file(f)  # validate before touching anything
            raw = read_data_file(f)
            for t in raw["tasks"]:
                for i, r in enumerate(t["rounds"]):
                    rnd = TaskRound.model_validate(r)
                    n_rounds += 1
                    try:
                        gold = compute_gold(rnd, sb)
                    except SqlToolError as exc:
                        raise DataValidationError(str(f), [f"round {i + 1}: gold SQL failed: {exc}"], t["id"]) from exc
                    new = gold.model_dump() if gold is not None else None
                    if new != r.get("gold"):
                        changed.append(f"{t['id']}#{i + 1}")
                    if new is None:
                        r.pop("gold", None)
                    else:
                        r["gold"] = new
            if not check_only:
                Path(f).write_text(dump_task_yaml(raw), encoding="utf-8")
    return {"files": len(files), "rounds": n_rounds, "changed": changed}
