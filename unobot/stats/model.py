"""The stats interface: plain values in and out, no peewee here.

A player is identified by ``ident``: ``"$a:<account>"`` when the network told us the services
account, else ``"<nick folded with IRC case rules>"`` (``unobot.casemap.irc_lower``). Figures such
as percent-wins and points-per-game are computed from the stored game results, never kept as
counters.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import Enum
from typing import Protocol

__all__ = ["GameRecord", "Period", "PlayerResult", "PlayerStats", "Ranking", "StatsStore"]


class Period(Enum):
    WEEK = "week"
    MONTH = "month"
    ALL = "all"


class Ranking(Enum):
    PERCENT_WINS = "pw"
    POINTS_PER_GAME = "ppg"


@dataclass(frozen=True, slots=True)
class PlayerResult:
    """One player's line in a finished game."""

    ident: str
    nick: str
    """The nick they had at the end of the game (kept in the nick history)."""
    place: int
    """1 for the winner; others by points left in hand (ties share a place)."""
    won: bool
    points_won: int
    """Points scored in this game (winner-collects: the winner's haul; own-points: own total)."""
    points_left: int
    """Points of the cards left in their hand at the end (0 for whoever went out)."""
    finished: bool = True
    """False when they left or were removed before the end."""
    account: str | None = None
    is_bot: bool = False
    """A computer player: recorded, but left out of human rankings by default."""


@dataclass(frozen=True, slots=True)
class GameRecord:
    """A finished game, written in one transaction (exactly once, even across retries)."""

    game_id: str
    """Unique id chosen by the bot (e.g. uuid4 hex): makes retries idempotent."""
    network: str
    channel: str
    preset: str
    started: datetime
    ended: datetime
    results: tuple[PlayerResult, ...]


@dataclass(frozen=True, slots=True)
class PlayerStats:
    nick: str
    """The player's current (last seen) nick."""
    games: int
    wins: int
    points: int
    seconds: int
    """Time spent in games."""
    rank: int | None = None
    """Position in the requested ranking (None when below the minimum number of games)."""

    @property
    def percent_wins(self) -> float:
        return 100.0 * self.wins / self.games if self.games else 0.0

    @property
    def points_per_game(self) -> float:
        return self.points / self.games if self.games else 0.0


class StatsStore(Protocol):
    """What the bot needs from a stats store. Implementations: peewee (SQLite, PostgreSQL)
    and an in-memory one for unit tests; one contract test suite runs against all."""

    def record_game(self, game: GameRecord) -> None:
        """Store a finished game. Never raises for an unreachable database: the game waits in
        a durable local queue and is written when the database is back."""
        ...

    def player(
        self,
        name: str,
        ranking: Ranking = Ranking.PERCENT_WINS,
        period: Period = Period.ALL,
        channel: str | None = None,
        min_games: int = 5,
        include_bots: bool = False,
    ) -> PlayerStats | None:
        """A player's figures by ident, current nick or last nick (IRC case rules)."""
        ...

    def leaderboard(
        self,
        ranking: Ranking,
        limit: int,
        period: Period = Period.ALL,
        channel: str | None = None,
        min_games: int = 5,
        include_bots: bool = False,
    ) -> list[PlayerStats]:
        """The top ``limit`` players with at least ``min_games`` games, ranked 1..limit."""
        ...

    def close(self) -> None: ...
