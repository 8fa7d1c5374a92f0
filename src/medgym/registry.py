"""A small named registry with duplicate detection and did-you-mean errors.

Environments, agents, judges and metrics are all looked up by name. One registry
type keeps the behaviour identical everywhere: registering a name twice raises,
and an unknown name raises :class:`~medgym.errors.UnknownNameError` with the
closest matches.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterator
from typing import Generic, TypeVar

from medgym.errors import MedgymError, UnknownNameError

T = TypeVar("T")


def did_you_mean(name: str, known: list[str], n: int = 3) -> list[str]:
    """Closest known names to ``name`` (case-insensitive), best first."""
    lowered = {k.lower(): k for k in known}
    hits = difflib.get_close_matches(name.lower(), list(lowered), n=n, cutoff=0.5)
    return [lowered[h] for h in hits]


class Registry(Generic[T]):
    """Name -> object mapping for one kind of thing (``kind`` appears in errors)."""

    def __init__(self, kind: str):
        self.kind = kind
        self._items: dict[str, T] = {}

    def register(self, name: str, obj: T) -> T:
        if name in self._items:
            raise MedgymError(f"{self.kind} {name!r} is already registered")
        self._items[name] = obj
        return obj

    def decorator(self, name: str) -> Callable[[T], T]:
        def wrap(obj: T) -> T:
            return self.register(name, obj)

        return wrap

    def get(self, name: str) -> T:
        try:
            return self._items[name]
        except KeyError:
            known = sorted(self._items)
            raise UnknownNameError(self.kind, name, known, did_you_mean(name, known)) from None

    def names(self) -> list[str]:
        return sorted(self._items)

    def __contains__(self, name: object) -> bool:
        return name in self._items

    def __iter__(self) -> Iterator[str]:
        return iter(self.names())

    def __len__(self) -> int:
        return len(self._items)
