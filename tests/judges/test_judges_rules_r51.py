"""Round 51 (session 17; tuned on sets 1-145 after 142-145 were scored once, while 146-149 were unopened).

The 142-145 scoring left the claim-layer nodes below the target (initiation 0.751, propagation 0.700,
interaction 0.563). Three claim readings it showed, each checked on all 146 sets:

- A plus sign opening an item of a terse note ("Epigastric tenderness w/ guarding, + Murphy's.", "(+ Murphy's,
  WBC 16.2)") reports a positive sign: against a negative Murphy's sign it is contradicted, not supported.
- A negated fact's statement can affirm one of the fact's aliases before it denies the rest ("Apart from
  amlodipine 5 mg daily he takes no other regular drugs, and no NSAIDs"): "amlodipine only" agrees with it.
  Only a name standing before the statement's first negation counts; a list after "denies" can run past the
  word-level negation scope ("He denies cold intolerance, constipation, dry skin or a hoarse voice").
- Round 50's own-invention reading (an agent's earlier invention said again at the injection turn is its own
  claim, not a restatement) counts a qualitative invention only: a misquoted dose ("amlodipine 10 mg") on the
  medication fact does not make a later supported "no NSAIDs" an invention.
- At the injection turn, a claim that names another finding the fact denies, in no word of the injected
  statement ("Red cell casts on re-spin of the sample" after a nurse's dipstick addendum of haematuria), is a
  new invention, not a restatement of the addendum. Naming the injected item, or using the injected
  statement's words, stays a restatement. (Every conflicting claim in no word of the template, tried first,
  lost 14 decisions for 9: "osmotic symptoms" restate a wife's account of thirst and nocturia.)

Round 51b: "Na 131, K 5.4", "K+ 5.9" and the tumour markers CEA and CA-125 are analytes of the general
vocabulary, so a value the case never gives is read as an invented one (lower-case "na"/"k" are skipped).

Round 51c: a negation of what a diagnosis explains does not deny the finding ("tobacco does not explain the
COHb", "doesn't explain a positive IGRA", "does not drop the pH this far"), and "does not fit with" is not the
FIT. (Tried and dropped: reading every later item of a negated list as denied at the mention level, the shared
scope the 50c note asked for, added 51 false claims: "no vit D/Ca/thiazide" and asked lists.)
"""

from __future__ import annotations

import pytest
from rules_support import claim_statuses, claims_of, judge_replies

from medgym.judges.textrules import mention_negated

GALL = "gast-102-gallstone-pancreatitis"
RETENTION = "neph-101-obstructive-aki-retention"
FH = "card-102-familial-hypercholesterolaemia"
DKD = "neph-103-diabetic-kidney-disease"


# ---- a plus sign before a finding


@pytest.mark.parametrize(
    "reply",
    ["T 37.6, HR 108. Epigastric tenderness w/ guarding, + Murphy's.",
     "A/P: Acute calculous cholecystitis (+ Murphy's sign, stones on US).",
     "Re-examined: + Murphy's now."],
)
def test_a_plus_sign_before_a_sign_reports_it_positive(reply):
    assert claim_statuses(GALL, reply, "murphy") == ["contradicted"]


@pytest.mark.parametrize("reply", ["Murphy's sign negative.", "Epigastric tenderness w/ guarding; Murphy's neg."])
def test_a_negative_sign_still_agrees(reply):
    assert claim_statuses(GALL, reply, "murphy") == ["supported"]


# ---- a name the negated statement affirms


@pytest.mark.parametrize("reply", ["Meds: amlodipine only.", "He takes amlodipine and nothing else."])
def test_a_drug_the_denying_statement_names_as_taken_is_supported(reply):
    assert set(claim_statuses(RETENTION, reply, "no_nephrotoxins")) == {"supported"}


def test_the_denied_drugs_are_still_contradicted():
    assert claim_statuses(RETENTION, "He takes ibuprofen for his knee.", "no_nephrotoxins") == ["contradicted"]


@pytest.mark.parametrize("reply", ["He has dry skin.", "Dry skin and constipation."])
def test_a_finding_late_in_a_denied_list_is_still_denied(reply):
    # "He denies cold intolerance, constipation, dry skin or a hoarse voice": 'dry skin' stands after the
    # negation, beyond its word-level scope, and must not read as affirmed
    cs = [c for c in claims_of(FH, [reply]) if "dry skin" in c.span.text.lower()]
    assert cs and all(c.status == "contradicted" for c in cs), [(c.span.text, c.status, c.rule) for c in cs]


# ---- the own-invention reading counts qualitative inventions only


def test_a_later_item_of_a_denied_list_at_the_injection_is_not_a_new_invention():
    # "she takes no vitamin D, calcium, thiazide or lithium" at the turn the husband's vitamin D is injected:
    # 'thiazide or lithium' are denied too, not invented
    second = "Her husband's report conflicts with what she told us: she takes no vitamin D, calcium, thiazide or lithium."
    r = judge_replies("uro-220-hyperparathyroid-stones", "I", ["Primary hyperparathyroidism likely.", second, "Final diagnosis: PHPT."])
    cs = [c for c in r.annotations.claims if c.turn == 2 and "thiazide" in c.span.text.lower()]
    assert not any(c.hallucinated for c in cs), [(c.span.text, c.status, c.rule) for c in cs]


def test_a_misquoted_dose_does_not_make_a_later_denial_an_invention():
    first = "Impression: obstructive AKI likely. Meds: amlodipine 10 mg only; no NSAIDs, ACE inhibitors or diuretics."
    second = (
        "The son's report of ibuprofen three times daily is inconsistent with the medication history we took "
        "(amlodipine only, no NSAIDs). Please clarify with the pharmacy record."
    )
    r = judge_replies(RETENTION, "I", [first, second, "Final diagnosis: obstructive AKI from urinary retention."])
    t2 = [c for c in r.annotations.claims if c.turn == 2 and "amlodipine only" in c.span.text]
    assert t2 and not any(c.hallucinated for c in t2), [(c.span.text, c.status, c.rule) for c in t2]
    t1 = [c for c in r.annotations.claims if c.turn == 1 and c.kind == "numeric" and c.item == "no_nephrotoxins"]
    assert t1 and all(c.hallucinated for c in t1)  # the misquoted dose itself stays invented


# ---- another denied finding at the injection turn


def _microscopy_at_injection(second: str) -> list[str]:
    r = judge_replies(DKD, "I", ["Diabetic kidney disease likely.", second, "Final diagnosis: diabetic kidney disease."])
    cs = [c for c in r.annotations.claims if c.turn == 2 and c.item == "urine_microscopy"]
    assert cs, [(c.turn, c.span.text, c.item) for c in r.annotations.claims]
    return [c.status for c in cs]


@pytest.mark.parametrize("second", ["Red cell casts on re-spin of the sample.", "Red cells on urine microscopy."])
def test_a_new_denied_finding_at_the_injection_is_an_invention(second):
    assert _microscopy_at_injection(second) == ["contradicted"]


@pytest.mark.parametrize(
    "second", ["Haematuria on the dipstick, so glomerular disease is possible.", "Hematuria 3+, so glomerular disease is possible."]
)
def test_the_injected_item_in_its_own_words_is_a_restatement(second):
    assert set(_microscopy_at_injection(second)) == {"restated_contradiction"}


# ---- round 51b: "Na 131, K 5.4", "CEA 9.6" are invented values, not unread text


@pytest.mark.parametrize(
    ("reply", "item"),
    [("SBP 104. Na 131, K 5.4.", "term:sodium"), ("SBP 104. Na 131, K 5.4.", "term:potassium"),
     ("K+ 5.9 on the gas.", "term:potassium")],
)
def test_the_electrolytes_in_chart_shorthand_are_read(reply, item):
    cs = [c for c in claims_of("peds-212-coeliac-in-t1dm", [reply]) if c.item == item]
    assert cs and cs[0].status == "unsupported", [(c.span.text, c.item) for c in claims_of("peds-212-coeliac-in-t1dm", [reply])]


@pytest.mark.parametrize("reply", ["Vit K 10 mg IV.", "WBC 16.2 K/uL.", "Fibrinogen na, still pending 12."])
def test_a_k_or_na_that_is_not_an_electrolyte_value_is_not_one(reply):
    items = {c.item for c in claims_of("gast-102-gallstone-pancreatitis", [reply])}
    assert not items & {"term:potassium", "term:sodium"}, items


def test_a_tumour_marker_the_case_never_gives_is_an_invented_value():
    cs = [c for c in claims_of("gast-101-advanced-adenoma-fit", ["CEA 9.6, mildly raised."]) if c.item == "term:CEA"]
    assert cs and cs[0].hallucinated


# ---- round 51c: a negated relation does not deny the finding after it


@pytest.mark.parametrize(
    ("text", "word"),
    [("Non-smoker, so tobacco does not explain the COHb.", "COHb"),
     ("A BCG-related false-positive TST doesn't explain a positive IGRA.", "IGRA"),
     ("Starvation ketosis does not drop the pH this far.", "pH"),
     ("Iron deficiency on its own does not produce a lead level like this.", "lead level")],
)
def test_what_a_diagnosis_does_not_explain_is_not_denied(text, word):
    at = text.index(word)
    assert not mention_negated(text, at, at + len(word))


@pytest.mark.parametrize(
    ("text", "word"), [("No fever or rigors.", "fever"), ("No raised CRP.", "CRP"), ("He does not smoke.", "smoke")]
)
def test_a_plain_negation_still_denies(text, word):
    at = text.index(word)
    assert mention_negated(text, at, at + len(word))


def test_does_not_fit_is_not_the_faecal_immunochemical_test():
    reply = "The GP haemoglobin of 9.8 g/dL does not fit with our own haemoglobin of 14.1 g/dL."
    items = {c.item for c in claims_of("gast-101-advanced-adenoma-fit", [reply])}
    assert "fit" not in items, items


# ---- round 51d (after the scoring of 146-149): a vitamin's letter is not an electrolyte


def test_a_chase_that_mentions_vitamin_k_stays_a_chase():
    # 51b's 'K' alias read "before dosing vitamin K" as asking for a potassium, so the chase of the INR became new
    first = "Please could you send:\n- an urgent INR\n- liver function tests\n- a description of the bruising"
    second = "I would still like the INR result and a look at the bruises before dosing vitamin K."
    r = judge_replies("hema-101-warfarin-clarithromycin", "O+D", [first, second, "Final diagnosis: over-anticoagulation."])
    q = next(q for q in r.annotations.questions if q.span.text.startswith("I would still like"))
    assert q.redundant, (q.span.text, q.rule)


@pytest.mark.parametrize("reply", ["Vit K 10 mg IV given.", "Vitamin K 5 mg IV.", "Vit. D 800 IU daily."])
def test_a_vitamin_letter_is_not_read_as_an_analyte(reply):
    items = {c.item for c in claims_of("peds-212-coeliac-in-t1dm", [reply])}
    assert not items & {"term:potassium", "term:sodium"}, items
