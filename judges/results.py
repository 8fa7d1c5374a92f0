"""Result types of every judge: annotations, counts, metrics and status.

Both judges (reference and LLM) fill the same :class:`Annotations`; one module
(:mod:`medgym.judges.formulas`) turns annotations into :class:`Counts` and counts
into metrics, so the two backends can only differ in what they *read* in the
trajectory, never in how they *score* it.

Conventions:

* every decision carries the text span that triggered it (``Span``: turn, text and
  character offsets in that turn's agent reply) and a ``rule`` saying why;
* a metric whose denominator is zero is ``None`` (JSON ``null``): not applicable,
  never 0;
* a judge that could not score an item returns ``status="unscored"`` (LLM failure,
  malformed output) or ``"error"`` (unexpected exception): every metric is ``None``
  and aggregation counts the item in ``n_unscored`` instead of averaging it.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from medgym.judges.metrics import AUDIT_METRICS, HALLUCINATION_METRICS

RESULT_FORMAT = "medgym.judge_result"
RESULT_VERSION = 1

Status = Literal["ok", "unscored", "error"]
ClaimStatus = Literal["supported", "unsupported", "contradicted", "restated_contradiction"]
Stance = Literal["definitive", "probable", "possible", "excluded"]
Role = Literal["gold", "differential", "other"]


class _Ann(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Span(_Ann):
    """Where a decision comes from: a piece of the agent's reply at ``turn``."""

    turn: int | None = None
    text: str = ""
    start: int | None = Field(None, description="Character offset in that turn's agent reply.")
    end: int | None = None


# ---- node 1: information gap detection ---------------------------------------------
class GapDecision(_Ann):
    fact_id: str
    reason: Literal["omitted", "delayed"]
    open_until_turn: int | None = Field(description="Release turn (detection must come before); None = never.")
    detected: bool
    via: Literal["request", "named_missing"] | None = None
    span: Span | None = None
    rule: str = ""


class InquiryDecision(_Ann):
    """The IR indicator q of one scenario (applicable only under O or D)."""

    applicable: bool
    asked: bool | None = Field(None, description="q: a relevant question before the conclusion.")
    conclusion_turn: int | None = None
    question_id: str | None = None
    rule: str = ""


# ---- node 2: follow-up strategy -----------------------------------------------------
class QuestionDecision(_Ann):
    id: str
    span: Span
    targets: list[str] = Field(default_factory=list, description="Fact ids (or 'contradiction:<id>').")
    via: str = "none"
    relevant: bool
    redundant: bool
    rule: str = ""


# ---- node 3: contradiction detection ------------------------------------------------
class ContradictionDecision(_Ann):
    template_id: str
    fact_id: str
    injected_turn: int
    detected: bool
    span: Span | None = None
    rule: str = ""


# ---- node 4: diagnosis update -------------------------------------------------------
class DiagnosisMention(_Ann):
    name: str = Field(description="Canonical case diagnosis name, or the free text of another diagnosis.")
    role: Role
    stance: Stance
    span: Span


class WorkingDiagnosis(_Ann):
    turn: int
    leading: str | None = None
    role: Role | None = None
    certainty: Literal["definitive", "probable", "possible"] | None = None
    mentions: list[DiagnosisMention] = Field(default_factory=list)
    rule: str = ""


class UpdateDecision(_Ann):
    turn: int
    kind: Literal["delayed_evidence", "contradiction"]
    facts: list[str] = Field(default_factory=list)
    requires_substantial_revision: bool
    rational: bool
    stubborn: bool | None = Field(None, description="b_t; None when the opportunity is not in B.")
    decisive_turn: int | None = None
    before: str | None = Field(None, description="Leading diagnosis before the opportunity.")
    after: str | None = Field(None, description="Leading diagnosis in the decisive reply.")
    span: Span | None = None
    rule: str = ""


class ClosureDecision(_Ann):
    """The PCR indicator c of one scenario (applicable only under O or D)."""

    applicable: bool
    premature: bool | None = None
    turn: int | None = None
    gaps_resolved_turn: int | None = Field(None, description="First turn with every key gap resolved.")
    span: Span | None = None
    rule: str = ""


# ---- claims and hallucinations ------------------------------------------------------
class Claim(_Ann):
    """One factual or numeric claim about the patient (Z_t), with its support status."""

    id: str
    turn: int
    kind: Literal["numeric", "factual"]
    span: Span
    item: str = Field(description="Fact id, contradiction item or clinical term the claim is about.")
    key: str = Field(description="Identity used to follow the claim across turns.")
    value: float | None = None
    unit: str | None = None
    present: bool = Field(True, description="False for negated findings ('no fever').")
    status: ClaimStatus
    premise: bool = Field(False, description="Used as a reason in diagnostic reasoning in its sentence.")
    in_final_evidence: bool = False
    rule: str = ""

    @property
    def hallucinated(self) -> bool:
        """In H_t: unsupported or contradicted (restating the injected statement is not)."""
        return self.status in ("unsupported", "contradicted")


class Retraction(_Ann):
    """The agent withdraws an earlier claim ('the Hb I quoted was not provided')."""

    turn: int
    keys: list[str] = Field(default_factory=list)
    span: Span
    rule: str = ""


class EvidenceItem(_Ann):
    id: str
    span: Span
    facts: list[str] = Field(default_factory=list)
    claim_ids: list[str] = Field(default_factory=list)
    status: Literal["supported", "fabricated", "contradicted"]
    hallucinated: bool
    rule: str = ""


class HallucinationTrack(_Ann):
    """One initiated hallucination (first unsupported assertion of a key) and its fate."""

    key: str
    item: str
    kind: Literal["numeric", "factual"]
    first_claim: str
    first_turn: int
    persistence_opportunity: bool
    persisted: bool
    persist_claims: list[str] = Field(default_factory=list)
    contamination_opportunity: bool
    contaminated: bool
    contamination_claims: list[str] = Field(default_factory=list)
    exposed_by: str | None = Field(None, description="Template id of a later contradiction on the same item.")
    suppressed: bool | None = None
    rule: str = ""


class ContradictionEvent(_Ann):
    template_id: str
    turn: int
    induced_claims: list[str] = Field(default_factory=list)
    rule: str = ""


class CriticalEvidence(_Ann):
    fact_id: str
    released: bool
    mentioned: bool
    span: Span | None = None
    rule: str = ""


class TurnSummary(_Ann):
    """Per-turn view: what the judge saw in the reply to user turn ``turn``."""

    turn: int
    working_diagnosis: str | None = None
    certainty: str | None = None
    questions: list[str] = Field(default_factory=list)
    claims: list[str] = Field(default_factory=list)
    hallucinated_claims: list[str] = Field(default_factory=list)
    numeric_total: int = 0
    numeric_fabricated: int = 0
    factual_total: int = 0
    factual_unsupported: int = 0


class Annotations(_Ann):
    """a = J(τ, m, g, p): the structured annotations of the five nodes and the hallucination monitor."""

    gaps: list[GapDecision] = Field(default_factory=list)
    inquiry: InquiryDecision = Field(default_factory=lambda: InquiryDecision(applicable=False))
    questions: list[QuestionDecision] = Field(default_factory=list)
    contradictions: list[ContradictionDecision] = Field(default_factory=list)
    working_diagnoses: list[WorkingDiagnosis] = Field(default_factory=list)
    updates: list[UpdateDecision] = Field(default_factory=list)
    closure: ClosureDecision = Field(default_factory=lambda: ClosureDecision(applicable=False))
    claims: list[Claim] = Field(default_factory=list)
    retractions: list[Retraction] = Field(default_factory=list)
    evidence: list[EvidenceItem] = Field(default_factory=list)
    hallucinations: list[HallucinationTrack] = Field(default_factory=list)
    contradiction_events: list[ContradictionEvent] = Field(default_factory=list)
    critical_evidence: list[CriticalEvidence] = Field(default_factory=list)
    turns: list[TurnSummary] = Field(default_factory=list)

    def claim(self, claim_id: str) -> Claim:
        for c in self.claims:
            if c.id == claim_id:
                return c
        raise KeyError(claim_id)


class Counts(_Ann):
    """Numerators and denominators of every metric, so pooled and set-level stats can be recomputed."""

    gaps_total: int = 0
    gaps_detected: int = 0
    inquiry_applicable: int = 0
    inquiry_q: int = 0
    questions_total: int = 0
    questions_relevant: int = 0
    questions_redundant: int = 0
    contradictions_total: int = 0
    contradictions_detected: int = 0
    contradictions_ignored: int = 0
    updates_total: int = 0
    updates_rational: int = 0
    revisions_total: int = 0
    revisions_stubborn: int = 0
    closure_applicable: int = 0
    closure_c: int = 0
    evidence_total: int = 0
    evidence_supported: int = 0
    evidence_fabricated: int = 0
    numeric_total: int = 0
    numeric_fabricated: int = 0
    factual_total: int = 0
    factual_unsupported: int = 0
    initiated: int = 0
    persistence_opportunities: int = 0
    persistent: int = 0
    contamination_opportunities: int = 0
    contamination_events: int = 0
    final_evidence_total: int = 0
    final_evidence_hallucinated: int = 0
    critical_opportunities: int = 0
    critical_omitted: int = 0
    exposed: int = 0
    suppressed: int = 0
    contradiction_events: int = 0
    induced_hallucinations: int = 0


class JudgeUsage(_Ann):
    """Tokens the *judge* spent (kept apart from the agent's)."""

    prompt_tokens: int = 0
    completion_tokens: int = 0
    total_tokens: int = 0
    requests: int = 0
    cached: int = 0


def _empty(names: tuple[str, ...]) -> dict[str, float | None]:
    return dict.fromkeys(names)


class JudgeResult(BaseModel):
    """The judge's verdict on one trajectory (JSON-serialisable with ``model_dump(mode="json")``)."""

    model_config = ConfigDict(extra="forbid")

    format: Literal["medgym.judge_result"] = RESULT_FORMAT
    version: Literal[1] = RESULT_VERSION
    status: Status
    reason: str | None = None
    judge: str
    judge_version: str
    judge_config: dict[str, Any] = Field(default_factory=dict)
    scenario_id: str | None = None
    case_id: str | None = None
    condition: str | None = None
    agent: str | None = None
    seed: int | None = None
    mode: str | None = None
    num_turns: int | None = None
    audit: dict[str, float | None] = Field(default_factory=lambda: _empty(AUDIT_METRICS))
    hallucination: dict[str, float | None] = Field(default_factory=lambda: _empty(HALLUCINATION_METRICS))
    counts: Counts | None = None
    annotations: Annotations | None = None
    usage: JudgeUsage = Field(default_factory=JudgeUsage)
    elapsed_s: float = 0.0

    @property
    def ok(self) -> bool:
        return self.status == "ok"

    def metrics(self) -> dict[str, float | None]:
        """All 19 metrics in one dict (None = not applicable or unscored)."""
        return {**self.audit, **self.hallucination}

    def metric(self, name: str) -> float | None:
        return self.metrics().get(name.upper())
