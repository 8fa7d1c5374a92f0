"""Claim extraction and support checking (Z_t and H_t of Appendix 9).

A *numeric claim* is a number asserted about the patient: a number attached to a
fact or analyte name ("ALT 148", "Hb of 87 g/L"), or carrying a unit or a time unit
("3 weeks", "38.5 °C"). A *factual claim* is a non-numeric assertion about the
patient: one per sentence per fact or clinical term it asserts, negated findings
included ("no fever"). Neither comes from questions, recommendations, conditional
or hedged clauses, general-knowledge statements, statements that something is
missing, or reference ranges.

A claim is checked against R_t, the facts released up to its turn, and the context
the agent read:

* supported: the released fact states it (unit conversions, "over 600", fold of the
  upper limit and derived values such as the R ratio included);
* restated_contradiction: it repeats the injected contradictory statement (given to
  the agent, so not a hallucination; it still counts in FCR as final evidence);
* contradicted: it conflicts with a released fact (wrong polarity, misquoted number);
* unsupported: nothing released states it (an unreleased fact, an invented finding,
  a made-up value even if it happens to equal a withheld value or a reference limit).

This module holds :class:`ClaimExtractor` and the patterns only it uses. The rules it
applies live in small modules named for what they do: :mod:`medgym.judges.claim_blocking`
(why a mention is not an assertion: orders, doses, plans, deadlines, hedges),
:mod:`medgym.judges.claim_numbers` (which name a number belongs to, attribute numbers,
counts, durations) and :mod:`medgym.judges.claim_support` (negation, antonyms,
normal-vs-abnormal, verbatim copies). Names that other modules and the tests import from
here are re-exported in ``__all__``.
"""

from __future__ import annotations

import functools
import operator
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from medgym.envs.compiler import has_final_diagnosis
from medgym.judges.claim_blocking import (
    _CAUSE_OF,
    _DEADLINE_BEFORE,
    _DOSE_ORDERED,
    _DOSE_UNITS,
    _INLINE_PLAN,
    _ON_DRUG_BEFORE,
    _OUTSIDE_SOURCE,
    _PRESCRIBING,
    _REPORTED_AFTER,
    _SOURCE_POSSESSIVE,
    _TAKING_BEFORE,
    _THRESHOLD_AFTER,
    _blocked,
    _dose_course,
    _hedged_reading,
    _ordered_here,
    _plan_quantity,
    _request_start,
    _scheduled,
    _sub_sentence,
    _taken_by_patient,
)
from medgym.judges.claim_numbers import (
    _AGE_AFTER,
    _AGE_BEFORE,
    _DENIED_VALUE,
    _DURATION_AFTER,
    _FEVER_NAME,
    _GESTATION_AFTER,
    _NUMBER_LINK,
    _PERIOD_DAYS,
    _RATE_AFTER,
    _TEMPERATURE_TERMS,
    _TIME_VALUED_FACT,
    _UNIT_DAYS,
    _VITAL_UNITS,
    _WORD_DURATION,
    _attach,
    _bare_count,
    _celsius,
    _directly_attached,
    _is_attribute_number,
    _is_label_number,
    _name_head,
    _word_durations,
)
from medgym.judges.claim_relatives import KinIllness, names_kin_illness, unnamed_kin_illnesses
from medgym.judges.claim_support import (
    _ANTONYMS,
    _NEG_LIST_SCOPE,
    _RESULT_OF,
    _STOP,
    ORGANISM,
    ORGANISM_RX,
    SMEAR_SHORTHAND,
    _affirmed_in_statement,
    _called_abnormal_but_normal,
    _called_normal_but_abnormal,
    _denied_before,
    _fact_negated_keywords,
    _local_window,
    _near_in_statement,
    _negated_in_statement,
    _organisms_where_none_grew,
    _quoted_source,
    _squash,
    _stem,
    _template_keywords,
    _window,
    f_states,
    reported_abnormal,
)
from medgym.judges.context import (
    PRESSURE_PAIR,
    CaseKnowledge,
    TurnContext,
    derived_values,
    fact_mentions,
    fold_of_uln,
    general_lexicon,
    lex_find,
    lexicon_data,
    numbers_in,
    treatment_terms,
    unit_compatible,
    value_in_fact_unit,
)
from medgym.judges.diagnoses import _HISTORY_BEFORE, _POSSESSIVE_HISTORY, _REPORTED_BEFORE, _contained_dx
from medgym.judges.results import Claim, Span
from medgym.judges.textrules import (
    _INLINE_HEADING,
    AFEBRILE_RX,
    CONFLICT_EXTRA_RX,
    CONFLICT_HEADING_RX,
    CONFLICT_RX,
    DERIVED_CONCEPTS,
    ELEVATED_RX,
    FINDING_RX,
    FOLD_AFTER_RX,
    LOW_RX,
    NORMAL_RX,
    NUMBER_WORD_RX,
    NUMBER_WORDS,
    ON_TRACK,
    REASONING_RX,
    REFERENCE_CTX_RX,
    RELATIVE_RX,
    RELATIVES,
    RESULT_RX,
    RETRACTION_RX,
    SUPPORT_CLAUSE_RX,
    THRESHOLD_ABOVE_RX,
    THRESHOLD_BELOW_RX,
    TIME_UNIT_AFTER_RX,
    Segment,
    clause_bounds,
    mention_negated,
)
from medgym.knowledge_base.case_schema import OBJECTIVE_CATEGORIES, ContradictionTemplate, Fact, FactCategory
from medgym.text.numbers import (
    TIME_UNITS,
    Quantity,
    convert,
    find_quantities,
    looks_like_non_claim,
    normalize_unit,
    same_value,
)
from medgym.text.sentences import Sentence, split_sentences

# Names other modules and the tests import from here (moved to the claim_* modules).
__all__ = [
    "ClaimExtractor",
    "_ANTONYMS",
    "_CAUSE_OF",
    "_DEADLINE_BEFORE",
    "_INLINE_PLAN",
    "_NEG_LIST_SCOPE",
    "_ON_DRUG_BEFORE",
    "_PRESCRIBING",
    "_RATE_AFTER",
    "_REPORTED_AFTER",
    "_SOURCE_POSSESSIVE",
    "_THRESHOLD_AFTER",
    "_attach",
    "_bare_count",
    "_blocked",
    "_called_normal_but_abnormal",
    "_directly_attached",
    "_fact_negated_keywords",
    "_is_attribute_number",
    "_ordered_here",
    "_dose_course",
    "_scheduled",
    "_squash",
    "_sub_sentence",
    "_template_keywords",
    "_word_durations",
]

_TEST_CATEGORIES = {FactCategory.lab, FactCategory.imaging}
# Narrower than diagnoses._RELATIVE_CONDITION_BEFORE on purpose: "grandmother w/ pulm TB" is the patient's TB
# contact (a case fact the labels claim), though not a diagnosis the agent proposes
_FAMILY_OF = re.compile(
    r"\b(?:family\s+history\s+of|(?:mother|father|brother|sister|parents?|siblings?|relatives?)\s+(?:has|have|had|with))"
    r"\s+(?:[\w\-]+\s+){0,3}$",
    re.I,
)
# round 61: a reading named as an earlier one ("booking BP normal", "baseline creatinine normal") says nothing of
# the current value, so its "normal" is not compared with the released value's reference range
_EARLIER_READING = re.compile(r"\b(?:booking|baseline|pre-?pregnancy|pre-?op(?:erative)?|previous|prior)\s+$", re.I)
# a number given as a bound: "large (>2 cm)", "over 2 cm", "at least 50%"
_BOUND_BEFORE = re.compile(
    r"(>=?|≥|<=?|≤|\b(?:over|more\s+than|greater\s+than|above|at\s+least|under|less\s+than|below|at\s+most))\s*$", re.I
)
# (round 133: and a tumour's kind, "EGFR-mutant adenocarcinoma is much more common in never-smokers")
_TERM_AS_ADJECTIVE = re.compile(
    r"^\s*(?:range|threshold|criteria|cut-?off|levels?|target|adenocarcinoma|carcinoma|cancer|NSCLC|tumou?rs?)\b", re.I
)
# round 121: a mention joined to "-related" names a kind of disease ("smoking-related COPD"), not the exposure
_RELATED_AFTER = re.compile(r"^-(?:related|associated)\b", re.I)


# "T 38.1", "Tmax 38.9", "T: 37.9" in a note: the temperature (capital T alone, so "T2", "T-score" and
# TNM stages never match; the value must also read as a body temperature). The T opens the line or
# follows punctuation or a vitals word: "Troponin T 96" is the troponin
_T_SHORTHAND = re.compile(
    r"(?:^|[^\w\s]\s*|\b(?:[Vv]itals?|[Oo]bs|with|and|now|today|still)\s+)T(?:max)?\s*[:=]?\s*$"
)


_DURATION_WORDS = r"years?|yrs?|months?|mos?|weeks?|wks?|days?|hours?|hrs?|minutes?|mins?"
_DURATION_WORD_AFTER = re.compile(rf"^\s*-?\s*(?:{_DURATION_WORDS})\b", re.I)
# the same words anywhere, and the one-letter units a note writes ("3 y", "2 d")
_TIME_WORD = re.compile(rf"\b({_DURATION_WORDS}|min|h|d|y)\b", re.I)


def _time_word(text: str) -> str | None:
    """The first time unit word in ``text``, by its first letter and the month/minute split ("h", "d", "w",
    "mo", "mi", "y"): "eighteen months ago" -> "mo"."""
    m = _TIME_WORD.search(text)
    if m is None:
        return None
    w = m.group(1).lower()
    return w[:2] if w[0] == "m" else w[0]


def _timed(q: Quantity, after: str) -> Quantity:
    """``q`` read as a duration when a time word the number parser leaves unread follows it ("~6 wks by dates"),
    so that it clashes as one with a number written with another unit (round 134: the 6 of "4-6 units")."""
    return replace(q, unit="d") if q.unit is None and _DURATION_WORD_AFTER.match(after) else q


# round 134: the word after a range ("4-6 units at weekends", "4-6 Hz"), which find_quantities leaves unitless, and
# the words after a range that are no unit ("4-6 times", "2-3 per day")
_RANGE_UNIT_WORD = re.compile(r"\s*([A-Za-z]{2,})\b")
_NOT_A_UNIT = frozenset({"and", "or", "to", "of", "per", "an", "the", "in", "on", "at", "times"})


def _range_of_other_unit(c: Quantity, source: str) -> bool:
    """Whether ``c`` is a range whose unit, written after it, is not a time ("4-6 units at weekends" does not state
    "4 hours of sleep"): a range's first number carries the unit of its last."""
    if c.upper is None or c.unit is not None:
        return False
    m = _RANGE_UNIT_WORD.match(source, c.end)
    if m is None:
        return False
    word = m.group(1)
    return normalize_unit(word) not in TIME_UNITS and word not in TIME_UNITS and word.lower() not in _NOT_A_UNIT


# round 134: "active sediment w/ RBC casts": a mention that names casts names the sediment's finding, not its test
_CASTS = re.compile(r"\bcasts\b", re.I)
# round 134: "Sensation intact throughout" where the examination finds no sensory level but reduced vibration sense
# at the toes: an examination called intact everywhere is called normal
_INTACT_THROUGHOUT = re.compile(r"\bintact\s+(?:throughout|everywhere|all\s+over|to\s+all\s+modalities)\b", re.I)


def _is_duration(q: Quantity, after: str) -> bool:
    """A length of time: "5 d", "18 months ago" (the unit word follows) or "eighteen months" (a duration
    written in words carries its unit word in its own text)."""
    return q.unit in TIME_UNITS or bool(_DURATION_WORD_AFTER.match(after) or _WORD_DURATION.fullmatch(q.text))


# "46F", "78 M", "27F w/ ...": a note's age and sex (never "46 °F", which find_quantities reads as a unit)
_AGE_SEX = re.compile(r"\d{1,3}\s?[FM](?![\w°])")
# "cut by about a fifth" states 20 %
_FRACTION_PERCENT = {"half": 50.0, "third": 33.3, "quarter": 25.0, "fifth": 20.0, "tenth": 10.0}
_FRACTION_RX = re.compile(r"\b(?:a|one)\s+(half|third|quarter|fifth|tenth)\b(?!\s+(?:of\s+an\s+hour|rib))|\bhalf\b", re.I)


def _fraction_states_percent(context: str, q: Quantity) -> bool:
    """Whether the context gives ``q`` (a percentage) as a fraction in words ("a fifth" for "~20%")."""
    if normalize_unit(q.unit) != "%":
        return False
    for m in _FRACTION_RX.finditer(context):
        pct = _FRACTION_PERCENT[(m.group(1) or "half").lower()]
        if abs(pct - q.value) <= 1.0:
            return True
    return False


# round 74: the words between a lexicon analyte and its value ("the white count is 9.8", "white count normal at
# 10.8", "white count (10.8)")
_ANALYTE_VALUE_LINK = re.compile(
    r"\s*(?:is|was|were|are|of|at|:|=|\()?\s*(?:now\s+|still\s+|only\s+)?(?:(?:normal|raised|high|low|elevated)\s+at\s+)?"
    r"(?:a|an|the)?\s*(?:~|≈|about|around|approximately|roughly)?\s*",
    re.I,
)
# round 79: a wall called thick ("a thickened gallbladder wall", "GB wall thickening", "thick-walled GB")
_THICK_WALL = re.compile(r"\bthick-walled\b|\bthickened\s+(?:\w+\s+)?wall\b|\bwall\s+thicken\w*", re.I)
# round 133: the words two statements must share beyond these to be about the same occasion ("at her GP")
_FUNCTION_WORD_SET = frozenset({
    "the", "and", "her", "his", "was", "were", "is", "are", "of", "with", "at", "on", "in", "to", "for", "by", "a", "an",
    "no", "she", "he", "has", "had", "have", "it", "this", "that",
})


def _content_words(text: str) -> set[str]:
    """The lower-cased words of ``text`` (two letters or more, so "GP" counts) other than function words."""
    return {w.lower() for w in re.findall(r"[A-Za-z]{2,}", text)} - _FUNCTION_WORD_SET


# round 133: body sites a plain film or scan is named after ("hand X-rays", "wrist films")
_BODY_SITES = ("hand", "wrist", "knee", "hip", "shoulder", "ankle", "foot", "feet", "elbow", "spine", "pelvi", "skull")
_SITE_BEFORE_SCAN = re.compile(rf"\b({'|'.join(_BODY_SITES)})(?:s|es)?\s+(?:plain\s+)?$", re.I)
# round 133: "Upper-lobe predominant emphysema on HRCT" where the HRCT shows it "predominantly affecting both lower
# lobes": the distribution the claim gives the scan's finding is the opposite of the report's
_LOBE_LEVEL = re.compile(r"\b(upper|lower)[\s-]+(?:zones?|lobes?)\b", re.I)


@functools.lru_cache(maxsize=32)
def _context_sentences(context: str) -> list[Sentence]:
    """The sentences of a turn's released context, split once per context: every test claim of the turn that
    carries a result word asks again (``ClaimExtractor._context_reports_test``)."""
    return split_sentences(context)


# the result words a quoted test carries ("a positive FIT", "raised calprotectin")
_RESULT_WORD = re.compile(r"\b(?:positive|negative|abnormal|normal|raised|elevated|low|high)\b|\+ve\b|-ve\b", re.I)
_QUOTED = re.compile(r"\"[^\"]{3,}\"|“[^”]{3,}”")


# "Next: PCI, DAPT, heparin", "Plan: ..." at the start of a line: what follows is management
_PLAN_LABEL = re.compile(r"^\W*(?:next(?:\s+steps)?|plan|p|tx|rx|management)\s*:", re.I)
_TREATMENT_AFTER = re.compile(
    r"^[\s-]*(?:transfusions?|replacement|supplement\w*|infusion|gluconate|resonium|binders?|repletion)\b", re.I
)
# a negation, exclusion or normal-result word: what follows it in the clause is not asserted as present
_DENIAL_BEFORE = re.compile(
    r"\b(?:no|not|nor|without|never|rul\w*\s+out|exclud\w*|negative|neg|normal|unremarkable|against|absent|free\s+of|"
    r"clear|sterile|nil)\b|n't\b",
    re.I,
)
_SPECIMEN_WORD = re.compile(r"CSF|urine|serum|plasma|blood|stool|sputum", re.I)
# an analyte naming what something is made of or acts on ("calcium stones", "calcium oxalate", "a calcium
# channel blocker", "urate crystals"): a kind of stone, salt, drug or crystal, not the blood level
_COMPOUND_AFTER = re.compile(
    r"^[\s-]*(?:oxalate|phosphate|pyrophosphate|stones?|calculi|channel|carbonate|citrate|crystals?|score)\b", re.I
)
_OTHER_TEST_AFTER = re.compile(
    r"^\s+(?:[\w-]+\s+){0,1}?(?:anti-?\w+|Glu\w+|NMDA\w*|IgG|IgM|IgA|PCR|oligoclonal|cytology|Ab\b|antibod\w*)", re.I
)
# disease words of the general vocabulary: named without a history cue they are diagnoses under discussion
_DISEASE_TERM = re.compile(
    r"cancer|tumou?r|malignan|hypertension|stroke|kidney\s+disease|\bCKD\b|diabet|cirrhosis|seizure|epilepsy|"
    r"thrombosis|\bDVT\b|lupus|deficiency|failure|infarction|embolism|asthma|COPD|hepatitis|anaemia|anemia",
    re.I,
)
# signs read off a released vital sign (round 56): sign -> (fact name, comparison, threshold, the threshold's unit
# when the fact may give another one); the sign is shown when the released value compares so ("tachycardia": a
# heart rate above 100)
_DERIVED_SIGNS: dict[str, tuple[str, str, float, str | None]] = {
    "tachycardia": (r"(?:heart rate|pulse)\b", ">", 100.0, None),
    "hypotension": (r"(?:systolic )?blood pressure\b", "<", 100.0, None),
    "tachypnoea": (r"respiratory rate\b", ">", 20.0, None),
    "fever": (r"(?:body )?temperature\b", ">=", 38.0, "°C"),
}
_COMPARE = {">": operator.gt, "<": operator.lt, ">=": operator.ge}
# operations of the general vocabulary (round 56): "ask the surgeons to see her about a cholecystectomy" is the
# plan; only a history ("she had a cholecystectomy", "previous cholecystectomy") asserts one about the patient
_PROCEDURE_TERM = re.compile(r"ectomy\b", re.I)
# a finding named as the hedged explanation of another (round 56): "the absent Doppler flow is likely reactive
# oedema compressing the cord", "the rise is probably from dehydration": an opinion, not a finding reported
_EXPLAINED_AS_BEFORE = re.compile(
    r"\b(?:is|are|was|were)\s+(?:most\s+|more\s+)?(?:probably|likely|possibly|presumably)\s+"
    r"(?:(?:due\s+to|from|caused\s+by|secondary\s+to)\s+)?(?:an?\s+|the\s+)?(?:[\w-]+\s+){0,2}$",
    re.I,
)
# round 117: the words that name a finding as the explanation of the findings before it ("more in keeping with a
# large-vessel occlusion", "consistent with an obstruction"); round 120: or as the problem a cause is weighed for
# ("an unlikely cause of the albuminuria", "no longer explains the albuminuria")
_EXPLAINING_BEFORE = re.compile(
    r"\b(?:(?:in\s+keeping|consistent|compatible)\s+with\s+(?:an?\s+|the\s+)?(?:[\w-]+\s+)?|"
    r"(?:explain\w*|explanation\s+(?:for|of)|accounts?\s+for|causes?\s+(?:of\s+)?|driv\w+)\s+(?:the|her|his|this)\s+)$",
    re.I,
)
# a finding in a general statement of what it can do (round 56): "reactive edema can compromise flow in severe
# epididymo-orchitis", "orchitis with oedema can compromise flow": textbook reasoning, not this patient's finding
_GENERIC_CAN = re.compile(
    r"^[^.;:]{0,40}?\bcan\s+(?:\w+\s+)?(?:compromise|cause|mimic|hide|mask|reduce|produce|obscure|impair|present)\b",
    re.I,
)
# a general term's word inside another expression: "weight" in "can't weight-bear" / "low-molecular-weight
# heparin", "oedema" of an organ ("pulm edema", "interstitial oedema", "edema around small mets") rather than of
# the legs (the term's sense); "\x00" marks the mention between the text before and after it
# round 104 adds "can't bear weight", "bearing weight" to "weight-bearing"
_NOT_THE_TERM = re.compile(r"molecular-?\x00|\x00-?\s?bear(?:ing)?\b|\bbear(?:s|ing)?\s+\x00", re.I)
_OEDEMA = re.compile(r"o?edema", re.I)
# "24-mo WCC", "at his 2-year WCC": the paediatric well-child check, not a white cell count
_WELL_CHILD = re.compile(
    r"(?:\b\d+[\s-]*(?:mo|mos|months?|m|y|yrs?|years?)(?:[\s-]old)?|\b(?:at|for)(?:\s+(?:his|her|the|a))?)\s+\x00", re.I
)
_ORGAN_OEDEMA = re.compile(
    r"(?:pulmonary|pulm|interstitial|alveolar|cerebral|vasogenic|macular|laryngeal|airway|bowel\s+wall|"
    r"peri-?\w+|disc|optic\s+disc|corneal|brain|lung)\s+\x00|\x00\s+(?:around|of\s+the\s+(?:brain|lungs?|disc|optic))\b",
    re.I,
)


def _term_in_another_sense(text: str, s: int, e: int) -> bool:
    """Whether the general term at text[s:e] is a word of another expression ("weight-bear", "molecular
    weight") or, for oedema, an organ's ("pulm edema") rather than the legs'. Both patterns anchor on the
    "\x00" that marks the mention, so one window around it serves both."""
    around = text[max(0, s - 25) : s] + "\x00" + text[e : e + 25]
    return bool(
        _NOT_THE_TERM.search(around) or (_OEDEMA.fullmatch(text[s:e]) and _ORGAN_OEDEMA.search(around))
        or (text[s:e] == "WCC" and _WELL_CHILD.search(around))
    )


# a body fluid named before an analyte: "synovial WBC", "CSF protein", "pleural fluid LDH"
_SPECIMEN_BEFORE = re.compile(r"\b(synovial|CSF|pleural|ascitic|peritoneal|joint)(?:\s+fluid)?\s+$", re.I)
_DRUG_LEVEL_AFTER = re.compile(r"\s*(?:serum\s+|plasma\s+|trough\s+|blood\s+)?(?:levels?|concentrations?)\b", re.I)
# words that place a disease in the patient's past: a case fact named so ("previous venous thromboembolism")
# is about the history, and a mention or clause that uses one ("previous DVT", "T2DM dx 2 yr ago") asserts it
_PAST_WORDS = r"previous|prior|past|history|pre-?existing|known|hx|h/o|diagnosed|dx|ago"
_PAST_FACT_NAME = re.compile(rf"^(?:{_PAST_WORDS})\b", re.I)
_PAST_CUE = re.compile(rf"\b(?:{_PAST_WORDS})\b", re.I)
_HAS_DISEASE_BEFORE = re.compile(
    r"\b(?:(?:he|she|they|patient)\s+(?:has|had|have)|(?:is|was)\s+(?:a\s+)?known|PMH|PMHx|background|hx|h/o)\b"
    r"[^.;:]{0,20}$",
    re.I,
)


@dataclass
class ExtractedTurn:
    claims: list[Claim]
    retraction_segments: list[tuple[Segment, set[str]]]


_ORGAN_STATE = re.compile(
    r"\b(spleen|liver|lymph\s+nodes|glands|kidneys?|bladder|thyroid|abdomen|calf|testis|prostate|knee|ankles?|legs?|"
    r"optic\s+discs?|discs?|radial\s+pulse|femoral\s+pulse)\s+(?:is|are|was|were|feels?|felt|looks?|looked|seems?|appears?)\s+"
    r"(?:\w+\s+)?(enlarged|palpable|swollen|tender|distended|dilated|weaker|weak)\b",
    re.I,
)
_ORGAN_ALIAS = re.compile(r"([A-Za-z]{4,})\s+(gland|examination|exam|swelling)", re.I)
_EXAM_ADJECTIVE = re.compile(
    r"\b(?:tender|non-?tender|enlarged|swollen|palpable|nodular|smooth|firm|hard|craggy|bulky|inflamed)\b", re.I
)
# "thyroid function", "thyroid scan", "thyroid eye disease": a test or another organ, not the examination
_ORGAN_TEST_AFTER = re.compile(
    r"[\s-]*(?:function|scan|scintigraphy|antibod|hormone|stimulating|eye|uptake|ultrasound|biopsy|"
    r"levels?|tests?|disease|storm|cancer|nodule)", re.I
)


# An alias of a test fact that is itself a finding ("peaked T waves", "hydronephrosis",
# "hyperkalaemia", "target sign"): naming it states the result, unlike "ECG" or "ultrasound".
_SELF_RESULT = re.compile(
    r"(?:aemia|emia|uria|osis|megaly|ectasis)s?\b|\b(?:waves?|signs?|widening|changes|pattern|appearance)\b",
    re.I,
)
_DIRECT_NEGATION = re.compile(r"\b(?:no|not|without|denies|absence\s+of)\s+(?:[a-z]+\s+)?$", re.I)


# a finding asserted as a bedside sign or a film/microscopy result, named by words the case and the lexicon do
# not know (imaging and biopsy results belong to the case's report facts)
_DEGREE = (
    r"(?:subtle|small|mild|marked|new|few|several|obvious|definite|clear|bilateral|multiple|brief|transient|"
    r"intermittent|occasional|episodic|recurrent)\s+"
)
_NP = r"(?P<np>[a-z][a-z-]+(?:\s+[a-z][a-z-]+){0,2})"
# an imaging or tissue study the case may not have at all ("CT abd shows peripancreatic stranding", "an
# abdominal X-ray shows radio-opaque flecks"): when the case has it, its own fact claims the sentence
_MODALITY = r"CT|HRCT|MRI|X-?ray|CXR|AXR|radiograph|ultrasound|echocardiogram|biopsy|histology"
_STUDY = (
    r"(?:film|smear|examination|exam|microscopy|"
    r"(?P<study>" + _MODALITY + r")"
    r"(?:\s+(?:abd(?:omen)?|chest|head|brain|pelvis|KUB|thorax|spine|neck))?)"
)
_REPORTED_FINDING = re.compile(
    r"\b" + _STUDY + r"\s+"
    r"(?:shows?|showed|reveals?|revealed|demonstrates?|demonstrated)\s+(?:an?\s+|some\s+)?(?:" + _DEGREE + r")*" + _NP
    + r"|\b(?:(?:she|he)\s+(?:also\s+)?(?:has|had)|there\s+(?:is|are|was|were))\s+(?:also\s+)?(?:an?\s+|some\s+)?"
    r"(?:" + _DEGREE + r")+" + _NP.replace("np", "np2")
    # an addition the agent makes to the history or examination: "she also has scrotal erythema", "he has
    # also had brief blurring of vision"
    + r"|\b(?:she|he)\s+(?:(?:also|now|additionally)\s+(?:has|had)\s+(?:also\s+)?|(?:has|had)\s+also\s+)"
    r"(?:had\s+|developed\s+|noticed\s+)?(?:an?\s+|some\s+)?(?:" + _DEGREE + r")*" + _NP.replace("np", "np3"),
    re.I,
)
# the same finding placed on a study: "the emphysema on his HRCT", "paint flecks on the abdominal X-ray"
_FINDING_ON_STUDY = re.compile(
    r"\b(?P<np>[a-z][a-z-]+(?:\s+[a-z][a-z-]+){0,2})\s+(?:on|in)\s+(?:the\s+|his\s+|her\s+|a\s+|today's\s+)?"
    r"(?:abdominal\s+|plain\s+|chest\s+|repeat\s+)?(?P<study>" + _MODALITY + r")\b",
    re.I,
)
# a finding placed on an imaging study by "on": whatever its name, it states the study's result ("the
# emphysema on his HRCT"); "based on the CT" and "repeat on CT" use or order the study instead
_FOUND_ON_BEFORE = re.compile(
    r"\b(?!(?:based|depending|depends|relying|rely|focus|decide|act|comment|wait|waiting|repeat|later|"
    r"follow-up|up|done|performed|requested|booked|planned|arranged|ordered|pending)\b)[a-z][a-z-]{3,}\s+"
    r"(?:seen\s+|visible\s+|shown\s+)?on\s+(?:the\s+|her\s+|his\s+|today's\s+)?(?:\w+\s+)?$",
    re.I,
)
# where the item a finding belongs to begins, in the words before a scan's name ("With the normal temperature and
# no consolidation on the X-ray": only "no consolidation" is the X-ray's)
_ITEM_START = re.compile(r"[,;:(]|\b(?:and|with|but|plus)\b", re.I)


def _found_on_window(clause: str, mention: str) -> str:
    """The words a scan's result is read from (:func:`_local_window`), reaching back, round 137, over a finding
    named before the scan ("Reduced flow to the left testis on Doppler") to where the finding's item begins."""
    at = clause.find(mention)
    if at <= 0 or not _FOUND_ON_BEFORE.search(clause[:at]):
        return _local_window(clause, mention)
    head = clause[:at]
    cut = max((m.end() for m in _ITEM_START.finditer(head)), default=0)
    return head[cut:] + _local_window(clause[at:], mention)


# the names a case fact may give the same kind of study
_STUDY_KIN = {"hrct": ("HRCT", "CT"), "cxr": ("CXR", "X-?ray", "radiograph"), "axr": ("AXR", "X-?ray", "radiograph"),
              "x-ray": ("X-?ray", "CXR", "AXR", "radiograph"), "xray": ("X-?ray", "CXR", "AXR", "radiograph"),
              "radiograph": ("radiograph", "X-?ray", "CXR", "AXR"), "ultrasound": ("ultrasound", "USS?", r"sonograph\w*"),
              "echocardiogram": ("echocardiogram", "echo"), "biopsy": ("biopsy", "histology"),
              "histology": ("histology", "biopsy")}
_NEGATING_WORD = re.compile(r"\b(?:no|not|without|nor|never|normal|clear|negative)\b", re.I)
_NP_STOP = {"over", "on", "in", "at", "of", "with", "and", "or", "the", "both", "her", "his", "which", "that",
            "from", "to", "for", "is", "are", "was", "were", "but", "too", "also", "as", "now", "today", "here",
            "there", "again", "bilaterally", "around", "near", "under", "below", "above", "behind", "across",
            "along", "within", "without", "after", "before", "since", "during", "by", "into", "onto", "this", "these",
            "those", "last", "yesterday", "overnight", "recently"}
_NP_REJECT = {"risk", "chance", "possibility", "change", "improvement", "amount", "number", "dose", "increase",
              "decrease", "rise", "fall", "delay", "doubt", "concern", "need", "reason", "difference", "normal",
              "nothing", "abnormality", "abnormalities"}
_NP_VERB = {"been", "admitted", "said", "told", "taken", "used", "stopped", "started", "given", "received", "to",
            "gone", "got", "become", "seen", "done", "tried", "felt", "found"}
_REPORTED_RULE = "reported finding"
# Round 83: a culture result the reply reports for a culture the case does not have ("Urine cx growing E. coli",
# "Her stool culture has grown Campylobacter", "E. coli on urine cx"): a reported finding, named by its specimen.
# A culture the case has is its own fact's claim (and an organism before "on <that culture>" is its result).
_CULTURE_SPECIMEN = r"urine|urinary|MSU|stool|faecal|fecal|blood|sputum|wound|throat|CSF|synovial|joint|swab|vaginal"
_CULTURE_RESULT = re.compile(
    r"\b(?:(?P<spec>" + _CULTURE_SPECIMEN + r")\s+)?(?:cultures?|cx)(?:\s+(?:(?:has|have|is|are|now|also|been)\s+)*"
    r"(?:grown|growing|grew|grows|positive\s+for|\+ve\s+for|yielded|isolated)\s+(?:an?\s+)?|\s*:\s*)(?:" + ORGANISM + r")"
    r"|(?:" + ORGANISM + r")\s+(?:on|in|from)\s+(?:the\s+|her\s+|his\s+)?(?:(?P<spec2>" + _CULTURE_SPECIMEN
    + r")\s+)?(?:cultures?|cx)\b",
    re.I,
)
# a unit per day ("mmol/24 h", "mg/day") and an amount written without it ("9.2 mmol")
_PER_DAY_UNIT = re.compile(r"/\s*(?:24\s*-?\s*h\w*|day|d)\b", re.I)
_BARE_AMOUNT = re.compile(r"\d\s*(?:mmol|µmol|umol|mg|g)\s*$", re.I)
# Round 94: radiological findings an agent may report on a released scan, and what ties a finding named before
# the scan to it ("fracture on the chest X-ray"); a hedge or a plan in the clause reports nothing
_IMAGING_FINDING = re.compile(
    r"\b(?:fractur\w*|cavitat\w*|calcificat\w*|abscess\w*|hydronephros\w*|free\s+(?:fluid|air)|pneumoperitoneum|"
    r"cardiomegaly|bronchiectasis|pneumothora\w*|gallstones?|calculi|calculus|teratoma|metastas[ie]s|"
    r"(?:lymph)?adenopathy|"
    # round 110: an EEG's findings ("photoparoxysmal response on EEG", "EEG w/ R hemispheric slowing")
    r"photoparoxysmal|epileptiform|(?:(?:focal|temporal|frontal|occipital|hemispheric|diffuse|generali[sz]ed)\s+)?slowing)\b",
    re.I,
)
# round 136: a change of a measure, not its value ("lost weight" beside the BMI fact's "weight")
_MEASURE_CHANGE = frozenset({"term:weight loss"})
_CHANGE_AS_GOAL = re.compile(
    r"\b(?:goal|target|aim(?:ing)?|advi[cs]e[ds]?|programme|program|modest|would|will|should|recommend\w*|encourage\w*)\b",
    re.I,
)
# round 136: what a scan reported as normal cannot show ("MRI brain shows subtle left mesial temporal T2
# hyperintensity" where "MRI brain is normal"): lesion words, read only against a report that names no finding
_LESION_ON_NORMAL = re.compile(
    _IMAGING_FINDING.pattern + r"|\b(?:(?:T[12]|FLAIR)\s+(?:signal|hyper\w*|hypo\w*)|hyperintens\w*|hypointens\w*|"
    r"signal\s+(?:change|abnormalit\w*)|enhanc(?:ement|ing)|infarcts?|ha?emorrhag\w*|lesions?|mass(?:es)?|"
    r"oedema|edema|consolidation|effusions?|opacit\w*|nodules?)\b",
    re.I,
)
# what the agent infers from a scan ("opacity ... suggesting a pulmonary infarct") is no finding on it
_INFERENCE_AFTER = re.compile(r"\b(?:suggest\w*|in\s+keeping|consistent|c/w|indicat\w*|fits?|favou?r\w*|implies|"
                              r"due\s+to|from|i\.e\.|means?|explain\w*|confirm\w*|makes?)\b", re.I)
_TIED_BEFORE = re.compile(r"\s*(?:[\w-]+\s+){0,2}(?:on|in|at|from|seen\s+on)\s+(?:the\s+|her\s+|his\s+|an?\s+|this\s+)?", re.I)
_FINDING_HEDGE = re.compile(
    r"\b(?:if|whether|may|might|could|would|can|possible|possibly|\?|exclude|excluding|rule\s+out|look(?:ing)?\s+for|"
    r"assess\w*|evaluate|check\s+for|needs?|needed|want|request\w*|order\w*|arrange|please|pending|await\w*|"
    r"no\s+(?:evidence|sign)|unless|should|will)\b|\?",
    re.I,
)
# what crystals would prove ("gout is only proven by urate crystals in the fluid") reports none
_CRYSTAL_CRITERION = re.compile(
    r"\b(?:proven|proved|diagnosed|confirmed|defined)\s+by|\b(?:would|if|whether|needs?|needed|requires?|look\w*\s+for|"
    r"exclude|rule\s+out|to\s+(?:see|confirm|check))\b",
    re.I,
)
# Round 95: the kind of crystal named before "crystals" makes the word a result ("negatively birefringent
# needle-shaped MSU crystals", "CPP crystals"), not the name of the crystal analysis
# the two crystal kinds by their names and shapes (round 95: _crystal_kinds reads a statement and a reply with them)
_CPP_TERMS = r"CPPD?|calcium\s+pyrophosphate|pyrophosphate|rhomb\w*"
_MSU_TERMS = r"MSU|monosodium\s+urate|urate|uric\s+acid|needle[\s-]*(?:shaped|like)?"
_CRYSTAL_KIND_BEFORE = re.compile(
    rf"\b(?:{_MSU_TERMS}|{_CPP_TERMS}|birefringent|intracellular)\W*(?:[\w-]+\W+){{0,3}}$",
    re.I,
)
_CULTURE_SPECIMEN_RX = re.compile(_CULTURE_SPECIMEN, re.I)
# Round 99: a positive serology, antigen, antibody or PCR result for an organism or antigen no test of the case names
# ("His Campylobacter serology has also come back positive", "Positive dengue NS1 antigen") reports a test that was
# never done; the organism may be an alias of a history fact ("Campylobacter" of the preceding diarrhoea), which
# then does not own the sentence. Only positive results: an invented negative rules out and is rarely labelled.
_SEROLOGY_TEST = r"(?:serolog(?:y|ies)|antigen|antibod(?:y|ies)|IgM|IgG|PCR)"
_SEROLOGY_RESULT = re.compile(
    r"\b(?P<org>[A-Za-z][\w-]{2,}(?:\s+NS1)?)\s+" + _SEROLOGY_TEST + r"\b(?:\s+(?:test|has|have|is|are|was|were|now|"
    r"also|came|come|back|returned|been))*\s*:?\s*(?:positive|reactive|\+\s*ve|detected)\b"
    r"|\b(?:positive|reactive|\+\s*ve)\s+(?P<org2>[A-Za-z][\w-]{2,}(?:\s+NS1)?)\s+" + _SEROLOGY_TEST + r"\b",
    re.I,
)
_SEROLOGY_NOT_ORGANISM = {"the", "his", "her", "their", "viral", "virus", "any", "all", "repeat", "antibody", "antigen",
                          "serum", "blood", "csf", "urine", "stool", "another", "this", "that", "our", "own", "new",
                          "negative", "positive", "further", "also", "and", "with", "for", "igm", "igg", "total"}
_CULTURE_OF = {"urinary": "urine", "msu": "urine", "faecal": "stool", "fecal": "stool", "joint": "synovial"}
# a culture result hoped for or awaited is no result: "if the culture grows E. coli", "await cultures"
_CULTURE_HYPOTHETICAL = re.compile(r"\b(?:if|whether|unless|until|once|await\w*|pending|in\s+case|should)\b[^.;\n]*$", re.I)
# Round 84: a dipstick grade names its test's result even where the test goes unnamed or is called "dip" ("3+ blood
# on dipstick", "Dip: trace leucocytes", "- 2+ leukocytes"): the claim is on the case fact that names that analyte in
# the urine, else on the case's urinalysis, else on the lexicon's finding, else a reported finding.
_DIP_GRADE = re.compile(
    r"(?:(?<![\w+])(?:[1-4]\+|\+{2,4})\s*|\btrace\s+(?:of\s+)?)"
    r"(?P<an>blood|protein|leu[ck]ocytes?|leu[ck]s|(?-i:LE)|nitrites?|glucose|ketones?)\b"
    r"(?!\s+(?:in|on)\s+(?:the\s+|her\s+|his\s+)?(?:stool|faeces|feces|sputum|vomit|aspirate))",
    re.I,
)
# per analyte (the first four letters of its word): the fact names that carry it in the urine, and the word a report
# uses for it
_DIP_ANALYTES = {
    "bloo": (r"\bha?ematuria\b|\bdipstick\s+blood\b|\bblood\s+in\s+(?:the\s+)?urine\b", "blood"),
    "prot": (r"\bproteinuria\b|\burine\s+(?:dipstick\s+)?protein\b", "protein"),
    "leuc": (r"\bpyuria\b|\bleu[ck]ocyte\s+esterase\b|\bleu[ck]ocytes\b", "leukocytes"),
    "nitr": (r"\bnitrites?\b", "nitrites"),
    "gluc": (r"\bglycosuria\b|\bglucosuria\b", "glucose"),
    "keto": (r"\bketonuria\b|\bketones\b", "ketones"),
}
# the lexicon's finding for a grade no case fact carries ("UA today 2+ glucose" is the glycosuria named again later)
_DIP_FINDING = {"blood": "haematuria", "leukocytes": "pyuria", "glucose": "glycosuria", "ketones": "ketonuria"}
_URINALYSIS_NAME = re.compile(r"^(?:urinalysis|urine\s+dipstick|urine\s+dip|UA|urine\s+analysis)$", re.I)
# Round 86: a word that says the patient drinks no alcohol ("She is teetotal", "Teetotal, no meds"): a denied claim on
# the case's alcohol history, unless said of a relative or a partner ("Brother: cirrhosis at 38, teetotal")
_ABSTAINER = re.compile(r"\b(?:tee-?total(?:ler)?|non-?drinker|abstains?\s+from\s+alcohol|abstinent\s+from\s+alcohol)\b", re.I)
_OTHER_PERSON = re.compile(r"\b(?:husband|wife|partner|friend|flatmate|colleague)s?\b", re.I)


def _note_sentence(text: str, s: int, e: int) -> tuple[int, int]:
    """The bounds of the note sentence around [s, e): from the full stop or line break before it to the one after
    it (exclusive), as terse notes punctuate ("UA trace leuks, WBC 9.8.", "Brother: cirrhosis at 38, teetotal")."""
    a = max(text.rfind(".", 0, s), text.rfind("\n", 0, s)) + 1
    b = min((i for i in (text.find(".", e), text.find("\n", e)) if i >= 0), default=len(text))
    return a, b


# "he also reports blurred vision", "she describes night-time wheeze": the patient's own account, asserted
# by the agent as a history finding. _REPORTED_BEFORE reads "reports"/"describes" as a document or a third
# party speaking (a letter, the daughter), which hides the claim; with the patient as the subject it is not.
_PATIENT_SAYS = re.compile(
    # round 115: or a note's sentence that opens with the verb ("Reports saddle numbness."), its subject the patient
    r"(?:\b(?:he|she|pt|patient)\s+|(?:[.;!?\n]|^)\s*)(?:also\s+|still\s+|now\s+|further\s+)?(?:reports?|describes?|mentions?|"
    r"complains?\s+of)\s+(?:[\w-]+\s+){0,3}$",
    re.I,
)


@functools.lru_cache(maxsize=1)
def _finding_names() -> dict[str, tuple[str, ...]]:
    """Every name of each general finding term (lexicon ``findings``), by term id: the same for every case."""
    return {f"term:{n}": (n, *(aliases or ())) for n, aliases in (lexicon_data().get("findings") or {}).items()}


def _spelled_out(fact: Fact | None, clause: str, said: str) -> tuple[str, str]:
    """The clause and mention with a shorthand name ("TA non-tender", "Cr nl") replaced by the fact's
    full name that its statement uses, so the statement's wording can be compared with the agent's.
    Round 108: an acronym is spelled out as the name whose initials it is ("no CMT" is "no cervical motion
    tenderness", a finding the pelvic examination reports, not "no pelvic examination")."""
    if fact is None or len(said) > 4 or said.lower() in fact.statement.lower():
        return clause, said
    stated = [n for n in fact.all_names if n.lower() in fact.statement.lower()]
    full = next((n for n in stated if _initials(n) == said.lower()), None) or next(iter(stated), None)
    return (clause.replace(said, full), full) if full is not None else (clause, said)


# a part of the examination called normal right before its name ("normal hernial orifices")
_CALLED_NORMAL_BEFORE = re.compile(r"\b(?:normal|unremarkable|intact|clear)\s+(?:[a-z]+\s+)?$", re.I)


def _denies_exam_finding(f: Fact | None, before: str) -> bool:
    """Round 108: a denied finding (``before`` is the text up to it) joined to an asserted one of the same
    examination ("os closed, no CMT", "stool without blood in the nappy") is judged on its own, so that a sign the
    examination found, denied, makes the one claim contradicted. A part called normal is not a denied finding
    ("no peritonism and normal hernial orifices")."""
    return (
        f is not None and f.category == FactCategory.exam and not f.negated
        and not _CALLED_NORMAL_BEFORE.search(before)
    )


def _initials(name: str) -> str:
    """The first letters of a name's words, lower-cased ("cervical motion tenderness" -> "cmt")."""
    return "".join(w[0] for w in re.findall(r"[a-z0-9]+", name.lower()))


@functools.lru_cache(maxsize=1)
def _drug_names() -> frozenset[str]:
    """Every name of the lexicon's drug terms, lower-cased: the same for every case."""
    names = _finding_names()
    return frozenset(n.lower() for t in treatment_terms() for n in names.get(t, (t[5:],)))


# round 142: an examination line's label before a sign, and the body site after it: the sign stated as found
_EXAM_LABEL_BEFORE = re.compile(r"(?:^|\n)\W*(?:exam(?:ination)?|O/E|on\s+examination)\s*[:\-–—]\s*(?:[^.;:\n]*,\s*)?$", re.I)
_SITE_AFTER = re.compile(
    r"\s+(?:at|over|on|of|in)\s+(?:the\s+|her\s+|his\s+|both\s+)?(?:[\w-]+\s+){0,2}?(?:injection\s+)?"
    r"(?:sites?|thighs?|abdomen|arms?)\b",
    re.I,
)


# round 142: how a test behaves in a condition ("HbA1c runs falsely low in pregnancy"), not its value called low
_TEST_BEHAVIOUR = re.compile(r"\b(?:runs?|reads?|tends?\s+to\s+(?:run|read|be))\s+(?:\w+\s+)?(?:low|high|lower|higher)\s+(?:in|during)\b", re.I)


def _attributed(before: str) -> bool:
    """Whether the words before a mention attribute it to a document or a third party, not the agent."""
    if _PATIENT_SAYS.search(before):
        return False
    return bool(_REPORTED_BEFORE.search(before) or _SOURCE_POSSESSIVE.search(before))


# the nouns of an absolute change, named before its size ("a drop of 32 mmHg") or, round 139, after it ("an 18
# mmHg fall")
_CHANGE_NOUNS = "drop|fall|rise|increase|decrease|reduction"
# the words that name an absolute change right before its size: "a drop of 32 mmHg", "fallen by 11"
_CHANGE_BEFORE = re.compile(
    rf"\b(?:(?:{_CHANGE_NOUNS}|change)\s+of|(?:fallen|dropped|risen|fell|rose|"
    r"increased|decreased|gone\s+(?:up|down))\s+(?:by\s+)?|down\s+by|up\s+by)\s*(?:about\s+|around\s+|roughly\s+|~\s*)?$",
    re.I,
)
_NAME_WORD = re.compile(r"[a-z]{3,}")
_GENERIC_NAME_WORDS = frozenset({"count", "level", "test", "result", "ratio", "the", "and", "serum", "plasma"})
_FLUID_CUES = frozenset({"aspirate", "aspirated", "aspiration", "tap", "effusion", "joint"})
_DOWN_WORDS = frozenset(
    {"drop", "dropped", "fall", "fallen", "fell", "reduction", "reduced", "decrease", "decreased", "lower", "down",
     "below", "under"}
)
_CHANGE_AFTER = re.compile(rf"^\s*(?:(?:postural|orthostatic|systolic|absolute)\s+)?(?:{_CHANGE_NOUNS})\b", re.I)
_CHANGE_WORD = re.compile(
    r"\b(?:drop|dropped|fall|fallen|fell|reduction|reduced|decrease|decreased|lower|down|rise|risen|rose|increase|"
    r"increased|higher|up|above|below|over|under)\b",
    re.I,
)


@functools.lru_cache(maxsize=64)
def _context_durations(context_text: str) -> tuple[Quantity, ...]:
    """The quantities and word durations ("three days") of a released context, read once per context: the
    durations a term's time value may restate."""
    return (*find_quantities(context_text), *_word_durations(context_text))


_CLOCK = re.compile(r"\b([01]?\d|2[0-3]):([0-5]\d)\b")  # "08:30"; never "1.25", a decimal


@functools.lru_cache(maxsize=64)
def _clock_minutes(context_text: str) -> tuple[int, ...]:
    """The clock times of a released context ("last known well at 08:30 ... arrived at 10:20"), in minutes."""
    return tuple(int(h) * 60 + int(m) for h, m in _CLOCK.findall(context_text))


def _clock_interval(context_text: str, q: Quantity) -> bool:
    """Whether a time span ("110 minutes", "1.8 h") is the interval between two clock times the context
    gives: "08:30 to 10:20, so 110 minutes from last known well to arrival" derives it."""
    if q.unit not in ("min", "h"):
        return False
    want = q.value * (60 if q.unit == "h" else 1)
    times = _clock_minutes(context_text)
    return any(abs(abs(b - a) - want) <= 1 for i, a in enumerate(times) for b in times[i + 1 :])


def _stated_change(text: str, q: Quantity, qs: list[Quantity], released: Sequence[float] = ()) -> str | None:
    """Why a number is the change between two values, else None: a percentage between two values stated
    in the same sentence ("fallen to 1.8 from 5.9 mg/L, roughly a 70% drop", "from 105 to 168 µmol/L, a
    rise of 60%"), or an absolute change between a value of the sentence and another of the sentence or
    of the released text ("fell from 118 to 86 mmHg, a drop of 32 mmHg"; "86/54, a drop of 32 mmHg since
    the nitroglycerin" when 118 was released). The values are judged as claims of their own; the change
    only has to follow from them. A "from X to Y" range counts as its two values."""
    near = text[max(0, q.start - 20) : q.start] + " " + text[q.end : q.end + 30]
    words = {w.lower() for w in _CHANGE_WORD.findall(near)}
    if not words:
        return None
    down, up = bool(words & _DOWN_WORDS), bool(words - _DOWN_WORDS)
    pct = normalize_unit(q.unit) == "%"
    if not pct and not (_CHANGE_BEFORE.search(text[max(0, q.start - 25) : q.start]) or _CHANGE_AFTER.match(text[q.end :])):
        return None  # an absolute change is named as one: "a drop of 32", "fallen by 11" (round 139: "an 18 mmHg fall")
    here = [v for o in qs if o is not q and normalize_unit(o.unit) != "%" for v in (o.value, o.upper) if v]
    here += [float(m.group(1)) for m in PRESSURE_PAIR.finditer(text)]  # "86/54": the systolic
    # the sentence's own pairs first; then a value of the sentence against one of the released text (a small
    # change could join two unrelated numbers of the context by chance: the sentence's own only)
    others = (here, () if pct or q.value < 5 else released)
    for pool in others:
        for a in here:
            for b in pool:
                if b == a or b == 0 or (down and not up and b < a) or (up and not down and b > a):
                    continue  # a drop is from a higher value (b) to the one stated (a), a rise the other way
                change = abs(a - b) / abs(b) * 100 if pct else abs(a - b)
                if abs(change - q.value) <= (max(3.0, 0.08 * q.value) if pct else max(0.05, 0.02 * q.value)):
                    return f"{q.value:g}{'%' if pct else ''} is the change between {b:g} and {a:g}"
    return None


_LIST_NEGATION = re.compile(r"\b(?:no|without|nil|negative\s+for|free\s+of|denies|denied|denying)\b([^.;:()]*)$", re.I)
_LIST_BREAK = re.compile(r"\b(?:but|although|though|however|with|shows?|showed|is|are|was|were|has|had)\b", re.I)


def _in_negated_list(text: str, start: int) -> bool:
    """Whether the word at ``start`` is a later item of a negated list ("no mass, stricture or colitis",
    "He denies dysuria, urethral discharge, fever or recent trauma": the later items are denied too), which
    the word-level negation scope does not reach. (Round 140 gave that scope a stricter list of its own for
    denials, textrules._DENIAL_LIST; the two differ in words and limits and are kept apart.)"""
    m = _LIST_NEGATION.search(text[:start])
    if m is None:
        return False
    between = m.group(1)
    return (
        len(between.split()) <= 8 and not _LIST_BREAK.search(between)
        and bool(re.search(r",|\b(?:or|and|nor)\b", between))
    )


def _denied_at(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` is denied, by its own negation or as a later item of a negated list ("she takes
    no vitamin D, calcium, thiazide or lithium"), which the word-level scope does not reach."""
    return mention_negated(text, start, end) or _in_negated_list(text, start)


def _denied_in(text: str, mention: str) -> bool:
    """Whether ``text`` denies ``mention`` where it first names it (see :func:`_denied_at`)."""
    at = text.lower().find(mention.lower())
    return at >= 0 and _denied_at(text, at, at + len(mention))


def _names_one_of(names, text: str, whole_word: bool = True) -> bool:
    """Whether ``text`` names one of ``names`` (longer than two letters; from a word start, to a word end when
    ``whole_word``)."""
    end = r"\b" if whole_word else ""
    return any(len(n) > 2 and re.search(rf"\b{re.escape(n)}{end}", text, re.I) for n in names)


def _flags_conflict(seg: Segment) -> bool:
    """Whether a segment flags a conflict: conflict or doubt language, or a conflict heading
    ("Discrepancy:", "Unverified:")."""
    head = (seg.heading or "").strip().rstrip(":")
    inline = _INLINE_HEADING.match(seg.text)  # a label no section knows ("Discrepancy:") stays in the text
    return bool(
        CONFLICT_RX.search(seg.text) or CONFLICT_EXTRA_RX.search(seg.text) or CONFLICT_HEADING_RX.match(head)
        or (inline and CONFLICT_HEADING_RX.match(inline.group(1).strip()))
    )


_TEST_WORDS = {
    "examination", "exam", "test", "tests", "scan", "ultrasound", "doppler", "imaging", "film", "findings",
    "result", "results", "level", "count", "study", "screen", "panel", "report", "signs", "sign",
}
# a sentence about a result, not a history: "Urine positive for amphetamines", "the amphetamine-positive
# addendum", "amphetamines would not explain the antibodies"
_RESULT_TALK = re.compile(
    r"\b(?:positive|negative|detected|screen\w*|urine|tox\w*|assay|addendum|sample|lab(?:oratory)?|result|"
    r"report(?:ed)?|would\s+not\s+explain|wouldn't\s+explain|even\s+if)\b",
    re.I,
)
# a test's own name, not a finding it reports
_TEST_NAME_WORD = re.compile(r"^(?:ct|mri|x-?ray|ecg|ekg|echo\w*|ultrasound|uss?|biopsy|culture|serology|ratio|level)$", re.I)
_CRITERION = re.compile(
    r"\b(?:criteri(?:on|a)|threshold|cut-?off|defin(?:es|ed|ition)|meets?|qualifies|guidelines?)\b", re.I
)


# round 97: a test's name heading its line or sentence before a colon reports the result in whatever words follow
# ("EEG: generalized polyspike-wave, L temporal slowing", "Pelvic MRI: R ovarian teratoma", "Micro: no RBCs/casts");
# a plan's colon orders, times or hedges it ("EEG: tomorrow", "MRI: to exclude a bleed", "LFTs: repeat in 48 h",
# "CT: ?PE", "U&E: pending")
_RESULT_COLON_AFTER = re.compile(r"\s*(?:\([^)]{0,30}\)\s*)?:\s+(?=[\w(<>+-])")  # not "AST:ALT"
_ORDER_AFTER_COLON = re.compile(
    r"(?:pending|await\w*|requested|ordered|booked|planned|arranged|sent|to|for|if|when|once|consider\w*|please|"
    r"repeat\w*|re-?check|send|book|arrange|check|obtain|get|do|r/o|rule\s+out|exclude|tbc|tbd|n/?a|not\s+(?:yet\s+)?"
    r"(?:done|available|back|sent|performed|requested)|none\s+yet|need\w*|will|would|should|may|might|could|in\s+\d|"
    r"within|tomorrow|today|now|tonight|urgent\w*|stat|asap|same[- ]day|out-?patient|in-?patient|follow\w*|serial\w*|"
    r"daily|weekly|monthly|yes|\d+\s*(?:h|hrs?|hours?|days?|wks?|weeks?)\b)\b",
    re.I,
)
# round 67: a test that opens a line and is followed by what it is for ("CT KUB for stone burden", "Sestamibi +
# neck US for localization", "MRI to stage"): an order; a result is not written this way
_PURPOSE_AFTER = re.compile(
    r"^\s*(?:\([^)]{0,40}\)\s*)?(?:for|to\s+(?:assess|look|exclude|rule|check|evaluate|quantify|stage|confirm|"
    r"locali[sz]e|characteri[sz]e))\b(?!\s+(?:a|an|the|\d+|several|some|two|three)\s+(?:days?|weeks?|months?|years?|hours?)\b)",
    re.I,
)


_REPORT_VERB = re.compile(r"\b(?:shows?|showed|reveals?|revealed|demonstrat\w+|with|finds?|found|confirms?|"
                          r"consistent\s+with)\b", re.I)


# a dose or a dosing frequency earlier on the line: a duration after it is the course ordered (round 60d)
_DOSING_BEFORE = re.compile(
    r"\b\d+(?:\.\d+)?\s*(?:mg|g|mcg|µg|units?|mg/kg)\b|\b(?:bid|tid|qid|bd|tds|qds|od|daily|nocte|prn|iv|po|im|sc)\b", re.I
)


# units of alcohol between an amount and its noun ("~6 u/wk EtOH", "20 units of alcohol a week")
_UNITS_OF = re.compile(r"\s*(?:u|units?)(?:\s*/\s*(?:wk|week|w|d|day|weekend))?\s+(?:of\s+)?", re.I)


# round 60: a one-word result code in mixed case ("PiZZ", "PiMZ"): a finding by itself, unlike "ovarian"
_RESULT_CODE = re.compile(r"(?=[A-Za-z]*[a-z])(?=[A-Za-z]*[A-Z][A-Za-z]*[A-Z])[A-Za-z]{3,}")


# round 70: a result code written as a prefix and a short upper-case result ("PiZZ" -> "Pi" + "ZZ")
_CODE_SHAPE = re.compile(r"(?<![\w*])([A-Z][a-z]{1,3})\*?([A-Z]{1,3})(?![\w*])")


def _code_shapes(facts) -> dict[str, tuple[str, frozenset[str]]]:
    """Result-code prefixes of a case's test facts: prefix -> (fact id, the codes the fact lists), from aliases
    like "PiZZ" that the fact's statement reports as its result (so "PiMZ" or "Pi*SZ" in a reply is a result of
    that test). A prefix two facts share names neither."""
    out: dict[str, tuple[str, frozenset[str]]] = {}
    shared: set[str] = set()
    for f in facts:
        if f.category not in _TEST_CATEGORIES:
            continue
        for n in f.all_names:
            m = _CODE_SHAPE.fullmatch(n.strip())
            if not m or not re.search(rf"(?<![\w*]){re.escape(n.strip())}(?![\w*])", f.statement):
                continue  # only a code the report gives as its result ("shows PiZZ"), not a short name ("TnT")
            pre = m.group(1)
            if pre in out and out[pre][0] != f.id:
                shared.add(pre)
            codes = out.get(pre, (f.id, frozenset()))[1] | {m.group(2)}
            out[pre] = (f.id, codes)
    return {p: v for p, v in out.items() if p not in shared}


_CPP_WORDS = re.compile(rf"\b(?:{_CPP_TERMS}|positively\s+birefringent)\b", re.I)
_MSU_WORDS = re.compile(rf"\b(?:{_MSU_TERMS}|negatively\s+birefringent)\b", re.I)


def _crystal_kinds(text: str) -> set[str]:
    """The crystal kinds a text reports un-negated: "cpp" (rhomboid, positively birefringent calcium
    pyrophosphate) or "msu" (needle-shaped, negatively birefringent monosodium urate)."""
    return {kind for kind, rx in (("cpp", _CPP_WORDS), ("msu", _MSU_WORDS))
            if any(not _denied_at(text, m.start(), m.end()) for m in rx.finditer(text))}


def _crystal_conflict(f: Fact, clause: str) -> str | None:
    """Round 95: crystals of the other kind than the released analysis reports ("negatively birefringent
    needle-shaped MSU crystals" against "rhomboid, weakly positively birefringent calcium pyrophosphate crystals ...;
    no needle-shaped urate crystals are seen"), the gout/pseudogout confusion a reply invents."""
    if not re.search(r"\bcrystals?\b", clause, re.I) or not re.search(r"\bcrystal", f.statement, re.I):
        return None
    released = _crystal_kinds(f.statement)
    said = _crystal_kinds(clause) - released
    if len(released) == 1 and said:
        return f"reports {next(iter(said)).upper()} crystals where the released {f.name} shows {next(iter(released)).upper()}"
    return None


# Round 100: a lateralised or focal finding put on a report that denies anything focal ("EEG: generalized
# polyspike-wave, L temporal slowing", "the EEG shows a left temporal focus" against "generalised polyspike-and-wave
# discharges with no focal abnormality"; "the left drift is a focal sign" against a non-focal examination)
_FOCAL_DENIED = re.compile(r"\b(?:no|without|nothing|nil)\s+(?:\w+\s+){0,2}focal\b|\bnon-?focal\b", re.I)
_FOCAL_SAID = re.compile(
    r"\b(?:(?:left|right|L|R)(?:[\s-]+sided)?[\s-]+(?:(?:anterior|posterior|mesial|medial)\s+)?(?:temporal|frontal|"
    r"parietal|occipital|hemispheric|hemisphere)|(?<!non-)(?<!non)focal|laterali[sz]\w+)\b",
    re.I,
)


def _focal_conflict(f: Fact, clause: str) -> str | None:
    """Round 100: a focal or lateralised finding said, un-negated and unhedged, of a fact whose released statement
    denies any focal abnormality."""
    if not _FOCAL_DENIED.search(f.statement) or _FINDING_HEDGE.search(clause):
        return None
    for m in _FOCAL_SAID.finditer(clause):
        if _denied_at(clause, m.start(), m.end()) or _FOCAL_DENIED.search(clause[max(0, m.start() - 30) : m.end()]):
            continue
        return f"reports '{m.group(0)}', but the released {f.name} shows nothing focal"
    return None


# round 107: signs that qualify an abdominal tenderness just named ("tenderness with guarding", "TTP + rigidity")
_PERITONEAL_SIGNS = frozenset({"term:guarding", "term:abdominal rigidity"})
_SIGN_JOIN = re.compile(
    r"\s*(?:,|\+|&|and|with|w/)\s*(?:(?:voluntary|involuntary|marked|mild|some|localised|localized)\s+)?", re.I
)
# round 105: organisms seen on a smear (lexicon findings), named alone ("the Gram-positive cocci make this
# straightforward") or as the result of a test the case lists
_SMEAR_TERMS = frozenset({"term:gram-positive cocci", "term:gram-negative rods"})
# round 105: organisms seen on a smear right after the test's name ("Gram stain GPCs in clusters", "gram stain
# gram-negative rods", "blood cx GNRs") or right before it ("GPCs on Gram stain"): its result written without a verb
_SMEAR_WORD = r"(?:" + SMEAR_SHORTHAND + r"|GNCs?|cocci|bacilli|rods|diplococci)\b"
_MICROSCOPY_AFTER = re.compile(
    r"^\s*(?:[,:-]\s*)?(?:(?:shows?|with|has|had)\s+)?(?:(?:numerous|scanty|scant|few|many|some|occasional)\s+)?"
    r"(?:gram[\s-]?(?:positive|negative|\+v?e?|-v?e)\s+)?" + _SMEAR_WORD,
    re.I,
)
_MICROSCOPY_BEFORE = re.compile(
    r"\b" + _SMEAR_WORD + r"\s+(?:in\s+(?:clusters|chains|pairs)\s+)?(?:on|in|from)\s+(?:the\s+|her\s+|his\s+)?$",
    re.I,
)


def _names_the_test(fact: Fact, said: str) -> bool:
    """Whether a mention of a test fact is the test itself (its name, an acronym, or a name with a test word:
    "CTA", "CT angiogram") rather than a finding it would report ("large-vessel occlusion")."""
    words = re.findall(r"[a-z][a-z-]*", said.lower())
    return said.lower() == fact.name.lower() or said.isupper() or any(
        w in _TEST_WORDS or _TEST_NAME_WORD.match(w) for w in words
    )


def _names_a_finding(fact: Fact, said: str) -> bool:
    """Whether an alias of a test is one of its findings ("extreme delta brush" of "EEG shows diffuse
    slowing with an extreme delta brush pattern"), not another name of the test ("electroencephalogram"):
    it appears in the report's statement after a reporting verb."""
    if any(ch.isdigit() for ch in said) or (len(said.split()) < 2 and not _RESULT_CODE.fullmatch(said)):
        return False  # one word ("ovarian") or a value: too loose to be a finding by itself
    pos = fact.statement.lower().find(said.lower())
    return pos > 0 and said.lower() not in fact.name.lower() and bool(_REPORT_VERB.search(fact.statement[:pos]))
_RELATIVE_WORD = re.compile(
    rf"(?:(?:his|her|their|the|a|an|paternal|maternal|older|younger|elder)\s+)*(?:{'|'.join(RELATIVES)}|grand\w+)s?(?:'s|’s)?",
    re.I,
)


def _names_family_condition(f: Fact | None, text: str, mentions) -> bool:
    """Whether a family-history fact is named by its condition in this sentence ("his father's MI",
    "premature coronary disease"), not only by a relative ("the brother was 38 at diagnosis"). Then a
    number beside it (the relative's age) is a detail, and the history itself stays a factual claim."""
    if f is None or f.category != FactCategory.family:
        return False
    return any(i2 == f.id and not _RELATIVE_WORD.fullmatch(text[s2:e2].strip()) for s2, e2, i2, _k, _n in mentions)


# A plus sign right after a test or sign is its positive result ("Murphy's +", "QuantiFERON +, TST 15 mm",
# "leuc ++"); a lone "+" before another noun joins two items ("CT head + CTA", "ECG + BP still needed")
_PLUS_SIGN = r"(?:\+{2,3}(?![\w+])|\+(?![\w+])(?=\s*(?:[,.;:)/]|$|(?:and|with|but|on|in|x|so)\b)))"
_PLUS_RESULT = re.compile(r"\s*" + _PLUS_SIGN, re.I)
# round 85: a sign written positive in shorthand, after or before its name ("Prehn +ve", "Murphy's +", "+ Murphy's")
_POSITIVE_AFTER = re.compile(r"\s*(?:\+\s*ve\b|pos\b|" + _PLUS_SIGN + ")", re.I)
_POSITIVE_BEFORE = re.compile(r"(?:\+\s*ve|(?<![\w+])\+|\bpos)\s*$", re.I)

# round 63: a dipstick "trace" is a (weakly) positive result: "UA trace leuks", "protein: trace", "trace of blood"
_TRACE_RESULT = (
    r"\btrace\s+(?:of\s+)?(?:leu[ck]\w*|protein\w*|blood|nitrites?|ketones?|glucose|albumin|wbcs?|rbcs?|pus)\b|"
    r"\b(?:leu[ck]\w*|protein|blood|nitrites?|ketones?|glucose)\s*:?\s*trace\b"
)
# an abnormal result word after a test's name ("HBsAg positive", "Murphy's +", "QuantiFERON ++", "UA trace leuks");
# compiled once: asked of every claim on a negative test
_ABNORMAL_RESULT = re.compile(
    r"\b(?:positive|pos|abnormal|reactive|detected|raised|elevated)\b|\+ve\b|(?<![\w+/])" + _PLUS_SIGN + "|" + _TRACE_RESULT,
    re.I,
)
# a negative test read as reassuring before a finding it names: "her injection sites are fine, so ... lipohypertrophy
# [is unlikely]" names the finding to set it aside
_READ_AS_REASSURING = re.compile(
    r"\b(?:fine|ok|okay|reassuring|so|therefore|hence|unlikely|less\s+likely|removes?|excludes?|argues?\s+against)\b",
    re.I,
)
# a result read as negative or normal beside the mention ("hematuria negative", "papilledema absent")
_NEGATIVE_WORD = re.compile(r"\b(?:negative|neg|normal|absent|nil|none|not\s+seen|unremarkable)\b", re.I)


@functools.lru_cache(maxsize=1024)
def _plus_before(mention: str) -> re.Pattern[str]:
    """A plus sign opening a note item before ``mention``: "+ Murphy's", "w/ +Murphy's", "(+ Murphy's sign"
    (compiled once per mention: the same few sign names recur in every reply of a case)."""
    return re.compile(rf"(?:^|[,;:(\u2014\u2013]|\s-|\bw/|\bwith|\band)\s*\+\s*{re.escape(mention)}", re.I)


_STATUS_RANK = {"supported": 0, "restated_contradiction": 1, "unsupported": 2, "contradicted": 3}


def _one_claim_per_pressure(claims: list[Claim]) -> list[Claim]:
    """A blood pressure ("172/96") is one claim, as a reader and the labels take it: the number parser yields
    its systolic and diastolic values apart, and two claims made one misquote count twice (two invented
    values, two tracks). The pair keeps the systolic claim's item and key and the worse status of the two (a
    wrong diastolic value makes the pressure a misquote). Its offsets are those of the number that status comes
    from (the systolic on a tie), while its text stays the pair (round 141): labels since set 282 split a
    pressure as "BP 138" and "/88", and a span over both numbers ties the two by overlap, so the misquoted "138"
    was paired with the faithful "/88"; a label of the whole "BP 138/88" overlaps either number."""
    out: list[Claim] = []
    for c in claims:
        prev = out[-1] if out else None
        if (
            prev is not None and c.kind == prev.kind == "numeric" and c.unit == prev.unit == "mmhg"
            and "/" in c.span.text and c.span.text == prev.span.text and 0 < c.span.start - prev.span.end <= 3
        ):
            if _STATUS_RANK.get(c.status, 0) > _STATUS_RANK.get(prev.status, 0):
                prev.status, prev.rule = c.status, c.rule
                prev.span = c.span
            prev.premise = prev.premise or c.premise
            continue
        out.append(c)
    return out


# the word right before a bare number ("RV/LV 0.8", "RV/LV ratio 0.8"), read as a label when a statement uses it
_LABEL_BEFORE = re.compile(r"(?<![\w/])([A-Za-z][\w/+-]*[A-Za-z0-9])(?:\s+ratio)?\s*[:=]?\s*(?:of\s+|is\s+|was\s+)?$")
_NOT_A_LABEL = {
    "is", "was", "were", "are", "of", "at", "to", "from", "about", "around", "and", "or", "the", "a", "an", "by",
    "with", "on", "in", "for", "than", "now", "then", "only", "still", "over", "under", "up", "down", "be", "been",
    "approximately", "roughly", "nearly", "almost", "after", "before", "since", "last", "level", "value", "score",
    "ratio", "count", "result", "reading", "measured", "day", "days", "week", "weeks", "year", "years", "age", "aged",
    "type", "grade", "stage", "class", "fasting", "below", "above", "least", "well", "cut-off", "cutoff", "threshold",
    "target", "range", "normal", "limit", "times", "x", "×", "no", "not", "per", "every", "t",
}


_AND = re.compile(r"\band\b")
_PART_END = re.compile(r"[.;,]|\band\b")
# round 131: "RBCs" as the red cells a microscopy statement denies ("Urine micro: occasional RBCs"); "RBC casts" are
# casts, read by the statement's own "casts"
_RBC_SHORTHAND = re.compile(r"\bRBCs?\b(?!\s+casts?)")


def _context_part(ctx: str, start: int, end: int) -> str:
    """The part of the context's sentence that holds ``ctx[start:end]``, cut at commas, semicolons and "and"
    ("The platelet count is 245 and the white cell count is normal" -> "the white cell count is normal")."""
    lo = max(ctx.rfind(c, 0, start) for c in ".;,") + 1
    lo = max((m.end() for m in _AND.finditer(ctx, lo, start)), default=lo)
    m = _PART_END.search(ctx, end)
    return ctx[lo : m.start() if m else len(ctx)]


# round 141: a finding graded mild where the report grades it severe, or the reverse ("the left testis is swollen but
# only mildly tender" against "swollen and exquisitely tender")
_MILD_GRADE = r"(?:mild(?:ly)?|slight(?:ly)?|minimal(?:ly)?)"
_SEVERE_GRADE = r"(?:exquisite(?:ly)?|severe(?:ly)?|marked(?:ly)?|extreme(?:ly)?|intense(?:ly)?)"


_GRADED = {
    grade: re.compile(rf"\b{words}\s+([a-z]+)", re.I) for grade, words in (("mild", _MILD_GRADE), ("severe", _SEVERE_GRADE))
}


@functools.cache
def _statement_grades(statement: str) -> dict[str, tuple[str, ...]]:
    """The words a fact's statement grades, per grade ("exquisitely tender" -> severe: ("tender",)). Cached: a
    statement is fixed, and every claim on its fact asks."""
    return {grade: tuple(m.group(1).lower() for m in rx.finditer(statement)) for grade, rx in _GRADED.items()}


def _grade_conflict(statement: str, sentence: str) -> str | None:
    """Why ``sentence`` grades a finding against the grade ``statement`` gives it (same word, opposite grade). The
    whole sentence, not the claim's clause: the grade often sits in the next clause ("the left testis is swollen but
    only mildly tender"), and the same graded word in the fact's own statement keeps it to that fact."""
    graded = _statement_grades(statement)
    for said, other in (("mild", "severe"), ("severe", "mild")):
        if not graded[other]:
            continue
        for m in _GRADED[said].finditer(sentence):
            if len(m.group(1)) >= 4 and any(w.startswith(m.group(1)[:5].lower()) for w in graded[other]):
                return f"grades '{m.group(0)}' where the released statement grades it otherwise"
    return None


# round 141: a scan called negative after its name ("CT head negative", "CT head was negative")
_SCAN_CALLED_NEGATIVE = r"\s+(?:(?:was|is|were|came\s+back)\s+)?(?:negative|neg)\b(?!\s+for\b)"


class ClaimExtractor:
    """Extracts and checks the claims of one reply (see module docstring)."""

    def __init__(self, know: CaseKnowledge):
        self.know = know
        self._dx_name_words = [re.findall(r"[a-z][a-z-]+", n.lower()) for _d, n in know.dx_names]
        self.lex, self.lex_kinds = general_lexicon()
        self._ctx_qs: dict[str, list[Quantity]] = {}
        self._gave_number: set[str] = set()
        self._studies: dict[str, bool] = {}
        self._codes = _code_shapes(know.case.facts)
        self._code_rx = (
            re.compile(r"(?<![\w*])(" + "|".join(re.escape(p) for p in self._codes) + r")\*?([A-Z]{1,3})(?![\w*])")
            if self._codes else None
        )
        # organ words of examination facts ("thyroid" of "thyroid gland", and the head "gland")
        organ: dict[str, set[str]] = {}
        for f in know.case.facts:
            if f.category != FactCategory.exam or f.negated:
                continue
            for n in f.all_names:
                m = _ORGAN_ALIAS.fullmatch(n.strip())
                if m:
                    organ.setdefault(m.group(1).lower(), set()).add(f.id)
                    if m.group(2).lower() == "gland":
                        organ.setdefault("gland", set()).add(f.id)
        self._organ_of = {w: next(iter(ids)) for w, ids in organ.items() if len(ids) == 1}
        self._organ_words = [
            (re.compile(rf"\b{re.escape(w)}\b(?![\s-]*(?:gland|examination|exam|swelling)\b)", re.I), next(iter(ids)))
            for w, ids in organ.items() if len(ids) == 1
        ]
        #: mention text -> the name it is judged by ("spleen is enlarged" -> "splenomegaly")
        self._canon: dict[str, str] = {}
        self._dip_items: dict[str, str] = {}  # round 84: the fact each dipstick analyte's grade is read on
        alcohol = [f.id for f in know.case.facts if f.category not in _TEST_CATEGORIES and re.match(r"alcohol\b", f.name, re.I)]
        self._alcohol_fact = alcohol[0] if len(alcohol) == 1 else None  # round 86: the history "teetotal" denies
        #: claims of the earlier turns of the trajectory being read (set by the caller before
        #: each turn), so that a restated invented value keeps its item
        self.earlier: list[Claim] = []
        self._neg_kw = {f.id: _fact_negated_keywords(f) for f in know.case.facts}
        # what _asserts_denied_finding looks for: the negated keywords and (round 131) a negated fact's one-word
        # aliases that the lexicon calls findings ("haematuria" for a urine microscopy that "shows no red cells"),
        # reported after the test's name too ("Urine micro shows microscopic hematuria")
        self._denied_kw = {
            f.id: self._neg_kw[f.id] | (
                {a.lower()[:7] for a in f.aliases if " " not in a.strip() and self._finding_alias(a)}
                if f.negated else set()
            )
            for f in know.case.facts
        }
        self._ruled_out: dict[tuple[str, str], bool] = {}
        self._tmpl_kw = {
            t.id: _template_keywords(t.statement, know.fact(t.fact_id)) for t in know.templates.values()
        }
        # the one unvalued fact about fever ("She has had no fever") when no fact holds a measured
        # temperature: a temperature reading is a claim on it
        #: the case's facts that hold a measured temperature ("T 38.1" is a claim on the one of them)
        self._temp_facts = [f.id for f in know.case.facts if f.value is not None and normalize_unit(f.unit) in ("°c", "°f")]
        # (fact id, term id) -> whether the fact's statement states the term (round 142, read per claim pair)
        self._states_term: dict[tuple[str, str], bool] = {}
        temp_valued = bool(self._temp_facts)
        fever = [f.id for f in know.case.facts if f.value is None and any(
            _FEVER_NAME.fullmatch(n.strip()) for n in f.all_names)]
        self._fever_fact = fever[0] if len(fever) == 1 and not temp_valued else None
        # a general term that names a case fact ("diabetic" -> the case's diabetes history)
        self._term_fact: dict[str, str] = {}
        for tid, kind in self.lex_kinds.items():
            if kind != "finding":
                continue
            term = tid[5:].lower()
            owners = [f.id for f in know.case.facts if term in {n.lower() for n in f.all_names}]
            if not owners:
                # a finding of a part that a case fact names ("cervical os closed" and the pelvic examination that
                # lists the "cervical os"): withheld, the finding is invented; released, it is that examination
                owners = list(dict.fromkeys(
                    f.id for f in know.case.facts for n in f.all_names
                    if len(n.split()) >= 2 and term.startswith(n.lower() + " ")
                ))
            if len(owners) == 1:
                self._term_fact[tid] = owners[0]
        # round 105: organisms on a smear are the result of the case's one Gram stain ("the Gram-positive cocci"
        # after "Gram stain GPCs": one claim, one track, read against the stain's report)
        stains = [f.id for f in know.case.facts if any(re.search(r"\bgram\s+stain", n, re.I) for n in f.all_names)]
        if len(stains) == 1:
            for tid in _SMEAR_TERMS:
                self._term_fact[tid] = stains[0]
        # an analyte written in a form the case does not list ("Bili 310", "trop 1480") with a number the
        # context does not give is checked, and tracked, as the one valued case fact sharing one of its names
        self._analyte_fact = know.analyte_facts
        self._lexicon_names: dict[str, tuple[str, ...]] = {  # "term:white cell count" -> its names
            f"term:{name}": (name, *(aliases or ())) for name, aliases in (lexicon_data().get("analytes") or {}).items()
        }

    # ---------------------------------------------------------------- mentions
    def _mentions(self, text: str) -> list[tuple[int, int, str, str, bool]]:
        """(start, end, item, kind, negated): case facts, contradiction items, general terms."""
        out: list[tuple[int, int, str, str, bool]] = []
        taken: list[tuple[int, int]] = []
        hits_all = fact_mentions(self.know, text)
        used = [(m, item) for m in hits_all if (item := self._hit_item(text, m, hits_all)) is not None]
        for m, item in used:
            kind = "fact"
            if any(o[0] == m.start and o[2] == item for o in out):
                continue
            if any(
                h.start <= m.start and m.end <= h.end and h.end - h.start > m.end - m.start and h.item_id != m.item_id
                for h, _i in used
            ):
                continue  # "IgA" inside "tTG-IgA": a word of another fact's longer name, not the total IgA
            out.append((m.start, m.end, item, kind, mention_negated(text, m.start, m.end)))
            taken.append((m.start, m.end))
        if self._code_rx is not None:
            # round 70: a result code of a case test other than the one it lists ("PiMZ" where the case lists PiZZ)
            for m in self._code_rx.finditer(text):
                if not any(a < m.end() and m.start() < b for a, b in taken):
                    out.append((m.start(), m.end(), self._codes[m.group(1)][0], "fact", False))
                    taken.append((m.start(), m.end()))
        for s, e, fid in self._organ_mentions(text):
            if not any(a < e and s < b for a, b in taken):
                out.append((s, e, fid, "fact", mention_negated(text, s, e)))
                taken.append((s, e))
        for s, e, item, kind, canon in self._organ_state_mentions(text):
            inner = [o for o in out if o[0] < e and s < o[1]]
            if all(s <= o[0] and o[1] <= e for o in inner):
                # the whole "radial pulse is weaker" is more specific than the "pulse" inside it
                out = [o for o in out if o not in inner]
                taken = [(a, b) for a, b in taken if not (a < e and s < b)]
                self._canon[text[s:e].lower()] = canon
                out.append((s, e, item, kind, mention_negated(text, s, e)))
                taken.append((s, e))
        for m in _ABSTAINER.finditer(text):
            a = max(_note_sentence(text, m.start(), m.end())[0], clause_bounds(text, m.start())[0])
            said_before = text[a : m.start()]
            if self._alcohol_fact is None or RELATIVE_RX.search(said_before) or _OTHER_PERSON.search(said_before) or any(
                o[0] < m.end() and m.start() < o[1] for o in out
            ):
                continue
            out.append((m.start(), m.end(), self._alcohol_fact, "fact", True))
            taken.append((m.start(), m.end()))
        for s, e, item, canon in self._dip_grades(text):
            a, b = _note_sentence(text, s, e)
            same = [o for o in out if o[2] == item and a <= o[0] < b]
            named = [o for o in same if 0 <= s - o[1] <= 20]
            if same and not named:
                continue  # "3+ blood on dipstick is at odds with the microscopy": the test's own mention reads it
            # "the dipstick has 2+ protein", "UA trace leuks": the grade is the named test's result (and its
            # digit no number of its own)
            out = [o for o in out if o not in named]
            inner = [o for o in out if o[0] < e and s < o[1]]
            if not all(s <= o[0] and o[1] <= e for o in inner):
                continue
            out = [o for o in out if o not in inner]
            taken = [(a, b) for a, b in taken if not (a < e and s < b)] + [(s, e)]
            if item in self.know.matcher.facts:
                self._canon[text[s:e].lower()] = canon
                out.append((s, e, item, "fact", False))
            else:
                out.append((s, e, item, self.lex_kinds.get(item, "reported"), False))
        named = {o[2]: self.know.fact(o[2]) for o in out if o[2] in self.know.matcher.facts}
        fact_texts = " ".join(f.statement.lower() for f in named.values())
        denied_texts = " ".join(f.statement.lower() for f in named.values() if f.negated)  # (round 140)
        for s, e, hits in lex_find(self.lex, text):
            dropped: list[tuple[int, int, str, str, bool]] = []  # fact mentions this term took the place of
            if any(a < e and s < b for a, b in taken):
                inner = [o for o in out if o[0] < e and s < o[1]]
                # a general term naming another case fact is the longer, more specific name: "lost weight" (the
                # lexicon's weight loss, which the case denies) is not the "weight" of the BMI fact inside it
                longer = (
                    any(self._term_fact.get(tid) not in (None, *(o[2] for o in inner)) for tid, _k in hits)
                    # round 136: a loss of weight is no value of the weight, also where no case fact names the loss
                    # ("he has lost a little weight", where the case denies weight loss among the osmotic symptoms)
                    or any(tid in _MEASURE_CHANGE for tid, _k in hits)
                ) and all(s <= o[0] and o[1] <= e and o[1] - o[0] < e - s for o in inner)
                if not inner or not (longer or all(self._partial_word_mention(text, o, s, e) for o in inner)):
                    continue
                # "urine eosinophils" is the general finding, not the "urine" of a case fact's name
                out, dropped = [o for o in out if o not in inner], inner
                taken = [(a, b) for a, b in taken if not (a < e and s < b)]
            if fact_texts and (
                text[s:e].lower().rstrip("s") in fact_texts
                # round 140: or, denied, by the term's own name in a denied fact's statement where the note writes it
                # short ("Denies polyuria, ..., wt loss" beside the denied osmotic symptoms, whose statement names the
                # weight loss; not where the term took the place of that fact's own mention)
                or (
                    any(tid[5:] in denied_texts and self._term_fact.get(tid) is None for tid, _k in hits)
                    and mention_negated(text, s, e)
                    and not any(o[2] in named and named[o[2]].negated for o in dropped)
                )
            ):
                continue  # part of a case fact named in the same sentence ("ultrasound ... no gallstones")
            if _term_in_another_sense(text, s, e):
                continue  # "can't weight-bear", "low-molecular-weight heparin", "pulmonary oedema"
            if any(tid in _MEASURE_CHANGE for tid, _k in hits) and _CHANGE_AS_GOAL.search(
                text[max(0, s - 30) : e + 30]
            ):
                continue  # round 136: "weight loss goal 7%", "even modest weight loss would cut his risk": advice
            if any(tid in _SMEAR_TERMS for tid, _k in hits) and any(
                o[2] in self.know.matcher.facts and self.know.fact(o[2]).category in _TEST_CATEGORIES
                and (0 <= s - o[1] <= 25 or 0 <= o[0] - e <= 25)
                and not re.search(r"[.;\n]", text[min(o[1], e) : max(o[0], s)])
                for o in out
            ):
                continue  # round 105: "Gram stain GPCs", "GPC on Gram stain": the test's own result, its one claim
            for tid, _k in hits:
                mapped = self._term_fact.get(tid)
                if mapped is not None:
                    if text[s:e].lower() not in {n.lower() for n in self.know.fact(mapped).all_names}:
                        # "Murphy's +ve", "spider angiomata": judged by the term's name, which the fact lists
                        self._canon[text[s:e].lower()] = tid[5:]
                    out.append((s, e, mapped, "fact", mention_negated(text, s, e)))
                else:
                    out.append((s, e, tid, self.lex_kinds[tid], mention_negated(text, s, e)))
                break
        for s, e, name, s0 in self._reported_findings(text):
            if s0 < 0:
                # an earlier turn's invented finding named again ("the bruise" -> "bruising"): the same claim
                # even where a general term of the lexicon also names it
                s0 = s
                out = [o for o in out if not (o[0] < e and s < o[1] and o[3] == "finding")]
            inner = [o for o in out if s <= o[0] and o[1] <= e and self._yields_to_result(name, text[o[0] : o[1]], o[2])]
            if inner:
                out = [o for o in out if o not in inner]
                taken = [(a, b) for a, b in taken if not any(a == o[0] and b == o[1] for o in inner)]
            # the result of a test the case knows ("the biopsy shows class IV disease") is that fact's claim
            if not any(a < e and s0 < b for a, b in taken) and not any(a < e and s0 < b for a, b, *_ in out):
                out.append((s, e, f"term:{name}", "reported", False))
        out = [self._specimen_owner(text, o) for o in out]
        out.sort()
        return out

    @staticmethod
    def _reports_after_colon(text: str, e: int, fact: Fact | None) -> bool:
        """Round 97: whether the test named at ``text[:e]`` is followed by ": " and its result, up to the end of
        its sentence: not an order, a time or a hedge ("EEG: tomorrow", "CT: ?PE"), and not a measured value with
        its unit on a test that reports one ("Film: P. falciparum 1.2%": the number is the claim there)."""
        colon = _RESULT_COLON_AFTER.match(text[e:])
        if colon is None:
            return False
        rest = text[e + colon.end() :].split("\n", 1)[0]
        rest = re.split(r"(?<=[.;])\s+(?=[A-Z][a-z]{2,})", rest, maxsplit=1)[0]  # not at "P. falciparum"
        if _ORDER_AFTER_COLON.match(rest) or "?" in rest:
            return False
        return not (fact is not None and fact.value is not None and any(q.unit for q in find_quantities(rest)))

    def _yields_to_result(self, name: str, said: str, item: str) -> bool:
        """Whether a mention ``said`` of ``item`` inside a reported culture or serology result ``name`` makes no
        claim of its own there. Round 88: "Sputum culture is growing S. pneumoniae" where the case's only sputum
        fact is a symptom: the specimen word names the culture. Round 99: "Campylobacter" of a history fact, or the
        lexicon's "dengue NS1", inside an invented serology result (no test fact of the case names the organism);
        a lexicon test named with its test word ("TPO antibodies") keeps its claim."""
        if name.endswith("culture"):
            return bool(_CULTURE_SPECIMEN_RX.fullmatch(said))
        if name.endswith(" serology"):
            fact = self.know.matcher.facts.get(item)
            if fact is not None:
                return fact.category not in _TEST_CATEGORIES
            return not re.search(_SEROLOGY_TEST, said, re.I)
        return False

    def _hit_item(self, text: str, m, hits_all) -> str | None:
        """The fact a matcher hit names (a contradiction item names the fact it contradicts), or None when the
        hit is not used: an unknown template, or a word of another test's report said beside that test."""
        item = m.item_id
        if m.kind == "contradiction":
            tmpl = self.know.templates.get(m.item_id)
            if tmpl is None:
                return None
            item = tmpl.fact_id
        if self._belongs_to_other_fact(text, m.start, m.end, item, hits_all):
            return None  # "Doppler shows preserved perfusion": a word of the ultrasound report here
        return item

    def _specimen_owner(
        self, text: str, mention: tuple[int, int, str, str, bool]
    ) -> tuple[int, int, str, str, bool]:
        """A blood analyte named after a specimen word ("synovial WBC 18,500", "CSF white cell count") is the
        case's count in that fluid when exactly one valued fact names both the specimen and the analyte
        ("synovial fluid white cell count"); otherwise the mention is left as it is."""
        s, e, item, kind, neg = mention
        m = _SPECIMEN_BEFORE.search(text[max(0, s - 30) : s]) if kind in ("fact", "analyte") else None
        if m is None:
            return mention
        fact = self.know.matcher.facts.get(item)
        if fact is not None:
            names = {n.lower() for n in fact.all_names}
        else:
            names = {n.lower() for n in self._lexicon_names.get(item, ())}
        specimen = m.group(1).lower()
        owners = [
            f.id for f in self.know.case.facts
            if f.id != item and f.value is not None
            and any(specimen in g.lower() for g in f.all_names)
            and any(n in g.lower() for n in names if len(n) > 3 for g in f.all_names)
        ]
        return (s, e, owners[0], "fact", neg) if len(owners) == 1 else mention

    def _dose_of_drug(self, c: Claim) -> bool:
        """A dose claim on a medication fact ("warfarin 4 mg daily for AF"): the dose is a numeric claim
        of its own and the drug named with it stays a factual claim (labelling convention). A misquoted
        dose ("lamotrigine 150 mg BD" for 100 mg) is the one claim about that drug there."""
        f = self.know.matcher.facts.get(c.item)
        return (f is not None and f.category == FactCategory.medication and not c.hallucinated
                and normalize_unit(c.unit) in _DOSE_UNITS)

    def _reported_findings(self, text: str) -> list[tuple[int, int, str, int]]:
        """Findings named by no case fact and no lexicon term but asserted as a result or a sign:
        "the film shows target cells", "examination reveals a subtle pronator drift", "she also has
        small tophi over both elbows", and the same finding named again in a later turn after an earlier
        turn invented it. (start, end, name, start of the whole assertion, or -1 for a finding named
        again): the name is the noun phrase without its size/degree words."""
        out = []
        for m in _REPORTED_FINDING.finditer(text):
            if m.group("study") and self._case_has_study(m.group("study")):
                continue  # "the CT shows ...": the case's own CT fact owns the sentence, however it is named
            grp = next(g for g in ("np", "np2", "np3") if m.group(g))
            np_ = m.group(grp)
            if np_.split()[0].lower() in _NP_VERB:
                continue  # "he has also been taking ibuprofen", "she had admitted it": not a finding
            words = []
            for w in np_.split():  # the noun phrase ends at its first function word ("tophi over both elbows")
                if w.lower() in _NP_STOP:
                    break
                words.append(w)
            if not words or any(w.lower() in _NP_REJECT for w in words):
                continue
            head = " ".join(words)
            start = m.start(grp)
            out.append((start, start + len(head), head.lower(), m.start()))
        for m in _FINDING_ON_STUDY.finditer(text):
            if self._case_has_study(m.group("study")) or _NEGATING_WORD.search(text[max(0, m.start() - 25) : m.end()]):
                continue
            words = m.group("np").split()
            while words and words[0].lower() in _NP_STOP:  # "with the emphysema on his HRCT" -> "emphysema"
                words = words[1:]
            rest = [w for w in words if w.lower() not in _NP_STOP]
            if not words or rest != words or any(w.lower() in _NP_REJECT for w in words):
                continue
            head = " ".join(words)
            start = m.end("np") - len(head)
            out.append((start, start + len(head), head.lower(), start))
        for m in _CULTURE_RESULT.finditer(text):
            spec = (m.group("spec") or m.group("spec2") or "").lower()
            spec = _CULTURE_OF.get(spec, spec)
            if self._case_has_culture(spec) or _CULTURE_HYPOTHETICAL.search(text[max(0, m.start() - 60) : m.start()]):
                continue
            out.append((m.start(), m.end(), f"{spec} culture".strip(), m.start()))
        for m in _SEROLOGY_RESULT.finditer(text):
            org = (m.group("org") or m.group("org2")).split()[0]
            if org.lower() in _SEROLOGY_NOT_ORGANISM or self._case_tests_for(org) or _CULTURE_HYPOTHETICAL.search(
                text[max(0, m.start() - 60) : m.start()]
            ):
                continue
            out.append((m.start(), m.end(), f"{org.lower()} serology", m.start()))
        for c in self.earlier:
            if c.item.startswith("term:") and c.rule.startswith(_REPORTED_RULE) and c.hallucinated:
                name = c.item[5:]
                if name.endswith("culture"):
                    continue  # round 83: a culture named again is often ordered again; its result is found anew
                stems = [_stem(w) for w in name.split()[-2:]]  # "left pronator drift" -> "the pronator drift"
                rx = r"\b" + r"\w*[\s-]+(?:\w+[\s-]+)?".join(re.escape(st) for st in stems) + r"\w*"
                for m in re.finditer(rx, text, re.I):
                    out.append((m.start(), m.end(), name, -1))  # -1: named again (see _mentions)
        return out

    def _result_code(self, item: str, said: str) -> tuple[str, str] | None:
        """(prefix, result) of a coded test ("Pi", "MZ" of "PiMZ") when ``said`` holds a result code of fact
        ``item``. Asked of every claim on a fact: a case without coded tests (all but one) answers at once."""
        if not self._codes:
            return None
        m = next((m for m in _CODE_SHAPE.finditer(said) if m.group(1) in self._codes), None)
        if m is None or self._codes[m.group(1)][0] != item:
            return None
        return m.group(1), m.group(2)

    def _other_code(self, item: str, said: str) -> str | None:
        """Why a result code of fact ``item`` conflicts with the codes the case lists for it ("PiMZ" where the
        case says PiZZ), or None."""
        coded = self._result_code(item, said)
        if coded is None:
            return None
        prefix, code = coded
        listed = self._codes[prefix][1]
        if code in listed:
            return None
        return f"reports {said.strip()}, where the case lists {'/'.join(prefix + c for c in sorted(listed))}"

    def _case_has_study(self, study: str) -> bool:
        """Whether a test fact of the case is that kind of study (its names or statement contain the word:
        "CT head", "transvaginal ultrasound", "renal biopsy"), so a sentence naming it is about that fact."""
        key = study.lower()
        if key not in self._studies:
            rx = re.compile(r"\b(?:" + "|".join(_STUDY_KIN.get(key, (re.escape(study),))) + r")\b", re.I)
            self._studies[key] = any(
                f.category in _TEST_CATEGORIES and any(rx.search(n) for n in (*f.all_names, f.statement))
                for f in self.know.case.facts
            )
        return self._studies[key]

    def _dip_grades(self, text: str) -> list[tuple[int, int, str, str]]:
        """(start, end, item, the analyte as a report writes it) of each dipstick grade in ``text`` (round 84)."""
        out = []
        for m in _DIP_GRADE.finditer(text):
            key = m.group("an").lower()[:4].replace("leuk", "leuc")
            key = "leuc" if key == "le" else key  # round 109: "trace LE", the leukocyte esterase
            names_rx, word = _DIP_ANALYTES[key]
            if key not in self._dip_items:
                tests = [f for f in self.know.case.facts if f.category in _TEST_CATEGORIES]
                own = [f.id for f in tests if any(re.search(names_rx, n, re.I) for n in f.all_names)]
                general = [f.id for f in tests if any(_URINALYSIS_NAME.match(n.strip()) for n in f.all_names)]
                finding = f"term:{_DIP_FINDING.get(word, '')}"
                self._dip_items[key] = (
                    own[0] if len(own) == 1 else general[0] if len(general) == 1
                    else finding if finding in self.lex_kinds else f"term:urine dipstick {word}"
                )
            item = self._dip_items[key]
            f = self.know.matcher.facts.get(item)
            if f is not None and word[:5] not in f.statement.lower():
                # the fact's report words it otherwise ("no red cells" for the blood): judged by the fact's name for it
                word = next((n for n in f.all_names if re.search(names_rx, n, re.I)), word)
            out.append((m.start(), m.end(), item, word))
        return out

    @functools.cached_property
    def _test_fact_texts(self) -> tuple[str, ...]:
        """Each test fact's names and statement, lower-cased, joined: what the reported-result readers search."""
        return tuple(
            " ".join((*f.all_names, f.statement)).lower() for f in self.know.case.facts if f.category in _TEST_CATEGORIES
        )

    def _case_tests_for(self, word: str) -> bool:
        """Whether a test fact of the case names ``word`` (an organism or antigen: "HSV", "NMDA", "hepatitis",
        "endomysial") in its names or statement: the reply's result for it is that fact's claim (round 99)."""
        rx = re.compile(rf"\b{re.escape(word.lower()[:5])}")
        return any(rx.search(said) for said in self._test_fact_texts)

    def _case_has_culture(self, specimen: str) -> bool:
        """Whether a test fact of the case is a culture (of ``specimen``, when the reply names one): its names
        or statement say "culture" and the specimen. The reply's culture result is then that fact's claim."""
        return any(
            re.search(r"\bcultures?\b|\bcx\b", said) and (not specimen or specimen[:4] in said)
            for said in self._test_fact_texts
        )

    def _partial_word_mention(self, text: str, o, s: int, e: int) -> bool:
        """Whether case-fact mention ``o`` is one word inside the longer general term at [s, e)
        and is not itself a whole name or alias of its fact."""
        if not (s <= o[0] and o[1] < e and (o[1] - o[0]) < (e - s)):
            return False  # the head word (last) names the entity: "similar episodes" stays the case's episodes
        f = self.know.matcher.facts.get(o[2])
        said = text[o[0] : o[1]].lower()
        return f is not None and " " not in said.strip() and said not in {n.lower() for n in f.all_names}

    def _organ_state_mentions(self, text: str) -> list[tuple[int, int, str, str, str]]:
        """"his spleen is enlarged", "the liver was palpable": the finding named the other way
        round ("enlarged spleen" = splenomegaly), as a case fact or a general term. Returns
        (start, end, item, kind, the name the finding is judged by)."""
        out = []
        for m in _ORGAN_STATE.finditer(text):
            phrase = f"{m.group(2)} {m.group(1)}"
            if m.group(2).lower() == "palpable" and not lex_find(self.lex, phrase):
                phrase = f"enlarged {m.group(1)}"  # a palpable spleen is an enlarged one
            # only a name that covers the whole phrase ("pulse" alone is the heart rate, not this)
            hits = [h for h in fact_mentions(self.know, phrase) if h.kind == "fact" and h.start == 0 and h.end == len(phrase)]
            if hits:
                out.append((m.start(1), m.end(), hits[0].item_id, "fact", phrase))
                continue
            for _s, _e, lh in lex_find(self.lex, phrase):
                if (_s, _e) != (0, len(phrase)):
                    continue
                tid = lh[0][0]
                mapped = self._term_fact.get(tid)
                if mapped is not None:
                    out.append((m.start(1), m.end(), mapped, "fact", tid[5:]))
                else:
                    out.append((m.start(1), m.end(), tid, self.lex_kinds[tid], tid[5:]))
                break
        return out

    def _organ_mentions(self, text: str) -> list[tuple[int, int, str]]:
        """An organ word with an examination adjective names the examination fact whose alias is
        "<organ> gland/examination/swelling" ("on examination the thyroid is tender", "the tender
        gland", "tender thyroid on examination" all report the thyroid examination)."""
        out = []
        for rx, fid in self._organ_words:
            for m in rx.finditer(text):
                c0, c1 = clause_bounds(text, m.start())
                near = text[max(c0, m.start() - 25) : min(c1, m.end() + 30)]
                if _EXAM_ADJECTIVE.search(near) and not _ORGAN_TEST_AFTER.match(text[m.end() : m.end() + 25]):
                    out.append((m.start(), m.end(), fid))
        return out

    def _belongs_to_other_fact(self, text: str, s: int, e: int, item: str, hits) -> bool:
        """An alias of one fact that is also a word of another fact's statement, said in a sentence
        naming that other fact, belongs to the other fact ("the ultrasound shows preserved perfusion"
        is the ultrasound result, not the capillary refill)."""
        word = text[s:e].lower()
        if len(word) < 5:
            return False
        own = self.know.fact(item) if item in self.know.matcher.facts else None
        if own is not None and word in own.statement.lower():
            return False
        for h in hits:
            if h.kind != "fact" or h.item_id == item or h.start >= s:
                continue
            other = self.know.fact(h.item_id)
            if other.category not in _TEST_CATEGORIES:
                continue
            if re.search(rf"\b{re.escape(word)}", other.statement, re.I):
                return True
        return False

    # ---------------------------------------------------------------- main
    def extract(
        self,
        tc: TurnContext,
        segments: list[Segment],
        dx_spans: list[tuple[int, int]],
        next_id: int,
        final_sections: bool,
        asked: frozenset[int] = frozenset(),
    ) -> ExtractedTurn:
        """The claims of one reply. ``asked`` holds the start offsets of the spans the question reader read as
        requests (round 142: a short list item it reads as an order, "- F/u NS1/IgM", asserts nothing)."""
        claims: list[Claim] = []
        retractions: list[tuple[Segment, set[str]]] = []
        derived = derived_values(self.know.case, tc.released)
        after_retraction = False
        for seg in segments:
            text = seg.text
            # "Correction: I misquoted her temperature earlier; it is 37.9 °C, not 39.7 °C": the clause after
            # the semicolon is still the correction
            retracting = bool(RETRACTION_RX.search(text)) or (after_retraction and not seg.line_start)
            after_retraction = retracting and text.rstrip().endswith((";", ":"))
            if retracting:
                items = {m[2] for m in self._mentions(text)}
                items |= {f"value:{q.value:g}" for q in find_quantities(text)}
                retractions.append((seg, items))
            if seg.section in ("plan", "questions"):
                continue
            req = _request_start(seg)
            if req == 0 or (req is None and seg.bullet and seg.start in asked and len(text.split()) <= 12):
                continue
            lo = 0
            if has_final_diagnosis(text) or (
                seg.section == "diagnosis" and "final" in (seg.heading or "").lower() and seg.line_start
            ):
                sup = SUPPORT_CLAUSE_RX.search(text)
                if sup is None:
                    continue  # the bare diagnosis line asserts a diagnosis, not patient facts
                lo = sup.start()
            hi = req if req is not None else len(text)
            plan = _INLINE_PLAN.search(text, lo)
            if plan is not None and plan.start() < hi:
                hi = plan.start()  # "… Next steps: …" inside the paragraph: the rest is the plan
            all_mentions = self._mentions(text)
            quotes = [(m.start(), m.end()) for m in _QUOTED.finditer(text)]
            mentions = [m for m in all_mentions if lo <= m[0] < hi and not any(a <= m[0] < b for a, b in quotes)]
            name_spans = [(m[0], m[1]) for m in all_mentions] + list(
                (a - seg.start, b - seg.start) for a, b in dx_spans if seg.start <= a < seg.end
            )
            all_qs = sorted([*find_quantities(text), *_word_durations(text)], key=lambda q: q.start)
            qs = [
                q for q in all_qs
                if not looks_like_non_claim(text, q) and lo <= q.start < hi
                and not any(a <= q.start and q.end <= b for a, b in name_spans)  # "2-hour glucose", "type 2"
                and not _is_label_number(text, q, all_qs)  # "2-hour 9.1 mmol/L"
                and not any(a <= q.start < b for a, b in quotes)  # quoting what was said is not asserting it
            ]
            premise = bool(REASONING_RX.search(text)) or any(
                seg.start <= a < seg.end for a, _ in dx_spans
            ) or seg.section in ("evidence", "diagnosis")
            numeric_items: set[str] = set()
            time_valued: set[str] = set()
            self._gave_number = set()
            # ---- numeric claims
            attached: dict[int, tuple[str, str] | None] = {}
            quoted = _quoted_source(text, tc)
            first_new = len(claims)
            for q in qs:
                if _bare_count(text, q):
                    continue  # "4 vomits", "vomited ×4": a count of events, not a measured value
                c = self._numeric(tc, seg, q, qs, mentions, derived, premise, next_id + len(claims), attached)
                if c is not None:
                    claims.append(c)
                    f = self.know.matcher.facts.get(c.item)
                    if f is not None and f.value is None and _TIME_VALUED_FACT.search(f.name):
                        time_valued.add(c.item)  # "7 weeks of amenorrhoea": the weeks are the LMP itself
                        numeric_items.add(c.item)
                    elif f is None or f.value is not None or (
                        not _is_attribute_number(text, q) and _directly_attached(text, q, c.item, mentions)
                        and f.category != FactCategory.imaging  # "CBD 8 mm" leaves the report's findings as claims
                        and not _names_family_condition(f, text, mentions)  # "father's MI at 44": the age is a detail
                        and not self._dose_of_drug(c)  # "warfarin 4 mg daily": the drug stays a claim too
                    ):
                        numeric_items.add(c.item)  # the number is the claim about that item
            claims[first_new:] = _one_claim_per_pressure(claims[first_new:])
            # ---- a diagnosis claimed as past history ("known hepatitis B", "previous episode of X")
            for a, b, name in self._history_dx(text, lo, hi, quotes):
                c = self._history_claim(tc, seg, a, b, name, premise, next_id + len(claims))
                if c is not None:
                    claims.append(c)
            # ---- round 136: an illness given to a relative nothing released names ("His sister also had lung
            # cancer" where only the father's is released): one unsupported family-history claim, and the
            # illness's word is not the patient's finding
            kin_spans = []
            for k in self._kin_illnesses(text, lo, hi, quotes, mentions, tc):
                present = not mention_negated(text, k.start, k.end)
                claims.append(Claim(
                    id=f"c{next_id + len(claims)}", turn=tc.index, kind="factual",
                    span=Span(turn=tc.index, text=text[k.start : k.end], start=seg.start + k.start, end=seg.start + k.end),
                    item=f"term:family history of {k.item.split(':', 1)[1]}",
                    key=f"fact:family:{k.relative.lower()}:{k.item}:{'+' if present else '-'}", present=present,
                    status="unsupported", premise=premise,
                    rule=f"the released context names no {k.relative.lower()}: an invented family history",
                ))
                kin_spans.append((k.start, k.end))
            # ---- factual claims: one per sentence per item
            done: set[str] = set()
            claimed_spans: set[tuple[int, int]] = set()
            for s, e, item, kind, neg in mentions:
                if item in done or item in numeric_items or item in self._gave_number:
                    continue
                if any(a <= s < b for a, b in kin_spans):
                    continue  # round 136: the relative's illness is claimed about the relative
                if any(s2 == s and e2 == e and i2 in numeric_items for s2, e2, i2, _k2, _n2 in mentions):
                    continue  # "a fever of 39.4": the word gave its number to another fact it names
                if (s, e) in claimed_spans:
                    continue  # one word naming two facts makes one claim
                if kind == "finding" and any(
                    c.kind == "factual" and c.span.start <= seg.start + s < c.span.end for c in claims[first_new:]
                ):
                    continue  # a general word inside a case-fact claim ("the scan shows no intrauterine pregnancy")
                if kind == "finding" and item in _PERITONEAL_SIGNS and not neg:
                    tender = next((
                        c for c in reversed(claims[first_new:]) if c.kind == "factual" and "tender" in c.span.text.lower()
                        and 0 <= seg.start + s - c.span.end <= 12
                        and _SIGN_JOIN.fullmatch(text[c.span.end - seg.start : s])
                    ), None)
                    if tender is not None:
                        # round 107: "epigastric tenderness with guarding": one finding of the abdomen, one claim
                        tender.span = Span(
                            turn=tc.index, text=text[tender.span.start - seg.start : e], start=tender.span.start,
                            end=seg.start + e,
                        )
                        continue
                fam_condition = _names_family_condition(self.know.matcher.facts.get(item), text, mentions)
                if not fam_condition and any(
                    c.kind == "numeric" and not self._dose_of_drug(c) and (
                        getattr(self.know.matcher.facts.get(c.item), "value", None) is not None
                        or c.item in time_valued or (
                            normalize_unit(c.unit) not in TIME_UNITS
                            and not TIME_UNIT_AFTER_RX.match(text[c.span.end - seg.start : c.span.end - seg.start + 20])
                        )
                    )
                    and 0 <= c.span.start - seg.start - e <= 16 and _NUMBER_LINK.fullmatch(
                        text[e : c.span.start - seg.start]
                    )
                    for c in claims[first_new:]
                ):
                    continue  # "febrile at 38.1 °C", "tachycardic at 104": the number is the claim
                if kind == "analyte" and any(
                    c.kind == "numeric" and 0 <= c.span.start - seg.start - e <= 24
                    and _ANALYTE_VALUE_LINK.fullmatch(text[e : c.span.start - seg.start])
                    for c in claims[first_new:]
                ):
                    continue  # round 74: "the white count is 9.8", "white count normal at 10.8": the number is the claim
                if any(
                    c.kind == "numeric" and c.item == item and 0 <= seg.start + s - c.span.end <= 16
                    and normalize_unit(c.unit) not in TIME_UNITS  # "4/7 jaundice": how long, beside the finding
                    and (not text[c.span.end - seg.start : s].strip(" -")
                         or _UNITS_OF.fullmatch(text[c.span.end - seg.start : s]))
                    for c in claims[first_new:]
                ):
                    # "15 pack-years", "2.4 kg weight loss", "~6 u/wk EtOH", "20 units of alcohol" (round 60): the
                    # number and the noun after it are one claim
                    continue
                same = [i2 for s2, e2, i2, _k2, _n2 in mentions if s2 == s and e2 == e and i2 != item]
                if same and getattr(self.know.matcher.facts.get(item), "value", None) is not None and any(
                    getattr(self.know.matcher.facts.get(i2), "value", 1) is None for i2 in same
                ):
                    continue  # without a number, "fever" is the symptom, not the measured temperature
                f = self.know.matcher.facts.get(item)
                crossing = f is None or f.category != FactCategory.family
                if any(
                    a <= seg.start + s < b or (crossing and seg.start + s < a < seg.start + e < b) for a, b in dx_spans
                ) and not (
                    neg and item in self.know.matcher.facts and _DIRECT_NEGATION.search(text[max(0, s - 25) : s])
                ) and not (
                    # round 142: a sign the case examines that also names a differential, stated as found
                    # ("Exam: lipohypertrophy at abdominal injection sites" where the sites show none)
                    f is not None and f.category == FactCategory.exam
                    and (_EXAM_LABEL_BEFORE.search(text[:s]) or _SITE_AFTER.match(text[e : e + 40]))
                ):
                    # a diagnosis name, or a mention running into one ("*Plasmodium falciparum* malaria"; a
                    # relative's disease, "mother's autoimmune hypothyroidism", stays family history); but "no
                    # clinical dehydration" denies a finding
                    continue
                if _FAMILY_OF.search(text[max(0, s - 40) : s]) and (f is None or f.category != FactCategory.family):
                    continue  # "family history of type 2 diabetes" is about the relatives
                if kind == "finding" and _TERM_AS_ADJECTIVE.match(text[e : e + 20]):
                    continue  # "the diabetic range"
                if _RELATED_AFTER.match(text[e : e + 12]):
                    continue  # "smoking-related COPD", "not ordinary smoking-related disease"
                if (
                    not neg and f is not None and self._shortened_dx(text[s:e])
                    and text[s:e].lower() not in {n.lower() for n in f.all_names}
                ):
                    # round 127: "Less likely: a structural lesion" shortens the case's "new structural brain
                    # lesion": a diagnosis under discussion, not the MRI's "no structural lesion" that gave the
                    # words a fact
                    continue
                if _attributed(text[max(0, s - 60) : s]) or _REPORTED_AFTER.match(text[e : e + 60]):
                    continue  # attributed to a letter, report or third party, not asserted by the agent
                if self._finding_of_other_test(text, s, e, item, mentions):
                    continue  # "1.5 mm ST elevation in V4R" is the V4R result, not another ECG claim
                dx_local = [(a - seg.start, b - seg.start) for a, b in dx_spans if seg.start <= a < seg.end]
                c = self._factual(tc, seg, s, e, item, kind, neg, premise, next_id + len(claims), dx_local)
                if c is not None:
                    done.add(item)
                    claimed_spans.add((s, e))
                    claims.append(c)
                    # the claim covers every mention of the same item in its stretch of the sentence
                    # ("Ultrasound: target sign, preserved Doppler flow")
                    for s2, e2, item2, k2, n2 in mentions:
                        if item2 == item and s2 > e and s2 - c.span.end + seg.start <= 60 and not re.search(
                            r"[.;]", text[c.span.end - seg.start : s2]
                        ) and not any(i3 != item and e < s3 < e2 + 12 for s3, _e3, i3, _k3, _n3 in mentions):
                            c.span = Span(turn=tc.index, text=text[s:e2], start=seg.start + s, end=seg.start + e2)
                            if c.status == "supported" and not neg and (
                                self._judges_merged(f, item, text, s, s2, e2)
                                or (n2 and _denies_exam_finding(f, text[max(0, s2 - 25) : s2]))
                            ):
                                c2 = self._factual(tc, seg, s2, e2, item, k2, n2, premise, c.id, dx_local)
                                if c2 is not None and c2.status == "contradicted":
                                    c.status, c.rule = c2.status, c2.rule
            new = claims[first_new:]
            claims[first_new:] = [c for c in new if not self._term_in_fact_claim(c, new)]
            if retracting:
                # a correction withdraws the wrong value and states the right one ("I wrote 20 pack-years
                # earlier, but it is 40 pack-years"): only what the context supports is asserted
                claims[first_new:] = [c for c in claims[first_new:] if c.status == "supported"]
            if _flags_conflict(seg):
                # "Conflicting report: outside anti-dsDNA negative", "the pharmacy record of dexamethasone is
                # at odds with his history": the injected statement named to flag it, not asserted
                claims[first_new:] = [c for c in claims[first_new:] if c.status != "restated_contradiction"]
            for c in claims[first_new:]:
                # a sentence (or the words around the claim) copied from released text is what was given
                copied = quoted or _quoted_source(_window(text, c.span.start - seg.start, c.span.end - seg.start), tc)
                # a sentence copied verbatim from the released context is what was given, even when it
                # shares a word with the injected statement ("never had regular headaches")
                if copied is not None and c.status != copied[0] and (
                    c.status != "restated_contradiction" or (quoted is not None and quoted[0] == "supported")
                ):
                    c.status, c.rule = copied  # type: ignore[assignment]
        for i, c in enumerate(claims):
            # ids follow the kept claims: a claim dropped after it was numbered (a general term inside a case fact's
            # claim, round 142; a retraction's wrong value) must not leave its number to the next one
            c.id = f"c{next_id + i}"
        return ExtractedTurn(claims, retractions)

    def _history_dx(self, text: str, lo: int, hi: int, quotes) -> list[tuple[int, int, str]]:
        out = []
        for a, b, hits in self.know.dx_lexicon.find(text):
            if not (lo <= a < hi) or any(qa <= a < qb for qa, qb in quotes):
                continue
            if _FAMILY_OF.search(text[max(0, a - 50) : a]):
                continue  # "family history of X" is about the relatives
            possessive = _POSSESSIVE_HISTORY.search(text[max(0, a - 20) : a]) and hits[0][0] != self.know.gold
            if possessive and _CAUSE_OF.search(text[max(0, a - 40) : a]):
                continue  # "the most likely cause of her thyrotoxicosis": the problem being explained
            if (_HISTORY_BEFORE.search(text[max(0, a - 40) : a]) or possessive) and not re.match(
                r"(?:undiagnosed|unrecognised|unrecognized|new)\b", text[a:b], re.I
            ):
                if any(m[0] < b and a < m[1] for m in self._mentions(text)):
                    continue  # a case fact covers it (e.g. "no history of previous diabetes")
                out.append((a, b, hits[0][0]))
        return out

    def _kin_illnesses(
        self, text: str, lo: int, hi: int, quotes: list[tuple[int, int]],
        mentions: list[tuple[int, int, str, str, bool]], tc: TurnContext,
    ) -> list[KinIllness]:
        """Illnesses given to relatives the released context never names (:mod:`claim_relatives`): a general
        clinical term or a diagnosis of the lexicon after "sister also had", "mother with"."""
        if not names_kin_illness(text, lo, hi):
            return []
        ill = [(s, e, item) for s, e, item, kind, _neg in mentions if kind == "finding" and item.startswith("term:")]
        ill += [(a, b, f"dx:{hits[0][0]}") for a, b, hits in self.know.dx_lexicon.find(text)]
        return [
            k for k in unnamed_kin_illnesses(text, lo, hi, tc.context_text, ill)
            if not any(qa <= k.start < qb for qa, qb in quotes)
        ]

    def _history_claim(self, tc, seg, a, b, name, premise, nid) -> Claim | None:
        text = seg.text
        if _blocked(text, a, b, False) is not None:
            return None
        present = not mention_negated(text, a, b)
        dx = self.know.diagnoses[name]
        ctx = tc.context_text
        found = None
        for alias in dx.all_names:
            for m in re.finditer(rf"\b{re.escape(alias)}\b", ctx, re.I):
                if not _HISTORY_BEFORE.search(ctx[max(0, m.start() - 40) : m.start()]):
                    continue  # only a stated history supports a history claim
                pol = not mention_negated(ctx, m.start(), m.end())
                found = pol if found is None else (found or pol)
        if found is None:
            status, rule = "unsupported", f"the context never gives a history of {name}"
        elif found == present:
            status, rule = "supported", f"the context states a history of {name}"
        else:
            status, rule = "contradicted", f"the context states the opposite about {name}"
        for tmpl, t_turn in tc.injected:
            if t_turn <= tc.index and any(
                re.search(rf"\b{re.escape(n)}\b", tmpl.statement, re.I) for n in dx.all_names
            ):
                status, rule = "restated_contradiction", f"repeats the injected statement of {tmpl.id}"
        return Claim(
            id=f"c{nid}", turn=tc.index, kind="factual",
            span=Span(turn=tc.index, text=text[a:b], start=seg.start + a, end=seg.start + b),
            item=f"term:history of {name}", key=f"fact:history:{name}:{'+' if present else '-'}",
            present=present, status=status, premise=premise, rule=rule,  # type: ignore[arg-type]
        )

    def _unit_ok(self, item: str, q: Quantity) -> bool:
        f = self.know.matcher.facts.get(item)
        if f is None or q.unit is None:
            return True
        if q.unit in TIME_UNITS:
            return True  # durations are handled separately
        if f.value is None:
            # a fact without a value takes a number only in a unit its statement uses ("CBD 8 mm" in
            # the ultrasound report), never a temperature or a lab unit it does not mention
            if normalize_unit(q.unit) in _VITAL_UNITS:
                units = {normalize_unit(x.unit) for x in find_quantities(f.statement) if x.unit}
                return normalize_unit(q.unit) in units
            return True
        if f.unit and _PER_DAY_UNIT.search(f.unit) and _BARE_AMOUNT.search(q.text):
            return True  # round 91: a daily excretion written as its amount ("24-hour urine calcium 9.2 mmol")
        return unit_compatible(q.unit, f)

    def _unit_owner(self, q: Quantity) -> tuple[str, str] | None:
        """The one case fact measured in a vital-sign unit (°C, °F, mmHg, /min) a number carries."""
        u = normalize_unit(q.unit)
        if u not in _VITAL_UNITS:
            return None
        owners = [f.id for f in self.know.case.facts if f.value is not None and f.unit and unit_compatible(q.unit, f)
                  and normalize_unit(f.unit) in _VITAL_UNITS]
        return (owners[0], "fact") if len(owners) == 1 else None

    def _shortened_dx(self, phrase: str) -> bool:
        """Whether ``phrase`` is a case diagnosis name with words left out: two or more words, all inside one
        name, ending on that name's head noun ("structural lesion" of "new structural brain lesion"; not
        "combined pill" of "lamotrigine and combined pill interaction", which keeps no head)."""
        words = re.findall(r"[a-z][a-z-]+", phrase.lower())
        if len(words) < 2 or _contained_dx(phrase, self.know.dx_names) is None:
            return False
        return any(nw and nw[-1] == words[-1] and set(words) <= set(nw) for nw in self._dx_name_words)

    def _temperature_owner(self) -> tuple[str, str]:
        """What a temperature reading is a claim on: the case's one measured temperature, else its
        one fact about fever, else the general term."""
        if len(self._temp_facts) == 1:
            return self._temp_facts[0], "fact"
        if self._fever_fact:
            return self._fever_fact, "fact"
        return "term:temperature", "analyte"

    def _finding_of_other_test(self, text: str, s: int, e: int, item: str, mentions) -> bool:
        if not FINDING_RX.search(text[s:e]):
            return False
        c0, c1 = clause_bounds(text, s)
        for s2, e2, item2, _k, _n in mentions:
            f2 = self.know.matcher.facts.get(item2)
            if item2 == item or f2 is None or f2.category not in _TEST_CATEGORIES or not (c0 <= s2 < c1):
                continue
            if s2 > e and re.fullmatch(r"\s+(?:in|on|of)\s+(?:the\s+)?(?:lead\s+)?", text[e:s2]):
                return True
            if s2 < s and re.search(r"\b(?:shows?|showed|with|has)\b", text[e2:s]) and len(text[e2:s]) < 40:
                return True
        return False

    # ---------------------------------------------------------------- numeric
    def _numeric(self, tc, seg, q, qs, mentions, derived, premise, nid, attached=None) -> Claim | None:
        text = seg.text
        pre = text[max(0, q.start - 30) : q.start]
        if REFERENCE_CTX_RX.search(pre) and not THRESHOLD_ABOVE_RX.search(pre[-12:]):
            return None
        if re.search(r"[<>≤≥]\s*$", pre) and re.search(r"\b(?:normal|ref|ULN|target|aim)\b", pre, re.I):
            return None
        if _THRESHOLD_AFTER.match(text[q.end : q.end + 40]) and not FOLD_AFTER_RX.match(text[q.end : q.end + 25]):
            return None  # "under the 185/110 lysis threshold", "a 7 g/dL transfusion trigger": a threshold
        if (THRESHOLD_ABOVE_RX.search(pre[-14:]) or THRESHOLD_BELOW_RX.search(pre[-14:])) and _CRITERION.search(text):
            return None  # "a parasitaemia above 10% meets the WHO criterion": a definition, not a value
        ment = [(s, e, item, kind) for s, e, item, kind, _n in mentions if kind != "finding"]
        # a word naming two facts ("fever": the temperature and the rigors history) gives a number to
        # the one that holds a value
        ment.sort(key=lambda m: (m[0], m[1], 0 if getattr(self.know.matcher.facts.get(m[2]), "value", None) is not None else 1))
        att = _attach(text, q, qs, ment, attached, self._unit_ok)
        age_sex = q.value <= 110 and bool(_AGE_SEX.match(text[q.start : q.end + 3]))
        if _AGE_AFTER.match(text[q.end : q.end + 15]) or _AGE_BEFORE.search(text[max(0, q.start - 8) : q.start]) or age_sex:
            att = None  # the patient's age, checked against the context like any unattached number
        if att is not None and normalize_unit(q.unit or "") in TIME_UNITS:
            f_att = self.know.matcher.facts.get(att[0])
            if f_att is not None and f_att.value is not None and normalize_unit(f_att.unit or "") not in TIME_UNITS:
                att = None  # "six years of stable INRs": how long, never the INR itself
        if att is not None and _DURATION_AFTER.match(text[q.end : q.end + 15]):
            f_att = self.know.matcher.facts.get(att[0])
            if f_att is not None and f_att.value is not None and normalize_unit(f_att.unit) not in ("h", "d", "wk", "y"):
                att = None  # "18 months ago" is a time, not the glucose value
        if att is None and q.unit is not None:
            att = self._unit_owner(q)  # "afebrile at 36.9 °C": only the temperature is measured in °C
        if q.unit is None and _T_SHORTHAND.search(pre[-10:]) and _celsius(q) is not None:
            att = self._temperature_owner()  # "T 38.1", "Tmax 38.9": a note's shorthand for temperature
        if _GESTATION_AFTER.match(text[q.end : q.end + 40]) and (
            normalize_unit(q.unit) in ("wk", "d") or TIME_UNIT_AFTER_RX.match(text[q.end : q.end + 20])
        ):
            # "about 5 weeks pregnant by dates", "7 weeks' gestation": the case's time-valued fact
            owners = [f.id for f in self.know.case.facts if f.value is None and _TIME_VALUED_FACT.search(f.name)]
            if len(owners) == 1:
                att = (owners[0], "fact")
        if att is None and attached and FOLD_AFTER_RX.match(text[q.end : q.end + 25]):
            # "lipase 2840 U/L, roughly 47× the upper limit": the multiple belongs to the value before it
            prior = [o for o in qs if o.end <= q.start and q.start - o.end <= 30]
            if prior and attached.get(prior[-1].start):
                att = attached[prior[-1].start]
        if attached:
            prior = [o for o in qs if o.end <= q.start]
            if prior and re.fullmatch(r"\s*(?:to|-|–)\s*", text[prior[-1].end : q.start]) and attached.get(prior[-1].start):
                # round 98: "eGFR down from 79 to 68", "creatinine from 78 to 168 µmol/L after ramipril": a change
                # ends on the item it started from (find_quantities splits only a change, never a range, so)
                att = attached[prior[-1].start]
        if att is not None:
            att = self._serial_sibling(tc, att, q)
        if self._fever_fact and _celsius(q) is not None and (
            normalize_unit(q.unit) in ("°c", "°f") or (att is not None and att[0] in (*_TEMPERATURE_TERMS, self._fever_fact))
        ):
            att = (self._fever_fact, "fact")  # "temperature 38.1 °C" where the case only says "no fever"
        if att is None:
            att = self._earlier_invention(tc, text, q)  # "the 42 we had", "2 cm right thyroid nodule"
        if att is None and q.unit is None:
            att = self._statement_label_owner(text, q)  # "RV/LV 0.8": the label the CTPA report gives its number
        if attached is not None:
            attached[q.start] = att
        after = text[q.end : q.end + 25]
        if (
            att is None
            and q.unit is None
            and not age_sex
            and not TIME_UNIT_AFTER_RX.match(text[q.end : q.end + 20])
            and not any(rx.search(text) for rx in DERIVED_CONCEPTS.values())
        ):
            return None
        # a pressure pair ("below 130/80", "the 185/110 lysis threshold") is read as one value, from where it
        # starts to where it ends, for either of its numbers (round 57)
        pair = next((m for m in PRESSURE_PAIR.finditer(text) if m.start() <= q.start < m.end()), None)
        at, pair_end = (pair.start(), max(q.end, pair.end())) if pair else (q.start, q.end)
        why = _blocked(text, at, pair_end, True, numeric=True) or _hedged_reading(text, q, qs)
        if why is not None:
            return None
        np_before = text[max(0, q.start - 60) : q.start]
        if _OUTSIDE_SOURCE.search(np_before) or _attributed(np_before):
            return None  # "the outside platelet count of 62", "the addendum of 1100": attributed, not asserted
        span = Span(turn=tc.index, text=q.text, start=seg.start + q.start, end=seg.start + q.end)
        item, kind = att if att else ("number", "number")
        status, rule, key_value = self._check_number(tc, text, q, item, pre, after, derived)
        if status == "unsupported" and item in self._analyte_fact:
            item = self._analyte_fact[item]
            status, rule, key_value = self._check_number(tc, text, q, item, pre, after, derived)
        elif status == "supported" and item in self._analyte_fact:
            # "trop 1840", "bili 142": a value matching the case's own fact is a claim on that fact, so the
            # final evidence cites it (CHO) and a later misquote of it is tracked on the same item
            as_fact = self._check_number(tc, text, q, self._analyte_fact[item], pre, after, derived)
            if as_fact[0] == "supported":
                item = self._analyte_fact[item]
                status, rule, key_value = as_fact
        if (
            status in ("unsupported", "contradicted") and q.unit is not None and normalize_unit(q.unit) in _DOSE_UNITS
            and not _TAKING_BEFORE.search(text[max(0, q.start - 45) : q.start])
            and seg.section != "evidence" and (
                (status == "unsupported" and not self._states_a_dose(item))
                or _DOSE_ORDERED.search(text[max(0, q.start - 40) : q.start])  # "IV furosemide 80 mg bd"
            )
        ):
            return None  # "Propranolol 40 mg tds", "Aspirin 300 mg now": a prescription, not a patient fact
        if (
            status == "unsupported" and q.unit is None and self._is_drug(item) and seg.section != "evidence"
            and not _TAKING_BEFORE.search(text[max(0, q.start - 45) : q.start])
            and re.search(r"[A-Za-z][\w/-]{2,}\s*$", text[max(0, q.start - 30) : q.start])
            and (_PRESCRIBING.search(_sub_sentence(text, q.start)) or _PLAN_LABEL.match(text))
        ):
            return None  # "IV furosemide 80 bid", "P: aspirin 300, ticagrelor 180": a dose without its unit
        if status in ("unsupported", "contradicted") and (pct := _stated_change(text, q, qs, tc.context_numbers)):
            status, rule = "supported", pct  # "1.8 from 5.9 mg/L, roughly a 70% drop": derived, not invented
        if status == "unsupported" and (_scheduled(text, q) or _dose_course(text, q)):
            return None  # "an angiogram within 24 hours", "repeat the level in 1–3 months": the plan's timing
        if seg.section != "evidence" and (item == "number" or item.startswith("term:")) and _plan_quantity(text, q):
            return None  # "IV fluids 1 L over 4 hours", "Running IVF 250 mL/h": the treatment ordered
        if status == "unsupported" and q.text[:1] in "x×" and (
            item == "number" or _DOSING_BEFORE.search(re.split(r"[\n;]", text[: q.start])[-1])
        ):
            return None  # round 60d: "Nitrofurantoin x5d", "Prednisone 30 mg daily x5d": the course ordered
        key = f"num:{item}:{key_value}"
        return Claim(
            id=f"c{nid}",
            turn=tc.index,
            kind="numeric",
            span=span,
            item=item,
            key=key,
            value=q.value,
            unit=q.unit,
            status=status,  # type: ignore[arg-type]
            premise=premise,
            rule=rule,
        )

    def _statement_label_owner(self, text: str, q: Quantity) -> tuple[str, str] | None:
        """The one case fact whose statement writes the word right before a bare number in front of a number
        of its own ("RV/LV 0.8" and "the RV/LV diameter ratio is 0.8", "Synacthen peak 620" and "a peak cortisol
        of 620"): a measure the report names that no fact name carries. None for the common words that
        statements write before thresholds, types and times."""
        lo = max(0, q.start - 30)
        m = _LABEL_BEFORE.search(text[lo : q.start])
        if m is None or (lo + m.start(1) > 0 and re.match(r"[\w/]", text[lo + m.start(1) - 1])):
            return None  # no word, or the window cut one ("...ssure 134" is not a label "ssure")
        if m.group(1).lower() in _NOT_A_LABEL or re.match(r"\s*(?::\d|or\s+(?:above|more|over|less|below))", text[q.end :]):
            return None  # a word before thresholds and times ("fasting 5.6 or above", "well 08:30"), not a label
        label = re.escape(m.group(1))
        owners = {
            f.id for f in self.know.case.facts
            if re.search(rf"(?<![\w/]){label}(?![\w/])[^.;\d]{{0,25}}\d", f.statement, re.I)
        }
        return (owners.pop(), "fact") if len(owners) == 1 else None

    def _states_a_dose(self, item: str) -> bool:
        """Whether case fact ``item`` gives a dose ("ibuprofen 400 mg three times daily"): a
        different dose of it is a misquote, not a prescription."""
        f = self.know.matcher.facts.get(item)
        return f is not None and any(
            q.unit is not None and normalize_unit(q.unit) in _DOSE_UNITS for q in find_quantities(f.statement)
        )

    def _earlier_invention(self, tc: TurnContext, text: str, q: Quantity) -> tuple[str, str] | None:
        """The item of an unsupported or misquoted value the agent asserted in an earlier turn, when
        a number this turn names no item of its own but restates that value: "the 42 we had" after
        "The ESR is 42", "2 cm right thyroid nodule" after "a palpable 2 cm nodule". Following the
        same invented value keeps one hallucination track across turns."""
        if q.unit is not None and normalize_unit(q.unit) in _DOSE_UNITS:
            return None
        if _DENIED_VALUE.search(text[max(0, q.start - 25) : q.start]):
            return None  # "about 7 weeks, not 5": the corrected value is denied, not asserted
        for c in reversed(self.earlier):
            if c.turn >= tc.index or c.kind != "numeric" or not c.hallucinated or c.item == "number":
                continue
            if c.value is None or abs(c.value - q.value) > 1e-9:
                continue
            if q.unit is not None and c.unit is not None and normalize_unit(q.unit) != normalize_unit(c.unit):
                continue
            return c.item, "fact" if c.item in self.know.matcher.facts else "analyte"
        return None

    def _serial_sibling(self, tc: TurnContext, att: tuple[str, str], q: Quantity) -> tuple[str, str]:
        """Serial measurements of one analyte ("potassium" and "repeat potassium", "Hb" and
        "repeat Hb"): a value quoted under the plain name that is not the named fact's value but
        is exactly the released value of a sibling measurement is that sibling ("the gas potassium
        is 6.3" when the first potassium was 6.4 and the repeat 6.3)."""
        f = self.know.matcher.facts.get(att[0])
        if f is None or f.value is None:
            return att
        unit = q.unit or f.unit
        if same_value(q.value, unit, f.value, f.unit):
            return att
        head = _name_head(f.name)
        for g in self.know.case.facts:
            if g.id == f.id or g.value is None or g.id not in tc.released:
                continue
            if normalize_unit(g.unit) != normalize_unit(f.unit) or _name_head(g.name) != head:
                continue
            if same_value(q.value, unit, g.value, g.unit):
                self._gave_number.add(f.id)  # the plain name is not a separate claim
                return g.id, att[1]
        return att

    def _rate(self, tc: TurnContext, text: str, q: Quantity) -> tuple[str, str, str] | None:
        """A rate the agent computes ("about 2 kg a month" from "6 kg over three months", "1 kg per
        week") is derived: supported when one sentence of the released context gives an amount in
        the same unit and a duration whose ratio rounds to it (within 15 %)."""
        m = _RATE_AFTER.match(text[q.end : q.end + 20])
        if m is None or q.unit is None or normalize_unit(q.unit) in TIME_UNITS:
            return None
        per = _PERIOD_DAYS[m.group(1).lower()]
        unit = normalize_unit(q.unit)
        for sent in re.split(r"(?<=[.!?])\s+|\n", tc.context_text):
            amounts = [x for x in find_quantities(sent) if normalize_unit(x.unit) == unit]
            spans = [*find_quantities(sent), *_word_durations(sent)]
            durations = [(x, _UNIT_DAYS.get(normalize_unit(x.unit) or x.text.split()[-1].lower().rstrip("s"))) for x in spans]
            for a in amounts:
                for d, scale in durations:
                    if scale is None:
                        continue
                    days = d.value * scale
                    if days > 0 and abs(a.value / days * per - q.value) <= 0.15 * q.value:
                        return ("supported", f"derived rate: {a.text} over {d.text}", f"rate{q.value:g}")
        return None

    def _per_kg(self, tc: TurnContext, q: Quantity) -> tuple[str, str, str] | None:
        """A weight-indexed value ("FVC 41 mL/kg") is derived: supported when a released volume or
        mass divided by a weight stated in the context gives it (within 5%)."""
        unit = normalize_unit(q.unit)
        if unit not in ("ml/kg", "mg/kg"):
            return None
        ctx_qs = find_quantities(tc.context_text)
        weights = [c.value for c in ctx_qs if c.unit == "kg" and c.value > 0]
        scale = {"ml/kg": {"l": 1000.0, "ml": 1.0}, "mg/kg": {"g": 1000.0, "mg": 1.0}}[unit]
        amounts = [c.value * scale[c.unit] for c in ctx_qs if c.unit in scale]
        amounts += [
            f.value * scale[normalize_unit(f.unit)]  # type: ignore[operator]
            for f in (self.know.fact(fid) for fid in tc.released)
            if f.value is not None and normalize_unit(f.unit) in scale
        ]
        for w in weights:
            for a in amounts:
                if abs(a / w - q.value) <= 0.05 * max(q.value, 1.0):
                    return ("supported", f"derived: {a:g} / {w:g} kg = {a / w:.1f} {q.unit}", f"perkg{q.value:g}")
        return ("unsupported", f"{q.text} cannot be derived from released values and weight", f"perkg{q.value:g}")

    def _released_sibling_stating(self, tc: TurnContext, f: Fact, q: Quantity, text: str) -> Fact | None:
        """A released fact other than ``f`` whose value ``q`` states, when its name shares at least two content
        words with ``f``'s ("synovial fluid white cell count" beside "white blood cell count") and the sentence
        names what sets it apart ("synovial", or "aspirate" for a fluid), else None. Without that cue the
        value stays a misquote of ``f`` ("WBC 18,500." is the blood count, round 48)."""
        words = set(_NAME_WORD.findall(f.name.lower())) - _GENERIC_NAME_WORDS
        said = set(_NAME_WORD.findall(text.lower()))
        for fid in tc.released:
            g = self.know.fact(fid)
            g_words = set(_NAME_WORD.findall(g.name.lower()))
            cues = (g_words - words - _GENERIC_NAME_WORDS) | (_FLUID_CUES if "fluid" in g_words else set())
            if (
                fid != f.id and g.value is not None and len(words & g_words) >= 2 and said & cues
                and self.know.matcher.states_value(q, fid)
            ):
                return g
        return None

    def _check_number(self, tc: TurnContext, text, q: Quantity, item, pre, after, derived):
        know = self.know
        per_kg = self._per_kg(tc, q)
        if per_kg is not None:
            return per_kg
        rate = self._rate(tc, text, q)
        if rate is not None:
            return rate
        for tmpl, t_turn in tc.injected:
            # a number of the injected statement repeated with its item ("diarrhoea for 3 days" after
            # "profuse watery diarrhoea for three days") restates what was given
            if t_turn <= tc.index and tmpl.value is None and any(
                abs(q.value - v) < 1e-9 for v in numbers_in(tmpl.statement)
            ) and (item == tmpl.fact_id or any(re.search(rf"\b{re.escape(n)}", text, re.I) for n in [tmpl.item, *tmpl.aliases])):
                # round 112: or said of the injected fact by another of its names ("on dex 4 mg" after a pharmacy
                # record of dexamethasone 4 mg daily)
                return ("restated_contradiction", f"repeats a number of the injected statement of {tmpl.id}",
                        f"{tmpl.fact_id}:{q.value:g}")
            f_t = know.matcher.facts.get(tmpl.fact_id)
            if (
                t_turn <= tc.index and tmpl.value is not None and item == tmpl.fact_id and f_t is not None
                and f_t.value is not None and abs(q.value - f_t.value) > 1e-9
                and any(abs(q.value - v) < 1e-9 for v in numbers_in(tmpl.statement))
            ):
                # "102 in the left arm versus 150 in the right": the other number of the injected
                # statement, said of its item, restates that statement too
                return ("restated_contradiction", f"repeats a number of the injected statement of {tmpl.id}",
                        f"{tmpl.fact_id}:{q.value:g}")
        concept = None
        for name, rx in DERIVED_CONCEPTS.items():
            for m in rx.finditer(text):
                gap = text[m.end() : q.start]
                if m.end() <= q.start and len(gap) <= 30 and not find_quantities(gap):
                    concept = name
        if concept is None and item == "number" and not any(
            abs(q.value - v) <= 0.011 * max(1.0, abs(v)) for v in tc.context_numbers
        ):
            # a number of the sentence that names a derived value ("AG 26", "a ratio of 1.2") is that value,
            # unless the context states the number itself ("respirations at 28" beside the anion gap)
            concept = next((n for n, rx in DERIVED_CONCEPTS.items() if rx.search(text)), None)
        if concept and item in know.matcher.facts and f_states(know, tc, item, q):
            concept = None  # the released statement itself gives the number ("anion gap of 26")
        if concept:
            if concept in derived:
                val = derived[concept]
                ok = abs(q.value - val) <= max(0.1 * abs(val), 0.15)
                return (
                    ("supported", f"derived {concept} = {val:.2f} from released facts", f"{concept}")
                    if ok
                    else ("unsupported", f"{concept} stated as {q.value:g}, released facts give {val:.2f}",
                          f"{concept}:{q.value:g}")
                )
            return ("unsupported", f"{concept} cannot be derived from the facts released by turn {tc.index}",
                    f"{concept}:{q.value:g}")
        if item in know.matcher.facts and item == self._fever_fact and item in tc.released:
            f = know.fact(item)
            c = _celsius(q)
            if c is not None:
                febrile = c >= 37.8
                ok = febrile != bool(f.negated)
                why = f"a temperature of {c:.1f} °C is {'a fever' if febrile else 'no fever'}; the case: {f.statement}"
                return ("supported" if ok else "contradicted", why, f"{q.value:g}")
        if item in know.matcher.facts:
            f = know.fact(item)
            conv = value_in_fact_unit(q.value, q.unit, f)
            key_value = f"{conv:.4g}" if conv is not None else f"{q.value:g}{q.unit or ''}"
            for tmpl, t_turn in tc.injected:
                if tmpl.fact_id == f.id and tmpl.value is not None and t_turn <= tc.index and same_value(
                    q.value, q.unit, tmpl.value, tmpl.unit, analyte=f.name
                ):
                    return ("restated_contradiction",
                            f"repeats the injected value {tmpl.value:g} of contradiction {tmpl.id}", key_value)
            if f.id not in tc.released:
                if f.value is None and _is_attribute_number(text, q) and q.unit not in ("mg", "g", "µg") and any(
                    abs(q.value - v) <= 0.011 * max(1.0, abs(v)) for v in tc.context_numbers
                ):
                    # a duration attached to a withheld finding ("weakness over one week") restates the
                    # timeline the user gave, not the withheld result
                    return ("supported", f"{q.text}: a duration stated in the released context", key_value)
                if f.value is None and q.unit not in (None, "mg", "g", "µg") and self._released_quantity(tc, q):
                    # "a distended bladder (~1450 mL)": the volume is quoted from a released report
                    return ("supported", f"{q.text} is stated in a released fact", key_value)
                if _is_duration(q, after) and normalize_unit(f.unit or "") not in TIME_UNITS and (
                    self._context_time(tc, f, q, after)
                ):
                    # round 122: "a normal fasting glucose eighteen months ago": when, beside a withheld result, is
                    # quoted from a released history; a measured value is never a time
                    return ("supported", f"{q.text}: a time stated in the released context", key_value)
                return ("unsupported", f"{f.name} was not released by turn {tc.index}", key_value)
            if FOLD_AFTER_RX.match(after):
                fold = fold_of_uln(f)
                if fold is not None and abs(q.value - fold) <= max(0.12 * fold, 0.3):
                    return ("supported", f"{q.value:g}x the upper limit of {f.name} (= {fold:.1f})", f"fold{fold:.2f}")
                if fold is not None and THRESHOLD_ABOVE_RX.search(pre[-15:]):
                    # "more than 10x the upper limit" for a value 18.6x it: a bound, checked as one
                    return (("supported", f"{f.name} is {fold:.1f}x the upper limit, above {q.value:g}x", f"gtfold{q.value:g}")
                            if fold > q.value else
                            ("contradicted", f"{f.name} is {fold:.1f}x the upper limit, not above {q.value:g}x",
                             f"gtfold{q.value:g}"))
                if fold is not None and THRESHOLD_BELOW_RX.search(pre[-12:]):
                    return (("supported", f"{f.name} is {fold:.1f}x the upper limit, below {q.value:g}x", f"ltfold{q.value:g}")
                            if fold < q.value else
                            ("contradicted", f"{f.name} is {fold:.1f}x the upper limit, not below {q.value:g}x",
                             f"ltfold{q.value:g}"))
                return ("contradicted", f"{f.name} is {fold:.1f}x the upper limit, not {q.value:g}x"
                        if fold else f"no upper limit for {f.name}", f"fold{q.value:g}")
            if f.value is not None and conv is not None:
                if THRESHOLD_ABOVE_RX.search(pre[-15:]):
                    return (("supported", f"{f.name} {f.value:g} is above {q.value:g}", f"gt{conv:.4g}")
                            if f.value > conv else
                            ("contradicted", f"{f.name} {f.value:g} is not above {q.value:g}", f"gt{conv:.4g}"))
                if THRESHOLD_BELOW_RX.search(pre[-12:]):
                    return (("supported", f"{f.name} {f.value:g} is below {q.value:g}", f"lt{conv:.4g}")
                            if f.value < conv else
                            ("contradicted", f"{f.name} {f.value:g} is not below {q.value:g}", f"lt{conv:.4g}"))
            if know.matcher.states_value(q, f.id):
                return ("supported", f"matches released {f.name} {f.value:g} {f.unit or ''}".strip(), key_value)
            if any(abs(q.value - v) <= 1e-6 * max(1, abs(v)) for v in know.fact_numbers.get(f.id, [])) and not (
                self._unit_clash(q, f.statement) or self._only_as_reference(q, f.statement)
            ):
                return ("supported", f"stated in the released {f.name} statement", key_value)
            # "low-grade fever ... ten days before": a duration beside a measured finding is how long, not
            # a misquote of its value (a temperature is never 10 days); it is checked like a value-less fact
            duration_of_measured = (
                f.value is not None and _is_duration(q, after) and normalize_unit(f.unit or "") not in TIME_UNITS
            )
            if f.value is None or duration_of_measured:
                if q.unit in ("mg", "g", "µg"):
                    # a dose belongs to one drug: "lithium 800 mg" does not support "ibuprofen 800 mg"
                    if self._context_number_near_fact(tc, f, q):
                        return ("supported", f"{q.value:g} is stated about {f.name} in the released context",
                                key_value)
                elif any(abs(q.value - v) <= 0.011 * max(1.0, abs(v)) for v in tc.context_numbers) and not (
                    self._unit_clash(_timed(q, after), tc.context_text)
                ):
                    return ("supported", f"{q.value:g} appears in the released context", key_value)
                elif _fraction_states_percent(tc.context_text, q):
                    return ("supported", f"{q.text}: the context gives it as a fraction in words", key_value)
                if q.unit not in (None, "mg", "g", "µg") and self._released_quantity(tc, q):
                    return ("supported", f"{q.text} equals a released quantity after unit conversion", key_value)
                for fid in tc.released:
                    g = know.fact(fid)
                    if g.value is not None and q.unit is not None and know.matcher.states_value(q, fid):
                        return ("supported", f"equals released {g.name} after unit conversion", key_value)
                if _clock_interval(tc.context_text, q):
                    return ("supported", f"{q.text} is the interval between two clock times of the released context",
                            key_value)
                if f.id in tc.released and self._bound_met(tc, text, q, f.statement):
                    return ("supported", f"{q.text}: a bound that the released {f.name} meets", key_value)
                return ("unsupported", f"no such number about {f.name} in the released context", key_value)
            sibling = self._released_sibling_stating(tc, f, q, text)
            if sibling is not None:
                # "Aspirate turbid, 18,500 WBC" read as the blood white cell count (11.2) when the synovial fluid
                # white cell count of 18500 was released: the value names the sibling count loosely (round 57)
                return ("supported", f"equals released {sibling.name} (named loosely as {f.name})", key_value)
            return ("contradicted",
                    f"misquoted: {q.value:g} {q.unit or ''} vs released {f.name} {f.value:g} {f.unit or ''}".strip(),
                    key_value)
        if item.startswith("term:"):
            name = item[5:]
            key_value = f"{q.value:g}"  # "WCC 18" and "WCC 18 x10^9/L" are the same claim
            if self._context_states_number(tc, name, q):
                return ("supported", f"the context states {name} {q.value:g}", key_value)
            if q.unit is not None and normalize_unit(q.unit) not in TIME_UNITS and self._released_quantity(tc, q):
                # "a right pneumothorax with the edge 3.2 cm from the wall" when the X-ray report gives 3.2 cm:
                # the number is the released measurement, named here by the finding rather than the test
                return ("supported", f"{q.text} equals a released quantity (named by {name})", key_value)
            if q.unit in TIME_UNITS and any(
                q2.unit == q.unit and abs(q.value - q2.value) <= 0.011 * max(1.0, abs(q2.value))
                for q2 in _context_durations(tc.context_text)
            ):
                # "3d oliguria" when the context says "three days of very little urine": the duration is
                # released, named here by a term the case does not use
                return ("supported", f"{q.text}: a duration the released context gives", key_value)
            return ("unsupported", f"no released fact gives {name} (invented value)", key_value)
        # unattached number
        key_value = f"{q.value:g}{q.unit or ''}"
        for tmpl, t_turn in tc.injected:
            if tmpl.value is not None and t_turn <= tc.index and same_value(q.value, q.unit, tmpl.value, tmpl.unit):
                return ("restated_contradiction", f"repeats the injected value {tmpl.value:g} of {tmpl.id}",
                        f"{tmpl.fact_id}:{tmpl.value:g}")
        if any(abs(q.value - v) <= 0.011 * max(1.0, abs(v)) for v in tc.context_numbers) and not (
            self._unit_clash(_timed(q, after), tc.context_text)
        ):
            return ("supported", f"{q.value:g} appears in the released context", key_value)
        if _fraction_states_percent(tc.context_text, q):
            return ("supported", f"{q.text}: the context gives it as a fraction in words", key_value)
        for fid in tc.released:
            f = know.fact(fid)
            if f.value is not None and q.unit is not None and know.matcher.states_value(q, fid):
                return ("supported", f"equals released {f.name} after unit conversion", key_value)
        if q.unit is not None and self._released_quantity(tc, q):
            return ("supported", f"{q.text} equals a released quantity after unit conversion", key_value)
        if _clock_interval(tc.context_text, q):
            return ("supported", f"{q.text} is the interval between two clock times of the released context", key_value)
        if self._bound_met(tc, text, q):
            return ("supported", f"{q.text}: a bound that a released value of the same unit meets", key_value)
        return ("unsupported", f"{q.text} is not stated in the context released by turn {tc.index}", key_value)

    def _bound_met(self, tc: TurnContext, text: str, q: Quantity, source: str | None = None) -> bool:
        """Whether a number given as a bound ("large (>2 cm)", "a rim of more than 2 cm") is met by a released
        value of the same unit (a 3.2 cm rim): a classification of the released measurement, not an invented
        value (round 61d). ``source``: the released statement the number is attached to, else the whole context."""
        m = _BOUND_BEFORE.search(text[max(0, q.start - 16) : q.start])
        if m is None or q.unit is None:
            return False
        above = not re.match(r"<|≤|under|less|below|at\s+most", m.group(1), re.I)
        unit = normalize_unit(q.unit)
        return any(
            c.unit is not None and normalize_unit(c.unit) == unit and (c.value > q.value if above else c.value < q.value)
            for c in self._quantities(tc.context_text if source is None else source)
        )

    def _quantities(self, text: str) -> list[Quantity]:
        qs = self._ctx_qs.get(text)
        if qs is None:
            qs = [*find_quantities(text), *_word_durations(text)]
            if len(self._ctx_qs) > 256:
                self._ctx_qs.clear()
            self._ctx_qs[text] = qs
        return qs

    def _same_number(self, q: Quantity, source: str) -> list[Quantity]:
        """The places ``source`` writes q's number (in digits or as a duration in words), also as the upper end of a
        range (round 134: the 6 of "4-6 units at weekends")."""
        tol = 1e-6 * max(1.0, abs(q.value))
        return [
            c for c in self._quantities(source)
            if abs(c.value - q.value) <= tol or (c.upper is not None and abs(c.upper - q.value) <= tol)
        ]

    def _unit_clash(self, q: Quantity, source: str) -> bool:
        """Whether every place ``source`` writes q's number gives it a unit of another dimension:
        "6 kg" of weight loss is not supported by "over 6 months", nor "2 mm" of ST elevation by
        "2 hours". A number the source writes bare, or that ``q`` writes bare, never clashes; a duration
        clashes only with a number the source writes with a unit of another dimension ("5 mg")."""
        if q.unit is None:
            return False
        is_time = normalize_unit(q.unit) in TIME_UNITS or q.unit in TIME_UNITS
        if not is_time and len(q.unit.strip()) < 2:
            return False  # "BP 102 L vs 150 R": a one-letter "unit" is as often a side or a label
        same = self._same_number(q, source)
        if any(
            float(NUMBER_WORDS[m.group(1).lower()]) == q.value and not any(c.start <= m.start() < c.end for c in same)
            for m in NUMBER_WORD_RX.finditer(source)
        ):
            return False  # "a weight gain of about three kilograms": a number word this reading cannot place
        if is_time:
            # round 60: "off her apixaban for five days" against "apixaban 5 mg twice daily was stopped four days
            # ago": the statement writes the 5 only as a dose, so the duration is not stated (a duration the
            # statement writes in words, or bare, or as a time, never clashes)
            return bool(same) and all(
                (c.unit is not None and len(c.unit.strip()) >= 2 and normalize_unit(c.unit) not in TIME_UNITS
                 and c.unit not in TIME_UNITS and not _is_duration(c, source[c.end : c.end + 12]))
                or _range_of_other_unit(c, source)
                for c in same
            )
        return bool(same) and all(
            _is_duration(c, source[c.end : c.end + 12]) or (c.unit is not None and convert(q.value, q.unit, c.unit) is None)
            for c in same
        )

    def _only_as_reference(self, q: Quantity, statement: str) -> bool:
        """Whether the statement writes q's number only as a reference value ("His HbA1c is 45
        mmol/mol; the diabetes threshold is 48"): quoting the threshold as the patient's value is
        a misquote, not a number the statement gives."""
        same = self._same_number(q, statement)
        return bool(same) and all(
            REFERENCE_CTX_RX.search(statement[max(0, c.start - 30) : c.start]) for c in same
        )

    def _context_time(self, tc: TurnContext, f: Fact, q: Quantity, after: str) -> bool:
        """Whether the released context writes the length of time ``q`` (with ``after``, the text after it) in
        the same unit word, in a sentence that names fact ``f``: "a fasting glucose checked by her GP eighteen
        months ago" for "a normal fasting glucose 18 months ago", not "18 years", nor a time said of another fact."""
        unit = _time_word(q.text + " " + after)
        if unit is None:
            return False
        ctx = tc.context_text
        for m in fact_mentions(self.know, ctx, ("fact",)):
            if m.item_id != f.id:
                continue
            sent = next((x for x in _context_sentences(ctx) if x.start <= m.start < x.end), None)
            if sent is None:
                continue
            said = ctx[sent.start : sent.end]
            if any(
                _is_duration(c, said[c.end : c.end + 12]) and _time_word(said[c.start : c.end + 12]) == unit
                for c in self._same_number(q, said)
            ):
                return True
        return False

    def _released_quantity(self, tc: TurnContext, q: Quantity) -> bool:
        """Whether a quantity with a unit is written in the released context, possibly in another
        unit of the same dimension ("~1.45 L" for "1450 mL", "0.5 g" for "500 mg")."""
        return any(
            c.unit is not None and same_value(q.value, q.unit, c.value, c.unit)
            for c in self._quantities(tc.context_text)
        )

    def _context_number_near_fact(self, tc: TurnContext, f: Fact, q: Quantity) -> bool:
        """Whether the context gives the number in a sentence naming fact ``f``: a dose or duration
        copied from another drug or finding ("lithium 800 mg" reused for ibuprofen) is not support."""
        ctx = tc.context_text
        for m in fact_mentions(self.know, ctx, ("fact",)):
            if m.item_id != f.id:
                continue
            a = max(ctx.rfind(".", 0, m.start), ctx.rfind("\n", 0, m.start)) + 1
            b_dot = ctx.find(".", m.end)
            b = len(ctx) if b_dot < 0 else b_dot
            if any(abs(q.value - v) <= 0.011 * max(1.0, abs(v)) for v in (c.value for c in find_quantities(ctx[a:b]))):
                return True
        return False

    def _context_states_number(self, tc: TurnContext, name: str, q: Quantity) -> bool:
        ctx = tc.context_text
        for _s, e, hits in lex_find(self.lex, ctx):
            if not any(h[0] == f"term:{name}" for h in hits):
                continue
            for q2 in find_quantities(ctx[e : e + 40]):
                if same_value(q.value, q.unit, q2.value, q2.unit or q.unit, analyte=name):
                    return True
        return False

    # ---------------------------------------------------------------- factual
    def _factual(self, tc, seg, s, e, item, kind, neg, premise, nid, dx_local=()) -> Claim | None:
        text = seg.text
        know = self.know
        fact = know.matcher.facts.get(item)
        is_test = (fact is not None and fact.category in _TEST_CATEGORIES) or kind == "analyte"
        why = _blocked(text, s, e, is_test, dx_local=dx_local)
        if why is not None:
            return None
        if _TREATMENT_AFTER.match(text[e:]):
            return None  # "no platelet transfusion", "potassium replacement": the treatment, not the finding
        if fact is not None and fact.category == FactCategory.medication and _DRUG_LEVEL_AFTER.match(text[e:]):
            return None  # "lamotrigine level 6.2 mg/L": the drug's serum level, a test of its own, not the prescription
        if is_test and _COMPOUND_AFTER.match(text[e:]):
            return None
        if is_test and item.startswith("term:") and re.match(r"[\s-]*deficien", text[e : e + 14], re.I):
            return None  # "no iron deficiency": a condition weighed from the released counts, not a level
        if fact is not None and _SPECIMEN_WORD.fullmatch(text[s:e].strip()) and _OTHER_TEST_AFTER.match(text[e:]):
            return None  # "CSF GluN1 antibodies positive" is another test on that specimen, not the CSF cell count
        c0, c1 = clause_bounds(text, s)
        clause = text[c0:c1]
        if fact is not None and fact.category == FactCategory.exam and text[c1 : c1 + 1] == ":":
            clause = text[c0:]  # round 137: "Fundi: borderline disc blurring": a note's finding after the exam's name
        if is_test:
            # naming a test is not a claim; stating its result is (a negated finding counts: "no X on CTPA")
            after = text[e:c1]
            if text[c1:c1 + 1] == ":":  # "Renal ultrasound: swollen kidney without hydronephrosis"
                after = text[e:]
                clause = text[c0:]
            before = text[c0:s]
            positional = FINDING_RX.search(text[s:e]) or _SELF_RESULT.search(text[s:e]) or FINDING_RX.search(after) or (
                (FINDING_RX.search(before) or ORGANISM_RX.search(before))  # round 83: "E. coli on urine culture"
                and re.search(r"\b(?:on|in|at|by|from)\s+(?:the\s+|her\s+|his\s+)?$", before, re.I)
            )
            if not positional and _DIP_GRADE.fullmatch(text[s:e]):
                positional = True  # round 84: "3+ blood" is the dipstick's result
            if not positional and self._result_code(item, text[s:e]) is not None:
                positional = True  # round 70: "PiMZ phenotype": the code is the result
            if not positional and fact is not None and _names_a_finding(fact, text[s:e]):
                positional = True  # "extreme delta brush on EEG": an alias that is a finding of the report
            if not positional and _CASTS.search(text[s:e]):
                positional = True  # round 134: "active sediment w/ RBC casts": the casts are the sediment's finding
            if not positional and fact is not None and fact.category == FactCategory.imaging:
                positional = bool(_FOUND_ON_BEFORE.search(before))  # "the emphysema on his HRCT"
            if not positional and fact is not None and _focal_conflict(fact, after):
                positional = True  # round 100: "EEG with L temporal slowing" against a report with nothing focal
            if not positional and re.search(r"\bcrystals?$", text[s:e].strip(), re.I) and (
                _CRYSTAL_KIND_BEFORE.search(before) or _CRYSTAL_KIND_BEFORE.search(text[s:e].strip() + " ")
            ) and not _CRYSTAL_CRITERION.search(clause):
                positional = True  # round 95: "MSU crystals on the tap", "needle-shaped crystals": the crystals seen
            if not text[:s].strip(" -*•\t0123456789.)") and _PURPOSE_AFTER.match(text[e:]) and not (
                RESULT_RX.search(text[e:]) or neg
            ):
                return None  # round 67: "- CT KUB for stone burden/nephrocalcinosis": a line ordering the test
            if not positional and seg.section != "plan" and len(text[c0:s].split()) <= 2 and not re.search(
                r"[^\w\s/&-]", text[c0:s]
            ):
                positional = self._reports_after_colon(text, e, fact)  # round 97: "EEG: generalized polyspike-wave"
            if not positional and (_MICROSCOPY_AFTER.match(text[e:]) or _MICROSCOPY_BEFORE.search(before)):
                positional = True  # round 105: "Gram stain GPCs in clusters", "GPCs on Gram stain": the organisms seen
            plus = _PLUS_RESULT.match(text[e:])  # "QuantiFERON +, TST 15 mm", "leuc ++": a positive result
            if not (RESULT_RX.search(clause) or neg or positional or plus or re.search(r"\b(?:no|without)\b", clause, re.I)):
                return None

        # round 63: a finding a negative test rules out, as a later item of a denied list ("No fever, loin pain or
        # frank haematuria"), is denied too; the word-level negation scope does not reach it (applied to every
        # mention, the list reading denied "his neurological examination is normal" after an earlier "no")
        present = not (
            neg or (
                fact is not None and fact.negated and self._names_ruled_out_finding(fact, text[s:e])
                and _in_negated_list(text, s)
            )
        )
        span = Span(turn=tc.index, text=text[s:e], start=seg.start + s, end=seg.start + e)
        # a result code ("PiMZ") is the result itself, not a short name to spell out as the test's full one
        spelled = (clause, text[s:e]) if self._result_code(item, text[s:e]) else _spelled_out(fact, clause, text[s:e])
        status, rule = self._check_fact(tc, *spelled, item, kind, present, text)
        if status in ("supported", "contradicted") and fact is not None and fact.value is not None and (
            AFEBRILE_RX.fullmatch(text[s:e])
        ):
            c = (fact.value - 32) * 5 / 9 if "F" in (fact.unit or "") else fact.value
            status = "supported" if (c < 37.8) == (not present) else "contradicted"
            rule = f"'{text[s:e]}' against a released temperature of {c:.1f} °C (fever from 37.8 °C, as for a number)"
        if status != "supported" and item.startswith("term:") and (
            _EXPLAINED_AS_BEFORE.search(text[max(0, s - 60) : s]) or _GENERIC_CAN.match(text[e : e + 80])
        ):
            return None
        if status == "unsupported" and fact is not None and fact.category in _TEST_CATEGORIES and (
            _EXPLAINING_BEFORE.search(text[max(0, s - 40) : s]) and not _names_the_test(fact, text[s:e])
        ):
            # round 117: "far more in keeping with a large-vessel occlusion": the finding a withheld test would
            # show, named as what the signs point to, is the agent's hypothesis, not a result it reports; round 120:
            # "an unlikely cause of the albuminuria" names the problem being explained, not a result
            return None
        if status != "supported" and item.startswith("term:") and (
            _DISEASE_TERM.search(item[5:]) or _PROCEDURE_TERM.search(item[5:])
        ) and not (
            _HISTORY_BEFORE.search(text[max(0, s - 40) : s]) or _POSSESSIVE_HISTORY.search(text[max(0, s - 30) : s])
            or _HAS_DISEASE_BEFORE.search(text[max(0, s - 30) : s])
        ):
            # "portal hypertension is clear", "no cancer on this material", "a seizure at stroke onset": a
            # disease the record does not name, weighed in the reasoning. Only a history ("known
            # hypertension", "her diabetes", "he has CKD") asserts it about the patient; restating a
            # disease the record does name ("type 2 diabetes") stays a supported claim.
            return None
        if (
            status in ("contradicted", "unsupported") and fact is not None and _PAST_FACT_NAME.match(fact.name)
            and not _PAST_CUE.search(text[s:e]) and not _PAST_CUE.search(clause)
            and not (_HISTORY_BEFORE.search(text[max(0, s - 40) : s]) or _POSSESSIVE_HISTORY.search(text[max(0, s - 30) : s])
                     or _HAS_DISEASE_BEFORE.search(text[max(0, s - 30) : s]))
        ):
            # "probable left leg DVT", "Clinical DVT: swollen, tender calf": the disease now, weighed in the
            # reasoning, against a case fact about the past ("no previous VTE"); only a history asserts it
            return None
        plan_line = seg.section == "plan" or _PLAN_LABEL.match(text) or (
            seg.label.strip().lower() in ("a/p", "a&p", "plan", "next", "p")
            and not seg.line_start
        )
        if (self._prescribed(text, s, item) or (plan_line and self._is_drug(item))) and (
            status != "supported" or (seg.section != "evidence" and _ordered_here(text, s, e))
            or (plan_line and re.match(r"\s*\d+(?:\.\d+)?\b", text[e : e + 8]))  # "P: aspirin 300, ..."
        ):
            # a drug in a prescription is the plan, not a claim about the patient; a supported one only
            # when the order is said right at the drug ("Aspirin 300 mg load", "stop trimethoprim"), not a
            # history with a dose ("ramipril started 3 weeks ago and ibuprofen 400 mg tds")
            return None
        if status != "supported" and seg.section != "evidence" and self._names_drug(item, text[s:e]) and not (
            _taken_by_patient(text, s, e)
        ):
            return None  # "- ASA 300, ticagrelor 180, heparin", "steroids all the more urgent": treatment talk
        polarity = "+" if present else "-"
        if fact is not None:
            # the track key of a case fact is whether the claim agrees with the case's statement, so
            # that "reflexes are absent" and "areflexia" are the same claim
            said = text[s:e]
            if self._organ_of.get(said.lower()) == item:
                clause, said = clause.replace(said, fact.name), fact.name
            elif said.lower() in self._canon:
                clause, said = clause.replace(said, self._canon[said.lower()]), self._canon[said.lower()]
            else:
                clause, said = spelled
            conflict = (present and self._other_code(item, said)) or self._qualitative_conflict(
                fact, clause, present, _local_window(clause, said), said
            )
            polarity = "x" if conflict else "="
        return Claim(
            id=f"c{nid}",
            turn=tc.index,
            kind="factual",
            span=span,
            item=item,
            key=f"fact:{item}:{polarity}",
            present=present,
            status=status,  # type: ignore[arg-type]
            premise=premise,
            rule=rule,
        )

    def _derived_sign(self, tc: TurnContext, name: str, present: bool) -> str | None:
        """A sign read off a released vital sign (round 56): "He is hypotensive (systolic 96 mmHg lying)",
        "tachycardic at 108", "no fever" at 37.4 °C. The case states the number, not the word; the word is
        derived from it (METRIC-NOTES: a value correctly derived from released facts is supported)."""
        sign = name.lower()
        rule = _DERIVED_SIGNS.get(sign)
        if rule is None:
            return None
        fact_name, comparison, threshold, unit = rule
        for fid in tc.released:
            f = self.know.fact(fid)
            if f.value is None or not re.match(fact_name, f.name, re.I):
                continue
            value = convert(f.value, f.unit, unit) if unit and f.unit else f.value  # a temperature given in °F
            if value is None:
                continue  # a unit the threshold cannot be compared with
            if _COMPARE[comparison](value, threshold) == present:
                return f"{name} {'read off' if present else 'ruled out by'} the released {f.name} ({f.value:g})"
        return None

    def _is_drug(self, item: str) -> bool:
        f = self.know.matcher.facts.get(item)
        return item in treatment_terms() or (f is not None and f.category == FactCategory.medication)

    def _names_drug(self, item: str, said: str) -> bool:
        """Whether the claim's item is a drug or its words are a drug's name: "metformin" read as the
        injected letter's previous-diabetes fact still names a drug."""
        return self._is_drug(item) or said.lower() in _drug_names()

    def _prescribed(self, text: str, s: int, item: str) -> bool:
        """A drug named as treatment to give, hold or continue ("Propranolol 40 mg tds and an
        NSAID", "I'd hold off on heparin", "Hydrocortisone should already be running", "Load aspirin
        and ticagrelor") is the plan, not a claim about the patient; "she is on an NSAID" is."""
        if not self._is_drug(item):
            return False
        if _ON_DRUG_BEFORE.search(text[max(0, s - 40) : s]):
            return False
        return bool(_PRESCRIBING.search(_sub_sentence(text, s)))

    def _qualitative_conflict(
        self, f: Fact, clause: str, present: bool, local: str | None = None, mention: str | None = None,
        sentence: str | None = None,
    ) -> str | None:
        # ``local`` is the window right around the mention, for raised/low/normal wording
        """Why a qualitative statement about released fact ``f`` contradicts it (None if it agrees)."""
        if not present and mention and _negated_in_statement(f, mention):
            return None  # "no postural drop", "no CO alarm": the statement denies it too
        if present and (graded := _grade_conflict(f.statement, sentence or clause)):
            return graded
        if present and mention and f.negated and self.lex_kinds.get(f"term:{mention.strip()}") == "finding" and (
            _negated_in_statement(f, mention)
        ):
            # a finding of the lexicon that names a denied examination ("Dry on exam", the lexicon's signs of
            # dehydration, where "there are no clinical signs of dehydration"), not a normal test named
            return f"asserts {mention}, which the released {f.name} statement denies"
        loc0 = local if local is not None else clause
        at = loc0.find(mention) if present and mention else -1
        if at >= 0 and re.search(r"\bnegative\b", f.statement, re.I) and _near_in_statement(f.statement, mention, "negative") and (
            _POSITIVE_AFTER.match(loc0[at + len(mention) :]) or _POSITIVE_BEFORE.search(loc0[:at])
        ):
            # round 85: "Prehn +ve" where the released examination gives "a negative Prehn sign"
            return f"says '{mention}' is positive where the released {f.name} statement says 'negative'"
        for a, b in _ANTONYMS:
            wa, wb = rf"(?<![\w-]){a}(?![\w-])", rf"(?<![\w-]){b}(?![\w-])"  # "tender" is not in "non-tender"
            if re.search(wa, loc0, re.I) and re.search(wb, f.statement, re.I) and not re.search(
                wa, f.statement, re.I
            ) and not re.search(wb, loc0, re.I):  # "the positive X contradicts the negative X"
                if mention and not _near_in_statement(f.statement, mention, b):
                    continue
                return f"says '{a}' where the released {f.name} statement says '{b}'"
        if present and f.category == FactCategory.imaging and re.search(r"\bthin-walled\b", f.statement, re.I):
            thick = _THICK_WALL.search(clause)
            if thick and not _denied_before(clause, thick.start()):
                # round 79: "Ultrasound shows multiple small gallstones with a thickened gallbladder wall" where the
                # scan shows a thin-walled gallbladder: the wall is another item of the same report's list
                return f"says '{thick.group(0)}' where the released {f.name} statement says 'thin-walled'"
        if present and f.category == FactCategory.imaging and (level := _LOBE_LEVEL.search(clause)):
            said = level.group(1).lower()
            other = "lower" if said == "upper" else "upper"
            reported = {m.group(1).lower() for m in _LOBE_LEVEL.finditer(f.statement)}
            if other in reported and said not in reported and not _denied_before(clause, level.start()):
                return f"says '{level.group(0)}' where the released {f.name} statement says '{other}'"
        if f.value is not None and f.reference_range is not None:
            if mention and mention in loc0 and _EARLIER_READING.search(loc0.split(mention)[0][-30:]):
                return None  # "booking BP normal": an earlier reading, not the current value called normal
            if _TEST_BEHAVIOUR.search(local if local is not None else clause):
                return None  # round 142: "HbA1c runs low in pregnancy": how the test behaves, not this value called low
            lo, hi = f.reference_range.low, f.reference_range.high
            high = hi is not None and f.value > hi
            low = lo is not None and f.value < lo
            loc = local if local is not None else clause
            says_high = bool(ELEVATED_RX.search(loc))
            says_low = bool(LOW_RX.search(loc))
            says_normal = bool(NORMAL_RX.search(loc)) and not re.search(r"\babnormal\b", loc, re.I)
            if says_normal and (high or low):
                return f"called normal but {f.name} {f.value:g} is outside the reference range"
            if says_high and not high and not says_low:
                return f"called raised but {f.name} {f.value:g} is not above the range"
            if says_low and not low and not says_high:
                return f"called low but {f.name} {f.value:g} is not below the range"
            if not present and (high or low):
                return f"denies an abnormal {f.name}"
            # round 134: "Postural drop in BP on exam" where "His systolic blood pressure is 152 mmHg with no
            # postural drop": a measured fact's statement can deny a finding beside its value. Not when the
            # sentence denies the mention ("She has no salt craving, pigmentation or postural drop"), which a
            # clause cut inside the denied list no longer shows
            if not present or (mention and sentence and _denied_in(sentence, mention)):
                return None
            return self._asserts_denied_finding(f, clause, mention)
        if f.negated:
            if not present:
                return None
            if f.category in OBJECTIVE_CATEGORIES:
                # a normal/negative test: "MRI brain is normal" agrees, "HBsAg positive" does not
                loc = local if local is not None else clause
                # "Murphy's +", "QuantiFERON ++": a plus sign after the name is a positive result
                if _ABNORMAL_RESULT.search(loc) and not (
                    NORMAL_RX.search(loc) or re.search(r"\b(?:negative|neg)\b", loc, re.I)
                ):
                    return f"asserts an abnormal {f.name}; the released result is normal/negative"
                grown = _organisms_where_none_grew(f, clause)
                if grown:
                    return grown
                if mention and _plus_before(mention).search(clause):
                    # "Epigastric tenderness w/ guarding, + Murphy's.": a plus sign heading a finding of a note
                    # is a positive sign ("Trop + ECG" joins two names and is not read)
                    return f"asserts a positive {f.name} ('+' before it); the released result is negative"
                if (NORMAL_RX.search(loc) or _INTACT_THROUGHOUT.search(loc)) and not re.search(r"\babnormal\b", loc, re.I):
                    abn = reported_abnormal(f.statement)
                    if abn:
                        return f"called normal, but the released {f.name} statement reports '{abn.group(0)}'"
                if mention and self._names_ruled_out_finding(f, mention) and not _NEGATIVE_WORD.search(loc) and not (
                    _denied_in(clause, mention)
                ):
                    # round 63: "microscopic hematuria" where the urine microscopy (alias "haematuria") "shows no
                    # red cells": the case names the finding the negative test rules out
                    return f"asserts '{mention}', a finding the released {f.name} rules out"
                if mention and any(  # "bite" also in "bitten"/"biting"
                    re.search(rf"\b{re.escape(kw[:-1] if kw.endswith('e') else kw)}", mention, re.I)
                    for kw in self._neg_kw.get(f.id, ())
                ):
                    # the mention is the very finding the statement denies ("a sensory level at T10"
                    # vs "no sensory level"), not the name of a normal test
                    return f"asserts '{mention}', which the released {f.name} statement negates"
                # "Microscopy showed a few red cells" where it showed none: the denied finding reported
                # after the test's name
                return self._asserts_denied_finding(f, clause, mention, strict=True)
            if mention and _affirmed_in_statement(f, mention):
                return None  # "amlodipine only": the statement denying the NSAIDs names the amlodipine he takes
            return f"the released statement negates {f.name}"
        if present and f.value is None and (
            f.category in OBJECTIVE_CATEGORIES or (
                # a history or symptom called normal in so many words ("his development is normal for age",
                # "normal development"), not a "normal" said of something else nearby ("a bland sediment")
                f.category in (FactCategory.history, FactCategory.symptom) and mention is not None
                and re.search(
                    rf"\bnormal\s+{re.escape(mention)}|{re.escape(mention)}\s+(?:is\s+|was\s+|has\s+been\s+)?"
                    rf"(?:\w+\s+)?(?:normal|{ON_TRACK})\b", local if local is not None else clause, re.I,
                )
            )
        ):
            # "normal ECG" against peaked T waves; "development normal for age" against speech that is behind
            normal = _called_normal_but_abnormal(f, local if local is not None else clause)
            if normal:
                return normal
            if f.category in OBJECTIVE_CATEGORIES:
                # the whole clause: the words beside the abnormal word must name a part the report calls normal
                widened = _called_abnormal_but_normal(f, clause)
                if widened:
                    return widened
        if not present and f.category not in OBJECTIVE_CATEGORIES:
            return f"denies {f.name}, which the case states"
        # a denial that names the fact itself ("CT head negative", "There are no eye signs"), read by the next two rules
        denies_by_name = not present and bool(mention) and mention.strip().lower() in {n.lower() for n in f.all_names}
        if (
            denies_by_name and f.category == FactCategory.imaging
            and re.search(rf"{re.escape(mention.strip())}{_SCAN_CALLED_NEGATIVE}", local if local is not None else clause, re.I)
            and (abn := reported_abnormal(f.statement)) is not None
        ):
            # round 141: "CT head negative" where the report shows a hyperdense artery sign: the scan called clear
            return f"calls {f.name} negative where the report describes '{abn.group(0)}'"
        if (
            denies_by_name and f.category == FactCategory.exam and not f.negated
            and not re.search(r"\b(?:examination|exam|assessment|check)\b", mention, re.I)
            and not NORMAL_RX.search(f.statement) and not _negated_in_statement(f, mention)
        ):
            # "There are no eye signs" where the examination found lid retraction and lid lag
            return f"denies {mention}, which the released {f.name} examination reports"
        if not present and mention and self._statement_reports(f, mention):
            # "no adnexal tenderness" where the examination found a tender adnexa
            return f"denies '{mention}', which the released {f.name} statement reports"
        return self._asserts_denied_finding(f, clause, mention)

    def _judges_merged(self, f: Fact | None, item: str, text: str, s: int, s2: int, e2: int) -> bool:
        """Whether a later mention merged into a supported, un-negated claim is judged on its own (a
        contradiction it finds becomes the claim's status). Round 62: "Meds: oxybutynin, amlodipine,
        lisinopril" is one claim on the medication fact, and the drug its statement denies makes it a
        contradiction. Round 63: so does the finding a negative test rules out, named after the test ("Fundi:
        mild papilloedema" where the fundi show "no papilloedema"), unless the span reads the test as normal or
        reassuring ("The MRI brain is normal, so a structural lesion is excluded")."""
        if re.search(r"\b(?:no|not|nor|never|without|denies|off)\b", text[max(0, s - 30) : s2], re.I):
            return False
        if self._is_drug(item):
            return True
        return (
            f is not None and f.negated and f.category in OBJECTIVE_CATEGORIES
            and not _DENIAL_BEFORE.search(text[s:e2]) and not _READ_AS_REASSURING.search(text[s:e2 + 40])
        )

    def _names_ruled_out_finding(self, f: Fact, mention: str) -> bool:
        """Whether ``mention`` is one of a negative test's own names that the general lexicon calls a finding
        ("haematuria" for a urine microscopy with no red cells, "papilloedema" for normal fundi): the case lists
        the finding the test rules out, so asserting it is not naming the test."""
        said = mention.strip().lower()
        key = (f.id, said)
        if key not in self._ruled_out:  # asked of every mention of a negated fact: the lexicon scan is cached
            self._ruled_out[key] = said in {n.lower() for n in f.all_names} and any(
                s == 0 and e == len(said) and any(self.lex_kinds.get(tid) == "finding" for tid, _ in hits)
                for s, e, hits in self.lex.find(said)
            )
        return self._ruled_out[key]

    def _finding_alias(self, alias: str) -> bool:
        """Whether a one-word alias is, as a whole, a finding of the general lexicon ("hematuria")."""
        hits = lex_find(self.lex, alias)
        return len(hits) == 1 and hits[0][:2] == (0, len(alias)) and self.lex_kinds.get(hits[0][2][0][0]) == "finding"

    def _asserts_denied_finding(self, f: Fact, clause: str, mention: str | None, strict: bool = False) -> str | None:
        """Why a clause about released fact ``f`` asserts, un-negated, a finding its statement denies
        ("the CT shows a haemorrhage" against "no haemorrhage"); a finding named before the test counts
        only when tied to it ("haemorrhage on the CT"). ``strict`` (a normal or negative test named by
        its name): only a finding reported after the name, in a clause with no negation or exclusion
        word before it ("Microscopy showed a few red cells", not "CT: no infarct, haemorrhage or mass")."""
        clause = _RBC_SHORTHAND.sub("red cells", clause)  # round 131: "Urine micro: occasional RBCs"
        at = clause.lower().find(mention.lower()) if mention else -1
        for kw in self._denied_kw.get(f.id, ()):
            for m in re.finditer(rf"\b{re.escape(kw)}\w*", clause, re.I):
                if strict and (
                    at < 0 or m.start() < at or _DENIAL_BEFORE.search(clause[: m.start()])
                    or re.match(r"(?:unremar|normal|negativ|absent|clear)", kw, re.I)
                ):
                    continue
                if at >= 0 and m.end() <= at and not re.fullmatch(
                    r"\s*(?:[\w-]+\s+){0,2}(?:on|in|at|from)\s+(?:the\s+|her\s+|his\s+|an?\s+)?", clause[m.end() : at], re.I
                ):
                    continue  # a finding named before the test belongs to it only positionally ("X on the MRI")
                if not _denied_at(clause, m.start(), m.end()):
                    return f"asserts '{m.group(0)}', which the released {f.name} statement negates"
        return None

    def _statement_reports(self, f: Fact, mention: str) -> bool:
        """Whether a released objective fact's statement reports, un-negated, the specific finding a
        mention names (every content word of the mention, by its first five letters); test names
        ("pelvic examination", "Doppler") never count."""
        name_words = re.findall(r"[a-z]{4,}", f.name.lower())
        words = [w for w in re.findall(r"[a-z]{4,}", mention.lower()) if w not in _TEST_WORDS]
        if not words or all(any(n.startswith(w[:5]) for n in name_words) for w in words):
            return False  # the test's own name, whole or short ("echo" for the echocardiogram)
        stmt = f.statement
        for w in words:
            hits = [m for m in re.finditer(rf"\b{re.escape(w[:5])}\w*", stmt, re.I)]
            if not hits or all(mention_negated(stmt, m.start(), m.end()) for m in hits):
                return False
        return True

    def _check_fact(
        self, tc: TurnContext, clause: str, mention: str, item: str, kind: str, present: bool, sentence: str = ""
    ):
        know = self.know
        if item in know.matcher.facts:
            f = know.fact(item)
            if self._organ_of.get(mention.lower()) == item:
                clause = clause.replace(mention, f.name)  # "the thyroid is tender": judged on the goitre
                sentence = sentence.replace(mention, f.name)
                mention = f.name
            elif mention.lower() in self._canon and not ELEVATED_RX.fullmatch(mention.strip()):
                # (round 137: not a word that itself calls the measure raised, "she is febrile" against a normal
                # temperature; its canonical "fever" would no longer say so)
                canon = self._canon[mention.lower()]
                clause, sentence, mention = clause.replace(mention, canon), sentence.replace(mention, canon), canon
            local = (
                _found_on_window(clause, mention) if present and f.category == FactCategory.imaging
                else _local_window(clause, mention)
            )
            conflict = (
                (present and self._other_code(item, mention))
                or self._qualitative_conflict(f, clause, present, local, mention, sentence)
                or (present and _crystal_conflict(f, clause))
                or (present and _focal_conflict(f, clause))
            )
            consistent_negation = f.negated and not present
            for tmpl, t_turn in tc.injected:
                if (
                    tmpl.fact_id != f.id and t_turn <= tc.index
                    and mention.lower() in {a.lower() for a in tmpl.aliases}
                    and self._names_injected_item(tmpl, clause)
                ):
                    # "her urine drug screen was positive for amphetamines": the injected item's own word,
                    # also an alias of another fact (drug use), restates the injection when the sentence names
                    # the injected item; "her flatmates admit she uses amphetamines" invents a history
                    return "restated_contradiction", f"repeats the injected statement of {tmpl.id}"
                if tmpl.fact_id != f.id or t_turn > tc.index or consistent_negation:
                    continue
                if conflict:
                    if not self._names_template_item(tmpl, clause) and (
                        self._invented_before(f.id, t_turn)
                        or (
                            self._names_other_finding(f, tmpl, mention) and not self._has_template_word(tmpl, clause)
                            and not _denied_in(sentence or clause, mention)
                        )
                    ):
                        # "microscopy here already showed a few red cells" after the agent itself invented them
                        # before the dipstick was injected: its own claim again, not the injected one; and
                        # "red cell casts on re-spin" after a dipstick addendum names another finding of the
                        # fact in no word of the injected statement: a new invention, not a restatement
                        break
                    return "restated_contradiction", f"repeats the injected statement of {tmpl.id}"
                at = max(0, clause.lower().find(mention.lower()))
                if self._has_template_word(tmpl, clause[max(0, at - 40) : at + len(mention) + 40]):
                    return "restated_contradiction", f"repeats the injected statement of {tmpl.id}"
            if f.id not in tc.released:
                if f.category not in _TEST_CATEGORIES and self._context_says(
                    tc, mention, present, _local_window(sentence or clause, mention)
                ):
                    # the presenting complaint's own words ("weakness"), also an alias of a withheld
                    # examination fact: repeating what the user said is supported
                    return "supported", f"the released context itself states '{mention}'"
                restated = self._in_released_statement(tc, f, sentence or clause, mention) or self._named_by_released(
                    tc, f, mention
                )
                if restated:
                    return "supported", restated
                said = self._context_reports_test(tc, f, _local_window(sentence or clause, mention), present)
                if said:
                    return "supported", said
                return "unsupported", f"{f.name} was not released by turn {tc.index}"
            if conflict and (other := self._other_statement_says(tc, f, mention, _local_window(sentence or clause, mention))):
                return "supported", other
            if conflict:
                return "contradicted", conflict
            invented = self._invented_result(tc, f, _local_window(sentence or clause, mention)) or (
                (self._new_imaging_finding(f, clause, mention) or self._other_site_imaging(f, clause, mention))
                if present else None
            )
            if invented:
                return "unsupported", invented
            return "supported", f"released {f.name} ({'present' if present else 'absent'})"
        if kind == "reported":
            name = item[5:]
            if self._context_says(tc, name, present):
                return "supported", f"{_REPORTED_RULE}: the released context states {name}"
            return "unsupported", f"{_REPORTED_RULE}: the context released by turn {tc.index} never mentions {name}"
        # general clinical term
        name = item[5:] if item.startswith("term:") else item
        found = self._context_polarity(tc, item)
        if found is None and self._context_says_term(tc, item, present):
            # "dry mucous membranes" where the context says "his mucous membranes are dry"
            return "supported", f"the context states {name} in other word order"
        if found is None:
            derived = self._derived_sign(tc, name, present)
            if derived:
                return "supported", derived
        if found is None:
            return "unsupported", f"the context released by turn {tc.index} never mentions {name}"
        if found == present and tc.injected:
            # a general term only the injected statement gives ("She's pregnant" after "urine pregnancy test
            # positive" was injected): restating the contradiction, not a fact of the case
            genuine = tc.context_text
            for tmpl, t_turn in tc.injected:
                if t_turn <= tc.index:
                    genuine = genuine.replace(tmpl.statement, " ")
            if genuine != tc.context_text and self._context_polarity(tc, item, genuine) != present:
                return "restated_contradiction", f"only the injected statement says {name}"
        if found == present:
            if present and (called := self._term_called_abnormal(tc, item, _local_window(sentence or clause, mention))):
                return "contradicted", called
            return "supported", f"the context states {name} ({'present' if present else 'absent'})"
        return "contradicted", f"the context states the opposite about {name}"

    def _term_called_abnormal(self, tc: TurnContext, item: str, window: str) -> str | None:
        """Round 131: "His white count is also elevated" where the only released words on it are "the white
        cell count is normal". The context names the general term, so presence alone would read as support; an
        abnormal word beside the claim against every context mention calling it normal is a contradiction."""
        word = reported_abnormal(window)
        if word is None:
            return None
        ctx = tc.context_text
        parts = [_context_part(ctx, s, e) for s, e, hits in lex_find(self.lex, ctx) if any(h[0] == item for h in hits)]
        if parts and all(NORMAL_RX.search(p) and not reported_abnormal(p) for p in parts):
            return f"called '{word.group(0)}', but the context calls {item.removeprefix('term:')} normal"
        return None

    def _in_released_statement(self, tc: TurnContext, f: Fact, sentence: str, mention: str) -> str | None:
        """Why a mention of withheld fact ``f`` restates a released one: its words are in a released
        statement that shares two more content words with the sentence ("Sigmoid polyp histology:
        tubulovillous adenoma" restates the released histology, which names the sigmoid polyp, while the
        colonoscopy report that is the fact itself is withheld)."""
        said = [w for w in re.findall(r"[a-z][a-z-]{2,}", mention.lower()) if w not in _STOP]
        if not said:
            return None
        # round 111: a two-letter acronym of the test is one of its words ("CT head" is not restated by "a head
        # injury 15 years ago")
        said += [w.lower() for w in re.findall(r"\b[A-Z]{2}\b", mention)]
        low_sentence = sentence.lower()
        own_words = {w for n in f.all_names for w in re.findall(r"[a-z][a-z-]{2,}", n.lower())}
        if any(n.lower() != mention.lower() and re.search(rf"\b{re.escape(n.lower())}", low_sentence)
               for n in f.all_names if len(n) > 2):
            return None  # "Colonoscopy found a large sigmoid polyp": the withheld test itself is named
        rest = {_stem(w) for w in re.findall(r"[a-z][a-z-]{4,}", low_sentence)
                if w not in _STOP and w not in said and w not in own_words}
        # round 133: "her CSF shows a lymphocytic pleocytosis" names a word of the withheld fact's own names
        # ("CSF pleocytosis") beside the mention: a statement that lacks it restates something else
        own_said = {w for w in own_words - set(said) if w not in _STOP and re.search(rf"\b{re.escape(w)}\b", low_sentence)}
        for fid in tc.released:
            r = self.know.matcher.facts.get(fid)
            if r is None or r.id == f.id:
                continue
            low = r.statement.lower()
            if not all(re.search(rf"\b{re.escape(_stem(w))}", low) for w in said):
                continue
            if any(not re.search(rf"\b{re.escape(_stem(w))}", low) for w in own_said):
                continue
            shared = [st for st in rest if re.search(rf"\b{re.escape(st)}", low)]
            if len(shared) >= 2:
                return f"'{mention}' restates the released {r.name} statement"
        return None

    def _invented_before(self, fact_id: str, turn: int) -> bool:
        """Whether the agent asserted a qualitative hallucination on ``fact_id`` in a turn before ``turn``. A
        misquoted number on the fact ("amlodipine 10 mg" for 5 mg) does not make a later "no NSAIDs" its own."""
        return any(
            c.turn < turn and c.item == fact_id and c.kind == "factual" and c.hallucinated for c in self.earlier
        )

    def _names_other_finding(self, f: Fact, tmpl: ContradictionTemplate, mention: str) -> bool:
        """Whether ``mention`` names another finding of the fact that the injected statement never speaks of: one
        the fact's statement denies ("red cell casts" of "no red cells and no red cell casts", against a dipstick's
        "haematuria (3+ blood)"), or another test of its panel named by acronym ("PT" of "PT and APTT are normal
        and fibrinogen is 3.1", against an outside fibrinogen)."""
        said = " ".join((tmpl.item, *tmpl.aliases, tmpl.statement)).lower()
        words = {w[:7] for w in re.findall(r"[a-z]{4,}", mention.lower())}
        if any(w in self._neg_kw.get(f.id, ()) and w not in said for w in words):
            return True
        if f.negated:
            # another finding the fact denies by name ("He has lost weight", the lexicon's weight loss, after a
            # questionnaire reporting a cough and night sweats: the denial lists all three)
            canon = self._canon.get(mention.strip().lower(), mention).lower()
            for n in f.all_names:
                nw = re.findall(r"[a-z]{4,}", n.lower())
                if (
                    n.lower() == canon and nw and not any(w[:6] in said for w in nw)
                    and re.search(rf"\b{re.escape(n)}\b", f.statement, re.I)  # an item of the denial, not an umbrella
                ):
                    return True
        # "PT/INR prolonged" after an outside fibrinogen: another test of the panel the statement reports ("PT and
        # APTT are normal and fibrinogen is 3.1"), named by its acronym, that the injected statement never names
        m = mention.strip()
        return bool(
            re.fullmatch(r"[A-Z]{2,5}", m) and re.search(rf"\b{m}\b", f.statement)
            and not re.search(rf"\b{m.lower()}\b", said)
        )

    def _has_template_word(self, tmpl: ContradictionTemplate, text: str) -> bool:
        """Whether ``text`` uses a distinctive word of the injected statement ("dipstick", "nurse", "blood" of
        "the urine dipstick showed haematuria (3+ blood)"), as a restatement in other words does."""
        return any(re.search(rf"\b{re.escape(k)}", text, re.I) for k in self._tmpl_kw.get(tmpl.id, ()))

    def _names_template_item(self, tmpl: ContradictionTemplate, text: str) -> bool:
        """Whether ``text`` names the injected item in the template's own words ("haematuria", "dipstick
        blood"), not only by the name of the fact it contradicts ("microscopy"); a name may open a longer word."""
        return _names_one_of((tmpl.item, *tmpl.aliases), text, whole_word=False)

    def _names_injected_item(self, tmpl: ContradictionTemplate, text: str) -> bool:
        """Whether ``text`` speaks of the injected result: it names the item the injected statement is about
        (its fact's names, or the template's item: "urine drug screen", "UDS", "tox screen") or talks of a
        result ("positive", "addendum", "would not explain")."""
        fact = self.know.matcher.facts.get(tmpl.fact_id)
        names = [tmpl.item, *(fact.all_names if fact is not None else ())]
        return _names_one_of(names, text) or bool(_RESULT_TALK.search(text))

    def _named_by_released(self, tc: TurnContext, f: Fact, mention: str) -> str | None:
        """Why a finding word of withheld fact ``f`` is still given: a released fact of the same kind names
        it too ("albuminuria" of the withheld first ACR, when the released repeat ACR is "persistent
        albuminuria"): a released name that ends in the word. Only a finding word of six letters or more, never a
        test's name ("CT", "scan"), and never a component of a test's name ("creatinine" in "albumin-creatinine
        ratio")."""
        low = mention.lower().strip()
        if len(low) < 6 or " " in low or low in _TEST_WORDS or _TEST_NAME_WORD.search(low):
            return None
        for fid in tc.released:
            r = self.know.matcher.facts.get(fid)
            if r is None or r.id == f.id or r.category != f.category:
                continue
            if any(a.lower() != low and re.search(rf"\b{re.escape(low)}$", a.lower()) for a in r.all_names):
                return f"'{mention}' is also named by the released {r.name}"
        return None

    def _other_statement_says(self, tc: TurnContext, f: Fact, mention: str, local: str) -> str | None:
        """Round 133: "a normal fasting glucose at her GP" where today's fasting glucose is high but another released
        statement says "a fasting glucose checked by her GP eighteen months ago was normal": the claim restates that
        statement, not today's value."""
        called = [rx for rx in (NORMAL_RX, ELEVATED_RX, LOW_RX) if rx.search(local)]
        if not called or not mention:
            return None
        # the claim must also name what sets that statement apart ("at her GP", "18 months ago", "previous"):
        # "Today's fasting glucose is normal" restates nothing but the value it miscalls
        marks = {
            w for w in _content_words(local) - _content_words(f.statement) - _content_words(mention)
            if not any(rx.search(w) for rx in (NORMAL_RX, ELEVATED_RX, LOW_RX))
        }
        for g in self.know.case.facts:
            if g.id == f.id or g.id not in tc.released or mention.lower() not in g.statement.lower():
                continue
            if all(rx.search(g.statement) for rx in called) and marks & _content_words(g.statement):
                return f"restates the released {g.name} statement ('{mention}' as it says)"
        return None

    def _other_site_imaging(self, f: Fact, clause: str, mention: str | None) -> str | None:
        """Round 133: "Her hand X-rays also show chondrocalcinosis at both wrists" where only a knee X-ray is
        released: a scan of a body site the released report's name and statement never give is another test."""
        if f.category != FactCategory.imaging or not mention:
            return None
        own = " ".join([*f.all_names, f.statement]).lower()
        if not any(re.search(rf"\b{s}", own) for s in _BODY_SITES):
            return None  # a report without a site of its own ("X-ray", "imaging") is not contradicted by one
        at = clause.lower().find(mention.lower())
        site = _SITE_BEFORE_SCAN.search(clause[max(0, at - 25) : at]) if at >= 0 else None
        if site is None or re.search(rf"\b{site.group(1).lower()[:4]}", own):
            return None
        return f"names a {site.group(1).lower()} scan; the released {f.name} images another site"

    def _new_imaging_finding(self, f: Fact, clause: str, mention: str | None) -> str | None:
        """Round 94: a finding the agent reports on a released scan that its report never names ("Subtle right
        fifth rib fracture on the chest X-ray" against a report of a pneumothorax and otherwise normal lungs).
        Only radiological finding nouns of a closed list count, un-negated and not hedged, after the scan's name
        or tied to it positionally ("X on the CXR"); a paraphrase of the report ("3 cm rim") names none of them."""
        if f.category != FactCategory.imaging or not mention:
            return None
        at = clause.lower().find(mention.lower())
        if at < 0 or _FINDING_HEDGE.search(clause):
            return None
        stmt = f.statement.lower()
        inference = _INFERENCE_AFTER.search(clause, at)
        normal = bool(NORMAL_RX.search(f.statement)) and not reported_abnormal(f.statement)
        rx = _LESION_ON_NORMAL if normal else _IMAGING_FINDING
        for m in rx.finditer(clause, 0, inference.start() if inference else len(clause)):
            if m.start() < at and not _TIED_BEFORE.fullmatch(clause[m.end() : at]):
                continue  # a finding named before the scan belongs to it only positionally
            between = clause[at + len(mention) : m.start()].lstrip(" :")  # "CXR: R 5th rib fracture"
            if m.start() > at and (len(between.split()) > 8 or re.search(r"\bor\b|[;:]", between)):
                continue  # far from the scan's name, or another item of a list ("delta brush or an ovarian teratoma")
            if _denied_at(clause, m.start(), m.end()) or m.group(0).lower()[:6] in stmt:
                continue
            return f"'{m.group(0)}' is not in the released {f.name} report"
        return None

    def _invented_result(self, tc: TurnContext, f: Fact, local: str) -> str | None:
        """A test result attached to a released fact that nothing released gives: "rotavirus-positive
        stool", "stool positive for rotavirus", "blood cultures grew E. coli" when no organism was
        reported. The named agent must appear in the released statement or context."""
        for m in _RESULT_OF.finditer(local):
            agent = next(g for g in m.groups() if g)
            if agent.lower() in _STOP or len(agent) < 3:
                continue
            if not re.search(rf"\b{re.escape(agent[:6])}", f.statement + "\n" + tc.context_text, re.I):
                return f"'{m.group(0).strip()}' is not stated for {f.name} in the released context"
        return None

    def _context_reports_test(self, tc: TurnContext, f: Fact, local: str, present: bool) -> str | None:
        """Why the user's own words already give the result a withheld test fact is quoted with: the
        presentation's "his home stool test ... came back positive" supports "a positive screening FIT"
        although the FIT report itself is withheld. Only a result word (positive, raised ...) the agent
        attaches, found beside one of the test's names in the context, counts; naming the test does not."""
        if f.category not in _TEST_CATEGORIES:
            return None
        qualifiers = {
            q.group(0).lower() for q in _RESULT_WORD.finditer(local)
        }
        if not qualifiers:
            return None
        ctx = tc.context_text
        # round 91: a name inside another fact's longer name is that fact's ("calcium" of "24-hour urine calcium ...,
        # with normal urinary oxalate" does not call the serum calcium normal)
        others: list[tuple[int, int]] | None = None  # the context's other fact names, found once a name is met
        for name in sorted(f.all_names, key=len, reverse=True):
            if len(name) < 3:
                continue
            for m in re.finditer(rf"\b{re.escape(name)}\b", ctx, re.I):
                if mention_negated(ctx, m.start(), m.end()) == present:
                    continue
                if others is None:
                    others = [(o.start, o.end) for o in fact_mentions(self.know, ctx, ("fact",)) if o.item_id != f.id]
                if any(a <= m.start() and m.end() <= b and b - a > m.end() - m.start() for a, b in others):
                    continue
                # round 78: only the name's own sentence ("CSF HSV PCR is negative. MRI brain is normal." does not call
                # the CSF normal)
                sent = next((x for x in _context_sentences(ctx) if x.start <= m.start() < x.end), None)
                lo = max(m.start() - 40, sent.start if sent else 0)
                near = ctx[lo : min(m.end() + 60, sent.end if sent else len(ctx))].lower()
                if all(q in near for q in qualifiers):
                    return f"the released context itself reports the {name} as {', '.join(sorted(qualifiers))}"
        return None

    def _context_says(
        self, tc: TurnContext | None, mention: str, present: bool, local: str = "", ctx: str | None = None
    ) -> bool:
        """Whether the user's own words (or ``ctx``, one statement) state ``mention`` with the same polarity and with
        every result word the agent attaches to it ("temporal artery is tender" needs "tender" there too)."""
        ctx = tc.context_text if ctx is None and tc is not None else (ctx or "")
        words = mention.strip().lower()
        if len(words) < 4:
            return False
        qualifiers = {q.group(0).lower() for q in RESULT_RX.finditer(local)}
        qualifiers |= {q.group(0).lower() for q in re.finditer(r"\b\w{3,}less\b", local)}
        for m in re.finditer(rf"\b{re.escape(words)}\b", ctx, re.I):
            if (not mention_negated(ctx, m.start(), m.end())) != present:
                continue
            near = ctx[max(0, m.start() - 60) : m.end() + 60].lower()
            if all(q in near for q in qualifiers):
                return True
        # the same words in another order or another inflection within one sentence ("coarse tremor" /
        # "tremor has become coarse"; "gum bleeding" / "his gums bleed"): compared by stem
        content = [w for w in re.findall(r"[a-z][a-z\-]{2,}", words) if w not in _STOP]
        if len(content) < 2:
            return False
        for sent in re.split(r"(?<=[.!?])\s+|\n", ctx):
            low = sent.lower()
            # a hyphenated word is compared whole: the stem of "anti-smith" is the "anti-" of "anti-dsDNA"
            hits = [re.search(rf"\b{re.escape(w if '-' in w else _stem(w))}\w*", low) for w in content]
            if all(hits) and all(q in low for q in qualifiers):
                # negated at any of its words: "the sample reached the laboratory ... no haemolysis index was
                # reported" does not state a haemolysed sample
                negated = any(mention_negated(low, h.start(), h.end()) for h in hits if h)
                if (not negated) == present:
                    return True
        return False

    def _context_says_term(self, tc: TurnContext | None, item: str, present: bool, ctx: str | None = None) -> bool:
        """Whether the context (or ``ctx``) states a general term under any of its names in another word order or
        inflection (the stem comparison of :meth:`_context_says`, name by name)."""
        names = _finding_names().get(item, ())
        return any(len(n.split()) >= 2 and self._context_says(tc, n, present, ctx=ctx) for n in names)

    def _term_in_fact_claim(self, c: Claim, others: list[Claim]) -> bool:
        """Round 142: whether a general term's supported claim restates part of a case fact claimed right beside it
        ("JVP 7 cm, lungs clear", where the case's JVP statement also says the lung fields are clear): the case
        fact takes precedence over the general vocabulary, so the term is no claim of its own."""
        if not c.item.startswith("term:") or c.kind != "factual" or c.status != "supported":
            return False
        for o in others:
            f = self.know.matcher.facts.get(o.item) if o is not c else None
            # (only a claim right beside it: "JVP 7 cm, lungs clear", not another clause of the sentence)
            near = o.span.end <= c.span.start <= o.span.end + 25 or c.span.end <= o.span.start <= c.span.end + 25
            if f is not None and near and self._fact_states_term(f, c.item):
                return True
        return False

    def _fact_states_term(self, f: Fact, item: str) -> bool:
        """Whether a case fact's statement states a general term, under any name or in another word order (cached:
        the statements are fixed for the case)."""
        key = (f.id, item)
        if key not in self._states_term:
            self._states_term[key] = bool(
                self._context_polarity(None, item, ctx=f.statement) or self._context_says_term(None, item, True, ctx=f.statement)
            )
        return self._states_term[key]

    def _context_polarity(self, tc: TurnContext | None, item: str, ctx: str | None = None) -> bool | None:
        ctx = tc.context_text if ctx is None and tc is not None else (ctx or "")
        result = None
        for s, e, hits in lex_find(self.lex, ctx):
            if any(h[0] == item for h in hits):
                # a later item of the case's denial list is denied too ("He denies dysuria, urethral discharge,
                # fever or recent trauma"): otherwise "He's febrile" would be the context's own fever
                pol = not _denied_at(ctx, s, e)
                if result is None or pol:
                    result = pol
        return result
