"""The trajectory file: τ = [(u_t, y_t, facts released at t)] plus its Scenario.

One JSON document holds everything a judge needs (see docs/trajectory-format.md).
It is versioned: ``format`` names the document type and ``version`` its schema;
readers refuse a version they do not know instead of guessing. Files are written
atomically (temporary file + rename), so a crash never leaves half a trajectory.
"""

from __future__ import annotations

from typing import Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field

from medgym.envs.scenario import Scenario
from medgym.versioned import VersionedDocument, atomic_write_text  # noqa: F401  (re-exported)

FORMAT_NAME = "medgym.trajectory"
FORMAT_VERSION = 1


class TrajectoryTurn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    index: int = Field(ge=1, description="1-based turn index t.")
    user: str = Field(
        description="u_t exactly as the agent saw it (scripted text plus any responder answers)."
    )
    agent: str = Field(description="y_t, the agent's reply.")
    released_facts: list[str] = Field(description="Fact ids first shown to the agent in u_t.")
    injected_contradictions: list[str] = Field(default_factory=list)
    scripted: bool = Field(True, description="False for extra interactive turns after the schedule ran out.")
    responder_events: list[dict[str, Any]] = Field(
        default_factory=list, description="How the responder read the previous reply (interactive mode)."
    )


class Trajectory(VersionedDocument):
    model_config = ConfigDict(extra="forbid")
    FORMAT_NAME: ClassVar[str] = FORMAT_NAME
    FORMAT_VERSION: ClassVar[int] = FORMAT_VERSION

    format: Literal["medgym.trajectory"] = FORMAT_NAME
    version: Literal[1] = FORMAT_VERSION
    env_id: str = "medgym/StressedDialogue-v0"
    mode: Literal["scripted", "interactive"]
    scenario: Scenario
    turns: list[TrajectoryTurn]
    terminated: bool = False
    truncated: bool = False
    agent: str | None = Field(None, description="Free-form name of the policy, for reports.")

    @property
    def final_response(self) -> str:
        return self.turns[-1].agent if self.turns else ""

    def released_by(self, turn: int) -> set[str]:
        """R_t as the agent actually experienced it (scripted releases plus responder releases)."""
        out: set[str] = set()
        for tt in self.turns:
            if tt.index <= turn:
                out.update(tt.released_facts)
        return out
