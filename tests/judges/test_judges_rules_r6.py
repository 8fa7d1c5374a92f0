"""Regression tests of the round-6 rules (after the batch-7/8 error analysis).

Each test uses a different case and different wording than the batch-7/8 text that revealed the
rule: the point is the family of phrasings, not the instance."""

from __future__ import annotations

import pytest
from rules_support import case_knowledge, judge_replies
from test_judges_rules_r4a import _questions
from test_judges_rules_r5a import _wd

from medgym.judges.claim_blocking import _blocked
from medgym.judges.context import fact_mentions
from medgym.judges.contradictions import _cue
from medgym.judges.diagnoses import reply_diagnoses, reworded_forms
from medgym.judges.questions import _RATIONALE, _investigations, is_request, split_joined_requests
from medgym.judges.textrules import CONFLICT_HEADING_RX, segment_reply
from medgym.text.numbers import convert, find_quantities

STEMI = "card-101-stemi-inferior"
GCA = "rheum-206-giant-cell-arteritis"


# ---- follow-up: request headings, relevance, redundancy ---------------------------------------


def test_a_bold_request_heading_with_the_colon_inside_the_bold_opens_a_question_list():
    reply = "Likely GCA.\n\n**What we still need:**\n1. ESR and CRP\n2. Any visual symptoms at all?\n"
    segs = segment_reply(reply)
    assert [s.text for s in segs if s.section == "questions"] == ["ESR and CRP", "Any visual symptoms at all?"]
    assert not any("What we still need" in s.text for s in segs)  # the heading itself asks nothing


@pytest.mark.parametrize(
    ("question", "relevant"),
    [
        ("Could we also get a lipoprotein(a)?", True),  # names no case fact: pertinent by default
        ("Was the ECG done before or after the aspirin?", True),
        ("Is he up to date with his shingles shot?", False),  # routine preventive care
        ("When did he last see a dentist?", False),
        ("Has he had a routine check-up this year?", False),
        ("Any family history of glaucoma?", False),  # a relative's unrelated illness
    ],
)
def test_relevance_is_the_default_unless_routine_preventive_care(question, relevant):
    qs = _questions(STEMI, "baseline", [f"Inferior STEMI until proven otherwise. {question}"])
    assert qs[question].relevant is relevant, qs[question].rule


def test_examining_for_a_case_sign_is_not_a_new_investigation():
    qs = _questions(
        GCA, "O", ["Probable GCA. Please check the temporal artery.", "Could someone examine her temporal artery?"]
    )
    second = qs["Could someone examine her temporal artery?"]
    assert "no case fact names" not in second.rule
    assert second.redundant, second.rule  # the same sign was asked for in turn 1


def test_a_dash_that_opens_an_explanation_ends_the_request():
    assert _investigations("ESR please — that decides whether we need an ultrasound") == set()
    assert _investigations("a temporal artery ultrasound — for the fast-track pathway") == {"ultrasound"}
    # a dash followed by more of the request is not a reason
    assert not _RATIONALE.search("Fundoscopy — any pale disc swelling?")


def test_chasing_an_untargeted_request_from_an_earlier_turn_is_redundant():
    qs = _questions(
        STEMI,
        "D",
        ["Inferior STEMI. Could we also send a lipoprotein(a)?", "Can we chase the lipoprotein(a) I asked for?"],
    )
    assert qs["Can we chase the lipoprotein(a) I asked for?"].redundant
    qs = _questions(STEMI, "D", ["Inferior STEMI. Could we send a lipoprotein(a)?", "Could we send a homocysteine?"])
    assert not qs["Could we send a homocysteine?"].redundant  # a new ask, not a chase


# ---- diagnosis reading -------------------------------------------------------------------------


def _stances(know, reply):
    wd = _wd(reply, know)
    return wd, {m.name: m.stance for m in wd.mentions}


def test_a_negated_belief_excludes_the_diagnosis(gca):
    wd, st = _stances(gca, "The CRP is normal, so I don't think this is giant cell arteritis. Migraine is likely.")
    assert st["giant cell arteritis"] == "excluded"
    assert wd.leading == "migraine"
    _wd2, st2 = _stances(gca, "I doubt it's giant cell arteritis; the jaw pain is more like TMJ dysfunction.")
    assert st2["giant cell arteritis"] == "excluded"


@pytest.mark.parametrize(
    "reply",
    [
        "The ESR is only 30. The picture remains isolated polymyalgia rheumatica. Repeat bloods next week.",
        "Shoulder girdle stiffness dominates, so this remains isolated polymyalgia rheumatica.",
        "The dominant process is isolated polymyalgia rheumatica; migraine is possible.",
    ],
)
def test_a_summary_of_the_picture_names_the_probable_diagnosis(gca, reply):
    wd, st = _stances(gca, reply)
    assert st["isolated polymyalgia rheumatica"] == "probable"
    assert wd.leading == "isolated polymyalgia rheumatica"


# ---- claims ------------------------------------------------------------------------------------


def test_a_number_and_the_noun_after_it_are_one_numeric_claim():
    r = judge_replies(STEMI, "baseline", ["Inferior STEMI. He has 30 pack-years."])
    smoking = [c for c in r.annotations.claims if c.item == "smoking"]
    assert [(c.kind, c.status) for c in smoking] == [("numeric", "supported")]
    r = judge_replies(STEMI, "baseline", ["Inferior STEMI. He has 45 pack-years."])
    smoking = [c for c in r.annotations.claims if c.item == "smoking"]
    assert [(c.kind, c.hallucinated) for c in smoking] == [("numeric", True)]


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("Her mother has T2DM.", True),  # relative of the statement + an equivalent of its condition
        ("Diabetes in her older brother too.", True),  # condition first
        ("Her sister has T2DM.", False),  # a relative the statement does not name
    ],
)
def test_a_family_history_is_named_by_a_relative_and_the_condition(text, named):

    know = case_knowledge("obgyn-207-gestational-diabetes")
    assert any(h.item_id == "family_dm" for h in fact_mentions(know, text)) is named


def test_a_relatives_age_is_a_detail_of_the_family_history_claim():
    r = judge_replies(STEMI, "baseline", ["Inferior STEMI. His brother's MI at 52 adds to the risk."])
    fam = sorted((c.kind, c.status) for c in r.annotations.claims if c.item == "family_mi")
    assert fam == [("factual", "supported"), ("numeric", "supported")]


def test_a_duration_beside_a_measured_finding_is_not_a_misquote_of_its_value():
    r = judge_replies("id-201-pyelonephritis", "baseline", ["Pyelonephritis: fever for 3 days with loin pain."])
    three = [c for c in r.annotations.claims if c.span.text.startswith("3")]
    assert three and not any(c.status == "contradicted" for c in three), [(c.status, c.rule) for c in three]


def test_an_alias_that_is_a_finding_of_a_report_is_a_result_claim():
    r = judge_replies("psych-216-anti-nmdar-encephalitis", "I", ["Encephalitis. There is extreme delta brush on the EEG."])
    assert [(c.item, c.status) for c in r.annotations.claims] == [("eeg", "supported")]


# ---- round 7 (after the batch-9/10 error analysis) ----------------------------------------------


@pytest.mark.parametrize(
    ("text", "asks"),
    [
        ("Still no ESR back — please chase it.", True),  # the ask after a dash
        ("I'm still waiting for the fundoscopy — could someone do it?", True),
        ("Pls check temporal artery US.", True),  # note-style "pls"
        ("would like rheumatology to see her today.", True),  # a note without its subject
        ("Still waiting for the ESR.", False),  # a result outstanding is not a new ask
        ("Jaw claudication — please note it started last week.", False),
    ],
)
def test_terse_and_trailing_asks(text, asks):

    assert is_request(segment_reply(text)[0])[0] is asks


def test_a_what_id_like_heading_opens_a_question_list():
    segs = segment_reply("Probable GCA.\n\n## What I'd like to check\n\n1. ESR\n2. Temporal artery ultrasound\n")
    assert [s.text for s in segs if s.section == "questions"] == ["ESR", "Temporal artery ultrasound"]


@pytest.mark.parametrize(("text", "unit"), [("71F, new headache", None), ("Temp 101F", "°f"), ("T 38.5C", "°c")])
def test_age_and_sex_shorthand_is_not_a_temperature(text, unit):

    assert find_quantities(text)[0].unit == unit


def test_a_number_named_by_a_finding_is_supported_when_it_equals_a_released_quantity():
    r = judge_replies(
        "pulm-101-primary-spontaneous-pneumothorax", "baseline",
        ["The film shows a right pneumothorax with the edge 3.2 cm from the chest wall."],
    )
    rim = [c for c in r.annotations.claims if c.span.text.startswith("3.2")]
    assert rim and all(c.status == "supported" for c in rim), [(c.item, c.status, c.rule) for c in rim]


@pytest.mark.parametrize(
    ("text", "blocked"),
    [
        ("A raised CRP or a halo sign on ultrasound would settle it.", True),  # hypothetical results
        ("Urgent referral for a temporal artery biopsy and no antibiotics.", True),  # management
        ("Surgical referral for cholecystectomy.", True),
        ("Her mother needed dialysis in her seventies.", False),  # family history, not management
    ],
)
def test_hypothetical_results_and_treatments_under_discussion_are_not_claims(text, blocked):

    word = {"A raised": "halo sign", "Urgent": "antibiotics", "Surgical": "cholecystectomy", "Her mother": "dialysis"}
    w = next(v for k, v in word.items() if text.startswith(k))
    s = text.index(w)
    assert (_blocked(text, s, s + len(w), objective=False) is not None) is blocked


def test_a_recommended_label_opens_the_plan():
    segs = segment_reply("Final diagnosis: GCA.\n\nRecommended: prednisolone 60 mg, ESR in 3–6 weeks.")
    assert segs[-1].section == "plan"


# ---- round 8 (after the batch-11/12 error analysis) ----------------------------------------------


@pytest.mark.parametrize(
    ("reply", "items"),
    [
        ("Impression: GCA.\nNeed: ESR; temporal artery US.", ["ESR;", "temporal artery US."]),  # subjectless "Need:"
        ("Probable GCA.\nNeed now:\n- ESR\n- fundoscopy", ["ESR", "fundoscopy"]),
        ("Probable GCA.\n\nTwo bloods, today if possible:\n1. ESR\n2. CRP", ["ESR", "CRP"]),  # a count of tests
    ],
)
def test_subjectless_need_headings_and_counted_test_lead_ins_open_question_lists(reply, items):
    assert [s.text for s in segment_reply(reply) if s.section == "questions"] == items


def test_a_second_ask_after_a_comma_is_its_own_question():

    seg = segment_reply("Please chase the ESR, I'd also check a CK and TSH for other causes.")[0]
    assert [p.text for p in split_joined_requests(seg)][-1] == "I'd also check a CK and TSH for other causes."


def test_a_head_noun_naming_a_specimen_is_not_the_finding():

    know = case_knowledge("rheum-205-lupus-nephritis")
    assert not any(h.item_id == "frothy_urine" for h in fact_mentions(know, "a urine pregnancy test please"))


def test_a_quality_against_the_report_is_found_across_british_and_american_spelling():
    r = judge_replies("endo-103-graves-disease", "baseline", ["Thyroiditis: the tender goiter points that way."])
    goitre = [c for c in r.annotations.claims if c.item == "goitre"]
    assert goitre and goitre[0].status == "contradicted", [(c.status, c.rule) for c in goitre]


def test_a_duration_is_never_the_value_of_a_dimensionless_or_measured_result():
    r = judge_replies("hema-101-warfarin-clarithromycin", "O+I", ["Interaction. Six years of stable INRs before this."])
    six = [c for c in r.annotations.claims if c.span.text.lower().startswith("six")]
    assert not any(c.item == "inr" for c in six), [(c.item, c.status, c.rule) for c in six]


# ---- round 9 (after the batch-13/14 error analysis) ----------------------------------------------


def test_a_bold_label_that_closes_after_its_colon_is_a_heading():
    segs = segment_reply("**Most likely:** giant cell arteritis.")
    assert (segs[0].section, segs[0].heading, segs[0].text) == ("diagnosis", "Most likely", "giant cell arteritis.")


def test_further_information_id_like_heading_opens_a_question_list():
    segs = segment_reply("Probable GCA.\n\n**Further information I'd like:**\n1. ESR\n2. Fundoscopy")
    assert [s.text for s in segs if s.section == "questions"] == ["ESR", "Fundoscopy"]


@pytest.mark.parametrize(
    ("reply", "lead"),
    [
        ("I'm most concerned about a new structural lesion, so I'd like an MRI.",
         "new structural brain lesion"),  # a worry slot, matched semantically
        ("Seizures restarted. The most likely cause is a lamotrigine-contraceptive interaction.",
         "breakthrough seizures from oestrogen-induced lowering of lamotrigine levels"),
    ],
)
def test_concern_and_most_likely_cause_slots_name_the_leading_diagnosis(reply, lead):

    know = case_knowledge("neur-103-lamotrigine-contraceptive")
    assert reply_diagnoses(reply, segment_reply(reply), know, 1, semantic=True).leading == lead


def test_a_diagnosis_line_is_matched_semantically_as_a_whole_phrase():

    know = case_knowledge("neur-103-lamotrigine-contraceptive")
    reply = "Most likely: breakthrough seizures from the combined pill lowering her lamotrigine."
    wd = reply_diagnoses(reply, segment_reply(reply), know, 1, semantic=True)
    assert wd.role == "gold", wd.rule


@pytest.mark.parametrize(
    ("reply", "name", "stance"),
    [
        ("Isolated polymyalgia rheumatica alone rarely causes jaw claudication.", "isolated polymyalgia rheumatica",
         "possible"),  # the subject of a general statement, not a flat call
        ("Migraine has to be considered given the history.", "migraine", "possible"),
        ("This looks like giant cell arteritis.", "giant cell arteritis", "probable"),
    ],
)
def test_general_statements_considerations_and_impressions(gca, reply, name, stance):
    assert _stances(gca, reply)[1][name] == stance


def test_a_sentence_adverb_before_a_bare_name_is_not_a_qualifier():

    know = case_knowledge("uro-219-testicular-torsion")
    reply = "Still torsion: the Doppler shows absent flow."
    assert reply_diagnoses(reply, segment_reply(reply), know, 1, semantic=False).role == "gold"


def test_stemi_and_nstemi_are_written_forms_of_their_names():

    assert "posterior STEMI" in reworded_forms("posterior ST-elevation myocardial infarction")


def test_a_case_summary_under_an_assessment_heading_is_not_a_diagnosis_and_keeps_its_claims():
    r = judge_replies(STEMI, "baseline", ["Assessment: 64-year-old man with crushing chest pain and ST elevation in II, III and aVF."])
    wd = r.annotations.working_diagnoses[0]
    assert wd.leading is None or wd.role != "other", wd.rule
    assert any(c.span.text.startswith("64") for c in r.annotations.claims)


# ---- round 10 (after the batch-15/16 error analysis) --------------------------------------------


@pytest.mark.parametrize(
    "invented",
    ["She also has bronchial breathing at the left base.", "Haptoglobin is undetectable.",
     "There is guarding in the right iliac fossa.", "His urine shows white cells in the urine."],
)
def test_common_invented_signs_and_results_are_recognised(invented):
    r = judge_replies(GCA, "baseline", [f"Probable GCA. {invented}"])
    assert any(c.hallucinated for c in r.annotations.claims), [(c.item, c.status) for c in r.annotations.claims]


def test_pth_converts_between_pmol_per_litre_and_pg_per_ml():

    assert convert(11.8, "pmol/L", "pg/mL", "parathyroid hormone") == pytest.approx(111.3, abs=0.2)


def test_a_multiple_of_the_upper_limit_given_as_a_bound_is_checked_as_a_bound():
    r = judge_replies("peds-212-coeliac-in-t1dm", "baseline", ["Coeliac disease: tTG-IgA more than 10× the upper limit."])
    fold = [c for c in r.annotations.claims if c.item == "ttg"]
    assert fold and all(c.status == "supported" for c in fold), [(c.status, c.rule) for c in fold]


# ---- round 11 (after the batch-17 to 20 error analysis) -----------------------------------------


def test_a_numbered_item_can_open_a_nested_request_list():
    reply = "1. Dx: GCA.\n2. I need:\n   a) ESR now\n   b) Temporal artery ultrasound\n3. Steroids wait on neither."
    segs = segment_reply(reply)
    assert [s.text for s in segs if s.section == "questions"] == ["ESR now", "Temporal artery ultrasound"]
    assert segs[-1].section == "body"  # the next item at the opener's depth ends the list


@pytest.mark.parametrize("heading", ["**I need urgently:**", "## Investigations I'd request"])
def test_more_request_headings(heading):
    segs = segment_reply(f"Probable GCA.\n\n{heading}\n1. ESR\n2. CRP\n")
    assert [s.text for s in segs if s.section == "questions"] == ["ESR", "CRP"]


@pytest.mark.parametrize(
    ("case_id", "question", "relevant"),
    [
        (GCA, "Has she travelled abroad recently?", False),  # no infection in play
        ("id-203-falciparum-malaria", "Has he travelled anywhere else recently?", True),
        (GCA, "Is her tetanus up to date?", False),
    ],
)
def test_exposure_history_is_pertinent_only_with_an_infection_in_play(case_id, question, relevant):
    qs = _questions(case_id, "baseline", [f"Working diagnosis stands. {question}"])
    assert qs[question].relevant is relevant, qs[question].rule


def test_bare_test_items_in_a_note_list_are_orders():
    # (the temporal artery ultrasound is released in this scenario: since round 30 reads "US" as that fact,
    # a bare "- temporal artery US" names a released result, so an unreleased test is the item here)
    qs = _questions(GCA, "O", ["Imp: likely GCA.\n- ESR stat\n- CRP\n- ECG w/ no ischaemia"])
    assert "ESR stat" in qs and "CRP" in qs
    assert "ECG w/ no ischaemia" not in qs  # a result, not an order


def test_ptx_is_a_written_form_of_pneumothorax():

    assert "primary spontaneous PTX" in reworded_forms("primary spontaneous pneumothorax")


# ---- round 12 (after batches 21 and 22) --------------------------------------------------------


def test_a_discrepancy_remark_flags_the_item_it_names():

    segs = segment_reply("Final diagnosis: lead poisoning.\n\nDiscrepancy: the father denies pica.")
    assert segs[-1].heading == "Discrepancy" and CONFLICT_HEADING_RX.match(segs[-1].heading)
    assert CONFLICT_HEADING_RX.match("Conflicting report") and not CONFLICT_HEADING_RX.match("Evidence")


@pytest.mark.parametrize(("text", "cue"), [("repeat urate in 4 weeks", False), ("repeat beta-hCG in 48 h", False),
                                           ("please repeat the urate today", True)])
def test_a_repeat_booked_for_later_is_not_a_check_of_the_contradicted_item(text, cue):

    assert (_cue(text) is not None) is cue
