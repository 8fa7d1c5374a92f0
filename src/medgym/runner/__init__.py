"""Batch evaluation: a resumable, concurrent grid of episodes written to an append-only JSONL.

    from medgym.runner import RunConfig, run_batch
    summary = run_batch(RunConfig(out="runs/main", agents=["careful", "sloppy"]))
"""

from medgym.runner.batch import RunSummary, run_batch
from medgym.runner.config import AgentSpec, RunConfig
from medgym.runner.grid import EpisodeSpec, build_grid
from medgym.runner.store import ResultStore, read_results

__all__ = ["AgentSpec", "EpisodeSpec", "ResultStore", "RunConfig", "RunSummary", "build_grid", "read_results", "run_batch"]
