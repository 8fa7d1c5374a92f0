"""DataAgent task files: pydantic models, loading, and the task set.

A task is 3-5 rounds of one conversation with a clinician. Each round holds the
user's utterance, the gold SQL and the gold answer (the gold SQL's result on the
default fixture, stored so scoring needs no database round trip and so drift is
caught by a test). An *unanswerable* round has no SQL: the right move is to say
that the data does not hold the answer.

Files live in ``db_fixtures/tasks/*.yaml``, one family per file::

    fixture: {name: medgym-ehr, seed: 7, n_patients: 200, generator_version: 1}
    tasks:
      - id: creatinine_trend_01
        title: ...
        family: creatinine_trend
        portable: false
        rounds:
          - utterance: Which patients have chronic kidney disease?
            kinds: [lookup]
            gold_sql: SELECT DISTINCT patient_id FROM diagnoses WHERE code LIKE 'N18%'
            gold: {columns: [patient_id], rows: [[P0001], ...]}
          - utterance: What did their last renal ultrasound show?
            kinds: [unanswerable]
            unanswerable: true
            unanswerable_reason: the database holds no imaging results

Gold SQL must run unchanged on SQLite, PostgreSQL and MySQL/MariaDB; when a round
truly needs dialect-specific SQL (e.g. extracting a month), ``gold_sql`` holds the
most common form and ``gold_sql_overrides`` the others.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from medgym.datafiles import iter_data_files, read_data_file, validate_record
from medgym.db_fixtures.generator import DEFAULT_PATIENTS, DEFAULT_SEED, FIXTURE_NAME, GENERATOR_VERSION
from medgym.errors import DataValidationError, UnknownNameError
from medgym.registry import did_you_mean

TASK_DIR = Path(__file__).resolve().parent / "tasks"
Dialect = Literal["sqlite", "postgresql", "mysql"]
RoundKind = Literal[
    "lookup",
    "aggregation",
    "join",
    "trend",
    "anomaly",
    "data_quality",
    "temporal",
    "note_search",
    "follow_up",
    "unanswerable",
]
Scalar = str | int | float | None


class FixtureSpec(BaseModel):
    """Which generated database the stored gold answers were computed on."""

    model_config = ConfigDict(extra="forbid")

    name: str = FIXTURE_NAME
    seed: int = DEFAULT_SEED
    n_patients: int = DEFAULT_PATIENTS
    generator_version: int = GENERATOR_VERSION

    def matches_meta(self, meta: dict[str, str]) -> bool:
        """True if a database's ``medgym_meta`` says it is this fixture."""
        return (
            meta.get("fixture") == self.name
            and meta.get("seed") == str(self.seed)
            and meta.get("n_patients") == str(self.n_patients)
            and meta.get("generator_version") == str(self.generator_version)
        )


class GoldAnswer(BaseModel):
    model_config = ConfigDict(extra="forbid")

    columns: list[str]
    rows: list[list[Scalar]]

    @model_validator(mode="after")
    def _shape(self) -> GoldAnswer:
        for i, row in enumerate(self.rows):
            if len(row) != len(self.columns):
                raise ValueError(f"row {i} has {len(row)} cells, expected {len(self.columns)} (columns {self.columns})")
        return self


class TaskRound(BaseModel):
    model_config = ConfigDict(extra="forbid")

    utterance: str = Field(min_length=5, description="What the user says in this round.")
    kinds: list[RoundKind] = Field(min_length=1, description="Round families, for per-kind reporting.")
    gold_sql: str | None = Field(None, description="Portable gold SQL; null for unanswerable rounds.")
    gold_sql_overrides: dict[Dialect, str] = Field(
        default_factory=dict, description="Dialect-specific gold SQL where portable SQL is impossible."
    )
    unanswerable: bool = False
    unanswerable_reason: str | None = None
    gold: GoldAnswer | None = Field(None, description="Result of the gold SQL on the fixture (regenerated).")
    interpretation: str | None = Field(
        None, description="What a good answer's explanation should say (for the optional LLM judge)."
    )

    @model_validator(mode="after")
    def _consistent(self) -> TaskRound:
        if self.unanswerable:
            if self.gold_sql is not None or self.gold_sql_overrides or self.gold is not None:
                raise ValueError("an unanswerable round has no gold_sql, gold_sql_overrides or gold")
            if not self.unanswerable_reason:
                raise ValueError("an unanswerable round needs unanswerable_reason")
            if "unanswerable" not in self.kinds:
                raise ValueError("an unanswerable round must list 'unanswerable' in kinds")
        else:
            if not self.gold_sql or not self.gold_sql.strip():
                raise ValueError("an answerable round needs gold_sql (or set unanswerable: true)")
            if "unanswerable" in self.kinds:
                raise ValueError("kinds lists 'unanswerable' but unanswerable is false")
        return self

    def sql_for(self, dialect: str) -> str | None:
        """The gold SQL to run on ``dialect`` (sqlite, postgresql or mysql)."""
        if self.gold_sql is None:
            return None
        return self.gold_sql_overrides.get(dialect, self.gold_sql)  # type: ignore[call-overload]


class DataTask(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: str = Field(pattern=r"^[a-z0-9][a-z0-9_]*$")
    title: str
    family: str
    portable: bool = Field(
        False, description="Gold SQL uses no fixture-specific codes or ids: meaningful on any canonical database."
    )
    rounds: list[TaskRound] = Field(min_length=3, max_length=5)

    @property
    def n_rounds(self) -> int:
        return len(self.rounds)


class TaskFile(BaseModel):
    model_config = ConfigDict(extra="forbid")

    fixture: FixtureSpec = Field(default_factory=FixtureSpec)
    tasks: list[DataTask] = Field(min_length=1)


class TaskSet:
    """All tasks, by id, with the file each came from and the fixture of its gold answers."""

    def __init__(self, tasks: list[DataTask], fixture: FixtureSpec, sources: dict[str, Path]):
        self._tasks = {t.id: t for t in tasks}
        self.fixture = fixture
        self.sources = sources

    def ids(self) -> list[str]:
        return list(self._tasks)

    def get(self, task_id: str) -> DataTask:
        try:
            return self._tasks[task_id]
        except KeyError:
            known = self.ids()
            raise UnknownNameError("DataAgent task", task_id, known, did_you_mean(task_id, known)) from None

    def __iter__(self):
        return iter(self._tasks.values())

    def __len__(self) -> int:
        return len(self._tasks)

    @property
    def n_rounds(self) -> int:
        return sum(t.n_rounds for t in self)

    def missing_gold(self) -> list[str]:
        return [
            f"{t.id} round {i + 1}" for t in self for i, r in enumerate(t.rounds) if not r.unanswerable and r.gold is None
        ]


def load_task_file(path: Path) -> TaskFile:
    raw = read_data_file(path)
    if not isinstance(raw, dict):
        raise DataValidationError(str(path), [f"expected a mapping with 'fixture' and 'tasks', found {type(raw).__name__}"])
    # validate tasks one by one so an error names the task id
    tasks_raw = raw.get("tasks")
    if not isinstance(tasks_raw, list) or not tasks_raw:
        raise DataValidationError(str(path), ["field 'tasks': expected a non-empty list"])
    tasks = [validate_record(DataTask, t, path, i) for i, t in enumerate(tasks_raw)]
    fixture = validate_record(FixtureSpec, raw.get("fixture") or {}, path)
    extra = set(raw) - {"fixture", "tasks"}
    if extra:
        raise DataValidationError(str(path), [f"unknown top-level field(s) {sorted(extra)}"])
    return TaskFile(fixture=fixture, tasks=tasks)


def load_tasks(paths: Iterable[Path | str] | None = None, require_gold: bool = True) -> TaskSet:
    """Load every task file (default: the packaged ``tasks/`` folder); ids must be unique."""
    files = iter_data_files(list(paths) if paths is not None else [TASK_DIR])
    if not files:
        raise DataValidationError(str(TASK_DIR), ["no task files found"])
    tasks: list[DataTask] = []
    sources: dict[str, Path] = {}
    fixture: FixtureSpec | None = None
    for f in files:
        tf = load_task_file(f)
        if fixture is None:
            fixture = tf.fixture
        elif tf.fixture != fixture:
            raise DataValidationError(str(f), [f"fixture {tf.fixture} differs from {fixture} in other task files"])
        for t in tf.tasks:
            if t.id in sources:
                raise DataValidationError(str(f), [f"duplicate task id {t.id!r} (also in {sources[t.id]})"], t.id)
            sources[t.id] = f
            tasks.append(t)
            if require_gold:
                missing = [i + 1 for i, r in enumerate(t.rounds) if not r.unanswerable and r.gold is None]
                if missing:
                    raise DataValidationError(
                        str(f),
                        [f"rounds {missing} have no stored gold answer; run `medgym data regen-gold`"],
                        t.id,
                    )
    return TaskSet(tasks, fixture or FixtureSpec(), sources)


_DEFAULT: TaskSet | None = None


def default_tasks() -> TaskSet:
    """The packaged task set (loaded once per process)."""
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = load_tasks()
    return _DEFAULT
