"""A minimal asyncio OpenAI-compatible server that answers every request after a fixed delay.

For throughput benchmarks only: ``FakeOpenAIServer`` (threads, fault injection, request
recording) is the test fixture, but with 32+ concurrent clients its thread-per-request
design adds its own queueing on top of the latency being simulated. This server runs on
one event loop with HTTP/1.1 keep-alive, so a fixed 200 ms really is 200 ms at any
concurrency, and the benchmark measures the harness rather than the stand-in endpoint.

    python -m medgym.llm.latency_server --latency 0.2 --reply "Final diagnosis: x."
    # prints "PORT <n>" on stdout once listening; exits when stdin closes

or, from Python, ``with LatencyServer(latency_s=0.2) as srv: srv.base_url``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import subprocess
import sys
import time
from typing import Any


def _completion(reply: str, model: str) -> bytes:
    body = {
        "id": f"chatcmpl-{time.monotonic_ns()}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": model,
        "choices": [{"index": 0, "message": {"role": "assistant", "content": reply}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 10, "completion_tokens": len(reply.split()), "total_tokens": 10 + len(reply.split())},
    }
    return json.dumps(body).encode()


async def _handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, latency: float, reply: str) -> None:
    try:
        while True:
            head = await reader.readuntil(b"\r\n\r\n")
            lines = head.decode("latin-1").split("\r\n")
            method, path, _ = lines[0].split(" ", 2)
            headers = {k.strip().lower(): v.strip() for k, _, v in (ln.partition(":") for ln in lines[1:] if ln)}
            n = int(headers.get("content-length", "0"))
            raw = await reader.readexactly(n) if n else b""
            if method == "POST" and path.rstrip("/").endswith("/chat/completions"):
                await asyncio.sleep(latency)
                model = json.loads(raw or b"{}").get("model", "latency-model")
                payload, status = _completion(reply, model), "200 OK"
            elif method == "GET" and path.rstrip("/").endswith("/models"):
                payload, status = json.dumps({"object": "list", "data": [{"id": "latency-model"}]}).encode(), "200 OK"
            else:
                payload, status = b'{"error": {"message": "not found"}}', "404 Not Found"
            writer.write(
                f"HTTP/1.1 {status}\r\nContent-Type: application/json\r\nContent-Length: {len(payload)}\r\n"
                f"Connection: keep-alive\r\n\r\n".encode() + payload
            )
            await writer.drain()
    except (asyncio.IncompleteReadError, asyncio.CancelledError, ConnectionError, ValueError):
        pass  # client went away, or the server is shutting down with idle keep-alive connections
    finally:
        writer.close()


async def _serve(port: int, latency: float, reply: str) -> None:
    server = await asyncio.start_server(lambda r, w: _handle(r, w, latency, reply), "127.0.0.1", port, backlog=1024)
    print(f"PORT {server.sockets[0].getsockname()[1]}", flush=True)
    loop = asyncio.get_running_loop()
    await loop.run_in_executor(None, sys.stdin.read)  # parent closed our stdin: shut down
    server.close()


class LatencyServer:
    """Run the server in a child process (its own interpreter, so it never shares our GIL)."""

    def __init__(self, latency_s: float = 0.2, reply: str = "OK"):
        self.latency_s = latency_s
        self.reply = reply
        self._proc: subprocess.Popen[str] | None = None
        self.base_url = ""

    def __enter__(self) -> LatencyServer:
        cmd = [sys.executable, "-m", "medgym.llm.latency_server", "--latency", str(self.latency_s), "--reply", self.reply]
        self._proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        line = self._proc.stdout.readline() if self._proc.stdout else ""
        if not line.startswith("PORT "):
            self._proc.kill()
            raise RuntimeError(f"latency server failed to start: {line!r}")
        self.base_url = f"http://127.0.0.1:{int(line.split()[1])}/v1"
        return self

    def __exit__(self, *exc: Any) -> None:
        if self._proc is not None:
            if self._proc.stdin:
                self._proc.stdin.close()
            try:
                self._proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self._proc.kill()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--port", type=int, default=0)
    ap.add_argument("--latency", type=float, default=0.2)
    ap.add_argument("--reply", default="OK")
    a = ap.parse_args()
    asyncio.run(_serve(a.port, a.latency, a.reply))


if __name__ == "__main__":
    main()
