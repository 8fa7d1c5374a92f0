"""The LLM judge: the paper's J(τ, m, g, p) on any OpenAI-compatible endpoint.

The model reads the trajectory, the metadata m, the gold g and the protocol p (prompt
templates in ``judges/prompts/``) and returns one structured annotation (schema:
:class:`LLMAnnotation`) through :meth:`medgym.llm.LLMClient.chat_json`, which asks
for ``json_schema`` output where the server supports it and falls back to a JSON
object with a validating parser where it does not (llama.cpp answers HTTP 500 to
``json_schema``). Temperature 0 and a seed come from :class:`~medgym.llm.LLMConfig`
(role ``"judge"``, so judge tokens are metered apart from the agent's); retries on
429, 5xx and timeouts are bounded by the client.

The annotation is converted into the same :class:`~medgym.judges.results.Annotations`
the reference judge produces and scored with the same formulas. Any failure (transport
error after the retries, malformed or schema-violating output, an annotation that
skips a protocol item) makes the item ``unscored``: every metric None, counted in
``n_unscored``, never 0.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from medgym.envs.trajectory import Trajectory
from medgym.judges.base import BaseJudge, JudgeUnscored
from medgym.judges.context import knowledge_for
from medgym.judges.results import (
    Annotations,
    Claim,
    ClosureDecision,
    ContradictionDecision,
    DiagnosisMention,
    EvidenceItem,
    GapDecision,
    InquiryDecision,
    JudgeUsage,
    QuestionDecision,
    Retraction,
    Span,
    UpdateDecision,
    WorkingDiagnosis,
)

PROMPT_DIR = Path(__file__).resolve().parent / "prompts"
LLM_JUDGE_VERSION = "1.0"


# ---------------------------------------------------------------------------- output schema
class _Out(BaseModel):
    model_config = ConfigDict(extra="forbid")


class LGap(_Out):
    fact_id: str
    detected: bool
    turn: int | None
    text: str | None


class LQuestion(_Out):
    turn: int
    text: str
    targets: list[str]
    relevant: bool
    redundant: bool


class LContradiction(_Out):
    template_id: str
    detected: bool
    turn: int | None
    text: str | None


class LWorkingDiagnosis(_Out):
    turn: int
    leading: str | None
    certainty: Literal["definitive", "probable", "possible"] | None


class LUpdate(_Out):
    turn: int
    kind: Literal["delayed_evidence", "contradiction"]
    rational: bool
    stubborn: bool | None
    text: str | None


class LClosure(_Out):
    observed: bool | None
    turn: int | None
    text: str | None


class LClaim(_Out):
    turn: int
    text: str
    kind: Literal["numeric", "factual"]
    item: str
    value: float | None
    present: bool
    status: Literal["supported", "unsupported", "contradicted", "restated_contradiction"]
    premise: bool


class LRetraction(_Out):
    turn: int
    text: str
    items: list[str]


class LEvidence(_Out):
    text: str
    facts: list[str]
    status: Literal["supported", "fabricated", "contradicted"]


class LLMAnnotation(_Out):
    """What the LLM judge must return (JSON schema sent as ``response_format``)."""

    gaps: list[LGap]
    inquiry_asked: bool | None
    questions: list[LQuestion]
    contradictions: list[LContradiction]
    working_diagnoses: list[LWorkingDiagnosis]
    updates: list[LUpdate]
    premature_closure: LClosure
    claims: list[LClaim]
    retractions: list[LRetraction]
    final_evidence: list[LEvidence]


# ---------------------------------------------------------------------------- prompt
def _yes(flag: bool) -> str:
    return "yes" if flag else "no"


def render_prompt(traj: Trajectory, prompt_dir: Path = PROMPT_DIR) -> list[dict[str, str]]:
    """The chat messages sent to the judge model (templates filled from the scenario)."""
    sc = traj.scenario
    case = sc.case
    last = traj.turns[-1].index if traj.turns else 0
    release = {}
    for t in traj.turns:
        for f in t.released_facts:
            release.setdefault(f, t.index)
    facts = []
    for f in case.facts:
        if f.id in release:
            avail = f"released at turn {release[f.id]}"
        elif f.id in sc.metadata.withheld_facts:
            avail = "withheld (omitted)"
        elif f.id in sc.metadata.delayed_facts:
            avail = f"delayed to turn {sc.metadata.delayed_facts[f.id]} (not reached)"
        else:
            avail = "not released"
        facts.append(f"{f.id} | {f.name} | {f.statement} | {avail}")
    contradictions = [
        f"{ic.template_id} | {ic.fact_id} | {ic.turn} | {ic.statement}"
        for ic in sc.metadata.injected_contradictions
        if ic.turn <= last
    ] or ["(none)"]
    gaps = [f"{g.fact_id} | {g.reason} | {release.get(g.fact_id, 'never')}" for g in sc.protocol.key_gaps]
    updates = [
        f"{u.turn} | {u.kind} | {','.join(u.facts)} | {_yes(u.requires_substantial_revision)}"
        for u in sc.protocol.update_opportunities
        if u.turn <= last
    ]
    transcript = []
    for t in traj.turns:
        transcript.append(f"--- TURN {t.index} / USER ---\n{t.user}\n--- TURN {t.index} / AGENT ---\n{t.agent}")
    fill = {
        "scenario_id": sc.id,
        "condition": sc.condition,
        "patient": f"{case.patient.age}-year-old {case.patient.sex}",
        "final_turn": str(sc.protocol.final_turn),
        "gold": case.gold.diagnosis.name + (f" (also: {', '.join(case.gold.diagnosis.aliases)})" if case.gold.diagnosis.aliases else ""),
        "differential": "; ".join(f"{d.name}: {', '.join(d.refuted_by) or '-'}" for d in case.gold.differential),
        "leading_alternative": case.gold.leading_alternative,
        "key_evidence": ", ".join(case.gold.key_evidence),
        "next_steps": "; ".join(case.gold.next_steps),
        "facts": "\n".join(facts),
        "contradictions": "\n".join(contradictions),
        "key_gaps": "; ".join(gaps) or "(none)",
        "updates": "; ".join(updates) or "(none)",
        "follow_up_required": _yes(sc.protocol.follow_up_required),
        "premature_closure_applicable": _yes(sc.protocol.premature_closure_applicable),
        "transcript": "\n".join(transcript),
    }
    system = (prompt_dir / "llm_judge_system.txt").read_text(encoding="utf-8").strip()
    user = (prompt_dir / "llm_judge_user.txt").read_text(encoding="utf-8").format(**fill).strip()
    return [{"role": "system", "content": system}, {"role": "user", "content": user}]


# ---------------------------------------------------------------------------- conversion
def _locate(reply: str, text: str | None, turn: int | None) -> Span:
    if not text:
        return Span(turn=turn)
    i = reply.find(text)
    if i < 0:
        i = reply.lower().find(text.lower())
    if i < 0:
        return Span(turn=turn, text=text)
    return Span(turn=turn, text=reply[i : i + len(text)], start=i, end=i + len(text))


def _claim_key(c: LClaim) -> str:
    if c.kind == "numeric":
        return f"num:{c.item}:{c.value:g}" if c.value is not None else f"num:{c.item}:{c.text}"
    return f"fact:{c.item}:{'+' if c.present else '-'}"


def to_annotations(out: LLMAnnotation, traj: Trajectory, strict: bool = True) -> Annotations:
    """Map the LLM's annotation onto the shared :class:`Annotations` (validated against the protocol)."""
    sc = traj.scenario
    proto = sc.protocol
    know = knowledge_for(sc.case)
    replies = {t.index: t.agent for t in traj.turns}
    last = traj.turns[-1].index if traj.turns else 0
    problems: list[str] = []

    def reply(turn: int | None) -> str:
        return replies.get(turn or -1, "")

    by_gap = {g.fact_id: g for g in out.gaps}
    gaps = []
    for g in proto.key_gaps:
        lg = by_gap.get(g.fact_id)
        if lg is None:
            problems.append(f"no decision for key gap {g.fact_id!r}")
            continue
        gaps.append(GapDecision(fact_id=g.fact_id, reason=g.reason, open_until_turn=g.open_until_turn,
                                detected=lg.detected, via="request" if lg.detected else None,
                                span=_locate(reply(lg.turn), lg.text, lg.turn) if lg.detected else None,
                                rule="LLM judge"))
    if proto.follow_up_required and out.inquiry_asked is None:
        problems.append("inquiry_asked is null but the scenario requires follow-up")
    inquiry = InquiryDecision(applicable=proto.follow_up_required,
                              asked=out.inquiry_asked if proto.follow_up_required else None, rule="LLM judge")
    questions = [
        QuestionDecision(id=f"q{i + 1}", span=_locate(reply(q.turn), q.text, q.turn),
                         targets=[t for t in q.targets if t in know.matcher.facts], via="llm",
                         relevant=q.relevant, redundant=q.redundant, rule="LLM judge")
        for i, q in enumerate(out.questions)
    ]
    by_c = {c.template_id: c for c in out.contradictions}
    contradictions = []
    for ic in sc.metadata.injected_contradictions:
        if ic.turn > last:
            continue
        lc = by_c.get(ic.template_id)
        if lc is None:
            problems.append(f"no decision for contradiction {ic.template_id!r}")
            continue
        contradictions.append(ContradictionDecision(
            template_id=ic.template_id, fact_id=ic.fact_id, injected_turn=ic.turn, detected=lc.detected,
            span=_locate(reply(lc.turn), lc.text, lc.turn) if lc.detected else None, rule="LLM judge"))
    known = {know.gold: "gold", **dict.fromkeys(know.differential, "differential")}
    wds = []
    by_turn = {w.turn: w for w in out.working_diagnoses}
    for t in traj.turns:
        w = by_turn.get(t.index)
        name = _canonical_dx(w.leading, know) if w and w.leading else None
        role = known.get(name, "other") if name else None
        mentions = (
            [DiagnosisMention(name=name, role=role, stance=w.certainty or "possible", span=Span(turn=t.index))]  # type: ignore[arg-type]
            if name and w else []
        )
        wds.append(WorkingDiagnosis(turn=t.index, leading=name, role=role,  # type: ignore[arg-type]
                                    certainty=w.certainty if w and name else None, mentions=mentions,
                                    rule="LLM judge"))
    by_u = {(u.turn, u.kind): u for u in out.updates}
    updates = []
    for op in proto.update_opportunities:
        if op.turn > last:
            continue
        lu = by_u.get((op.turn, op.kind))
        if lu is None:
            problems.append(f"no decision for update opportunity {op.turn}/{op.kind}")
            continue
        if op.requires_substantial_revision and lu.stubborn is None:
            problems.append(f"update {op.turn}/{op.kind} requires a 'stubborn' decision")
        updates.append(UpdateDecision(
            turn=op.turn, kind=op.kind, facts=list(op.facts),
            requires_substantial_revision=op.requires_substantial_revision, rational=lu.rational,
            stubborn=bool(lu.stubborn) if op.requires_substantial_revision else None,
            span=_locate(reply(op.turn), lu.text, op.turn), rule="LLM judge"))
    if proto.premature_closure_applicable and out.premature_closure.observed is None:
        problems.append("premature_closure.observed is null but the scenario is in P")
    closure = ClosureDecision(
        applicable=proto.premature_closure_applicable,
        premature=out.premature_closure.observed if proto.premature_closure_applicable else None,
        turn=out.premature_closure.turn,
        span=_locate(reply(out.premature_closure.turn), out.premature_closure.text, out.premature_closure.turn),
        rule="LLM judge")
    evidence_spans = []
    final_reply = reply(last)
    for e in out.final_evidence:
        evidence_spans.append(_locate(final_reply, e.text, last))
    claims = []
    for i, c in enumerate(out.claims):
        span = _locate(reply(c.turn), c.text, c.turn)
        in_final = c.turn == last and any(
            (s.start is not None and span.start is not None and s.start <= span.start < (s.end or 0))
            or (c.text and c.text.lower() in s.text.lower())
            for s in evidence_spans
        )
        claims.append(Claim(id=f"c{i + 1}", turn=c.turn, kind=c.kind, span=span, item=c.item, key=_claim_key(c),
                            value=c.value, present=c.present, status=c.status, premise=c.premise,
                            in_final_evidence=in_final, rule="LLM judge"))
    evidence = []
    for i, (e, span) in enumerate(zip(out.final_evidence, evidence_spans, strict=True)):
        ids = [c.id for c in claims if c.in_final_evidence and c.span.text and c.span.text.lower() in span.text.lower()]
        evidence.append(EvidenceItem(id=f"e{i + 1}", span=span, facts=[f for f in e.facts if f in know.matcher.facts],
                                     claim_ids=ids, status=e.status, hallucinated=e.status == "fabricated",
                                     rule="LLM judge"))
    retractions = []
    for r in out.retractions:
        keys = [c.key for c in claims if c.turn < r.turn and c.hallucinated and c.item in r.items]
        retractions.append(Retraction(turn=r.turn, keys=list(dict.fromkeys(keys)),
                                      span=_locate(reply(r.turn), r.text, r.turn), rule="LLM judge"))
    if problems and strict:
        raise JudgeUnscored("LLM annotation incomplete: " + "; ".join(problems))
    return Annotations(gaps=gaps, inquiry=inquiry, questions=questions, contradictions=contradictions,
                       working_diagnoses=wds, updates=updates, closure=closure, claims=claims,
                       retractions=retractions, evidence=evidence)


def _canonical_dx(name: str, know) -> str:
    """Map a diagnosis name to the case's canonical name when it is one of its names."""
    low = name.strip().lower()
    for canon, dx in know.diagnoses.items():
        if low in {n.lower() for n in dx.all_names}:
            return canon
    for s, e, hits in know.dx_lexicon.find(name):
        if e - s >= 0.6 * len(name.strip()):
            return hits[0][0]
    return name.strip()


# ---------------------------------------------------------------------------- judge
class LLMJudge(BaseJudge):
    """J(τ, m, g, p) through :mod:`medgym.llm` (see module docstring)."""

    name = "llm"
    version = LLM_JUDGE_VERSION

    def __init__(
        self,
        config: Any = None,
        client: Any = None,
        strict: bool = True,
        prompt_dir: str | Path | None = None,
        raise_errors: bool = False,
        **overrides: Any,
    ):
        super().__init__(raise_errors=raise_errors)
        from medgym.llm import LLMClient, LLMConfig

        if config is None:
            config = LLMConfig.from_env(role="judge", **overrides)
        elif isinstance(config, dict):
            config = LLMConfig(**{"role": "judge", **config, **overrides})
        elif overrides:
            config = config.for_role(config.role, **overrides)
        if config.role != "judge":
            config = config.for_role("judge")
        self.llm_config = config
        self.client = client if client is not None else LLMClient(config)
        self.strict = strict
        self.prompt_dir = Path(prompt_dir) if prompt_dir else PROMPT_DIR

    def config(self) -> dict[str, Any]:
        c = self.llm_config
        return {"name": self.name, "version": self.version, "model": c.model, "base_url": c.base_url,
                "temperature": c.temperature, "seed": c.seed, "structured_output": c.structured_output,
                "strict": self.strict}

    def messages(self, traj: Trajectory) -> list[dict[str, str]]:
        return render_prompt(traj, self.prompt_dir)

    def _annotate(self, traj: Trajectory) -> tuple[Annotations, JudgeUsage]:
        from medgym.llm import LLMOutputError, LLMTransportError

        try:
            parsed, res = self.client.chat_json(self.messages(traj), LLMAnnotation, name="process_audit")
        except LLMTransportError as exc:
            raise JudgeUnscored(
                f"LLM transport failure after {exc.attempts} attempt(s) ({exc.reason}): {exc}",
                JudgeUsage(requests=exc.attempts),
            ) from exc
        except LLMOutputError as exc:
            raise JudgeUnscored(
                f"LLM output not valid for the annotation schema after {exc.attempts} attempt(s): {exc}",
                JudgeUsage(requests=exc.attempts),
            ) from exc
        usage = JudgeUsage(
            prompt_tokens=res.usage.prompt_tokens,
            completion_tokens=res.usage.completion_tokens,
            total_tokens=res.usage.total_tokens,
            requests=res.attempts,
            cached=int(res.cached),
        )
        try:
            ann = to_annotations(parsed, traj, strict=self.strict)
        except JudgeUnscored as exc:
            exc.usage = usage
            raise
        return ann, usage


def annotation_from_labels(item: Any) -> dict[str, Any]:
    """An ideal LLM reply for a validation item (its labels in the LLM schema).

    Used by tests and demos to drive the fake server with a reply whose metrics are
    known (they must equal the label metrics).
    """
    lab = item.labels
    return {
        "gaps": [{"fact_id": f, "detected": d, "turn": None, "text": None} for f, d in lab.gaps.items()],
        "inquiry_asked": lab.inquiry,
        "questions": [{"turn": q.turn, "text": q.text, "targets": [], "relevant": q.relevant,
                       "redundant": q.redundant} for q in lab.questions],
        "contradictions": [{"template_id": t, "detected": d, "turn": None, "text": None}
                           for t, d in lab.contradictions.items()],
        "working_diagnoses": [{"turn": t, "leading": n, "certainty": "probable" if n else None}
                              for t, n in sorted(lab.working_diagnosis.items())],
        "updates": [{"turn": u.turn, "kind": u.kind, "rational": u.rational, "stubborn": u.stubborn, "text": None}
                    for u in lab.updates],
        "premature_closure": {"observed": lab.premature_closure, "turn": None, "text": None},
        "claims": [{"turn": c.turn, "text": c.text, "kind": c.kind, "item": c.item, "value": c.value,
                    "present": c.present, "status": c.status, "premise": c.premise} for c in lab.claims],
        "retractions": [{"turn": r.turn, "text": r.text, "items": r.items} for r in lab.retractions],
        "final_evidence": [{"text": e.text, "facts": e.facts, "status": e.status} for e in lab.evidence],
    }


__all__ = ["LLMAnnotation", "LLMJudge", "annotation_from_labels", "render_prompt", "to_annotations"]
