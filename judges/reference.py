"""The offline reference judge: deterministic, no network, no API key.

It reads a trajectory with the scenario's structured facts (names, aliases, values,
units, release turns), the lexical rules of :mod:`medgym.judges.textrules`, number
and unit parsing (:mod:`medgym.text.numbers`) and MiniLM similarity (batched,
cached per text, used only where the lexical rules find nothing). Each node has its
own small module:

===================  ===========================================
gap detection, IR    :mod:`medgym.judges.questions`, :mod:`medgym.judges.updates`
follow-up (PIR/RIR)  :mod:`medgym.judges.questions`
contradiction        :mod:`medgym.judges.contradictions`
diagnosis update     :mod:`medgym.judges.diagnoses`, :mod:`medgym.judges.updates`
evidence grounding   :mod:`medgym.judges.evidence`
hallucinations       :mod:`medgym.judges.claims` + shared :mod:`medgym.judges.formulas`
===================  ===========================================

Every decision is recorded with the text span that triggered it and the rule that
fired. The same trajectory always gives the same result.
"""

from __future__ import annotations

import re
from typing import Any

from medgym.envs.trajectory import Trajectory
from medgym.judges.base import BaseJudge
from medgym.judges.claim_tracks import (
    follow_invented_findings,
    follow_invented_reports,
    follow_invented_values,
)
from medgym.judges.claims import ClaimExtractor
from medgym.judges.context import TrajectoryContext
from medgym.judges.contradictions import contradiction_decisions
from medgym.judges.diagnoses import reply_diagnoses
from medgym.judges.evidence import evidence_items
from medgym.judges.questions import BARE_ITEM_RULE, QuestionReader, gap_decisions
from medgym.judges.results import Annotations, JudgeUsage, Retraction, Span
from medgym.judges.textrules import Segment, segment_reply
from medgym.judges.updates import closure_decision, inquiry_decision, update_decisions
from medgym.text.numbers import find_quantities

REFERENCE_VERSION = "1.0"


class ReferenceJudge(BaseJudge):
    """Rule-based J(τ, m, g, p) (see module docstring)."""

    name = "reference"
    version = REFERENCE_VERSION
    #: CPU-bound (regexes + MiniLM on torch, which already uses every core): the batch
    #: runner lets one episode judge at a time instead of letting 8 threads thrash.
    max_parallel = 1
    #: ...but separate processes do run in parallel: ``judge_many(trajectories, workers=2)``
    process_parallel = True

    def __init__(self, semantic: bool = True, raise_errors: bool = False):
        super().__init__(raise_errors=raise_errors)
        self.semantic = semantic
        self._extractors: dict[int, tuple[Any, ClaimExtractor]] = {}

    def config(self) -> dict[str, Any]:
        return {"name": self.name, "version": self.version, "semantic": self.semantic}

    def warm_up(self) -> None:
        """Load the MiniLM model now. The batch runner calls this before forking worker
        processes, so they share one copy of the weights instead of loading one each."""
        if self.semantic:
            from medgym.text.embeddings import get_model

            get_model()

    def _extractor(self, ctx: TrajectoryContext) -> ClaimExtractor:
        key = id(ctx.know)
        hit = self._extractors.get(key)
        if hit is None or hit[0] is not ctx.know:
            if len(self._extractors) > 512:
                self._extractors.clear()
            hit = (ctx.know, ClaimExtractor(ctx.know))
            self._extractors[key] = hit
        return hit[1]

    def _annotate(self, traj: Trajectory) -> tuple[Annotations, JudgeUsage]:
        return self.annotate(traj), JudgeUsage()

    def annotate(self, traj: Trajectory) -> Annotations:
        """Base annotations of every node (derived ones are added by the shared formulas)."""
        ctx = TrajectoryContext.build(traj)
        know = ctx.know
        segments = {tc.index: segment_reply(tc.agent) for tc in ctx.turns}

        # working diagnosis per turn
        wds = {
            tc.index: reply_diagnoses(tc.agent, segments[tc.index], know, tc.index, self.semantic)
            for tc in ctx.turns
        }

        # questions and gaps
        reader = QuestionReader(know, semantic=self.semantic)
        records, gap_mentions = reader.read(ctx, segments)
        questions = [r.decision for r in records]
        gaps = gap_decisions(ctx, gap_mentions)

        # contradictions, updates, closure, inquiry
        contradictions = contradiction_decisions(ctx, segments)
        updates = update_decisions(ctx, wds, contradictions)
        closure = closure_decision(ctx, wds)
        inquiry = inquiry_decision(ctx, wds, questions)

        # claims per turn
        extractor = self._extractor(ctx)
        claims = []
        retractions: list[Retraction] = []
        for tc in ctx.turns:
            dx_spans = [
                (m.span.start, m.span.end) for m in wds[tc.index].mentions if m.span.start is not None
            ]
            extractor.earlier = claims
            # (requests read from their words, "F/u NS1/IgM"; not a bare list item read as an order, which may be
            # a finding: "Mild jaundice on inspection")
            asked = frozenset(
                q.span.start for q in questions
                if q.span.turn == tc.index and q.span.start is not None and not q.rule.startswith(BARE_ITEM_RULE)
            )
            got = extractor.extract(tc, segments[tc.index], dx_spans, len(claims) + 1, tc.final, asked)
            claims.extend(got.claims)
            for seg, items in got.retraction_segments:
                keys = _retracted_keys(claims, tc.index, items, _with_antecedent(seg, segments[tc.index]))
                retractions.append(
                    Retraction(
                        turn=tc.index,
                        keys=keys,
                        span=Span(turn=tc.index, text=seg.text, start=seg.start, end=seg.end),
                        rule="withdrawal language"
                        + (f" about earlier unsupported claim(s) {keys}" if keys else " (no earlier claim matched)"),
                    )
                )

        extractor.earlier = []
        follow_invented_values(claims, retractions)
        follow_invented_findings(claims, retractions)
        follow_invented_reports(claims, retractions)

        # final evidence
        last = ctx.turns[-1] if ctx.turns else None
        evidence = evidence_items(last, segments[last.index], claims, know) if last else []

        ann = Annotations(
            gaps=gaps,
            inquiry=inquiry,
            questions=questions,
            contradictions=contradictions,
            working_diagnoses=[wds[t] for t in sorted(wds)],
            updates=updates,
            closure=closure,
            claims=claims,
            retractions=retractions,
            evidence=evidence,
        )
        return ann


_BACK_REFERENCE = re.compile(r"^\W*(?:that|this|which|it)\b", re.I)


def _with_antecedent(seg: Segment, turn_segments: list[Segment]) -> str:
    """The withdrawal sentence's text, with the piece before it when it opens by pointing back ("I wrote Hgb
    11.4 earlier; that was a typo": the value is in the piece the segmenter cut off at the semicolon)."""
    i = next((k for k, s in enumerate(turn_segments) if s is seg), None)
    if i and _BACK_REFERENCE.match(seg.text):
        return turn_segments[i - 1].text + " " + seg.text
    return seg.text


def _retracted_keys(claims, turn: int, items: set[str], text: str) -> list[str]:
    """Keys of earlier hallucinated claims that a withdrawal sentence refers to."""
    values = {float(v.split(":", 1)[1]) for v in items if v.startswith("value:")}
    values |= {q.value for q in find_quantities(text)}
    keys = []
    for c in claims:
        if c.turn >= turn or not c.hallucinated:
            continue
        if c.item in items or (c.value is not None and c.value in values) or c.item.startswith("term:") and re.search(re.escape(c.item[5:]), text, re.I):
            keys.append(c.key)
    return list(dict.fromkeys(keys))
