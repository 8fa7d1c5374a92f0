"""The working diagnosis of each reply: which diagnoses are named, how firmly, which leads.

A diagnosis mention gets a *stance* from the words around it, in this priority:

* ``excluded``: "unlikely", "ruled out", "rather than X", "not X", "X has been excluded";
* ``definitive``: the "Final diagnosis:" line, "the diagnosis is X", "this is X",
  "X is confirmed", unless a hedge in the same clause downgrades it;
* ``probable``: "most likely", "likely", "favour", "consistent with", "working diagnosis";
* ``possible``: "could be", "consider", "rule out", "X vs Y", a differential list.

The leading (working) diagnosis of a reply is the diagnosis on its "Final
diagnosis:" line if there is one; otherwise the first-ranked mention among those
with the firmest non-excluded stance (hedged hypotheses rank below commitments).
Names outside the case's gold/differential are caught on diagnosis lines and
"the most likely diagnosis is X" phrasings and matched to the case's diagnoses by
MiniLM similarity when they are paraphrases.
"""

from __future__ import annotations

import re

import numpy as np

from medgym.envs.compiler import has_final_diagnosis
from medgym.judges.context import CaseKnowledge, fact_mentions
from medgym.judges.results import DiagnosisMention, Span, WorkingDiagnosis
from medgym.judges.textrules import (
    DEFINITIVE_DX_RX,
    HEDGE_DX_DOWNGRADE_RX,
    HEDGE_RX,
    POSSIBLE_DX_RX,
    PROBABLE_DX_RX,
    QUESTION_RX,
    Segment,
    clause_bounds,
)

_RANK = {"definitive": 3, "probable": 2, "possible": 1, "excluded": 0}
# an explicit "my leading / working / most likely diagnosis" outranks a passing "probably"
_LEAD_CUE = re.compile(
    r"\b(?:leading|working\s+diagnosis|most\s+likely|likeliest|top\s+of|primary\s+diagnosis|favou?r)\b", re.I
)
_EXCLUDED_BEFORE = re.compile(
    r"(?:\b(?:not|no|rather\s+than|instead\s+of|against|rules?\s+out|ruled\s+out|excludes?|excluding|"
    r"no\s+evidence\s+of|no\s+longer|away\s+from|unlikely\s+to\s+be|less\s+likely\s+to\s+be|argues?\s+against|"
    r"makes?|made|dismiss(?:ed|ing)?|(?:un)?likely|improbable)\b[^.;]{0,40})$",
    re.I,
)
_EXCLUDED_BEFORE_STRICT = re.compile(
    r"(?:\b(?:not|rather\s+than|instead\s+of|against|rules\s+out|ruled\s+out|excludes|no\s+evidence\s+of|"
    r"no\s+longer|away\s+from|unlikely\s+to\s+be|argues?\s+against|arguing\s+against|dismiss(?:ed|ing)?)\b\s*"
    r"(?:[\w\-]+\s+){0,3})$"
    r"|(?:\bno\s+(?:\w+\s+){0,1})$",
    re.I,
)
_EXCLUDED_AFTER = re.compile(
    r"^[^.;]{0,40}?\b(?:(?:is|seems|appears|looks|now|remains|becomes|become|are|was)\s+(?:\w+\s+){0,2}?"
    r"(?:unlikely|less\s+likely|improbable|excluded|ruled\s+out|not\s+supported|not\s+likely)|"
    r"(?:has|have|had)\s+been\s+(?:\w+\s+)?(?:excluded|ruled\s+out)|unlikely|less\s+likely|excluded|"
    r"ruled\s+out|is\s+not\s+(?:the|a)\s+(?:diagnosis|cause)|does\s+not\s+fit|doesn't\s+fit|"
    r"no\s+longer\s+(?:fits|likely|tenable))\b",
    re.I,
)
_RULE_OUT_BEFORE = re.compile(r"\b(?:rule\s+out|to\s+exclude|exclude|excluding\s+need)\s+(?:\w+\s+){0,3}$", re.I)
_DEFINITIVE_AFTER = re.compile(
    r"^[^.;]{0,30}?\b(?:is\s+confirmed|confirmed|is\s+(?:the|our)\s+(?:final\s+)?diagnosis|is\s+certain|"
    r"is\s+definite)\b",
    re.I,
)
_PROBABLE_AFTER = re.compile(
    r"^[^.;]{0,40}?\b(?:(?:is|remains|seems|appears|looks)\s+(?:\w+\s+){0,2}?(?:most\s+likely|likely|probable|"
    r"the\s+(?:leading|working|most\s+likely|likeliest)|favou?red|my\s+(?:leading|working))|"
    r"(?:fits|explains)\s+(?:best|the\s+(?:whole\s+)?picture|everything|all)|best\s+explains)|"
    r"^\s*(?:the\s+)?(?:most\s+likely|likeliest|likely|probable)\b",
    re.I,
)
_ANAPHORA_EXCLUDED = re.compile(
    r"^(?:it|this|that|this\s+diagnosis|that\s+diagnosis|the\s+latter|the\s+former)\b[^.;]{0,40}\b(?:unlikely|"
    r"excluded|ruled\s+out|less\s+likely|improbable|no\s+longer)\b",
    re.I,
)
_OTHER_DX_PATTERNS = [
    re.compile(r"\bfinal\s+(?:working\s+)?diagnosis\s*(?:is\s*|[:\-–—]\s*)(?P<dx>[^.;\n(]{3,80})", re.I),
    re.compile(
        r"\b(?:most\s+likely|leading|working|provisional|likely)\s+diagnosis\s*(?:is\s*|[:\-–—]\s*)"
        r"(?P<dx>[^.;\n(]{3,80})",
        re.I,
    ),
    re.compile(r"^\s*(?:the\s+)?diagnosis\s*(?:is\s*|[:\-–—]\s*)(?P<dx>[^.;\n(]{3,80})", re.I),
    re.compile(r"^\s*(?:most\s+)?(?:likely|probably|probable|suspected|presumed)\s+(?P<dx>[^.;\n(,]{3,60})", re.I),
]
_DX_TRIM = re.compile(
    r"^(?:probable|probably|likely|most\s+likely|possible|suspected|presumed|definite|acute\s+)?\s*|"
    r"\s+(?:secondary\s+to|due\s+to|caused\s+by|from|with|given|because|based\s+on|supported\s+by)\b.*$",
    re.I,
)
SEMANTIC_DX_THRESHOLD = 0.70
_HISTORY_BEFORE = re.compile(
    r"\b(?:history\s+of|known|previous(?:ly)?|prior|diagnosed\s+with|has\s+had|have\s+had|had|treated\s+for|"
    r"on\s+treatment\s+for|background\s+of)\s+(?:\w+\s+){0,2}$",
    re.I,
)
# "her migraines", "his asthma": a condition owned by the patient is past history when it is not the
# case's gold diagnosis (the agent asserts the patient has it, it does not propose it).
_POSSESSIVE_HISTORY = re.compile(r"\b(?:her|his|the\s+patient's|their)\s+(?:known\s+|usual\s+|longstanding\s+)?$", re.I)
_REPORTED_BEFORE = re.compile(
    r"\b(?:letter|report|reports|addendum|note|records?|according\s+to|describ\w*|says|said|claims?|"
    r"mentions?|account)\b[^.;:,]{0,30}$",
    re.I,
)
_MODAL_EXCLUDE = re.compile(
    r"\b(?:must|should|needs?\s+to|need\s+to|has\s+to|have\s+to|to)\s+be\s+(?:\w+\s+)?(?:excluded|ruled\s+out)|"
    r"\bneeds?\s+(?:excluding|ruling\s+out)",
    re.I,
)
_TEST_AFTER = re.compile(
    r"^\s*(?:screen(?:ing)?|serology|tests?|panel|markers?|antibod\w*|antigen|PCR|DNA|RNA|titres?|titers?|"
    r"status|swab|culture)\b",
    re.I,
)


# Protection talk names a diagnosis without taking a stance on it for this patient.
_NOT_A_STANCE_BEFORE = re.compile(
    r"\b(?:protect(?:s|ed|ion|ive)?|prophylaxis|immuni[sz]\w*|vaccinat\w*|guard(?:s|ed)?)\s+(?:\w+\s+){0,2}?"
    r"against\s+(?:\w+\s+){0,2}$",
    re.I,
)


def _role(know: CaseKnowledge, name: str) -> str:
    if name == know.gold:
        return "gold"
    if name in know.differential:
        return "differential"
    return "other"


def _stance(text: str, start: int, end: int, seg: Segment, final_line: bool, n_dx: int = 1) -> str:
    c0, c1 = clause_bounds(text, start)
    before_clause = text[c0:start]
    before_sent = text[max(0, start - 80) : start]
    after_clause = text[end:c1] if c1 > end else text[end : end + 60]
    if c1 <= end:
        # the mention closes its clause: what follows a coordination is about something else
        # ("this is intussusception, and volvulus is now unlikely")
        cut = re.search(r"\b(?:and|but|while|whereas|although|though|so)\b", after_clause)
        if cut:
            after_clause = after_clause[: cut.start()]
    after = text[end : end + 60]
    if _RULE_OUT_BEFORE.search(before_sent) and not re.search(r"\b(?:rules|ruled)\s+out\b", before_sent[-40:], re.I):
        return "possible"
    if _MODAL_EXCLUDE.search(after_clause[:60]):
        return "possible"  # "must be excluded": a hypothesis still to test
    if _EXCLUDED_BEFORE_STRICT.search(before_clause) or _EXCLUDED_AFTER.search(after_clause):
        return "excluded"
    if final_line:
        return "definitive"
    hedge = HEDGE_DX_DOWNGRADE_RX.search(before_clause) or HEDGE_DX_DOWNGRADE_RX.search(after_clause)
    if DEFINITIVE_DX_RX.search(before_clause[-30:]) or _DEFINITIVE_AFTER.search(after_clause):
        return "probable" if hedge else "definitive"
    if seg.section == "diagnosis":
        head = (seg.heading or "").lower()
        if "final" in head:
            return "definitive"
        if re.fullmatch(r"\W*diagnosis\W*", head) and not hedge and not POSSIBLE_DX_RX.search(text) and not (
            PROBABLE_DX_RX.search(text)
        ):
            return "definitive"  # "Diagnosis: CO poisoning." stated flatly under a bare heading
        return "probable"
    if PROBABLE_DX_RX.search(before_sent[-70:]) or _PROBABLE_AFTER.search(after):
        if POSSIBLE_DX_RX.search(before_clause[-25:]) and not PROBABLE_DX_RX.search(before_clause):
            return "possible"
        return "probable"
    if (
        POSSIBLE_DX_RX.search(text)
        or HEDGE_RX.search(text)
        or QUESTION_RX.search(text)
        or seg.section in ("differential", "plan", "questions")
    ):
        return "possible"
    if n_dx > 1:
        return "possible"  # several diagnoses named without ranking cues: a list of hypotheses
    lead = re.sub(r"^\W*(?:no\s+change|unchanged|same\s+diagnosis|still|again)\W*", "", text[:start], flags=re.I)
    if len(lead.split()) <= 2:
        return "definitive"  # stated flatly ("Pulmonary embolism on CTPA.", "Still DILI.", "No change - X.")
    return "possible"


def reply_diagnoses(
    reply: str, segments: list[Segment], know: CaseKnowledge, turn: int, semantic: bool = True
) -> WorkingDiagnosis:
    """Diagnosis mentions of one reply and its leading diagnosis."""
    mentions: list[tuple[int, DiagnosisMention]] = []
    boosted: set[int] = set()  # ids of mentions with an explicit "leading/working diagnosis" cue
    fact_spans = []
    for seg in segments:
        text = seg.text
        fspans = [(m.start, m.end) for m in fact_mentions(know, text)]
        fact_spans.append(fspans)
        final_line = has_final_diagnosis(text) or (
            seg.section == "diagnosis" and seg.heading is not None and "final" in seg.heading.lower()
        )
        seg_mentions: list[DiagnosisMention] = []
        seen_final = False
        dx_hits = know.dx_lexicon.find(text)
        n_dx = len({h[0] for _s, _e, hits in dx_hits for h in hits})
        for s, e, hits in dx_hits:
            if any(fs <= s and e <= fe and (fe - fs) > (e - s) for fs, fe in fspans):
                continue  # part of a longer fact name ("viral hepatitis serology")
            possessive = _POSSESSIVE_HISTORY.search(text[max(0, s - 20) : s]) and all(
                h[0] != know.gold for h in hits
            )
            if (_HISTORY_BEFORE.search(text[max(0, s - 40) : s]) or possessive) and not re.match(
                r"(?:undiagnosed|unrecognised|unrecognized|new)\b", text[s:e], re.I
            ):
                continue  # a claim about the past history, handled as a factual claim
            if _REPORTED_BEFORE.search(text[max(0, s - 60) : s]):
                continue  # what a letter or report says, not the agent's own hypothesis
            if _TEST_AFTER.match(text[e : e + 20]):
                continue  # a test named after the disease ("viral hepatitis screen")
            if _NOT_A_STANCE_BEFORE.search(text[max(0, s - 50) : s]):
                continue  # "an IUD does not protect against ectopic implantation": risk talk, not a stance
            for name, _kind in hits:
                is_final = final_line and not seen_final
                stance = _stance(text, s, e, seg, is_final, n_dx)
                if is_final and stance != "excluded":
                    seen_final = True
                m = DiagnosisMention(
                    name=name,
                    role=_role(know, name),  # type: ignore[arg-type]
                    stance=stance,  # type: ignore[arg-type]
                    span=Span(turn=turn, text=text[s:e], start=seg.start + s, end=seg.start + e),
                )
                if stance == "probable" and (
                    _LEAD_CUE.search(text[max(0, s - 60) : s]) or _LEAD_CUE.search(text[e : e + 50])
                ):
                    boosted.add(id(m))
                seg_mentions.append(m)
                mentions.append((seg.start + s + (0 if not is_final else -100000), m))
        if not seg_mentions:
            other = _other_diagnosis(text, seg, know, turn, final_line, semantic)
            if other is not None:
                mentions.append((seg.start + (0 if not final_line else -100000), other))
                seg_mentions.append(other)
            elif mentions and _ANAPHORA_EXCLUDED.search(text):
                prev = mentions[-1][1]
                mentions.append(
                    (
                        seg.start,
                        DiagnosisMention(
                            name=prev.name,
                            role=prev.role,
                            stance="excluded",
                            span=Span(turn=turn, text=text, start=seg.start, end=seg.end),
                        ),
                    )
                )
    named = {m.name for _, m in mentions if m.stance != "excluded"}
    for pos, m in _syndrome_cause_mentions(segments, fact_spans, know, turn):
        if m.name not in named:
            mentions.append((pos, m))
            named.add(m.name)
    return _leading(turn, [m for _, m in sorted(mentions, key=lambda x: x[0])], reply, boosted)


_AETIOLOGY_CUE = re.compile(
    r"\b(?:cause[sd]?|aetiolog\w*|etiolog\w*|secondary\s+to|due\s+to|induced|related|origin|driven|source)\b", re.I
)
_CAUSE_BEFORE = re.compile(
    r"\b(?:cause|aetiology|etiology)\b[^,;.]{0,30}$|\b(?:due|secondary)\s+to\s+(?:\w+\s+)?$", re.I
)
_GENERIC_DX_WORDS = {"acute", "chronic", "left", "right", "bilateral", "severe", "mild", "induced", "related", "due",
                     "secondary", "associated", "primary", "with", "from", "type", "the", "and", "disease"}


def _syndrome_cause_mentions(
    segments: list[Segment], fact_spans: list[list[tuple[int, int]]], know: CaseKnowledge, turn: int
) -> list[tuple[int, DiagnosisMention]]:
    """Diagnoses that differ only by their cause ("gallstone" vs "alcohol-induced" pancreatitis)
    named in two parts: the shared syndrome word somewhere in the reply, and a cause word of one
    of them in an aetiology context ("acute pancreatitis, most likely biliary", "I favour a
    gallstone aetiology"). The stance is read at the cause word."""
    dxs = list(know.diagnoses.values())
    heads: dict[str, list[str]] = {}
    for d in dxs:
        w = re.findall(r"[a-z]+", d.name.lower())
        if w:
            heads.setdefault(w[-1], []).append(d.name)
    shared = {h: names for h, names in heads.items() if len(names) > 1 and len(h) >= 6}
    if not shared:
        return []
    reply_text = " ".join(seg.text for seg in segments).lower()
    out: list[tuple[int, DiagnosisMention]] = []
    for head, names in shared.items():
        if not re.search(rf"\b{re.escape(head)}\b", reply_text):
            continue
        words: dict[str, set[str]] = {}
        for d in dxs:
            for n in d.all_names:
                for w in re.findall(r"[a-z]+", n.lower()):
                    if len(w) >= 5 and w not in _GENERIC_DX_WORDS and w != head:
                        words.setdefault(w[:6], set()).add(d.name)
        cause = {stem: next(iter(owners)) for stem, owners in words.items() if len(owners) == 1 and next(
            iter(owners)) in names}
        if not cause:
            continue
        rx = re.compile(r"\b(" + "|".join(re.escape(c) for c in cause) + r")[a-z]*", re.I)
        for seg, fspans in zip(segments, fact_spans, strict=True):
            text = seg.text
            in_context = re.search(rf"\b{re.escape(head)}\b", text, re.I) or _AETIOLOGY_CUE.search(text)
            if not in_context:
                continue
            dx_hit_spans = [(a, b) for a, b, _h in know.dx_lexicon.find(text)]
            for m in rx.finditer(text):
                if any(a <= m.start() < b for a, b in dx_hit_spans) or _NOT_A_STANCE_BEFORE.search(
                    text[max(0, m.start() - 50) : m.start()]
                ):
                    continue  # a full diagnosis name, read (or skipped) by the main rule
                if any(fs <= m.start() and m.end() <= fe for fs, fe in fspans) and not _CAUSE_BEFORE.search(
                    text[: m.start()]
                ):
                    continue  # part of a fact name ("gallstones on ultrasound"), unless named as the cause
                name = cause[m.group(1).lower()[:6]]
                stance = _stance(text, m.start(), m.end(), seg, False)
                if stance in ("definitive",) and HEDGE_DX_DOWNGRADE_RX.search(text):
                    stance = "probable"
                out.append((seg.start + m.start(), DiagnosisMention(
                    name=name, role=_role(know, name), stance=stance,  # type: ignore[arg-type]
                    span=Span(turn=turn, text=m.group(0), start=seg.start + m.start(), end=seg.start + m.end()),
                )))
                break
    return out


def _other_diagnosis(
    text: str, seg: Segment, know: CaseKnowledge, turn: int, final_line: bool, semantic: bool
) -> DiagnosisMention | None:
    for rx in _OTHER_DX_PATTERNS:
        m = rx.search(text)
        if m:
            raw = m.group("dx").strip()
            start = seg.start + m.start("dx")
            break
    else:
        if seg.section == "diagnosis" and seg.heading and seg.line_start:
            raw = text.strip()
            start = seg.start
        else:
            return None
    name = _DX_TRIM.sub("", raw).strip(" ,:-")
    if len(name) < 3:
        return None
    matched = _semantic_dx(name, know) if semantic else None
    stance = "definitive" if final_line else "probable"
    return DiagnosisMention(
        name=matched or name,
        role=_role(know, matched) if matched else "other",  # type: ignore[arg-type]
        stance=stance,  # type: ignore[arg-type]
        span=Span(turn=turn, text=raw, start=start, end=start + len(raw)),
    )


def _semantic_dx(name: str, know: CaseKnowledge) -> str | None:
    from medgym.text.embeddings import embed

    labels: list[tuple[str, str]] = [(d, n) for d, dx in know.diagnoses.items() for n in dx.all_names]
    vecs = embed([n for _, n in labels])
    q = embed([name])[0]
    sims = vecs @ q
    j = int(np.argmax(sims))
    return labels[j][0] if sims[j] >= SEMANTIC_DX_THRESHOLD else None


def _leading(turn: int, mentions: list[DiagnosisMention], reply: str, boosted: set[int]) -> WorkingDiagnosis:
    # a later explicit exclusion of the same diagnosis in the reply overrides earlier support
    final_excluded = {m.name for m in mentions if m.stance == "excluded"}
    supported_after: dict[str, int] = {}
    for i, m in enumerate(mentions):
        if m.stance != "excluded":
            supported_after[m.name] = i
    last_excl: dict[str, int] = {}
    for i, m in enumerate(mentions):
        if m.stance == "excluded":
            last_excl[m.name] = i
    live = [
        m
        for m in mentions
        if m.stance != "excluded"
        and not (m.name in final_excluded and last_excl.get(m.name, -1) > supported_after.get(m.name, -1)
                 and m.stance != "definitive")
    ]
    if not live:
        return WorkingDiagnosis(
            turn=turn,
            mentions=mentions,
            rule="no diagnosis held (none named, or every one named is excluded)",
        )
    def rank(m: DiagnosisMention) -> float:
        return _RANK[m.stance] + (0.5 if id(m) in boosted else 0.0)

    best = max(rank(m) for m in live)
    lead = next(m for m in live if rank(m) == best)
    why = (
        "named on the 'Final diagnosis' line"
        if best >= 3 and has_final_diagnosis(reply)
        else f"first-ranked {lead.stance} diagnosis"
    )
    return WorkingDiagnosis(
        turn=turn,
        leading=lead.name,
        role=lead.role,
        certainty=lead.stance,  # type: ignore[arg-type]
        mentions=mentions,
        rule=f"{why}: '{lead.span.text}'",
    )
