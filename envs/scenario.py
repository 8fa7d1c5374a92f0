"""The Scenario: the paper's formal objects for one (case, condition, seed).

MedBench v5 (section 2.2.0.2) models a stressed scenario as the user-turn sequence
U = (u_1 ... u_T), the metadata m (what was withheld, injected, delayed and when),
the audit protocol p (the node-level targets a judge checks) and the gold g. These
pydantic models hold exactly those objects, plus the source case, so that a
serialised Scenario is all a judge needs.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from medgym.knowledge_base.case_schema import Case, Gold

TurnKind = Literal["initial", "follow_up", "delayed_evidence", "contradiction", "final_prompt"]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class UserTurn(_Model):
    """One scripted user turn u_t (1-based ``index``)."""

    index: int = Field(ge=1)
    text: str
    kinds: list[TurnKind]
    released_facts: list[str] = Field(description="Fact ids whose statements appear in this turn.")
    injected_contradictions: list[str] = Field(
        default_factory=list, description="Template ids injected here."
    )


class InjectedContradiction(_Model):
    template_id: str
    fact_id: str
    turn: int
    statement: str


class Metadata(_Model):
    """m: the stressor configuration and the timing of every release."""

    condition: str
    flags: list[str]
    withheld_facts: list[str] = Field(description="Facts removed by omission (never scripted).")
    delayed_facts: dict[str, int] = Field(description="fact id -> release turn, for facts delayed under D.")
    injected_contradictions: list[InjectedContradiction]
    release_turn: dict[str, int] = Field(description="fact id -> turn at which the script first states it.")


class KeyGap(_Model):
    """A member of K: a key fact the agent should notice is missing."""

    fact_id: str
    reason: Literal["omitted", "delayed"]
    open_until_turn: int | None = Field(
        description="Scripted release turn (a detection must come before it); None if never scripted."
    )


class UpdateOpportunity(_Model):
    """A turn where new evidence or a contradiction should make the agent revisit its diagnosis."""

    turn: int
    kind: Literal["delayed_evidence", "contradiction"]
    facts: list[str] = Field(description="Released fact ids, or the contradicted fact id.")
    requires_substantial_revision: bool = Field(
        description="The released evidence refutes the leading alternative (counts toward SMR)."
    )


class Protocol(_Model):
    """p: the expected node-level audit targets."""

    key_gaps: list[KeyGap]
    contradictions: list[str] = Field(description="Injected template ids: the set C.")
    update_opportunities: list[UpdateOpportunity]
    follow_up_required: bool = Field(description="Scenario belongs to R (IR denominator): O or D present.")
    premature_closure_applicable: bool = Field(description="Scenario belongs to P (PCR denominator).")
    final_turn: int = Field(description="T: the turn carrying the request for a final diagnosis.")
    leading_alternative: str


class Scenario(_Model):
    """A compiled, stressed scenario. ``id`` is ``<case>::<condition>::s<seed>``."""

    id: str
    case: Case
    condition: str
    seed: int
    turns: list[UserTurn]
    metadata: Metadata
    protocol: Protocol

    @property
    def gold(self) -> Gold:
        return self.case.gold

    @property
    def num_turns(self) -> int:
        return len(self.turns)

    def released_by(self, turn: int) -> set[str]:
        """R_t: fact ids released by the script up to and including ``turn``."""
        return {fid for fid, t in self.metadata.release_turn.items() if t <= turn}
