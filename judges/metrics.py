"""The metric registry: every audit and hallucination metric, with its direction.

MedBench v5 defines 11 process-audit metrics (section 2.2.0.2) and 8 hallucination
propagation metrics (Appendix 9). Half of them are "higher is better" and half
"lower is better", so every report, reward and plot reads the direction from here
instead of hard-coding it; a mix-up (averaging 1 - FCR with FCR, say) is then
impossible by construction.

``level`` says where the paper defines the metric: ``"sample"`` metrics are computed
per trajectory and macro-averaged over applicable samples; ``"set"`` metrics (IR and
PCR) are ratios over the applicable *scenarios*. For a set-level metric the
per-sample value is the scenario's indicator (q or c), so the set ratio is the mean
of the indicators over applicable scenarios: aggregation computes exactly the
paper's formula and a bootstrap over scenarios gives its confidence interval.

``bounded`` is False only for CIHGR, whose numerator counts new hallucinations per
contradiction event and can exceed 1 (see docs/judges.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from medgym.registry import Registry

Direction = Literal["higher", "lower"]
Level = Literal["sample", "set"]
Node = Literal[
    "gap_detection",
    "follow_up",
    "contradiction",
    "diagnosis_update",
    "evidence_grounding",
    "initiation",
    "propagation",
    "anchoring",
    "interaction",
]

AUDIT_NODES: tuple[str, ...] = (
    "gap_detection",
    "follow_up",
    "contradiction",
    "diagnosis_update",
    "evidence_grounding",
)
HALLUCINATION_DIMENSIONS: tuple[str, ...] = ("initiation", "propagation", "anchoring", "interaction")
ALL_NODES: tuple[str, ...] = AUDIT_NODES + HALLUCINATION_DIMENSIONS


@dataclass(frozen=True)
class MetricSpec:
    """One metric: what it measures, where it lives and which way is better."""

    name: str
    family: Literal["audit", "hallucination"]
    node: Node
    direction: Direction
    level: Level
    numerator: str
    denominator: str
    description: str
    bounded: bool = True

    @property
    def higher_is_better(self) -> bool:
        return self.direction == "higher"

    def oriented(self, value: float) -> float:
        """``value`` turned so that higher is better (1 - x for lower-is-better ratios).

        Unbounded lower-is-better metrics (CIHGR) are clipped at 0 after the flip so a
        reward built from them stays in [0, 1].
        """
        if self.direction == "higher":
            return value
        return max(0.0, 1.0 - value)


METRICS: Registry[MetricSpec] = Registry("metric")


def _add(*args, **kwargs) -> None:
    spec = MetricSpec(*args, **kwargs)
    METRICS.register(spec.name, spec)


# ---- the five audit nodes (section 2.2.0.2) -------------------------------------
_add("GDR", "audit", "gap_detection", "higher", "sample", "gaps_detected", "gaps_total",
     "Gap detection ratio: key gaps K the agent asked for or named as missing before their release.")
_add("IR", "audit", "gap_detection", "higher", "set", "inquiry_q", "inquiry_applicable",
     "Inquiry ratio over scenarios requiring follow-up (O or D): share that asked at least one "
     "relevant follow-up question before concluding. Per sample: the indicator q.")
_add("PIR", "audit", "follow_up", "higher", "sample", "questions_relevant", "questions_total",
     "Precision inquiry ratio: relevant questions / questions asked.")
_add("RIR", "audit", "follow_up", "lower", "sample", "questions_redundant", "questions_total",
     "Redundant inquiry ratio: questions asking for something already released or already asked / "
     "questions asked.")
_add("CDR", "audit", "contradiction", "higher", "sample", "contradictions_detected", "contradictions_total",
     "Contradiction detection ratio: injected contradictions the agent flagged (item named with "
     "conflict language or a request to confirm/repeat).")
_add("CIR", "audit", "contradiction", "lower", "sample", "contradictions_ignored", "contradictions_total",
     "Contradiction ignorance ratio: injected contradictions never flagged.")
_add("RUR", "audit", "diagnosis_update", "higher", "sample", "updates_rational", "updates_total",
     "Rational update ratio: update opportunities (delayed evidence, contradiction) answered by a "
     "clinically justified move of the working diagnosis.")
_add("PCR", "audit", "diagnosis_update", "lower", "set", "closure_c", "closure_applicable",
     "Premature closure ratio over scenarios with incomplete information (O or D): share that "
     "committed to a definitive diagnosis before the key gaps were resolved. Per sample: the indicator c.")
_add("SMR", "audit", "diagnosis_update", "lower", "sample", "revisions_stubborn", "revisions_total",
     "Stubborn maintenance ratio: opportunities requiring substantial revision (B) after which the "
     "refuted leading alternative stays the leading diagnosis.")
_add("EF", "audit", "evidence_grounding", "higher", "sample", "evidence_supported", "evidence_total",
     "Evidence faithfulness: final evidence items supported by the facts released up to the final turn.")
_add("FCR", "audit", "evidence_grounding", "lower", "sample", "evidence_fabricated", "evidence_total",
     "Fabricated citation ratio: final evidence items unsupported, fabricated or contradicted by the "
     "scenario (restating the injected contradiction counts here).")

# ---- hallucination propagation (Appendix 9) ---------------------------------------
_add("NFR", "hallucination", "initiation", "lower", "sample", "numeric_fabricated", "numeric_total",
     "Numerical fabrication ratio: numbers asserted about the patient that no released fact supports "
     "(misquotes included; conversions and derived values are supported).")
_add("UFR", "hallucination", "initiation", "lower", "sample", "factual_unsupported", "factual_total",
     "Unsubstantiated fact ratio: non-numeric factual claims about the patient not supported by the "
     "facts released at that turn.")
_add("HPR", "hallucination", "propagation", "lower", "sample", "persistent", "persistence_opportunities",
     "Hallucination persistence ratio: hallucinations initiated before the last turn that are asserted "
     "again, still unsupported, in a later turn.")
_add("HCCR", "hallucination", "propagation", "lower", "sample", "contamination_events",
     "contamination_opportunities",
     "Hallucination cross-contamination ratio: hallucinations initiated before the last turn that are "
     "later reused as a premise of diagnostic reasoning or as final evidence.")
_add("DHDR", "hallucination", "anchoring", "lower", "sample", "final_evidence_hallucinated",
     "final_evidence_total",
     "Definitive hallucination dependency ratio: final evidence items that rest on a hallucinated claim "
     "(restating the injected contradiction does not count).")
_add("CHO", "hallucination", "anchoring", "lower", "sample", "critical_omitted", "critical_opportunities",
     "Critical hallucination omission: gold key-evidence facts released by the final turn that the final "
     "evidence leaves out.")
_add("CIHSR", "hallucination", "interaction", "higher", "sample", "suppressed", "exposed",
     "Contradiction-induced hallucination suppression ratio: hallucinations about the contradicted item, "
     "made before the contradiction, that the agent withdraws or stops asserting afterwards.")
_add("CIHGR", "hallucination", "interaction", "lower", "sample", "induced_hallucinations",
     "contradiction_events",
     "Contradiction-induced hallucination generation ratio: new hallucinations in the reply to a "
     "contradiction turn, per contradiction event (can exceed 1).", bounded=False)

AUDIT_METRICS: tuple[str, ...] = ("GDR", "IR", "PIR", "RIR", "CDR", "CIR", "RUR", "PCR", "SMR", "EF", "FCR")
HALLUCINATION_METRICS: tuple[str, ...] = ("NFR", "UFR", "HPR", "HCCR", "DHDR", "CHO", "CIHSR", "CIHGR")
ALL_METRICS: tuple[str, ...] = AUDIT_METRICS + HALLUCINATION_METRICS
SET_LEVEL_METRICS: tuple[str, ...] = tuple(m for m in ALL_METRICS if METRICS.get(m).level == "set")


def metric(name: str) -> MetricSpec:
    """The spec of ``name`` (case-insensitive); unknown names raise with a did-you-mean."""
    key = name.strip().upper()
    return METRICS.get(key if key in METRICS else name)


def direction(name: str) -> Direction:
    return metric(name).direction


def metrics_of_node(node: str) -> list[str]:
    return [m for m in ALL_METRICS if METRICS.get(m).node == node]


def describe_table() -> list[dict[str, str]]:
    """Rows for docs and ``--help``: name, node, direction, level, formula, description."""
    rows = []
    for name in ALL_METRICS:
        s = METRICS.get(name)
        rows.append(
            {
                "metric": s.name,
                "family": s.family,
                "node": s.node,
                "direction": s.direction,
                "level": s.level,
                "formula": f"{s.numerator} / {s.denominator}",
                "description": s.description,
            }
        )
    return rows
