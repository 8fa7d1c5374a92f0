"""LLM SQL agent: any OpenAI-compatible chat model driving the DataAgent tools.

A compiled LangGraph graph with one ``call_model`` node over the conversation
(plain OpenAI-format message dicts). The environment's tool schemas
(``info["tools"]`` at reset) are bound to every request. The model's tool call
becomes the action ``{"tool": name, "arguments": {...}}``; the next observation
goes back as that call's tool result. When an ``answer`` call moves the episode
to the next round, the confirmation is the tool result and the new question
arrives as a user message. A reply without a tool call is taken as the answer to
the current round. After ``max_steps_per_round`` steps in a round the agent forces
an ``answer`` call (``tool_choice``) so one hard question cannot eat the episode.

All traffic goes through :mod:`medgym.llm` (retries, rate limits, cache, token
accounting). A transport failure propagates as ``LLMTransportError``: the episode
is an error, never a score.
"""

from __future__ import annotations

import json
import re
from typing import Any, TypedDict

from medgym.agents.llm_common import agent_client, call_model_graph, invoke_call_model, usage_summary
from medgym.llm import LLMClient

DEFAULT_SYSTEM_PROMPT = (
    "You are a clinical data analyst with read-only SQL access to an electronic health record database. "
    "A clinician asks a series of questions; later questions may refer to earlier answers ('of those', "
    "'their'). For each question: inspect the schema if needed (list_tables, describe_table), run SQL with "
    "run_sql (one statement per call, in the database's dialect), search free-text notes with search_notes, "
    "then call answer. In answer, put the exact result in 'values' (a list of rows, e.g. [[\"P0001\"], "
    "[\"P0002\"]] or [[12]]) or rely on your last run_sql result, and give a one- or two-sentence clinical "
    "interpretation in 'text'. Watch for messy data: mixed units, duplicates, NULLs and implausible values. "
    "If the database does not contain the information asked for, call answer with unanswerable=true and "
    "say so; never invent data."
)
FORCE_ANSWER = "You have used the step budget for this question. Call `answer` now with your best answer."


class _State(TypedDict):
    messages: list[dict[str, Any]]
    tools: list[dict[str, Any]] | None
    force_answer: bool


class SQLLLMAgent:
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
        max_steps_per_round: int = 10,
        client: LLMClient | None = None,
        **config: Any,
    ):
        self.client, self.meter = agent_client(
            client, model=model, base_url=base_url, api_key=api_key, temperature=temperature, seed=seed,
            max_tokens=max_tokens, **config,
        )
        self.system_prompt = system_prompt
        self.max_steps_per_round = max(2, int(max_steps_per_round))
        self.name = f"sql-llm:{self.client.config.model}"
        self.graph = call_model_graph(_State)
        self.reset()

    def call_model(self, state: _State) -> dict[str, Any]:
        tools = state["tools"] or None
        choice = {"type": "function", "function": {"name": "answer"}} if state["force_answer"] and tools else None
        res = self.client.chat(state["messages"], tools=tools, tool_choice=choice)
        msg = dict(res.message)
        if msg.get("tool_calls"):
            msg["tool_calls"] = msg["tool_calls"][:1]  # one tool call per environment step
        return {"messages": [*state["messages"], msg]}

    def reset(self) -> None:
        self.messages: list[dict[str, Any]] = []
        self._pending_tool_call: str | None = None
        self._tools: list[dict[str, Any]] | None = None
        self._round: int | None = None
        self.round_steps = 0
        self.steps = 0

    def _observe(self, observation: str, info: dict[str, Any]) -> None:
        if info.get("tools"):
            self._tools = info["tools"]
        new_round = info.get("round") != self._round and info.get("utterance") is not None
        if not self.messages:
            self.messages = [{"role": "system", "content": self.system_prompt},
                             {"role": "user", "content": observation}]
        elif self._pending_tool_call is not None:
            if new_round and info.get("tool") == "answer":
                head = observation.split("\n\n", 1)[0]
                self.messages.append({"role": "tool", "tool_call_id": self._pending_tool_call, "content": head})
                self.messages.append({"role": "user", "content": str(info.get("utterance"))})
            else:
                self.messages.append({"role": "tool", "tool_call_id": self._pending_tool_call, "content": observation})
            self._pending_tool_call = None
        else:
            self.messages.append({"role": "user", "content": observation})
        if new_round:
            self._round = info.get("round")
            self.round_steps = 0

    def act(self, observation: str, info: dict[str, Any]) -> str:
        self._observe(observation, info or {})
        self.steps += 1
        self.round_steps += 1
        force = self.round_steps >= self.max_steps_per_round
        if force:
            self.messages.append({"role": "user", "content": FORCE_ANSWER})
        out = invoke_call_model(self, {"messages": self.messages, "tools": self._tools, "force_answer": force})
        self.messages = out["messages"]
        last = self.messages[-1]
        calls = last.get("tool_calls") or []
        if calls:
            call = calls[0]
            self._pending_tool_call = call.get("id")
            fn = call.get("function", {})
            raw = fn.get("arguments", "{}")
            try:
                args = json.loads(raw) if isinstance(raw, str) and raw.strip() else (raw or {})
            except json.JSONDecodeError:
                # forward the raw text: the environment answers with a tool error the model can fix
                return json.dumps({"name": fn.get("name"), "arguments": raw})
            return json.dumps({"tool": fn.get("name"), "arguments": args}, ensure_ascii=False)
        text = last.get("content") or ""
        return json.dumps({"tool": "answer", "arguments": {"text": text, **_unanswerable_hint(text)}},
                          ensure_ascii=False)

    def token_usage(self) -> dict[str, int]:
        return usage_summary(self.meter)


def _unanswerable_hint(text: str) -> dict[str, Any]:
    """A plain-text reply that says the data lacks the answer becomes an explicit flag."""
    if re.search(r"\bunanswerable\b|not (?:available|recorded|stored) in the (?:data|database)", text, re.I):
        return {"unanswerable": True}
    return {}


def make_sql_llm_agent(**config: Any) -> SQLLLMAgent:
    """Factory for the agent registry."""
    return SQLLLMAgent(**config)
