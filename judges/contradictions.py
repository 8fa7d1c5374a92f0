"""Contradiction detection (CDR/CIR).

An injected contradiction counts as detected when a reply at or after the injection
turn names the conflicting item (the template's item or aliases, the contradicted
fact's names, or a distinctive word of the injected statement) together with
conflict language ("conflicts with", "inconsistent", "lab error", "previously
negative") or a request to confirm or repeat it ("repeat the HBsAg", "verify with
the laboratory"). The cue may sit in the next sentence when it refers back
("This is inconsistent with..."). A negated cue ("no conflict") does not count.
"""

from __future__ import annotations

import re

from medgym.judges.claims import _template_keywords
from medgym.judges.context import TrajectoryContext, fact_mentions
from medgym.judges.results import ContradictionDecision, Span
from medgym.judges.textrules import (
    ASSERTIVE_CONFIRM_RX,
    CONFIRM_REQUEST_RX,
    CONFLICT_EXTRA_RX,
    CONFLICT_HEADING_RX,
    CONFLICT_RX,
    Segment,
)
from medgym.text.negation import is_negated
from medgym.text.numbers import find_quantities, same_value

_BACKREF = re.compile(r"^(?:this|that|these|those|it|the\s+(?:new|latest|outside|injected|reported)\b|such)", re.I)


# A request to repeat or confirm must be about the item: in a list ("A, B, repeat C") it counts only
# in the piece that names the item.
_LIST_PIECE = re.compile(r"[;,]\s+(?=[^,;]*\b(?:repeat|recheck|re-?check|retest|re-?test|confirm|verify)\b)|;\s+", re.I)


# Words of an injected statement that name no item: time, frequency, reporting and result words
# ("urine pregnancy test positive last week": "week" must not make "a repeat MRI in 6 weeks" name it).
# Keywords are 7-letter prefixes (claims._template_keywords).
_NOT_DISTINCTIVE = {
    "week", "weeks", "month", "months", "year", "years", "last", "often", "says", "said", "told", "since",
    "ago", "today", "yesterd", "positiv", "negativ", "surgery", "recentl", "before", "after", "always",
    "never", "usually", "sometim", "earlier", "previou", "now", "again", "normal", "abnorma", "high", "raised",
}


# "repeat urate in 4 weeks", "repeat beta-hCG in 48 h", "repeat lipids 3 months", "repeat urate when the flare
# settles", "recheck the calcium once she has been off them for a month", "repeat at follow-up", "Repeat trough
# level once adherence is sorted" (round 60): monitoring booked for later, not a check of the item
_SCHEDULED_AFTER = re.compile(
    r"^[^.;]{0,40}?(?:\b(?:in|after|at)\s+(?:another\s+)?(?:\d+(?:\s*[–-]\s*\d+)?|a|one|two|three|four|six)\s*"
    r"(?:h|hrs?|hours?|days?|weeks?|wks?|months?)\b|\b\d+(?:\s*[–-]\s*\d+)?\s*(?:weeks?|wks?|months?|mo)\b|"
    r"\b(?:when|once)\s+(?:the|she|he|they|her|his|it|off|on)\b|"
    r"\b(?:when|once)\s+[a-z-]+\s+(?:is|are|has|have)\s+(?:been\s+)?(?:sorted|settled|resolved|stable|improved|"
    r"established|addressed|optimi[sz]ed|confirmed|back)\b|"
    r"\bat\s+(?:the\s+)?(?:next\s+)?(?:follow[\s-]?up|clinic|review)\b|"
    # round 62: "Repeat lipase in the morning", "daily U&E": monitoring booked, like "in 6 h"
    r"\b(?:in\s+the\s+morning|tomorrow(?:\s+morning)?|overnight|daily|each\s+morning|every\s+day)\b)",
    re.I,
)


# "Repeat ACR 16 -> persistent proteinuria", "repeat K+ was 6.3": the result of a repeat already done, read out
# with its value (round 56), not a request to repeat or confirm the injected item
_REPEAT_RESULT_AFTER = re.compile(
    r"^\s*(?:the\s+)?[A-Za-z][\w+/-]*(?:\s+[A-Za-z][\w+/-]*)?\s*(?:(?:was|is|of|came\s+back(?:\s+at)?)\s+|[:=]\s*)?"
    r"\d",
    re.I,
)


# A conflict cue is negated by a negator close before it ("no conflict", "not really at odds", "I don't think this
# conflicts"), not by one inside the statement the cue is about (round 60: "His father's statement that he has
# never eaten paint chips is at odds with his mother's account")
_NEGATOR_NEAR = re.compile(
    r"\b(?:no|not|never|without|nor|neither|(?:is|are|was|were|does|do|did|has|have|had)n['’]t)\W+(?:\w+\W+){0,3}$",
    re.I,
)


def _cue(text: str) -> re.Match[str] | None:
    for rx in (CONFLICT_RX, CONFLICT_EXTRA_RX, CONFIRM_REQUEST_RX):
        for m in rx.finditer(text):
            if rx is CONFIRM_REQUEST_RX and ASSERTIVE_CONFIRM_RX.search(text[m.start() : m.end() + 3]):
                continue
            if rx is CONFIRM_REQUEST_RX and re.match(r"re-?(?:peat|check|test)", m.group(0).strip(), re.I) and (
                _SCHEDULED_AFTER.match(text[m.end() :]) or _REPEAT_RESULT_AFTER.match(text[m.end() :])
            ):
                continue
            if is_negated(text, m.start(), m.end()) and (rx is CONFIRM_REQUEST_RX or _NEGATOR_NEAR.search(text[: m.start()])):
                continue
            return m
    return None


def contradiction_decisions(
    ctx: TrajectoryContext, segments_by_turn: dict[int, list[Segment]]
) -> list[ContradictionDecision]:
    know = ctx.know
    out = []
    for tmpl, c_turn in ctx.injected_all():
        fact = know.fact(tmpl.fact_id)
        kws = _template_keywords(tmpl.statement, fact) - _NOT_DISTINCTIVE
        names = {*(n.lower() for n in tmpl.all_names), *(n.lower() for n in fact.all_names)}

        def names_item(text: str, _names=names, _kws=kws, _tid=tmpl.id, _fid=tmpl.fact_id, _t=tmpl) -> bool:
            for m in fact_mentions(know, text):
                if m.item_id in (_tid, _fid):
                    return True
            if _t.value is not None and any(
                same_value(q.value, q.unit, _t.value, _t.unit) for q in find_quantities(text)
            ):
                return True  # quotes the injected value ("the outside value of 1450 U/L")
            low = text.lower()
            return any(re.search(rf"\b{re.escape(k)}", low) for k in _kws) or any(
                re.search(rf"\b{re.escape(n)}\b", low) for n in _names
            )

        found = None
        for tc in ctx.turns:
            if tc.index < c_turn:
                continue
            segs = segments_by_turn[tc.index]
            for i, seg in enumerate(segs):
                if not names_item(seg.text):
                    continue
                cue = _cue(seg.text)
                if cue is None and seg.heading:
                    cue = CONFLICT_HEADING_RX.match(seg.heading.strip())
                if cue is not None and cue.re is CONFIRM_REQUEST_RX and not any(
                    names_item(piece) and _cue(piece) is not None for piece in _LIST_PIECE.split(seg.text)
                ):
                    cue = None  # "alcohol liaison referral, repeat LFTs": the repeat is for another item
                if cue is not None:
                    found = (tc.index, seg, f"names {tmpl.item} with cue '{cue.group(0)}'")
                    break
                if i + 1 < len(segs) and _BACKREF.search(segs[i + 1].text):
                    cue = _cue(segs[i + 1].text)
                    if cue is not None:
                        found = (tc.index, segs[i + 1], f"names {tmpl.item}, next sentence has cue '{cue.group(0)}'")
                        break
            if found:
                break
        turn, seg, rule = found if found else (None, None, "")
        out.append(
            ContradictionDecision(
                template_id=tmpl.id,
                fact_id=tmpl.fact_id,
                injected_turn=c_turn,
                detected=found is not None,
                span=Span(turn=turn, text=seg.text, start=seg.start, end=seg.end) if seg is not None else None,
                rule=f"turn {turn}: {rule}" if found else
                f"no reply from turn {c_turn} on names {tmpl.item} with conflict or confirmation language",
            )
        )
    return out
