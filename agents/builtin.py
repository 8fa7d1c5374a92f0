"""Registration of the built-in agents (imported lazily by the registry).

Other testbeds add their agents here as they land, so every agent is reachable
by name from the CLI and the batch runner.
"""

from __future__ import annotations

from typing import Any

from medgym.agents.registry import AGENTS


def _careful(**kw: Any):
    from medgym.agents.reference_clinician import careful

    return careful(**kw)


def _sloppy(**kw: Any):
    from medgym.agents.reference_clinician import sloppy

    return sloppy(**kw)


def _llm_clinician(**kw: Any):
    from medgym.agents.llm_clinician import LLMClinician

    return LLMClinician(**kw)


def _sql_reference(**kw: Any):
    from medgym.agents.sql_reference import make_sql_reference_agent

    return make_sql_reference_agent(**kw)


def _sql_llm(**kw: Any):
    from medgym.agents.sql_llm import make_sql_llm_agent

    return make_sql_llm_agent(**kw)


def _rag_reference(**kw: Any):
    from medgym.agents.rag_reference import make_reference_agent

    return make_reference_agent(**kw)


def _rag_llm(**kw: Any):
    from medgym.agents.rag_llm import make_llm_agent

    return make_llm_agent(**kw)


_BUILTINS = {
    "careful": _careful,
    "sloppy": _sloppy,
    "llm": _llm_clinician,
    "sql-reference": _sql_reference,
    "sql-llm": _sql_llm,
    "rag-reference": _rag_reference,
    "rag-llm": _rag_llm,
}
for _name, _factory in _BUILTINS.items():
    if _name not in AGENTS:
        AGENTS.register(_name, _factory)
