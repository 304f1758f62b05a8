"""The strategy interface and the registry of levels.

A strategy is asked in two situations: on its turn (it must return one of ``obs.legal``), and out
of turn when it could call UNO for itself or catch someone (it may return ``None`` to stay
quiet). It only ever receives an :class:`Observation`, never the game.
"""

from __future__ import annotations

from random import Random
from typing import Protocol

from unobot.ai.observation import Observation
from unobot.engine import Action

__all__ = ["LEVELS", "Strategy", "make_strategy"]

LEVELS = ("easy", "normal", "hard")


class Strategy(Protocol):
    name: str

    def act(self, obs: Observation) -> Action | None:
        """An action from ``obs.legal``; ``None`` only when it isn't this seat's turn."""
        ...


def make_strategy(
    level: str, rng: Random, *, budget_ms: float = 200.0, playouts: int | None = None
) -> Strategy:
    """A strategy by level name. ``budget_ms`` / ``playouts`` size the ``hard`` search."""
    from unobot.ai.easy import EasyStrategy
    from unobot.ai.hard import HardStrategy
    from unobot.ai.normal import NormalStrategy

    name = level.strip().lower()
    if name == "easy":
        return EasyStrategy(rng)
    if name == "normal":
        return NormalStrategy(rng)
    if name == "hard":
        return HardStrategy(rng, budget_ms=budget_ms, playouts=playouts)
    raise ValueError(f"no computer level '{level[:20]}'; levels: {', '.join(LEVELS)}")
