"""Reading a run directory: manifest plus the latest record per episode."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from medgym.errors import MedgymError
from medgym.runner.manifest import load_manifest
from medgym.runner.store import RESULTS_FILE, read_results


@dataclass
class RunData:
    run_dir: Path
    manifest: dict[str, Any] | None
    records: list[dict[str, Any]]
    label: str = ""
    judge_results: list[dict[str, Any]] = field(default_factory=list)

    @property
    def agents(self) -> list[str]:
        return sorted({r["agent"] for r in self.records})

    @property
    def conditions(self) -> list[str]:
        from medgym.envs.conditions import CONDITION_NAMES

        present = {r["condition"] for r in self.records}
        return [c for c in CONDITION_NAMES if c in present]

    @property
    def repeats(self) -> int:
        return max((r.get("repeat", 0) for r in self.records), default=0) + 1


def load_run(run_dir: str | Path) -> RunData:
    p = Path(run_dir)
    if not (p / RESULTS_FILE).exists():
        raise MedgymError(f"{p} is not a run directory: no {RESULTS_FILE} (run `medgym run --out {p}` first)")
    records = sorted(read_results(p).values(), key=lambda r: r["key"])
    judged = []
    for r in records:
        j = r.get("judge")
        if isinstance(j, dict):
            judged.append({**j, "agent": r["agent"], "condition": r["condition"], "case_id": r["case_id"]})
        elif r.get("status") == "unscored":  # judge raised: count it as unscored, never as a score
            judged.append({"status": "unscored", "reason": (r.get("error") or {}).get("message"), "judge": "?",
                           "judge_version": "?", "agent": r["agent"], "condition": r["condition"],
                           "case_id": r["case_id"]})
    return RunData(p, load_manifest(p), records, label=p.name, judge_results=judged)
