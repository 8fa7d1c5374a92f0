"""What the reference judge knows about one trajectory before reading the agent.

:class:`CaseKnowledge` is built once per case and cached (the matcher, the diagnosis
lexicon, per-fact numbers); :class:`TrajectoryContext` adds, for every turn t, the
released facts R_t, the injected contradictions so far, and the context the agent
had actually read (user turns 1..t with reference ranges removed, because
reference ranges are not patient data).
"""

from __future__ import annotations

import functools
import re
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from medgym.envs.trajectory import Trajectory
from medgym.errors import DataValidationError
from medgym.judges.textrules import (
    AFEBRILE_WORDS,
    NUMBER_WORD_RX,
    NUMBER_WORDS,
    RELATIVE_RX,
    RELATIVES,
    SYMPTOM_FREE_WORDS,
)
from medgym.knowledge_base.case_schema import Case, ContradictionTemplate, Diagnosis, Fact, FactCategory
from medgym.text.fact_matcher import FactMatcher, Lexicon, matcher_for
from medgym.text.numbers import convert, find_quantities, normalize_unit

LEXICON_PATH = Path(__file__).resolve().parent / "lexicon.yaml"

_REF_PAREN = re.compile(
    r"\((?=[^();]*\b(?:reference|ref|normal|range|centile|ULN|upper\s+limit|lower\s+limit|target|below|above)\b)"
    r"[^();]*\)",
    re.I,
)
_REF_INLINE = re.compile(
    r"\b(?:reference|normal\s+range|ref\.?|upper\s+limit\s+of\s+normal|99th\s+centile)\s*(?:range\s*)?"
    r"(?:below|above|<|>|under|over)?\s*[\d.]+(?:\s*(?:-|–|to)\s*[\d.]+)?",
    re.I,
)


def strip_reference_ranges(text: str) -> str:
    """Blank out reference ranges ("(reference 3–21)"), keeping offsets."""

    def blank(m: re.Match[str]) -> str:
        return " " * len(m.group(0))

    return _REF_INLINE.sub(blank, _REF_PAREN.sub(blank, text))


def numbers_in(text: str) -> list[float]:
    """Every number stated in ``text`` (digits and number words), reference ranges excluded."""
    clean = strip_reference_ranges(text)
    qs = find_quantities(clean)
    vals = [q.value for q in qs]
    vals += [q.upper for q in qs if q.upper is not None]
    vals += [float(NUMBER_WORDS[m.group(1).lower()]) for m in NUMBER_WORD_RX.finditer(clean)]
    vals += [v for rx, v in _SPELLED_DURATIONS if rx.search(clean)]
    return vals


# durations written in words: "every quarter of an hour" states 15 (minutes)
_SPELLED_DURATIONS = [
    (re.compile(r"\bquarters?\s+of\s+an\s+hour\b", re.I), 15.0),
    (re.compile(r"\bhalf\s+(?:an\s+)?hour\b", re.I), 30.0),
    (re.compile(r"\bthree\s+quarters\s+of\s+an\s+hour\b", re.I), 45.0),
    (re.compile(r"\bfortnight\b", re.I), 14.0),
    (re.compile(r"\bhalf\s+(?:a\s+)?day\b", re.I), 12.0),
    (re.compile(r"\b(?:a|an|one)\s+(?:day|week|month|year|hour)\b", re.I), 1.0),
    # round 60d: "over the past year" states the 1 of "LUTS x1y"
    (re.compile(r"\b(?:past|last|previous)\s+(?:day|week|month|year|hour)\b", re.I), 1.0),
]


_FIND_CACHE: OrderedDict[tuple[int, str], list] = OrderedDict()
_FIND_CACHE_SIZE = 8192


def lex_find(lex: Lexicon, text: str) -> list:
    """``lex.find(text)`` memoised: the judge asks the same (often long) context text many times."""
    key = (id(lex), text)
    hit = _FIND_CACHE.get(key)
    if hit is not None:
        _FIND_CACHE.move_to_end(key)
        return hit
    hit = lex.find(text)
    _FIND_CACHE[key] = hit
    if len(_FIND_CACHE) > _FIND_CACHE_SIZE:
        _FIND_CACHE.popitem(last=False)
    return hit


@functools.lru_cache(maxsize=1)
def lexicon_data() -> dict[str, Any]:
    """lexicon.yaml, parsed once per process: every rule module reads its own keys from this."""
    data = yaml.safe_load(LEXICON_PATH.read_text(encoding="utf-8")) or {}
    if not isinstance(data, dict):
        raise DataValidationError(str(LEXICON_PATH), ["expected a mapping of vocabulary keys at the top level"])
    return data


@functools.lru_cache(maxsize=1)
def general_lexicon() -> tuple[Lexicon, dict[str, str]]:
    """The general clinical vocabulary (lexicon.yaml): (lexicon, term id -> kind)."""
    data = lexicon_data()
    items = []
    kinds: dict[str, str] = {}
    for kind in ("analytes", "findings"):
        for name, aliases in (data.get(kind) or {}).items():
            tid = f"term:{name}"
            kinds[tid] = "analyte" if kind == "analytes" else "finding"
            items.append((tid, "fact", [name, *(aliases or [])]))
    return Lexicon(items), kinds  # type: ignore[arg-type]


@functools.lru_cache(maxsize=1)
def treatment_terms() -> frozenset[str]:
    """Term ids of the general vocabulary that name a drug or drug class (lexicon ``treatments``)."""
    return frozenset(f"term:{name}" for name in lexicon_data().get("treatments") or ())


def _dx_variants(name: str) -> list[str]:
    out = [name]
    base = re.sub(r"\s*\([^)]*\)", "", name).strip()
    for v in (base, re.sub(r"\s+mellitus$", "", base, flags=re.I), re.sub(r"^(?:acute|chronic)\s+", "", base, flags=re.I)):
        if v and v not in out and len(v) > 2:
            out.append(v)
    # "NSAID-related", "NSAID-associated", "NSAID-induced" name the same causal link
    for v in list(out):
        m = _CAUSAL_LINK.search(v)
        if m:
            for alt in ("associated", "related", "induced"):
                w = v[: m.start(1)] + alt + v[m.end(1) :]
                if w not in out:
                    out.append(w)
    return out


_CAUSAL_LINK = re.compile(r"\w-(associated|related|induced)\b", re.I)


_GENERIC_DX_HEADS = {
    "disease", "syndrome", "infection", "disorder", "failure", "fever", "pregnancy", "injury", "deficiency",
    "reaction", "poisoning", "toxicity", "overdose", "obstruction", "bleeding", "haemorrhage", "hemorrhage",
    "cancer", "carcinoma", "tumour", "tumor", "lesion", "anaemia", "anemia", "attack", "event", "embolism",
}


@dataclass
class CaseKnowledge:
    """Per-case structures shared by every trajectory of the case."""

    case: Case
    matcher: FactMatcher
    dx_lexicon: Lexicon
    diagnoses: dict[str, Diagnosis]
    gold: str
    differential: list[str]
    fact_numbers: dict[str, list[float]]
    templates: dict[str, ContradictionTemplate]
    next_step_acronyms: set[str]
    head_lexicon: Lexicon | None = None
    split_aliases: list = field(default_factory=list)
    #: urine tests of the case: fact id -> the words of their names ("calcium" of "24-hour urine calcium")
    urine_facts: dict[str, set[str]] = field(default_factory=dict)
    #: analytes of the general lexicon that a valued case fact is ("term:tissue transglutaminase IgA" -> "ttg"
    #: when the fact lists "tTG-IgA"): the one valued fact sharing one of the analyte's names
    analyte_facts: dict[str, str] = field(default_factory=dict)
    #: (diagnosis, one of its names) for the gold and every differential: what a phrase is compared with when it
    #: may name a case diagnosis in other words
    dx_names: list[tuple[str, str]] = field(default_factory=list)

    @classmethod
    def build(cls, case: Case) -> CaseKnowledge:
        dxs = [case.gold.diagnosis, *case.gold.differential]
        items = [(d.name, "diagnosis", [v for n in d.all_names for v in _dx_variants(n)]) for d in dxs]
        # the head noun of a canonical name stands for it when no other diagnosis name ends with it
        # ("torsion" for "left testicular torsion"; not "pancreatitis" when both a gallstone and an
        # alcohol-induced pancreatitis are listed: the cause then decides)
        lasts = [
            [] if re.search(r"\b(?:with|and|of|due|secondary)\b", d.name, re.I)
            else re.findall(r"[A-Za-z][A-Za-z\-]*", d.name.lower())[-1:]
            for d in dxs
        ]
        fact_names = {n.lower() for f in case.facts for n in f.all_names}
        names_taken = {v.lower() for _n, _k, vs in items for v in vs}
        for k in range(len(dxs)):
            if not lasts[k]:
                continue
            head = lasts[k][0]
            if (
                len(head) >= 6 and head not in _GENERIC_DX_HEADS and head not in names_taken
                and sum(1 for x in lasts if x and x[0] == head) == 1
                and head not in fact_names
                and not general_lexicon()[0].find(head)
            ):
                items[k][2].append(head)
        acr = set()
        for step in case.gold.next_steps:
            acr.update(w for w in re.findall(r"\b[A-Z][A-Za-z0-9]{1,7}\b", step) if sum(ch.isupper() for ch in w) >= 2)
        return cls(
            case=case,
            head_lexicon=_head_lexicon(case),
            split_aliases=_split_aliases(case),
            urine_facts={
                f.id: _name_words(f) - {"urine", "urinary", "hour"}
                for f in case.facts if any(re.search(r"\burin(?:e|ary)\b", n, re.I) for n in f.all_names)
            },
            matcher=matcher_for(case),
            dx_lexicon=Lexicon(items),  # type: ignore[arg-type]
            diagnoses={d.name: d for d in dxs},
            gold=case.gold.diagnosis.name,
            differential=[d.name for d in case.gold.differential],
            fact_numbers={f.id: numbers_in(f.statement) for f in case.facts},
            templates={t.id: t for t in case.stressors.contradictions},
            next_step_acronyms=acr,
            analyte_facts=_analyte_facts(case),
            dx_names=[(d.name, n) for d in dxs for n in d.all_names],
        )

    def fact(self, fid: str) -> Fact:
        return self.matcher.facts[fid]

    def refuted_by(self, facts: set[str]) -> set[str]:
        """Diagnoses (gold or differential names) argued against by any of ``facts``."""
        return {name for name, d in self.diagnoses.items() if set(d.refuted_by) & facts}


def _analyte_facts(case: Case) -> dict[str, str]:
    """Lexicon analyte -> the one valued case fact that shares one of its names (see ``analyte_facts``)."""
    out: dict[str, str] = {}
    for name, aliases in (lexicon_data().get("analytes") or {}).items():
        names = {n.lower() for n in (name, *(aliases or ()))}
        owners = [f.id for f in case.facts if f.value is not None and names & {n.lower() for n in f.all_names}]
        if len(owners) == 1:
            out[f"term:{name}"] = owners[0]
    return out


_GENERIC_HEADS = {
    "test", "tests", "level", "levels", "count", "history", "examination", "exam", "course", "intake", "rate",
    "pressure", "factors", "score", "status", "result", "results", "finding", "findings", "value", "values",
    "panel", "screen", "sample", "disease", "syndrome", "injury", "pain", "use", "drug", "drugs", "therapy",
    # body parts: the site of a test or finding, not its name ("his chest is clear" is not the CT chest)
    "chest", "abdomen", "head", "brain", "neck", "pelvis", "spine", "heart", "lung", "lungs", "kidney", "kidneys",
    "liver", "skin", "joint", "joints", "legs", "arms", "bowel", "bladder",
    # round 56: "This sounds like a chest wall strain", "Paramedic notes marked rib tenderness" (breath sounds,
    # percussion note)
    "sound", "sounds", "note", "notes",
}


_DENIED = "<denied>"
# stems of "X level" names that are plain words or name the specimen, not the analyte ("blood lead level" is
# kept whole: "lead" and "blood lead" are too loose on their own)
_PLAIN_STEMS = {"blood", "serum", "plasma", "urine", "drug", "trough", "peak", "random", "lead", "blood lead",
                "venous lead", "capillary lead", "sugar", "blood sugar", "current", "previous", "baseline"}
_MODALITY_RX = re.compile(r"\b(CT|MRI|ultrasound|X-ray|Doppler|echocardiogram|endoscopy)\b", re.I)


def _head_lexicon(case: Case) -> Lexicon | None:
    """Extra aliases: the head noun of a fact name ("serology" for "viral hepatitis serology").

    Added only when it is distinctive: at least 4 letters, not generic, the head of no
    other fact, not already a name, and not part of any diagnosis name.
    """
    heads: dict[str, list[str]] = {}
    for f in case.facts:
        words = re.findall(r"[A-Za-z0-9][A-Za-z0-9\-]*", f.name)
        if len(words) >= 2:
            # the head of a denied finding ("joint" of "no prosthetic joint") is not an alias: "a septic
            # joint" would read as asserting what the statement denies. It still blocks other facts'
            # use of the word.
            denied = f.negated and f.category not in (FactCategory.lab, FactCategory.imaging, FactCategory.vital)
            heads.setdefault(words[-1].lower(), []).append(_DENIED if denied else f.id)
        if f.negated:
            continue  # "flank pain" from "colicky flank pain" (denied) would flip the meaning
        # trailing word groups of multi-word names ("2-hour value" from "OGTT 2-hour value")
        for name in f.all_names:
            ws = name.split()
            for k in range(2, len(ws)):
                tail = " ".join(ws[-k:]).lower()
                if len(tail) >= 8 and f.id not in heads.get(tail, []):
                    heads.setdefault(tail, []).append(f.id)
    # "X exam" is the usual short form of "X examination" ("scrotal exam", "abdominal exam")
    for f in case.facts:
        for name in f.all_names:
            if re.search(r"\bexamination\b", name, re.I):
                short = re.sub(r"\bexamination\b", "exam", name, flags=re.I).lower()
                if f.id not in heads.get(short, []):
                    heads.setdefault(short, []).append(f.id)
    # round 60: a lab's "X level" written as X alone ("anti-Xa undetectable" for "anti-Xa level"), when X is
    # distinctive (a hyphen, two words or six letters and not a word of plain English) and no other fact owns it
    for f in case.facts:
        if f.category != FactCategory.lab:
            continue
        for name in f.all_names:
            m = re.fullmatch(r"(.+?)\s+levels?", name.strip(), re.I)
            stem = m.group(1).lower() if m else ""
            distinctive = "-" in stem or " " in stem or len(stem) >= 6
            if stem and stem not in _PLAIN_STEMS and distinctive and f.id not in heads.get(stem, []):
                heads.setdefault(stem, []).append(f.id)
    # round 60c: "Afebrile" names the denied fever, else the measured temperature, as normal (mention_negated
    # reads the word as denied; a measured temperature is checked against 37.8 °C by the claim layer)
    owner = next((f.id for f in case.facts if f.name.lower() == "fever" and f.negated), None) or next(
        (f.id for f in case.facts if f.name.lower() in ("temperature", "body temperature")), None
    )
    if owner is not None:
        for word in AFEBRILE_WORDS:  # the lexicon matches without regard to case
            heads.setdefault(word, []).append(owner)
    # "Asymptomatic" names the one denied fact whose names speak of symptoms ("TB symptoms", "respiratory symptoms")
    denied_symptoms = [f.id for f in case.facts if f.negated and any("symptoms" in n.lower() for n in f.all_names)]
    if len(denied_symptoms) == 1:
        for word in SYMPTOM_FREE_WORDS:
            heads.setdefault(word, []).append(denied_symptoms[0])
    taken = {n.lower() for f in case.facts for n in f.all_names}
    # a bare imaging modality ("CT", "MRI", "CT/MRI") names the case's only imaging fact that uses it
    modality_owner: dict[str, set[str]] = {}
    for f in case.facts:
        if f.category != FactCategory.imaging:
            continue
        for name in f.all_names:
            for mod in _MODALITY_RX.findall(name):
                modality_owner.setdefault(mod.upper() if len(mod) <= 3 else mod.lower(), set()).add(f.id)
    for mod, owners in modality_owner.items():
        if len(owners) == 1 and mod.lower() not in taken:
            heads.setdefault(mod, []).append(next(iter(owners)))
    # standard abbreviations of analytes and findings named by a fact ("Cr" for creatinine)
    for f in case.facts:
        names = " ".join(f.all_names).lower()
        for word, abbrs in _STANDARD_ABBREVIATIONS.items():
            if re.search(rf"\b{word}", names):
                for ab in abbrs:
                    heads.setdefault(ab, []).append(f.id)
    # a drug's standard short form inside any name of a fact ("LTG level" for "lamotrigine level", "ipi" for
    # "ipilimumab"): each rewritten name keeps its own fact, so "LTG" is the drug and "LTG level" the level
    short_forms: set[str] = set()
    for f in case.facts:
        for name in f.all_names:
            for drug, abbr in _DRUG_ABBREVIATIONS.items():
                if not re.search(rf"\b{drug}\b", name, re.I):
                    continue
                alias = re.sub(rf"\b{drug}\b", abbr, name, flags=re.I)
                # "LTG trough" for "lamotrigine trough level": the note drops the "level" the name spells out
                bare = alias[: -len(" level")] if alias.lower().endswith(" level") else ""
                for form in (alias, bare) if len(bare.split()) >= 2 else (alias,):
                    short_forms.add(form)
                    if f.id not in heads.get(form, []):
                        heads.setdefault(form, []).append(f.id)
    # round 61b: a drug named for the class a fact names ("lisinopril" for the "ACE inhibitor" of "no NSAIDs, ACE
    # inhibitors or diuretics"), when one fact names the class and no fact names the drug
    for f in case.facts:
        names = " ".join(f.all_names)
        for cls, drugs in _DRUG_CLASSES:
            if cls.search(names):
                for drug in drugs:
                    heads.setdefault(drug, []).append(f.id)
    dx_names = " ".join(n.lower() for d in [case.gold.diagnosis, *case.gold.differential] for n in d.all_names)
    items = []
    for head, ids in heads.items():
        short_ok = head in ("CT", "MRI") or head in _ABBREVIATION_SET or head in short_forms
        if len(set(ids)) != 1 or ids[0] == _DENIED or (len(head) < 4 and not short_ok) or head in _GENERIC_HEADS or head in taken or head in dx_names:
            continue
        items.append((ids[0], "fact", [head]))
    return Lexicon(items) if items else None  # type: ignore[arg-type]


# General clinical abbreviations (medical vocabulary, not case data): an abbreviation becomes an
# alias of the one case fact whose names contain the word.
_STANDARD_ABBREVIATIONS: dict[str, list[str]] = {
    "creatinine": ["Cr", "Creat"],
    "haemoglobin": ["Hgb"],
    "hemoglobin": ["Hgb"],
    "hydronephrosis": ["hydro"],
    "bilateral hydronephrosis": ["bilat hydro"],
    "temperature": ["Temp"],
    "respiratory rate": ["RR"],
    "white cell count": ["WBC", "WCC"],
    "platelet": ["Plt", "Plts"],
    "bicarbonate": ["HCO3", "bicarb"],
    "glucose": ["BM", "CBG"],
    "peaked t waves": ["peaked Ts", "tented T waves", "tall T waves"],
    "ultrasound": ["USS", "US scan", "sono"],
    "bilirubin": ["bili", "T bili", "tbili"],
    "blood group": ["RhD negative", "RhD positive", "Rh negative", "Rh positive", "rhesus negative",
                    "rhesus positive", "Rh-negative", "Rh-positive", "RhD-negative", "RhD-positive"],
    "parasitaemia": ["parasitemia"],
    "parasitemia": ["parasitaemia"],
    "abdominal x-ray": ["AXR"],
    "chest x-ray": ["CXR"],
    # chart shorthand for values (round 55): "SBP 134", "alb 2.7", "AG 26", "retic 210"
    "blood pressure": ["SBP"],
    "albumin": ["alb"],
    "anion gap": ["AG"],
    "reticulocyte": ["retic", "retics"],
    # round 56: "Cap Pb 42 -> venous Pb 27" (Pb is lead)
    "capillary lead": ["Cap Pb", "cap Pb", "capillary Pb"],
    "capillary blood lead": ["Cap Pb", "cap Pb", "capillary Pb"],
    "venous lead": ["venous Pb", "ven Pb"],
    "venous blood lead": ["venous Pb", "ven Pb"],
    # round 60: "EtOH ~12 units on weekends", "UPT neg", "no meds"
    "alcohol": ["EtOH"],
    "pregnancy test": ["UPT"],
    "medication": ["meds"],
}
_ABBREVIATION_SET = {a for abbrs in _STANDARD_ABBREVIATIONS.values() for a in abbrs}

# Standard short forms of drug names that notes use in place of the name (medical vocabulary, not case
# data): substituted inside every name of a case fact that contains the drug, see :func:`_head_lexicon`.
_DRUG_ABBREVIATIONS: dict[str, str] = {
    "lamotrigine": "LTG",
    "levetiracetam": "LEV",
    "valproate": "VPA",
    "carbamazepine": "CBZ",
    "lithium": "Li",
    "trimethoprim": "TMP",
    "ciprofloxacin": "cipro",
    "spironolactone": "spiro",
    "hydroxychloroquine": "HCQ",
    "methotrexate": "MTX",
    "isoniazid": "INH",
    "ipilimumab": "ipi",
    "nivolumab": "nivo",
    "pembrolizumab": "pembro",
    "co-amoxiclav": "co-amox",
}

# The usual members of the drug classes facts name (medical vocabulary, not case data): a member becomes an
# alias of the one case fact whose names speak of its class, see :func:`_head_lexicon`.
_DRUG_CLASSES: list[tuple[re.Pattern[str], tuple[str, ...]]] = [
    (re.compile(rf"\b{cls}", re.I), drugs)
    for cls, drugs in (
        (r"(?:ACE\s+inhibitor|ACE-?i\b|angiotensin[\s-]+converting)", ("lisinopril", "ramipril", "enalapril",
                                                                     "perindopril", "captopril")),
        (r"(?:angiotensin\s+(?:II\s+)?receptor\s+blocker|ARBs?\b)", ("losartan", "candesartan", "valsartan",
                                                                       "irbesartan", "olmesartan", "telmisartan")),
        (r"(?:NSAID|non-?steroidal\s+anti-?inflammator)", ("ibuprofen", "naproxen", "diclofenac", "celecoxib",
                                                          "indometacin", "indomethacin", "ketorolac", "etoricoxib")),
        (r"(?:loop\s+)?diuretic", ("furosemide", "frusemide", "bumetanide", "bendroflumethiazide",
                                   "hydrochlorothiazide", "indapamide", "chlorthalidone")),
        (r"(?:beta[\s-]?blocker|β-blocker)", ("bisoprolol", "atenolol", "metoprolol", "propranolol", "carvedilol")),
        (r"(?:statin)", ("atorvastatin", "simvastatin", "rosuvastatin", "pravastatin")),
        (r"(?:proton[\s-]+pump\s+inhibitor|PPIs?\b)", ("omeprazole", "lansoprazole", "pantoprazole",
                                                       "esomeprazole")),
        (r"(?:SSRIs?\b|selective\s+serotonin)", ("sertraline", "fluoxetine", "citalopram", "escitalopram",
                                                   "paroxetine")),
        (r"(?:anticoagula|DOAC)", ("warfarin", "apixaban", "rivaroxaban", "edoxaban", "dabigatran")),
    )
]

_KNOWLEDGE: dict[int, tuple[Case, CaseKnowledge]] = {}


def knowledge_for(case: Case) -> CaseKnowledge:
    hit = _KNOWLEDGE.get(id(case))
    if hit is None or hit[0] is not case:
        if len(_KNOWLEDGE) > 1024:
            _KNOWLEDGE.clear()
        hit = (case, CaseKnowledge.build(case))
        _KNOWLEDGE[id(case)] = hit
    return hit[1]


@dataclass
class TurnContext:
    index: int
    user: str
    agent: str
    released: frozenset[str]
    injected: list[tuple[ContradictionTemplate, int]]
    context_text: str
    context_numbers: list[float]
    final: bool
    user_text: str = ""


@dataclass
class TrajectoryContext:
    trajectory: Trajectory
    know: CaseKnowledge
    turns: list[TurnContext] = field(default_factory=list)

    @classmethod
    def build(cls, traj: Trajectory) -> TrajectoryContext:
        sc = traj.scenario
        know = knowledge_for(sc.case)
        injected_at: dict[str, int] = {}
        for t in traj.turns:
            for tid in t.injected_contradictions:
                injected_at.setdefault(tid, t.index)
        for ic in sc.metadata.injected_contradictions:
            injected_at.setdefault(ic.template_id, ic.turn)
        ctx = cls(traj, know)
        texts: list[str] = []
        raw: list[str] = []
        nums: list[float] = []
        last = traj.turns[-1].index if traj.turns else 0
        for t in traj.turns:
            texts.append(strip_reference_ranges(t.user))
            raw.append(t.user)
            nums = nums + numbers_in(texts[-1])
            text = "\n".join(texts)
            ctx.turns.append(
                TurnContext(
                    index=t.index,
                    user=t.user,
                    agent=t.agent,
                    released=frozenset(traj.released_by(t.index)),
                    injected=[
                        (know.templates[tid], turn)
                        for tid, turn in injected_at.items()
                        if turn <= t.index and tid in know.templates
                    ],
                    context_text=text,
                    context_numbers=nums,
                    final=t.index == last,
                    user_text="\n".join(raw),
                )
            )
        return ctx

    @property
    def last_turn(self) -> int:
        return self.turns[-1].index if self.turns else 0

    def turn(self, index: int) -> TurnContext:
        for t in self.turns:
            if t.index == index:
                return t
        raise KeyError(index)

    def injected_all(self) -> list[tuple[ContradictionTemplate, int]]:
        return self.turns[-1].injected if self.turns else []

    def release_turn(self, fid: str) -> int | None:
        for t in self.turns:
            if fid in t.released:
                return t.index
        return None


# ---- derived values -----------------------------------------------------------------
def _find_fact(case: Case, released: frozenset[str], *keys: str) -> Fact | None:
    for f in case.facts:
        if f.id in released and f.value is not None:
            names = " ".join(f.all_names).lower()
            if any(re.search(rf"\b{re.escape(k)}\b", names) for k in keys):
                return f
    return None


def _uln(f: Fact) -> float | None:
    return f.reference_range.high if f.reference_range else None


def derived_values(case: Case, released: frozenset[str]) -> dict[str, float]:
    """Values an agent may legitimately compute from released facts (R ratio, anion gap...)."""
    out: dict[str, float] = {}
    alt = _find_fact(case, released, "alt", "alanine aminotransferase")
    ast = _find_fact(case, released, "ast", "aspartate aminotransferase")
    alt_value = alt.value if alt else None
    if alt is not None and alt is ast:
        # one fact for both enzymes ("Aspartate aminotransferase is 286 U/L (ALT 241 U/L)", ALT among its
        # aliases): the ALT is the number its statement gives after the name, not the AST again (round 61: an
        # AST/ALT ratio of 1.2 was judged against 1.00); its reference range is the AST's, so no R ratio
        m = _ALT_IN_STATEMENT.search(ast.statement)
        alt_value = float(m.group(1)) if m else None
    alp = _find_fact(case, released, "alp", "alkaline phosphatase")
    if alt and alt is not ast and alp and _uln(alt) and _uln(alp):
        out["r_ratio"] = (alt.value / _uln(alt)) / (alp.value / _uln(alp))  # type: ignore[operator]
    na = _find_fact(case, released, "sodium")
    cl = _find_fact(case, released, "chloride")
    hco3 = _find_fact(case, released, "bicarbonate", "hco3")
    if na and cl and hco3:
        out["anion_gap"] = na.value - cl.value - hco3.value  # type: ignore[operator]
    if ast and alt_value:
        out["ast_alt"] = ast.value / alt_value  # type: ignore[operator]
    bp = _find_fact(case, released, "blood pressure")  # (also "systolic blood pressure")
    if bp is not None and (dia := PRESSURE_PAIR.search(bp.statement) or _DIASTOLIC.search(bp.statement)) is not None:
        # round 139: the mean arterial pressure from a released pressure pair ("MAP about 126" from 162/108, or "162
        # mmHg (diastolic 108 mmHg)")
        sys_v = float(dia.group(1)) if dia.re is PRESSURE_PAIR else bp.value
        out["map"] = (sys_v + 2 * float(dia.group("d"))) / 3  # type: ignore[operator]
    return out


# a blood pressure pair ("86/54", "162/108 mmHg"): the systolic, then the diastolic (read by claims too)
PRESSURE_PAIR = re.compile(r"(?<![\w./])(\d{2,3})\s*/\s*(?P<d>\d{2,3})(?![\w/])")
# the diastolic said on its own: "162 mmHg (diastolic 108 mmHg)"
_DIASTOLIC = re.compile(r"\bdiastolic\s+(?:of\s+|is\s+)?(?P<d>\d{2,3})\b", re.I)


_ALT_IN_STATEMENT = re.compile(r"\b(?:ALT|alanine\s+aminotransferase)\s*(?:is\s+|of\s+|:\s*)?(\d+(?:\.\d+)?)", re.I)


def fold_of_uln(f: Fact) -> float | None:
    uln = _uln(f)
    if f.value is None or not uln:
        return None
    return f.value / uln


def value_in_fact_unit(value: float, unit: str | None, f: Fact) -> float | None:
    """``value unit`` expressed in the fact's unit (None if not convertible)."""
    if f.value is None:
        return None
    if unit is None:
        return value
    return convert(value, unit, f.unit, analyte=f"{f.name} {' '.join(f.aliases)}")


def unit_compatible(unit: str | None, f: Fact) -> bool:
    if unit is None or f.value is None:
        return True
    if normalize_unit(unit) == normalize_unit(f.unit):
        return True
    return value_in_fact_unit(1.0, unit, f) is not None


@dataclass(frozen=True)
class FactHit:
    """A case fact (or contradiction item) named in a text."""

    start: int
    end: int
    item_id: str
    kind: str  # "fact" or "contradiction"
    text: str


_MENTION_CACHE: OrderedDict[tuple[int, str, tuple[str, ...]], tuple[CaseKnowledge, list[FactHit]]] = OrderedDict()


def fact_mentions(know: CaseKnowledge, text: str, kinds: tuple[str, ...] = ("fact", "contradiction")) -> list[FactHit]:
    """Case-fact and contradiction-item mentions: the matcher's aliases plus distinctive head nouns
    (memoised per case and text: the judge asks about the same sentence from several nodes)."""
    key = (id(know), text, tuple(kinds))
    hit = _MENTION_CACHE.get(key)
    if hit is not None and hit[0] is know:  # identity check: an id is never trusted alone
        _MENTION_CACHE.move_to_end(key)
        return list(hit[1])
    out = _fact_mentions(know, text, kinds)
    _MENTION_CACHE[key] = (know, out)
    if len(_MENTION_CACHE) > 8192:
        _MENTION_CACHE.popitem(last=False)
    return list(out)


# a noun after a bare head word that makes it the specimen or subject of another test
_ATTRIBUTIVE_TEST = re.compile(
    r"\s+(?:pregnancy|protein|PCR|ACR|PCR|tests?|microscopy|cultures?|dipstick|samples?|specimens?|output|"
    r"osmolality|sodium|potassium|drug\s+screen|toxicology|electrophoresis|cytology|studies|levels?)\b",
    re.I,
)


def _fact_mentions(know: CaseKnowledge, text: str, kinds: tuple[str, ...]) -> list[FactHit]:
    out = [FactHit(m.start, m.end, m.item_id, m.kind, m.text) for m in know.matcher.mentions(text, kinds)]  # type: ignore[arg-type]
    if "fact" in kinds and know.head_lexicon is not None:
        for s, e, hits in know.head_lexicon.find(text):
            if any(o.start < e and s < o.end for o in out):
                continue
            if _ATTRIBUTIVE_TEST.match(text[e : e + 30]):
                continue  # "urine pregnancy test", "urine PCR": the head noun names a specimen, not the finding
            for item, _k in hits:
                out.append(FactHit(s, e, item, "fact", text[s:e]))
    if "fact" in kinds:
        for rx, fid in know.split_aliases:
            for m in rx.finditer(text):
                if any(o.start < m.end() and m.start() < o.end for o in out):
                    continue
                out.append(FactHit(m.start(), m.end(), fid, "fact", m.group(0)))
    if "fact" in kinds and know.urine_facts:
        out = [_urine_owner(know, text, h) for h in out]
    out.sort(key=lambda h: (h.start, h.end))
    return out


def _name_words(f: Fact) -> set[str]:
    """The words of four letters or more in a fact's name and aliases ("calcium" of "24-hour urine calcium")."""
    return {w for n in f.all_names for w in re.findall(r"[a-z]{4,}", n.lower())}


_URINE_BEFORE = re.compile(r"\b(?:24[\s-]*(?:hour|hr|h)\s+)?(?:urine|urinary)\s+$", re.I)


def _urine_owner(know: CaseKnowledge, text: str, h: FactHit) -> FactHit:
    """A blood-test alias after "urine"/"urinary" ("24-h urine Ca 9.2") names the case's urine test of
    that analyte when there is exactly one, not the serum value the bare alias belongs to."""
    if h.kind != "fact" or h.item_id in know.urine_facts:
        return h
    m = _URINE_BEFORE.search(text[max(0, h.start - 30) : h.start])
    if m is None:
        return h
    words = _name_words(know.fact(h.item_id))
    owners = [fid for fid, fwords in know.urine_facts.items() if words & fwords]
    if len(owners) != 1:
        return h
    start = h.start - len(m.group(0))
    return FactHit(start, h.end, owners[0], "fact", text[start : h.end])


_NEG_PHRASE_IN_STATEMENT = re.compile(
    r"\b(?:no|without|not)\s+((?:[A-Za-z][\w\-]*\s+){0,2}[A-Za-z][\w\-]{3,})(?=\s*(?:[,.;)]|and\b|or\b|with\b|$))",
    re.I,
)
_VAGUE_WORDS = {"other", "signs", "sign", "evidence", "history", "regular", "drugs", "change", "changes", "clinical",
                "abnormality", "abnormalities", "problems", "symptoms", "features", "findings", "more", "further"}


def _negated_phrase_aliases(case: Case, taken: set[str]) -> list[tuple[re.Pattern[str], str]]:
    """Findings a statement denies, named in two or three words ("with no postural drop", "no QRS
    widening", "no free air"), as aliases of that fact: "no postural drop" cites the blood pressure
    fact. Only distinctive phrases (found in one statement, not already a name)."""
    seen: dict[str, set[str]] = {}
    for f in case.facts:
        for m in _NEG_PHRASE_IN_STATEMENT.finditer(f.statement):
            phrase = m.group(1).strip().lower()
            words = phrase.split()
            if len(words) < 2 or words[-1] in _VAGUE_WORDS or words[0] in ("a", "an", "the", "any"):
                continue
            if phrase in taken:
                continue
            seen.setdefault(phrase, set()).add(f.id)
    out = []
    for phrase, ids in seen.items():
        if len(ids) == 1:
            body = r"[\s\-]+".join(re.escape(w) for w in phrase.split())
            out.append((re.compile(rf"\b{body}\b", re.I), next(iter(ids))))
    return out


def _split_aliases(case: Case) -> list[tuple[re.Pattern[str], str]]:
    """Two-word "adjective noun" aliases also match with a word or two between them ("palpable,
    tender bladder") and in predicate order ("the bladder is palpable", "bladder palpable to the
    umbilicus"). Only when the noun is a distinctive word (>= 5 letters) of one fact."""
    out = []
    owners: dict[str, set[str]] = {}
    for f in case.facts:
        for n in f.all_names:
            ws = n.split()
            if len(ws) == 2:
                owners.setdefault(ws[1].lower(), set()).add(f.id)
    for f in case.facts:
        if f.negated:
            continue
        for n in f.all_names:
            ws = n.split()
            if len(ws) != 2 or not all(re.fullmatch(r"[A-Za-z]{4,}", w) for w in ws):
                continue
            adj, noun = (re.escape(w) for w in ws)
            if len(ws[1]) < 5 or owners.get(ws[1].lower()) != {f.id} or ws[1].lower() in _GENERIC_HEADS:
                continue
            out.append((re.compile(
                rf"\b{adj}(?:,?\s+[a-z]+){{1,2}},?\s+{noun}s?\b|\b{noun}s?\s+(?:(?:is|was|are|were)\s+)?"
                rf"(?:(?:clearly|easily|markedly|grossly)\s+)?{adj}\b", re.I), f.id))
    taken = {n.lower() for f in case.facts for n in f.all_names}
    return (
        out + _negated_phrase_aliases(case, taken) + _distinctive_word_aliases(case) + _relative_aliases(case)
        + _denied_head_aliases(case, taken)
    )


def _denied_head_aliases(case: Case, taken: set[str]) -> list[tuple[re.Pattern[str], str]]:
    """The head noun of a denied finding, but only right after a negation ("no prophylaxis" cites
    "no malaria prophylaxis"): bare, it would make "a septic joint" assert a denied prosthetic joint.
    A denied test result ("urine culture: no growth") keeps its bare head alias in :func:`_head_lexicon`."""
    heads: dict[str, set[str]] = {}
    for f in case.facts:
        words = re.findall(r"[A-Za-z][A-Za-z\-]*", f.name)
        if len(words) >= 2:
            heads.setdefault(words[-1].lower(), set()).add(f.id)
    out = []
    for head, ids in heads.items():
        fid = next(iter(ids))
        f = case.fact_index[fid]
        if f.category in (FactCategory.lab, FactCategory.imaging, FactCategory.vital):
            continue  # a denied test result keeps its bare head: "the culture" names the urine culture
        if len(ids) != 1 or not f.negated or len(head) < 4 or head in _GENERIC_HEADS or head in taken:
            continue
        out.append((re.compile(rf"(?:(?<=\bno\s)|(?<=\bnil\s)|(?<=\bwithout\s)|(?<=\bnot\s)){re.escape(head)}\b", re.I), fid))
    return out


_FAMILY_FILLER = {
    "family", "history", "diagnosed", "despite", "never", "drinking", "alcohol", "years", "older", "younger",
    "paternal", "maternal", "there", "their", "only", "needed", "seventies", "sixties", "fifties", "died",
    "developed", "premature", "surgery", "disease", "type", *RELATIVES,
}


def _relative_aliases(case: Case) -> list[tuple[re.Pattern[str], str]]:
    """A family-history fact named the way clinicians write it: a relative of the statement and its
    condition in one clause ("his father's MI at 44", "Father T2DM", "mother had colon cancer", "MI
    in his father"). The condition is a content word of the statement or name, or an equivalent
    from lexicon.yaml ``family_conditions``; the relative must be one the statement names, so "his
    brother's asthma" is not the father's heart attack."""
    table = lexicon_data().get("family_conditions") or {}
    out = []
    for f in case.facts:
        if f.category != FactCategory.family or f.negated:
            continue
        text = " ".join([f.statement, *f.all_names])
        relatives = sorted({m.group(0).lower().rstrip("s") for m in RELATIVE_RX.finditer(f.statement)})
        if not relatives:
            continue
        terms = {w for w in re.findall(r"[A-Za-z][A-Za-z\-]{3,}", text) if w.lower() not in _FAMILY_FILLER}
        for phrase, alts in table.items():
            if phrase.lower() in text.lower():
                terms.update([phrase, *alts])  # the whole phrase too: "type 2 diabetes" before "type"
        if not terms:
            continue
        rel = rf"(?:(?:paternal|maternal|older|younger|elder)\s+)?(?:{'|'.join(map(re.escape, relatives))})s?(?:'s|’s)?"
        cond = "|".join(sorted((re.escape(t) for t in terms), key=len, reverse=True))
        out.append((re.compile(
            rf"\b{rel}\b[^.;:?!\n]{{0,40}}?\b(?:{cond})\b|\b(?:{cond})\b\s+in\s+(?:(?:his|her|their|the)\s+)?{rel}\b",
            re.I,
        ), f.id))
    return out


_COMMON_WORDS = {
    "symptoms", "symptom", "examination", "abdominal", "history", "medication", "medications", "previous",
    "positive", "negative", "function", "pressure", "temperature", "infection", "recent", "chronic", "acute",
    "bilateral", "general", "generalised", "generalized", "intermittent", "progressive", "respiratory",
    "urinary", "cardiac", "clinical", "physical", "tenderness", "pain", "members", "ultrasound", "imaging",
    "screening", "testing", "therapy", "treatment", "surgery", "diagnosis", "multiple", "peripheral",
    "systolic", "diastolic", "abnormal", "elevated", "reduced", "increased", "decreased", "vomiting",
    "weakness", "swelling", "bleeding", "disease", "syndrome", "injury", "failure", "tract", "contacts",
}


def _distinctive_word_aliases(case: Case) -> list[tuple[re.Pattern[str], str]]:
    """A long word found in the names of only one fact names that fact, in any inflection
    ("household" for "household members affected", "paroxysms" for "paroxysmal crying"): matched
    by its first 7 letters. Common clinical words, and words of diagnosis names, are excluded."""
    owners: dict[str, set[str]] = {}
    for f in case.facts:
        for n in f.all_names:
            words = re.findall(r"[A-Za-z]+", n)
            for k, w in enumerate(words):
                if len(w) < 7:
                    continue
                if k == 0 or len(words) == 1:
                    owners.setdefault(w.lower()[:7], set()).add(f.id)  # the modifier that makes a name specific
                else:
                    owners.setdefault(w.lower()[:7], set()).add("")  # other words: only to detect sharing
    dx_words = {
        w.lower()[:7] for d in [case.gold.diagnosis, *case.gold.differential] for n in d.all_names
        for w in re.findall(r"[A-Za-z]{4,}", n)
    }
    common = {w[:7] for w in _COMMON_WORDS} | {w[:7] for w in _GENERIC_HEADS}
    out = []
    for prefix, ids in owners.items():
        if len(ids) != 1 or "" in ids or prefix in dx_words or prefix in common:
            continue
        fid = next(iter(ids))
        if case.fact_index[fid].negated:
            continue
        out.append((re.compile(rf"\b{re.escape(prefix)}[a-z]*\b", re.I), fid))
    return out
