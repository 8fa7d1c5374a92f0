"""Blocking rules of the claim layer: why a mention is not an assertion about the patient.

Recommendations and orders, prescriptions and doses, plan labels, deadlines and follow-up intervals,
conditional and hedged clauses, hypotheses under discussion, findings attributed to a third party
and thresholds. Kept apart from :mod:`medgym.judges.claims` because these rules decide whether a
mention is a claim at all, independently of checking it against the released facts.
"""

from __future__ import annotations

import re

from medgym.judges.textrules import (
    GENERIC_RX,
    MISSING_RX,
    MODAL_RX,
    PLAN_RX,
    QUESTION_RX,
    RELATIVE_RX,
    RESULT_RX,
    Segment,
    clause_bounds,
)
from medgym.text.numbers import Quantity, normalize_unit

# "until it's confirmed", "until the culture is back": a pending condition, but not "well until Tuesday"
_CONDITIONAL = re.compile(
    r"\b(?:if|unless|whether|in\s+case|once)\b|\b(?:until|till)\s+(?:the\s+)?\w+(?:['’]s|\s+(?:is|are|has|have))\b",
    re.I,
)
_CLAIM_HEDGE = re.compile(
    r"\b(?:may|might|could|possibly|perhaps|probably|presumably|maybe|suspect(?:ed)?|assum(?:e|ed|ing)|"
    r"guess|estimate[ds]?|expect(?:ed)?|would|will|hopefully|query|not\s+sure)\b",
    re.I,
)


# a finding attributed to a third party: "the admitting doctor's T10 sensory level",
# "the sensory level reported by the admitting doctor"
_SOURCE_POSSESSIVE = re.compile(
    r"\b(?:doctor|physician|paramedic|GP|nurse|radiologist|lab|laboratory|team|daughter|son|husband|wife|"
    r"partner|family|relative|referrer|colleague|registrar|ambulance\s+crew)(?:'s|s')\s+(?:[\w-]+\s+){0,3}$",
    re.I,
)
# a number naming a threshold rather than a patient value ("the 185/110 lysis threshold", "the 3.5 µg/dL reference
# value"); round 57: not a value compared with one ("a FIT of 210 well above threshold", "INR 7.8 against a target
# of 2-3", "148/88 is above target", "MCV 64 fL with target cells", "Creatinine 186 will limit ..."; round 60: "HR
# 118 she meets my threshold")
_COMPARED = (
    r"(?!(?:well|above|below|over|under|against|at|is|are|was|were|with|the|a|an|right|just|far|of|and|on|within|"
    r"in|near|beyond|exceed\w*|to|from|versus|vs|will|would|may|might|can|could|should|must|"
    # round 60: "HR 118 she meets my threshold": a value that meets a threshold, not the threshold's number
    r"she|he|they|we|i|it|you|her|his|their|its|my|our|meets?|met|reach\w*|cross\w*)\b)"
)
_THRESHOLD_AFTER = re.compile(
    rf"^\s*(?:/\s*\d+(?:\.\d+)?\s*)?(?:{_COMPARED}[a-z%/·µ]+\s+)?(?:{_COMPARED}[\w-]+\s+){{0,2}}?"
    r"(?:thresholds?|cut-?offs?|triggers?|targets?|ceilings?|limits?|windows?|reference\s+values?)\b",
    re.I,
)
# a value named as another source's ("the outside platelet count of 62", "the external lab's 1100")
_OUTSIDE_SOURCE = re.compile(
    r"\b(?:outside|external|outside-lab|other\s+hospital's|referring\s+hospital's)\s+(?:[\w'’-]+\s+){0,4}"
    r"(?:of\s+|at\s+|was\s+|is\s+|:\s*)?$",
    re.I,
)
_REPORTED_AFTER = re.compile(
    r"^\s*(?:[\w-]+\s+){0,2}(?:reported|documented|noted|described|recorded|found)\s+by\s+(?:the|a|an|her|his)\b",
    re.I,
)


# "Platelets, bilirubin and the abdominal exam — please chase.": a list of what is asked for, then the ask
_TRAILING_ASK = re.compile(
    r"(?:[—–:,]|\s-)\s*(?:please|pls|plz)\s+(?:chase|send|check|confirm|arrange|repeat|obtain|request|order|expedite)"
    r"(?:\s+(?:them|these|it|both|all|urgently|today|now))*\s*[.!]?\s*$",
    re.I,
)


def _request_start(seg: Segment) -> int | None:
    """Offset from which a segment asks for something (0 for a whole question), else None."""
    if seg.text.rstrip().endswith("?") or seg.section == "questions" or _TRAILING_ASK.search(seg.text):
        return 0
    m = QUESTION_RX.search(seg.text)
    return m.start() if m else None


_AFTER_HEDGE = re.compile(
    r"^\s*(?:[\w/%°.]+\s+){0,1}?(?:(?:is|are|was|were|seems?|appears?)\s+(?:probably|possibly|presumably|maybe|"
    r"likely|perhaps)|probably|possibly|presumably|perhaps|(?:may|might|could|must)\s+(?:be|have))\b",
    re.I,
)


# A sentence that opens with an order is a recommendation as a whole ("Meanwhile, start IV fluids,
# 1 L over 4 h."), and a number followed by a treatment is a dose ("100% O2", "20 mL/kg saline").
_IMPERATIVE_START = re.compile(
    r"^\W*(?:(?:meanwhile|then|also|now|first|next|and|so|in\s+the\s+meantime|immediately|urgently)\s*,?\s+)*"
    r"(?:please\s+)?(?:start|give|begin|commence|administer|continue|cont|stop|hold|withhold|catheteri[sz]e|insert|refer|"
    r"admit|treat|keep|aim|prescribe|monitor|escalate|resuscitate|transfuse|replace|correct|cover)\b",
    re.I,
)
_DOSE_BEFORE = re.compile(
    r"\b(?:fluids?|infusion|bolus(?:es)?|saline|crystalloids?|Hartmann'?s|oxygen|O2|dose|dosing|"
    r"(?:infusion|fluid|drip)\s+rate)\s+"
    r"(?:\w+\s+){0,1}(?:at|of)\s+(?:about\s+|around\s+)?$",
    re.I,
)
# "so no antibiotics", "rather than methotrexate", "instead of oral therapy": a decision about
# treatment, not a statement about the patient.
_MANAGEMENT_CHOICE = re.compile(
    r"(?:\b(?:so|therefore|hence|thus)\s+no\s+|\b(?:rather\s+than|instead\s+of|in\s+preference\s+to|"
    r"no\s+need\s+for|no\s+indication\s+for|not\s+(?:needing|requiring))\s+(?:\w+\s+){0,2})$",
    re.I,
)
# "HbA1c 5.3%, arguing against pre-existing diabetes", "reassuring against X": what a result weighs against
_ARGUED_AGAINST = re.compile(
    r"\b(?:(?:argu(?:es|ing|ed)|speaks?|speaking|points?|pointing|reassur\w*|weighs?|weighing|count(?:s|ing)?|"
    r"evidence|goes|going)\s+)?against\s+(?:(?:a|an|the|any|overt|true|underlying|significant)\s+)?$",
    re.I,
)
# units of a drug dose: an invented dose is a prescription, not a patient fact
_DOSE_UNITS = frozenset({"mg", "g", "mcg", "µg", "ug", "microgram", "micrograms", "mg/kg"})
# an inline plan label inside a paragraph ("… lid lag. Next steps: carbimazole 20 mg, TFTs in 4–6 weeks"):
# what follows is the plan, as under a "Next steps" heading
_INLINE_PLAN = re.compile(
    r"(?:^|(?<=[.;]\s)|(?<=\n))\**(?:(?:recommended\s+|suggested\s+|immediate\s+)?next\s+steps|plan|management(?:\s+plan)?|"
    r"recommendations?)\**\s*[:—–-]",
    re.I,
)
# a deadline of a recommendation: "an angiogram within 24 hours", "repeat it in the next 6 h"
_DEADLINE_BEFORE = re.compile(
    r"\b(?:within|inside|in\s+the\s+next|over\s+the\s+next|no\s+later\s+than)\s+(?:about\s+|the\s+)?$", re.I
)
# a follow-up interval of the plan: "repeat the venous level in 1–3 months", "review in 2 weeks"
_SCHEDULE_BEFORE = re.compile(
    r"\b(?:repeat\w*|re-?check\w*|review\w*|follow[\s-]?up|re-?test\w*|re-?imag\w*|re-?assess\w*|again|"
    r"re-?measur\w*|monitor\w*|f/u|re-[a-z]+)\b[^.;:?!]{0,60}\bin\s+(?:about\s+|another\s+|the\s+next\s+)?$"
    # terse notes drop the "in" and may name the test between: "f/u 1 wk", "recheck 48 h", "repeat CT 24 h",
    # "repeat EGD 8 wk", "F/u OB 1 wk", "observe 4 h", "FVC q4-6h" (every 4-6 hours)
    r"|(?:\b(?:repeat|re-?check|review|follow[\s-]?up|re-[a-z]+)|\bf/u)(?:\s+[A-Za-z][\w/&-]{0,12}){0,2}\s+$"
    r"|\b(?:observe|observation|obs)\s+(?:for\s+)?$|\bq\s*$"
    # round 57: "site check colonoscopy at 6 months", "surveillance at three years"
    r"|\b(?:surveillance|colonoscopy|re-?check|repeat|review|follow[\s-]?up|recall)\b[^.;:?!]{0,40}?\bat\s+$",
    re.I,
)
_TIME_UNITS = ("h", "d", "wk", "min", "mo", "month", "months", "y", "yr")
_TIME_WORD_AFTER = re.compile(r"^\s*(?:hours?|hrs?|days?|weeks?|wks?|months?|mos?|years?)\b", re.I)  # "in 12 mo"


def _scheduled(text: str, q: Quantity) -> bool:
    """Whether a time quantity is the timing of a recommendation, not a patient fact: a deadline ("an
    angiogram within 24 hours") or a follow-up interval after a repeat/review word ("repeat the lead
    level in 1–3 months", "review in 2 weeks"); a range keeps its unit after it ("1–3 months")."""
    timed = normalize_unit(q.unit) in _TIME_UNITS or (q.unit is None and _TIME_WORD_AFTER.match(text[q.end :]))
    if not timed:
        return False
    if re.match(r"\s*(?:[a-z]+\s+)?ago\b", text[q.end : q.end + 16], re.I):
        return False  # "repeat Hb 2 weeks ago": what happened
    if normalize_unit(q.unit) in ("h", "d", "wk", "min") and _DEADLINE_BEFORE.search(text[max(0, q.start - 25) : q.start]):
        return True
    return bool(_SCHEDULE_BEFORE.search(text[max(0, q.start - 90) : q.start]))


# the treatment or follow-up a sentence orders: its durations, volumes, rates and strengths are the plan's
# ("IV fluids 1 L over 4 hours", "Running IVF 250 mL/h", "insulin infusion with 10% glucose", "step down to
# oral ciprofloxacin, 7 days in total", "re-examine her in 2 h", "high-flow oxygen for six hours")
_PLAN_CUE = re.compile(
    r"\b(?:IV\s*fluids?|IVF|fluids|infusion|oxygen|O2|insulin|antibiotics?|course|running|run|bolus|step\s+down|"
    r"switch|discharge|catheteri[sz]e|re-?examine|re-?check|repeat|chase|plan|then|needs?|start|give|continue)\b",
    re.I,
)
_PLAN_UNITS = frozenset({"h", "d", "wk", "min", "l", "ml", "ml/h", "l/min", "%", "ml/kg", "ml/kg/h"})
_DOSE_THEN_FOR = re.compile(r"\d\s*(?:mg|g|mcg|µg|units?|mg/kg|g/kg)\b(?:\s+[\w/]+){0,3}?\s+for\s+$", re.I)
_PLAN_HISTORY = re.compile(r"\b(?:has|had|have|was|were|been|took|ago|since|previous(?:ly)?|already)\b", re.I)


def _dose_course(text: str, q: Quantity) -> bool:
    """Whether a duration right after a dose is the course of a treatment ordered ("IV methylprednisolone 1 g
    for 5 days"). Only asked of a duration the case does not state: "ibuprofen 800 mg tds for 10 days" as
    the released history stays a supported claim."""
    lead = re.split(r"[.;:!?]\s", text[max(0, q.start - 60) : q.start])[-1]
    unit = normalize_unit(q.unit) if q.unit else None
    timed = unit in ("h", "d", "wk") or bool(_TIME_WORD_AFTER.match(text[q.end :]))
    return timed and bool(_DOSE_THEN_FOR.search(lead)) and not _PLAN_HISTORY.search(lead) and not _TAKING_BEFORE.search(lead)


def _plan_quantity(text: str, q: Quantity) -> bool:
    """Whether a duration, volume, rate or concentration is part of the treatment the sentence orders,
    not a fact about the patient (a history of treatment, "has been on antibiotics for 3 days", stays)."""
    unit = normalize_unit(q.unit) if q.unit else None
    after = text[q.end : q.end + 12]
    if unit not in _PLAN_UNITS and not re.match(r"\s*(?:mL/h|ml/hr|hours?|days?|weeks?|minutes?)\b", after, re.I):
        return False
    if re.match(r"[\s\w]{0,12}?\b(?:ago|less|more|fewer|lower|higher|reduction|cut|down|up)\b", after, re.I):
        return False  # "eight days ago", "~20% less insulin": what happened, not what is ordered
    lead = text[max(0, q.start - 80) : q.start]
    lead = re.split(r"[.;:!?]\s", lead)[-1]
    return bool(_PLAN_CUE.search(lead)) and not _PLAN_HISTORY.search(lead) and not _TAKING_BEFORE.search(lead)


# a dose said as what the patient takes or took ("she is on propranolol 40 mg", "has been taking
# 20 mg"): an unsupported one is an invented history, not a prescription
_TAKING_BEFORE = re.compile(
    r"\b(?:(?:is|was|been|are|were|already|currently|still)\s+on|on\s+(?:regular|long-term|maintenance)|"
    r"takes|taking|took|taken|uses|using|used|received|receiving|dispensed|(?:was|were|been)\s+(?:given|prescribed|started))"
    r"\b[^.;:]*$",
    re.I,
)
# a drug named as what the patient takes: "is on", "been taking", "regular", "his usual"
_ON_DRUG_BEFORE = re.compile(
    r"(?:(?<!hold off )(?<!start )(?<!put )(?<!switch )(?<!keep )(?<!him )(?<!her )\bon|\btakes|\btaking|\btook|"
    r"\btaken|\buses|\busing|\bused|\breceived|\breceiving|\bdispensed|\bregular|\busual|\bhistory\s+of|"
    # (round 137: "He was treated with prednisolone for colitis": a treatment he had, not one ordered)
    r"\bhad|\b(?:was|were|been)\s+treated\s+with)\s+(?:(?:an?|the|his|her|regular|long-term|daily|oral|some|any)\s+){0,2}$",
    re.I,
)
# what says a drug is something the patient takes or took, besides _ON_DRUG_BEFORE and _TAKING_BEFORE, in
# the words before it ("a short course of", "daily", "stopped") or right after it ("ibuprofen for her knees since May", "aspirin use")
_TAKEN_BEFORE = re.compile(
    r"\b(?:course|daily|regular|usual|long-term|take|prescribed|started|stopped|self-d/c'?d|overdose|allerg\w*|"
    r"intoleran\w*|reaction|since|ago)\b[^.;:]*$",
    re.I,
)
_TAKEN_AFTER = re.compile(
    r"^\W{0,3}(?:[\w-]+\s+){0,3}?(?:use|usage|intake|course|daily|since|ago|for\s+(?:the\s+)?(?:past|last|\d|a\s|an\s|several|many|years?|months?|weeks?)|"
    r"started|stopped|overdose|toxicity|levels?|allergy|tablets?|dispensed|times\s+a\s+day|throughout|was|were|had|has|"
    r"which\s+(?:she|he)|that\s+(?:she|he))\b",
    re.I,
)


def _taken_by_patient(text: str, s: int, e: int) -> bool:
    """Whether the words around a drug name say the patient takes, took or reacted to it. Without such
    words a drug named outside the evidence is treatment talk ("- Ca gluconate, insulin/D50", "Plan
    delivery after steroids", "metformin if targets are missed"), not a claim about the patient's
    history."""
    c0 = max(text.rfind(".", 0, s), text.rfind(";", 0, s), text.rfind("\n", 0, s), s - 60) + 1
    before = text[c0:s]
    return bool(
        _ON_DRUG_BEFORE.search(before) or _TAKING_BEFORE.search(before) or _TAKEN_BEFORE.search(before)
        or _TAKEN_AFTER.match(text[e : e + 50]) or _med_list_before(text[max(0, s - 120) : s])
    )


def _med_list_before(window: str) -> bool:
    """Whether a drug stands in the list under a medication label; the label's colon is checked first, so the
    regex runs only on the few drug mentions that have one before them (this is asked of every drug mention)."""
    return ":" in window and bool(_MED_LIST_BEFORE.search(window))


# round 62: a drug in the list under a medication label ("Meds: oxybutynin, amlodipine, lisinopril", "DHx: ...")
# is what the patient takes
_MED_LIST_BEFORE = re.compile(
    r"(?:^|\n|[.;]\s)\W*(?:(?:current|regular|home|usual)\s+)?(?:meds|medications?|drug\s+history|DHx|drugs)\s*:"
    r"[^.;:\n]*$",
    re.I,
)


# prescription wording around a drug name: an order, a dose with a schedule, "should be running"
_PRESCRIBING = re.compile(
    r"\b(?:give|giving|proceed|administer|load(?:ing)?|hold(?:\s+off)?|withhold|continue|switch(?:\s+to)?|commence|prescribe|"
    # terse orders: "Cont metformin", "d/c oxybutynin", "stop NSAIDs", "avoid NSAIDs", "resume isoniazid"
    r"cont|stop|d/c|discontinue|resume|restart|avoid|"
    # "I have started treatment-dose heparin": the writer's own order (a bare "started" is history)
    r"(?:I|we)(?:\s+have|'ve)?\s+(?:already\s+|now\s+)?started|"
    r"start(?:ing)?|can\s+start|should\s+(?:already\s+)?be\s+(?:running|given|started|continued)|titrat\w*|"
    r"tds|bd|od|qds|nocte|mane|tid|bid|qid|prn|stat|"
    # "IV calcium gluconate and insulin-dextrose", "heparin bolus", "induction with X and steroids",
    # "metformin if needed": treatment being planned
    r"IV|bolus|infusion|drip|gtt|needs?|requires?|induction\s+with|if\s+(?:needed|required|necessary)|as\s+needed)\b|"
    r"\b\d+(?:\.\d+)?\s*(?:mg|mcg|µg|micrograms?|units)\b",
    re.I,
)
_CAUSE_OF = re.compile(
    r"\b(?:cause|causes|source|origin|explanation|reason|driver|aetiology|etiology)\s+(?:of|for|behind)\s+"
    r"(?:her|his|their|the|this)\s+$",
    re.I,
)
# the one word allowed between the number and the treatment is its unit or route ("1L NS bolus", "15 L/min
# oxygen"), never a verb: "an NT-proBNP of 4200 confirms fluid overload" states a result
_DOSE_AFTER = re.compile(
    r"^\s*(?:(?!(?:confirm|suggest|indicat|show|support|point|favou?r|mean|make|is|are|was|were)\w*\s)"
    # round 118: nor a preposition: "falling to 9% after oxygen", "sats 91% on oxygen" state a result
    r"(?!(?:after|on|off|with|despite|before|post|following|since)\s)[\w/%°µ.]+\s+)?(?:(?:high[\s-]flow|supplemental|humidified)\s+)?(?:O2|oxygen|saline|dextrose|"
    r"fluids?|bolus|boluses|crystalloid|Hartmann'?s|infusion|via|stat)\b",
    re.I,
)


# "BP, urine PCR and LDH were requested but never reported": the items before the contrast are missing
_REQUESTED_BUT_NOT = re.compile(
    r"^[^.;:]{0,80}?\b(?:was|were|been)\s+(?:requested|ordered|asked\s+for)\s+but\s+(?:never|not)\b", re.I
)


# an order line: a treatment named with how to give it ("IV calcium gluconate 10%, 30 mL over 10 minutes",
# "IVIG 0.4 g/kg/d x5d", "Insulin 10 units with glucose")
_ORDER_LINE = re.compile(r"\b(?:gluconate|IVIG|immunoglobulin|insulin|infusion|bolus|g/kg|mg/kg)\b", re.I)
_DOSE_UNIT_AFTER = re.compile(
    r"^\s*(?:mL(?![/\w])|ml(?![/\w])|L(?![/\w])|g/kg|mg/kg|(?:mg|g|mcg|µg)(?![/\w])|units?\b)", re.I
)
_DRUG_STRENGTH_BEFORE = re.compile(r"\b(?:gluconate|chloride|dextrose|glucose|saline|bicarbonate)\s*$", re.I)
_OVER_BEFORE = re.compile(r"\bover\s*$", re.I)
_INTERVAL_AFTER = re.compile(r"^\s*(?:h|hr|hrs|hourly|d)\b", re.I)  # not "q15min": an episode frequency
# round 56: "FVC 6-hourly", "BMs 4-hourly", "obs 2-hrly": how often to measure, not a value
_FREQUENCY_AFTER = re.compile(r"^-?\s*(?:hourly|hrly)\b", re.I)
# round 56b: "(I wrote 45 earlier, which was wrong)", "I mis-typed it as 120 in my first note": the agent quotes
# what it said before (to withdraw it), it does not assert it again
_OWN_EARLIER_BEFORE = re.compile(
    r"\bI\s+(?:wrote|said|quoted|gave|stated|typed|mis-?typed|mis-?quoted|recorded|put)\s+(?:it\s+as\s+)?"
    r"(?:[\w-]+\s+){0,2}$",
    re.I,
)
# round 56: a value to reach, not one measured: "aim for a blood pressure below 130/80", "transfuse to Hgb >7",
# "aiming for a urine output above 0.5 mL/kg/h", "target SpO2 of 94"
_TARGET_VERB = r"\b(?:aim(?:s|ing)?|target(?:s|ing)?|keep(?:ing)?|maintain(?:ing)?)\b"
# the words that bound a value ("below 130/80", "at least 0.5", "<185/110"); \u2265 and \u2264 are >= and <=
_BOUND_WORD = r"below|above|under|over|at\s+least|less\s+than|more\s+than"
_TARGET_BEFORE = re.compile(
    rf"(?:{_TARGET_VERB}|\btransfuse\s+to\b)[^.;:]{{0,40}}?"
    rf"(?:\b(?:{_BOUND_WORD}|greater\s+than|of)\s+|[<>\u2265\u2264]\s*)$",
    re.I,
)


# round 57: numbers that name, bound or schedule rather than measure. An ECG lead range ("peaked T waves V2-4",
# "ST depression V1-V3", "posterior leads V7-9") or the "12-lead" ECG names leads
_LEAD_RANGE_BEFORE = re.compile(r"\bV\d{1,2}\s*[-\u2013\u2014]\s*V?$")
_LEAD_AFTER = re.compile(r"^\s*-?\s*leads?\b", re.I)
# a value to reach, named with its verb ("titrating to a blood pressure below 130/80", "labetalol to get the BP
# below 150/100", "fluid-load to SBP >90", "BP goal <180/105", "weight loss goal 7%")
_TARGET_MORE_BEFORE = re.compile(
    r"(?:\btitrat\w*|\bto\s+(?:bring|get|lower|reduce|drop)|\bfluid[\s-]?load\w*\s+to|\bgoals?)\b[^.;:]{0,40}?"
    rf"(?:\b(?:{_BOUND_WORD})\s+|[<>\u2265\u2264]\s*)$|"
    r"\b(?:goals?|targets?)\s*:?\s*$",
    re.I,
)
# a threshold stated as a bound ("an HbA1c of 48 or more would", "large (2 cm or more)", "BP <185/110 pre-lysis",
# "the NICE thresholds of 5.6 and 7.8 mmol/L"; a number before the threshold's name is _THRESHOLD_AFTER's)
_OR_MORE_AFTER = re.compile(r"^\s*(?:[\w/%\u00b5]+\s+)?or\s+(?:more|above|higher|greater|over|less|below|lower|under)\b", re.I)
_LYSIS_AFTER = re.compile(r"^\s*(?:pre-?(?:lysis|thrombolysis|tPA|alteplase|tenecteplase)|(?:before|for)\s+(?:thrombo)?lysis)\b", re.I)
_THRESHOLD_BEFORE = re.compile(
    r"\b(?:thresholds?|cut-?offs?|ceiling|criteri(?:on|a)|reference\s+(?:values?|limits?))\s*(?:of|at|is|are|:)?\s*\(?\s*"
    # round 90: a list of the thresholds, each by its measure ("the diagnostic threshold (HbA1c 48, fasting 7.0,
    # 2-hour 11.1)")
    r"(?:(?:[\w-]+\s+)?[\d.]+\s*(?:[\w/%\u00b5]+\s*)?(?:and|or|,)\s*)*(?:[A-Za-z][\w-]*\s+|\d[\w]*-[a-z]+\s+)?$",
    re.I,
)
# a change in a plan ("reduce basal by 10%", "correction of no more than 8 mmol/L in 24 hours"), a fluid
# allowance ("Fluid restrict 1 L/d") and a drug strength ("calcium gluconate 10 mL of 10%")
_CHANGE_BY_BEFORE = re.compile(
    r"\b(?:reduc\w*|increas\w*|cut|lower\w*|decreas\w*|titrat\w*|wean\w*|drop)\b[^.;:]{0,30}?\bby\s+(?:about\s+|around\s+)?$",
    re.I,
)
# a surveillance interval named before its test ("Plan 3-yr colonoscopy") and a type label ("type 2 rise",
# "type 4 RTA"); an interval after it ("colonoscopy at 6 months") is _SCHEDULE_BEFORE's
_INTERVAL_PLAN_AFTER = re.compile(
    r"^\s*-?\s*(?:yr|year|month|mo|week|wk)s?\s+(?:surveillance|colonoscopy|follow[\s-]?up|review|recall|repeat|scope)\b",
    re.I,
)
_TYPE_BEFORE = re.compile(r"\btype\s+$", re.I)
# the measure named right before its bound ("BP goal <180/105", "the BP below 150/100", "BP <185/110 pre-lysis")
# (the boluses of "boluses to keep SBP above 90", round 56, are found this way too)
_BOUND_AFTER_NAME = re.compile(
    rf"^\s*(?:(?:goal|target)\s*:?\s*)?(?:(?:of|is|was)\s+)?(?:(?:{_BOUND_WORD})\s+|[<>\u2265\u2264]\s*)"
    r"(\d{1,3}(?:\.\d+)?(?:\s*/\s*\d{2,3})?)",
    re.I,
)


def _bound_not_value(text: str, pos: int, end: int) -> bool:
    """Whether the number at ``pos:end`` is a target to reach (rounds 56 and 57) or a threshold (round 57), not a
    measured value."""
    before = text[max(0, pos - 60) : pos]
    return bool(
        _TARGET_BEFORE.search(before) or _TARGET_MORE_BEFORE.search(before) or _THRESHOLD_BEFORE.search(before)
        or _OR_MORE_AFTER.match(text[end : end + 25]) or _LYSIS_AFTER.match(text[end : end + 25])
    )


_LIMIT_BEFORE = re.compile(
    r"\b(?:no|not)\s+more\s+than\s+(?:[\d.]+\s*[\w/]*\s+(?:in|per|over)\s+)?$|\bat\s+most\s+$", re.I
)
_FLUID_PER_DAY = re.compile(r"^\s*m?L\s*/\s*(?:d|day)\b", re.I)
_FLUID_BEFORE = re.compile(r"\b(?:fluids?|restrict\w*|intake|limit\w*)\b[^.;:]{0,25}$", re.I)
# a dosing schedule ("IV artesunate 2.4 mg/kg at 0, 12 and 24 h")
_DOSING_TIMES_BEFORE = re.compile(r"\bat\s+0(?:\s*h)?\s*,\s*(?:\d+(?:\s*h)?\s*,?\s*(?:and\s+)?)*$", re.I)
_STRENGTH_OF_BEFORE = re.compile(r"\d\s*m?L\s+of\s+$", re.I)
# round 57: a test awaited ("until the histology is back", "until a venous level confirms it", "until three
# films are negative") or named as the means of a plan ("Non-contrast CT head to exclude hemorrhage", "RUQ US to
# confirm stones") is not a result
_UNTIL_BEFORE = re.compile(
    r"\b(?:until|till|pending)\s+(?!(?:[\w-]+\s+){0,3}?(?:ago|yesterday|today|tonight|last|this|when|recently|now)\b)"
    r"(?:[\w-]+\s+){0,4}$",
    re.I,
)
# round 142: a test's result said to be missing ("Without the OGTT values I still think ..."); "a rash without fever"
# still denies the fever
_WITHOUT_BEFORE = re.compile(r"\bwithout\s+(?:the\s+|his\s+|her\s+|any\s+)?$", re.I)
_RESULT_NOUN_AFTER = re.compile(r"\s*(?:values?|results?|reports?|numbers?|levels?|readings?)\b", re.I)
# round 67: a sign to be watched for ("Plt 26, watch for bleeding", "monitor for signs of cerebral oedema", "safety-net
# for fever"): what may come, not a finding
_WATCH_FOR_BEFORE = re.compile(
    r"\b(?:watch(?:ing)?|monitor(?:ing)?|observe|observing|look(?:ing)?\s+out|safety-?net(?:ting)?|vigilant|"
    r"warn(?:ed)?(?:\s+(?:him|her|them|the\s+family|the\s+parents))?|alert)\s+(?:closely\s+|carefully\s+)?for\s+"
    r"(?:any\s+|further\s+|new\s+|early\s+|(?:clinical\s+)?signs?\s+of\s+|symptoms?\s+of\s+)*$|"
    # round 142: or a risk named ("given the risk of AV block", "he is at risk of complete heart block")
    r"\brisks?\s+(?:of|for)\s+(?:developing\s+|progression\s+to\s+)?$",
    re.I,
)
# round 67: what a test ordered on a line is for ("- CT KUB for stone burden/nephrocalcinosis", "MRI pelvis to look
# for a teratoma"): the line opens with the study and the mention is its purpose
_PURPOSE_LINE_BEFORE = re.compile(
    r"^[\s\-*•]*(?:\d+[.)]\s*)?(?:(?:repeat|urgent|non-?contrast|contrast|plain)\s+)?"
    r"(?:CT|HRCT|CTPA|CTA|MRI|MRA|MRCP|PET(?:-CT)?|US|USS|ultrasound|X-?ray|CXR|AXR|DEXA|DXA|echo\w*|ECG|EEG|"
    r"sestamibi|biopsy|scan|OGD|EGD|colonoscopy|endoscopy)\b[^.;:]{0,40}?\s+(?:for|to\s+(?:look\s+for|assess|exclude|"
    r"rule\s+out|check\s+for|quantify|stage))\s+[^.;:]{0,60}$",
    re.I,
)
# round 57: the specimen of a culture ordered ("BCx x2, sputum cx"), the activity of a known disease ("not a lupus
# flare", "no serological lupus activity") and a diagnosis set aside with "this is not" ("this is not autoimmune
# hemolysis", "this isn't just a contaminated fingerstick", "lead poisoning and not iron deficiency alone")
_SPECIMEN_AFTER = re.compile(r"^\s*(?:cx|cultures?|MC&S|m/c/s)\b", re.I)
_ACTIVITY_AFTER = re.compile(r"^\s*(?:flares?|activity|relapses?)\b", re.I)
_NOT_THIS_BEFORE = re.compile(
    r"(?:\b(?:this|that|it)\s+(?:is|was)\s+not|\b(?:this|that|it)\s*(?:isn['’]t|wasn['’]t)|\bthis\s+is\s+[^,.;:]{1,60}\s+and\s+not)"
    r"\s+(?:just\s+|simply\s+|merely\s+|only\s+)?(?:an?\s+|the\s+)?(?:[\w-]+\s+){0,2}$",
    re.I,
)
_MEANS_AFTER = re.compile(
    r"^\s*(?:(?:is|are|would\s+be)\s+)?(?:(?:needed|required|requested|planned)\s+)?to\s+"
    r"(?:exclude|rule\s+out|confirm|look\s+for|assess|evaluate|screen\s+for)\b",
    re.I,
)


# round 56: a name set against the diagnosis held ("This is primary hyperparathyroidism, not idiopathic
# hypercalciuria", "this is AATD, not simple smoking COPD", "latent TB rather than a BCG effect", "a positive
# IGRA is not explained by BCG"): the other explanation, not a finding denied
_CONTRAST_BEFORE = re.compile(
    r"(?:\brather\s+than|\binstead\s+of|\bnot\s+(?:explained|affected|caused)\s+by|"
    r"\bnot\s+(?:simple|simply|idiopathic|just|merely|pure|plain)|\bthis\s+is\s+[^,.;:]{1,60},\s+not)\s+"
    r"(?:an?\s+|the\s+)?(?:simple\s+|idiopathic\s+|isolated\s+)?$",
    re.I,
)
# round 56: a word after a value and an arrow or dash reads that value out ("DEXA: T-score -1.6 at radius —
# osteopenia", "T -1.6 only osteopenia", "ALT 400 -> hepatocellular"); the value carries the claim
_READOUT_BEFORE = re.compile(
    r"(?<![\w.])\d+(?:\.\d+)?\s*(?:[^\W\d_][\w%/µ.]*\s*){0,2}(?:→|->|=>)\s*(?:only\s+|so\s+|i\.e\.?\s+)?$|"
    # with a dash only after a measured (decimal) value: not "aged 11 — type 1 diabetes", "M1 occlusion — CTA"
    r"(?<![\w.])\d+\.\d+\s*(?:[^\W\d_][\w%/µ.]*\s*){0,2}(?:—|–)\s*(?:only\s+|so\s+|i\.e\.?\s+)?$|"
    r"(?<![\w.])\d+(?:\.\d+)?\s+only\s+$",
    re.I,
)
# "No vit D/Ca/thiazide/Li": a slash list of drugs after "no" (round 56); "Ca" there is calcium tablets
_SLASH_LIST = re.compile(r"\bno\s+((?:[\w .-]{1,20}/)+[\w .-]{1,20})", re.I)
_DRUG_WORD = re.compile(
    r"^\s*(?:vit(?:amin)?\s*D|thiazides?|lithium|Li|NSAIDs?|steroids?|supplements?|diuretics?|PPIs?|OCP|HRT)\s*$", re.I
)


def _in_drug_slash_list(text: str, pos: int, end: int) -> bool:
    """Whether the mention is one non-drug word of a slash list of drugs after "no" ("Ca" in "No vit
    D/Ca/thiazide/Li"); the drugs of the list stay the medication claim."""
    said = text[pos:end].strip()
    if "/" not in text or _DRUG_WORD.match(said):
        return False  # no slash list here (the common case: one test, no regex scan), or a drug of the list
    for m in _SLASH_LIST.finditer(text):
        if m.start(1) <= pos and end <= m.end(1):
            parts = [p.strip() for p in m.group(1).split("/")]
            return said in parts and any(_DRUG_WORD.match(p) for p in parts)
    return False


def _blocked(
    text: str, pos: int, end: int, objective: bool, numeric: bool = False, dx_local: list[tuple[int, int]] = ()
) -> str | None:
    """Why a mention at ``pos`` is not an assertion (None if it is)."""
    if _IMPERATIVE_START.match(text):
        return "recommendation (the sentence is an order)"
    if numeric and _DOSE_AFTER.match(text[end : end + 40]):
        return "treatment dose"
    if numeric and _DOSE_BEFORE.search(text[max(0, pos - 40) : pos]):
        return "treatment rate or dose"  # "fluids at 250 mL/h", "a bolus of 500 mL"
    if numeric and pos > 0 and text[pos - 1] in "qQ" and _INTERVAL_AFTER.match(re.sub(r"^[\d.]+", "", text[pos : end + 6])):
        return "a dosing or sampling interval ('q48h', 'q6h')"
    if numeric and re.fullmatch(r"\d+", text[pos:end]) and _FREQUENCY_AFTER.match(text[end : end + 12]):
        return "a monitoring or dosing frequency ('FVC 6-hourly')"
    if numeric and (_LEAD_RANGE_BEFORE.search(text[max(0, pos - 8) : pos]) or _LEAD_AFTER.match(text[end : end + 10])):
        return "an ECG lead name ('V2-4', '12-lead'), not a value"
    if numeric and _TYPE_BEFORE.search(text[max(0, pos - 8) : pos]):
        return "a type label ('type 2 rise', 'type 4 RTA'), not a value"
    if numeric and _bound_not_value(text, pos, end):
        return "a target or threshold ('transfuse to Hgb >7', 'titrating to below 130/80', 'an HbA1c of 48 or more')"
    if not numeric:
        b = _BOUND_AFTER_NAME.match(text[end : end + 40])
        if b and _bound_not_value(text, end + b.start(1), end + b.end(1)):
            return "the measure of a target or threshold ('keep SBP above 90', 'BP goal <180/105')"
    if numeric and (
        _CHANGE_BY_BEFORE.search(text[max(0, pos - 50) : pos]) or _LIMIT_BEFORE.search(text[max(0, pos - 40) : pos])
        or _INTERVAL_PLAN_AFTER.match(text[end : end + 30])
        or _DOSING_TIMES_BEFORE.search(text[max(0, pos - 30) : pos])
        or (_FLUID_PER_DAY.match(text[end : end + 12]) and _FLUID_BEFORE.search(text[max(0, pos - 30) : pos]))
        or (text[pos:end].endswith("%") and _STRENGTH_OF_BEFORE.search(text[max(0, pos - 12) : pos]))
    ):
        return "a change, interval, allowance or strength in a plan ('reduce basal by 10%', 'Fluid restrict 1 L/d')"
    if not numeric and _care_team(text, pos, end):
        return "a specialty named as the team that sees the patient, not a finding"
    if not numeric and _SPECIMEN_AFTER.match(text[end : end + 12]):
        return "the specimen of a culture ('sputum cx'), not a finding"
    if not numeric and (_ACTIVITY_AFTER.match(text[end : end + 15]) or _NOT_THIS_BEFORE.search(text[max(0, pos - 100) : pos])):
        return "a diagnosis or its activity set aside ('not a lupus flare', 'this is not autoimmune hemolysis')"
    if not numeric and _PURPOSE_LINE_BEFORE.search(text[text.rfind("\n", 0, pos) + 1 : pos]):
        return "what a test ordered on the line is for ('CT KUB for stone burden/nephrocalcinosis'), not a result"
    if not numeric and _WATCH_FOR_BEFORE.search(text[max(0, pos - 50) : pos]):
        return "a sign to be watched for ('watch for bleeding'), not a finding"
    if not numeric and (_UNTIL_BEFORE.search(text[max(0, pos - 50) : pos]) or _MEANS_AFTER.match(text[end : end + 40])):
        return "a test awaited or planned ('until the histology is back', 'CT head to exclude bleeding'), not a result"
    if not numeric and _WITHOUT_BEFORE.search(text[max(0, pos - 20) : pos]) and _RESULT_NOUN_AFTER.match(text[end : end + 20]):
        return "a result said to be missing ('Without the OGTT values I still think ...'), not a finding"
    if numeric and _ORDER_LINE.search(text) and (
        _DOSE_UNIT_AFTER.match(re.sub(r"^[\d.,\s–-]+", "", text[pos:end]) + text[end : end + 20])
        or _DRUG_STRENGTH_BEFORE.search(text[max(0, pos - 15) : pos])
        or _OVER_BEFORE.search(text[max(0, pos - 6) : pos])
    ):
        return "a dose or rate in a treatment order"  # "IV calcium gluconate 10%, 30 mL over 10 minutes"
    c0, c1 = clause_bounds(text, pos)
    before = text[c0:pos]
    clause = text[c0:c1]
    if not numeric and _HYPOTHESIS_AFTER.match(text[end : end + 60]):
        return "a hypothesis under discussion"  # "the tumour worry", "makes liver disease very unlikely"
    if not numeric and _READOUT_BEFORE.search(text[max(0, pos - 40) : pos]):
        return "a reading of the value just given ('T -1.6 radius — osteopenia'), not a finding of its own"
    if pos > 0 and text[pos - 1] == "?":
        return "queried ('?smoker'), not asserted"
    if _OWN_EARLIER_BEFORE.search(text[max(0, pos - 40) : pos]):
        return "the agent quoting its own earlier words ('I wrote 45 earlier, which was wrong')"
    if not numeric and _CONTRAST_BEFORE.search(text[max(0, pos - 80) : pos]):
        return "a diagnosis set aside ('this is X, not idiopathic Y', 'rather than a BCG effect'), not a patient fact"
    if not numeric and _in_drug_slash_list(text, pos, end):
        return "a drug the patient does not take ('No vit D/Ca/thiazide/Li')"
    ah = None if numeric else _AFTER_HEDGE.match(text[end : end + 40])
    if ah and not any(end + ah.end() <= a < c1 for a, _b in dx_local):
        return "hedged"  # "his bilirubin is probably high" (not "... could be <diagnosis>")
    if _CONDITIONAL.search(before) or _CONDITIONAL.search(text[max(0, c0 - 40):c0][-15:]):
        return "conditional"
    if _CLAIM_HEDGE.search(_after_premise_cue(before)):
        return "hedged"
    if not numeric and _ARGUED_AGAINST.search(text[max(0, pos - 40) : pos]):
        return "a hypothesis argued against ('arguing against pre-existing diabetes'), not a patient fact"
    if _MANAGEMENT_CHOICE.search(before) and not numeric:
        return "management choice (what to give or not give), not a patient fact"
    if _generic_clause(clause) and not (numeric and _remarks_on_value(text, pos, end, c0, c1)):
        return "general knowledge"
    if MISSING_RX.search(_sub_sentence(text, pos)) or _REQUESTED_BUT_NOT.search(text[pos:]):
        return "states that it is missing or pending"
    if PLAN_RX.search(before) or (MODAL_RX.search(before) and not RESULT_RX.search(text[end:c1])):
        return "recommendation"
    lead = _TREATMENT_NEED.search(text[:pos])
    if lead and not _LIST_BREAK.search(text[lead.end() : pos]):
        return "recommendation (an item of what the patient needs)"  # "needs admission for monitoring, IV X and Y"
    if not numeric and _WOULD_SETTLE.match(text[end:c1]) and not _FINITE_BEFORE.search(before):
        return "a hypothetical result (what would settle the question), not a patient fact"
    if not numeric and (_TREATMENT_WORD.fullmatch(text[pos:end].strip()) or _TREATMENT_WORD.search(text[pos:end])) and (
        _MANAGEMENT_CUE.search(_sub_sentence(text, pos))
    ) and not RELATIVE_RX.search(before):  # "a mother who needed dialysis" is her history
        return "a treatment or procedure under management discussion, not a patient fact"
    return None


# round 104: a specialty named as the team that sees the patient ("Neurology to see today", "admission under
# neurology", "Neurology should be involved", "Haldane, Neurology registrar"), not the examination it shares a
# word with ("Her neurology is normal" stays a finding)
_SPECIALTY = re.compile(
    r"(?:neurology|cardiology|gastroenterology|gynaecology|gynecology|obstetrics|urology|rheumatology|nephrology|"
    r"haematology|hematology|endocrinology|respiratory|psychiatry|surgery|surgeons?|ICU|ITU|oncology)$",
    re.I,
)
_TEAM_AFTER = re.compile(
    r"^\s*(?:(?:and|&|/)\s*\w+\s+)?(?:to\s+(?:see|review|assess|take\s+over|be\s+involved)|should\s+(?:see|review|be)|"
    r"will\s+(?:see|review)|registrar|consultant|team|colleagues|consult|input|review|on[\s-]call|are\s+aware|"
    r"(?:is|are|has\s+been|have\s+been)\s+(?:aware|involved|informed|contacted|called))\b",
    re.I,
)
_TEAM_BEFORE = re.compile(
    r"\b(?:under|involve|involving|ask|asked|discuss(?:ed)?\s+with|liais\w*\s+with|inform|informed|contact|per|"
    r"refer(?:red|ral)?\s+to|admit\w*\s+to)\s+(?:the\s+)?$",
    re.I,
)


def _care_team(text: str, pos: int, end: int) -> bool:
    """Whether the mention is a specialty named as the care team rather than the finding its word names."""
    return bool(_SPECIALTY.search(text[pos:end])) and bool(
        _TEAM_AFTER.match(text[end : end + 40]) or _TEAM_BEFORE.search(text[max(0, pos - 30) : pos])
    )


# "The AST of 826 is higher than I would expect", "Hb 4.8 is more than a single DU usually produces": the
# patient's own value, named with a definite or possessive word (or bare, as a note's "Hb 4.8"), is the
# subject and the general remark is about it; "a sodium of 118 usually causes seizures" stays general
_DEFINITE_SUBJECT = re.compile(
    r"(?:^\s*(?!(?:a|an|any|some|patients|people)\b)|\b(?:the|his|her|their|this|that|its|our)\s)[^;:]{0,60}$", re.I
)
_THAN_EXPECTED = re.compile(r"\bthan\s+(?:I|we|you|one)\s+would\s+(?:\w+\s+)?expect", re.I)


# round 138: the premise of a hedged call ("Still suspect dengue coinfection given petechiae + plt 62"): the hedge is
# on the call, the premise after "given" / "in view of" / "because of" is stated (not "he may have been given X")
_PREMISE_CUE = re.compile(
    r"\b(?:(?<!been\s)(?<!\bbe\s)(?<!was\s)(?<!were\s)(?<!\bis\s)(?<!are\s)given|in\s+view\s+of|because\s+of)\s", re.I
)
# round 138: "can be" said of the patient ("a normal bilirubin mean he can be managed as uncomplicated") is no
# general statement
_PATIENT_SUBJECT = re.compile(r"\b(?:he|she|they|the\s+patient)\s+$", re.I)


def _after_premise_cue(before: str) -> str:
    """The words before a claim from its last premise cue on ("... suspect X given " -> ""), else all of them."""
    cues = list(_PREMISE_CUE.finditer(before))
    return before[cues[-1].end() :] if cues else before


def _generic_clause(clause: str) -> bool:
    """Whether a clause states general knowledge: a generic phrase not said of the patient ("he can be managed")."""
    return any(not _PATIENT_SUBJECT.search(clause[: m.start()]) for m in GENERIC_RX.finditer(clause))


def _remarks_on_value(text: str, pos: int, end: int, c0: int, c1: int) -> bool:
    """Whether the clause's general-knowledge words come after the value and remark on it."""
    clause = text[c0:c1]
    than = _THAN_EXPECTED.search(clause)
    if than is not None and than.start() > end - c0:
        return True
    m = GENERIC_RX.search(clause)
    return m is not None and m.start() >= end - c0 and bool(_DEFINITE_SUBJECT.search(text[c0:pos]))


# "a raised ALT or gallstones on ultrasound would settle the cause": the subject of a "would settle /
# confirm / point to" sentence is a result that has not been seen
_WOULD_SETTLE = re.compile(
    r"^[^.;:]{0,60}?\b(?:would|could|might)\s+(?:(?:then|also|really|certainly|only|likely|probably|still|"
    r"strongly)\s+)?(?:settle|confirm|support|favou?r|point|suggest|explain|make|mean|clinch|change|help|tip|swing|"
    r"decide|push|reflect|add|show|indicate|prompt|argue|move|shift|strengthen|weaken)\b",
    re.I,
)
_FINITE_BEFORE = re.compile(r"\b(?:is|are|was|were|has|had|have|shows?|showed|reveals?|revealed|found|with)\b", re.I)
# treatments and procedures: "methotrexate ... off the table", "Surgical referral for cholecystectomy", "no antibiotics"
_TREATMENT_WORD = re.compile(
    r"\b(?:\w+(?:ectomy|otomy|ostomy|plasty|pexy)|laparoscop\w*|surgery|antibiotics?|methotrexate|thrombolysis|"
    r"transfusion|dialysis|stent\w*|ERCP)\b",
    re.I,
)
_MANAGEMENT_CUE = re.compile(
    r"\b(?:needs?|needed|requires?|referr?al|refer|off\s+the\s+table|should|plan(?:ned)?|consider|offer|start|"
    r"candidate|indicated|warranted|no\s+(?:need|role|indication)|book|list(?:ed)?\s+for|proceed|arrange|give|"
    r"recommend\w*|would\s+(?:go|favour|opt|avoid|choose))\b",
    re.I,
)


# a condition named as a hypothesis being weighed, not a patient fact: "removes the tumour worry",
# "settles the malignancy question", "makes chronic liver disease very unlikely", "sepsis is less likely"
_HYPOTHESIS_AFTER = re.compile(
    r"^\s*(?:worry|worries|question|concern|possibility|scare|fear|hypothesis|theory)\b|"
    r"^\s*(?:(?:is|seems|looks|was|becomes|became)\s+)?(?:(?:very|highly|much|most|far|even)\s+)?"
    r"(?:unlikely|less\s+likely|improbable)\b|"
    # round 56: "peaked T waves make hyperkalaemia a real concern", "a large vessel occlusion has to be ruled
    # out", "a structural lesion still needs to be excluded", "hyperkalaemia has to be assumed"
    r"^\s*(?:an?\s+)?(?:real|major|serious|genuine|significant|definite)\s+(?:worry|concern|possibility)\b|"
    r"^\s*(?:still\s+)?(?:(?:has|have|needs?)\s+(?:still\s+)?to\s+be|must\s+(?:still\s+)?be)\s+"
    r"(?:ruled\s+out|excluded|assumed|considered)\b",
    re.I,
)


# "He needs same-day admission for cardiac monitoring, IV calcium gluconate and insulin-dextrose":
# every item of the list after "needs"/"requires" is treatment, not a patient fact.
_TREATMENT_NEED = re.compile(
    r"\b(?:needs|requires|warrants|needs\s+urgent|should\s+(?:have|get|receive))\s+(?:[\w-]+\s+){0,3}?"
    r"(?:admission|treatment|transfer|management|therapy|monitoring|IV|intravenous|urgent|immediate)\b[^.;:]*?"
    r"(?:\bfor\b|\bwith\b|,)",
    re.I,
)
_LIST_BREAK = re.compile(
    r"[.;:?!]|\b(?:is|are|was|were|has|had|shows?|showed|because|since|but|so|which|confirms?|suggests?|"
    r"indicates?|means?)\b|\band\s+(?:the|his|her|a|an|this|that|their)\b",
    re.I,
)


_SUB_SENTENCE_SPLIT = re.compile(
    r"\s[-–—]\s|;|\b(?:although|though|but|however|whereas|while|except\s+that)\b", re.I
)


# A hedged reading of a value: "The troponin of 38 is probably a demand rise (HR 108)", "the COHb of
# 24% is likely an artefact", "a potassium of 5.9 may be haemolysed". The sentence is an opinion on
# the value, not an assertion of it: no number in it is a claim (batch-2 reading).
_HEDGED_VERB = re.compile(
    r"\b(?:(?:is|are|was|were)\s+(?:most\s+|very\s+|quite\s+)?(?:probably|likely|possibly|presumably|perhaps)|"
    r"(?:may|might|could)\s+(?:well\s+)?(?:be|reflect|represent|indicate|have\s+been))\b",
    re.I,
)


def _hedged_reading(text: str, q: Quantity, qs: list[Quantity]) -> str | None:
    for h in _HEDGED_VERB.finditer(text):
        if q.end <= h.start():
            gap = text[q.end : h.start()]
            if not re.search(r"[,;:.()]|\b(?:and|but|so|which|that|this|it|he|she|they|there)\b", gap, re.I) and len(
                gap.split()
            ) <= 4:
                return "hedged reading of the value"
        elif q.start >= h.end():
            head = text[: h.start()]
            if any(o.end <= h.start() and not re.search(r"[;:.]", head[o.end :]) for o in qs) and not re.search(
                r"[;.]", text[h.end() : q.start]
            ):
                return "inside a hedged reading of a value"
    return None


_ORDER_BEFORE = re.compile(
    r"\b(?:give|load(?:ing)?|hold|withhold|stop|continue|switch\s+to|commence|prescribe|start|restart|add|"
    r"resume|cover\s+with|treat\s+with)\s+(?:(?:the|his|her|a|an|oral|iv|im|high-dose|low-dose)\s+)?$",
    re.I,
)
_ORDER_AFTER = re.compile(
    r"^\s*(?:\d+(?:\.\d+)?\s*(?:mg|mcg|µg|g|units)\s+)?(?:load(?:ing)?(?:\s+dose)?|stat|now|nocte|mane|"
    r"(?:should|must|can|will)\s+(?:be\s+)?(?:given|started|held|stopped|continued|running))\b",
    re.I,
)
# a dose right after an order word and the drug: the dose ordered now, even of a drug the patient takes
_DOSE_ORDERED = re.compile(
    r"\b(?:IV|i\.v\.|give|load|restart|increase\s+(?:it\s+)?to|double\s+(?:it\s+)?to|uptitrate\s+to|switch\s+to)\s+"
    r"(?:[A-Za-z][\w-]+\s+){1,2}$"
    # "Increase LTG to 150 mg BID", "reduce the lithium to 400 mg": the new dose ordered for the drug named
    r"|\b(?:increase|raise|up-?titrate|titrate|reduce|decrease|drop|wean|taper)\s+(?:the\s+|her\s+|his\s+)?"
    r"(?:[A-Za-z][\w-]+\s+){1,2}(?:up\s+|down\s+)?to\s+$",
    re.I,
)
_HISTORY_NEAR = re.compile(r"\b(?:ago|since|started|began|was\s+on|has\s+been|for\s+\d+\s+(?:years?|months?|weeks?))\b", re.I)


def _ordered_here(text: str, s: int, e: int) -> bool:
    """Whether a drug mention is itself the object of an order: an imperative verb right before it
    ("stop trimethoprim", "load aspirin") or a dose with an order word right after ("Aspirin 300 mg
    load", "heparin now"), and no history wording around it ("started 3 weeks ago")."""
    near = text[max(0, s - 30) : min(len(text), e + 40)]
    if _HISTORY_NEAR.search(near):
        return False
    return bool(_ORDER_BEFORE.search(text[max(0, s - 30) : s]) or _ORDER_AFTER.match(text[e:]))


def _sub_sentence(text: str, pos: int) -> str:
    """The part of a sentence around ``pos`` between contrastive breaks: "X and Y - this is
    TTP, although I'm missing the blood counts" states X and Y; only the last part is missing."""
    start, end = 0, len(text)
    for m in _SUB_SENTENCE_SPLIT.finditer(text):
        if m.end() <= pos:
            start = m.end()
        elif m.start() >= pos:
            end = m.start()
            break
    return text[start:end]
