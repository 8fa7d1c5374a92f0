"""A relative's illness that nothing released names: an invented family history.

Family-history facts are found by their relative and condition together ("his father had an MI",
"Brother with cirrhosis at 38"), so a reply that gives the condition to a relative the case never
mentions ("His sister also had lung cancer in her fifties" where only the father's lung cancer is
released, "mother with TB" where it was the grandmother) matches no family fact. The condition's
word then reads as the patient's own finding, which the context does state ("lung cancer" is the
working diagnosis), and the invention is scored as supported. A physician reads the sentence as a
claim about that relative, and the released history never names them: it is unsupported.

Only the relative decides here. A relative the context does name, given another illness ("His
brother also had early emphysema" beside the brother's cirrhosis), is left to the family-history
aliases: the labels accept paraphrases of a relative's condition ("Mom w/ Hashimoto's" for autoimmune
hypothyroidism) that a word comparison cannot tell from an invention.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from medgym.judges.textrules import RELATIVES

# "his sister also had", "a sister who had", "mother with", "Mum w/", "her father died of", "an aunt diagnosed
# with": a relative, then a verb that gives them an illness (not "his mother has seen him eating paint chips")
_KIN = rf"(?:{'|'.join(RELATIVES)}|grandma|grandpa)"
_KIN_WORD = re.compile(rf"\b({_KIN})s?\b", re.I)
_KIN_ILLNESS = re.compile(
    rf"\b(?P<rel>{_KIN})s?\b(?:'s|’s)?"
    r"(?:,?\s+who)?\s+(?:also\s+|too\s+|both\s+|himself\s+|herself\s+|themselves\s+)?"
    r"(?:had|has|have|with|w/|died\s+(?:of|from)|developed|(?:was\s+|were\s+)?(?:diagnosed|treated)\s+(?:with|for))\s+",
    re.I,
)
# how far after the verb the illness may be named ("had lung cancer", "with early-onset emphysema")
_REACH = 30
_SAME_KIN = {"mum": "mother", "mom": "mother", "dad": "father", "grandma": "grandmother", "grandpa": "grandfather"}


@dataclass(frozen=True)
class KinIllness:
    """One relative given an illness: the claim's span (from the relative's word to the end of the illness's
    name), the relative as the reply names them, and the illness's item."""

    start: int
    end: int
    relative: str
    item: str


def _kin(word: str) -> str:
    w = word.lower()
    return _SAME_KIN.get(w, w)


def named_relatives(context: str) -> set[str]:
    """Every relative the released context names ("grandmother", "father"), in one spelling."""
    return {_kin(m.group(1)) for m in _KIN_WORD.finditer(context)}


def names_kin_illness(text: str, lo: int, hi: int) -> bool:
    """Whether ``text[lo:hi]`` gives a relative an illness at all: the cheap test before the illnesses of the
    text are looked up (most sentences name no relative)."""
    return _KIN_ILLNESS.search(text, lo, hi) is not None


def unnamed_kin_illnesses(
    text: str, lo: int, hi: int, context: str, illnesses: Iterable[tuple[int, int, str]],
) -> list[KinIllness]:
    """The relatives of ``text[lo:hi]`` given an illness (a general clinical term at ``illnesses``: start,
    end, item) whom ``context`` (everything released so far) never names."""
    known = named_relatives(context)
    found = sorted(illnesses)
    out = []
    for m in _KIN_ILLNESS.finditer(text, lo, hi):
        rel = _kin(m.group("rel"))
        if rel in known or (rel == "sibling" and known & {"brother", "sister"}) or (
            rel == "parent" and known & {"mother", "father"}
        ):
            continue
        ill = next((i for i in found if m.end() <= i[0] <= m.end() + _REACH and i[1] <= hi), None)
        if ill is not None and not re.search(r"[.;:!?]", text[m.end() : ill[0]]):
            out.append(KinIllness(m.start(), ill[1], m.group("rel"), ill[2]))
    return out
