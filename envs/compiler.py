"""The stress-scenario compiler: (case, condition, seed) -> Scenario.

The schedule every condition shares keeps the conditions comparable:

* turn 1 describes the patient (presenting complaint, then every fact available at
  the start, grouped by section);
* a follow-up turn asks for the current assessment and what else is needed;
* under D, delayed facts are removed from turn 1 and released at their case-defined
  turn; under I, one contradiction template (chosen with the seeded RNG when the
  case has several) is injected once, at the case's contradiction turn;
* the last turn asks for the final diagnosis and its evidence, and comes after every
  release, so the agent always gets a chance to react to late evidence.

Under O the withheld facts never appear in any scripted turn; in interactive mode
the environment's responder releases them only when asked. The phrasing of the
follow-up prompts is drawn with the seeded RNG, so the same (case, condition, seed)
always yields the same scenario and different seeds vary only surface wording and
template choice.
"""

from __future__ import annotations

import hashlib
import re
from collections import defaultdict

import numpy as np

from medgym.envs.conditions import Condition, parse_condition
from medgym.envs.scenario import (
    InjectedContradiction,
    KeyGap,
    Metadata,
    Protocol,
    Scenario,
    UpdateOpportunity,
    UserTurn,
)
from medgym.knowledge_base.case_schema import Case, FactCategory

BASE_TURNS = 3
FINAL_MARKER = "Final diagnosis:"

FOLLOW_UP_PROMPTS = (
    "What is your current assessment, and is there anything else you would like to know or order?",
    "What do you think is going on at this point, and what further information do you need?",
    "Please share your working diagnosis and any questions or tests you would like before deciding.",
)
DELAYED_LEADS = (
    "New results are now available:",
    "The following results have just come back:",
    "Further investigations are now reported:",
)
CONTRADICTION_LEADS = (
    "Additional information has arrived:",
    "One more note for the record:",
    "Something else was just passed on to us:",
)
FINAL_PROMPT = (
    "Please give your final answer now. Start with 'Final diagnosis:' followed by the diagnosis, "
    "then list the evidence from this case that supports it and your recommended next steps."
)

FINAL_NUDGE = "Please commit to your final diagnosis now. Start with 'Final diagnosis:'."
_FINAL_RE = re.compile(r"\bfinal\s+(?:working\s+)?diagnosis\s*(?:is\s*|[:\-–—]\s*)", re.IGNORECASE)


def has_final_diagnosis(text: str) -> bool:
    """Whether a reply commits to a final diagnosis ("Final diagnosis: ...")."""
    return bool(_FINAL_RE.search(text))


_SECTIONS: list[tuple[str, set[FactCategory]]] = [
    ("History", {FactCategory.history, FactCategory.symptom, FactCategory.social, FactCategory.family}),
    ("Medications and allergies", {FactCategory.medication, FactCategory.allergy}),
    ("Examination", {FactCategory.vital, FactCategory.exam}),
    ("Investigations", {FactCategory.lab, FactCategory.imaging}),
]


def scenario_rng(case_id: str, condition: Condition, seed: int) -> np.random.Generator:
    """An RNG that depends only on (case, condition, seed), never on global state."""
    digest = hashlib.sha256(f"{case_id}|{condition.name}|{seed}".encode()).digest()
    return np.random.default_rng(int.from_bytes(digest[:8], "little"))


def scenario_id(case_id: str, condition: Condition, seed: int) -> str:
    return f"{case_id}::{condition.name}::s{seed}"


def _describe(case: Case, fact_ids: list[str]) -> str:
    """Turn-1 narrative: complaint, then the available facts grouped into sections."""
    idx = case.fact_index
    lines = [f"Patient: {case.patient.age}-year-old {case.patient.sex}.", case.presenting_complaint.strip()]
    chosen = [idx[f] for f in fact_ids]
    for title, cats in _SECTIONS:
        sentences = [f.statement.strip() for f in chosen if f.category in cats]
        if sentences:
            lines.append(f"{title}: " + " ".join(sentences))
    return "\n\n".join(lines)


def compile_scenario(case: Case, condition: str | Condition, seed: int = 0) -> Scenario:
    """Compile ``case`` under ``condition`` with ``seed`` (pure function of its arguments)."""
    cond = parse_condition(condition)
    rng = scenario_rng(case.id, cond, int(seed))
    idx = case.fact_index

    withheld = case.omitted_ids if cond.omission else []
    delayed = {d.fact_id: d.release_turn for d in case.stressors.delay} if cond.delay else {}
    template = None
    if cond.injection:
        templates = case.stressors.contradictions
        template = templates[int(rng.integers(len(templates)))] if len(templates) > 1 else templates[0]
    c_turn = case.stressors.contradiction_turn

    event_turns = [*delayed.values(), *([c_turn] if template else [])]
    final_turn = max(BASE_TURNS, max(event_turns, default=0) + 1)

    hidden = set(withheld) | set(delayed)
    initial = [f.id for f in case.facts if f.id not in hidden]
    releases: dict[int, list[str]] = defaultdict(list)
    for fid in (f.id for f in case.facts):  # case order, deterministic
        if fid in delayed:
            releases[delayed[fid]].append(fid)

    follow_ups = [FOLLOW_UP_PROMPTS[int(rng.integers(len(FOLLOW_UP_PROMPTS)))] for _ in range(final_turn)]
    lead_d = DELAYED_LEADS[int(rng.integers(len(DELAYED_LEADS)))]
    lead_c = CONTRADICTION_LEADS[int(rng.integers(len(CONTRADICTION_LEADS)))]

    turns: list[UserTurn] = []
    release_turn: dict[str, int] = {fid: 1 for fid in initial}
    injected: list[InjectedContradiction] = []
    for t in range(1, final_turn + 1):
        parts: list[str] = []
        kinds: list[str] = []
        released: list[str] = []
        injected_here: list[str] = []
        if t == 1:
            parts.append(_describe(case, initial))
            kinds.append("initial")
            released = list(initial)
        if releases.get(t):
            parts.append(lead_d + " " + " ".join(idx[f].statement.strip() for f in releases[t]))
            kinds.append("delayed_evidence")
            released.extend(releases[t])
            for f in releases[t]:
                release_turn[f] = t
        if template is not None and t == c_turn:
            parts.append(f"{lead_c} {template.statement.strip()}")
            kinds.append("contradiction")
            injected_here.append(template.id)
            injected.append(
                InjectedContradiction(
                    template_id=template.id, fact_id=template.fact_id, turn=t, statement=template.statement
                )
            )
        if t == final_turn:
            parts.append(FINAL_PROMPT)
            kinds.append("final_prompt")
        else:  # every non-final turn, turn 1 included, invites questions
            parts.append(follow_ups[t - 1])
            kinds.append("follow_up")
        turns.append(
            UserTurn(
                index=t,
                text="\n\n".join(parts),
                kinds=kinds,  # type: ignore[arg-type]
                released_facts=released,
                injected_contradictions=injected_here,
            )
        )

    refuters = set(case.leading_alternative.refuted_by)
    opportunities: list[UpdateOpportunity] = []
    for t in sorted(set(releases) | ({c_turn} if template else set())):
        if releases.get(t):
            opportunities.append(
                UpdateOpportunity(
                    turn=t,
                    kind="delayed_evidence",
                    facts=list(releases[t]),
                    requires_substantial_revision=bool(refuters & set(releases[t])),
                )
            )
        if template is not None and t == c_turn:
            opportunities.append(
                UpdateOpportunity(
                    turn=t,
                    kind="contradiction",
                    facts=[template.fact_id],
                    requires_substantial_revision=False,
                )
            )

    gaps = [KeyGap(fact_id=f, reason="omitted", open_until_turn=None) for f in withheld]
    gaps += [
        KeyGap(fact_id=f, reason="delayed", open_until_turn=t)
        for f, t in sorted(delayed.items(), key=lambda kv: (kv[1], kv[0]))
        if idx[f].critical
    ]

    metadata = Metadata(
        condition=cond.name,
        flags=sorted(cond.flags, key="OID".index),
        withheld_facts=list(withheld),
        delayed_facts=dict(delayed),
        injected_contradictions=injected,
        release_turn=release_turn,
    )
    protocol = Protocol(
        key_gaps=gaps,
        contradictions=[i.template_id for i in injected],
        update_opportunities=opportunities,
        follow_up_required=cond.incomplete_information,
        premature_closure_applicable=cond.incomplete_information,
        final_turn=final_turn,
        leading_alternative=case.gold.leading_alternative,
    )
    return Scenario(
        id=scenario_id(case.id, cond, int(seed)),
        case=case,
        condition=cond.name,
        seed=int(seed),
        turns=turns,
        metadata=metadata,
        protocol=protocol,
    )
