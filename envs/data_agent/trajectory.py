"""The DataAgent trajectory file (format ``medgym.data_agent.trajectory``, version 1).

One JSON document per episode: the task, the backend, and for each round the
user's utterance, every tool call with its (truncated) result, the answer and,
once a judge wrapper has run, its score. Documented in docs/data_agent.md.
Readers refuse an unknown version instead of guessing; files are written
atomically.
"""

from __future__ import annotations

from typing import Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field

from medgym.versioned import VersionedDocument

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


class DataAgentTrajectory(VersionedDocument):
    model_config = ConfigDict(extra="forbid")
    FORMAT_NAME: ClassVar[str] = FORMAT_NAME
    FORMAT_VERSION: ClassVar[int] = FORMAT_VERSION
    DOCUMENT_LABEL: ClassVar[str] = "DataAgent trajectory"

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
