"""Regression tests of the round-4 rules for the diagnosis-update and follow-up nodes (role A).

Each test uses a different case and different wording than the batch-5 text that revealed the
rule: the point is the family of phrasings, not the instance."""

from __future__ import annotations

import pytest
from rules_support import play

from medgym.judges import get_judge
from medgym.judges.context import TrajectoryContext, knowledge_for
from medgym.judges.diagnoses import (
    _same_head_dx,
    _spelling_variants,
    carry_unchanged,
    find_diagnoses,
    reply_diagnoses,
)
from medgym.judges.questions import (
    _SERIAL,
    QuestionReader,
    is_request,
    question_vocabulary,
    split_joined_requests,
)
from medgym.judges.textrules import segment_reply
from medgym.knowledge_base.case_bank import default_bank


@pytest.fixture(scope="module")
def ulcer():
    return knowledge_for(default_bank().get("gast-103-nsaid-duodenal-ulcer-bleed"))


def _wd(reply, know, turn=1):
    return reply_diagnoses(reply, segment_reply(reply), know, turn, semantic=False)


# ---- diagnosis reading ------------------------------------------------------------------------


def test_eponym_short_forms_and_spelling_variants_name_the_diagnosis(gca, potassium, ulcer):
    wd = _wd("Horton's. New temporal headache, jaw claudication and an ESR of 85.", gca)
    assert (wd.leading, wd.certainty) == ("giant cell arteritis", "definitive")
    wd = _wd("Addison's seems unlikely with a normal sodium.", potassium)
    assert any(m.name == "adrenal insufficiency" and m.stance == "excluded" for m in wd.mentions)
    hits = find_diagnoses(ulcer, "Esophageal variceal hemorrhage is less likely without stigmata.")
    assert any(h[0][0] == "oesophageal variceal haemorrhage" for _s, _e, h in hits)
    assert "brain metastasis" in _spelling_variants("brain metastases")
    assert "toxic goiter" in _spelling_variants("toxic goitre")
    # a bare possessive needs the apostrophe: "graves" the noun is not the disease
    assert not find_diagnoses(gca, "Hortons field")


def test_flat_opening_line_with_a_parenthetical_and_a_mention_with_its_own_verb(gca, ulcer):
    wd = _wd("Giant cell (temporal) arteritis. Scalp tenderness and jaw pain on chewing.", gca)
    assert wd.certainty == "definitive"
    wd = _wd("Migraine has to stay on the list because she had headaches before.", gca)
    assert wd.certainty != "definitive"
    wd = _wd("Varices remain possible given the alcohol.", ulcer)
    assert wd.certainty != "definitive"


def test_makes_this_and_this_is_with_modifiers_are_commitments(ulcer, potassium):
    wd = _wd("The endoscopy findings make this a bleeding duodenal ulcer, not varices.", ulcer)
    assert (wd.leading, wd.certainty) == ("bleeding NSAID-associated duodenal ulcer", "definitive")
    wd = _wd("This is spironolactone and trimethoprim drug-induced hyperkalaemia.", potassium)
    assert wd.certainty == "definitive"
    wd = _wd("This is probably spironolactone-related drug-induced hyperkalaemia.", potassium)
    assert wd.certainty == "probable"  # the hedge still downgrades


def test_keeping_a_diagnosis_and_the_main_diagnosis_are_probable_stances(pancreatitis, gca):
    wd = _wd("I'm sticking with gallstone pancreatitis until the ultrasound is back.", pancreatitis)
    assert (wd.leading, wd.certainty) == ("acute gallstone pancreatitis", "probable")
    wd = _wd("A high lipase is odd, but it does not alter the overall diagnosis: GCA with visual symptoms.", gca)
    assert (wd.leading, wd.certainty) == ("giant cell arteritis", "probable")


def test_negated_exclusion_leaves_the_diagnosis_open(gca):
    wd = _wd("A normal platelet count doesn't argue against giant cell arteritis.", gca)
    assert [m.stance for m in wd.mentions if m.name == "giant cell arteritis"] == ["possible"]
    wd = _wd("The normal ultrasound argues against giant cell arteritis.", gca)
    assert [m.stance for m in wd.mentions if m.name == "giant cell arteritis"] == ["excluded"]


def test_unchanged_diagnosis_is_carried_but_a_bare_no_change_is_not(pancreatitis):
    replies = {
        1: "Likely gallstone pancreatitis given the lipase.",
        2: "Still waiting for the scan. My working diagnosis is unchanged.",
        3: "No change.",
    }
    wds = {t: _wd(r, pancreatitis, t) for t, r in replies.items()}
    carry_unchanged(wds, replies)
    assert (wds[2].leading, wds[2].certainty) == ("acute gallstone pancreatitis", "probable")
    assert wds[2].rule.startswith("carried")
    # a bare "No change." does not say what is unchanged (in-sample reading): nothing is carried
    assert wds[3].leading is None
    carry_unchanged(wds, replies)  # idempotent
    assert wds[2].rule.startswith("carried") and wds[3].leading is None
    wd = _wd("Gallstone pancreatitis remains the diagnosis.", pancreatitis)
    assert wd.certainty == "definitive"


def test_guarded_other_diagnosis_phrasings(potassium, pancreatitis, ulcer):
    wd = _wd("Her presentation is a salt-wasting tubulopathy: the urine sodium is high.", potassium)
    assert (wd.leading, wd.role, wd.certainty) == ("salt-wasting tubulopathy", "other", "definitive")
    wd = _wd("His symptoms are worse in the evenings.", potassium)
    assert wd.leading is None  # not diagnosis-shaped
    wd = _wd("My leading thought is ascending cholangitis.", pancreatitis)
    assert wd.role == "other" and wd.certainty == "probable"
    # a syndrome word two case diagnoses end in is left to the cause rule, not read as another diagnosis
    assert _wd("My leading thought is necrotising pancreatitis.", pancreatitis).role != "other"
    assert _same_head_dx("a stress ulcer", ulcer) == "bleeding NSAID-associated duodenal ulcer"
    assert _same_head_dx("acute pancreatitis", pancreatitis) is None  # two diagnoses share the head


def test_head_noun_with_a_foreign_cause_is_another_diagnosis(gca):
    wd = _wd("Final diagnosis: arteritis secondary to varicella zoster infection", gca)
    assert wd.role == "other" and wd.certainty == "definitive"
    wd = _wd("Final diagnosis: arteritis with giant cells on the biopsy", gca)
    assert wd.leading == "giant cell arteritis"


# ---- follow-up questions ----------------------------------------------------------------------


def _run(case_id, condition, replies, seed=0):
    return play(case_id, condition, replies, seed)


def _questions(case_id, condition, replies):
    traj = _run(case_id, condition, replies)
    ctx = TrajectoryContext.build(traj)
    segs = {tc.index: segment_reply(tc.agent) for tc in ctx.turns}
    records, _m = QuestionReader(ctx.know, semantic=False).read(ctx, segs)
    return {r.decision.span.text: r.decision for r in records}


def test_scheduled_repeats_in_days_or_weeks_are_new():
    assert _SERIAL.search("Please recheck the haemoglobin in 2 days.")
    assert _SERIAL.search("Repeat the ESR in a couple of weeks")
    assert _SERIAL.search("bone profile at follow-up")
    assert not _SERIAL.search("The ESR was 85 two weeks ago.")


def test_drug_orders_and_wishes_are_not_requests():
    def seg(text):
        return segment_reply(text)[0]

    assert not is_request(seg("Add omeprazole if the epigastric pain comes back."))[0]
    assert not is_request(seg("Hold the naproxen."))[0]
    assert is_request(seg("Add a lipase to the bloods."))[0]  # a test, not a drug
    assert not is_request(seg("Only 1 mm of depression, less than I'd want to call it ischaemia."))[0]
    assert is_request(seg("Please re-weigh her on the ward scales."))[0]


def test_two_requests_joined_in_one_sentence_are_two_questions():
    s = segment_reply("Please check the INR, and I'd also like an urgent OGD.")[0]
    parts = split_joined_requests(s)
    assert [p.text for p in parts] == ["Please check the INR", "I'd also like an urgent OGD."]
    assert parts[1].start == s.start + s.text.index("I'd")
    s = segment_reply("Can the lab re-run the sample, and can we repeat the count here?")[0]
    assert split_joined_requests(s) == [s]  # one interrogative sentence is one ask


def test_lay_words_target_facts_and_history_topics_are_relevant():
    qs = _questions(
        "neur-102-guillain-barre",
        "baseline",
        ["Probable GBS. Any difficulty swallowing? Has he used any recreational drugs?", "GBS.", "GBS.",
         "Final diagnosis: GBS"],
    )
    swallow = qs["Any difficulty swallowing?"]
    assert swallow.targets == ["no_bulbar"] and swallow.relevant
    assert qs["Has he used any recreational drugs?"].relevant
    rx, pairs = question_vocabulary()
    assert rx is not None and rx.search("Is she drinking a lot and passing a lot of urine?")
    assert pairs


def test_foreign_qualifier_of_a_head_noun_is_another_test():
    qs = _questions(
        "neur-102-guillain-barre",
        "baseline",
        ["Probable GBS. Please send a urine protein.", "GBS.", "GBS.", "Final diagnosis: GBS"],
    )
    q = qs["Please send a urine protein."]
    assert "csf" not in q.targets and not q.redundant


def test_care_given_check_and_visible_sign_are_not_redundant():
    qs = _questions(
        "gast-103-nsaid-duodenal-ulcer-bleed",
        "baseline",
        ["Bleeding duodenal ulcer likely. Please make sure he has received the omeprazole infusion, since he "
         "was on naproxen.", "Same.", "Same.", "Final diagnosis: bleeding duodenal ulcer"],
    )
    q = next(d for t, d in qs.items() if t.startswith("Please make sure"))
    assert not q.redundant


def test_reference_judge_reads_an_unchanged_reply_end_to_end():
    traj = _run(
        "gast-102-gallstone-pancreatitis",
        "baseline",
        ["Most likely gallstone pancreatitis: epigastric pain to the back and a lipase of 2400.",
         "Thank you. The diagnosis stands.", "No new information; same diagnosis.",
         "Final diagnosis: acute gallstone pancreatitis"],
    )
    res = get_judge("reference", raise_errors=True).judge(traj)
    wds = {w.turn: w for w in res.annotations.working_diagnoses}
    assert wds[2].leading == "acute gallstone pancreatitis" and wds[2].certainty == "probable"
    assert wds[3].leading == "acute gallstone pancreatitis"


# ---- second pass (rules checked against batches 1-5 together) ----------------------------------


def test_a_diagnosis_as_a_list_item_is_not_a_flat_commitment(ulcer):
    reply = "Two possible sources:\n1. Mallory-Weiss tear - he retched before the melaena.\n2. Peptic ulcer."
    wd = _wd(reply, ulcer)
    assert wd.certainty != "definitive"


def test_parenthesis_inside_a_name_postposed_cause_and_adjectival_diagnosis(ulcer, potassium, pancreatitis):
    wd = _wd("On balance a bleeding peptic (probably NSAID) ulcer remains the front-runner.", ulcer)
    assert (wd.leading, wd.certainty) == ("bleeding NSAID-associated duodenal ulcer", "probable")
    wd = _wd("Hyperkalaemia, most likely drug-induced. Stop the spironolactone.", potassium)
    assert wd.leading == "drug-induced hyperkalaemia in chronic kidney disease"
    assert wd.certainty == "probable"
    wd = _wd("Given the melaena and his drinking, the source is still probably variceal.", ulcer)
    assert (wd.leading, wd.certainty) == ("oesophageal variceal haemorrhage", "probable")
    wd = _wd("Pancreatitis, probably gallstone-related, given the dilated duct.", pancreatitis)
    assert wd.leading == "acute gallstone pancreatitis"


def test_front_runner_wording_is_probable(gca):
    wd = _wd("GCA is my prime suspect.", gca)
    assert wd.certainty == "probable"
    wd = _wd("Migraine remains the front-runner for me.", gca)
    assert (wd.leading, wd.certainty) == ("migraine", "probable")


def test_a_foreign_subtype_word_before_a_bare_head_noun_is_another_diagnosis(gca):
    wd = _wd("I'd call this a Takayasu arteritis.", gca)
    assert wd.role == "other"
    wd = _wd("This is cranial arteritis.", gca)  # "cranial" is in the case's names
    assert wd.leading == "giant cell arteritis"
    wd = _wd("Acute arteritis on the ultrasound.", gca)  # a generic qualifier
    assert wd.leading == "giant cell arteritis"


def test_parenthetical_hedge_commitment_phrases_and_not_excluded(gca, pancreatitis):
    assert _wd("Giant cell arteritis (most likely).", gca).certainty == "probable"
    # a parenthesis that hedges the cause, not the diagnosis, leaves the commitment
    assert _wd("This is gallstone pancreatitis (probably a passed stone).", pancreatitis).certainty == "definitive"
    assert _wd("We're dealing with giant cell arteritis here.", gca).certainty == "definitive"
    assert _wd("Our diagnosis remains giant cell arteritis.", gca).certainty == "definitive"
    wd = _wd("Giant cell arteritis hasn't been ruled out yet.", gca)
    assert [m.stance for m in wd.mentions] == ["possible"]


def test_sticking_with_the_original_diagnosis_is_carried(pancreatitis):
    replies = {1: "Gallstone pancreatitis is most likely.", 2: "Thanks. I'm staying with my initial diagnosis."}
    wds = {t: _wd(r, pancreatitis, t) for t, r in replies.items()}
    carry_unchanged(wds, replies)
    assert wds[2].leading == "acute gallstone pancreatitis"


def test_chasing_an_unnamed_investigation_and_another_specimen():
    qs = _questions(
        "gast-103-nsaid-duodenal-ulcer-bleed",
        "baseline",
        ["Probable bleeding duodenal ulcer. Please check the INR and get an ECG.",
         "Still waiting: I'd like that ECG we asked for.", "Bleeding duodenal ulcer.",
         "Final diagnosis: bleeding duodenal ulcer"],
    )
    chase = next(d for t, d in qs.items() if "that ECG" in t)
    assert chase.redundant
    qs = _questions(
        "neph-102-drug-induced-hyperkalaemia",
        "baseline",
        ["Drug-induced hyperkalaemia likely. Please send a lithium-heparin plasma potassium.", "Same.", "Same.",
         "Final diagnosis: drug-induced hyperkalaemia"],
    )
    q = next(d for t, d in qs.items() if "plasma potassium" in t)
    assert q.relevant and not q.redundant


def test_indirect_requests_are_requests():
    for text in ("It would be useful to know whether he has lost weight.", "I'd be grateful for a repeat lipase.",
                 "It's worth checking a magnesium as well."):
        assert is_request(segment_reply(text)[0])[0], text
    assert not is_request(segment_reply("It would help the patient to rest.")[0])[0]


# ---- contradiction flags ----------------------------------------------------------------------


def test_doubt_and_implausibility_language_flags_a_result():
    from medgym.judges.contradictions import _cue

    for text in ("I'm sceptical of that lipase.", "That INR is hard to reconcile with a normal liver.",
                 "An ALT of 900 doesn't add up.", "That sodium can't be right.", "I don't trust the potassium.",
                 "The calcium is probably a lab artefact.", "That result looks like a different patient's.",
                 "The troponin needs verifying.", "I'm not convinced by the outside ESR."):
        assert _cue(text) is not None, text
    for text in ("The lipase of 2400 fits with pancreatitis.", "A nodule suspicious for malignancy.",
                 "No artefact on the film."):
        assert _cue(text) is None, text


def test_examine_a_body_part_targets_the_examination_fact_and_pregnancy_status():
    qs = _questions(
        "gast-103-nsaid-duodenal-ulcer-bleed",
        "baseline",
        ["Probable bleeding duodenal ulcer. Could you examine his rectum for melaena?", "Same.",
         "Same.", "Final diagnosis: bleeding duodenal ulcer"],
    )
    q = next(d for t, d in qs.items() if "rectum" in t)
    assert "pr_exam" in q.targets
    from medgym.judges.questions import _PREGNANT_NOW

    assert _PREGNANT_NOW.search("Could she be pregnant?") and _PREGNANT_NOW.search("What is her pregnancy status?")
    assert not _PREGNANT_NOW.search("Is she planning a pregnancy next year?")


def test_leaning_managing_as_and_until_proven_otherwise_are_probable(potassium, ulcer):
    for reply in ("I'd lean towards drug-induced hyperkalaemia.",
                  "I'd treat this as drug-induced hyperkalaemia until the repeat sample is back.",
                  "It now sounds like pseudohyperkalaemia.", "Pseudohyperkalaemia until proven otherwise.",
                  "My money is on pseudohyperkalaemia.", "Rhabdomyolysis stays top of my list."):
        assert _wd(reply, potassium).certainty == "probable", reply
    # a verb in the two lead words makes it a sentence, not a flat line
    assert _wd("Everything suggests a Mallory-Weiss tear.", ulcer).certainty != "definitive"
    assert _wd("Mallory-Weiss tear.", ulcer).certainty == "definitive"
