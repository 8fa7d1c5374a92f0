"""The eight stress conditions of MedBench v5: the subsets of {O, I, D}.

O = information omission, I = contradiction injection, D = evidence delay. A
condition can be given as a name ("O+I", "i+o", "baseline"), as a set of flags
({"O", "I"} or {"omission", "injection"}), or as a :class:`Condition`; all
spellings normalise to one canonical name in the paper's order O, I, D.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from medgym.errors import UnknownNameError
from medgym.registry import did_you_mean

_FLAG_ALIASES = {
    "o": "O", "omission": "O", "omit": "O", "information_omission": "O",
    "i": "I", "injection": "I", "contradiction": "I", "contradiction_injection": "I",
    "d": "D", "delay": "D", "evidence_delay": "D",
}  # fmt: skip
_BASELINE_NAMES = {"baseline", "none", "", "∅", "empty", "base"}
_ORDER = "OID"


@dataclass(frozen=True, order=True)
class Condition:
    """One stress condition; ``name`` is canonical ("baseline", "O", ..., "O+I+D")."""

    omission: bool = False
    injection: bool = False
    delay: bool = False

    @property
    def flags(self) -> frozenset[str]:
        return frozenset(
            f for f, on in zip(_ORDER, (self.omission, self.injection, self.delay), strict=True) if on
        )

    @property
    def name(self) -> str:
        return "+".join(f for f in _ORDER if f in self.flags) or "baseline"

    @property
    def incomplete_information(self) -> bool:
        """True when information starts out incomplete (O or D): IR and PCR apply."""
        return self.omission or self.delay

    def __str__(self) -> str:
        return self.name

    @classmethod
    def from_flags(cls, flags: Iterable[str]) -> Condition:
        canon = set()
        for f in flags:
            key = str(f).strip().lower()
            if key not in _FLAG_ALIASES:
                raise UnknownNameError(
                    "stress flag", str(f), ["O", "I", "D"], did_you_mean(key, list(_FLAG_ALIASES))
                )
            canon.add(_FLAG_ALIASES[key])
        return cls("O" in canon, "I" in canon, "D" in canon)


ALL_CONDITIONS: tuple[Condition, ...] = tuple(
    Condition(*bits)
    for bits in [
        (False, False, False), (True, False, False), (False, True, False), (False, False, True),
        (True, True, False), (True, False, True), (False, True, True), (True, True, True),
    ]
)  # fmt: skip
CONDITION_NAMES: tuple[str, ...] = tuple(c.name for c in ALL_CONDITIONS)


def parse_condition(value: str | Condition | Iterable[str] | None) -> Condition:
    """Normalise any accepted spelling to a Condition; unknown names list the valid ones."""
    if value is None or isinstance(value, Condition):
        return value or ALL_CONDITIONS[0]
    if isinstance(value, str):
        text = value.strip()
        if text.lower() in _BASELINE_NAMES:
            return ALL_CONDITIONS[0]
        parts = [p for p in text.replace(",", "+").replace(" ", "+").split("+") if p]
        try:
            return Condition.from_flags(parts)
        except UnknownNameError:
            raise UnknownNameError(
                "condition", value, list(CONDITION_NAMES), did_you_mean(value, list(CONDITION_NAMES))
            ) from None
    return Condition.from_flags(value)
