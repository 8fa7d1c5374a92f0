"""Numbers with units in clinical text, and unit-aware comparison.

The judge must tell a correctly copied value from a fabricated one even when the
agent writes it differently: "11.2 mmol/L" vs "202 mg/dL" for glucose, "78 g/L" vs
"7.8 g/dL" for haemoglobin, "38.5 °C" vs "101.3 F". Everything here is pure and
fast: regexes plus a small table of analyte-specific conversion factors.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# ---- unit normalisation -------------------------------------------------------
_UNIT_ALIASES: dict[str, str] = {
    "umol/l": "µmol/l", "μmol/l": "µmol/l", "micromol/l": "µmol/l",
    "mmol/l": "mmol/l", "mmol": "mmol/l", "mm": "mm",
    "mg/dl": "mg/dl", "mg%": "mg/dl", "g/dl": "g/dl", "g/l": "g/l", "mg/l": "mg/l",
    "ng/l": "ng/l", "ng/ml": "ng/ml", "pg/ml": "pg/ml", "ug/l": "µg/l", "μg/l": "µg/l", "µg/l": "µg/l",
    "iu/l": "u/l", "u/l": "u/l", "units/l": "u/l", "miu/l": "miu/l", "mu/l": "miu/l", "miu/ml": "miu/ml",
    "mmhg": "mmhg", "mm hg": "mmhg", "°c": "°c", "c": "°c", "degc": "°c", "°f": "°f", "f": "°f",
    "/min": "/min", "bpm": "/min", "beats/min": "/min", "breaths/min": "/min", "per minute": "/min",
    "%": "%", "percent": "%", "kg": "kg", "cm": "cm", "mm3": "mm3", "mg": "mg", "g": "g", "mcg": "µg",
    "µg": "µg", "ml": "ml", "l": "l", "ml/min": "ml/min", "ml/min/1.73m2": "ml/min/1.73m2",
    "ml/min/1.73 m2": "ml/min/1.73m2", "ml/min/1.73m²": "ml/min/1.73m2", "ml/min/1.73 m²": "ml/min/1.73m2",
    "x10^9/l": "×10^9/l", "×10^9/l": "×10^9/l", "x 10^9/l": "×10^9/l", "× 10^9/l": "×10^9/l",
    "10^9/l": "×10^9/l", "x10^12/l": "×10^12/l", "×10^12/l": "×10^12/l", "10^12/l": "×10^12/l",
    "/ul": "/µl", "/µl": "/µl", "/mm3": "/µl", "cells/µl": "/µl", "cells/ul": "/µl", "meq/l": "mmol/l",
    "mosm/kg": "mosm/kg", "s": "s", "sec": "s", "seconds": "s", "fl": "fl", "pg": "pg", "mm/h": "mm/h",
    "mm/hr": "mm/h", "kg/m2": "kg/m2", "kg/m²": "kg/m2", "h": "h", "hours": "h", "days": "d", "d": "d",
    "weeks": "wk", "years": "y", "ml/kg": "ml/kg", "mg/kg": "mg/kg", "min": "min", "mins": "min",
    "minutes": "min", "litres": "l", "liters": "l", "litre": "l", "liter": "l",
    "×10⁹/l": "×10^9/l", "× 10⁹/l": "×10^9/l", "x10⁹/l": "×10^9/l", "x 10⁹/l": "×10^9/l", "10⁹/l": "×10^9/l",
    "x 10^12/l": "×10^12/l", "× 10^12/l": "×10^12/l", "×10¹²/l": "×10^12/l", "× 10¹²/l": "×10^12/l",
    "x10¹²/l": "×10^12/l", "x 10¹²/l": "×10^12/l", "10¹²/l": "×10^12/l", "iu/ml": "u/ml", "kpa": "kpa", "mg/g": "mg/g", "mg/mmol": "mg/mmol", "mmol/mol": "mmol/mol",
    # US shorthand for cell counts: "platelets 62K" = 62,000/µL = 62 ×10^9/L
    "k": "×10^9/l", "k/ul": "×10^9/l", "k/µl": "×10^9/l",
    # US "×10³/µL" (thousands per microlitre) is the same count as ×10^9/L
    **{f"{x}10{e}/{u}": "×10^9/l" for x in ("×", "× ", "x", "x ", "") for e in ("^3", "³") for u in ("µl", "ul", "μl")},
    # US mass units of hormones ("cortisol ~1.4 µg/dL", "free T4 0.9 ng/dL")
    "µg/dl": "µg/dl", "ug/dl": "µg/dl", "mcg/dl": "µg/dl", "ng/dl": "ng/dl",
    # antibody and enzyme titres ("tTG-IgA 186 U/mL", "IgE 480 kU/L"): 1 kU/L is 1 U/mL, and IU/mL is read as
    # U/mL as IU/L is read as U/L
    "u/ml": "u/ml", "units/ml": "u/ml", "ku/l": "u/ml",
}  # fmt: skip

# Multiplicative factors between unit pairs that hold for any analyte.
_GENERIC: dict[tuple[str, str], float] = {
    ("g/l", "g/dl"): 0.1,
    ("g/l", "mg/dl"): 100.0,
    ("mg/l", "mg/dl"): 0.1,
    ("ng/l", "ng/ml"): 0.001,
    ("µg/l", "ng/ml"): 1.0,
    # a D-dimer of 2.8 mg/L FEU written as 2800 µg/L or 2800 ng/mL
    ("µg/l", "mg/l"): 0.001,
    ("ng/ml", "mg/l"): 0.001,
    ("ng/l", "µg/l"): 0.001,
    # a urine albumin (or protein) to creatinine ratio: 14 mg/mmol is 124 mg/g (creatinine 113.12 g/mol)
    ("mg/mmol", "mg/g"): 8.84,
    ("×10^9/l", "/µl"): 1000.0,
    ("mmol/l", "mmol/l"): 1.0,
    ("kpa", "mmhg"): 7.50062,
    # volumes and masses written in another decimal unit ("1450 mL" = "1.45 L")
    ("ml", "l"): 0.001,
    ("µg", "mg"): 0.001,
    ("mg", "g"): 0.001,
    ("g", "kg"): 0.001,
    ("min", "h"): 1 / 60,
}
# Analyte-specific mass <-> molar conversions (multiply mmol/l or µmol/l to get mg/dl).
_ANALYTE: dict[str, tuple[str, float]] = {
    "glucose": ("mmol/l", 18.016),
    "creatinine": ("µmol/l", 1 / 88.42),
    "bilirubin": ("µmol/l", 1 / 17.104),
    "cholesterol": ("mmol/l", 38.67),
    "ldl": ("mmol/l", 38.67),
    "hdl": ("mmol/l", 38.67),
    "triglyceride": ("mmol/l", 88.57),
    "urea": ("mmol/l", 2.801),  # urea mmol/L -> BUN mg/dL
    "bun": ("mmol/l", 2.801),
    "calcium": ("mmol/l", 4.008),
    "magnesium": ("mmol/l", 2.431),
    "phosphate": ("mmol/l", 3.097),
    "uric acid": ("µmol/l", 1 / 59.48),
    "urate": ("µmol/l", 1 / 59.48),
    "lactate": ("mmol/l", 9.008),
}

# Analyte-specific molar <-> US mass-unit conversions of hormones: (molar unit, mass unit,
# factor that multiplies the molar value to give the mass value).
_ANALYTE_MASS: dict[str, tuple[str, str, float]] = {
    "cortisol": ("nmol/l", "µg/dl", 1 / 27.59),
    "free t4": ("pmol/l", "ng/dl", 1 / 12.87),
    "thyroxine": ("pmol/l", "ng/dl", 1 / 12.87),
    "ft4": ("pmol/l", "ng/dl", 1 / 12.87),
    "testosterone": ("nmol/l", "ng/dl", 28.84),
    # trace elements and vitamins reported in both unit systems
    "lead": ("µmol/l", "µg/dl", 20.72),
    "iron": ("µmol/l", "µg/dl", 5.585),
    "b12": ("pmol/l", "pg/ml", 1.355),
    "folate": ("nmol/l", "ng/ml", 0.441),
    "vitamin d": ("nmol/l", "ng/ml", 0.4),
    # peptide hormones (molar mass ~9.4 kDa for intact PTH)
    "parathyroid": ("pmol/l", "pg/ml", 9.43),
    "pth": ("pmol/l", "pg/ml", 9.43),
}

NUMBER_RE = re.compile(r"(?<![\w.])([-−]?\d+(?:[.,]\d+)?)(?![\w])")
_UNIT_PATTERN = "|".join(
    sorted((re.escape(u) for u in set(_UNIT_ALIASES) | set(_UNIT_ALIASES.values())), key=len, reverse=True)
)
QUANTITY_RE = re.compile(
    r"(?:(?<=\bq)|(?<![\w.,]))(?<!\d/)(?P<num>[-−]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?)(?:\s*(?:-|–|to)\s*(?P<num2>\d+(?:\.\d+)?))?"
    r"\s*(?P<unit>" + _UNIT_PATTERN + r")?(?![\w/])",
    re.IGNORECASE,
)
# Numbers that are almost never patient data: list markers, times, dates, doses of "x2"...
_NON_CLAIM_CONTEXT = re.compile(r"(\b\d+\s*(?:st|nd|rd|th)\b)|(\b(?:19|20)\d{2}\b)")
_ORDINAL = re.compile(r"\b\d+\s*(?:st|nd|rd|th)\b")
_YEAR = re.compile(r"\b(?:19|20)\d{2}\b")


def normalize_unit(unit: str | None) -> str | None:
    if not unit:
        return None
    u = unit.strip().lower().replace("μ", "µ")
    if u in _UNIT_ALIASES:
        return _UNIT_ALIASES[u]
    compact = u.replace(" ", "")
    if compact in _UNIT_ALIASES:
        return _UNIT_ALIASES[compact]
    # compound units ("mg/L FEU", "% predicted", "µg Hb/g"): the leading unit carries the scale
    head = u.split()[0]
    return _UNIT_ALIASES.get(head, head)


@dataclass(frozen=True)
class Quantity:
    """A number found in text, with its (normalised) unit and character span."""

    value: float
    unit: str | None
    start: int
    end: int
    text: str
    upper: float | None = None  # for ranges "3-21"


_THOUSANDS = re.compile(r"^[-−]?\d{1,3}(?:,\d{3})+(?:\.\d+)?$")


def parse_number(s: str) -> float:
    """A number as written: "16,800" (thousands separators) or "3,5" (decimal comma)."""
    s = s.replace("−", "-")
    if _THOUSANDS.match(s):
        return float(s.replace(",", ""))
    return float(s.replace(",", "."))


# Ordinal scores written as "3/5" (MRC power), "14/15" (GCS), "4/10" (pain): the value is the
# numerator; the denominator is the scale, not a second number about the patient.
_SCORE_RE = re.compile(r"(?<![\w.])(\d{1,2}(?:\.\d)?[+-]?)\s*/\s*(3|4|5|10|15|100)(?![\w/.]|\d)")
_PAIR_RE = re.compile(r"(?<![\w.])(\d{2,3})\s*/\s*(\d{2,3})(\s*mm\s?hg)?(?![\w/])", re.IGNORECASE)


# normalised units of time ("3 days" -> "d"): a duration, never the value of a measured result
TIME_UNITS = ("h", "d", "wk", "y", "min")
_PLAUSIBLE_TEMP = {"°f": (86.0, 113.0), "°c": (30.0, 45.0)}


# what makes "a/b" a blood pressure without its unit: "BP 88/50", and since round 126 "Hypotensive 88/50",
# "hypertension 190/110" (the state named by its value, which the labels read as the blood pressure's number)
_BP_CONTEXT = re.compile(r"\b(?:bp|blood pressure|pressure|hypotensi(?:ve|on)|hypertensi(?:ve|on))\b", re.I)


def find_quantities(text: str) -> list[Quantity]:
    """Every number in ``text`` with the unit that follows it, if any.

    Blood pressures ("150/90 mmHg") yield two quantities in mmHg.
    """
    out = []
    taken: list[tuple[int, int]] = []
    for m in _PAIR_RE.finditer(text):
        if m.group(3) or _BP_CONTEXT.search(text[max(0, m.start() - 30) : m.start()]):
            out.append(Quantity(float(m.group(1)), "mmhg", m.start(1), m.end(1), m.group(0).strip()))
            out.append(Quantity(float(m.group(2)), "mmhg", m.start(2), m.end(2), m.group(0).strip()))
            taken.append((m.start(), m.end()))
    for m in _SCORE_RE.finditer(text):
        if any(a <= m.start() < b for a, b in taken):
            continue
        num = m.group(1).rstrip("+-")
        if float(num) > float(m.group(2)):
            continue  # not a score ("12/10" as a date or ratio)
        out.append(Quantity(float(num), None, m.start(1), m.end(), m.group(0).strip()))
        taken.append((m.start(), m.end()))
    for m in QUANTITY_RE.finditer(text):
        if any(a <= m.start() < b for a, b in taken):
            continue
        try:
            val = parse_number(m.group("num"))
        except ValueError:
            continue
        upper = parse_number(m.group("num2")) if m.group("num2") else None
        unit = normalize_unit(m.group("unit"))
        raw = (m.group("unit") or "").strip()
        if raw in ("F", "f", "C", "c") and not _PLAUSIBLE_TEMP[unit][0] <= val <= _PLAUSIBLE_TEMP[unit][1]:
            # "34F w/ headache", "26F G1P0": age and sex in note shorthand, not a temperature; a bare
            # letter is a temperature unit only for a body temperature ("101F", "38.5C")
            unit = None
        if upper is not None and _is_change(text, m, val, upper):
            # "CRP fell from 45 to 3 mg/L", "from 105 to 186": two values, each a claim of its own, not a range
            out.append(Quantity(val, unit, m.start(), m.end("num"), m.group("num"), None))
            out.append(Quantity(upper, unit, m.start("num2"), m.end(), text[m.start("num2") : m.end()].strip(), None))
            continue
        out.append(Quantity(val, unit, m.start(), m.end(), m.group(0).strip(), upper))
    out.extend(_shorthand_quantities(text, taken + [(q.start, q.end) for q in out]))
    out.sort(key=lambda q: q.start)
    return out


_FROM_BEFORE = re.compile(r"\bfrom\s+(?:a\s+|an\s+|the\s+|her\s+|his\s+)?(?:baseline\s+(?:of\s+)?|previous\s+|prior\s+)?$", re.I)


def _is_change(text: str, m: re.Match[str], first: float, second: float) -> bool:
    """Whether "X to Y" is a change from X to Y, not the range X-Y: "from" opens it ("fell from 45 to 3", "from
    105 to 186", "down from 79-58") or it runs downward in words ("9.5 to 1.8"); otherwise a dash range ("3-21")
    or a worded one ("3 to 21") is a range."""
    if _FROM_BEFORE.search(text[max(0, m.start() - 40) : m.start()]):
        return True
    return "to" in text[m.end("num") : m.start("num2")].lower() and second < first


# Note shorthand the unit pattern cannot see: "31M" (age and sex; "27F" is read above), durations in the British
# "3/52" (weeks) and "10/7" (days) and in "x10d" / "×3 wks" (for ten days, three weeks)
_AGE_SEX_M = re.compile(r"(?<![\w.,])(\d{1,3})M(?![\w/])")
_SLASH_DURATION = re.compile(r"(?<![\w./])(\d{1,2})\s*/\s*(7|52)(?![\w/]|\.\d)")
_TIMES_DURATION = re.compile(
    r"(?<![\w.])[x×](\d{1,3})\s*(d|days?|wks?|weeks?|h|hrs?|hours?|y|yrs?|years?)(?![\w/])", re.IGNORECASE
)
_SHORT_TIME = {"d": "d", "w": "wk", "h": "h", "y": "y"}
# a digit next to what any of the three needs ("4M", "3/52", "/7", "x10"): one cheap scan before three
_SHORTHAND_HINT = re.compile(r"\dM|/\s*(?:7|52)\b|[x×]\d", re.IGNORECASE)


def _shorthand_quantities(text: str, taken: list[tuple[int, int]]) -> list[Quantity]:
    """The quantities of note shorthand (see above) outside the spans ``taken`` by other readings: without them
    "31M" and "Cough 3/52" state no number, and an invented age or duration there goes unseen."""
    out: list[Quantity] = []
    if not _SHORTHAND_HINT.search(text):
        return out  # the common case, checked once: find_quantities runs on every sentence the judge reads
    for m in _AGE_SEX_M.finditer(text):
        if int(m.group(1)) <= 110 and not any(a <= m.start() < b for a, b in taken):
            out.append(Quantity(float(m.group(1)), None, m.start(), m.end(), m.group(0)))
    for m in _SLASH_DURATION.finditer(text):
        if not any(a <= m.start() < b for a, b in taken):
            unit = "d" if m.group(2) == "7" else "wk"
            out.append(Quantity(float(m.group(1)), unit, m.start(), m.end(), m.group(0)))
    for m in _TIMES_DURATION.finditer(text):
        if not any(a <= m.start(1) < b for a, b in taken):
            unit = _SHORT_TIME[m.group(2)[0].lower()]
            out.append(Quantity(float(m.group(1)), unit, m.start(), m.end(), m.group(0)))
    return out


def _hba1c(analyte: str) -> bool:
    return bool(re.search(r"hba1c|a1c|glycat|glycosyl", analyte, re.IGNORECASE))


def convert(value: float, unit: str | None, to_unit: str | None, analyte: str = "") -> float | None:
    """Convert ``value`` from ``unit`` to ``to_unit`` (None if no known conversion)."""
    a, b = normalize_unit(unit), normalize_unit(to_unit)
    if a == b:
        return value
    if a is None or b is None:
        return None
    if {a, b} == {"%", "mmol/mol"} and _hba1c(analyte):  # HbA1c: NGSP % <-> IFCC mmol/mol
        return (value - 2.15) * 10.929 if a == "%" else value / 10.929 + 2.15
    if (a, b) in _GENERIC:
        return value * _GENERIC[(a, b)]
    if (b, a) in _GENERIC:
        return value / _GENERIC[(b, a)]
    if {a, b} == {"°c", "°f"}:
        return value * 9 / 5 + 32 if a == "°c" else (value - 32) * 5 / 9
    name = analyte.lower()
    for key, (molar, mass, factor) in _ANALYTE_MASS.items():
        if key in name and {a, b} == {molar, mass}:
            return value * factor if a == molar else value / factor
    for key, (molar, factor) in _ANALYTE.items():
        if key in name:
            if a == molar and b == "mg/dl":
                return value * factor
            if a == "mg/dl" and b == molar:
                return value / factor
            if a == molar == "µmol/l" and b == "mmol/l":
                return value / 1000
    if a == "µmol/l" and b == "mmol/l":
        return value / 1000
    if a == "mmol/l" and b == "µmol/l":
        return value * 1000
    return None


def same_value(
    value: float,
    unit: str | None,
    ref_value: float,
    ref_unit: str | None,
    analyte: str = "",
    rel_tol: float = 0.03,
) -> bool:
    """Whether ``value unit`` states the same quantity as ``ref_value ref_unit``.

    A missing unit on the claim is read as the reference unit (agents often drop it
    when quoting). The tolerance absorbs rounding in conversions.
    """
    conv = value if unit is None else convert(value, unit, ref_unit, analyte)
    if conv is None:
        return False
    if unit is None or normalize_unit(unit) == normalize_unit(ref_unit):
        # Same unit: only rounding to the precision written is allowed, so a transposed or
        # misquoted value ("421" for 412, "186" for 168) is not the same number.
        return abs(conv - ref_value) <= max(_half_last_digit(value), 0.005 * abs(ref_value))
    scale = max(abs(ref_value), 1e-9)
    if abs(conv - ref_value) <= max(rel_tol * scale, 0.051 if abs(ref_value) < 10 else 0.5):
        return True
    # a conversion rounded to the precision written: 92 µmol/L creatinine is "~1.0 mg/dL" (1.04)
    back = convert(ref_value, ref_unit, unit, analyte)
    return back is not None and abs(back - value) <= min(_half_last_digit(value), 0.05 * abs(value))


def _half_last_digit(value: float) -> float:
    """Half a unit of the last digit written ("6.1" -> 0.05, "412" -> 0.5)."""
    text = f"{value:.6f}".rstrip("0").rstrip(".")
    decimals = len(text.split(".")[1]) if "." in text else 0
    return 0.5 * 10 ** (-decimals) + 1e-9


def looks_like_non_claim(text: str, q: Quantity) -> bool:
    """Years, ordinals and similar numbers that are not measurements about the patient."""
    window = text[max(0, q.start - 2) : q.end + 3]
    if q.unit is not None:
        return False
    if _YEAR.search(window) and not re.search(r"[<>\u2265\u2264]\s*$", text[max(0, q.start - 3) : q.start]):
        return True  # not a value past a bound ("LDH >2000")
    if q.value in (1, 2, 3) and re.match(r"°\s*(?![CF]\b)[A-Za-z]", text[q.end : q.end + 4]):
        return True  # "2° ibuprofen", "1° hyperparathyroidism": secondary to, primary, not degrees
    # the window may cut a word: "a CRP of 45 still favours", "the 42 this morning" are no ordinals
    return bool(_ORDINAL.search(window)) and not re.match(r"\s*(?:st|nd|rd|th)[a-z]", text[q.end : q.end + 6], re.I)
