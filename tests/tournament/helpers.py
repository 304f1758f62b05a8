"""What the format tests (knockout, rotation, ocuk) build and read alike: results, seats, lines."""

from __future__ import annotations

from unobot.engine.rules import PRESETS
from unobot.tournament.model import Announce, Game, Result, Seat, Step


def result(key: str, totals: dict[str, int], gone: tuple[str, ...] = ()) -> Result:
    """A result as the engine gives it under own points: the lowest totals win."""
    low = min(totals.values(), default=0)
    winners = tuple(n for n, t in totals.items() if t == low)
    return Result(key, tuple(totals.items()), winners, (), gone)


def seats(steps: list[Step]) -> list[Game]:
    return [s.game for s in steps if isinstance(s, Seat)]


def texts(steps: list[Step]) -> list[str]:
    return [s.text for s in steps if isinstance(s, Announce)]


def names(n: int, prefix: str = "p") -> list[str]:
    return [f"{prefix}{i}" for i in range(1, n + 1)]


def rules_parse(game: Game) -> None:
    """Every option the format gives the table parses, and the table's size is allowed."""
    rules = PRESETS[game.rules]
    for option, value in game.options:
        rules = rules.with_option(option, value)
    assert rules.min_players <= len(game.players) <= rules.max_players
