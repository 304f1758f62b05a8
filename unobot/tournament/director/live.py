"""A game the director has seated, and the small translations between tables and the sheet."""

from __future__ import annotations

import dataclasses

from unobot.core.table import Table
from unobot.engine.events import HandOutcome
from unobot.tournament.model import Game, Hand
from unobot.tournament.state import Tournament

__all__ = ["Live", "hand_of", "tag"]


@dataclasses.dataclass(slots=True)
class Live:
    """A game the director has seated and not yet seen end."""

    tournament: str
    game: Game
    channel: str
    hands: list[Hand] = dataclasses.field(default_factory=list)
    table: Table | None = None
    replayed: bool = False
    """The game was seated again after a restart found no table for it."""
    ready: float | None = None
    """When (wall clock) this process first saw its table open with the bot in the channel:
    the no-show grace never ends sooner than a grace after it (after a restart the bot must
    first get back in and hear who is there)."""


def hand_of(names: tuple[str, ...], outcome: HandOutcome) -> Hand:
    """The sheet's view of an engine hand; an incomplete one (the game's clock cut it short:
    the table reports it as a hand with no winner) is marked ``clock``."""
    winner = names[outcome.winner] if 0 <= outcome.winner < len(names) else None
    points, scores = tuple(outcome.points), tuple(outcome.scores)
    return Hand(names, points, scores, winner, clock=not outcome.complete)


def tag(tournament: Tournament, game: Game) -> str:
    """The table's ``TableConfig.tournament``: which tournament's game it plays."""
    return f"{tournament.name}/{game.key}"
