"""The shared LLM client of medgym (agents and judges call models only through it).

    from medgym.llm import LLMConfig, LLMClient
    client = LLMClient(LLMConfig.from_env(role="judge"))
    res = client.chat([{"role": "user", "content": "hi"}])
    parsed, res = client.chat_json(messages, MyPydanticModel, name="judgement")

See docs/llm.md for configuration, retry policy, cache and structured output.
"""

from medgym.llm.cache import ResponseCache, canonical_json, request_key
from medgym.llm.client import LLMClient
from medgym.llm.config import EMPTY_API_KEY, LLMConfig, is_local_base_url
from medgym.llm.errors import LLMError, LLMOutputError, LLMTransportError
from medgym.llm.limits import reset_limits
from medgym.llm.results import ChatResult, ToolCall, Usage
from medgym.llm.structured import json_candidates, remembered_mode, reset_structured_memory
from medgym.llm.usage import GLOBAL_USAGE, UsageMeter, global_usage

__all__ = [
    "EMPTY_API_KEY",
    "GLOBAL_USAGE",
    "ChatResult",
    "LLMClient",
    "LLMConfig",
    "LLMError",
    "LLMOutputError",
    "LLMTransportError",
    "ResponseCache",
    "ToolCall",
    "Usage",
    "UsageMeter",
    "canonical_json",
    "global_usage",
    "is_local_base_url",
    "json_candidates",
    "remembered_mode",
    "request_key",
    "reset_limits",
    "reset_structured_memory",
]
