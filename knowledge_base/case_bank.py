"""The case bank: every case file under ``knowledge_base/cases/`` loaded and cross-checked.

Loading is all-or-nothing: if any file is invalid, or two files share an id, the
whole load raises :class:`~medgym.errors.DataValidationError` naming the file, so a
half-loaded bank can never skew an evaluation.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

from medgym.datafiles import iter_data_files, load_records
from medgym.errors import DataValidationError, UnknownNameError
from medgym.knowledge_base.case_schema import Case
from medgym.registry import did_you_mean

CASES_DIR = Path(__file__).resolve().parent / "cases"


def load_case_file(path: Path | str) -> list[Case]:
    """Load one YAML/JSON file holding a case or a list of cases (``{"cases": [...]}`` also works)."""
    return load_records(Case, Path(path), list_key="cases")


class CaseBank:
    """An immutable, ordered collection of validated cases, looked up by id."""

    def __init__(self, cases: Iterable[Case], sources: dict[str, str] | None = None):
        self._cases: dict[str, Case] = {}
        self.sources: dict[str, str] = dict(sources or {})
        for case in cases:
            if case.id in self._cases:
                raise DataValidationError(
                    self.sources.get(case.id, "<memory>"), [f"duplicate case id {case.id!r}"], case.id
                )
            self._cases[case.id] = case

    @classmethod
    def load(cls, paths: Iterable[Path | str] | None = None) -> CaseBank:
        """Load every case file in ``paths`` (files or directories; default: the packaged bank)."""
        files = iter_data_files([CASES_DIR] if paths is None else paths)
        cases: list[Case] = []
        sources: dict[str, str] = {}
        for f in files:
            for case in load_case_file(f):
                if case.id in sources:
                    raise DataValidationError(
                        str(f), [f"case id {case.id!r} is already defined in {sources[case.id]}"], case.id
                    )
                sources[case.id] = str(f)
                cases.append(case)
        return cls(cases, sources)

    def get(self, case_id: str) -> Case:
        try:
            return self._cases[case_id]
        except KeyError:
            known = self.ids()
            raise UnknownNameError("case id", case_id, known, did_you_mean(case_id, known)) from None

    def ids(self) -> list[str]:
        return list(self._cases)

    def __iter__(self):
        return iter(self._cases.values())

    def __len__(self) -> int:
        return len(self._cases)

    def __contains__(self, case_id: object) -> bool:
        return case_id in self._cases

    def filter(
        self,
        ids: Iterable[str] | None = None,
        specialty: str | None = None,
        track: str | None = None,
        difficulty: str | None = None,
        care_stage: str | None = None,
    ) -> list[Case]:
        """Cases matching every given criterion; unknown ids raise with a suggestion."""
        chosen = [self.get(i) for i in ids] if ids else list(self)

        def ok(c: Case) -> bool:
            return (
                (specialty is None or c.specialty == specialty)
                and (track is None or c.track.value == track)
                and (difficulty is None or c.difficulty.value == difficulty)
                and (care_stage is None or c.care_stage.value == care_stage)
            )

        return [c for c in chosen if ok(c)]

    def stats(self) -> dict[str, dict[str, int]]:
        """Counts per specialty, difficulty level, care stage and track (for reports and docs)."""
        return {
            "specialty": dict(sorted(Counter(c.specialty for c in self).items())),
            "difficulty": dict(sorted(Counter(c.difficulty.value for c in self).items())),
            "care_stage": dict(sorted(Counter(c.care_stage.value for c in self).items())),
            "track": dict(sorted(Counter(c.track.value for c in self).items())),
        }


@functools.lru_cache(maxsize=1)
def default_bank() -> CaseBank:
    """The packaged case bank, loaded once per process."""
    return CaseBank.load()
