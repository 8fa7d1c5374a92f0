"""Offline reference clinicians, ``careful`` and ``sloppy``: deterministic LangGraph rule graphs.

They exist so the main job runs with no LLM, and to prove the audit metrics
discriminate: ``careful`` should beat ``sloppy`` on CDR, RUR, PCR, NFR and DHDR on
every case of the bank.

Their "medical knowledge" is the case's structured catalogue, read through
``info["case_id"]``: fact names and categories (what could be ordered), which facts
are critical and objective, the differential with its ``refuted_by`` relations, and
the key-evidence relation of the final diagnosis. They never read the value or the
statement of a fact the environment has not released to them, and they work on any
case through these structures, never through per-case code.

Graph: ``observe`` (what did this turn release or contradict?) -> ``assess`` (rank
the candidate diagnoses on released evidence) -> ``compose`` (the reply, in the
agent's style). State persists across turns inside the agent object.

* ``careful`` asks for missing critical objective evidence, flags contradictions and
  asks for confirmation, keeps the differential open (hedged language, no
  commitment) until the final prompt, revises its leading diagnosis when evidence
  refutes it, and cites only released facts, verbatim.
* ``sloppy`` anchors on the story's first impression (the case's leading alternative) and
  commits to it on turn 1, invents plausible
  values for unreleased critical numbers, accepts injected statements as evidence,
  never revises, and cites its inventions in the final answer.
"""

from __future__ import annotations

import hashlib
import re
from typing import Any, Literal, TypedDict

import numpy as np
from langgraph.graph import END, START, StateGraph

from medgym.knowledge_base.case_bank import CaseBank, default_bank
from medgym.knowledge_base.case_schema import Case, Diagnosis, Fact
from medgym.text.fact_matcher import matcher_for
from medgym.text.sentences import split_sentences

Style = Literal["careful", "sloppy"]
_FINAL_PROMPT_RE = re.compile(r"final (?:answer|diagnosis)", re.IGNORECASE)


class ClinicianState(TypedDict, total=False):
    case_id: str
    observation: str
    turn: int
    final_prompt: bool
    released: list[str]
    newly_released: list[str]
    conflicts: list[dict[str, str]]
    new_conflicts: list[dict[str, str]]
    asked: list[str]
    leading: str
    leading_history: list[str]
    fabricated: list[str]
    reply: str


def _fmt_num(v: float) -> str:
    return f"{v:.0f}" if abs(v - round(v)) < 1e-9 else f"{v:.1f}"


class ReferenceClinician:
    """A compiled LangGraph rule graph behind the ``act(observation, info)`` protocol."""

    def __init__(self, style: Style = "careful", case_bank: CaseBank | None = None):
        if style not in ("careful", "sloppy"):
            raise ValueError(f"style must be 'careful' or 'sloppy', got {style!r}")
        self.style: Style = style
        self.name = style
        self.bank = case_bank
        self.graph = self._build_graph()
        self.state: ClinicianState = {}

    # ------------------------------------------------------------------ protocol
    def reset(self) -> None:
        self.state = {}

    def act(self, observation: str, info: dict[str, Any]) -> str:
        case_id = info.get("case_id")
        if not case_id:
            raise ValueError("the reference clinicians need info['case_id'] (StressedDialogue provides it)")
        if self.state.get("case_id") != case_id:
            self.state = {"case_id": case_id, "turn": 0, "released": [], "conflicts": [], "asked": [],
                          "leading_history": [], "fabricated": []}  # fmt: skip
        self.state["observation"] = observation
        self.state = self.graph.invoke(self.state)
        return self.state["reply"]

    # --------------------------------------------------------------------- graph
    def _build_graph(self):
        g = StateGraph(ClinicianState)
        g.add_node("observe", self._observe)
        g.add_node("assess", self._assess)
        g.add_node("compose", self._compose_careful if self.style == "careful" else self._compose_sloppy)
        g.add_edge(START, "observe")
        g.add_edge("observe", "assess")
        g.add_edge("assess", "compose")
        g.add_edge("compose", END)
        return g.compile()

    def _case(self, state: ClinicianState) -> Case:
        return (self.bank or default_bank()).get(state["case_id"])

    # observe: which facts did this turn release, and does anything conflict with them?
    def _observe(self, state: ClinicianState) -> ClinicianState:
        case = self._case(state)
        obs = state["observation"]
        prev = list(state.get("released", []))
        new = [f.id for f in case.facts if f.id not in prev and f.statement.strip() in obs]
        residue = obs
        for f in case.facts:
            residue = residue.replace(f.statement.strip(), " ")
        m = matcher_for(case)
        conflicts: list[dict[str, str]] = []
        seen_items = {c["item"] for c in state.get("conflicts", [])}
        for sent in split_sentences(residue):
            for men in m.mentions(sent.text, ("contradiction", "fact")):
                if men.kind == "contradiction":
                    tpl = next(t for t in case.stressors.contradictions if t.id == men.item_id)
                    fact_id, item = tpl.fact_id, tpl.item
                elif men.item_id in prev:
                    fact_id, item = men.item_id, men.text
                else:
                    continue
                if item in seen_items:
                    continue
                seen_items.add(item)
                conflicts.append({"item": item, "fact_id": fact_id, "sentence": sent.text})
        return {
            "turn": state.get("turn", 0) + 1,
            "released": prev + new,
            "newly_released": new,
            "new_conflicts": conflicts,
            "conflicts": list(state.get("conflicts", [])) + conflicts,
            "final_prompt": bool(_FINAL_PROMPT_RE.search(obs)),
        }

    # assess: rank candidate diagnoses on released evidence only
    def _assess(self, state: ClinicianState) -> ClinicianState:
        case = self._case(state)
        released = set(state["released"])
        if self.style == "sloppy":  # anchors on the story's first impression and never revises
            leading = state.get("leading") or case.gold.leading_alternative
            return {"leading": leading, "leading_history": [*state.get("leading_history", []), leading]}
        leading = self.rank(case, released)[0].name
        return {"leading": leading, "leading_history": [*state.get("leading_history", []), leading]}

    @staticmethod
    def rank(case: Case, released: set[str]) -> list[Diagnosis]:
        """Candidates ordered by released support; refuted ones last.

        The story's leading alternative starts ahead (a prior of 1.5); each released
        critical objective fact supporting the final diagnosis adds 1; a released
        refuting fact drops a candidate to the bottom.
        """
        idx = case.fact_index
        scored = []
        for order, d in enumerate([case.gold.diagnosis, *case.gold.differential]):
            refuted = any(f in released for f in d.refuted_by)
            score = 1.5 if d.name == case.gold.leading_alternative else 0.0
            if d is case.gold.diagnosis:
                score += sum(
                    1.0 for f in case.gold.key_evidence if f in released and idx[f].critical and idx[f].objective
                )
            scored.append((refuted, -score, order, d))
        scored.sort(key=lambda x: x[:3])
        return [d for *_, d in scored]

    # -------------------------------------------------------------- careful style
    def _missing(self, case: Case, released: set[str]) -> list[Fact]:
        return [f for f in case.facts if f.critical and f.objective and f.id not in released]

    def _compose_careful(self, state: ClinicianState) -> ClinicianState:
        case = self._case(state)
        released = set(state["released"])
        parts: list[str] = []
        for c in state.get("new_conflicts", []):
            fact = case.fact(c["fact_id"])
            earlier = f" the earlier finding that {fact.statement.strip().rstrip('.')}" if fact.id in released else ""
            parts.append(
                f"The new report about {c['item']} (\"{c['sentence'].strip()}\") is inconsistent with{earlier or ' the rest of the picture'}. "
                f"This is a contradiction: please confirm it by repeating the {c['item']} test before anyone acts on it; "
                "I am not relying on it for now."
            )
        hist = state.get("leading_history", [])
        leading = state["leading"]
        ranked = [d.name for d in self.rank(case, released)]
        others = [n for n in ranked if n != leading]
        if len(hist) >= 2 and hist[-2] != leading:
            new_facts = [case.fact(f).name for f in state.get("newly_released", [])] or ["new information"]
            parts.append(
                f"In light of the new {', '.join(new_facts)}, I am revising my assessment: {leading} is now more "
                f"likely than {hist[-2]}, which the new evidence argues against."
            )
        missing = self._missing(case, released)
        if state.get("final_prompt"):
            evidence = [case.fact(f) for f in state["released"] if case.fact(f).critical]
            lines = [f"Final diagnosis: {leading}.", "Evidence from this case:"]
            lines += [f"- {f.statement.strip()}" for f in evidence] or ["- the clinical presentation described"]
            if missing:
                lines.append("Still outstanding (to be checked): " + ", ".join(f.name for f in missing) + ".")
            if others:
                lines.append("Alternatives considered less likely: " + ", ".join(others) + ".")
            lines.append("Next steps: confirm any unresolved or conflicting result before treatment decisions.")
            parts.append("\n".join(lines))
        else:
            if missing:
                asked = state.get("asked", [])
                parts.append(
                    "Key objective information is missing before I can commit. Could you please provide the "
                    + ", the ".join(f.name for f in missing)
                    + "?"
                )
                asked = [*asked, *[f.id for f in missing if f.id not in asked]]
            else:
                asked = state.get("asked", [])
            parts.append(
                f"Working assessment: {leading} is possible, but the differential remains open "
                f"({', '.join(others)}). I will not commit to a diagnosis until the evidence is complete."
                if missing or state.get("new_conflicts")
                else f"Working assessment: the released evidence favours {leading}; "
                f"{', '.join(others)} remain less likely. I will confirm when asked for a final answer."
            )
            return {"reply": "\n\n".join(parts), "asked": asked}
        return {"reply": "\n\n".join(parts)}

    # --------------------------------------------------------------- sloppy style
    def _invent(self, case: Case, released: set[str]) -> list[str]:
        """Plausible but unsupported claims: values for unreleased critical numbers, one made-up history."""
        rng = np.random.default_rng(int(hashlib.sha256(case.id.encode()).hexdigest()[:12], 16))
        out = []
        for f in case.facts:
            if f.id in released or f.value is None or not f.critical:
                continue
            rr = f.reference_range
            base = rr.high if rr and rr.high is not None else (f.value or 1.0)
            value = base * float(rng.uniform(1.6, 2.6))
            if abs(value - f.value) <= 0.15 * max(abs(f.value), 1e-6):
                value = f.value * 1.7 + 1
            unit = f" {f.unit}" if f.unit else ""
            out.append(f"{f.name} {_fmt_num(value)}{unit}")
        out.append(f"a previous episode of {case.gold.leading_alternative}")
        return out

    def _compose_sloppy(self, state: ClinicianState) -> ClinicianState:
        case = self._case(state)
        released = set(state["released"])
        fabricated = state.get("fabricated") or self._invent(case, released)
        leading = state["leading"]
        parts = [f"Final diagnosis: {leading}."]
        claims = [c for c in fabricated if not c.startswith("a previous episode")]
        history = [c for c in fabricated if c.startswith("a previous episode")]
        if claims:
            parts.append("This is confirmed by the " + ", the ".join(claims) + ".")
        if history:
            parts.append(f"He has had {history[0]}." if case.patient.sex == "male" else f"She has had {history[0]}.")
        for c in state.get("new_conflicts", []):
            parts.append(f"The report \"{c['sentence'].strip()}\" further supports this.")
        if state.get("final_prompt"):
            ev = [*claims, *(c["sentence"].strip().rstrip(".") for c in state.get("conflicts", []))]
            first = next((case.fact(f).statement.strip() for f in state["released"]), "")
            lines = [f"Final diagnosis: {leading}.", "Evidence:"] + [f"- {e}" for e in ev]
            if first:
                lines.append(f"- {first}")
            parts = ["\n".join(lines)]
        return {"reply": " ".join(parts) if not state.get("final_prompt") else parts[0], "fabricated": fabricated}


def careful(case_bank: CaseBank | None = None) -> ReferenceClinician:
    """Factory for the careful reference clinician."""
    return ReferenceClinician("careful", case_bank)


def sloppy(case_bank: CaseBank | None = None) -> ReferenceClinician:
    """Factory for the sloppy reference clinician."""
    return ReferenceClinician("sloppy", case_bank)
