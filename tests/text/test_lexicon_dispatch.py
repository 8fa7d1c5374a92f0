"""The first-character dispatch of ``Lexicon`` finds exactly what the plain alternation finds.

The dispatch exists for speed only (see ``fact_matcher._first_char_dispatch``), so the test
is equivalence: the same (start, end, text) for every lexicon the judge builds, on the
replies and context of the validation set and on strings that stress case folding.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from medgym.judges.context import general_lexicon
from medgym.judges.validation import load_validation_set
from medgym.knowledge_base.case_bank import default_bank
from medgym.text.fact_matcher import FactMatcher, Lexicon, _alias_body, _first_char_dispatch

VALIDATION = Path(__file__).parents[1] / "judges" / "validation"

# case variants outside ASCII that re.IGNORECASE folds onto ASCII letters, single-letter
# aliases, plurals, separators and markdown inside names
TRICKY = [
    "K+ 5.2, vit K given; \u212a 5.9 (Kelvin sign)",
    "\u017fodium low; SODIUM 128; Na+ 128",
    "\u0130ron studies and \u0131ron; IRON deficiency",
    "T 38.9, T waves flat, T-wave inversion",
    "ST-elevation, ST elevation, st\u2013elevation, *ST* **elevation**",
    "haemoglobins, HAEMOGLOBIN, haemoglobines",
    "\u00b5g/L, \u03bcg/L, \u03b2-hCG, beta hCG",
    "",
]


def _plain(lex: Lexicon) -> re.Pattern[str]:
    aliases = sorted(lex._by_alias, key=len, reverse=True)
    return re.compile(rf"(?<![\w])(?:{'|'.join(_alias_body(a) for a in aliases)})(?:s|es)?(?![\w])", re.IGNORECASE)


@pytest.fixture(scope="module")
def texts() -> list[str]:
    out = list(TRICKY)
    for it in load_validation_set(VALIDATION):
        for t in it.trajectory.turns:
            out += [t.agent, t.user]
    return out


def _spans(rx: re.Pattern[str], text: str) -> list[tuple[int, int, str]]:
    return [(m.start(), m.end(), m.group(0)) for m in rx.finditer(text)]


def test_dispatch_finds_what_the_plain_alternation_finds(texts):
    bank = default_bank()
    lexicons = [general_lexicon()[0]]
    for cid in bank.ids()[:12]:
        lexicons += [lex for lex in FactMatcher(bank.get(cid)).lexicons.values() if lex._re is not None]
    checked = 0
    for lex in lexicons:
        plain = _plain(lex)
        for text in texts:
            assert _spans(lex._re, text) == _spans(plain, text), (text[:80], lex._re.pattern[:80])
            checked += 1
    assert checked > 10_000


def test_dispatch_keeps_longest_first_and_single_letter_aliases():
    lex = Lexicon([("k", "fact", ["K", "K+", "potassium"]), ("st", "fact", ["ST elevation", "ST"])])
    found = [(text[s:e], [i for i, _k in hits]) for text in ["K+ 5.2 with ST elevation", "\u212a 5.9, st"]
             for s, e, hits in lex.find(text)]
    assert found == [("K+", ["k"]), ("ST elevation", ["st"]), ("\u212a", ["k"]), ("st", ["st"])]


def test_first_characters_that_fold_together_keep_the_plain_alternation():
    # the Kelvin sign lower-cases to "k": one group, whose case-insensitive look-behind
    # admits both, so the dispatch is kept
    assert _first_char_dispatch(["\u212aelvin", "kilo"]).endswith("(?<=k)(?:elvin|ilo)")
    # the long s folds onto "s" under re.IGNORECASE but lower-cases to itself: two groups
    # could both match at one place, so the plain alternation is kept, order and all
    assert _first_char_dispatch(["\u017fodium", "sugar"]) == "\u017fodium|sugar"
    assert _first_char_dispatch(["abc", "b"]).startswith("(?-i:")
