"""The LLM clinician: any OpenAI-compatible chat model, as a compiled LangGraph graph.

The graph is one ``call_model`` node over a message list. The agent keeps the whole
conversation across turns, so the model sees the dialogue as a clinician would.
Its system prompt is a constructor parameter (prompt-optimisation experiments swap
it). When the environment publishes tools (``info["tools"]``, OpenAI function
format) and ``use_tools`` is on, a tool call from the model becomes the action
``{"tool": name, "arguments": {...}}`` and the next observation is fed back as the
tool result.

All model traffic goes through :mod:`medgym.llm` (retries, rate limits, cache,
token accounting); a transport failure propagates as ``LLMTransportError`` so the
batch runner records the episode as an error, never as a score.
"""

from __future__ import annotations

import json
from typing import Any, TypedDict

from medgym.agents.llm_common import agent_client, call_model_graph, invoke_call_model, usage_summary
from medgym.llm import LLMClient

DEFAULT_SYSTEM_PROMPT = (
    "You are an experienced physician talking with a colleague about a patient. Information may be "
    "incomplete, contradictory or arrive late. Ask for missing key information before committing, point out "
    "any inconsistency and ask for confirmation, revise your diagnosis when new evidence warrants it, and never "
    "state values or findings that were not given to you. When asked for a final answer, start with "
    "'Final diagnosis:' and list only evidence actually provided in the conversation."
)


class _State(TypedDict):
    messages: list[dict[str, Any]]
    tools: list[dict[str, Any]] | None


class LLMClinician:
    """Policy protocol (``act``/``reset``) around a compiled single-node LangGraph graph."""

    def __init__(
        self,
        model: str | None = None,
        base_url: str | None = None,
        api_key: str | None = None,
        temperature: float | None = None,
        seed: int | None = None,
        max_tokens: int | None = None,
        system_prompt: str = DEFAULT_SYSTEM_PROMPT,
        use_tools: bool = True,
        client: LLMClient | None = None,
        **config: Any,
    ):
        self.client, self.meter = agent_client(
            client, model=model, base_url=base_url, api_key=api_key, temperature=temperature, seed=seed,
            max_tokens=max_tokens, **config,
        )
        self.system_prompt = system_prompt
        self.use_tools = use_tools
        self.name = f"llm:{self.client.config.model}"
        self.graph = call_model_graph(_State)
        self.messages: list[dict[str, Any]] = []
        self._pending_tool_call: str | None = None

    def call_model(self, state: _State) -> dict[str, Any]:
        res = self.client.chat(state["messages"], tools=state["tools"] or None)
        msg = dict(res.message)
        if msg.get("tool_calls"):
            msg["tool_calls"] = msg["tool_calls"][:1]  # one tool call per env step
        return {"messages": [*state["messages"], msg]}

    def reset(self) -> None:
        self.messages = []
        self._pending_tool_call = None

    def act(self, observation: str, info: dict[str, Any]) -> str:
        if not self.messages:
            self.messages = [{"role": "system", "content": self.system_prompt}]
        if self._pending_tool_call is not None:
            self.messages.append({"role": "tool", "tool_call_id": self._pending_tool_call, "content": observation})
            self._pending_tool_call = None
        else:
            self.messages.append({"role": "user", "content": observation})
        tools = info.get("tools") if self.use_tools else None
        self._tools = tools or getattr(self, "_tools", None)
        out = invoke_call_model(self, {"messages": self.messages, "tools": self._tools if self.use_tools else None})
        self.messages = out["messages"]
        last = self.messages[-1]
        calls = last.get("tool_calls") or []
        if calls:
            call = calls[0]
            self._pending_tool_call = call.get("id")
            fn = call.get("function", {})
            args = fn.get("arguments", "{}")
            try:
                parsed = json.loads(args) if isinstance(args, str) else args
            except json.JSONDecodeError:
                parsed = {"_raw": args}
            return json.dumps({"tool": fn.get("name"), "arguments": parsed})
        return last.get("content") or ""

    def token_usage(self) -> dict[str, int]:
        return usage_summary(self.meter)
