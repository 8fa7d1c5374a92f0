"""Text spaces wide enough for clinical language.

Gymnasium's ``spaces.Text`` defaults to alphanumerics only, and to ``min_length=1``.
Clinical text needs punctuation, whitespace and symbols such as °, µ, ±, ≥, ≤ and
typographic quotes; an empty reply is a legitimate (if poor) action.
"""

from __future__ import annotations

import string

from gymnasium import spaces

CLINICAL_EXTRA_CHARS = "°µμ±≥≤×÷–—‘’“”…→←↑↓·²³½¼¾αβγδκ€£éèàüöäñç"
CLINICAL_CHARSET = frozenset(string.printable + CLINICAL_EXTRA_CHARS)
CLINICAL_CHARSET_STR = "".join(sorted(CLINICAL_CHARSET))


def text_space(max_length: int) -> spaces.Text:
    """A Text space over the clinical charset, from 0 to ``max_length`` characters."""
    return spaces.Text(max_length=max_length, min_length=0, charset=CLINICAL_CHARSET_STR)


_FALLBACKS = {"\u00a0": " ", "\u2009": " ", "\u202f": " ", "\u2212": "-", "\u2010": "-", "\u2011": "-"}


def to_charset(text: str) -> str:
    """Map characters outside the clinical charset to close equivalents so observations stay in the space.

    The packaged bank is tested to need no mapping; this guards user-supplied cases.
    """
    if CLINICAL_CHARSET.issuperset(text):
        return text
    import unicodedata

    out = []
    for ch in text:
        if ch in CLINICAL_CHARSET:
            out.append(ch)
            continue
        ch2 = _FALLBACKS.get(ch) or unicodedata.normalize("NFKD", ch)
        ch2 = "".join(c for c in ch2 if c in CLINICAL_CHARSET)
        out.append(ch2 or "?")
    return "".join(out)


def coerce_text(value: object, max_length: int, what: str = "action") -> str:
    """Validate an agent's text action: a str no longer than ``max_length``.

    Characters outside the charset are allowed through (agents may write any Unicode);
    the space's ``contains`` is about sampling, and rejecting a reply because it holds
    an exotic dash would punish the agent for typography, not reasoning.
    """
    from medgym.errors import ActionError

    if not isinstance(value, str):
        raise ActionError(f"{what} must be a str, got {type(value).__name__}")
    if len(value) > max_length:
        raise ActionError(f"{what} is too long: {len(value)} characters, the maximum is {max_length}")
    return value
