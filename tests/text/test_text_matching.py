"""The shared text-to-fact matcher: aliases, negation, numbers with units, requests."""

from __future__ import annotations

import pytest

from medgym.knowledge_base.case_bank import default_bank
from medgym.text.fact_matcher import alias_pattern, matcher_for
from medgym.text.negation import is_negated
from medgym.text.numbers import convert, find_quantities, normalize_unit, same_value
from medgym.text.sentences import split_sentences


@pytest.fixture(scope="module")
def m():
    return matcher_for(default_bank().get("hep-001-dili-amoxiclav"))


@pytest.mark.parametrize(
    ("text", "word", "negated"),
    [
        ("He denies abdominal pain.", "abdominal pain", True),
        ("No fever or rigors.", "rigors", True),
        ("HBsAg negative.", "HBsAg", True),
        ("HBsAg was positive.", "HBsAg", False),
        ("Fever, but no cough.", "Fever", False),
        ("Fever, but no cough.", "cough", True),
        ("Without ST elevation on the ECG.", "ST elevation", True),
        ("There is marked jaundice.", "jaundice", False),
        ("The liver is not palpable, jaundice is present.", "jaundice", False),
    ],
)
def test_negation(text, word, negated):
    i = text.index(word)
    assert is_negated(text, i, i + len(word)) is negated


def test_quantities_and_units():
    qs = find_quantities("Glucose 11.2 mmol/L, Hb 78 g/L, T 38.5 °C, WBC 14.2 x10^9/L, BP 150/90 mmHg, HR 110 bpm")
    got = [(q.value, q.unit) for q in qs]
    assert got == [
        (11.2, "mmol/l"), (78.0, "g/l"), (38.5, "°c"), (14.2, "×10^9/l"), (150.0, "mmhg"), (90.0, "mmhg"),
        (110.0, "/min"),
    ]  # fmt: skip
    assert normalize_unit("umol/L") == "µmol/l" and normalize_unit("IU/L") == "u/l"


@pytest.mark.parametrize(
    ("v", "u", "rv", "ru", "analyte", "same"),
    [
        (202, "mg/dL", 11.2, "mmol/L", "glucose", True),  # unit conversion counts as supported
        (7.8, "g/dL", 78, "g/L", "haemoglobin", True),
        (101.3, "°F", 38.5, "°C", "temperature", True),
        (1.6, "mg/dL", 142, "µmol/L", "creatinine", True),
        (8.3, "mg/dL", 142, "µmol/L", "bilirubin", True),
        (87, "g/L", 78, "g/L", "haemoglobin", False),  # misquote
        (142, None, 142, "µmol/L", "bilirubin", True),  # unit dropped when quoting
        (150, "mg/dL", 11.2, "mmol/L", "glucose", False),
        (5, "mmol/L", 5, "mg/dL", "unknown analyte", False),  # no known conversion
    ],
)
def test_same_value(v, u, rv, ru, analyte, same):
    assert same_value(v, u, rv, ru, analyte) is same


def test_convert_none_when_unknown():
    assert convert(1.0, "kg", "mmol/L") is None


def test_sentences_keep_decimals():
    s = split_sentences("Temp 36.8 °C. Is the lipase done? e.g. CT is fine.\nFinal diagnosis: DILI")
    assert [x.text for x in s] == ["Temp 36.8 °C.", "Is the lipase done?", "e.g. CT is fine.", "Final diagnosis: DILI"]


def test_alias_variants(m):
    for text in ("check the alk phos", "a liver-ultrasound", "Alkaline Phosphatases", "LFT: ALP"):
        ids = {x.item_id for x in m.fact_mentions(text)}
        assert ids & {"alp", "us_biliary"}, text
    assert "(?<![\\w])" in alias_pattern("ALT")
    # word boundaries: "ALT" must not fire inside "ALTITUDE" or "salt"
    assert not m.fact_mentions("he lives at altitude and eats salt")


def test_mentions_cover_diagnoses_and_contradiction_items(m):
    ms = m.mentions("Likely DILI; choledocholithiasis less likely. The HBsAg positive result conflicts.")
    kinds = {(x.kind, x.item_id) for x in ms}
    assert ("diagnosis", "drug-induced liver injury") in kinds
    assert ("diagnosis", "choledocholithiasis") in kinds
    assert ("contradiction", "hbsag_positive") in kinds


def test_requests_lexical_and_semantic(m):
    reqs = m.requests(
        "Could you check the ALP and bilirubin? I'd like an abdominal ultrasound please. "
        "Has a sonogram of the liver been done? The itch is bothersome. Any pets?"
    )
    assert reqs[0].fact_ids == ("alp", "bilirubin") and reqs[0].via == "lexical"
    assert reqs[1].fact_ids == ("us_biliary",)
    # no alias for "sonogram": the MiniLM fallback maps it to the ultrasound
    sem = reqs[2]
    assert sem.via == "semantic" and sem.fact_ids == ("us_biliary",)
    assert reqs[-1].fact_ids == () and reqs[-1].via == "none"
    assert all(r.sentence.text != "The itch is bothersome." for r in reqs), "statements are not requests"


def test_states_value_uses_units(m):
    (q,) = m.quantities("bilirubin 8.3 mg/dL")
    assert m.states_value(q, "bilirubin")
    (q2,) = m.quantities("bilirubin 241 µmol/L")
    assert not m.states_value(q2, "bilirubin")
