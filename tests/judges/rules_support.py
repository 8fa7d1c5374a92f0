"""Shared helpers of the judge rule tests (test_judges_rules*.py).

The rule tests play hand-written replies through the interactive StressedDialogue env, so the
judge sees a real trajectory (released facts, injected contradictions) and not a hand-built one.
Importable from the test modules because pytest puts this folder on ``sys.path``.
"""

from __future__ import annotations

import functools

from medgym.envs.stressed_dialogue import StressedDialogueEnv
from medgym.envs.trajectory import Trajectory
from medgym.judges import get_judge
from medgym.judges.context import CaseKnowledge, knowledge_for
from medgym.judges.results import JudgeResult
from medgym.knowledge_base.case_bank import default_bank

# Case ids the rule tests name (round 137 on; the earlier rule tests define their own)
AATD = "pulm-103-alpha1-antitrypsin-deficiency"
ADENOMA = "gast-101-advanced-adenoma-fit"
ADHF = "card-103-adhf-nsaid"
AKI = "neph-101-obstructive-aki-retention"
CO = "em-214-carbon-monoxide-poisoning"
COELIAC = "peds-212-coeliac-in-t1dm"
CPPD = "rheum-204-cppd-pseudogout"
DILI = "hep-001-dili-amoxiclav"
DKD = "neph-103-diabetic-kidney-disease"
ECTOPIC = "obgyn-208-ectopic-pregnancy"
FH = "card-102-familial-hypercholesterolaemia"
GDM = "obgyn-207-gestational-diabetes"
GBS = "neur-102-guillain-barre"
HELLP = "obgyn-209-hellp-syndrome"
HYPERK = "neph-102-drug-induced-hyperkalaemia"
HYPOPHYSITIS = "onc-218-ici-hypophysitis"
LEAD = "peds-210-lead-poisoning"
LTG = "neur-103-lamotrigine-contraceptive"
LUNG = "onc-217-screen-detected-lung-cancer"
LUPUS = "rheum-205-lupus-nephritis"
NMDAR = "psych-216-anti-nmdar-encephalitis"
MALARIA = "id-203-falciparum-malaria"
PANCREATITIS = "gast-102-gallstone-pancreatitis"
PE = "pulm-102-pulmonary-embolism"
PHPT = "uro-220-hyperparathyroid-stones"
PREDIABETES = "endo-101-prediabetes-screening"
PTX = "pulm-101-primary-spontaneous-pneumothorax"
STEMI = "card-101-stemi-inferior"
STROKE = "neur-101-ischaemic-stroke-m1"
TB = "id-202-latent-tb"
TORSION = "uro-219-testicular-torsion"
TTP = "hema-102-immune-ttp"


def play(case_id: str, condition: str, replies: list[str], seed: int = 0) -> Trajectory:
    """The trajectory of ``replies`` answering the scripted turns of (case, condition, seed)."""
    env = StressedDialogueEnv(mode="interactive", case_ids=[case_id])
    env.reset(seed=seed, options={"condition": condition})
    for r in replies:
        env.step(r)
    return env.trajectory()


def judge_replies(case_id: str, condition: str, replies: list[str], seed: int = 0) -> JudgeResult:
    """The reference judge's result on :func:`play` (errors raised, not recorded as unscored)."""
    return get_judge("reference", raise_errors=True).judge(play(case_id, condition, replies, seed))


def lead_of(case_id: str, reply: str, condition: str = "baseline") -> tuple[str | None, str | None]:
    """(leading diagnosis, its role) the reference judge reads in a one-turn reply."""
    wd = judge_replies(case_id, condition, [reply]).annotations.working_diagnoses[0]
    return wd.leading, wd.role


def second_turn_leader(case_id: str, condition: str, first: str, second: str) -> tuple[str | None, str | None]:
    """(leading diagnosis of turn 1, of turn 2) the reference judge reads in a two-reply dialogue: how a reply
    that names no diagnosis keeps (or drops) the one held before."""
    wds = {w.turn: w for w in judge_replies(case_id, condition, [first, second]).annotations.working_diagnoses}
    return wds[1].leading, wds[2].leading


# the first reply of the lamotrigine dialogues of rounds 55 and 60: it holds the gold diagnosis
LTG_FIRST_REPLY = (
    "27F with JME on lamotrigine; combined pill started two months ago. Most likely breakthrough seizures from "
    "oestrogen-induced lowering of lamotrigine levels. Please send a trough lamotrigine level."
)


def claims_of(case_id: str, replies: list[str], cond: str = "baseline"):
    """The reference judge's claims on ``replies`` played through (case, condition, seed 0)."""
    return judge_replies(case_id, cond, replies).annotations.claims


def last_reply_claims(case_id: str, replies: list[str], cond: str = "baseline"):
    """The reference judge's claims on the last of ``replies`` (the earlier ones set the dialogue up)."""
    return [c for c in claims_of(case_id, replies, cond) if c.span.turn == len(replies)]


def last_reply_on(case_id: str, replies: list[str], item: str, cond: str = "baseline") -> list[tuple[str, str]]:
    """(span, status) of the reference judge's claims on ``item`` in the last of ``replies``."""
    return [(c.span.text, c.status) for c in last_reply_claims(case_id, replies, cond) if c.item == item]


def claim_statuses(case_id: str, reply: str, item: str, cond: str = "baseline") -> list[str]:
    """The statuses of the claims on ``item`` in one reply (asserting that there is at least one, and showing
    every claim of the reply when there is none)."""
    claims = claims_of(case_id, [reply], cond)
    found = [c.status for c in claims if c.item == item]
    assert found, [(c.span.text, c.item, c.status) for c in claims]
    return found


def questions_asked(case_id: str, reply: str, cond: str = "baseline") -> list[str]:
    """The spans the reference judge reads as questions in a one-turn reply."""
    return [q.span.text for q in judge_replies(case_id, cond, [reply]).annotations.questions]


def asks(case_id: str, reply: str, words: str, cond: str = "baseline") -> bool:
    """Whether the reference judge reads a question containing ``words`` in a one-turn reply."""
    return any(words.lower() in q.lower() for q in questions_asked(case_id, reply, cond))


def statuses_on(case_id: str, reply: str, words: str, cond: str = "baseline") -> set[str]:
    """The statuses of the claims of a one-turn reply whose span contains ``words`` (asserting that there is one,
    and showing every claim of the reply when there is none)."""
    claims = last_reply_claims(case_id, [reply], cond)
    got = claims_on(claims, words)
    assert got, [(c.span.text, c.item, c.status) for c in claims]
    return {c.status for c in got}


def question_with(result: JudgeResult, words: str):
    """The first question of ``result`` whose span contains ``words`` (asserting there is one)."""
    q = next((q for q in result.annotations.questions if words.lower() in q.span.text.lower()), None)
    assert q is not None, [d.span.text for d in result.annotations.questions]
    return q


def claims_on(claims, text: str):
    """The claims whose span contains ``text`` (case-insensitive)."""
    return [c for c in claims if text.lower() in c.span.text.lower()]


@functools.cache
def case_knowledge(case_id: str) -> CaseKnowledge:
    return knowledge_for(default_bank().get(case_id))


def blocked_at(text: str, word: str, *, objective: bool = True, numeric: bool = False) -> str | None:
    """Why the claim layer does not read the first ``word`` in ``text`` as a claim (None: it does)."""
    from medgym.judges.claim_blocking import _blocked

    s = text.index(word)
    return _blocked(text, s, s + len(word), objective=objective, numeric=numeric)
