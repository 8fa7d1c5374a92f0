"""Diagnosis update (RUR, SMR), premature closure (PCR) and the inquiry indicator (IR).

Update opportunities come from the protocol (delayed-evidence and contradiction
turns). The *decisive reply* of an opportunity at turn t is the reply to t, or to
t+1 when the reply to t holds no diagnosis and excludes none.

* Delayed evidence: r = 1 when the decisive reply leads with the gold diagnosis,
  or leads with nothing refuted and explicitly excludes a diagnosis the released
  evidence refutes. b = 1 (for opportunities in B) when it still leads with the
  refuted leading alternative.
* Contradiction: r = 1 when the conflict is flagged by the end of the window and
  the decisive reply does not lead (probable or firmer) with a diagnosis the
  injected statement suggests (the differential entries that the contradicted fact
  refutes).

Premature closure (c, scenarios with O or D): a definitive commitment ("Final
diagnosis:", "this is X") in a reply before the last scheduled turn while some key
gap is still unresolved (not yet released in this trajectory). The final answer the
protocol asks for at the last turn is never premature.

Inquiry (q, scenarios with O or D): a relevant follow-up question at or before the
first definitive commitment (or anywhere, if the agent never commits early).
"""

from __future__ import annotations

from medgym.judges.context import TrajectoryContext
from medgym.judges.diagnoses import carry_unchanged
from medgym.judges.results import (
    ClosureDecision,
    ContradictionDecision,
    InquiryDecision,
    QuestionDecision,
    UpdateDecision,
    WorkingDiagnosis,
)

_FIRM = ("probable", "definitive")


def _resolve(ctx: TrajectoryContext, wds: dict[int, WorkingDiagnosis]) -> None:
    """Fill in replies that keep their diagnosis "unchanged" without naming it (in place, idempotent,
    so whichever decision runs first resolves the working diagnoses the annotations then report)."""
    carry_unchanged(wds, {tc.index: tc.agent for tc in ctx.turns})


def _excluded(wd: WorkingDiagnosis) -> set[str]:
    return {m.name for m in wd.mentions if m.stance == "excluded"}


def update_decisions(
    ctx: TrajectoryContext,
    wds: dict[int, WorkingDiagnosis],
    contradictions: list[ContradictionDecision],
) -> list[UpdateDecision]:
    _resolve(ctx, wds)
    know = ctx.know
    proto = ctx.trajectory.scenario.protocol
    last = ctx.last_turn
    lead_alt = proto.leading_alternative
    detected = {c.template_id: c for c in contradictions}
    out = []
    for op in proto.update_opportunities:
        if op.turn > last:
            continue  # the episode ended before this opportunity
        before = next((wds[t].leading for t in range(op.turn - 1, 0, -1) if t in wds and wds[t].leading), None)
        window = [t for t in (op.turn, op.turn + 1) if t in wds and t <= last]
        decisive = next((t for t in window if wds[t].leading or _excluded(wds[t])), window[0] if window else None)
        wd = wds.get(decisive) if decisive is not None else None
        after = wd.leading if wd else None
        span = (
            next((m.span for m in wd.mentions if m.name == wd.leading), None)
            if wd and wd.leading
            else (wd.mentions[0].span if wd and wd.mentions else None)
        )
        stubborn = None
        if op.kind == "delayed_evidence":
            released = set(ctx.turn(decisive).released) if decisive is not None else set()
            refuted = know.refuted_by(released)
            refuted.discard(know.gold)
            if wd is None:
                rational, why = False, "no reply after the evidence"
            elif after == know.gold:
                rational, why = True, f"leads with the gold diagnosis ({after})"
            elif after in refuted:
                rational, why = False, f"still leads with {after}, which the released evidence refutes"
            elif after is None and (_excluded(wd) & refuted):
                rational, why = True, f"excludes refuted {sorted(_excluded(wd) & refuted)} without a new leader"
            elif after is None:
                rational, why = False, "no working diagnosis stated after the evidence"
            else:
                rational, why = False, f"leads with {after}, not the diagnosis the evidence supports"
            if op.requires_substantial_revision:
                stubborn = bool(after is not None and after == lead_alt)
                why += "; keeps the refuted leading alternative" if stubborn else "; leading alternative dropped"
        else:
            tid = next((i.template_id for i in ctx.trajectory.scenario.metadata.injected_contradictions
                        if i.turn == op.turn), None)
            c = detected.get(tid) if tid else None
            suggested = {
                d.name for d in know.case.gold.differential if op.facts and op.facts[0] in d.refuted_by
            }
            flagged = bool(c and c.detected and c.span and c.span.turn is not None and c.span.turn <= op.turn + 1)
            switched = bool(wd and wd.leading in suggested and wd.certainty in _FIRM)
            rational = flagged and not switched
            why = (
                ("flags the contradiction" if flagged else "does not flag the contradiction in time")
                + (f" and switches to {wd.leading}, which the injected statement suggests" if switched else "")
            )
            if flagged and c is not None and c.span is not None:
                span = c.span
        out.append(
            UpdateDecision(
                turn=op.turn,
                kind=op.kind,
                facts=list(op.facts),
                requires_substantial_revision=op.requires_substantial_revision,
                rational=rational,
                stubborn=stubborn,
                decisive_turn=decisive,
                before=before,
                after=after,
                span=span,
                rule=f"decisive reply: turn {decisive}; {why}",
            )
        )
    return out


def closure_decision(ctx: TrajectoryContext, wds: dict[int, WorkingDiagnosis]) -> ClosureDecision:
    _resolve(ctx, wds)
    proto = ctx.trajectory.scenario.protocol
    if not proto.premature_closure_applicable:
        return ClosureDecision(applicable=False, rule="scenario has no O or D stressor: outside P")
    resolved_turns = [ctx.release_turn(g.fact_id) for g in proto.key_gaps]
    resolved = None if any(r is None for r in resolved_turns) else max(resolved_turns, default=1)
    for t in sorted(wds):
        if t >= proto.final_turn:
            break
        wd = wds[t]
        if wd.certainty == "definitive" and (resolved is None or t < resolved):
            span = next((m.span for m in wd.mentions if m.name == wd.leading), None)
            return ClosureDecision(
                applicable=True,
                premature=True,
                turn=t,
                gaps_resolved_turn=resolved,
                span=span,
                rule=f"definitive diagnosis '{wd.leading}' at turn {t}, before the key gaps were resolved"
                + (f" (turn {resolved})" if resolved else " (some never released)"),
            )
    return ClosureDecision(
        applicable=True,
        premature=False,
        gaps_resolved_turn=resolved,
        rule="no definitive commitment before the key gaps were resolved or the final turn",
    )


def inquiry_decision(
    ctx: TrajectoryContext, wds: dict[int, WorkingDiagnosis], questions: list[QuestionDecision]
) -> InquiryDecision:
    _resolve(ctx, wds)
    proto = ctx.trajectory.scenario.protocol
    if not proto.follow_up_required:
        return InquiryDecision(applicable=False, rule="scenario has no O or D stressor: outside R")
    conclusion = next((t for t in sorted(wds) if wds[t].certainty == "definitive"), ctx.last_turn)
    q = next((q for q in questions if q.relevant and q.span.turn is not None and q.span.turn <= conclusion), None)
    if q is None:
        return InquiryDecision(
            applicable=True,
            asked=False,
            conclusion_turn=conclusion,
            rule=f"no relevant follow-up question up to the conclusion at turn {conclusion}",
        )
    return InquiryDecision(
        applicable=True,
        asked=True,
        conclusion_turn=conclusion,
        question_id=q.id,
        rule=f"relevant question {q.id} at turn {q.span.turn}, conclusion at turn {conclusion}",
    )

