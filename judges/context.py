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

import yaml

from medgym.envs.trajectory import Trajectory
from medgym.judges.textrules import NUMBER_WORD_RX, NUMBER_WORDS
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
    vals = [q.value for q in find_quantities(clean)]
    vals += [q.upper for q in find_quantities(clean) if q.upper is not None]
    vals += [float(NUMBER_WORDS[m.group(1).lower()]) for m in NUMBER_WORD_RX.finditer(clean)]
    return vals


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
def general_lexicon() -> tuple[Lexicon, dict[str, str]]:
    """The general clinical vocabulary (lexicon.yaml): (lexicon, term id -> kind)."""
    data = yaml.safe_load(LEXICON_PATH.read_text(encoding="utf-8"))
    items = []
    kinds: dict[str, str] = {}
    for kind in ("analytes", "findings"):
        for name, aliases in (data.get(kind) or {}).items():
            tid = f"term:{name}"
            kinds[tid] = "analyte" if kind == "analytes" else "finding"
            items.append((tid, "fact", [name, *(aliases or [])]))
    return Lexicon(items), kinds  # type: ignore[arg-type]


def _dx_variants(name: str) -> list[str]:
    out = [name]
    base = re.sub(r"\s*\([^)]*\)", "", name).strip()
    for v in (base, re.sub(r"\s+mellitus$", "", base, flags=re.I), re.sub(r"^(?:acute|chronic)\s+", "", base, flags=re.I)):
        if v and v not in out and len(v) > 2:
            out.append(v)
    return out


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

    @classmethod
    def build(cls, case: Case) -> CaseKnowledge:
        dxs = [case.gold.diagnosis, *case.gold.differential]
        items = [(d.name, "diagnosis", [v for n in d.all_names for v in _dx_variants(n)]) for d in dxs]
        acr = set()
        for step in case.gold.next_steps:
            acr.update(w for w in re.findall(r"\b[A-Z][A-Za-z0-9]{1,7}\b", step) if sum(ch.isupper() for ch in w) >= 2)
        return cls(
            case=case,
            head_lexicon=_head_lexicon(case),
            matcher=matcher_for(case),
            dx_lexicon=Lexicon(items),  # type: ignore[arg-type]
            diagnoses={d.name: d for d in dxs},
            gold=case.gold.diagnosis.name,
            differential=[d.name for d in case.gold.differential],
            fact_numbers={f.id: numbers_in(f.statement) for f in case.facts},
            templates={t.id: t for t in case.stressors.contradictions},
            next_step_acronyms=acr,
        )

    def fact(self, fid: str) -> Fact:
        return self.matcher.facts[fid]

    def refuted_by(self, facts: set[str]) -> set[str]:
        """Diagnoses (gold or differential names) argued against by any of ``facts``."""
        return {name for name, d in self.diagnoses.items() if set(d.refuted_by) & facts}


_GENERIC_HEADS = {
    "test", "tests", "level", "levels", "count", "history", "examination", "exam", "course", "intake", "rate",
    "pressure", "factors", "score", "status", "result", "results", "finding", "findings", "value", "values",
    "panel", "screen", "sample", "disease", "syndrome", "injury", "pain", "use", "drug", "drugs", "therapy",
}


_MODALITY_RX = re.compile(r"\b(CT|MRI|ultrasound|X-ray)\b", re.I)


def _head_lexicon(case: Case) -> Lexicon | None:
    """Extra aliases: the head noun of a fact name ("serology" for "viral hepatitis serology").

    Added only when it is distinctive: at least 4 letters, not generic, the head of no
    other fact, not already a name, and not part of any diagnosis name.
    """
    heads: dict[str, list[str]] = {}
    for f in case.facts:
        words = re.findall(r"[A-Za-z0-9][A-Za-z0-9\-]*", f.name)
        if len(words) >= 2:
            heads.setdefault(words[-1].lower(), []).append(f.id)
        if f.negated:
            continue  # "flank pain" from "colicky flank pain" (denied) would flip the meaning
        # trailing word groups of multi-word names ("2-hour value" from "OGTT 2-hour value")
        for name in f.all_names:
            ws = name.split()
            for k in range(2, len(ws)):
                tail = " ".join(ws[-k:]).lower()
                if len(tail) >= 8 and f.id not in heads.get(tail, []):
                    heads.setdefault(tail, []).append(f.id)
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
    dx_names = " ".join(n.lower() for d in [case.gold.diagnosis, *case.gold.differential] for n in d.all_names)
    items = []
    for head, ids in heads.items():
        if len(set(ids)) != 1 or (len(head) < 4 and head not in ("CT", "MRI")) or head in _GENERIC_HEADS or head in taken or head in dx_names:
            continue
        items.append((ids[0], "fact", [head]))
    return Lexicon(items) if items else None  # type: ignore[arg-type]


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
    alp = _find_fact(case, released, "alp", "alkaline phosphatase")
    if alt and alp and _uln(alt) and _uln(alp):
        out["r_ratio"] = (alt.value / _uln(alt)) / (alp.value / _uln(alp))  # type: ignore[operator]
    na = _find_fact(case, released, "sodium")
    cl = _find_fact(case, released, "chloride")
    hco3 = _find_fact(case, released, "bicarbonate", "hco3")
    if na and cl and hco3:
        out["anion_gap"] = na.value - cl.value - hco3.value  # type: ignore[operator]
    ast = _find_fact(case, released, "ast", "aspartate aminotransferase")
    if ast and alt:
        out["ast_alt"] = ast.value / alt.value  # type: ignore[operator]
    return out


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


def fact_mentions(know: CaseKnowledge, text: str, kinds: tuple[str, ...] = ("fact", "contradiction")) -> list[FactHit]:
    """Case-fact and contradiction-item mentions: the matcher's aliases plus distinctive head nouns."""
    out = [FactHit(m.start, m.end, m.item_id, m.kind, m.text) for m in know.matcher.mentions(text, kinds)]  # type: ignore[arg-type]
    if "fact" in kinds and know.head_lexicon is not None:
        for s, e, hits in know.head_lexicon.find(text):
            if any(o.start < e and s < o.end for o in out):
                continue
            for item, _k in hits:
                out.append(FactHit(s, e, item, "fact", text[s:e]))
    out.sort(key=lambda h: (h.start, h.end))
    return out
