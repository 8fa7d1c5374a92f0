"""Typed errors of the knowledge-base index, each telling the user how to fix it.

They derive from :class:`~medgym.errors.MedgymError`, so the CLI prints them as one
line with exit code 2.
"""

from __future__ import annotations

from medgym.errors import MedgymError


class KnowledgeBaseIndexError(MedgymError):
    """The knowledge-base index cannot be used; the message says which command fixes it."""

    fix = "medgym kb build"

    def __init__(self, path: str, problem: str):
        self.path = path
        self.problem = problem
        super().__init__(f"knowledge-base index at {path}: {problem}; run `{self.fix}`")


class IndexMissingError(KnowledgeBaseIndexError):
    """No index has been built in this cache directory."""


class IndexStaleError(KnowledgeBaseIndexError):
    """The index was built from other documents than the ones on disk now."""


class IndexCorruptError(KnowledgeBaseIndexError):
    """The index exists but cannot be read or fails its integrity checks."""

    fix = "medgym kb build --force"
