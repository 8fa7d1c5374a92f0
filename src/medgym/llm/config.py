"""Configuration of one LLM client (one model on one OpenAI-compatible endpoint).

Why pydantic: the batch runner writes the config into its run manifest and a judge
wrapper records it in ``env.spec``; a typed, validated model makes a typo such as
``temprature=0`` an immediate error instead of a silently ignored keyword.

The API key is never written out: it is hidden from ``repr`` and replaced by ``"***"``
in JSON dumps (``model_dump(mode="json")`` / ``model_dump_json()``), which is what ends
up in manifests. The plain ``model_dump()`` keeps it so a config can be copied.
"""

from __future__ import annotations

import ipaddress
import os
from pathlib import Path
from typing import Any, Literal
from urllib.parse import urlsplit

from pydantic import BaseModel, ConfigDict, Field, field_serializer, field_validator, model_validator

#: Placeholder key sent to local servers (vLLM, Ollama, llama.cpp) that ignore keys.
EMPTY_API_KEY = "EMPTY"

_ENV_PREFIX = "MEDGYM_LLM_"
_OPENAI_ENV = {"base_url": "OPENAI_BASE_URL", "api_key": "OPENAI_API_KEY", "model": "OPENAI_MODEL"}


def is_local_base_url(base_url: str | None) -> bool:
    """True for endpoints that normally need no API key.

    Loopback and private addresses, ``localhost``, single-label host names (docker
    service names such as ``vllm``) and ``*.local`` / ``*.internal`` / ``*.lan``.
    """
    if not base_url:
        return False
    host = (urlsplit(base_url).hostname or "").lower()
    if not host:
        return False
    if host == "localhost" or host.endswith((".localhost", ".local", ".internal", ".lan")):
        return True
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return "." not in host
    return ip.is_loopback or ip.is_private or ip.is_link_local or ip.is_unspecified


class LLMConfig(BaseModel):
    """Everything that decides how one model is called.

    ``temperature`` and ``seed`` default to 0 so that judges are as reproducible as
    the server allows; agents that want sampling set them explicitly.
    """

    model_config = ConfigDict(extra="forbid", validate_assignment=True)

    model: str = Field("gpt-4o-mini", min_length=1, description="model name as the server knows it")
    base_url: str | None = Field(None, description="OpenAI-compatible base URL, e.g. http://127.0.0.1:8000/v1; "
                                                   "None means api.openai.com")
    api_key: str | None = Field(None, repr=False, description="API key; 'EMPTY' is used for local servers")
    temperature: float = Field(0.0, ge=0.0, le=2.0)
    seed: int | None = Field(0, description="sent as the request's `seed`; None to omit it")
    max_tokens: int | None = Field(1024, ge=1, description="completion budget; None to let the server decide")
    max_tokens_param: Literal["max_tokens", "max_completion_tokens"] = Field(
        "max_tokens", description="request field carrying max_tokens (OpenAI reasoning models need "
                                  "'max_completion_tokens'; vLLM/Ollama/llama.cpp accept 'max_tokens')")
    timeout: float = Field(60.0, gt=0, description="per-attempt timeout in seconds")
    max_retries: int = Field(4, ge=0, description="retries after the first attempt (so max_retries+1 attempts)")
    backoff_base: float = Field(0.5, ge=0, description="first backoff delay in seconds (doubles per retry)")
    backoff_max: float = Field(20.0, ge=0, description="cap of one backoff delay in seconds")
    retry_after_max: float = Field(60.0, ge=0, description="cap applied to a server's Retry-After")
    max_concurrency: int = Field(8, ge=1, description="requests in flight, shared by all clients of a base_url")
    requests_per_minute: float | None = Field(None, gt=0, description="optional pacing, shared per base_url")
    cache_dir: str | None = Field(None, description="directory of the on-disk response cache; None disables it")
    role: str = Field("agent", min_length=1, description="usage-accounting bucket: 'agent' or 'judge'")
    structured_output: Literal["auto", "json_schema", "json_object", "prompt"] = Field(
        "auto", description="chat_json strategy: 'auto' starts at json_schema and falls back")
    output_retries: int = Field(1, ge=0, description="chat_json repair turns after an invalid reply")

    @field_validator("base_url")
    @classmethod
    def _normalise_base_url(cls, v: str | None) -> str | None:
        if v is None:
            return None
        v = v.strip()
        if not v:
            return None
        if not v.startswith(("http://", "https://")):
            raise ValueError(f"expected an http(s) URL such as http://127.0.0.1:8000/v1, got {v!r}")
        return v.rstrip("/")

    @field_validator("cache_dir", mode="before")
    @classmethod
    def _path_to_str(cls, v: Any) -> Any:
        if isinstance(v, Path):
            return str(v)
        if isinstance(v, str) and not v.strip():
            return None
        return v

    @model_validator(mode="after")
    def _default_local_key(self) -> LLMConfig:
        if not self.api_key and is_local_base_url(self.base_url):
            # object.__setattr__ avoids re-running validation (validate_assignment).
            object.__setattr__(self, "api_key", EMPTY_API_KEY)
        return self

    @field_serializer("api_key", when_used="json")
    def _redact_key(self, v: str | None) -> str | None:
        if v is None or v == EMPTY_API_KEY:
            return v
        return "***"

    @property
    def endpoint(self) -> str:
        """The base URL actually used (``https://api.openai.com/v1`` when unset)."""
        return self.base_url or "https://api.openai.com/v1"

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None, **overrides: Any) -> LLMConfig:
        """Build a config from the environment, then apply ``overrides``.

        Precedence (highest first): keyword overrides whose value is not ``None``,
        ``MEDGYM_LLM_<FIELD>`` variables (any field: ``MEDGYM_LLM_MODEL``,
        ``MEDGYM_LLM_BASE_URL``, ``MEDGYM_LLM_MAX_CONCURRENCY``, ...), then
        ``OPENAI_BASE_URL`` / ``OPENAI_API_KEY`` / ``OPENAI_MODEL``, then the defaults.

        ``None`` overrides are ignored so that unset CLI options (argparse ``None``)
        can be passed straight through without erasing the environment.
        """
        source = os.environ if env is None else env
        values: dict[str, Any] = {}
        for field, var in _OPENAI_ENV.items():
            if source.get(var):
                values[field] = source[var]
        for field in cls.model_fields:
            var = _ENV_PREFIX + field.upper()
            if source.get(var, "") != "":
                raw = source[var]
                values[field] = None if raw.lower() in ("none", "null") else raw
        values.update({k: v for k, v in overrides.items() if v is not None})
        return cls(**values)

    def for_role(self, role: str, **changes: Any) -> LLMConfig:
        """A copy for another usage bucket, e.g. ``cfg.for_role("judge", temperature=0)``."""
        return type(self).model_validate({**self.model_dump(), "role": role, **changes})
