"""Failure profiles: which node degrades most under which stressor, in sentences backed by numbers."""

from __future__ import annotations

from medgym.judges.metrics import ALL_NODES, METRICS, metrics_of_node
from medgym.report.stats import CellStats, oriented_delta

NODE_LABELS = {
    "gap_detection": "information gap detection",
    "follow_up": "follow-up strategy",
    "contradiction": "contradiction detection",
    "diagnosis_update": "diagnosis update",
    "evidence_grounding": "evidence grounding",
    "initiation": "hallucination initiation",
    "propagation": "hallucination propagation",
    "anchoring": "hallucination anchoring",
    "interaction": "hallucination-contradiction interaction",
}


def degradations(cells: dict[tuple[str, str], CellStats], agent: str, conditions: list[str]):
    """(oriented delta, node, condition, metric, base, value), worst first; only real comparisons."""
    base = cells.get((agent, "baseline"))
    out = []
    if base is None:
        return out
    for cond in conditions:
        if cond == "baseline" or (agent, cond) not in cells:
            continue
        cell = cells[(agent, cond)]
        for node in ALL_NODES:
            for m in metrics_of_node(node):
                b = base.rows.get(m)
                v = cell.rows.get(m)
                d = oriented_delta(m, v.mean if v else None, b.mean if b else None)
                if d is not None:
                    out.append((d, node, cond, m, b.mean, v.mean))
    out.sort(key=lambda x: x[0])
    return out


def agent_profile(cells: dict[tuple[str, str], CellStats], agent: str, conditions: list[str],
                  threshold: float = 0.05) -> list[str]:  # fmt: skip
    degr = degradations(cells, agent, conditions)
    if not degr:
        return [f"No baseline-versus-stressor comparison is available for {agent} (a baseline run is needed)."]
    worst_per_node: dict[str, tuple] = {}
    for d in degr:
        worst_per_node.setdefault(d[1], d)
    ranked = sorted(worst_per_node.values(), key=lambda x: x[0])
    sentences = []
    bad = [r for r in ranked if r[0] <= -threshold]
    if not bad:
        return [f"{agent} shows no degradation larger than {threshold:.2f} on any node under any stressor."]
    d, node, cond, m, b, v = bad[0]
    sentences.append(
        f"{agent}'s most fragile node is {NODE_LABELS[node]}: under {cond}, {m} goes from {b:.2f} at baseline to "
        f"{v:.2f} ({'higher' if METRICS.get(m).direction == 'higher' else 'lower'} is better; a loss of {abs(d):.2f})."
    )
    for _d, node, cond, m, b, v in bad[1:4]:
        sentences.append(f"{NODE_LABELS[node].capitalize()} degrades most under {cond} ({m} {b:.2f} → {v:.2f}).")
    stable = [NODE_LABELS[n] for n, r in worst_per_node.items() if r[0] > -threshold]
    if stable:
        sentences.append("Stable across stressors (no loss above {:.2f}): {}.".format(threshold, ", ".join(stable)))
    return sentences
