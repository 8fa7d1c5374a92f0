"""Run configuration (pydantic): what grid to run, with which agents, judge and limits.

The config is written to the run's manifest; rerunning into the same directory with
a different grid is refused, because mixing two grids in one results file would
make the report silently wrong.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from medgym.envs.conditions import CONDITION_NAMES, parse_condition


class AgentSpec(BaseModel):
    """An agent to evaluate: a registered name or ``module:factory``, plus factory kwargs."""

    model_config = ConfigDict(extra="forbid")

    spec: str
    label: str | None = Field(None, description="Name in results and reports (default: the spec).")
    kwargs: dict[str, Any] = Field(default_factory=dict)

    @property
    def name(self) -> str:
        return self.label or self.spec


class CaseFilter(BaseModel):
    model_config = ConfigDict(extra="forbid")

    ids: list[str] | None = None
    specialty: str | None = None
    track: str | None = None
    difficulty: str | None = None


class RunConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")

    out: str = Field("runs/main", description="Run directory (results.jsonl, manifest.json, report/).")
    cases: CaseFilter = Field(default_factory=CaseFilter)
    conditions: list[str] = Field(default_factory=lambda: list(CONDITION_NAMES))
    agents: list[AgentSpec] = Field(default_factory=lambda: [AgentSpec(spec="careful"), AgentSpec(spec="sloppy")])
    seeds: list[int] = Field(default_factory=lambda: [0])
    repeats: int = Field(1, ge=1, description="k repeats per scenario, for pass^k.")
    mode: Literal["scripted", "interactive"] = "scripted"
    judge: str = "reference"
    judge_kwargs: dict[str, Any] = Field(default_factory=dict)
    concurrency: int = Field(8, ge=1, description="Episodes in flight, over all worker processes.")
    workers: int | Literal["auto"] = Field(
        1, description="Worker processes (fork, Linux): 1 runs everything in this process, 'auto' one per core.")
    start_interval_s: float = Field(
        0.005, ge=0, le=10,
        description="Ramp-up: the first wave of episodes starts this many seconds apart, so their LLM "
                    "requests do not travel in lockstep (0: all at once).")
    max_episode_steps: int = Field(16, ge=1)
    retry_unscored: bool = Field(True, description="Rerun episodes whose judging failed (unscored).")
    save_trajectories: bool = Field(True, description="Embed the full trajectory in each result line.")

    @field_validator("workers")
    @classmethod
    def _workers(cls, v: int | str) -> int | str:
        if isinstance(v, int) and v < 1:
            raise ValueError(f"expected workers >= 1 or 'auto', got {v}")
        return v

    @field_validator("conditions")
    @classmethod
    def _canon(cls, v: list[str]) -> list[str]:
        names = [parse_condition(c).name for c in v]
        if len(set(names)) != len(names):
            raise ValueError(f"conditions listed twice: {names}")
        return names

    @field_validator("agents", mode="before")
    @classmethod
    def _agents(cls, v: Any) -> Any:
        return [{"spec": a} if isinstance(a, str) else a for a in v]

    def grid_fingerprint(self) -> dict[str, Any]:
        """The fields that define the grid; a resumed run must match them exactly."""
        return self.model_dump(include={"cases", "conditions", "seeds", "repeats", "mode", "judge", "judge_kwargs",
                                        "max_episode_steps"}) | {
            "agents": [{"name": a.name, "spec": a.spec} for a in self.agents]
        }
