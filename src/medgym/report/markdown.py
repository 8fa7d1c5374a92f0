"""The Markdown report of one run: tables with n and CIs, heatmaps, failure profiles, pass^k."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from medgym.judges.metrics import AUDIT_METRICS, HALLUCINATION_METRICS, METRICS
from medgym.report.heatmap import plot_agent
from medgym.report.load import RunData
from medgym.report.profile import agent_profile
from medgym.report.stats import CellStats


def fmt_cell(row) -> str:
    if row is None or row.mean is None:
        return "N/A"
    ci = "" if row.ci_low is None else f" [{row.ci_low:.2f}, {row.ci_high:.2f}]"
    return f"{row.mean:.3f}{ci} (n={row.n})"


def metric_table(cells: dict[tuple[str, str], CellStats], metrics: Iterable[str], agents: list[str],
                 conditions: list[str]) -> list[str]:  # fmt: skip
    metrics = list(metrics)
    arrows = [f"{m} {'↑' if METRICS.get(m).direction == 'higher' else '↓'}" for m in metrics]
    lines = ["| agent | condition | " + " | ".join(arrows) + " |", "|" + "---|" * (len(metrics) + 2)]
    for a in agents:
        for c in conditions:
            cell = cells.get((a, c))
            if cell is None:
                continue
            lines.append(f"| {a} | {c} | " + " | ".join(fmt_cell(cell.rows.get(m)) for m in metrics) + " |")
    return lines


def status_table(cells: dict[tuple[str, str], CellStats], agents: list[str], conditions: list[str]) -> list[str]:
    k = next(iter(cells.values())).k if cells else 1
    head = "| agent | condition | episodes | ok | unscored | error | final dx correct |"
    sep = "|---|---|---|---|---|---|---|"
    if k > 1:
        head += f" pass^{k} |"
        sep += "---|"
    lines = [head, sep]
    for a in agents:
        for c in conditions:
            cell = cells.get((a, c))
            if cell is None:
                continue
            s = cell.status
            fc = "N/A" if cell.final_correct is None else f"{cell.final_correct:.3f}"
            row = f"| {a} | {c} | {sum(s.values())} | {s.get('ok', 0)} | {s.get('unscored', 0)} | {s.get('error', 0)} | {fc} |"
            if k > 1:
                row += " N/A |" if cell.pass_k is None else f" {cell.pass_k:.3f} |"
            lines.append(row)
    return lines


def write_markdown(run: RunData, cells: dict[tuple[str, str], CellStats], out_dir: Path) -> Path:
    agents, conditions = run.agents, run.conditions
    m = run.manifest or {}
    cfg = m.get("config", {})
    lines = [
        f"# medgym stress-audit report: `{run.run_dir}`",
        "",
        f"- judge: `{cfg.get('judge', '?')}`; mode: `{cfg.get('mode', '?')}`; agents: {', '.join(agents)}; "
        f"conditions: {', '.join(conditions)}; episodes: {len(run.records)}",
        f"- git revision: `{(m.get('git') or {}).get('revision')}`; medgym {m.get('packages', {}).get('medgym')}; "
        f"created {m.get('created_at')}",
        "",
        "Cells show the macro-average over applicable, scored samples, its seeded bootstrap 95% CI and n. "
        "**N/A** means no sample had a non-zero denominator (never 0). IR and PCR are set-level ratios over the "
        "applicable scenarios (conditions with O or D). ↑ higher is better, ↓ lower is better. Unscored episodes "
        "(judge failure) and errors (agent/API failure) are counted below and excluded from every metric.",
        "",
        "## Episodes",
        "",
        *status_table(cells, agents, conditions),
        "",
        "## Five-node process audit",
        "",
        *metric_table(cells, AUDIT_METRICS, agents, conditions),
        "",
        "## Hallucination propagation",
        "",
        *metric_table(cells, HALLUCINATION_METRICS, agents, conditions),
        "",
        "## Change versus baseline",
        "",
    ]
    if "baseline" in conditions and len(conditions) > 1:
        for a in agents:
            png = plot_agent(cells, a, conditions, out_dir / f"heatmap_{_slug(a)}.png")
            lines += [f"### {a}", "", f"![{a} delta heatmap]({png.name})", ""]
    else:
        lines += ["(needs the baseline and at least one stressed condition)", ""]
    lines += ["## Failure profiles", ""]
    for a in agents:
        lines += [f"**{a}.** " + " ".join(agent_profile(cells, a, conditions)), ""]
    errors = [r for r in run.records if r["status"] != "ok"]
    if errors:
        lines += ["## Unscored and failed episodes", "", "| key | status | stage | reason |", "|---|---|---|---|"]
        for r in errors[:50]:
            e = r.get("error") or {}
            msg = str(e.get("message", "")).replace("|", "/").replace("\n", " ")[:160]
            lines.append(f"| `{r['key']}` | {r['status']} | {e.get('stage', '')} | {msg} |")
        if len(errors) > 50:
            lines.append(f"| … | {len(errors) - 50} more | | |")
        lines.append("")
    path = out_dir / "report.md"
    out_dir.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _slug(s: str) -> str:
    return "".join(ch if ch.isalnum() or ch in "-_" else "_" for ch in s)
