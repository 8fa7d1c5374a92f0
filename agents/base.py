"""The policy protocol: anything with ``act(observation, info) -> action``.

Researchers plug their own policy into an ``env.step`` loop, so the interface is as
small as it can be: ``act`` plus an optional ``reset``. A plain function
``f(observation, info) -> str`` works too, through :func:`as_policy`. LangGraph
agents in this package are compiled ``StateGraph``s behind this same protocol.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol, runtime_checkable

from medgym.errors import MedgymError


@runtime_checkable
class Policy(Protocol):
    def act(self, observation: str, info: dict[str, Any]) -> str: ...


class FunctionPolicy:
    """Adapts ``f(observation, info) -> str`` to the Policy protocol."""

    def __init__(self, fn: Callable[[str, dict[str, Any]], str], name: str | None = None):
        self.fn = fn
        self.name = name or getattr(fn, "__name__", "function")

    def act(self, observation: str, info: dict[str, Any]) -> str:
        return self.fn(observation, info)

    def reset(self) -> None:
        return None


def as_policy(obj: Any) -> Policy:
    """Return ``obj`` as a Policy (objects with ``act`` pass through; callables are wrapped)."""
    if hasattr(obj, "act") and callable(obj.act):
        return obj
    if callable(obj):
        return FunctionPolicy(obj)
    raise MedgymError(f"expected a policy (an object with act(observation, info) or a callable), got {type(obj).__name__}")


def reset_policy(policy: Any) -> None:
    """Call ``policy.reset()`` when the policy has one (it is optional)."""
    fn = getattr(policy, "reset", None)
    if callable(fn):
        fn()


def usage_of(policy: Any) -> dict[str, int]:
    """Token usage a policy reports (LLM agents expose ``usage``); zeros for offline agents."""
    u = getattr(policy, "token_usage", None)
    if callable(u):
        return dict(u())
    return {"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0, "requests": 0}
