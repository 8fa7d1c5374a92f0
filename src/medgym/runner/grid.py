"""The episode grid: cases x conditions x agents x seeds x repeats, each with a stable key."""

from __future__ import annotations

from dataclasses import dataclass

from medgym.knowledge_base.case_bank import CaseBank
from medgym.runner.config import AgentSpec, RunConfig


@dataclass(frozen=True)
class EpisodeSpec:
    case_id: str
    condition: str
    agent: AgentSpec
    seed: int
    repeat: int

    @property
    def key(self) -> str:
        """Stable identity of an episode in results.jsonl (resume skips finished keys)."""
        return f"{self.case_id}|{self.condition}|{self.agent.name}|s{self.seed}|r{self.repeat}"

    @property
    def env_seed(self) -> int:
        """Seed for env.reset: differs between repeats so stochastic agents get fresh draws."""
        return self.seed * 1000 + self.repeat


def build_grid(config: RunConfig, bank: CaseBank) -> list[EpisodeSpec]:
    f = config.cases
    cases = bank.filter(ids=f.ids, specialty=f.specialty, track=f.track, difficulty=f.difficulty)
    return [
        EpisodeSpec(c.id, cond, agent, seed, r)
        for agent in config.agents
        for c in cases
        for cond in config.conditions
        for seed in config.seeds
        for r in range(config.repeats)
    ]
