"""Thread-safe token and request accounting, kept per role ("agent" / "judge").

Agent and judge tokens are reported separately because they answer different
questions: the agent's cost is what is being evaluated, the judge's cost is the price
of the evaluation. Every :class:`~medgym.llm.LLMClient` records into its own meter
and into :data:`GLOBAL_USAGE`, which aggregates every client of the process.
"""

from __future__ import annotations

import threading
from dataclasses import asdict, dataclass, fields
from typing import Any

#: Counters kept for each role. ``calls`` are logical calls (chat / chat_json),
#: ``requests`` HTTP attempts, ``retries`` attempts after a retryable failure,
#: ``cached`` calls answered from the disk cache (zero tokens), ``errors`` calls that
#: raised (``transport_errors`` + ``output_errors``). Tokens are counted for every
#: completion the server returned, including replies later rejected as invalid
#: JSON: they were spent.
COUNTERS = ("calls", "requests", "retries", "cached", "errors", "transport_errors", "output_errors",
            "prompt_tokens", "completion_tokens", "total_tokens")

DEFAULT_ROLES = ("agent", "judge")


@dataclass
class RoleUsage:
    calls: int = 0
    requests: int = 0
    retries: int = 0
    cached: int = 0
    errors: int = 0
    transport_errors: int = 0
    output_errors: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    total_tokens: int = 0

    def add(self, other: RoleUsage) -> None:
        for f in fields(self):
            setattr(self, f.name, getattr(self, f.name) + getattr(other, f.name))


class UsageMeter:
    """Running totals per role; safe to share between threads and event loops."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._roles: dict[str, RoleUsage] = {}

    def record(self, role: str, **counts: int) -> None:
        """Add ``counts`` (names from :data:`COUNTERS`) to ``role``'s totals."""
        unknown = set(counts) - set(COUNTERS)
        if unknown:
            raise ValueError(f"unknown usage counters {sorted(unknown)}; expected some of {list(COUNTERS)}")
        with self._lock:
            bucket = self._roles.setdefault(role, RoleUsage())
            for name, n in counts.items():
                setattr(bucket, name, getattr(bucket, name) + int(n))

    def snapshot(self) -> dict[str, dict[str, int]]:
        """A copy of the totals: ``{"agent": {...}, "judge": {...}, ..., "total": {...}}``.

        "agent" and "judge" are always present (zeros if unused) so consumers can
        index them without checks; other roles appear once used.
        """
        with self._lock:
            roles = {r: RoleUsage(**asdict(u)) for r, u in self._roles.items()}
        for r in DEFAULT_ROLES:
            roles.setdefault(r, RoleUsage())
        total = RoleUsage()
        for u in roles.values():
            total.add(u)
        out: dict[str, dict[str, int]] = {r: asdict(u) for r, u in sorted(roles.items())}
        out["total"] = asdict(total)
        return out

    def role(self, role: str) -> dict[str, int]:
        """Totals of one role (zeros if it was never used)."""
        with self._lock:
            return asdict(self._roles.get(role, RoleUsage()))

    def reset(self) -> None:
        with self._lock:
            self._roles.clear()

    def __repr__(self) -> str:
        snap = self.snapshot()["total"]
        return f"UsageMeter(calls={snap['calls']}, total_tokens={snap['total_tokens']}, cached={snap['cached']})"

    def __getstate__(self) -> dict[str, Any]:  # picklable (for process pools)
        return {"roles": {r: asdict(u) for r, u in self._roles.items()}}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self._lock = threading.Lock()
        self._roles = {r: RoleUsage(**u) for r, u in state["roles"].items()}


#: Aggregate of every client in this process.
GLOBAL_USAGE = UsageMeter()


def global_usage() -> UsageMeter:
    """The process-wide meter (same object as :data:`GLOBAL_USAGE`)."""
    return GLOBAL_USAGE
