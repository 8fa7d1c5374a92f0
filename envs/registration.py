"""Gymnasium registration of every medgym environment id.

Ids are versioned (``medgym/Name-vN``): bump N whenever the observation, action or
reward semantics change. Entry points are strings, so registering imports nothing
heavy. ``max_episode_steps`` is the turn budget; Gymnasium's TimeLimit turns it into
``truncated`` (never ``terminated``).
"""

from __future__ import annotations

import gymnasium

ENV_SPECS: list[dict] = [
    {
        "id": "medgym/StressedDialogue-v0",
        "entry_point": "medgym.envs.stressed_dialogue:StressedDialogueEnv",
        "max_episode_steps": 16,
    },
    {
        "id": "medgym/DataAgent-v0",
        "entry_point": "medgym.envs.data_agent.env:DataAgentEnv",
        "max_episode_steps": 60,
    },
    {
        "id": "medgym/RAGAgent-v0",
        "entry_point": "medgym.envs.rag.env:RAGAgentEnv",
        "max_episode_steps": 30,
    },
]


def register_envs() -> list[str]:
    """Register every id once (idempotent: re-importing medgym is harmless)."""
    ids = []
    for spec in ENV_SPECS:
        if spec["id"] not in gymnasium.registry:
            gymnasium.register(**spec)
        ids.append(spec["id"])
    return ids
