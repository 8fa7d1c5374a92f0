"""``medgym/DataAgent-v0``: multi-turn clinical NL-to-SQL over a read-only EHR database.

A task is a 3-5 round conversation with a clinician ("Which patients have CKD?",
"Of those, whose creatinine rose by more than 50%?", ...). The observation is text:
the current user question, or the result of the agent's last tool call. The action
is a JSON tool call (see :mod:`medgym.envs.data_agent.tools`):

* ``list_tables``, ``describe_table``, ``run_sql``, ``search_notes`` explore the
  database through a read-only, time-limited sandbox
  (:mod:`medgym.db_fixtures.sandbox`); errors come back as tool-error observations
  and the episode goes on;
* ``answer`` commits the answer for the current round; the next user turn follows.

The episode terminates after the answer to the last round; ``max_episode_steps``
(registration, 60) truncates. The reward is always 0.0 here: the judge wrapper
:class:`medgym.judges.data_agent_wrapper.DataAgentJudge` scores each answer
(execution accuracy, cell-level F1, task success) into ``info`` and the reward.
Gold answers never appear in ``info``; the wrapper reads them through
:meth:`DataAgentEnv.gold_for_round`.

Backends are chosen by URL (``reset(options={"url": ...})`` or the constructor):
the embedded SQLite fixture by default (built once into the cache directory),
``sqlite:///file.db``, ``postgresql+psycopg://...``, ``mysql+pymysql://...`` or a
CSV folder (``csv:///path``, canonical or Synthea layout). Gold answers are the
stored ones when the database is the default fixture (recognised by its
``medgym_meta`` table), otherwise they are computed by running the gold SQL on
the backend at reset (``gold="auto"``; force with ``"stored"`` or ``"execute"``).

Reset options: ``task_id`` (default: drawn with ``np_random``), ``url``, ``gold``.

Version History:
    * v0: initial release (trajectory format version 1).
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any

import gymnasium as gym

from medgym.db_fixtures.gold import compute_gold
from medgym.db_fixtures.sandbox import (
    DEFAULT_MAX_ROWS,
    DEFAULT_TIMEOUT_S,
    QueryResult,
    SqlSandbox,
    SqlToolError,
    open_sandbox,
)
from medgym.db_fixtures.task_models import DataTask, TaskSet, default_tasks, load_tasks
from medgym.db_fixtures.urls import parse_backend_url
from medgym.envs.data_agent.tools import (
    AnswerArgs,
    DescribeTableArgs,
    RunSqlArgs,
    SearchNotesArgs,
    parse_action,
    render_table,
    tool_schemas,
    validate_arguments,
)
from medgym.envs.data_agent.trajectory import AnswerRecord, DataAgentTrajectory, RoundRecord, ToolCallRecord
from medgym.envs.spaces import coerce_text, text_space
from medgym.errors import ActionError, EpisodeStateError, MedgymError, UnknownNameError
from medgym.registry import did_you_mean

MAX_OBSERVATION_LENGTH = 24_000
MAX_ACTION_LENGTH = 24_000
GOLD_MODES = ("auto", "stored", "execute")
RESET_OPTIONS = {"task_id", "url", "gold"}

INTRO = (
    "You are connected to a clinical database ({backend}, SQL dialect: {dialect}). A clinician will ask "
    "{n} questions, one per round; later questions may refer to earlier answers. Use the tools "
    "list_tables, describe_table, run_sql and search_notes to explore the data (read-only), then call "
    "answer once per round with a short interpretation. If the data does not hold what is asked, answer "
    "with unanswerable=true. Actions are JSON tool calls, e.g. "
    '{{"tool": "run_sql", "arguments": {{"sql": "SELECT COUNT(*) FROM patients"}}}}.'
)


@dataclass
class GoldInfo:
    """The gold answer of one round as the judge needs it."""

    unanswerable: bool
    columns: list[str]
    rows: list[list[Any]] | None
    status: str  # "ok" | "unavailable"
    error: str | None = None


class DataAgentEnv(gym.Env[str, str]):
    metadata = {"render_modes": ["ansi"], "render_fps": 1}

    def __init__(
        self,
        render_mode: str | None = None,
        url: str | None = None,
        task_ids: list[str] | None = None,
        task_paths: list[str] | None = None,
        gold: str = "auto",
        timeout_s: float = DEFAULT_TIMEOUT_S,
        max_rows: int = DEFAULT_MAX_ROWS,
        display_rows: int = 30,
        max_cell_chars: int = 80,
        max_action_length: int = MAX_ACTION_LENGTH,
        agent_name: str | None = None,
        tasks: TaskSet | None = None,
    ):
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']} or None, got {render_mode!r}")
        self.render_mode = render_mode
        self.tasks: TaskSet = tasks if tasks is not None else (
            load_tasks(task_paths, require_gold=False) if task_paths else default_tasks())
        self.task_ids = [self.tasks.get(t).id for t in task_ids] if task_ids else self.tasks.ids()
        self.default_url = url
        self.default_gold = self._check_gold_mode(gold)
        self.timeout_s = float(timeout_s)
        self.max_rows = int(max_rows)
        self.display_rows = int(display_rows)
        self.max_cell_chars = int(max_cell_chars)
        self.max_action_length = int(max_action_length)
        self.agent_name = agent_name
        self.observation_space = text_space(MAX_OBSERVATION_LENGTH)
        self.action_space = text_space(self.max_action_length)
        self._sandboxes: dict[str, SqlSandbox] = {}
        self._meta_cache: dict[str, dict[str, str]] = {}
        self._task: DataTask | None = None
        self._sandbox: SqlSandbox | None = None
        self._url_key = ""
        self._gold: list[GoldInfo] = []
        self._gold_source = "stored"
        self._rounds: list[RoundRecord] = []
        self._round = 0
        self._steps = 0
        self._last_result: QueryResult | None = None
        self._done = True
        self._terminated = False
        self._truncated = False
        self._seed: int | None = None
        self._summary: dict[str, Any] | None = None

    # ------------------------------------------------------------------ helpers
    @staticmethod
    def _check_gold_mode(mode: str) -> str:
        if mode not in GOLD_MODES:
            raise UnknownNameError("gold mode", mode, list(GOLD_MODES), did_you_mean(mode, list(GOLD_MODES)))
        return mode

    def _open(self, url: str | None) -> tuple[SqlSandbox, str]:
        spec = parse_backend_url(url)
        key = spec.url
        sb = self._sandboxes.get(key)
        if sb is None:
            sb = open_sandbox(spec, timeout_s=self.timeout_s, max_rows=self.max_rows)
            self._sandboxes[key] = sb
        return sb, key

    @property
    def task(self) -> DataTask:
        if self._task is None:
            raise EpisodeStateError("no task yet: call reset() first")
        return self._task

    @property
    def sandbox(self) -> SqlSandbox:
        if self._sandbox is None:
            raise EpisodeStateError("no database yet: call reset() first")
        return self._sandbox

    @property
    def current_round(self) -> int:
        """0-based index of the round awaiting an answer (== n_rounds when finished)."""
        return self._round

    def gold_for_round(self, index: int) -> GoldInfo:
        """Gold of round ``index`` (0-based) for the judge; never shown to the agent."""
        return self._gold[index]

    def _resolve_gold(self, mode: str) -> None:
        task, sb = self.task, self.sandbox
        if mode == "auto":
            meta = self._meta_cache.get(self._url_key)
            if meta is None:
                meta = sb.read_meta()
                self._meta_cache[self._url_key] = meta
            mode = "stored" if self.tasks.fixture.matches_meta(meta) else "execute"
        self._gold_source = mode
        self._gold = []
        for i, r in enumerate(task.rounds):
            if r.unanswerable:
                self._gold.append(GoldInfo(True, [], None, "ok"))
            elif mode == "stored":
                if r.gold is None:
                    raise MedgymError(f"task {task.id} round {i + 1} has no stored gold; run `medgym data regen-gold`")
                self._gold.append(GoldInfo(False, list(r.gold.columns), [list(x) for x in r.gold.rows], "ok"))
            else:
                try:
                    g = compute_gold(r, sb)
                except (SqlToolError, MedgymError) as exc:
                    self._gold.append(GoldInfo(False, [], None, "unavailable", str(exc)))
                else:
                    if g is None:  # impossible: validated answerable rounds carry SQL
                        raise MedgymError(f"task {task.id} round {i + 1}: no gold SQL for {sb.dialect}")
                    self._gold.append(GoldInfo(False, g.columns, g.rows, "ok"))

    def _info(self, **extra: Any) -> dict[str, Any]:
        task = self.task
        info: dict[str, Any] = {
            "task_id": task.id,
            "task_title": task.title,
            "family": task.family,
            "round": min(self._round + 1, task.n_rounds),
            "n_rounds": task.n_rounds,
            "rounds_answered": sum(1 for r in self._rounds if r.answer is not None),
            "backend": self.sandbox.backend,
            "dialect": self.sandbox.dialect,
            "gold_source": self._gold_source,
            "step": self._steps,
        }
        info.update(extra)
        return info

    def _user_turn(self, index: int) -> str:
        task = self.task
        return f"User (round {index + 1} of {task.n_rounds}): {task.rounds[index].utterance}"

    def _fit(self, text: str) -> str:
        limit = MAX_OBSERVATION_LENGTH - 200
        if len(text) <= limit:
            return text
        return text[:limit] + "\n… (output truncated to fit the observation limit)"

    # ---------------------------------------------------------------- gym API
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[str, dict[str, Any]]:
        super().reset(seed=seed)
        options = dict(options or {})
        unknown = set(options) - RESET_OPTIONS
        if unknown:
            raise ActionError(f"unknown reset option(s) {sorted(unknown)}; expected {sorted(RESET_OPTIONS)}")
        if options.get("task_id") is not None:
            task = self.tasks.get(str(options["task_id"]))
        else:
            task = self.tasks.get(self.task_ids[int(self.np_random.integers(len(self.task_ids)))])
        url = options.get("url", self.default_url)
        self._sandbox, self._url_key = self._open(url)
        self._task = task
        self._seed = seed
        self._resolve_gold(self._check_gold_mode(options.get("gold", self.default_gold)))
        self._rounds = [RoundRecord(index=i + 1, utterance=r.utterance, kinds=list(r.kinds))
                        for i, r in enumerate(task.rounds)]
        self._round = 0
        self._steps = 0
        self._last_result = None
        self._done = False
        self._terminated = False
        self._truncated = False
        self._summary = None
        intro = INTRO.format(backend=self.sandbox.backend, dialect=self.sandbox.dialect, n=task.n_rounds)
        obs = f"{intro}\n\n{self._user_turn(0)}"
        return obs, self._info(tools=tool_schemas(), url=parse_backend_url(url).redacted(),
                               utterance=task.rounds[0].utterance)

    def step(self, action: str) -> tuple[str, float, bool, bool, dict[str, Any]]:
        if self._done:
            raise EpisodeStateError("the episode is over (or was never started): call reset()")
        self._steps += 1
        if not isinstance(action, str):
            raise ActionError(f"action must be a str (JSON tool call), got {type(action).__name__}")
        record = self._rounds[self._round]
        t0 = time.perf_counter()
        name: str | None = None
        raw_args: dict[str, Any] = {}
        try:
            coerce_text(action, self.max_action_length)
            name, raw_args = parse_action(action)
            args = validate_arguments(name, raw_args)
            if name == "answer":
                return self._answer(args, raw_args)  # type: ignore[arg-type]
            obs, extra = self._run_tool(name, args)
            ok, category = True, None
        except (ActionError, SqlToolError) as exc:
            category = getattr(exc, "category", "invalid_action")
            obs = f"Tool error: {exc}"
            extra = {"tool_error": {"category": category, "message": str(exc)}}
            ok = False
        obs = self._fit(obs)
        record.tool_calls.append(ToolCallRecord(
            step=self._steps, tool=name, arguments=_jsonable(raw_args), ok=ok, error_category=category,
            observation=obs[:4000], elapsed_ms=round((time.perf_counter() - t0) * 1000, 3),
            n_rows=(extra.get("tool_result") or {}).get("n_rows") if ok else None,
        ))
        return obs, 0.0, False, False, self._info(tool=name, **extra)

    # ---------------------------------------------------------------- tools
    def _run_tool(self, name: str, args: Any) -> tuple[str, dict[str, Any]]:
        sb = self.sandbox
        if name == "list_tables":
            tables = sb.list_tables()
            from medgym.db_fixtures.schema import metadata

            lines = [f"- {t}" + (f": {metadata.tables[t].comment}" if t in metadata.tables and
                                 metadata.tables[t].comment else "") for t in tables]
            return "Tables:\n" + "\n".join(lines), {"tool_result": {"tables": tables}}
        if name == "describe_table":
            a: DescribeTableArgs = args
            cols = sb.describe_table(a.table)
            table = next(t for t in sb.list_tables(include_meta=True) if t.lower() == a.table.strip().lower())
            lines = [f"Table {table}:"]
            for c in cols:
                note = f"  -- {c.note}" if c.note else ""
                lines.append(f"  {c.name} {c.type}{'' if c.nullable else ' NOT NULL'}{note}")
            q = sb._quote(table)
            try:
                sample = sb.query(f"SELECT * FROM {q} LIMIT 3")
                lines.append("Example rows:")
                lines.append(render_table(sample.columns, sample.rows, display_rows=3,
                                          max_cell_chars=min(self.max_cell_chars, 60)))
            except SqlToolError:
                pass
            return "\n".join(lines), {"tool_result": {"table": table, "columns": [c.name for c in cols]}}
        if name == "run_sql":
            r: RunSqlArgs = args
            res = sb.run_sql(r.sql)
            self._last_result = res
            text = render_table(res.columns, res.rows, truncated=res.truncated, row_cap=res.row_cap,
                                display_rows=self.display_rows, max_cell_chars=self.max_cell_chars)
            result = res.to_dict()
            result["n_rows"] = len(res.rows)
            return text, {"tool_result": result}
        if name == "search_notes":
            s: SearchNotesArgs = args
            return self._search_notes(s)
        raise ActionError(f"unknown tool {name!r}")  # unreachable: parse_action checks names

    def _search_notes(self, a: SearchNotesArgs) -> tuple[str, dict[str, Any]]:
        sb = self.sandbox
        if "notes" not in sb.list_tables():
            raise SqlToolError("unknown_object", "this database has no notes table")
        terms = [t.lower() for t in a.query.split() if t.strip()][:8]
        ph = sb.placeholder
        where = " AND ".join([f"LOWER(note_text) LIKE {ph}"] * len(terms))
        params: list[Any] = [f"%{_escape_like(t)}%" for t in terms]
        if a.patient_id:
            where += f" AND patient_id = {ph}"
            params.append(a.patient_id)
        esc = " ESCAPE '!'" if terms else ""
        where = where.replace(f"LIKE {ph}", f"LIKE {ph}{esc}")
        count = sb.query(f"SELECT COUNT(*) FROM notes WHERE {where}", tuple(params)).rows[0][0]
        res = sb.query(
            f"SELECT note_id, patient_id, encounter_id, written_at, note_type, note_text FROM notes WHERE {where} "
            f"ORDER BY written_at, note_id LIMIT {int(a.limit)}",
            tuple(params),
        )
        lines = [f"{count} note(s) match {a.query!r}" + (f" for patient {a.patient_id}" if a.patient_id else "")
                 + (f"; showing {len(res.rows)}" if count > len(res.rows) else "") + ":"]
        for note_id, pid, enc, written, ntype, text in res.rows:
            lines.append(f"- {note_id} | patient {pid} | encounter {enc} | {written} | {ntype}: "
                         f"{_snippet(str(text), terms[0] if terms else '')}")
        cols = ["note_id", "patient_id", "encounter_id", "written_at", "note_type"]
        rows = [list(r[:5]) for r in res.rows]
        return "\n".join(lines), {"tool_result": {"columns": cols, "rows": rows, "n_rows": len(rows),
                                                  "n_matches": count}}

    def _answer(self, a: AnswerArgs, raw: dict[str, Any]) -> tuple[str, float, bool, bool, dict[str, Any]]:
        record = self._rounds[self._round]
        columns: list[str] = []
        rows: list[list[Any]] = []
        if a.unanswerable:
            source = "flag"
        elif "values" in raw:
            source = "values"
            rows = _as_rows(a.values)
        elif a.sql:
            res = self.sandbox.run_sql(a.sql)  # SqlToolError -> tool error, round not advanced
            source, columns, rows = "sql", res.columns, res.rows
        elif self._last_result is not None:
            source = "last_result"
            columns, rows = self._last_result.columns, self._last_result.rows
        else:
            source = "text"
        from medgym.judges.sql_scoring import detect_unanswerable

        # without the flag, a text saying "the data does not hold this" counts (unless values/sql were given)
        declared = bool(a.unanswerable) or (
            a.unanswerable is None and "values" not in raw and not a.sql and detect_unanswerable(a.text))
        record.answer = AnswerRecord(
            step=self._steps, text=a.text, values=_jsonable(a.values), sql=a.sql, unanswerable=declared,
            unanswerable_flag=a.unanswerable, source=source, columns=list(columns), rows=[list(r) for r in rows],
        )
        submission = {
            "round": self._round + 1,
            "source": record.answer.source,
            "unanswerable": declared,
            "n_rows": len(rows),
        }
        self._round += 1
        self._last_result = None
        task = self.task
        if self._round >= task.n_rounds:
            self._done = True
            self._terminated = True
            obs = f"Answer recorded for round {task.n_rounds}. All {task.n_rounds} questions are answered; the episode is over."
            return obs, 0.0, True, False, self._info(tool="answer", submission=submission)
        obs = f"Answer recorded for round {self._round}.\n\n{self._user_turn(self._round)}"
        return obs, 0.0, False, False, self._info(tool="answer", submission=submission,
                                                  utterance=task.rounds[self._round].utterance)

    # ------------------------------------------------------------ judge hooks
    def submission(self, index: int) -> dict[str, Any] | None:
        """The answer of round ``index`` (0-based) as the scorer reads it, or None if unanswered."""
        ans = self._rounds[index].answer
        if ans is None:
            return None
        return {"text": ans.text, "values": ans.values, "rows": ans.rows, "columns": ans.columns,
                "source": ans.source, "unanswerable": ans.unanswerable}

    def record_score(self, index: int, score: dict[str, Any]) -> None:
        self._rounds[index].score = dict(score)

    def record_summary(self, summary: dict[str, Any]) -> None:
        self._summary = dict(summary)

    def mark_truncated(self) -> None:
        """Called by wrappers when TimeLimit truncated the episode."""
        self._truncated = True
        self._done = True

    # ---------------------------------------------------------------- output
    def trajectory(self, truncated: bool | None = None) -> DataAgentTrajectory:
        task = self.task
        return DataAgentTrajectory(
            task_id=task.id, task_title=task.title, backend=self.sandbox.backend, dialect=self.sandbox.dialect,
            url=self.sandbox.spec.redacted(), gold_source=self._gold_source,  # type: ignore[arg-type]
            seed=self._seed, rounds=[r.model_copy(deep=True) for r in self._rounds], steps=self._steps,
            terminated=self._terminated, truncated=self._truncated if truncated is None else truncated,
            agent=self.agent_name, summary=self._summary,
        )

    def save_trajectory(self, path: str) -> str:
        return str(self.trajectory().save(path))

    def render(self) -> str | None:
        if self.render_mode != "ansi" or self._task is None:
            return None
        lines = [f"[{self.task.id}] {self.task.title}"]
        for r in self._rounds:
            lines.append(f"Round {r.index}: {r.utterance}")
            for c in r.tool_calls:
                lines.append(f"  {c.tool or '?'} {json.dumps(c.arguments, ensure_ascii=False)[:160]} -> "
                             f"{'ok' if c.ok else 'error: ' + str(c.error_category)}")
            if r.answer is not None:
                lines.append(f"  answer ({r.answer.source}): {r.answer.text[:200]}")
        return "\n".join(lines)

    def close(self) -> None:
        for sb in self._sandboxes.values():
            sb.close()
        self._sandboxes.clear()
        super().close()


# --------------------------------------------------------------------------- helpers
def _escape_like(term: str) -> str:
    return term.replace("!", "!!").replace("%", "!%").replace("_", "!_")


def _snippet(text: str, term: str, width: int = 220) -> str:
    low = text.lower()
    i = low.find(term) if term else -1
    if i < 0 or len(text) <= width:
        return text[:width] + ("…" if len(text) > width else "")
    start = max(0, i - width // 3)
    out = text[start:start + width]
    return ("…" if start else "") + out + ("…" if start + width < len(text) else "")


def _as_rows(values: Any) -> list[list[Any]]:
    from medgym.judges.sql_scoring import normalise_values

    return normalise_values(values)


def _jsonable(v: Any) -> Any:
    try:
        return json.loads(json.dumps(v, default=str))
    except (TypeError, ValueError):
        return str(v)
