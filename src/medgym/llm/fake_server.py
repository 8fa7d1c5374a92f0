"""A real, local, OpenAI-compatible HTTP server with scripted replies and injected faults.

Tests and benchmarks of everything that calls an LLM (agents, judges, the batch
runner) go through the real ``openai`` client against this server, so retries,
timeouts, dropped connections and structured-output fallbacks are exercised over
real sockets -- never through mocks, and never through the internet.

    with FakeOpenAIServer(replies=['{"ok": true}'], faults=["429", None]) as srv:
        client = LLMClient(LLMConfig(base_url=srv.base_url, model="fake"))
        ...
        srv.requests        # the request bodies received, in arrival order

Replies
    ``replies`` is a list served in arrival order. An item is a string (assistant
    content), a dict (``{"content": ..., "tool_calls": [{"name", "arguments"}],
    "finish_reason": ..., "usage": {...}}``, or a full completion with ``"choices"``
    served verbatim), a :class:`Fault` (inject that fault for this request), or an
    :class:`ErrorReply` (any status). When the list is exhausted the server answers
    **HTTP 410 "fake server: replies exhausted"** -- a non-retryable status that makes
    an unexpected extra request loud (and that ``chat_json`` does not mistake for a
    rejected response_format) -- unless ``cycle=True``, which restarts the list.
    ``handler(request_dict)`` returns a reply in the same forms (``None`` means the
    default reply) and takes precedence over ``replies``. With neither, every
    request gets ``default_reply`` ("OK").

Faults
    ``faults`` decides, per request (before replies are consumed), whether to inject
    a fault: a sequence (item *i* applies to the *i*-th request; ``None`` = no fault;
    after its end no more faults), a :class:`RandomFaults` seeded plan, or a callable
    ``(index, request) -> Fault | None``. Kinds: ``"429"`` (with ``Retry-After``),
    ``"500"``, ``"timeout"`` (no answer for ``timeout_s`` seconds, then the socket is
    closed), ``"drop"`` (socket closed without a response), ``"garbage"`` (200 with a
    non-JSON body), ``"malformed_json"`` (a valid completion whose content is broken
    JSON). A request that received a fault does not consume a reply.

``reject_json_schema=True`` answers HTTP 500 to ``response_format.type ==
"json_schema"`` with llama.cpp's error message.
"""

from __future__ import annotations

import contextlib
import json
import random
import socket
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

__all__ = ["ErrorReply", "FakeOpenAIServer", "FakeOpenAIServerProcess", "Fault", "RandomFaults"]


class Fault(StrEnum):
    """Fault kinds the server can inject (plain strings such as ``"429"`` work too)."""

    RATE_LIMIT = "429"
    SERVER_ERROR = "500"
    TIMEOUT = "timeout"
    DROP = "drop"
    GARBAGE = "garbage"
    MALFORMED_JSON = "malformed_json"


@dataclass(frozen=True)
class ErrorReply:
    """An HTTP error answer with any status (e.g. 401, 404, a generic 500)."""

    status: int
    message: str = "fake error"
    headers: dict[str, str] = field(default_factory=dict)


@dataclass
class RandomFaults:
    """A seeded random fault plan: each request gets a fault with probability ``rate``.

    Decisions are drawn in request-arrival order from ``random.Random(seed)``, so a
    sequential client sees the same plan on every run.
    """

    rate: float = 0.3
    kinds: Sequence[str] = tuple(k.value for k in Fault if k is not Fault.MALFORMED_JSON)
    seed: int = 0

    def __post_init__(self) -> None:
        if not 0.0 <= self.rate <= 1.0:
            raise ValueError(f"expected 0 <= rate <= 1, got {self.rate}")
        self.kinds = [Fault(k) for k in self.kinds]
        self._rng = random.Random(self.seed)

    def __call__(self, index: int, request: dict[str, Any]) -> Fault | None:
        if self._rng.random() < self.rate:
            return self._rng.choice(list(self.kinds))
        return None


Reply = str | dict[str, Any] | Fault | ErrorReply | None
LLAMA_CPP_JSON_SCHEMA_ERROR = (
    'response_format type must be one of "text" or "json_object", but got: json_schema'
)
MALFORMED_CONTENT = '{"diagnosis": "community-acquired pneumonia", "confidence": 0.8, "evidence": ["'


def _count_tokens(text: str) -> int:
    """A deterministic stand-in for a tokenizer: whitespace-separated words."""
    return len(text.split())


def _text_of(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return " ".join(str(p.get("text", "")) for p in content if isinstance(p, dict))
    return ""


def _fault_kind(value: Any) -> Fault | None:
    if value is None:
        return None
    if isinstance(value, Fault):
        return value
    try:
        return Fault(str(value))
    except ValueError:
        raise ValueError(f"unknown fault {value!r}; expected one of {[f.value for f in Fault]}") from None


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = 256


class FakeOpenAIServer:
    """See the module docstring. Use as a context manager (or call start/stop)."""

    def __init__(
        self,
        replies: Sequence[Reply] | None = None,
        handler: Callable[[dict[str, Any]], Reply] | None = None,
        latency_s: float = 0.0,
        faults: Sequence[Any] | RandomFaults | Callable[[int, dict[str, Any]], Any] | None = None,
        reject_json_schema: bool = False,
        *,
        cycle: bool = False,
        default_reply: Reply = "OK",
        retry_after_s: float = 0.1,
        timeout_s: float = 5.0,
        model_name: str = "fake-model",
        require_api_key: str | None = None,
        host: str = "127.0.0.1",
        port: int = 0,
    ):
        self._replies = list(replies) if replies is not None else None
        self._handler = handler
        self.latency_s = float(latency_s)
        if faults is None or callable(faults):
            self._faults_list: list[Fault | None] | None = None
            self._faults_fn = faults
        else:
            self._faults_list = [_fault_kind(f) for f in faults]
            self._faults_fn = None
        self.reject_json_schema = reject_json_schema
        self.cycle = cycle
        self.default_reply = default_reply
        self.retry_after_s = retry_after_s
        self.timeout_s = timeout_s
        self.model_name = model_name
        self.require_api_key = require_api_key
        self._host, self._port = host, port

        self._lock = threading.RLock()  # re-entrant: a fault callable may read srv.requests
        self._requests: list[dict[str, Any]] = []
        self._headers: list[dict[str, str]] = []
        self._reply_index = 0
        self._faults_applied: list[tuple[int, str]] = []
        self._in_flight = 0
        self.max_in_flight = 0
        self._stop = threading.Event()
        self._conns: set[socket.socket] = set()
        self._httpd: _Server | None = None
        self._thread: threading.Thread | None = None
        self._ids = 0

    # -- lifecycle -----------------------------------------------------------------------------
    def start(self) -> FakeOpenAIServer:
        if self._httpd is not None:
            return self
        self._httpd = _Server((self._host, self._port), _make_handler(self))
        self._thread = threading.Thread(target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05},
                                        name="fake-openai-server", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._httpd is None:
            return
        self._stop.set()  # wakes handlers sleeping in latency / timeout faults
        self._httpd.shutdown()
        with self._lock:
            conns = list(self._conns)
        for c in conns:  # unblock keep-alive handlers waiting for a next request
            with contextlib.suppress(OSError):
                c.shutdown(socket.SHUT_RDWR)
        self._httpd.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)
        self._httpd = None

    def __enter__(self) -> FakeOpenAIServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- introspection -------------------------------------------------------------------------
    @property
    def port(self) -> int:
        if self._httpd is None:
            raise RuntimeError("server not started")
        return int(self._httpd.server_address[1])

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    @property
    def requests(self) -> list[dict[str, Any]]:
        """Bodies of every POST /v1/chat/completions received (including faulted ones)."""
        with self._lock:
            return list(self._requests)

    @property
    def request_headers(self) -> list[dict[str, str]]:
        with self._lock:
            return list(self._headers)

    @property
    def faults_applied(self) -> list[tuple[int, str]]:
        """(request index, fault kind) of every injected fault."""
        with self._lock:
            return list(self._faults_applied)

    @property
    def in_flight(self) -> int:
        return self._in_flight

    def stats(self) -> dict[str, Any]:
        """Counters (also served as JSON at ``GET /_fake/stats``)."""
        with self._lock:
            return {"requests": len(self._requests), "in_flight": self._in_flight,
                    "max_in_flight": self.max_in_flight,
                    "faults_applied": [list(f) for f in self._faults_applied]}

    def set_replies(self, replies: Sequence[Reply]) -> None:
        with self._lock:
            self._replies = list(replies)
            self._reply_index = 0

    # -- request logic (called from handler threads) -------------------------------------------
    def _register(self, body: dict[str, Any], headers: dict[str, str]) -> int:
        with self._lock:
            idx = len(self._requests)
            self._requests.append(body)
            self._headers.append(headers)
            self._in_flight += 1
            self.max_in_flight = max(self.max_in_flight, self._in_flight)
            return idx

    def _done(self) -> None:
        with self._lock:
            self._in_flight -= 1

    def _pick_fault(self, idx: int, body: dict[str, Any]) -> Fault | None:
        with self._lock:
            if self._faults_list is not None:
                fault = self._faults_list[idx] if idx < len(self._faults_list) else None
            elif self._faults_fn is not None:
                fault = _fault_kind(self._faults_fn(idx, body))
            else:
                fault = None
            if fault is not None:
                self._faults_applied.append((idx, fault.value))
            return fault

    def _next_reply(self, body: dict[str, Any]) -> Reply:
        if self._handler is not None:
            reply = self._handler(body)
            return self.default_reply if reply is None else reply
        with self._lock:
            if self._replies is None:
                return self.default_reply
            if self._reply_index >= len(self._replies):
                if not self.cycle or not self._replies:
                    return ErrorReply(410, f"fake server: replies exhausted after {len(self._replies)} replies")
                self._reply_index = 0
            reply = self._replies[self._reply_index]
            self._reply_index += 1
            return reply

    def _completion(self, body: dict[str, Any], reply: str | dict[str, Any]) -> dict[str, Any]:
        if isinstance(reply, dict) and "choices" in reply:
            return reply
        spec: dict[str, Any] = {"content": reply} if isinstance(reply, str) else dict(reply)
        content = spec.get("content")
        message: dict[str, Any] = {"role": "assistant", "content": content}
        calls = []
        for i, tc in enumerate(spec.get("tool_calls") or []):
            args = tc.get("arguments", {})
            calls.append({
                "id": tc.get("id") or f"call_{self._next_id()}_{i}",
                "type": "function",
                "function": {"name": tc["name"],
                             "arguments": args if isinstance(args, str) else json.dumps(args)},
            })
        if calls:
            message["tool_calls"] = calls
        prompt_text = " ".join(_text_of(m.get("content")) for m in body.get("messages") or []
                               if isinstance(m, dict))
        completion_text = (content or "") + "".join(c["function"]["arguments"] for c in calls)
        pt = max(1, _count_tokens(prompt_text))
        ct = max(1, _count_tokens(completion_text))
        usage = spec.get("usage") or {"prompt_tokens": pt, "completion_tokens": ct, "total_tokens": pt + ct}
        return {
            "id": f"chatcmpl-fake-{self._next_id()}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": body.get("model") or self.model_name,
            "system_fingerprint": "fake",
            "choices": [{"index": 0, "message": message, "logprobs": None,
                         "finish_reason": spec.get("finish_reason") or ("tool_calls" if calls else "stop")}],
            "usage": usage,
        }

    def _next_id(self) -> int:
        with self._lock:
            self._ids += 1
            return self._ids


def _make_handler(server: FakeOpenAIServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        timeout = 30  # idle keep-alive connections close eventually
        # Headers and body go out in two writes; with Nagle on, the body waits for the
        # client's delayed ACK (~40 ms per request on Linux), which would swamp benchmarks.
        disable_nagle_algorithm = True

        def setup(self) -> None:
            super().setup()
            with server._lock:
                server._conns.add(self.connection)

        def finish(self) -> None:
            with contextlib.suppress(OSError):
                super().finish()
            with server._lock:
                server._conns.discard(self.connection)

        def log_message(self, format: str, *args: Any) -> None:  # quiet
            return

        # -- helpers ---------------------------------------------------------------------------
        def _send_json(self, status: int, payload: Any, headers: dict[str, str] | None = None) -> None:
            data = json.dumps(payload).encode("utf-8")
            self._send_bytes(status, data, "application/json", headers)

        def _answered(self) -> None:
            """Leave the in-flight count *before* the first byte of the answer goes out:
            the client may release its slot and send another request as soon as it reads
            the answer, and must not be seen overlapping with this one."""
            if getattr(self, "_counted", False):
                self._counted = False
                server._done()

        def _send_bytes(self, status: int, data: bytes, ctype: str, headers: dict[str, str] | None = None) -> None:
            self._answered()
            self.send_response(status)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(data)))
            for k, v in (headers or {}).items():
                self.send_header(k, v)
            self.end_headers()
            self.wfile.write(data)
            self.wfile.flush()

        def _error(self, status: int, message: str, headers: dict[str, str] | None = None,
                   etype: str = "server_error") -> None:
            self._send_json(status, {"error": {"code": status, "message": message, "type": etype}}, headers)

        def _drop(self) -> None:
            self._answered()
            self.close_connection = True
            with contextlib.suppress(OSError):
                self.connection.shutdown(socket.SHUT_RDWR)

        def _read_body(self) -> Any:
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length) if length else b""
            try:
                return json.loads(raw or b"null")
            except json.JSONDecodeError:
                return None

        def _authorised(self) -> bool:
            if server.require_api_key is None:
                return True
            return self.headers.get("Authorization", "") == f"Bearer {server.require_api_key}"

        # -- endpoints -------------------------------------------------------------------------
        def do_GET(self) -> None:
            if self.path.rstrip("/") == "/_fake/stats":
                self._send_json(200, server.stats())
                return
            if self.path.rstrip("/") == "/_fake/requests":
                self._send_json(200, server.requests)
                return
            if self.path.rstrip("/") in ("/v1/models", "/models"):
                if not self._authorised():
                    self._error(401, "invalid api key", etype="invalid_request_error")
                    return
                self._send_json(200, {"object": "list", "data": [
                    {"id": server.model_name, "object": "model", "created": 0, "owned_by": "medgym"}]})
            else:
                self._error(404, f"no route GET {self.path}", etype="invalid_request_error")

        def do_POST(self) -> None:
            if self.path.rstrip("/") not in ("/v1/chat/completions", "/chat/completions"):
                self._read_body()
                self._error(404, f"no route POST {self.path}", etype="invalid_request_error")
                return
            body = self._read_body()
            if not isinstance(body, dict):
                self._error(400, "expected a JSON object body", etype="invalid_request_error")
                return
            idx = server._register(body, {k.lower(): v for k, v in self.headers.items()})
            self._counted = True
            try:
                self._chat(idx, body)
            except (BrokenPipeError, ConnectionResetError):  # the client gave up (its timeout)
                self.close_connection = True
            finally:
                self._answered()

        def _chat(self, idx: int, body: dict[str, Any]) -> None:
            if not self._authorised():
                self._error(401, "invalid api key", etype="invalid_request_error")
                return
            if server.latency_s > 0 and server._stop.wait(server.latency_s):
                self._drop()
                return
            fault = server._pick_fault(idx, body)
            if fault is None and server.reject_json_schema:
                rf = body.get("response_format")
                if isinstance(rf, dict) and rf.get("type") == "json_schema":
                    self._error(500, LLAMA_CPP_JSON_SCHEMA_ERROR)
                    return
            reply = None if fault is not None else server._next_reply(body)
            if isinstance(reply, Fault):
                with server._lock:
                    server._faults_applied.append((idx, reply.value))
                fault, reply = reply, None
            if fault is not None:
                self._fault(fault, body)
                return
            if isinstance(reply, ErrorReply):
                self._error(reply.status, reply.message, reply.headers,
                            etype="server_error" if reply.status >= 500 else "invalid_request_error")
                return
            if not isinstance(reply, str | dict):
                self._error(500, f"fake server: unsupported reply {reply!r}")
                return
            self._send_json(200, server._completion(body, reply))

        def _fault(self, fault: Fault, body: dict[str, Any]) -> None:
            if fault is Fault.RATE_LIMIT:
                ra = server.retry_after_s
                ra_text = str(int(ra)) if float(ra).is_integer() else f"{ra:g}"
                self._error(429, "Rate limit reached (fake)", {"Retry-After": ra_text},
                            etype="rate_limit_error")
            elif fault is Fault.SERVER_ERROR:
                self._error(500, "internal server error (fake)")
            elif fault is Fault.TIMEOUT:
                server._stop.wait(server.timeout_s)
                self._drop()
            elif fault is Fault.DROP:
                self._drop()
            elif fault is Fault.GARBAGE:
                self._send_bytes(200, b"<html><body>502 Bad Gateway</body></html>{{{", "application/json")
            elif fault is Fault.MALFORMED_JSON:
                self._send_json(200, server._completion(body, MALFORMED_CONTENT))

    return Handler


# ---------------------------------------------------------------------------------------------
# Out-of-process mode: the server in its own interpreter, so that its CPU time does not
# compete with the client for the GIL (benchmarks of the harness at concurrency 32).


def _encode_reply(reply: Reply) -> Any:
    if isinstance(reply, Fault):
        return {"__fault__": reply.value}
    if isinstance(reply, ErrorReply):
        return {"__error__": reply.status, "message": reply.message, "headers": reply.headers}
    return reply


def _decode_reply(item: Any) -> Reply:
    if isinstance(item, dict) and "__fault__" in item:
        return Fault(item["__fault__"])
    if isinstance(item, dict) and "__error__" in item:
        return ErrorReply(int(item["__error__"]), item.get("message", "fake error"), item.get("headers") or {})
    return item


class FakeOpenAIServerProcess:
    """The same server, run in a child process (``python -m medgym.llm.fake_server``).

    Takes the JSON-expressible subset of :class:`FakeOpenAIServer`'s arguments (no
    ``handler``; ``faults`` as a list of kinds or a :class:`RandomFaults`). ``requests``
    and :meth:`stats` are fetched over HTTP. The child exits when this object stops or
    when the parent process dies (it watches its stdin).
    """

    def __init__(self, replies: Sequence[Reply] | None = None, latency_s: float = 0.0,
                 faults: Sequence[Any] | RandomFaults | None = None, reject_json_schema: bool = False,
                 **options: Any):
        if "handler" in options:
            raise TypeError("a handler cannot cross a process boundary; use FakeOpenAIServer in-process")
        if isinstance(faults, RandomFaults):
            fault_spec: Any = {"random": {"rate": faults.rate, "kinds": [str(k) for k in faults.kinds],
                                          "seed": faults.seed}}
        else:
            fault_spec = None if faults is None else [None if f is None else str(_fault_kind(f)) for f in faults]
        self._config = {
            "replies": None if replies is None else [_encode_reply(r) for r in replies],
            "latency_s": latency_s, "faults": fault_spec, "reject_json_schema": reject_json_schema,
            **{k: _encode_reply(v) if k == "default_reply" else v for k, v in options.items()},
        }
        self._proc: Any = None
        self.base_url = ""

    def start(self) -> FakeOpenAIServerProcess:
        import subprocess
        import sys

        self._proc = subprocess.Popen(
            [sys.executable, "-m", "medgym.llm.fake_server", "--config", json.dumps(self._config)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        line = self._proc.stdout.readline().strip()
        if not line.startswith("READY "):
            self.stop()
            raise RuntimeError(f"fake server process failed to start (said {line!r})")
        self.base_url = line.split(" ", 1)[1]
        return self

    def _get(self, path: str) -> Any:
        import urllib.request

        root = self.base_url.rsplit("/v1", 1)[0]
        with urllib.request.urlopen(root + path, timeout=10) as resp:
            return json.loads(resp.read())

    def stats(self) -> dict[str, Any]:
        return self._get("/_fake/stats")

    @property
    def requests(self) -> list[dict[str, Any]]:
        return self._get("/_fake/requests")

    @property
    def max_in_flight(self) -> int:
        return int(self.stats()["max_in_flight"])

    def stop(self) -> None:
        import subprocess

        proc, self._proc = self._proc, None
        if proc is None:
            return
        with contextlib.suppress(OSError):
            proc.stdin.close()  # the child shuts down on EOF
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=5)
        if proc.stdout is not None:
            proc.stdout.close()

    def __enter__(self) -> FakeOpenAIServerProcess:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def _main(argv: Sequence[str] | None = None) -> int:
    import argparse
    import sys

    ap = argparse.ArgumentParser(description="Run the fake OpenAI-compatible server until stdin closes.")
    ap.add_argument("--config", default="{}", help="JSON object of FakeOpenAIServer arguments")
    ap.add_argument("--port", type=int, default=0)
    args = ap.parse_args(argv)
    cfg = json.loads(args.config)
    if cfg.get("replies") is not None:
        cfg["replies"] = [_decode_reply(r) for r in cfg["replies"]]
    if "default_reply" in cfg:
        cfg["default_reply"] = _decode_reply(cfg["default_reply"])
    faults = cfg.get("faults")
    if isinstance(faults, dict) and "random" in faults:
        cfg["faults"] = RandomFaults(**faults["random"])
    cfg.setdefault("port", args.port)
    with FakeOpenAIServer(**cfg) as srv:
        print(f"READY {srv.base_url}", flush=True)
        with contextlib.suppress(KeyboardInterrupt):
            sys.stdin.read()  # returns at EOF: the parent closed the pipe or died
    return 0


if __name__ == "__main__":
    raise SystemExit(_main())
