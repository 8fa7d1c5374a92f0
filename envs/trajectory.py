"""The trajectory file: τ = [(u_t, y_t, facts released at t)] plus its Scenario.

One JSON document holds everything a judge needs (see docs/trajectory-format.md).
It is versioned: ``format`` names the document type and ``version`` its schema;
readers refuse a version they do not know instead of guessing. Files are written
atomically (temporary file + rename), so a crash never leaves half a trajectory.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from medgym.datafiles import format_validation_error
from medgym.envs.scenario import Scenario
from medgym.errors import TrajectoryFormatError

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


class Trajectory(BaseModel):
    model_config = ConfigDict(extra="forbid")

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

    def to_json(self, indent: int | None = 2) -> str:
        return self.model_dump_json(indent=indent)

    def save(self, path: str | Path) -> Path:
        return atomic_write_text(Path(path), self.to_json())

    @classmethod
    def from_dict(cls, data: Any, source: str = "<memory>") -> Trajectory:
        if not isinstance(data, dict):
            raise TrajectoryFormatError(f"{source}: expected a JSON object, found {type(data).__name__}")
        if data.get("format") != FORMAT_NAME:
            raise TrajectoryFormatError(
                f"{source}: field 'format' must be {FORMAT_NAME!r}, found {data.get('format')!r}"
            )
        if data.get("version") != FORMAT_VERSION:
            raise TrajectoryFormatError(
                f"{source}: unsupported trajectory version {data.get('version')!r}; this medgym reads version "
                f"{FORMAT_VERSION}"
            )
        try:
            return cls.model_validate(data)
        except ValidationError as exc:
            raise TrajectoryFormatError(f"{source}: " + "; ".join(format_validation_error(exc))) from exc

    @classmethod
    def load(cls, path: str | Path) -> Trajectory:
        p = Path(path)
        try:
            data = json.loads(p.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as exc:
            raise TrajectoryFormatError(f"{p}: cannot read trajectory JSON: {exc}") from exc
        return cls.from_dict(data, str(p))


def atomic_write_text(path: Path, text: str) -> Path:
    """Write ``text`` to ``path`` via a temporary file in the same directory and a rename."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path
