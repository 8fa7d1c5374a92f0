"""The clinical case schema (pydantic v2), version 1.

A case is the raw material the scenario compiler stresses. It is written by hand
as a YAML or JSON file under ``knowledge_base/cases/``. The schema is strict
(unknown fields are rejected) because a typo in a stressor hook would otherwise
silently produce an unstressed scenario.

Cross-field rules checked here, so that every case can be compiled under all
eight conditions:

* fact ids are unique and every reference (key evidence, stressor hooks,
  ``refuted_by``) names an existing fact;
* objective facts are lab, imaging, exam or vital facts;
* at least two objective facts can be omitted, at least one contradiction
  template and at least one delayed fact exist;
* omitted and delayed facts are disjoint, so O+D stresses both mechanisms;
* a numeric fact has a unit (or is declared unitless) and its reference range
  has ``low <= high``.
"""

from __future__ import annotations

import re
from enum import StrEnum
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, model_validator

SCHEMA_VERSION = 1

Ident = Annotated[str, StringConstraints(pattern=r"^[a-z0-9][a-z0-9_\-]*$", min_length=1, max_length=80)]
NonEmpty = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1)]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class FactCategory(StrEnum):
    history = "history"
    symptom = "symptom"
    exam = "exam"
    vital = "vital"
    lab = "lab"
    imaging = "imaging"
    medication = "medication"
    allergy = "allergy"
    social = "social"
    family = "family"


OBJECTIVE_CATEGORIES = frozenset(
    {FactCategory.lab, FactCategory.imaging, FactCategory.exam, FactCategory.vital}
)


class Track(StrEnum):
    llm = "llm"
    multimodal = "multimodal"
    agent = "agent"


class Difficulty(StrEnum):
    L1 = "L1"
    L2 = "L2"
    L3 = "L3"


class CareStage(StrEnum):
    prevention = "prevention"
    treatment = "treatment"
    long_term_management = "long-term management"


class ReferenceRange(_Strict):
    """Normal range of a numeric fact, in the fact's unit. Either bound may be open."""

    low: float | None = None
    high: float | None = None

    @model_validator(mode="after")
    def _ordered(self) -> ReferenceRange:
        if self.low is None and self.high is None:
            raise ValueError("expected at least one of 'low' or 'high'")
        if self.low is not None and self.high is not None and self.low > self.high:
            raise ValueError(f"expected low <= high, found low={self.low} > high={self.high}")
        return self


class Fact(_Strict):
    """One atomic clinical fact: the unit that is released, withheld or contradicted."""

    id: Ident
    category: FactCategory
    name: NonEmpty = Field(description="Canonical name, e.g. 'serum lipase'.")
    aliases: list[NonEmpty] = Field(
        default_factory=list, description="Other names, abbreviations, lay terms."
    )
    value: float | None = Field(default=None, description="Numeric value, for numeric facts only.")
    unit: str | None = Field(default=None, description="Unit of `value`; None only when `unitless`.")
    unitless: bool = Field(default=False, description="True for dimensionless numbers (pH, INR, scores).")
    reference_range: ReferenceRange | None = None
    statement: NonEmpty = Field(description="The sentence that states the fact to the agent.")
    negated: bool = Field(default=False, description="A pertinent negative ('no fever', 'HBsAg negative').")
    critical: bool = Field(default=False, description="Key evidence for the diagnosis.")
    objective: bool = Field(default=False, description="Lab/imaging/exam evidence that omission may remove.")

    @model_validator(mode="after")
    def _numeric(self) -> Fact:
        if self.value is not None and not self.unit and not self.unitless:
            raise ValueError(
                f"fact {self.id!r}: numeric value {self.value} needs a 'unit' (or 'unitless: true')"
            )
        if self.value is None and (self.unit or self.reference_range):
            raise ValueError(f"fact {self.id!r}: 'unit'/'reference_range' given but no numeric 'value'")
        if self.objective and self.category not in OBJECTIVE_CATEGORIES:
            raise ValueError(
                f"fact {self.id!r}: objective facts must be lab, imaging, exam or vital; "
                f"found category {self.category.value!r}"
            )
        return self

    @property
    def all_names(self) -> list[str]:
        return [self.name, *self.aliases]

    @property
    def abnormal(self) -> bool | None:
        """Whether a numeric value lies outside its reference range (None if unknown)."""
        if self.value is None or self.reference_range is None:
            return None
        lo, hi = self.reference_range.low, self.reference_range.high
        return (lo is not None and self.value < lo) or (hi is not None and self.value > hi)


class Diagnosis(_Strict):
    """A diagnosis with the names an answer may use for it."""

    name: NonEmpty
    aliases: list[NonEmpty] = Field(default_factory=list)
    refuted_by: list[Ident] = Field(
        default_factory=list, description="Fact ids whose release argues against this diagnosis."
    )

    @property
    def all_names(self) -> list[str]:
        return [self.name, *self.aliases]


class Gold(_Strict):
    diagnosis: Diagnosis
    differential: list[Diagnosis] = Field(min_length=1)
    leading_alternative: NonEmpty = Field(
        description="Name of the differential entry the initial story points to; evidence that refutes it "
        "makes an update opportunity that requires substantial revision (SMR)."
    )
    key_evidence: list[Ident] = Field(min_length=1, description="Fact ids that establish the diagnosis.")
    next_steps: list[NonEmpty] = Field(min_length=1)


class ContradictionTemplate(_Strict):
    """A statement that conflicts with one fact, e.g. 'HBsAg positive' against negative markers."""

    id: Ident
    fact_id: Ident = Field(description="The fact this statement contradicts.")
    item: NonEmpty = Field(description="The clinical item in conflict, e.g. 'HBsAg'.")
    aliases: list[NonEmpty] = Field(default_factory=list, description="Other names of the item.")
    statement: NonEmpty = Field(description="The injected sentence, as the agent will read it.")
    value: float | None = Field(default=None, description="The conflicting number, if numeric.")
    unit: str | None = None

    @property
    def all_names(self) -> list[str]:
        return [self.item, *self.aliases]


class DelayedFact(_Strict):
    fact_id: Ident
    release_turn: int = Field(ge=2, le=8, description="1-based user turn that first carries the fact.")


class Stressors(_Strict):
    omit: list[Ident] | None = Field(
        default=None, description="Facts withheld under O; default: critical objective facts not delayed."
    )
    contradictions: list[ContradictionTemplate] = Field(min_length=1)
    contradiction_turn: int = Field(
        default=2, ge=2, le=8, description="Turn at which I injects its statement."
    )
    delay: list[DelayedFact] = Field(min_length=1)


class Patient(_Strict):
    age: int = Field(ge=0, le=120)
    sex: Literal["female", "male"]


class Case(_Strict):
    schema_version: Literal[1] = SCHEMA_VERSION
    id: Ident
    title: NonEmpty
    specialty: NonEmpty
    track: Track
    difficulty: Difficulty
    care_stage: CareStage
    patient: Patient
    presenting_complaint: NonEmpty
    facts: list[Fact] = Field(min_length=3)
    gold: Gold
    stressors: Stressors

    # ---- derived views (cheap, used by the compiler and the judges) ----
    @property
    def fact_index(self) -> dict[str, Fact]:
        return {f.id: f for f in self.facts}

    def fact(self, fact_id: str) -> Fact:
        return self.fact_index[fact_id]

    @property
    def delayed_ids(self) -> list[str]:
        return [d.fact_id for d in self.stressors.delay]

    @property
    def omitted_ids(self) -> list[str]:
        """Facts withheld under O: the explicit list, or the critical objective facts not delayed."""
        if self.stressors.omit is not None:
            return list(self.stressors.omit)
        delayed = set(self.delayed_ids)
        return [f.id for f in self.facts if f.critical and f.objective and f.id not in delayed]

    @property
    def leading_alternative(self) -> Diagnosis:
        for d in self.gold.differential:
            if d.name == self.gold.leading_alternative:
                return d
        raise KeyError(self.gold.leading_alternative)  # unreachable after validation

    @model_validator(mode="after")
    def _cross_refs(self) -> Case:
        ids = [f.id for f in self.facts]
        dupes = sorted({i for i in ids if ids.count(i) > 1})
        if dupes:
            raise ValueError(f"duplicate fact ids: {dupes}")
        known = set(ids)

        def check(field: str, refs: list[str]) -> None:
            missing = [r for r in refs if r not in known]
            if missing:
                raise ValueError(f"{field} refers to unknown fact ids {missing}; known ids: {sorted(known)}")

        check("gold.key_evidence", self.gold.key_evidence)
        for i, d in enumerate([self.gold.diagnosis, *self.gold.differential]):
            check(f"gold diagnosis #{i} ({d.name}).refuted_by", d.refuted_by)
        names = [d.name for d in self.gold.differential]
        if self.gold.leading_alternative not in names:
            raise ValueError(
                f"gold.leading_alternative must be one of the differential names {names}; "
                f"found {self.gold.leading_alternative!r}"
            )
        if _norm(self.gold.diagnosis.name) in {_norm(n) for n in names}:
            raise ValueError("gold.differential must not repeat the final diagnosis")
        if self.stressors.omit is not None:
            check("stressors.omit", self.stressors.omit)
            not_obj = [i for i in self.stressors.omit if not self.fact(i).objective]
            if not_obj:
                raise ValueError(
                    f"stressors.omit may only hold objective facts; found non-objective {not_obj}"
                )
        check("stressors.contradictions.fact_id", [c.fact_id for c in self.stressors.contradictions])
        cids = [c.id for c in self.stressors.contradictions]
        if len(set(cids)) != len(cids):
            raise ValueError(f"duplicate contradiction template ids: {cids}")
        check("stressors.delay.fact_id", self.delayed_ids)
        if len(set(self.delayed_ids)) != len(self.delayed_ids):
            raise ValueError(f"a fact is delayed twice: {self.delayed_ids}")
        omitted = self.omitted_ids
        if len(omitted) < 2:
            raise ValueError(
                f"expected at least 2 omittable objective facts, found {len(omitted)} ({omitted}); mark more "
                "critical objective facts or list stressors.omit"
            )
        both = sorted(set(omitted) & set(self.delayed_ids))
        if both:
            raise ValueError(
                f"facts both omitted and delayed: {both}; the two stressors must use disjoint facts"
            )
        return self


def _norm(s: str) -> str:
    return re.sub(r"\s+", " ", s.strip().lower())
