"""``easy``: a uniformly random legal move on its turn, a card whenever it has one to play (it
draws for want of a card, never to hold one back: :func:`without_voluntary_draw`); out of turn
it only jumps in (Jump-In, half the time it can).

It still calls UNO half the time (a play with and without the call are both legal moves), so
it is catchable, like a beginner.
"""

from __future__ import annotations

from random import Random

from unobot.ai.legal import without_voluntary_draw
from unobot.ai.observation import Observation
from unobot.engine import Action, Play

__all__ = ["EasyStrategy"]


class EasyStrategy:
    name = "easy"

    def __init__(self, rng: Random) -> None:
        self.rng = rng

    def act(self, obs: Observation) -> Action | None:
        if not obs.my_turn:
            # Jump-In: the only out-of-turn plays are jumps; take one half the time.
            plays = [a for a in obs.legal if type(a) is Play]
            return self.rng.choice(plays) if plays and self.rng.random() < 0.5 else None
        if not obs.legal:
            return None
        return self.rng.choice(without_voluntary_draw(obs.legal, obs.phase))
