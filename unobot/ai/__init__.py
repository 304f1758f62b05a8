"""Computer players: what a seat may see (observation), strategies by level, and the arena.

``make_strategy("easy" | "normal" | "hard", rng)`` gives a strategy; strategies receive only an
:class:`~unobot.ai.observation.Observation` and answer with an engine action.
"""

from unobot.ai.observation import Observation, Observer, PlayRecord
from unobot.ai.strategy import LEVELS, Strategy, make_strategy

__all__ = ["LEVELS", "Observation", "Observer", "PlayRecord", "Strategy", "make_strategy"]
