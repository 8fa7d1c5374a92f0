"""Typed errors for medgym.

Every error that a user can trigger with bad input derives from :class:`MedgymError`,
so callers can catch one type at the boundary (the CLI turns it into a one-line
message and exit code 2). Messages follow the "expected X, got Y" convention and
carry a did-you-mean hint where a name was mistyped.
"""

from __future__ import annotations


class MedgymError(Exception):
    """Base class for every error medgym raises on purpose."""


class DataValidationError(MedgymError, ValueError):
    """A data file (case, document, task, attack library...) failed validation.

    The message names the file, the record id, the field, what was expected and
    what was found. Loading is all-or-nothing: nothing is half-loaded.
    """

    def __init__(self, path: str, problems: list[str], record_id: str | None = None):
        self.path = path
        self.record_id = record_id
        self.problems = problems
        head = f"{path}" + (f" (id {record_id!r})" if record_id else "")
        body = "\n".join(f"  - {p}" for p in problems)
        super().__init__(f"invalid data in {head}:\n{body}")


class UnknownNameError(MedgymError, KeyError):
    """A name (case id, condition, agent, judge, metric...) is not registered."""

    def __init__(self, kind: str, name: str, known: list[str], suggestions: list[str] | None = None):
        self.kind = kind
        self.name = name
        self.known = known
        self.suggestions = suggestions or []
        msg = f"unknown {kind} {name!r}"
        if self.suggestions:
            msg += f"; did you mean {' or '.join(repr(s) for s in self.suggestions)}?"
        if len(known) <= 12:
            msg += f" (valid: {', '.join(known)})"
        else:
            msg += f" ({len(known)} known; list them with the CLI)"
        super().__init__(msg)

    def __str__(self) -> str:  # KeyError would otherwise repr() the message
        return self.args[0]


class ActionError(MedgymError, ValueError):
    """An environment action is malformed (wrong type, too long, bad tool call)."""


class EpisodeStateError(MedgymError, RuntimeError):
    """An environment method was called in the wrong state (step before reset...)."""


class TrajectoryFormatError(MedgymError, ValueError):
    """A trajectory file does not follow the documented, versioned format."""
