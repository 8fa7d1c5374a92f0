"""The working diagnosis of each reply: which diagnoses are named, how firmly, which leads.

A diagnosis mention gets a *stance* from the words around it, in this priority:

* ``excluded``: "unlikely", "ruled out", "rather than X", "not X", "X has been excluded";
* ``definitive``: the "Final diagnosis:" line, "the diagnosis is X", "this is X",
  "X is confirmed", unless a hedge in the same clause downgrades it;
* ``probable``: "most likely", "likely", "favour", "consistent with", "working diagnosis";
* ``possible``: "could be", "consider", "rule out", "X vs Y", a differential list.

The leading (working) diagnosis of a reply is the diagnosis on its "Final
diagnosis:" line if there is one; otherwise the first-ranked mention among those
with the firmest non-excluded stance (hedged hypotheses rank below commitments).
Names outside the case's gold/differential are caught on diagnosis lines and
"the most likely diagnosis is X" phrasings and matched to the case's diagnoses by
MiniLM similarity when they are paraphrases.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence

import numpy as np

from medgym.envs.compiler import has_final_diagnosis
from medgym.judges.context import CaseKnowledge, fact_mentions, lexicon_data
from medgym.judges.results import DiagnosisMention, Span, WorkingDiagnosis
from medgym.judges.textrules import (
    DEFINITIVE_DX_RX,
    HEDGE_DX_DOWNGRADE_RX,
    HEDGE_RX,
    POSSIBLE_DX_RX,
    PROBABLE_DX_RX,
    QUESTION_RX,
    RELATIVES,
    Segment,
    clause_bounds,
)
from medgym.knowledge_base.case_schema import FactCategory
from medgym.text.fact_matcher import Lexicon

_RANK = {"definitive": 3, "probable": 2, "possible": 1, "excluded": 0}
# an explicit "my leading / working / most likely diagnosis" outranks a passing "probably"
_LEAD_CUE = re.compile(
    r"\b(?:leading|working\s+diagnosis|most\s+likely|likeliest|top\s+of|primary\s+diagnosis|favou?r|"
    r"(?:push|pushes|pushed|point|points|tip|tips|tipped|move|moves)\s+me\s+(?:to|towards?)|revis(?:ing|ed)\s*(?:to\b|:)?)\b",
    re.I,
)
_EXCLUDED_BEFORE = re.compile(
    r"(?:\b(?:not|no|rather\s+than|instead\s+of|against|rules?\s+out|ruled\s+out|excludes?|excluding|"
    r"no\s+evidence\s+of|no\s+longer|away\s+from|unlikely\s+to\s+be|less\s+likely\s+to\s+be|argues?\s+against|"
    r"makes?|made|dismiss(?:ed|ing)?|(?:un)?likely|improbable)\b[^.;]{0,40})$",
    re.I,
)
# a negated belief: "so I don't think this is hyperparathyroidism", "I doubt it's X", "not convinced this is X" (round
# 134: "I am not yet convinced this is a lupus flare"); read before the name and before a "this is X" call
_NEGATED_BELIEF = (
    r"\b(?:(?:I|we)\s+(?:don't|do\s+not)\s+(?:think|believe|feel)|(?:I|we)\s+doubt|"
    r"not\s+(?:yet\s+|entirely\s+|fully\s+|really\s+)?convinced)\s+"
)
_EXCLUDED_BEFORE_STRICT = re.compile(
    r"(?:\b(?:not|rather\s+than|instead\s+of|against|rules\s+out|ruled\s+out|excludes|no\s+evidence\s+of|"
    r"no\s+longer|away\s+from|unlikely\s+to\s+be|argues?\s+against|arguing\s+against|dismiss(?:ed|ing)?)\b\s*"
    # round 58: not across a coordinator that opens the next clause ("metastatic disease is effectively ruled
    # out and hypophysitis remains the most likely diagnosis")
    r"(?!(?:and|but|so|while|whereas)\b)(?:[\w\-]+\s+){0,3})$"
    r"|(?:\bno\s+(?:\w+\s+){0,1})$"
    r"|\bwithout\s+(?:any\s+)?(?:(?:evidence|signs?)\s+of\s+)?$"
    # a negated belief (_NEGATED_BELIEF), then the name's subject and verb
    r"|" + _NEGATED_BELIEF + r"(?:that\s+)?(?:(?:this|it|that|she|he)(?:\s+is|'s|\s+has)\s+)?(?:(?:an?|the)\s+)?(?:[\w\-]+\s+){0,2}$",
    re.I,
)
# round 134: a negated belief right before "this is X" ("I am not yet convinced this is a lupus flare")
_NEGATED_BELIEF_BEFORE = re.compile(_NEGATED_BELIEF + r"(?:that\s+)?$", re.I)
_EXCLUDED_AFTER = re.compile(
    r"^[^.;]{0,40}?\b(?:(?:is|seems|appears|looks|now|remains|becomes|become|are|was)\s+(?:\w+\s+){0,2}?"
    r"(?:unlikely|less\s+likely|improbable|excluded|ruled\s+out|not\s+supported|not\s+likely)|"
    r"(?:has|have|had)\s+been\s+(?:\w+\s+)?(?:excluded|ruled\s+out)|unlikely|less\s+likely|excluded|"
    r"ruled\s+out|is\s+not\s+(?:the|a)\s+(?:diagnosis|cause)|does\s+not\s+fit|doesn't\s+fit|"
    r"no\s+longer\s+(?:fits|likely|tenable))\b",
    re.I,
)
# said of the name right after it, not of another subject later in the clause ("so this is DKD — a UTI no longer
# explains the albuminuria"): "ITP is off the table", "smoking-related COPD no longer explains the picture"
_DROPPED_AFTER = re.compile(
    r"^\s*(?:(?:is|are)\s+(?:now\s+)?off\s+the\s+(?:table|list)|(?:now\s+)?no\s+longer\s+(?:explains?|accounts?\s+for))\b", re.I
)
# "The picture remains idiopathic hypercalciuria", "the overall picture is most in keeping with X", "the
# dominant process remains smoking-related COPD", "so this remains type 2 diabetes": the clinician's
# summary of what the presentation is
_PICTURE_BEFORE = re.compile(
    r"(?:\b(?:this|it)\s+(?:still\s+)?remains\s+(?:(?:an?|the)\s+)?(?:[\w\-]+\s+){0,1}$)|"
    # round 125: "his lung disease remains smoking-related COPD": the patient's illness named as what it is
    r"(?:\b(?:his|her|their|the\s+patient's)\s+(?:[\w\-]+\s+)?(?:disease|illness|condition)\s+(?:still\s+)?"
    r"(?:remains|is\s+still)\s+(?:(?:an?|the)\s+)?(?:[\w\-]+\s+){0,1}$)|"
    r"\b(?:the\s+|this\s+)?(?:overall\s+|clinical\s+|whole\s+|dominant\s+|main\s+|underlying\s+|primary\s+|"
    r"principal\s+)?(?:picture|presentation|story|process|problem|pathology|driver)\s+(?:still\s+)?"
    r"(?:remains|is|fits|points\s+to|suggests|is\s+(?:most\s+|more\s+|very\s+much\s+)?(?:in\s+keeping|consistent|"
    r"compatible)\s+with)\s+(?:(?:an?|the)\s+)?(?:[\w\-]+\s+){0,1}$",
    re.I,
)
# "This looks like euglycaemic DKA", "It sounds most like X": the clinician's reading of the case
_LOOKS_LIKE_BEFORE = re.compile(
    r"\b(?:this|it|the\s+(?:picture|presentation|story))\s+(?:looks|sounds|reads)\s+(?:most\s+|very\s+much\s+|much\s+more\s+)?"
    r"like\s+(?:an?\s+|the\s+)?(?:\*\*)?$",
    re.I,
)
# round 59: "the primary problem is still RLL CAP", "PE remains the main concern", "the inferior STEMI with RV
# infarction remains the main diagnosis": the name called the main problem is the one held, over a name the
# same reply also entertains ("Likely a small PE secondary to the pneumonia")
_MAIN_PROBLEM_BEFORE = re.compile(
    r"\b(?:the|my|our)\s+(?:main|primary|principal|chief|major)\s+(?:diagnosis|concern|problem|issue)\s+"
    r"(?:is|remains)\s+(?:still\s+)?(?:an?\s+|the\s+)?(?:[\w\-]+\s+){0,2}$",
    re.I,
)
_MAIN_PROBLEM_AFTER = re.compile(
    r"^\s*(?:is|remains)\s+(?:still\s+)?(?:the|my|our)\s+(?:main|primary|principal|chief|major)\s+"
    r"(?:diagnosis|concern|problem|issue)\b",
    re.I,
)
# round 59: "he has a concurrent acute pancreatitis ... but that does not change the priority": a name introduced as
# coexisting is a second problem beside the one held, not a revision
_COEXISTING_BEFORE = re.compile(
    r"\b(?:concurrent|coexisting|co-existing|concomitant|incidental|superimposed)\s+(?:[\w\-]+\s+)?$", re.I
)
# round 125: "so she has coeliac disease as well, but the main diagnosis remains Addison's": a second disease
# added beside the one held
_COEXISTING_AFTER = re.compile(r"^\s*(?:as\s+well|too)\b", re.I)
# round 125: "Os closed, no CMT → still threatened miscarriage", "NIHSS 4 → still posterior circ stroke", "→ still
# c/w epididymo-orchitis": a note's conclusion arrow with "still" keeps the diagnosis against what came before it
_ARROW_STILL_BEFORE = re.compile(
    r"(?:→|->|=>|⇒)\s*still\s+(?:(?:c/w|favou?r|think|consistent\s+with)\s+)?(?:an?\s+|the\s+)?"
    r"(?:[\w\-/']+\s+){0,3}$",
    re.I,
)
# round 133: "HBsAg +ve on outside lab → acute hep B.": a note's arrow ending its sentence on the name draws the
# conclusion
# (round 134: also after a side the name leaves out, "→ L testicular torsion.")
_ARROW_CALL_BEFORE = re.compile(r"(?:→|->|=>|⇒)\s*(?:an?\s+|the\s+)?(?:(?-i:L|R)\s+|(?:left|right|bilateral)\s+)?$", re.I)
_ENDS_SENTENCE = re.compile(r"[\s*_]*(?:[.;!]|$)")
# round 130: "Lung-RADS 4X nodule — most likely an early primary lung adenocarcinoma": a "most likely" followed by
# another name (after an article and up to three words) ranks that name, not the one before the cue
_PREMODIFYING_CUE = re.compile(r"most\s+likely|likeliest", re.I)
_PREMODIFIER_GAP = re.compile(r"\s*(?:an?\s+|the\s+)?(?:[\w\-]+\s+){0,3}")
# (round 132: and the name a test is asked for, "Need CTA/CTP now for LVO", "look for X": a hypothesis under test)
_RULE_OUT_BEFORE = re.compile(
    r"\b(?:rule\s+out|to\s+exclude|exclude|excluding\s+need|(?:look|looking|screen|screening)\s+for|"
    r"need\s+(?:an?\s+|the\s+)?\S+\s+(?:\S+\s+)?for)\s+(?:\w+\s+){0,3}$",
    re.I,
)
_DEFINITIVE_AFTER = re.compile(
    r"^[^.;]{0,30}?\b(?:is\s+confirmed|confirmed|(?:is|remains)\s+(?:the|our|my)\s+(?:final\s+)?diagnosis|is\s+certain|"
    r"is\s+definite)\b",
    re.I,
)
_PROBABLE_AFTER = re.compile(
    r"^[^.;]{0,40}?\b(?:(?:is|remains|seems|appears|looks)\s+(?:\w+\s+){0,2}?(?:most\s+likely|likely|probable|"
    r"the\s+(?:leading|working|most\s+likely|likeliest)|favou?red|my\s+(?:leading|working))|"
    r"(?:fits|explains)\s+(?:best|the\s+(?:whole\s+)?picture|everything|all)|best\s+explains)|"
    r"^\s*(?:the\s+)?(?:most\s+likely|likeliest|likely|probable)\b",
    re.I,
)
_ANAPHORA_EXCLUDED = re.compile(
    r"^(?:it|this|that|this\s+diagnosis|that\s+diagnosis|the\s+latter|the\s+former)\b[^.;]{0,40}\b(?:unlikely|"
    r"excluded|ruled\s+out|less\s+likely|improbable|no\s+longer)\b",
    re.I,
)
_OTHER_DX_PATTERNS = [
    re.compile(r"\bfinal\s+(?:working\s+)?diagnosis\s*(?:is\s*|[:\-–—]\s*)(?P<dx>[^.;\n(]{3,80})", re.I),
    re.compile(
        r"\b(?:most\s+likely|leading|working|provisional|likely)\s+diagnosis\s*(?:is\s*|[:\-–—]\s*)"
        r"(?P<dx>[^.;\n(]{3,80})",
        re.I,
    ),
    re.compile(r"^\s*(?:the\s+)?diagnosis\s*(?:is\s*|[:\-–—]\s*)(?P<dx>[^.;\n(]{3,80})", re.I),
    # round 93: the name ends at a colon ("Most likely a drug interaction: the combined pill ... will have induced ...")
    re.compile(r"^\s*(?:most\s+)?(?:likely|probably|probable|suspected|presumed)\s+(?P<dx>[^.;:\n(,]{3,60})", re.I),
]
# "my working diagnosis is unchanged / the same / still unclear": no name, so nothing to match
_NOT_A_DX_NAME = re.compile(
    r"^(?:unchanged|(?:the\s+)?same|as\s+(?:before|above)|stands|unclear|uncertain|pending|undetermined|open|"
    r"not\s+(?:yet\s+)?(?:clear|certain|known|established)|still\s+(?:unchanged|the\s+same|unclear|uncertain|open))\b",
    re.I,
)
# "Assessment: 31-year-old G1 at 34 wk with RUQ pain, ...": a one-line case summary under a diagnosis
# heading, not the name of a diagnosis
_CASE_SUMMARY = re.compile(
    r"^\W*(?:\d+\s*(?:-?\s*(?:year|yr|month|week|day)s?[\s-]*old|y/?o\b|yo\b|[FM]\b)|(?:an?\s+)?\d+[\s-]*(?:year|yr)s?\b|"
    r"(?:this|a|an)\s+(?:\d+[\s-]*(?:year|yr)[\s-]*old\s+)?(?:man|woman|boy|girl|patient|gentleman|lady)\b)",
    re.I,
)
# "Diagnosis: X." and the note shorthands "Dx: X", "Imp: X", "A/P: X": a label, so a name stated flatly
# under it is a commitment (a hedge in the line still downgrades it)
_FLAT_LABEL_HEADING = re.compile(
    r"\W*(?:diagnosis|dx|diag|imp|a\s*[/&]\s*p|(?:assessment|impression)\s*(?:and|&|/|\+)\s*plan)\W*", re.I
)
# "**Impression:** Acute ischaemic stroke — right M1 occlusion.": a flat call under "Impression" commits too, but
# only the name that opens the line right under the label; impression lines as often carry a case summary
# ("Impression: new temporal headache in a 76-year-old with ...") or a picture ("Impression: this does not
# behave like ordinary COPD"), which a "Diagnosis:" label does not
# (round 133: and under "Assessment:", "Assessment: Inferior STEMI.")
_IMPRESSION_LABEL = re.compile(r"\W*(?:impression|assessment)\W*", re.I)
# before the name, at most a few words of its own ("Acute calculous cholecystitis", "Right lower lobe CAP",
# "hypercholesterolaemia secondary to hypothyroidism"), none of them a clause, a hedge or an alternative
_OPENS_LINE = re.compile(r"[\W_]*(?:[A-Za-z][\w\-/']*[\s-]+){0,5}")
_NOT_FLAT_LEAD = re.compile(
    r"\b(?:this|it|he|she|is|are|was|were|does|do|not|no|likely|probabl\w*|possibl\w*|suspect\w*|query|think|"
    r"favou?r\w*|consider\w*|rule|exclud\w*|versus|vs|or)\b|\?",
    re.I,
)
# what makes an impression line a summary: the age ("... in a 76-year-old"), a negation ("does not behave
# like COPD") or results in brackets ("Oliguric AKI (creatinine 412, up from 98) with ...")
_SUMMARY_TAIL = re.compile(
    r"\bin\s+(?:an?|this)\s+\d+[\s-]*(?:-?\s*(?:year|yr|month|week)s?[\s-]*old|y/?o\b)|"
    r"\b(?:not|doesn't|does\s+not|isn't|no\s+longer)\b|\([^)]*\d",
    re.I,
)


def _flat_impression(seg: Segment, text: str, start: int) -> bool:
    """Whether the name at `start` is stated flatly as the first thing under an "Impression" label."""
    return bool(
        _IMPRESSION_LABEL.fullmatch(seg.label)
        # an "Assessment" heading alone on its line opens a narrative ("## Assessment" over prose), not a call
        and (seg.heading or (seg.extra.get("first_under_block") and "assess" not in seg.label.lower()))
        and seg.line_start  # "Impression: X; Y also on the ddx": the piece after the semicolon is not the call
        and _OPENS_LINE.fullmatch(text[:start])
        and not _NOT_FLAT_LEAD.search(text[:start])
        and not _SUMMARY_TAIL.search(text)
    )


# a measured value (a decimal, or a number with its unit): "CSF protein 1.4 g/L", not the "2/2" of "secondary to"
_MEASURED = re.compile(r"\d+\.\d+|\d+\s*(?:%|(?:mmol|mg|g|ng|pg|µg|mcg|IU|U|mL|µmol|nmol|pmol)/)")
# "this is not a lupus flare", "it is no longer X": the name after "this is" denied, not called
_DENIED_CALL = re.compile(r"(?:not|no\s+longer|never)\b", re.I)
_BARE_DX_LABEL = re.compile(r"^\W*(?:the\s+)?diagnosis\W*[:\-\u2013\u2014]", re.I)
# patterns whose capture must look like a diagnosis (or match one of the case's semantically)
_OTHER_DX_GUARDED = [
    re.compile(
        r"\b(?:(?:his|her|their|the\s+patient's|the)\s+(?:symptoms|presentation|picture|illness|condition|"
        r"deterioration|problem)|this|it)\s+(?:is|are|was|were)\s+(?:all\s+)?(?:due\s+to\s+|explained\s+by\s+|"
        r"caused\s+by\s+|from\s+)?(?P<dx>[^.;:,\n()\u2014\u2013]{3,60})",
        re.I,
    ),
    re.compile(
        r"\b(?:my|the|our)\s+(?:leading|main|working|top|first|most\s+likely|likeliest)\s+(?:thought|impression|concern|"
        r"candidate|possibility|suspicion|hypothesis|explanation|source|cause|diagnosis)\s+(?:is|remains|would\s+be)\s+"
        r"(?P<dx>[^.;:,\n()\u2014\u2013]{3,60})",
        re.I,
    ),
    re.compile(r"\bI\s+(?:read|interpret|see)\s+(?:this|that|it)\s+as\s+(?P<dx>[^.;:,\n()\u2014\u2013]{3,60})", re.I),
    # "I'm most concerned about a new structural lesion", "my main worry is X"
    re.compile(
        r"\b(?:I'?m|I\s+am|we\s+are|we'?re)\s+(?:most\s+|more\s+|particularly\s+|very\s+|really\s+)?(?:concerned|worried)\s+"
        r"(?:about|for)\s+(?P<dx>[^.;:,\n()\u2014\u2013]{3,60})",
        re.I,
    ),
    # "... that the pill interaction is the most likely explanation": the subject of a ranking
    re.compile(
        r"(?:^|[,;:]\s*|\bthat\s+|\b(?:so|and|but)\s+)(?P<dx>(?:the\s+|an?\s+)?[A-Za-z][^.;:,\n()\u2014\u2013]{2,50}?)\s+"
        r"(?:is|remains)\s+(?:still\s+)?(?:the|my)\s+(?:(?:most\s+likely|likeliest|best|leading|main)\s+"
        r"(?:explanation|diagnosis|cause|candidate|fit)|source|culprit|(?:likely\s+|probable\s+)?cause)\b",
        re.I,
    ),
    # round 96: "My assessment is unchanged: breakthrough seizures because the combined pill ...", "Impression
    # unchanged: LTG level drop from the COC": the name after the colon is the diagnosis kept
    re.compile(
        r"\b(?:assessment|impression|diagnosis|view|dx|imp)\s+(?:is\s+|remains\s+)?(?:unchanged|the\s+same|stands)\s*"
        r"[:\u2014\u2013-]\s*(?P<dx>[^.;:,\n()\u2014\u2013]{3,60})",
        re.I,
    ),
    # round 88: "That timing is typical of co-amoxiclav hepatotoxicity, which is my leading diagnosis": the noun
    # phrase the relative clause ranks, after the preposition or verb that opens it
    re.compile(
        r"(?:^|\b(?:of|for|is|as|be|with|suggests?|favou?rs?)\s+)(?P<dx>(?:an?\s+|the\s+)?[A-Za-z][\w'-]*(?:\s+[\w'-]+){0,5}?)"
        r",\s+which\s+(?:is|remains)\s+(?:still\s+)?(?:my|the|our)\s+(?:leading|working|main|top|most\s+likely|likeliest|"
        r"favou?red)\s+(?:diagnosis|explanation|impression)\b",
        re.I,
    ),
]
# "This looks like co-amoxiclav hepatotoxicity", "My impression is X", "Still think inferior + RV MI",
# "Still prerenal.": a name in the agent's own words, kept only when it matches a case diagnosis by
# meaning or is diagnosis-shaped
_OTHER_DX_GUARDED += [
    re.compile(
        r"\b(?:this|it|the\s+(?:picture|presentation|pattern))\s+(?:looks|sounds|reads|seems)\s+(?:most\s+|very\s+)?"
        # round 93: "This reads as hyperkalemia driven by his medications"
        r"(?:like|as)\s+(?P<dx>[^.;:,\n()\u2014\u2013]{3,60})",
        re.I,
    ),
    re.compile(
        r"\b(?:my|the|our)\s+(?:impression|opinion|view|assessment)\s+is\s+(?:that\s+)?(?:(?:this|it)\s+is\s+)?"
        r"(?P<dx>[^.;:,\n()\u2014\u2013]{3,60})",
        re.I,
    ),
    # "my diagnosis remains X", "My impression remains an infected ureteric calculus"
    re.compile(
        r"\b(?:my|our)\s+(?:diagnosis|impression)\s+(?:remains|is\s+still|stays|is\s+now)\s+(?P<dx>[^.;:,\n()\u2014\u2013]{3,80})",
        re.I,
    ),
    re.compile(r"\b(?:I\s+)?still\s+think\s+(?:(?:this|it)\s+is\s+|it'?s\s+)?(?P<dx>[^.;:,\n()\u2014\u2013]{3,60})", re.I),
    # "I would favour an oestrogen-induced fall in lamotrigine levels, but ...": the favoured name
    re.compile(
        r"\b(?:I|we)(?:'d|\s+would)?\s+(?:still\s+|strongly\s+|currently\s+)?favou?r\s+(?!(?:a\s+|an\s+)?(?:trial|repeat|"
        r"admission|referral|treatment|starting|stopping|giving|checking|sending|waiting)\b)(?P<dx>[^.;:,\n()\u2014\u2013]{3,60})",
        re.I,
    ),
    # "I'd still treat this as an early cancer", "presentation is classic primary psychosis",
    # "Nothing changes my view: X"
    re.compile(
        r"\b(?:treat|manage|regard|handle)\s+(?:this|it|her|him)\s+as\s+(?P<dx>[^.;:,\n()\u2014\u2013]{3,60})", re.I
    ),
    re.compile(r"(?:^|[;,]\s*)(?:presentation|picture)\s+is\s+(?P<dx>[^.;:,\n()\u2014\u2013]{3,60})", re.I),
    _VIEW_COLON := re.compile(
        r"\b(?:my|the)\s+(?:view|impression|diagnosis|assessment|thinking)\s*(?:remains|is|stands)?\s*:\s*"
        r"(?P<dx>[^.;:,\n()\u2014\u2013]{3,80})",
        re.I,
    ),
]
# "Still prerenal.", "Unchanged: COPD.": a bare restatement at the start of a reply, stated flatly
_STILL_DX = re.compile(
    r"^\W*(?:still|unchanged|no\s+change|remains|stays)\W*\s*(?!(?:to|in|of|on|from|with|the|my|our|his|her|a|an|no|not|waiting|"
    r"awaiting|pending|here|there|same|unclear|uncertain|think|feel|favou?r)\b)"
    # "H. pylori", "E. coli" inside the name are not a sentence end
    r"(?P<dx>(?=[A-Za-z])(?:(?-i:[A-Z])\.\s?[a-z]{3,}|(?!diagnos)[^.;:,\n()\u2014\u2013?]){2,61})(?:[.!]?\s*$|\s*[,;])", re.I
)
_OTHER_DX_GUARDED.append(_STILL_DX)
# a diagnosis-shaped noun phrase: ends in a disease word or suffix
_DX_SHAPED = re.compile(
    r"\b[\w\-]*(?:itis|osis|oma|omas|aemia|emia|pathy|plasia|withdrawal|insufficiency|failure|syndrome|disease|"
    r"infarction|embolism|infection|toxicity|poisoning|deficiency|metastas[ie]s|reaction|disorder|overdose|"
    r"haemorrhage|hemorrhage|abscess|thrombosis|dissection|obstruction|rupture|torsion|fracture|sepsis)\b",
    re.I,
)
_DX_TRIM = re.compile(
    r"^(?:(?:still|now|again|definitely|clearly|certainly)\s+)?(?:probable|probably|likely|most\s+likely|possible|"
    r"suspected|presumed|definite|acute\s+)?\s*|"
    r"\s+(?:secondary\s+to|due\s+to|caused\s+by|driven\s+by|from|with|given|because|based\s+on|supported\s+by|"
    # round 56: "this is acute obstruction on previously healthy kidneys rather than chronic disease"
    r"rather\s+than|instead\s+of|as\s+opposed\s+to)\b.*$|"
    # round 88: a severity grade after the name is no part of it ("COPD, GOLD 3, frequent exacerbator", "(NYHA III)")
    r"\s*[,(]\s*(?:GOLD|NYHA)\b.*$|,\s*(?:stage|grade|class)\s+[0-9IV]+[A-C]?\b.*$",
    re.I,
)
SEMANTIC_DX_THRESHOLD = 0.70
SEMANTIC_DX_NEAR, SEMANTIC_DX_MARGIN = 0.60, 0.10
_HISTORY_BEFORE = re.compile(
    r"\b(?:history\s+of|known|previous(?:ly)?|prior|diagnosed\s+with|has\s+had|have\s+had|had|treated\s+for|"
    r"on\s+treatment\s+for|background\s+of)\s+(?:\w+\s+){0,2}$",
    re.I,
)
# round 58: "Grandmother w/ pulm TB", "mother had breast cancer", "family history of type 2 diabetes": the
# condition named next is the relative's, not a hypothesis about the patient; "mom has seen him eat paint chips" is
# the patient's history. (The claim layer's _FAMILY_OF is narrower on purpose: the labels claim "grandmother w/ pulm
# TB" as the patient's TB contact.)
_RELATIVE_CONDITION_BEFORE = re.compile(
    # round 68: a note's family history ("FHx T2DM (father)", "Family hx: premature MI"); not "FH" alone, the
    # familial hypercholesterolaemia of the lipid case
    rf"\b(?:family\s+history\s+of|(?:FHx|F/H|fam(?:ily)?\s+(?:hx|history))(?:\s+of|\s*[:\-–—])?|"
    rf"(?:{'|'.join(RELATIVES)}|relative)s?(?:'s)?\s+(?:w/|with|has|have|had|"
    r"died\s+(?:of|from)|diagnosed\s+with))\s+(?!(?:seen|noticed|heard|said|reported|told|observed|watched|been)\b)"
    r"(?:[\w\-]+\s+){0,3}$",
    re.I,
)
# "her migraines", "his asthma": a condition owned by the patient is past history when it is not the
# case's gold diagnosis (the agent asserts the patient has it, it does not propose it).
_POSSESSIVE_HISTORY = re.compile(r"\b(?:her|his|the\s+patient's|their)\s+(?:known\s+|usual\s+|longstanding\s+)?$", re.I)
_REPORTED_BEFORE = re.compile(
    r"\b(?:letter|report|reports|addendum|note|records?|according\s+to|describ\w*|says|said|claims?|"
    r"mentions?|account)\b[^.;:,]{0,30}$",
    re.I,
)
_MODAL_EXCLUDE = re.compile(
    r"\b(?:must|should|needs?\s+to|need\s+to|has\s+to|have\s+to|to)\s+be\s+(?:\w+\s+)?(?:excluded|ruled\s+out|"
    r"considered|borne\s+in\s+mind|kept\s+in\s+mind)|"
    r"\bneeds?\s+(?:excluding|ruling\s+out)",
    re.I,
)
_TEST_AFTER = re.compile(
    r"^\s*(?:screen(?:ing)?|serology|tests?|panel|markers?|antibod\w*|antigen|PCR|DNA|RNA|titres?|titers?|"
    r"status|swab|culture)\b",
    re.I,
)


# Protection talk names a diagnosis without taking a stance on it for this patient.
_NOT_A_STANCE_BEFORE = re.compile(
    r"\b(?:protect(?:s|ed|ion|ive)?|prophylaxis|immuni[sz]\w*|vaccinat\w*|guard(?:s|ed)?)\s+(?:\w+\s+){0,2}?"
    r"against\s+(?:\w+\s+){0,2}$",
    re.I,
)


# --- extra surface forms of the case's diagnoses -------------------------------------------------
# Eponymous diagnoses are usually written as the bare possessive ("Graves'", "de Quervain's",
# "Addison's"), and UK/US spellings and -sis/-ses plurals vary ("goitre"/"goiter",
# "metastasis"/"metastases"). The case lexicon lists the full names only, so these forms are
# derived here from every name and alias and found in a second pass.
_EPONYM = re.compile(
    r"^(?:the\s+)?(?:(?P<q>[a-z][\w-]*)\s+)?(?P<e>(?:(?:de|von|van|du|le|la|di)\s+)?[A-Z][a-z][A-Za-z\-]*)"
    r"(?P<p>'s|’s|'|’)?\s+"
    r"(?P<head>disease|syndrome|thyroiditis|hyperthyroidism|palsy|encephalopathy|thrombosis|disorder|paresis|"
    r"paralysis)\b"
)
_SPELLING = [
    ("goitre", "goiter"), ("oedema", "edema"), ("aemia", "emia"), ("haem", "hem"), ("oesophag", "esophag"),
    ("tumour", "tumor"), ("diarrhoea", "diarrhea"), ("paediatric", "pediatric"), ("aetiolog", "etiolog"),
    ("ischaem", "ischem"), ("oestrogen", "estrogen"), ("foetal", "fetal"), ("leukaem", "leukem"),
    ("orrhoea", "orrhea"), ("caecum", "cecum"),
]


def _spelling_variants(name: str) -> set[str]:
    out = {name}
    for uk, us in _SPELLING:
        for v in list(out):
            low = v.lower()
            if uk in low:
                out.add(re.sub(uk, us, v, flags=re.I))
            elif us in low and not re.search(uk, low):
                out.add(re.sub(us, uk, v, flags=re.I))
    for v in list(out):
        out.add(re.sub(r"(\w{3,})ses\b", r"\1sis", v))
        out.add(re.sub(r"(\w{3,})sis\b", r"\1ses", v))
    return out


def _eponym_forms(name: str) -> set[str]:
    m = _EPONYM.match(name.strip())
    if not m:
        return set()
    e = m.group("e")
    if not m.group("p") and (m.group("head") not in ("disease", "syndrome") or m.group("q")):
        return set()  # "post-ictal Todd's paresis" -> "Todd's"; a qualifier only before a possessive
    forms = {f"{e}'s", f"{e}’s"}
    if e.endswith("s"):
        forms |= {f"{e}'", f"{e}’"}
    return forms


# --- reworded forms of a diagnosis name (round 5) --------------------------------------------------
# Clinicians reword a listed name instead of quoting it: they give only the cause of a
# "syndrome from cause" name ("oestrogen-induced lowering of X levels" for "seizures from
# oestrogen-induced lowering of X levels"), put a prepositional complement first ("lamotrigine
# non-adherence" for "non-adherence to lamotrigine"), swap the two partners of a symmetric
# relation ("oestrogen-lamotrigine interaction"), or drop a qualifier that only says "nothing
# else" ("iron deficiency anaemia" for "isolated iron deficiency anaemia" / "... anaemia alone").
_NAME_CAUSE = re.compile(r"^(?P<head>.+?)\s+(?:from|due\s+to|secondary\s+to|caused\s+by)\s+(?P<cause>.+)$", re.I)
_NAME_COMPLEMENT = re.compile(r"^(?P<head>[\w\-]+(?:\s+[\w\-]+)?)\s+(?:to|of)\s+(?P<obj>[\w\-]+(?:\s+[\w\-]+)?)$", re.I)
_SYMMETRIC = re.compile(r"^(?P<a>[\w]+)[\s\-\u2013\u2014]+(?:and\s+)?(?P<b>[\w]+(?:\s+[\w]+)?)\s+(?P<rel>interaction|overlap|co-?infection)$", re.I)
_ONLY_QUALIFIER = re.compile(r"^(?:isolated|simple|uncomplicated|pure|lone)\s+|\s+(?:alone|only)$", re.I)
_CONTENT_WORD = re.compile(r"[A-Za-z][A-Za-z\-]{2,}")
_NAME_FUNCTION = {"the", "a", "an", "his", "her", "and", "or", "with", "secondary", "due", "related", "owing",
                  "prior", "attributed", "from", "in", "on", "by"}


@functools.lru_cache(maxsize=1)
def _name_synonyms() -> list[tuple[re.Pattern[str], list[str]]]:
    """lexicon.yaml ``dx_name_synonyms``: (word group, its written equivalents)."""
    data = lexicon_data()
    out = []
    for word, alts in (data.get("dx_name_synonyms") or {}).items():
        out.append((re.compile(rf"(?<![\w]){re.escape(str(word))}(?![\w])", re.I), [str(a) for a in alts or []]))
    return out


def reworded_forms(name: str) -> set[str]:
    """Reworded surface forms of one diagnosis name (see the comment above); empty when none."""
    out = _with_equivalents({name.strip()})
    for v in list(out):
        out |= _reworded(v)
    # round 58: a reworded form takes the written equivalents too ("isolated iron deficiency anaemia" ->
    # "iron deficiency anaemia" -> "IDA": "Still IDA")
    out = _with_equivalents(out)
    out.discard(name.strip())
    return out


def _with_equivalents(forms: set[str]) -> set[str]:
    """``forms`` plus every form with its word groups replaced by their written equivalents (all combinations)."""
    out = set(forms)
    for rx, alts in _name_synonyms():
        for v in list(out):
            if rx.search(v):
                out |= {rx.sub(a, v) for a in alts}
    return out


def _reworded(n: str) -> set[str]:
    out: set[str] = set()
    m = _NAME_CAUSE.match(n)
    if m and len([w for w in _CONTENT_WORD.findall(m.group("cause")) if w.lower() not in _NAME_FUNCTION]) >= 4:
        out.add(m.group("cause"))  # a cause specific enough to name the diagnosis on its own
    m = _NAME_COMPLEMENT.match(n)
    if (
        m
        and m.group("obj").lower().split()[0] not in _NAME_FUNCTION
        and m.group("head").lower().split()[-1] not in _NAME_FUNCTION
    ):
        out.add(f"{m.group('obj')} {m.group('head')}")
    # "liver disease coagulopathy" -> "liver coagulopathy": "disease" used as a modifier can go
    attributive = re.sub(r"^(\w[\w\-]*)\s+disease\s+(\w[\w\-]*)$", r"\1 \2", n, flags=re.I)
    if attributive != n:
        out.add(attributive)
    m = _SYMMETRIC.match(n)
    if m:
        out.add(f"{m.group('b')}-{m.group('a')} {m.group('rel')}")
    short = _ONLY_QUALIFIER.sub("", n).strip()
    if short != n and len(_CONTENT_WORD.findall(short)) >= 2:
        out.add(short)
    return out


_EXTRA_DX: dict[int, tuple[CaseKnowledge, Lexicon | None]] = {}


def extra_dx_lexicon(know: CaseKnowledge) -> Lexicon | None:
    """Eponym short forms and spelling variants of the case's diagnosis names (cached per case)."""
    hit = _EXTRA_DX.get(id(know))
    if hit is not None and hit[0] is know:
        return hit[1]
    taken = {Lexicon.key(n) for d in know.diagnoses.values() for n in d.all_names}
    items = []
    owners: dict[str, set[str]] = {}
    for d in know.diagnoses.values():
        forms: set[str] = set()
        for n in d.all_names:
            for v in _spelling_variants(n) | reworded_forms(n):
                forms |= _spelling_variants(v) | _eponym_forms(v)
        forms = {f for f in forms if Lexicon.key(f) not in taken}
        for f in forms:
            owners.setdefault(Lexicon.key(f), set()).add(d.name)
        items.append((d.name, forms))
    # a short form shared by two diagnoses ("Cushing's" for disease and syndrome) names neither
    items = [(n, [f for f in forms if len(owners[Lexicon.key(f)]) == 1]) for n, forms in items]
    lex = Lexicon([(n, "diagnosis", fs) for n, fs in items if fs]) if any(fs for _n, fs in items) else None
    if len(_EXTRA_DX) > 512:
        _EXTRA_DX.clear()
    _EXTRA_DX[id(know)] = (know, lex)
    return lex


_INNER_DETERMINER = re.compile(r"\b(?:her|his|their|the|its)\b", re.I)

# "a bleeding peptic (most likely duodenal) ulcer": a parenthesis inside a diagnosis name
_INNER_PAREN = re.compile(r"\s*\([^()\n]{1,40}\)")
# "Hyperkalaemia, probably drug-induced": the cause or type given after the syndrome word
_POSTPOSED = re.compile(
    r"\b(?P<head>[A-Za-z][\w\-]{3,})\s*,\s*(?:probably|likely|most\s+likely|possibly|presumably|almost\s+certainly|"
    r"I\s+suspect|I\s+think)\s+(?P<mod>[A-Za-z][\w\-]+(?:\s+[A-Za-z][\w\-]+)?)",
    re.I,
)
# "the bleeding source is still most likely variceal": the diagnosis as an adjective
_ADJECTIVE_DX = re.compile(
    r"\b(?:source|cause|origin|aetiology|etiology|bleed|bleeding|picture|lesion|process|mechanism)\b[^.;]{0,30}?"
    r"\b(?:is|remains|looks|seems)\s+(?:still\s+)?(?:most\s+likely|likely|probably|more\s+likely)\s+"
    r"(?P<adj>[A-Za-z][\w\-]{3,})\b",
    re.I,
)


def _covering(know: CaseKnowledge, phrase: str) -> list | None:
    """The case-lexicon hits of ``phrase`` when one hit covers all of it."""
    for a, b, h in know.dx_lexicon.find(phrase):
        if a == 0 and b == len(phrase):
            return h
    return None


def find_diagnoses(know: CaseKnowledge, text: str) -> list:
    """Case-lexicon hits, plus extra surface forms, names split by a parenthesis, postposed causes
    and adjectival diagnoses that do not overlap them, in text order."""
    hits = list(know.dx_lexicon.find(text))

    def add(s: int, e: int, h: list, replace: bool = False) -> None:
        nonlocal hits
        # with replace, hits inside the new one give way, but only if the new one is then taken
        kept = [x for x in hits if not (s <= x[0] and x[1] <= e)] if replace else hits
        if not any(a < e and s < b for a, b, _h in kept):
            hits = [*kept, (s, e, h)]

    extra = extra_dx_lexicon(know)
    if extra is not None:
        for s, e, h in extra.find(text):
            add(s, e, h, replace=True)  # a longer derived form wins over a head word inside it
    # "a drug interaction lowering her lamotrigine levels": a possessive or article written inside
    # a listed name does not hide it (second pass on the text without those words, mapped back)
    if _INNER_DETERMINER.search(text):
        toks = [(m.start(), m.end()) for m in re.finditer(r"\S+|\s+", text)]
        parts, pos = [], []
        i = 0
        while i < len(toks):
            a, b = toks[i]
            if _INNER_DETERMINER.fullmatch(text[a:b]) and i > 0 and i + 1 < len(toks):
                i += 2  # the word and the space after it
                continue
            parts.append(text[a:b])
            pos.extend(range(a, b))
            i += 1
        joined = "".join(parts)
        for lex in (know.dx_lexicon, extra):
            for a, b, h in lex.find(joined) if lex is not None else []:
                s0, e0 = pos[a], pos[b - 1] + 1
                if _INNER_DETERMINER.search(text[s0:e0]):
                    add(s0, e0, h, replace=True)
    for m in _INNER_PAREN.finditer(text):
        cut = m.end() - m.start()
        joined = text[: m.start()] + text[m.end() :]
        for a, b, h in know.dx_lexicon.find(joined[max(0, m.start() - 80) : m.start() + 80]):
            a += max(0, m.start() - 80)
            b += max(0, m.start() - 80)
            if a < m.start() < b:
                add(a, b + cut, h, replace=True)
    for m in _POSTPOSED.finditer(text):
        mod_words = m.group("mod").split()
        for k in (2, 1):
            if len(mod_words) < k:
                continue
            h = _covering(know, " ".join(mod_words[:k]) + " " + m.group("head"))
            if h:
                end = m.start("mod") + len(" ".join(mod_words[:k]))
                add(m.start("head"), end, h, replace=True)
                break
    for m in _ADJECTIVE_DX.finditer(text):
        heads = {re.findall(r"[A-Za-z][\w\-]*", n)[-1] for d in know.diagnoses.values() for n in d.all_names}
        for head in sorted(heads):
            h = _covering(know, f"{m.group('adj')} {head}")
            if h:
                add(m.start("adj"), m.end("adj"), h)
                break
    hits.sort(key=lambda x: x[0])
    return hits


_NEGATED_EXCLUSION = re.compile(
    r"\b(?:doesn't|does\s+not|don't|do\s+not|didn't|did\s+not|wouldn't|would\s+not|isn't|is\s+not|aren't|"
    r"cannot|can't|won't|will\s+not)\s+(?:\w+\s+){0,2}?(?:against|rule\s+out|exclude)\s+(?:\w+\s+){0,3}$",
    re.I,
)
# round 133: "no RV strain, so this is not a high-risk PE": what is denied is the severity, not the diagnosis
_NOT_SEVERE_BEFORE = re.compile(
    r"\b(?:not|isn't|is\s+not)\s+(?:an?\s+)?(?:(?:high|intermediate)[\s\-]risk|massive|sub-?massive|severe|"
    r"life[\s\-]threatening|complicated)\s+$",
    re.I,
)
# round 72: "it does not move me away from lupus nephritis": a denied move away from X holds X
_NOT_MOVED_AWAY_BEFORE = re.compile(
    r"\b(?:doesn't|does\s+not|don't|do\s+not|didn't|did\s+not|won't|will\s+not|wouldn't|would\s+not|cannot|can't)\s+"
    r"(?:\w+\s+)?(?:move|push|take|shift|sway|steer|lead|talk)\s+(?:me|us)\s+away\s+from\s+(?:an?\s+|the\s+)?$",
    re.I,
)
# "X cannot be excluded", "X has not been ruled out yet": still a hypothesis
_SUPPORT_VERB_BEFORE = re.compile(
    r"\b(?:and|but)\s+(?:it\s+|this\s+)?(?:fits|suggests|supports|favou?rs|points\s+to|confirms|is\s+consistent\s+with)\s+"
    r"(?:an?\s+|the\s+)?$",
    re.I,
)
_ALTERNATIVE_AFTER = re.compile(
    r"^\s*(?:is|are|remains|would\s+be)\s+(?:still\s+)?(?:the|an|my|our)\s+(?:main\s+|other\s+|chief\s+|leading\s+|only\s+)?"
    r"(?:alternative|ddx|differential)\b|"
    # round 56: "Brain mets on ddx given HA": a name kept on the differential
    r"^\s*(?:(?:is|are|remain|remains|stays?)\s+)?on\s+(?:the\s+|my\s+)?(?:ddx|differential)\b",
    re.I,
)
_EXPLANANDUM_BEFORE = re.compile(
    r"\b(?:not|n't|never)\s+(?:fully\s+)?(?:explain|account\s+for|cause)\s+(?:the\s+|an?\s+|her\s+|his\s+|this\s+)?"
    r"(?:[\w-]+\s+){0,2}$",
    re.I,
)
_NOT_EXCLUDED_AFTER = re.compile(
    r"^[^.;]{0,20}?\b(?:cannot|can't|can\s+not|could\s+not|couldn't|has\s+not|hasn't|have\s+not|haven't|is\s+not|"
    r"isn't|not)\s+(?:yet\s+)?(?:be\s+|been\s+)?(?:yet\s+)?(?:excluded|ruled\s+out)\b",
    re.I,
)
# "makes this a posterior MI, not X", "this would make it X": the reply commits to X
_MAKES_THIS_BEFORE = re.compile(
    r"\b(?:makes?|making|made)\s+(?:this|it|the\s+(?:diagnosis|picture))\s+(?:an?\s+|the\s+)?"
    r"(?:[A-Za-z][\w\-/]*\s+){0,3}$",
    re.I,
)
# "This is immune checkpoint inhibitor hypophysitis": the copula, a few modifiers, then the name
_THIS_IS_MODIFIED = re.compile(
    r"(?:^|[.!]\s+|^\W*)(?:so\s+)?this\s+(?:is|represents)\s+(?:an?\s+|the\s+)?(?:[A-Za-z][\w\-/]*\s+){1,4}$", re.I
)
# "Okay, so this little guy has lead poisoning": a noun for the patient opening the clause has the disease
# as flatly as "he has" ("I am worried this man has a metabolic acidosis" is a worry: the noun does not open it)
_PATIENT_HAS = re.compile(
    r"^\W*(?:(?:so|okay|ok|well|yes|right)\b[,\s]*)*(?:this|the|our)\s+(?:little\s+|young\s+|old\s+)?"
    # (round 142: or "is having" an event, "This gentleman is having an inferior STEMI.")
    r"(?:guy|boy|girl|man|woman|lady|gentleman|chap|child|kid|toddler|baby|infant)(?:\s+has(?:\s+got)?|'s\s+got|\s+is\s+having)\s+"
    r"(?:an?\s+|the\s+)?(?:[A-Za-z][\w\-/]*\s+){0,2}$",
    re.I,
)
# keeping a diagnosis is holding it: "I'm staying with X", "sticking with X", "still favour X"
_KEEPS_BEFORE = re.compile(
    r"\b(?:stay(?:ing|s)?|stick(?:ing|s)?|remain(?:ing|s)?|go(?:ing)?|carry(?:ing)?\s+on)\s+with\s+"
    r"(?:the\s+|a\s+|my\s+)?(?:[\w\-']+\s+){0,2}$|\bstand(?:ing|s)?\s+by\s+(?:the\s+|my\s+)?(?:[\w\-']+\s+){0,2}$",
    re.I,
)
_COMMIT_BEFORE = re.compile(
    r"\b(?:(?:my|the|our)\s+(?:final\s+)?diagnosis\s+(?:remains|stays|is\s+still)|(?:we|I)\s+are\s+dealing\s+with|"
    r"we're\s+dealing\s+with|(?:this|it)\s+is\s+a\s+(?:clear\s+|classic\s+|typical\s+)?case\s+of)\s+"
    r"(?:an?\s+|the\s+)?(?:[A-Za-z][\w\-/]*\s+){0,2}$",
    re.I,
)
_PAREN_HEDGE_AFTER = re.compile(
    r"^\W{0,3}\((?:most\s+|very\s+|highly\s+)?(?:likely|probable|high\s+probability|favou?red|leading|preferred|"
    r"suspected|presumed|working\s+diagnosis|top\s+of\s+the\s+list)(?:\s+(?:diagnosis|cause|option))?\s*\)",
    re.I,
)  # the parenthesis holds only the hedge: "(likely norovirus)" hedges the cause, not the diagnosis
# "I'd lean towards X", "I'd manage it as X until ...", "this now looks like X", "my money is on X"
_LEAN_BEFORE = re.compile(
    r"\b(?:lean(?:ing|s)?\s+(?:towards?|to)|inclined\s+(?:towards?|to\s+(?:think|call))|"
    r"(?:manage|managing|treat|treating|handle)\s+(?:it|this|him|her|them)\s+as|"
    r"(?:looks|sounds|seems)\s+(?:\w+\s+)?like|my\s+money(?:'s|\s+is)\s+on|I'd\s+(?:bet|put\s+money)\s+on|"
    r"(?:push|pushes|pushed|point|points|tip|tips|tipped|move|moves)\s+me\s+(?:to|towards?))\s+"
    r"(?:an?\s+|the\s+)?(?:[A-Za-z][\w\-/]*\s+){0,3}$",
    re.I,
)
# a lead word that is itself a verb or hedge: the line is a sentence, not a flat diagnosis
# qualifiers written before a diagnosis name in a verbless call: side, site, acuity, severity
_QUALIFIER_LEAD = re.compile(
    r"(?:(?:ruptured|acute|chronic|severe|mild|moderate|massive|early|late|recurrent|new|left|right|L|R|bilateral|"
    r"tubal|proximal|distal|upper|lower|anterior|posterior|inferior|lateral|complete|partial|primary|secondary|"
    r"provoked|unprovoked|symptomatic|decompensated|uncomplicated|complicated)\s+){1,4}",
    re.I,
)
_LEAD_VERB = re.compile(
    r"\b(?:fits?|suggests?|favou?rs?|indicates?|points?|resembles?|mimics?|could|may|might|would|consider\w*|"
    # (round 133: "This makes **X** the leading diagnosis": a ranking, not a flat call)
    r"think|suspect|query|possible|possibly|likely|probably|perhaps|maybe|rule|exclude|makes?|made|making)\b",
    re.I,
)
# "X is the front-runner", "X remains my prime suspect"
_FRONT_RUNNER_AFTER = re.compile(
    r"^[^.;]{0,25}?\b(?:is|remains|as|stays)\s+(?:still\s+)?(?:at\s+the\s+)?top\s+of\s+(?:my|the|our)\s+"
    r"(?:list|differential)|"
    # "makes alpha-1 antitrypsin deficiency the working diagnosis": the ranking right after the name
    r"^\s*(?:the|my|our)\s+(?:main|leading|working)\s+(?:dx|diagnosis)\b|"
    # "PE still the main dx": a note drops the verb
    r"^[^.;]{0,25}?\b(?:(?:is|remains|as|stays)\s+(?:still\s+)?|still\s+)(?:the|my|our)\s+(?:clear\s+|main\s+)?(?:front-?runner|"
    r"favou?rite|prime\s+suspect|top\s+candidate|main\s+contender|lead(?:ing)?\s+candidate|best\s+bet|"
    r"most\s+plausible\s+(?:explanation|cause|diagnosis)|(?:main|leading|working|primary|principal)\s+(?:dx|diagnosis)|"
    # "Still think NSAID AIN is the main driver"
    r"(?:main|primary|chief|principal|real)\s+(?:driver|cause|culprit|problem|process))\b",
    re.I,
)
# "the main diagnosis: X", "my principal diagnosis remains X"
# "My leading diagnosis is X", "the working impression remains X": the noun is qualified as the
# current best guess, so "diagnosis is" does not make it definitive (heldout6 reading)
_RANKED_DX_IS = re.compile(
    r"\b(?:leading|working|provisional|presumptive|presumed|tentative|likeliest|most\s+likely|probable|"
    r"favou?red|preferred|front-?running)\s+(?:diagnosis|impression|explanation)\s+"
    r"(?:is|remains|stays|would\s+be|here\s+is)\s+(?:still\s+)?(?:an?\s+|the\s+)?$",
    re.I,
)
_MAIN_DX_BEFORE = re.compile(r"\b(?:main|principal|primary|overall|unifying|underlying)\s+diagnosis\b", re.I)
# a mention followed by its own verb opens a sentence about it ("Dissection has to stay on the list
# because ..."), it is not a diagnosis stated flatly as a line of its own
_VERB_AFTER = re.compile(
    r"^\s*(?:has|have|had|is|are|was|were|remains?|needs?|must|should|can|could|may|might|would|will|stays?|"
    r"seems?|looks?|appears?|does|did|do|cannot|can't|won't|isn't)\b"
    # "Starvation ketosis alone rarely drops the bicarbonate": the subject of a statement about it
    r"|^\s*(?:alone|itself|by\s+itself|on\s+its\s+own|per\s+se)?\s*(?:rarely|never|seldom|usually|typically|often|"
    r"always|generally|commonly|classically|alone)\s+[a-z]+s?\b",
    re.I,
)


def _role(know: CaseKnowledge, name: str) -> str:
    if name == know.gold:
        return "gold"
    if name in know.differential:
        return "differential"
    return "other"


def _unhedged(text: str, hedge: re.Match[str] | None) -> bool:
    """Whether a name under a diagnosis label is stated flatly: no downgrading hedge around it and no
    possible/probable wording anywhere in the line (both label readings in :func:`_stance` ask this)."""
    return not hedge and not POSSIBLE_DX_RX.search(text) and not PROBABLE_DX_RX.search(text)


_OTHER_SUBJECT_AFTER = re.compile(
    r"^\s*,?\s*(\b(?:and|but|while|whereas|so)\s+(?:(?:an?|the|his|her)\s+)?[^,;.()]{3,60}?\b(?:is|was)\b)", re.I
)


# round 58: what may stand between two diagnosis names that share one stance ("rules out GBS and myelitis",
# "X, Y or Z are unlikely"); anything more is a predicate of the first name
_LIST_GAP = re.compile(r"[\s,/*_]*(?:(?:and|or)\s+)?(?:(?:an?|the)\s+)?", re.I)
_COORDINATOR = re.compile(r"\b(?:and|but|while|whereas|so)\b|\s[-\u2013\u2014]\s", re.I)
# "Falciparum malaria — dengue now unlikely", "Imp: latent TB infection — active disease unlikely": a dash
# opening a clause with its own subject; "X — unlikely" still refers back
_DASH_NEW_SUBJECT = re.compile(
    r"\s+[-\u2013\u2014]\s+(?!(?:now\s+|much\s+|far\s+|very\s+)?(?:unlikely|less\s+likely|excluded|ruled\s+out|"
    r"not|no|improbable)\b)[A-Za-z]",
    re.I,
)
# "That fits hypophysitis and makes metastatic disease unlikely": the verb's object takes the cue after it
_CAUSATIVE_AFTER = re.compile(r"\s*,?\s*\b(?:and|but|so)\s+(?:makes?|made|leaves|left|renders?|puts?)\b", re.I)


def _stance_reach(text: str, start: int, end: int, others: Sequence[tuple[int, int]]) -> tuple[int, int]:
    """How far back and forward a stance cue can belong to the name at ``start:end``.

    A neighbouring diagnosis name that has its own predicate before a coordinator takes the cues on its
    side of that coordinator: "a UTI is now unlikely to be the explanation and diabetic kidney disease
    remains the working diagnosis", "TTP is now my working diagnosis and ITP is effectively excluded",
    "which makes TTP the most likely diagnosis and ITP unlikely". Names joined as a list share the cue."""
    lo, hi = 0, len(text)
    prev = max((e2 for s2, e2 in others if e2 <= start), default=None)
    if prev is not None and not _LIST_GAP.fullmatch(text[prev:start]):
        cuts = list(_COORDINATOR.finditer(text, prev, start))
        if cuts:
            lo = cuts[-1].end()
    nxt = min((s2 for s2, e2 in others if s2 >= end), default=None)
    if nxt is not None and not _LIST_GAP.fullmatch(text[end:nxt]):
        cut = _COORDINATOR.search(text, end, nxt)
        if cut:
            hi = cut.start()
    causative = _CAUSATIVE_AFTER.match(text, end) or _DASH_NEW_SUBJECT.match(text, end)
    if causative:
        hi = min(hi, causative.start() + 1)
    return lo, hi


# a second disease added in parentheses after the name ("**X** (with likely Y)", "X (plus Y)")
_WITH_PAREN_AFTER = re.compile(r"[*_\s]{0,4}\((?=\s*(?:with|plus|and|\+)\s)", re.I)


def _stance(
    text: str, start: int, end: int, seg: Segment, final_line: bool, n_dx: int = 1,
    others: Sequence[tuple[int, int]] = (),
) -> str:
    paren = _WITH_PAREN_AFTER.match(text, end)
    if paren is not None:
        # round 134: "## Diagnosis: **Lead poisoning** (with likely iron deficiency)": the hedge inside the
        # parenthesis grades the second disease, not the name before it
        cut = paren.end() - 1
        return _stance(text[:cut], start, end, seg, final_line, n_dx, [o for o in others if o[1] <= cut])
    c0, c1 = clause_bounds(text, start)
    lo, hi = _stance_reach(text, start, end, others)
    c0 = max(c0, lo)
    before_clause = text[c0:start]
    before_sent = text[max(0, start - 80) : start]
    after_clause = text[end:c1] if c1 > end else text[end : end + 60]
    if c1 <= end:
        # the mention closes its clause: what follows a coordination is about something else
        # ("this is intussusception, and volvulus is now unlikely")
        # ... or after a comma that opens another subject ("most likely NSTEMI, posterior MI not excluded",
        # "?LTBI, active TB unlikely"); ", which is unlikely" still refers back
        cut = re.search(
            r"\b(?:and|but|while|whereas|although|though|so)\b|[,;]\s*(?!(?:which|that|this|it|is|as|now|since|so|though)\b)",
            after_clause,
        )
        if cut:
            after_clause = after_clause[: cut.start()]
    else:
        # round 56: "a leaking left tubal ectopic and a threatened miscarriage is no longer tenable": a
        # coordinated name with its own singular verb is the subject of what follows, not this mention
        other = _OTHER_SUBJECT_AFTER.match(after_clause)
        if other:
            after_clause = after_clause[: other.start(1)]
    after_clause = after_clause[: max(0, hi - end)]
    after = text[end : end + 60]
    if _RULE_OUT_BEFORE.search(before_sent) and not re.search(r"\b(?:rules|ruled)\s+out\b", before_sent[-40:], re.I):
        return "possible"
    if _ALTERNATIVE_AFTER.match(text[end : end + 50]):
        return "possible"  # "latent TB is the alternative", "Todd's paresis is the main alternative"
    if _SUPPORT_VERB_BEFORE.search(before_clause):
        return "probable"  # "that excludes compression and fits GBS": the exclusion was of the other name
    if _EXPLANANDUM_BEFORE.search(before_clause[-50:]):
        return "possible"  # "a post-ictal paresis would not explain an M1 occlusion": X is what needs explaining
    if _MODAL_EXCLUDE.search(after_clause[:60]):
        return "possible"  # "must be excluded": a hypothesis still to test
    if _NOT_MOVED_AWAY_BEFORE.search(before_clause):
        return "probable"
    if _NOT_SEVERE_BEFORE.search(before_clause):
        return "possible"  # the diagnosis is held, only its severity denied
    if _NEGATED_EXCLUSION.search(before_clause) or _NOT_EXCLUDED_AFTER.match(after_clause):
        return "possible"  # "which doesn't argue against X": X is left open, not excluded
    if _EXCLUDED_BEFORE_STRICT.search(before_clause) or _EXCLUDED_AFTER.search(after_clause) or _DROPPED_AFTER.match(
        text[end : end + 40]
    ):
        return "excluded"
    if final_line:
        return "definitive"
    if _ARROW_STILL_BEFORE.search(before_sent[-60:]):
        return "probable" if HEDGE_DX_DOWNGRADE_RX.search(after_clause) else "definitive"
    if _ARROW_CALL_BEFORE.search(before_sent[-12:]) and _ENDS_SENTENCE.match(text[end : end + 5]):
        return "definitive"
    if _PAREN_HEDGE_AFTER.match(text[end : end + 40]):
        return "probable"  # "GCA (high probability)", "1. **X** (most likely)"
    hedge = HEDGE_DX_DOWNGRADE_RX.search(before_clause) or HEDGE_DX_DOWNGRADE_RX.search(after_clause)
    if _RANKED_DX_IS.search(before_clause[-60:]):
        return "probable"  # "My leading diagnosis is X": a ranking, not a commitment
    if DEFINITIVE_DX_RX.search(before_clause[-30:]) or _DEFINITIVE_AFTER.search(after_clause):
        return "probable" if hedge else "definitive"
    label_m = _BARE_DX_LABEL.match(text) if seg.section != "diagnosis" else None
    if label_m is not None and not text[label_m.end() : start].strip(" *_") and _unhedged(text, hedge):
        # "1. Diagnosis: carbon monoxide poisoning.": the label opens a list item rather than a section, and the
        # name right after it is stated as flatly as under a "Diagnosis:" heading
        return "definitive"
    if seg.section == "diagnosis":
        head = (seg.heading or "").lower()
        if "final" in head:
            return "definitive"
        # under a label alone on its line, the first prose line is the call; the list below it is the plan
        label = head or ("" if seg.bullet else seg.label.lower())
        flat = _FLAT_LABEL_HEADING.fullmatch(label) or _flat_impression(seg, text, start)
        if flat and not _CASE_SUMMARY.match(text) and _unhedged(text, hedge):
            return "definitive"  # "Diagnosis: CO poisoning." stated flatly under a bare heading
        return "probable"
    if (
        _MAKES_THIS_BEFORE.search(before_clause)
        or _THIS_IS_MODIFIED.search(before_clause)
        or _PATIENT_HAS.search(before_clause)
        or _COMMIT_BEFORE.search(before_clause)
    ):
        return "probable" if hedge else "definitive"
    if (
        PROBABLE_DX_RX.search(before_sent[-70:])
        or _PROBABLE_AFTER.search(after)
        or _KEEPS_BEFORE.search(before_clause)
        or _LEAN_BEFORE.search(before_clause)
        or _FRONT_RUNNER_AFTER.match(text[end : end + 60])
        or _MAIN_DX_BEFORE.search(before_sent[-70:])
        or _PICTURE_BEFORE.search(before_clause)
        or _LOOKS_LIKE_BEFORE.search(before_clause)
    ):
        if POSSIBLE_DX_RX.search(before_clause[-25:]) and not PROBABLE_DX_RX.search(before_clause):
            return "possible"
        return "probable"
    if (
        POSSIBLE_DX_RX.search(text)
        or HEDGE_RX.search(text)
        or QUESTION_RX.search(text)
        or seg.section in ("differential", "plan", "questions")
    ):
        return "possible"
    if n_dx > 1:
        return "possible"  # several diagnoses named without ranking cues: a list of hypotheses
    lead = re.sub(r"^\W*(?:no\s+change|unchanged|same\s+diagnosis|still|again)\W*", "", text[:start], flags=re.I)
    lead = re.sub(r"\([^)]*\)", " ", lead)  # "Subacute (de Quervain's) thyroiditis."
    lead = re.sub(r"[#*_]+", " ", lead)  # round 133: "## Confirmed: **acute PE**": markdown marks are not words
    if (
        len(lead.split()) <= 2
        and not _VERB_AFTER.match(text[end:])
        and not _LEAD_VERB.search(lead)
        and not (seg.bullet and seg.section != "diagnosis")
    ):
        if HEDGE_DX_DOWNGRADE_RX.search(text[end:]):
            return "probable"  # "X until proven otherwise."
        return "definitive"  # stated flatly ("Pulmonary embolism on CTPA.", "Still DILI.", "No change - X.")
    if (
        _QUALIFIER_LEAD.fullmatch(lead.strip() + " ")
        and re.fullmatch(r"[\s.!]*", text[end:])
        and not (seg.bullet and seg.section != "diagnosis")
    ):
        return "definitive"  # a verbless one-line call, the name with its qualifiers ("Ruptured L tubal ectopic.")
    return "possible"


def reply_diagnoses(
    reply: str, segments: list[Segment], know: CaseKnowledge, turn: int, semantic: bool = True
) -> WorkingDiagnosis:
    """Diagnosis mentions of one reply and its leading diagnosis."""
    mentions: list[tuple[int, DiagnosisMention]] = []
    boosted: set[int] = set()  # ids of mentions with an explicit "leading/working diagnosis" cue
    fact_spans = []
    for seg in segments:
        text = seg.text
        fspans = [(m.start, m.end) for m in fact_mentions(know, text)]
        fact_spans.append(fspans)
        final_line = has_final_diagnosis(text) or (
            seg.section == "diagnosis" and seg.heading is not None and "final" in seg.heading.lower()
        )
        seg_mentions: list[DiagnosisMention] = []
        seen_final = False
        dx_hits = find_diagnoses(know, text)
        n_dx = len({h[0] for _s, _e, hits in dx_hits for h in hits})
        for s, e, hits in dx_hits:
            if any(fs <= s and e <= fe and (fe - fs) > (e - s) for fs, fe in fspans):
                continue  # part of a longer fact name ("viral hepatitis serology")
            possessive = _POSSESSIVE_HISTORY.search(text[max(0, s - 20) : s]) and all(
                h[0] != know.gold for h in hits
            )
            if (_HISTORY_BEFORE.search(text[max(0, s - 40) : s]) or possessive) and not re.match(
                r"(?:undiagnosed|unrecognised|unrecognized|new)\b", text[s:e], re.I
            ):
                continue  # a claim about the past history, handled as a factual claim
            if _RELATIVE_CONDITION_BEFORE.search(text[max(0, s - 50) : s]):
                continue  # round 58: a relative's condition ("Grandmother w/ pulm TB") is family history
            if _REPORTED_BEFORE.search(text[max(0, s - 60) : s]):
                continue  # what a letter or report says, not the agent's own hypothesis
            if _TEST_AFTER.match(text[e : e + 20]):
                continue  # a test named after the disease ("viral hepatitis screen")
            if _NOT_A_STANCE_BEFORE.search(text[max(0, s - 50) : s]):
                continue  # "an IUD does not protect against ectopic implantation": risk talk, not a stance
            others = [(s2, e2) for s2, e2, _h in dx_hits if (s2, e2) != (s, e)]
            for name, _kind in hits:
                is_final = final_line and not seen_final
                stance = _stance(text, s, e, seg, is_final, n_dx, others)
                if is_final and stance != "excluded":
                    seen_final = True
                if stance == "definitive" and not is_final and HEDGE_DX_DOWNGRADE_RX.search(text[s:e]):
                    stance = "probable"  # "Hyperkalaemia, probably drug-induced", "(most likely duodenal)"
                if stance == "definitive" and not is_final and (
                    _COEXISTING_BEFORE.search(text[max(0, s - 40) : s]) or _COEXISTING_AFTER.match(text[e : e + 15])
                ):
                    stance = "probable"  # round 59: "a concurrent acute pancreatitis" beside the main diagnosis
                main = stance in ("possible", "probable") and not is_final and (
                    _MAIN_PROBLEM_BEFORE.search(text[max(0, s - 60) : s]) or _MAIN_PROBLEM_AFTER.match(text[e : e + 50])
                )
                if main:
                    stance = "probable"  # round 59: boosted below, as an explicit lead cue
                other = _other_cause(text, s, e, name, know) if stance != "excluded" else None
                if other is not None and _cause_is_case_dx(other, know):
                    continue  # "central adrenal insufficiency from hypophysitis": the named cause is what is held
                at = text.find(other, max(0, s - len(other))) if other is not None else -1
                if at >= 0 and _reported_by_test(know, text[:at]):
                    continue  # round 133: "PET: RUL nodule SUVmax 4.8": a scan's finding under its label, not a diagnosis
                m = DiagnosisMention(
                    name=other or name,
                    role="other" if other else _role(know, name),  # type: ignore[arg-type]
                    stance=stance,  # type: ignore[arg-type]
                    span=Span(turn=turn, text=text[s:e], start=seg.start + s, end=seg.start + e),
                )
                cue_after = _LEAD_CUE.search(text[e : e + 50])
                if cue_after and _PREMODIFYING_CUE.fullmatch(cue_after.group(0)) and any(
                    s2 >= e + cue_after.end() and _PREMODIFIER_GAP.fullmatch(text[e + cue_after.end() : s2])
                    for s2, _e2 in others
                ):
                    cue_after = None  # round 130: the cue opens the next name's phrase
                if stance == "probable" and (
                    main or _LEAD_CUE.search(text[max(0, s - 60) : s]) or cue_after
                ) or stance != "excluded" and _ARROW_STILL_BEFORE.search(text[max(0, s - 60) : s]):
                    boosted.add(id(m))
                seg_mentions.append(m)
                mentions.append((seg.start + s + (0 if not is_final else -100000), m))
        if not seg_mentions:
            other = _other_diagnosis(text, seg, know, turn, final_line, semantic)
            if other is not None:
                mentions.append((seg.start + (0 if not final_line else -100000), other))
                seg_mentions.append(other)
            elif mentions and _ANAPHORA_EXCLUDED.search(text):
                prev = mentions[-1][1]
                mentions.append(
                    (
                        seg.start,
                        DiagnosisMention(
                            name=prev.name,
                            role=prev.role,
                            stance="excluded",
                            span=Span(turn=turn, text=text, start=seg.start, end=seg.end),
                        ),
                    )
                )
    named = {m.name for _, m in mentions if m.stance != "excluded"}
    for pos, m in _syndrome_cause_mentions(segments, fact_spans, know, turn):
        if m.name not in named:
            mentions.append((pos, m))
            named.add(m.name)
    return _leading(turn, [m for _, m in sorted(mentions, key=lambda x: x[0])], reply, boosted)


_AETIOLOGY_CUE = re.compile(
    r"\b(?:cause[sd]?|aetiolog\w*|etiolog\w*|secondary\s+to|due\s+to|induced|related|origin|driven|source)\b", re.I
)
_CAUSE_BEFORE = re.compile(
    r"\b(?:cause|aetiology|etiology)\b[^,;.]{0,30}$|\b(?:due|secondary)\s+to\s+(?:\w+\s+)?$", re.I
)
_GENERIC_DX_WORDS = {"acute", "chronic", "left", "right", "bilateral", "severe", "mild", "induced", "related", "due",
                     "secondary", "associated", "primary", "with", "from", "type", "the", "and", "disease"}


def _syndrome_cause_mentions(
    segments: list[Segment], fact_spans: list[list[tuple[int, int]]], know: CaseKnowledge, turn: int
) -> list[tuple[int, DiagnosisMention]]:
    """Diagnoses that differ only by their cause ("gallstone" vs "alcohol-induced" pancreatitis)
    named in two parts: the shared syndrome word somewhere in the reply, and a cause word of one
    of them in an aetiology context ("acute pancreatitis, most likely biliary", "I favour a
    gallstone aetiology"). The stance is read at the cause word."""
    dxs = list(know.diagnoses.values())
    heads: dict[str, list[str]] = {}
    for d in dxs:
        w = re.findall(r"[a-z]+", d.name.lower())
        if w:
            heads.setdefault(w[-1], []).append(d.name)
    shared = {h: names for h, names in heads.items() if len(names) > 1 and len(h) >= 6}
    if not shared:
        return []
    reply_text = " ".join(seg.text for seg in segments).lower()
    out: list[tuple[int, DiagnosisMention]] = []
    for head, names in shared.items():
        if not re.search(rf"\b{re.escape(head)}\b", reply_text):
            continue
        words: dict[str, set[str]] = {}
        for d in dxs:
            for n in d.all_names:
                for w in re.findall(r"[a-z]+", n.lower()):
                    if len(w) >= 5 and w not in _GENERIC_DX_WORDS and w != head:
                        words.setdefault(w[:6], set()).add(d.name)
        cause = {stem: next(iter(owners)) for stem, owners in words.items() if len(owners) == 1 and next(
            iter(owners)) in names}
        if not cause:
            continue
        rx = re.compile(r"\b(" + "|".join(re.escape(c) for c in cause) + r")[a-z]*", re.I)
        for seg, fspans in zip(segments, fact_spans, strict=True):
            text = seg.text
            in_context = re.search(rf"\b{re.escape(head)}\b", text, re.I) or _AETIOLOGY_CUE.search(text)
            if not in_context:
                continue
            dx_hit_spans = [(a, b) for a, b, _h in find_diagnoses(know, text)]
            for m in rx.finditer(text):
                if any(a <= m.start() < b for a, b in dx_hit_spans) or _NOT_A_STANCE_BEFORE.search(
                    text[max(0, m.start() - 50) : m.start()]
                ):
                    continue  # a full diagnosis name, read (or skipped) by the main rule
                if any(fs <= m.start() and m.end() <= fe for fs, fe in fspans) and not _CAUSE_BEFORE.search(
                    text[: m.start()]
                ):
                    continue  # part of a fact name ("gallstones on ultrasound"), unless named as the cause
                name = cause[m.group(1).lower()[:6]]
                stance = _stance(text, m.start(), m.end(), seg, False)
                if stance in ("definitive",) and HEDGE_DX_DOWNGRADE_RX.search(text):
                    stance = "probable"
                out.append((seg.start + m.start(), DiagnosisMention(
                    name=name, role=_role(know, name), stance=stance,  # type: ignore[arg-type]
                    span=Span(turn=turn, text=m.group(0), start=seg.start + m.start(), end=seg.start + m.end()),
                )))
                break
    return out


def _other_diagnosis(
    text: str, seg: Segment, know: CaseKnowledge, turn: int, final_line: bool, semantic: bool
) -> DiagnosisMention | None:
    for rx in _OTHER_DX_PATTERNS:
        m = rx.search(text)
        if m:
            raw = m.group("dx").strip()
            start = seg.start + m.start("dx")
            break
    else:
        for rx in _OTHER_DX_GUARDED:
            m = rx.search(text)
            if m and _NEGATED_BELIEF_BEFORE.search(text[: m.start()]):
                continue  # round 134: "I am not yet convinced this is a lupus flare": the name is doubted, not called
            if m and _DENIED_CALL.match(m.group("dx").strip()):
                continue  # round 137: "which confirms this is not a lupus flare": the name is denied, not called
            if m:
                raw = re.sub(r"^(?:an?|the)\s+", "", m.group("dx").strip(), flags=re.I)
                name = _DX_TRIM.sub("", raw).strip(" ,:-")
                if _shared_head(name, know):
                    # "an encephalitis" when two case diagnoses end in it: the cause decides, so only the whole
                    # phrase with its cause can name one ("pancreatitis from a stone in the duct")
                    matched = _semantic_dx(raw, know) if semantic and raw != name else None
                    if matched is None:
                        continue
                    name = raw  # matched already: the whole phrase is not embedded twice
                else:
                    matched = _semantic_dx(name, know) if semantic and len(name) >= 3 else None
                    if matched is None and semantic and raw != name and len(raw.split()) <= 14:
                        # the trimmed head ("breakthrough sz") can miss what the whole phrase names
                        # ("breakthrough sz from estrogen-induced LTG drop")
                        matched = _semantic_dx(raw, know)
                matched = matched or _same_head_dx(name, know)
                if matched is None and _cause_is_case_dx(raw, know):
                    continue
                if matched is None and (not _DX_SHAPED.search(name) or m.re is _VIEW_COLON):
                    continue  # after "my view:" only a case diagnosis by meaning (the colon may open a reason)
                hedge = HEDGE_DX_DOWNGRADE_RX.search(text) or HEDGE_RX.search(text) or POSSIBLE_DX_RX.search(
                    text[m.start() : m.end()]
                )
                start = seg.start + m.start("dx")
                return DiagnosisMention(
                    name=matched or name,
                    role=_role(know, matched) if matched else "other",  # type: ignore[arg-type]
                    stance="probable" if hedge or m.re not in (_OTHER_DX_GUARDED[0], _STILL_DX) else "definitive",
                    span=Span(turn=turn, text=raw, start=start, end=start + len(raw)),
                )
        if seg.section == "diagnosis" and seg.line_start and (seg.heading or seg.extra.get("first_under_block")):
            # "Assessment: X", or the first line under a label alone on its line ("## Assessment" over "**X.**")
            raw = text.strip()
            start = seg.start
        else:
            return None
    name = _DX_TRIM.sub("", raw).strip(" ,:-")
    if len(name) < 3 or _NOT_A_DX_NAME.match(name) or _CASE_SUMMARY.match(name):
        return None
    matched = _semantic_dx(name, know, final_line) if semantic else None
    full = raw.strip(" .,:;-*_")
    if matched is None and semantic and full != name and len(full.split()) <= 14:
        # the trimmed head ("breakthrough seizures") can miss a case diagnosis that the whole phrase
        # names ("breakthrough seizures from the combined pill lowering her lamotrigine")
        matched = _semantic_dx(full, know, final_line)
    if matched is None and not seg.heading and not (
        len(full.split()) <= 8 and _DX_SHAPED.search(" ".join(full.split()[-2:]))
    ):
        return None  # a prose sentence under a label alone on its line is not a name unless it means one
    if matched is None and len(full.split()) > 12:
        return None  # "Impression: Total cholesterol 8.6 with normal triglycerides, ...": a summary, not a name
    if matched is None and _MEASURED.search(" ".join(full.split()[:4])):
        return None  # round 137: "Assessment: CSF protein 1.4 g/L with 2 WBC/µL": a result opens it, not a name
    if matched is None and _cause_is_case_dx(raw, know):
        return None
    stance = "definitive" if final_line else "probable"
    if (
        stance == "probable"
        and (_BARE_DX_LABEL.match(text) or _FLAT_LABEL_HEADING.fullmatch(seg.heading or "") or _flat_impression(seg, text, 0))
        and not (HEDGE_DX_DOWNGRADE_RX.search(text) or POSSIBLE_DX_RX.search(raw) or PROBABLE_DX_RX.search(text))
    ):
        # "Diagnosis: X." or "A/P: Intracranial SOL." stated flatly, also of a name the case does not hold
        stance = "definitive"
    return DiagnosisMention(
        name=matched or name,
        role=_role(know, matched) if matched else "other",  # type: ignore[arg-type]
        stance=stance,  # type: ignore[arg-type]
        span=Span(turn=turn, text=raw, start=start, end=start + len(raw)),
    )


_CAUSE_LINK = re.compile(r"\b(?:from|due\s+to|secondary\s+to|caused\s+by|because\s+of)\s+", re.I)


def _cause_is_case_dx(phrase: str, know: CaseKnowledge) -> bool:
    """Whether a name the case does not hold is given a case diagnosis as its cause ("central adrenal
    insufficiency from hypophysitis"): the case diagnosis, read where it is named, is what is held."""
    m = _CAUSE_LINK.search(phrase)
    return m is not None and any(a >= m.end() for a, _b, _h in find_diagnoses(know, phrase))


def _head_key(word: str) -> str:
    w = word.lower()
    return re.sub(r"(?:es|is|s)$", "", w) if len(w) > 5 else w


def _same_head_dx(name: str, know: CaseKnowledge) -> str | None:
    """The one case diagnosis whose canonical name ends in the same head noun ("a sellar metastasis"
    for "melanoma brain metastases"): a site or subtype variant of it. None when several share it."""
    words = re.findall(r"[A-Za-z][A-Za-z\-]+", name)
    if not words or len(words[-1]) < 5:
        return None
    head = _head_key(words[-1])
    owners = [d for d in know.diagnoses if _head_key(re.findall(r"[A-Za-z][A-Za-z\-]+", d)[-1]) == head]
    return owners[0] if len(owners) == 1 else None


def _shared_head(name: str, know: CaseKnowledge) -> bool:
    """The phrase ends in the head noun of two or more case diagnoses."""
    words = re.findall(r"[A-Za-z][A-Za-z\-]+", name)
    if not words:
        return False
    head = _head_key(words[-1])
    return sum(1 for d in know.diagnoses if _head_key(re.findall(r"[A-Za-z][A-Za-z\-]+", d)[-1]) == head) >= 2


# "Adrenal insufficiency from abrupt steroid withdrawal": a head-noun hit whose stated cause is not
# the cause in that diagnosis' names is another diagnosis (the same syndrome from another cause)
_CAUSE_TAIL = re.compile(
    r"^\s+(?:from|due\s+to|secondary\s+to|caused\s+by|induced\s+by|after|following|related\s+to)\s+"
    r"(?P<cause>[^.;,\n()]{3,60})",
    re.I,
)
_CAUSE_STOP = {"abrupt", "sudden", "recent", "acute", "chronic", "severe", "long", "term", "high", "dose", "with",
               "from", "after", "their", "his", "her", "the", "and", "of", "possible", "probable", "likely"}


_GENERIC_QUALIFIERS = {
    "acute", "chronic", "subacute", "severe", "mild", "moderate", "new", "recent", "major", "minor", "small",
    "large", "massive", "early", "late", "evolving", "ongoing", "probable", "possible", "likely", "suspected",
    "presumed", "definite", "confirmed", "left", "right", "bilateral", "unilateral", "true", "real", "clinical",
    "significant", "recurrent", "first", "second", "complete", "partial", "frank", "overt", "active", "classic",
    "typical", "atypical", "florid", "established", "impending", "full", "full-blown", "this", "that", "with",
    # sentence adverbs before a bare name ("Still torsion:", "Clearly pneumothorax")
    "still", "now", "again", "definitely", "clearly", "certainly", "probably", "most", "very",
    # extent and proof words that grade a tumour or lesion without making it another disease
    "invasive", "biopsy-proven", "proven", "histologically", "localised", "localized", "resectable", "incidental",
}
# TNM and stage words ("T2a N0 M0 adenocarcinoma", "stage IB adenocarcinoma"): a stage, not another disease;
# round 77: a molecular marker or a smoking history ("EGFR-mutant adenocarcinoma", "never-smoker adenocarcinoma")
# describes the tumour without making it another disease
_STAGING_WORD = re.compile(
    r"^(?:[tn][0-4x][a-d]?|m0|mx|stage|grade|g[1-4]|i{1,3}[a-c]?|iv[a-c]?|"  # not "M1" (a segment)
    r"[a-z0-9]+-(?:mutant|mutated|rearranged|positive|negative)|never-smokers?|non-smokers?|smokers?)$"
)


_FUNCTION_WORDS = {
    "is", "are", "was", "were", "be", "been", "of", "in", "on", "at", "with", "from", "for", "to", "the", "a", "an",
    "and", "or", "as", "by", "that", "this", "his", "her", "their", "its", "so", "not", "no", "than", "then",
    "which", "who", "sign", "shows", "showed", "means", "suggests", "into", "about",
    # a verb ends the noun phrase too: "a sterile culture fits gout" qualifies nothing
    "fits", "fit", "confirms", "supports", "favours", "favors", "explains", "points", "indicates", "suggest",
    "makes", "like", "excludes", "argues",
    # round 77: "this remains stage IA adenocarcinoma", "it stays X", "now looks like"
    "remains", "remain", "stays", "stay", "becomes", "looks", "seems",
}


# round 133: "A/P: Traumatic R PTX 2/2 R 5th rib fx" where the case holds a primary spontaneous pneumothorax: a
# qualifier that contradicts a word of the diagnosis' own name makes it another diagnosis of the same noun
_ANTONYM_QUALIFIER = {"traumatic": "spontaneous", "iatrogenic": "spontaneous", "provoked": "unprovoked"}
_ANTONYM_BEFORE = re.compile(
    rf"\b(?P<q>{'|'.join(_ANTONYM_QUALIFIER)})\s+(?:(?:R|L|right|left|small|large|tension|[rl]-sided|"
    r"(?:right|left)-sided)\s+){0,2}$",
    re.I,
)


_TEST_LABEL_BEFORE = re.compile(r"(?:^|[\n.;]\s*|\s)(?P<label>[A-Za-z][\w\-/ ]{0,20}?)\s*:\s*$")


def _reported_by_test(know: CaseKnowledge, before: str) -> bool:
    """Whether ``before`` ends in the label of a case investigation ("PET:", "CT chest:"): what follows is its report."""
    m = _TEST_LABEL_BEFORE.search(before)
    if m is None:
        return False
    label = m.group("label").strip()
    return any(
        know.fact(h.item_id).category in (FactCategory.imaging, FactCategory.lab)
        for h in fact_mentions(know, label, ("fact",))
        if h.start == 0 and h.end == len(label)
    )


def _other_cause(text: str, s: int, e: int, name: str, know: CaseKnowledge) -> str | None:
    """The full phrase when a head-noun-only hit is qualified in a way foreign to the matched
    diagnosis: a stated cause ("adrenal insufficiency from steroid withdrawal") or a subtype/site word
    before it ("a right hemispheric stroke" when the case lists a posterior circulation stroke).
    None when the hit is a full name, or every qualifier occurs in the diagnosis' names."""
    dx = know.diagnoses.get(name)
    if dx is None:
        return None
    anti = _ANTONYM_BEFORE.search(text[max(0, s - 40) : s])
    if anti and _ANTONYM_QUALIFIER[anti.group("q").lower()] in dx.name.lower().split():
        return text[max(0, s - 40) + anti.start() : e].strip()
    hit = text[s:e].strip()
    head = re.findall(r"[A-Za-z][\w\-]*", dx.name)[-1:]
    if re.search(r"[\s\-']", hit) or not head or Lexicon.key(hit).rstrip("s") != Lexicon.key(head[0]).rstrip("s"):
        return None  # a full name, alias or variant: only the bare head noun of the name is re-read
    if Lexicon.key(hit) in {Lexicon.key(n) for n in dx.all_names}:
        return None  # the head noun is itself a listed alias
    names = " ".join(dx.all_names).lower()
    left = re.search(r"(?:[A-Za-z][\w\-]*\s+){0,3}$", text[:s])
    start = left.start() if left else s
    quals = [w.lower() for w in re.findall(r"[A-Za-z0-9][\w\-]*", text[start:s])]
    # only the words of the noun phrase the head closes: after the last function word
    cut = max((i + 1 for i, w in enumerate(quals) if w in _FUNCTION_WORDS), default=0)
    quals = quals[cut:]
    start_q = s - len(" ".join(quals)) - 1 if quals else s
    content = [w for w in quals if w not in _GENERIC_QUALIFIERS and not _STAGING_WORD.match(w)]
    foreign_q = [w for w in content if w[:5] not in names]
    m = _CAUSE_TAIL.match(text[e:])
    words = [w.lower() for w in re.findall(r"[A-Za-z][A-Za-z\-]{3,}", m.group("cause"))] if m else []
    words = [w for w in words if w not in _CAUSE_STOP]
    foreign_c = bool(words) and not any(w[:5] in names for w in words)
    if foreign_c:
        return text[start : e + m.end()].strip()  # type: ignore[union-attr]
    if foreign_q and len(foreign_q) == len(content):
        return text[max(start, start_q) : e].strip()  # every content qualifier is foreign to the name
    return None


@functools.lru_cache(maxsize=1)
def _dx_abbreviations() -> re.Pattern[str] | None:
    words = [str(w) for w in (lexicon_data().get("dx_abbreviations") or {})]
    return re.compile(r"(?<![\w-])(?:" + "|".join(map(re.escape, sorted(words, key=len, reverse=True))) + r")(?![\w-])") if words else None


def expand_dx_abbreviations(phrase: str) -> str:
    """"chronic Li toxicity" -> "chronic lithium toxicity" (lexicon ``dx_abbreviations``, case-sensitive)."""
    rx = _dx_abbreviations()
    if rx is None:
        return phrase
    table = lexicon_data()["dx_abbreviations"]
    return rx.sub(lambda m: str(table[m.group(0)]), phrase)


def _semantic_dx(name: str, know: CaseKnowledge, named_line: bool = False) -> str | None:
    from medgym.text.embeddings import embed

    # a trailing aside ("(ACEi + NSAID cutting renal clearance)") is the reasoning, not the name
    name = expand_dx_abbreviations(re.sub(r"\s*\([^)]*\)?\W*$", "", name) or name)
    labels = know.dx_names
    vecs = embed([n for _, n in labels])
    q = embed([name])[0]
    sims = vecs @ q
    j = int(np.argmax(sims))
    if sims[j] >= SEMANTIC_DX_THRESHOLD:
        return labels[j][0]
    # round 58: a long phrase on a "Final diagnosis" line ("Breakthrough generalised seizures in juvenile
    # myoclonic epilepsy due to ethinylestradiol-induced reduction in lamotrigine levels") scores lower against
    # every name; it still names the one case diagnosis it is clearly closest to. Elsewhere the looser reading
    # matched "haemolysed" to pseudohyperkalaemia and case summaries ("Young, tall, thin smoker ...") to the gold
    if named_line and sims[j] >= SEMANTIC_DX_NEAR:
        runner_up = max((float(x) for (d, _n), x in zip(labels, sims, strict=True) if d != labels[j][0]), default=0.0)
        if sims[j] - runner_up >= SEMANTIC_DX_MARGIN:
            return labels[j][0]
    return _contained_dx(name, labels)


_DX_STOP = {"a", "an", "the", "of", "with", "and", "from", "to", "in", "on", "due", "secondary", "acute", "probable"}


def _contained_dx(name: str, labels: list[tuple[str, str]]) -> str | None:
    """A name of two or more content words, every one of them inside a single case diagnosis's name:
    "infected obstructing calculus" names "infected obstructing ureteral calculus", which MiniLM scores just
    under the threshold. None when the words fit two diagnoses."""
    words = [w for w in re.findall(r"[a-z][a-z-]+", name.lower()) if w not in _DX_STOP]
    if len(words) < 2:
        return None
    found = {d for d, n in labels if set(words) <= set(re.findall(r"[a-z][a-z-]+", n.lower()))}
    return next(iter(found)) if len(found) == 1 else None


def _leading(turn: int, mentions: list[DiagnosisMention], reply: str, boosted: set[int]) -> WorkingDiagnosis:
    # a later explicit exclusion of the same diagnosis in the reply overrides earlier support
    # round 58: "this fits euDKA rather than classic DKA", "chronic lithium toxicity remains my working
    # diagnosis ... not a feature of lithium toxicity": a shorter form of a name the reply holds, excluded,
    # is another entity (or a general statement), not a withdrawal of the name
    held_forms = {(m.name, m.span.text.lower()) for m in mentions if m.stance != "excluded"}
    narrower = {
        id(m) for m in mentions
        if m.stance == "excluded" and any(
            n == m.name and m.span.text.lower() in t and m.span.text.lower() != t for n, t in held_forms
        )
    }
    final_excluded = {m.name for m in mentions if m.stance == "excluded" and id(m) not in narrower}
    supported_after: dict[str, int] = {}
    for i, m in enumerate(mentions):
        if m.stance != "excluded":
            supported_after[m.name] = i
    last_excl: dict[str, int] = {}
    for i, m in enumerate(mentions):
        if m.stance == "excluded" and id(m) not in narrower:
            last_excl[m.name] = i
    live = [
        m
        for m in mentions
        if m.stance != "excluded"
        and not (m.name in final_excluded and last_excl.get(m.name, -1) > supported_after.get(m.name, -1)
                 and m.stance != "definitive")
    ]
    if not live:
        return WorkingDiagnosis(
            turn=turn,
            mentions=mentions,
            rule="no diagnosis held (none named, or every one named is excluded)",
        )
    labelled = not has_final_diagnosis(reply) and any(id(m) in boosted and m.role != "other" for m in live)

    def rank(m: DiagnosisMention) -> float:
        # an explicit "my working diagnosis is X" (a case diagnosis) outranks a flat mention of a name the
        # case does not hold ("the biopsy confirms invasive adenocarcinoma"), unless that is the final line
        demote = 1.5 if labelled and m.role == "other" and id(m) not in boosted else 0.0
        return _RANK[m.stance] + (0.5 if id(m) in boosted else 0.0) - demote

    best = max(rank(m) for m in live)
    lead = next(m for m in live if rank(m) == best)
    why = (
        "named on the 'Final diagnosis' line"
        if best >= 3 and has_final_diagnosis(reply)
        else f"first-ranked {lead.stance} diagnosis"
    )
    return WorkingDiagnosis(
        turn=turn,
        leading=lead.name,
        role=lead.role,
        certainty=lead.stance,  # type: ignore[arg-type]
        mentions=mentions,
        rule=f"{why}: '{lead.span.text}'",
    )


# A reply that says its diagnosis is unchanged without naming it holds the previous one
# ("No change to the diagnosis.", "Diagnosis unchanged.", "so the diagnosis stands").
_UNCHANGED_DX = re.compile(
    # round 61: "No change to Dx or plan." (no determiner, the abbreviation)
    r"\bno\s+change\s+(?:to|in|of)\s+(?:(?:the|my|our)\s+)?(?:working\s+|overall\s+)?(?:diagnosis|impression|assessment|dx)\b|"
    r"\b(?:the|my|our)\s+(?:working\s+|overall\s+)?(?:diagnosis|impression)\s+(?:still\s+)?(?:is\s+|remains\s+)?"
    r"(?:unchanged|stands|holds|the\s+same|as\s+before)\b|"
    # round 63: "Assessment unchanged.", "Impression unchanged", "Dx unchanged" (a note's heading word)
    r"\b(?:working\s+)?(?:diagnosis|assessment|impression|dx)\s+(?:is\s+|remains\s+)?unchanged\b|"
    r"\b(?:doesn't|does\s+not|won't|will\s+not|wouldn't|would\s+not)\s+change\s+(?:the|my|our)\s+"
    r"(?:working\s+|overall\s+)?(?:diagnosis|impression)\b|"
    r"\b(?:I\s+)?stand\s+by\s+(?:the|my)\s+(?:working\s+)?diagnosis\b|\bsame\s+(?:working\s+)?diagnosis\b|"
    r"\b(?:stick(?:ing)?|stay(?:ing)?|keep(?:ing)?|remain(?:ing)?)\s+(?:with\s+)?(?:my|the)\s+(?:original|initial|previous|"
    r"earlier|current|working)\s+(?:working\s+)?diagnosis\b|"
    r"\b(?:original|initial|previous|earlier)\s+(?:working\s+)?diagnosis\s+(?:stands|holds|is\s+unchanged)\b|"
    # "The urate confirms it.", "which clinches the diagnosis": a result said to confirm the diagnosis
    # already held, without naming it
    r"\b(?:confirms|clinches|secures|seals|nails)\s+(?:it|this|that|the\s+(?:working\s+)?diagnosis)\b|"
    # "A right ovarian teratoma fits perfectly": a result said to fit what is already held
    r"\bfits\s+(?:perfectly|well|nicely|neatly|completely|entirely)\b|"
    r"\bfits\s+(?:with\s+)?(?:the|my|our|this)\s+(?:working\s+)?(?:diagnosis|picture)\b|"
    # "Still most likely the pill interaction.", "the night shifts remain the main trigger", "circumflex is the
    # culprit until proven otherwise": a reply that names no diagnosis but says it keeps the one it had
    r"^\W*still\s+(?:most\s+likely|likely|favou?r|think|my\s+(?:leading|working))\b|"
    r"\bremains?\s+the\s+(?:main|likeliest|most\s+likely|leading)\s+(?:trigger|cause|driver|explanation|diagnosis)\b|"
    r"\b(?:is|remains)\s+the\s+culprit\b|"
    # round 55: "Dx unchanged, but add stimulant toxicity", "The conclusion is unchanged", "so that remains my
    # working diagnosis" (the name said before, in another sentence or turn)
    r"\b(?:dx|imp|conclusion)\s*(?::\s*|is\s+|remains\s+)?unchanged\b|"
    r"\bremains?\s+(?:my|the|our)\s+(?:working|leading|main)\s+diagnosis\b|"
    # round 60: "My assessment stands.", "My assessment is unchanged.", "I would keep that as the working
    # diagnosis". Not "No change." or "Nothing changes my view.": the labels of sets 22, 23, 36 and 97 read those
    # as no diagnosis and later ones carry it (measured on 210 sets: 10 fixed, 8 lost), an open decision
    r"\b(?:my|our)\s+(?:overall\s+|working\s+|clinical\s+)?assessment\s+(?:still\s+)?(?:is\s+|remains\s+)?"
    r"(?:unchanged|stands|holds|the\s+same)\b|"
    r"\bkeep\s+(?:that|this|it)\s+as\s+(?:the|my|our)\s+(?:working|leading)\s+diagnosis\b|"
    # round 65: the diagnosis as the subject of a change denied ("The diagnosis does not change.", "My diagnosis
    # doesn't change.") or as the object of one ("it does not alter the diagnosis", "It does not change the main
    # diagnosis"). Not "my view": "My view is unchanged." alone is labelled both ways (sets 23, 180, 224)
    r"\b(?:the|my|our)\s+(?:working\s+|main\s+|overall\s+|leading\s+)?(?:diagnosis|impression|assessment)\s+"
    r"(?:does\s+not|doesn't|did\s+not|didn't|has\s+not|hasn't|will\s+not|won't)\s+change\b|"
    r"\b(?:does\s+not|doesn't|do\s+not|don't|won't|will\s+not|wouldn't|would\s+not)\s+(?:change|alter)\s+"
    r"(?:the|my|our)\s+(?:main|underlying|leading|working|overall)?\s*(?:diagnosis|impression)\b|"
    # round 65: a result named as what sets off, completes or confirms the diagnosis already held ("a mature
    # cystic teratoma, which is the likely trigger", "That is the trigger.", "completes the picture", "antibody
    # positive - diagnosis confirmed", "AAT 0.3 and PiZZ make the diagnosis"; not "I cannot make the diagnosis
    # without the OGTT")
    r"\b(?:is|as)\s+the\s+(?:likely\s+|probable\s+|tumou?r\s+|underlying\s+)?trigger\b|"
    r"\bcompletes\s+the\s+picture\b|\bdiagnosis\s+(?:is\s+|now\s+)?confirmed\b|"
    r"(?<!\bnot\s)(?<!cannot\s)(?<!can't\s)(?<!unable\sto\s)\bmakes?\s+the\s+diagnosis\b(?!\s+without)|"
    # round 65: a reply that says it keeps what it favoured, mid-reply as well as at its start ("MRI: ... Still
    # favor a variceal source", "I still think most of this is artifact", "Still treating as septic pending cx",
    # "primary psychosis remains the dx", "A stone remains most likely", "still points to a compressive lesion")
    r"\bstill\s+(?:favou?r|favou?ring|think|suspect|treat(?:ing)?\s+(?:this\s+|it\s+|him\s+|her\s+)?as)\b|"
    r"\bremains?\s+(?:the\s+)?(?:dx|diagnosis|source|cause|most\s+likely|likeliest|primary)\b|"
    r"\bstill\s+(?:the\s+)?most\s+likely\b|\bstill\s+(?:fits?|points?)\b|"
    # round 72: "The diagnosis stays breakthrough seizures from falling lamotrigine levels": the name after "stays"
    # in words of the reply's own, which name no case diagnosis, is the one held
    r"\b(?:the|my|our)\s+(?:working\s+)?(?:diagnosis|impression|dx)\s+stays\b",
    re.I,
)


def carry_unchanged(wds: dict[int, WorkingDiagnosis], replies: dict[int, str]) -> None:
    """Give a reply that keeps its diagnosis "unchanged" without naming it the previous leader.

    Done in place and idempotent (the rule text marks a carried diagnosis). The certainty is the
    earlier one, at most probable: repeating "unchanged" is not a new definitive commitment."""
    prev: WorkingDiagnosis | None = None
    for t in sorted(wds):
        wd = wds[t]
        if wd.leading is None and prev is not None and _UNCHANGED_DX.search(replies.get(t, "")):
            excluded = {m.name for m in wd.mentions if m.stance == "excluded"}
            if prev.leading not in excluded:
                cert = prev.certainty if prev.certainty in ("possible", "probable") else "probable"
                wd = WorkingDiagnosis(
                    turn=t,
                    leading=prev.leading,
                    role=prev.role,
                    certainty=cert,  # type: ignore[arg-type]
                    mentions=wd.mentions,
                    rule=f"carried: the reply keeps its diagnosis unchanged ({prev.leading}, from turn {prev.turn})",
                )
                wds[t] = wd
        if wd.leading is not None:
            prev = wd
