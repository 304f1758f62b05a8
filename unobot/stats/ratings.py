"""Multiplayer skill ratings from recorded games (openskill's Weng-Lin Plackett-Luce model).

Pure functions over :class:`~unobot.stats.model.GameRecord`: no store, no peewee, so the SQL
and memory stores (updating as each game is recorded) and ``unobot ratings rebuild``
(recomputing from the game rows) share one definition and must agree.

- A game's ranks are its place order (1 = the winner; players who share a place tie). A player
  who left or was removed before the end (``finished=False``) ranks last, tied with any other
  leaver, whatever their points in hand.
- A rating is ``mu`` (estimated skill) and ``sigma`` (its uncertainty); new players start at
  openskill's defaults, mu 25 and sigma 25/3.
- The single number shown on IRC is the conservative estimate ``mu - 3*sigma`` (a player's
  skill is above it with ~99.7 % confidence), scaled by :data:`DISPLAY_SCALE` (40) and
  rounded: a newcomer shows 0 and a good regular several hundred, integers read better in
  chat than 7.43. The uncertainty shown beside it is ``3*sigma`` on the same scale.
- Games with fewer than two players change nothing. Computer players are rated like people.

Plackett-Luce was chosen on held-out games (``python -m unobot.bench ratings``: 1,000
synthetic players with hidden skills, 30,000 games of 2-6, trained on the first 80 %, the
winner of each later game named by highest mu): Plackett-Luce 55.6 % / 51.9 % (normal /
Gumbel performance noise), Bradley-Terry (full) 55.5 % / 51.4 %, Thurstone-Mosteller (full)
53.5 % / 49.6 %, chance about 29 %. Plackett-Luce and Bradley-Terry tie within a point across
seeds; Plackett-Luce is the natural model of a place order (each place a choice among those
left) and is linear, not quadratic, in the players of a game.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce

from unobot.stats.model import GameRecord

__all__ = [
    "DISPLAY_SCALE",
    "MODEL",
    "PlayerRating",
    "conservative",
    "game_ranks",
    "new_rating",
    "rebuild",
    "uncertainty",
    "update",
]

DISPLAY_SCALE = 40
"""Displayed rating = round((mu - 3*sigma) * DISPLAY_SCALE)."""

MODEL: Any = PlackettLuce()
"""The model every store uses (default mu 25, sigma 25/3, beta 25/6, no tau)."""


@dataclass(frozen=True, slots=True)
class PlayerRating:
    mu: float
    sigma: float
    games: int = 0
    """Rated games played (games with at least two players)."""

    @property
    def display(self) -> int:
        return conservative(self.mu, self.sigma)

    @property
    def display_uncertainty(self) -> int:
        return uncertainty(self.sigma)


def new_rating(model: Any = MODEL) -> PlayerRating:
    return PlayerRating(float(model.mu), float(model.sigma), 0)


def conservative(mu: float, sigma: float) -> int:
    """The rating shown on IRC: ``mu - 3*sigma`` scaled by :data:`DISPLAY_SCALE`."""
    return round((mu - 3.0 * sigma) * DISPLAY_SCALE)


def uncertainty(sigma: float) -> int:
    """The ± shown beside the rating: ``3*sigma`` on the display scale."""
    return round(3.0 * sigma * DISPLAY_SCALE)


def game_ranks(game: GameRecord) -> list[tuple[str, int]]:
    """``(ident, rank)`` for each player of ``game`` in result order: finishers by place,
    leavers tied one below the worst finisher's place. An ident listed twice (which the bot
    never records) keeps its first line only."""
    seen: set[str] = set()
    lines = []
    for r in game.results:
        if r.ident not in seen:
            seen.add(r.ident)
            lines.append(r)
    last = max((r.place for r in lines if r.finished), default=0) + 1
    return [(r.ident, r.place if r.finished else last) for r in lines]


def update(
    ratings: Mapping[str, PlayerRating], game: GameRecord, model: Any = MODEL
) -> dict[str, PlayerRating]:
    """The new ratings of ``game``'s players (ident -> rating) given the ratings before it
    (missing idents start fresh). Empty for a game of fewer than two players."""
    ranks = game_ranks(game)
    if len(ranks) < 2:
        return {}
    before = [ratings.get(ident) or new_rating(model) for ident, _ in ranks]
    teams = [[model.rating(mu=b.mu, sigma=b.sigma)] for b in before]
    rated = model.rate(teams, ranks=[float(rank) for _, rank in ranks])
    return {
        ident: PlayerRating(float(team[0].mu), float(team[0].sigma), b.games + 1)
        for (ident, _), team, b in zip(ranks, rated, before, strict=True)
    }


def rebuild(games: Iterable[GameRecord], model: Any = MODEL) -> dict[str, PlayerRating]:
    """Every player's rating after ``games`` in the order given (the order they were
    recorded): deterministic, and equal to updating game by game."""
    ratings: dict[str, PlayerRating] = {}
    for game in games:
        ratings.update(update(ratings, game, model))
    return ratings
