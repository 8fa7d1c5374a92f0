"""Typed errors of the LLM client.

Two families, because callers must treat them differently:

* :class:`LLMTransportError` -- the request never produced a usable completion (the
  server was unreachable, kept failing after the bounded retries, or refused the
  request with a non-retryable 4xx). For a judge this means "unscored"; for a batch
  runner it means "episode error, retry on the next run".
* :class:`LLMOutputError` -- the server answered, but the answer was not what the
  caller asked for (malformed JSON, schema violation). The raw text is attached so it
  can be logged next to the "unscored" status.

Neither is ever swallowed inside :mod:`medgym.llm` and replaced by a default value:
a silent default would turn an infrastructure failure into a fake score.
"""

from __future__ import annotations

from medgym.errors import MedgymError


class LLMError(MedgymError):
    """Base class of every error raised by :mod:`medgym.llm`."""


class LLMTransportError(LLMError):
    """No usable completion after the allowed attempts.

    Attributes:
        status: HTTP status of the last failed attempt (``None`` for timeouts,
            dropped connections and unparseable bodies).
        reason: short machine-friendly reason of the last failure
            (``"rate_limited"``, ``"server_error"``, ``"timeout"``, ``"connection"``,
            ``"bad_response"``, ``"client_error"``).
        attempts: number of HTTP attempts that were made.
        retryable: whether the last failure was of a retryable kind (``False`` for
            a 4xx such as 400/401/404: retrying the same request cannot help).
    """

    def __init__(
        self,
        message: str,
        *,
        status: int | None = None,
        reason: str = "unknown",
        attempts: int = 0,
        retryable: bool = True,
        body: object | None = None,
    ):
        self.status = status
        self.reason = reason
        self.attempts = attempts
        self.retryable = retryable
        self.body = body
        super().__init__(message)


class LLMOutputError(LLMError):
    """The model answered, but not with valid output for the requested schema.

    Attributes:
        raw_text: the last raw reply text (``None`` if the reply had no content).
        problems: one line per failed attempt ("attempt 1 (json_schema): ...").
        attempts: number of completions that were tried.
    """

    def __init__(self, message: str, *, raw_text: str | None, problems: list[str] | None = None,
                 attempts: int = 0):
        self.raw_text = raw_text
        self.problems = list(problems or [])
        self.attempts = attempts
        super().__init__(message)
