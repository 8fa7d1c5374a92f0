"""Hand-labelled validation trajectories: label schema, label-side metrics, judge agreement.

A validation file (tests/judges/validation/*.json) holds a frozen trajectory and the
labels a careful physician gives it: per key gap, question, contradiction, update
opportunity, turn (working diagnosis), claim, final evidence item and withdrawal.
Labels are turned into :class:`~medgym.judges.results.Annotations` and scored with
the *same* shared formulas as the judges, so the "gold" metrics of a trajectory
follow from its labels; the agreement report compares a judge's decisions with the
labels node by node (accuracy and macro-F1) and its metrics with the gold metrics
(absolute error).

Items the judge extracts (questions, claims, evidence items) are matched to
labelled items by turn and overlapping text span. A labelled item the judge missed
counts as a false negative of its class, an extra judge item as a false positive of
its class, so extraction errors lower the scores.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from medgym.envs.trajectory import Trajectory
from medgym.judges.base import finalize
from medgym.judges.formulas import counts_from_annotations, metrics_from_counts
from medgym.judges.metrics import ALL_METRICS, ALL_NODES, METRICS
from medgym.judges.results import (
    Annotations,
    Claim,
    ClosureDecision,
    ContradictionDecision,
    DiagnosisMention,
    EvidenceItem,
    GapDecision,
    InquiryDecision,
    JudgeResult,
    QuestionDecision,
    Retraction,
    Span,
    UpdateDecision,
    WorkingDiagnosis,
)

NONE = "<none>"


class _L(BaseModel):
    model_config = ConfigDict(extra="forbid")


class LQuestion(_L):
    turn: int
    text: str
    start: int | None = None
    end: int | None = None
    relevant: bool
    redundant: bool


class LUpdate(_L):
    turn: int
    kind: Literal["delayed_evidence", "contradiction"]
    rational: bool
    stubborn: bool | None = None


class LClaim(_L):
    turn: int
    text: str
    start: int | None = None
    end: int | None = None
    kind: Literal["numeric", "factual"]
    item: str
    value: float | None = None
    present: bool = True
    status: Literal["supported", "unsupported", "contradicted", "restated_contradiction"]
    premise: bool = False


class LEvidence(_L):
    text: str
    start: int | None = None
    end: int | None = None
    status: Literal["supported", "fabricated", "contradicted"]
    facts: list[str] = Field(default_factory=list)


class LRetraction(_L):
    turn: int
    text: str
    start: int | None = None
    end: int | None = None
    items: list[str]


class Labels(_L):
    gaps: dict[str, bool] = Field(default_factory=dict)
    inquiry: bool | None = None
    questions: list[LQuestion] = Field(default_factory=list)
    contradictions: dict[str, bool] = Field(default_factory=dict)
    working_diagnosis: dict[int, str | None] = Field(default_factory=dict)
    updates: list[LUpdate] = Field(default_factory=list)
    premature_closure: bool | None = None
    claims: list[LClaim] = Field(default_factory=list)
    evidence: list[LEvidence] = Field(default_factory=list)
    retractions: list[LRetraction] = Field(default_factory=list)


class ValidationItem(_L):
    format: Literal["medgym.judge_validation"] = "medgym.judge_validation"
    version: Literal[1] = 1
    id: str
    description: str = ""
    tags: list[str] = Field(default_factory=list)
    trajectory: Trajectory
    labels: Labels


def load_validation_set(directory: str | Path) -> list[ValidationItem]:
    files = sorted(Path(directory).glob("*.json"))
    return [ValidationItem.model_validate(json.loads(f.read_text(encoding="utf-8"))) for f in files]


# ------------------------------------------------------------------ labels -> annotations
def _role(traj: Trajectory, name: str | None) -> str | None:
    if name is None:
        return None
    g = traj.scenario.case.gold
    if name == g.diagnosis.name:
        return "gold"
    if name in {d.name for d in g.differential}:
        return "differential"
    return "other"


def _label_key(c: LClaim) -> str:
    if c.kind == "numeric":
        return f"num:{c.item}:{c.value:g}" if c.value is not None else f"num:{c.item}:{c.text}"
    return f"fact:{c.item}:{'+' if c.present else '-'}"


def label_annotations(item: ValidationItem) -> Annotations:
    """The labels as annotations (derived parts completed by the shared formulas)."""
    traj, lab = item.trajectory, item.labels
    proto = traj.scenario.protocol
    last = traj.turns[-1].index if traj.turns else 0
    gaps = [
        GapDecision(fact_id=g.fact_id, reason=g.reason, open_until_turn=g.open_until_turn,
                    detected=bool(lab.gaps.get(g.fact_id, False)), rule="label")
        for g in proto.key_gaps
    ]
    inquiry = InquiryDecision(applicable=proto.follow_up_required,
                              asked=lab.inquiry if proto.follow_up_required else None, rule="label")
    questions = [
        QuestionDecision(id=f"lq{i + 1}", span=Span(turn=q.turn, text=q.text, start=q.start, end=q.end),
                         relevant=q.relevant, redundant=q.redundant, rule="label")
        for i, q in enumerate(lab.questions)
    ]
    contradictions = [
        ContradictionDecision(template_id=ic.template_id, fact_id=ic.fact_id, injected_turn=ic.turn,
                              detected=bool(lab.contradictions.get(ic.template_id, False)), rule="label")
        for ic in traj.scenario.metadata.injected_contradictions
        if ic.turn <= last
    ]
    wds = []
    for t in traj.turns:
        name = lab.working_diagnosis.get(t.index)
        role = _role(traj, name)
        mentions = (
            [DiagnosisMention(name=name, role=role, stance="probable", span=Span(turn=t.index))]  # type: ignore[arg-type]
            if name else []
        )
        wds.append(WorkingDiagnosis(turn=t.index, leading=name, role=role, mentions=mentions, rule="label"))  # type: ignore[arg-type]
    by_key = {(u.turn, u.kind): u for u in lab.updates}
    updates = []
    for op in proto.update_opportunities:
        if op.turn > last:
            continue
        lu = by_key.get((op.turn, op.kind))
        updates.append(
            UpdateDecision(
                turn=op.turn, kind=op.kind, facts=list(op.facts),
                requires_substantial_revision=op.requires_substantial_revision,
                rational=bool(lu and lu.rational),
                stubborn=(bool(lu.stubborn) if lu and op.requires_substantial_revision else None),
                rule="label",
            )
        )
    closure = ClosureDecision(applicable=proto.premature_closure_applicable,
                              premature=lab.premature_closure if proto.premature_closure_applicable else None,
                              rule="label")
    ev_spans = [(e.start, e.end) for e in lab.evidence]
    claims = []
    for i, c in enumerate(lab.claims):
        in_final = c.turn == last and any(
            s is not None and c.start is not None and s <= c.start < e for s, e in ev_spans  # type: ignore[operator]
        )
        claims.append(
            Claim(id=f"lc{i + 1}", turn=c.turn, kind=c.kind,
                  span=Span(turn=c.turn, text=c.text, start=c.start, end=c.end),
                  item=c.item, key=_label_key(c), value=c.value, present=c.present, status=c.status,
                  premise=c.premise, in_final_evidence=in_final, rule="label")
        )
    evidence = []
    for i, e in enumerate(lab.evidence):
        ids = [c.id for c in claims if c.in_final_evidence and e.start is not None and c.span.start is not None
               and e.start <= c.span.start < e.end]  # type: ignore[operator]
        evidence.append(EvidenceItem(id=f"le{i + 1}", span=Span(turn=last, text=e.text, start=e.start, end=e.end),
                                     facts=list(e.facts), claim_ids=ids, status=e.status,
                                     hallucinated=e.status == "fabricated", rule="label"))
    retractions = []
    for r in lab.retractions:
        keys = [c.key for c in claims if c.turn < r.turn and c.hallucinated and c.item in r.items]
        retractions.append(Retraction(turn=r.turn, keys=list(dict.fromkeys(keys)),
                                      span=Span(turn=r.turn, text=r.text, start=r.start, end=r.end), rule="label"))
    ann = Annotations(gaps=gaps, inquiry=inquiry, questions=questions, contradictions=contradictions,
                      working_diagnoses=wds, updates=updates, closure=closure, claims=claims,
                      retractions=retractions, evidence=evidence)
    return finalize(ann, traj)


def label_metrics(item: ValidationItem) -> dict[str, float | None]:
    audit, halluc = metrics_from_counts(counts_from_annotations(label_annotations(item)))
    return {**audit, **halluc}


def labels_as_result(item: ValidationItem, annotator: str = "annotator") -> JudgeResult:
    """One annotator's labels in the shape of a judge result.

    So that a second annotator's labels can be compared with the first's by the very
    :func:`agreement` the judges are measured with: the inter-annotator figure is then
    the ceiling against which a judge's agreement can be read.
    """
    ann = label_annotations(item)
    audit, halluc = metrics_from_counts(counts_from_annotations(ann))
    traj = item.trajectory
    return JudgeResult(status="ok", judge=annotator, judge_version="labels", scenario_id=traj.scenario.id,
                       case_id=traj.scenario.case.id, condition=traj.scenario.condition,
                       num_turns=len(traj.turns), audit=audit, hallucination=halluc, annotations=ann)


def same_replies_key(item: ValidationItem) -> tuple[str, str, tuple[str, ...]]:
    """What identifies a labelled trajectory across annotators: case, condition and the agent's replies."""
    traj = item.trajectory
    return traj.scenario.case.id, traj.scenario.condition, tuple(t.agent for t in traj.turns)


# ------------------------------------------------------------------ comparison
Decision = tuple[str, str, str]  # (key, gold class, predicted class); NONE = item absent on that side


def _overlap(a: Span, b: Span) -> bool:
    if a.turn != b.turn or a.start is None or b.start is None or a.end is None or b.end is None:
        return False
    return a.start < b.end and b.start < a.end


def _match(gold: list[Any], pred: list[Any], span_of) -> list[tuple[Any | None, Any | None]]:
    """Greedy one-to-one matching by overlapping spans (largest overlap first)."""
    pairs = []
    for gi, g in enumerate(gold):
        for pi, p in enumerate(pred):
            gs, ps = span_of(g), span_of(p)
            if _overlap(gs, ps):
                ov = min(gs.end, ps.end) - max(gs.start, ps.start)
                pairs.append((ov, gi, pi))
    pairs.sort(reverse=True)
    used_g, used_p, out = set(), set(), []
    for _ov, gi, pi in pairs:
        if gi in used_g or pi in used_p:
            continue
        used_g.add(gi)
        used_p.add(pi)
        out.append((gold[gi], pred[pi]))
    out += [(g, None) for i, g in enumerate(gold) if i not in used_g]
    out += [(None, p) for i, p in enumerate(pred) if i not in used_p]
    return out


def _cls(prefix: str, flag: bool | None, yes: str, no: str) -> str:
    if flag is None:
        return NONE
    return f"{prefix}:{yes if flag else no}"


def _wd_class(wd: WorkingDiagnosis | None, traj: Trajectory) -> str:
    if wd is None or wd.leading is None:
        return "wd:none"
    if wd.leading == traj.scenario.protocol.leading_alternative:
        return "wd:leading_alternative"
    role = wd.role or _role(traj, wd.leading)
    return f"wd:{role}"


def _claim_class(c: Claim | None) -> str:
    if c is None:
        return NONE
    st = "hallucinated" if c.hallucinated else ("restated" if c.status == "restated_contradiction" else "supported")
    return f"{c.kind}:{st}"


def compare(item: ValidationItem, result: JudgeResult) -> dict[str, list[Decision]]:
    """Per node: (decision key, gold class, judge class)."""
    gold = label_annotations(item)
    pred = result.annotations or Annotations()
    traj = item.trajectory
    out: dict[str, list[Decision]] = defaultdict(list)
    iid = item.id

    pg = {g.fact_id: g for g in pred.gaps}
    for g in gold.gaps:
        p = pg.get(g.fact_id)
        out["gap_detection"].append((f"{iid}:gap:{g.fact_id}", _cls("gap", g.detected, "detected", "missed"),
                                     _cls("gap", p.detected if p else None, "detected", "missed")))
    if gold.inquiry.applicable:
        out["gap_detection"].append((f"{iid}:inquiry", _cls("inquiry", gold.inquiry.asked, "asked", "not_asked"),
                                     _cls("inquiry", pred.inquiry.asked if pred.inquiry.applicable else None,
                                          "asked", "not_asked")))

    for g, p in _match(gold.questions, pred.questions, lambda q: q.span):
        key = f"{iid}:q:{(g or p).span.turn}:{(g or p).span.text[:30]}"
        out["follow_up"].append((key + ":rel", _cls("q", g.relevant if g else None, "relevant", "irrelevant"),
                                 _cls("q", p.relevant if p else None, "relevant", "irrelevant")))
        out["follow_up"].append((key + ":red", _cls("q", g.redundant if g else None, "redundant", "new"),
                                 _cls("q", p.redundant if p else None, "redundant", "new")))

    pc = {c.template_id: c for c in pred.contradictions}
    for c in gold.contradictions:
        p = pc.get(c.template_id)
        out["contradiction"].append((f"{iid}:contra:{c.template_id}",
                                     _cls("contra", c.detected, "detected", "ignored"),
                                     _cls("contra", p.detected if p else None, "detected", "ignored")))

    pu = {(u.turn, u.kind): u for u in pred.updates}
    for u in gold.updates:
        p = pu.get((u.turn, u.kind))
        out["diagnosis_update"].append((f"{iid}:update:{u.turn}:{u.kind}",
                                        _cls("update", u.rational, "rational", "not_rational"),
                                        _cls("update", p.rational if p else None, "rational", "not_rational")))
        if u.requires_substantial_revision:
            out["diagnosis_update"].append((f"{iid}:stubborn:{u.turn}",
                                            _cls("smr", u.stubborn, "stubborn", "revised"),
                                            _cls("smr", p.stubborn if p else None, "stubborn", "revised")))
    if gold.closure.applicable:
        out["diagnosis_update"].append((f"{iid}:closure",
                                        _cls("closure", gold.closure.premature, "premature", "not_premature"),
                                        _cls("closure", pred.closure.premature if pred.closure.applicable else None,
                                             "premature", "not_premature")))
    pw = {w.turn: w for w in pred.working_diagnoses}
    if item.labels.working_diagnosis:
        for w in gold.working_diagnoses:
            out["diagnosis_update"].append((f"{iid}:wd:{w.turn}", _wd_class(w, traj), _wd_class(pw.get(w.turn), traj)))

    for g, p in _match(gold.evidence, pred.evidence, lambda e: e.span):
        key = f"{iid}:ev:{(g or p).span.text[:30]}"
        out["evidence_grounding"].append((key, f"ev:{g.status}" if g else NONE, f"ev:{p.status}" if p else NONE))
        out["anchoring"].append((key, _cls("ev", g.hallucinated if g else None, "hallucinated", "clean"),
                                 _cls("ev", p.hallucinated if p else None, "hallucinated", "clean")))
    pce = {c.fact_id: c for c in pred.critical_evidence}
    for c in gold.critical_evidence:
        if not c.released:
            continue
        p = pce.get(c.fact_id)
        out["anchoring"].append((f"{iid}:cho:{c.fact_id}", _cls("cho", not c.mentioned, "omitted", "cited"),
                                 _cls("cho", (not p.mentioned) if p else None, "omitted", "cited")))

    for g, p in _match(gold.claims, pred.claims, lambda c: c.span):
        key = f"{iid}:claim:{(g or p).turn}:{(g or p).span.text}"
        out["initiation"].append((key, _claim_class(g), _claim_class(p)))

    def first_span(ann: Annotations, tr) -> Span:
        return ann.claim(tr.first_claim).span

    g_tracks = [(t, first_span(gold, t)) for t in gold.hallucinations]
    p_tracks = [(t, first_span(pred, t)) for t in pred.hallucinations]
    for g, p in _match(g_tracks, p_tracks, lambda x: x[1]):
        gt, pt = (g[0] if g else None), (p[0] if p else None)
        key = f"{iid}:track:{(g or p)[1].turn}:{(g or p)[1].text}"
        if (gt and gt.persistence_opportunity) or (pt and pt.persistence_opportunity):
            out["propagation"].append((key + ":persist",
                                       _cls("hpr", gt.persisted if gt and gt.persistence_opportunity else None,
                                            "persisted", "dropped"),
                                       _cls("hpr", pt.persisted if pt and pt.persistence_opportunity else None,
                                            "persisted", "dropped")))
            out["propagation"].append((key + ":contaminate",
                                       _cls("hccr", gt.contaminated if gt and gt.contamination_opportunity else None,
                                            "reused", "not_reused"),
                                       _cls("hccr", pt.contaminated if pt and pt.contamination_opportunity else None,
                                            "reused", "not_reused")))
        if (gt and gt.exposed_by) or (pt and pt.exposed_by):
            out["interaction"].append((key + ":suppress",
                                       _cls("cihsr", gt.suppressed if gt and gt.exposed_by else None,
                                            "suppressed", "kept"),
                                       _cls("cihsr", pt.suppressed if pt and pt.exposed_by else None,
                                            "suppressed", "kept")))
    pe = {e.template_id: e for e in pred.contradiction_events}
    for e in gold.contradiction_events:
        p = pe.get(e.template_id)
        out["interaction"].append((f"{iid}:event:{e.template_id}",
                                   _cls("cihgr", bool(e.induced_claims), "induced", "none"),
                                   _cls("cihgr", bool(p.induced_claims) if p else None, "induced", "none")))
    return dict(out)


def class_f1(decisions: Iterable[Decision]) -> dict[str, dict[str, float | int]]:
    """Per class (NONE excluded): tp, fp, fn, F1 and ``labelled``, the number of labelled instances.

    A class the labels never use (``labelled`` 0) enters the macro average with F1 0 as soon as the
    judge predicts it once; this table shows how much of a node's macro-F1 that accounts for."""
    decisions = list(decisions)
    out: dict[str, dict[str, float | int]] = {}
    for c in sorted({c for _k, g, p in decisions for c in (g, p) if c != NONE}):
        tp = sum(g == c and p == c for _k, g, p in decisions)
        fp = sum(g != c and p == c for _k, g, p in decisions)
        fn = sum(g == c and p != c for _k, g, p in decisions)
        out[c] = {"tp": tp, "fp": fp, "fn": fn, "f1": 0.0 if tp == 0 else 2 * tp / (2 * tp + fp + fn),
                  "labelled": tp + fn}
    return out


def macro_f1(decisions: Iterable[Decision]) -> tuple[float | None, float | None, int]:
    """(accuracy, macro-F1, n): classes are those seen on either side, NONE excluded."""
    decisions = list(decisions)
    if not decisions:
        return None, None, 0
    correct = sum(g == p for _k, g, p in decisions)
    f1s = [row["f1"] for row in class_f1(decisions).values()]
    return correct / len(decisions), (sum(f1s) / len(f1s) if f1s else None), len(decisions)


def agreement(items: list[ValidationItem], results: list[JudgeResult]) -> dict[str, Any]:
    """Per-node accuracy/macro-F1 and per-metric absolute error (see module docstring)."""
    by_node: dict[str, list[Decision]] = defaultdict(list)
    errors: dict[str, list[float]] = defaultdict(list)
    applicability: dict[str, int] = defaultdict(int)
    for item, res in zip(items, results, strict=True):
        for node, decs in compare(item, res).items():
            by_node[node].extend(decs)
        gold = label_metrics(item)
        got = res.metrics()
        for m in ALL_METRICS:
            g, p = gold.get(m), got.get(m)
            if g is None and p is None:
                continue
            if g is None or p is None:
                applicability[m] += 1
                continue
            errors[m].append(abs(g - p))
    nodes = {}
    for node in ALL_NODES:
        acc, f1, n = macro_f1(by_node.get(node, []))
        nodes[node] = {"accuracy": acc, "macro_f1": f1, "n": n, "classes": class_f1(by_node.get(node, []))}
    metrics = {
        m: {
            "mae": (sum(errors[m]) / len(errors[m])) if errors[m] else None,
            "max_error": max(errors[m]) if errors[m] else None,
            "n": len(errors[m]),
            "applicability_mismatches": applicability[m],
        }
        for m in ALL_METRICS
    }
    return {"nodes": nodes, "metrics": metrics, "claim_hallucination": hallucination_detection(by_node["initiation"]),
            "decisions": {k: v for k, v in by_node.items()}}


def hallucination_detection(decisions: Iterable[Decision]) -> dict[str, float | int | None]:
    """Precision/recall of *hallucinated* claims alone, from the initiation decisions.

    A diagnostic beside the node's macro-F1, not a replacement for it: it ignores the
    claim kind and every claim both sides call non-hallucinated (or that one side
    lists as supported and the other does not list), so it shows how much of the
    initiation disagreement is about hallucinations and how much is segmentation of
    supported claims.
    """
    def bad(c: str) -> bool:
        return c.endswith(":hallucinated")

    decisions = list(decisions)
    tp = sum(bad(g) and bad(p) for _k, g, p in decisions)
    fp = sum(not bad(g) and bad(p) for _k, g, p in decisions)
    fn = sum(bad(g) and not bad(p) for _k, g, p in decisions)
    prec = tp / (tp + fp) if tp + fp else None
    rec = tp / (tp + fn) if tp + fn else None
    f1 = 2 * tp / (2 * tp + fp + fn) if tp + fp + fn else None
    return {"tp": tp, "fp": fp, "fn": fn, "precision": prec, "recall": rec, "f1": f1}


def _fmt(v: float | None) -> str:
    return "n/a" if v is None else f"{v:.3f}"


def agreement_lines(rep: dict[str, Any], *, target: float | None = None, show_errors: bool = False,
                    sides: str = "gold -> judge", per_class: bool = False) -> list[str]:
    """The printed agreement report (node table, hallucination diagnostic, metric table, errors).

    One renderer for scripts/judge_agreement.py and scripts/annotator_agreement.py, so a judge and a
    second annotator are reported in exactly the same shape.
    """
    head = f"{'node':<20}{'n':>6}{'accuracy':>10}{'macro-F1':>10}"
    lines = [head + (f"  target>={target}" if target is not None else "")]
    for node in ALL_NODES:
        row = rep["nodes"][node]
        line = f"{node:<20}{row['n']:>6}{_fmt(row['accuracy']):>10}{_fmt(row['macro_f1']):>10}"
        if target is not None:
            line += "  ok" if row["macro_f1"] is not None and row["macro_f1"] >= target else "  BELOW"
        lines.append(line)
    if per_class:
        lines += ["", "per class (F1, tp/fp/fn; '*' = no labelled instance, so F1 0 by construction):"]
        for node in ALL_NODES:
            cells = [
                f"{c} {_fmt(r['f1'])} ({r['tp']}/{r['fp']}/{r['fn']}){'*' if not r['labelled'] else ''}"
                for c, r in rep["nodes"][node].get("classes", {}).items()
            ]
            lines.append(f"  {node}: " + "; ".join(cells))
        lines.append("")
    h = rep["claim_hallucination"]
    lines.append(f"  (diagnostic) hallucinated claims alone: precision {_fmt(h['precision'])}  recall "
                 f"{_fmt(h['recall'])}  F1 {_fmt(h['f1'])}  (tp {h['tp']}, fp {h['fp']}, fn {h['fn']})")
    lines += ["", f"{'metric':<8}{'dir':>6}{'n':>5}{'MAE':>8}{'max':>8}{'n/a mismatch':>14}"]
    for m, row in rep["metrics"].items():
        lines.append(f"{m:<8}{METRICS.get(m).direction:>6}{row['n']:>5}{_fmt(row['mae']):>8}"
                     f"{_fmt(row['max_error']):>8}{row['applicability_mismatches']:>14}")
    if show_errors:
        lines.append(f"\ndisagreements (key: {sides}):")
        for node, decs in rep["decisions"].items():
            bad = [d for d in decs if d[1] != d[2]]
            if bad:
                lines.append(f"[{node}]")
                lines += [f"  {key}: {g if g != NONE else '-'} -> {p if p != NONE else '-'}" for key, g, p in bad]
    return lines
