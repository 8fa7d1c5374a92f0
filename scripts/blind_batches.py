"""Plan the next blind judge-validation set: its case grouping and its four helper briefs.

    python scripts/blind_batches.py group 210 211 212 213 --seed 28
    python scripts/blind_batches.py briefs --first 214 --groups groups.json --stop 08:30 \\
        --readmes 210 213 --format-file heldout210_src/pulm_101.yaml --out /tmp/briefs

Why a script: every session writes the next set the same way (docs/blind_batches.md), and the
session's scratch tools vanish with the machine. ``group`` takes the sixteen cases of four earlier
batches and searches random regroupings for the one that puts together the fewest case pairs already
grouped in any earlier heldout*_src folder (cases are the yaml basenames), so each batch mixes cases
in a new way. ``briefs`` fills the current brief template (the last ```markdown block of
docs/blind_batches.md) with the batch number, its cases, the hard stop and the convention files.
Case ids are looked up in the case bank from the yaml basenames (``card_102`` ->
``card-102-familial-hypercholesterolaemia``).
"""

from __future__ import annotations

import argparse
import collections
import itertools
import json
import random
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
JUDGE_TESTS = ROOT / "tests" / "judges"
DOC = ROOT / "docs" / "blind_batches.md"
# the convention files the current template names, replaced by the ones given on the command line
_TEMPLATE_README = re.compile(r"tests/judges/heldout(\d+)_src/README\.md")
_TEMPLATE_FORMAT = re.compile(r"tests/judges/heldout\d+_src/\w+\.yaml")
_TEMPLATE_FORBID = re.compile(r"heldout\d+\* to heldout\d+\*")


def earlier_groups() -> list[list[str]]:
    """The case keys of every earlier labelled folder (one group per folder)."""
    groups = []
    for d in sorted(JUDGE_TESTS.glob("heldout*_src")) + [JUDGE_TESTS / "validation_src"]:
        keys = sorted(p.stem for p in d.glob("*.yaml"))
        if keys:
            groups.append(keys)
    return groups


def best_grouping(cases: list[str], seed: int, tries: int = 200_000) -> tuple[int, list[list[str]]]:
    """(cost, four groups of four) with the fewest case pairs already grouped together before."""
    pairs: collections.Counter[frozenset[str]] = collections.Counter()
    for g in earlier_groups():
        for a, b in itertools.combinations(g, 2):
            pairs[frozenset((a, b))] += 1
    rnd = random.Random(seed)
    best: tuple[int, list[list[str]]] | None = None
    for _ in range(tries):
        c = cases[:]
        rnd.shuffle(c)
        gs = [sorted(c[i : i + 4]) for i in range(0, len(c), 4)]
        cost = sum(pairs[frozenset(p)] for g in gs for p in itertools.combinations(g, 2))
        if best is None or cost < best[0]:
            best = (cost, gs)
    assert best is not None
    return best


def case_id(key: str) -> str:
    """The case-bank id of a yaml basename ("card_102" -> "card-102-familial-hypercholesterolaemia")."""
    from medgym.knowledge_base.case_bank import default_bank

    prefix = key.replace("_", "-") + "-"
    ids = [c for c in default_bank().ids() if c.startswith(prefix)]
    if len(ids) != 1:
        raise SystemExit(f"case key {key!r}: expected one case id starting {prefix!r}, found {ids}")
    return ids[0]


def template() -> str:
    blocks = re.findall(r"```markdown\n(.*?)\n```", DOC.read_text(encoding="utf-8"), re.S)
    if not blocks:
        raise SystemExit(f"{DOC}: no ```markdown block (the brief template) found")
    return blocks[-1]


def fill(t: str, n: int, cases: list[str], stop: str, readmes: tuple[int, int], fmt: str, forbid: str) -> str:
    old = sorted({int(x) for x in _TEMPLATE_README.findall(t)})
    if len(old) != 2:
        raise SystemExit(f"{DOC}: the template should name two convention READMEs, found {old}")
    t = t.replace(f"heldout{old[0]}_src/README.md", f"heldout{readmes[0]}_src/README.md")
    t = t.replace(f"heldout{old[1]}_src/README.md", f"heldout{readmes[1]}_src/README.md")
    t = _TEMPLATE_FORMAT.sub(f"tests/judges/{fmt}", t)
    t = _TEMPLATE_FORBID.sub(forbid, t)
    return t.replace("{N}", str(n)).replace("{CASES}", ", ".join(cases)).replace("{STOP}", stop)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    g = sub.add_parser("group", help="regroup the cases of four earlier batches")
    g.add_argument("batches", nargs=4, type=int)
    g.add_argument("--seed", type=int, default=0)
    g.add_argument("--tries", type=int, default=200_000)
    b = sub.add_parser("briefs", help="write the four helper briefs")
    b.add_argument("--first", type=int, required=True, help="number of the first new batch")
    b.add_argument("--groups", type=Path, required=True, help="JSON list of four lists of yaml basenames")
    b.add_argument("--stop", required=True, help="hard stop, HH:MM UTC")
    b.add_argument("--readmes", nargs=2, type=int, required=True, help="batches whose READMEs set the conventions")
    b.add_argument("--format-file", required=True, help="one spec file, relative to tests/judges/")
    b.add_argument("--out", type=Path, required=True)
    a = ap.parse_args(argv)
    if a.cmd == "group":
        cases = []
        for n in a.batches:
            keys = sorted(p.stem for p in (JUDGE_TESTS / f"heldout{n}_src").glob("*.yaml"))
            if not keys:
                raise SystemExit(f"tests/judges/heldout{n}_src: no yaml specs")
            cases += keys
        cost, groups = best_grouping(cases, a.seed, a.tries)
        print(json.dumps({"cost": cost, "groups": groups}))
        return 0
    groups = json.loads(a.groups.read_text(encoding="utf-8"))
    groups = groups["groups"] if isinstance(groups, dict) else groups
    if len(groups) != 4 or any(len(g) != 4 for g in groups):
        raise SystemExit(f"{a.groups}: expected four groups of four yaml basenames, got {groups}")
    if not (JUDGE_TESTS / a.format_file).is_file():
        raise SystemExit(f"--format-file: tests/judges/{a.format_file} does not exist")
    t = template()
    forbid = f"heldout{a.first}* to heldout{a.first + 3}*"
    a.out.mkdir(parents=True, exist_ok=True)
    for i, keys in enumerate(groups):
        n = a.first + i
        text = fill(t, n, [case_id(k) for k in keys], a.stop, tuple(a.readmes), a.format_file, forbid)
        (a.out / f"brief{n}.md").write_text(text, encoding="utf-8")
        print(a.out / f"brief{n}.md", len(text))
    return 0


if __name__ == "__main__":
    sys.exit(main())
