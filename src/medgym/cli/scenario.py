"""``medgym scenario CASE_ID --condition O+I``: print a compiled scenario."""

from __future__ import annotations

import argparse

from medgym.envs.conditions import CONDITION_NAMES


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("scenario", help="compile a case under a stress condition and print it")
    p.add_argument("case_id")
    p.add_argument("--condition", "-c", default="baseline", help=f"one of {', '.join(CONDITION_NAMES)}")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--json", action="store_true", help="print the full Scenario as JSON")
    p.set_defaults(func=_run)


def _run(args: argparse.Namespace) -> int:
    from medgym.envs.compiler import compile_scenario
    from medgym.knowledge_base.case_bank import default_bank

    sc = compile_scenario(default_bank().get(args.case_id), args.condition, args.seed)
    if args.json:
        print(sc.model_dump_json(indent=2))
        return 0
    print(f"# {sc.id}  ({sc.case.title})")
    for t in sc.turns:
        tags = ", ".join(t.kinds)
        rel = f" released={t.released_facts}" if t.released_facts else ""
        inj = f" injected={t.injected_contradictions}" if t.injected_contradictions else ""
        print(f"\n--- turn {t.index} [{tags}]{rel}{inj}\n{t.text}")
    m, p = sc.metadata, sc.protocol
    print("\n# metadata")
    print(f"withheld: {m.withheld_facts}")
    print(f"delayed (fact -> turn): {m.delayed_facts}")
    print(f"injected: {[(i.template_id, i.fact_id, i.turn) for i in m.injected_contradictions]}")
    print("# protocol")
    print(f"key gaps K: {[(g.fact_id, g.reason, g.open_until_turn) for g in p.key_gaps]}")
    print(f"contradictions C: {p.contradictions}")
    print(
        "update opportunities U: "
        f"{[(u.turn, u.kind, u.facts, 'B' if u.requires_substantial_revision else '-') for u in p.update_opportunities]}"
    )
    print(
        f"follow-up required: {p.follow_up_required}; premature closure applicable: "
        f"{p.premature_closure_applicable}; final turn T={p.final_turn}"
    )
    print(f"gold: {sc.gold.diagnosis.name}; leading alternative: {p.leading_alternative}")
    return 0
