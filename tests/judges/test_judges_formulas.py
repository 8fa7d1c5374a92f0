"""The shared formulas on tiny hand-computed annotation sets, zero denominators included."""

from __future__ import annotations

import math

import pytest

from medgym.judges.formulas import (
    counts_from_annotations,
    derive,
    metrics_from_counts,
    ratio,
    set_level_ratio,
)
from medgym.judges.metrics import ALL_METRICS
from medgym.judges.results import (
    Annotations,
    Claim,
    ClosureDecision,
    ContradictionDecision,
    EvidenceItem,
    GapDecision,
    InquiryDecision,
    QuestionDecision,
    Retraction,
    Span,
    UpdateDecision,
)


def claim(cid: str, turn: int, key: str, status: str, kind: str = "numeric", item: str = "x", **kw) -> Claim:
    return Claim(id=cid, turn=turn, kind=kind, span=Span(turn=turn, text=cid, start=turn * 10, end=turn * 10 + 2),
                 item=item, key=key, status=status, **kw)


def metrics(ann: Annotations, **derive_kw) -> dict[str, float | None]:
    derive_kw.setdefault("last_turn", 3)
    derive_kw.setdefault("injected", [])
    derive(ann, **derive_kw)
    audit, halluc = metrics_from_counts(counts_from_annotations(ann))
    return {**audit, **halluc}


def test_ratio_zero_denominator_is_none_not_zero():
    assert ratio(0, 0) is None
    assert ratio(3, 0) is None
    assert ratio(0, 4) == 0.0
    assert ratio(1, 4) == 0.25
    assert set_level_ratio([None, None]) is None
    assert set_level_ratio([1, 0, None, 1]) == pytest.approx(2 / 3)


def test_empty_annotations_make_every_metric_not_applicable():
    m = metrics(Annotations())
    assert set(m) == set(ALL_METRICS)
    assert all(v is None for v in m.values()), m


def test_audit_nodes_hand_computed():
    ann = Annotations(
        gaps=[
            GapDecision(fact_id="a", reason="omitted", open_until_turn=None, detected=True),
            GapDecision(fact_id="b", reason="omitted", open_until_turn=None, detected=False),
            GapDecision(fact_id="c", reason="delayed", open_until_turn=2, detected=True),
        ],
        inquiry=InquiryDecision(applicable=True, asked=True),
        questions=[
            QuestionDecision(id="q1", span=Span(turn=1), relevant=True, redundant=False),
            QuestionDecision(id="q2", span=Span(turn=1), relevant=True, redundant=True),  # both labels
            QuestionDecision(id="q3", span=Span(turn=2), relevant=False, redundant=True),
            QuestionDecision(id="q4", span=Span(turn=2), relevant=False, redundant=False),
        ],
        contradictions=[
            ContradictionDecision(template_id="t1", fact_id="a", injected_turn=2, detected=False),
        ],
        updates=[
            UpdateDecision(turn=2, kind="delayed_evidence", requires_substantial_revision=True, rational=False,
                           stubborn=True),
            UpdateDecision(turn=2, kind="contradiction", requires_substantial_revision=False, rational=True),
            UpdateDecision(turn=3, kind="delayed_evidence", requires_substantial_revision=True, rational=True,
                           stubborn=False),
        ],
        closure=ClosureDecision(applicable=True, premature=True),
        evidence=[
            EvidenceItem(id="e1", span=Span(turn=3), status="supported", hallucinated=False),
            EvidenceItem(id="e2", span=Span(turn=3), status="fabricated", hallucinated=True),
            EvidenceItem(id="e3", span=Span(turn=3), status="contradicted", hallucinated=False),
            EvidenceItem(id="e4", span=Span(turn=3), status="supported", hallucinated=False),
        ],
    )
    m = metrics(ann)
    assert m["GDR"] == pytest.approx(2 / 3)
    assert m["IR"] == 1.0 and m["PCR"] == 1.0  # per-sample indicators q and c
    assert m["PIR"] == 0.5 and m["RIR"] == 0.5
    assert m["CDR"] == 0.0 and m["CIR"] == 1.0
    assert m["RUR"] == pytest.approx(2 / 3)
    assert m["SMR"] == 0.5
    assert m["EF"] == 0.5 and m["FCR"] == 0.5  # the contradicted item counts in FCR...
    assert m["DHDR"] == 0.25  # ...but not in DHDR


def test_ir_and_pcr_not_applicable_outside_r_and_p():
    ann = Annotations(inquiry=InquiryDecision(applicable=False), closure=ClosureDecision(applicable=False))
    m = metrics(ann)
    assert m["IR"] is None and m["PCR"] is None
    c = counts_from_annotations(ann)
    assert c.inquiry_applicable == 0 and c.closure_applicable == 0


def test_initiation_and_propagation_hand_computed():
    # turn 1: two numeric claims, one fabricated (key k1); one factual unsupported (k2)
    # turn 2: k1 reasserted as a premise; k2 not; a new fabricated number k3
    # turn 3 (last): k3 reasserted in the final evidence; a fabricated k4 (no later turn: no opportunity)
    ann = Annotations(claims=[
        claim("c1", 1, "k1", "unsupported"),
        claim("c2", 1, "ok1", "supported"),
        claim("c3", 1, "k2", "unsupported", kind="factual"),
        claim("c4", 2, "k1", "unsupported", premise=True),
        claim("c5", 2, "k3", "contradicted"),
        claim("c6", 3, "k3", "contradicted", in_final_evidence=True),
        claim("c7", 3, "k4", "unsupported"),
        claim("c8", 3, "ok2", "restated_contradiction", kind="factual"),
    ])
    m = metrics(ann, last_turn=3)
    # numeric claims c1 c2 c4 c5 c6 c7; fabricated (unsupported or contradicted): all but c2
    assert m["NFR"] == pytest.approx(5 / 6)
    assert m["UFR"] == pytest.approx(1 / 2)
    counts = counts_from_annotations(ann)
    assert (counts.numeric_fabricated, counts.numeric_total) == (5, 6)
    assert (counts.factual_unsupported, counts.factual_total) == (1, 2)  # restated is not a hallucination
    assert counts.initiated == 4  # k1 k2 k3 k4
    assert counts.persistence_opportunities == 3  # k4 starts on the last turn
    assert counts.persistent == 2  # k1 and k3
    assert counts.contamination_events == 2  # k1 as premise, k3 in final evidence
    assert m["HPR"] == pytest.approx(2 / 3) and m["HCCR"] == pytest.approx(2 / 3)


def test_hallucination_released_later_does_not_persist():
    # asserted before release (unsupported), repeated after release (now supported): not persistent
    ann = Annotations(claims=[claim("c1", 1, "k", "unsupported"), claim("c2", 2, "k", "supported")])
    m = metrics(ann, last_turn=2)
    assert m["HPR"] == 0.0


def test_cho_denominator_is_released_key_evidence():
    ann = Annotations(evidence=[
        EvidenceItem(id="e1", span=Span(turn=3), facts=["a"], status="supported", hallucinated=False),
    ])
    m = metrics(ann, key_evidence=["a", "b", "c"], released_final=["a", "b"])
    assert m["CHO"] == 0.5  # b omitted; c never released -> no opportunity
    m2 = metrics(Annotations(), key_evidence=["c"], released_final=[])
    assert m2["CHO"] is None


def test_contradiction_interaction_suppression_and_generation():
    injected = [("t1", "lipase", 2)]
    # a hallucination about the contradicted item before turn 2, withdrawn at turn 2
    ann = Annotations(
        claims=[
            claim("c1", 1, "num:lipase:380", "contradicted", item="lipase"),
            claim("c2", 1, "num:hb:87", "unsupported", item="term:hb"),  # other item: not exposed
            claim("c3", 2, "num:amylase:2100", "unsupported", item="term:amylase"),  # new at the contradiction turn
            claim("c4", 2, "num:crp:9", "unsupported", item="crp"),
        ],
        retractions=[Retraction(turn=2, keys=["num:lipase:380"], span=Span(turn=2))],
        contradictions=[ContradictionDecision(template_id="t1", fact_id="lipase", injected_turn=2, detected=False)],
    )
    m = metrics(ann, last_turn=3, injected=injected)
    assert m["CIHSR"] == 1.0  # withdrawn, even though the conflict was not flagged
    assert m["CIHGR"] == 2.0  # two new hallucinations in the reply to the contradiction turn (can exceed 1)

    # not withdrawn, reasserted after the contradiction -> not suppressed
    ann2 = Annotations(claims=[
        claim("c1", 1, "num:lipase:380", "contradicted", item="lipase"),
        claim("c2", 3, "num:lipase:380", "contradicted", item="lipase"),
    ], contradictions=[ContradictionDecision(template_id="t1", fact_id="lipase", injected_turn=2, detected=True)])
    m2 = metrics(ann2, last_turn=3, injected=injected)
    assert m2["CIHSR"] == 0.0 and m2["CIHGR"] == 0.0

    # dropped silently and the conflict flagged -> suppressed; dropped but never flagged -> not
    for detected, want in ((True, 1.0), (False, 0.0)):
        ann3 = Annotations(
            claims=[claim("c1", 1, "num:lipase:380", "contradicted", item="lipase")],
            contradictions=[ContradictionDecision(template_id="t1", fact_id="lipase", injected_turn=2, detected=detected)],
        )
        assert metrics(ann3, last_turn=3, injected=injected)["CIHSR"] == want

    # no contradiction at all: both interaction metrics not applicable
    m4 = metrics(Annotations(claims=[claim("c1", 1, "k", "unsupported")]), last_turn=3)
    assert m4["CIHSR"] is None and m4["CIHGR"] is None


def test_turn_summaries_give_per_turn_nfr_ufr():
    ann = Annotations(claims=[
        claim("c1", 1, "k1", "unsupported"), claim("c2", 1, "k2", "supported"),
        claim("c3", 2, "k3", "supported", kind="factual"),
    ])
    derive(ann, last_turn=2, injected=[])
    t1, t2 = ann.turns
    assert (t1.numeric_fabricated, t1.numeric_total, t1.factual_total) == (1, 2, 0)
    assert (t2.factual_unsupported, t2.factual_total) == (0, 1)


def test_metrics_are_finite_or_none():
    ann = Annotations(claims=[claim("c1", 1, "k1", "unsupported")])
    for v in metrics(ann).values():
        assert v is None or math.isfinite(v)
