"""Metadata filters of the search tool: publication year range, source type, specialty, evidence level.

One pydantic model validates what an agent sends (unknown keys and impossible
values are rejected with a message the agent can act on), and translates it both
into a chroma ``where`` clause for dense search and into a boolean mask over the
passages for BM25, so the two retrievers always filter identically.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from medgym.errors import ActionError
from medgym.knowledge_base.rag.schema import EvidenceLevel, SourceType

FILTER_KEYS = ("year_min", "year_max", "source_type", "specialty", "evidence_level")


def _as_list(v: object) -> object:
    if v is None:
        return None
    if isinstance(v, str):
        return [v]
    return v


class SearchFilters(BaseModel):
    """Every field is optional; list fields match any of the listed values."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    year_min: int | None = Field(default=None, ge=1900, le=2100, description="earliest publication year (inclusive)")
    year_max: int | None = Field(default=None, ge=1900, le=2100, description="latest publication year (inclusive)")
    source_type: list[SourceType] | None = Field(default=None, description="one or more source types")
    specialty: list[str] | None = Field(default=None, description="one or more specialties, e.g. cardiology")
    evidence_level: list[EvidenceLevel] | None = Field(default=None, description="one or more evidence levels")

    @field_validator("source_type", "specialty", "evidence_level", mode="before")
    @classmethod
    def _lists(cls, v: object) -> object:
        return _as_list(v)

    @field_validator("specialty")
    @classmethod
    def _lower(cls, v: list[str] | None) -> list[str] | None:
        return [s.strip().lower() for s in v] if v is not None else None

    @model_validator(mode="after")
    def _range(self) -> SearchFilters:
        if self.year_min is not None and self.year_max is not None and self.year_min > self.year_max:
            raise ValueError(f"year_min ({self.year_min}) is after year_max ({self.year_max})")
        return self

    @classmethod
    def parse(cls, raw: Any) -> SearchFilters:
        """Validate agent input; raises ActionError with one readable line per problem."""
        if raw is None:
            return cls()
        if isinstance(raw, SearchFilters):
            return raw
        if not isinstance(raw, dict):
            raise ActionError(f"filters must be an object with keys {list(FILTER_KEYS)}, got {type(raw).__name__}")
        try:
            return cls.model_validate(raw)
        except ValidationError as exc:
            probs = []
            for err in exc.errors(include_url=False):
                loc = ".".join(str(p) for p in err.get("loc", ())) or "filters"
                probs.append(f"{loc}: {err.get('msg')}")
            raise ActionError("invalid filters: " + "; ".join(probs) + f" (valid keys: {', '.join(FILTER_KEYS)})") from None

    def is_empty(self) -> bool:
        return all(getattr(self, k) is None for k in FILTER_KEYS)

    def chroma_where(self) -> dict[str, Any] | None:
        clauses: list[dict[str, Any]] = []
        if self.year_min is not None:
            clauses.append({"publication_year": {"$gte": self.year_min}})
        if self.year_max is not None:
            clauses.append({"publication_year": {"$lte": self.year_max}})
        if self.source_type:
            clauses.append({"source_type": {"$in": [s.value for s in self.source_type]}})
        if self.specialty:
            clauses.append({"specialty": {"$in": list(self.specialty)}})
        if self.evidence_level:
            clauses.append({"evidence_level": {"$in": [e.value for e in self.evidence_level]}})
        if not clauses:
            return None
        return clauses[0] if len(clauses) == 1 else {"$and": clauses}

    def matches(self, meta: dict[str, Any]) -> bool:
        y = meta["publication_year"]
        if self.year_min is not None and y < self.year_min:
            return False
        if self.year_max is not None and y > self.year_max:
            return False
        if self.source_type and meta["source_type"] not in {s.value for s in self.source_type}:
            return False
        if self.specialty and meta["specialty"] not in set(self.specialty):
            return False
        return not (self.evidence_level and meta["evidence_level"] not in {e.value for e in self.evidence_level})

    def mask(self, metadatas: Sequence[dict[str, Any]]) -> np.ndarray:
        if self.is_empty():
            return np.ones(len(metadatas), dtype=bool)
        return np.fromiter((self.matches(m) for m in metadatas), dtype=bool, count=len(metadatas))

    def as_dict(self) -> dict[str, Any]:
        return self.model_dump(mode="json", exclude_none=True)
