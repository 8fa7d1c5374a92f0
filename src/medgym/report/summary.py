"""The summary table printed at the end of ``medgym run``."""

from __future__ import annotations

from pathlib import Path

from medgym.report.load import load_run
from medgym.report.stats import cell_table

HEADLINE = ("GDR", "CDR", "RUR", "PCR", "SMR", "EF", "NFR", "DHDR")


def print_summary(run_dir: str | Path, metrics: tuple[str, ...] = HEADLINE) -> None:
    from rich.console import Console
    from rich.table import Table

    run = load_run(run_dir)
    cells = cell_table(run, n_boot=200)
    table = Table(title=f"medgym summary: {run_dir}", show_lines=False)
    for col in ("agent", "condition", "ok/unsc/err", "dx✓", *metrics):
        table.add_column(col, justify="right" if col not in ("agent", "condition") else "left")
    for (a, c), cell in cells.items():
        s = cell.status
        vals = []
        for m in metrics:
            r = cell.rows.get(m)
            vals.append("N/A" if r is None or r.mean is None else f"{r.mean:.2f}")
        fc = "N/A" if cell.final_correct is None else f"{cell.final_correct:.2f}"
        table.add_row(a, c, f"{s.get('ok', 0)}/{s.get('unscored', 0)}/{s.get('error', 0)}", fc, *vals)
    Console(stderr=False, width=max(140, Console().width)).print(table)
