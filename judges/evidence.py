"""Final evidence items (EF, FCR, DHDR, CHO).

The evidence E of the final response is read from the last reply:

* if it has an evidence section ("Evidence:", "Supporting evidence:", "Key
  findings:" ...), its bullets and sentences, plus any differential-section
  sentence and the support clause of the diagnosis line ("..., given the normal
  ultrasound");
* otherwise every sentence of the last reply that is not a question, a
  recommendation (next steps / plan section) or the bare diagnosis line.

An item counts only if it cites something: at least one claim or one case fact.
Its status follows its claims: any hallucinated claim -> ``fabricated``
(hallucinated: counts in FCR and DHDR); otherwise any restated injected
contradiction -> ``contradicted`` (FCR only); otherwise ``supported``. An item
naming case facts without a checkable claim is supported when those facts were
released by the final turn.
"""

from __future__ import annotations

import re

from medgym.envs.compiler import has_final_diagnosis
from medgym.judges.context import CaseKnowledge, TurnContext, fact_mentions
from medgym.judges.results import Claim, EvidenceItem, Span
from medgym.judges.textrules import MISSING_RX, MODAL_RX, QUESTION_RX, SUPPORT_CLAUSE_RX, Segment


def _copied(text: str, tc: TurnContext) -> bool:
    from medgym.judges.claims import _squash

    sq = _squash(text)
    return len(sq.split()) >= 5 and sq in _squash(tc.user_text)


def _support_clause(line: str) -> re.Match[str] | None:
    """The support clause of a diagnosis line ("..., given the lipase of 2840"), or None. A "with"
    clause there is part of the diagnosis (a co-diagnosis, a contributor, a complication: "iron
    deficiency anaemia, with a mildly raised lead level", "..., with clarithromycin potentiating the
    warfarin", "..., with oxybutynin as the trigger"), so only an explicit support connector (given,
    because, based on, supported by, in view of, evidenced by) opens evidence on that line."""
    for m in SUPPORT_CLAUSE_RX.finditer(line):
        if m.group(0).lower() != "with":
            return m
    return None


def evidence_segments(reply: str, segments: list[Segment]) -> list[tuple[int, int, str]]:
    """(start, end, rule) spans of the final reply that hold evidence items."""
    final = has_final_diagnosis(reply)
    has_section = any(s.section == "evidence" for s in segments)
    out: list[tuple[int, int, str]] = []
    merged: list[Segment] = []
    for s in segments:  # a bullet is one item even if it holds several sentences
        if merged and s.bullet and merged[-1].bullet and merged[-1].line == s.line:
            last = merged[-1]
            merged[-1] = Segment(reply[last.start : s.end], last.start, s.end, last.section, True, last.line,
                                 last.heading, last.index, last.line_start)
        else:
            merged.append(s)
    for s in merged:
        # bullets under an inline "Final diagnosis: X" line are the evidence listed for it
        is_dx_line = has_final_diagnosis(s.text) or (s.section == "diagnosis" and not s.bullet)
        if is_dx_line:
            m = _support_clause(s.text)
            if m and final and not MODAL_RX.search(s.text[m.start():]):
                out.append((s.start + m.start(), s.end, "support clause of the diagnosis line"))
            continue
        if s.section in ("plan", "questions") or s.text.rstrip().endswith("?"):
            continue
        if has_section:
            if s.section in ("evidence", "differential"):
                out.append((s.start, s.end, f"{s.section} section item"))
        elif not QUESTION_RX.search(s.text):
            out.append((s.start, s.end, "sentence of the final answer"))
    return out


def evidence_items(
    tc: TurnContext, segments: list[Segment], claims: list[Claim], know: CaseKnowledge
) -> list[EvidenceItem]:
    """Evidence items of the final reply, with support status; marks claims ``in_final_evidence``."""
    items: list[EvidenceItem] = []
    for start, end, why in evidence_segments(tc.agent, segments):
        text = tc.agent[start:end]
        inside = [c for c in claims if c.turn == tc.index and c.span.start is not None and start <= c.span.start < end]
        facts = []
        dx_spans = [(a, b) for a, b, _hits in know.dx_lexicon.find(text)]
        for m in fact_mentions(know, text):
            if any(a <= m.start and m.end <= b and (b - a) > (m.end - m.start) for a, b in dx_spans):
                continue  # part of a longer diagnosis name ("toxic multinodular goitre")
            if m.kind == "fact":
                facts.append(m.item_id)
            elif (tmpl := know.templates.get(m.item_id)) is not None:
                facts.append(tmpl.fact_id)
        facts = list(dict.fromkeys([*facts, *(c.item for c in inside if c.item in know.matcher.facts)]))
        if not inside and not facts:
            continue
        if not inside and why.startswith("differential"):
            continue  # a list of alternative diagnoses cites no evidence
        for c in inside:
            c.in_final_evidence = True
        halluc = [c for c in inside if c.hallucinated]
        restated = [c for c in inside if c.status == "restated_contradiction"]
        injected_here = [
            (tmpl.fact_id, tmpl.id)
            for m in fact_mentions(know, text)
            if m.kind == "contradiction" and (tmpl := know.templates.get(m.item_id)) is not None
            and any(t.id == tmpl.id for t, _turn in tc.injected)
            and not any(a <= m.start and m.end <= b and (b - a) > (m.end - m.start) for a, b in dx_spans)
        ]
        if halluc:
            status, rule = "fabricated", f"rests on hallucinated claim(s) {[c.id for c in halluc]}"
        elif restated:
            status, rule = "contradicted", f"restates the injected contradiction ({[c.id for c in restated]})"
        elif not inside and injected_here and all(
            f in {fid for fid, _ in injected_here} for f in facts
        ):
            status, rule = "contradicted", f"cites the injected statement ({injected_here[0][1]})"
        elif inside:
            status, rule = "supported", "every claim in it is supported"
        else:
            unreleased = [f for f in facts if f not in tc.released]
            if unreleased and _copied(text, tc):
                unreleased = []  # copied verbatim from what was released
            if unreleased and (MISSING_RX.search(text) or MODAL_RX.search(text)):
                continue  # names what is still to come, cites nothing
            if unreleased:
                status, rule = "fabricated", f"cites facts never released: {unreleased}"
            else:
                status, rule = "supported", "cites released facts"
        if status == "contradicted" or restated:
            # citing the injected statement is not citing the genuine fact it contradicts (CHO); round 136: also
            # when an invention beside it makes the item fabricated ("Never-smoker with a sister who had lung cancer")
            contradicted = {c.item for c in restated} | ({fid for fid, _ in injected_here} if status == "contradicted" else set())
            facts = [f for f in facts if f not in contradicted]
        items.append(
            EvidenceItem(
                id=f"e{len(items) + 1}",
                span=Span(turn=tc.index, text=text, start=start, end=end),
                facts=facts,
                claim_ids=[c.id for c in inside],
                status=status,  # type: ignore[arg-type]
                hallucinated=status == "fabricated",
                rule=f"{why}: {rule}",
            )
        )
    return items
