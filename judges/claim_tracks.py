"""One hallucination track per invented value, however each turn happens to attach it.

The shared formulas (:func:`medgym.judges.formulas.derive`) follow a hallucination across
turns by its claim key, and the key names the item the number was read as. The reference
judge attaches each number to an item from its own sentence, so the same invented value can
be read as two items in two turns: "his ketones are 3.8 mmol/L" (ketones) and "a ketone level
of 3.8 with a pH this low" (pH), or "9.8 mmol/L" (no item) and "2-hour glucose 9.8 mmol/L".
The track then splits: its first occurrence looks dropped, and a later one starts a new
track, which costs HPR and HCCR a persisted track and adds a false one. A physician reading
the dialogue follows the number: an agent that writes 3.8 twice without any source for it is
repeating one invention.

Only distinctive values are followed (a decimal, or 20 and above, in compatible units): "2"
cycles, "3" leads and "12"-lead ECGs coincide by chance far too often. A small whole number is
followed when both mentions measure it in the same unit other than a time ("the mass measures
3 cm", then "a left adnexal mass measuring 3 cm"): a size or a dose written twice with its unit
is one invention, while "3 days" or "2 weeks" are durations that recur for unrelated reasons.
"""

from __future__ import annotations

import re

from medgym.judges.results import Claim, Retraction
from medgym.text.numbers import TIME_UNITS, normalize_unit

#: Whole numbers below this are too common to identify an invention by value alone.
DISTINCTIVE_WHOLE = 20


def _distinctive(value: float) -> bool:
    return value != int(value) or abs(value) >= DISTINCTIVE_WHOLE


def _measured(c: Claim) -> str | None:
    """The claim's unit, unless it has none or it is a time (durations recur by chance)."""
    unit = normalize_unit(c.unit) if c.unit else None
    return None if unit is None or unit in TIME_UNITS else unit


def _followed(c: Claim) -> bool:
    return c.value is not None and (_distinctive(c.value) or _measured(c) is not None)


def _compatible(a: Claim, b: Claim) -> bool:
    if a.value is None or b.value is None or abs(a.value - b.value) > 1e-9:
        return False
    if not _distinctive(a.value):
        return _measured(a) is not None and _measured(a) == _measured(b)
    return a.unit is None or b.unit is None or normalize_unit(a.unit) == normalize_unit(b.unit)


def follow_invented_values(claims: list[Claim], retractions: list[Retraction]) -> None:
    """Give every unsupported numeric claim that repeats an invented value of an earlier turn
    the key and item of that value's track (in place; withdrawals follow the new keys).

    The track takes the first occurrence that names an item ("number" is the judge's word for
    a value it could not attach), so a later, better-attached mention can name the track."""
    invented = sorted(
        (c for c in claims if c.kind == "numeric" and c.hallucinated and _followed(c)),
        key=lambda c: (c.turn, c.span.start or 0),
    )
    groups: list[list[Claim]] = []
    for c in invented:
        for g in groups:
            if _compatible(g[0], c):
                g.append(c)
                break
        else:
            groups.append([c])
    renamed: dict[str, str] = {}
    for g in groups:
        if len({c.turn for c in g}) < 2 or len({c.key for c in g}) < 2:
            continue
        head = next((c for c in g if c.item != "number"), g[0])
        for c in g:
            if c.key != head.key:
                renamed[c.key] = head.key
                c.rule += f"; the invented value {c.span.text!r} follows its track {head.key}"
                c.key, c.item = head.key, head.item
    _follow_withdrawals(retractions, renamed)


def _rename_tracks(claims: list[Claim], retractions: list[Retraction], renamed: dict[str, str], what: str) -> None:
    """Give every claim of a renamed key the key of the track it follows (saying so in its rule), and let
    withdrawals follow."""
    for c in claims:
        if c.key in renamed:
            c.rule += f"; the invented {what} {c.span.text!r} follows its track {renamed[c.key]}"
            c.key = renamed[c.key]
    _follow_withdrawals(retractions, renamed)


def _follow_withdrawals(retractions: list[Retraction], renamed: dict[str, str]) -> None:
    """A withdrawal of a renamed key withdraws the track it now follows."""
    for r in retractions:
        r.keys = list(dict.fromkeys(renamed.get(k, k) for k in r.keys))


# Words that name where or how a finding was seen, or hedge it, rather than what was found: two inventions
# sharing only these ("urine shows eosinophils", "urine culture") are not one finding.
_NOT_FINDING_WORDS = frozenset(
    {
        "shows", "show", "showed", "shown", "with", "from", "that", "this", "there", "were", "have", "been", "also",
        "only", "some", "very", "mild", "normal", "result", "level", "test", "positive", "negative", "urine",
        "blood", "serum", "scan", "film", "sign", "left", "right", "bilateral", "today", "earlier", "previous",
        "last", "check", "found", "noted", "note", "report", "reported", "which", "their", "they", "them", "into",
        "over", "under", "about", "after", "before",
    }
)
_NOT_FINDING_STEMS = frozenset(w.rstrip("s") for w in _NOT_FINDING_WORDS)
_WORD = re.compile(r"[a-z][a-z-]{3,}")


def _finding_words(c: Claim) -> set[str]:
    """Content words of an invented finding (a plural's "s" dropped): its words as written and, for a lexicon
    term, the term's name."""
    text = c.span.text + (" " + c.item[5:] if c.item.startswith("term:") else "")
    return {w.rstrip("s") for w in _WORD.findall(text.lower())} - _NOT_FINDING_STEMS


def follow_invented_findings(claims: list[Claim], retractions: list[Retraction]) -> None:
    """Give an unsupported factual claim that restates an invented finding of an earlier turn in other words the
    key of that finding's track (in place; the claim keeps the item it was read as; withdrawals follow the new
    keys).

    The judge keys a finding by the item its words were read as, so "her pupils were dilated" (mydriasis) and,
    two turns later, "dilated pupils" (a lexicon term of its own), or "urine shows eosinophils" and "urinary
    eosinophils", start two tracks: the first looks dropped and the second is a new invention, where a physician
    reads one finding repeated (round 57). Only a lexicon term is followed this way (a case fact has its own,
    exact item), with the same polarity, when a content word is shared."""
    factual = sorted(
        (c for c in claims if c.kind == "factual" and c.hallucinated), key=lambda c: (c.turn, c.span.start or 0)
    )
    first_turn: dict[str, int] = {}
    for c in factual:
        first_turn.setdefault(c.key, c.turn)
    words = {c.id: _finding_words(c) for c in factual}
    renamed: dict[str, str] = {}
    for c in factual:
        if c.key in renamed or first_turn[c.key] < c.turn:
            continue  # already followed, or a repeat of its own earlier track
        for e in factual:
            if e.turn >= c.turn:
                break
            key = renamed.get(e.key, e.key)
            if (
                key != c.key and key.rsplit(":", 1)[-1] == c.key.rsplit(":", 1)[-1]
                and (c.item.startswith("term:") or e.item.startswith("term:")) and words[c.id] & words[e.id]
            ):
                renamed[c.key] = key
                break
    _rename_tracks(claims, retractions, renamed, "finding")


def follow_invented_reports(claims: list[Claim], retractions: list[Retraction]) -> None:
    """Give an unsupported claim on a case fact that names the fact again without its invented detail the key of
    the earlier invented claim on that fact (in place; withdrawals follow the new keys).

    A case fact's key carries whether the claim agrees with the case's statement ("x" for a conflict, "=" for
    none), so "CT: upper-lobe centrilobular emphysema" (against the HRCT's panlobular pattern) and, a turn
    later, "emphysema on CT" start two tracks, while the labels read the same invented scan repeated (round
    66). Only an unsupported "=" claim follows, and only when the fact has no "=" track of its own earlier: a
    claim that agrees with a released statement is supported and never joins an invention."""
    invented = sorted(
        (c for c in claims if c.kind == "factual" and c.hallucinated and c.key.startswith("fact:")),
        key=lambda c: (c.turn, c.span.start or 0),
    )
    first: dict[str, int] = {}
    for c in invented:
        first.setdefault(c.key, c.turn)
    renamed: dict[str, str] = {}
    for c in invented:
        if c.status != "unsupported" or not c.key.endswith(":=") or first[c.key] < c.turn:
            continue
        head = c.key[:-1] + "x"
        if first.get(head, c.turn) < c.turn:
            renamed[c.key] = head
    _rename_tracks(claims, retractions, renamed, "report")
