"""What a player can do, as typed values (never strings).

Every action is a small frozen value; the engine hands out cached instances from
``Game.legal_actions`` so that simulations allocate nothing per move, but any equal value built
by hand (``Play(Card.parse("R5"))``) is accepted the same.
"""

from __future__ import annotations

from dataclasses import dataclass

from unobot.engine.cards import Card, Color

__all__ = [
    "Action",
    "CallUno",
    "Catch",
    "Challenge",
    "ChooseColor",
    "Draw",
    "Pass",
    "Play",
    "Swap",
]


@dataclass(frozen=True, slots=True)
class Play:
    """Play ``card``; ``color`` names the new colour for a wild. ``uno`` calls UNO with the play.

    ``target``: with Seven-O, the seat a 7 swaps hands with (-1: none given; the player then
    names it with :class:`Swap`). The engine refuses a target with any other card."""

    card: Card
    color: Color | None = None
    uno: bool = False
    target: int = -1


@dataclass(frozen=True, slots=True)
class Draw:
    """Draw (one card, until playable, or the pending stack total, as the rules and state say).

    While a Draw Two / Wild Draw Four is pending, drawing accepts the penalty."""


@dataclass(frozen=True, slots=True)
class Pass:
    """End the turn after drawing."""


@dataclass(frozen=True, slots=True)
class CallUno:
    """Say "UNO" (any time, for a player who has just gone down to one card)."""


@dataclass(frozen=True, slots=True)
class Catch:
    """Catch ``target`` (a seat) who went down to one card without calling UNO."""

    target: int


@dataclass(frozen=True, slots=True)
class Challenge:
    """Challenge the Wild Draw Four just played on you."""


@dataclass(frozen=True, slots=True)
class ChooseColor:
    """Name the colour when a Wild is the first card turned up."""

    color: Color


@dataclass(frozen=True, slots=True)
class Swap:
    """Seven-O: name the seat to swap hands with, after playing a 7 without a target."""

    target: int


Action = Play | Draw | Pass | CallUno | Catch | Challenge | ChooseColor | Swap
