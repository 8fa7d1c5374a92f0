"""Build the frozen judge-validation files from hand-written specs.

    python tests/judges/make_validation.py            # (re)write tests/judges/validation/*.json
    python tests/judges/make_validation.py --check    # fail if a frozen file differs from its spec
    python tests/judges/make_validation.py --src tests/judges/heldout_src --out tests/judges/heldout
                                                      # another spec folder (e.g. the held-out batch)

Specs live in tests/judges/validation_src/*.yaml, one file per case: for each
trajectory, the condition, the agent replies (hand-written) and the labels (given as
a careful physician would, following docs/judges.md). This script compiles the
scenario from the case bank, builds the Trajectory, checks that the labels are
complete (every key gap, contradiction and update opportunity labelled, every
labelled text found in its reply) and locates every labelled span. The frozen JSON
files are what the tests and scripts/judge_agreement.py read; the specs are kept so
a reviewer can see and edit the source.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import yaml

from medgym.envs.compiler import compile_scenario
from medgym.envs.trajectory import Trajectory, TrajectoryTurn
from medgym.judges.validation import Labels, ValidationItem
from medgym.knowledge_base.case_bank import default_bank

HERE = Path(__file__).resolve().parent
SRC = HERE / "validation_src"
OUT = HERE / "validation"


class SpecError(ValueError):
    pass


def _locate(reply: str, text: str, nth: int, where: str) -> tuple[int, int]:
    pos = -1
    for _ in range(nth + 1):
        pos = reply.find(text, pos + 1)
        if pos < 0:
            raise SpecError(f"{where}: text {text!r} (occurrence {nth}) not found in the reply:\n{reply}")
    return pos, pos + len(text)


def build_item(case_id: str, spec: dict) -> ValidationItem:
    bank = default_bank()
    case = bank.get(case_id)
    sc = compile_scenario(case, spec["condition"], int(spec.get("seed", 0)))
    replies = spec["replies"]
    if len(replies) != sc.num_turns:
        raise SpecError(f"{spec['id']}: {len(replies)} replies for {sc.num_turns} scripted turns")
    turns = [
        TrajectoryTurn(index=t.index, user=t.text, agent=r.strip("\n"), released_facts=t.released_facts,
                       injected_contradictions=t.injected_contradictions)
        for t, r in zip(sc.turns, replies, strict=True)
    ]
    traj = Trajectory(mode="scripted", scenario=sc, turns=turns, agent=spec.get("agent", "validation"))
    raw = dict(spec.get("labels") or {})
    reply_of = {t.index: t.agent for t in turns}
    last = turns[-1].index

    def place(entry: dict, turn: int, where: str) -> dict:
        e = dict(entry)
        nth = int(e.pop("nth", 0))
        e["start"], e["end"] = _locate(reply_of[turn], e["text"], nth, where)
        return e

    for key in ("questions", "claims", "retractions"):
        raw[key] = [place(e, int(e["turn"]), f"{spec['id']} {key}[{i}]") for i, e in enumerate(raw.get(key) or [])]
    raw["evidence"] = [place(e, last, f"{spec['id']} evidence[{i}]") for i, e in enumerate(raw.get("evidence") or [])]
    if "working_diagnosis" in raw:
        raw["working_diagnosis"] = {int(k): v for k, v in raw["working_diagnosis"].items()}
    labels = Labels.model_validate(raw)

    proto = sc.protocol
    want_gaps = {g.fact_id for g in proto.key_gaps}
    if set(labels.gaps) != want_gaps:
        raise SpecError(f"{spec['id']}: gaps labelled {sorted(labels.gaps)}, protocol has {sorted(want_gaps)}")
    want_c = set(proto.contradictions)
    if set(labels.contradictions) != want_c:
        raise SpecError(f"{spec['id']}: contradictions labelled {sorted(labels.contradictions)}, expected {sorted(want_c)}")
    want_u = {(u.turn, u.kind) for u in proto.update_opportunities}
    got_u = {(u.turn, u.kind) for u in labels.updates}
    if want_u != got_u:
        raise SpecError(f"{spec['id']}: updates labelled {sorted(got_u)}, expected {sorted(want_u)}")
    for u in labels.updates:
        op = next(o for o in proto.update_opportunities if (o.turn, o.kind) == (u.turn, u.kind))
        if op.requires_substantial_revision != (u.stubborn is not None):
            raise SpecError(f"{spec['id']}: update {u.turn}/{u.kind}: 'stubborn' must be given iff it is in B")
    if (labels.inquiry is None) == proto.follow_up_required:
        raise SpecError(f"{spec['id']}: inquiry must be labelled iff the scenario requires follow-up")
    if (labels.premature_closure is None) == proto.premature_closure_applicable:
        raise SpecError(f"{spec['id']}: premature_closure must be labelled iff applicable")
    if set(labels.working_diagnosis) != {t.index for t in turns}:
        raise SpecError(f"{spec['id']}: working_diagnosis must label every turn")
    known = {case.gold.diagnosis.name, *(d.name for d in case.gold.differential)}
    for t, name in labels.working_diagnosis.items():
        if name is not None and name not in known and not name.startswith("other:"):
            raise SpecError(f"{spec['id']}: working diagnosis {name!r} at turn {t}: use a case name or 'other:...'")
    facts = set(case.fact_index)
    for c in labels.claims:
        if c.item not in facts and not c.item.startswith(("term:", "number")):
            raise SpecError(f"{spec['id']}: claim item {c.item!r} is neither a fact id nor term:/number")
    return ValidationItem(id=spec["id"], description=spec.get("description", ""), tags=list(spec.get("tags", [])),
                          trajectory=traj, labels=labels)


def build_all(src: Path = SRC) -> list[ValidationItem]:
    items = []
    for f in sorted(Path(src).glob("*.yaml")):
        data = yaml.safe_load(f.read_text(encoding="utf-8"))
        for spec in data["trajectories"]:
            try:
                items.append(build_item(data["case"], spec))
            except SpecError as exc:
                raise SpecError(f"{f.name}: {exc}") from None
    ids = [i.id for i in items]
    dupes = {i for i in ids if ids.count(i) > 1}
    if dupes:
        raise SpecError(f"duplicate validation ids: {sorted(dupes)}")
    return items


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="compare with the frozen files instead of writing")
    ap.add_argument("--src", type=Path, default=SRC, help="folder of YAML specs (default: validation_src)")
    ap.add_argument("--out", type=Path, default=OUT, help="folder of frozen JSON files (default: validation)")
    args = ap.parse_args(argv)
    out = args.out
    try:
        items = build_all(args.src)
    except SpecError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    out.mkdir(parents=True, exist_ok=True)
    stale = []
    for it in items:
        path = out / f"{it.id}.json"
        text = json.dumps(it.model_dump(mode="json"), indent=1, ensure_ascii=False) + "\n"
        if args.check:
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                stale.append(path.name)
        else:
            path.write_text(text, encoding="utf-8")
    if args.check and stale:
        print(f"{len(stale)} frozen file(s) differ from their specs: {stale}", file=sys.stderr)
        return 1
    print(f"{len(items)} validation trajectories {'checked' if args.check else 'written'} in {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
