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


for _name, _factory in {"careful": _careful, "sloppy": _sloppy, "llm": _llm_clinician}.items():
    if _name not in AGENTS:
        AGENTS.register(_name, _factory)
