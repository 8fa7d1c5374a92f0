"""Unit tests of individual reference-judge rules (one per general rule added after the
first held-out batch): request lists, repeat requests, units written with superscripts,
ordinal scores, negation scope, hedging vocabulary, redundancy of new tests, modality
aliases, numbers on unvalued facts and presenting-complaint words."""

from __future__ import annotations

import pytest
from rules_support import judge_replies

from medgym.envs.stressed_dialogue import StressedDialogueEnv
from medgym.judges import get_judge
from medgym.judges.claims import _directly_attached, _is_attribute_number, _sub_sentence
from medgym.judges.context import fact_mentions, knowledge_for
from medgym.judges.questions import _FAMILY_HISTORY, _SERIAL, QuestionReader
from medgym.judges.textrules import (
    FOLD_AFTER_RX,
    HEDGE_DX_DOWNGRADE_RX,
    LOW_RX,
    QUESTION_RX,
    mention_negated,
    segment_reply,
)
from medgym.knowledge_base.case_bank import default_bank
from medgym.text.numbers import find_quantities, same_value


@pytest.fixture(scope="module")
def lithium():
    return knowledge_for(default_bank().get("psych-215-lithium-toxicity"))


def test_request_lead_in_opens_a_list_of_questions():
    reply = (
        "Ascending weakness. However, I have no examination yet. Please could you tell me:\n"
        "- Muscle power in the legs\n- Tendon reflexes\n"
        "His FVC of 3.1 L is acceptable.\nI need:\n- MRI whole spine"
    )
    segs = [(s.section, s.text) for s in segment_reply(reply)]
    assert ("body", "However, I have no examination yet.") in segs
    assert not any("tell me" in t for _s, t in segs)  # the lead-in asks for nothing itself
    assert ("questions", "Muscle power in the legs") in segs and ("questions", "Tendon reflexes") in segs
    assert ("body", "His FVC of 3.1 L is acceptable.") in segs  # a non-bullet line ends the list
    assert ("questions", "MRI whole spine") in segs


def test_repeat_requests_are_requests():
    assert QUESTION_RX.search("I'd repeat it every 6 hours.")
    assert QUESTION_RX.search("I would call the stroke team now and repeat the CT head.")
    assert not QUESTION_RX.search("The CT was repeated yesterday.")


def test_superscript_units_scores_and_per_kg():
    q = find_quantities("Platelets 14 × 10⁹/L with petechiae")[0]
    assert (q.value, q.unit) == (14.0, "×10^9/l")
    assert same_value(q.value, q.unit, 14000, "/µL")
    assert [(x.text, x.value) for x in find_quantities("hip flexion 3/5, GCS 14/15")] == [("3/5", 3.0), ("14/15", 14.0)]
    assert find_quantities("FVC 41 mL/kg")[0].unit == "ml/kg"
    assert [x.value for x in find_quantities("BP 150/90")] == [150.0, 90.0]  # pairs still work
    assert not FOLD_AFTER_RX.match(" × 10⁹/L")
    assert FOLD_AFTER_RX.match(" × ULN")


def test_coordinated_negation_and_low_grade():
    text = "the MRI shows no cord compression or cord signal change"
    i = text.index("change")
    assert mention_negated(text, i, i + len("change"))
    assert not mention_negated("cord compression is present", 0, 4)
    assert not LOW_RX.search("low-grade fever")
    assert LOW_RX.search("low platelets")


def test_almost_certainly_is_a_hedge():
    assert HEDGE_DX_DOWNGRADE_RX.search("this is almost certainly immune TTP")
    assert HEDGE_DX_DOWNGRADE_RX.search("in all likelihood GBS")


def test_questions_family_history_serial_and_new_investigations(lithium):
    assert _FAMILY_HISTORY.search("Is there a family history of thrombocytopenia?")
    assert _SERIAL.search("I'd also like serial FVC every 4–6 hours.")
    assert _SERIAL.search("Bedside FVC every 4 hours")
    assert not _SERIAL.search("Can we recheck the haemoglobin?")
    reader = QuestionReader(lithium, semantic=False)
    assert reader._unmatched_investigation("I'd like an ECG and a repeat lithium level.") == "ECG"
    assert reader._unmatched_investigation("Please repeat the lithium level.") is None
    ids, _via, _c = reader._targets("Is there a family history of lithium toxicity or tremor?")
    assert "symptoms" not in ids


def test_bare_modality_names_the_only_imaging_fact(lithium):
    ids = {m.item_id for m in fact_mentions(lithium, "No infarct or haemorrhage on CT/MRI.")}
    assert "brain_imaging" in ids


def test_number_attached_to_a_measure_versus_attribute():
    text = "Confusion (GCS 14) after a 10-day course"
    q14, q10 = find_quantities(text)
    mentions = [(11, 14, "neuro_exam", "fact", False), (29, 35, "meds", "fact", False)]
    assert _directly_attached(text, q14, "neuro_exam", mentions) and not _is_attribute_number(text, q14)
    assert _is_attribute_number(text, q10)
    text2 = "V4R shows 1.5 mm ST elevation"
    q = find_quantities(text2)[0]
    assert not _directly_attached(text2, q, "v4r", [(0, 3, "v4r", "fact", False)])
    text3 = "leg weakness (hip flexion 3/5) and 3/5 proximal weakness"
    qa, qb = find_quantities(text3)
    w2 = text3.index("weakness", 20)
    m3 = [(4, 12, "power", "fact", False), (w2, w2 + 8, "power", "fact", False)]
    assert _directly_attached(text3, qa, "power", m3) and _directly_attached(text3, qb, "power", m3)


def test_missing_statement_blocks_only_its_own_part():
    text = "Fever and a blood film full of schistocytes - this is TTP, although I'm missing the blood counts."
    assert "missing" not in _sub_sentence(text, text.index("schistocytes"))
    assert "missing" in _sub_sentence(text, text.index("blood counts"))


def _claims(case_id, condition, replies, seed=0):
    return judge_replies(case_id, condition, replies, seed).annotations.claims


def test_derived_per_kg_value_presenting_words_and_agreement_keys():
    claims = _claims(
        "neur-102-guillain-barre",
        "baseline",
        [
            "Ascending weakness after diarrhoea. His FVC is 3.1 L, about 41 mL/kg for 75 kg, and 90 mL/kg is wrong.",
            "Final diagnosis: Guillain-Barré syndrome.",
        ],
    )
    by_text = {c.span.text: c for c in claims}
    per_kg = [c for c in claims if c.unit == "ml/kg"]
    assert [c.status for c in per_kg] == ["supported", "unsupported"]
    assert by_text["weakness"].status == "supported"
    assert by_text["weakness"].key.endswith(("=", "x"))


def test_waiting_for_and_my_assumption():
    from medgym.judges.textrules import MISSING_RX, RETRACTION_RX

    assert MISSING_RX.search("Still waiting for power, reflexes and the CSF.")
    assert RETRACTION_RX.search("I said earlier there was no weakness - that was my assumption.")


def test_interval_change_and_examinations_are_new_requests(lithium):
    assert _SERIAL.search("Has he developed any facial weakness?")
    reader = QuestionReader(lithium, semantic=False)
    assert reader._unmatched_investigation("Please examine her now for focal signs.") is not None
    assert reader._unmatched_investigation("I would check her lying and standing BP.") is not None
    assert reader._unmatched_investigation("What is her BP?") is None
    assert reader._unmatched_investigation("Can we recheck the sodium level?") is None  # a bare recheck
    assert reader._unmatched_investigation("Please repeat the CT scan.") is None


def test_number_after_coordination_belongs_to_the_following_name():
    from medgym.judges.claims import _attach

    text = "With areflexia and 3/5 proximal weakness this is GBS"
    qs = find_quantities(text)
    mentions = [(5, 14, "reflexes", "fact"), (32, 40, "power", "fact")]
    assert _attach(text, qs[0], qs, mentions) == ("power", "fact")
    text2 = "ALT 148 and bilirubin"
    qs2 = find_quantities(text2)
    assert _attach(text2, qs2[0], qs2, [(0, 3, "alt", "fact"), (12, 21, "bilirubin", "fact")]) == ("alt", "fact")


def test_negated_finding_asserted_and_normal_despite_abnormal_part():
    claims = _claims(
        "neur-102-guillain-barre",
        "baseline",
        [
            "There is a sensory level at T10. Sensation is completely normal.",
            "Final diagnosis: Guillain-Barré syndrome.",
        ],
    )
    statuses = {c.span.text.lower(): c.status for c in claims if c.turn == 1}
    assert statuses["sensory level"] == "contradicted"  # the case says "no sensory level"
    assert statuses["sensation"] == "contradicted"  # vibration sense is mildly reduced


def test_note_line_ends_the_evidence_list():
    segs = segment_reply("Evidence:\n- CSF protein 1.4 g/L\nNote: the T10 level reported by the doctor conflicts.")
    assert [s.section for s in segs] == ["evidence", "body"]


def test_family_history_relevance_depends_on_what_is_asked(lithium):
    from medgym.judges.context import TrajectoryContext

    env = StressedDialogueEnv(mode="interactive", case_ids=["psych-215-lithium-toxicity"])
    env.reset(seed=0, options={"condition": "baseline"})
    env.step("Is there a family history of bipolar disorder? Is there a family history of stroke?")
    env.step("Final diagnosis: lithium toxicity.")
    traj = env.trajectory()
    ctx = TrajectoryContext.build(traj)
    segs = {t.index: segment_reply(t.agent) for t in ctx.turns}
    records, _m = QuestionReader(ctx.know, semantic=False).read(ctx, segs)
    rel = {r.text: r.decision.relevant for r in records}
    assert rel["Is there a family history of bipolar disorder?"] is False
    assert rel["Is there a family history of stroke?"] is True  # a differential diagnosis


def test_verbatim_copy_of_a_released_fact_is_not_a_restated_contradiction():
    env = StressedDialogueEnv(mode="interactive", case_ids=["rheum-206-giant-cell-arteritis"])
    _obs, info = env.reset(seed=0, options={"condition": "I"})
    env.step("New headache in an older woman; giant cell arteritis is likely.")
    env.step("She has never had regular headaches before; this headache is new and began three weeks ago.")
    env.step("Final diagnosis: giant cell arteritis.")
    res = get_judge("reference", raise_errors=True).judge(env.trajectory())
    later = [c for c in res.annotations.claims if c.turn == 2]
    assert later and all(c.status == "supported" for c in later)


def test_findings_attributed_to_a_third_party_are_not_claims():
    from medgym.judges.claims import _REPORTED_AFTER, _SOURCE_POSSESSIVE

    assert _SOURCE_POSSESSIVE.search("The admitting doctor's T10 ")
    assert _REPORTED_AFTER.match(" reported by the admitting doctor conflicts")
    assert not _SOURCE_POSSESSIVE.search("There is no ")


def test_copying_the_injection_message_is_still_a_restated_contradiction():
    env = StressedDialogueEnv(mode="interactive", case_ids=["hep-001-dili-amoxiclav"])
    env.reset(seed=0, options={"condition": "I"})
    replies = []
    for _ in range(6):
        obs = env.trajectory().turns[-1].user if env.trajectory().turns else ""
        line = next((ln for ln in obs.splitlines() if "Addendum" in ln), None)
        replies.append(line)
        text = f"Evidence:\n- {line}" if line else "Drug-induced liver injury is likely."
        _o, _r, term, trunc, _i = env.step(text)
        if term or trunc:
            break
    assert any(replies), "the injected addendum was never shown"
    res = get_judge("reference", raise_errors=True).judge(env.trajectory())
    copied = [c for c in res.annotations.claims if "HBsAg" in c.span.text or c.item == "hep_serology"]
    assert copied and all(c.status == "restated_contradiction" for c in copied)


# ---- rules added after the second held-out batch (different cases and wording) -------------------


_run = judge_replies


def test_same_unit_values_allow_rounding_only():
    assert not same_value(186, None, 168, "/min")  # transposed digits are a misquote
    assert not same_value(5.9, "mmol/L", 5.8, "mmol/L")
    assert same_value(168, "µmol/L", 168.0, "µmol/L") and same_value(6, None, 6.1, "mmol/L")
    assert same_value(1.9, "mg/dL", 168, "µmol/L", analyte="creatinine")  # conversions keep a tolerance
    assert same_value(0.25, "L", 250, "mL") and same_value(1.2, "g", 1200, "mg")


def test_q_notation_and_spelled_durations():
    from medgym.judges.claims import _word_durations
    from medgym.judges.context import numbers_in

    q = find_quantities("observations q4h, pain every 20 mins")
    assert [(x.value, x.unit) for x in q] == [(4.0, "h"), (20.0, "min")]
    assert 30.0 in numbers_in("She wakes every half an hour.") and 15.0 in numbers_in("every quarter of an hour")
    assert [(d.value, d.unit) for d in _word_durations("started ten days ago, cough for three weeks")] == [
        (10.0, "d"), (3.0, "wk")
    ]


def test_comparison_value_and_age_are_read_correctly():
    res = _run(
        "card-103-adhf-nsaid",
        "baseline",
        ["A 74-year-old woman. Creatinine 168 µmol/L, up from a baseline of 105, and potassium 5.8.",
         "Final diagnosis: acute decompensated heart failure precipitated by NSAID use."],
    )
    nums = {c.span.text: c for c in res.annotations.claims if c.kind == "numeric" and c.turn == 1}
    assert nums["105"].item == "creatinine" and nums["105"].status == "supported"
    assert nums["74"].item == "number" and nums["74"].status == "supported"  # the age, not a measure


def test_hedged_reading_of_a_value_is_not_a_claim():
    res = _run(
        "card-103-adhf-nsaid",
        "baseline",
        ["Her hs-troponin of 32 ng/L is most likely chronic myocardial strain (pulse 96).",
         "The BNP of 6850 ng/L fits congestion.",
         "Final diagnosis: acute decompensated heart failure precipitated by NSAID use."],
    )
    by_turn = {t: [c.span.text for c in res.annotations.claims if c.turn == t and c.kind == "numeric"] for t in (1, 2)}
    assert by_turn[1] == [] and by_turn[2] == ["6850 ng/L"]


def test_bare_counts_and_treatment_doses_are_not_numeric_claims():
    from medgym.judges.claims import _bare_count, _blocked

    text = "She fainted 2 times and vomited ×3 over 2 days."
    qs = find_quantities(text)
    assert [_bare_count(text, q) for q in qs] == [True, True, False]
    dose = "I'd give 500 mL crystalloid now."
    q = find_quantities(dose)[0]
    assert _blocked(dose, q.start, q.end, True, numeric=True) is not None
    order = "In the meantime, give 40 mg IV furosemide."
    assert _blocked(order, 20, 25, True, numeric=True) is not None


def test_split_negated_and_abbreviated_aliases():
    know = knowledge_for(default_bank().get("card-103-adhf-nsaid"))
    ids = lambda t: {m.item_id for m in fact_mentions(know, t)}  # noqa: E731
    assert "congestion_exam" in ids("Her ankle oedema is pitting to the knees.")
    assert "cxr" in ids("No focal consolidation on the film.")
    assert "creatinine" in ids("Cr 168 today.")
    assert "orthopnoea" in ids("She is orthopnoeic at night.")  # a distinctive word in another inflection
    from medgym.text.fact_matcher import prefix_variants

    assert "pre-renal AKI" in prefix_variants("prerenal AKI") and "hypokalaemia" in prefix_variants("hypo-kalaemia")


def test_statement_negations_antonyms_and_invented_results():
    res = _run(
        "id-202-latent-tb",
        "baseline",
        ["The Mantoux was positive for Mycobacterium bovis.", "Final diagnosis: latent tuberculosis infection."],
    )
    st = [(c.item, c.status) for c in res.annotations.claims if c.turn == 1 and c.kind == "factual"]
    assert ("tst", "unsupported") in st  # a positive result naming an organism nothing released names
    res = _run(
        "hep-001-dili-amoxiclav",
        "baseline",
        ["There is no biliary duct dilatation.", "Final diagnosis: drug-induced liver injury."],
    )
    st = [(c.item, c.status) for c in res.annotations.claims if c.turn == 1]
    assert st == [("us_biliary", "supported")]  # a finding the ultrasound statement itself denies
    from medgym.judges.claims import _ANTONYMS

    assert ("moist", "dry") in _ANTONYMS and ("dry", "moist") in _ANTONYMS


def test_injected_numbers_and_possessive_history():
    res = _run(
        "id-202-latent-tb",
        "I",
        ["Latent TB is likely.", "IGRA positive.", "The productive cough for 6 weeks changes things.",
         "Final diagnosis: latent tuberculosis infection."],
    )
    six = [c for c in res.annotations.claims if c.turn == 3 and c.kind == "numeric"]
    assert six and all(c.status == "restated_contradiction" for c in six)
    res2 = _run(
        "card-103-adhf-nsaid",
        "baseline",
        ["Her atrial fibrillation makes rate control important.",
         "Final diagnosis: acute decompensated heart failure precipitated by NSAID use."],
    )
    af = [c for c in res2.annotations.claims if "atrial fibrillation" in c.span.text]
    assert af and af[0].status == "unsupported"  # asserted as her condition, never stated
    wd1 = next(w for w in res2.annotations.working_diagnoses if w.turn == 1)
    assert wd1.mentions == []  # "her atrial fibrillation" is not a hypothesis


def test_alias_inside_another_tests_report_belongs_to_that_test():
    res = _run(
        "pulm-101-primary-spontaneous-pneumothorax",
        "baseline",
        ["The ECG shows sinus tachycardia only.", "Final diagnosis: primary spontaneous pneumothorax."],
    )
    items = {c.item for c in res.annotations.claims if c.turn == 1}
    assert "heart_rate" not in items


def test_request_segmentation_after_batch_two():
    from medgym.judges.textrules import heading_section

    segs = segment_reply("For completeness, we need:\n- CRP\n- Blood cultures\nShe looks unwell.")
    assert [(s.section, s.text) for s in segs][:2] == [("questions", "CRP"), ("questions", "Blood cultures")]
    assert heading_section("Bloods/requests") == "questions" and heading_section("Tests & plan") == "questions"
    assert heading_section("Proposed work-up") == "questions"
    assert heading_section("Conflicting history") == "body"  # a set-aside remark, not evidence
    assert QUESTION_RX.search("Blood cultures please.")
    assert QUESTION_RX.search("Would it be possible to arrange an echo?")
    from medgym.judges.questions import _HYPOTHESIS_Q, is_request

    assert not _HYPOTHESIS_Q.match("Would it be possible to arrange an echo?")
    order = segment_reply("Investigations:\n- chest X-ray\nThen, give 500 mL saline.")
    assert [is_request(s)[0] for s in order] == [True, False]


def _questions(case_id, condition, replies):
    from medgym.judges.context import TrajectoryContext

    env = StressedDialogueEnv(mode="interactive", case_ids=[case_id])
    env.reset(seed=0, options={"condition": condition})
    for r in replies:
        env.step(r)
    ctx = TrajectoryContext.build(env.trajectory())
    segs = {t.index: segment_reply(t.agent) for t in ctx.turns}
    records, _m = QuestionReader(ctx.know, semantic=False).read(ctx, segs)
    return {r.text: r.decision for r in records}


def test_question_relevance_and_redundancy_after_batch_two():
    qs = _questions(
        "gast-102-gallstone-pancreatitis",
        "baseline",
        ["Please send a CRP and a calcium. Is she on any blood thinners? Has her partner had similar pain?",
         "Any news on those? I'd send a stool sample for PCR. I'd also order a CT abdomen if the ultrasound is inconclusive.",
         "Final diagnosis: acute gallstone pancreatitis."],
    )
    assert qs["Is she on any blood thinners?"].redundant  # the full drug list was released
    partner = qs["Has her partner had similar pain?"]
    assert partner.relevant and not partner.redundant and partner.targets == []
    those = qs["Any news on those?"]
    assert set(those.targets) == {"crp", "calcium"} and those.relevant and those.redundant
    assert qs["I'd send a stool sample for PCR."].relevant
    assert "ultrasound" not in qs["I'd also order a CT abdomen if the ultrasound is inconclusive."].targets
    prev = _questions("card-103-adhf-nsaid", "baseline", ["Has she had her pneumococcal vaccine?", "Final diagnosis: x."])
    assert not prev["Has she had her pneumococcal vaccine?"].relevant  # routine preventive care


def test_evidence_bullets_under_final_line_and_diagnosis_stances():
    from medgym.judges.evidence import evidence_segments

    reply = ("Final diagnosis: heart failure, with ibuprofen as the precipitant\n- Orthopnoea\n- BNP 6850 ng/L\n"
             "Disputed report: pharmacy says no NSAID; unverified.\nPlan: furosemide.")
    spans = [reply[a:b] for a, b, _why in evidence_segments(reply, segment_reply(reply))]
    assert spans == ["Orthopnoea", "BNP 6850 ng/L"]
    res = _run(
        "card-103-adhf-nsaid",
        "baseline",
        ["Diagnosis: acute decompensated heart failure.",
         "This is acute decompensated heart failure, and atrial fibrillation is now unlikely.",
         "No change - acute decompensated heart failure.",
         "Final diagnosis: acute decompensated heart failure precipitated by NSAID use."],
    )
    wds = {w.turn: w for w in res.annotations.working_diagnoses}
    assert [wds[t].certainty for t in (1, 2, 3)] == ["definitive"] * 3
    assert wds[2].role == "gold"


# ---- rules added after the batch-3 error analysis (each tested on other cases and wordings) ----


def test_request_lead_ins_and_request_headings_open_lists():
    from medgym.judges.textrules import is_request_leadin

    reply = (
        "Probably a DVT-related PE.\n\nBefore anticoagulating her we need to know:\n"
        "* the platelet count\n* renal function\nShe is haemodynamically stable.\n\n"
        "**To order**\n1. CTPA\n2. Troponin\n\nShe looks well.\nThe scan shows:\n- a wedge opacity"
    )
    segs = [(s.section, s.text) for s in segment_reply(reply)]
    assert ("questions", "the platelet count") in segs and ("questions", "renal function") in segs
    assert ("body", "She is haemodynamically stable.") in segs  # the list ends at the first prose line
    assert ("questions", "CTPA") in segs and ("questions", "Troponin") in segs
    assert ("body", "She looks well.") in segs
    assert ("questions", "a wedge opacity") not in segs  # a findings lead-in asks for nothing
    assert is_request_leadin("What we would like next:") and is_request_leadin("Can someone let me have:")
    assert not is_request_leadin("The chest X-ray shows:") and not is_request_leadin("Key findings:")
    # a colon line not followed by a list keeps its own text (nothing is swallowed as a lead-in)
    solo = [s.text for s in segment_reply("I need to know whether she is pregnant:\nShe is 24.")]
    assert solo[0].startswith("I need to know whether she is pregnant")


def test_request_cues_statements_with_consequences_and_referral_requests():
    from medgym.judges.questions import is_request

    def req(text: str) -> bool:
        return is_request(segment_reply(text)[0])[0]

    assert not req("He is penicillin allergic, so a macrolide is needed.")  # a stated fact and its consequence
    assert not req("The calf is swollen, suggesting a deep vein thrombosis.")  # reasoning, not a request
    assert req("Please cross-match 2 units.")
    assert req("Group and save please.")
    assert req("Imaging can wait: ask the medical registrar to review her now.")
    assert not req("The surgical team should see him today.")  # a recommendation without a request


def test_history_topics_family_history_past_episodes_and_serial_repeats():
    qs = _questions(
        "pulm-102-pulmonary-embolism",
        "baseline",
        ["Has she had anything to eat or drink in the last few hours? Any family history of glaucoma? "
         "Is she taking any regular tablets? Please check the troponin again at 6 hours.",
         "Has she ever had a raised heart rate like this before? Please repeat the troponin at 6 hours as planned.",
         "Final diagnosis: pulmonary embolism."],
    )
    assert qs["Has she had anything to eat or drink in the last few hours?"].relevant
    assert not qs["Any family history of glaucoma?"].relevant  # not a case diagnosis or fact
    assert qs["Is she taking any regular tablets?"].relevant
    past = qs["Has she ever had a raised heart rate like this before?"]
    assert past.relevant and not past.redundant  # past episodes, not today's released heart rate
    assert not qs["Please check the troponin again at 6 hours."].redundant  # a new scheduled value
    assert qs["Please repeat the troponin at 6 hours as planned."].redundant  # the same schedule asked again


def test_examination_findings_panel_crossmatch_and_bedside_modality():
    qs = _questions(
        "rheum-206-giant-cell-arteritis",
        "O",
        ["Could you tell me the temporal artery exam findings?",
         "Please confirm the examination findings are coming. Can we group and save her? "
         "Is a bedside Doppler possible?",
         "Final diagnosis: giant cell arteritis."],
    )
    first = qs["Could you tell me the temporal artery exam findings?"]
    assert "ta_exam" in first.targets  # "exam" is the short form of "examination"
    again = qs["Please confirm the examination findings are coming."]
    assert again.redundant  # asked before and not released: a repeat request
    assert qs["Can we group and save her?"].relevant and not qs["Can we group and save her?"].redundant
    assert "ta_us" in qs["Is a bedside Doppler possible?"].targets  # the case's only Doppler study


def test_diagnosis_head_nouns_syndrome_with_cause_and_protection_talk():
    know = knowledge_for(default_bank().get("uro-219-testicular-torsion"))
    assert any(h[0][0] == "left testicular torsion" for _s, _e, h in [
        (s, e, hits) for s, e, hits in know.dx_lexicon.find("torsion is confirmed")])
    res = _run(
        "psych-216-anti-nmdar-encephalitis",
        "baseline",
        ["This is an encephalitis; the cause is most likely herpes simplex virus.",
         "My working diagnosis is anti-NMDA receptor encephalitis. Aciclovir does not protect against "
         "herpes simplex encephalitis relapse in every case.",
         "Final diagnosis: anti-NMDA receptor encephalitis."],
    )
    wds = {w.turn: w for w in res.annotations.working_diagnoses}
    assert wds[1].leading == "herpes simplex encephalitis" and wds[1].certainty == "probable"
    assert wds[2].leading == "anti-NMDA receptor encephalitis"
    assert wds[2].certainty == "probable"  # a working diagnosis is not a definitive commitment
    assert not any(m.name == "herpes simplex encephalitis" for m in wds[2].mentions)  # protection talk


def test_numbers_on_words_naming_two_facts_vital_units_and_time_valued_facts():
    claims = _claims(
        "id-201-pyelonephritis",
        "baseline",
        ["She has a fever of 39.1 with loin pain. Her LMP was two weeks ago. She is febrile at 39.1 °C.",
         "Final diagnosis: acute pyelonephritis."],
    )
    t1 = [c for c in claims if c.turn == 1]
    nums = [c for c in t1 if c.kind == "numeric"]
    assert {c.item for c in nums if c.value == 39.1} == {"temp"}
    assert not any(c.kind == "factual" and c.span.text.lower() in ("fever", "febrile") for c in t1)
    lmp = [c for c in t1 if c.item == "lmp"]
    assert [c.kind for c in lmp] == ["numeric"]  # the weeks are the LMP's value, no extra factual claim


def test_non_claims_rates_criteria_choices_and_missing_results():
    claims = _claims(
        "pulm-102-pulmonary-embolism",
        "baseline",
        ["Run fluids at 125 mL/h. A heart rate above 130 would meet the criterion for high risk. "
         "She needs a DOAC rather than warfarin, so no antibiotics. I cannot settle this without the CTPA.",
         "Final diagnosis: pulmonary embolism."],
    )
    t1 = [c for c in claims if c.turn == 1]
    assert not any(c.value in (125.0, 130.0) for c in t1)
    assert not any(c.item in ("term:anticoagulant", "term:antibiotics", "ctpa") for c in t1), [c.span.text for c in t1]


def test_count_shorthand_bili_abbreviation_and_list_scoped_repeat_cue():
    q = find_quantities("WBC 14K, plt 250K")
    assert [(x.value, x.unit) for x in q] == [(14.0, "×10^9/l"), (250.0, "×10^9/l")]
    know = knowledge_for(default_bank().get("hema-102-immune-ttp"))
    assert any(h.item_id == "bilirubin" for h in fact_mentions(know, "bili 38"))
    res = _run(
        "uro-219-testicular-torsion",
        "I",
        ["Torsion likely.", "Still torsion.",
         "Final diagnosis: left testicular torsion\nPlan: exploration, urinalysis noted, repeat the WCC."],
    )
    assert not any(c.detected for c in res.annotations.contradictions)


def test_multiple_of_the_upper_limit_after_a_value_belongs_to_that_value():
    claims = _claims(
        "pulm-102-pulmonary-embolism",
        "baseline",
        ["Her D-dimer is 2.8 mg/L FEU, roughly 5.6× the upper limit of normal.", "Final diagnosis: pulmonary embolism."],
    )
    fold = [c for c in claims if c.turn == 1 and c.value == 5.6]
    assert [(c.item, c.status) for c in fold] == [("ddimer", "supported")]


def test_denying_a_finding_the_released_examination_reports_is_a_contradiction():
    claims = _claims(
        "pulm-102-pulmonary-embolism",
        "baseline",
        ["No calf tenderness, so a DVT is unlikely. Heart rate 112.", "Final diagnosis: pulmonary embolism."],
    )
    calf = [c for c in claims if c.turn == 1 and c.item == "calf"]
    assert [(c.present, c.status) for c in calf] == [(False, "contradicted")]


def test_weeks_pregnant_by_dates_is_a_claim_on_the_time_valued_fact():
    claims = _claims(
        "id-201-pyelonephritis",
        "baseline",
        ["Loin pain and fever; she would be around 6 weeks pregnant by dates if she were pregnant at all. "
         "Dysuria for 3 days.",
         "Final diagnosis: acute pyelonephritis."],
    )
    six = [c for c in claims if c.turn == 1 and c.value == 6.0]
    assert [c.item for c in six] in ([], ["lmp"])  # conditional: may be blocked, never given to another fact
    claims = _claims(
        "id-201-pyelonephritis",
        "baseline",
        ["She is 6 weeks pregnant by dates.", "Final diagnosis: acute pyelonephritis."],
    )
    six = [c for c in claims if c.turn == 1 and c.value == 6.0]
    assert [(c.item, c.hallucinated) for c in six] == [("lmp", True)]  # her LMP was two weeks ago


def test_rhesus_status_phrases_name_a_blood_group_fact():
    from medgym.judges.context import CaseKnowledge

    case = default_bank().get("gast-103-nsaid-duodenal-ulcer-bleed")
    template = case.facts[0]
    group = template.model_copy(update={"id": "grp", "name": "blood group", "aliases": ["ABO group"],
                                        "statement": "She is group A, RhD positive.", "value": None, "unit": None})
    variant = case.model_copy(update={"facts": [*case.facts, group]})
    know = CaseKnowledge.build(variant)
    assert [h.item_id for h in fact_mentions(know, "He is rhesus positive, so no anti-D.")] == ["grp"]


def test_reduced_for_absent_is_a_qualitative_contradiction():
    claims = _claims(
        "uro-219-testicular-torsion",
        "baseline",
        ["The left cremasteric reflex is reduced.", "Final diagnosis: left testicular torsion."],
    )
    crem = [c for c in claims if c.turn == 1 and c.item == "cremasteric"]
    assert crem and crem[0].key.endswith(":x")  # disagrees with "absent"
    gbs = _claims(
        "neur-102-guillain-barre",
        "baseline",
        ["Biceps reflexes are reduced.", "Final diagnosis: Guillain-Barré syndrome."],
    )
    refl = [c for c in gbs if c.turn == 1 and c.item == "reflexes"]
    assert refl and refl[0].key.endswith(":=")  # the statement itself says "reduced"


# ---- round 3 (after batch 4): serial measurements, negated lists, sign results, "normal" reports


def test_value_of_a_serial_measurement_goes_to_the_measurement_it_matches():
    claims = _claims(
        "neph-103-diabetic-kidney-disease",
        "D",
        ["Likely diabetic kidney disease.", "Still diabetic kidney disease.",
         "The ACR on the second sample is 16 mg/mmol, so the albuminuria persists.",
         "Final diagnosis: diabetic kidney disease."],
    )
    t3 = [(c.item, c.status) for c in claims if c.turn == 3 and c.kind == "numeric"]
    assert t3 == [("uacr_repeat", "supported")]  # the released repeat ratio, not a misquoted first one
    assert not [c for c in claims if c.turn == 3 and c.item == "uacr"]  # the plain name gave its number away
    early = _claims(
        "neph-103-diabetic-kidney-disease",
        "D",
        ["The ACR is 16 mg/mmol.", "Final diagnosis: diabetic kidney disease."],
    )
    t1 = [(c.item, c.hallucinated) for c in early if c.turn == 1 and c.kind == "numeric"]
    assert t1 == [("uacr", True)]  # (D) the repeat is not released yet: still a misquote of the first


def test_negation_distributes_over_a_comma_list_in_the_statement():
    claims = _claims(
        "hema-101-warfarin-clarithromycin",
        "baseline",
        ["He has ascites on examination.", "Final diagnosis: warfarin potentiation by clarithromycin."],
    )
    asc = [c for c in claims if c.turn == 1 and c.item == "no_stigmata"]
    assert [(c.status, c.key.endswith(":x")) for c in asc] == [("contradicted", True)]
    from medgym.judges.claims import _NEG_LIST_SCOPE

    assert _NEG_LIST_SCOPE.search("no consolidation, cavitation, nodules or effusion")
    assert not _NEG_LIST_SCOPE.search("There is no fever. Cough, sputum and pain are present.")


def test_sign_called_positive_where_examination_found_it_negative():
    claims = _claims(
        "gast-102-gallstone-pancreatitis",
        "baseline",
        ["Murphy sign is positive on my examination.", "Final diagnosis: gallstone pancreatitis."],
    )
    m = [c for c in claims if c.turn == 1 and c.item == "murphy"]
    assert m and m[0].status == "contradicted"
    from medgym.judges.claims import _ANTONYMS

    assert ("negative", "positive") in _ANTONYMS


def test_report_called_normal_when_it_describes_an_abnormality():
    from medgym.judges.claims import _called_normal_but_abnormal

    case = default_bank().get("card-101-stemi-inferior")
    ecg = next(f for f in case.facts if f.id == "ecg")
    assert _called_normal_but_abnormal(ecg, "a normal ECG")
    assert _called_normal_but_abnormal(ecg, "the EKG is unremarkable")
    assert not _called_normal_but_abnormal(ecg, "an abnormal ECG")
    fake = ecg.model_copy(update={"statement": "Sinus rhythm with inverted T waves in V1-V3; the QT interval is normal."})
    assert not _called_normal_but_abnormal(fake, "normal QT interval")  # the report calls that part normal
    assert _called_normal_but_abnormal(fake, "ECG within normal limits")


def test_temperature_reading_is_a_claim_on_the_cases_fever_statement():
    claims = _claims(
        "neph-103-diabetic-kidney-disease",
        "baseline",
        ["She is febrile at 38.4 °C (101.1 °F). Her temperature yesterday was 36.9.",
         "Final diagnosis: diabetic kidney disease."],
    )
    fid = {c.item for c in claims if c.turn == 1 and c.kind == "numeric"}
    assert len(fid) == 1 and "term:temperature" not in fid
    st = [(c.value, c.status) for c in claims if c.turn == 1 and c.kind == "numeric"]
    assert st == [(38.4, "contradicted"), (101.1, "contradicted"), (36.9, "supported")]


def test_please_with_any_verb_coordination_preventive_care_and_interval_repeats():
    qs = _questions(
        "card-101-stemi-inferior",
        "baseline",
        ["Inferior STEMI. Please bleep the cath lab team now. So please keep him on telemetry. "
         "Please note he is a smoker. Is he up to date with his flu jab? Is he up to date with bowel screening?",
         "Would the interventional cardiologist be able to take him straight away? Could we repeat the troponin "
         "in an hour? Has he had any further episodes of pain since the paramedics arrived?",
         "Final diagnosis: inferior STEMI."],
    )
    assert qs["Please bleep the cath lab team now."].relevant
    assert qs["So please keep him on telemetry."].relevant
    assert "Please note he is a smoker." not in qs  # a remark, not a request
    assert not qs["Is he up to date with his flu jab?"].relevant
    assert not qs["Is he up to date with bowel screening?"].relevant
    assert qs["Would the interventional cardiologist be able to take him straight away?"].relevant
    rep = qs["Could we repeat the troponin in an hour?"]
    assert rep.relevant and not rep.redundant  # scheduled: asks for a value that does not exist yet
    assert not qs["Has he had any further episodes of pain since the paramedics arrived?"].redundant


def test_liver_function_tests_are_a_new_request_unless_a_case_fact_names_them():
    qs = _questions(
        "card-101-stemi-inferior",
        "baseline",
        ["Inferior STEMI. Please send LFTs and a troponin.", "Final diagnosis: inferior STEMI."],
    )
    assert not qs["Please send LFTs and a troponin."].redundant  # LFTs name no fact of this case
    assert QUESTION_RX.search("I'd still like the echo I asked for.")


def test_items_of_what_the_patient_needs_are_treatment_not_claims():
    from medgym.judges.claims import _blocked

    text = "She requires urgent transfer for IV antibiotics, heparin and steroids, and the CRP is 210."
    assert _blocked(text, text.index("heparin"), text.index("heparin") + 7, False)
    assert _blocked(text, text.index("steroids"), text.index("steroids") + 8, False)
    assert _blocked(text, text.index("CRP"), text.index("CRP") + 3, True) is None  # a new clause asserts a result
    t2 = "With a lactate of 4 he needs close monitoring, and the troponin of 900 confirms the infarct."
    assert _blocked(t2, t2.index("troponin"), t2.index("troponin") + 8, True) is None


def test_outside_values_are_attributed_and_thresholds_after_a_number_are_not_values():
    claims = _claims(
        "card-101-stemi-inferior",
        "baseline",
        ["Inferior STEMI. The external troponin of 12 ng/L does not fit; the outside hospital's 3 mm reading too. "
         "His BP is under the 180/110 thrombolysis threshold.",
         "Final diagnosis: inferior STEMI."],
    )
    vals = {c.value for c in claims if c.turn == 1 and c.kind == "numeric"}
    assert not vals & {12.0, 3.0, 180.0, 110.0}
    from medgym.judges.claims import _THRESHOLD_AFTER

    assert _THRESHOLD_AFTER.match(" g/dL transfusion trigger") and not _THRESHOLD_AFTER.match(" mmHg on repeat")


def test_related_associated_induced_are_the_same_causal_link_in_diagnosis_names():
    from medgym.judges.context import _dx_variants
    from medgym.judges.diagnoses import reply_diagnoses

    assert "steroid-related hyperglycaemia" in _dx_variants("steroid-induced hyperglycaemia")
    know = knowledge_for(default_bank().get("neph-102-drug-induced-hyperkalaemia"))
    txt = "The most likely diagnosis is drug-related hyperkalaemia."
    wd = reply_diagnoses(txt, segment_reply(txt), know, 1, False)
    assert wd.role == "gold"
