"""Failure classification and backoff policy of the LLM client.

The ``openai`` SDK runs with ``max_retries=0``; this module decides what is retried
so that behaviour and counting are ours:

* 429 -> retry after the server's ``Retry-After`` / ``retry-after-ms`` (capped by
  ``retry_after_max``), or after the exponential backoff if it gave none;
* 408, 500, 502, 503, 504 -> retry with backoff;
* timeouts, refused / dropped connections, and 200 answers whose body is not a chat
  completion (HTML error pages, truncated JSON) -> retry with backoff;
* any other status (400, 401, 403, 404, 422, 501...) -> no retry: the same request
  would fail the same way.

Backoff is ``min(backoff_max, backoff_base * 2**retry)`` scaled by a jitter factor
in [0.5, 1.0] ("equal jitter"), so that many clients failing together do not retry
in lock-step.
"""

from __future__ import annotations

import email.utils
import random
import time
from dataclasses import dataclass
from typing import Any

import openai

RETRYABLE_STATUS = frozenset({408, 429, 500, 502, 503, 504})
#: How a server refuses a response_format it does not support: OpenAI answers 400 to a
#: schema it cannot enforce, others 415/422; llama.cpp answers 500 (with a message that
#: names the format), some servers a bare 500/501. 401/403/404 are *not* rejections (a
#: wrong key or model must not downgrade the mode), nor are 502/503/504 (overload) unless
#: their message is about the format.
FORMAT_REJECTION_4XX = frozenset({400, 415, 422})
FORMAT_REJECTION_BARE_5XX = frozenset({500, 501})
#: Words in an error body that show the failure is about structured output.
FORMAT_HINTS = ("response_format", "json_schema", "json_object", "schema", "grammar", "guided")

_jitter = random.Random()


class BadResponseError(Exception):
    """A 2xx answer whose body is not a usable chat completion (a server fault)."""

    def __init__(self, message: str, body: str | None = None):
        self.body = body
        super().__init__(message)


@dataclass(frozen=True)
class Failure:
    """One failed attempt, classified."""

    reason: str  # rate_limited | server_error | timeout | connection | bad_response | client_error
    retryable: bool
    status: int | None
    message: str
    retry_after: float | None = None  # seconds requested by the server, if any
    body: Any = None

    def mentions_format(self) -> bool:
        text = f"{self.message} {self.body}".lower()
        return any(h in text for h in FORMAT_HINTS)


def parse_retry_after(headers: Any) -> float | None:
    """Seconds to wait from ``retry-after-ms`` or ``retry-after`` (seconds or HTTP date)."""
    if headers is None:
        return None
    try:
        ms = headers.get("retry-after-ms")
        if ms is not None:
            return max(0.0, float(ms) / 1000.0)
    except (TypeError, ValueError):
        pass
    value = headers.get("retry-after")
    if value is None:
        return None
    try:
        return max(0.0, float(value))
    except (TypeError, ValueError):
        pass
    try:
        when = email.utils.parsedate_to_datetime(str(value))
    except (TypeError, ValueError):
        return None
    if when is None:
        return None
    return max(0.0, when.timestamp() - time.time())


def _status_message(exc: openai.APIStatusError) -> str:
    body = exc.body
    if isinstance(body, dict):
        err = body.get("error", body)
        if isinstance(err, dict) and err.get("message"):
            return str(err["message"])[:500]
        if isinstance(err, str):
            return err[:500]
    return str(exc.message)[:500]


def classify(exc: BaseException) -> Failure | None:
    """Classify an exception from one attempt; ``None`` means "not a transport failure"."""
    if isinstance(exc, openai.APITimeoutError):
        return Failure("timeout", True, None, "request timed out")
    if isinstance(exc, openai.APIConnectionError):
        cause = exc.__cause__ or exc.__context__
        detail = f"{type(cause).__name__}: {cause}" if cause else str(exc)
        return Failure("connection", True, None, f"connection error ({detail})"[:500])
    if isinstance(exc, openai.APIStatusError):
        status = exc.status_code
        msg = f"HTTP {status}: {_status_message(exc)}"
        if status == 429:
            return Failure("rate_limited", True, status, msg, parse_retry_after(exc.response.headers), exc.body)
        if status in RETRYABLE_STATUS:
            reason = "timeout" if status == 408 else "server_error"
            return Failure(reason, True, status, msg, parse_retry_after(exc.response.headers), exc.body)
        reason = "server_error" if status >= 500 else "client_error"
        return Failure(reason, False, status, msg, None, exc.body)
    if isinstance(exc, openai.APIResponseValidationError):
        return Failure("bad_response", True, exc.status_code, f"invalid response body: {exc.message}"[:500])
    if isinstance(exc, BadResponseError):
        return Failure("bad_response", True, None, str(exc)[:500], None, exc.body)
    return None


def backoff_delay(retry_index: int, failure: Failure, *, base: float, cap: float,
                  retry_after_max: float) -> float:
    """Seconds to sleep before retry number ``retry_index`` (0-based)."""
    if failure.retry_after is not None and failure.retry_after > 0:
        # Honour the server's wish (capped), plus a little upward jitter to de-synchronise clients.
        return min(failure.retry_after, retry_after_max) * (1.0 + 0.1 * _jitter.random())
    exp = min(cap, base * (2.0 ** retry_index))
    return exp * (0.5 + 0.5 * _jitter.random())
