"""Legal moves as a player who plays when they can sees them (random players, ``easy``)."""

from __future__ import annotations

from unobot.engine import Action, Draw, Phase, Play

__all__ = ["without_voluntary_draw"]


def without_voluntary_draw(legal: tuple[Action, ...], phase: Phase) -> tuple[Action, ...]:
    """``legal`` as a player who plays a card when they can sees it: on a turn with a card to
    play, the draw the rules also offer (``HouseRules.voluntary_draw``) is left out. A random
    player who drew at will would hoard cards, and hands would last ten times as long (the
    engine's random games at bac-tournament: ~630 actions, against ~76). Facing a pending draw
    the draw stays: it is the answer, and the plays are stacks. The order of what is left is
    ``legal``'s."""
    if phase is not Phase.PLAY or not any(type(a) is Play for a in legal):
        return legal
    return tuple(a for a in legal if type(a) is not Draw)
