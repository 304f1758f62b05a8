"""``easy``: a uniformly random legal move on its turn; never speaks out of turn.

It still calls UNO half the time (a play with and without the call are both legal moves), so
it is catchable, like a beginner.
"""

from __future__ import annotations

from random import Random

from unobot.ai.observation import Observation
from unobot.engine import Action

__all__ = ["EasyStrategy"]


class EasyStrategy:
    name = "easy"

    def __init__(self, rng: Random) -> None:
        self.rng = rng

    def act(self, obs: Observation) -> Action | None:
        if not obs.my_turn or not obs.legal:
            return None
        return self.rng.choice(obs.legal)
