"""Reports generated from run directories alone (results.jsonl + manifest.json).

    from medgym.report import write_report
    paths = write_report(["runs/main"])              # report of one run
    paths = write_report(["runs/a", "runs/b"])       # plus a side-by-side comparison
"""

from __future__ import annotations

from pathlib import Path

from medgym.errors import MedgymError


def write_report(run_dirs: list[str | Path], out: str | Path | None = None,
                 compare_agents: tuple[str, str] | None = None, seed: int = 0) -> dict[str, str]:  # fmt: skip
    from medgym.report.compare import compare_lines, write_compare
    from medgym.report.load import load_run
    from medgym.report.markdown import write_markdown
    from medgym.report.stats import cell_table

    if not run_dirs or len(run_dirs) > 2:
        raise MedgymError(f"expected one or two run directories, got {len(run_dirs)}")
    runs = [load_run(d) for d in run_dirs]
    cells = [cell_table(r, seed=seed) for r in runs]
    first = runs[0]
    out_dir = Path(out) if out else first.run_dir / "report"
    paths = {"markdown": str(write_markdown(first, cells[0], out_dir))}
    if len(runs) == 2:
        shared_agents = sorted(set(runs[0].agents) & set(runs[1].agents))
        if not shared_agents:
            raise MedgymError(f"the runs share no agent ({runs[0].agents} vs {runs[1].agents}); nothing to compare")
        pairs = [((a, c), (a, c)) for a in shared_agents for c in first.conditions if c in runs[1].conditions]
        lines = compare_lines(cells[0], cells[1], pairs, runs[0].label, runs[1].label)
        paths["compare"] = str(write_compare(lines, out_dir / f"compare_{runs[0].label}_vs_{runs[1].label}.md"))
    if compare_agents:
        a, b = compare_agents
        for name in (a, b):
            if name not in first.agents:
                raise MedgymError(f"agent {name!r} is not in {first.run_dir} (agents: {', '.join(first.agents)})")
        pairs = [((a, c), (b, c)) for c in first.conditions]
        lines = compare_lines(cells[0], cells[0], pairs, a, b)
        paths["compare_agents"] = str(write_compare(lines, out_dir / f"compare_{a}_vs_{b}.md"))
    return paths


__all__ = ["write_report"]
