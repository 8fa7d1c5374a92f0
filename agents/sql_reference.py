"""The offline reference SQL agent of the DataAgent testbed (LangGraph, no LLM, no gold).

The agent first discovers the database through its tools (``list_tables``,
``describe_table``, and ``run_sql`` on a few vocabulary queries), then answers each
round with a rule-based planner. The planner is described below; the LangGraph
graph and the policy class are at the end of the module.

Planner

``Planner.plan`` turns one clinician question plus the conversation context into
SQL. It knows SQL, the canonical table layout it discovered through
``describe_table``, the vocabulary it read from the database (lab names and LOINC
codes, diagnosis descriptions and codes, drug names, encounter types, units) and
a small clinical lexicon (synonyms such as CKD -> chronic kidney disease). It never
sees the task files: the gold SQL and gold answers are not inputs.

Questions are handled by intent rules tried in order; each rule extracts slots
(lab, diagnosis, drug, thresholds, dates, the cohort the question refers back
to) and fills an SQL template. A rule that does not apply returns None. A
question about a concept the database lacks (imaging, costs, blood type...) is
checked against the schema, the lab vocabulary and the notes before the agent
declares it unanswerable.

The conversation context carries the previous round's *cohort* (an SQL subquery
returning the patients the answer was about) and its *frame* (the record set it
was computed on), so "of those", "their", "those results" compose.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypedDict

from langgraph.graph import END, START, StateGraph

# ----------------------------------------------------------------------------- lexicon
LAB_LEXICON: list[tuple[str, str, Callable[[str], bool]]] = [
    ("hba1c", r"\bhba1c\b|\ba1c\b|glycated", lambda n: "a1c" in n),
    ("creatinine", r"creatinine", lambda n: "creatinine" in n and "ratio" not in n),
    ("glucose", r"glucose", lambda n: "glucose" in n),
    ("potassium", r"potassium", lambda n: "potassium" in n),
    ("sodium", r"sodium", lambda n: "sodium" in n),
    ("hemoglobin", r"ha?emoglobin(?!\s*a1c)", lambda n: n.startswith("hemoglobin") and "a1c" not in n),
    ("wbc", r"white (?:blood )?cell|\bwbc\b|leukocyte", lambda n: "leukocytes" in n),
    ("ldl", r"\bldl\b", lambda n: "ldl" in n or "low density" in n),
    ("cholesterol", r"(?<!ldl )cholesterol", lambda n: n.startswith("cholesterol [") or n == "total cholesterol"),
    ("ntprobnp", r"nt-?probnp|\bbnp\b|natriuretic", lambda n: "natriuretic" in n),
    ("tsh", r"\btsh\b|thyrotropin", lambda n: "thyrotropin" in n),
    ("alt", r"\balt\b|alanine aminotransferase", lambda n: "alanine" in n),
]
DX_LEXICON: list[tuple[str, str, str]] = [
    ("ckd", r"chronic kidney disease|\bckd\b", "chronic kidney disease"),
    ("t2d", r"type 2 diabetes|diabetic|diabetes", "diabetes mellitus"),
    ("htn", r"hypertension|hypertensive", "hypertension"),
    ("hf", r"heart failure", "heart failure"),
    ("copd", r"\bcopd\b|chronic obstructive", "chronic obstructive"),
    ("asthma", r"asthma", "asthma"),
    ("depression", r"depression|depressive", "depressive"),
    ("hypothyroid", r"hypothyroid", "hypothyroidism"),
    ("afib", r"atrial fibrillation|\bafib\b", "atrial fibrillation"),
    ("hyperlipidemia", r"hyperlipid", "hyperlipidemia"),
]
ETYPE_WORDS = {
    "emergency": r"\bemergency\b|\bed visits?\b",
    "inpatient": r"\binpatient\b|\badmissions?\b",
    "outpatient": r"\boutpatient\b",
    "telehealth": r"\btelehealth\b",
}
# Concepts an EHR extract often lacks: (question pattern, schema column hints, lab-name hints, note terms)
ABSENT_CONCEPTS: list[tuple[str, list[str], list[str], list[str]]] = [
    (r"blood (?:type|group)", ["blood_type", "blood_group", "abo"], ["abo", "blood group", "rh("], ["blood type", "blood group"]),
    (r"\baddress\b", ["address", "street"], [], ["address"]),
    (r"insurance|payer|insured", ["insurance", "payer", "plan"], [], ["insurance"]),
    (r"cause of death|caused? (?:the )?death", ["cause_of_death", "death_cause"], [], ["cause of death"]),
    (r"occupation|\bjob\b|profession", ["occupation", "job"], [], ["occupation", "works as"]),
    (r"income|salary", ["income", "salary"], [], ["income"]),
    (r"\bcost\b|\bprice\b|\bpaid\b|\bpay\b|how much did", ["cost", "price", "charge", "paid"], [], ["cost"]),
    (r"pharmac|dispens", ["pharmacy", "dispens"], [], ["pharmacy"]),
    (r"ultrasound|x-ray|\bmri\b|\bct scan\b|imaging|radiolog", ["imaging", "radiology"], [], ["ultrasound", "x-ray"]),
    (r"echocardiograph|ejection fraction", ["ejection_fraction", "echo"], ["ejection"], ["ejection fraction"]),
    (r"\becg\b|\bekg\b|rhythm", ["ecg", "rhythm"], ["ecg"], ["rhythm"]),
    (r"spirometry|\bfev1\b", ["fev1", "spirometry"], ["fev1", "spirometry"], ["fev1"]),
    (r"troponin", ["troponin"], ["troponin"], ["troponin"]),
    (r"albumin", ["albumin"], ["albumin"], ["albumin"]),
    (r"pack-?years?", ["pack_years"], [], ["pack-year", "pack year"]),
    (r"fasting", ["fasting"], ["fasting"], ["fasting"]),
    (r"what reaction|adverse reaction|reaction did", ["reaction"], [], ["{drug}"]),
    (r"who entered|entered (?:them|the \w+)? ?into|entered by", ["entered_by", "entered_at", "user_id"], [], []),
    (r"what caused|\bcause\b", ["cause"], [], ["{lab}"]),
]

NUM = r"(\d+(?:\.\d+)?)"
ISO = r"(\d{4}-\d{2}-\d{2})"
REFERS_BACK = re.compile(
    r"\b(?:of those|of them|of these|those patients|these patients|each of them|each of those|for them|"
    r"for those|which of them|any of them|those men|those women|those records|those results|those visits|"
    r"each one|had them|had one)\b|\btheir\b|\bthey\b|\bthem\b"
)


@dataclass
class Vocab:
    """What the agent learned about the database through its tools."""

    tables: dict[str, list[str]] = field(default_factory=dict)
    labs: list[tuple[str, str, str | None]] = field(default_factory=list)  # loinc, name, unit
    dx: list[tuple[str, str]] = field(default_factory=list)  # code, description
    drugs: list[str] = field(default_factory=list)
    etypes: list[str] = field(default_factory=list)

    def lab_codes(self, key: str) -> list[str]:
        pred = next(p for k, _r, p in LAB_LEXICON if k == key)
        return sorted({c for c, n, _u in self.labs if pred(n.lower())})

    def lab_units(self, codes: list[str]) -> list[str]:
        return sorted({u for c, _n, u in self.labs if c in codes and u})

    def dx_codes(self, key: str) -> list[str]:
        kw = next(k for name, _r, k in DX_LEXICON if name == key)
        return sorted({c for c, d in self.dx if kw in d.lower()})

    def has_column(self, hints: list[str]) -> bool:
        cols = [c.lower() for cs in self.tables.values() for c in cs]
        return any(h in c for h in hints for c in cols)

    def has_lab(self, hints: list[str]) -> bool:
        names = [n.lower() for _c, n, _u in self.labs]
        return any(h in n for h in hints for n in names)


@dataclass
class Plan:
    sql: str | None = None
    unanswerable: bool = False
    probe: str | None = None  # COUNT query: 0 confirms the concept is absent
    cohort: str | None = None  # patients the answer is about (None: keep the previous cohort)
    frame: dict[str, Any] | None = None  # record set for "those results" (None: keep)
    note: str = ""  # interpretation sentence
    rule: str = ""


@dataclass
class Context:
    cohort: str | None = None
    frame: dict[str, Any] = field(default_factory=dict)
    pid: str | None = None


# ----------------------------------------------------------------------------- helpers
def note_like(*phrases: str) -> str:
    """Case-insensitive 'note contains every phrase' condition (quotes escaped)."""
    return " AND ".join("LOWER(note_text) LIKE '%" + p.lower().replace("'", "''") + "%'" for p in phrases)


def sql_list(values: list[str]) -> str:
    return ", ".join("'" + v.replace("'", "''") + "'" for v in values) or "NULL"


def minus_years(iso: str, years: int) -> str:
    d = dt.date.fromisoformat(iso)
    try:
        return d.replace(year=d.year - years).isoformat()
    except ValueError:  # 29 February
        return d.replace(year=d.year - years, day=28).isoformat()


def next_day(iso: str) -> str:
    return (dt.date.fromisoformat(iso) + dt.timedelta(days=1)).isoformat()


def window(q: str) -> tuple[str, str] | None:
    """[start, end) from 'between D1 and D2', 'first quarter of Y', 'second half of Y', 'in Y'."""
    m = re.search(rf"between {ISO} and {ISO}", q)
    if m:
        return m.group(1), next_day(m.group(2))
    m = re.search(r"(first|second|third|fourth) quarter of (\d{4})", q)
    if m:
        k = ["first", "second", "third", "fourth"].index(m.group(1))
        y = int(m.group(2))
        start = dt.date(y, 3 * k + 1, 1)
        end = dt.date(y + (k == 3), (3 * k + 3) % 12 + 1, 1)
        return start.isoformat(), end.isoformat()
    m = re.search(r"(first|second) half of (\d{4})", q)
    if m:
        y = int(m.group(2))
        return (f"{y}-01-01", f"{y}-07-01") if m.group(1) == "first" else (f"{y}-07-01", f"{y + 1}-01-01")
    m = re.search(r"\b(?:in|during|of) (\d{4})\b", q)
    if m:
        y = int(m.group(1))
        return f"{y}-01-01", f"{y + 1}-01-01"
    return None


def threshold(q: str) -> tuple[str, float] | None:
    """The first comparison in the question as (operator, number)."""
    pats = [
        (rf"{NUM}\s*(?:mmhg|mg/dl|mmol/l|%|\w+/\w+)?\s+or more", ">="),
        (rf"at least {NUM}", ">="),
        (rf"(?:above|over|more than|greater than|higher than|exceed\w*)\s+{NUM}", ">"),
        (rf"(?:below|under|less than|lower than)\s+{NUM}", "<"),
    ]
    best: tuple[int, str, float] | None = None
    for pat, op in pats:
        m = re.search(pat, q)
        if m and (best is None or m.start() < best[0]):
            best = (m.start(), op, float(m.group(1)))
    return (best[1], best[2]) if best else None


def fmt_num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else repr(float(x))


class Planner:
    """Maps (question, context) to a Plan using the discovered vocabulary."""

    def __init__(self, vocab: Vocab, dialect: str):
        self.v = vocab
        self.dialect = dialect
        self.rules: list[Callable[[str, Context], Plan | None]] = [
            self.r_unanswerable,
            self.r_patient_lookup,
            self.r_units,
            self.r_missing,
            self.r_duplicates,
            self.r_vitals,
            self.r_trend,
            self.r_drug_lab,
            self.r_conversion,
            self.r_implausible_lab,
            self.r_lab_threshold,
            self.r_temporal_encounters,
            self.r_temporal_labs,
            self.r_drugs,
            self.r_notes,
            self.r_diagnoses,
            self.r_demographics,
        ]

    # ------------------------------------------------------------------ slots
    def labs(self, q: str) -> list[str]:
        found = [(m.start(), k) for k, rx, _p in LAB_LEXICON for m in [re.search(rx, q)] if m]
        return [k for _s, k in sorted(found)]

    def lab(self, q: str, ctx: Context) -> list[str] | None:
        keys = self.labs(q)
        if keys:
            return self.v.lab_codes(keys[0])
        return ctx.frame.get("lab_codes")

    def dxs(self, q: str) -> list[str]:
        found = []
        for key, rx, _kw in DX_LEXICON:
            m = re.search(rx, q)
            if m:
                found.append((m.start(), key))
        return [k for _s, k in sorted(found)]

    def drugs(self, q: str) -> list[str]:
        found = [(m.start(), d) for d in self.v.drugs for m in [re.search(rf"\b{re.escape(d.lower())}\b", q)] if m]
        return [d for _s, d in sorted(found)]

    def etype(self, q: str) -> str | None:
        for et, rx in ETYPE_WORDS.items():
            if re.search(rx, q) and (not self.v.etypes or et in self.v.etypes):
                return et
        return None

    @staticmethod
    def sex(q: str) -> str | None:
        if re.search(r"\b(?:women|woman|female|females)\b", q):
            return "F"
        if re.search(r"\b(?:men|man|male|males)\b", q):
            return "M"
        return None

    def dx_cohort(self, key: str) -> str:
        return f"SELECT patient_id FROM diagnoses WHERE code IN ({sql_list(self.v.dx_codes(key))})"

    @staticmethod
    def drug_cond(drug: str, alias: str = "") -> str:
        return f"LOWER({alias}drug_name) LIKE '%{drug.lower()}%'"

    def drug_cohort(self, drug: str) -> str:
        return f"SELECT patient_id FROM medications WHERE {self.drug_cond(drug)}"

    @staticmethod
    def note_cohort(*phrases: str) -> str:
        return f"SELECT patient_id FROM notes WHERE {note_like(*phrases)}"

    @staticmethod
    def refers_back(q: str) -> bool:
        return bool(REFERS_BACK.search(q))

    def cohort(self, q: str, ctx: Context, default_back: bool = True) -> str | None:
        """The patient set a question is about: an explicit group, or the previous cohort."""
        m = re.search(r"patients with an? ([\w\s-]+?) note\b", q)
        if m:
            return self.note_cohort(m.group(1).strip())
        if re.search(r"\bthe current smokers\b", q):
            return self.note_cohort("current smoker")
        m = re.search(r"(?:of the|among the) ([\w\s-]+?) patients\b", q)
        if m:
            group = m.group(1)
            d = self.drugs(group)
            if d:
                return self.drug_cohort(d[0])
            x = self.dxs(group)
            if x:
                return self.dx_cohort(x[0])
        m = re.search(r"(?:of the|among the) patients with (?:an? )?([\w\s-]+?)(?: were| have| had| are|\?|$)", q)
        if m:
            phrase = m.group(1).strip()
            x = self.dxs(phrase)
            if x:
                return self.dx_cohort(x[0])
            if "implausible" in phrase or "those" in phrase:
                return ctx.cohort
            return self.note_cohort(phrase)
        if default_back and self.refers_back(q):
            return ctx.cohort
        return None

    @staticmethod
    def within(cohort: str | None, alias: str = "") -> str:
        return f" AND {alias}patient_id IN ({cohort})" if cohort else ""

    def conversion(self, q: str, codes: list[str], ctx: Context) -> str | None:
        """A value expression converting the unit the question names (divide/multiply by N)."""
        m = re.search(r"(\w+/l)\b.{0,40}?(divid\w* by|multipl\w* by)\s+" + NUM, q) or re.search(
            r"(divid\w* by|multipl\w* by)\s+" + NUM + r".{0,40}?(\w+/l)\b", q)
        if not m:
            if re.search(r"convert|conversion", q) and ctx.frame.get("conv"):
                return ctx.frame["conv"]
            return None
        if m.group(1).endswith("/l"):
            unit, op, factor = m.group(1), m.group(2), m.group(3)
        else:
            op, factor, unit = m.group(1), m.group(2), m.group(3)
        units = {u.lower(): u for u in self.v.lab_units(codes)}
        db_unit = units.get(unit.lower(), unit)
        sym = "/" if op.startswith("divid") else "*"
        return f"CASE WHEN unit = '{db_unit}' THEN value {sym} {factor} ELSE value END"

    # ------------------------------------------------------------------ entry
    def plan(self, question: str, ctx: Context) -> Plan:
        q = " ".join(question.lower().replace("°c", " c").split())
        for rule in self.rules:
            p = rule(q, ctx)
            if p is not None:
                p.rule = p.rule or rule.__name__
                return p
        return Plan(sql=None, note="I could not map this question onto the database.", rule="none")

    # ------------------------------------------------------------------ rules
    def r_unanswerable(self, q: str, ctx: Context) -> Plan | None:
        for rx, cols, lab_hints, note_terms in ABSENT_CONCEPTS:
            if not re.search(rx, q):
                continue
            if self.v.has_column(cols) or (lab_hints and self.v.has_lab(lab_hints)):
                return None
            terms = []
            for t in note_terms:
                if t == "{drug}":
                    terms += [d.lower() for d in self.drugs(q)]
                elif t == "{lab}":
                    keys = self.labs(q)
                    terms += [keys[0]] if keys else []
                else:
                    terms.append(t)
            probe = None
            if terms and "notes" in self.v.tables:
                conds = " OR ".join(note_like(t) for t in terms)
                probe = f"SELECT COUNT(*) AS n FROM notes WHERE ({conds}){self.within(ctx.cohort)}"
            return Plan(unanswerable=True, probe=probe,
                        note="The database does not contain this information, so the question cannot be answered "
                             "from the data.")
        return None

    def r_patient_lookup(self, q: str, ctx: Context) -> Plan | None:
        m = re.search(r"\bpatient ([a-z]\d{3,}|[0-9a-f-]{8,})\b", q)
        if m and "diagnos" in q:
            pid = m.group(1).upper() if re.fullmatch(r"[a-z]\d+", m.group(1)) else m.group(1)
            ctx.pid = pid
            return Plan(sql=f"SELECT description FROM diagnoses WHERE patient_id = '{pid}' AND resolved_on IS NULL",
                        cohort=f"SELECT patient_id FROM patients WHERE patient_id = '{pid}'",
                        note=f"Active problems of patient {pid}.")
        if ctx.pid is None:
            return None
        pid = ctx.pid
        if "most recent" in q and self.labs(q):
            codes = self.lab(q, ctx) or []
            latest = (f"SELECT MAX(collected_at) FROM labs WHERE patient_id = '{pid}' "
                      f"AND loinc_code IN ({sql_list(codes)})")
            where = f"patient_id = '{pid}' AND loinc_code IN ({sql_list(codes)}) AND collected_at = ({latest})"
            return Plan(sql=f"SELECT DISTINCT value, unit FROM labs WHERE {where}",
                        frame={"table": "labs", "where": where, "lab_codes": codes}, note="Most recent result.")
        if "reference range" in q and ctx.frame.get("table") == "labs":
            return Plan(sql=f"SELECT DISTINCT ref_low, ref_high FROM labs WHERE {ctx.frame['where']}",
                        note="Reference range of that result.")
        m = re.search(r"medications were active.*? on " + ISO, q)
        if m:
            d = m.group(1)
            return Plan(sql=f"SELECT DISTINCT drug_name FROM medications WHERE patient_id = '{pid}' "
                            f"AND start_date <= '{d}' AND (end_date IS NULL OR end_date >= '{d}')",
                        note=f"Prescriptions active on {d}.")
        return None

    def r_units(self, q: str, ctx: Context) -> Plan | None:
        if not re.search(r"which units|what units", q):
            return None
        codes = self.lab(q, ctx) or []
        where = f"loinc_code IN ({sql_list(codes)})"
        return Plan(sql=f"SELECT unit, COUNT(*) AS n FROM labs WHERE {where} GROUP BY unit",
                    frame={"table": "labs", "where": where, "lab_codes": codes},
                    note="Several units/spellings are mixed; values must be harmonised before averaging.")

    def r_missing(self, q: str, ctx: Context) -> Plan | None:
        if re.search(r"which tests do they belong to", q) and ctx.frame.get("table") == "labs":
            return Plan(sql=f"SELECT lab_name, COUNT(*) AS n FROM labs WHERE {ctx.frame['where']} GROUP BY lab_name",
                        note="Missing values by test.")
        if re.search(r"results? have no value|no value recorded|missing value", q) and "how many" in q:
            codes = self.lab(q, ctx) if self.labs(q) else None
            where = "value IS NULL" + (f" AND loinc_code IN ({sql_list(codes)})" if codes else "")
            return Plan(sql=f"SELECT COUNT(*) AS n FROM labs WHERE {where}",
                        frame={"table": "labs", "where": where, "lab_codes": codes}, note="Results without a value.")
        if re.search(r"missing the blood pressure|no blood pressure", q):
            return Plan(sql="SELECT COUNT(*) AS n FROM vitals WHERE systolic_bp IS NULL",
                        frame={"table": "vitals", "where": "systolic_bp IS NULL"})
        if re.search(r"no postal code", q):
            return Plan(sql="SELECT patient_id FROM patients WHERE postal_code IS NULL",
                        cohort="SELECT patient_id FROM patients WHERE postal_code IS NULL")
        if re.search(r"prescriptions have no dose", q):
            where = "dose_value IS NULL"
            return Plan(sql=f"SELECT COUNT(*) AS n FROM medications WHERE {where}",
                        frame={"table": "medications", "where": where})
        if re.search(r"which drugs are those prescriptions for", q) and ctx.frame.get("table") == "medications":
            return Plan(sql=f"SELECT DISTINCT drug_name FROM medications WHERE {ctx.frame['where']}")
        if re.search(r"stays? have no end time|no end time recorded", q):
            et = self.etype(q) or "inpatient"
            where = f"encounter_type = '{et}' AND end_time IS NULL"
            return Plan(sql=f"SELECT COUNT(*) AS n FROM encounters WHERE {where}",
                        frame={"table": "encounters", "where": where},
                        cohort=f"SELECT patient_id FROM encounters WHERE {where}")
        if re.search(r"which patients do those .*stays belong to", q) and ctx.frame.get("table") == "encounters":
            return Plan(sql=f"SELECT patient_id, start_time FROM encounters WHERE {ctx.frame['where']}")
        return None

    DUPS = ("SELECT patient_id, loinc_code, collected_at, value, unit, COUNT(*) AS copies FROM labs "
            "GROUP BY patient_id, loinc_code, collected_at, value, unit HAVING COUNT(*) > 1")

    def r_duplicates(self, q: str, ctx: Context) -> Plan | None:
        dup_frame = {"table": "dups"}
        cohort = f"SELECT d.patient_id FROM ({self.DUPS}) d"
        if "duplicat" in q and "extra copies" in q and "how many" in q and "which tests" not in q:
            return Plan(sql=f"SELECT SUM(d.copies - 1) AS extra FROM ({self.DUPS}) d", frame=dup_frame, cohort=cohort,
                        note="Exact duplicate rows; they inflate counts and means.")
        if re.search(r"which patients have duplicated", q):
            return Plan(sql=f"SELECT DISTINCT d.patient_id FROM ({self.DUPS}) d", frame=dup_frame, cohort=cohort)
        if re.search(r"which tests were duplicated", q):
            return Plan(sql=f"SELECT n.lab_name, SUM(d.copies - 1) AS extra FROM ({self.DUPS}) d "
                            "JOIN (SELECT DISTINCT loinc_code, lab_name FROM labs) n ON n.loinc_code = d.loinc_code "
                            "GROUP BY n.lab_name", frame=dup_frame)
        if re.search(r"removing the extra copies", q):
            return Plan(sql=f"SELECT (SELECT COUNT(*) FROM labs) - (SELECT SUM(d.copies - 1) FROM ({self.DUPS}) d) "
                            "AS remaining")
        if "duplicat" in q and re.search(r"list each|number of copies", q):
            return Plan(sql=f"SELECT d.patient_id, d.loinc_code, d.collected_at, d.copies FROM ({self.DUPS}) d",
                        frame=dup_frame, cohort=cohort)
        if re.search(r"how many distinct patients does that involve", q) and ctx.frame.get("table") == "dups":
            return Plan(sql=f"SELECT COUNT(DISTINCT d.patient_id) AS n FROM ({self.DUPS}) d")
        return None

    def r_vitals(self, q: str, ctx: Context) -> Plan | None:
        fr = ctx.frame
        # implausible heart rates / Fahrenheit temperatures
        if "vital-sign records" in q and "heart rate of 0" in q:
            m = re.search(r"above " + NUM, q)
            hi = m.group(1) if m else "250"
            cond = f"(heart_rate = 0 OR heart_rate > {hi})"
            return Plan(sql=f"SELECT vital_id, patient_id, heart_rate FROM vitals WHERE {cond}",
                        frame={"table": "vitals", "where": cond, "col": "heart_rate"},
                        cohort=f"SELECT patient_id FROM vitals WHERE {cond}",
                        note="Heart rates of 0 or >250/min are recording errors.")
        if "vital-sign records" in q and "temperature above" in q:
            t = threshold(q)
            cond = f"temperature_c > {fmt_num(t[1]) if t else '45'}"
            return Plan(sql=f"SELECT vital_id, patient_id, temperature_c FROM vitals WHERE {cond}",
                        frame={"table": "vitals", "where": cond, "col": "temperature_c"},
                        cohort=f"SELECT patient_id FROM vitals WHERE {cond}",
                        note="Values above 45 °C are impossible; they look like Fahrenheit.")
        if "fahrenheit" in q and "celsius" in q and fr.get("col") == "temperature_c":
            return Plan(sql=f"SELECT vital_id, (temperature_c - 32) * 5 / 9 AS temperature_c FROM vitals "
                            f"WHERE {fr['where']}", frame={**fr, "converted": True})
        if "fever above" in q and fr.get("col") == "temperature_c":
            t = threshold(q)
            lim = fmt_num(t[1]) if t else "38.0"
            expr = f"CASE WHEN {fr['where']} THEN (temperature_c - 32) * 5 / 9 ELSE temperature_c END"
            return Plan(sql=f"SELECT COUNT(*) AS n FROM vitals WHERE {expr} > {lim}",
                        frame={**fr, "fever": f"{expr} > {lim}"})
        if "fever records" in q and fr.get("fever"):
            et = self.etype(q) or "inpatient"
            expr = fr["fever"].replace("temperature_c", "v.temperature_c")
            return Plan(sql=f"SELECT COUNT(*) AS n FROM vitals v JOIN encounters e ON e.encounter_id = v.encounter_id "
                            f"WHERE e.encounter_type = '{et}' AND {expr}")
        if fr.get("col") == "heart_rate" and "average heart rate" in q and "excluded" in q:
            return Plan(sql=f"SELECT AVG(heart_rate) AS avg_hr FROM vitals WHERE NOT {fr['where']}")
        if fr.get("col") == "heart_rate" and "average of their other heart rate" in q:
            return Plan(sql=f"SELECT patient_id, AVG(heart_rate) AS avg_hr FROM vitals WHERE NOT {fr['where']}"
                            f"{self.within(ctx.cohort)} GROUP BY patient_id")
        # records during a type of encounter
        if re.search(r"vital-sign records were taken during", q):
            et = self.etype(q)
            where = f"e.encounter_type = '{et}'"
            return Plan(sql=f"SELECT COUNT(*) AS n FROM vitals v JOIN encounters e ON e.encounter_id = v.encounter_id "
                            f"WHERE {where}", frame={"table": "vitals_enc", "where": where})
        if fr.get("table") == "vitals_enc" and "average heart rate" in q:
            extra = " AND v.heart_rate > 0 AND v.heart_rate <= 250" if "implausible" in q else ""
            return Plan(sql=f"SELECT AVG(v.heart_rate) AS avg_hr FROM vitals v JOIN encounters e "
                            f"ON e.encounter_id = v.encounter_id WHERE {fr['where']}{extra}")
        if fr.get("table") == "vitals_enc" and "respiratory rate" in q:
            t = threshold(q) or (">", 20.0)
            return Plan(sql=f"SELECT COUNT(*) AS n FROM vitals v JOIN encounters e ON e.encounter_id = v.encounter_id "
                            f"WHERE {fr['where']} AND v.resp_rate {t[0]} {fmt_num(t[1])}")
        # SpO2
        if "spo2" in q:
            t = threshold(q)
            if "lowest" in q:
                return Plan(sql=f"SELECT patient_id, MIN(spo2) AS min_spo2 FROM vitals WHERE spo2 IS NOT NULL"
                                f"{self.within(self.cohort(q, ctx))} GROUP BY patient_id")
            if t and "records" in q:
                cohort = self.cohort(q, ctx)
                return Plan(sql=f"SELECT COUNT(*) AS n FROM vitals WHERE spo2 {t[0]} {fmt_num(t[1])}"
                                f"{self.within(cohort)}")
            if t and "which patients" in q:
                cond = f"spo2 {t[0]} {fmt_num(t[1])}"
                return Plan(sql=f"SELECT DISTINCT patient_id FROM vitals WHERE {cond}",
                            cohort=f"SELECT patient_id FROM vitals WHERE {cond}", frame={"table": "vitals", "where": cond})
        # blood pressure
        if "systolic" in q:
            t = threshold(q)
            dx = self.dxs(q)
            if "average" in q:
                cohort = self.cohort(q, ctx)
                if dx and cohort is None:
                    cohort = self.dx_cohort(dx[0])
                frame = {"table": "vitals_sbp", "cohort": cohort}
                return Plan(sql=f"SELECT AVG(systolic_bp) AS avg_sbp FROM vitals WHERE systolic_bp IS NOT NULL"
                                f"{self.within(cohort)}", frame=frame)
            if t and "how many" in q:
                cohort = self.dx_cohort(dx[0]) if dx else self.cohort(q, ctx)
                cond = f"systolic_bp {t[0]} {fmt_num(t[1])}"
                new = f"SELECT patient_id FROM vitals WHERE {cond}{self.within(cohort)}"
                return Plan(sql=f"SELECT COUNT(DISTINCT patient_id) AS n FROM vitals WHERE {cond}{self.within(cohort)}",
                            cohort=new)
        if re.search(r"^and for patients without", q) and fr.get("table") == "vitals_sbp" and fr.get("cohort"):
            return Plan(sql=f"SELECT AVG(systolic_bp) AS avg_sbp FROM vitals WHERE systolic_bp IS NOT NULL "
                            f"AND patient_id NOT IN ({fr['cohort']})")
        return None

    def _trend_ctes(self, codes: list[str], conv: str | None) -> str:
        v = conv or "value"
        return (f"WITH c AS (SELECT patient_id, collected_at, {v} AS v FROM labs "
                f"WHERE loinc_code IN ({sql_list(codes)}) AND value IS NOT NULL), "
                "s AS (SELECT patient_id, MIN(collected_at) AS t0, MAX(collected_at) AS t1 FROM c GROUP BY patient_id), "
                "f0 AS (SELECT c.patient_id, AVG(c.v) AS v0 FROM c JOIN s ON s.patient_id = c.patient_id "
                "AND c.collected_at = s.t0 GROUP BY c.patient_id), "
                "f1 AS (SELECT c.patient_id, AVG(c.v) AS v1 FROM c JOIN s ON s.patient_id = c.patient_id "
                "AND c.collected_at = s.t1 GROUP BY c.patient_id) ")

    def r_trend(self, q: str, ctx: Context) -> Plan | None:
        m = re.search(r"rose by more than " + NUM + "%", q)
        if m and self.labs(q):
            codes = self.lab(q, ctx) or []
            conv = self.conversion(q, codes, ctx)
            factor = 1 + float(m.group(1)) / 100
            cohort = None if "across all patients" in q else self.cohort(q, ctx)
            base = self._trend_ctes(codes, conv)
            cond = f"f1.v1 > {factor!r} * f0.v0{self.within(cohort, 'f0.')}"
            sel = f"{base}SELECT f0.patient_id FROM f0 JOIN f1 ON f1.patient_id = f0.patient_id WHERE {cond}"
            return Plan(sql=sel, cohort=sel, frame={"table": "trend", "lab_codes": codes, "conv": conv},
                        note="A sustained creatinine rise means worsening kidney function.")
        if re.search(r"first and the last", q) and ctx.frame.get("table") == "trend":
            fr = ctx.frame
            base = self._trend_ctes(fr["lab_codes"], fr.get("conv"))
            return Plan(sql=f"{base}SELECT f0.patient_id, f0.v0, f1.v1 FROM f0 JOIN f1 ON f1.patient_id = f0.patient_id "
                            f"WHERE f0.patient_id IN ({ctx.cohort})")
        m = re.search(r"how many (\w+) measurements does each of them have", q)
        if m and self.labs(q):
            codes = self.lab(q, ctx) or []
            return Plan(sql=f"SELECT patient_id, COUNT(*) AS n FROM labs WHERE loinc_code IN ({sql_list(codes)})"
                            f"{self.within(ctx.cohort)} GROUP BY patient_id")
        return None

    def _drug_ctes(self, drug: str, codes: list[str], cohort: str | None) -> str:
        lab = f"l.loinc_code IN ({sql_list(codes)}) AND l.value IS NOT NULL"
        return (f"WITH d AS (SELECT patient_id, MIN(start_date) AS start_date FROM medications "
                f"WHERE {self.drug_cond(drug)}{self.within(cohort)} GROUP BY patient_id), "
                f"pre AS (SELECT l.patient_id, MAX(l.collected_at) AS t FROM labs l JOIN d ON d.patient_id = l.patient_id "
                f"WHERE {lab} AND l.collected_at < d.start_date GROUP BY l.patient_id), "
                f"post AS (SELECT l.patient_id, MAX(l.collected_at) AS t FROM labs l JOIN d ON d.patient_id = l.patient_id "
                f"WHERE {lab} AND l.collected_at >= d.start_date GROUP BY l.patient_id), "
                f"prev AS (SELECT l.patient_id, AVG(l.value) AS v FROM labs l JOIN pre p ON p.patient_id = l.patient_id "
                f"AND l.collected_at = p.t WHERE {lab} GROUP BY l.patient_id), "
                f"postv AS (SELECT l.patient_id, AVG(l.value) AS v FROM labs l JOIN post p ON p.patient_id = l.patient_id "
                f"AND l.collected_at = p.t WHERE {lab} GROUP BY l.patient_id) ")

    def r_drug_lab(self, q: str, ctx: Context) -> Plan | None:
        """Lab values relative to a drug's start date (before/after)."""
        drug = (self.drugs(q) or [ctx.frame.get("drug")])[0]
        if not drug or not self.labs(q):
            return None
        codes = self.lab(q, ctx) or []
        cohort = ctx.cohort if self.refers_back(q) else None
        if re.search(r"average .* before .* after", q):
            return Plan(sql=f"WITH d AS (SELECT patient_id, MIN(start_date) AS start_date FROM medications "
                            f"WHERE {self.drug_cond(drug)} GROUP BY patient_id) "
                            "SELECT AVG(CASE WHEN l.collected_at < d.start_date THEN l.value END) AS avg_before, "
                            "AVG(CASE WHEN l.collected_at >= d.start_date THEN l.value END) AS avg_after "
                            f"FROM labs l JOIN d ON d.patient_id = l.patient_id WHERE l.loinc_code IN ({sql_list(codes)}) "
                            "AND l.value IS NOT NULL", note="HbA1c fell after the drug was started.")
        m = re.search(r"at least " + NUM + r" percentage points? below the last value .*before", q)
        if m:
            base = self._drug_ctes(drug, codes, cohort)
            sel = (f"{base}SELECT prev.patient_id FROM prev JOIN postv ON postv.patient_id = prev.patient_id "
                   f"WHERE postv.v <= prev.v - {m.group(1)}")
            return Plan(sql=sel, cohort=sel)
        if re.search(r"last .* before the start", q):
            base = self._drug_ctes(drug, codes, cohort)
            return Plan(sql=f"{base}SELECT DISTINCT l.patient_id, l.value FROM labs l JOIN pre p "
                            f"ON p.patient_id = l.patient_id AND l.collected_at = p.t "
                            f"WHERE l.loinc_code IN ({sql_list(codes)})")
        return None

    def r_conversion(self, q: str, ctx: Context) -> Plan | None:
        codes = self.lab(q, ctx) or []
        if not codes:
            return None
        conv = self.conversion(q, codes, ctx)
        where = f"loinc_code IN ({sql_list(codes)})"
        if conv and re.search(r"\bmean\b|average", q) and "over all results" in q:
            return Plan(sql=f"SELECT AVG({conv}) AS mean_value FROM labs WHERE {where}",
                        frame={"table": "labs", "where": where, "lab_codes": codes, "conv": conv})
        if re.search(r"naively averag", q):
            return Plan(sql=f"SELECT AVG(value) AS raw_mean FROM labs WHERE {where}",
                        note="The raw mean mixes units and is meaningless.")
        if conv and re.search(r"highest .* then|maximum .* then", q):
            return Plan(sql=f"SELECT MAX({conv}) AS max_value FROM labs WHERE {where}",
                        frame={"table": "labs", "where": where, "lab_codes": codes, "conv": conv})
        return None

    def r_implausible_lab(self, q: str, ctx: Context) -> Plan | None:
        fr = ctx.frame
        if "implausible" in q and self.labs(q) and re.search(r"results?,? above", q) and "give the patient" in q:
            codes = self.lab(q, ctx) or []
            t = threshold(q) or (">", 20.0)
            cond = f"value {t[0]} {fmt_num(t[1])}"
            where = f"loinc_code IN ({sql_list(codes)}) AND {cond}"
            return Plan(sql=f"SELECT patient_id, value FROM labs WHERE {where}",
                        cohort=f"SELECT patient_id FROM labs WHERE {where}",
                        frame={"table": "labs", "where": where, "lab_codes": codes, "cond": cond},
                        note="Such values are physiologically impossible: probably a lost decimal point.")
        if fr.get("cond") and re.search(r"excluding those", q) and re.search(r"\bmean\b|average", q):
            return Plan(sql=f"SELECT AVG(value) AS mean_value FROM labs WHERE loinc_code IN "
                            f"({sql_list(fr['lab_codes'])}) AND NOT ({fr['cond']})")
        if fr.get("cond") and re.search(r"misplaced decimal|divided by 10", q):
            return Plan(sql=f"SELECT AVG(CASE WHEN {fr['cond']} THEN value / 10 ELSE value END) AS mean_value "
                            f"FROM labs WHERE loinc_code IN ({sql_list(fr['lab_codes'])})")
        return None

    def r_lab_threshold(self, q: str, ctx: Context) -> Plan | None:
        fr = ctx.frame
        if re.search(r"which patients had an? ", q) and self.labs(q) and threshold(q):
            codes = self.lab(q, ctx) or []
            t = threshold(q)
            expr = self.conversion(q, codes, ctx) if re.search(r"convers|convert", q) else None
            cond = f"{expr or 'value'} {t[0]} {fmt_num(t[1])}"
            where = f"loinc_code IN ({sql_list(codes)}) AND {cond}"
            return Plan(sql=f"SELECT DISTINCT patient_id FROM labs WHERE {where}",
                        cohort=f"SELECT patient_id FROM labs WHERE {where}",
                        frame={"table": "labs", "where": where, "lab_codes": codes, "cond": cond, "conv": expr})
        if fr.get("table") == "labs" and fr.get("cond") and (
                re.search(r"date and time and the value", q) or re.search(r"what were those values.*when", q)):
            return Plan(sql=f"SELECT patient_id, collected_at, value FROM labs WHERE {fr['where']}")
        m = re.search(r"how many (\w+) results do those patients have", q)
        if m and self.labs(q):
            codes = self.lab(q, ctx) or []
            return Plan(sql=f"SELECT COUNT(*) AS n FROM labs WHERE loinc_code IN ({sql_list(codes)})"
                            f"{self.within(ctx.cohort)}")
        if fr.get("cond") and re.search(r"next .* after the high", q):
            return Plan(sql=f"WITH sp AS (SELECT patient_id, collected_at AS t FROM labs WHERE {fr['where']}), "
                            f"nx AS (SELECT l.patient_id, MIN(l.collected_at) AS t FROM labs l JOIN sp ON "
                            f"sp.patient_id = l.patient_id WHERE l.loinc_code IN ({sql_list(fr['lab_codes'])}) "
                            "AND l.collected_at > sp.t GROUP BY l.patient_id) "
                            "SELECT DISTINCT l.patient_id, l.value FROM labs l JOIN nx ON nx.patient_id = l.patient_id "
                            f"AND l.collected_at = nx.t WHERE l.loinc_code IN ({sql_list(fr['lab_codes'])})",
                        note="A normal repeat value suggests a spurious result.")
        if fr.get("cond") and re.search(r"average .* (left out|excluded|leaving out)", q) and self.labs(q):
            codes = self.lab(q, ctx) or []
            return Plan(sql=f"SELECT patient_id, AVG(value) AS avg_value FROM labs WHERE loinc_code IN "
                            f"({sql_list(codes)}) AND value IS NOT NULL AND NOT ({fr['cond']})"
                            f"{self.within(ctx.cohort)} GROUP BY patient_id")
        # highest / latest value per patient
        if re.search(r"highest .* (?:for each|each)", q) and self.labs(q):
            codes = self.lab(q, ctx) or []
            cohort = self.cohort(q, ctx)
            dx = self.dxs(q)
            if dx and "each of them" not in q:
                cohort = self.dx_cohort(dx[0])
            extra = ""
            m = re.search(r"ignoring implausible values above " + NUM, q)
            if m:
                extra = f" AND value <= {m.group(1)}"
            return Plan(sql=f"SELECT patient_id, MAX(value) AS max_value FROM labs WHERE loinc_code IN "
                            f"({sql_list(codes)}){extra}{self.within(cohort)} GROUP BY patient_id")
        if re.search(r"each one's most recent|most recent .* each", q) and self.labs(q):
            codes = self.lab(q, ctx) or []
            cohort = ctx.cohort
            return Plan(sql=f"SELECT DISTINCT l.patient_id, l.value FROM labs l JOIN (SELECT patient_id, "
                            f"MAX(collected_at) AS t FROM labs WHERE loinc_code IN ({sql_list(codes)}) AND value IS NOT NULL"
                            f"{self.within(cohort)} GROUP BY patient_id) m ON m.patient_id = l.patient_id "
                            f"AND l.collected_at = m.t WHERE l.loinc_code IN ({sql_list(codes)})")
        # "which of them had (any) <lab> above X (during Y) (ignoring implausible values above Z)"
        if re.search(r"which of them (?:ever )?had", q) and self.labs(q) and threshold(q):
            codes = self.lab(q, ctx) or []
            t = threshold(q)
            cond = f"value {t[0]} {fmt_num(t[1])}"
            m = re.search(r"ignoring implausible values above " + NUM, q)
            if m:
                cond += f" AND value <= {m.group(1)}"
            w = window(q) if re.search(r"during \d{4}|in \d{4}", q) else None
            if w:
                cond += f" AND collected_at >= '{w[0]}' AND collected_at < '{w[1]}'"
            sel = (f"SELECT DISTINCT patient_id FROM labs WHERE loinc_code IN ({sql_list(codes)}) AND {cond}"
                   f"{self.within(ctx.cohort)}")
            return Plan(sql=sel, cohort=sel)
        return None

    def month_expr(self, col: str) -> str:
        if self.dialect == "sqlite":
            return f"CAST(strftime('%m', {col}) AS INTEGER)"
        if self.dialect == "mysql":
            return f"MONTH({col})"
        return f"EXTRACT(MONTH FROM {col})"

    def r_temporal_encounters(self, q: str, ctx: Context) -> Plan | None:
        fr = ctx.frame
        m = re.search(r"how many (\w+) (?:visits|admissions|encounters|stays) were there", q)
        if m:
            et = self.etype(q)
            w = window(q)
            if et and w:
                where = f"encounter_type = '{et}' AND start_time >= '{w[0]}' AND start_time < '{w[1]}'"
                return Plan(sql=f"SELECT COUNT(*) AS n FROM encounters WHERE {where}",
                            frame={"table": "encounters", "where": where, "start": w[0], "etype": et},
                            cohort=f"SELECT patient_id FROM encounters WHERE {where}")
        if re.search(r"how many distinct patients had (?:them|one)", q) and fr.get("table") in ("encounters", "labs"):
            return Plan(sql=f"SELECT COUNT(DISTINCT patient_id) AS n FROM {fr['table']} WHERE {fr['where']}",
                        cohort=f"SELECT patient_id FROM {fr['table']} WHERE {fr['where']}")
        m = re.search(r"at least (\d+) years old on " + ISO, q)
        if m:
            cut = minus_years(m.group(2), int(m.group(1)))
            return Plan(sql=f"SELECT COUNT(*) AS n FROM patients WHERE birth_date <= '{cut}'{self.within(ctx.cohort)}")
        m = re.search(r"number of (\w+) (?:visits|admissions|encounters) for each month of (\d{4})", q)
        if m:
            et = self.etype(q)
            y = int(m.group(2))
            me = self.month_expr("start_time")
            return Plan(sql=f"SELECT {me} AS month, COUNT(*) AS n FROM encounters WHERE encounter_type = '{et}' "
                            f"AND start_time >= '{y}-01-01' AND start_time < '{y + 1}-01-01' GROUP BY {me}")
        if re.search(r"reasons for those visits", q) and fr.get("table") == "encounters":
            return Plan(sql=f"SELECT reason, COUNT(*) AS n FROM encounters WHERE {fr['where']} GROUP BY reason")
        return None

    def r_temporal_labs(self, q: str, ctx: Context) -> Plan | None:
        fr = ctx.frame
        m = re.search(r"how many (.+?) tests were done", q)
        if m and self.labs(q):
            codes = self.lab(q, ctx) or []
            w = window(q)
            if w:
                where = f"loinc_code IN ({sql_list(codes)}) AND collected_at >= '{w[0]}' AND collected_at < '{w[1]}'"
                return Plan(sql=f"SELECT COUNT(*) AS n FROM labs WHERE {where}",
                            frame={"table": "labs", "where": where, "lab_codes": codes},
                            cohort=f"SELECT patient_id FROM labs WHERE {where}")
        if re.search(r"average value over that period", q) and fr.get("table") == "labs":
            conv = self.conversion(q, fr.get("lab_codes") or [], ctx)
            extra = ""
            m = re.search(r"implausible values above " + NUM, q)
            if m:
                extra = f" AND value <= {m.group(1)}"
            return Plan(sql=f"SELECT AVG({conv or 'value'}) AS avg_value FROM labs WHERE {fr['where']}{extra}")
        if re.search(r"above the upper limit of (?:their|its|the) reference range", q) and fr.get("table") == "labs":
            return Plan(sql=f"SELECT COUNT(*) AS n FROM labs WHERE {fr['where']} AND value > ref_high")
        return None

    def r_drugs(self, q: str, ctx: Context) -> Plan | None:
        drugs = self.drugs(q)
        if not drugs:
            return None
        drug = drugs[0]
        dc = self.drug_cond(drug)
        if re.search(r"which patients are on .*when did each", q):
            sel = f"SELECT patient_id, MIN(start_date) AS start_date FROM medications WHERE {dc} GROUP BY patient_id"
            return Plan(sql=sel, cohort=self.drug_cohort(drug), frame={"drug": drug})
        m = re.search(r"active \w+ prescription on " + ISO, q)
        if m:
            d = m.group(1)
            sel = (f"SELECT DISTINCT patient_id FROM medications WHERE {dc} AND start_date <= '{d}' "
                   f"AND (end_date IS NULL OR end_date >= '{d}')")
            return Plan(sql=sel, cohort=sel, frame={"drug": drug})
        if re.search(r"\bdoses?\b", q) and re.search(r"number of prescriptions", q):
            return Plan(sql=f"SELECT dose_value, dose_unit, COUNT(*) AS n FROM medications WHERE {dc} "
                            "GROUP BY dose_value, dose_unit", note="Note the inconsistent unit spellings.")
        if re.search(r"what dose .* started on", q):
            return Plan(sql=f"SELECT DISTINCT dose_value, dose_unit FROM medications WHERE {dc}")
        if re.search(r"when was the .* started for each.*type of encounter", q):
            return Plan(sql=f"SELECT m.patient_id, m.start_date, e.encounter_type FROM medications m "
                            f"JOIN encounters e ON e.encounter_id = m.encounter_id WHERE {self.drug_cond(drug, 'm.')}"
                            f"{self.within(ctx.cohort, 'm.')}")
        if "never been prescribed" in q:
            dx = self.dxs(q)
            base = self.dx_cohort(dx[0]) if dx else (ctx.cohort or "SELECT patient_id FROM patients")
            sel = f"SELECT DISTINCT patient_id FROM ({base}) b WHERE patient_id NOT IN ({self.drug_cohort(drug)})"
            return Plan(sql=sel, cohort=sel)
        if "not on" in q and self.labs(q) and re.search(r"average|mean", q):
            codes = self.lab(q, ctx) or []
            dx = self.dxs(q)
            cohort = self.dx_cohort(dx[0]) if dx else ctx.cohort
            extra = ""
            m = re.search(r"implausible values above " + NUM, q)
            if m:
                extra = f" AND value <= {m.group(1)}"
            return Plan(sql=f"SELECT AVG(value) AS avg_value FROM labs WHERE loinc_code IN ({sql_list(codes)}){extra}"
                            f"{self.within(cohort)} AND patient_id NOT IN ({self.drug_cohort(drug)})")
        if len(drugs) >= 2 and re.search(r"\bboth\b", q):
            cohort = self.cohort(q, ctx)
            sel = (f"SELECT DISTINCT patient_id FROM medications WHERE {dc} AND patient_id IN "
                   f"({self.drug_cohort(drugs[1])}){self.within(cohort)}")
            return Plan(sql=sel, cohort=sel)
        if re.search(r"the \w+ patients also take", q) and len(drugs) >= 2:
            sel = (f"SELECT DISTINCT patient_id FROM medications WHERE {self.drug_cond(drugs[1])} AND patient_id IN "
                   f"({self.drug_cohort(drugs[0])})")
            return Plan(sql=sel, cohort=sel)
        cohort = self.cohort(q, ctx)
        cond = dc + (" AND end_date IS NULL" if re.search(r"active .*no end date|no end date", q) else "")
        sel = f"SELECT DISTINCT patient_id FROM medications WHERE {cond}{self.within(cohort)}"
        if re.search(r"^how many|, how many|\bhow many\b", q) and re.search(r"prescribed|received|started on|are on|on \w+\?", q):
            return Plan(sql=f"SELECT COUNT(DISTINCT patient_id) AS n FROM medications WHERE {cond}{self.within(cohort)}",
                        cohort=sel, frame={"drug": drug})
        if re.search(r"which|were any", q) and re.search(r"prescri|take|active|on \w+", q):
            return Plan(sql=sel, cohort=sel, frame={"drug": drug})
        return None

    NOTE_PHRASES: list[tuple[str, Callable[[re.Match], list[str]]]] = [
        (r"notes? mentioning (?:an? )?(.+?)\?", lambda m: [m.group(1).strip()]),
        (r"documented as (.+?) in their notes", lambda m: [re.sub(r"s$", "", m.group(1).strip())]),
        (r"notes say they are ([\w-]+)", lambda m: [m.group(1)]),
        (r"have an? (\w+) allergy documented", lambda m: [m.group(1), "allerg"]),
    ]

    def r_notes(self, q: str, ctx: Context) -> Plan | None:
        m = re.search(r"how many notes mention (.+?)\?", q)
        if m:
            where = note_like(m.group(1).strip())
            return Plan(sql=f"SELECT COUNT(*) AS n FROM notes WHERE {where}",
                        frame={"table": "notes", "where": where}, cohort=self.note_cohort(m.group(1).strip()))
        if re.search(r"how many distinct patients do they belong to", q) and ctx.frame.get("table") == "notes":
            return Plan(sql=f"SELECT COUNT(DISTINCT patient_id) AS n FROM notes WHERE {ctx.frame['where']}")
        phrase = next((get(m) for rx, get in self.NOTE_PHRASES for m in [re.search(rx, q)] if m), None)
        if not phrase:
            return None
        back = ctx.cohort if re.search(r"which of them|of those", q) else None
        sel = f"SELECT DISTINCT patient_id FROM notes WHERE {note_like(*phrase)}{self.within(back)}"
        if q.startswith("how many"):
            return Plan(sql=f"SELECT COUNT(*) AS n FROM ({sel}) s", cohort=sel)
        return Plan(sql=sel, cohort=sel)

    def r_diagnoses(self, q: str, ctx: Context) -> Plan | None:
        m = re.search(r"which diagnoses are recorded for more than (\d+) patients", q)
        if m:
            return Plan(sql="SELECT description, COUNT(DISTINCT patient_id) AS n FROM diagnoses GROUP BY description "
                            f"HAVING COUNT(DISTINCT patient_id) > {m.group(1)}")
        dxs = self.dxs(q)
        if re.search(r"average (\w+) among", q) and self.labs(q):
            codes = self.lab(q, ctx) or []
            cohort = ctx.cohort if self.refers_back(q) else (self.dx_cohort(dxs[0]) if dxs else None)
            return Plan(sql=f"SELECT AVG(value) AS avg_value FROM labs WHERE loinc_code IN ({sql_list(codes)})"
                            f"{self.within(cohort)}")
        if not dxs:
            return None
        dx = dxs[0]
        if "implausible" in q:
            cohort = ctx.cohort
        else:
            cohort = self.cohort(q, ctx)
            if cohort == self.dx_cohort(dx):
                cohort = ctx.cohort if self.refers_back(q) else None
        sel = f"SELECT DISTINCT patient_id FROM diagnoses WHERE code IN ({sql_list(self.v.dx_codes(dx))})" \
              f"{self.within(cohort)}"
        if "how many" in q:
            return Plan(sql=f"SELECT COUNT(DISTINCT patient_id) AS n FROM diagnoses WHERE code IN "
                            f"({sql_list(self.v.dx_codes(dx))}){self.within(cohort)}", cohort=sel)
        if re.search(r"which|list", q):
            return Plan(sql=sel, cohort=sel)
        return None

    def r_demographics(self, q: str, ctx: Context) -> Plan | None:
        if re.search(r"how many patients are (?:there )?in the database", q):
            return Plan(sql="SELECT COUNT(*) AS n FROM patients", cohort="SELECT patient_id FROM patients")
        m = re.search(r"born in the \d{4}s, from " + ISO + " to " + ISO, q) or re.search(
            r"born between " + ISO + " and " + ISO, q)
        if m:
            where = f"birth_date >= '{m.group(1)}' AND birth_date <= '{m.group(2)}'"
            return Plan(sql=f"SELECT COUNT(*) AS n FROM patients WHERE {where}",
                        cohort=f"SELECT patient_id FROM patients WHERE {where}")
        m = re.search(r"born before " + ISO, q)
        if m:
            where = f"birth_date < '{m.group(1)}'"
            cohort = self.cohort(q, ctx) if re.search(r"which of|of those|of them", q) else None
            sel = f"SELECT patient_id FROM patients WHERE {where}{self.within(cohort)}"
            if "how many" in q:
                return Plan(sql=f"SELECT COUNT(*) AS n FROM patients WHERE {where}{self.within(cohort)}", cohort=sel)
            return Plan(sql=sel, cohort=sel)
        if re.search(r"recorded date of death|have died|deceased", q):
            return Plan(sql="SELECT COUNT(*) AS n FROM patients WHERE death_date IS NOT NULL",
                        cohort="SELECT patient_id FROM patients WHERE death_date IS NOT NULL")
        if re.search(r"encounters of each type", q):
            return Plan(sql="SELECT encounter_type, COUNT(*) AS n FROM encounters GROUP BY encounter_type")
        if re.search(r"how many encounters did", q):
            return Plan(sql=f"SELECT COUNT(*) AS n FROM encounters WHERE 1 = 1{self.within(ctx.cohort)}")
        et = self.etype(q)
        if et and re.search(r"had (?:at least one|an?) \w+ (?:visit|stay|admission)|have had an? \w+ stay", q):
            cohort = self.cohort(q, ctx)
            where = f"encounter_type = '{et}'{self.within(cohort)}"
            sel = f"SELECT patient_id FROM encounters WHERE {where}"
            return Plan(sql=f"SELECT COUNT(DISTINCT patient_id) AS n FROM encounters WHERE {where}", cohort=sel)
        sex = self.sex(q)
        if sex and "how many" in q:
            cohort = self.cohort(q, ctx)
            sel = f"SELECT patient_id FROM patients WHERE sex = '{sex}'{self.within(cohort)}"
            return Plan(sql=f"SELECT COUNT(*) AS n FROM patients WHERE sex = '{sex}'{self.within(cohort)}", cohort=sel)
        return None


# ============================================================================= the agent
class _State(TypedDict, total=False):
    observation: str
    info: dict[str, Any]
    mem: dict[str, Any]
    action: str


VOCAB_QUERIES = {
    "labs": ("labs", "SELECT DISTINCT loinc_code, lab_name, unit FROM labs"),
    "dx": ("diagnoses", "SELECT DISTINCT code, description FROM diagnoses"),
    "drugs": ("medications", "SELECT DISTINCT drug_name FROM medications"),
    "etypes": ("encounters", "SELECT DISTINCT encounter_type FROM encounters"),
}


def _call(name: str, **arguments: Any) -> str:
    return json.dumps({"tool": name, "arguments": arguments}, ensure_ascii=False)


def _fresh_memory() -> dict[str, Any]:
    return {
        "vocab": Vocab(),
        "ctx": Context(),
        "queue": None,  # discovery actions still to send (None: not started)
        "pending": None,  # what the last action was waiting for
        "discovered": False,
        "dialect": "sqlite",
        "round": 0,
        "question": None,
        "plan": None,
        "probe_done": False,
        "probe_count": None,
        "query_done": False,
        "query_error": None,
        "result": None,
    }


def _ingest(state: _State) -> _State:
    mem, info = state["mem"], state.get("info") or {}
    mem["dialect"] = info.get("dialect", mem["dialect"])
    pending, mem["pending"] = mem["pending"], None
    result = info.get("tool_result") if "tool_error" not in info else None
    if pending is not None:
        kind = pending[0]
        if kind == "list_tables":
            tables = (result or {}).get("tables") or []
            mem["vocab"].tables = {t: [] for t in tables}
            queue = [("describe", t) for t in tables]
            queue += [("vocab", k) for k, (t, _q) in VOCAB_QUERIES.items() if t in tables]
            mem["queue"] = queue
        elif kind == "describe" and result:
            mem["vocab"].tables[pending[1]] = list(result.get("columns") or [])
        elif kind == "vocab" and result:
            rows = result.get("rows") or []
            v: Vocab = mem["vocab"]
            if pending[1] == "labs":
                v.labs = [(str(r[0]), str(r[1]), r[2]) for r in rows]
            elif pending[1] == "dx":
                v.dx = [(str(r[0]), str(r[1])) for r in rows]
            elif pending[1] == "drugs":
                v.drugs = sorted({str(r[0]) for r in rows}, key=lambda d: (-len(d), d))
            elif pending[1] == "etypes":
                v.etypes = [str(r[0]) for r in rows]
        elif kind == "probe":
            mem["probe_done"] = True
            rows = (result or {}).get("rows") or []
            mem["probe_count"] = rows[0][0] if rows and rows[0] else None
        elif kind == "query":
            mem["query_done"] = True
            mem["result"] = result
            mem["query_error"] = None if result is not None else (info.get("tool_error") or {}).get("message")
    if mem["queue"] is not None and not mem["queue"] and mem["pending"] is None:
        mem["discovered"] = True
    utterance = info.get("utterance")
    if utterance and info.get("round") != mem["round"]:
        mem.update(round=info.get("round"), question=utterance, plan=None, probe_done=False, probe_count=None,
                   query_done=False, query_error=None, result=None)
    return {"mem": mem}


def _route(state: _State) -> str:
    mem = state["mem"]
    if not mem["discovered"]:
        return "discover"
    plan: Plan | None = mem["plan"]
    if plan is None:
        return "plan"
    if plan.probe and not mem["probe_done"]:
        return "probe"
    if plan.unanswerable and mem["probe_done"] and mem["probe_count"] not in (0, None):
        # the notes do mention the concept: not clearly absent, fall back to the answer text
        plan.unanswerable = False
    if plan.sql and not plan.unanswerable and not mem["query_done"]:
        return "query"
    return "answer"


def _discover(state: _State) -> _State:
    mem = state["mem"]
    if mem["queue"] is None:
        mem["pending"] = ("list_tables",)
        return {"mem": mem, "action": _call("list_tables")}
    step = mem["queue"].pop(0)
    mem["pending"] = step
    if step[0] == "describe":
        return {"mem": mem, "action": _call("describe_table", table=step[1])}
    return {"mem": mem, "action": _call("run_sql", sql=VOCAB_QUERIES[step[1]][1])}


def _plan(state: _State) -> _State:
    mem = state["mem"]
    planner = Planner(mem["vocab"], mem["dialect"])
    mem["plan"] = planner.plan(mem["question"] or "", mem["ctx"])
    return {"mem": mem}


def _probe(state: _State) -> _State:
    mem = state["mem"]
    mem["pending"] = ("probe",)
    return {"mem": mem, "action": _call("run_sql", sql=mem["plan"].probe)}


def _query(state: _State) -> _State:
    mem = state["mem"]
    mem["pending"] = ("query",)
    return {"mem": mem, "action": _call("run_sql", sql=mem["plan"].sql)}


def _summarise(result: dict[str, Any] | None) -> str:
    if not result:
        return "no result"
    rows, cols = result.get("rows") or [], result.get("columns") or []
    if len(rows) == 1 and len(cols) == 1:
        return f"{cols[0]} = {rows[0][0]}"
    if not rows:
        return "no matching rows"
    shown = "; ".join(", ".join(str(c) for c in r) for r in rows[:8])
    return f"{len(rows)} row(s) ({', '.join(cols)}): {shown}{' ...' if len(rows) > 8 else ''}"


def _answer(state: _State) -> _State:
    mem = state["mem"]
    plan: Plan = mem["plan"]
    ctx: Context = mem["ctx"]
    if plan.unanswerable:
        args: dict[str, Any] = {"text": plan.note, "unanswerable": True}
    elif plan.sql is None:
        args = {"text": plan.note, "values": []}
    elif mem["query_error"] or mem["result"] is None:
        args = {"text": f"The query failed ({mem['query_error']}); I cannot give an answer.", "values": []}
    else:
        args = {"text": f"{_summarise(mem['result'])}. {plan.note}".strip()}
        if plan.cohort is not None:
            ctx.cohort = plan.cohort
        if plan.frame is not None:
            ctx.frame = {**plan.frame}
    mem["plan"] = None
    mem["pending"] = None
    return {"mem": mem, "action": _call("answer", **args)}


def build_graph():
    """The compiled LangGraph StateGraph: ingest -> (discover | plan -> (probe | query | answer))."""
    g = StateGraph(_State)
    g.add_node("ingest", _ingest)
    g.add_node("discover", _discover)
    g.add_node("plan", _plan)
    g.add_node("probe", _probe)
    g.add_node("query", _query)
    g.add_node("answer", _answer)
    g.add_edge(START, "ingest")
    g.add_conditional_edges("ingest", _route, ["discover", "plan", "probe", "query", "answer"])
    g.add_conditional_edges("plan", _route, ["probe", "query", "answer"])
    for node in ("discover", "probe", "query", "answer"):
        g.add_edge(node, END)
    return g.compile()


class SQLReferenceAgent:
    """Offline, deterministic reference agent for ``medgym/DataAgent-v0``.

    ``act(observation, info) -> action`` runs one pass of the compiled graph. The
    agent reads ``info["utterance"]`` (the question, also in the observation),
    ``info["tool_result"]`` (structured results of its own tool calls) and
    ``info["dialect"]``; it never reads task files or gold answers.
    """

    name = "sql_reference"

    def __init__(self) -> None:
        self.graph = build_graph()
        self.mem = _fresh_memory()

    def reset(self) -> None:
        self.mem = _fresh_memory()

    def act(self, observation: str, info: dict[str, Any]) -> str:
        out = self.graph.invoke({"observation": observation, "info": info or {}, "mem": self.mem})
        self.mem = out["mem"]
        return out["action"]


def make_sql_reference_agent(**_: Any) -> SQLReferenceAgent:
    return SQLReferenceAgent()
