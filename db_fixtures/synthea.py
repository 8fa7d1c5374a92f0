"""Import a Synthea CSV export into the canonical DataAgent schema.

Synthea (https://github.com/synthetichealth/synthea) exports ``patients.csv``,
``encounters.csv``, ``conditions.csv``, ``medications.csv``, ``observations.csv``
and more, keyed by ``Id``/``PATIENT``/``ENCOUNTER`` UUIDs. The mapping:

==================  =====================================================================
canonical table     from
==================  =====================================================================
patients            patients.csv: Id, GENDER, BIRTHDATE, DEATHDATE, ZIP
encounters          encounters.csv: Id, PATIENT, ENCOUNTERCLASS, START, STOP,
                    REASONDESCRIPTION (falls back to DESCRIPTION)
diagnoses           conditions.csv (SNOMED-CT codes; ``code_system = 'SNOMED-CT'``)
medications         medications.csv: DESCRIPTION is the drug name; the first
                    "<number> MG|MCG|ML|UNT" in it gives dose and unit; a route word
                    (Oral, Injectable, Inhal...) gives the route
vitals              observations.csv rows with CATEGORY ``vital-signs``, pivoted into one
                    row per (patient, encounter, date) on the LOINC codes below
labs                observations.csv rows with CATEGORY ``laboratory`` and TYPE
                    ``numeric`` (no reference ranges: Synthea has none, so NULL)
notes               none (Synthea's CSV export has no free text): the table is empty
==================  =====================================================================

Empty cells are NULL (Synthea leaves ENCOUNTER empty on some rows). Other files
(allergies, careplans, immunizations, procedures...) are ignored. Unknown extra
columns are ignored, so newer Synthea versions still load; a missing required
column is a :class:`~medgym.errors.DataValidationError` naming the file and column.
"""

from __future__ import annotations

import csv
import datetime as dt
import re
from pathlib import Path
from typing import Any

from medgym.errors import DataValidationError

VITAL_CODES = {
    "8480-6": "systolic_bp",
    "8462-4": "diastolic_bp",
    "8867-4": "heart_rate",
    "9279-1": "resp_rate",
    "8310-5": "temperature_c",
    "2708-6": "spo2",
    "59408-5": "spo2",
    "29463-7": "weight_kg",
    "8302-2": "height_cm",
}
ROUTES = {
    "oral": "oral",
    "inhal": "inhaled",
    "inject": "injection",
    "topical": "topical",
    "transdermal": "transdermal",
    "nasal": "nasal",
    "prefilled syringe": "injection",
    "auto-injector": "injection",
}
DOSE_RE = re.compile(r"(\d+(?:\.\d+)?)\s*(MG/ML|MG|MCG|ML|UNT|%)\b", re.IGNORECASE)

REQUIRED = {
    "patients.csv": ["Id", "BIRTHDATE", "GENDER"],
    "encounters.csv": ["Id", "START", "PATIENT", "ENCOUNTERCLASS"],
    "conditions.csv": ["START", "PATIENT", "CODE", "DESCRIPTION"],
    "medications.csv": ["START", "PATIENT", "CODE", "DESCRIPTION"],
    "observations.csv": ["DATE", "PATIENT", "CODE", "DESCRIPTION", "VALUE"],
}


def _rows(folder: Path, name: str) -> list[dict[str, str]]:
    path = folder / name
    if not path.exists():
        if name == "patients.csv":
            raise DataValidationError(str(path), ["missing: a Synthea export always has patients.csv"])
        return []
    with path.open(encoding="utf-8-sig", newline="") as fh:
        reader = csv.DictReader(fh)
        header = reader.fieldnames or []
        missing = [c for c in REQUIRED.get(name, []) if c not in header]
        if missing:
            raise DataValidationError(str(path), [f"missing Synthea column(s) {missing}; header is {header}"])
        return list(reader)


def _none(v: str | None) -> str | None:
    v = (v or "").strip()
    return v or None


def _date(v: str | None, where: str) -> dt.date | None:
    v = _none(v)
    if v is None:
        return None
    try:
        return dt.date.fromisoformat(v[:10])
    except ValueError as exc:
        raise DataValidationError(where, [f"expected a date (YYYY-MM-DD...), found {v!r}"]) from exc


def _ts(v: str | None, where: str) -> dt.datetime | None:
    v = _none(v)
    if v is None:
        return None
    try:
        if len(v) == 10:
            return dt.datetime.fromisoformat(v)
        return dt.datetime.fromisoformat(v.replace("Z", "+00:00")).replace(tzinfo=None)
    except ValueError as exc:
        raise DataValidationError(where, [f"expected an ISO timestamp, found {v!r}"]) from exc


def _float(v: str | None) -> float | None:
    v = _none(v)
    if v is None:
        return None
    try:
        return float(v)
    except ValueError:
        return None


def parse_drug(description: str) -> tuple[float | None, str | None, str | None]:
    """(dose_value, dose_unit, route) from a Synthea/RxNorm drug description."""
    m = DOSE_RE.search(description)
    dose = float(m.group(1)) if m else None
    unit = m.group(2).lower() if m else None
    low = description.lower()
    route = next((r for key, r in ROUTES.items() if key in low), None)
    return dose, unit, route


def read_synthea_folder(folder: Path) -> dict[str, list[dict[str, Any]]]:
    """Map a Synthea CSV export onto the canonical tables (see the module docstring)."""
    folder = Path(folder)
    out: dict[str, list[dict[str, Any]]] = {k: [] for k in (
        "patients", "encounters", "diagnoses", "medications", "vitals", "labs", "notes")}
    known: set[str] = set()
    for i, r in enumerate(_rows(folder, "patients.csv"), start=2):
        where = f"{folder / 'patients.csv'}:{i}"
        pid = _none(r.get("Id"))
        if pid is None:
            raise DataValidationError(where, ["empty Id"])
        known.add(pid)
        out["patients"].append(
            {
                "patient_id": pid,
                "sex": _none(r.get("GENDER")),
                "birth_date": _date(r.get("BIRTHDATE"), where),
                "death_date": _date(r.get("DEATHDATE"), where),
                "postal_code": _none(r.get("ZIP")),
            }
        )

    def patient(r: dict[str, str], where: str) -> str:
        pid = _none(r.get("PATIENT"))
        if pid not in known:
            raise DataValidationError(where, [f"PATIENT {pid!r} is not in patients.csv"])
        return pid

    for i, r in enumerate(_rows(folder, "encounters.csv"), start=2):
        where = f"{folder / 'encounters.csv'}:{i}"
        out["encounters"].append(
            {
                "encounter_id": r["Id"],
                "patient_id": patient(r, where),
                "encounter_type": _none(r.get("ENCOUNTERCLASS")) or "unknown",
                "start_time": _ts(r.get("START"), where),
                "end_time": _ts(r.get("STOP"), where),
                "reason": _none(r.get("REASONDESCRIPTION")) or _none(r.get("DESCRIPTION")),
            }
        )
    for i, r in enumerate(_rows(folder, "conditions.csv"), start=2):
        where = f"{folder / 'conditions.csv'}:{i}"
        out["diagnoses"].append(
            {
                "diagnosis_id": f"C{i - 1:06d}",
                "patient_id": patient(r, where),
                "encounter_id": _none(r.get("ENCOUNTER")),
                "code": r["CODE"],
                "code_system": "SNOMED-CT",
                "description": r["DESCRIPTION"],
                "diagnosed_on": _date(r.get("START"), where),
                "resolved_on": _date(r.get("STOP"), where),
            }
        )
    for i, r in enumerate(_rows(folder, "medications.csv"), start=2):
        where = f"{folder / 'medications.csv'}:{i}"
        dose, unit, route = parse_drug(r["DESCRIPTION"])
        out["medications"].append(
            {
                "medication_id": f"R{i - 1:06d}",
                "patient_id": patient(r, where),
                "encounter_id": _none(r.get("ENCOUNTER")),
                "drug_name": r["DESCRIPTION"],
                "rxnorm_code": _none(r.get("CODE")),
                "dose_value": dose,
                "dose_unit": unit,
                "route": route,
                "frequency": None,
                "start_date": _date(r.get("START"), where),
                "end_date": _date(r.get("STOP"), where),
            }
        )
    vitals: dict[tuple[str, str | None, dt.datetime], dict[str, Any]] = {}
    for i, r in enumerate(_rows(folder, "observations.csv"), start=2):
        where = f"{folder / 'observations.csv'}:{i}"
        category = (r.get("CATEGORY") or "").strip()
        if (r.get("TYPE") or "numeric").strip() != "numeric":
            continue
        value = _float(r.get("VALUE"))
        when = _ts(r.get("DATE"), where)
        if category == "laboratory":
            out["labs"].append(
                {
                    "lab_id": f"O{i - 1:07d}",
                    "patient_id": patient(r, where),
                    "encounter_id": _none(r.get("ENCOUNTER")),
                    "loinc_code": r["CODE"],
                    "lab_name": r["DESCRIPTION"],
                    "value": value,
                    "unit": _none(r.get("UNITS")),
                    "ref_low": None,
                    "ref_high": None,
                    "collected_at": when,
                }
            )
        elif category == "vital-signs" and r["CODE"] in VITAL_CODES:
            pid = patient(r, where)
            key = (pid, _none(r.get("ENCOUNTER")), when)
            row = vitals.get(key)
            if row is None:
                row = {
                    "vital_id": f"V{len(vitals) + 1:06d}",
                    "patient_id": pid,
                    "encounter_id": key[1],
                    "measured_at": when,
                    **dict.fromkeys(set(VITAL_CODES.values())),
                }
                vitals[key] = row
            row[VITAL_CODES[r["CODE"]]] = value
    out["vitals"] = list(vitals.values())
    return out
