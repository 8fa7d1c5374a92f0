"""The LLM clinician: any OpenAI-compatible chat model, as a compiled LangGraph graph.

The graph is one ``call_model`` node over a message list. The agent keeps the whole
conversation across turns, so the model sees the dialogue as a clinician would.
Its system prompt is a constructor parameter (prompt-optimisation experiments swap
it). When the environment publishes tools (``info["tools"]``, OpenAI function
format) and ``use_tools`` is on, a tool call from the model becomes the action
``{"tool": name, "arguments": {...}}`` and the next observation is fed back as the
tool result.

All model traffic goes through :mod:`medgym.llm` (retries, rate limits, cache,
token accounting); a transport failure propagates as ``LLMTransportError`` so the
batch runner records the episode as an error, never as a score.
"""

from __future__ import annotations

from typing import Any

from medgym.agents.llm_common import ToolCallingLLMAgent

DEFAULT_SYSTEM_PROMPT = (
    "You are an experienced physician talking with a colleague about a patient. Information may be "
    "incomplete, contradictory or arrive late. Ask for missing key information before committing, point out "
    "any inconsistency and ask for confirmation, revise your diagnosis when new evidence warrants it, and never "
    "state values or findings that were not given to you. When asked for a final answer, start with "
    "'Final diagnosis:' and list only evidence actually provided in the conversation."
)


class LLMClinician(ToolCallingLLMAgent):
    """Policy protocol (``act``/``reset``) around the shared one-node LangGraph graph."""

    name_prefix = "llm"
    default_system_prompt = DEFAULT_SYSTEM_PROMPT

    def __init__(self, *args: Any, use_tools: bool = True, **kwargs: Any):
        self.use_tools = use_tools
        super().__init__(*args, **kwargs)

    def act(self, observation: str, info: dict[str, Any]) -> str:
        self.observe(observation, info if self.use_tools else {})
        return self.step()
