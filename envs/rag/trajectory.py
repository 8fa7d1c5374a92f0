"""The RAGAgent trajectory file: every tool call, its result, and the final answer.

One JSON document per episode, versioned like the other medgym trajectories:
``format`` names the document type (``medgym.rag_trajectory``) and ``version`` its
schema; a reader refuses a version it does not know instead of guessing. The
judge needs nothing else: :meth:`RAGTrajectory.episode_record` rebuilds what the
scorer reads (cited ids, every result list in order, documents read). Files are
written atomically. See docs/rag_agent.md for the field reference.
"""

from __future__ import annotations

from typing import Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field

from medgym.judges.rag_scoring import EpisodeRecord
from medgym.versioned import VersionedDocument

FORMAT_NAME = "medgym.rag_trajectory"
FORMAT_VERSION = 1


class RAGStep(BaseModel):
    model_config = ConfigDict(extra="forbid")

    index: int = Field(ge=1, description="1-based step number.")
    action: str = Field(description="The action text exactly as the agent sent it.")
    tool: str | None = Field(None, description="Tool called; None when the action could not be parsed.")
    arguments: dict[str, Any] = Field(default_factory=dict, description="Validated arguments (after defaults).")
    ok: bool = Field(description="False when the call produced a tool error.")
    result: dict[str, Any] | None = Field(None, description="Tool result (what the observation carried).")
    error: str | None = None
    result_ids: list[str] = Field(default_factory=list, description="Document ids returned, in rank order.")


class RAGAnswer(BaseModel):
    model_config = ConfigDict(extra="forbid")

    text: str
    cited_ids: list[str]


class RAGTrajectory(VersionedDocument):
    model_config = ConfigDict(extra="forbid")
    FORMAT_NAME: ClassVar[str] = FORMAT_NAME
    FORMAT_VERSION: ClassVar[int] = FORMAT_VERSION
    DOCUMENT_LABEL: ClassVar[str] = "RAG trajectory"

    format: Literal["medgym.rag_trajectory"] = FORMAT_NAME
    version: Literal[1] = FORMAT_VERSION
    env_id: str = "medgym/RAGAgent-v0"
    question_id: str
    question: str
    kb_content_hash: str
    steps: list[RAGStep]
    answer: RAGAnswer | None = None
    terminated: bool = False
    truncated: bool = False
    agent: str | None = Field(None, description="Free-form name of the policy, for reports.")

    def episode_record(self) -> EpisodeRecord:
        lists = [s.result_ids for s in self.steps if s.ok and s.tool in ("search", "rerank")]
        read = [s.result_ids[0] for s in self.steps if s.ok and s.tool == "read_document" and s.result_ids]
        return EpisodeRecord(
            question_id=self.question_id,
            answer=self.answer.text if self.answer else "",
            cited=list(self.answer.cited_ids) if self.answer else [],
            result_lists=lists,
            read=read,
            answered=self.answer is not None,
        )
