"""DataAgent tools: JSON schemas, action parsing and result rendering.

An action is JSON text naming one tool::

    {"tool": "run_sql", "arguments": {"sql": "SELECT COUNT(*) FROM patients"}}

The OpenAI function-call shape ``{"name": "run_sql", "arguments": "<json string>"}``
is accepted too, so an LLM's tool call can be passed through unchanged. Malformed
actions raise :class:`~medgym.errors.ActionError`, which the environment turns into
a tool-error observation (the episode goes on).
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from medgym.envs.tool_calls import parse_tool_call, tool_call, validate_tool_arguments  # noqa: F401

TOOLS: list[dict[str, Any]] = [
    {
        "type": "function",
        "function": {
            "name": "list_tables",
            "description": "List the tables of the clinical database.",
            "parameters": {"type": "object", "properties": {}, "additionalProperties": False},
        },
    },
    {
        "type": "function",
        "function": {
            "name": "describe_table",
            "description": "Show a table's columns (name, type, nullability, meaning) and three example rows.",
            "parameters": {
                "type": "object",
                "properties": {"table": {"type": "string", "description": "Table name, e.g. labs"}},
                "required": ["table"],
                "additionalProperties": False,
            },
        },
    },
    {
        "type": "function",
        "function": {
            "name": "run_sql",
            "description": (
                "Run ONE read-only SQL statement (SELECT/WITH) and see the result table. The database is "
                "read-only, statements time out after a few seconds and results are capped in rows; large "
                "results are shown truncated but kept in full (up to the cap) as your candidate answer."
            ),
            "parameters": {
                "type": "object",
                "properties": {"sql": {"type": "string", "description": "One SQL statement in the backend's dialect."}},
                "required": ["sql"],
                "additionalProperties": False,
            },
        },
    },
    {
        "type": "function",
        "function": {
            "name": "search_notes",
            "description": (
                "Case-insensitive search of the free-text clinical notes; every word of the query must appear. "
                "Returns matching notes with a snippet."
            ),
            "parameters": {
                "type": "object",
                "properties": {
                    "query": {"type": "string", "description": "Words or a phrase, e.g. 'chest pain'"},
                    "patient_id": {"type": "string", "description": "Only this patient's notes (optional)."},
                    "limit": {"type": "integer", "minimum": 1, "maximum": 50, "description": "Notes to show (default 10)."},
                },
                "required": ["query"],
                "additionalProperties": False,
            },
        },
    },
    {
        "type": "function",
        "function": {
            "name": "answer",
            "description": (
                "Answer the current question and move to the next one. Give a short interpretation in 'text'. "
                "The scored answer set is, in order of precedence: 'values' if given (a list of rows, a flat "
                "list, or a single value); else the result of 'sql' if given; else the result of your last "
                "successful run_sql in this round; else the numbers and ids in 'text'. If the database does "
                "not hold the information asked for, set 'unanswerable' to true and say so."
            ),
            "parameters": {
                "type": "object",
                "properties": {
                    "text": {"type": "string", "description": "The answer and its clinical interpretation."},
                    "values": {
                        "description": "The answer set: rows (list of lists), a flat list, or one value.",
                        "anyOf": [
                            {"type": "array", "items": {}},
                            {"type": "string"},
                            {"type": "number"},
                            {"type": "null"},
                        ],
                    },
                    "sql": {"type": "string", "description": "A query whose result is the answer set."},
                    "unanswerable": {
                        "type": "boolean",
                        "description": "True if the database does not contain the information requested.",
                    },
                },
                "required": ["text"],
                "additionalProperties": False,
            },
        },
    },
]
TOOL_NAMES = [t["function"]["name"] for t in TOOLS]


class _Args(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ListTablesArgs(_Args):
    pass


class DescribeTableArgs(_Args):
    table: str = Field(min_length=1, max_length=128)


class RunSqlArgs(_Args):
    sql: str = Field(min_length=1)


class SearchNotesArgs(_Args):
    query: str = Field(min_length=1, max_length=200)
    patient_id: str | None = Field(None, max_length=64)
    limit: int = Field(10, ge=1, le=50)


class AnswerArgs(_Args):
    text: str = Field(max_length=8000)
    values: Any = None
    sql: str | None = None
    unanswerable: bool | None = None


ARG_MODELS: dict[str, type[_Args]] = {
    "list_tables": ListTablesArgs,
    "describe_table": DescribeTableArgs,
    "run_sql": RunSqlArgs,
    "search_notes": SearchNotesArgs,
    "answer": AnswerArgs,
}


def tool_schemas() -> list[dict[str, Any]]:
    """Fresh copies of the OpenAI function-calling schemas."""
    return json.loads(json.dumps(TOOLS))


EXAMPLE_ACTION = '{"tool": "run_sql", "arguments": {"sql": "SELECT COUNT(*) FROM patients"}}'


def parse_action(action: str) -> tuple[str, dict[str, Any]]:
    """``(tool name, raw arguments)`` from an action string; ActionError on any malformation."""
    return parse_tool_call(action, TOOL_NAMES, EXAMPLE_ACTION)


def validate_arguments(name: str, args: dict[str, Any]) -> _Args:
    return validate_tool_arguments(ARG_MODELS, name, args)  # type: ignore[return-value]


# --------------------------------------------------------------------------- rendering
def _fmt_cell(v: Any, width: int) -> str:
    if v is None:
        s = "NULL"
    elif isinstance(v, float):
        s = f"{v:.6g}" if abs(v) < 1e15 else repr(v)
    else:
        s = str(v)
    s = " ".join(s.split())
    return s if len(s) <= width else s[: width - 1] + "…"


def render_table(
    columns: list[str],
    rows: list[list[Any]],
    *,
    truncated: bool = False,
    row_cap: int = 0,
    display_rows: int = 30,
    max_cell_chars: int = 80,
) -> str:
    """A result set as a pipe table, with a note when rows are hidden or capped."""
    if not columns:
        return "Statement executed; it returned no result set."
    shown = rows[:display_rows]
    cells = [[_fmt_cell(c, max_cell_chars) for c in r] for r in shown]
    widths = [max([len(col)] + [len(r[i]) for r in cells]) for i, col in enumerate(columns)]
    lines = [" | ".join(c.ljust(w) for c, w in zip(columns, widths, strict=True)).rstrip(),
             "-+-".join("-" * w for w in widths)]
    for r in cells:
        lines.append(" | ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip())
    n = len(rows)
    if n == 0:
        lines.append("(0 rows)")
    elif n > len(shown):
        lines.append(f"({n}{'+' if truncated else ''} rows; showing the first {len(shown)}. The full result "
                     "is kept as your candidate answer; aggregate or filter to inspect the rest.)")
    else:
        lines.append(f"({n} row{'s' if n != 1 else ''})")
    if truncated:
        lines.append(f"Note: the result was cut at the {row_cap}-row cap; narrow the query.")
    return "\n".join(lines)
