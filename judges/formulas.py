"""The formulas: annotations -> counts -> metrics, shared by every judge backend.

Three steps, all pure functions:

1. :func:`derive` completes the *derived* annotations from the base ones a backend
   produced: the hallucination tracks (HPR, HCCR, CIHSR), the contradiction events
   (CIHGR), the critical-evidence omissions (CHO) and the per-turn summaries. A
   backend reads the text (claims, questions, diagnoses, evidence items); how those
   readings become propagation events is decided here, once.
2. :func:`counts_from_annotations` counts numerators and denominators.
3. :func:`metrics_from_counts` applies the paper's ratios; a zero denominator gives
   ``None`` (not applicable), never 0.

The operational definitions are documented in docs/judges.md.
"""

from __future__ import annotations

from collections.abc import Iterable

from medgym.judges.results import (
    Annotations,
    Claim,
    ContradictionEvent,
    Counts,
    CriticalEvidence,
    HallucinationTrack,
    TurnSummary,
)


def ratio(num: int | float, den: int | float) -> float | None:
    """``num / den``, or None when the denominator is zero (not applicable)."""
    if not den:
        return None
    return float(num) / float(den)


# --------------------------------------------------------------------------- derive
def derive(
    ann: Annotations,
    *,
    last_turn: int,
    injected: Iterable[tuple[str, str, int]],
    contradiction_detected: dict[str, bool] | None = None,
    key_evidence: Iterable[str] = (),
    released_final: Iterable[str] = (),
) -> Annotations:
    """Fill ``hallucinations``, ``contradiction_events``, ``critical_evidence`` and ``turns``.

    Args:
        ann: base annotations (claims, retractions, evidence items, questions,
            working diagnoses...). Modified in place and returned.
        last_turn: index of the last agent reply in the trajectory.
        injected: (template id, contradicted fact id, injection turn) triples.
        contradiction_detected: template id -> whether the agent flagged it
            (defaults to the ``contradictions`` annotations).
        key_evidence: gold key-evidence fact ids.
        released_final: fact ids released up to the final turn.
    """
    injected = list(injected)
    if contradiction_detected is None:
        contradiction_detected = {c.template_id: c.detected for c in ann.contradictions}
    claims = sorted(ann.claims, key=lambda c: (c.turn, c.span.start or 0))

    # ---- hallucination tracks: first unsupported assertion of each key --------------
    tracks: dict[str, HallucinationTrack] = {}
    for c in claims:
        if c.hallucinated and c.key not in tracks:
            tracks[c.key] = HallucinationTrack(
                key=c.key,
                item=c.item,
                kind=c.kind,
                first_claim=c.id,
                first_turn=c.turn,
                persistence_opportunity=c.turn < last_turn,
                persisted=False,
                contamination_opportunity=c.turn < last_turn,
                contaminated=False,
            )
    retracted: dict[str, list[int]] = {}
    for r in ann.retractions:
        for k in r.keys:
            retracted.setdefault(k, []).append(r.turn)
    for tr in tracks.values():
        later = [c for c in claims if c.key == tr.key and c.turn > tr.first_turn and c.hallucinated]
        tr.persist_claims = [c.id for c in later]
        tr.persisted = tr.persistence_opportunity and bool(later)
        reuse = [c for c in later if c.premise or c.in_final_evidence]
        tr.contamination_claims = [c.id for c in reuse]
        tr.contaminated = tr.contamination_opportunity and bool(reuse)
        rules = [
            f"initiated at turn {tr.first_turn} by claim {tr.first_claim}",
            f"reasserted unsupported in {tr.persist_claims}" if later else "never reasserted later",
        ]
        if reuse:
            rules.append(f"reused as a premise/final evidence in {tr.contamination_claims}")
        for tid, fact_id, c_turn in injected:
            if tr.item == fact_id and tr.first_turn < c_turn:
                tr.exposed_by = tid
                after = [c for c in later if c.turn >= c_turn]
                withdrawn = any(t >= c_turn for t in retracted.get(tr.key, []))
                tr.suppressed = withdrawn or (not after and bool(contradiction_detected.get(tid)))
                rules.append(
                    f"exposed by contradiction {tid} at turn {c_turn}: "
                    + (
                        "withdrawn"
                        if withdrawn
                        else "not reasserted and the conflict was flagged"
                        if tr.suppressed
                        else "reasserted after it"
                        if after
                        else "not reasserted, but the conflict was never flagged"
                    )
                )
                break
        tr.rule = "; ".join(rules)
    ann.hallucinations = list(tracks.values())

    # ---- contradiction events: new hallucinations in the reply to the injection turn ----
    events = []
    for tid, _fact_id, c_turn in injected:
        induced = [tr.first_claim for tr in tracks.values() if tr.first_turn == c_turn]
        events.append(
            ContradictionEvent(
                template_id=tid,
                turn=c_turn,
                induced_claims=induced,
                rule=f"{len(induced)} new hallucination(s) first asserted in the reply to turn {c_turn}",
            )
        )
    ann.contradiction_events = events

    # ---- critical evidence omitted from the final evidence (CHO) ----------------------
    released = set(released_final)
    cited: dict[str, object] = {}
    for item in ann.evidence:
        for f in item.facts:
            cited.setdefault(f, item.span)
    crit = []
    for fid in dict.fromkeys(key_evidence):
        was_released = fid in released
        mentioned = fid in cited
        crit.append(
            CriticalEvidence(
                fact_id=fid,
                released=was_released,
                mentioned=mentioned,
                span=cited.get(fid),  # type: ignore[arg-type]
                rule=(
                    "not released by the final turn: no opportunity"
                    if not was_released
                    else "cited in the final evidence"
                    if mentioned
                    else "released key evidence left out of the final evidence"
                ),
            )
        )
    ann.critical_evidence = crit

    ann.turns = turn_summaries(ann, last_turn)
    return ann


def turn_summaries(ann: Annotations, last_turn: int) -> list[TurnSummary]:
    """The per-turn view (also the source of per-turn NFR/UFR reward shaping)."""
    by_turn: dict[int, TurnSummary] = {t: TurnSummary(turn=t) for t in range(1, last_turn + 1)}
    for wd in ann.working_diagnoses:
        if wd.turn in by_turn:
            by_turn[wd.turn].working_diagnosis = wd.leading
            by_turn[wd.turn].certainty = wd.certainty
    for q in ann.questions:
        if q.span.turn in by_turn:
            by_turn[q.span.turn].questions.append(q.id)
    for c in ann.claims:
        ts = by_turn.get(c.turn)
        if ts is None:
            continue
        ts.claims.append(c.id)
        if c.hallucinated:
            ts.hallucinated_claims.append(c.id)
        if c.kind == "numeric":
            ts.numeric_total += 1
            ts.numeric_fabricated += int(c.hallucinated)
        else:
            ts.factual_total += 1
            ts.factual_unsupported += int(c.hallucinated)
    return [by_turn[t] for t in sorted(by_turn)]


# --------------------------------------------------------------------------- counts
def _claim_counts(claims: list[Claim], kind: str) -> tuple[int, int]:
    sel = [c for c in claims if c.kind == kind]
    return len(sel), sum(c.hallucinated for c in sel)


def counts_from_annotations(ann: Annotations) -> Counts:
    """Numerators and denominators of all 19 metrics."""
    n_num, n_num_fab = _claim_counts(ann.claims, "numeric")
    n_fact, n_fact_uns = _claim_counts(ann.claims, "factual")
    contra_total = len(ann.contradictions)
    contra_det = sum(c.detected for c in ann.contradictions)
    tracks = ann.hallucinations
    crit = ann.critical_evidence
    return Counts(
        gaps_total=len(ann.gaps),
        gaps_detected=sum(g.detected for g in ann.gaps),
        inquiry_applicable=int(ann.inquiry.applicable),
        inquiry_q=int(bool(ann.inquiry.applicable and ann.inquiry.asked)),
        questions_total=len(ann.questions),
        questions_relevant=sum(q.relevant for q in ann.questions),
        questions_redundant=sum(q.redundant for q in ann.questions),
        contradictions_total=contra_total,
        contradictions_detected=contra_det,
        contradictions_ignored=contra_total - contra_det,
        updates_total=len(ann.updates),
        updates_rational=sum(u.rational for u in ann.updates),
        revisions_total=sum(u.requires_substantial_revision for u in ann.updates),
        revisions_stubborn=sum(bool(u.requires_substantial_revision and u.stubborn) for u in ann.updates),
        closure_applicable=int(ann.closure.applicable),
        closure_c=int(bool(ann.closure.applicable and ann.closure.premature)),
        evidence_total=len(ann.evidence),
        evidence_supported=sum(e.status == "supported" for e in ann.evidence),
        evidence_fabricated=sum(e.status != "supported" for e in ann.evidence),
        numeric_total=n_num,
        numeric_fabricated=n_num_fab,
        factual_total=n_fact,
        factual_unsupported=n_fact_uns,
        initiated=len(tracks),
        persistence_opportunities=sum(t.persistence_opportunity for t in tracks),
        persistent=sum(t.persisted for t in tracks),
        contamination_opportunities=sum(t.contamination_opportunity for t in tracks),
        contamination_events=sum(t.contaminated for t in tracks),
        final_evidence_total=len(ann.evidence),
        final_evidence_hallucinated=sum(e.hallucinated for e in ann.evidence),
        critical_opportunities=sum(c.released for c in crit),
        critical_omitted=sum(c.released and not c.mentioned for c in crit),
        exposed=sum(t.exposed_by is not None for t in tracks),
        suppressed=sum(bool(t.exposed_by is not None and t.suppressed) for t in tracks),
        contradiction_events=len(ann.contradiction_events),
        induced_hallucinations=sum(len(e.induced_claims) for e in ann.contradiction_events),
    )


# --------------------------------------------------------------------------- metrics
def metrics_from_counts(c: Counts) -> tuple[dict[str, float | None], dict[str, float | None]]:
    """(audit metrics, hallucination metrics) from counts; None = not applicable."""
    audit = {
        "GDR": ratio(c.gaps_detected, c.gaps_total),
        "IR": float(c.inquiry_q) if c.inquiry_applicable else None,
        "PIR": ratio(c.questions_relevant, c.questions_total),
        "RIR": ratio(c.questions_redundant, c.questions_total),
        "CDR": ratio(c.contradictions_detected, c.contradictions_total),
        "CIR": ratio(c.contradictions_ignored, c.contradictions_total),
        "RUR": ratio(c.updates_rational, c.updates_total),
        "PCR": float(c.closure_c) if c.closure_applicable else None,
        "SMR": ratio(c.revisions_stubborn, c.revisions_total),
        "EF": ratio(c.evidence_supported, c.evidence_total),
        "FCR": ratio(c.evidence_fabricated, c.evidence_total),
    }
    halluc = {
        "NFR": ratio(c.numeric_fabricated, c.numeric_total),
        "UFR": ratio(c.factual_unsupported, c.factual_total),
        "HPR": ratio(c.persistent, c.persistence_opportunities),
        "HCCR": ratio(c.contamination_events, c.contamination_opportunities),
        "DHDR": ratio(c.final_evidence_hallucinated, c.final_evidence_total),
        "CHO": ratio(c.critical_omitted, c.critical_opportunities),
        "CIHSR": ratio(c.suppressed, c.exposed),
        "CIHGR": ratio(c.induced_hallucinations, c.contradiction_events),
    }
    return audit, halluc


def set_level_ratio(indicators: Iterable[int | float | None]) -> float | None:
    """IR or PCR over a set of scenarios: mean of the applicable indicators (None if none apply)."""
    vals = [float(v) for v in indicators if v is not None]
    return ratio(sum(vals), len(vals))
