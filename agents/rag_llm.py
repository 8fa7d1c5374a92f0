"""LLM RAG agent: any OpenAI-compatible chat model driving the RAGAgent tools.

A compiled LangGraph graph with one ``call_model`` node over the conversation.
The environment's tool schemas (``info["tools"]``) are bound to every request; the
model's tool call becomes the action ``{"tool": name, "arguments": {...}}`` and the
next observation goes back as the tool result. A reply without a tool call is
taken as the final answer, with cited ids read from ``[doc-id]`` markers. One step
before the budget runs out the agent forces an ``answer`` call (``tool_choice``).

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
    "You answer clinical questions from a medical knowledge base, using only the tools provided. "
    "Search (rewrite the query or use filters when useful), rerank and read the most relevant documents, then "
    "call `answer` with a concise answer and the ids of the documents that support each claim. "
    "Base every statement on a document you read. When documents conflict, follow the newer or "
    "higher-evidence source and say that it supersedes or outweighs the other, or, when neither is clearly "
    "better, state the disagreement openly and cite both. If the knowledge base does not contain the "
    "answer, say that it does not and cite nothing."
)
FORCE_ANSWER = "You are about to run out of steps. Call `answer` now with your best answer and citations."
_CITE = re.compile(r"\[([a-z0-9]+(?:-[a-z0-9]+)*)\]")


class RAGLLMAgent(ToolCallingLLMAgent):
    """Policy protocol (``act``/``reset``) around the shared one-node LangGraph graph."""

    name_prefix = "rag-llm"
    default_system_prompt = DEFAULT_SYSTEM_PROMPT

    def __init__(self, *args: Any, max_steps: int = 30, **kwargs: Any):
        self.max_steps = max_steps
        super().__init__(*args, **kwargs)

    def reset(self) -> None:
        super().reset()
        self.steps = 0

    def act(self, observation: str, info: dict[str, Any]) -> str:
        self.observe(observation if self.messages else _question_text(observation), info)
        self.steps += 1
        return self.step(force_answer=self.steps >= self.max_steps - 1, force_message=FORCE_ANSWER)

    def text_action(self, text: str) -> str:
        """A reply without a tool call is the final answer; cited ids come from ``[doc-id]`` markers."""
        cited = list(dict.fromkeys(_CITE.findall(text)))
        return json.dumps({"tool": "answer", "arguments": {"text": text, "cited_ids": cited}}, ensure_ascii=False)


def _question_text(observation: str) -> str:
    try:
        obs = json.loads(observation)
    except (json.JSONDecodeError, TypeError):
        return str(observation)
    if isinstance(obs, dict) and obs.get("type") == "question":
        return f"Question ({obs.get('question_id')}): {obs.get('question')}"
    return observation


def make_llm_agent(**config: Any) -> RAGLLMAgent:
    """Factory for the agent registry (``rag-llm``)."""
    return RAGLLMAgent(**config)
