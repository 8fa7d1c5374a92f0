"""The one LLM client of medgym: agents and judges call models only through it.

It wraps the real ``openai`` SDK (``OpenAI`` / ``AsyncOpenAI``, built with
``max_retries=0``) and adds what an evaluation harness needs on top:

* bounded retries with exponential backoff and jitter (:mod:`medgym.llm.retry`);
* process-wide limits per endpoint on requests in flight and requests per minute
  (:mod:`medgym.llm.limits`);
* an optional on-disk response cache keyed by the full request
  (:mod:`medgym.llm.cache`);
* token and request accounting per role (:mod:`medgym.llm.usage`);
* validated structured output with a json_schema -> json_object -> prompt fallback
  (:mod:`medgym.llm.structured`).

Failures are raised as :class:`LLMTransportError` / :class:`LLMOutputError`, never
turned into a default value: the caller decides that an item is "unscored".
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import threading
import time
import weakref
from collections.abc import AsyncGenerator, Generator, Sequence
from typing import Any

import openai
from pydantic import BaseModel

from medgym.llm.cache import ResponseCache, request_key
from medgym.llm.config import LLMConfig
from medgym.llm.errors import LLMError, LLMOutputError, LLMTransportError
from medgym.llm.limits import EndpointLimits, limits_for
from medgym.llm.results import ChatResult, Usage, check_completion
from medgym.llm.retry import (
    FORMAT_REJECTION_4XX,
    FORMAT_REJECTION_BARE_5XX,
    BadResponseError,
    Failure,
    backoff_delay,
    classify,
)
from medgym.llm.structured import (
    OutputProblem,
    SchemaSpec,
    modes_for,
    remember_rejection,
    repair_messages,
    with_instructions,
)
from medgym.llm.usage import GLOBAL_USAGE, UsageMeter

Messages = Sequence[dict[str, Any]]
#: openai-SDK per-call options that are not request-body fields.
_CLIENT_SIDE_OPTIONS = frozenset({"timeout", "extra_headers", "extra_query", "stream"})


class _FormatRejected(Exception):
    """The server refused this request's response_format (internal to chat_json)."""

    def __init__(self, failure: Failure, attempts: int):
        self.failure = failure
        self.attempts = attempts
        #: a 4xx or a message naming the format (vs. a bare, repeated 500)
        self.explicit = failure.status is not None and (failure.status < 500 or failure.mentions_format())
        super().__init__(failure.message)


async def _closing_agen(client: openai.AsyncOpenAI, registry: weakref.WeakKeyDictionary[Any, Any],
                        lock: threading.Lock) -> AsyncGenerator[None, None]:
    """Suspends until its loop shuts down (or aclose), then forgets and closes ``client``.

    The generator references its loop (asyncio's finalizer hook), so the registry entry
    must be removed here or the weak key would never die.
    """
    loop = asyncio.get_running_loop()
    try:
        yield
    finally:
        with lock:
            entry = registry.get(loop)
            if entry is not None and entry[0] is client:
                del registry[loop]
        with contextlib.suppress(Exception):  # the loop may already be half torn down
            await client.close()


def _forget_dead_loop_client(client: openai.AsyncOpenAI) -> None:
    """Drop an AsyncOpenAI whose event loop is closed.

    Its sockets cannot be closed asynchronously any more (their loop is gone), and the
    SDK's ``__del__`` would schedule ``aclose()`` on whatever loop is running now, which
    fails noisily. Marking the httpx client closed (private state, best effort) lets the
    garbage collector release the sockets quietly instead.
    """
    http = getattr(client, "_client", None)
    state = getattr(http, "_state", None)
    with contextlib.suppress(Exception):
        http._state = type(state).CLOSED  # type: ignore[union-attr]


def _normalise_tools(tools: Sequence[dict[str, Any]] | None) -> list[dict[str, Any]] | None:
    """Accept OpenAI tool entries or bare function specs ({"name", "parameters", ...})."""
    if not tools:
        return None
    out = []
    for t in tools:
        if not isinstance(t, dict):
            raise TypeError(f"expected each tool to be a dict, got {type(t).__name__}")
        if "type" not in t and "name" in t:
            t = {"type": "function", "function": t}
        out.append(t)
    return out


def _plain_messages(messages: Messages) -> list[dict[str, Any]]:
    if isinstance(messages, str | bytes) or not isinstance(messages, Sequence):
        raise TypeError(f"expected a list of message dicts, got {type(messages).__name__}")
    out = []
    for i, m in enumerate(messages):
        if isinstance(m, BaseModel):
            m = m.model_dump(exclude_none=True)
        if not isinstance(m, dict) or "role" not in m:
            raise TypeError(f"message {i}: expected a dict with a 'role', got {m!r:.80}")
        out.append(dict(m))
    return out


class LLMClient:
    """Chat with one model on one OpenAI-compatible endpoint (see :class:`LLMConfig`).

    Thread-safe; the async methods work on any event loop (one ``AsyncOpenAI`` is
    kept per loop). ``client.usage`` is this client's :class:`UsageMeter`; every call
    is also recorded in the process-wide :data:`medgym.llm.GLOBAL_USAGE`.
    """

    def __init__(self, config: LLMConfig | None = None, *, meter: UsageMeter | None = None,
                 cache: ResponseCache | None = None):
        self.config = config if config is not None else LLMConfig.from_env()
        cfg = self.config
        self._api_key = cfg.api_key or os.environ.get("OPENAI_API_KEY")
        if not self._api_key:
            raise LLMError(
                f"no API key for {cfg.endpoint}: set OPENAI_API_KEY (or MEDGYM_LLM_API_KEY), pass "
                "LLMConfig(api_key=...), or point base_url at a local server (vLLM, Ollama, llama.cpp)"
            )
        self.usage = meter if meter is not None else UsageMeter()
        self.cache = cache if cache is not None else (
            ResponseCache.shared(cfg.cache_dir) if cfg.cache_dir else None)
        self.limits: EndpointLimits = limits_for(cfg.endpoint, cfg.max_concurrency, cfg.requests_per_minute)
        self._client_lock = threading.Lock()
        # [client, pid]: a mutable box shared with views (with_meter/with_role), so every
        # per-episode view reuses one openai.OpenAI (building one reloads the TLS trust
        # store, ~20 ms of CPU) and its connection pool.
        self._sync_box: list[Any] = [None, -1]
        # One AsyncOpenAI per event loop (an httpx pool cannot cross loops), with the async
        # generator that closes it when the loop shuts down (see _closing_agen).
        self._aclients: weakref.WeakKeyDictionary[
            asyncio.AbstractEventLoop, tuple[openai.AsyncOpenAI, AsyncGenerator[None, None]]
        ] = weakref.WeakKeyDictionary()

    # ------------------------------------------------------------------ variants & lifecycle
    def with_meter(self, meter: UsageMeter) -> LLMClient:
        """A view of this client recording into ``meter`` (and the global meter).

        Shares the HTTP connections, limits and cache, so a batch runner can give each
        episode its own meter for per-episode token counts at no cost.
        """
        clone = self._view()
        clone.usage = meter
        return clone

    def with_role(self, role: str) -> LLMClient:
        """A view of this client that records usage under another role."""
        clone = self._view()
        clone.config = self.config.for_role(role)
        return clone

    def _view(self) -> LLMClient:
        """A shallow copy sharing connections, limits and cache (not via __reduce__)."""
        clone = object.__new__(type(self))
        clone.__dict__.update(self.__dict__)
        return clone

    def close(self) -> None:
        """Close the sync HTTP client (async clients close with :meth:`aclose`)."""
        with self._client_lock:
            sync, pid = self._sync_box
            if sync is not None and pid == os.getpid():
                sync.close()
            self._sync_box[0] = None

    async def aclose(self) -> None:
        """Close the async HTTP client of the running event loop.

        Optional under ``asyncio.run``: its loop shutdown closes the client anyway.
        """
        loop = asyncio.get_running_loop()
        with self._client_lock:
            entry = self._aclients.pop(loop, None)
        if entry is not None:
            await entry[1].aclose()

    def __enter__(self) -> LLMClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    async def __aenter__(self) -> LLMClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle as its config: a process-pool worker gets a fresh client (own meter,
        own connections; the cache file is shared on disk)."""
        return (type(self), (self.config,))

    def __repr__(self) -> str:
        c = self.config
        return f"LLMClient(model={c.model!r}, endpoint={c.endpoint!r}, role={c.role!r})"

    def _openai_kwargs(self) -> dict[str, Any]:
        return {"api_key": self._api_key, "base_url": self.config.base_url,
                "timeout": self.config.timeout, "max_retries": 0}

    def _sync_client(self) -> openai.OpenAI:
        with self._client_lock:
            box = self._sync_box
            if box[0] is None or box[1] != os.getpid():  # never reuse sockets across fork
                box[0] = openai.OpenAI(**self._openai_kwargs())
                box[1] = os.getpid()
            return box[0]

    async def _async_client(self) -> openai.AsyncOpenAI:
        loop = asyncio.get_running_loop()
        with self._client_lock:
            entry = self._aclients.get(loop)
            fresh = entry is None
            if entry is None:
                # Loops closed without shutdown_asyncgens (manual loop handling) never ran
                # their closer: drop their entries so they can be collected.
                for dead in [lp for lp in self._aclients if lp.is_closed()]:
                    _forget_dead_loop_client(self._aclients.pop(dead)[0])
                client = openai.AsyncOpenAI(**self._openai_kwargs())
                entry = (client, _closing_agen(client, self._aclients, self._client_lock))
                self._aclients[loop] = entry
        if fresh:
            # Starting the generator registers it with this loop's async-generator hooks:
            # loop.shutdown_asyncgens() (run by asyncio.run) then closes the client inside
            # the loop, so per-loop clients do not leak sockets when a runner uses one
            # asyncio.run per episode.
            await entry[1].__anext__()
        return entry[0]

    # ------------------------------------------------------------------ accounting
    def _record(self, **counts: int) -> None:
        role = self.config.role
        self.usage.record(role, **counts)
        if self.usage is not GLOBAL_USAGE:
            GLOBAL_USAGE.record(role, **counts)

    def _record_failure(self, exc: LLMError) -> None:
        kind = "output_errors" if isinstance(exc, LLMOutputError) else "transport_errors"
        self._record(errors=1, **{kind: 1})

    # ------------------------------------------------------------------ request building
    def build_request(self, messages: Messages, tools: Sequence[dict[str, Any]] | None = None,
                      tool_choice: Any = None, response_format: dict[str, Any] | None = None,
                      **extra_params: Any) -> dict[str, Any]:
        """The exact JSON body that :meth:`chat` sends (also the basis of the cache key).

        ``extra_params`` are added last, so a call may override the config's
        ``temperature``, ``seed`` or ``max_tokens`` and pass server-specific fields
        (vLLM's ``top_k``, ``repetition_penalty``...).
        """
        cfg = self.config
        body: dict[str, Any] = {"model": cfg.model, "messages": _plain_messages(messages),
                                "temperature": cfg.temperature}
        if cfg.seed is not None:
            body["seed"] = cfg.seed
        if cfg.max_tokens is not None:
            body[cfg.max_tokens_param] = cfg.max_tokens
        norm_tools = _normalise_tools(tools)
        if norm_tools:
            body["tools"] = norm_tools
        if tool_choice is not None:
            body["tool_choice"] = tool_choice
        if response_format is not None:
            body["response_format"] = response_format
        misplaced = sorted(set(extra_params) & _CLIENT_SIDE_OPTIONS)
        if misplaced:
            raise TypeError(f"{', '.join(misplaced)} cannot be set per call; set them in LLMConfig "
                            "(extra keyword arguments are request-body fields)")
        extra_body = extra_params.pop("extra_body", None) or {}
        body.update(extra_params)
        body.update(extra_body)  # openai-SDK style: server-specific fields
        return body

    def _cache_key(self, kind: str, payload: dict[str, Any]) -> str:
        return request_key({"endpoint": self.config.endpoint, "kind": kind, "payload": payload})

    # ------------------------------------------------------------------ transport (sync)
    @staticmethod
    def _decode(text: Any) -> dict[str, Any]:
        if isinstance(text, bytes):
            text = text.decode("utf-8", errors="replace")
        if not isinstance(text, str):
            raise BadResponseError(f"unexpected response type {type(text).__name__}")
        try:
            body = json.loads(text)
        except json.JSONDecodeError as exc:
            raise BadResponseError(f"response body is not JSON ({exc.msg}): {text[:120]!r}", text[:500]) from None
        problem = check_completion(body)
        if problem:
            raise BadResponseError(f"response is not a chat completion: {problem}", text[:500])
        return body

    def _after_failure(self, failure: Failure, retry_index: int, structured: bool,
                       format_retries: int) -> tuple[str, float]:
        """Decide what follows a failed attempt: ("retry", delay) / ("reject", 0) / ("fail", 0)."""
        cfg = self.config
        if structured and failure.status is not None:
            if failure.status in FORMAT_REJECTION_4XX or (failure.status >= 500 and failure.mentions_format()):
                return "reject", 0.0
            if failure.status in FORMAT_REJECTION_BARE_5XX and (
                    format_retries >= 1 or retry_index >= cfg.max_retries):
                # A bare 500 again: most likely the format, not a hiccup. Fall back
                # (a really broken server still fails in the fallback mode).
                return "reject", 0.0
        if not failure.retryable or retry_index >= cfg.max_retries:
            return "fail", 0.0
        return "retry", backoff_delay(retry_index, failure, base=cfg.backoff_base, cap=cfg.backoff_max,
                                      retry_after_max=cfg.retry_after_max)

    def _give_up(self, failure: Failure, attempts: int) -> LLMTransportError:
        what = "giving up" if failure.retryable else "not retryable"
        return LLMTransportError(
            f"{self.config.model} at {self.config.endpoint}: {failure.message} "
            f"({what}, {attempts} attempt{'s' if attempts != 1 else ''})",
            status=failure.status, reason=failure.reason, attempts=attempts,
            retryable=failure.retryable, body=failure.body,
        )

    def _retry_or_raise(self, failure: Failure, retry_index: int, attempts: int, structured: bool,
                        format_retries: int) -> tuple[float, int]:
        """After a failed attempt: raise, or return (delay before the next one, updated format-retry count).

        Shared by :meth:`_send` and :meth:`_asend` so the sync and async paths cannot
        drift apart on what is retried.
        """
        action, delay = self._after_failure(failure, retry_index, structured, format_retries)
        if action == "reject":
            raise _FormatRejected(failure, attempts)
        if action == "fail":
            raise self._give_up(failure, attempts)
        if structured and failure.status in FORMAT_REJECTION_BARE_5XX:
            format_retries += 1
        self._record(retries=1)
        return delay, format_retries

    def _got_completion(self, completion: dict[str, Any]) -> None:
        u = Usage.from_response(completion.get("usage"))
        self._record(prompt_tokens=u.prompt_tokens, completion_tokens=u.completion_tokens,
                     total_tokens=u.total_tokens)

    def _send(self, body: dict[str, Any], *, structured: bool = False) -> tuple[dict[str, Any], int]:
        """POST one chat completion with retries; returns (completion, attempts)."""
        format_retries = 0
        for retry_index in range(self.config.max_retries + 1):
            if self.limits.pacer is not None:
                self.limits.pacer.wait()
            attempts = retry_index + 1
            self._record(requests=1)
            try:
                with self.limits.inflight.slot():
                    text = self._sync_client().post("/chat/completions", body=body, cast_to=str)
                completion = self._decode(text)
            except (openai.APIError, BadResponseError) as exc:
                failure = classify(exc)
                if failure is None:
                    raise
            else:
                self._got_completion(completion)
                return completion, attempts
            delay, format_retries = self._retry_or_raise(failure, retry_index, attempts, structured, format_retries)
            time.sleep(delay)
        raise AssertionError("unreachable: the last attempt always returns or raises")

    async def _asend(self, body: dict[str, Any], *, structured: bool = False) -> tuple[dict[str, Any], int]:
        """Async twin of :meth:`_send`."""
        format_retries = 0
        for retry_index in range(self.config.max_retries + 1):
            if self.limits.pacer is not None:
                await self.limits.pacer.wait_async()
            attempts = retry_index + 1
            self._record(requests=1)
            try:
                async with self.limits.inflight.slot_async():
                    client = await self._async_client()
                    text = await client.post("/chat/completions", body=body, cast_to=str)
                completion = self._decode(text)
            except (openai.APIError, BadResponseError) as exc:
                failure = classify(exc)
                if failure is None:
                    raise
            else:
                self._got_completion(completion)
                return completion, attempts
            delay, format_retries = self._retry_or_raise(failure, retry_index, attempts, structured, format_retries)
            await asyncio.sleep(delay)
        raise AssertionError("unreachable: the last attempt always returns or raises")

    # ------------------------------------------------------------------ chat
    def _cached_chat(self, completion: dict[str, Any] | None, t0: float) -> ChatResult | None:
        if completion is None or check_completion(completion.get("completion")) is not None:
            return None
        self._record(cached=1)
        return ChatResult.from_completion(completion["completion"], cached=True,
                                          latency_s=time.perf_counter() - t0, attempts=0)

    def chat(self, messages: Messages, tools: Sequence[dict[str, Any]] | None = None,
             tool_choice: Any = None, **extra_params: Any) -> ChatResult:
        """One chat completion (with tools if given). Raises :class:`LLMTransportError`."""
        t0 = time.perf_counter()
        body = self.build_request(messages, tools, tool_choice, **extra_params)
        self._record(calls=1)
        key = self._cache_key("chat", body) if self.cache is not None else None
        if key is not None:
            hit = self._cached_chat(self.cache.get(key), t0)  # type: ignore[union-attr]
            if hit is not None:
                return hit
        try:
            completion, attempts = self._send(body)
        except LLMError as exc:
            self._record_failure(exc)
            raise
        if key is not None:
            self.cache.put(key, {"completion": completion})  # type: ignore[union-attr]
        return ChatResult.from_completion(completion, cached=False, latency_s=time.perf_counter() - t0,
                                          attempts=attempts)

    async def achat(self, messages: Messages, tools: Sequence[dict[str, Any]] | None = None,
                    tool_choice: Any = None, **extra_params: Any) -> ChatResult:
        """Async :meth:`chat`."""
        t0 = time.perf_counter()
        body = self.build_request(messages, tools, tool_choice, **extra_params)
        self._record(calls=1)
        key = self._cache_key("chat", body) if self.cache is not None else None
        if key is not None:
            hit = self._cached_chat(await asyncio.to_thread(self.cache.get, key), t0)  # type: ignore[union-attr]
            if hit is not None:
                return hit
        try:
            completion, attempts = await self._asend(body)
        except LLMError as exc:
            self._record_failure(exc)
            raise
        if key is not None:
            await asyncio.to_thread(self.cache.put, key, {"completion": completion})  # type: ignore[union-attr]
        return ChatResult.from_completion(completion, cached=False, latency_s=time.perf_counter() - t0,
                                          attempts=attempts)

    # ------------------------------------------------------------------ structured output
    def _json_flow(self, messages: list[dict[str, Any]], spec: SchemaSpec, extra: dict[str, Any]
                   ) -> Generator[tuple[dict[str, Any], bool], tuple[dict[str, Any], int],
                                  tuple[Any, ChatResult, dict[str, Any], str]]:
        """The chat_json state machine, shared by the sync and async drivers.

        Yields (request body, structured?) and receives (completion, attempts); a
        refused response_format is thrown in as :class:`_FormatRejected`. Returns
        (parsed, result, final completion, mode).
        """
        cfg = self.config
        modes = modes_for(cfg.endpoint, cfg.model, cfg.structured_output)
        problems: list[str] = []
        unconfirmed: list[str] = []
        convo = messages
        mode_i = 0
        repairs = 0
        replies = 0
        attempts_total = 0
        usage_total = Usage()
        while True:
            mode = modes[mode_i]
            fmt = spec.response_format(mode)
            msgs = convo if mode == "json_schema" else with_instructions(convo, spec)
            body = self.build_request(msgs, response_format=fmt, **extra)
            try:
                completion, attempts = yield body, fmt is not None
            except _FormatRejected as rej:
                attempts_total += rej.attempts
                problems.append(f"mode {mode} rejected by the server: {rej.failure.message}")
                if cfg.structured_output == "auto":
                    if rej.explicit:
                        remember_rejection(cfg.endpoint, cfg.model, mode)
                    else:
                        # A bare 500 may be an outage, not the format: remember it only
                        # once a request without this format has succeeded.
                        unconfirmed.append(mode)
                if mode_i + 1 >= len(modes):
                    raise LLMTransportError(
                        f"{cfg.model} at {cfg.endpoint} rejected structured output mode {mode!r}: "
                        f"{rej.failure.message}", status=rej.failure.status, reason="format_rejected",
                        attempts=attempts_total, retryable=False, body=rej.failure.body) from None
                mode_i += 1
                continue
            attempts_total += attempts
            replies += 1
            for rejected in unconfirmed:
                remember_rejection(cfg.endpoint, cfg.model, rejected)
            unconfirmed.clear()
            res = ChatResult.from_completion(completion, cached=False, latency_s=0.0, attempts=attempts)
            usage_total = usage_total + res.usage
            try:
                parsed = spec.parse(res.text)
            except OutputProblem as problem:
                problems.append(f"reply {replies} ({mode}): {problem}")
                if repairs >= cfg.output_retries:
                    raise LLMOutputError(
                        f"{cfg.model} gave no valid JSON for {spec.name!r} after {replies} "
                        f"repl{'ies' if replies != 1 else 'y'}: {problem}",
                        raw_text=res.text, problems=problems, attempts=replies) from None
                repairs += 1
                convo = repair_messages(convo, res.text, str(problem))
                continue
            res = res.model_copy(update={"usage": usage_total, "attempts": attempts_total,
                                         "structured_mode": mode})
            return parsed, res, completion, mode

    def _json_cache_key(self, messages: list[dict[str, Any]], spec: SchemaSpec,
                        extra: dict[str, Any]) -> str:
        """One key per logical call, independent of the mode that ends up answering it.

        So a rerun is free even against a server whose json_schema rejection this new
        process has not learned yet.
        """
        return self._cache_key("chat_json", {"body": self.build_request(messages, **extra),
                                             "schema": spec.json_schema, "name": spec.name})

    def _from_json_cache(self, hit: dict[str, Any] | None, spec: SchemaSpec, t0: float
                         ) -> tuple[Any, ChatResult] | None:
        if hit is None or check_completion(hit.get("completion")) is not None:
            return None
        res = ChatResult.from_completion(hit["completion"], cached=True, latency_s=0.0, attempts=0)
        try:
            parsed = spec.parse(res.text)
        except OutputProblem:
            return None
        self._record(cached=1)
        res = res.model_copy(update={"structured_mode": hit.get("mode"),
                                     "latency_s": time.perf_counter() - t0})
        return parsed, res

    def chat_json(self, messages: Messages, schema: type[BaseModel] | dict[str, Any],
                  name: str = "judgement", **extra_params: Any) -> tuple[Any, ChatResult]:
        """A reply validated against ``schema``: (model instance or dict, ChatResult).

        Raises :class:`LLMOutputError` (raw text attached) if no valid JSON was
        produced within ``1 + output_retries`` replies, and :class:`LLMTransportError`
        if the server could not be reached. The returned ``ChatResult.usage`` and
        ``attempts`` cover every request this call made.
        """
        t0 = time.perf_counter()
        spec = SchemaSpec(schema, name)
        msgs = _plain_messages(messages)
        self._record(calls=1)
        key = self._json_cache_key(msgs, spec, extra_params) if self.cache is not None else None
        if key is not None:
            hit = self._from_json_cache(self.cache.get(key), spec, t0)  # type: ignore[union-attr]
            if hit is not None:
                return hit
        gen = self._json_flow(msgs, spec, extra_params)
        try:
            step = next(gen)
            while True:
                body, structured = step
                try:
                    sent = self._send(body, structured=structured)
                except _FormatRejected as rej:
                    step = gen.throw(rej)
                else:
                    step = gen.send(sent)
        except StopIteration as stop:
            parsed, res, completion, mode = stop.value
        except LLMError as exc:
            self._record_failure(exc)
            raise
        finally:
            gen.close()
        if key is not None:
            self.cache.put(key, {"completion": completion, "mode": mode})  # type: ignore[union-attr]
        return parsed, res.model_copy(update={"latency_s": time.perf_counter() - t0})

    async def achat_json(self, messages: Messages, schema: type[BaseModel] | dict[str, Any],
                         name: str = "judgement", **extra_params: Any) -> tuple[Any, ChatResult]:
        """Async :meth:`chat_json`."""
        t0 = time.perf_counter()
        spec = SchemaSpec(schema, name)
        msgs = _plain_messages(messages)
        self._record(calls=1)
        key = self._json_cache_key(msgs, spec, extra_params) if self.cache is not None else None
        if key is not None:
            raw_hit = await asyncio.to_thread(self.cache.get, key)  # type: ignore[union-attr]
            hit = self._from_json_cache(raw_hit, spec, t0)
            if hit is not None:
                return hit
        gen = self._json_flow(msgs, spec, extra_params)
        try:
            step = next(gen)
            while True:
                body, structured = step
                try:
                    sent = await self._asend(body, structured=structured)
                except _FormatRejected as rej:
                    step = gen.throw(rej)
                else:
                    step = gen.send(sent)
        except StopIteration as stop:
            parsed, res, completion, mode = stop.value
        except LLMError as exc:
            self._record_failure(exc)
            raise
        finally:
            gen.close()
        if key is not None:
            await asyncio.to_thread(self.cache.put, key,  # type: ignore[union-attr]
                                    {"completion": completion, "mode": mode})
        return parsed, res.model_copy(update={"latency_s": time.perf_counter() - t0})

    # ------------------------------------------------------------------ misc
    def list_models(self) -> list[str]:
        """Model ids served by the endpoint (GET /models), e.g. to check a config early."""
        try:
            page = self._sync_client().models.list()
        except openai.APIError as exc:
            failure = classify(exc) or Failure("unknown", False, None, str(exc))
            raise self._give_up(failure, 1) from None
        return [m.id for m in page.data]

