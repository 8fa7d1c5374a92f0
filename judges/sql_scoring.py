"""DataAgent scoring: execution accuracy and cell-level F1 per round, success per task.

Definitions (also in docs/data_agent.md):

* **Answer set.** What the agent committed to in its ``answer`` call, in this order
  of precedence: the ``values`` it passed; else the result of the ``sql`` it passed
  (run through the sandbox); else the result of its last successful ``run_sql`` in
  the round; else numbers, ids, codes and dates pulled out of the answer text.
* **Cells match** if both are NULL; or both are numbers and ``|a - g| <=
  max(abs_tol, rel_tol * |g|)`` (defaults 0.006 and 0.5%, enough for answers
  rounded to two decimals), except that an integer gold value (a count) must be
  matched exactly; or both are text and equal after trimming, lower-casing and
  collapsing whitespace (``T`` between a date and a time reads as a space).
* **Execution accuracy (EX)** is 1 when the answer rows equal the gold rows as a
  multiset (row order ignored). Extra answer columns are allowed when some choice
  of answer columns reproduces the gold rows (``SELECT patient_id, value`` answers
  "which patients"). A single-row gold answer also matches an answer holding exactly
  its cells in any shape (a transposed result).
* **Cell-level F1** compares the multisets of all cells: precision = matched answer
  cells / answer cells, recall = matched gold cells / gold cells. An empty answer to
  an empty gold scores 1.
* **Unanswerable rounds**: EX = F1 = 1 if the agent declared the question
  unanswerable (``unanswerable: true`` in ``answer``, or, without the flag and without
  ``values``/``sql``, a text such as "the database does not contain..."); else 0.
  Declaring an answerable round unanswerable scores 0.
* **Task success**: every round has EX = 1. Rounds never answered (the episode was
  truncated) score 0: that is the agent's failure, not the judge's.

Scoring is deterministic and never fails on odd input: it is plain Python over
canonical cells. Only the optional LLM judge of the interpretation text can fail,
and that is reported as unscored (see :mod:`medgym.judges.data_agent_wrapper`).
"""

from __future__ import annotations

import itertools
import math
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

Cell = str | int | float | None

UNANSWERABLE_PATTERNS = [
    r"\bunanswerable\b",
    r"\bcannot be answered\b",
    r"\bcan(?:no|')t answer\b",
    r"\b(?:data(?:base|set)?|records?|tables?|schema)\s+(?:does|do)\s*(?:not|n't)\s+"
    r"(?:contain|hold|include|record|store|have|capture)",
    r"\bnot\s+(?:available|recorded|stored|captured|documented|present|included)\s+in\s+the\s+"
    r"(?:data(?:base|set)?|records?|tables?|schema)",
    r"\bno\s+(?:information|data|record|records|column|table)\s+(?:on|about|regarding|for|of)\b.{0,60}\b"
    r"(?:in|within)\s+the\s+(?:data(?:base|set)?|records?|schema)",
    r"\bnot\s+(?:in|part of)\s+the\s+(?:data(?:base|set)?|schema)\b",
    r"\bthe\s+(?:data(?:base)?|records?)\s+(?:lack|lacks)\b",
]
_UNANSWERABLE_RE = re.compile("|".join(UNANSWERABLE_PATTERNS), re.IGNORECASE | re.DOTALL)
_NUM_RE = re.compile(r"^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$")
_TS_TEXT_RE = re.compile(r"\b\d{4}-\d{2}-\d{2}(?:[ T]\d{2}:\d{2}(?::\d{2})?)?\b")
_ID_TEXT_RE = re.compile(r"\b(?:[A-Z]{1,3}\d{3,}[A-Z]?|[A-Z]\d{2}(?:\.[0-9A-Z]{1,4})?|\d{2,6}-\d)\b")
_NUMBER_TEXT_RE = re.compile(r"(?<![\w.])[+-]?\d+(?:,\d{3})*(?:\.\d+)?(?![\w])")


@dataclass(frozen=True)
class ScoringConfig:
    rel_tol: float = 0.005
    abs_tol: float = 0.006
    max_projection_checks: int = 2000


DEFAULT_CONFIG = ScoringConfig()


# --------------------------------------------------------------------------- cells
def as_number(v: Any) -> float | None:
    if isinstance(v, bool):
        return float(v)
    if isinstance(v, int | float):
        return float(v) if not (isinstance(v, float) and math.isnan(v)) else None
    if isinstance(v, str):
        s = v.strip().replace(",", "") if re.fullmatch(r"[+-]?\d{1,3}(,\d{3})+(\.\d+)?", v.strip()) else v.strip()
        if s.endswith("%"):
            s = s[:-1].strip()
        if _NUM_RE.match(s):
            return float(s)
    return None


def _norm_text(v: Any) -> str:
    s = " ".join(str(v).strip().lower().split())
    return re.sub(r"^(\d{4}-\d{2}-\d{2})t(\d{2}:)", r"\1 \2", s)


def is_null(v: Any) -> bool:
    return v is None or (isinstance(v, str) and v.strip().lower() in ("null", "none", "nan", "\\n"))


def cells_match(a: Any, g: Any, cfg: ScoringConfig = DEFAULT_CONFIG) -> bool:
    if is_null(g) or is_null(a):
        return is_null(g) and is_null(a)
    ng, na = as_number(g), as_number(a)
    if ng is not None and na is not None and not (isinstance(g, str) and isinstance(a, str)):
        if isinstance(g, int) and not isinstance(g, bool):
            return abs(na - ng) < 1e-9
        return abs(na - ng) <= max(cfg.abs_tol, cfg.rel_tol * abs(ng))
    if isinstance(g, str) and isinstance(a, str):
        if ng is not None and na is not None and _norm_text(a) != _norm_text(g):
            return abs(na - ng) <= max(cfg.abs_tol, cfg.rel_tol * abs(ng))
        return _norm_text(a) == _norm_text(g)
    if ng is not None or na is not None:
        return False
    return _norm_text(a) == _norm_text(g)


def _sort_key(v: Any) -> tuple:
    if is_null(v):
        return (0, 0.0, "")
    n = as_number(v)
    if n is not None:
        return (1, n, "")
    return (2, 0.0, _norm_text(v))


# --------------------------------------------------------------------------- rows
def rows_equal(a: Sequence[Any], g: Sequence[Any], cfg: ScoringConfig = DEFAULT_CONFIG) -> bool:
    return len(a) == len(g) and all(cells_match(x, y, cfg) for x, y in zip(a, g, strict=True))


def multiset_equal(ans: Sequence[Sequence[Any]], gold: Sequence[Sequence[Any]],
                   cfg: ScoringConfig = DEFAULT_CONFIG) -> bool:
    """Row multisets equal under cell tolerance (order ignored)."""
    if len(ans) != len(gold):
        return False
    if not gold:
        return True
    if any(len(r) != len(gold[0]) for r in ans) or any(len(r) != len(gold[0]) for r in gold):
        return False

    def key(r: Sequence[Any]) -> tuple:
        return tuple(_sort_key(c) for c in r)

    sa, sg = sorted(ans, key=key), sorted(gold, key=key)
    if all(rows_equal(x, y, cfg) for x, y in zip(sa, sg, strict=True)):
        return True
    if len(gold) > 300:
        return False
    unmatched = list(range(len(gold)))
    for r in ans:  # greedy fallback when tolerance reorders near-equal values
        hit = next((j for j in unmatched if rows_equal(r, gold[j], cfg)), None)
        if hit is None:
            return False
        unmatched.remove(hit)
    return True


def _column(rows: Sequence[Sequence[Any]], j: int) -> list[Any]:
    return [r[j] for r in rows]


def execution_match(ans: Sequence[Sequence[Any]], gold: Sequence[Sequence[Any]],
                    cfg: ScoringConfig = DEFAULT_CONFIG) -> bool:
    """EX: exact multiset, or a projection of the answer's columns, or a transposed single row."""
    if not gold:
        return len(ans) == 0
    if not ans:
        return False
    if multiset_equal(ans, gold, cfg):
        return True
    g_cols = len(gold[0])
    widths = {len(r) for r in ans}
    if len(widths) == 1 and len(ans) == len(gold):
        a_cols = widths.pop()
        if a_cols >= g_cols:
            # candidate answer columns for each gold column: same value multiset
            cands = []
            for j in range(g_cols):
                gcol = [[v] for v in _column(gold, j)]
                cj = [k for k in range(a_cols) if multiset_equal([[v] for v in _column(ans, k)], gcol, cfg)]
                if not cj:
                    cands = []
                    break
                cands.append(cj)
            if cands:
                for checks, combo in enumerate(itertools.product(*cands)):
                    if checks >= cfg.max_projection_checks:
                        break
                    if len(set(combo)) != len(combo):
                        continue
                    if multiset_equal([[r[k] for k in combo] for r in ans], gold, cfg):
                        return True
    if len(gold) == 1:
        flat = [c for r in ans for c in r]
        if len(flat) == g_cols and multiset_equal([[c] for c in flat], [[c] for c in gold[0]], cfg):
            return True
    return False


def cell_f1(ans: Sequence[Sequence[Any]], gold: Sequence[Sequence[Any]],
            cfg: ScoringConfig = DEFAULT_CONFIG) -> tuple[float, float, float]:
    """(precision, recall, F1) over the multisets of cells."""
    a_cells = [c for r in ans for c in r]
    g_cells = [c for r in gold for c in r]
    if not a_cells and not g_cells:
        return 1.0, 1.0, 1.0
    if not a_cells or not g_cells:
        return 0.0, 0.0, 0.0
    matched = _count_matches(a_cells, g_cells, cfg)
    p = matched / len(a_cells)
    r = matched / len(g_cells)
    f = 0.0 if matched == 0 else 2 * p * r / (p + r)
    return p, r, f


def _count_matches(a_cells: list[Any], g_cells: list[Any], cfg: ScoringConfig) -> int:
    """Size of a maximal tolerance matching between two cell multisets (nulls, texts, numbers)."""
    a_null = sum(1 for c in a_cells if is_null(c))
    g_null = sum(1 for c in g_cells if is_null(c))
    matched = min(a_null, g_null)
    a_txt = Counter(_norm_text(c) for c in a_cells if not is_null(c) and as_number(c) is None)
    g_txt = Counter(_norm_text(c) for c in g_cells if not is_null(c) and as_number(c) is None)
    matched += sum((a_txt & g_txt).values())
    a_num = sorted(as_number(c) for c in a_cells if not is_null(c) and as_number(c) is not None)  # type: ignore[type-var]
    g_num = sorted(
        ((as_number(c), isinstance(c, int) and not isinstance(c, bool)) for c in g_cells
         if not is_null(c) and as_number(c) is not None),
        key=lambda t: t[0],  # type: ignore[arg-type,return-value]
    )
    i = j = 0
    while i < len(a_num) and j < len(g_num):
        av = a_num[i]
        gv, exact = g_num[j]
        tol = 1e-9 if exact else max(cfg.abs_tol, cfg.rel_tol * abs(gv))  # type: ignore[arg-type]
        if abs(av - gv) <= tol:  # type: ignore[operator]
            matched += 1
            i += 1
            j += 1
        elif av < gv:  # type: ignore[operator]
            i += 1
        else:
            j += 1
    return matched


# --------------------------------------------------------------------------- answers
def detect_unanswerable(text: str) -> bool:
    """True if the text says the data does not hold the answer (see UNANSWERABLE_PATTERNS)."""
    return bool(text) and bool(_UNANSWERABLE_RE.search(text))


def values_from_text(text: str) -> list[list[Cell]]:
    """Fallback answer set: timestamps/dates, ids/codes, then numbers, one cell per row."""
    out: list[list[Cell]] = []
    rest = text or ""
    for m in _TS_TEXT_RE.finditer(rest):
        out.append([m.group(0).replace("T", " ")])
    rest = _TS_TEXT_RE.sub(" ", rest)
    for m in _ID_TEXT_RE.finditer(rest):
        out.append([m.group(0)])
    rest = _ID_TEXT_RE.sub(" ", rest)
    for m in _NUMBER_TEXT_RE.finditer(rest):
        n = as_number(m.group(0).replace(",", ""))
        if n is not None:
            out.append([int(n) if n.is_integer() and "." not in m.group(0) else n])
    return out


def normalise_values(values: Any, gold_rows: Sequence[Sequence[Any]] | None = None) -> list[list[Cell]]:
    """Turn an agent's ``values`` (scalar, flat list, list of rows, or list of dicts) into rows.

    A flat list whose length equals the width of a single-row gold answer is read as
    that one row; otherwise a flat list is one value per row.
    """
    if values is None:
        return []
    if isinstance(values, dict):
        values = [values]
    if not isinstance(values, list | tuple):
        return [[_cell(values)]]
    if all(isinstance(v, dict) for v in values) and values:
        keys = list(values[0].keys())
        return [[_cell(v.get(k)) for k in keys] for v in values]
    if all(isinstance(v, list | tuple) for v in values):
        return [[_cell(c) for c in v] for v in values]
    flat = [_cell(v if not isinstance(v, list | tuple | dict) else str(v)) for v in values]
    if gold_rows is not None and len(gold_rows) == 1 and len(gold_rows[0]) == len(flat) > 1:
        return [flat]
    return [[v] for v in flat]


def _cell(v: Any) -> Cell:
    if v is None or isinstance(v, str | int | float):
        return v  # type: ignore[return-value]
    if isinstance(v, bool):
        return int(v)
    return str(v)


@dataclass
class RoundScore:
    """The score of one round. ``correct`` is EX == 1."""

    round_index: int
    kinds: list[str]
    gold_unanswerable: bool
    agent_unanswerable: bool
    answered: bool
    answer_source: str
    execution_accuracy: float
    precision: float
    recall: float
    f1: float
    n_answer_rows: int = 0
    n_gold_rows: int = 0
    notes: list[str] = field(default_factory=list)

    @property
    def correct(self) -> bool:
        return self.execution_accuracy >= 1.0

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["correct"] = self.correct
        return d


def score_round(
    round_index: int,
    kinds: Sequence[str],
    gold_rows: Sequence[Sequence[Any]] | None,
    gold_unanswerable: bool,
    submission: dict[str, Any] | None,
    cfg: ScoringConfig = DEFAULT_CONFIG,
) -> RoundScore:
    """Score one round from the env's submission record (None: never answered)."""
    if submission is None:
        return RoundScore(round_index, list(kinds), gold_unanswerable, False, False, "none", 0.0, 0.0, 0.0, 0.0,
                          0, len(gold_rows or []), ["round not answered"])
    agent_unans = bool(submission.get("unanswerable"))
    rows = submission.get("rows") or []
    source = str(submission.get("source") or "none")
    if gold_unanswerable:
        s = 1.0 if agent_unans else 0.0
        return RoundScore(round_index, list(kinds), True, agent_unans, True, source, s, s, s, s, len(rows), 0)
    gold = [list(r) for r in (gold_rows or [])]
    if agent_unans:
        return RoundScore(round_index, list(kinds), False, True, True, source, 0.0, 0.0, 0.0, 0.0, 0, len(gold),
                          ["declared unanswerable, but the data holds the answer"])
    if source == "text":
        rows = values_from_text(str(submission.get("text") or ""))
    elif source == "values":
        rows = normalise_values(submission.get("values"), gold)
    ex = 1.0 if execution_match(rows, gold, cfg) else 0.0
    p, r, f = cell_f1(rows, gold, cfg)
    return RoundScore(round_index, list(kinds), False, False, True, source, ex, p, r, f, len(rows), len(gold))


def task_success(scores: Iterable[RoundScore]) -> bool:
    scores = list(scores)
    return bool(scores) and all(s.correct for s in scores)


def summarize(rounds: Sequence[RoundScore], n_rounds: int | None = None) -> dict[str, Any]:
    """Episode-level metrics: mean EX (accuracy), mean F1, success, and per-kind accuracy.

    ``n_rounds`` (the task's round count) makes unanswered rounds count as 0.
    """
    total = n_rounds if n_rounds is not None else len(rounds)
    acc = sum(s.execution_accuracy for s in rounds) / total if total else float("nan")
    f1 = sum(s.f1 for s in rounds) / total if total else float("nan")
    per_kind: dict[str, list[float]] = {}
    for s in rounds:
        for k in s.kinds:
            per_kind.setdefault(k, []).append(s.execution_accuracy)
    return {
        "accuracy": acc,
        "f1": f1,
        "success": len(rounds) == total and task_success(rounds),
        "rounds_answered": sum(1 for s in rounds if s.answered),
        "n_rounds": total,
        "per_kind_accuracy": {k: sum(v) / len(v) for k, v in sorted(per_kind.items())},
    }
