"""Round 80 (session 32; tuned on sets 1-245 after 242-245 were scored once, while 246-249 lay committed
unopened): three ways notes write a value that the judge did not read.

* A sentence that opens with a test written with a lower-case prefix ("tTG 186 noted, but tTG can be falsely
  positive in T1DM.", "eGFR 18.", "pH 7.31") was glued to the sentence before it, because the splitter only split
  before an upper-case letter; the hedge of the second ("can be") then silenced the claims of the first ("Na 131, K
  5.4 and salt craving", invented). ``medgym.text.sentences`` now also splits before such a name.
* "hr"/"hrs" are hours in notes ("sat 7 hrs before processing", "2-hr OGTT"), and were read as the heart rate's
  acronym "HR" with a plural: "7 hrs" became an invented heart rate of 7 (``fact_matcher._WORDS_NOT_ACRONYMS``).
* A tolerance test's value named by its time point ("OGTT: FBG 5.8, 2h 8.9", "2-hr 10.4") named no fact, so an
  invented or misquoted 2-hour glucose was read as a bare number found in the context. A name "N-hour glucose"
  (N of 1-3) is now also written "2h", "2-hr", "2-hour" (``fact_matcher.specimen_variants``, which also writes every
  timed name as "N-h"/"Nh"/"N-hr", as it did for 24 hours), and "fasting glucose" as "FBG"/"FPG" (shorthand).

On the 246 sets (a full run of all 4117 trajectories): 81 decisions fixed, 2 lost ("a 2-hour 164" said a second
time in a turn now merges with the first mention; "Repeat smear in 24 hrs" after serial smears were asked for is
read as a repeat of that request, where the labels read a new one).

The tests marked "fails on 6e22e55" fail on the session-31 final judge; the others are controls.
"""

from __future__ import annotations

from rules_support import claims_of

from medgym.text.fact_matcher import specimen_variants
from medgym.text.sentences import split_sentences

COELIAC = "peds-212-coeliac-in-t1dm"
HYPERK = "neph-102-drug-induced-hyperkalaemia"
GDM = "obgyn-207-gestational-diabetes"


def _claims(case_id: str, reply: str, cond: str = "baseline") -> list[tuple[str, float | None, str]]:
    return [(c.item, c.value, c.status) for c in claims_of(case_id, [reply], cond)]


def test_a_sentence_may_open_with_a_lower_case_test_name():  # fails on 6e22e55
    parts = split_sentences("Na 131 is low. tTG 186 noted. eGFR 52. pH 7.31 today.")
    assert [p.text for p in parts] == ["Na 131 is low.", "tTG 186 noted.", "eGFR 52.", "pH 7.31 today."]


def test_abbreviations_still_do_not_end_a_sentence():
    assert len(split_sentences("Check e.g. eGFR and pH. Then decide.")) == 2
    assert len(split_sentences("The pH is 7.31 and the temp. is 38.")) == 1


def test_a_hedged_next_sentence_no_longer_silences_an_invented_sodium():  # fails on 6e22e55
    reply = (
        "Assessment: falling insulin needs, Na 131, K 5.4 and salt craving → primary adrenal insufficiency most "
        "likely (autoimmune polyglandular). tTG 186 noted, but tTG can be falsely positive in T1DM."
    )
    assert ("term:sodium", 131.0, "unsupported") in _claims(COELIAC, reply)


def test_hours_are_not_a_heart_rate():  # fails on 6e22e55
    claims = _claims(HYPERK, "The sample sat 7 hrs before processing.", "D")
    assert not [c for c in claims if c[0] == "term:heart rate"]


def test_a_heart_rate_is_still_read():
    assert ("term:heart rate", 128.0, "unsupported") in _claims(HYPERK, "HR 128, BP 150/90.")


def test_a_two_hour_value_named_by_its_time_point_is_compared():  # fails on 6e22e55
    claims = _claims(GDM, "33F G2P1 @ 26 wk. 75 g OGTT: FBG 5.8, 2h 8.9. Prior baby 4.3 kg.")
    assert ("two_hour_glucose", 8.9, "contradicted") in claims
    assert ("fasting_glucose", 5.8, "contradicted") in claims


def test_the_hyphenated_time_point_too():  # fails on 6e22e55
    claims = _claims(GDM, "OGTT: fasting 5.8, 2-hr 10.4 → meets criteria.")
    assert ("two_hour_glucose", 10.4, "contradicted") in claims


def test_a_time_alone_is_not_the_two_hour_value():
    claims = _claims(GDM, "Repeat the glucose in 2h. She last ate 2 h ago.")
    assert not [c for c in claims if c[0] == "two_hour_glucose"]


def test_only_a_tolerance_time_point_stands_alone():  # fails on 6e22e55
    assert "2h" in specimen_variants("2-hour glucose")
    assert "24-h urine protein" in specimen_variants("24-hour urine protein")
    assert not [v for v in specimen_variants("24-hour urine protein") if v.lower() in {"24h", "24-hour", "24-hr"}]
