"""LLM RAG agent: any OpenAI-compatible chat model driving the RAGAgent tools.

A compiled LangGraph graph with one ``call_model`` node over the conversation.
The environment's tool schemas (``info["tools"]``) are bound to every request; the
model's tool call becomes the action ``{"tool": name, "arguments": {...}}`` and the
next observation goes back as the tool result. A reply without a tool call is
taken as the final answer, with cited ids read from ``[doc-id]`` markers. One step
before the budget runs out the agent forces an ``answer`` call (``tool_choice``).

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
    "You answer clinical questions from a medical knowledge base, using only the tools provided. "
    "Search (rewrite the query or use filters when useful), rerank and read the most relevant documents, then "
    "call `answer` with a concise answer and the ids of the documents that support each claim. "
    "Base every statement on a document you read. When documents conflict, follow the newer or "
    "higher-evidence source and say that it supersedes or outweighs the other, or, when neither is clearly "
    "better, state the disagreement openly and cite both. If the knowledge base does not contain the "
    "answer, say that it does not and cite nothing."
)
FORCE_ANSWER = "You are about to run out of steps. Call `answer` now with your best answer and citations."
_CITE = re.compile(r"\[([a-z0-9]+(?:-[a-z0-9]+)*)\]")


class _State(TypedDict):
    messages: list[dict[str, Any]]
    tools: list[dict[str, Any]] | None
    force_answer: bool


class RAGLLMAgent:
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
        max_steps: int = 30,
        client: LLMClient | None = None,
        **config: Any,
    ):
        self.client, self.meter = agent_client(
            client, model=model, base_url=base_url, api_key=api_key, temperature=temperature, seed=seed,
            max_tokens=max_tokens, **config,
        )
        self.system_prompt = system_prompt
        self.max_steps = max_steps
        self.name = f"rag-llm:{self.client.config.model}"
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
        self.steps = 0

    def act(self, observation: str, info: dict[str, Any]) -> str:
        if info.get("tools"):
            self._tools = info["tools"]
        if not self.messages:
            self.messages = [{"role": "system", "content": self.system_prompt}]
            self.messages.append({"role": "user", "content": _question_text(observation)})
        elif self._pending_tool_call is not None:
            self.messages.append({"role": "tool", "tool_call_id": self._pending_tool_call, "content": observation})
            self._pending_tool_call = None
        else:
            self.messages.append({"role": "user", "content": observation})
        self.steps += 1
        force = self.steps >= self.max_steps - 1
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
        return json.dumps({"tool": "answer", "arguments": {"text": text, "cited_ids": list(dict.fromkeys(_CITE.findall(text)))}}, ensure_ascii=False)

    def token_usage(self) -> dict[str, int]:
        return usage_summary(self.meter)


def _question_text(observation: str) -> str:
    try:
        obs = json.loads(observation)
    except (json.JSONDecodeError, TypeError):
        return str(observation)
    if isinstance(obs, dict) and obs.get("type") == "question":
        return f"Question ({obs.get('question_id')}): {obs.get('question')}"
    return observation


def make_llm_agent(**config: Any) -> RAGLLMAgent:
    """Factory for the agent registry (``rag-llm``)."""
    return RAGLLMAgent(**config)
