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
import threading
from typing import Any

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
