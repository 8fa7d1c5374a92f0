"""The canonical EHR schema shared by every DataAgent backend.

One SQLAlchemy ``MetaData`` describes the tables, so SQLite, PostgreSQL and
MySQL/MariaDB get the same columns and types and the same gold SQL runs on all of
them. The choices below exist to keep results identical across dialects:

* floats are ``Double`` (MySQL's ``FLOAT`` is single precision and would change
  values in the 7th digit);
* timestamps are stored in SQLite as ``YYYY-MM-DD HH:MM:SS`` text (SQLAlchemy's
  default adds microseconds), so string comparison against a date literal such as
  ``'2023-01-01'`` orders exactly like a timestamp comparison on the servers;
* MySQL/MariaDB tables use the binary collation ``utf8mb4_bin``: the default
  collation is case-insensitive, which would silently merge the messy units
  ``mg/dL`` and ``mg/dl`` in a ``GROUP BY`` and make ``=`` ignore case.

Table names starting with ``medgym_`` hold metadata and are hidden from the agent's
``list_tables`` (they are not secret, just not part of the clinical record).
"""

from __future__ import annotations

from sqlalchemy import (
    Column,
    Date,
    DateTime,
    Double,
    ForeignKey,
    Index,
    MetaData,
    String,
    Table,
    Text,
)
from sqlalchemy.dialects import sqlite

# SQLite stores DATETIME as text; without microseconds it compares like the servers do.
SQLITE_DATETIME = sqlite.DATETIME(
    storage_format="%(year)04d-%(month)02d-%(day)02d %(hour)02d:%(minute)02d:%(second)02d",
    regexp=r"(\d+)-(\d+)-(\d+)[ T](\d+):(\d+):(\d+)",
)
TIMESTAMP = DateTime().with_variant(SQLITE_DATETIME, "sqlite")

MYSQL_TABLE_ARGS = {"mysql_charset": "utf8mb4", "mysql_collate": "utf8mb4_bin", "mysql_engine": "InnoDB"}

metadata = MetaData()

patients = Table(
    "patients",
    metadata,
    Column("patient_id", String(64), primary_key=True, comment="Patient identifier (P0001... in the fixture)"),
    Column("sex", String(8), nullable=True, comment="F or M"),
    Column("birth_date", Date, nullable=True),
    Column("death_date", Date, nullable=True, comment="NULL while alive"),
    Column("postal_code", String(16), nullable=True),
    comment="One row per patient.",
    **MYSQL_TABLE_ARGS,
)

encounters = Table(
    "encounters",
    metadata,
    Column("encounter_id", String(64), primary_key=True),
    Column("patient_id", String(64), ForeignKey("patients.patient_id"), nullable=False),
    Column("encounter_type", String(32), nullable=False, comment="outpatient, inpatient, emergency, telehealth..."),
    Column("start_time", TIMESTAMP, nullable=False),
    Column("end_time", TIMESTAMP, nullable=True, comment="NULL if the stay has no recorded end"),
    Column("reason", String(255), nullable=True),
    comment="Visits and admissions.",
    **MYSQL_TABLE_ARGS,
)

diagnoses = Table(
    "diagnoses",
    metadata,
    Column("diagnosis_id", String(64), primary_key=True),
    Column("patient_id", String(64), ForeignKey("patients.patient_id"), nullable=False),
    Column("encounter_id", String(64), nullable=True),
    Column("code", String(32), nullable=False, comment="ICD-10-CM code (SNOMED-CT for Synthea imports)"),
    Column("code_system", String(16), nullable=False),
    Column("description", String(255), nullable=False),
    Column("diagnosed_on", Date, nullable=False),
    Column("resolved_on", Date, nullable=True, comment="NULL while the problem is active"),
    comment="Problem list entries.",
    **MYSQL_TABLE_ARGS,
)

medications = Table(
    "medications",
    metadata,
    Column("medication_id", String(64), primary_key=True),
    Column("patient_id", String(64), ForeignKey("patients.patient_id"), nullable=False),
    Column("encounter_id", String(64), nullable=True),
    Column("drug_name", String(255), nullable=False),
    Column("rxnorm_code", String(32), nullable=True),
    Column("dose_value", Double, nullable=True),
    Column("dose_unit", String(32), nullable=True),
    Column("route", String(32), nullable=True),
    Column("frequency", String(32), nullable=True),
    Column("start_date", Date, nullable=False),
    Column("end_date", Date, nullable=True, comment="NULL while the prescription is active"),
    comment="Prescriptions.",
    **MYSQL_TABLE_ARGS,
)

vitals = Table(
    "vitals",
    metadata,
    Column("vital_id", String(64), primary_key=True),
    Column("patient_id", String(64), ForeignKey("patients.patient_id"), nullable=False),
    Column("encounter_id", String(64), nullable=True),
    Column("measured_at", TIMESTAMP, nullable=False),
    Column("systolic_bp", Double, nullable=True, comment="mmHg"),
    Column("diastolic_bp", Double, nullable=True, comment="mmHg"),
    Column("heart_rate", Double, nullable=True, comment="beats/min"),
    Column("resp_rate", Double, nullable=True, comment="breaths/min"),
    Column("temperature_c", Double, nullable=True, comment="degrees Celsius"),
    Column("spo2", Double, nullable=True, comment="oxygen saturation, %"),
    Column("weight_kg", Double, nullable=True),
    Column("height_cm", Double, nullable=True),
    comment="Vital signs, one row per measurement set.",
    **MYSQL_TABLE_ARGS,
)

labs = Table(
    "labs",
    metadata,
    Column("lab_id", String(64), primary_key=True),
    Column("patient_id", String(64), ForeignKey("patients.patient_id"), nullable=False),
    Column("encounter_id", String(64), nullable=True),
    Column("loinc_code", String(16), nullable=False),
    Column("lab_name", String(255), nullable=False),
    Column("value", Double, nullable=True),
    Column("unit", String(32), nullable=True),
    Column("ref_low", Double, nullable=True, comment="lower reference limit (NULL if none)"),
    Column("ref_high", Double, nullable=True, comment="upper reference limit (NULL if none)"),
    Column("collected_at", TIMESTAMP, nullable=False),
    comment="Laboratory results with LOINC codes, units and reference ranges.",
    **MYSQL_TABLE_ARGS,
)

notes = Table(
    "notes",
    metadata,
    Column("note_id", String(64), primary_key=True),
    Column("patient_id", String(64), ForeignKey("patients.patient_id"), nullable=False),
    Column("encounter_id", String(64), nullable=True),
    Column("note_type", String(32), nullable=False),
    Column("written_at", TIMESTAMP, nullable=False),
    Column("author_role", String(32), nullable=True),
    Column("note_text", Text, nullable=False),
    comment="Free-text clinical notes.",
    **MYSQL_TABLE_ARGS,
)

medgym_meta = Table(
    "medgym_meta",
    metadata,
    Column("meta_key", String(64), primary_key=True),
    Column("meta_value", String(255), nullable=False),
    comment="How this database was built (fixture seed, size, generator version).",
    **MYSQL_TABLE_ARGS,
)

# Indexes on the join and filter keys every clinical question uses (patient, code, time).
for _table, _cols in {
    "encounters": ["patient_id", "start_time"],
    "diagnoses": ["patient_id", "code"],
    "medications": ["patient_id"],
    "vitals": ["patient_id", "encounter_id"],
    "labs": ["patient_id", "loinc_code", "collected_at"],
    "notes": ["patient_id"],
}.items():
    for _col in _cols:
        Index(f"ix_{_table}_{_col}", metadata.tables[_table].c[_col])

# Insertion order respects the foreign keys.
CLINICAL_TABLES: tuple[str, ...] = (
    "patients",
    "encounters",
    "diagnoses",
    "medications",
    "vitals",
    "labs",
    "notes",
)
ALL_TABLES: tuple[str, ...] = (*CLINICAL_TABLES, "medgym_meta")
META_PREFIX = "medgym_"

DATE_COLUMNS = {
    (t.name, c.name) for t in metadata.tables.values() for c in t.columns if isinstance(c.type, Date)
}
TIMESTAMP_COLUMNS = {
    (t.name, c.name) for t in metadata.tables.values() for c in t.columns if isinstance(c.type, DateTime)
}
FLOAT_COLUMNS = {
    (t.name, c.name) for t in metadata.tables.values() for c in t.columns if isinstance(c.type, Double)
}


def column_names(table: str) -> list[str]:
    """Column names of a canonical table, in declaration order."""
    return [c.name for c in metadata.tables[table].columns]


def column_kind(table: str, column: str) -> str:
    """'date', 'timestamp', 'float' or 'text': how a CSV cell of this column is parsed."""
    if (table, column) in DATE_COLUMNS:
        return "date"
    if (table, column) in TIMESTAMP_COLUMNS:
        return "timestamp"
    if (table, column) in FLOAT_COLUMNS:
        return "float"
    return "text"
