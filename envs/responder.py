"""Responders: who answers the agent's questions in interactive mode.

The scripted mode plays the paper's fixed sequence U whatever the agent says. The
interactive mode also answers: a withheld fact is released only when the agent
asks for it, a delayed fact stays "pending" until its scheduled turn, and anything
the case does not hold gets a realistic "not available" or "unremarkable" reply.

The responder sits behind the tiny :class:`Responder` protocol so that an LLM
simulated patient can replace the rule-based one later without touching the env.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

import numpy as np

from medgym.envs.scenario import Scenario
from medgym.text.fact_matcher import matcher_for

NOT_AVAILABLE = (
    "That has not been done; no result is available.",
    "There is no result for that in the record.",
    "That information is not available.",
)
UNREMARKABLE_EXAM = (
    "On examination that is unremarkable.",
    "That part of the examination is normal.",
)
NOTHING_TO_ADD = (
    "The patient has nothing further to add on that.",
    "Nothing more is known about that.",
)


@dataclass
class ResponderReply:
    """What the responder says and which facts it released (fact ids, in order)."""

    text: str = ""
    released: list[str] = field(default_factory=list)
    events: list[dict] = field(default_factory=list)


@runtime_checkable
class Responder(Protocol):
    def respond(
        self, agent_text: str, scenario: Scenario, turn: int, released: set[str], rng: np.random.Generator
    ) -> ResponderReply:
        """Answer ``agent_text`` (the reply to user turn ``turn``) given the facts released so far."""
        ...


class FactResponder:
    """Rule-based responder driven by the case's structured facts and the shared FactMatcher."""

    def __init__(self, semantic: bool = True):
        self.semantic = semantic

    def respond(
        self, agent_text: str, scenario: Scenario, turn: int, released: set[str], rng: np.random.Generator
    ) -> ResponderReply:
        matcher = matcher_for(scenario.case)
        reply = ResponderReply()
        lines: list[str] = []
        delayed = scenario.metadata.delayed_facts
        answered: set[str] = set()
        for req in matcher.requests(agent_text, semantic=self.semantic):
            if not req.fact_ids:
                pool = {"exam": UNREMARKABLE_EXAM, "test": NOT_AVAILABLE}.get(req.topic, NOTHING_TO_ADD)
                lines.append(pool[int(rng.integers(len(pool)))])
                reply.events.append({"kind": "unmatched", "sentence": req.sentence.text, "topic": req.topic})
                continue
            for fid in req.fact_ids:
                if fid in answered:
                    continue
                answered.add(fid)
                fact = scenario.case.fact(fid)
                if fid in released:
                    lines.append(f"As already mentioned: {fact.statement}")
                    reply.events.append({"kind": "repeat", "fact_id": fid, "sentence": req.sentence.text})
                elif fid in delayed and delayed[fid] > turn + 1:
                    lines.append(f"The {fact.name} result is still pending.")
                    reply.events.append({"kind": "pending", "fact_id": fid, "sentence": req.sentence.text})
                elif fid in delayed:
                    # due on the very next turn: the scheduled release will carry it
                    reply.events.append(
                        {"kind": "due_next_turn", "fact_id": fid, "sentence": req.sentence.text}
                    )
                else:
                    lines.append(fact.statement)
                    reply.released.append(fid)
                    reply.events.append(
                        {"kind": "released", "fact_id": fid, "sentence": req.sentence.text, "via": req.via}
                    )
        # de-duplicate canned lines while keeping order
        reply.text = " ".join(dict.fromkeys(lines))
        return reply
