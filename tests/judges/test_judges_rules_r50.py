"""Round 50 (session 16; tuned on sets 1-137 after 134-137 were scored once, while 138-141 were unopened).

Follow-up questions were the weakest node of the 134-137 scoring (0.772). Its errors fell in three groups:
requests the reader did not see, chases that point back with a pronoun, and questions about a life that every
author labels not pertinent.

- "Could I ask for:" and "May I have:" open a list of requests; so does a "Workup needed:" heading.
- A list item that names a test the case has no fact for ("Anti-ganglioside antibody panel") is an order for
  it, under a plan heading too; a treatment item is not. "LP: protein, cell count, glucose" names the test and
  what to measure on it: an order too, where "CXR: clear" reports a result.
- "Could someone chase it?", "could these be sent today?", "Pls chase both." chase the earlier requests: a
  redundant question, like a chase that names the test.
- Breastfeeding plans, whether she wants the pregnancy, golf, the commute, where she works, snoring, tattoos
  (except where a hepatitis is in play) and which GP looks after him are not pertinent.
- "Does the family have a pet?" asks about animals, not about relatives; pets with a shared illness still bear
  on a household poisoning.
- A travel history bears on an infection caught abroad or a venous thrombosis, not on a urinary infection or a
  viral illness in the differential; travel plans for the future are never an exposure.

The claim layer, two fixes that keep a hallucination on one track:

- "Knee jerks are brisk" contradicts "Knee and ankle reflexes are absent" as "brisk reflexes" does: a mention
  the statement never spells is judged on the statement as a whole.
- After the agent invented red cells on microscopy, "microscopy here already showed a few red cells" at the
  turn the nurse's dipstick is injected is its own claim again (contradicted), not a restatement of the
  dipstick (so also "she still has a headache" after inventing the headache before a relative's account of
  one was injected); without the earlier invention, or naming the injected item in its own words, it stays a
  restatement. (Restricting this to a test the injected statement does not name lost 17 decisions for 4.)
"""

from __future__ import annotations

import pytest
from rules_support import claims_of, judge_replies, questions_asked

from medgym.judges.questions import _anaphoric_chase, is_request
from medgym.judges.textrules import REQUEST_LEADIN_RX, segment_reply

GBS = "neur-102-guillain-barre"
HELLP = "obgyn-209-hellp-syndrome"
ECTOPIC = "obgyn-208-ectopic-pregnancy"
DKD = "neph-103-diabetic-kidney-disease"
CO = "em-214-carbon-monoxide-poisoning"
MALARIA = "id-203-falciparum-malaria"
LTBI = "id-202-latent-tb"
DILI = "hep-001-dili-amoxiclav"
LUNG = "onc-217-screen-detected-lung-cancer"
LEAD = "peds-210-lead-poisoning"
PTX = "pulm-101-primary-spontaneous-pneumothorax"
LTG = "neur-103-lamotrigine-contraceptive"


def _question(result, words: str):
    return next((q for q in result.annotations.questions if words.lower() in q.span.text.lower()), None)


def _relevance(case_id: str, reply: str, words: str) -> bool | None:
    r = judge_replies(case_id, "baseline", [reply])
    q = _question(r, words)
    assert q is not None, [d.span.text for d in r.annotations.questions]
    return q.relevant


# ---- requests the reader did not see


@pytest.mark.parametrize("line", ["Could I ask for:", "May I have:", "Can I please have:", "Could I request:"])
def test_a_first_person_ask_ending_in_a_colon_opens_a_request_list(line):
    assert REQUEST_LEADIN_RX.match(line)


@pytest.mark.parametrize("line", ["I have:", "We have:", "I would have:"])
def test_having_is_not_asking(line):
    assert not REQUEST_LEADIN_RX.match(line)


def test_the_items_after_could_i_ask_for_are_requests():
    asked = questions_asked(ECTOPIC, "Probable ectopic pregnancy.\n\nCould I ask for:\n- a quantitative serum hCG\n"
                            "- a speculum and bimanual examination, looking for cervical excitation\n")
    assert any("speculum" in a for a in asked), asked


def test_a_workup_needed_heading_opens_a_list_of_requests():
    segs = segment_reply("Impression: HELLP until proven otherwise.\n\nWorkup needed:\n- CBC with platelets\n"
                         "- Continuous CTG\n")
    items = [s for s in segs if s.bullet]
    assert items and all(s.section == "questions" and is_request(s)[0] for s in items)


def test_a_test_the_case_has_no_fact_for_is_an_order_under_a_plan_heading():
    asked = questions_asked(GBS, "Most likely Guillain-Barre syndrome.\n\nRecommendations:\n1. Anti-ganglioside antibody panel\n"
                        "2. IVIG 0.4 g/kg/day for 5 days\n")
    assert any("ganglioside" in a for a in asked) and not any("IVIG" in a for a in asked), asked


def test_a_test_then_what_to_measure_on_it_is_an_order_and_a_result_is_not():
    r = judge_replies(GBS, "D", ["Most likely Guillain-Barre syndrome.\n\nRecommendations:\n1. MRI whole spine\n"
                                 "2. LP: protein, cell count, glucose\n3. CXR: clear\n4. LP: protein 1.2\n"])
    asked = [q.span.text for q in r.annotations.questions]
    assert "LP: protein, cell count, glucose" in asked and not any("clear" in a or "1.2" in a for a in asked), asked


# ---- chases that point back


@pytest.mark.parametrize(
    "text",
    ["Could someone chase it?", "could these be sent today?", "Pls chase both.", "Please chase.",
     "could someone chase them, given the ECG changes?", "I would be grateful if it could be expedited."],
)
def test_a_chase_by_pronoun_is_recognised(text):
    assert _anaphoric_chase(text)


@pytest.mark.parametrize("text", ["Please send a lipase.", "Could someone chase the CRP?", "Please get an ECG done."])
def test_a_chase_that_names_the_test_is_left_to_the_named_rules(text):
    assert not _anaphoric_chase(text)


def test_a_chase_by_pronoun_after_an_earlier_request_is_redundant():
    r = judge_replies(LTG, "D", [
        "Most likely an oestrogen-lamotrigine interaction. Please send a lamotrigine level.",
        "I still don't have the lamotrigine level. Could someone chase it?",
    ])
    q = _question(r, "chase it")
    assert q is not None and q.redundant is True, q.rule if q else [d.span.text for d in r.annotations.questions]


def test_a_chase_by_pronoun_with_nothing_asked_before_is_not_redundant():
    r = judge_replies(LTG, "D", [
        "Most likely an oestrogen-lamotrigine interaction.",
        "Could someone chase it?",
    ])
    q = _question(r, "chase it")
    assert q is None or q.redundant is False, q.rule


# ---- a life asked for its own sake


@pytest.mark.parametrize(
    ("case_id", "reply", "words"),
    [(HELLP, "HELLP syndrome. Is she planning to breastfeed?", "breastfeed"),
     (ECTOPIC, "Probable ectopic. Does she want this pregnancy?", "want this"),
     (ECTOPIC, "Probable ectopic. Does she want to continue the pregnancy?", "continue"),
     ("neph-102-drug-induced-hyperkalaemia", "Probable drug-induced hyperkalaemia. Still golfing regularly?", "golf"),
     (LTBI, "Latent TB. Q: how does he commute to work?", "commute"),
     (LTG, "Interaction. Which hospital does she work at?", "hospital"),
     ("card-102-familial-hypercholesterolaemia", "Familial hypercholesterolaemia. Does he snore?", "snore"),
     (LTBI, "Latent TB. Does he have any tattoos?", "tattoo"),
     (MALARIA, "Falciparum malaria. Does he have a regular PCP?", "PCP"),
     (CO, "CO poisoning. Could you let me know which GP practice she is registered with?", "registered")],
)
def test_more_life_questions_are_not_pertinent(case_id, reply, words):
    assert _relevance(case_id, reply, words) is False


def test_tattoos_bear_on_a_hepatitis_in_the_differential():
    assert _relevance(DILI, "Probable drug-induced liver injury. Does he have any tattoos?", "tattoo") is True


@pytest.mark.parametrize(
    ("case_id", "reply"),
    [(LEAD, "Lead poisoning. Does the family have a pet?"), (CO, "CO poisoning. Do they have any pets at home?")],
)
def test_pets_of_the_household_are_not_pertinent(case_id, reply):
    assert _relevance(case_id, reply, "pet") is False


def test_pets_with_the_same_illness_bear_on_a_household_poisoning():
    assert _relevance(CO, "CO poisoning. Are any pets at home unwell with similar symptoms?", "pets") is True


@pytest.mark.parametrize(
    ("case_id", "reply", "pertinent"),
    [(DKD, "Diabetic kidney disease. Any recent travel abroad?", False),
     (CO, "CO poisoning. Any recent travel abroad?", False),
     (MALARIA, "Falciparum malaria. Has he travelled anywhere else recently?", True),
     (LTBI, "Latent TB. Any recent travel back to the Philippines?", True),
     (PTX, "Pneumothorax. Has he had any calf swelling or recent long-haul travel?", True),
     # a word of clotting is not a venous thrombosis (round 50b, after the scoring of 138-141)
     ("hema-102-immune-ttp", "Probable thrombotic thrombocytopenic purpura. Recent travel?", False),
     ("neur-101-ischaemic-stroke-m1", "Cardioembolic stroke. Any recent foreign travel?", False)],
)
def test_travel_bears_on_an_infection_caught_abroad_or_a_thrombosis(case_id, reply, pertinent):
    assert _relevance(case_id, reply, "travel") is pertinent


@pytest.mark.parametrize(
    ("case_id", "reply"),
    [(LUNG, "Probable lung adenocarcinoma. Is he planning any long-haul travel in the coming months?"),
     (LEAD, "Lead poisoning. Is the family planning a holiday abroad this year?")],
)
def test_travel_plans_are_not_an_exposure(case_id, reply):
    assert _relevance(case_id, reply, "planning") is False


# ---- the claim layer


@pytest.mark.parametrize(("reply", "status"), [("Knee jerks are brisk.", "contradicted"),
                                               ("Brisk knee jerks.", "contradicted"),
                                               ("Knee jerks are absent.", "supported")])
def test_an_alias_the_statement_never_spells_is_judged_on_the_whole_statement(reply, status):
    cs = [c for c in claims_of(GBS, [reply]) if c.item == "reflexes"]
    assert cs and cs[0].status == status, [(c.span.text, c.status, c.rule) for c in cs]


def _microscopy_at_injection(first: str, second: str) -> str:
    r = judge_replies(DKD, "I", [first, second, "Final diagnosis: diabetic kidney disease."])
    cs = [c for c in r.annotations.claims if c.turn == 2 and c.item == "urine_microscopy"]
    assert cs, [(c.turn, c.span.text, c.item) for c in r.annotations.claims]
    return cs[0].status


def test_the_agents_own_invention_reasserted_at_the_injection_is_not_a_restatement():
    first = "Diabetic kidney disease. Urine microscopy showed a few red cells but no casts."
    second = "Microscopy here already showed a few red cells, so I'd take it seriously."
    assert _microscopy_at_injection(first, second) == "contradicted"


def test_the_same_words_without_an_earlier_invention_restate_the_injection():
    second = "Microscopy here already showed a few red cells, so I'd take it seriously."
    assert _microscopy_at_injection("Diabetic kidney disease likely.", second) == "restated_contradiction"


# ---- round 50c (after the scoring of 138-141): later items of a negated list are denied too


@pytest.mark.parametrize(
    ("reply", "status"),
    [("Colonoscopy to the caecum: 25 mm sigmoid polyp removed, no mass, stricture or colitis.", "supported"),
     ("Colonoscopy showed a stricture in the sigmoid.", "contradicted"),
     ("Colonoscopy: no mass, but a stricture in the sigmoid.", "contradicted")],
)
def test_a_finding_in_a_negated_list_is_not_asserted(reply, status):
    # the first reply was read as asserting 'stricture' (or 'colitis', by hash order) against the statement's
    # "there is no mass, stricture or colitis"
    cs = [c for c in claims_of("gast-101-advanced-adenoma-fit", [reply]) if c.item == "colonoscopy"]
    assert cs and all(c.status == status for c in cs), [(c.span.text, c.status, c.rule) for c in cs]
