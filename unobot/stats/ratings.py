"""Multiplayer skill ratings from recorded games (openskill's Weng-Lin Plackett-Luce model).

Pure functions over :class:`~unobot.stats.model.GameRecord`: no store, no peewee, so the SQL
and memory stores (updating as each game is recorded) and ``unobot ratings rebuild``
(recomputing from the game rows) share one definition and must agree.

- A game's ranks are its place order (1 = the winner; players who share a place tie). A player
  who left or was removed before the end (``finished=False``) ranks last, tied with any other
  leaver, whatever their points in hand.
- A rating is ``mu`` (estimated skill) and ``sigma`` (its uncertainty); new players start at
  openskill's defaults, mu 25 and sigma 25/3.
- The single number shown (IRC and the site alike) is the conservative estimate ``mu -
  3*sigma`` (a player's skill is above it with ~99.7 % confidence), scaled by
  :data:`DISPLAY_SCALE` (40) from :data:`DISPLAY_BASE` (1000) and floored at 0: a newcomer
  shows 1000 and a good regular around 2000; integers read better in chat than 7.43. It is
  a monotonic function of ``mu - 3*sigma`` (the stored ``ordinal``), so everything that
  ranks by rating ranks by the number people see. Until a player has the minimum games
  (``stats.min_games``) the number is marked *provisional* instead of being shown with a
  ``±``: two games in, ``-21 ± 952`` looked broken. :func:`uncertainty` (``3*sigma`` on the
  same scale) stays for the site's JSON.
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

from unobot.i18n import domain
from unobot.stats.model import GameRecord

_, ngettext = domain("stats")

__all__ = [
    "DISPLAY_BASE",
    "DISPLAY_SCALE",
    "EXPLAINED",
    "MODEL",
    "PlayerRating",
    "conservative",
    "explained",
    "game_ranks",
    "new_rating",
    "rebuild",
    "uncertainty",
    "update",
]

DISPLAY_SCALE = 40
"""Displayed rating = max(0, round(DISPLAY_BASE + (mu - 3*sigma) * DISPLAY_SCALE))."""
DISPLAY_BASE = 1000
"""What a newcomer shows (their ``mu - 3*sigma`` is 0): below it only after losing early,
and no result can take the number below 0 (a player would need ``mu - 3*sigma`` < -25)."""

EXPLAINED = (
    "Rating: a cautious estimate of skill from your places in every game and whom you "
    "played; it starts at 1000, grows as your results make it surer, and is provisional "
    "until you have played {min_games} games."
)
"""The one sentence ``.unohelp``, docs/stats-site.md and the site say about ratings
(``{min_games}``: ``stats.min_games``), in English; :func:`explained` says it in the language
being spoken."""


def explained(min_games: int) -> str:
    """:data:`EXPLAINED` in the language being spoken (a :class:`~unobot.i18n.Text`, so a
    reply re-speaks it in its reader's language). The message id stays the English sentence
    above (its plural form: the minimum is a count, and Polish has three forms of it), so
    code formatting ``EXPLAINED`` itself keeps working, in English."""
    return ngettext(
        "Rating: a cautious estimate of skill from your places in every game and whom you "
        "played; it starts at 1000, grows as your results make it surer, and is provisional "
        "until you have played {min_games} game.",
        "Rating: a cautious estimate of skill from your places in every game and whom you "
        "played; it starts at 1000, grows as your results make it surer, and is provisional "
        "until you have played {min_games} games.",
        min_games,
        min_games=min_games,
    )


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
    """The rating shown on IRC and the site: ``mu - 3*sigma`` on the display scale, never
    below 0 (see the module's docstring)."""
    return max(0, round(DISPLAY_BASE + (mu - 3.0 * sigma) * DISPLAY_SCALE))


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
