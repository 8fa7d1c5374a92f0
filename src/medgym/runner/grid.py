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


def longest_first(specs: list[EpisodeSpec], bank: CaseBank) -> list[EpisodeSpec]:
    """The same episodes, longest planned dialogue first (stable otherwise).

    A batch's wall time is set by its slowest worker slot, not by the mean episode. With
    episodes in grid order, a slot that draws two long (delayed-evidence) dialogues in a
    row finishes a whole turn or two after the others, which costs ~15% of throughput
    on a 64-scenario run at concurrency 32. Starting the longest first (the classic LPT
    rule for makespan) lets the short ones fill the gaps at the end. The planned length
    is the compiled scenario's number of turns (exact in scripted mode, a lower bound in
    interactive mode); compiling costs ~0.1 ms per distinct scenario.
    """
    from medgym.envs.compiler import compile_scenario

    turns: dict[tuple[str, str, int], int] = {}

    def planned(s: EpisodeSpec) -> int:
        key = (s.case_id, s.condition, s.seed)
        if key not in turns:
            turns[key] = compile_scenario(bank.get(s.case_id), s.condition, s.seed).num_turns
        return turns[key]

    return sorted(specs, key=lambda s: -planned(s))
