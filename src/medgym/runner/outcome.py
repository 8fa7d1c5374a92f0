"""Outcome of an episode beyond the process metrics: did the final answer name the gold diagnosis?

pass^k (the chance that all k repeats of a scenario pass) needs a binary pass per
episode. The paper's audit metrics are process measures, so the pass criterion is
the outcome a physician would check first: the committed final diagnosis matches
the gold diagnosis or one of its accepted aliases, not negated.
"""

from __future__ import annotations

import re

from medgym.envs.trajectory import Trajectory
from medgym.text.fact_matcher import matcher_for

_FINAL_LINE = re.compile(r"final\s+(?:working\s+)?diagnosis\s*(?:is\s*|[:\-–—]\s*)(?P<dx>[^\n]*)", re.IGNORECASE)


def final_diagnosis_text(reply: str) -> str | None:
    """The text after the last "Final diagnosis:" marker, up to the end of its line."""
    hits = list(_FINAL_LINE.finditer(reply))
    return hits[-1].group("dx").strip() if hits else None


def final_correct(traj: Trajectory) -> bool | None:
    """True/False when the final reply commits to a diagnosis; None when it never commits."""
    if not traj.turns:
        return None
    dx = final_diagnosis_text(traj.final_response)
    if dx is None:
        return None
    gold = traj.scenario.case.gold.diagnosis.name
    mentions = matcher_for(traj.scenario.case).diagnosis_mentions(dx)
    return any(m.item_id == gold and not m.negated for m in mentions)
