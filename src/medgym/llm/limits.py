"""Process-wide limits per endpoint: requests in flight and requests per minute.

Why process-wide: an agent client, a judge client and the batch runner's many
episodes may all talk to the same vLLM server; the limit protects the server, so it
must count every request of the process, not each client's own. Limits are keyed by
base URL; when clients of one endpoint ask for different limits, the tightest wins.

The in-flight limiter works for threads and for coroutines on any number of event
loops at once (a runner may use a thread pool in which each worker runs its own
``asyncio.run``): waiters queue in one FIFO and a released slot is handed directly to
the next waiter -- a thread through an ``Event``, a coroutine through a future
resolved with ``loop.call_soon_threadsafe``.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import threading
import time
from collections.abc import AsyncIterator, Iterator


class _Waiter:
    __slots__ = ("event", "fut", "granted", "loop")

    def __init__(self, loop: asyncio.AbstractEventLoop | None = None,
                 fut: asyncio.Future[None] | None = None):
        self.loop = loop
        self.fut = fut
        self.event = threading.Event() if loop is None else None
        self.granted = False

    def grant(self) -> bool:
        """Hand a slot to this waiter (caller holds the limiter lock)."""
        if self.event is not None:
            self.granted = True
            self.event.set()
            return True
        if self.loop is None or self.fut is None:
            return False
        try:
            self.loop.call_soon_threadsafe(_resolve, self.fut)
        except RuntimeError:  # its event loop is closed: nobody is waiting any more
            return False
        self.granted = True
        return True


def _resolve(fut: asyncio.Future[None]) -> None:
    if not fut.done():
        fut.set_result(None)


class InFlightLimiter:
    """A FIFO counting semaphore usable from threads and from any event loop."""

    def __init__(self, capacity: int):
        if capacity < 1:
            raise ValueError(f"expected capacity >= 1, got {capacity}")
        self._lock = threading.Lock()
        self._capacity = capacity
        self._in_flight = 0
        self._waiters: collections.deque[_Waiter] = collections.deque()
        self.max_in_flight = 0  # high-water mark, for tests and benchmarks

    @property
    def capacity(self) -> int:
        return self._capacity

    @property
    def in_flight(self) -> int:
        return self._in_flight

    def tighten(self, capacity: int) -> None:
        """Lower the capacity (never raises it: the tightest client wins)."""
        with self._lock:
            self._capacity = max(1, min(self._capacity, capacity))

    def _take_locked(self) -> bool:
        if self._in_flight < self._capacity and not self._waiters:
            self._in_flight += 1
            self.max_in_flight = max(self.max_in_flight, self._in_flight)
            return True
        return False

    def acquire(self) -> None:
        with self._lock:
            if self._take_locked():
                return
            w = _Waiter()
            self._waiters.append(w)
        try:
            w.event.wait()  # type: ignore[union-attr]  # interruptible by Ctrl-C
        except BaseException:
            with self._lock:
                if w.granted:
                    self._release_locked()
                else:
                    with contextlib.suppress(ValueError):
                        self._waiters.remove(w)
            raise

    async def acquire_async(self) -> None:
        loop = asyncio.get_running_loop()
        with self._lock:
            if self._take_locked():
                return
            fut: asyncio.Future[None] = loop.create_future()
            w = _Waiter(loop, fut)
            self._waiters.append(w)
        try:
            await fut
        except BaseException:  # cancelled: give the slot back if it was already handed over
            with self._lock:
                if w.granted:
                    self._release_locked()
                else:
                    with contextlib.suppress(ValueError):
                        self._waiters.remove(w)
            raise

    def release(self) -> None:
        with self._lock:
            self._release_locked()

    def _release_locked(self) -> None:
        if self._in_flight <= self._capacity:
            while self._waiters:
                w = self._waiters.popleft()
                if w.grant():  # the slot moves to the waiter: in_flight unchanged
                    return
        self._in_flight -= 1

    @contextlib.contextmanager
    def slot(self) -> Iterator[None]:
        self.acquire()
        try:
            yield
        finally:
            self.release()

    @contextlib.asynccontextmanager
    async def slot_async(self) -> AsyncIterator[None]:
        await self.acquire_async()
        try:
            yield
        finally:
            self.release()


class RatePacer:
    """Spaces request starts at least ``60 / rpm`` seconds apart.

    A reservation is taken under a lock and the wait happens outside it, so the
    pacer works identically for threads and coroutines. Pacing (rather than a burst
    window) never exceeds ``rpm`` in any 60 s window and never bursts, which is what
    providers that enforce per-second slices of their RPM limit expect.
    """

    def __init__(self, rpm: float):
        if rpm <= 0:
            raise ValueError(f"expected requests_per_minute > 0, got {rpm}")
        self._lock = threading.Lock()
        self._interval = 60.0 / rpm
        self._next = 0.0

    @property
    def interval(self) -> float:
        return self._interval

    def tighten(self, rpm: float) -> None:
        with self._lock:
            self._interval = max(self._interval, 60.0 / rpm)

    def reserve(self) -> float:
        """Reserve the next start time; returns how long to wait before starting."""
        with self._lock:
            now = time.monotonic()
            start = max(now, self._next)
            self._next = start + self._interval
            return start - now

    def wait(self) -> None:
        delay = self.reserve()
        if delay > 0:
            time.sleep(delay)

    async def wait_async(self) -> None:
        delay = self.reserve()
        if delay > 0:
            await asyncio.sleep(delay)


class EndpointLimits:
    """The in-flight limiter and optional pacer of one endpoint."""

    def __init__(self, max_concurrency: int, requests_per_minute: float | None):
        self.inflight = InFlightLimiter(max_concurrency)
        self.pacer = RatePacer(requests_per_minute) if requests_per_minute else None
        self._lock = threading.Lock()

    def tighten(self, max_concurrency: int, requests_per_minute: float | None) -> None:
        self.inflight.tighten(max_concurrency)
        if requests_per_minute:
            with self._lock:
                if self.pacer is None:
                    self.pacer = RatePacer(requests_per_minute)
                else:
                    self.pacer.tighten(requests_per_minute)


_registry: dict[str, EndpointLimits] = {}
_registry_lock = threading.Lock()
_process_share = 1.0


def _scaled(max_concurrency: int, requests_per_minute: float | None) -> tuple[int, float | None]:
    cap = max(1, int(max_concurrency * _process_share))
    return cap, (requests_per_minute * _process_share if requests_per_minute else None)


def set_process_share(share: float) -> None:
    """Give this process ``share`` (0-1] of every endpoint's limits.

    Limits are per process, so a run sharded over N worker processes would otherwise
    allow N times the configured requests in flight and N times the RPM. Each worker
    calls this with 1/N right after it starts: limits that already exist (inherited
    through fork) are tightened in place, and limits created later are scaled too, so
    the run as a whole stays within the configured global limits.
    """
    global _process_share
    if not 0 < share <= 1:
        raise ValueError(f"expected a process share in (0, 1], got {share}")
    with _registry_lock:
        _process_share = share
        for lim in _registry.values():
            lim.inflight.tighten(max(1, int(lim.inflight.capacity * share)))
            if lim.pacer is not None:
                lim.pacer.tighten(60.0 / lim.pacer.interval * share)


def limits_for(endpoint: str, max_concurrency: int, requests_per_minute: float | None) -> EndpointLimits:
    """The shared limits of ``endpoint``, created or tightened with these values."""
    max_concurrency, requests_per_minute = _scaled(max_concurrency, requests_per_minute)
    key = endpoint.rstrip("/")
    with _registry_lock:
        lim = _registry.get(key)
        if lim is None:
            lim = _registry[key] = EndpointLimits(max_concurrency, requests_per_minute)
            return lim
    lim.tighten(max_concurrency, requests_per_minute)
    return lim


def reset_limits(endpoint: str | None = None) -> None:
    """Forget the limits of one endpoint (or all): the next client starts fresh.

    Only meant for tests and long-lived processes that reconfigure an endpoint;
    clients that already hold the old limiter keep using it.
    """
    with _registry_lock:
        if endpoint is None:
            _registry.clear()
        else:
            _registry.pop(endpoint.rstrip("/"), None)
