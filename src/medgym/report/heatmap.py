"""Delta-versus-baseline heatmaps (the analogue of MedBench v5's Figure 4).

Rows are the stressed conditions, columns the metrics. The number in a cell is the
raw change from baseline; the colour is the change oriented by the metric's
direction, so red always means worse and green better, whichever way the metric
points. Not-applicable cells are grey and say N/A.
"""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # files only, never a display
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from medgym.judges.metrics import METRICS  # noqa: E402
from medgym.report.stats import METRIC_ORDER, CellStats, oriented_delta  # noqa: E402


def delta_matrix(cells: dict[tuple[str, str], CellStats], agent: str, conditions: list[str]):
    stressed = [c for c in conditions if c != "baseline"]
    base = cells.get((agent, "baseline"))
    raw = np.full((len(stressed), len(METRIC_ORDER)), np.nan)
    good = np.full_like(raw, np.nan)
    for i, cond in enumerate(stressed):
        cell = cells.get((agent, cond))
        for j, m in enumerate(METRIC_ORDER):
            v = cell.rows[m].mean if cell and m in cell.rows else None
            b = base.rows[m].mean if base and m in base.rows else None
            if v is not None and b is not None:
                raw[i, j] = v - b
                good[i, j] = oriented_delta(m, v, b)
    return stressed, raw, good


def plot_agent(cells: dict[tuple[str, str], CellStats], agent: str, conditions: list[str], path: Path) -> Path:
    stressed, raw, good = delta_matrix(cells, agent, conditions)
    fig, ax = plt.subplots(figsize=(max(8, 0.62 * len(METRIC_ORDER)), 1.0 + 0.55 * len(stressed)))
    lim = float(np.nanmax(np.abs(good))) if np.isfinite(good).any() else 1.0
    lim = max(lim, 0.05)
    cmap = matplotlib.colormaps["RdYlGn"].copy()
    cmap.set_bad("#d9d9d9")
    ax.imshow(np.ma.masked_invalid(good), cmap=cmap, vmin=-lim, vmax=lim, aspect="auto")
    ax.set_xticks(range(len(METRIC_ORDER)))
    ax.set_xticklabels([f"{m}{'↑' if METRICS.get(m).direction == 'higher' else '↓'}" for m in METRIC_ORDER],
                       rotation=60, ha="right", fontsize=8)  # fmt: skip
    ax.set_yticks(range(len(stressed)))
    ax.set_yticklabels(stressed, fontsize=9)
    for i in range(len(stressed)):
        for j in range(len(METRIC_ORDER)):
            txt = "N/A" if np.isnan(raw[i, j]) else f"{raw[i, j]:+.2f}"
            ax.text(j, i, txt, ha="center", va="center", fontsize=6.5, color="#333333")
    ax.set_title(f"{agent}: change vs baseline (green = better, red = worse; ↑/↓ = metric direction)", fontsize=10)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path
