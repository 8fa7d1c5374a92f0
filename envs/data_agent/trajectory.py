"""The DataAgent trajectory file (format ``medgym.data_agent.trajectory``, version 1).

One JSON document per episode: the task, the backend, and for each round the
user's utterance, every tool call with its (truncated) result, the answer and,
once a judge wrapper has run, its score. Documented in docs/data_agent.md.
Readers refuse an unknown version instead of guessing; files are written
atomically.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from medgym.datafiles import format_validation_error
from medgym.envs.trajectory import atomic_write_text
from medgym.errors import TrajectoryFormatError

FORMAT_NAME = "medgym.data_agent.trajectory"
FORMAT_VERSION = 1


class ToolCallRecord(BaseModel):
    model_config = ConfigDict(extra="forbid")

    step: int = Field(ge=1, description="1-based environment step of this call.")
    tool: str | None = Field(description="Tool name, or null when the action could not be parsed.")
    arguments: dict[str, Any] = Field(default_factory=dict)
    ok: bool
    error_category: str | None = None
    observation: str = Field(description="What the agent saw (truncated to 4000 characters).")
    elapsed_ms: float = 0.0
    n_rows: int | None = None


class AnswerRecord(BaseModel):
    model_config = ConfigDict(extra="forbid")

    step: int
    text: str
    values: Any = None
    sql: str | None = None
    unanswerable: bool = False
    unanswerable_flag: bool | None = Field(None, description="The flag as the agent sent it (null = not sent).")
    source: Literal["values", "sql", "last_result", "text", "flag", "none"]
    columns: list[str] = Field(default_factory=list)
    rows: list[list[Any]] = Field(default_factory=list)


class RoundRecord(BaseModel):
    model_config = ConfigDict(extra="forbid")

    index: int = Field(ge=1)
    utterance: str
    kinds: list[str] = Field(default_factory=list)
    tool_calls: list[ToolCallRecord] = Field(default_factory=list)
    answer: AnswerRecord | None = None
    score: dict[str, Any] | None = Field(None, description="Filled in by the judge wrapper.")


class DataAgentTrajectory(BaseModel):
    model_config = ConfigDict(extra="forbid")

    format: Literal["medgym.data_agent.trajectory"] = FORMAT_NAME
    version: Literal[1] = FORMAT_VERSION
    env_id: str = "medgym/DataAgent-v0"
    task_id: str
    task_title: str
    backend: str
    dialect: str
    url: str
    gold_source: Literal["stored", "execute"]
    seed: int | None = None
    rounds: list[RoundRecord]
    steps: int = 0
    terminated: bool = False
    truncated: bool = False
    agent: str | None = None
    summary: dict[str, Any] | None = Field(None, description="Episode metrics from the judge wrapper.")

    def to_json(self, indent: int | None = 2) -> str:
        return self.model_dump_json(indent=indent)

    def save(self, path: str | Path) -> Path:
        return atomic_write_text(Path(path), self.to_json())

    @classmethod
    def from_dict(cls, data: Any, source: str = "<memory>") -> DataAgentTrajectory:
        if not isinstance(data, dict):
            raise TrajectoryFormatError(f"{source}: expected a JSON object, found {type(data).__name__}")
        if data.get("format") != FORMAT_NAME:
            raise TrajectoryFormatError(
                f"{source}: field 'format' must be {FORMAT_NAME!r}, found {data.get('format')!r}"
            )
        if data.get("version") != FORMAT_VERSION:
            raise TrajectoryFormatError(
                f"{source}: unsupported DataAgent trajectory version {data.get('version')!r}; "
                f"this medgym reads version {FORMAT_VERSION}"
            )
        try:
            return cls.model_validate(data)
        except ValidationError as exc:
            raise TrajectoryFormatError(f"{source}: " + "; ".join(format_validation_error(exc))) from exc

    @classmethod
    def load(cls, path: str | Path) -> DataAgentTrajectory:
        p = Path(path)
        try:
            data = json.loads(p.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as exc:
            raise TrajectoryFormatError(f"{p}: cannot read trajectory JSON: {exc}") from exc
        return cls.from_dict(data, str(p))
