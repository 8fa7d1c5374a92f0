"""Side-by-side comparison of two runs, or of two agents within one run."""

from __future__ import annotations

from pathlib import Path

from medgym.judges.metrics import ALL_METRICS, METRICS
from medgym.report.stats import CellStats, oriented_delta


def compare_lines(
    left: dict[tuple[str, str], CellStats], right: dict[tuple[str, str], CellStats],
    pairs: list[tuple[tuple[str, str], tuple[str, str]]], left_name: str, right_name: str,
) -> list[str]:  # fmt: skip
    lines = [
        f"# Comparison: {left_name} vs {right_name}",
        "",
        "Δ = right − left; ✓ marks a change in the metric's better direction, ✗ a change for the worse "
        "(|Δ| ≥ 0.01). N/A is never treated as 0.",
        "",
        "| condition | metric | " + f"{left_name} | {right_name} | Δ | |",
        "|---|---|---|---|---|---|",
    ]
    for (lk, rk) in pairs:
        lc, rc = left.get(lk), right.get(rk)
        for m in ALL_METRICS:
            lv = lc.rows[m].mean if lc and m in lc.rows else None
            rv = rc.rows[m].mean if rc and m in rc.rows else None
            if lv is None and rv is None:
                continue
            d = None if lv is None or rv is None else rv - lv
            od = oriented_delta(m, rv, lv)
            mark = "" if od is None or abs(od) < 0.01 else ("✓" if od > 0 else "✗")
            arrow = "↑" if METRICS.get(m).direction == "higher" else "↓"
            lines.append(f"| {lk[1]} | {m} {arrow} | {_f(lv)} | {_f(rv)} | {'N/A' if d is None else f'{d:+.3f}'} | {mark} |")
    return lines


def _f(v: float | None) -> str:
    return "N/A" if v is None else f"{v:.3f}"


def write_compare(lines: list[str], path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path
