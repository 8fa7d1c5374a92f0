"""Agents by name: a registry with did-you-mean, plus ``module:factory`` for a user's own agent.

Factories take keyword configuration and return a fresh Policy; the batch runner
builds one policy per episode, so agents never share conversation state.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from medgym.agents.base import Policy, as_policy
from medgym.errors import MedgymError
from medgym.registry import Registry

AgentFactory = Callable[..., Any]
AGENTS: Registry[AgentFactory] = Registry("agent")


def register_agent(name: str) -> Callable[[AgentFactory], AgentFactory]:
    return AGENTS.decorator(name)


def _load_builtins() -> None:
    # Imported lazily so `import medgym.agents.registry` stays cheap.
    from medgym.agents import builtin  # noqa: F401


def resolve_factory(spec: str) -> AgentFactory:
    """A registered name, or ``package.module:factory``."""
    if ":" in spec:
        mod_name, _, attr = spec.partition(":")
        try:
            module = importlib.import_module(mod_name)
        except ImportError as exc:
            raise MedgymError(f"cannot import agent module {mod_name!r} from {spec!r}: {exc}") from exc
        try:
            return getattr(module, attr)
        except AttributeError:
            raise MedgymError(f"module {mod_name!r} has no attribute {attr!r} (from agent spec {spec!r})") from None
    if len(AGENTS) == 0:
        _load_builtins()
    return AGENTS.get(spec)


def make_agent(spec: str, **config: Any) -> Policy:
    """Build a fresh policy from a name or ``module:factory`` spec."""
    return as_policy(resolve_factory(spec)(**config))


def agent_names() -> list[str]:
    if len(AGENTS) == 0:
        _load_builtins()
    return AGENTS.names()
