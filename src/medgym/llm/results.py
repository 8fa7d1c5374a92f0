"""Plain result types returned by :class:`medgym.llm.LLMClient`.

They are pydantic models so agents and runners can drop them straight into a
trajectory or a JSONL line with ``model_dump()``.
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import BaseModel, ConfigDict, Field


class Usage(BaseModel):
    """Token counts of one completion (zero for a cache hit: it cost nothing)."""

    model_config = ConfigDict(frozen=True)

    prompt_tokens: int = 0
    completion_tokens: int = 0
    total_tokens: int = 0

    def __add__(self, other: Usage) -> Usage:
        return Usage(
            prompt_tokens=self.prompt_tokens + other.prompt_tokens,
            completion_tokens=self.completion_tokens + other.completion_tokens,
            total_tokens=self.total_tokens + other.total_tokens,
        )

    @classmethod
    def from_response(cls, raw: Any) -> Usage:
        """Read the ``usage`` block of a completion; missing fields count as 0."""
        if not isinstance(raw, dict):
            return cls()
        pt = _as_int(raw.get("prompt_tokens"))
        ct = _as_int(raw.get("completion_tokens"))
        tt = _as_int(raw.get("total_tokens")) or pt + ct
        return cls(prompt_tokens=pt, completion_tokens=ct, total_tokens=tt)


def _as_int(v: Any) -> int:
    return int(v) if isinstance(v, int | float) and not isinstance(v, bool) and v > 0 else 0


class ToolCall(BaseModel):
    """One function call requested by the model.

    ``arguments`` is the parsed JSON object. If the model produced arguments that are
    not a JSON object, ``arguments`` is empty and ``parse_error`` says why; the raw
    string is always in ``arguments_raw``. The call is still returned (rather than
    raising) so that an agent can answer it with an informative tool error, which is
    how the environments treat invalid actions.
    """

    id: str
    name: str
    arguments: dict[str, Any] = Field(default_factory=dict)
    arguments_raw: str = ""
    parse_error: str | None = None

    @classmethod
    def from_openai(cls, raw: dict[str, Any], index: int) -> ToolCall:
        fn = raw.get("function") or {}
        args_raw = fn.get("arguments")
        if isinstance(args_raw, dict):  # some servers (older Ollama) send an object
            args_raw = json.dumps(args_raw, ensure_ascii=False)
        args_raw = "" if args_raw is None else str(args_raw)
        arguments: dict[str, Any] = {}
        error: str | None = None
        if args_raw.strip():
            try:
                parsed = json.loads(args_raw)
            except json.JSONDecodeError as exc:
                error = f"arguments are not valid JSON: {exc}"
            else:
                if isinstance(parsed, dict):
                    arguments = parsed
                else:
                    error = f"expected a JSON object of arguments, got {type(parsed).__name__}"
        return cls(
            id=str(raw.get("id") or f"call_{index}"),
            name=str(fn.get("name") or ""),
            arguments=arguments,
            arguments_raw=args_raw,
            parse_error=error,
        )

    def to_openai(self) -> dict[str, Any]:
        """The ``tool_calls`` entry of an assistant message."""
        return {
            "id": self.id,
            "type": "function",
            "function": {"name": self.name, "arguments": self.arguments_raw or json.dumps(self.arguments)},
        }


class ChatResult(BaseModel):
    """What one :meth:`LLMClient.chat` call returns.

    ``message`` is the assistant message ready to append to the conversation (it
    includes ``tool_calls`` when there are any), so a tool loop is simply
    ``messages.append(res.message)`` followed by the tool results.
    """

    text: str | None = None
    tool_calls: list[ToolCall] = Field(default_factory=list)
    message: dict[str, Any] = Field(default_factory=dict)
    usage: Usage = Field(default_factory=Usage)
    cached: bool = False
    latency_s: float = 0.0
    finish_reason: str | None = None
    model: str | None = None
    #: HTTP attempts made for this call (0 for a cache hit).
    attempts: int = 0
    #: for chat_json: the structured-output mode that produced the reply
    #: ("json_schema", "json_object" or "prompt"); None for plain chat.
    structured_mode: str | None = None

    @classmethod
    def from_completion(cls, body: dict[str, Any], *, cached: bool, latency_s: float,
                        attempts: int) -> ChatResult:
        """Build a result from a completion body already checked by ``check_completion``."""
        choice = body["choices"][0]
        msg = choice.get("message") or {}
        text = msg.get("content")
        if isinstance(text, list):  # content parts: keep the text ones
            text = "".join(p.get("text", "") for p in text if isinstance(p, dict))
        calls = [ToolCall.from_openai(tc, i) for i, tc in enumerate(msg.get("tool_calls") or [])
                 if isinstance(tc, dict)]
        message: dict[str, Any] = {"role": "assistant", "content": text}
        if calls:
            message["tool_calls"] = [c.to_openai() for c in calls]
        return cls(
            text=text,
            tool_calls=calls,
            message=message,
            usage=Usage() if cached else Usage.from_response(body.get("usage")),
            cached=cached,
            latency_s=latency_s,
            finish_reason=choice.get("finish_reason"),
            model=body.get("model"),
            attempts=attempts,
        )


def check_completion(body: Any) -> str | None:
    """Why ``body`` is not a usable chat completion, or ``None`` if it is.

    Servers behind proxies sometimes answer 200 with an HTML page or an
    ``{"error": ...}`` object; both are server faults, not model output.
    """
    if not isinstance(body, dict):
        return f"expected a JSON object, got {type(body).__name__}"
    if "error" in body and not body.get("choices"):
        return f"server returned an error object: {str(body['error'])[:200]}"
    choices = body.get("choices")
    if not isinstance(choices, list) or not choices:
        return "response has no choices"
    first = choices[0]
    if not isinstance(first, dict) or not isinstance(first.get("message"), dict):
        return "first choice has no message"
    return None
