"""What every LLM agent shares: how it gets its client and meters its tokens.

The batch runner builds a fresh agent per episode. Each agent gets a *view* of one
process-wide ``LLMClient`` per distinct configuration (``with_meter``): views share the
``openai`` client, its connection pool, the endpoint limits and the disk cache, while
each episode counts its own tokens. Building a fresh ``openai`` client per episode
would reload the TLS trust store (about 20 ms of CPU under the GIL) and drop pooled
connections.
"""

from __future__ import annotations

import functools
import json
import threading
from typing import Any, TypedDict

from langchain_core.runnables import RunnableConfig

from medgym.llm import LLMClient, LLMConfig, UsageMeter

_CLIENTS: dict[str, LLMClient] = {}
_CLIENTS_LOCK = threading.Lock()


def shared_client(config: LLMConfig) -> LLMClient:
    """One LLMClient per distinct config and process."""
    key = config.model_dump_json() + "|" + (config.api_key or "")
    with _CLIENTS_LOCK:
        client = _CLIENTS.get(key)
        if client is None:
            client = _CLIENTS[key] = LLMClient(config)
        return client


def agent_client(client: LLMClient | None = None, **settings: Any) -> tuple[LLMClient, UsageMeter]:
    """A per-agent view of the shared client and the meter it records into.

    ``settings`` are LLMConfig fields (model, base_url, api_key, temperature, seed,
    max_tokens, timeout, ...); None values fall back to the environment (OPENAI_*).
    """
    meter = UsageMeter()
    if client is None:
        overrides = {k: v for k, v in settings.items() if v is not None}
        client = shared_client(LLMConfig.from_env(role="agent", **overrides))
    return client.with_meter(meter), meter


USAGE_KEYS = ("prompt_tokens", "completion_tokens", "total_tokens", "requests", "cached")


def usage_summary(meter: UsageMeter) -> dict[str, int]:
    """The agent-role token counts the runner records per episode (``Policy.token_usage``)."""
    u = meter.role("agent")
    return {k: u.get(k, 0) for k in USAGE_KEYS}


def _call_model_node(state: dict[str, Any], config: RunnableConfig) -> dict[str, Any]:
    # LangGraph passes the run config only to nodes whose parameter is typed RunnableConfig
    return config["configurable"]["agent"].call_model(state)


@functools.cache
def call_model_graph(state_type: type) -> Any:
    """The compiled one-node ``call_model`` graph for ``state_type``, built once per process.

    The LLM agents are single-node LangGraph graphs whose node is the agent's own
    ``call_model(state)``. The runner builds one agent per episode, and compiling a
    graph per agent costs about a millisecond of CPU under the GIL; so the graph is
    shared and the agent travels in the run config (see :func:`invoke_call_model`).
    """
    from langgraph.graph import END, START, StateGraph

    g = StateGraph(state_type)
    g.add_node("call_model", _call_model_node)
    g.add_edge(START, "call_model")
    g.add_edge("call_model", END)
    return g.compile()


def invoke_call_model(agent: Any, state: dict[str, Any]) -> dict[str, Any]:
    """Run ``agent.graph`` (a :func:`call_model_graph`) on ``state`` with ``agent`` as its node."""
    return agent.graph.invoke(state, config={"configurable": {"agent": agent}})


class ToolLoopState(TypedDict):
    """State of the one-node graph: the conversation, the tool schemas, and whether to force ``answer``."""

    messages: list[dict[str, Any]]
    tools: list[dict[str, Any]] | None
    force_answer: bool


def tool_call_action(call: dict[str, Any]) -> str:
    """An OpenAI tool call as an environment action ``{"tool": name, "arguments": {...}}``.

    Arguments that are not valid JSON are forwarded raw in the OpenAI shape
    (``{"name": ..., "arguments": "<text>"}``): the environment answers with a tool
    error the model can read and fix, instead of the agent guessing.
    """
    fn = call.get("function", {})
    raw = fn.get("arguments", "{}")
    try:
        args = json.loads(raw) if isinstance(raw, str) and raw.strip() else (raw or {})
    except json.JSONDecodeError:
        return json.dumps({"name": fn.get("name"), "arguments": raw})
    return json.dumps({"tool": fn.get("name"), "arguments": args}, ensure_ascii=False)


class ToolCallingLLMAgent:
    """The loop every LLM agent shares: one model call per environment step.

    A tool result goes back as a ``tool`` message answering the pending call, anything
    else as a ``user`` message; the model's tool call (at most one per step, since an
    environment step executes one action) becomes the action; ``force_answer`` pins
    ``tool_choice`` to the ``answer`` tool when the step budget runs out. Subclasses
    decide what a plain-text reply means (:meth:`text_action`) and may override how an
    observation enters the conversation (:meth:`observe`).
    """

    name_prefix = "llm"
    default_system_prompt = ""

    def __init__(
        self,
        model: str | None = None,
        base_url: str | None = None,
        api_key: str | None = None,
        temperature: float | None = None,
        seed: int | None = None,
        max_tokens: int | None = None,
        system_prompt: str | None = None,
        client: LLMClient | None = None,
        **config: Any,
    ):
        self.client, self.meter = agent_client(
            client, model=model, base_url=base_url, api_key=api_key, temperature=temperature, seed=seed,
            max_tokens=max_tokens, **config,
        )
        self.system_prompt = self.default_system_prompt if system_prompt is None else system_prompt
        self.name = f"{self.name_prefix}:{self.client.config.model}"
        self.graph = call_model_graph(ToolLoopState)
        self.reset()

    def reset(self) -> None:
        self.messages: list[dict[str, Any]] = []
        self._pending_tool_call: str | None = None
        self._tools: list[dict[str, Any]] | None = None

    def call_model(self, state: ToolLoopState) -> dict[str, Any]:
        tools = state["tools"] or None
        choice = {"type": "function", "function": {"name": "answer"}} if state["force_answer"] and tools else None
        res = self.client.chat(state["messages"], tools=tools, tool_choice=choice)
        msg = dict(res.message)
        if msg.get("tool_calls"):
            msg["tool_calls"] = msg["tool_calls"][:1]  # one tool call per environment step
        return {"messages": [*state["messages"], msg]}

    def observe(self, observation: str, info: dict[str, Any]) -> None:
        """Add the observation to the conversation (system prompt first)."""
        if info.get("tools"):
            self._tools = info["tools"]
        if not self.messages:
            self.messages = [{"role": "system", "content": self.system_prompt}]
        if self._pending_tool_call is not None:
            self.add_tool_result(observation)
        else:
            self.messages.append({"role": "user", "content": observation})

    def add_tool_result(self, content: str) -> None:
        self.messages.append({"role": "tool", "tool_call_id": self._pending_tool_call, "content": content})
        self._pending_tool_call = None

    def step(self, *, force_answer: bool = False, force_message: str = "") -> str:
        """Call the model once on the conversation and turn its reply into an action."""
        if force_answer and force_message:
            self.messages.append({"role": "user", "content": force_message})
        out = invoke_call_model(self, {"messages": self.messages, "tools": self._tools, "force_answer": force_answer})
        self.messages = out["messages"]
        last = self.messages[-1]
        calls = last.get("tool_calls") or []
        if calls:
            self._pending_tool_call = calls[0].get("id")
            return tool_call_action(calls[0])
        return self.text_action(last.get("content") or "")

    def text_action(self, text: str) -> str:
        """The action for a reply without a tool call: the text itself, by default."""
        return text

    def token_usage(self) -> dict[str, int]:
        return usage_summary(self.meter)
