"""Draft the DataAgent task files from family templates (a one-off authoring tool).

The YAML files in ``tasks/`` are the source of truth: the environment and the tests
read only them. This module is how they were first drafted, kept so a family can
be re-drafted after a schema or generator change:

    python -m medgym.db_fixtures.authoring --out db_fixtures/tasks [--force]
    medgym data regen-gold          # then fill in the gold answers

Each family writes one file. Utterances name clinical concepts (creatinine,
atrial fibrillation, semaglutide...) the way a clinician would; the gold SQL uses
codes (LOINC, ICD-10) and is portable across SQLite, PostgreSQL and MariaDB:
no date functions, no string concatenation, no ROUND, no boolean results, every
derived table aliased. The few rounds that need a month from a timestamp carry a
per-dialect override. Patient ids used in lookup tasks are chosen from the
generator's planted manifest at authoring time and then frozen in the files.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from medgym.db_fixtures.generator import (
    DEFAULT_PATIENTS,
    DEFAULT_SEED,
    FIXTURE_NAME,
    GENERATOR_VERSION,
    LABS,
    generate,
)
from medgym.db_fixtures.gold import dump_task_yaml
from medgym.db_fixtures.task_models import TASK_DIR

FIXTURE = {
    "name": FIXTURE_NAME,
    "seed": DEFAULT_SEED,
    "n_patients": DEFAULT_PATIENTS,
    "generator_version": GENERATOR_VERSION,
}

# question name -> ICD-10 code
DX = {
    "hypertension": "I10",
    "type 2 diabetes": "E11.9",
    "hyperlipidemia": "E78.5",
    "chronic kidney disease": "N18.3",
    "heart failure": "I50.9",
    "COPD": "J44.9",
    "asthma": "J45.909",
    "depression": "F32.9",
    "hypothyroidism": "E03.9",
    "atrial fibrillation": "I48.91",
}
LOINC = {k: v[0] for k, v in LABS.items()}
CREAT_MGDL = "CASE WHEN unit = 'umol/L' THEN value / 88.4 ELSE value END"
GLUC_MGDL = "CASE WHEN unit = 'mmol/L' THEN value * 18.0 ELSE value END"


def R(utterance: str, kinds: list[str], sql: str | None = None, *, reason: str | None = None,
      overrides: dict[str, str] | None = None, interpretation: str | None = None) -> dict[str, Any]:
    """One round as a dict (unanswerable when ``reason`` is given)."""
    out: dict[str, Any] = {"utterance": utterance, "kinds": kinds}
    if reason is not None:
        out["unanswerable"] = True
        out["unanswerable_reason"] = reason
        if "unanswerable" not in kinds:
            out["kinds"] = [*kinds, "unanswerable"]
        return out
    out["gold_sql"] = _tidy(sql)
    if overrides:
        out["gold_sql_overrides"] = {k: _tidy(v) for k, v in overrides.items()}
    if interpretation:
        out["interpretation"] = interpretation
    return out


def _tidy(sql: str | None) -> str:
    lines = [ln.rstrip() for ln in (sql or "").strip("\n").splitlines()]
    indent = min((len(ln) - len(ln.lstrip()) for ln in lines if ln.strip()), default=0)
    return "\n".join(ln[indent:] for ln in lines).strip()


def T(tid: str, title: str, family: str, rounds: list[dict[str, Any]], portable: bool = False) -> dict[str, Any]:
    return {"id": tid, "title": title, "family": family, "portable": portable, "rounds": rounds}


def dx_pats(code: str) -> str:
    return f"SELECT DISTINCT patient_id FROM diagnoses WHERE code = '{code}'"


def drug_pats(drug: str) -> str:
    return f"SELECT DISTINCT patient_id FROM medications WHERE drug_name = '{drug}'"


# =========================================================================== families
def creatinine_trend() -> list[dict[str, Any]]:
    creat = f"creat AS (SELECT patient_id, collected_at, {CREAT_MGDL} AS v FROM labs " \
            "WHERE loinc_code = '2160-0' AND value IS NOT NULL)"
    span = "span AS (SELECT patient_id, MIN(collected_at) AS t0, MAX(collected_at) AS t1 FROM creat GROUP BY patient_id)"
    fv = ("fv AS (SELECT c.patient_id, AVG(c.v) AS v0 FROM creat c JOIN span s "
          "ON s.patient_id = c.patient_id AND c.collected_at = s.t0 GROUP BY c.patient_id)")
    lv = ("lv AS (SELECT c.patient_id, AVG(c.v) AS v1 FROM creat c JOIN span s "
          "ON s.patient_id = c.patient_id AND c.collected_at = s.t1 GROUP BY c.patient_id)")
    base = f"WITH {creat},\n{span},\n{fv},\n{lv}\n"

    def rising(pct: int, ckd_only: bool) -> str:
        f = 1 + pct / 100
        extra = f"\n  AND fv.patient_id IN ({dx_pats('N18.3')})" if ckd_only else ""
        return f"{base}SELECT fv.patient_id FROM fv JOIN lv ON lv.patient_id = fv.patient_id\nWHERE lv.v1 > {f} * fv.v0{extra}"

    def rising_set(pct: int, ckd_only: bool) -> str:
        return f"SELECT fv.patient_id FROM fv JOIN lv ON lv.patient_id = fv.patient_id WHERE lv.v1 > {1 + pct / 100} * fv.v0" + (
            f" AND fv.patient_id IN ({dx_pats('N18.3')})" if ckd_only else "")

    conv = "Convert results reported in umol/L to mg/dL (divide by 88.4) before comparing."
    return [
        T("creatinine_trend_01", "Rising creatinine in CKD (50%)", "creatinine_trend", [
            R("Which patients have chronic kidney disease on their problem list?", ["lookup"], dx_pats("N18.3")),
            R(f"Of those, whose creatinine rose by more than 50% between their first and their last measurement? {conv}",
              ["trend", "follow_up"], rising(50, True),
              interpretation="A sustained rise of creatinine means worsening kidney function in these CKD patients."),
            R("For those patients, give the first and the last creatinine value in mg/dL.", ["trend", "follow_up"],
              f"{base}SELECT fv.patient_id, fv.v0, lv.v1 FROM fv JOIN lv ON lv.patient_id = fv.patient_id\n"
              f"WHERE lv.v1 > 1.5 * fv.v0 AND fv.patient_id IN ({dx_pats('N18.3')})"),
            R("Which of them have an active lisinopril prescription (no end date)?", ["join", "follow_up"],
              f"{base}SELECT DISTINCT m.patient_id FROM medications m\nWHERE m.drug_name = 'lisinopril' AND m.end_date IS NULL\n"
              f"  AND m.patient_id IN ({rising_set(50, True)})"),
            R("What did their most recent renal ultrasound show?", ["follow_up"],
              reason="The database holds no imaging results or reports."),
        ]),
        T("creatinine_trend_02", "Rising creatinine in CKD (30%)", "creatinine_trend", [
            R("List the patients diagnosed with chronic kidney disease.", ["lookup"], dx_pats("N18.3")),
            R(f"Of these, whose creatinine rose by more than 30% from the first to the last measurement? {conv}",
              ["trend", "follow_up"], rising(30, True)),
            R("What was the highest potassium value recorded for each of them?", ["aggregation", "follow_up"],
              f"{base}SELECT patient_id, MAX(value) AS max_potassium FROM labs\n"
              f"WHERE loinc_code = '2823-3' AND patient_id IN ({rising_set(30, True)})\nGROUP BY patient_id"),
            R("How many of them are women?", ["aggregation", "follow_up"],
              f"{base}SELECT COUNT(*) AS n FROM patients WHERE sex = 'F' AND patient_id IN ({rising_set(30, True)})"),
        ]),
        T("creatinine_trend_03", "Rising creatinine across all patients", "creatinine_trend", [
            R(f"Across all patients, whose creatinine rose by more than 50% from their first to their last measurement? {conv}",
              ["trend"], rising(50, False)),
            R("How many creatinine measurements does each of them have?", ["aggregation", "follow_up"],
              f"{base}SELECT patient_id, COUNT(*) AS n FROM labs WHERE loinc_code = '2160-0'\n"
              f"  AND patient_id IN ({rising_set(50, False)})\nGROUP BY patient_id"),
            R("Of those patients, which have chronic kidney disease recorded?", ["join", "follow_up"],
              f"{base}SELECT DISTINCT patient_id FROM diagnoses WHERE code = 'N18.3'\n"
              f"  AND patient_id IN ({rising_set(50, False)})"),
            R("What is their urine albumin-to-creatinine ratio?", ["follow_up"],
              reason="No urine albumin or albumin-to-creatinine ratio results are recorded."),
        ]),
    ]


def semaglutide() -> list[dict[str, Any]]:
    sema = ("sema AS (SELECT patient_id, MIN(start_date) AS start_date FROM medications "
            "WHERE drug_name = 'semaglutide' GROUP BY patient_id)")
    a1c = "l.loinc_code = '4548-4' AND l.value IS NOT NULL"
    pre = (f"pre AS (SELECT l.patient_id, MAX(l.collected_at) AS t FROM labs l JOIN sema s ON s.patient_id = l.patient_id "
           f"WHERE {a1c} AND l.collected_at < s.start_date GROUP BY l.patient_id)")
    post = (f"post AS (SELECT l.patient_id, MAX(l.collected_at) AS t FROM labs l JOIN sema s ON s.patient_id = l.patient_id "
            f"WHERE {a1c} AND l.collected_at >= s.start_date GROUP BY l.patient_id)")
    prev = (f"prev AS (SELECT l.patient_id, AVG(l.value) AS v FROM labs l JOIN pre p ON p.patient_id = l.patient_id "
            f"AND l.collected_at = p.t WHERE {a1c} GROUP BY l.patient_id)")
    postv = (f"postv AS (SELECT l.patient_id, AVG(l.value) AS v FROM labs l JOIN post p ON p.patient_id = l.patient_id "
             f"AND l.collected_at = p.t WHERE {a1c} GROUP BY l.patient_id)")
    return [
        T("semaglutide_hba1c_01", "HbA1c before and after semaglutide", "hba1c_after_drug", [
            R("How many patients have been prescribed semaglutide?", ["aggregation"],
              "SELECT COUNT(DISTINCT patient_id) AS n FROM medications WHERE drug_name = 'semaglutide'"),
            R("Of those, what was the average HbA1c before they started it, and the average after, over all their results?",
              ["trend", "follow_up"],
              f"WITH {sema}\nSELECT AVG(CASE WHEN l.collected_at < s.start_date THEN l.value END) AS avg_before,\n"
              "       AVG(CASE WHEN l.collected_at >= s.start_date THEN l.value END) AS avg_after\n"
              f"FROM labs l JOIN sema s ON s.patient_id = l.patient_id WHERE {a1c}",
              interpretation="HbA1c fell after semaglutide was started: better glycaemic control."),
            R("Which of them had their latest HbA1c at least 1 percentage point below the last value measured before starting?",
              ["trend", "follow_up"],
              f"WITH {sema},\n{pre},\n{post},\n{prev},\n{postv}\n"
              "SELECT prev.patient_id FROM prev JOIN postv ON postv.patient_id = prev.patient_id WHERE postv.v <= prev.v - 1.0"),
            R("What dose of semaglutide were they started on?", ["lookup", "follow_up"],
              "SELECT DISTINCT dose_value, dose_unit FROM medications WHERE drug_name = 'semaglutide'"),
        ]),
        T("semaglutide_hba1c_02", "Per-patient HbA1c around semaglutide start", "hba1c_after_drug", [
            R("Which patients are on semaglutide, and when did each one start it?", ["lookup"],
              "SELECT patient_id, MIN(start_date) AS start_date FROM medications WHERE drug_name = 'semaglutide' GROUP BY patient_id"),
            R("For each of them, what was the last HbA1c before the start date?", ["temporal", "follow_up"],
              f"WITH {sema},\n{pre}\nSELECT DISTINCT l.patient_id, l.value FROM labs l JOIN pre p ON p.patient_id = l.patient_id "
              "AND l.collected_at = p.t\nWHERE l.loinc_code = '4548-4'"),
            R("And what is each one's most recent HbA1c?", ["temporal", "follow_up"],
              f"WITH {sema},\n{post}\nSELECT DISTINCT l.patient_id, l.value FROM labs l JOIN post p ON p.patient_id = l.patient_id "
              "AND l.collected_at = p.t\nWHERE l.loinc_code = '4548-4'"),
            R("How much did their semaglutide cost?", ["follow_up"],
              reason="The database records no prices, claims or costs."),
        ]),
        T("semaglutide_hba1c_03", "Diabetics with and without semaglutide", "hba1c_after_drug", [
            R("How many patients have type 2 diabetes?", ["aggregation"],
              "SELECT COUNT(DISTINCT patient_id) AS n FROM diagnoses WHERE code = 'E11.9'"),
            R("Of those, how many were started on semaglutide?", ["join", "follow_up"],
              f"SELECT COUNT(DISTINCT patient_id) AS n FROM medications WHERE drug_name = 'semaglutide'\n"
              f"  AND patient_id IN ({dx_pats('E11.9')})"),
            R("Among the diabetic patients not on semaglutide, what is the average HbA1c, excluding implausible values above 20%?",
              ["aggregation", "anomaly", "follow_up"],
              "SELECT AVG(value) AS avg_hba1c FROM labs WHERE loinc_code = '4548-4' AND value <= 20\n"
              f"  AND patient_id IN ({dx_pats('E11.9')})\n  AND patient_id NOT IN ({drug_pats('semaglutide')})"),
            R("Which of the semaglutide patients also take metformin?", ["join", "follow_up"],
              f"SELECT DISTINCT patient_id FROM medications WHERE drug_name = 'metformin'\n"
              f"  AND patient_id IN ({drug_pats('semaglutide')})"),
        ]),
    ]


def duplicates() -> list[dict[str, Any]]:
    grp = ("SELECT patient_id, loinc_code, collected_at, value, unit, COUNT(*) AS copies FROM labs "
           "GROUP BY patient_id, loinc_code, collected_at, value, unit HAVING COUNT(*) > 1")
    return [
        T("duplicate_labs_01", "Duplicated lab results", "duplicates", [
            R("How many lab results are exact duplicates of another result (same patient, test, collection time, value and unit)? "
              "Count only the extra copies.", ["anomaly", "data_quality"],
              f"SELECT SUM(d.copies - 1) AS extra_copies FROM ({grp}) d",
              interpretation="Duplicate rows inflate counts and averages; they should be removed before analysis."),
            R("Which patients have duplicated results?", ["anomaly", "follow_up"],
              f"SELECT DISTINCT d.patient_id FROM ({grp}) d"),
            R("Which tests were duplicated, and how many extra copies of each?", ["anomaly", "aggregation", "follow_up"],
              f"SELECT l.lab_name, SUM(d.copies - 1) AS extra_copies FROM ({grp}) d\n"
              "JOIN (SELECT DISTINCT loinc_code, lab_name FROM labs) l ON l.loinc_code = d.loinc_code\nGROUP BY l.lab_name"),
            R("After removing the extra copies, how many lab results remain in total?", ["aggregation", "follow_up"],
              f"SELECT (SELECT COUNT(*) FROM labs) - (SELECT SUM(d.copies - 1) FROM ({grp}) d) AS remaining"),
        ]),
        T("duplicate_labs_02", "Duplicated lab results by patient", "duplicates", [
            R("Are there duplicated lab results? List each duplicated patient, test code and collection time with the number of copies.",
              ["anomaly", "data_quality"],
              f"SELECT d.patient_id, d.loinc_code, d.collected_at, d.copies FROM ({grp}) d"),
            R("How many distinct patients does that involve?", ["aggregation", "follow_up"],
              f"SELECT COUNT(DISTINCT d.patient_id) AS n FROM ({grp}) d"),
            R("Who entered the duplicates into the system?", ["follow_up"],
              reason="Lab results carry no record of who entered them."),
        ]),
    ]


def implausible() -> list[dict[str, Any]]:
    bad_hr = "(heart_rate = 0 OR heart_rate > 250)"
    temp_c = "CASE WHEN temperature_c > 45 THEN (temperature_c - 32) * 5 / 9 ELSE temperature_c END"
    return [
        T("implausible_hba1c_01", "Implausible HbA1c values", "implausible_values", [
            R("Are there physiologically implausible HbA1c results, above 20%? Give the patient and the value of each.",
              ["anomaly"], "SELECT patient_id, value FROM labs WHERE loinc_code = '4548-4' AND value > 20",
              interpretation="Values around 60-90% are impossible for HbA1c; most likely a lost decimal point."),
            R("Excluding those, what is the mean HbA1c across all results?", ["aggregation", "follow_up"],
              "SELECT AVG(value) AS mean_hba1c FROM labs WHERE loinc_code = '4548-4' AND value <= 20"),
            R("What would the mean be if those values were read as misplaced decimals, that is divided by 10?",
              ["aggregation", "anomaly", "follow_up"],
              "SELECT AVG(CASE WHEN value > 20 THEN value / 10 ELSE value END) AS mean_hba1c FROM labs WHERE loinc_code = '4548-4'"),
            R("Which of the patients with implausible values have type 2 diabetes?", ["join", "follow_up"],
              "SELECT DISTINCT patient_id FROM diagnoses WHERE code = 'E11.9'\n"
              "  AND patient_id IN (SELECT patient_id FROM labs WHERE loinc_code = '4548-4' AND value > 20)"),
        ]),
        T("implausible_heart_rate_01", "Implausible heart rates", "implausible_values", [
            R("Which vital-sign records have a heart rate of 0 or above 250 beats per minute? Give the record id, patient and value.",
              ["anomaly"], f"SELECT vital_id, patient_id, heart_rate FROM vitals WHERE {bad_hr}"),
            R("What is the average heart rate over all records once those are excluded?", ["aggregation", "follow_up"],
              "SELECT AVG(heart_rate) AS avg_hr FROM vitals WHERE heart_rate > 0 AND heart_rate <= 250"),
            R("For each of those patients, what is the average of their other heart rate readings?", ["aggregation", "follow_up"],
              "SELECT patient_id, AVG(heart_rate) AS avg_hr FROM vitals WHERE heart_rate > 0 AND heart_rate <= 250\n"
              f"  AND patient_id IN (SELECT patient_id FROM vitals WHERE {bad_hr})\nGROUP BY patient_id"),
            R("What rhythm did their ECG show at that visit?", ["follow_up"],
              reason="ECG tracings and rhythm interpretations are not stored."),
        ]),
        T("implausible_temperature_01", "Temperatures recorded in Fahrenheit", "implausible_values", [
            R("Which vital-sign records have a temperature above 45 °C? Give the record id, patient and value.", ["anomaly"],
              "SELECT vital_id, patient_id, temperature_c FROM vitals WHERE temperature_c > 45"),
            R("Those look like Fahrenheit readings. What are they in Celsius?", ["anomaly", "follow_up"],
              "SELECT vital_id, (temperature_c - 32) * 5 / 9 AS temperature_c FROM vitals WHERE temperature_c > 45"),
            R("After converting those, how many vital-sign records show a fever above 38.0 °C?", ["aggregation", "follow_up"],
              f"SELECT COUNT(*) AS n FROM vitals WHERE {temp_c} > 38.0"),
            R("How many of those fever records were taken during inpatient stays?", ["join", "follow_up"],
              f"SELECT COUNT(*) AS n FROM vitals v JOIN encounters e ON e.encounter_id = v.encounter_id\n"
              f"WHERE e.encounter_type = 'inpatient' AND {temp_c.replace('temperature_c', 'v.temperature_c')} > 38.0"),
        ]),
    ]


def spikes() -> list[dict[str, Any]]:
    k_hi = "SELECT patient_id FROM labs WHERE loinc_code = '2823-3' AND value > 6.0"
    na_lo = "SELECT patient_id FROM labs WHERE loinc_code = '2951-2' AND value < 125"
    return [
        T("potassium_spike_01", "Hyperkalaemia spikes", "out_of_range_spikes", [
            R("Which patients had a potassium result above 6.0 mmol/L?", ["anomaly"],
              "SELECT DISTINCT patient_id FROM labs WHERE loinc_code = '2823-3' AND value > 6.0",
              interpretation="Potassium above 6 mmol/L is dangerous hyperkalaemia; isolated spikes may be haemolysed samples."),
            R("For each of them, give the date and time and the value of that result.", ["lookup", "follow_up"],
              "SELECT patient_id, collected_at, value FROM labs WHERE loinc_code = '2823-3' AND value > 6.0"),
            R("How many potassium results do those patients have in total?", ["aggregation", "follow_up"],
              f"SELECT COUNT(*) AS n FROM labs WHERE loinc_code = '2823-3' AND patient_id IN ({k_hi})"),
            R("For each of them, what was the next potassium value measured after the high one?", ["temporal", "follow_up"],
              "WITH spike AS (SELECT patient_id, collected_at AS t FROM labs WHERE loinc_code = '2823-3' AND value > 6.0),\n"
              "nxt AS (SELECT l.patient_id, MIN(l.collected_at) AS t FROM labs l JOIN spike s ON s.patient_id = l.patient_id\n"
              "  WHERE l.loinc_code = '2823-3' AND l.collected_at > s.t GROUP BY l.patient_id)\n"
              "SELECT DISTINCT l.patient_id, l.value FROM labs l JOIN nxt n ON n.patient_id = l.patient_id AND l.collected_at = n.t\n"
              "WHERE l.loinc_code = '2823-3'",
              interpretation="A normal repeat value suggests the spike was spurious (e.g. a haemolysed sample)."),
        ]),
        T("sodium_dip_01", "Severe hyponatraemia values", "out_of_range_spikes", [
            R("Which patients had a sodium below 125 mmol/L?", ["anomaly"],
              "SELECT DISTINCT patient_id FROM labs WHERE loinc_code = '2951-2' AND value < 125"),
            R("What were those values, and when were they taken?", ["lookup", "follow_up"],
              "SELECT patient_id, collected_at, value FROM labs WHERE loinc_code = '2951-2' AND value < 125"),
            R("What is each of those patients' average sodium when the low values are left out?", ["aggregation", "follow_up"],
              f"SELECT patient_id, AVG(value) AS avg_sodium FROM labs WHERE loinc_code = '2951-2' AND value >= 125\n"
              f"  AND patient_id IN ({na_lo})\nGROUP BY patient_id"),
            R("What caused the low sodium in each case?", ["follow_up"],
              reason="No cause is documented: the notes do not discuss these results and the database has no assessments."),
        ]),
    ]


def units() -> list[dict[str, Any]]:
    return [
        T("messy_units_creatinine_01", "Creatinine units", "messy_units", [
            R("Which units are used for creatinine results, and how many results use each?", ["data_quality", "aggregation"],
              "SELECT unit, COUNT(*) AS n FROM labs WHERE loinc_code = '2160-0' GROUP BY unit",
              interpretation="Three spellings/units: mg/dL, mg/dl (same unit, different case) and umol/L (factor 88.4)."),
            R("Converting umol/L to mg/dL (divide by 88.4) and treating mg/dl as mg/dL, what is the mean creatinine over all results?",
              ["aggregation", "data_quality", "follow_up"],
              f"SELECT AVG({CREAT_MGDL}) AS mean_mg_dl FROM labs WHERE loinc_code = '2160-0'"),
            R("And what mean would you get by naively averaging the raw values?", ["aggregation", "follow_up"],
              "SELECT AVG(value) AS raw_mean FROM labs WHERE loinc_code = '2160-0'"),
            R("How many creatinine results have no value recorded?", ["data_quality", "follow_up"],
              "SELECT COUNT(*) AS n FROM labs WHERE loinc_code = '2160-0' AND value IS NULL"),
        ]),
        T("messy_units_glucose_01", "Glucose units", "messy_units", [
            R("Which units appear in the glucose results, and how many results are there in each?", ["data_quality", "aggregation"],
              "SELECT unit, COUNT(*) AS n FROM labs WHERE loinc_code = '2345-7' GROUP BY unit"),
            R("Convert the mmol/L results to mg/dL (multiply by 18). What is the highest glucose value then?",
              ["aggregation", "data_quality", "follow_up"],
              f"SELECT MAX({GLUC_MGDL}) AS max_mg_dl FROM labs WHERE loinc_code = '2345-7'"),
            R("Which patients had a glucose above 170 mg/dL after that conversion?", ["anomaly", "follow_up"],
              f"SELECT DISTINCT patient_id FROM labs WHERE loinc_code = '2345-7' AND {GLUC_MGDL} > 170"),
            R("Were those samples taken fasting?", ["follow_up"],
              reason="Fasting status is not recorded with the glucose results."),
        ]),
    ]


def nulls() -> list[dict[str, Any]]:
    return [
        T("missing_values_01", "Missing lab values and vitals", "missing_data", [
            R("How many lab results have no value recorded?", ["data_quality"],
              "SELECT COUNT(*) AS n FROM labs WHERE value IS NULL"),
            R("Which tests do they belong to, with how many missing values each?", ["data_quality", "aggregation", "follow_up"],
              "SELECT lab_name, COUNT(*) AS n FROM labs WHERE value IS NULL GROUP BY lab_name"),
            R("How many vital-sign records are missing the blood pressure?", ["data_quality"],
              "SELECT COUNT(*) AS n FROM vitals WHERE systolic_bp IS NULL"),
            R("Which patients have no postal code recorded?", ["data_quality", "lookup"],
              "SELECT patient_id FROM patients WHERE postal_code IS NULL"),
        ]),
        T("missing_values_02", "Missing doses and open stays", "missing_data", [
            R("How many prescriptions have no dose recorded?", ["data_quality"],
              "SELECT COUNT(*) AS n FROM medications WHERE dose_value IS NULL"),
            R("Which drugs are those prescriptions for?", ["data_quality", "follow_up"],
              "SELECT DISTINCT drug_name FROM medications WHERE dose_value IS NULL"),
            R("How many inpatient stays have no end time recorded?", ["data_quality"],
              "SELECT COUNT(*) AS n FROM encounters WHERE encounter_type = 'inpatient' AND end_time IS NULL"),
            R("Which patients do those open stays belong to, and when did each stay start?", ["lookup", "follow_up"],
              "SELECT patient_id, start_time FROM encounters WHERE encounter_type = 'inpatient' AND end_time IS NULL"),
        ]),
    ]


def demographics() -> list[dict[str, Any]]:
    return [
        T("demographics_01", "Patient counts", "demographics", [
            R("How many patients are in the database?", ["aggregation"], "SELECT COUNT(*) AS n FROM patients"),
            R("How many of them are female?", ["aggregation", "follow_up"],
              "SELECT COUNT(*) AS n FROM patients WHERE sex = 'F'"),
            R("How many patients were born before 1950-01-01?", ["aggregation", "temporal"],
              "SELECT COUNT(*) AS n FROM patients WHERE birth_date < '1950-01-01'"),
            R("How many patients have a recorded date of death?", ["aggregation", "data_quality"],
              "SELECT COUNT(*) AS n FROM patients WHERE death_date IS NOT NULL"),
        ], portable=True),
        T("demographics_02", "Patients born in the 1960s", "demographics", [
            R("How many patients were born in the 1960s, from 1960-01-01 to 1969-12-31?", ["aggregation", "temporal"],
              "SELECT COUNT(*) AS n FROM patients WHERE birth_date >= '1960-01-01' AND birth_date <= '1969-12-31'"),
            R("Of those, how many are men?", ["aggregation", "follow_up"],
              "SELECT COUNT(*) AS n FROM patients WHERE birth_date >= '1960-01-01' AND birth_date <= '1969-12-31' AND sex = 'M'"),
            R("How many encounters did those men have in total?", ["join", "aggregation", "follow_up"],
              "SELECT COUNT(*) AS n FROM encounters WHERE patient_id IN (SELECT patient_id FROM patients\n"
              "  WHERE birth_date >= '1960-01-01' AND birth_date <= '1969-12-31' AND sex = 'M')"),
            R("What is their household income?", ["follow_up"],
              reason="Income and other socioeconomic data are not in the database."),
        ], portable=True),
        T("demographics_03", "Encounter mix", "demographics", [
            R("How many encounters of each type are there?", ["aggregation"],
              "SELECT encounter_type, COUNT(*) AS n FROM encounters GROUP BY encounter_type"),
            R("How many distinct patients had at least one emergency visit?", ["aggregation"],
              "SELECT COUNT(DISTINCT patient_id) AS n FROM encounters WHERE encounter_type = 'emergency'"),
            R("Of those, how many also had an inpatient stay?", ["join", "follow_up"],
              "SELECT COUNT(DISTINCT patient_id) AS n FROM encounters WHERE encounter_type = 'inpatient'\n"
              "  AND patient_id IN (SELECT patient_id FROM encounters WHERE encounter_type = 'emergency')"),
        ], portable=True),
    ]


def comorbidity() -> list[dict[str, Any]]:
    htn, t2d, ckd = dx_pats("I10"), dx_pats("E11.9"), dx_pats("N18.3")
    hf = dx_pats("I50.9")
    copd = dx_pats("J44.9")
    return [
        T("comorbidity_01", "Hypertension, diabetes and CKD", "comorbidity", [
            R("How many patients have hypertension?", ["aggregation"],
              "SELECT COUNT(DISTINCT patient_id) AS n FROM diagnoses WHERE code = 'I10'"),
            R("Of those, how many also have type 2 diabetes?", ["join", "follow_up"],
              f"SELECT COUNT(DISTINCT patient_id) AS n FROM diagnoses WHERE code = 'E11.9' AND patient_id IN ({htn})"),
            R("And of those, which also have chronic kidney disease?", ["join", "follow_up"],
              f"SELECT DISTINCT patient_id FROM diagnoses WHERE code = 'N18.3'\n  AND patient_id IN ({htn})\n"
              f"  AND patient_id IN ({t2d})"),
            R("Which of those patients take both lisinopril and metformin?", ["join", "follow_up"],
              f"SELECT DISTINCT patient_id FROM medications WHERE drug_name = 'lisinopril'\n"
              f"  AND patient_id IN ({drug_pats('metformin')})\n  AND patient_id IN ({htn})\n"
              f"  AND patient_id IN ({t2d})\n  AND patient_id IN ({ckd})"),
        ]),
        T("comorbidity_02", "Heart failure", "comorbidity", [
            R("How many patients have heart failure?", ["aggregation"],
              "SELECT COUNT(DISTINCT patient_id) AS n FROM diagnoses WHERE code = 'I50.9'"),
            R("Of those, how many have had an inpatient stay?", ["join", "follow_up"],
              f"SELECT COUNT(DISTINCT patient_id) AS n FROM encounters WHERE encounter_type = 'inpatient' AND patient_id IN ({hf})"),
            R("What was the highest NT-proBNP value for each heart failure patient?", ["aggregation", "join"],
              f"SELECT patient_id, MAX(value) AS max_ntprobnp FROM labs WHERE loinc_code = '33762-6'\n"
              f"  AND patient_id IN ({hf})\nGROUP BY patient_id"),
            R("What was their ejection fraction on echocardiography?", ["follow_up"],
              reason="No echocardiography or ejection fraction data are recorded."),
        ]),
        T("comorbidity_03", "COPD and oxygen saturation", "comorbidity", [
            R("How many patients have COPD?", ["aggregation"],
              "SELECT COUNT(DISTINCT patient_id) AS n FROM diagnoses WHERE code = 'J44.9'"),
            R("How many vital-sign records of those patients show an SpO2 below 90%?", ["join", "follow_up"],
              f"SELECT COUNT(*) AS n FROM vitals WHERE spo2 < 90 AND patient_id IN ({copd})"),
            R("Which of them are documented as current smokers in their notes?", ["note_search", "follow_up"],
              f"SELECT DISTINCT patient_id FROM notes WHERE LOWER(note_text) LIKE '%current smoker%'\n"
              f"  AND patient_id IN ({copd})"),
            R("What was their FEV1 on spirometry?", ["follow_up"],
              reason="No spirometry or FEV1 results are recorded."),
        ]),
        T("comorbidity_04", "Common chronic diagnoses", "comorbidity", [
            R("Which diagnoses are recorded for more than 40 patients? Give the description and the number of patients.",
              ["aggregation"],
              "SELECT description, COUNT(DISTINCT patient_id) AS n FROM diagnoses GROUP BY description\n"
              "HAVING COUNT(DISTINCT patient_id) > 40"),
            R("How many patients have hypothyroidism?", ["aggregation"],
              "SELECT COUNT(DISTINCT patient_id) AS n FROM diagnoses WHERE code = 'E03.9'"),
            R("What is the average TSH among those hypothyroid patients?", ["aggregation", "join", "follow_up"],
              f"SELECT AVG(value) AS avg_tsh FROM labs WHERE loinc_code = '3016-3' AND patient_id IN ({dx_pats('E03.9')})"),
        ]),
    ]


def dx_med() -> list[dict[str, Any]]:
    pairs = [
        ("type 2 diabetes", "metformin", "dx_med_diabetes_metformin"),
        ("atrial fibrillation", "apixaban", "dx_med_afib_apixaban"),
        ("heart failure", "furosemide", "dx_med_hf_furosemide"),
        ("hypothyroidism", "levothyroxine", "dx_med_hypothyroid_levothyroxine"),
        ("depression", "sertraline", "dx_med_depression_sertraline"),
    ]
    phr = [
        ("How many patients have {dx}?", "Of those, how many have ever been prescribed {drug}?",
         "Which of the {dx} patients have never been prescribed {drug}?",
         "List the {drug} doses prescribed (value and unit) with the number of prescriptions for each."),
        ("How many patients carry a diagnosis of {dx}?", "Of them, how many have ever received {drug}?",
         "Which patients with {dx} have never been prescribed {drug}?",
         "What doses of {drug} were prescribed? Give value, unit and number of prescriptions."),
    ]
    out = []
    for i, (dx, drug, tid) in enumerate(pairs):
        code = DX[dx]
        p = phr[i % 2]
        out.append(T(tid, f"{dx.capitalize()} and {drug}", "diagnosis_medication", [
            R(p[0].format(dx=dx, drug=drug), ["aggregation"],
              f"SELECT COUNT(DISTINCT patient_id) AS n FROM diagnoses WHERE code = '{code}'"),
            R(p[1].format(dx=dx, drug=drug), ["join", "follow_up"],
              f"SELECT COUNT(DISTINCT patient_id) AS n FROM medications WHERE drug_name = '{drug}'\n"
              f"  AND patient_id IN ({dx_pats(code)})"),
            R(p[2].format(dx=dx, drug=drug), ["join"],
              f"SELECT DISTINCT patient_id FROM diagnoses WHERE code = '{code}'\n"
              f"  AND patient_id NOT IN ({drug_pats(drug)})"),
            R(p[3].format(dx=dx, drug=drug), ["aggregation", "data_quality"],
              f"SELECT dose_value, dose_unit, COUNT(*) AS n FROM medications WHERE drug_name = '{drug}'\n"
              "GROUP BY dose_value, dose_unit"),
        ]))
    return out


def month_sql(etype: str, year: int) -> tuple[str, dict[str, str]]:
    where = f"encounter_type = '{etype}' AND start_time >= '{year}-01-01' AND start_time < '{year + 1}-01-01'"
    default = (f"SELECT EXTRACT(MONTH FROM start_time) AS month, COUNT(*) AS n FROM encounters\nWHERE {where}\n"
               "GROUP BY EXTRACT(MONTH FROM start_time)")
    sqlite = (f"SELECT CAST(strftime('%m', start_time) AS INTEGER) AS month, COUNT(*) AS n FROM encounters\nWHERE {where}\n"
              "GROUP BY CAST(strftime('%m', start_time) AS INTEGER)")
    return default, {"sqlite": sqlite}


def temporal_encounters() -> list[dict[str, Any]]:
    specs = [
        ("emergency", "emergency visits", "2023", "2023-01-01", "2024-01-01", "in 2023", 2023),
        ("inpatient", "inpatient admissions", "2022", "2022-01-01", "2023-01-01", "in 2022", 2022),
        ("emergency", "emergency visits", "2024Q1", "2024-01-01", "2024-04-01", "in the first quarter of 2024 (January to March)", None),
        ("outpatient", "outpatient visits", "2021H2", "2021-07-01", "2022-01-01", "in the second half of 2021 (July to December)", None),
        ("telehealth", "telehealth visits", "2024", "2024-01-01", "2025-01-01", "in 2024", 2024),
        ("inpatient", "inpatient admissions", "2024H1", "2024-01-01", "2024-07-01", "between 2024-01-01 and 2024-06-30", None),
    ]
    out = []
    for etype, label, tag, d0, d1, period, year in specs:
        where = f"encounter_type = '{etype}' AND start_time >= '{d0}' AND start_time < '{d1}'"
        y0 = int(d0[:4]) - 65
        cutoff = f"{y0}{d0[4:]}"
        rounds = [
            R(f"How many {label} were there {period}?", ["temporal", "aggregation"],
              f"SELECT COUNT(*) AS n FROM encounters WHERE {where}"),
            R("How many distinct patients had them?", ["temporal", "aggregation", "follow_up"],
              f"SELECT COUNT(DISTINCT patient_id) AS n FROM encounters WHERE {where}"),
            R(f"How many of those patients were at least 65 years old on {d0}?", ["temporal", "join", "follow_up"],
              f"SELECT COUNT(*) AS n FROM patients WHERE birth_date <= '{cutoff}'\n"
              f"  AND patient_id IN (SELECT patient_id FROM encounters WHERE {where})"),
        ]
        if year is not None:
            default, ov = month_sql(etype, year)
            rounds.append(R(f"Give the number of {label} for each month of {year}.", ["temporal", "aggregation", "follow_up"],
                            default, overrides=ov))
        else:
            rounds.append(R("What were the reasons for those visits, with the number of visits for each reason?",
                            ["temporal", "aggregation", "follow_up"],
                            f"SELECT reason, COUNT(*) AS n FROM encounters WHERE {where} GROUP BY reason"))
        out.append(T(f"temporal_encounters_{tag.lower()}_{etype}", f"{label.capitalize()} {period}", "temporal_encounters",
                     rounds, portable=etype in ("emergency", "inpatient", "outpatient")))
    return out


def temporal_labs() -> list[dict[str, Any]]:
    specs = [
        ("hba1c", "HbA1c", "2023-07-01", "2024-01-01", "between 2023-07-01 and 2023-12-31", "value <= 20",
         "excluding implausible values above 20%"),
        ("creatinine", "creatinine", "2024-01-01", "2024-04-01", "in the first quarter of 2024 (January to March)",
         None, "in mg/dL, converting umol/L results by dividing by 88.4"),
        ("potassium", "potassium", "2022-01-01", "2023-01-01", "during 2022", None, None),
        ("ldl", "LDL cholesterol", "2024-01-01", "2025-01-01", "during 2024", None, None),
        ("glucose", "glucose", "2022-01-01", "2022-07-01", "in the first half of 2022",
         None, "in mg/dL, converting mmol/L results by multiplying by 18"),
    ]
    out = []
    for key, name, d0, d1, period, filt, how in specs:
        code = LOINC[key]
        where = f"loinc_code = '{code}' AND collected_at >= '{d0}' AND collected_at < '{d1}'"
        expr = {"creatinine": CREAT_MGDL, "glucose": GLUC_MGDL}.get(key, "value")
        avg_where = where + (f" AND {filt}" if filt else "")
        rounds = [
            R(f"How many {name} tests were done {period}?", ["temporal", "aggregation"],
              f"SELECT COUNT(*) AS n FROM labs WHERE {where}"),
            R("How many distinct patients had one?", ["temporal", "aggregation", "follow_up"],
              f"SELECT COUNT(DISTINCT patient_id) AS n FROM labs WHERE {where}"),
            R(f"What was the average value over that period{', ' + how if how else ''}?",
              ["temporal", "aggregation", "follow_up"] + (["data_quality"] if how else []),
              f"SELECT AVG({expr}) AS avg_value FROM labs WHERE {avg_where}"),
            R("How many of those results were above the upper limit of their reference range?",
              ["temporal", "anomaly", "follow_up"],
              f"SELECT COUNT(*) AS n FROM labs WHERE {where} AND value > ref_high"),
        ]
        out.append(T(f"temporal_labs_{key}_{d0[:4]}", f"{name} tests {period}", "temporal_labs", rounds))
    return out


def active_meds() -> list[dict[str, Any]]:
    specs = [
        ("apixaban", "2024-06-30", "atrial fibrillation",
         ("Which of them ever had a hemoglobin below 14.0 g/dL?",
          "SELECT DISTINCT patient_id FROM labs WHERE loinc_code = '718-7' AND value < 14.0")),
        ("metformin", "2023-01-01", "type 2 diabetes",
         ("Which of them had any HbA1c above 8% during 2023 (ignoring implausible values above 20%)?",
          "SELECT DISTINCT patient_id FROM labs WHERE loinc_code = '4548-4' AND value > 8 AND value <= 20\n"
          "  AND collected_at >= '2023-01-01' AND collected_at < '2024-01-01'")),
        ("levothyroxine", "2022-07-01", "hypothyroidism",
         ("Which of them had a TSH above 4.0 mIU/L at any time?",
          "SELECT DISTINCT patient_id FROM labs WHERE loinc_code = '3016-3' AND value > 4.0")),
    ]
    out = []
    for drug, d, dx, (q3, sql3) in specs:
        active = (f"SELECT DISTINCT patient_id FROM medications WHERE drug_name = '{drug}' AND start_date <= '{d}'\n"
                  f"  AND (end_date IS NULL OR end_date >= '{d}')")
        one_line = " ".join(active.split())
        out.append(T(f"active_{drug}_{d.replace('-', '')}", f"Active {drug} on {d}", "active_medications", [
            R(f"Which patients had an active {drug} prescription on {d}, meaning started on or before that day and not ended before it?",
              ["temporal", "lookup"], active),
            R(f"Of those, which also have {dx} on their problem list?", ["join", "follow_up"],
              f"SELECT DISTINCT patient_id FROM diagnoses WHERE code = '{DX[dx]}'\n  AND patient_id IN ({one_line})"),
            R(q3, ["join", "temporal", "follow_up"], sql3.replace("SELECT DISTINCT patient_id FROM labs WHERE",
                                                                "SELECT DISTINCT patient_id FROM labs WHERE patient_id IN (" + one_line + ") AND", 1)),
            R(f"Which pharmacy dispensed their {drug}?", ["follow_up"],
              reason="Dispensing and pharmacy data are not in the database."),
        ]))
    return out


def notes_tasks() -> list[dict[str, Any]]:
    fall = "SELECT DISTINCT patient_id FROM notes WHERE LOWER(note_text) LIKE '%fall%'"
    smoker = "SELECT DISTINCT patient_id FROM notes WHERE LOWER(note_text) LIKE '%current smoker%'"
    nonadh = "SELECT DISTINCT patient_id FROM notes WHERE LOWER(note_text) LIKE '%non-adherent%'"
    pen = "SELECT DISTINCT patient_id FROM notes WHERE LOWER(note_text) LIKE '%allergies: penicillin%'"
    sob = "SELECT note_id, patient_id FROM notes WHERE LOWER(note_text) LIKE '%shortness of breath%'"
    chest = "SELECT DISTINCT patient_id FROM notes WHERE LOWER(note_text) LIKE '%chest pain%'"
    return [
        T("notes_falls_01", "Falls in the notes", "note_search", [
            R("Which patients have a clinical note mentioning a fall?", ["note_search"], fall,
              interpretation="Falls matter more in older or anticoagulated patients."),
            R("Of those, which have an active apixaban prescription (no end date)?", ["join", "follow_up"],
              f"SELECT DISTINCT patient_id FROM medications WHERE drug_name = 'apixaban' AND end_date IS NULL\n"
              f"  AND patient_id IN ({fall})"),
            R("Which of the patients with a fall were born before 1950-01-01?", ["join", "temporal", "follow_up"],
              f"SELECT patient_id FROM patients WHERE birth_date < '1950-01-01' AND patient_id IN ({fall})"),
            R("Did they have a hip X-ray, and what did it show?", ["follow_up"],
              reason="Imaging orders and results are not in the database."),
        ]),
        T("notes_smokers_01", "Current smokers", "note_search", [
            R("How many patients are documented as current smokers in their notes?", ["note_search", "aggregation"],
              f"SELECT COUNT(*) AS n FROM ({smoker}) s"),
            R("Of those, how many have COPD?", ["join", "follow_up"],
              f"SELECT COUNT(DISTINCT patient_id) AS n FROM diagnoses WHERE code = 'J44.9' AND patient_id IN ({smoker})"),
            R("What is the average systolic blood pressure of the current smokers, over all their readings?",
              ["aggregation", "join", "follow_up"],
              f"SELECT AVG(systolic_bp) AS avg_sbp FROM vitals WHERE patient_id IN ({smoker})"),
            R("How many pack-years have they smoked?", ["follow_up"],
              reason="The notes give smoking status, not smoking duration, so pack-years cannot be computed."),
        ]),
        T("notes_nonadherence_01", "Medication non-adherence", "note_search", [
            R("Which patients' notes say they are non-adherent to their medication?", ["note_search"], nonadh),
            R("What was the highest HbA1c for each of them (ignoring implausible values above 20%)?",
              ["aggregation", "join", "follow_up"],
              f"SELECT patient_id, MAX(value) AS max_hba1c FROM labs WHERE loinc_code = '4548-4' AND value <= 20\n"
              f"  AND patient_id IN ({nonadh})\nGROUP BY patient_id"),
            R("Which of them were prescribed metformin?", ["join", "follow_up"],
              f"SELECT DISTINCT patient_id FROM medications WHERE drug_name = 'metformin' AND patient_id IN ({nonadh})"),
        ]),
        T("notes_penicillin_01", "Penicillin allergy and amoxicillin", "note_search", [
            R("Which patients have a penicillin allergy documented in their notes?", ["note_search"], pen),
            R("Were any of them prescribed amoxicillin? Which ones?", ["join", "anomaly", "follow_up"],
              f"SELECT DISTINCT patient_id FROM medications WHERE drug_name = 'amoxicillin' AND patient_id IN ({pen})",
              interpretation="Amoxicillin is a penicillin: prescribing it despite a documented penicillin allergy is a safety issue."),
            R("When was the amoxicillin started for each, and during what type of encounter?", ["join", "follow_up"],
              "SELECT m.patient_id, m.start_date, e.encounter_type FROM medications m\n"
              "JOIN encounters e ON e.encounter_id = m.encounter_id\n"
              f"WHERE m.drug_name = 'amoxicillin' AND m.patient_id IN ({pen})"),
            R("What reaction did they have to the amoxicillin?", ["follow_up"],
              reason="No adverse reaction to these prescriptions is documented."),
        ]),
        T("notes_dyspnea_01", "Shortness of breath", "note_search", [
            R("How many notes mention shortness of breath?", ["note_search", "aggregation"],
              f"SELECT COUNT(*) AS n FROM ({sob}) s"),
            R("How many distinct patients do they belong to?", ["aggregation", "follow_up"],
              f"SELECT COUNT(DISTINCT s.patient_id) AS n FROM ({sob}) s"),
            R("How many of those patients have heart failure?", ["join", "follow_up"],
              f"SELECT COUNT(DISTINCT patient_id) AS n FROM diagnoses WHERE code = 'I50.9'\n"
              f"  AND patient_id IN (SELECT s.patient_id FROM ({sob}) s)"),
            R("How many of the patients with a shortness of breath note had an inpatient stay?", ["join", "note_search"],
              "SELECT COUNT(DISTINCT patient_id) AS n FROM encounters WHERE encounter_type = 'inpatient'\n"
              f"  AND patient_id IN (SELECT s.patient_id FROM ({sob}) s)"),
        ]),
        T("notes_chest_pain_01", "Chest pain", "note_search", [
            R("Which patients have a note mentioning chest pain?", ["note_search"], chest),
            R("Of those, how many have hypertension?", ["join", "follow_up"],
              f"SELECT COUNT(DISTINCT patient_id) AS n FROM diagnoses WHERE code = 'I10' AND patient_id IN ({chest})"),
            R("What was their troponin at presentation?", ["follow_up"],
              reason="Troponin is not among the recorded laboratory tests."),
            R("How many of the patients with a chest pain note are men?", ["aggregation", "note_search"],
              f"SELECT COUNT(*) AS n FROM patients WHERE sex = 'M' AND patient_id IN ({chest})"),
        ]),
    ]


def _chartable(tables: dict[str, list[dict[str, Any]]]):
    """pid -> True if the patient has an active chronic diagnosis and a prescription active at the data end."""
    active_dx = {d["patient_id"] for d in tables["diagnoses"] if d["resolved_on"] is None}
    active_rx = {m["patient_id"] for m in tables["medications"] if m["end_date"] is None}
    return lambda pid: pid in active_dx and pid in active_rx


def patient_lookup(planted: dict[str, Any], tables: dict[str, list[dict[str, Any]]]) -> list[dict[str, Any]]:
    ok = _chartable(tables)
    used: set[str] = set()

    def pick(cands: list[str]) -> str:
        """First chartable unused patient from ``cands``, else the first unused one."""
        for pid in [*(c for c in cands if ok(c)), *cands]:
            if pid not in used:
                used.add(pid)
                return pid
        raise ValueError(f"no unused patient among {cands}")

    picks = [
        (pick(planted["creatinine_rising"][0:]), "creatinine", "What is their blood type?"),
        (pick(planted["semaglutide_started"][0:]), "hba1c", None),
        (pick(planted["fall_notes"][1:]), "hemoglobin", "What is their home address?"),
        (pick(planted["potassium_spikes"][1:]), "potassium", None),
        (pick(planted["penicillin_allergy"][0:]), "wbc", "Which insurance plan covers them?"),
        (pick(planted["sodium_dips"][0:]), "sodium", None),
        (pick(planted["deceased"][1:]), "glucose", "What was the cause of death?"),
        (pick(planted["creatinine_rising"][3:]), "potassium", None),
        (pick(planted["semaglutide_started"][4:]), "creatinine", "What is their blood type?"),
        (pick(planted["non_adherent"][2:]), "hba1c", None),
        (pick(planted["current_smokers"][5:]), "sodium", "What is their occupation?"),
    ]
    reasons = {
        "What is their blood type?": "Blood group is not recorded.",
        "What is their home address?": "Only a postal code is stored, not an address.",
        "Which insurance plan covers them?": "Insurance and payer data are not in the database.",
        "What was the cause of death?": "Only the date of death is recorded, not its cause.",
        "What is their occupation?": "Occupation is not recorded.",
    }
    names = {"creatinine": "creatinine", "hba1c": "HbA1c", "hemoglobin": "hemoglobin", "potassium": "potassium",
             "wbc": "white blood cell count", "sodium": "sodium", "glucose": "glucose"}
    out = []
    for i, (pid, lab, unans) in enumerate(picks, start=1):
        code = LOINC[lab]
        latest = (f"SELECT MAX(collected_at) FROM labs WHERE patient_id = '{pid}' AND loinc_code = '{code}'")
        rounds = [
            R(f"What active diagnoses does patient {pid} have?", ["lookup"],
              f"SELECT description FROM diagnoses WHERE patient_id = '{pid}' AND resolved_on IS NULL"),
            R(f"What was their most recent {names[lab]} result, with its unit?", ["lookup", "temporal", "follow_up"],
              f"SELECT DISTINCT value, unit FROM labs WHERE patient_id = '{pid}' AND loinc_code = '{code}'\n"
              f"  AND collected_at = ({latest})"),
            R("What reference range applies to that result?", ["lookup", "follow_up"],
              f"SELECT DISTINCT ref_low, ref_high FROM labs WHERE patient_id = '{pid}' AND loinc_code = '{code}'\n"
              f"  AND collected_at = ({latest})"),
            R("Which medications were active for them on 2024-12-31?", ["temporal", "lookup", "follow_up"],
              f"SELECT DISTINCT drug_name FROM medications WHERE patient_id = '{pid}' AND start_date <= '2024-12-31'\n"
              "  AND (end_date IS NULL OR end_date >= '2024-12-31')"),
        ]
        if unans:
            rounds.append(R(unans, ["follow_up"], reason=reasons[unans]))
        out.append(T(f"patient_lookup_{i:02d}", f"Chart review of {pid}", "patient_lookup", rounds))
    return out


def vitals_tasks() -> list[dict[str, Any]]:
    htn = dx_pats("I10")
    return [
        T("vitals_bp_01", "Blood pressure in hypertension", "vitals", [
            R("What is the average systolic blood pressure over all readings of patients with hypertension?",
              ["aggregation", "join"], f"SELECT AVG(systolic_bp) AS avg_sbp FROM vitals WHERE patient_id IN ({htn})"),
            R("And for patients without hypertension?", ["aggregation", "join", "follow_up"],
              f"SELECT AVG(systolic_bp) AS avg_sbp FROM vitals WHERE patient_id NOT IN ({htn})"),
            R("How many hypertensive patients had at least one systolic reading of 160 mmHg or more?", ["aggregation", "join"],
              f"SELECT COUNT(DISTINCT patient_id) AS n FROM vitals WHERE systolic_bp >= 160 AND patient_id IN ({htn})"),
            R("Of those, how many are on amlodipine?", ["join", "follow_up"],
              "SELECT COUNT(DISTINCT patient_id) AS n FROM medications WHERE drug_name = 'amlodipine'\n"
              f"  AND patient_id IN (SELECT patient_id FROM vitals WHERE systolic_bp >= 160 AND patient_id IN ({htn}))"),
        ]),
        T("vitals_spo2_01", "Low oxygen saturation", "vitals", [
            R("Which patients had an SpO2 below 90% at any visit?", ["anomaly"],
              "SELECT DISTINCT patient_id FROM vitals WHERE spo2 < 90"),
            R("What was the lowest SpO2 recorded for each of them?", ["aggregation", "follow_up"],
              "SELECT patient_id, MIN(spo2) AS min_spo2 FROM vitals\n"
              "WHERE patient_id IN (SELECT patient_id FROM vitals WHERE spo2 < 90)\nGROUP BY patient_id"),
            R("Of those, how many have COPD?", ["join", "follow_up"],
              "SELECT COUNT(DISTINCT patient_id) AS n FROM diagnoses WHERE code = 'J44.9'\n"
              "  AND patient_id IN (SELECT patient_id FROM vitals WHERE spo2 < 90)"),
        ]),
        T("vitals_emergency_01", "Vital signs in the emergency department", "vitals", [
            R("How many vital-sign records were taken during emergency visits?", ["join", "aggregation"],
              "SELECT COUNT(*) AS n FROM vitals v JOIN encounters e ON e.encounter_id = v.encounter_id WHERE e.encounter_type = 'emergency'"),
            R("What was the average heart rate in those records, excluding implausible values (0 or above 250)?",
              ["aggregation", "anomaly", "follow_up"],
              "SELECT AVG(v.heart_rate) AS avg_hr FROM vitals v JOIN encounters e ON e.encounter_id = v.encounter_id\n"
              "WHERE e.encounter_type = 'emergency' AND v.heart_rate > 0 AND v.heart_rate <= 250"),
            R("How many of those records had a respiratory rate above 20 breaths per minute?", ["aggregation", "follow_up"],
              "SELECT COUNT(*) AS n FROM vitals v JOIN encounters e ON e.encounter_id = v.encounter_id\n"
              "WHERE e.encounter_type = 'emergency' AND v.resp_rate > 20"),
        ], portable=False),
    ]


FAMILIES = {
    "creatinine_trend": creatinine_trend,
    "hba1c_after_drug": semaglutide,
    "duplicates": duplicates,
    "implausible_values": implausible,
    "out_of_range_spikes": spikes,
    "messy_units": units,
    "missing_data": nulls,
    "demographics": demographics,
    "comorbidity": comorbidity,
    "diagnosis_medication": dx_med,
    "temporal_encounters": temporal_encounters,
    "temporal_labs": temporal_labs,
    "active_medications": active_meds,
    "note_search": notes_tasks,
    "patient_lookup": None,  # needs the planted manifest
    "vitals": vitals_tasks,
}


def draft_all() -> dict[str, list[dict[str, Any]]]:
    data = generate(DEFAULT_SEED, DEFAULT_PATIENTS)
    out = {}
    for fam, fn in FAMILIES.items():
        out[fam] = patient_lookup(data.planted, data.tables) if fn is None else fn()
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=TASK_DIR)
    ap.add_argument("--force", action="store_true", help="overwrite existing files (drops stored gold)")
    ap.add_argument("--only", nargs="*", help="families to write")
    args = ap.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    for fam, tasks in draft_all().items():
        if args.only and fam not in args.only:
            continue
        path = args.out / f"{fam}.yaml"
        if path.exists() and not args.force:
            print(f"skip {path} (exists; --force to overwrite)", file=sys.stderr)
            continue
        path.write_text(dump_task_yaml({"fixture": FIXTURE, "tasks": tasks}), encoding="utf-8")
        print(f"wrote {path}: {len(tasks)} tasks, {sum(len(t['rounds']) for t in tasks)} rounds")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
