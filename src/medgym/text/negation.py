"""Negation scope for clinical mentions, in the spirit of NegEx (Chapman et al., 2001).

"No fever", "denies chest pain", "HBsAg negative" and "without ST elevation" all
mention an item while asserting its absence. The judge and the responder both need
to know which, so the rule lives here once: a trigger before the mention in the same
clause (within a few words, not across "but"), or a negative result word right
after it.
"""

from __future__ import annotations

import re

# The negation cue "no", shared with the judge's own cue list (judges/textrules.py): "no-" joined to a word ("the
# no-biopsy pathway") negates only that word, which ``is_negated`` reads; "no-one" is "no one"
NO_CUE = r"no(?![-\u2011](?!one\b)\w)"
_PRE = re.compile(
    r"\b(?:" + NO_CUE + r"|not|denies|denied|deny|denying|without|negative for|absence of|absent|free of|"
    r"ruled out|rules out|rule out|never|nor|neither|non|(?:is|are|was|were|does|do|did|has|have|had)n['’]t)"
    r"\b[^.;:!?]*$",
    re.IGNORECASE,
)
_POST = re.compile(
    r"^\s*(?:(?:is|was|were|are|came back|returned|test(?:ed)?)\s+)*(?:negative|absent|not detected|"
    r"not seen|not present|non-?reactive|undetectable|ruled out)\b",
    re.IGNORECASE,
)
_CLAUSE_BREAK = re.compile(r"\b(?:but|however|although|though|except|yet|whereas)\b|[,;:]", re.IGNORECASE)
_MAX_PRE_WORDS = 6
_NO_JOINED = re.compile(r"\bno[-\u2011]$", re.IGNORECASE)


def is_negated(text: str, start: int, end: int) -> bool:
    """Whether the mention ``text[start:end]`` is negated in its clause."""
    before = text[max(0, start - 120) : start]
    breaks = list(_CLAUSE_BREAK.finditer(before))
    if breaks:
        before = before[breaks[-1].end() :]
    m = _PRE.search(before)
    if m and len(before[m.start() :].split()) <= _MAX_PRE_WORDS + 1:
        return True
    if _NO_JOINED.search(before):
        return True  # "no-biopsy": the joined word itself
    return bool(_POST.match(text[end : end + 40]))
