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
    """(oriented loss, node, condition, metric, reference, value), worst first.

    The reference is the baseline value when the metric has one; metrics that exist
    only under a stressor (GDR, CDR, RUR...) are compared with their ideal value
    (1 for higher-is-better, 0 for lower-is-better), and the sentence says so.
    """
    base = cells.get((agent, "baseline"))
    out = []
    for cond in conditions:
        if cond == "baseline" or (agent, cond) not in cells:
            continue
        cell = cells[(agent, cond)]
        for node in ALL_NODES:
            for m in metrics_of_node(node):
                b = base.rows.get(m) if base else None
                v = cell.rows.get(m)
                if v is None or v.mean is None:
                    continue
                ref = b.mean if b is not None and b.mean is not None else None
                if ref is None:  # stress-only metric: shortfall from the ideal
                    ideal = 1.0 if METRICS.get(m).direction == "higher" else 0.0
                    d = oriented_delta(m, v.mean, ideal)
                    out.append((d, node, cond, m, None, v.mean))
                else:
                    out.append((oriented_delta(m, v.mean, ref), node, cond, m, ref, v.mean))
    out.sort(key=lambda x: x[0])
    return out


def agent_profile(cells: dict[tuple[str, str], CellStats], agent: str, conditions: list[str],
                  threshold: float = 0.05) -> list[str]:  # fmt: skip
    degr = degradations(cells, agent, conditions)
    if not degr:
        return [f"No stressed condition with scored metrics is available for {agent}."]
    worst_per_node: dict[str, tuple] = {}
    for d in degr:
        worst_per_node.setdefault(d[1], d)
    ranked = sorted(worst_per_node.values(), key=lambda x: x[0])
    sentences = []
    bad = [r for r in ranked if r[0] <= -threshold]
    if not bad:
        return [f"{agent} shows no degradation larger than {threshold:.2f} on any node under any stressor."]
    d, node, cond, m, b, v = bad[0]
    better = "higher" if METRICS.get(m).direction == "higher" else "lower"
    if b is None:
        sentences.append(
            f"{agent}'s most fragile node is {NODE_LABELS[node]}: under {cond}, {m} is {v:.2f} ({better} is better; "
            f"{abs(d):.2f} short of ideal; the metric has no baseline value)."
        )
    else:
        sentences.append(
            f"{agent}'s most fragile node is {NODE_LABELS[node]}: under {cond}, {m} goes from {b:.2f} at baseline "
            f"to {v:.2f} ({better} is better; a loss of {abs(d):.2f})."
        )
    for _d, node, cond, m, b, v in bad[1:4]:
        ref = f"{b:.2f} at baseline" if b is not None else "ideal"
        sentences.append(f"{NODE_LABELS[node].capitalize()} degrades most under {cond} ({m} {v:.2f} vs {ref}).")
    stable = [NODE_LABELS[n] for n, r in worst_per_node.items() if r[0] > -threshold]
    if stable:
        sentences.append("Stable across stressors (no loss above {:.2f}): {}.".format(threshold, ", ".join(stable)))
    return sentences
