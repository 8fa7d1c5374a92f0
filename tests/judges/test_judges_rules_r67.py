"""Round 67 (session 30; tuned on sets 1-237): two false claims of blind set 234-237.

* "Plt 26, watch for bleeding": a sign to be watched for is what may come, not a finding; it had been read as
  bleeding asserted against the malaria case's "no rash or bleeding" (``claim_blocking._WATCH_FOR_BEFORE``).
* "Would order: - CT KUB for stone burden/nephrocalcinosis": a line that opens with a study and says what it is
  for orders the study; the purpose had been read as the CT's result, invented while the CT was withheld
  (``claim_blocking._PURPOSE_LINE_BEFORE`` and ``claims._PURPOSE_AFTER``).
Tried and dropped: the coeliac antibody written bare ("TTG >100", read as the endomysial antibody's number) as a
lexicon analyte. Its numbers then joined the case's tTG fact (34 decisions fixed), but a bare mention without a
number ("her tTG above ten times normal") became a general-term claim judged against nothing (2 lost).

The tests marked "fails on c308402" fail on the session-29 final judge; the others are controls.
"""

from __future__ import annotations

from rules_support import claims_of

MALARIA = "id-203-falciparum-malaria"
PHPT = "uro-220-hyperparathyroid-stones"


def _found(case_id: str, reply: str, cond: str = "baseline") -> list[tuple[str, str, str]]:
    return [(c.span.text, c.item, c.status) for c in claims_of(case_id, [reply], cond)]


def test_a_sign_to_watch_for_is_not_a_finding():  # fails on c308402
    assert [c for c in _found(MALARIA, "Falciparum malaria. Plt 62, watch for bleeding.") if c[0] == "bleeding"] == []


def test_bleeding_reported_is_still_read_against_the_case():
    found = [c for c in _found(MALARIA, "Falciparum malaria. Plt 62 with gum bleeding.") if c[0] == "bleeding"]
    assert found == [("bleeding", "no_rash", "contradicted")]


def test_a_study_ordered_for_a_purpose_states_no_result():  # fails on c308402
    reply = "A/P: Primary hyperparathyroidism.\nWould order:\n- DEXA (forearm + spine)\n- CT KUB for stone burden/nephrocalcinosis"
    assert [c for c in _found(PHPT, reply, "O") if c[1] == "ct_kub"] == []


def test_a_study_reported_after_a_colon_still_states_its_result():
    found = [c for c in _found(PHPT, "A/P: PHPT.\n- CT KUB: 2 stones, no nephrocalcinosis") if c[1] == "ct_kub"]
    assert found and all(status != "unsupported" for _t, _i, status in found), found
