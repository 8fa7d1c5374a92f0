"""Follow-up questions (PIR/RIR, IR) and information-gap detection (GDR).

A *question* is one request segment: a sentence ending in "?", a sentence with a
request cue ("please check...", "I would order...", "can we get..."), or an item
under a questions/tests heading. Saying that a result is still outstanding is not a
new question, and recommendations after the "Final diagnosis:" line of a final
answer are next steps, not follow-up questions.

Each question targets case facts: by alias (lexically, with panel words such as
"LFTs" or "full blood count" expanded to their member analytes), by a request to
confirm the contradicted item, or by MiniLM similarity as a fallback. It is:

* relevant when it targets a case fact, asks to confirm/repeat a contradicted item,
  or matches one of the gold next steps (shared acronym or at least two shared content words),
  or asks about a clinical item of the general lexicon;
* redundant when everything it targets was already released or already asked in
  an earlier question (a request to confirm a contradicted item is never redundant);
  untargeted questions are redundant when they repeat an earlier question verbatim
  or nearly so (token Jaccard >= 0.8).

A key gap is detected when, before its release, a question targets it or a
segment names it as missing ("no ultrasound has been done yet").
"""

from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Container
from dataclasses import dataclass

from medgym.envs.compiler import has_final_diagnosis
from medgym.judges.context import (
    _GENERIC_DX_HEADS,
    CaseKnowledge,
    TrajectoryContext,
    TurnContext,
    fact_mentions,
    general_lexicon,
    lexicon_data,
    treatment_terms,
)
from medgym.judges.diagnoses import _DX_SHAPED
from medgym.judges.results import GapDecision, QuestionDecision, Span
from medgym.judges.textrules import (
    CONFIRM_REQUEST_RX,
    CONFLICT_RX,
    MISSING_RX,
    NOT_AN_ASK_AFTER_PLEASE,
    OUTSTANDING_RX,
    PLAN_RX,
    QUESTION_RX,
    Segment,
)
from medgym.knowledge_base.case_schema import OBJECTIVE_CATEGORIES, FactCategory

PANELS: list[tuple[re.Pattern[str], list[str]]] = [
    (re.compile(r"\b(?:LFTs?|liver\s+(?:function\s+tests?|panel|enzymes|tests|blood\s+tests|biochemistry)|"
                r"hepatic\s+(?:panel|function))\b", re.I),
     ["bilirubin", "alanine aminotransferase", "alkaline phosphatase", "aspartate aminotransferase", "GGT",
      "albumin", "transaminases"]),
    (re.compile(r"\b(?:FBC|CBC|full\s+blood\s+count|complete\s+blood\s+count|blood\s+count)\b", re.I),
     ["haemoglobin", "hemoglobin", "white cell count", "platelet", "white blood cells"]),
    (re.compile(r"\b(?:U\s*&\s*Es?|U\s+and\s+Es?|renal\s+function|kidney\s+function|electrolytes|BMP|"
                r"basic\s+metabolic\s+panel|renal\s+panel)\b", re.I),
     ["creatinine", "urea", "sodium", "potassium", "eGFR"]),
    (re.compile(r"\b(?:coagulation(?:\s+screen)?|clotting(?:\s+screen)?|coag\s+screen)\b", re.I),
     ["INR", "prothrombin", "APTT"]),
    (re.compile(r"\binflammatory\s+markers\b", re.I), ["C-reactive protein", "CRP", "ESR"]),
    (re.compile(r"\b(?:blood\s+gas|ABG|VBG)\b", re.I), ["pH", "lactate", "bicarbonate", "pCO2"]),
    (re.compile(r"\b(?:cardiac\s+(?:enzymes|markers|biomarkers))\b", re.I), ["troponin"]),
]
_VITALS = re.compile(r"\b(?:vital\s+signs|vitals|observations|obs)\b", re.I)
_URINE_NAME = re.compile(r"\b(?:urine|urinary)\b|^u(?:ACR|PCR)$", re.I)
_EXPLICIT_ASK = re.compile(
    r"\b(?:please|pls|plz|expedite|order|send|request|arrange|obtain|could\s+you|can\s+(?:we|you|i)|i'?d\s+like|"
    r"i\s+would\s+like|we\s+need|i\s+need)\b",
    re.I,
)
_RATIONALE = re.compile(
    r",?\s+\b(?:given(?!\s*[(.,;:)]|\s+(?:to|by|in|on|at|for|earlier|before|yesterday|today)\b)|because|since|"
    r"as\s+she|as\s+he|in\s+view\s+of)\b"
    # "tTG-IgA — for the no-biopsy route it must be >= 10x ULN", "ferritin — those decide whether she can skip
    # endoscopy": a dash that opens an explanation; what follows is the reason, not more requests
    r"|\s*[—–]\s*(?=(?:those|these|this|that|it|they|for|so|as|which|because|since)\b)",
    re.I,
)
# "Given the dilated duct and the raised bilirubin, I would also like an MRCP": an opening clause that
# gives the reason; the ask is what follows the comma
_LEADING_RATIONALE = re.compile(
    r"^\W*(?:given|because\s+of|in\s+view\s+of|in\s+light\s+of|with\s+(?:the|this|that|her|his))\b[^,;:?]{3,120},\s*"
    r"(?=(?:I|we|please|can|could|would|let's|kindly)\b)",
    re.I,
)
# "Can we chase the ACTH and renin I asked for?", "I still need the X": a reminder of an earlier request
_CHASE = re.compile(
    r"\b(?:chase|chasing|still\s+(?:need|waiting|awaiting|want|outstanding|pending)|(?:I|we)\s+asked\s+for|"
    r"asked\s+(?:for\s+)?(?:earlier|before|yesterday)|(?:is|are)\s+(?:the\s+)?[\w-]+(?:\s+[\w-]+)?\s+back\b|any\s+news|"
    # "Any crystal result yet?", "Has the tTG come back?", "has the capillary result turned up?"
    r"\b(?:any|has|have|is|are)\b[^.?]{0,40}\b(?:yet|come\s+back|turned\s+up|arrived)\b)",
    re.I,
)
# "I would still like the ESR", "I'd still be grateful for the biopsy", "I still have no glucose": a chase only
# when something it names was asked for before ("I'd still like a repeat ACR" with nothing asked is a new ask)
_WISH_CHASE = re.compile(
    r"\b(?:(?:would|'d|’d)\s+still\s+(?:like|want|be\s+grateful)|still\s+(?:have\s+no|(?:do\s+not|don't|don’t)\s+have))\b",
    re.I,
)
_ANAPHORA = re.compile(r"^\s*(?:it|this|that|these|those|the\s+(?:result|test|report|sample|value))\b", re.I)
_NOT_NEEDED = re.compile(
    r"\b(?:no|not|nothing)\b[^.;]{0,40}\b(?:needed|required|necessary|indicated|warranted)\b|\bunnecessary\b|"
    # round 133: "I don't think an MRCP is needed at this stage"
    r"\b(?:don't|do\s+not|don’t)\s+think\b[^.;]{0,60}\b(?:needed|required|necessary|indicated|warranted)\b",
    re.I,
)
# the British shorthand of weeks and months ("2/52", "3/12"): a test's schedule, never its result
_WEEKS_MONTHS_SHORTHAND = r"\b\d+/(?:12|52)\b"
# "family history of X" asks about the relatives, not about the patient's fact X.
_FAMILY_HISTORY = re.compile(r"\bfamily\s+history\s+of\s+[^,.;?]*", re.I)
# Scheduled serial measurements ask for values that do not exist yet: a new request even when
# an earlier value of the same measurement was released ("serial FVC every 4-6 hours").
_SERIAL = re.compile(
    # (round 142: and the British shorthand of days, weeks and months, "Repeat venous Pb 1/12")
    r"\b(?:serial|every\s+\d+(?:\s*[–-]\s*\d+)?\s*(?:hours?|hrs?|h|minutes?|mins?|days?)|\d+[-\s]?(?:hourly|hrly|hly)|"
    r"\d+/(?:7|12|52)\b|"
    r"(?:in|after|at)\s+(?:another\s+)?\d+(?:\s*[–-]\s*\d+)?\s*(?:hours?|hrs?|h)|trend(?:ing)?|"
    r"(?:in|after)\s+(?:another\s+)?(?:an|one|a\s+few|a\s+couple\s+of|two|three|four|six|half\s+an)\s+hours?|"
    r"(?:in|after)\s+\d+\s*(?:minutes|mins)|any\s+(?:further|more)\s+(?:doses|episodes|attacks|bleeds?)|"
    r"before\s+and\s+after|after\s+(?:the\s+|a\s+|his\s+|her\s+)?(?:IV\s+)?(?:[\w-]+\s+)?(?:gluconate|dose|course|"
    r"antibiotics?)\b|"
    r"(?:in|after)\s+(?:another\s+)?(?:\d+(?:\s*[–-]\s*\d+)?|a|one|two|three|four|six|a\s+few|a\s+couple\s+of)\s*"
    r"(?:days?|weeks?|wks?|months?|mos?\b)|(?:tomorrow|next\s+week|at\s+(?:the\s+)?follow[\s-]?up)|"
    r"\d+(?:\s*[–-]\s*\d+)?\s*(?:hours?|hrs?|h|days?|weeks?|months?)\s+(?:after|post|following|from\s+now)|"
    r"since\s+(?:the\s+)?(?:GP|doctor|ambulance|paramedics?|referral|phone\s+call)\b|"
    r"since\s+(?:he|she|they)\s+(?:was|were)\s+(?:seen|admitted|referred)|"
    r"(?:has|have)\s+(?:he|she|they|the\s+patient)\s+(?:now\s+|since\s+)?developed|since\s+(?:admission|then|"
    r"the\s+last|yesterday|this\s+morning)|"
    # a repeat tied to a time or an event to come ("Recheck BMP after 2 L of fluid", "a repeat growth scan at
    # 32 weeks", "a repeat ACR once she is symptom-free", "the blood film daily"): a value not yet existing
    r"(?:twice\s+)?daily|nightly|overnight|(?:in|tomorrow)\s+the\s+morning|(?:in\s+(?:the\s+)?|tomorrow\s+)am\b|"
    r"at\s+\d+(?:\s*[–-]\s*\d+)?\s*(?:weeks?|wks?)|"
    # note and prose schedules: "q4h", "q2-4h", "hourly", "monthly", "post-natal OGTT", "six weeks after she
    # stops the pill", "two to three weeks after any dose change", "after the aspiration", "Repeat CXR 6 wk"
    r"q\s?\d+(?:\s*[–-]\s*\d+)?\s*(?:h|hr|hrs|hourly)|(?:hourly|weekly|fortnightly|monthly|yearly|annually)|"
    r"post-?\s?(?:natal(?:ly)?|partum)|"
    r"(?:\d+|one|two|three|four|five|six|eight|ten|twelve)(?:\s*(?:[–-]|to)\s*(?:\d+|two|three|four|six|eight|twelve))?"
    r"\s*(?:hours?|hrs?|days?|weeks?|wks?|months?)\s+(?:after|post|following|from\s+now)|"
    r"after\s+(?:the\s+|a\s+|his\s+|her\s+|any\s+)?(?:aspiration|drainage|drain\s+removal|reduction|surgery|delivery|"
    r"procedure|operation|discharge|dose\s+change|(?:she|he)\s+stops)|"
    r"\b(?:repeat|recheck|rpt)\b[^.?;]{0,40}?\b\d+\s*(?:wk|wks|weeks?|mo|mos|months?)\b(?!\s+ago)|"
    r"at\s+(?:the|his|her|their)\s+next\s+(?:visit|appointment|review|clinic)|"
    r"(?:in|after)\s+(?:another\s+)?(?:\d+|a|one|two|three|five|ten)\s*(?:years?|yrs?)|"
    # "every six hours", "every morning", "at 24 and 48 hours", "at six and twelve months", "in 4/52", "in one to
    # three months": more schedules of a value not yet existing
    r"every\s+(?:(?:one|two|three|four|six|eight|twelve|other)\s+)?(?:hours?|days?|mornings?|evenings?|nights?|weeks?)|"
    r"at\s+(?:\d+|three|six|twelve)\s+and\s+(?:\d+|six|twelve|twenty-four)\s*(?:hours?|hrs?|h|weeks?|months?)|"
    r"(?:in|after)\s+\d+\s*/\s*(?:52|12|7)|"
    r"(?:in|after)\s+(?:one|two|three|four|six)\s+to\s+(?:two|three|four|six|twelve)\s+(?:days|weeks|months)|"
    r"after\s+(?:\d+(?:\.\d+)?\s*L\b|(?:the\s+|a\s+|his\s+|her\s+)?(?:[\w-]+\s+){0,2}(?:treatment|fluids?|"
    r"resuscitation|rehydration|correction|transfusion|dialysis|insulin|infusion|bolus)\b)|"
    r"once\s+(?:(?:she|he|they)(?:'s|\s+is|\s+are|\s+has|\s+have)|(?:the\s+)?[\w-]+(?:\s+[\w-]+)?\s+(?:is|are|has|have)"
    r"\s+(?:fully\s+)?(?:settled|resolved|treated|recovered|cleared|stable|better|improved)))\b",
    re.I,
)
# round 140: the "alpha-1" of alpha-1 antitrypsin, a test's name and no result in it
_ALPHA_1 = r"(?:alpha|α)[\s-]?1"
# Investigations a question can ask for; one that no case fact names is a new request, so the
# question is not redundant even if it also names a released fact ("an ECG and a repeat lithium").
_INVESTIGATION = re.compile(
    r"\b(?:(?:lying\s+and\s+standing|postural|orthostatic)\s+(?:BP|blood\s+pressures?)|(?:re-?)?examin(?:e|ation)|CXR|AXR|ECG|EKG|electrocardiogram|echo(?:cardiogram)?|nerve\s+conduction(?:\s+studies)?|NCS|EMG|"
    r"electromyograph\w*|EEG|(?:stool|blood|urine|sputum)\s+cultures?|cultures?|serolog(?:y|ies)|antibod(?:y|ies)|"
    # round 131: note shorthand for cultures ("UCx", "BCx", "Sputum cx"), acid-fast smears, stool occult blood and
    # the Synacthen test, listed bare as orders ("- Sputum AFB x3", "- Stool guaiac")
    r"(?:[UB]|blood|urine|sputum|stool|synovial|wound|CSF)\s*cx|AFB|guaiac|FOBT|(?:short\s+)?synacthen(?:\s+test)?|"
    r"CT|MRI|MRA|CTA|MRCP|ERCP|EUS|electrophoresis|DLCO|TLCO|gas\s+transfer|lung\s+volumes|ultrasound|X-ray|radiograph|biopsy|lumbar\s+puncture|LP|CSF|"
    r"(?-i:US|USS)|elastography|fibro-?scan|doppler|PET(?:-CT)?|holter|"
    r"spirometry|FVC|blood\s+film|smear|urinalysis|dipstick|drug\s+screen|toxicology|PCR|"
    r"(?:stool|urine|blood)\s+samples?|(?:venous\s+|arterial\s+)?blood\s+gas(?:es)?|VBG|ABG|FBC|CBC|"
    r"full\s+blood\s+count|U\s*&\s*Es?|CK|creatine\s+kinase|PSA|contrast\s+(?:study|enema|swallow|meal)|"
    r"(?:upper|lower)\s+GI\s+\w+|endoscopy|colonoscopy|co-?oximetry|swabs?|screen|cross-?match(?:ing)?|"
    r"group\s+and\s+(?:save|screen|cross-?match)|LFTs?|liver\s+function\s+tests?|"
    # organ-function panels and functional assessments ("check her renal function", "his hearing checked")
    r"(?:renal|kidney|thyroid|liver|lung|pulmonary)\s+function(?:\s+tests?)?|TFTs?|"
    r"hearing(?:\s+(?:test|assessment|screen))?|audiolog\w*|audiometry|visual\s+acuity|eye\s+test|"
    r"developmental\s+(?:assessment|screen\w*|review)|"
    # note abbreviations of tests ("Need urgent EGD.", "Needs TVUS.", "Need BMP w/ creatinine", "Malaria RDT")
    r"EGD|OGD|OGDs|TVUS|TVS|HRCT|LDCT|CTPA|BMP|CMP|RDT|duplex|lipid\s+(?:panel|profile)|ADAMTS-?13|"
    # round 133: viral markers, H. pylori tests, urinary antigens and rib films listed bare as orders ("HBV DNA and
    # HBeAg", "H. pylori stool Ag", "Urinary legionella/pneumococcal antigens", "Rib series")
    r"HBV\s+DNA|HCV\s+RNA|viral\s+load|HBeAg|HBsAg|anti-?HBc|H\.?\s?pylori|u?ACR|u?PCR|UACR|UPCR|"
    # (round 134: or "Ag"; round 138: after the organisms too, "Urine strep/legionella Ag")
    r"(?:urinary|urine)\s+(?:[\w\-]+(?:/[\w\-]+)?\s+(?:and\s+[\w\-]+\s+)?)?(?:antigens?|Ags?)|"
    r"(?:rib|skeletal)\s+(?:series|films?|X-rays?|views)|"
    # round 134: a fetal trace, a group and save, inspiratory force, viral panels, a named scan and
    # carboxyhaemoglobin, listed bare as orders ("CTG", "G&S, 2 units crossmatch", "Serial NIFs", "Resp viral panel",
    # "EPAU scan in AM", "Carboxyhaemoglobin level"; urine antigens written "Ag" are with the antigens above)
    r"CTG|cardiotocograph\w*|G\s*&\s*S|NIFs?|viral\s+(?:panel|swabs?|screen)|"
    r"(?:EPAU|dating|bladder|pelvic|scrotal|renal|abdominal|transvaginal|early\s+pregnancy)\s+scan|"
    r"carboxyh(?:a)?emoglobin|COHb|"
    # round 136: a plain film, viral serologies, antibody classes, the dengue antigen and tumour markers listed
    # bare as orders ("Knee XR", "HIV/HCV", "IgG tTG / IgG DGP", "Dengue NS1 Ag + IgM", "CA 19-9")
    r"(?-i:XR)|HIV|HCV|HBV|Ig[MG]|NS1(?:\s+(?:antigen|Ag))?|CA\s?19-9|CA-?125|Gram\s+stain|urine\s+dip|"
    # round 137: a biliary scan, antiphospholipid and pregnancy tests, TB tests, complement, NAATs, an eye
    # examination, demyelination antibodies and blood lead listed bare as orders ("HIDA scan", "aPL panel", "UPT",
    # "QuantiFERON-TB Gold Plus", "Complement levels", "Ophtho for formal fundoscopy", "Aquaporin-4 and MOG antibodies",
    # "Venous blood lead to confirm", "Siblings' lead levels")
    r"HIDA(?:\s+scan)?|(?-i:aPL)|antiphospholipid\s+(?:antibod(?:y|ies)|panel|screen)|UPT|(?:urine\s+)?pregnancy\s+test|"
    r"QuantiFERON[\w-]*|IGRA|T-?SPOT(?:\.TB)?|Mantoux|complement(?:\s+levels?)?|NAATs?|fundoscopy|ophthalmoscopy|"
    r"aquaporin-?4|(?-i:AQP-?4|MOG)|(?:(?:venous|capillary)\s+)?(?:blood\s+)?lead\s+levels?|(?:venous|capillary)\s+(?:blood\s+)?lead|"
    r"(?-i:BLL)|"
    # round 138: bone densitometry and apolipoprotein B ("DEXA (include the forearm)", "Apolipoprotein B level")
    r"DEXA|DXA|bone\s+(?:densitometry|density\s+scan)|apolipoprotein\s+B|(?-i:apoB|ApoB)|"
    # round 139: stool tests and immunoglobulin levels listed bare ("Stool studies if diarrhea persists", "Serum IgA
    # level"; not "IgA nephropathy")
    r"stool\s+(?:studies|tests?)|(?<!-)(?:total\s+)?IgA\s+levels?|(?:serum\s+)?immunoglobulins|"
    # round 140: a parathyroid scan, the bone profile, the genotype of a deficiency, an antibody written "Abs" and
    # alpha-1 antitrypsin (not the deficiency's name), listed bare as orders ("Sestamibi + neck US", "Vitamin D and
    # bone profile", "AAT phenotyping (or SERPINA1 genotyping)", "TPO Abs", "Serum alpha-1 antitrypsin level"; not
    # microscopy, which a case's crystal fact names only in part, so "the crystal microscopy" would read as new)
    r"sestamibi(?:\s+scan)?|bone\s+profile|(?:pheno|geno)typing|(?-i:Abs)|"
    # round 142: lung function, an eye examination, the haemoglobin/haematocrit pair, diabetic markers, lipids and an
    # antibody written "Ab" after its target, listed bare as orders ("Full PFTs w/ DLCO", "Dilated retinal exam",
    # "Serial H/H", "Fructosamine", "Urine microalbumin", "Lipids in full + QRISK3", "Serum NMDAR Ab", "TPO Ab.")
    r"PFTs?|pulmonary\s+function\s+tests?|(?:dilated\s+)?(?:retinal|fundal)\s+exam(?:ination)?|H/H|H\s?&\s?H|"
    r"fructosamine|microalbumin|(?:fasting\s+)?lipids|(?<=[A-Z0-9]\s)(?-i:Ab)|"
    rf"(?:{_ALPHA_1}[\s-]?)?antitrypsin(?:\s+levels?)?(?!\s+deficiency))\b",
    re.I,
)
# "Could someone go through his drinking with him directly?", "can we corroborate that with the GP?":
# asking to go over the contradicted item again is a confirmation request (relevant, never redundant)
_CLARIFY_ITEM = re.compile(
    r"\b(?:go(?:es|ing)?\s+(?:through|over)|clarif(?:y|ied|ication)|corroborat\w+|verif(?:y|ied|ication)|"
    r"double[\s-]?check\w*|cross[\s-]?check\w*|confirm\w*|re-?take\s+(?:the\s+)?history|"
    r"(?:ask|speak\s+to|talk\s+to|check\s+with)\s+(?:him|her|them|the\s+patient)\s+(?:directly|again|ourselves))\b",
    re.I,
)
# Two asks joined in one question ("Has he had X, and is he still taking Y?", "Any X or has she Y?")
_COMPOUND_ASK = re.compile(
    r",?\s+(?:and|or|but)\s+(?=(?:is|are|has|have|does|do|did|was|were|any|what|how|when|can|could|would|"
    r"please)\b)|;\s*",
    re.I,
)
# "Please repeat the lead level in 3 months", "check it again 2 weeks after stopping": a test booked
# weeks ahead asks for a future value, so it does not detect the gap of the current one
_FUTURE_REPEAT = re.compile(
    r"\b(?:in|after)\s+(?:another\s+)?(?:\d+(?:\s*[–-]\s*\d+)?|a|one|two|three|four|six|a\s+few|a\s+couple\s+of)"
    r"\s*(?:weeks?|wks?|months?|mos?|years?)\b|\b\d+(?:\s*[–-]\s*\d+)?\s*(?:weeks?|months?)\s+(?:after|post|following)\b|"
    # (round 142: the British shorthand of weeks and months, "repeat LDCT 3/12", "Repeat venous Pb 1/12")
    rf"{_WEEKS_MONTHS_SHORTHAND}",
    re.I,
)
# a case fact that is itself the repeat of a test ("repeat urine albumin-creatinine ratio")
_REPEAT_NAME = re.compile(r"(?:repeat|serial|follow-up)\b", re.I)
# "To confirm:", "To exclude a structural cause:", "To sort this out I'd check:": a line naming the
# purpose of the list that follows; its bullets are requests (textrules' lead-ins need a request verb)
_PURPOSE_LEADIN = re.compile(
    r"^\W*(?:(?:and\s+)?to\s+|in\s+order\s+to\s+)(?:confirm|check|exclude|rule\s+(?:out|in)|clarify|establish|"
    r"narrow|pin\s+down|sort|settle|decide|differentiate|distinguish|be\s+sure|complete|work\s+(?:this|it)\s+up)\b"
    r"[^:.?]{0,80}:\s*$",
    re.I,
)
# "Pls: HbA1c. Also lipids, U&E/eGFR, urine ACR.": a verbless "Also X" continues the ask before it
_ALSO_MORE = re.compile(r"^\W*also\s+(?!\w+ed\b|has\b|had\b|is\b|was\b|c/o\b|on\b)", re.I)
# a list item that reports a result ("ESR 85", "ultrasound was normal") is evidence, not a request
_RESULT_SHAPED = re.compile(
    r"\d|\b(?:is|was|were|are|shows?|showed|normal|negative|positive|raised|elevated|low|high)\b", re.I
)
# words that report a finding after a test's name ("CXR: clear", "CT: no bleed", "ECG: NAD")
_RESULT_WORD = re.compile(
    r"\b(?:no|nil|clear|unremarkable|nad|wnl|ok|abnormal|consistent|suggest\w*|confirm\w*|showing|shows?|"
    r"present|absent|reduced|increased|mild|moderate|severe|pending|awaited|done)\b", re.I
)
# "I'd ask the health department to assess the home", "Has public health been notified?": asking a
# service to act on a released exposure is a new action, not a repeat request for the fact
_AGENCY_ACTION = re.compile(
    r"\b(?:(?:health|housing)\s+department|public\s+health|environmental\s+health|social\s+(?:services|work\w*)|"
    r"safeguarding|child\s+protection|local\s+authority|council|occupational\s+health)\b[^.?;]{0,60}?"
    r"\b(?:notif\w+|inform\w*|assess\w*|inspect\w*|visit\w*|investigat\w*|involv\w*|alert\w*|report\w*)\b|"
    r"\b(?:notif\w+|inform\w*|alert\w*|report\w*|involv\w*)\b[^.?;]{0,30}?\b(?:(?:health|housing)\s+department|"
    r"public\s+health|environmental\s+health|social\s+(?:services|work\w*)|safeguarding|child\s+protection)\b",
    re.I,
)
# "Any history of hyperparathyroidism or haemochromatosis?", "previous thyroid disease?": the past
# medical history of a named disease is pertinent history whatever the case lists
_PAST_HISTORY_OF = re.compile(
    r"\b(?:(?:past\s+|previous\s+|prior\s+|personal\s+)?history\s+of|previous|prior|known|ever\s+(?:had|been\s+told))\s+"
    r"(?P<x>[^?.;]{3,80})",
    re.I,
)
_LIVER_PANEL = re.compile(r"LFTs?|liver\s+function\s+tests?", re.I)  # a panel that a case alias may name in part
# "the examination findings", "exam results", "findings on examination": every examination fact of
# the case (like a panel name), so a repeat request for them is recognised as asked before.
_EXAM_FINDINGS = re.compile(
    r"\b(?:(?:the\s+)?(?:physical\s+|clinical\s+)?exam(?:ination)?\s+(?:findings|results)|findings\s+(?:on|of|from)\s+"
    r"(?:the\s+)?(?:physical\s+|clinical\s+)?exam(?:ination)?)\b",
    re.I,
)
# Standard history items a clinician asks about whatever the case (fasting status before a
# procedure, current medications, allergies, menstrual and sexual history, travel, exposures):
# relevant questions even when the case holds no fact on them.
_HISTORY_TOPIC = re.compile(
    r"\b(?:(?:eaten|drunk|eat|drink|ate|drank)\b(?:\s+or\s+(?:drunk|drink|eaten|eat))?(?=[^?.]{0,40}"
    r"(?:since|last|hours?|today|this\s+morning|midnight|anything))|(?:eaten|drunk)\s+anything|"
    r"last\s+(?:meal|ate|drink|oral\s+intake)|fasting\s+status|nil\s+by\s+mouth\s+since|"
    r"(?:regular|current|usual|any)\s+(?:prescribed\s+)?(?:medications?|medicines|drugs|tablets)|"
    r"(?:taking|take|on)\s+any(?:thing|\s+\w+)?\s*(?:medications?|medicines|drugs|tablets)?|"
    r"allerg\w*|last\s+(?:menstrual\s+)?period|LMP|menstrual|sexual(?:ly)?\s+(?:history|active|partners?|contacts?)|"
    r"travel\w*|contraception|contraceptive|smok\w*|alcohol|drink(?:s|ing)\b)",
    re.I,
)
STEP_OVERLAP = 2  # content words shared with a gold next step
NEAR_DUPLICATE = 0.8  # token Jaccard of two untargeted questions
_STOPWORDS = {
    "what", "when", "which", "where", "have", "been", "being", "with", "from", "that", "this", "there",
    "their", "they", "them", "your", "about", "would", "could", "should", "please", "like", "know", "tell",
    "also", "some", "more", "further", "check", "order", "send", "obtain", "arrange", "request", "need",
    "needs", "want", "patient", "recent", "recently", "other", "than", "then", "into", "after", "before",
    "still", "will", "does", "today", "given",
}  # fmt: skip


def _content_words(text: str) -> set[str]:
    return {w for w in re.findall(r"[a-z][a-z0-9\-]{3,}", text.lower()) if w not in _STOPWORDS}


_CHASE_FILLER = {"any", "the", "has", "have", "come", "back", "yet", "still", "result", "results", "turned", "could",
                 "can", "you", "please", "pls", "chase", "pending", "also", "and", "from", "today", "now"}


# what the patient or the record reports, as opposed to a measured result
_REPORTED_CATEGORIES = frozenset({
    FactCategory.symptom, FactCategory.history, FactCategory.social, FactCategory.family, FactCategory.medication,
    FactCategory.allergy,
})


def _opens_with_test(text: str) -> bool:
    """Whether an investigation is named in the first three words ("CTPA today", "Stool culture for X"), also
    after two sites or kinds joined by "and" (round 134: "Renal and bladder ultrasound now", "Hepatitis B and C
    serology"), which push the test's name to the fourth or fifth word."""
    if _INVESTIGATION.search(" ".join(text.split()[:3])) or _INVESTIGATION.match(text.lstrip()):
        return True  # (round 137: or a longer name from the first word on, "Urinary pneumococcal and Legionella antigens")
    joined = _JOINED_KINDS.match(text)
    return joined is not None and bool(_INVESTIGATION.match(text[joined.end():]))


# note shorthand for a culture ("Urine cx", "UCx") and the early pregnancy unit's scan ("EPAU scan"), spelled
# out as a case names them so that its fact is found (round 134)
# (not blood cultures: one case folds them into its joint culture's fact, "blood cultures are also negative", and the
# labels split on whether "Blood cx x2" asks for that culture, one trajectory each way, so it stays as it was)
_CULTURE_SHORTHAND = re.compile(r"\b(?:(urine|sputum|stool|wound|synovial|CSF)\s*cx|(U)cx)\b", re.I)
_EPAU_SCAN = re.compile(r"\bEPAU\s+(?:scan|USS|ultrasound)\b", re.I)


def _culture_spelled(m: re.Match[str]) -> str:
    """The culture a shorthand names, spelled as a case names it ("Urine cx" -> "Urine culture")."""
    site = m.group(1) or "urine"
    return f"{site} culture"


def _spell_test_shorthand(text: str) -> str:
    """``text`` with a note's shorthand test names spelled out ("Urine cx" -> "Urine culture", "EPAU scan" ->
    "early pregnancy scan")."""
    return _EPAU_SCAN.sub("early pregnancy scan", _CULTURE_SHORTHAND.sub(_culture_spelled, text))


# a test named as the time or condition of another order ("after blood cx", "once the CT is back")
_PRECONDITION_BEFORE = re.compile(r"\b(?:after|before|once|following|pending|until|when)\b", re.I)


def _semicolon_item(seg: Segment, prev: Segment | None) -> bool:
    """Whether ``seg`` is an item of a one-line list joined by semicolons: it ends with one, or the segment before
    it on the same line does."""
    return seg.text.rstrip().endswith(";") or (
        prev is not None and prev.line == seg.line and prev.text.rstrip().endswith(";")
    )


# "Renal and bladder", "Hepatitis B and C", "Legionella and pneumococcal": two sites or kinds of one test
_JOINED_KINDS = re.compile(r"^\W*[A-Za-z][\w-]*(?:\s+[A-Z0-9])?\s+(?:and|&)\s+[\w-]+\s+", re.I)


# "Could someone chase it?", "could these be sent today?", "Pls chase both.", "I would be grateful if it could be
# expedited": a chase that names nothing and points back (it, them, these, both) at what is still missing
_ANAPHORIC_CHASE_VERB = re.compile(
    r"\b(?:chase[ds]?|chasing|send|sent|expedit\w*|prioriti[sz]\w*|record|done)\b", re.I
)
_ANAPHORIC_FILLER = {
    "please", "pls", "kindly", "could", "can", "would", "will", "someone", "somebody", "you", "we", "the", "lab",
    "be", "i", "i'd", "grateful", "if", "it", "them", "these", "those", "both", "urgently", "today", "now", "asap",
    "again", "also", "chase", "chased", "chasing", "send", "sent", "done", "record", "expedite", "expedited",
    "prioritise", "prioritize", "prioritised", "prioritized", "get", "have", "a", "to", "and", "this", "morning",
}


def _anaphoric_chase(text: str) -> bool:
    """A chase of the earlier requests that names nothing itself: every word (before any stated reason) is a
    courtesy, a pronoun or the chasing verb, and one of them is "it", "them", "these", "those" or "both" (or the
    reply says only "Please chase.")."""
    head = _RATIONALE.split(text, maxsplit=1)[0]
    words = re.findall(r"[a-z][a-z']*", head.lower())
    return (
        bool(words) and bool(_ANAPHORIC_CHASE_VERB.search(head)) and all(w in _ANAPHORIC_FILLER for w in words)
        and (bool({"it", "them", "these", "those", "both"} & set(words)) or {"chase"} <= set(words))
    )


def _chase_stems(text: str) -> set[str]:
    """Word stems a chase shares with the request it chases: short test names count ("tTG", "FBC") and
    hyphenated names split ("tTG-IgA" -> "ttg", "iga"), so "Is the tTG back yet?" finds "tTG-IgA titre"."""
    return {w[:5] for w in re.findall(r"[a-z0-9]{3,}", text.lower()) if w not in _STOPWORDS and w not in _CHASE_FILLER}


@dataclass
class QuestionRecord:
    decision: QuestionDecision
    turn: int
    targets: set[str]
    confirm: bool
    text: str
    step_score: float = 0.0
    others: bool = False  # about relatives/household/contacts, not the patient
    drug_list: str | None = None  # a released fact giving the complete medication list


def panel_targets(text: str, know: CaseKnowledge) -> set[str]:
    out: set[str] = set()
    for rx, members in PANELS:
        if rx.search(text):
            for f in know.case.facts:
                # round 136: every panel is a blood panel, so a urine test's name ("urine albumin-creatinine ratio")
                # is no member of it: "LFTs" does not ask for the urine ACR through its "albumin"
                names = " ".join(n for n in f.all_names if not _URINE_NAME.search(n)).lower()
                if any(re.search(rf"\b{re.escape(m.lower())}\b", names) for m in members):
                    out.add(f.id)
    if _EXAM_FINDINGS.search(text):
        out.update(f.id for f in know.case.facts if f.category == FactCategory.exam)
    if _VITALS.search(text):
        out.update(f.id for f in know.case.facts if f.category == FactCategory.vital)
    return out


# Management orders are not requests for information ("Meanwhile, start IV fluids", "high-flow O2
# 15 L/min via NRB"), even under a plan or requests heading.
_TREATMENT_ORDER = re.compile(
    r"^\W*(?:(?:meanwhile|then|also|now|first|next|and|in\s+the\s+meantime|immediately|urgently)\s*,?\s+)*"
    r"(?:start|give|begin|commence|administer|continue|stop|hold|withhold|catheteri[sz]e|insert|refer|admit|treat|"
    r"keep|aim|prescribe|monitor|escalate|resuscitate|transfuse|replace|correct)\b",
    re.I,
)
_TREATMENT = re.compile(
    r"\b(?:O2|oxygen|non-?rebreather|NRB|fluids?|bolus|saline|dextrose|infusion|analgesi\w*|antibiotics?|"
    r"antiemetic|catheter\w*|catheteri[sz]\w*|transfusion|insulin|calcium\s+gluconate|L/min|mL/kg|mg/kg|"
    r"\d+\s*mg\b|nil\s+by\s+mouth|NBM|NG\s+tube|nasogastric|hyperbaric|enema\s+reduction|surgery|theatre|"
    r"cannul\w*|laparoscop\w*|laparotom\w*|\w+ectomy|\w+opexy|exploration|anti-?D|immunoglobulin|"
    r"IVIG|plasma\s+exchange|PLEX|"  # (round 137: "**Meanwhile:** start IVIG 0.4 g/kg/day")
    # round 139: nil by mouth in US shorthand, analgesia and antiemetics by name, magnesium for eclampsia ("Keep NPO,
    # IV morphine and ondansetron", "I would start IV magnesium sulfate now")
    r"NPO|morphine|ondansetron|metoclopramide|magnesium\s+sul(?:ph|f)ate|MgSO4)\b",
    re.I,
)
# An anaphoric request for what was asked before ("Can we get those urgently?", "Any news on them?")
_ANAPHORIC_REQUEST = re.compile(r"\b(?:those|these|them|they|the\s+results?|the\s+ones?\s+I\s+asked)\b", re.I)
# A question about other people (relatives, household, contacts) asks about them, not about the
# patient's own facts: it is relevant (exposure, contagion, family screening) and never redundant
# with the patient's released results ("Can the husband and children have co-oximetry too?").
_OTHER_PEOPLE = re.compile(
    r"\b(?:husband|wife|partner|spouse|children|kids|sons?|daughters?|siblings?|sibs|sisters?|brothers?|mother|father|"
    r"parents?|grand(?:mother|father|parents?)|family(?!\s+history)(?:\s+members)?|household(?:\s+members)?|relatives|"
    r"(?:close\s+)?contacts|others?\s+(?:at\s+home|in\s+the\s+house(?:hold)?)|rest\s+of\s+the\s+(?:family|household))\b",
    re.I,
)
_PATIENT_REF = re.compile(r"\b(?:he|she|him|her|his|the\s+patient|the\s+child|the\s+baby)\b", re.I)
# The medication list was given in full ("no other regular drugs"): asking about a drug class again
# asks about a released fact.
_DRUG_CLASS_Q = re.compile(
    r"\b(?:anticoagula\w*|blood\s+thinners?|antiplatelets?|aspirin|warfarin|DOACs?|NSAIDs?|steroids?|"
    r"medications?|medicines|drugs|tablets|over[\s-]the[\s-]counter|herbal\s+remedies|supplements)\b",
    re.I,
)
_FULL_DRUG_LIST = re.compile(
    r"\b(?:no\s+other\s+(?:regular\s+)?(?:drugs|medications?|medicines)|(?:takes|on)\s+no\s+(?:other\s+)?"
    r"(?:regular\s+)?(?:drugs|medications?|medicines)|only\s+(?:regular\s+)?(?:drug|medication|medicine)|"
    r"no\s+regular\s+(?:drugs|medications?|medicines))\b",
    re.I,
)
_PREVENTIVE_TERMS = {"vaccination"}
# Routine preventive care and health maintenance asked about without naming a case fact ("Is he up
# to date with bowel cancer screening?", "Has she had her flu jab?", "Is his MMR up to date?", "When
# did he last see a dentist?", "Has he had a prostate check?"): not inquiry about this presentation.
_PREVENTIVE_CARE = re.compile(
    r"\b(?:up\s+to\s+date\s+(?:with|on)|vaccin\w*|immuni[sz]\w*|jabs?|boosters?|MMR|(?:flu|shingles)\s+shots?|"
    r"(?:bowel|colorectal|cervical|breast|prostate|lung|cancer|retinal|diabetic\s+eye|eye|AAA|aortic)\s+"
    r"(?:cancer\s+)?screening|smear\s+tests?|cervical\s+smears?|mammogra\w*|dentists?|dental\s+(?:check\w*|reviews?|visits?|appointments?|hygien\w*)|"
    r"(?:prostate|routine|annual|health|well[\s-]?man|well[\s-]?woman)\s+check(?:[\s-]?ups?|s)?|check[\s-]?ups?|"
    r"tetanus|t?dap|pap\s+(?:smear|test)s?|HPV\s+(?:vaccine|jab|shot)s?|UTD|"
    # round 131: antenatal immunity screening ("Rubella immune?", "Rubella immunity status?")
    r"(?:rubella|varicella)\s+(?:immun\w*|status|serology)|immune\s+to\s+(?:rubella|varicella))\b",
    re.I,
)
_EXAMINE_WORD = re.compile(r"(?:re-?)?examin(?:e|ation)", re.I)
# numbers that belong to a test's name, not a result ("12-lead ECG", "9 am cortisol", "24-hour urine"; round 131: a
# count of samples, "Sputum AFB x3", "BCx x 2")
# (round 134: and a digit inside a test's own name, "JAK2 mutation screen", "C3/C4", "B12 and folate", and the units
# of blood a crossmatch asks for, "G&S, 2 units crossmatch")
# a scanner's field strength ("3T epilepsy-protocol MRI", "1.5 T"): part of a test's name, and a new protocol
_FIELD_STRENGTH = r"(?-i:\b[13](?:\.5)?\s?T\b)"
# round 140: how often a test is done, written before it or after it ("Daily U&E", "Trend LFTs 2x/wk")
_TIMES_PER = r"\d\s?x\s?/\s?(?:wk|week|d|day)"
# (round 142: or in hours, "CK 6-hourly", "a 4-hourly temperature chart")
_FREQUENCY = rf"daily|weekly|twice[\s-](?:daily|weekly)|alternate[\s-]day|nightly|\d+[\s-]?hourly|{_TIMES_PER}"
# round 141: a test's interval written out ("FVC every 4–6 hours", "Cr every 2 days")
_EVERY = r"every\s+\d+(?:\s*[–-]\s*\d+)?\s*(?:hours?|hrs?|h|days?|weeks?|wks?|months?)"
_TEST_NAME_NUMBERS = re.compile(
    r"\b\d+[\s-]*(?:lead|hours?|hourly|h|hr|am|pm)\b|(?:\bx|×)\s*\d\b|(?-i:\b[a-z]?[A-Z][A-Za-z]*-?\d+[A-Za-z]*\b)|"
    # round 137: a test's schedule and the scanner's field strength ("FVC q6h", "Serial Hgb q4h", "Repeat venous
    # Pb 1/12", "3T epilepsy-protocol MRI"); the lower-case "fT4" and the hyphened "Aquaporin-4" are names too
    rf"\bq\s?\d+\s?(?:h|hrs?|hourly|min)\b|{_WEEKS_MONTHS_SHORTHAND}|{_FIELD_STRENGTH}|"
    # round 138: the vitamin D metabolites' numbers ("1,25-dihydroxyvitamin D", "25-OH vitamin D")
    r"\b(?:1,\s?)?25-(?:di)?(?:OH|hydroxy)\w*|"
    # round 139: the water channel's number in lower case too ("MRI brain and aquaporin-4 and MOG antibodies")
    r"\baquaporin-?4\b|"
    # round 140: a schedule written "2x/wk", a glucose load ("75 g OGTT") and alpha-1 antitrypsin
    rf"\b{_TIMES_PER}\b|\b\d+\s?g\s+(?:OGTT|oral\s+glucose)|\b{_ALPHA_1}\b|\b{_EVERY}\b|"
    r"\b\d+\s*(?:units?|u)\s+(?:of\s+)?(?:blood\s+|RBCs?\s+|PRBCs?\s+|red\s+cells\s+)?(?:cross-?match\w*|X-?match\w*)",
    re.I,
)
# round 131: a note's result after a test's name without a colon ("UCx no growth.", "Ucx neg", "BCx NGTD")
# (round 134: and a sign's grade written before it, "Brisk knee reflexes", "Absent ankle jerks")
_BARE_RESULT = re.compile(
    r"\b(?:neg|pos|no\s+growth|NGTD|grew|growing|nil|clear|unremarkable|NAD|WNL|brisk|exaggerated|absent|diminished)\b",
    re.I,
)
_NOT_BARE = re.compile(
    r"\bw/|\b(?:with|shows?|showed|showing|has|have|had|waits?|remains?|needs?|fits?|suggests?|confirms?|"
    r"the\s+\w+\s+(?:decision|plan)|must|should|is|are|was|were|await|awaiting|awaited|pending|(?:un)?likely)\b",
    re.I,
)
_ORDER_DETAIL = re.compile(
    # (round 137: "w/wo contrast", "with/without contrast"; what the order also measures, "with platelets", "with
    # microscopy", "w/ opening pressure", "with Doppler")
    r"\b(?:with|w/)\s*(?:(?:and\s+|/\s*)?(?:without|w/?o)\s+)?(?:IV\s+)?(?:contrast|gadolinium|gad|DWI|diffusion|"
    r"(?:a\s+)?diff(?:erential)?|platelets?|microscopy|opening\s+pressures?|doppler|cell\s+count|film|DLCO|TLCO|"
    r"elastography)\b|"
    # round 138: an instruction in brackets ("DEXA (include the forearm)")
    r"\((?:include|including|incl\.?|to\s+include)\b[^)]*\)|"
    # round 141: what the order's result is expected to be, in brackets ("AM cortisol (will be suppressed on dex)")
    r"\((?:will|would|may|might|expect(?:ed)?|likely)\b[^)]*\)|"
    # round 136: "Colonoscopy w/ bx": the biopsies taken at the test belong to its order
    r"\b(?:with|w/)\s*(?:bx|biops(?:y|ies))\b|"
    r"\bbefore\s+(?:any|the|his|her|a|an|starting|commencing|initiating)\b.*$|\((?:drawn?|taken|sent)\s+before\b[^)]*\)",
    re.I,
)
# the colon of a result ("CXR: clear") or of a test and what to measure on it ("LP: protein, cell count"), not of a
# ratio written between two words ("protein:creatinine")
_RESULT_COLON = re.compile(r"(?<![A-Za-z]):|:(?![A-Za-z])")
# round 138: an article and a word of scope before a test's name ("A full examination: ...")
_SCOPE_ARTICLE = re.compile(r"^(?:an?|the)\s+(?:(?:full|formal|complete|thorough|careful|repeat)\s+)?", re.I)
# round 136: what a bare order is for ("Troponin to complete risk stratification"): an order, not a result
_ORDER_PURPOSE = re.compile(
    r"\bto\s+(?:complete|assess|exclude|rule\s+out|r/o|confirm|look\s+for|screen\s+for|stratify|quantify|stage|guide)\b|"
    r"\bfor\s+(?:risk\s+stratification|staging|localisation|localization|(?:surgical\s+|pre-?op\w*\s+)?fitness)\b",
    re.I,
)
# round 140: a frequency (daily, weekly) before a listed test
_FREQUENCY_LEAD = re.compile(rf"^(?:{_FREQUENCY})\s+", re.I)
# round 141: or after it ("LFTs monthly", "FVC every 4–6 hours"), with the escalation a monitoring order carries
# ("; ICU review if it falls below 20 mL/kg", cut with its condition before this is read)
_FREQUENCY_TAIL = re.compile(
    rf"\s+(?:{_FREQUENCY}|monthly|{_EVERY})(?:\s*[;,]\s*(?:an?\s+)?(?:ICU|HDU|ITU|critical\s+care)(?:\s+review)?)?\s*[;,]?$", re.I
)
# (round 134: or booked for the next morning, "FBC in AM;", which asks for a value not yet existing)
_URGENT_WORD = re.compile(
    r"\b(?:stat|now|urgent(?:ly)?|today|asap|tonight|please|pls|in\s+(?:the\s+)?(?:AM|morning)|tomorrow)\b", re.I
)
# a measure ordered at intervals or followed, new values of a released one (round 137: "FVC q6h", "Serial Hgb q6h";
# round 138: "Trend LFTs daily", "CBC daily, trend plt"; not "daily" alone: "a daily banana-and-orange smoothie")
_MONITORING_WORD = re.compile(r"\b(?:trend(?:ing)?|serial|q\s?\d+\s?(?:h|hrs?|min))\b", re.I)
# The rule of a bare test item read as an order ("- Erect PA CXR stat"): such an item may be a finding the reader took
# for an order, so the claim extractor does not treat it as a request that asserts nothing (reference.py, round 142)
BARE_ITEM_RULE = "a bare test item in a note's list ('- Erect PA CXR stat'): an order for it"
# Exposure history (travel, pets, animals) asked without naming a case fact: pertinent to a presentation
# with an infectious diagnosis in play, routine otherwise ("Has she travelled abroad recently?" in a
# kidney-stone work-up, "Does he keep a dog?" in a lung-nodule clinic)
# Social circumstances asked about without naming a case fact ("Occupation?", "Does she live alone?", "What
# was his job before he retired?", "does she still drive?"): labelled not pertinent to the presentation,
# except driving when the gold diagnosis is a seizure, syncope, hypoglycaemia or arteritis
_SOCIAL_CONTEXT = re.compile(
    r"\b(?:occupation|job|for\s+a\s+living|(?:live|lives|living)\s+(?:alone|on\s+(?:her|his)\s+own|by\s+(?:her|him)self)|"
    r"drive|driving|hobb(?:y|ies)|sports?|go(?:es)?\s+to\s+(?:the\s+)?gym|"
    # work, family life and schooling asked for their own sake ("What does he do for work?", "Is he
    # married?", "Which school year is she in?", "Does he attend nursery?"): the labels of every author
    # call them irrelevant to the presentation (28 of the 29 such questions of 110 labelled sets; the other,
    # "Are there sick contacts at nursery?", asks about contacts and is read as that first)
    r"do(?:es)?\s+(?:he|she|they)\s+do\s+for\s+work|(?:still|currently)\s+working|"
    r"working\s+(?:at\s+(?:the\s+)?(?:moment|present)|now)|work(?:s|ing)?\s+(?:night\s+)?shifts?|"
    r"work\s+outside\s+the\s+home|retired|married|(?:in\s+a|a)\s+relationship|boyfriend|girlfriend|"
    r"school\s+year|year\b[^.?]{0,20}\bat\s+school|nursery|child\s?care|toilet[\s-]trained|GCSEs?|"
    # and the rest of a life asked for its own sake (round 49: every author labels these irrelevant):
    # insurance, handedness, caffeine, an instrument, children, who she lives with, a birth plan
    r"(?:private\s+)?(?:health\s+)?insurance|(?:right|left)[\s-]handed|handedness|caffeine|coffee|"
    r"(?:wind|musical)\s+instrument|(?:children|kids)(?=\s*\?)|how\s+many\s+(?:children|kids)|"
    r"who\s+does\s+(?:she|he)\s+live\s+with|birth\s+plan|family\s+with\s+(?:him|her)\s+today|"
    r"dental\s+(?:work|procedures?|treatment|extractions?)|"
    # round 50 (every author again): breastfeeding plans, whether she wants the pregnancy, golf, the commute,
    # where she works, snoring, tattoos, which GP or PCP looks after him
    r"breast[\s-]?feed\w*|(?:want|continue)\s+(?:this|the)\s+pregnancy|golf\w*|commut\w*|work\s+at|"
    r"snor(?:e|es|ing)|tattoos?|regular\s+(?:PCP|GP|doctor)|(?:GP|practice)\s+(?:is\s+)?(?:she|he)\s+registered|"
    r"registered\s+with|"
    # round 53 (every author again): daycare, a sick note, screen time, a bungalow or stairs at home, diet
    # soda, and what he was lifting at the gym
    r"day[\s-]?care|(?:sick|fit)\s+note|screen\s+time|bungalow|(?:house|home)\s+with\s+stairs|stairs\s+at\s+home|"
    r"(?:diet\s+)?sodas?|fizzy\s+drinks?|(?:how\s+much|what(?:\s+weight)?)\s+was\s+he\s+lifting|"
    r"competitive\s+lifting|spotter|bench[\s-]press)\b",
    re.I,
)
# Keeping animals ("Does he have any pets at home?"): no case of the bank involves an animal, and the
# labels call the question irrelevant in infectious cases too (malaria, latent TB, pyelonephritis); it
# bears on the case only when a fact or diagnosis names animals. "PET-CT" is a scan, not a pet.
_PET_WORD = r"[Pp]ets?\b(?![\s-]*(?:CT|scan))"  # lower-case "pet(s)", never the "PET-CT" / "PET scan"
_PETS_Q = re.compile(rf"\b(?:{_PET_WORD}|(?i:dogs?|cats?|birds?|animals?|livestock|farm\s+animals?))\b")
# a case involves animals when a fact or diagnosis names them; a case with a "PET-CT" fact does not
_ANIMAL_WORD = re.compile(rf"\b(?:{_PET_WORD}|(?i:dogs?|cats?|birds?|animals?|livestock|zoono\w*|farm))\b")
# An alcohol history ("Does he drink alcohol?") bears on a presentation where alcohol can cause, worsen or
# interact with it (liver, pancreas, seizures, anticoagulation, gout, lipids): the bank's cases of that kind
# say so in a fact or a diagnosis; elsewhere (an obstructed bladder, a pneumothorax) it is routine history
_ALCOHOL_Q = re.compile(r"\b(?:alcohol|etoh|booze)\b|\bdrinks?\s*(?:\?|$|alcohol|much|heavily|regularly)", re.I)
_ALCOHOL_BEARING = re.compile(
    r"alcohol|etoh|liver|hepat|cirrho|pancrea|seizure|epilep|gout|crystal|(?<!phospho)lipid|cholesterol|triglycer|"
    r"warfarin|anticoag|withdrawal",
    re.I,
)
# A smoking history bears on lung, heart, vessels and thyroid eye disease: the bank's cases of that kind
# say so (a smoking fact, or the organ in a fact or diagnosis); in a lupus nephritis, a TTP or a gestational
# diabetes work-up the labels call "Does she smoke?" routine history, not relevant
_SMOKING_Q = re.compile(r"\bsmok\w*|tobacco|cigar\w*|\bvap(?:e|es|ing)\b", re.I)
_SMOKING_BEARING = re.compile(
    r"smok|tobacco|cigar|pack[\s-]?year|graves|orbitopath|thyroid\s+eye|lung|pulmon|emphysem|copd|bronch|"
    r"myocard|coronary|infarct|angina|cholesterol|hyperlipid|dyslipid|stroke|embol|aneurysm|arteri|"
    r"cardiovascular|peripheral\s+vascular|peptic|crohn",
    re.I,
)
# habits whose history bears on a case only where a fact or diagnosis concerns them or an organ they harm,
# checked in this order: (name, question pattern, bearing pattern)
_HABITS = (("smoking", _SMOKING_Q, _SMOKING_BEARING), ("alcohol", _ALCOHOL_Q, _ALCOHOL_BEARING))
_DRIVING = re.compile(r"drive|driving", re.I)
# "Does he have any children?" bears on an inherited disease (cascade testing of FH, alpha-1 antitrypsin)
_CHILDREN = re.compile(r"(?:how\s+many\s+)?(?:children|kids)", re.I)
_HEREDITARY = re.compile(
    r"familial\s+hypercholesterol|inherit|hereditary|genetic|genotyp|cascade|autosomal|Pi\s?ZZ|phenotyp", re.I
)
# "Any recent dental work?" is routine history unless the case has a dental event (the stroke case's
# extraction bears on thrombolysis) or a seeded infection in play (septic arthritis, endocarditis)
_DENTAL = re.compile(r"dental\s+\w+", re.I)
_DENTAL_BEARING = re.compile(r"dental|septic|endocarditis", re.I)
# social topics that bear on a case whose facts or diagnoses name the second pattern
# tattoos bear on a hepatitis (a blood-borne virus in the differential)
_TATTOO = re.compile(r"tattoos?", re.I)
_TATTOO_BEARING = re.compile(r"hepatitis|\bHBV\b|\bHCV\b|HBsAg|blood[\s-]borne", re.I)
_SOCIAL_BEARING = ((_CHILDREN, _HEREDITARY), (_DENTAL, _DENTAL_BEARING), (_TATTOO, _TATTOO_BEARING))
_DRIVING_CONDITION = re.compile(
    # not an acute stroke: "Does she drive?" at presentation is not its work-up (the labels call it irrelevant)
    r"seizure|epilep|syncop|faint|hypoglyc|visual\s+(?:loss|field)|arteritis|"
    r"blackout|loss\s+of\s+consciousness",
    re.I,
)
_EXPOSURE_Q = re.compile(
    r"\b(?:travel(?:l?ed|l?ing)?|abroad|overseas|trips?|pets?|dogs?|cats?|birds?|animals?|farm|livestock)\b", re.I
)
_TRAVEL_BEARING = re.compile(
    r"malaria|tubercul|\bTB\b|hepatitis|\bHIV\b|dengue|typhoid|lepto|zoono|tropical|schistosom|giardia|amoeb|"
    # a venous thrombosis, not any word of clotting ("thrombotic thrombocytopenic purpura", "cardioembolic stroke")
    r"pulmonary\s+embol|venous\s+thrombo|deep\s+vein|\bDVT\b|\bVTE\b",
    re.I,
)
# "Is he planning any long-haul travel in the coming months?", "Any plans to travel abroad?": not an exposure
_TRAVEL_PLANS = re.compile(
    r"\bplann(?:ing|ed)\b[^?.]{0,40}\b(?:travel\w*|trips?|holidays?|vacations?)\b|"
    r"\b(?:travel|trips?|holidays?)\s+planned\b|\bplans?\s+to\s+travel\b",
    re.I,
)
# "Ask about pets or neighbours with similar sx": a shared illness in the household, not keeping animals
_SIMILAR_ILLNESS = re.compile(r"\bsimilar\b|\bunwell\b|\bsick\b|\bill\b|\bsymptom|\bsx\b", re.I)
# Coordinating care for this presentation is pertinent: involving a specialist or team ("Please page
# the thrombectomy team", "Would the endoscopist be able to treat it today?"), collateral history
# ("Anything else from the husband?"), checking records or sample identity ("go through the
# blister pack", "Was it even the same patient?") and monitoring ("continuous CTG", "telemetry").
_COORDINATION = re.compile(
    r"\b(?:[\w-]+\s+team|endoscopist|surgeons?|surgical|consultant|registrar|anaesthet\w*|anesthesi\w*|"
    r"radiolog\w*|interventional|neuro-?IR|on-?call|specialist|ICU|HDU|intensiv\w*|pharmac\w*|"
    r"blister\s+pack|(?:medication|drug|prescription|GP)\s+records?|same\s+patient|(?:mis)?label\w*|"
    r"MDT|multidisciplinary|tumou?r\s+board|let\s+(?:the\s+)?[\w-]+(?:\s+[\w-]+)?\s+know|"
    r"CTG|cardiotocograph\w*|telemetry|continuous\s+(?:monitoring|ECG|CTG|fetal|cardiac)|fetal\s+monitoring|"
    r"(?:from|with)\s+(?:the|her|his)\s+(?:husband|wife|partner|spouse|son|daughter|mother|father|parents?|"
    r"family|carer|relatives?|paramedics?|ambulance\s+crew))\b",
    re.I,
)
# A condition attached to a request ("... if the ultrasound is non-diagnostic") is not what is asked.
# "..., if the ultrasound is non-diagnostic" is a condition; "I would be grateful if you could check X" and
# "if possible" are politeness, and the ask follows them
_CONDITION_TAIL = re.compile(
    r"\s+\b(?:if(?!\s+(?:(?:you|we|someone|they)\s+(?:could|can|would|might)|possible)\b)|unless|in\s+case|should\s+the|"
    r"once|when)\b.*$",
    re.I,
)

# "She is RhD negative, so anti-D is needed": a stated finding and what follows from it for
# management, not a request for information.
_STATED_CONSEQUENCE = re.compile(
    r"^\W*(?:he|she|they|the\s+patient|his|her|this)\b(?:'s)?[^,;:?]{0,80}?,?\s+(?:so|therefore|hence|and\s+so)\b", re.I
)
_PASSIVE_NEED = re.compile(r"^(?:is|are)\s+(?:needed|required|essential|necessary|warranted|indicated)$", re.I)

# "Any episodes of jaundice in the past few months?": past history, not today's measured value.
_PAST_EPISODES = re.compile(
    r"\b(?:(?:previous|prior|past|earlier|similar)\s+episodes?|episodes?\s+of\b[^?.]{0,60}\b(?:in\s+the\s+past|"
    r"before|previously|last\s+(?:few\s+)?(?:weeks|months|years?)|past\s+(?:few\s+)?(?:weeks|months|years?))|"
    r"ever\s+(?:had|been)|in\s+the\s+past\s+(?:few\s+)?(?:weeks|months|years?)|"
    r"before\s+(?:today|this\s+(?:morning|admission|presentation|episode)|admission|arrival))\b",
    re.I,
)

_PREGNANT_NOW = re.compile(
    r"\b(?:is|could|might|may)\s+(?:she|the\s+patient)\s+(?:be\s+|currently\s+)?pregnant\b|"
    r"\bchance\s+(?:that\s+)?(?:she(?:'s|\s+is|\s+could\s+be)\s+)?pregnant\b|\bpregnancy\s+status\b|"
    r"\b(?:possibly|currently)\s+pregnant\b",
    re.I,
)
_EXAMINE_PART = re.compile(
    r"\b(?:examine|examination\s+of|look\s+at|palpate|assess)\s+(?:the\s+|her\s+|his\s+|their\s+)?(?:\w+\s+)?"
    r"(?P<part>scrot\w+|abdom\w+|chest|legs?|calf|calves|neck|thyroid|heart|lungs?|skin|eyes?|fundi|retina\w*|"
    r"breasts?|testes|testicles?|testis|pelvis|rectum|prostate|joints?|knees?|hips?|spine|back|feet|foot|hands?|"
    r"mouth|throat|ears?|abdomen)\b",
    re.I,
)
# words that qualify how or when a test is done, not which test it is ("a bedside Doppler")
# body-site words that make a one-word test name another test ("pelvic ultrasound", "cardiac MRI")
_SITE_WORDS = {
    "transvaginal", "pelvic", "abdominal", "renal", "kidney", "liver", "hepatic", "thyroid", "cardiac", "chest",
    "head", "brain", "spine", "spinal", "scrotal", "testicular", "neck", "carotid", "breast", "bladder",
    "transabdominal", "obstetric", "leg", "venous", "doppler", "knee", "hip", "shoulder", "wrist", "ankle",
}
_GENERIC_TEST_WORDS = {
    "some", "repeat", "more", "your", "bedside", "urgent", "portable", "formal", "quick", "another", "baseline",
    "serial", "emergency", "proper", "full", "early", "initial", "same-day", "fresh", "official", "rapid",
    "point-of-care", "outpatient", "inpatient", "today's", "latest", "recent", "new", "updated", "follow-up",
    # round 141: a monitoring verb before the test's shorthand ("Trend trop q6h")
    "trend", "recheck", "re-check",
}
_SOURCE_CHECK = re.compile(
    r"\b(?:samples?|specimens?|assays?|methods?|laborator(?:y|ies)|lab|identity|label\w*|source|outside|external|"
    r"pharmacy|records?|report)\b",
    re.I,
)
# "It would help to know whether ...", "I'd be grateful for a ...": indirect requests
_INDIRECT_ASK = re.compile(
    r"\bit\s+would\s+(?:also\s+)?(?:help|be\s+(?:good|helpful|useful|great|valuable|worth\w*))\s+to\s+(?:know|see|have|get|check|"
    r"confirm|find\s+out|establish|clarify)\b|\b(?:I|we)(?:'d|\s+would)\s+be\s+grateful\s+(?:for|if)\b|"
    # round 136: "I would also be grateful to know whether his brother has ever had AAT testing"
    r"\b(?:I|we)(?:'d|\s+would)\s+(?:also\s+)?be\s+(?:most\s+|very\s+)?grateful\s+to\s+(?:know|hear|learn)\b|"
    r"\bit(?:'s|\s+is)\s+worth\s+(?:checking|asking|sending|getting|confirming)\b",
    re.I,
)
# Terse and trailing asks: "Still waiting on the CRP — please chase it", "Pls clarify LMP w/ pt", "would like
# neurosurgery to review today" (note style without a subject)
_TERSE_ASK = re.compile(
    r"[—–]\s*(?:(?:and|so)\s+)?(?:please|pls|plz)\s+(?:(?:can|could)\s+(?:someone|you|we)\s+)?"
    + NOT_AN_ASK_AFTER_PLEASE + r"[a-z]{3,}\b|"
    r"[—–]\s*(?:can|could)\s+(?:we|you|someone)\s+[a-z]{3,}\b|"
    r"^\W*(?:(?:and|so|also)\s+)?(?:pls|plz)\s+[a-z]{3,}\b|^\W*(?:would|'d)\s+(?:also\s+)?like\b|"
    # "— send serum + CSF NMDAR Ab", "Would recheck the K before ...", "I'd also add an IgA-EMA.",
    # "I would clarify this with the patient directly."
    r"[—–]\s*(?:(?:and|so)\s+)?(?:send|check|get|order|request|arrange)\s+[A-Za-z]|"
    r"^\W*(?:(?:I|we)(?:'d|\s+would)|would)\s+(?:also\s+|first\s+|still\s+)?(?:clarify|confirm|check|send|order|request|"
    r"add|repeat|re-?check|re-?image|re-?scan|get)\b",
    re.I,
)
# "Need MRI brain w/ contrast today", "He'll need HBV DNA", "— needs a CK": a test the patient needs
_NEED_TEST = re.compile(
    r"(?:(?:^\W*|\b(?:he|she|they|the\s+patient)(?:'ll|\s+will)?\s+|[—–]\s*)needs?|"
    # round 135: "I'd go to a PET-CT next", "we would move on to a CTPA": the next step named as a test (not a
    # procedure the test guides, "I would proceed to an ultrasound-guided air enema")
    r"\b(?:I|we)(?:'d|’d|\s+would)\s+(?:go|move|proceed)\s+(?:straight\s+)?(?:on\s+)?to|"
    # round 136: a note's follow-up of a test and a go-ahead for it ("F/u CRP.", "Proceed with CT C/A/P",
    # "Please go ahead with the CT-guided biopsy")
    r"^\W*(?:also\s+)?(?:f/u|follow[\s-]?up(?:\s+on)?|(?:please\s+|pls\s+)?(?:proceed|go\s+ahead)\s+with))\s+"
    r"(?:an?\s+|the\s+)?"
    r"(?:urgent\s+|emergency\s+|formal\s+|repeat\s+|further\s+)?(?:[\w/+-]+\s+){0,2}?",
    re.I,
)
# what "add X" waits on, not what it adds ("Add fenofibrate once lipids are repeated")
_ADD_CONDITION = re.compile(r"\s+(?:once|when|after|until|unless|if)\b", re.I)
_TESTS_NEEDED = re.compile(
    r"^\W*(?P<x>[^.?!;:]{2,40}?)\s+(?:still\s+|also\s+)?(?:needed|required)(?:\s+(?:now|urgently|today|stat|asap|first))?\W*$",
    re.I,
)
_PLEASE_RE_VERB = re.compile(r"^\W*(?:(?:and|so|also|then)\s+)?please\s+(?:also\s+|now\s+)?re-[a-z]{3,}\b", re.I)
# "Please re-measure BP in both arms": measuring the contradicted item again
_RECHECK = re.compile(r"\bre-?(?:measure|take|assess|examine|evaluate|do|count|weigh)\b|\bmeasure\b[^.?]{0,40}\bagain\b", re.I)
# "a heparinised plasma potassium", "a capillary glucose": the same analyte on another specimen is a
# new measurement, not the released value
_SPECIMEN = re.compile(
    r"\b(?:heparini[sz]ed|lithium[\s-]heparin|plasma|whole[\s-]blood|point[\s-]of[\s-]care|POC|capillary|"
    r"finger-?\s?prick|fasting|early[\s-]morning|unhaemolysed|unhemolyzed|non-?haemolysed|fresh\s+(?:sample|specimen)|arterial)\b",
    re.I,
)
# "Any visible haematuria?", "frank blood?": the sign the patient sees, not the laboratory finding
_VISIBLE_SIGN = re.compile(r"\b(?:visible|macroscopic|gross|frank)\s+", re.I)
# "Please make sure he's had the aspirin": checks that care was given now, not the drug history
_CARE_GIVEN = re.compile(
    r"\b(?:make\s+sure|ensure|check\s+that|confirm\s+that)\s+(?:he|she|they|the\s+patient)(?:'s|\s+has|\s+have|"
    r"\s+is|\s+was)?\s+(?:had|received|been\s+given|got|taken|given)\b",
    re.I,
)


# "Please give IV hydrocortisone 100 mg now", "Please catheterise and treat the potassium", "Urgent
# urology review for exploration", "Can we offer her a copper coil?": a request to act on a released
# finding asks for management, not for the finding again
_MANAGEMENT_ACTION = re.compile(
    r"\b(?:give(?!\s+(?:me|us)\b)|commence|initiate|treat|catheteri[sz]e|refer|book|offer|transfuse|withhold|"
    r"admit|bleep|page|call\s+(?:the\s+|in\s+the\s+)?(?:on-?call\s+)?[\w-]+(?:\s+[\w-]+)?\s+(?:team|registrar|"
    r"consultant|surgeons?|urologist|cardiologist|haematologist|neurologist|obstetrician|gynaecologist|service)|"
    r"review\s+for|(?:is|are)\s+(?:stored|saved|kept|called|contacted)|exploration|theatre|"
    r"list\s+(?:him|her|them|the\s+patient)\s+for)\b",
    re.I,
)
# "Can we recheck the potassium?": asks for the same measurement again
_REPEAT_WORD = re.compile(r"\b(?:repeat\w*|re-?check\w*|re-?test\w*|re-?send)\b", re.I)
# "Is there an old ECG for comparison?", "any earlier ACR results on record", "his CRP at the time of the
# infection", "was he ever tested for AAT": a result from the past, not the current one released
_PRIOR_RESULT = re.compile(
    r"\b(?:old|previous|prior|earlier|historical|past)\s+(?:[\w-]+\s+){0,2}?(?:ECGs?|EKGs?|results?|readings?|"
    r"values?|levels?|scans?|films?|images?|tests?|excursions?|records?|measurements?)\b|\bon\s+record\b|"
    r"\bfor\s+comparison\b|\bat\s+the\s+time\s+of\b|\bever\s+(?:been\s+)?(?:tested|checked|measured|screened)\b",
    re.I,
)


@functools.lru_cache(maxsize=1)
def question_vocabulary() -> tuple[re.Pattern[str] | None, list[tuple[re.Pattern[str], list[str]]]]:
    """(history-topic terms, [(lay phrase, medical terms)]) from lexicon.yaml ``question_topics`` and
    ``lay_terms``: symptoms and exposures a clinician asks about whatever the case, and lay phrases
    whose medical word a case fact may use ("double vision" for "diplopia")."""
    data = lexicon_data()
    topics = [str(t) for t in data.get("question_topics") or []]
    lay = data.get("lay_terms") or {}
    pairs = []
    for med, phrases in lay.items():
        words = [str(med)]
        for ph in phrases or []:
            pairs.append((re.compile(rf"\b{re.escape(str(ph))}\b", re.I), words))
        topics.append(str(med))
        topics.extend(str(ph) for ph in phrases or [])
    rx = (
        re.compile(r"\b(?:" + "|".join(re.escape(t) for t in sorted(set(topics), key=len, reverse=True)) + r")\b", re.I)
        if topics
        else None
    )
    return rx, pairs


# round 131: "### Why not prerenal?": a markdown heading over the reply's own reasoning, not a question to the team
_WHY_HEADING = re.compile(r"^#{1,6}\s*(?:why|how|what)\b", re.I)
_HYPOTHESIS_Q = re.compile(
    r"^\s*(?:could|might|may|can|is|would)\s+(?:this|it|that)\s+(?:be|represent|reflect|indicate)\b"
    r"(?!\s+(?:possible|feasible|helpful|useful|ok|okay|worth)\b)", re.I
)


# A bare imperative that orders a drug ("Add ibuprofen if the neck becomes sore", "Hold the
# anticoagulant") is management, even though "add"/"get" can also order a test.
_DRUG_WORD = re.compile(
    r"\b(?:\w+(?:sone|solone|olone|thyroxine|mab|pril|sartan|olol|statin|azole|cillin|mycin|floxacin|parin|xaban|"
    r"gatran|dipine|prazole|tidine|mazole|uracil)|stress[\s-]dose|doses?|dosing|replacement|taper\w*|mg|"
    r"immunotherapy|chemotherapy|ICI|checkpoint\s+inhibitors?|"
    # round 133: drug classes ordered stopped or avoided ("Stop all antipsychotics")
    r"antipsychotics?|neuroleptics?|antidepressants?|antiepileptics?|anticonvulsants?|AEDs?|diuretics?|NSAIDs?|"
    r"opioids?|benzodiazepines?|sedatives?)\b",
    re.I,
)
# (round 133: "avoid", and after "please" under a tests heading: "- Please avoid further antipsychotics")
# (round 139: "keep" a patient nil by mouth, and an order said as the writer's own, "I would start IV magnesium now")
_ORDER_VERB = re.compile(
    r"^\W*(?:(?:please|pls)\s+|(?:i|we)(?:'d|’d|\s+would|\s+will|'ll)\s+(?:also\s+)?)?"
    r"(?:add|hold|withhold|stop|start|give|continue|restart|resume|increase|reduce|switch|avoid|keep)\b",
    re.I,
)
# "... below the 2 mm I'd want to call it a STEMI": a wish about naming or treating, not a request
# "CPPD more likely than gout, though I want to see the crystals", "The alternative I'd want to exclude
# is X", "A structural cause is less likely ..., but I would still want imaging": a "want" said while
# ranking diagnoses is part of the reasoning, not a request ("..., but I'd like LFTs" still asks)
_DX_REASONING = re.compile(
    r"\b(?:likely|unlikely|likelier|impression|alternative|differential|diagnosis|favou?r(?:ed)?|fits\s+best)\b", re.I
)
_WISH_NOT_REQUEST = re.compile(
    r"^\s*to\s+(?:call|label|name|diagnose|say|describe|term|classify|treat|start|give|manage|commit|make|"
    r"see\s+(?:before|first)|wait|avoid|be\s+sure|be\s+certain)\b",
    re.I,
)


def _is_drug_order(text: str, know_terms: bool = True) -> bool:
    if _INVESTIGATION.search(text):
        return False
    if _DRUG_WORD.search(text) or _TREATMENT.search(text):
        return True
    return know_terms and any(
        hits[0][0] in treatment_terms() for _s, _e, hits in general_lexicon()[0].find(text)
    )


# round 133: "Parathyroidectomy is indicated given the stones": a procedure or treatment called indicated
_TREATMENT_INDICATED = re.compile(
    r"^\W*(?:(?:an?|the|urgent|elective|early)\s+)*(?:\w+(?:ectomy|otomy|ostomy|plasty|pexy)|surgery|surgical\s+\w+|"
    r"operation|admission|referral|treatment|therapy|anticoagulation|thrombolysis|thrombectomy|PCI|dialysis|"
    r"transfusion|intubation)\s+(?:is|are)\s+(?:now\s+|clearly\s+|also\s+)?(?:indicated|warranted)\b",
    re.I,
)


# a drug's serum level or dose history named after it ("Lamotrigine level", "trough tacrolimus"), which is a test
_DRUG_LEVEL = re.compile(r"\b(?:levels?|concentrations?|trough|assay|history)\b", re.I)
# round 138: a plan for a failure to come ("If aspiration fails, small-bore drain") under a tests heading
_CONTINGENCY = re.compile(r"^\W*if\s+[^,]{2,50}\b(?:fails?|unsuccessful|recurs?|persists?|does\s*n[o']t\s+work)\b[^,]*,", re.I)
# round 138: a note's "– ?" ending a segment, shorthand for "query" ("Still suspect thyroid – ? early hypothyroidism")
# (round 139: also after a test, naming what it should show: "FT4 — ?central hypothyroidism")
_QUERY_DASH = re.compile(r"\s[–—-]\s*\?[^?]*$")
# round 138: a surveillance test due years from now ("He will need a surveillance colonoscopy at three years")
_FUTURE_NEED = re.compile(
    r"\bwill\s+need\b[^.?]*\b(?:at|in|after)\s+(?:\d+|one|two|three|five|ten)\s*(?:years?|yrs?)\b", re.I
)
# round 139: a released scan asked for in another protocol, a new test ("request 3T epilepsy-protocol MRI" after a
# standard MRI brain showed no lesion)
_NEW_PROTOCOL = re.compile(
    rf"{_FIELD_STRENGTH}|\b(?:3-?Tesla|epilepsy[\s-]protocol|thin[\s-]slice|high[\s-]resolution)\b", re.I
)
# round 139: a call already made, listed under a tests heading ("Urology paged for emergent exploration")
_DONE_CALL = re.compile(
    r"^\W*(?:[\w/&'-]+\s+){1,3}(?:paged|bleeped|called|contacted|informed|notified|aware|alerted)\b(?!\s+(?:whether|if)\b)",
    re.I,
)
# round 137: advice on diet or habits listed under a tests heading ("cap milk at 16 oz/day", "Limit cow's milk")
_ADVICE = re.compile(r"^\W*(?:cap|limit|restrict|cut\s+down|encourage|advise|counsel|educate|reassure)\b", re.I)
# a dose written after a drug's name ("Hydrocortisone 100 mg IV now", "IVIG 0.4 g/kg/day")
_DRUG_DOSE = re.compile(r"\b\d+(?:\.\d+)?\s*(?:mg|mcg|µg|micrograms?|g|units?|mmol|mL)(?:/kg)?\b", re.I)


# round 139: a test ordered after the treatment in the same item ("I would give it two weeks off ibuprofen and then
# recheck the creatinine"): the item still asks for the test
_THEN_TEST = re.compile(r"\b(?:re-?check|repeat|check|measure|send)\b", re.I)


def _orders_a_drug(text: str) -> bool:
    """"Stop the ibuprofen", "start hydrocortisone": an order verb first, then a drug or treatment."""
    return bool(_ORDER_VERB.match(text)) and _is_drug_order(text) and not _then_test(text)


def _then_test(text: str) -> bool:
    """Whether a test is ordered after the treatment ("... two weeks off ibuprofen and then recheck the
    creatinine"), which keeps the item a request."""
    then = _THEN_TEST.search(text)
    return then is not None and _names_test(text[then.end():])


def _drug_list_item(text: str) -> bool:
    """A drug or treatment listed under a tests heading: ordered with a verb ("- Stop the ibuprofen" closing a list
    of tests, round 131), or, round 137, written with its dose ("Hydrocortisone 100 mg IV now", "**Meanwhile:** start
    IVIG 0.4 g/kg/day") or named first ("levothyroxine only after steroid replacement"; not "Lamotrigine level")."""
    return not _then_test(text) and _is_drug_order(text) and bool(
        _ORDER_VERB.match(text) or _DRUG_DOSE.search(text)
        or (_DRUG_WORD.match(text.lstrip(" -*•")) and not _DRUG_LEVEL.search(text))
    )


def _word_suffixes(text: str, n: int) -> list[str]:
    """``text`` and ``text`` without its first 1..n modifier words ("erect chest X-ray", "chest X-ray");
    never past a conjunction ("IVIg and FVC monitoring" is a treatment first)."""
    out = [text]
    for _ in range(n):
        m = re.match(r"\S+\s+", out[-1])
        if m is None or re.match(r"(?:and|or|plus|with|then)\b", out[-1][m.end() :], re.I):
            break
        out.append(out[-1][m.end() :])
    return out


def _analyte_spans(text: str, exclude: Container[str] = ()) -> list[tuple[int, int]]:
    """Where ``text`` names a laboratory analyte of the general vocabulary ("haptoglobin", "LDH"), other
    than the term ids in ``exclude``."""
    lex, kinds = general_lexicon()
    return [
        (s, e) for s, e, hits in lex.find(text) if kinds.get(hits[0][0]) == "analyte" and hits[0][0] not in exclude
    ]


def _analyte_at_start(text: str) -> bool:
    """Whether ``text`` opens with a laboratory analyte ("K value and eGFR", "AM cortisol, ACTH"): what
    "Need X" asks for when X is a value rather than a named investigation."""
    return any(s == 0 for s, _ in _analyte_spans(text))


# (round 139: a clock time before a timed sample, "9 am cortisol and ACTH today")
_SPECIMEN_FIRST = re.compile(
    # (round 140: a frequency too, "Daily platelet count and LDH")
    rf"^(?:(?:serum|plasma|blood|venous|capillary|urine|urinary|AM|\d{{1,2}}\s?am|morning|random|fasting|trough|{_FREQUENCY})\s+)+",
    re.I
)


def _analyte_list(text: str) -> bool:
    """Round 136: a list item of two or more analytes ("Magnesium, ferritin/transferrin saturation, alkaline
    phosphatase"): tests of their levels, though "magnesium" alone may be given as a drug."""
    parts = [p.strip() for p in re.split(r"[,/]|\band\b", text) if p.strip()]
    return len(parts) >= 2 and sum(_analyte_at_start(p) for p in parts) >= 2 and _analyte_at_start(parts[0])


def _opens_with_analyte(text: str) -> bool:
    """A list item that names an analyte first, after optional specimen or timing words ("Serum ferritin",
    "AM cortisol"), and is not care of it ("Potassium replacement", "magnesium sulphate")."""
    t = _SPECIMEN_FIRST.sub("", text.strip())
    return _analyte_at_start(t) and not _ANALYTE_CARE.match(t)


# "Needs glucose control", "needs potassium replacement": care of the analyte, not a test of it
# (round 131: and its salts given as drugs, "She needs magnesium sulphate")
_ANALYTE_CARE = re.compile(
    r"^[\w/+-]+(?:\s+[\w/+-]+)?\s+(?:control|management|replacement|correction|lowering|supplement\w*)\b|"
    r"^(?:magnesium|potassium|calcium|sodium|zinc|ferrous)\s+(?:sulphate|sulfate|chloride|gluconate|bicarbonate|carbonate)\b",
    re.I,
)


def _names_test(text: str, analyte_text: str | None = None) -> bool:
    """Whether ``text`` names an investigation, or ``analyte_text`` (default: the same text) a laboratory
    analyte of the general vocabulary: what makes "add X" or "X needed" an ask for a test."""
    return bool(_INVESTIGATION.search(text)) or bool(_analyte_spans(text if analyte_text is None else analyte_text))


def is_request(seg: Segment) -> tuple[bool, str]:
    """Whether a segment asks for information, with the rule that decided."""
    # round 134: a question mark before a list's semicolon still ends the ask ("cremasteric reflex?;")
    text = seg.text.strip().rstrip(";,").rstrip()
    if not re.search(r"[A-Za-z]{2}|(?-i:\b[A-Z]\d{1,2}\b)", text):
        # ("C3/C4" is a test's name, round 134)
        return False, "no words (a lone '?' of note shorthand: '? X vs Y')"
    if seg.section == "questions":
        if not seg.bullet and _TREATMENT_ORDER.match(text) and not QUESTION_RX.search(text) and not text.endswith("?"):
            return False, "a treatment order, not a request for information"
        if not text.endswith("?") and _drug_list_item(text):
            return False, "an order for a drug or treatment, not a request for information"
        if not text.endswith("?") and _DONE_CALL.match(text):
            return False, "a call already made ('Urology paged'), not a request for information"
        if not text.endswith("?") and _ADVICE.match(text):
            return False, "advice to the patient ('cap milk at 16 oz/day'), not a request for information"
        if _CONTINGENCY.match(text) and not _INVESTIGATION.search(text[text.find(",") :]):
            return False, "a contingency plan ('If aspiration fails, small-bore drain'), not a request for information"
        return True, "item under a questions/tests heading"
    # round 138: a note's "– ?" is shorthand for "query" before a hypothesis ("Still suspect thyroid – ? early
    # hypothyroidism"), not a question mark
    ends_q = text.endswith("?") and not _QUERY_DASH.search(text)
    if ends_q and _WHY_HEADING.match(text):
        return False, "a markdown heading that asks the reply's own question ('### Why not prerenal?')"
    if ends_q and _HYPOTHESIS_Q.match(text):
        return False, "a rhetorical diagnostic hypothesis ('could this be X?'), not a request"
    cue = QUESTION_RX.search(text) or _PLEASE_RE_VERB.match(text) or _INDIRECT_ASK.search(text) or _TERSE_ASK.search(text)
    if cue is None and (nd := _TESTS_NEEDED.match(text)) is not None and _names_test(nd.group("x")):
        cue = nd  # "ESR/CRP needed.", "Repeat ECG still required": tests named as needed, a terse order
    if cue is None:
        cue = next((m for m in _NEED_TEST.finditer(text) if any(
            ((inv := _INVESTIGATION.match(rest)) and not rest.startswith("-guided", inv.end()))
            or (_analyte_at_start(rest) and not _ANALYTE_CARE.match(rest))
            for rest in _word_suffixes(text[m.end():], 2))), None)
    if not ends_q and not cue:
        return False, ""
    if (
        not ends_q and cue is not None and re.search(r"\bwant\b", cue.group(0), re.I)
        and _DX_REASONING.search(text[: cue.start()])
    ):
        return False, "a wish inside diagnostic reasoning ('X is more likely, though I want to see Y'), not a request"
    if not ends_q and cue is not None and _WISH_NOT_REQUEST.match(text[cue.end() :]):
        return False, "a wish about naming or treating ('I'd want to call it X'), not a request"
    if not ends_q and not re.search(r"\bplease\b", text, re.I) and _orders_a_drug(text):
        return False, "an order for a drug or treatment, not a request for information"
    # (round 142: up to the condition it waits on, "Add fenofibrate once lipids are repeated")
    added = _ADD_CONDITION.split(text[cue.end():], maxsplit=1)[0].strip() if cue is not None else ""
    if not ends_q and cue is not None and re.search(r"\badd\b", cue.group(0), re.I) and (
        not _names_test(added, analyte_text=text)
        # round 137: "I would add ramipril for the proteinuria once the creatinine is stable": a drug added first
        or (_is_drug_order(" ".join(added.split()[:2])) and not (_opens_with_analyte(added) or _SPECIMEN_FIRST.match(added)))
    ):
        return False, "adds something that is not a test ('I'd add colchicine'), not a request for information"
    if not ends_q and _FUTURE_NEED.search(text):
        return False, "a test due in years ('He will need a surveillance colonoscopy at three years'), not asked now"
    if not ends_q and _NOT_NEEDED.search(text):
        return False, "says that nothing more is needed"
    if not ends_q and cue is not None and _TREATMENT_INDICATED.search(text[: cue.end()]):
        return False, "says a treatment or procedure is indicated ('Parathyroidectomy is indicated'), not a request"
    if OUTSTANDING_RX.search(text) and not ends_q and not _EXPLICIT_ASK.search(text):
        return False, "states that a result is outstanding (not a new question)"
    if not ends_q and PLAN_RX.match(text) and not cue:
        return False, ""
    if not ends_q and _STATED_CONSEQUENCE.match(text) and _PASSIVE_NEED.search(cue.group(0)):  # type: ignore[union-attr]
        return False, "a statement about the patient with its management consequence ('she is X, so Y is needed')"
    return True, "ends with '?'" if ends_q else f"request cue '{cue.group(0).strip()}'"  # type: ignore[union-attr]


# "I'd like an MRI, and please let the MDT know": two requests joined in one sentence
_JOINED_REQUEST = re.compile(
    r"(?:,|;)\s*(?:and\s+|but\s+)?(?=(?:please\b|(?:I|we)(?:'d|\s+would)\s+(?:also\s+|still\s+)?"
    r"(?:like|want|check|order|send|add|request|arrange)\b|"
    r"(?:could|can)\s+(?:we|you)\b))",
    re.I,
)


def split_joined_requests(seg: Segment) -> list[Segment]:
    """Split a sentence at a second request cue after a comma or semicolon, when the part before it
    is itself a request: each part is one question (one ask per request)."""
    m = _JOINED_REQUEST.search(seg.text)
    if not m or m.start() < 8 or seg.text.rstrip().endswith("?"):
        return [seg]  # one interrogative sentence ("Can the lab confirm X, and can we repeat Y?") is one ask
    first = seg.text[: m.start()].rstrip()
    rest = seg.text[m.end() :]
    if not (QUESTION_RX.search(first) or re.search(r"\bplease\b", first, re.I)) or not QUESTION_RX.search(rest):
        return [seg]
    a = dataclasses.replace(seg, text=first, end=seg.start + len(first))
    off = seg.start + m.end()
    b = dataclasses.replace(seg, text=rest, start=off, end=off + len(rest))
    return [a, *split_joined_requests(b)]


class QuestionReader:
    """Finds questions and gap mentions in every reply of a trajectory."""

    def __init__(self, know: CaseKnowledge, semantic: bool = True):
        self.know = know
        self.semantic = semantic

    def _targets(self, text: str) -> tuple[set[str], str, bool]:
        """(fact ids, via, mentions a contradiction item)."""
        text = _RATIONALE.split(text, maxsplit=1)[0]  # "..., given her diabetes" is the reason, not the ask
        text = _LEADING_RATIONALE.sub("", text)  # "Given the raised bilirubin, I'd like an MRCP" asks for the MRCP
        head = _CONDITION_TAIL.sub("", text)
        if head.strip() and not head.rstrip().endswith(("?", ":")) and len(head.split()) >= 2:
            text = head  # "Upper GI contrast study if the ultrasound is non-diagnostic" asks for the study
        fam = _FAMILY_HISTORY.search(text)
        text = _FAMILY_HISTORY.sub(lambda m: " " * len(m.group(0)), text)
        ids: set[str] = set()
        if fam is not None:
            # "Any family history of kidney stones?" asks for the family-history fact when that fact speaks
            # of the condition ("no family history of stones or parathyroid disease"), not the patient's own
            asked = {w.lower()[:5] for w in re.findall(r"[A-Za-z]{4,}", fam.group(0)[len("family history of"):])}
            asked -= {"famil", "histo", "other", "there", "anyon"}
            for f in self.know.case.facts:
                if f.category == FactCategory.family and asked & {
                    w.lower()[:5] for w in re.findall(r"[A-Za-z]{4,}", " ".join([f.statement, *f.all_names]))
                }:
                    ids.add(f.id)
        contra = False
        text = _spell_test_shorthand(text)  # round 134: "Urine cx" asks for the urine culture
        for m in fact_mentions(self.know, text):
            if m.kind == "contradiction":
                tmpl = self.know.templates.get(m.item_id)
                if tmpl is not None:
                    ids.add(tmpl.fact_id)
                    contra = True
            else:
                if self._foreign_qualifier(text, m):
                    continue  # "antiphospholipid antibodies" is not the case's "anti-dsDNA antibodies"
                ids.add(m.item_id)
        ids |= panel_targets(text, self.know)
        ids |= self._examine_targets(text)
        if not ids and _PREGNANT_NOW.search(text):
            # "Is she pregnant?" asks what a pregnancy test (hCG) reports; plans for a future
            # pregnancy do not ("Is she planning a pregnancy?")
            ids |= {f.id for f in self.know.case.facts
                    if any(re.search(r"pregnan|\bhcg\b", n, re.I) for n in f.all_names)}
        if not ids:
            ids |= self._lay_targets(text)
        return ids, ("lexical" if ids else "none"), contra

    def _examine_targets(self, text: str) -> set[str]:
        """"Please examine the scrotum / her abdomen" names the case's "scrotal / abdominal examination"
        fact: the body part and the examination's adjective share their stem."""
        out: set[str] = set()
        for m in _EXAMINE_PART.finditer(text):
            part = m.group("part").lower()
            stem = part[:4]  # "scrotum"/"scrotal", "rectum"/"rectal", "abdomen"/"abdominal"
            for f in self.know.case.facts:
                if f.category != FactCategory.exam:
                    continue
                for n in f.all_names:
                    low = n.lower()
                    if re.search(r"\bexam", low) and any(w.startswith(stem) for w in re.findall(r"[a-z]+", low)):
                        out.add(f.id)
        return out

    def _foreign_qualifier(self, text: str, m) -> bool:
        """A one-word head-noun hit ("antibodies", "scan") qualified by a word the fact never uses."""
        fact = self.know.fact(m.item_id) if m.kind == "fact" else None
        if fact is None or " " in m.text.strip():
            return False
        names = [n.lower() for n in fact.all_names]
        q = re.search(r"([A-Za-z][A-Za-z\-]{3,})\s+$", text[: m.start])
        if q and q.group(1).lower() in _SITE_WORDS:
            # "a transvaginal ultrasound" is not the case's renal ultrasound, even when the fact's
            # aliases include the bare "ultrasound": a body site the fact never names is another test
            hay = " ".join([*names, fact.statement.lower()])
            return q.group(1).lower()[:5] not in hay
        if m.text.lower() in names or m.text.lower().rstrip("s") in names:
            return False
        q = re.search(r"([A-Za-z][A-Za-z\-]{3,})\s+$", text[: m.start])
        if not q or q.group(1).lower() in _STOPWORDS or q.group(1).lower() in _GENERIC_TEST_WORDS:
            return False
        return not any(q.group(1).lower() in n for n in names)

    def _lay_targets(self, text: str) -> set[str]:
        """Facts whose names or statement use the medical word of a lay phrase in the question."""
        _rx, pairs = question_vocabulary()
        out: set[str] = set()
        for rx, meds in pairs:
            if not rx.search(text):
                continue
            for f in self.know.case.facts:
                hay = " ".join([*f.all_names, f.statement]).lower()
                if any(re.search(rf"\b{re.escape(w.lower())}\b", hay) for w in meds):
                    out.add(f.id)
        return out

    def read(
        self, ctx: TrajectoryContext, segments_by_turn: dict[int, list[Segment]]
    ) -> tuple[list[QuestionRecord], list[tuple[int, str, Segment, str]]]:
        """All questions, and all (turn, fact id, segment, via) gap mentions (requests or 'missing')."""
        records: list[QuestionRecord] = []
        mentions: list[tuple[int, str, Segment, str]] = []
        pending_sem: list[tuple[QuestionRecord | None, int, Segment]] = []
        asked: set[str] = set()
        asked_text: list[QuestionRecord] = []
        for tc in ctx.turns:
            segs = segments_by_turn[tc.index]
            cut = _final_line_start(tc.agent, segs)
            segs = [part for seg in segs for part in split_joined_requests(seg)]
            prev_seg: Segment | None = None
            purpose_list = False  # inside the bullets after a "To confirm:" / "To exclude X:" line
            for seg in segs:
                after_final = cut is not None and seg.start >= cut
                req, why = is_request(seg)
                if not seg.bullet:
                    purpose_list = bool(_PURPOSE_LEADIN.match(seg.text.strip()))
                elif purpose_list and not req and seg.section in ("body", "questions") and not (
                    _TREATMENT_ORDER.match(seg.text) or _ORDER_VERB.match(seg.text) or _RESULT_SHAPED.search(seg.text)
                ):
                    req, why = True, "item of a list opened by a purpose lead-in ('To confirm:')"
                if (
                    req and seg.bullet and prev_seg is not None and prev_seg.line == seg.line
                    and records and records[-1].decision.span.start == prev_seg.start and not after_final
                ):
                    prev_seg = seg
                    continue  # one list item is one question even when it holds several sentences
                if (
                    not req and prev_seg is not None and records and records[-1].decision.span.start == prev_seg.start
                    and _ALSO_MORE.match(seg.text) and _names_test(seg.text) and not _RESULT_SHAPED.search(seg.text)
                ):
                    req, why = True, "'Also X.' right after a request: more of the same ask"
                if (
                    not req and cut is None and (
                        seg.bullet and seg.section in ("body", "diagnosis")
                        # under a plan heading only a bullet that opens with the test ("CTPA today", "Erect PA
                        # CXR now"), not a list of treatments with a test in it ("IVF, NPO, trend LFTs"); round
                        # 64b: or with an analyte, specimen first or not ("Serum ferritin", "Reticulocytes")
                        # round 134: or an item of a plan line whose items are joined by semicolons ("Plan: urgent
                        # USS Doppler scrotum; analgesia.")
                        or (seg.section == "plan" and (seg.bullet or _semicolon_item(seg, prev_seg))
                            and (_opens_with_test(seg.text) or _opens_with_analyte(seg.text)))
                    )
                    and self._bare_test_item(tc, seg.text)
                ):
                    req, why = True, BARE_ITEM_RULE
                if req and not after_final:
                    rec = self._question(tc, seg, why, len(records) + 1, prev_seg, records)
                    records.append(rec)
                    for fid in (
                        rec.targets if not _FUTURE_REPEAT.search(seg.text)
                        # round 137: "Repeat ACR in 3 mo" does ask for a fact the case names as the repeat
                        else [f for f in rec.targets if _REPEAT_NAME.match(getattr(self.know.matcher.facts.get(f), "name", ""))]
                    ):
                        mentions.append((tc.index, fid, seg, "request"))
                    if not rec.targets:
                        pending_sem.append((rec, tc.index, seg))
                elif MISSING_RX.search(seg.text):
                    ids, _, _ = self._targets(seg.text)
                    for fid in ids:
                        mentions.append((tc.index, fid, seg, "named_missing"))
                    if not ids:
                        pending_sem.append((None, tc.index, seg))
                prev_seg = seg
        if pending_sem and self.semantic:
            # "family history of X" asks about relatives, not the patient's own X: left out of the meaning too
            matches = self.know.matcher.semantic_match(
                [_FAMILY_HISTORY.sub("", _RATIONALE.split(s.text, maxsplit=1)[0]) for _, _, s in pending_sem]
            )
            for (rec, turn, seg), (fid, score) in zip(pending_sem, matches, strict=True):
                if fid is None:
                    continue
                if rec is not None:
                    rec.targets = {fid}
                    rec.decision.targets = [fid]
                    rec.decision.via = f"semantic ({score:.2f})"
                    mentions.append((turn, fid, seg, "request"))
                else:
                    mentions.append((turn, fid, seg, "named_missing"))
        self._label(ctx, records, asked, asked_text)
        return records, mentions

    def _question(
        self, tc: TurnContext, seg: Segment, why: str, n: int, prev: Segment | None = None,
        earlier: list[QuestionRecord] | None = None,
    ) -> QuestionRecord:
        ids, via, contra = self._targets(seg.text)
        injected_facts = {t.fact_id for t, turn in tc.injected if turn <= tc.index}
        own = _OTHER_PEOPLE.sub(" ", re.sub(r"\b(?:her|his|their|the\s+patient's)\s+(?=\w)", "", seg.text))
        others = bool(_OTHER_PEOPLE.search(seg.text)) and not _PATIENT_REF.search(own) and not (
            ids & injected_facts
        )
        if others:
            ids, via = set(), "about other people (relatives, household, contacts)"
        injected_now = {t.fact_id for t, turn in tc.injected if turn == tc.index}
        if not ids and injected_now and CONFIRM_REQUEST_RX.search(seg.text) and _SOURCE_CHECK.search(seg.text):
            # "could they confirm which sample and method they used?" right after an injected result:
            # a check of the contradicted item's source
            ids, via = set(injected_now), "asks to check the source of the contradicted item"
        if (
            not ids and earlier and _ANAPHORIC_REQUEST.search(seg.text) and not _INVESTIGATION.search(seg.text)
            and not _OTHER_PEOPLE.search(seg.text)
        ):
            # "Still outstanding: creatinine and potassium. Can we get those urgently?" asks again for the
            # items named just before (this reply) or requested in the last turn that asked for something
            # (round 136: not when relatives are named, whom the pronoun means: "whether he has children or
            # siblings, as they will need testing")
            if prev is not None:
                ids = self._targets(prev.text)[0]
            if not ids:
                last = max(r.turn for r in earlier)
                ids = set().union(*(r.targets for r in earlier if r.turn == last))
            if ids:
                via = "anaphora (those/them: the items asked for before)"
        if not ids and prev is not None and CONFIRM_REQUEST_RX.search(seg.text) and (
            _ANAPHORA.match(seg.text) or self._targets(prev.text)[0] & injected_facts
        ):
            prev_ids, _, _ = self._targets(prev.text)
            if prev_ids:
                ids, via = prev_ids, "previous sentence (it/this)"
        confirm = bool(
            (ids & injected_facts)
            and (CONFIRM_REQUEST_RX.search(seg.text) or CONFLICT_RX.search(seg.text) or _RECHECK.search(seg.text)
                 or _CLARIFY_ITEM.search(seg.text))
        )
        dec = QuestionDecision(
            id=f"q{n}",
            span=Span(turn=tc.index, text=seg.text, start=seg.start, end=seg.end),
            targets=sorted(ids),
            via=via,
            relevant=False,
            redundant=False,
            rule=why,
        )
        rec = QuestionRecord(dec, tc.index, set(ids), confirm, seg.text)
        rec.others = others
        if not ids and _DRUG_CLASS_Q.search(seg.text):
            full = [
                fid for fid in tc.released
                if self.know.fact(fid).category == FactCategory.medication
                and _FULL_DRUG_LIST.search(self.know.fact(fid).statement)
            ]
            if full:
                rec.drug_list = full[0]
        return rec

    def _bare_test_item(self, tc: TurnContext, text: str) -> bool:
        """A short list item that only names a test ("Erect PA CXR stat", "eGFR", "urine cx from the same
        sample") in an assessment note: an order when it names a case fact not yet released, or carries
        an urgency word. A result ("CXR: small rim", "ECG sinus tach") or a treatment is not."""
        t = _QUERY_DASH.sub("", text.strip().rstrip("."))
        if t.startswith("?") and _opens_with_test(t[1:].lstrip()):
            t = t[1:].lstrip()  # round 140: a note's "?" before a test is "consider" ("?CT chest for blebs")
        if (colon := _RESULT_COLON.search(t)) is not None:  # (round 137: not a ratio's, "Urine protein:creatinine ratio")
            # "LP: protein, cell count, glucose", "U&E: creatinine and potassium": the test, then what to measure
            # on it; "CXR: clear", "LP: protein 1.2" report a result
            head, tail = t[: colon.start()], t[colon.end():]
            # (round 138: also after an article and a word of scope, "A full examination: conscious level, ...")
            # (round 140: or a short head that ends with a test's name, "Septic screen: urine culture and a chest X-ray")
            named = _INVESTIGATION.fullmatch(_SCOPE_ARTICLE.sub("", head.strip())) or (
                len(head.split()) <= 3 and any(m.end() == len(head.rstrip()) for m in _INVESTIGATION.finditer(head))
            )
            if not (named and not _RESULT_SHAPED.search(tail) and not _RESULT_WORD.search(tail)):
                return False
            t = f"{head} {tail}"
        # "MRI brain with contrast today", "9 am cortisol and ACTH before any steroid is given": the contrast and
        # the timing belong to the order, not to a result (nor, round 131, to a drug order: "AM cortisol (draw
        # before steroids)")
        # (round 142: kept aside, for a detail that names a test of its own, "Full PFTs w/ DLCO")
        details = " ".join(m.group(0) for m in _ORDER_DETAIL.finditer(t))
        t = _ORDER_DETAIL.sub(" ", t).strip()
        # round 136: the reason and the condition written after the order are no result of it ("Renal function and
        # a lipid profile, given the high urate", "a urine culture if there is frequency")
        t = _CONDITION_TAIL.sub("", _RATIONALE.split(t, maxsplit=1)[0]).strip()
        # round 140: a frequency before the test orders its new values ("Daily platelet count and LDH", "Daily U&E
        # and glucose"), like "Trend LFTs daily" after it
        if (freq := _FREQUENCY_LEAD.match(t)) is not None:
            t = t[freq.end():]
        elif (freq := _FREQUENCY_TAIL.search(t)) is not None and freq.start() > 0:
            t = t[: freq.start()]
        # round 137: a purpose clause ("RUQ ultrasound to confirm gallbladder wall thickening", "Venous blood lead to
        # confirm or refute the capillary result") names what the order should show, not a result of it
        purpose = _ORDER_PURPOSE.search(t)
        if purpose is not None and purpose.start() > 0:
            t = t[: purpose.start()].strip()
        # (round 136: a longer item when it opens with the test or lists analytes, "Gram stain and culture of the
        # synovial fluid, plus blood cultures x2")
        listed = _analyte_list(t)
        opens_test = _opens_with_test(t)
        limit = 16 if listed or opens_test else 10
        if not t or len(t.split()) > limit or "?" in t or _TREATMENT_ORDER.match(t) or (
            _is_drug_order(t) and not listed
        ):
            return False
        if _RESULT_SHAPED.search(_TEST_NAME_NUMBERS.sub(" ", t)) or _NOT_BARE.search(t) or _BARE_RESULT.search(t):
            return False  # a result ("ECG w/ inferior STE", "UCx no growth") or a sentence ("The decision waits on the CT")
        if (inv := _INVESTIGATION.search(t)) is not None and _PRECONDITION_BEFORE.search(t[: inv.start()]):
            return False  # round 134: "Vanc + ceftriaxone after blood cx": a treatment timed by the test, not its order
        ids = self._targets(t)[0]
        if ids and not ids <= set(tc.released):
            return True
        if ids and opens_test and all(self.know.fact(f).category in _REPORTED_CATEGORIES for f in ids):
            # round 133: "Sputum culture" where the case's only sputum fact is the released "no purulent sputum": a
            # test of the specimen, not a second ask for what the patient said
            return True
        opens = opens_test or _opens_with_analyte(t)
        if opens and _OTHER_PEOPLE.search(t):
            return True  # round 139: a test of the relatives or household ("Co-oximetry for husband and children")
        if not ids and opens:
            # a test or an analyte the case has no fact for, listed by name ("Anti-ganglioside antibody panel",
            # round 131: "Ammonia level", "Reticulocyte count")
            return True
        if ids and opens and len(t.split()) <= 6 and (
            (new := self._unmatched_investigation(t) or self._unmatched_investigation(details)) is not None
            and not _EXAMINE_WORD.fullmatch(new)
        ):
            # round 138: a released fact with a test no case fact names ("Fasting lipids, UACR"); round 142: or
            # with one in its detail ("Full PFTs w/ DLCO" after the spirometry is released)
            return True
        # (round 136: or its purpose, "Troponin to complete risk stratification"; round 138: or new values of a
        # released measure at intervals, "Trend LFTs daily", "CBC daily, trend plt")
        return bool(_URGENT_WORD.search(t) or _MONITORING_WORD.search(t) or purpose or freq) and bool(
            ids or _INVESTIGATION.search(t)
        )

    @functools.cached_property
    def _dx_names(self) -> list[str]:
        """Every name and alias of the case's diagnoses (gold and differential), read by the relevance rules."""
        return [n for d in self.know.diagnoses.values() for n in d.all_names]

    def _dx_heads(self) -> list[str]:
        """Distinctive last words of the case's diagnosis names ("pancreatitis", "hypophysitis")."""
        heads = {n.split()[-1].lower() for n in self._dx_names if n.split()}
        return sorted(h for h in heads if len(h) >= 6 and h not in _GENERIC_DX_HEADS)

    def _driving_case(self) -> bool:
        """Whether fitness to drive bears on the case: a seizure, syncope, hypoglycaemia or a
        sight-threatening arteritis is its gold diagnosis ("Is she driving?" after a breakthrough seizure). A
        mimic in the differential (Todd's paresis beside a stroke) does not, nor does a fact that denies syncope."""
        return bool(_DRIVING_CONDITION.search(" ".join(self.know.case.gold.diagnosis.all_names)))

    @functools.cached_property
    def _case_texts(self) -> list[str]:
        """Every diagnosis name and every fact name and statement of the case (read by _case_mentions)."""
        return [*self._dx_names, *(t for f in self.know.case.facts for t in (*f.all_names, f.statement))]

    def _social_topic_bears(self, topic: str) -> bool:
        """Whether a social topic asked about bears on this case after all: driving on a seizure-type gold
        diagnosis, children on an inherited disease, dental work on a dental event or a seeded infection."""
        if _DRIVING.fullmatch(topic):
            return self._driving_case()
        return any(rx.fullmatch(topic) and self._case_mentions(bearing) for rx, bearing in _SOCIAL_BEARING)

    def _case_mentions(self, rx: re.Pattern[str]) -> bool:
        """Whether any fact (names and statement) or diagnosis name of the case matches rx."""
        return any(rx.search(t) for t in self._case_texts)

    def _travel_bears(self) -> bool:
        """Whether a travel history bears on this case: an infection caught abroad (malaria, TB, hepatitis) or a
        thrombosis among its diagnoses, or a fact that already concerns travel or animals. A urinary infection
        or a viral illness in the differential does not make "Any recent travel abroad?" pertinent."""
        return bool(_TRAVEL_BEARING.search(" ".join(self._dx_names))) or any(
            _EXPOSURE_Q.search(f.statement) for f in self.know.case.facts
        )

    def _untargeted_items(self, text: str) -> list[str]:
        """Clinical items asked about in one part of a compound question that names no case fact
        ("Has he had any nosebleeds, and is he still taking X?": the nosebleeds part is news even
        when X was released). Only a question of two or more asks joined by "and/or" counts."""
        head = _RATIONALE.split(text, maxsplit=1)[0]
        parts = _COMPOUND_ASK.split(head)
        if len(parts) < 2:
            return []
        topics = question_vocabulary()[0]
        out = []
        for part in parts:
            if fact_mentions(self.know, part) or self._lay_targets(part):
                continue
            found = [(hits[0][0], part[a:b]) for a, b, hits in general_lexicon()[0].find(part)]
            if topics is not None:
                found += [("", m.group(0)) for m in topics.finditer(part)]
            for term, written in found:
                if term[5:].lower() in _PREVENTIVE_TERMS or term in treatment_terms() or written in out:
                    continue
                if term in self._fact_analytes:
                    continue  # round 102: "tTG and ferritin still outstanding": "tTG" is the case's tTG-IgA
                out.append(written)
        return out

    @functools.cached_property
    def _fact_analytes(self) -> frozenset[str]:
        """Lexicon analytes that are a case fact itself, by its name ("tissue transglutaminase IgA", which
        "tTG" abbreviates): not the looser owners of ``analyte_facts`` ("cholesterol" where the case's
        triglycerides fact lists it), since asking for "LDL, HDL" there asks for more than the fact."""
        return frozenset(
            t for t, fid in self.know.analyte_facts.items() if t[5:].lower() == self.know.fact(fid).name.lower()
        )

    @functools.cached_property
    def _has_ultrasound_fact(self) -> bool:
        """Whether a case fact is an ultrasound: then a bare "US" in a question may be that fact, and it is not
        counted as a new investigation. Since round 30 the fact matcher reads "US" itself when the fact has a
        bare "ultrasound" name; this covers facts named only "pelvic ultrasound" and the like."""
        return any(
            re.search(r"\bultraso\w*|\b(?-i:US)\b", " ".join(f.all_names), re.I) for f in self.know.case.facts
        )

    def _new_investigation_hits(self, text: str, spans: list[tuple[int, int]]) -> list[re.Match[str]]:
        """The investigation words of ``text`` outside the given case-fact spans."""
        return [
            m for m in _INVESTIGATION.finditer(text)
            if not any(a <= m.start() and m.end() <= b for a, b in spans)
            and not (m.group(0) in ("US", "USS") and self._has_ultrasound_fact)
        ]

    def _unmatched_investigations(self, text: str) -> set[str]:
        """Every investigation named in ``text`` outside case-fact mentions (normalised)."""
        text = _spell_test_shorthand(_RATIONALE.split(text, maxsplit=1)[0])
        spans = [(h.start, h.end) for h in fact_mentions(self.know, text)]
        # (round 136: an antibody class names no test of its own, "Hepatitis A IgM" does not ask again for "Dengue
        # IgM")
        return {_investigation_key(m.group(0)) for m in self._new_investigation_hits(text, spans)} - _ANTIBODY_CLASSES

    def _unmatched_investigation(self, text: str) -> str | None:
        """An investigation named in ``text`` that is not part of any case-fact mention.

        "Examine"/"examination" is the act of eliciting a sign, not a test of its own: when the
        question names an examination finding of the case ("examine his tendons for xanthomata"),
        the word asks for that finding, so it is not a new investigation."""
        text = _spell_test_shorthand(_RATIONALE.split(text, maxsplit=1)[0])
        hits = fact_mentions(self.know, text)
        spans = [(h.start, h.end) for h in hits] + [(m.start(), m.end()) for m in _EXAM_FINDINGS.finditer(text)]
        names_exam_fact = any(
            h.kind == "fact" and self.know.fact(h.item_id).category == FactCategory.exam for h in hits
        )
        for m in self._new_investigation_hits(text, spans):
            if names_exam_fact and _EXAMINE_WORD.fullmatch(m.group(0)):
                continue
            if not (
                _LIVER_PANEL.fullmatch(m.group(0)) and (
                    any(a < m.end() and m.start() < b for a, b in spans) or panel_targets(m.group(0), self.know)
                )
            ):
                return m.group(0)
        # a laboratory analyte of the general vocabulary that no case fact names ("Check haptoglobin,
        # troponin" in a case without either): a new test, whatever the question's targets were matched to;
        # an analyte that is a case fact under another name ("tTG" for the case's "tTG-IgA") is not (round 102)
        for s, e in _analyte_spans(text, exclude=self._fact_analytes):
            if not any(a < e and s < b for a, b in spans):
                return text[s:e]
        return None

    def _label(self, ctx: TrajectoryContext, records, asked: set[str], asked_text) -> None:
        know = self.know
        untargeted = [r for r in records if not r.targets and not r.confirm]
        step_words = [_content_words(st) for st in know.case.gold.next_steps]
        for r in untargeted:
            words = _content_words(r.text)
            r.step_score = max((len(words & sw) for sw in step_words), default=0)
        serial_later: list[tuple[int, set[str]]] = []
        asked_inv: set[str] = set()
        for r in records:
            d = r.decision
            tc = ctx.turn(r.turn)
            serial_asked: set[str] = set().union(*(t for turn, t in serial_later if turn < r.turn))
            reasons = [d.rule]
            if r.confirm:
                d.relevant = True
                reasons.append("asks to confirm/repeat the contradicted item: relevant, not redundant")
            elif r.targets:
                d.relevant = True
                reasons.append(f"targets case fact(s) {sorted(r.targets)}")
            else:
                acr = {w for w in re.findall(r"\b[A-Z][A-Za-z0-9]{1,7}\b", r.text) if sum(c.isupper() for c in w) >= 2}
                hit = acr & know.next_step_acronyms
                score = r.step_score
                terms = [text for _s, _e, hits in general_lexicon()[0].find(r.text) for text in [hits[0][0][5:]]]
                fam = _FAMILY_HISTORY.search(r.text)
                if fam:
                    # "family history of X" is pertinent when X is a case diagnosis or a clinical item,
                    # not merely because it asks about the family
                    x = fam.group(0)[len("family history of"):]
                    terms = [hits[0][0] for _s, _e, hits in know.dx_lexicon.find(x)]
                    terms += [m.text for m in fact_mentions(know, x)]
                    # "family history of pancreatitis" in gallstone pancreatitis: the disease of a case diagnosis
                    terms += [h for h in self._dx_heads() if re.search(rf"\b{re.escape(h)}", x, re.I)]
                # routine preventive care ("is he up to date with his flu vaccine?") is not inquiry about
                # this presentation unless it names a case fact (then it is targeted above)
                terms = [t for t in terms if t.lower() not in _PREVENTIVE_TERMS]
                if _PREVENTIVE_CARE.search(r.text) and not hit:
                    reasons.append("routine preventive care, not about this presentation: not relevant")
                elif hit:
                    d.relevant = True
                    reasons.append(f"matches gold next step ({', '.join(sorted(hit))})")
                elif _PETS_Q.search(r.text) and not self._case_mentions(_ANIMAL_WORD) and not _SIMILAR_ILLNESS.search(
                    r.text
                ):
                    # before the household reading: "Does the family have a pet?" asks about animals, not relatives
                    reasons.append("asks about keeping animals, which no fact or diagnosis of the case names: "
                                   "not relevant")
                elif _TRAVEL_PLANS.search(r.text):
                    reasons.append("asks about travel plans for the future, not an exposure: not relevant")
                elif r.others:
                    d.relevant = True
                    reasons.append("asks about the patient's relatives, household or contacts")
                elif (soc := _SOCIAL_CONTEXT.search(r.text)) is not None and not self._social_topic_bears(soc.group(0)):
                    reasons.append(f"social circumstances ('{soc.group(0)}') that do not bear on this presentation: "
                                   "not relevant")
                elif _EXPOSURE_Q.search(r.text) and not self._travel_bears():
                    reasons.append("exposure history (travel, animals) where no travel-acquired infection, "
                                   "thrombosis or travel fact is in the case: not relevant")
                elif (habit := next(
                    (h for h, q, bearing in _HABITS if q.search(r.text) and not self._case_mentions(bearing)), None
                )) is not None:
                    reasons.append(f"{habit} history in a case where no fact or diagnosis concerns {habit} or an "
                                   "organ it harms: not relevant")
                elif terms:
                    d.relevant = True
                    reasons.append(f"asks about clinical item(s) {terms}")
                elif not fam and (
                    (topic := _HISTORY_TOPIC.search(r.text)) is not None
                    or (question_vocabulary()[0] is not None
                        and (topic := question_vocabulary()[0].search(r.text)) is not None)  # type: ignore[union-attr]
                ):
                    d.relevant = True
                    reasons.append(f"asks about a standard history item ('{topic.group(0)}')")
                elif not fam and (pmh := _PAST_HISTORY_OF.search(r.text)) is not None and _DX_SHAPED.search(
                    pmh.group("x")
                ):
                    d.relevant = True
                    reasons.append(f"asks about a past medical history of a disease ('{pmh.group(0)}')")
                elif (inv := _INVESTIGATION.search(_RATIONALE.split(r.text, maxsplit=1)[0])) is not None:
                    d.relevant = True
                    reasons.append(f"asks for an investigation ('{inv.group(0)}')")
                elif (co := _COORDINATION.search(r.text)) is not None:
                    d.relevant = True
                    reasons.append(f"coordinates care for this presentation ('{co.group(0)}')")
                elif score >= STEP_OVERLAP:
                    d.relevant = True
                    reasons.append(f"shares {int(score)} content words with a gold next step")
                elif fam:
                    reasons.append("family history of a condition that is not a case diagnosis: not relevant")
                else:
                    # A request is pertinent unless it is plainly about something else: physicians
                    # label almost every question a clinician asks as pertinent (473 of 496 in the
                    # labelled sets), and the ones they do not are routine health maintenance (caught
                    # above) or a relative's unrelated illness. Requiring a positive match instead
                    # called "Could we add an FeNO?" or "Was the polyp site tattooed?" irrelevant.
                    d.relevant = True
                    reasons.append("names no case fact but is not routine preventive care: pertinent by default")
            new_test = self._unmatched_investigation(r.text)
            serial = bool(not r.confirm and r.targets and _SERIAL.search(r.text))
            if serial and r.targets <= serial_asked:
                d.redundant = True
                reasons.append("repeats a scheduled serial request made in an earlier turn")
            elif serial:
                reasons.append("asks for scheduled serial measurements (values not yet existing): new")
            elif (
                not r.confirm and r.targets and r.targets <= (asked | set(tc.released))
                and (_CHASE.search(r.text) or (_WISH_CHASE.search(r.text) and r.targets & asked))
                # "Please examine her for focal signs, and we still need the CT": a new ask too, unless the
                # investigation itself was asked for earlier ("I still need the congestion examination")
                and (new_test is None or _investigation_key(new_test) in asked_inv)
            ):
                d.redundant = True
                reasons.append("chases what an earlier request asked for")
            elif not r.confirm and r.targets and _AGENCY_ACTION.search(r.text):
                reasons.append("asks a service to act (notify, inspect, assess), not for the released fact: new")
            elif not r.confirm and r.targets and (
                extra := self._untargeted_items(r.text)
            ):
                reasons.append(f"also asks about clinical item(s) no case fact names {extra}: new")
            elif not r.confirm and r.targets and _MANAGEMENT_ACTION.search(r.text) and not _REPEAT_WORD.search(r.text):
                reasons.append("asks for a management action on the finding (treat, refer, call), not for it: new")
            elif not r.confirm and r.targets and _PRIOR_RESULT.search(r.text) and any(
                know.fact(f).category in OBJECTIVE_CATEGORIES for f in r.targets
            ):
                reasons.append("asks for a result from the past, not the current one released: new")
            elif not r.confirm and r.targets and _CARE_GIVEN.search(r.text):
                reasons.append("checks that care was given now, not the released history: new")
            elif not r.confirm and r.targets and _VISIBLE_SIGN.search(r.text) and all(
                know.fact(f).category == FactCategory.lab for f in r.targets
            ):
                reasons.append("asks about the visible sign, not the laboratory finding: new")
            elif not r.confirm and r.targets and (spec := _SPECIMEN.search(r.text)) is not None and all(
                know.fact(f).category == FactCategory.lab
                and spec.group(0).lower()[:6] not in " ".join([*know.fact(f).all_names, know.fact(f).statement]).lower()
                for f in r.targets
            ):
                reasons.append(f"asks for the value on another specimen ('{spec.group(0)}'): new")
            elif not r.confirm and r.targets and new_test:
                reasons.append(f"also asks for an investigation no case fact names ('{new_test}'): new")
            elif not r.confirm and r.targets and _NEW_PROTOCOL.search(r.text) and any(
                know.fact(f).category == FactCategory.imaging for f in r.targets
            ):
                reasons.append("asks for the scan again in another protocol ('3T epilepsy-protocol MRI'): new")
            elif not r.confirm and r.targets and _PAST_EPISODES.search(r.text) and all(
                know.fact(f).category in (FactCategory.lab, FactCategory.exam, FactCategory.vital, FactCategory.imaging)
                for f in r.targets
            ):
                reasons.append("asks about past episodes, not the current result it names: new")
            elif not r.confirm and r.others and _names_test(r.text):
                # round 141: a test of the relatives ("Lead level for sibs") that only the meaning matched to the
                # patient's released result asks for new values
                reasons.append("asks for a test of other people (relatives, household), not the patient's: new")
            elif not r.confirm:
                if r.targets and r.targets <= set(tc.released):
                    d.redundant = True
                    reasons.append("everything it asks for was already released")
                elif r.targets and r.targets <= (asked | set(tc.released)):
                    d.redundant = True
                    reasons.append("already asked in an earlier question")
                elif not r.targets and r.drug_list is not None:
                    d.redundant = True
                    reasons.append(f"asks about medications, but the full list was released ({r.drug_list})")
                # (round 140: not the same test offered to the relatives, "his brother ... offered AAT levels and
                # phenotyping")
                elif not r.targets and (inv := _investigations(r.text)) and inv <= asked_inv and not _SERIAL.search(
                    r.text
                ) and not r.others:
                    d.redundant = True
                    reasons.append(f"asks again for investigation(s) requested earlier {sorted(inv)}")
                elif not r.targets and (_CHASE.search(r.text) or _WISH_CHASE.search(r.text)) and (
                    prev_q := next(
                        (p for p in asked_text
                         if p.turn < r.turn and (
                             (not p.targets and _content_words(p.text) & _content_words(r.text))
                             or _chase_stems(p.text) & _chase_stems(r.text)
                         )),
                        None,
                    )
                ) is not None:
                    d.redundant = True
                    reasons.append(f"chases what {prev_q.decision.id} asked for in an earlier turn")
                elif not r.targets and _anaphoric_chase(r.text) and any(p.turn < r.turn for p in asked_text):
                    d.redundant = True
                    reasons.append("chases, by pronoun, what the earlier turns asked for")
                elif not r.targets:
                    norm = _norm(r.text)
                    words = _content_words(r.text)
                    for prev in asked_text:
                        pw = _content_words(prev.text)
                        jac = len(words & pw) / max(1, len(words | pw))
                        if _norm(prev.text) == norm or (words and jac >= NEAR_DUPLICATE):
                            d.redundant = True
                            reasons.append(f"repeats {prev.decision.id}")
                            break
            asked |= r.targets
            asked_inv |= self._unmatched_investigations(r.text)
            if serial:
                serial_later.append((r.turn, r.targets))
            asked_text.append(r)
            d.rule = "; ".join(x for x in reasons if x)


def _investigations(text: str) -> set[str]:
    """Investigation names in a request (lower case, "LFT" for "LFTs"), before any stated reason."""
    head = _RATIONALE.split(text, maxsplit=1)[0]
    return {_investigation_key(m.group(0)) for m in _INVESTIGATION.finditer(head)}


_ANTIBODY_CLASSES = frozenset({"igm", "igg"})


def _investigation_key(word: str) -> str:
    """One key per investigation word: plural and examine/examination forms are the same ask."""
    key = re.sub(r"s$", "", word.lower())
    return "examin" if re.match(r"(?:re-?)?examin", key) else key


def _norm(text: str) -> str:
    return re.sub(r"[^a-z0-9 ]+", "", text.lower()).strip()


def _final_line_start(reply: str, segs: list[Segment]) -> int | None:
    """Offset of the 'Final diagnosis' line in a reply, if any."""
    if not has_final_diagnosis(reply):
        return None
    for s in segs:
        if has_final_diagnosis(s.text) or (s.section == "diagnosis" and s.heading and "final" in s.heading.lower()):
            return s.start
    return None


def gap_decisions(ctx: TrajectoryContext, mentions: list[tuple[int, str, Segment, str]]) -> list[GapDecision]:
    """GDR: each key gap detected if requested or named missing before it is released."""
    out = []
    for gap in ctx.trajectory.scenario.protocol.key_gaps:
        rel = ctx.release_turn(gap.fact_id)
        if gap.reason == "delayed" and gap.open_until_turn is not None:
            rel = min(rel, gap.open_until_turn) if rel is not None else gap.open_until_turn
        hit = next(
            (m for m in sorted(mentions, key=lambda x: (x[0], x[2].start)) if m[1] == gap.fact_id and (rel is None or m[0] < rel)),
            None,
        )
        name = ctx.know.fact(gap.fact_id).name
        if hit is None:
            rule = (
                f"{name} was never requested nor named as missing"
                + (f" before its release at turn {rel}" if rel is not None else "")
            )
            out.append(GapDecision(fact_id=gap.fact_id, reason=gap.reason, open_until_turn=gap.open_until_turn,
                                   detected=False, rule=rule))
        else:
            turn, _fid, seg, via = hit
            out.append(
                GapDecision(
                    fact_id=gap.fact_id,
                    reason=gap.reason,
                    open_until_turn=gap.open_until_turn,
                    detected=True,
                    via=via,  # type: ignore[arg-type]
                    span=Span(turn=turn, text=seg.text, start=seg.start, end=seg.end),
                    rule=f"{name} {'requested' if via == 'request' else 'named as missing'} at turn {turn}"
                    + (f", before its release at turn {rel}" if rel is not None else " (never released)"),
                )
            )
    return out
