"""medgym: Gymnasium environments that examine clinical AI agents like a senior physician would.

Importing the package registers every environment id (Gymnasium 1.x does not load
plugins through entry points), so both ``gymnasium.make("medgym/StressedDialogue-v0")``
after ``import medgym`` and ``gymnasium.make("medgym:medgym/StressedDialogue-v0")``
work. Registration uses string entry points, so this import stays cheap.
"""

from medgym.envs.registration import register_envs

__version__ = "0.1.0"

register_envs()

__all__ = ["__version__", "register_envs"]
