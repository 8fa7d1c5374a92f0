"""Number attachment of the claim layer: which name a number belongs to, and what kind of number it is.

Attaching a quantity to the nearest fact or analyte name (restatements, comparisons, "X days after"),
numbers that are attributes (durations, doses, hyphenated labels) rather than measured values, bare
event counts, durations written in words, rates, ages, gestation and body temperatures. Kept apart
from :mod:`medgym.judges.claims` because it is pure text-and-quantity logic, independent of blocking
and of support checking.
"""

from __future__ import annotations

import re

from medgym.judges.textrules import NUMBER_WORDS, TIME_UNIT_AFTER_RX
from medgym.text.numbers import TIME_UNITS, Quantity, normalize_unit

_DURATION_AFTER = re.compile(r"^\s*-?\s*(?:years?|months?|weeks?|days?|hours?|hrs?|minutes?|mins?)\b(?!\s*(?:glucose|value))", re.I)


_LABEL_NUMBER = re.compile(r"^-(?:hour|h|hr|minute|min|day|week|lead)\b", re.I)


def _is_label_number(text: str, q: Quantity, qs: list[Quantity]) -> bool:
    """A hyphenated timing that names a measurement ("2-hour 9.1 mmol/L", "24-hour urine 3 g")."""
    if not _LABEL_NUMBER.match(text[q.end : q.end + 8]):
        return False
    return any(
        o.start > q.end and o.start - q.end <= 25 and o.unit not in (None, "h", "d", "wk", "y", "s", "/min")
        for o in qs
    )


# round 101: units of alcohol are a measure of intake, not a count of events or a dose ("He drinks about 20 units a
# week", "14 units/week", "15 units at weekends"): the labels read them as the alcohol fact's number, like "6 u/wk"
_ALCOHOL_UNIT_CONTEXT = (
    r"\s*(?:of\s+(?:alcohol|etoh|beer|wine|spirits|cider)|/\s*(?:wk|week|w|d|day|weekend)|\s+(?:a|per|each|every)\s+"
    r"(?:week|wk|day|night|weekend)|\s+(?:alcohol|etoh|weekly|daily)|\s+(?:at|on|over)\s+(?:the\s+)?weekends?)"
)
_ALCOHOL_UNITS_AFTER = re.compile(r"^\s*units?(?=" + _ALCOHOL_UNIT_CONTEXT + ")", re.I)


def _is_attribute_number(text: str, q: Quantity) -> bool:
    """A duration, count or dose that qualifies a fact ("a 10-day course", "2 weeks earlier"),
    as opposed to the measured value of the fact ("GCS 14", "schistocytes at 6%", "14 units a week")."""
    if _ALCOHOL_UNITS_AFTER.match(text[q.end : q.end + 40]):
        return False
    return q.unit in ("h", "d", "wk", "y", "min", "mg", "g", "µg") or bool(TIME_UNIT_AFTER_RX.match(text[q.end : q.end + 20]))


_ATTACH_GAP = re.compile(
    r"^\s*(?:level\s+|count\s+|score\s+)?(?:(?:is|was|of|at|=|:|around|about|approximately|~|≈|now|"
    r"still|only|just|down\s+to|up\s+to)\s*)*$",
    re.I,
)


def _directly_attached(text: str, q: Quantity, item: str, mentions) -> bool:
    """The number is written as the value of the named measure ("GCS 14", "lithium of 2.6",
    "schistocytes at 6%", "6% schistocytes"), not as a detail inside a result ("V4R shows 1.5 mm ST
    elevation"). Sizes (mm, cm) describe a finding, not the measure itself."""
    if q.unit in ("mm", "cm"):
        return False
    for s, e, it, _k, _n in mentions:
        if it != item:
            continue
        gap = text[e : q.start]
        if e <= q.start and (_ATTACH_GAP.match(gap) or re.fullmatch(r"\s*\(\s*(?:[A-Za-z-]+\s+){0,2}", gap)):
            return True  # "GCS 14", "weakness (hip flexion 3/5"
        if s >= q.end and re.fullmatch(r"\s*(?:of\s+)?(?:[A-Za-z-]+\s+)?", text[q.end : s]):
            return True  # "6% schistocytes", "3/5 proximal weakness"
    return False


_RATE_AFTER = re.compile(r"\s*(?:a|an|per|each|every|/)\s*(day|week|month|year|wk|mo|yr)\b", re.I)
_PERIOD_DAYS = {"day": 1.0, "week": 7.0, "wk": 7.0, "month": 30.44, "mo": 30.44, "year": 365.25, "yr": 365.25}
_UNIT_DAYS = {"d": 1.0, "day": 1.0, "wk": 7.0, "week": 7.0, "y": 365.25, "year": 365.25, "mo": 30.44, "month": 30.44}
_DENIED_VALUE = re.compile(r"\b(?:not|rather\s+than|instead\s+of|never|nor)\s+(?:about\s+|around\s+|the\s+)?$", re.I)
_COUNTED_AFTER = re.compile(
    r"^\s+(?:(?:more|further|separate|previous|similar|bilious|green|large|small|loose|watery|profuse)\s+)?"
    r"(?:vomits|vomiting\s+episodes|episodes|bouts|attacks|stools|movements|seizures|falls|spikes|admissions|"
    r"presentations|times|occasions|courses|doses|tablets|pregnancies|children|siblings|drinks|cigarettes|"
    r"units(?!" + _ALCOHOL_UNIT_CONTEXT + r")|pads|wet\s+nappies|nappies|feeds)\b",
    re.I,
)


_WORD_DURATION = re.compile(
    r"\b(" + "|".join(sorted((w for w in NUMBER_WORDS if " " not in w), key=len, reverse=True)) + r"|a|an|a\s+couple\s+of)"
    r"\s+(days?|weeks?|months?|years?|hours?|minutes?)\b",
    re.I,
)
_WORD_UNIT = {"day": "d", "week": "wk", "month": None, "year": "y", "hour": "h", "minute": "min"}


def _word_durations(text: str) -> list[Quantity]:
    """Durations written in words ("five days", "three weeks"): numeric claims like "5 days"."""
    out = []
    for m in _WORD_DURATION.finditer(text):
        word = m.group(1).lower()
        if word in ("a", "an"):
            continue  # "a day" is vague wording, not a stated number
        value = 2.0 if "couple" in word else float(NUMBER_WORDS[word])
        unit = _WORD_UNIT[m.group(2).lower().rstrip("s")]
        out.append(Quantity(value, unit, m.start(), m.end(), m.group(0)))
    return out


def _bare_count(text: str, q: Quantity) -> bool:
    """A unitless count of events ("4 vomits", "vomited x4", "three episodes"): not a numeric claim
    (batch-2 reading: bare counts). Durations and measured values keep their claims."""
    if q.unit is not None or q.value != int(q.value) or "/" in q.text:
        return False
    if re.search(r"[×x]\s*$", text[max(0, q.start - 2) : q.start]) and not re.match(r"\s*10", text[q.start :]):
        return True
    return bool(_COUNTED_AFTER.match(text[q.end : q.end + 40]))


def _numbers_near(q: Quantity, qs: list[Quantity], a: int, b: int) -> bool:
    return any(o is not q and a <= o.start < b for o in qs)


_RESTATE = re.compile(r"^\s*[\w/%°µ.]*\s*\(\s*(?:about|approx\.?|approximately|~|≈|=|i\.e\.,?|or)?\s*$", re.I)
# A comparison value of the same measure written right after it: "412 µmol/L (baseline 98)",
# "up from a baseline of 98", "412 vs 98 six months ago", "previously 98": same item.
_COMPARISON_GAP = re.compile(r"^\s*[\w/%°µ.]*\s*[(),;]*[\s\w:=~≈.]*$")
_COMPARISON_WORD = re.compile(
    r"\b(?:baseline|previously|prior|from|vs|versus|compared|was|were|usual|last|earlier|before)\b", re.I
)


def _is_comparison(gap: str) -> bool:
    return bool(_COMPARISON_GAP.match(gap)) and len(gap.split()) <= 7 and bool(_COMPARISON_WORD.search(gap))


# "76-year-old", "9 months old", "aged 34": the patient's age, never the value of a named measure.
_AGE_AFTER = re.compile(r"^\s*-?\s*(?:years?|yrs?|months?|weeks?|days?)[\s-]*old\b|^\s*-?\s*y/?o\b|^\s*-?yo\b", re.I)
_AGE_BEFORE = re.compile(r"\baged\s*$", re.I)


def _name_head(name: str) -> str:
    """The analyte word of a measurement name ("repeat potassium" -> "potassium")."""
    words = re.findall(r"[a-z0-9]+", name.lower())
    return words[-1] if words else ""


def _attach(
    text: str, q: Quantity, qs: list[Quantity], mentions: list[tuple[int, int, str, str]],
    previous: dict[int, tuple[str, str] | None] | None = None,
    compatible=None,
) -> tuple[str, str] | None:
    """(item id, kind) of the name the number belongs to: nearest before, else just after.

    A number restating the previous one in parentheses ("142 µmol/L (about 8.3 mg/dL)")
    belongs to the same item.
    """
    if previous:
        prior = [o for o in qs if o.end <= q.start and q.start - o.end <= 25]
        if prior and _RESTATE.match(text[prior[-1].end : q.start]) and previous.get(prior[-1].start):
            return previous[prior[-1].start]
        prior = [o for o in qs if o.end <= q.start and q.start - o.end <= 45]
        if prior and _is_comparison(text[prior[-1].end : q.start]) and previous.get(prior[-1].start) and not any(
            m[0] >= prior[-1].end and m[1] <= q.start for m in mentions
        ):
            return previous[prior[-1].start]
    # "12 days after returning from Ghana", "3 weeks since the trip": the time belongs to the event after it
    tail = re.match(r"\s*(?:ago\s+)?(?:after|since|following|before|post)\s+", text[q.end : q.end + 25], re.I)
    if tail and q.unit in TIME_UNITS:
        for s, _e, item, kind in mentions:
            if q.end + tail.end() <= s <= q.end + tail.end() + 25 and (compatible is None or compatible(item, q)):
                return item, kind
    best = None
    for _s, e, item, kind in mentions:
        if compatible is not None and not compatible(item, q):
            continue  # "bradycardia with 3 mm ST elevation": mm is not a heart rate
        if e <= q.start and q.start - e <= 45 and not _numbers_near(q, qs, e, q.start):
            between = text[e:q.start]
            if re.search(r"[.;]", between):
                continue
            if best is None or e > best[0]:
                best = (e, item, kind)
    if best is not None and re.search(r"\b(?:and|with|plus)\b", text[best[0] : q.start]):
        # "areflexia and 3/5 weakness": a name right after the number owns it across a coordination
        for s, _e, item, kind in mentions:
            if compatible is not None and not compatible(item, q):
                continue
            if s >= q.end and re.fullmatch(r"\s*(?:[A-Za-z\-]+\s+)?", text[q.end : s]):
                return item, kind
    if best is not None:
        return best[1], best[2]
    for s, e, item, kind in mentions:
        if compatible is not None and not compatible(item, q):
            continue
        if s >= q.end and s - q.end <= 25 and not _numbers_near(q, qs, q.end, s):
            own = [o for o in qs if e <= o.start <= e + 12]
            if own and own[0].unit not in ("h", "d", "wk", "y"):
                continue  # that name has its own value ("... and a CRP of 186 mg/L")
            return item, kind
    return None


_VITAL_UNITS = {"°c", "°f", "mmhg", "/min"}
_FEVER_NAME = re.compile(r"(?:fever|pyrexia|febrile|afebrile|temperature|high temperature)", re.I)
_TEMPERATURE_TERMS = {"term:temperature", "term:fever", "term:pyrexia", "term:febrile"}


def _celsius(q: Quantity) -> float | None:
    """A body temperature in °C (a bare 34-43 is read as °C, 93-110 as °F), else None."""
    u = normalize_unit(q.unit)
    if u == "°f" or (u is None and 93 <= q.value <= 110):
        return (q.value - 32) * 5 / 9
    if u == "°c" or (u is None and 34 <= q.value <= 43):
        return q.value
    return None
_GESTATION_AFTER = re.compile(
    r"^\s*(?:weeks?|wks?|days?)?'?s?\s*(?:pregnant|(?:of\s+)?gestation|by\s+(?:dates|her\s+LMP)|of\s+amenorrh\w*|"
    r"since\s+(?:her\s+)?(?:LMP|last\s+(?:menstrual\s+)?period))\b",
    re.I,
)
# Facts that ARE a point or span of time: a duration said of them is their value, not an attribute
# ("LMP 6 weeks ago", "7 weeks of amenorrhoea", "gestation 34 weeks").
_TIME_VALUED_FACT = re.compile(
    r"\b(?:last\s+(?:normal\s+)?(?:menstrual\s+)?period|LMP|amenorrh\w*|gestation\w*|date|duration)\b", re.I
)
# round 60: an approximation sign or word may sit between ("EtOH ~12 units", "alcohol around 14 units/week")
_NUMBER_LINK = re.compile(
    r"\s*(?:at|of|to|with|:|\(|=)?\s*(?:a|an|the)?\s*(?:~|≈|approx\.?|approximately|about|around|roughly)?\s*", re.I
)
