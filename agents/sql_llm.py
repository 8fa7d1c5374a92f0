"""LLM SQL agent: any OpenAI-compatible chat model driving the DataAgent tools.

A compiled LangGraph graph with one ``call_model`` node over the conversation
(plain OpenAI-format message dicts). The environment's tool schemas
(``info["tools"]`` at reset) are bound to every request. The model's tool call
becomes the action ``{"tool": name, "arguments": {...}}``; the next observation
goes back as that call's tool result. When an ``answer`` call moves the episode
to the next round, the confirmation is the tool result and the new question
arrives as a user message. A reply without a tool call is taken as the answer to
the current round. After ``max_steps_per_round`` steps in a round the agent forces
an ``answer`` call (``tool_choice``) so one hard question cannot eat the episode.

All traffic goes through :mod:`medgym.llm` (retries, rate limits, cache, token
accounting). A transport failure propagates as ``LLMTransportError``: the episode
is an error, never a score.
"""

from __future__ import annotations

import json
import re
from typing import Any

from medgym.agents.llm_common import ToolCallingLLMAgent

DEFAULT_SYSTEM_PROMPT = (
    "You are a clinical data analyst with read-only SQL access to an electronic health record database. "
    "A clinician asks a series of questions; later questions may refer to earlier answers ('of those', "
    "'their'). For each question: inspect the schema if needed (list_tables, describe_table), run SQL with "
    "run_sql (one statement per call, in the database's dialect), search free-text notes with search_notes, "
    "then call answer. In answer, put the exact result in 'values' (a list of rows, e.g. [[\"P0001\"], "
    "[\"P0002\"]] or [[12]]) or rely on your last run_sql result, and give a one- or two-sentence clinical "
    "interpretation in 'text'. Watch for messy data: mixed units, duplicates, NULLs and implausible values. "
    "If the database does not contain the information asked for, call answer with unanswerable=true and "
    "say so; never invent data."
)
FORCE_ANSWER = "You have used the step budget for this question. Call `answer` now with your best answer."


class SQLLLMAgent(ToolCallingLLMAgent):
    """Policy protocol (``act``/``reset``) around the shared one-node LangGraph graph.

    The DataAgent environment asks several questions per episode (rounds); the step
    budget is per round, and the answer that closes a round carries the next question,
    which goes to the model as a new user message after the tool result.
    """

    name_prefix = "sql-llm"
    default_system_prompt = DEFAULT_SYSTEM_PROMPT

    def __init__(self, *args: Any, max_steps_per_round: int = 10, **kwargs: Any):
        self.max_steps_per_round = max(2, int(max_steps_per_round))
        super().__init__(*args, **kwargs)

    def reset(self) -> None:
        super().reset()
        self._round: int | None = None
        self.round_steps = 0
        self.steps = 0

    def observe(self, observation: str, info: dict[str, Any]) -> None:
        new_round = info.get("round") != self._round and info.get("utterance") is not None
        if self._pending_tool_call is not None and new_round and info.get("tool") == "answer":
            if info.get("tools"):
                self._tools = info["tools"]
            self.add_tool_result(observation.split("\n\n", 1)[0])
            self.messages.append({"role": "user", "content": str(info.get("utterance"))})
        else:
            super().observe(observation, info)
        if new_round:
            self._round = info.get("round")
            self.round_steps = 0

    def act(self, observation: str, info: dict[str, Any]) -> str:
        self.observe(observation, info or {})
        self.steps += 1
        self.round_steps += 1
        return self.step(force_answer=self.round_steps >= self.max_steps_per_round, force_message=FORCE_ANSWER)

    def text_action(self, text: str) -> str:
        return json.dumps({"tool": "answer", "arguments": {"text": text, **_unanswerable_hint(text)}},
                          ensure_ascii=False)


def _unanswerable_hint(text: str) -> dict[str, Any]:
    """A plain-text reply that says the data lacks the answer becomes an explicit flag."""
    if re.search(r"\bunanswerable\b|not (?:available|recorded|stored) in the (?:data|database)", text, re.I):
        return {"unanswerable": True}
    return {}


def make_sql_llm_agent(**config: Any) -> SQLLLMAgent:
    """Factory for the agent registry."""
    return SQLLLMAgent(**config)
