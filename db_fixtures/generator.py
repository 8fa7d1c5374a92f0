"""A deterministic, seeded generator of a small synthetic EHR.

``generate(seed, n_patients)`` returns plain rows for every table in
:mod:`medgym.db_fixtures.schema` plus a manifest of what was *planted*:

* trends: creatinine rising over a year in some CKD patients; HbA1c falling after
  semaglutide is started in some diabetics;
* anomalies: physiologically implausible values (HbA1c x10, heart rate 0 or 312,
  temperatures recorded in Fahrenheit), exact duplicate lab rows, single
  out-of-range spikes (potassium > 6, sodium < 125);
* data mess: NULL lab values and blood pressures, missing postal codes and doses,
  open inpatient stays, creatinine in umol/L or ``mg/dl``, glucose in mmol/L,
  ``MG`` instead of ``mg``;
* note content: falls, current smokers, medication non-adherence, penicillin
  allergy (two of those patients were nevertheless given amoxicillin).

Every draw comes from one ``numpy.random.Generator`` seeded with ``seed``, in a fixed
order, so the same (seed, n_patients, GENERATOR_VERSION) always yields the same
rows. Bump ``GENERATOR_VERSION`` whenever the output changes: the embedded SQLite
cache and the stored gold answers are keyed on it.

Planted patients are kept apart from one another where overlap would blur a
question (a trend patient never gets an implausible value), so task questions have
one clean answer; the manifest lets tests check that the gold SQL finds exactly
what was planted.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Any

import numpy as np

GENERATOR_VERSION = 1
DEFAULT_SEED = 7
DEFAULT_PATIENTS = 200
FIXTURE_NAME = "medgym-ehr"
WINDOW_START = date(2021, 1, 1)
WINDOW_END = date(2024, 12, 31)

# --------------------------------------------------------------------------- lexicons
# (key, ICD-10-CM code, description, prevalence)
CHRONIC_CONDITIONS: list[tuple[str, str, str, float]] = [
    ("hypertension", "I10", "Essential (primary) hypertension", 0.36),
    ("diabetes", "E11.9", "Type 2 diabetes mellitus without complications", 0.23),
    ("hyperlipidemia", "E78.5", "Hyperlipidemia, unspecified", 0.27),
    ("ckd", "N18.3", "Chronic kidney disease, stage 3 (moderate)", 0.11),
    ("heart_failure", "I50.9", "Heart failure, unspecified", 0.07),
    ("copd", "J44.9", "Chronic obstructive pulmonary disease, unspecified", 0.08),
    ("asthma", "J45.909", "Unspecified asthma, uncomplicated", 0.09),
    ("depression", "F32.9", "Major depressive disorder, single episode, unspecified", 0.13),
    ("hypothyroidism", "E03.9", "Hypothyroidism, unspecified", 0.085),
    ("afib", "I48.91", "Unspecified atrial fibrillation", 0.06),
]
ACUTE_CONDITIONS: dict[str, tuple[str, str]] = {
    "pneumonia": ("J18.9", "Pneumonia, unspecified organism"),
    "uti": ("N39.0", "Urinary tract infection, site not specified"),
    "chest_pain": ("R07.9", "Chest pain, unspecified"),
    "fall": ("W19.XXXA", "Unspecified fall, initial encounter"),
    "dyspnea": ("R06.02", "Shortness of breath"),
    "cellulitis": ("L03.115", "Cellulitis of right lower limb"),
    "syncope": ("R55", "Syncope and collapse"),
    "gi_bleed": ("K92.2", "Gastrointestinal hemorrhage, unspecified"),
}

# drug key -> (drug_name, rxnorm, doses, unit, route, frequency). RxNorm codes are illustrative.
DRUGS: dict[str, tuple[str, str, list[float], str, str, str]] = {
    "metformin": ("metformin", "861007", [500.0, 1000.0], "mg", "oral", "twice daily"),
    "lisinopril": ("lisinopril", "314076", [10.0, 20.0], "mg", "oral", "once daily"),
    "amlodipine": ("amlodipine", "197361", [5.0, 10.0], "mg", "oral", "once daily"),
    "atorvastatin": ("atorvastatin", "617312", [20.0, 40.0], "mg", "oral", "once daily"),
    "semaglutide": ("semaglutide", "1991302", [0.25], "mg", "subcutaneous", "once weekly"),
    "furosemide": ("furosemide", "313988", [40.0], "mg", "oral", "once daily"),
    "levothyroxine": ("levothyroxine", "966222", [50.0, 75.0, 100.0], "mcg", "oral", "once daily"),
    "apixaban": ("apixaban", "1364430", [5.0, 2.5], "mg", "oral", "twice daily"),
    "sertraline": ("sertraline", "312940", [50.0, 100.0], "mg", "oral", "once daily"),
    "albuterol": ("albuterol", "745679", [90.0], "mcg", "inhaled", "as needed"),
    "amoxicillin": ("amoxicillin", "308182", [500.0], "mg", "oral", "three times daily"),
    "nitrofurantoin": ("nitrofurantoin", "1648755", [100.0], "mg", "oral", "twice daily"),
    "cephalexin": ("cephalexin", "309114", [500.0], "mg", "oral", "four times daily"),
}
CONDITION_DRUGS: dict[str, list[str]] = {
    "hypertension": ["lisinopril", "amlodipine"],
    "diabetes": ["metformin"],
    "hyperlipidemia": ["atorvastatin"],
    "heart_failure": ["furosemide"],
    "hypothyroidism": ["levothyroxine"],
    "afib": ["apixaban"],
    "depression": ["sertraline"],
    "asthma": ["albuterol"],
    "copd": ["albuterol"],
}

# lab key -> (LOINC, name, unit, ref_low, ref_high, decimals)
LABS: dict[str, tuple[str, str, str, float | None, float | None, int]] = {
    "creatinine": ("2160-0", "Creatinine [Mass/volume] in Serum or Plasma", "mg/dL", 0.6, 1.3, 2),
    "hba1c": ("4548-4", "Hemoglobin A1c/Hemoglobin.total in Blood", "%", 4.0, 5.6, 1),
    "glucose": ("2345-7", "Glucose [Mass/volume] in Serum or Plasma", "mg/dL", 70.0, 99.0, 0),
    "potassium": ("2823-3", "Potassium [Moles/volume] in Serum or Plasma", "mmol/L", 3.5, 5.1, 1),
    "sodium": ("2951-2", "Sodium [Moles/volume] in Serum or Plasma", "mmol/L", 135.0, 145.0, 0),
    "hemoglobin": ("718-7", "Hemoglobin [Mass/volume] in Blood", "g/dL", None, None, 1),
    "wbc": ("6690-2", "Leukocytes [#/volume] in Blood by Automated count", "10*3/uL", 4.0, 11.0, 1),
    "cholesterol": ("2093-3", "Cholesterol [Mass/volume] in Serum or Plasma", "mg/dL", None, 200.0, 0),
    "ldl": ("13457-7", "Cholesterol in LDL [Mass/volume] in Serum or Plasma by calculation", "mg/dL", None, 100.0, 0),
    "ntprobnp": ("33762-6", "Natriuretic peptide.B prohormone N-Terminal [Mass/volume] in Serum or Plasma", "pg/mL", None, 125.0, 0),
    "tsh": ("3016-3", "Thyrotropin [Units/volume] in Serum or Plasma", "mIU/L", 0.4, 4.0, 2),
    "alt": ("1742-6", "Alanine aminotransferase [Enzymatic activity/volume] in Serum or Plasma", "U/L", 7.0, 56.0, 0),
}
HEMOGLOBIN_REF = {"F": (12.0, 15.5), "M": (13.5, 17.5)}
CREATININE_UMOL_PER_MGDL = 88.4
GLUCOSE_MGDL_PER_MMOL = 18.0

ENCOUNTER_TYPES = ["outpatient", "telehealth", "emergency", "inpatient"]
ENCOUNTER_PROBS = [0.62, 0.12, 0.16, 0.10]
POSTAL_CODES = ["02139", "02140", "02141", "02142", "02143", "02144", "02145", "02148", "02149", "02150"]


@dataclass
class FixtureData:
    """Rows per table (dicts keyed by column) plus what was planted where."""

    seed: int
    n_patients: int
    tables: dict[str, list[dict[str, Any]]]
    planted: dict[str, Any] = field(default_factory=dict)
    version: int = GENERATOR_VERSION

    def meta_rows(self) -> list[dict[str, str]]:
        return [
            {"meta_key": "fixture", "meta_value": FIXTURE_NAME},
            {"meta_key": "seed", "meta_value": str(self.seed)},
            {"meta_key": "n_patients", "meta_value": str(self.n_patients)},
            {"meta_key": "generator_version", "meta_value": str(self.version)},
            {"meta_key": "data_end", "meta_value": WINDOW_END.isoformat()},
        ]

    def counts(self) -> dict[str, int]:
        return {name: len(rows) for name, rows in self.tables.items()}


def _round(x: float, nd: int) -> float:
    return float(round(float(x), nd))


class _Builder:
    """Holds the RNG and the growing tables; methods add one kind of row each."""

    def __init__(self, seed: int, n_patients: int):
        if n_patients < 40:
            raise ValueError(f"n_patients must be >= 40 (planted cohorts need room), got {n_patients}")
        self.rng = np.random.Generator(np.random.PCG64(seed))
        self.seed = seed
        self.n = n_patients
        self.t: dict[str, list[dict[str, Any]]] = {
            k: [] for k in ("patients", "encounters", "diagnoses", "medications", "vitals", "labs", "notes")
        }
        self.planted: dict[str, Any] = {}
        self.conditions: dict[str, set[str]] = {}
        self.patient_meta: dict[str, dict[str, Any]] = {}
        self.counters = {"E": 0, "D": 0, "M": 0, "V": 0, "L": 0, "N": 0}

    # ------------------------------------------------------------------ utils
    def next_id(self, prefix: str, width: int = 6) -> str:
        self.counters[prefix] += 1
        return f"{prefix}{self.counters[prefix]:0{width}d}"

    def choice(self, seq: list[Any], p: list[float] | None = None) -> Any:
        return seq[int(self.rng.choice(len(seq), p=p))]

    def sample(self, seq: list[Any], k: int) -> list[Any]:
        k = min(k, len(seq))
        idx = self.rng.choice(len(seq), size=k, replace=False)
        return [seq[int(i)] for i in sorted(idx)]

    def rand_date(self, lo: date, hi: date) -> date:
        span = (hi - lo).days
        return lo + timedelta(days=int(self.rng.integers(0, span + 1)))

    def at_time(self, d: date) -> datetime:
        return datetime(d.year, d.month, d.day, int(self.rng.integers(7, 18)), int(self.choice([0, 15, 30, 45])))

    # ------------------------------------------------------------- patients
    def make_patients(self) -> list[str]:
        pids = [f"P{i:04d}" for i in range(1, self.n + 1)]
        for pid in pids:
            sex = "F" if self.rng.random() < 0.52 else "M"
            birth = self.rand_date(date(1932, 1, 1), date(2000, 12, 31))
            postal = None if self.rng.random() < 0.05 else self.choice(POSTAL_CODES)
            self.t["patients"].append(
                {"patient_id": pid, "sex": sex, "birth_date": birth, "death_date": None, "postal_code": postal}
            )
            age = (WINDOW_START - birth).days / 365.25
            conds = set()
            for key, _code, _desc, prev in CHRONIC_CONDITIONS:
                scale = 0.4 if age < 40 and key not in ("asthma", "depression") else (1.3 if age > 65 else 1.0)
                if self.rng.random() < min(0.95, prev * scale):
                    conds.add(key)
            self.conditions[pid] = conds
            smoke = self.choice(["current", "former", "never"], p=[0.18, 0.22, 0.60])
            self.patient_meta[pid] = {
                "sex": sex,
                "birth": birth,
                "smoking": smoke,
                "baseline": {},
                "drug_starts": {},
            }
        self.planted["postal_code_missing"] = [p["patient_id"] for p in self.t["patients"] if p["postal_code"] is None]
        return pids

    def ensure_condition(self, pids: list[str], cond: str, k: int, exclude: set[str]) -> list[str]:
        """Pick k patients with ``cond`` (giving it to others if too few have it)."""
        have = [p for p in pids if cond in self.conditions[p] and p not in exclude]
        if len(have) < k:
            extra = [p for p in pids if cond not in self.conditions[p] and p not in exclude]
            for p in self.sample(extra, k - len(have)):
                self.conditions[p].add(cond)
            have = [p for p in pids if cond in self.conditions[p] and p not in exclude]
        return self.sample(have, k)

    # --------------------------------------------------------------- plan
    def plan_planted(self, pids: list[str]) -> None:
        used: set[str] = set()
        rising = self.ensure_condition(pids, "ckd", 8, used)
        used |= set(rising)
        sema = self.ensure_condition(pids, "diabetes", 10, used)
        used |= set(sema)
        self.planted["creatinine_rising"] = rising
        self.planted["semaglutide_started"] = sema
        for pid in rising:
            start = self.rand_date(date(2023, 1, 1), date(2023, 6, 30))
            self.patient_meta[pid]["creat_trend"] = {
                "start": start,
                "months": 13,
                "base": float(self.rng.uniform(1.25, 1.5)),
                "growth": float(self.rng.uniform(0.75, 1.15)),
            }
        for pid in sema:
            start = self.rand_date(date(2022, 6, 1), date(2023, 9, 30))
            start = start.replace(day=min(start.day, 28))
            before = float(self.rng.uniform(8.8, 9.8))
            self.patient_meta[pid]["hba1c_trend"] = {
                "start": start,
                "before": before,
                "after": float(self.rng.uniform(6.6, 7.2)),
            }
            self.patient_meta[pid]["drug_starts"]["semaglutide"] = start
        others = [p for p in pids if p not in used]
        diabetics = [p for p in others if "diabetes" in self.conditions[p]]
        self.planted["non_adherent"] = self.sample(diabetics, 7)
        afib = [p for p in others if "afib" in self.conditions[p]]
        falls_af = self.sample(afib, min(4, len(afib)))
        rest = [p for p in others if p not in falls_af and self.birth(p) < date(1960, 1, 1)]
        falls = sorted(falls_af + self.sample(rest, 9 - len(falls_af)))
        self.planted["fall_notes"] = falls
        allergy = self.sample([p for p in others if p not in falls], 6)
        self.planted["penicillin_allergy"] = allergy
        self.planted["penicillin_allergy_given_amoxicillin"] = allergy[:2]
        spikes_k = self.sample([p for p in others if p not in falls], 5)
        self.planted["potassium_spikes"] = spikes_k
        pool_na = [p for p in others if p not in spikes_k]
        self.planted["sodium_dips"] = self.sample(pool_na, 4)
        self.planted["current_smokers"] = sorted(p for p in pids if self.patient_meta[p]["smoking"] == "current")
        deaths = self.sample(
            [p for p in others if self.birth(p) < date(1950, 1, 1) and p not in falls], max(3, self.n // 40)
        )
        self.planted["deceased"] = deaths
        self.planted["anomaly_pool"] = others  # not exported: where random anomalies may land

    def birth(self, pid: str) -> date:
        return self.patient_meta[pid]["birth"]

    # ---------------------------------------------------------- encounters
    def schedule(self, pid: str) -> list[tuple[date, str, str]]:
        """(date, encounter_type, reason) for one patient, sorted, one visit per day at most."""
        conds = self.conditions[pid]
        meta = self.patient_meta[pid]
        n_visits = int(self.rng.integers(4, 11)) + (2 if len(conds) >= 3 else 0)
        visits: dict[date, tuple[str, str]] = {}
        for _ in range(n_visits):
            d = self.rand_date(WINDOW_START, WINDOW_END)
            etype = self.choice(ENCOUNTER_TYPES, p=ENCOUNTER_PROBS)
            visits[d] = (etype, self.reason_for(pid, etype))
        if "creat_trend" in meta:
            tr = meta["creat_trend"]
            for m in range(tr["months"]):
                d = _add_months(tr["start"], m)
                visits[d] = ("outpatient", "Renal function monitoring")
        if "hba1c_trend" in meta:
            s = meta["hba1c_trend"]["start"]
            for m in (-9, -6, -3, 0, 3, 6, 9, 12):
                d = _add_months(s, m) + timedelta(days=0 if m else -7)
                if WINDOW_START <= d <= WINDOW_END:
                    visits[d] = ("outpatient", "Diabetes follow-up")
        if pid in self.planted["fall_notes"]:
            d = self.rand_date(date(2022, 1, 1), date(2024, 10, 31))
            visits[d] = ("emergency", "Fall at home")
        out = sorted((d, e, r) for d, (e, r) in visits.items())
        if pid in self.planted["deceased"]:
            out = out[: max(2, len(out) - 1)]
        return out

    def reason_for(self, pid: str, etype: str) -> str:
        conds = self.conditions[pid]
        if etype == "outpatient":
            opts = ["Routine follow-up", "Annual physical"]
            if "diabetes" in conds:
                opts.append("Diabetes follow-up")
            if "hypertension" in conds:
                opts.append("Hypertension follow-up")
            return self.choice(opts)
        if etype == "telehealth":
            return "Medication review"
        if etype == "emergency":
            opts = ["Chest pain", "Fever and cough", "Dysuria", "Abdominal pain"]
            if conds & {"heart_failure", "copd"}:
                opts.append("Shortness of breath")
            return self.choice(opts)
        opts = ["Community-acquired pneumonia", "Cellulitis", "Syncope", "Gastrointestinal bleeding"]
        if "heart_failure" in conds:
            opts.append("Heart failure exacerbation")
        if "copd" in conds:
            opts.append("COPD exacerbation")
        return self.choice(opts)

    # ---------------------------------------------------------------- main
    def build(self) -> None:
        pids = self.make_patients()
        self.plan_planted(pids)
        open_stays: list[str] = []
        for pid in pids:
            sched = self.schedule(pid)
            self.patient_meta[pid]["schedule"] = sched
            first_date = sched[0][0]
            self.add_chronic(pid, first_date, sched)
            last_enc_date = None
            amox_at = -1
            if pid in self.planted["penicillin_allergy_given_amoxicillin"]:
                ed = [i for i, (_d, e, _r) in enumerate(sched) if e == "emergency"]
                amox_at = ed[0] if ed else len(sched) - 1
            for i, (d, etype, reason) in enumerate(sched):
                eid = self.add_encounter(pid, d, etype, reason, first=(i == 0), give_amoxicillin=(i == amox_at))
                if etype == "inpatient" and d > date(2024, 12, 20):
                    open_stays.append(eid)
                last_enc_date = d
            if pid in self.planted["deceased"] and last_enc_date is not None:
                dd = min(WINDOW_END, last_enc_date + timedelta(days=int(self.rng.integers(10, 120))))
                self.patient_row(pid)["death_date"] = dd
        self.plant_open_stays(open_stays)
        self.plant_anomalies()
        self.planted.pop("anomaly_pool", None)

    def patient_row(self, pid: str) -> dict[str, Any]:
        return self.t["patients"][int(pid[1:]) - 1]

    def add_chronic(self, pid: str, first: date, sched: list[tuple[date, str, str]]) -> None:
        meta = self.patient_meta[pid]
        first_enc = f"E{self.counters['E'] + 1:06d}"
        for key, code, desc, _p in CHRONIC_CONDITIONS:
            if key not in self.conditions[pid]:
                continue
            self.t["diagnoses"].append(
                {
                    "diagnosis_id": self.next_id("D"),
                    "patient_id": pid,
                    "encounter_id": first_enc,
                    "code": code,
                    "code_system": "ICD-10-CM",
                    "description": desc,
                    "diagnosed_on": first,
                    "resolved_on": None,
                }
            )
            for drug in CONDITION_DRUGS.get(key, []):
                if drug in meta["drug_starts"]:
                    continue
                if key == "hypertension" and drug == "amlodipine" and self.rng.random() < 0.6:
                    continue
                if self.rng.random() < 0.1 and key not in ("afib",):
                    continue  # untreated
                meta["drug_starts"][drug] = first
                end = None
                if self.rng.random() < 0.12:
                    end = self.rand_date(first + timedelta(days=60), WINDOW_END)
                self.add_med(pid, first_enc, drug, first, end)

    def add_med(self, pid: str, enc: str | None, drug: str, start: date, end: date | None) -> None:
        name, rx, doses, unit, route, freq = DRUGS[drug]
        dose = self.choice(doses)
        if drug == "metformin" and self.rng.random() < 0.25:
            unit = "MG"
        self.t["medications"].append(
            {
                "medication_id": self.next_id("M"),
                "patient_id": pid,
                "encounter_id": enc,
                "drug_name": name,
                "rxnorm_code": rx,
                "dose_value": float(dose),
                "dose_unit": unit,
                "route": route,
                "frequency": freq,
                "start_date": start,
                "end_date": end,
            }
        )

    def add_encounter(
        self, pid: str, d: date, etype: str, reason: str, first: bool, give_amoxicillin: bool = False
    ) -> str:
        eid = self.next_id("E")
        start = self.at_time(d)
        if etype == "inpatient":
            end: datetime | None = start + timedelta(days=int(self.rng.integers(2, 8)), hours=int(self.rng.integers(0, 6)))
        elif etype == "emergency":
            end = start + timedelta(hours=int(self.rng.integers(3, 9)))
        elif etype == "outpatient":
            end = start + timedelta(minutes=int(self.choice([20, 30, 40])))
        else:
            end = start + timedelta(minutes=15)
        self.t["encounters"].append(
            {
                "encounter_id": eid,
                "patient_id": pid,
                "encounter_type": etype,
                "start_time": start,
                "end_time": end,
                "reason": reason,
            }
        )
        acute = self.acute_for(reason)
        if acute:
            code, desc = ACUTE_CONDITIONS[acute]
            self.t["diagnoses"].append(
                {
                    "diagnosis_id": self.next_id("D"),
                    "patient_id": pid,
                    "encounter_id": eid,
                    "code": code,
                    "code_system": "ICD-10-CM",
                    "description": desc,
                    "diagnosed_on": d,
                    "resolved_on": d + timedelta(days=int(self.rng.integers(7, 30))),
                }
            )
            course = {"pneumonia": ("amoxicillin", 7), "uti": ("nitrofurantoin", 5), "cellulitis": ("cephalexin", 10)}
            if acute in course:
                drug, days = course[acute]
                self.add_med(pid, eid, drug, d, d + timedelta(days=days))
        meta = self.patient_meta[pid]
        sema = meta.get("hba1c_trend")
        if sema and d == sema["start"] - timedelta(days=7):
            # semaglutide is prescribed at this visit, starting a week later
            self.add_med(pid, eid, "semaglutide", sema["start"], None)
        if give_amoxicillin:
            self.add_med(pid, eid, "amoxicillin", d, d + timedelta(days=7))
        if etype != "telehealth":
            self.add_vitals(pid, eid, start + timedelta(minutes=5), etype, reason)
            self.add_labs(pid, eid, start + timedelta(minutes=20), etype, reason)
        self.add_note(pid, eid, start, etype, reason, first)
        return eid

    @staticmethod
    def acute_for(reason: str) -> str | None:
        return {
            "Community-acquired pneumonia": "pneumonia",
            "Fever and cough": "pneumonia",
            "Dysuria": "uti",
            "Chest pain": "chest_pain",
            "Fall at home": "fall",
            "Shortness of breath": "dyspnea",
            "Cellulitis": "cellulitis",
            "Syncope": "syncope",
            "Gastrointestinal bleeding": "gi_bleed",
        }.get(reason)

    # ---------------------------------------------------------------- vitals
    def add_vitals(self, pid: str, eid: str, at: datetime, etype: str, reason: str) -> None:
        conds = self.conditions[pid]
        meta = self.patient_meta[pid]
        base = meta["baseline"]
        if "sbp" not in base:
            base["sbp"] = float(self.rng.uniform(135, 158) if "hypertension" in conds else self.rng.uniform(108, 128))
            base["hr"] = float(self.rng.uniform(78, 100) if "afib" in conds else self.rng.uniform(60, 84))
            base["wt"] = float(self.rng.uniform(52, 82) if meta["sex"] == "F" else self.rng.uniform(65, 105))
            base["ht"] = float(self.rng.uniform(152, 175) if meta["sex"] == "F" else self.rng.uniform(165, 192))
            base["spo2"] = float(self.rng.uniform(88.5, 93.5) if "copd" in conds else self.rng.uniform(95, 99))
        sbp = base["sbp"] + self.rng.normal(0, 6)
        fever = reason in ("Community-acquired pneumonia", "Fever and cough")
        self.t["vitals"].append(
            {
                "vital_id": self.next_id("V"),
                "patient_id": pid,
                "encounter_id": eid,
                "measured_at": at,
                "systolic_bp": _round(sbp, 0),
                "diastolic_bp": _round(sbp * 0.62 + self.rng.normal(0, 4), 0),
                "heart_rate": _round(base["hr"] + self.rng.normal(0, 5) + (12 if fever else 0), 0),
                "resp_rate": _round(self.rng.uniform(12, 19) + (5 if fever else 0), 0),
                "temperature_c": _round(self.rng.uniform(38.2, 39.4) if fever else self.rng.uniform(36.3, 37.2), 1),
                "spo2": _round(min(100.0, base["spo2"] + self.rng.normal(0, 0.8) - (4 if fever else 0)), 0),
                "weight_kg": _round(base["wt"] + self.rng.normal(0, 0.8), 1),
                "height_cm": _round(base["ht"], 0),
            }
        )

    # ------------------------------------------------------------------ labs
    def panel(self, pid: str, etype: str, reason: str) -> list[str]:
        conds = self.conditions[pid]
        meta = self.patient_meta[pid]
        if reason == "Renal function monitoring":
            return ["creatinine", "potassium", "sodium"]
        out = ["creatinine", "potassium", "sodium", "glucose"]
        if "diabetes" in conds or "hba1c_trend" in meta or self.rng.random() < 0.15:
            out.append("hba1c")
        if etype in ("emergency", "inpatient"):
            out += ["hemoglobin", "wbc"]
        elif self.rng.random() < 0.3:
            out.append("hemoglobin")
        if "hyperlipidemia" in conds and self.rng.random() < 0.6:
            out += ["cholesterol", "ldl"]
        if "heart_failure" in conds and (etype == "inpatient" or self.rng.random() < 0.5):
            out.append("ntprobnp")
        if "hypothyroidism" in conds and self.rng.random() < 0.6:
            out.append("tsh")
        if self.rng.random() < 0.2:
            out.append("alt")
        return out

    def lab_value(self, pid: str, key: str, at: datetime, etype: str) -> float:
        conds = self.conditions[pid]
        meta = self.patient_meta[pid]
        base = meta["baseline"]
        bkey = "lab_" + key
        if bkey not in base:
            base[bkey] = {
                "creatinine": self.rng.uniform(1.4, 1.85) if "ckd" in conds else self.rng.uniform(0.72, 1.05),
                "hba1c": self.rng.uniform(6.8, 8.4) if "diabetes" in conds else self.rng.uniform(5.0, 5.7),
                "glucose": self.rng.uniform(120, 170) if "diabetes" in conds else self.rng.uniform(78, 98),
                "potassium": self.rng.uniform(3.9, 4.7),
                "sodium": self.rng.uniform(137, 142),
                "hemoglobin": self.rng.uniform(12.2, 14.6) if meta["sex"] == "F" else self.rng.uniform(13.6, 16.4),
                "wbc": self.rng.uniform(5.0, 8.5),
                "cholesterol": self.rng.uniform(190, 250) if "hyperlipidemia" in conds else self.rng.uniform(150, 195),
                "ldl": self.rng.uniform(110, 170) if "hyperlipidemia" in conds else self.rng.uniform(70, 110),
                "ntprobnp": self.rng.uniform(400, 1800),
                "tsh": self.rng.uniform(1.0, 5.5),
                "alt": self.rng.uniform(12, 40),
            }[key]
        b = float(base[bkey])
        d = at.date()
        if key == "creatinine" and "creat_trend" in meta:
            tr = meta["creat_trend"]
            months = (d - tr["start"]).days / 30.4
            frac = min(max(months / (tr["months"] - 1), 0.0), 1.0)
            v = tr["base"] * (1 + tr["growth"] * frac) * (1 + self.rng.normal(0, 0.02))
        elif key == "hba1c" and "hba1c_trend" in meta:
            tr = meta["hba1c_trend"]
            if d < tr["start"]:
                v = tr["before"] + self.rng.normal(0, 0.15)
            else:
                days = (d - tr["start"]).days
                v = tr["after"] + (tr["before"] - tr["after"]) * math.exp(-days / 75.0) + self.rng.normal(0, 0.1)
        else:
            sd = {"creatinine": 0.025, "hba1c": 0.03, "glucose": 0.08, "potassium": 0.04, "sodium": 0.008}.get(key, 0.07)
            v = b * (1 + self.rng.normal(0, sd))
            if key == "wbc" and etype in ("emergency", "inpatient") and self.rng.random() < 0.4:
                v = self.rng.uniform(11.5, 18.0)
        return v

    def add_labs(self, pid: str, eid: str, at: datetime, etype: str, reason: str) -> None:
        sex = self.patient_meta[pid]["sex"]
        for key in self.panel(pid, etype, reason):
            loinc, name, unit, lo, hi, nd = LABS[key]
            if key == "hemoglobin":
                lo, hi = HEMOGLOBIN_REF[sex]
            v = _round(self.lab_value(pid, key, at, etype), nd)
            self.t["labs"].append(
                {
                    "lab_id": self.next_id("L", 7),
                    "patient_id": pid,
                    "encounter_id": eid,
                    "loinc_code": loinc,
                    "lab_name": name,
                    "value": v,
                    "unit": unit,
                    "ref_low": lo,
                    "ref_high": hi,
                    "collected_at": at,
                }
            )

    # ----------------------------------------------------------------- notes
    def add_note(self, pid: str, eid: str, at: datetime, etype: str, reason: str, first: bool) -> None:
        meta = self.patient_meta[pid]
        age = int((at.date() - meta["birth"]).days // 365.25)
        who = "woman" if meta["sex"] == "F" else "man"
        conds = [desc.split(",")[0].lower() for key, _c, desc, _p in CHRONIC_CONDITIONS if key in self.conditions[pid]]
        hx = ("history of " + "; ".join(conds)) if conds else "no significant past medical history"
        note_type = {
            "outpatient": "progress_note",
            "telehealth": "telehealth_note",
            "emergency": "ed_note",
            "inpatient": "discharge_summary",
        }[etype]
        opener = {
            "outpatient": f"Clinic visit for {reason.lower()}.",
            "telehealth": "Telephone visit for medication review.",
            "emergency": f"Emergency department visit. Chief complaint: {reason.lower()}.",
            "inpatient": f"Admitted for {reason.lower()}.",
        }[etype]
        parts = [opener, f"{age}-year-old {who} with {hx}."]
        drugs = sorted(d for d, s in meta["drug_starts"].items() if s <= at.date())
        parts.append(("Current medications: " + ", ".join(drugs) + ".") if drugs else "No regular medications.")
        if first or self.rng.random() < 0.25:
            parts.append(
                {
                    "current": "Social history: current smoker, about half a pack per day.",
                    "former": "Social history: former smoker, quit years ago.",
                    "never": "Social history: never smoker.",
                }[meta["smoking"]]
            )
            if pid in self.planted["penicillin_allergy"]:
                parts.append("Allergies: penicillin (hives).")
            else:
                parts.append("Allergies: no known drug allergies.")
        if reason == "Fall at home":
            parts.append("Patient reports a fall at home while getting up at night; bruising to the left hip, no loss of consciousness.")
        elif reason == "Shortness of breath" or reason in ("Heart failure exacerbation", "COPD exacerbation"):
            parts.append("Reports worsening shortness of breath over several days.")
        elif reason == "Chest pain":
            parts.append("Describes intermittent chest pain; ECG without acute changes.")
        if pid in self.planted["non_adherent"] and etype == "outpatient" and not meta.get("nonadh_noted"):
            meta["nonadh_noted"] = True
            parts.append("Patient admits to missing doses of metformin and is non-adherent to the medication plan.")
        plan = {
            "outpatient": "Plan: continue current management, repeat labs at next visit.",
            "telehealth": "Plan: no changes; follow up in clinic.",
            "emergency": "Plan: treated and discharged with outpatient follow-up.",
            "inpatient": "Plan: discharged home with follow-up in one to two weeks.",
        }[etype]
        parts.append(plan)
        self.t["notes"].append(
            {
                "note_id": self.next_id("N"),
                "patient_id": pid,
                "encounter_id": eid,
                "note_type": note_type,
                "written_at": at + timedelta(minutes=50),
                "author_role": self.choice(["physician", "physician", "nurse_practitioner", "resident"]),
                "note_text": " ".join(parts),
            }
        )

    # ------------------------------------------------------------- anomalies
    def plant_open_stays(self, open_stays: list[str]) -> None:
        enc = self.t["encounters"]
        by_id = {e["encounter_id"]: e for e in enc}
        inpatient_2024 = [e["encounter_id"] for e in enc if e["encounter_type"] == "inpatient" and e["start_time"].year == 2024]
        chosen = sorted(set(open_stays) | set(self.sample(inpatient_2024, 3)))
        for eid in chosen:
            by_id[eid]["end_time"] = None
        self.planted["open_inpatient_stays"] = chosen

    def plant_anomalies(self) -> None:
        pool = set(self.planted["anomaly_pool"])
        labs = self.t["labs"]
        vit = self.t["vitals"]
        spikes = set(self.planted["potassium_spikes"]) | set(self.planted["sodium_dips"])

        def lab_rows(key: str, pids: set[str] | None = None) -> list[int]:
            code = LABS[key][0]
            return [i for i, r in enumerate(labs) if r["loinc_code"] == code and r["patient_id"] in (pids or pool)]

        # single out-of-range spikes
        for pid in self.planted["potassium_spikes"]:
            rows = lab_rows("potassium", {pid})
            i = rows[int(self.rng.integers(0, len(rows)))]
            labs[i]["value"] = _round(self.rng.uniform(6.3, 7.4), 1)
        for pid in self.planted["sodium_dips"]:
            rows = lab_rows("sodium", {pid})
            i = rows[int(self.rng.integers(0, len(rows)))]
            labs[i]["value"] = _round(self.rng.uniform(117, 124), 0)
        clean_pool = pool - spikes
        # implausible HbA1c: decimal point lost
        cand = lab_rows("hba1c", clean_pool)
        picked = self.sample(cand, 3)
        for i in picked:
            labs[i]["value"] = _round(labs[i]["value"] * 10, 1)
        self.planted["implausible_hba1c"] = [labs[i]["lab_id"] for i in picked]
        taken = set(picked)
        # messy units: creatinine in umol/L or spelled mg/dl, glucose in mmol/L
        umol, mgdl_lower, mmol = [], [], []
        for i in lab_rows("creatinine", clean_pool):
            r = self.rng.random()
            if r < 0.06:
                labs[i]["value"] = _round(labs[i]["value"] * CREATININE_UMOL_PER_MGDL, 0)
                labs[i]["unit"] = "umol/L"
                labs[i]["ref_low"], labs[i]["ref_high"] = 53.0, 115.0
                umol.append(labs[i]["lab_id"])
                taken.add(i)
            elif r < 0.11:
                labs[i]["unit"] = "mg/dl"
                mgdl_lower.append(labs[i]["lab_id"])
                taken.add(i)
        for i in lab_rows("glucose", clean_pool):
            if self.rng.random() < 0.06:
                labs[i]["value"] = _round(labs[i]["value"] / GLUCOSE_MGDL_PER_MMOL, 1)
                labs[i]["unit"] = "mmol/L"
                labs[i]["ref_low"], labs[i]["ref_high"] = 3.9, 5.5
                mmol.append(labs[i]["lab_id"])
                taken.add(i)
        self.planted["creatinine_umol"] = umol
        self.planted["creatinine_mgdl_lowercase"] = mgdl_lower
        self.planted["glucose_mmol"] = mmol
        # NULL values
        cand = [i for i, r in enumerate(labs) if r["patient_id"] in clean_pool and i not in taken]
        nulls = self.sample(cand, 15)
        for i in nulls:
            labs[i]["value"] = None
        taken |= set(nulls)
        self.planted["null_lab_values"] = [labs[i]["lab_id"] for i in nulls]
        # exact duplicates (a second row with a new id, inserted right after the original)
        cand = [i for i, r in enumerate(labs) if r["patient_id"] in clean_pool and i not in taken]
        dups = self.sample(cand, 12)
        dup_ids = []
        for i in sorted(dups, reverse=True):
            copy = dict(labs[i])
            copy["lab_id"] = self.next_id("L", 7)
            labs.insert(i + 1, copy)
            dup_ids.append(copy["lab_id"])
        self.planted["duplicate_labs"] = sorted(dup_ids)
        # vitals: implausible heart rates, Fahrenheit temperatures, missing blood pressure
        vcand = [i for i, r in enumerate(vit) if r["patient_id"] in clean_pool]
        picked = self.sample(vcand, 2 + 4 + 10)
        self.rng.shuffle(picked)
        hr, temp_f, nobp = picked[:2], picked[2:6], picked[6:]
        vit[hr[0]]["heart_rate"] = 0.0
        vit[hr[1]]["heart_rate"] = 312.0
        for i in temp_f:
            vit[i]["temperature_c"] = _round(vit[i]["temperature_c"] * 9 / 5 + 32, 1)
        for i in nobp:
            vit[i]["systolic_bp"] = None
            vit[i]["diastolic_bp"] = None
        self.planted["implausible_heart_rate"] = sorted(vit[i]["vital_id"] for i in hr)
        self.planted["temperature_fahrenheit"] = sorted(vit[i]["vital_id"] for i in temp_f)
        self.planted["null_blood_pressure"] = sorted(vit[i]["vital_id"] for i in nobp)
        # missing doses
        mcand = [i for i, r in enumerate(self.t["medications"]) if r["patient_id"] in clean_pool]
        for i in self.sample(mcand, 4):
            self.t["medications"][i]["dose_value"] = None
        self.planted["null_doses"] = sorted(
            m["medication_id"] for m in self.t["medications"] if m["dose_value"] is None
        )


def _add_months(d: date, months: int) -> date:
    y, m = divmod(d.month - 1 + months, 12)
    year, month = d.year + y, m + 1
    day = min(d.day, 28)
    return date(year, month, day)


def generate(seed: int = DEFAULT_SEED, n_patients: int = DEFAULT_PATIENTS) -> FixtureData:
    """Build the synthetic EHR (deterministic in ``seed`` and ``n_patients``)."""
    b = _Builder(int(seed), int(n_patients))
    b.build()
    return FixtureData(seed=int(seed), n_patients=int(n_patients), tables=b.t, planted=b.planted)
