"""The RAGAgent tools: JSON schemas (OpenAI function-calling format), argument models, action parsing.

An action is JSON text naming one tool call::

    {"tool": "search", "arguments": {"query": "...", "k": 5, "filters": {"year_min": 2020}}}

The OpenAI shapes ``{"name": ..., "arguments": "<json string>"}`` and
``{"type": "function", "function": {...}}`` are accepted too, so an LLM's tool call
can be forwarded unchanged. Arguments are validated by strict pydantic models; any
problem becomes an :class:`~medgym.errors.ActionError` whose message the
environment returns to the agent as a tool error (the episode goes on).
"""

from __future__ import annotations

import copy
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from medgym.envs.tool_calls import parse_tool_call, tool_call, validate_tool_arguments  # noqa: F401
from medgym.knowledge_base.rag.retriever import SEARCH_MODES
from medgym.knowledge_base.rag.schema import EvidenceLevel, SourceType

MAX_K = 20
DEFAULT_K = 5
MAX_RERANK_IDS = 30
MAX_CITED_IDS = 20
MAX_ANSWER_CHARS = 8000


class _Args(BaseModel):
    model_config = ConfigDict(extra="forbid")


class RewriteArgs(_Args):
    query: str


class SearchArgs(_Args):
    query: str
    k: int = Field(DEFAULT_K, ge=1, le=MAX_K)
    filters: dict[str, Any] | None = None
    mode: str = "hybrid"


class RerankArgs(_Args):
    query: str
    doc_ids: list[str] = Field(min_length=1, max_length=MAX_RERANK_IDS)


class ReadArgs(_Args):
    id: str


class AnswerArgs(_Args):
    text: str = Field(max_length=MAX_ANSWER_CHARS)
    cited_ids: list[str] = Field(default_factory=list, max_length=MAX_CITED_IDS)


ARG_MODELS: dict[str, type[_Args]] = {
    "rewrite_query": RewriteArgs,
    "search": SearchArgs,
    "rerank": RerankArgs,
    "read_document": ReadArgs,
    "answer": AnswerArgs,
}

_FILTER_SCHEMA = {
    "type": "object",
    "description": "Optional metadata filters; list fields match any listed value.",
    "properties": {
        "year_min": {"type": "integer", "description": "earliest publication year (inclusive)"},
        "year_max": {"type": "integer", "description": "latest publication year (inclusive)"},
        "source_type": {
            "type": "array",
            "items": {"type": "string", "enum": [s.value for s in SourceType]},
        },
        "specialty": {"type": "array", "items": {"type": "string"}, "description": "e.g. cardiology"},
        "evidence_level": {
            "type": "array",
            "items": {"type": "string", "enum": [e.value for e in EvidenceLevel]},
        },
    },
    "additionalProperties": False,
}


def _fn(name: str, description: str, properties: dict[str, Any], required: list[str]) -> dict[str, Any]:
    return {
        "type": "function",
        "function": {
            "name": name,
            "description": description,
            "parameters": {"type": "object", "properties": properties, "required": required, "additionalProperties": False},
        },
    }


TOOLS: list[dict[str, Any]] = [
    _fn(
        "rewrite_query",
        "Normalise a query and expand clinical abbreviations both ways (HFrEF <-> heart failure with reduced "
        "ejection fraction). Returns the rewritten query to pass to search.",
        {"query": {"type": "string"}},
        ["query"],
    ),
    _fn(
        "search",
        "Search the medical knowledge base. Returns the top-k documents (id, title, source type, issuing body, "
        "year, evidence level, specialty, score and the best-matching passage). mode: hybrid (dense MiniLM + BM25, "
        "default), dense or lexical.",
        {
            "query": {"type": "string"},
            "k": {"type": "integer", "minimum": 1, "maximum": MAX_K, "default": DEFAULT_K},
            "filters": _FILTER_SCHEMA,
            "mode": {"type": "string", "enum": list(SEARCH_MODES), "default": "hybrid"},
        },
        ["query"],
    ),
    _fn(
        "rerank",
        "Re-rank candidate documents against a query (passage-level MiniLM similarity plus term overlap). "
        f"At most {MAX_RERANK_IDS} ids.",
        {"query": {"type": "string"}, "doc_ids": {"type": "array", "items": {"type": "string"}}},
        ["query", "doc_ids"],
    ),
    _fn(
        "read_document",
        "Read a document in full, with its metadata (publication year, version, evidence level, which documents "
        "it supersedes and which newer documents supersede it).",
        {"id": {"type": "string"}},
        ["id"],
    ),
    _fn(
        "answer",
        "Give the final answer and the ids of the documents that support it. Ends the episode. If the knowledge "
        "base does not contain the answer, say so and cite nothing. When sources conflict, follow the newer or "
        "higher-evidence source and say why, or state the disagreement openly.",
        {
            "text": {"type": "string"},
            "cited_ids": {"type": "array", "items": {"type": "string"}},
        },
        ["text", "cited_ids"],
    ),
]
TOOL_NAMES = [t["function"]["name"] for t in TOOLS]


def tool_schemas() -> list[dict[str, Any]]:
    """A fresh copy of the tool schemas (reset's ``info["tools"]``)."""
    return copy.deepcopy(TOOLS)


EXAMPLE_ACTION = '{"tool": "search", "arguments": {"query": "..."}}'


def parse_action(action: str) -> tuple[str, dict[str, Any]]:
    """``(tool name, raw arguments)`` from an action string; ActionError on any malformation."""
    return parse_tool_call(action, TOOL_NAMES, EXAMPLE_ACTION)


def validate_arguments(name: str, args: dict[str, Any]) -> _Args:
    return validate_tool_arguments(ARG_MODELS, name, args, missing="required")  # type: ignore[return-value]
