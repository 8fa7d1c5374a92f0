"""What forked worker processes need, shared by the batch runner and the judges.

Why fork: the reference judge and the MiniLM weights are loaded once in the parent and
shared copy-on-write, so a worker starts in milliseconds instead of loading a model.
Why :func:`after_fork`: libgomp's thread pool (torch's intra-op threads) does not
survive ``fork``; a child that runs torch after the parent has used it would hang. One
intra-op thread per worker is also the right share of a machine with one worker per core.
"""

from __future__ import annotations

import multiprocessing as mp
import os
import sys


def fork_available() -> bool:
    """True where worker processes can be forked (Linux)."""
    return "fork" in mp.get_all_start_methods() and sys.platform.startswith("linux")


def cores() -> int:
    """CPUs this process may run on (respects taskset/cgroup affinity)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def after_fork() -> None:
    """Make torch safe to use in a freshly forked child (see module docstring)."""
    if "torch" in sys.modules:
        sys.modules["torch"].set_num_threads(1)
