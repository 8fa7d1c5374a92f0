"""Support checking helpers of the claim layer: does released text state or deny a claim.

Negation scopes of fact statements, antonym pairs ("dry" against "moist"), "called normal but the
report is abnormal", verbatim copies of the released context and of injected statements, and whether
a released fact states a number. Kept apart from :mod:`medgym.judges.claims` because these rules
judge a claim against R_t (supported / contradicted / restated), not whether a mention is a claim;
:mod:`medgym.judges.contradictions` and :mod:`medgym.judges.evidence` use some of them too.
"""

from __future__ import annotations

import functools
import re

from medgym.judges.context import CaseKnowledge, TurnContext
from medgym.judges.textrules import DOWNPLAYED_RX, NORMAL_RX, mention_negated
from medgym.knowledge_base.case_schema import Fact
from medgym.text.numbers import Quantity

_STOP = {"the", "a", "an", "of", "or", "and", "any", "evidence", "sign", "signs", "history", "is", "are", "was"}


# words by which a mostly-negative statement still reports an abnormality
# ("no sensory level; vibration sense is mildly reduced at the toes")
_ABNORMAL_WORD = re.compile(
    r"\b(?:reduced|impaired|diminished|decreased|absent|brisk|weak(?:ness)?|raised|elevated|increased|low|"
    r"abnormal|positive|enlarged|tender|peaked|inverted|elevation|depression|dilated|thickened|occlu(?:sion|ded)|"
    # round 53: a finding the report names, called normal ("bland sediment" against red cell casts)
    r"casts|dysmorphic|crackles|consolidation|effusions?|hydro(?:uretero)?nephrosis|o?edema|infiltrates?|"
    r"ha?emorrhage|"
    # round 55: a history the case reports as behind ("His development is normal for age" against speech that
    # is "slightly behind")
    r"behind|delayed|"
    # round 61c: findings of a test report ("EEG normal" against "brief generalised 4-6 Hz polyspike-and-wave
    # discharges with no focal abnormality", "normal CT" against a lesion, a mass or a stone)
    r"discharges|spikes|slowing|lesions?|masse?s?|nodules?|fractures?|stones?|calculi|thrombus|infarcts?|"
    # round 141: a density or signal a scan reports ("CT head negative" against a hyperdense artery sign)
    r"hyper-?dens\w*|hypo-?dens\w*|hyper-?intens\w*|hypo-?intens\w*)\b",
    re.I,
)


def _stem(word: str) -> str:
    """A crude stem for comparing inflections ("bleeding"/"bleed", "bruising"/"bruises", "gum"/"gums"):
    the first five letters, or the word itself if shorter."""
    return word[:5] if len(word) > 5 else word


def _window(text: str, start: int, end: int, words: int = 5) -> str:
    before = text[:start].split()[-words:]
    after = text[end:].split()[:words]
    return " ".join([*before, text[start:end], *after])


@functools.lru_cache(maxsize=4096)
def _squash(text: str) -> str:
    """Lower-cased words only. Cached: every claim of a turn squashes the same released context."""
    return re.sub(r"[^a-z0-9.%]+", " ", text.lower()).strip()


def _quoted_source(text: str, tc: TurnContext) -> tuple[str, str] | None:
    """(status, rule) when a sentence copies released text verbatim (at least 5 words long)."""
    sq = _squash(text)
    if len(sq.split()) < 5:
        return None
    for tmpl, t_turn in tc.injected:
        st = _squash(tmpl.statement)
        if t_turn <= tc.index and (sq in st or st in sq):
            return "restated_contradiction", f"copies the injected statement of {tmpl.id}"
    ut = _squash(tc.user_text)
    i = ut.find(sq)
    if i >= 0:
        for tmpl, t_turn in tc.injected:
            j = ut.find(_squash(tmpl.statement))
            if t_turn <= tc.index and j >= 0 and i < j + len(_squash(tmpl.statement)) and j < i + len(sq):
                # copied from the part of the context that carries the injected statement
                return "restated_contradiction", f"copies the injected statement of {tmpl.id}"
        return "supported", "copied verbatim from the released context"
    return None


def f_states(know: CaseKnowledge, tc: TurnContext, fid: str, q: Quantity) -> bool:
    """Whether released fact ``fid`` states the number ``q`` (its value, or a number in its statement)."""
    if fid not in tc.released:
        return False
    if know.matcher.states_value(q, fid):
        return True
    return any(abs(q.value - v) <= 1e-6 * max(1, abs(v)) for v in know.fact_numbers.get(fid, []))


_NEG_SCOPE = re.compile(r"\b(?:no|without|not|negative\s+for)\s+([^.;,()]*?)(?=\s+(?:with|but|while|whereas|on|in|at)\b|[.;,()]|$)", re.I)


# a negation distributes over a comma list closed by a conjunction: "no spider naevi, palmar
# erythema, jaundice, ascites or splenomegaly" denies every item
_NEG_LIST_SCOPE = re.compile(r"\b(?:no|without|nor|negative\s+for)\s+([^.;:()]*?,[^.;:()]*?\b(?:or|nor|and)\s+[^.;,:()]+)", re.I)


def _local_window(clause: str, mention: str) -> str:
    """The words right around a mention (3 before, 4 after), so that "raised JVP" does not qualify
    the blood pressure named earlier in the same clause."""
    i = clause.lower().find(mention.lower())
    if i < 0:
        return clause
    before = clause[:i].split()[-3:]
    rest = clause[i + len(mention):].split()
    after = rest[:4]
    # the window stops where the next item of a list begins, so "peaked T waves with normal PR and QRS"
    # and "free T4 low with normal TSH" keep each word with its own item
    for k in range(len(before) - 1, -1, -1):
        if before[k].lower() in _ITEM_BREAK or before[k][-1:] in ",;":
            before = before[k + 1 :]
            break
    for k, w in enumerate(after):
        if w.lower() in _ITEM_BREAK:
            after = after[:k]
            break
        if w[-1:] in ",;":
            after = [*after[:k], w[:-1]]
            break
    if after and len(after) == 4 and after[-1].lower() in ("within", "in") and len(rest) > 4:
        # "The ECG T waves are within normal limits": the phrase the window cut is the result
        after = [*after, *rest[4:6]]
    return " ".join([*before, mention, *after])


_ITEM_BREAK = {"with", "and", "but", "or", "plus", "while", "whereas"}


# a list item that opens with an article or a number is a finding the statement reports, which ends the
# negation's list: "no pericholecystic fluid, a common bile duct of 8 mm and a bulky, oedematous pancreas"
_POSITIVE_ITEM = re.compile(r"(?:,|\s+and|\s+with)\s+(?:(?:a|an|the)\b|\d)", re.I)


def _scope_body(m: re.Match[str]) -> str:
    """What a negation's scope denies: its list, up to an item the statement reports ("no pericholecystic
    fluid, a CBD of 8 mm and a bulky pancreas" denies the fluid only)."""
    body = m.group(1)
    stop = _POSITIVE_ITEM.search(body)
    return body[: stop.start()] if stop is not None else body


def _fact_negated_keywords(f: Fact) -> set[str]:
    """Head nouns of the findings a statement negates ("no lobar consolidation or air bronchograms")."""
    words = set()
    negated_spans = []
    scopes = list(_NEG_SCOPE.finditer(f.statement)) + list(_NEG_LIST_SCOPE.finditer(f.statement))
    for m in scopes:
        body = _scope_body(m)
        negated_spans.append((m.start(), m.start(1) + len(body)))
        for part in re.split(r"\s*,\s*|\s+(?:or|and|nor)\s+", body):
            part = re.split(r"\s+of\s+", part)[0]  # "no compression of the optic chiasm": the finding is the head
            # round 95: "no needle-shaped urate crystals are seen": the head is the finding, not the reporting verb
            part = re.sub(r"\s+(?:(?:is|are|was|were)\s+)?(?:seen|present|identified|found|noted|detected|shown)\W*$", "", part)
            toks = [t.strip("-").lower() for t in part.split() if t.strip("-")]
            if toks and len(toks[-1]) > 3 and toks[-1] not in _STOP:
                words.add(toks[-1][:7])
    # a word the statement also uses positively ("marked ... tenderness; no ... fossa tenderness") is ambiguous,
    # and so is a word of the finding's own positive names ("gum bleeding" for a fact whose statement adds
    # "no major bleeding"): naming the finding by its alias never contradicts it
    if not f.negated:
        # but a one-word alias the statement denies outright ("crackles" for "the lung fields are clear with
        # no crackles", "proteinuria" for "no protein") is a finding the fact rules out
        own = {
            w[:7] for n in f.all_names if n == f.name or len(re.findall(r"[a-z]{4,}", n.lower())) > 1
            for w in re.findall(r"[a-z]{4,}", n.lower())
        }
        words -= own
    for w in list(words):
        for m in re.finditer(rf"\b{re.escape(w)}\w*", f.statement, re.I):
            if not any(a <= m.start() < b for a, b in negated_spans):
                words.discard(w)
                break
    # round 63: the American spelling of a denied word ("papilledema" for the statement's "no papilloedema",
    # "hemorrhage" for "haemorrhage"), so the reply's spelling does not decide whether it asserts the finding
    for m in re.finditer(r"[a-z]*(?:oe|ae)[a-z]+", f.statement.lower()):
        if m.group(0)[:7] in words:
            words.add(re.sub(r"(?:oe|ae)(?=[a-z])", "e", m.group(0))[:7])
    # round 137: and the other spelling of the white cells ("leucocytes" for "negative for ... leukocytes")
    for w in [w for w in words if w.startswith(("leuk", "leuc"))]:
        words.add(("leuc" if w.startswith("leuk") else "leuk") + w[4:])
    return words


# Opposite descriptive words: "dry mucous membranes" against "mucous membranes are moist".
_ANTONYM_PAIRS = [
    ("dry", "moist"), ("warm", "cold"), ("regular", "irregular"), ("soft", "rigid"), ("soft", "firm"),
    ("symmetrical", "asymmetrical"), ("smooth", "irregular"), ("reactive", "unreactive"), ("brisk", "absent"),
    ("dilated", "constricted"), ("distended", "flat"), ("pale", "flushed"), ("tender", "non-tender"),
    ("bilateral", "unilateral"), ("clear", "cloudy"), ("clear", "turbid"), ("alert", "drowsy"),
    ("orientated", "confused"), ("oriented", "confused"),
    # partial for complete: "reduced flow" where the report says the flow is absent
    ("reduced", "absent"), ("diminished", "absent"), ("decreased", "absent"),
    # round 63: "increased flow in the left epididymis" where the Doppler shows absent flow
    ("increased", "absent"),
    # a sign's result: "positive Murphy's sign" where the examination found it negative
    ("positive", "negative"), ("pos", "negative"), ("neg", "positive"),
    # a sign the examination found absent: "cremasteric reflex present" (or "preserved", "intact") against "is absent"
    ("present", "absent"), ("preserved", "absent"), ("intact", "absent"),
    # round 66: the pattern of emphysema ("CT: centrilobular emphysema" where the HRCT shows panlobular)
    ("centrilobular", "panlobular"),
    # round 131: a change where the report says there is none ("His weight is also down 3 kg" where it "has been
    # stable for years")
    ("down", "stable"), ("lost", "stable"), ("loss", "stable"),
    # round 137: swollen discs where fundoscopy shows them sharp ("Fundi: borderline disc blurring")
    ("blurring", "sharp"), ("blurred", "sharp"), ("blurry", "sharp"),
]
_ANTONYMS = _ANTONYM_PAIRS + [(b, a) for a, b in _ANTONYM_PAIRS]


_RESULT_OF = re.compile(
    r"\b([A-Za-z][\w.]{2,})-positive\b|\bpositive\s+for\s+([A-Za-z][\w.]{2,})|"
    # "grew nothing (significant)" reports no organism: not an invented result
    r"\b(?:grew|grows|growing|isolated|cultured)\s+(?:an?\s+)?(?!(?:nothing|no|none|only|mixed)\b)([A-Za-z][\w.]{2,})",
    re.I,
)


def _denied_list_spans(statement: str) -> list[tuple[int, int]]:
    """Where a list after "no" runs ("no infarct, haemorrhage or mass"), up to an item the statement
    reports ("no pericholecystic fluid, a CBD of 8 mm"): mention_negated reads only the first name."""
    return [(m.start(), m.start(1) + len(_scope_body(m))) for m in _NEG_LIST_SCOPE.finditer(statement)]


@functools.cache
def reported_abnormal(statement: str) -> re.Match[str] | None:
    """The first word of ``statement`` that reports an abnormal finding, not denied ("peaked" in "peaked T
    waves"; never "haemorrhage" in "no infarct, haemorrhage or mass"). Cached: a fact's statement is fixed,
    and every claim on it that calls it normal asks again."""
    denied = _denied_list_spans(statement)
    return next(
        (
            m for m in _ABNORMAL_WORD.finditer(statement)
            if not mention_negated(statement, m.start(), m.end()) and not any(a <= m.start() < b for a, b in denied)
        ),
        None,
    )


# round 134: "the ECG shows no hyperkalaemic changes", "ECG without acute changes": a tracing called free of the
# changes that matter, which a report of peaked T waves contradicts as "normal ECG" would
_NO_CHANGES = re.compile(
    r"\b(?:no|without)\s+(?:(?:acute|hyperkala?emic|ischa?emic|dynamic|significant|new)\s+)?(?:ECG\s+)?changes\b", re.I
)


def _called_normal_but_abnormal(f: Fact, loc: str) -> str | None:
    """"Normal ECG", "T waves within normal limits" where the released report describes an
    abnormal finding (peaked T waves). Parts the report itself calls normal ("PR and QRS
    intervals are normal") are not contradicted when the agent names them."""
    normal = NORMAL_RX.search(loc) or _NO_CHANGES.search(loc)
    played_down = DOWNPLAYED_RX.search(loc)
    if not (normal or played_down) or re.search(r"\babnormal\b", loc, re.I):
        return None
    if normal and all(re.fullmatch(r"non-?focal", m.group(0), re.I) for m in NORMAL_RX.finditer(loc)) and re.search(
        r"\bno\s+focal\b|\bgenerali[sz]ed\b", f.statement, re.I
    ):
        return None  # "a non-focal EEG" against generalised discharges "with no focal abnormality" says no more
    abn = reported_abnormal(f.statement)
    if abn is None:
        return None
    if not normal and (
        re.search(rf"\b{re.escape(abn.group(0)[:5])}", loc, re.I) or _ABNORMAL_WORD.search(loc)
        or re.search(r"\bSTE\b|\bSTD\b|\b\d+(?:\.\d+)?\s*(?:mm|mV)\b", loc)
    ):
        # "1 mm of ST elevation in V7-V9 is borderline", "The 1 mm in V7-V9 is borderline", "V4R STE nonspecific",
        # "Peaked Ts prob nonspecific": the finding reported, then graded, which the labels read as quoting it
        return None
    loc_words = {w[:5] for w in re.findall(r"[a-z]{2,}", loc.lower())}
    for part in re.split(r"[;,]", f.statement):
        if NORMAL_RX.search(part):
            words = {w[:5] for w in re.findall(r"[a-z]{2,}", NORMAL_RX.sub(" ", part).lower())} - _NORMAL_STOP
            if words & loc_words:
                return None  # the agent names a part the report calls normal
    said = "called normal" if normal else f"called '{played_down.group(0)}'"  # type: ignore[union-attr]
    return f"{said}, but the released {f.name} statement reports '{abn.group(0)}'"


_NORMAL_STOP = {"are", "is", "the", "and", "or", "with", "was", "were", "her", "his", "of", "in", "on", "all"}

# round 63: a measure said to be widened or prolonged ("early QRS widening", "a prolonged QT")
_WIDENED = re.compile(r"\b(?:widen\w*|wide|broad|prolonged|lengthened)\b", re.I)


_DENIED_BEFORE = re.compile(r"\b(?:no|not|nor|without|never)\s+(?:\w+\s+){0,2}$|n't\s+$", re.I)


def _denied_before(loc: str, start: int) -> bool:
    """Whether a denial stands just before ``start`` in ``loc`` ("no QRS widening", "not widened", "no cocci"):
    the word at ``start`` is then denied, not asserted."""
    return bool(_DENIED_BEFORE.search(loc[max(0, start - 30) : start]))


def _called_abnormal_but_normal(f: Fact, loc: str) -> str | None:
    """"QRS widening" where the released report says "PR and QRS intervals are normal": the mirror of
    :func:`_called_normal_but_abnormal`. Only the words beside the abnormal word count ("peaked T waves with early
    QRS widening" widens the QRS, not the T waves), and only a part of the report that calls them normal."""
    for m in _WIDENED.finditer(loc):
        if _denied_before(loc, m.start()):
            continue  # "the mediastinum is not widened", "no QRS widening"
        near = {w[:5] for w in re.findall(r"[a-z]{2,}", loc[max(0, m.start() - 20) : m.end() + 20].lower())}
        near -= _NORMAL_STOP | {m.group(0).lower()[:5]}
        for part in re.split(r"[;,]", f.statement):
            if not NORMAL_RX.search(part) or reported_abnormal(part):
                continue
            words = {w[:5] for w in re.findall(r"[a-z]{2,}", NORMAL_RX.sub(" ", part).lower())} - _NORMAL_STOP
            if words & near:
                return f"called '{m.group(0)}', but the released {f.name} statement calls it normal"
    return None


# A microbiology result that found nothing, and organisms named in a reply (round 82): "Gram-positive cocci on
# synovial Gram stain" where the released stain "shows no organisms and culture is sterile".
_NOTHING_GROWN = re.compile(
    r"\bno\s+(?:significant\s+|bacterial\s+)?(?:organisms|bacteria|growth)\b|\bsterile\b|\bno\s+\w+\s+(?:seen|grown|isolated)\b",
    re.I,
)
# Organisms as notes name them: Gram-stain morphologies and the genera of common cultures (round 82; round 83 adds
# the genera of urine, stool and blood cultures: "Urine cx growing E. coli", "stool culture grew Campylobacter").
# round 105: a note's smear shorthand ("GPCs in clusters", "GNRs")
SMEAR_SHORTHAND = r"GPCs?|GNRs?|GPRs?|GNDCs?|GPDCs?"
ORGANISM = (
    r"\bgram[\s-]*(?:positive|negative|pos|neg|\+\s*ve|-\s*ve|\+|-)\s*(?:cocci|diplococci|rods|bacilli)\b|"
    r"\b(?:cocci|diplococci|bacilli|" + SMEAR_SHORTHAND + r")\b|\b(?:Staph\w*|Strep\w*|S\.\s*aureus|E\.\s*coli|gonococc\w*|MRSA|MSSA|"
    r"Escherichia|Klebsiella|Pseudomonas|Enterococc\w*|Campylobacter|Salmonella|Shigella|Listeria|Neisseria|"
    r"Candida|Haemophilus|H\.\s*influenzae|Legionella|C\.\s*diff\w*|Clostridi\w*)\b"
)
ORGANISM_RX = re.compile(ORGANISM, re.I)
_ORGANISMS = re.compile(
    ORGANISM + "|"
    # "grew" an organism, as _RESULT_OF reads it ("grew nothing" found none; not "growing", as in "growing concern")
    r"\borganisms\s+(?:seen|present|on)\b|\bgrew\s+(?:an?\s+)?(?!(?:nothing|no|none|only|mixed)\b)[A-Za-z]",
    re.I,
)


def _organisms_where_none_grew(f: Fact, loc: str) -> str | None:
    """Organisms said of a stain or culture whose released result found none (round 82). Denied organisms ("no
    cocci seen", "without organisms") keep the reply's reading. Called for negated (negative) tests only: a
    positive report that also says "blood cultures: no growth" names its own organisms."""
    if not _NOTHING_GROWN.search(f.statement):
        return None
    for m in _ORGANISMS.finditer(loc):
        if _denied_before(loc, m.start()):
            continue  # "no organisms seen", "without cocci"
        return f"names '{m.group(0)}', but the released {f.name} found no organisms"
    return None


def _near_in_statement(statement: str, mention: str, word: str, span: int = 60) -> bool:
    """Whether ``word`` is said of the mentioned finding in the statement (within ``span`` chars)."""
    head = mention.split()[-1][:6] if mention.split() else mention
    heads = [head]
    if len(head) >= 5 and not re.search(re.escape(head), statement, re.I):
        heads.append(head[:4])  # British/American spelling: "goiter" for the statement's "goitre"
    found = False
    for h in heads:
        for m in re.finditer(re.escape(h), statement, re.I):
            found = True
            if re.search(rf"\b{word}\b", statement[max(0, m.start() - span) : m.end() + span], re.I):
                return True
    # the mention is an alias the statement never spells ("knee jerks" for "Knee and ankle reflexes are
    # absent"): the statement speaks of the fact as a whole, so its wording is said of the mention too
    return not found


def _negated_in_statement(f: Fact, mention: str) -> bool:
    """Whether the statement itself denies the mentioned finding ("with no postural drop")."""
    words = [w for w in re.findall(r"[a-z][a-z\-]{2,}", mention.lower()) if w not in _STOP]
    if not words:
        return False
    head = words[-1][:6]
    for m in re.finditer(rf"\b{re.escape(head)}\w*", f.statement, re.I):
        if mention_negated(f.statement, m.start(), m.end()):
            return True
    return False


_NEGATION_CUE = re.compile(r"\b(?:no|not|nor|denies|denied|without|never|negative|nil|none)\b", re.I)


def _affirmed_in_statement(f: Fact, mention: str) -> bool:
    """Whether a negated fact's statement itself affirms the mentioned name: "Apart from amlodipine 5 mg daily
    he takes no other regular drugs, and no NSAIDs" affirms "amlodipine", an alias of the fact that denies the
    NSAIDs. Every occurrence must come before the statement's first negation."""
    cue = _NEGATION_CUE.search(f.statement)
    hits = list(re.finditer(rf"(?<![\w-]){re.escape(mention.strip())}(?![\w-])", f.statement, re.I))
    # before the first negation only: a list after "denies" may run past the word-level negation scope
    return bool(hits) and cue is not None and all(m.end() <= cue.start() for m in hits)


def _template_keywords(statement: str, fact: Fact) -> set[str]:
    fact_words = {w[:7] for w in re.findall(r"[a-z]{4,}", fact.statement.lower())}
    words = {w[:7] for w in re.findall(r"[a-z]{4,}", statement.lower())}
    generic = {"addend", "outsid", "report", "result", "labora", "phoned", "throug", "letter", "radiol",
               "shows", "with", "from", "which", "that", "this", "their", "there", "note", "record"}
    return words - fact_words - generic
