"""Delta-versus-baseline heatmaps (the analogue of MedBench v5's Figure 4).

Rows are the stressed conditions. The left panel holds the metrics that have a baseline
value: the number in a cell is the raw change from baseline, and the colour is that
change oriented by the metric's direction, so red always means worse and green better.
Many audit metrics exist only under a stressor (CDR needs an injected contradiction,
GDR a gap): they have no baseline, so the right panel shows their absolute values, coloured
by distance from the ideal (green = ideal, red = worst). Not-applicable cells are grey
and say N/A.
"""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # files only, never a display
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from medgym.judges.metrics import METRICS  # noqa: E402
from medgym.report.stats import METRIC_ORDER, CellStats, oriented_delta  # noqa: E402


def _mean(cells: dict[tuple[str, str], CellStats], agent: str, cond: str, m: str) -> float | None:
    cell = cells.get((agent, cond))
    return cell.rows[m].mean if cell and m in cell.rows else None


def split_metrics(cells: dict[tuple[str, str], CellStats], agent: str) -> tuple[list[str], list[str]]:
    """(metrics with a baseline value, metrics defined only under stress)."""
    with_base = [m for m in METRIC_ORDER if _mean(cells, agent, "baseline", m) is not None]
    return with_base, [m for m in METRIC_ORDER if m not in with_base]


def oriented_value(metric: str, v: float) -> float:
    """Absolute value mapped so 1 is ideal and 0 worst (for colouring stress-only metrics)."""
    return v if METRICS.get(metric).direction == "higher" else 1.0 - min(v, 1.0)


def delta_matrix(cells, agent: str, conditions: list[str], metrics: list[str]):
    stressed = [c for c in conditions if c != "baseline"]
    raw = np.full((len(stressed), len(metrics)), np.nan)
    good = np.full_like(raw, np.nan)
    for i, cond in enumerate(stressed):
        for j, m in enumerate(metrics):
            v, b = _mean(cells, agent, cond, m), _mean(cells, agent, "baseline", m)
            if v is not None and b is not None:
                raw[i, j] = v - b
                good[i, j] = oriented_delta(m, v, b)
    return stressed, raw, good


def absolute_matrix(cells, agent: str, conditions: list[str], metrics: list[str]):
    stressed = [c for c in conditions if c != "baseline"]
    raw = np.full((len(stressed), len(metrics)), np.nan)
    good = np.full_like(raw, np.nan)
    for i, cond in enumerate(stressed):
        for j, m in enumerate(metrics):
            v = _mean(cells, agent, cond, m)
            if v is not None:
                raw[i, j] = v
                good[i, j] = oriented_value(m, v)
    return stressed, raw, good


def _panel(ax, raw, good, metrics, rows, vmin, vmax, fmt, title):
    cmap = matplotlib.colormaps["RdYlGn"].with_extremes(bad="#d9d9d9")
    ax.imshow(np.ma.masked_invalid(good), cmap=cmap, vmin=vmin, vmax=vmax, aspect="auto")
    ax.set_xticks(range(len(metrics)))
    ax.set_xticklabels([f"{m}{'↑' if METRICS.get(m).direction == 'higher' else '↓'}" for m in metrics],
                       rotation=60, ha="right", fontsize=8)  # fmt: skip
    ax.set_yticks(range(len(rows)))
    ax.set_yticklabels(rows, fontsize=9)
    for i in range(len(rows)):
        for j in range(len(metrics)):
            txt = "N/A" if np.isnan(raw[i, j]) else fmt.format(raw[i, j])
            ax.text(j, i, txt, ha="center", va="center", fontsize=6.5, color="#222222")
    ax.set_title(title, fontsize=9)


def plot_agent(cells: dict[tuple[str, str], CellStats], agent: str, conditions: list[str], path: Path) -> Path:
    with_base, stress_only = split_metrics(cells, agent)
    panels = [p for p in (("delta", with_base), ("abs", stress_only)) if p[1]]
    widths = [max(len(ms), 2) for _, ms in panels]
    stressed = [c for c in conditions if c != "baseline"]
    fig, axes = plt.subplots(1, len(panels), figsize=(max(8, 0.62 * sum(widths) + 2), 1.4 + 0.55 * len(stressed)),
                             gridspec_kw={"width_ratios": widths}, squeeze=False)  # fmt: skip
    for ax, (kind, metrics) in zip(axes[0], panels, strict=True):
        if kind == "delta":
            rows, raw, good = delta_matrix(cells, agent, conditions, metrics)
            lim = max(float(np.nanmax(np.abs(good))) if np.isfinite(good).any() else 1.0, 0.05)
            _panel(ax, raw, good, metrics, rows, -lim, lim, "{:+.2f}", "change vs baseline (green better, red worse)")
        else:
            rows, raw, good = absolute_matrix(cells, agent, conditions, metrics)
            _panel(ax, raw, good, metrics, rows, 0.0, 1.0, "{:.2f}",
                   "no baseline (stress-only): absolute value, green = ideal")  # fmt: skip
    fig.suptitle(f"{agent}: metrics under stress (↑/↓ = direction of better)", fontsize=10)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path
