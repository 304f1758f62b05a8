"""Computer players for UNO Flip (:class:`~unobot.engine.flip.FlipGame`): ``easy`` and
``normal``.

The classic strategies (``easy``, ``normal``, ``hard``) read an :class:`Observation` of the
classic ``Game`` (cards of the 108-card deck); a Flip game has double-sided cards, so they
can't be handed one. :func:`flip_action` plays from the engine's ``legal_actions``, reading
only the mover's own hand (its faces in play) and the piles' tops:

- ``easy``: a random legal move, a card whenever it has one (draws only for want of a card);
- ``normal``: the card worth the most points on the side in play (what it would lose if caught
  holding it), wilds kept for last, the colour it holds most when naming one; it never
  challenges;
- ``hard`` is :mod:`unobot.ai.flip_hard` (a search on its seat's ``FlipView``); asked here
  (no time to search), it plays as ``normal``.

Every level calls UNO with its next-to-last card (:func:`with_uno_call`, applied when the
move is made) and catches a person's missed call (``unobot.core.computers``); the turn's
move is chosen among the turn's actions only (the call and the catch are not one).
"""

from __future__ import annotations

from collections import Counter
from random import Random

from unobot.engine.actions import CallUno, Catch, Draw, Pass
from unobot.engine.flip import FlipAction, FlipChoose, FlipColor, FlipGame, FlipPlay

__all__ = ["flip_action", "with_uno_call"]


def with_uno_call(game: FlipGame, seat: int, action: FlipAction) -> FlipAction:
    """``action`` as a computer player makes it: a play of its next-to-last card calls UNO
    with it (the sheet: "must have called "UNO" when playing the next-to-last card")."""
    if type(action) is FlipPlay and not action.uno and len(game.hands[seat]) == 2:
        return FlipPlay(action.face, action.color, uno=True)
    return action


def flip_action(game: FlipGame, level: str, rng: Random) -> FlipAction:
    """The move of a computer player of ``level`` to move in ``game`` (one of its legal
    actions)."""
    legal = [a for a in game.legal_actions() if type(a) is not CallUno and type(a) is not Catch]
    if not legal:
        raise ValueError("not this player's turn")
    plays = [a for a in legal if type(a) is FlipPlay]
    if level == "easy":
        return rng.choice(plays) if plays else legal[0]
    seat = game.current
    held = Counter(
        c.face(game.side).color for c in game.hands[seat] if c.face(game.side).color is not None
    )

    def best(color: FlipColor) -> int:
        return held.get(color, 0)

    chooses = [a for a in legal if type(a) is FlipChoose]
    if chooses:
        return max(chooses, key=lambda a: best(a.color))  # type: ignore[union-attr]
    if plays:
        colored = [a for a in plays if not a.face.is_wild]  # type: ignore[union-attr]
        if colored:
            return max(colored, key=lambda a: (a.face.points, best(a.face.color)))  # type: ignore
        return max(plays, key=lambda a: best(a.color))  # type: ignore[union-attr,arg-type]
    for action in legal:
        if type(action) is Draw or type(action) is Pass:
            return action
    return legal[0]
