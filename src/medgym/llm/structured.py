"""Structured (JSON) output: schemas, server capability fallback, and a validating parser.

Not every OpenAI-compatible server enforces ``response_format`` the same way:

=================  ==========================================================
mode               what is sent
=================  ==========================================================
``json_schema``    ``{"type": "json_schema", "json_schema": {name, schema, strict}}``
                   (OpenAI, vLLM, recent Ollama; llama.cpp answers HTTP 500)
``json_object``    ``{"type": "json_object"}`` plus the schema in the system prompt
``prompt``         no ``response_format``; the schema is described in the prompt
=================  ==========================================================

``auto`` tries them in that order. When a server rejects a mode the rejection is
remembered for that base URL + model for the whole process, so the failing request
is paid for once. Whatever the mode, the reply is parsed by the same validating
parser (code fences, prose around the JSON and ``<think>`` blocks are tolerated) and
validated against the schema; nothing invalid is ever returned.
"""

from __future__ import annotations

import contextlib
import copy
import json
import re
import threading
from typing import Any

import jsonschema
from pydantic import BaseModel, ValidationError

MODES = ("json_schema", "json_object", "prompt")

_memory: dict[tuple[str, str], int] = {}
_memory_lock = threading.Lock()


def modes_for(endpoint: str, model: str, configured: str) -> list[str]:
    """The modes to try, in order, for this endpoint + model."""
    if configured != "auto":
        return [configured]
    with _memory_lock:
        start = _memory.get((endpoint, model), 0)
    return list(MODES[start:])


def remember_rejection(endpoint: str, model: str, mode: str) -> None:
    """Record that ``endpoint`` + ``model`` refused ``mode``: later calls start after it."""
    idx = MODES.index(mode) + 1
    with _memory_lock:
        key = (endpoint, model)
        _memory[key] = max(_memory.get(key, 0), min(idx, len(MODES) - 1))


def remembered_mode(endpoint: str, model: str) -> str:
    """The first mode ``auto`` will try for this endpoint + model."""
    with _memory_lock:
        return MODES[_memory.get((endpoint, model), 0)]


def reset_structured_memory() -> None:
    """Forget every remembered rejection (tests; or after upgrading a server)."""
    with _memory_lock:
        _memory.clear()


class OutputProblem(Exception):
    """A reply that cannot be used as the requested JSON (internal; becomes LLMOutputError)."""


_NAME_RE = re.compile(r"[^a-zA-Z0-9_-]+")


def _strictify(node: Any) -> Any:
    """Make a JSON schema acceptable to OpenAI's strict mode (for generation only).

    Every object gets ``additionalProperties: false`` and all its properties
    required; ``default`` is dropped. The reply is still validated against the
    *original* schema, so optional fields made required here cost nothing.
    """
    if isinstance(node, list):
        return [_strictify(x) for x in node]
    if not isinstance(node, dict):
        return node
    out = {k: _strictify(v) for k, v in node.items() if k != "default"}
    if "properties" in node and isinstance(node["properties"], dict):
        out["properties"] = {k: _strictify(v) for k, v in node["properties"].items()}
        out["required"] = list(node["properties"])
        out.setdefault("additionalProperties", False)
    elif node.get("type") == "object" and "additionalProperties" not in node:
        out["additionalProperties"] = False
    return out


class SchemaSpec:
    """A caller's schema (pydantic model class or JSON-schema dict), ready to use."""

    def __init__(self, schema: type[BaseModel] | dict[str, Any], name: str = "judgement"):
        if isinstance(schema, type) and issubclass(schema, BaseModel):
            self.model: type[BaseModel] | None = schema
            self.json_schema: dict[str, Any] = schema.model_json_schema()
            self._validator = None
        elif isinstance(schema, dict):
            self.model = None
            self.json_schema = copy.deepcopy(schema)
            cls = jsonschema.validators.validator_for(self.json_schema)
            try:
                cls.check_schema(self.json_schema)
            except jsonschema.SchemaError as exc:
                raise ValueError(f"invalid JSON schema for chat_json: {exc.message}") from exc
            self._validator = cls(self.json_schema)
        else:
            raise TypeError(f"expected a pydantic BaseModel subclass or a JSON-schema dict, got {schema!r}")
        self.name = (_NAME_RE.sub("_", name).strip("_") or "output")[:64]
        self.strict_schema = _strictify(self.json_schema)

    def response_format(self, mode: str) -> dict[str, Any] | None:
        if mode == "json_schema":
            return {"type": "json_schema",
                    "json_schema": {"name": self.name, "schema": self.strict_schema, "strict": True}}
        if mode == "json_object":
            return {"type": "json_object"}
        return None

    def instructions(self) -> str:
        return (
            "Reply with a single JSON value and nothing else (no prose, no code fences). "
            "It must validate against this JSON schema:\n"
            + json.dumps(self.json_schema, ensure_ascii=False, sort_keys=True)
        )

    def validate(self, value: Any) -> Any:
        """The validated value (model instance or the dict); raises OutputProblem."""
        if self.model is not None:
            try:
                return self.model.model_validate(value)
            except ValidationError as exc:
                raise OutputProblem(f"schema violation: {_short_pydantic(exc)}") from exc
        errors = sorted(self._validator.iter_errors(value), key=lambda e: list(e.absolute_path))  # type: ignore[union-attr]
        if errors:
            first = errors[0]
            where = "/".join(str(p) for p in first.absolute_path) or "<root>"
            more = f" (+{len(errors) - 1} more)" if len(errors) > 1 else ""
            raise OutputProblem(f"schema violation at {where}: {first.message}{more}")
        return value

    def parse(self, text: str | None) -> Any:
        """Extract and validate the JSON in a reply; raises OutputProblem."""
        if text is None or not text.strip():
            raise OutputProblem("empty reply (no content)")
        candidates = json_candidates(text)
        if not candidates:
            raise OutputProblem(f"no JSON found in reply: {_clip(text)}")
        first_problem: OutputProblem | None = None
        for cand in candidates:
            try:
                return self.validate(cand)
            except OutputProblem as exc:
                first_problem = first_problem or exc
        raise first_problem  # type: ignore[misc]


def _short_pydantic(exc: ValidationError) -> str:
    parts = []
    for err in exc.errors()[:3]:
        loc = "/".join(str(p) for p in err.get("loc", ())) or "<root>"
        parts.append(f"{loc}: {err.get('msg')}")
    more = f" (+{exc.error_count() - 3} more)" if exc.error_count() > 3 else ""
    return "; ".join(parts) + more


def _clip(text: str, n: int = 160) -> str:
    text = text.strip().replace("\n", " ")
    return text if len(text) <= n else text[:n] + "..."


_THINK_RE = re.compile(r"<think>.*?</think>", re.S | re.I)
_FENCE_RE = re.compile(r"```[ \t]*(?:json|JSON|javascript|js)?[ \t]*\r?\n?(.*?)```", re.S)
_MAX_SCAN_STARTS = 64


def json_candidates(text: str) -> list[Any]:
    """Every JSON value found in ``text``, best first.

    Order: the whole reply; fenced code blocks; then values starting at each ``{``
    or ``[`` in the prose (first 64 starts). Reasoning blocks ``<think>...</think>``
    are removed first (and an unterminated one up to a closing tag).
    """
    t = _THINK_RE.sub("", text)
    if "</think>" in t:
        t = t.split("</think>", 1)[1]
    t = t.strip()
    out: list[Any] = []
    seen: set[str] = set()

    def add(value: Any) -> None:
        key = json.dumps(value, sort_keys=True, default=str)
        if key not in seen:
            seen.add(key)
            out.append(value)

    with contextlib.suppress(json.JSONDecodeError):
        add(json.loads(t))
    for m in _FENCE_RE.finditer(t):
        try:
            add(json.loads(m.group(1).strip()))
        except json.JSONDecodeError:
            continue
    decoder = json.JSONDecoder()
    starts = 0
    i = 0
    while i < len(t) and starts < _MAX_SCAN_STARTS:
        if t[i] in "{[":
            starts += 1
            try:
                value, end = decoder.raw_decode(t, i)
            except json.JSONDecodeError:
                # A broken value: skip it whole, never mine fragments out of it (a nested
                # object of a truncated reply could otherwise pass a lenient schema).
                close = _balanced_end(t, i)
                if close is None:
                    break
                i = close
                continue
            if isinstance(value, dict | list):
                add(value)
                i = end
                continue
        i += 1
    # Objects first: a schema almost always describes an object, and a stray "[1]" in prose
    # should not shadow the real answer.
    return sorted(out, key=lambda v: 0 if isinstance(v, dict) else 1)


def _balanced_end(t: str, start: int) -> int | None:
    """Index just past the bracket closing the one at ``start`` (strings respected), or None."""
    depth = 0
    in_str = False
    esc = False
    for j in range(start, len(t)):
        ch = t[j]
        if in_str:
            if esc:
                esc = False
            elif ch == "\\":
                esc = True
            elif ch == '"':
                in_str = False
        elif ch == '"':
            in_str = True
        elif ch in "{[":
            depth += 1
        elif ch in "}]":
            depth -= 1
            if depth == 0:
                return j + 1
    return None


def with_instructions(messages: list[dict[str, Any]], spec: SchemaSpec) -> list[dict[str, Any]]:
    """A copy of ``messages`` whose system prompt ends with the schema instructions."""
    note = spec.instructions()
    msgs = [dict(m) for m in messages]
    if msgs and msgs[0].get("role") in ("system", "developer"):
        content = msgs[0].get("content")
        if isinstance(content, list):
            msgs[0]["content"] = [*content, {"type": "text", "text": note}]
        else:
            msgs[0]["content"] = f"{content or ''}\n\n{note}".strip()
        return msgs
    return [{"role": "system", "content": note}, *msgs]


def repair_messages(messages: list[dict[str, Any]], raw: str | None, problem: str) -> list[dict[str, Any]]:
    """The conversation extended with the bad reply and a request to correct it."""
    return [
        *messages,
        {"role": "assistant", "content": raw or ""},
        {"role": "user", "content": (
            f"Your previous reply could not be used: {problem}. "
            "Reply again with only the corrected JSON, matching the schema exactly.")},
    ]
