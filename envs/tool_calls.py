"""Tool-call actions shared by the tool-using environments (DataAgent, RAGAgent, and the next ones).

An action is JSON text: ``{"tool": NAME, "arguments": {...}}``, or the OpenAI shapes
``{"name": NAME, "arguments": "<json string>"}`` and ``{"function": {...}}``, so an LLM
agent can forward its tool call unchanged. Any malformation raises ActionError with a
message meant for the agent (the env turns it into a tool-error observation and the
episode goes on).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import BaseModel, ValidationError

from medgym.errors import ActionError
from medgym.registry import did_you_mean


def parse_tool_call(action: str, tool_names: Sequence[str], example: str) -> tuple[str, dict[str, Any]]:
    """``(tool name, raw arguments)`` from an action string; ActionError on any malformation."""
    try:
        data = json.loads(action)
    except (json.JSONDecodeError, TypeError) as exc:
        raise ActionError(f"the action must be a JSON tool call such as {example}; could not parse it ({exc})") from None
    if isinstance(data, dict) and isinstance(data.get("function"), dict):  # a full OpenAI tool_call object
        data = {**data["function"]}
    if not isinstance(data, dict):
        raise ActionError(f"the action must be a JSON object such as {example}, got {type(data).__name__}")
    name = data.get("tool", data.get("name"))
    if not isinstance(name, str) or not name:
        raise ActionError(f"the action has no tool name: expected a 'tool' field, e.g. {example}")
    if name not in tool_names:
        hint = did_you_mean(name, list(tool_names))
        extra = f"; did you mean {' or '.join(repr(h) for h in hint)}?" if hint else ""
        raise ActionError(f"unknown tool {name!r}{extra} (tools: {', '.join(tool_names)})")
    args = data.get("arguments", {})
    if args is None:
        args = {}
    if isinstance(args, str):
        try:
            args = json.loads(args) if args.strip() else {}
        except json.JSONDecodeError as exc:
            raise ActionError(f"arguments of {name!r} are not valid JSON ({exc.msg})") from None
    if not isinstance(args, dict):
        raise ActionError(f"arguments of {name!r} must be a JSON object, got {type(args).__name__}")
    extra_fields = set(data) - {"tool", "name", "arguments", "id", "type"}
    if extra_fields:
        raise ActionError(
            f"unexpected top-level field(s) {sorted(extra_fields)}: put tool parameters under 'arguments'"
        )
    return name, args


def validate_tool_arguments(
    models: Mapping[str, type[BaseModel]], name: str, args: dict[str, Any], missing: str | None = None
) -> BaseModel:
    """Validate ``args`` with the tool's pydantic model; one readable line per problem.

    ``missing`` replaces pydantic's "Field required" wording when given.
    """
    try:
        return models[name].model_validate(args)
    except ValidationError as exc:
        probs = []
        for err in exc.errors(include_url=False):
            loc = ".".join(str(p) for p in err.get("loc", ())) or "arguments"
            msg = missing if (missing and err.get("type") == "missing") else err.get("msg", "invalid")
            probs.append(f"{loc}: {msg}")
        raise ActionError(f"invalid arguments for {name!r}: " + "; ".join(probs)) from None


def tool_call(name: str, **arguments: Any) -> str:
    """Serialise a tool call as an action string (for agents and tests)."""
    return json.dumps({"tool": name, "arguments": arguments}, ensure_ascii=False)
