"""The stats interface: plain values in and out, no peewee here.

A player is identified by ``ident``: ``"$a:<account>"`` when the network told us the services
account, else ``"<nick folded with IRC case rules>"`` (``unobot.irc.casemap.irc_lower``).
Figures such as percent-wins and points-per-game are computed from the stored game results,
never kept as counters.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from enum import Enum
from typing import Protocol

from unobot.irc.casemap import irc_lower

__all__ = [
    "GameRecord",
    "ImportedScore",
    "Period",
    "PlayerResult",
    "PlayerStats",
    "Ranking",
    "RatedPlayer",
    "StatsStore",
    "StatsUnavailable",
    "StoredGame",
    "StoredResult",
    "bucket_of",
    "game_key",
    "game_lookups",
    "player_ident",
    "utc_naive",
]


class Period(Enum):
    """Calendar periods in UTC: ``WEEK`` is the current ISO week (from Monday 00:00 UTC),
    ``MONTH`` the current calendar month. Calendar rather than rolling windows so that "this
    week" means the same thing to everyone in the channel, and so that stores can keep one
    summary row per player and period (an index can then rank 100,000 players in
    milliseconds). Imported totals (the old bot's score file) have no dates: they count in
    ``ALL`` only."""

    WEEK = "week"
    MONTH = "month"
    ALL = "all"


def utc_naive(when: datetime) -> datetime:
    """``when`` as a naive UTC datetime (naive input is taken to be UTC already): every store
    keeps naive UTC so SQLite, PostgreSQL and memory compare the same instants."""
    if when.tzinfo is not None:
        when = when.astimezone(UTC).replace(tzinfo=None)
    return when


def bucket_of(period: Period, when: datetime) -> str:
    """The key of the calendar period holding ``when``: ``"all"``, ``"w2026-11-16"`` (the
    Monday) or ``"m2026-11"``. Games are filed under the bucket of their end time."""
    when = utc_naive(when)
    if period is Period.WEEK:
        monday = (when - timedelta(days=when.weekday())).date()
        return f"w{monday.isoformat()}"
    if period is Period.MONTH:
        return f"m{when.year:04d}-{when.month:02d}"
    return "all"


def player_ident(nick: str, account: str | None = None) -> str:
    """The ident the bot uses: ``$a:<account>`` (folded) when known, else the folded nick."""
    return "$a:" + irc_lower(account) if account else irc_lower(nick)


class StatsUnavailable(RuntimeError):
    """The database can't answer a question right now (recording never raises: it queues)."""


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
    moves: str | None = None
    """The game's move list: its table journal (``unobot.core.journal``, JSON lines, cards in
    the notation), which :func:`unobot.core.journal.replay_text` replays call by call. None
    when the bot kept no journal."""
    teams: bool = False
    """Played in teams (``HouseRules.teams``: pairs, or two teams): teammates share their
    team's result, all winners when it wins (schema v8 keeps the flag on the game)."""
    stopped: bool = False
    """Ended before its end by the rules: stopped (``.unostop``, or by the table when no
    person was left) after at least one complete hand. It counts as a game for everyone in
    it, with the points of the hands completed and places by those points, but nobody won
    it: no result has ``won`` (schema v11 keeps the flag on the game)."""


@dataclass(frozen=True, slots=True)
class StoredResult:
    """One player's line of a stored game, with their rating right after it."""

    nick: str
    """The player's current nick (they may have finished the game under another)."""
    place: int
    won: bool
    points_won: int
    points_left: int
    finished: bool
    is_bot: bool
    mu: float | None = None
    sigma: float | None = None
    """The player's rating after this game (None: not rated, e.g. a game of one)."""


@dataclass(frozen=True, slots=True)
class StoredGame:
    """A recorded game as read back (``.unogame``, ``unobot replay``, the web site)."""

    id: int
    """The store's row id (also accepted as a key)."""
    game_id: str
    network: str
    channel: str
    preset: str
    started: datetime
    ended: datetime
    seconds: int
    results: tuple[StoredResult, ...]
    """In place order."""
    moves: str | None = None
    teams: bool = False
    """A team game, in pairs or two teams (:attr:`GameRecord.teams`)."""
    stopped: bool = False
    """Stopped before its end, nobody won it (:attr:`GameRecord.stopped`)."""

    @property
    def short_id(self) -> str:
        """What people type and links carry: the first 8 characters of the game id."""
        return self.game_id[:SHORT_ID]


SHORT_ID = 8
"""Characters of a game id shown to people; a key needs at least :data:`MIN_KEY`."""
MIN_KEY = 6


def game_key(text: str) -> str | int | None:
    """What a typed game reference means: a row id (digits, at most 12) or a game-id prefix
    (6 to 32 hex characters, folded to lower case); None for anything else."""
    text = text.strip().lstrip("#").lower()
    if text.isdigit() and len(text) <= 12 and text.isascii():
        return int(text)
    if MIN_KEY <= len(text) <= 32 and all(c in "0123456789abcdef" for c in text):
        return text
    return None


def game_lookups(text: str) -> list[str | int]:
    """The look-ups a typed game reference asks for, in order (a store takes the first that
    finds anything): digits are a row id and, from 6 of them, also a game-id prefix, which
    comes first from :data:`SHORT_ID` digits on (1 game id in 40 starts with 8 digits, and
    that is what the bot prints), kept as typed (leading zeros). Empty for no reference."""
    key = game_key(text)
    if not isinstance(key, int):
        return [] if key is None else [key]
    digits = text.strip().lstrip("#")
    if len(digits) < MIN_KEY:
        return [key]
    return [digits, key] if len(digits) >= SHORT_ID else [key, digits]


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
    """Position in the requested ranking (None when below the minimum number of games: a
    leaderboard asked for ``provisional`` players lists them after the ranked ones)."""
    is_bot: bool = False
    """A computer player (never ranked among people unless ``include_bots``)."""
    team_games: int = 0
    """How many of ``games`` were played in teams (:attr:`GameRecord.teams`): the
    leaderboards say so, since a team game's win is shared with teammates."""
    stopped_games: int = 0
    """How many of ``games`` were stopped before their end (:attr:`GameRecord.stopped`):
    games nobody won, which the player's line counts apart."""

    @property
    def percent_wins(self) -> float:
        return 100.0 * self.wins / self.games if self.games else 0.0

    @property
    def points_per_game(self) -> float:
        return self.points / self.games if self.games else 0.0


@dataclass(frozen=True, slots=True)
class RatedPlayer:
    """A player's skill rating (``unobot.stats.ratings``): all-time only, since a rating is
    the state after every game played, not a sum that a week or month could slice."""

    nick: str
    mu: float
    sigma: float
    games: int
    """Rated games (with at least two players)."""
    rank: int | None = None
    """Position by conservative rating (mu - 3*sigma), None below the minimum games."""
    is_bot: bool = False


@dataclass(frozen=True, slots=True)
class ImportedScore:
    """One line of the original bot's score file (``nick games wins points seconds``): totals
    without dates, kept as an aggregate row that the queries add in (period ``ALL`` only)."""

    nick: str
    games: int
    wins: int
    points: int
    seconds: int


class StatsStore(Protocol):
    """What the bot needs from a stats store. Implementations: peewee (SQLite, PostgreSQL)
    and an in-memory one for unit tests; one contract test suite runs against all."""

    def record_game(self, game: GameRecord) -> bool | None:
        """Store a finished game. Never raises for an unreachable database: the game waits in
        a durable local queue and is written when the database is back. Returns False when
        neither the database nor that queue took it (a read-only or full disk): it is kept in
        memory and retried, but would be lost with the process, so the caller keeps a copy
        of its own (the bot keeps the game's journal; ``unobot.core.bot``); else True or
        None."""
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
        provisional: bool = False,
    ) -> list[PlayerStats]:
        """The top ``limit`` players with at least ``min_games`` games, ranked 1..limit; with
        ``provisional``, the room left in ``limit`` goes to the players with fewer games, in
        the same order, unranked (``rank`` None): a new channel's list is never empty."""
        ...

    def rating(
        self, name: str, min_games: int = 5, include_bots: bool = False
    ) -> RatedPlayer | None:
        """A player's skill rating and rank by conservative rating (all-time)."""
        ...

    def rating_leaderboard(
        self, limit: int, min_games: int = 5, include_bots: bool = False, provisional: bool = False
    ) -> list[RatedPlayer]:
        """The top ``limit`` players by conservative rating with at least ``min_games``; with
        ``provisional``, then those rated in fewer games (``rank`` None), as ``leaderboard``."""
        ...

    def game(self, key: str) -> StoredGame | None:
        """A recorded game by row id or game-id prefix (:func:`game_key`), with its move list;
        None when no game (or more than one) matches."""
        ...

    def last_game(self, name: str) -> StoredGame | None:
        """The last recorded game of a player (by ident, current or past nick)."""
        ...

    def close(self) -> None: ...
