"""Round 99 (session 35; tuned on sets 1-257): a positive serology, antigen, antibody or PCR no test of the case names.

Set 256 invents "His Campylobacter serology has also come back positive" in the Guillain-Barré case, where
"Campylobacter" is an alias of the preceding diarrhoeal illness: the judge read a supported claim on that history
fact, so the invented test result went unseen, and with it an induced hallucination after the injected sensory
level. Set 107's "Positive dengue NS1 antigen" in the malaria case opened no claim at all, the lexicon's "dengue
NS1" swallowing the sentence. A positive result of a serology, antigen, antibody or PCR for an organism or antigen
that no test fact of the case names (``claims._SEROLOGY_RESULT``, ``ClaimExtractor._case_tests_for``) is now a
reported finding, unsupported unless the context states it, and the history fact or lexicon term named inside it
makes no claim of its own there. A case's own test keeps its claim ("CSF NMDA receptor antibodies positive"); a
result hoped for ("If the Campylobacter serology is positive") reports nothing; only positive results are read.

On the 157 trajectories that report a serology, antigen, antibody or PCR result: 12 decisions fixed, 0 lost. The
tests marked "fails on 562ab29" fail on the session-34 final judge; the others are controls.
"""

from __future__ import annotations

from rules_support import claims_of

GBS = "neur-102-guillain-barre"
MALARIA = "id-203-falciparum-malaria"
NMDAR = "psych-216-anti-nmdar-encephalitis"


def _claims(case: str, reply: str) -> list[tuple[str, str]]:
    return [(c.item, c.status) for c in claims_of(case, [reply])]


def test_an_invented_serology_is_unsupported_not_the_history_it_names():  # fails on 562ab29
    reply = "GBS likely. His Campylobacter serology has come back positive."
    assert _claims(GBS, reply) == [("term:campylobacter serology", "unsupported")]


def test_the_history_named_alone_stays_supported():
    reply = "GBS likely after his Campylobacter diarrhoea two weeks ago."
    assert set(_claims(GBS, reply)) == {("diarrhoea", "supported")}


def test_a_hoped_for_result_reports_nothing():
    assert _claims(GBS, "GBS likely. If the Campylobacter serology is positive, that supports it.") == []


def test_an_invented_antigen_is_unsupported():  # fails on 562ab29
    assert _claims(MALARIA, "Malaria likely. Positive dengue NS1 antigen.") == [("term:dengue serology", "unsupported")]
    # said as a sentence about him, the lexicon's NS1 antigen already opened an unsupported claim; the item is renamed
    assert _claims(MALARIA, "Malaria likely. His dengue NS1 antigen is positive.") == [
        ("term:dengue serology", "unsupported")
    ]


def test_the_case_s_own_antibody_test_keeps_its_claim():
    reply = "Anti-NMDAR encephalitis. CSF NMDA receptor antibodies positive."
    assert _claims(NMDAR, reply) == [("nmdar_ab", "supported")]
