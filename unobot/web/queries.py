"""The stats site's reads: plain SQL over the stats database, never a write.

Why not the store's own methods: :class:`~unobot.stats.sql.SqlStatsStore` brings the derived
``player_summary`` rows up to date before answering (a write, and a lock the bots share), drains
its spool and migrates the schema. The site is a separate read-only process, so it reads
``player_summary`` as it is: period figures are as fresh as the bots' last catch-up (their
upkeep runs every 30 s, and before every IRC query). The SQL is the store's (same indexes, same
tie-breaks), so the site and ``.unotop10`` agree on the same rows.

Every query is bounded by an index: the leaderboards walk ``player_summary_rank_*`` and
``player_rating_rank`` (merging one walk per network when no network is chosen); a player's
games come from ``game_result (player_id, game_id)`` newest first, at most
:data:`HISTORY_GAMES`; the channel and network lists skip along the leading column of an
index (a recursive query, a handful of index seeks per distinct value, not a scan).
Placeholders are ``?``, turned into ``%s`` for PostgreSQL by :func:`sql_for`.
"""

from __future__ import annotations

import contextlib
import heapq
import sqlite3
import threading
import time
from collections import Counter
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Any

import peewee as pw

from unobot.irc.casemap import irc_lower
from unobot.stats.game_rows import find_game
from unobot.stats.model import SHORT_ID, Period, StoredGame, bucket_of
from unobot.stats.ratings import conservative, uncertainty
from unobot.stats.record_rows import Record, read_records
from unobot.stats.schema import (
    RECORDS_VERSION,
    STOPPED_VERSION,
    TEAM_BOARDS_VERSION,
    schema_version,
)
from unobot.stats.sql import find_player
from unobot.stats.summaries import sql_for

__all__ = [
    "DB_ERRORS",
    "HISTORY_GAMES",
    "NEEDED_VERSION",
    "Board",
    "BoardLine",
    "Choices",
    "Opponent",
    "PlayerPage",
    "PlayerRow",
    "Reader",
    "RecentGame",
    "TournamentHead",
    "link_key",
    "tournament_head",
    "tournament_heads",
    "tournament_stored",
]

NEEDED_VERSION = 5
"""The schema with rating history and move lists (``unobot.stats.schema`` v5)."""
HISTORY_GAMES = 2_000
"""A player page reads at most this many of the player's latest games (the points chart and
the favourite opponents); the rating chart shows the last :data:`RATING_POINTS` of them."""
RATING_POINTS = 500
RECENT_GAMES = 20
OPPONENTS = 10
BOTS_SECONDS = 60.0
"""How long the list of computer players (left out of rating ranks) is reused."""

DB_ERRORS: tuple[type[BaseException], ...] = (pw.PeeweeException, sqlite3.Error)
try:
    import psycopg2

    DB_ERRORS += (psycopg2.Error,)
except ImportError:  # pragma: no cover - SQLite-only installs
    pass


def link_key(game_id: str) -> str:
    """What a link names a game by: its short id (8 characters), unless those are all
    digits (about 1 short id in 40): then a 13-character prefix, which no row number can be
    (``game_lookups`` tries an 8-digit short id as a prefix first, then as a row number)."""
    short = game_id[:SHORT_ID]
    return game_id[:13] if short.isdigit() else short


def _time(value: Any) -> datetime:
    """A naive UTC datetime from either driver (SQLite gives text)."""
    return value if isinstance(value, datetime) else datetime.fromisoformat(str(value))


@dataclass(frozen=True, slots=True)
class BoardLine:
    """One player of a leaderboard: ranked (``rank`` 1, 2 …), or listed after the ranked ones
    with fewer than the minimum games (``rank`` None: provisional). ``pw`` is a fraction (0.5
    = half their games won)."""

    rank: int | None
    nick: str
    network: str
    games: int
    wins: int
    points: int
    seconds: int
    pw: float
    ppg: float
    rating: int | None
    uncertainty: int | None
    rated_games: int
    is_bot: bool
    team_games: int = 0
    """Of ``games``, those played in teams (``player_summary.team_games``, schema
    v10; 0 on an older store): a team game's win was shared with a partner."""
    stopped_games: int = 0
    """Of ``games``, those stopped before their end, won by nobody (schema v11)."""

    @property
    def provisional(self) -> bool:
        return self.rank is None


@dataclass(frozen=True, slots=True)
class Board:
    """A leaderboard as asked for (see :meth:`Reader.leaderboard`)."""

    ranking: str
    period: str
    channel: str
    network: str
    min_games: int
    bots: bool
    lines: tuple[BoardLine, ...]


@dataclass(frozen=True, slots=True)
class Choices:
    """What the leaderboard form offers: the channels and networks present in the data."""

    channels: tuple[str, ...]
    networks: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class PlayerRow:
    id: int
    nick: str
    network: str
    is_bot: bool


@dataclass(frozen=True, slots=True)
class RecentGame:
    short_id: str
    key: str
    """What its link names it by (:func:`link_key`)."""
    id: int
    channel: str
    ended: datetime
    seconds: int
    players: int
    place: int
    won: bool
    points: int
    finished: bool
    teams: bool = False
    """Played in teams, pairs or two (``game.teams``): a win was the team's."""
    stopped: bool = False
    """Stopped before its end (``game.stopped``): nobody won it."""


@dataclass(frozen=True, slots=True)
class Opponent:
    """Someone met often: ``games`` together (in the games read), and the share of those
    games the page's player won."""

    nick: str
    network: str
    games: int
    wins: int

    @property
    def win_share(self) -> float:
        return self.wins / self.games if self.games else 0.0


@dataclass(frozen=True, slots=True)
class RatingPoint:
    game: int
    """The game's row id (games are rated in that order)."""
    ended: datetime
    rating: int


@dataclass(frozen=True, slots=True)
class WeekPoints:
    week: str
    """The Monday (ISO date) the week starts on, UTC."""
    games: int
    points: int

    @property
    def ppg(self) -> float:
        return self.points / self.games if self.games else 0.0


@dataclass(frozen=True, slots=True)
class PlayerPage:
    player: PlayerRow
    games: int
    wins: int
    points: int
    seconds: int
    rating: int | None
    uncertainty: int | None
    rated_games: int
    rating_rank: int | None
    """Rank by rating among the network's people with at least ``min_games`` rated games."""
    rating_history: tuple[RatingPoint, ...]
    weeks: tuple[WeekPoints, ...]
    opponents: tuple[Opponent, ...]
    recent: tuple[RecentGame, ...]
    games_read: int
    """How many of the latest games the charts and opponents are drawn from."""
    stopped_games: int = 0
    """Of ``games``, those stopped before their end, won by nobody (schema v11)."""


class Reader:
    """Read-only queries on one open database (peewee keeps a connection per thread, so the
    web server's worker threads may share a reader)."""

    def __init__(self, db: pw.Database, clock: Any = None) -> None:
        self.db = db
        self.clock = clock or (lambda: datetime.now(UTC))
        self._sql: dict[str, str] = {}
        self._lock = threading.Lock()
        self._bot_ids: dict[str, tuple[float, list[int]]] = {}
        self._team_counts = False
        """Seen the store at schema v10 (``player_summary.team_games``): a version only rises,
        so once seen it is never asked again."""
        self._stops = False
        """Seen the store at schema v11 (``game.stopped``, ``player_summary.stopped_games``),
        likewise."""

    def _rows(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        text = self._sql.get(sql)
        if text is None:
            text = self._sql[sql] = sql_for(self.db, sql)
        cur = self.db.cursor()
        cur.execute(text, params)
        return list(cur.fetchall())

    def reset(self) -> None:
        """After a database error: drop this thread's connection, the next query reconnects
        (a PostgreSQL server that restarted leaves a dead one behind)."""
        with contextlib.suppress(*DB_ERRORS):
            self.db.close()

    def version(self) -> int:
        return schema_version(self.db)

    def _team_games(self) -> str:
        """What a leaderboard reads for the team-games count: ``s.team_games``, or 0 on a store
        the bot has not brought to schema v10 yet (the site reads from v5 on)."""
        if not self._team_counts:
            self._team_counts = schema_version(self.db) >= TEAM_BOARDS_VERSION
        return "s.team_games" if self._team_counts else "0"

    def stops(self) -> bool:
        """Whether the store keeps stopped games (schema v11); before, none is marked."""
        if not self._stops:
            self._stops = schema_version(self.db) >= STOPPED_VERSION
        return self._stops

    def _stopped_games(self, alias: str = "s.") -> str:
        """What a query reads for the stopped-games count: the column, or 0 before v11."""
        return f"{alias}stopped_games" if self.stops() else "0"

    # -- records -----------------------------------------------------------------------------

    def records(
        self, period: Period, channel: str = "", network: str = "", bots: bool = False
    ) -> list[Record] | None:
        """The records (``unobot.stats.record_rows``) of ``period`` in ``channel`` ("" = every
        channel) on ``network`` ("" = every network); computer players' only with ``bots``.
        None when the database predates the records (schema v9)."""
        if schema_version(self.db) < RECORDS_VERSION:
            return None
        return read_records(self.db, period, self.clock(), channel or None, network or None, bots)

    # -- leaderboards ------------------------------------------------------------------------

    def choices(self) -> Choices:
        """The channels (folded, as stored) and networks with games, by index skip-scan."""
        channels = self._distinct("player_summary", "channel")
        networks = self._distinct("player", "network")
        return Choices(tuple(c for c in channels if c), tuple(networks))

    def _distinct(self, table: str, column: str) -> list[str]:
        """The distinct values of ``column``, the leading column of one of ``table``'s
        indexes: one index seek per value (a recursive query), however many rows there are."""
        rows = self._rows(
            f"WITH RECURSIVE v(x) AS (SELECT MIN({column}) FROM {table} UNION ALL "
            f"SELECT (SELECT MIN({column}) FROM {table} WHERE {column} > v.x) FROM v "
            "WHERE v.x IS NOT NULL) SELECT x FROM v WHERE x IS NOT NULL"
        )
        return [str(r[0]) for r in rows]

    def leaderboard(
        self,
        ranking: str,
        period: Period,
        channel: str = "",
        network: str = "",
        min_games: int = 5,
        limit: int = 50,
        bots: bool = False,
        provisional: bool = True,
    ) -> Board:
        """The top ``limit`` by ``ranking`` (``pw``, ``ppg`` over ``period`` and ``channel``
        "" = all; ``rating``: all-time, all channels), players with at least ``min_games``;
        computer players only with ``bots``. ``network`` "" = every network. With
        ``provisional`` (the site's way) the room left in ``limit`` goes to the players with
        fewer games, in the same order, unranked, as ``.unotop10`` lists them."""
        if ranking == "rating":
            lines = self._rating_lines(network, min_games, limit, bots, ranked=True)
            if provisional and len(lines) < limit:
                lines += self._rating_lines(
                    network, min_games, limit - len(lines), bots, ranked=False
                )
        else:
            args = (ranking, period, channel, network, min_games)
            lines = self._summary_lines(*args, limit, bots, ranked=True)
            if provisional and len(lines) < limit:
                lines += self._summary_lines(*args, limit - len(lines), bots, ranked=False)
        return Board(ranking, period.value, channel, network, min_games, bots, tuple(lines))

    def _summary_lines(
        self,
        ranking: str,
        period: Period,
        channel: str,
        network: str,
        min_games: int,
        limit: int,
        bots: bool,
        ranked: bool = True,
    ) -> list[BoardLine]:
        """The players with at least ``min_games`` (``ranked``, numbered from 1), else those
        with fewer (rank None), in the ranking's order."""
        col = "pw" if ranking == "pw" else "ppg"
        where, args = "", []
        if network:
            where, args = " AND s.network = ?", [network]
        if not bots:
            where += " AND s.is_bot = ?"
            args.append(False)
        # As SqlStatsStore.leaderboard: the rank index's order, walked from the top.
        rows = self._rows(
            "SELECT s.player_id, p.nick, p.network, s.games, s.wins, s.points, s.seconds, "
            f"s.is_bot, r.mu, r.sigma, r.games, {self._team_games()}, {self._stopped_games()} "
            "FROM player_summary s JOIN player p ON p.id = s.player_id "
            "LEFT JOIN player_rating r ON r.player_id = s.player_id "
            f"WHERE s.channel = ? AND s.bucket = ? AND s.games {'>=' if ranked else '<'} ?"
            f"{where} ORDER BY s.{col} DESC, s.games DESC, s.player_id LIMIT ?",
            (irc_lower(channel), bucket_of(period, self.clock()), min_games, *args, limit),
        )
        return [
            _line(n if ranked else None, nick, net, games, wins, points, seconds, is_bot, mu,
                  sigma, rated, teams, stopped)
            for n, (_, nick, net, games, wins, points, seconds, is_bot, mu, sigma, rated, teams,
                    stopped) in enumerate(rows, 1)
        ]  # fmt: skip

    def _rating_lines(
        self, network: str, min_games: int, limit: int, bots: bool, ranked: bool = True
    ) -> list[BoardLine]:
        """As SqlStatsStore.rating_leaderboard, per network (``player_rating_rank`` starts
        with the network), the networks' tops merged when none is chosen; ``ranked`` False:
        those rated in fewer than ``min_games`` games (rank None)."""
        networks = [network] if network else self._distinct("player_rating", "network")
        bot = "" if bots else " AND p.is_bot = ?"
        team = self._team_games()
        stopped = self._stopped_games()
        tops: list[list[tuple[Any, ...]]] = []
        for net in networks:
            tops.append(
                self._rows(
                    "SELECT r.ordinal, r.games, r.player_id, p.nick, p.network, r.mu, r.sigma, "
                    f"p.is_bot, s.games, s.wins, s.points, s.seconds, {team}, {stopped} "
                    "FROM player_rating r JOIN player p ON p.id = r.player_id "
                    "LEFT JOIN player_summary s ON s.player_id = r.player_id "
                    "AND s.channel = '' AND s.bucket = 'all' "
                    f"WHERE r.network = ? AND r.games {'>=' if ranked else '<'} ?{bot} "
                    "ORDER BY r.ordinal DESC, r.games DESC, r.player_id LIMIT ?",
                    (net, min_games, *([] if bots else [False]), limit),
                )
            )
        merged = heapq.merge(*tops, key=lambda r: (-r[0], -r[1], r[2]))
        lines = []
        for n, row in enumerate(merged, 1):
            if n > limit:
                break
            (_, rated, _, nick, net, mu, sigma, is_bot, games, wins, points, seconds, teams,
             stops) = row  # fmt: skip
            lines.append(
                _line(n if ranked else None, nick, net, games or 0, wins or 0, points or 0,
                      seconds or 0, is_bot, mu, sigma, rated, teams or 0, stops or 0)
            )  # fmt: skip
        return lines

    # -- players ---------------------------------------------------------------------------

    def find_player(self, name: str, network: str = "") -> PlayerRow | None:
        """The player ``name`` means, as the bot resolves it (:func:`unobot.stats.sql.
        find_player`); ``network`` "" for every network."""
        found = find_player(self.db, name, network or None)
        return None if found is None else PlayerRow(*found)

    def player(self, row: PlayerRow, min_games: int = 5) -> PlayerPage:
        """Everything the player page shows, from at most :data:`HISTORY_GAMES` games."""
        summary = self._rows(
            f"SELECT games, wins, points, seconds, {self._stopped_games('')} FROM player_summary "
            "WHERE player_id = ? AND channel = '' AND bucket = 'all'",
            (row.id,),
        )
        games, wins, points, seconds, stopped = summary[0] if summary else (0, 0, 0, 0, 0)
        rated = self._rows(
            "SELECT mu, sigma, ordinal, games FROM player_rating WHERE player_id = ?", (row.id,)
        )
        rating = spread = rank = None
        rated_games = 0
        if rated:
            mu, sigma, ordinal, rated_games = rated[0]
            rating, spread = conservative(mu, sigma), uncertainty(sigma)
            if rated_games >= min_games and not row.is_bot:
                rank = self._rating_rank(row, float(ordinal), int(rated_games), min_games)
        history = self._rows(
            "SELECT g.id, g.game_id, g.channel, g.ended, g.seconds, r.place, r.won, "
            "r.points_won, r.finished, r.mu, r.sigma FROM game_result r "
            "JOIN game g ON g.id = r.game_id WHERE r.player_id = ? "
            "ORDER BY r.player_id DESC, r.game_id DESC LIMIT ?",
            (row.id, HISTORY_GAMES),
        )
        return PlayerPage(
            player=row,
            games=int(games),
            wins=int(wins),
            points=int(points),
            seconds=int(seconds),
            rating=rating,
            uncertainty=spread,
            rated_games=int(rated_games),
            rating_rank=rank,
            rating_history=_rating_history(history),
            weeks=_weeks(history),
            opponents=self._opponents(row),
            recent=self._recent(history[:RECENT_GAMES]),
            games_read=len(history),
            stopped_games=int(stopped),
        )

    def _rating_rank(self, row: PlayerRow, ordinal: float, games: int, min_games: int) -> int:
        """As SqlStatsStore.rating (people only, within the player's network), counted on the
        rank index alone: the players rated above, less the computer players among them (a
        few, looked up by id). Joining every row above to ``player`` for its ``is_bot`` made
        a mid-table player's page cost 50-90 ms on the 1M-result store; this is ~5 ms."""
        better = (
            "ordinal >= ? AND games >= ? AND (ordinal > ? OR games > ? OR "
            "(games = ? AND player_id < ?))"
        )
        args = (ordinal, min_games, ordinal, games, games, row.id)
        above = self._rows(
            f"SELECT COUNT(*) FROM player_rating WHERE network = ? AND {better}",
            (row.network, *args),
        )
        count = int(above[0][0])
        bots = self._bots(row.network)
        for start in range(0, len(bots), 500):
            chunk = bots[start : start + 500]
            marks = ", ".join("?" for _ in chunk)
            count -= int(
                self._rows(
                    f"SELECT COUNT(*) FROM player_rating WHERE player_id IN ({marks}) AND {better}",
                    (*chunk, *args),
                )[0][0]
            )
        return count + 1

    def _bots(self, network: str) -> list[int]:
        """The computer players' ids on ``network``, re-read every :data:`BOTS_SECONDS` (no
        index holds ``is_bot``: a scan of ``player``, so not on every page)."""
        now = time.monotonic()
        with self._lock:
            cached = self._bot_ids.get(network)
        if cached is not None and now - cached[0] < BOTS_SECONDS:
            return cached[1]
        ids = [
            int(r[0])
            for r in self._rows(
                "SELECT id FROM player WHERE network = ? AND is_bot = ?", (network, True)
            )
        ]
        with self._lock:
            self._bot_ids[network] = (now, ids)
        return ids

    def _opponents(self, row: PlayerRow) -> tuple[Opponent, ...]:
        """The players met most in the player's latest :data:`HISTORY_GAMES` games, counted
        by the database: one lookup per game on the results' unique (game, player) index."""
        top = self._rows(
            "SELECT o.player_id, COUNT(*) AS met, "
            "SUM(CASE WHEN m.won THEN 1 ELSE 0 END) FROM "
            "(SELECT game_id, won FROM game_result WHERE player_id = ? "
            "ORDER BY game_id DESC LIMIT ?) m "
            "JOIN game_result o ON o.game_id = m.game_id AND o.player_id <> ? "
            "GROUP BY o.player_id ORDER BY met DESC, o.player_id LIMIT ?",
            (row.id, HISTORY_GAMES, row.id, OPPONENTS),
        )
        if not top:
            return ()
        marks = ", ".join("?" for _ in top)
        names = {
            int(pid): (str(nick), str(net))
            for pid, nick, net in self._rows(
                f"SELECT id, nick, network FROM player WHERE id IN ({marks})",
                tuple(int(t[0]) for t in top),
            )
        }
        return tuple(
            Opponent(*names[int(pid)], int(met), int(won or 0))
            for pid, met, won in top
            if int(pid) in names
        )

    def _recent(self, history: list[tuple[Any, ...]]) -> tuple[RecentGame, ...]:
        if not history:
            return ()
        marks = ", ".join("?" for _ in history)
        stopped, by = ("g.stopped", ", g.stopped") if self.stops() else ("FALSE", "")
        rows = self._rows(
            f"SELECT r.game_id, COUNT(*), g.teams, {stopped} FROM game_result r JOIN game g "
            f"ON g.id = r.game_id WHERE r.game_id IN ({marks}) GROUP BY r.game_id, g.teams{by}",
            tuple(int(h[0]) for h in history),
        )
        counts = {gid: n for gid, n, _, _ in rows}
        teams = {gid for gid, _, team, _ in rows if team}
        stops = {gid for gid, _, _, cut in rows if cut}
        return tuple(
            RecentGame(
                str(game_id)[:SHORT_ID], link_key(str(game_id)), int(gid), str(channel),
                _time(ended), int(seconds), int(counts.get(gid, 1)), int(place), bool(won),
                int(points), bool(finished), gid in teams, gid in stops,
            )
            for gid, game_id, channel, ended, seconds, place, won, points, finished, _, _
            in history
        )  # fmt: skip

    # -- games -----------------------------------------------------------------------------

    def game(self, key: str) -> StoredGame | None:
        """A game by row id or game-id prefix (``unobot.stats.game_rows.find_game``)."""
        return find_game(self.db, key, stopped=self.stops())


def _line(
    rank: int | None,
    nick: Any,
    network: Any,
    games: Any,
    wins: Any,
    points: Any,
    seconds: Any,
    is_bot: Any,
    mu: Any,
    sigma: Any,
    rated: Any,
    team_games: Any = 0,
    stopped_games: Any = 0,
) -> BoardLine:
    games, wins, points = int(games), int(wins), int(points)
    return BoardLine(
        rank=rank,
        nick=str(nick),
        network=str(network),
        games=games,
        wins=wins,
        points=points,
        seconds=int(seconds),
        pw=wins / games if games else 0.0,
        ppg=points / games if games else 0.0,
        rating=None if mu is None else conservative(float(mu), float(sigma)),
        uncertainty=None if sigma is None else uncertainty(float(sigma)),
        rated_games=int(rated or 0),
        is_bot=bool(is_bot),
        team_games=int(team_games),
        stopped_games=int(stopped_games),
    )


def _rating_history(history: list[tuple[Any, ...]]) -> tuple[RatingPoint, ...]:
    """The displayed rating after each of the last :data:`RATING_POINTS` rated games, oldest
    first (``history`` is newest first)."""
    points = []
    for gid, _, _, ended, _, _, _, _, _, mu, sigma in history:
        if mu is not None and sigma is not None:
            points.append(RatingPoint(int(gid), _time(ended), conservative(mu, sigma)))
            if len(points) == RATING_POINTS:
                break
    return tuple(reversed(points))


def _weeks(history: list[tuple[Any, ...]]) -> tuple[WeekPoints, ...]:
    """Points per game in each UTC week (Monday start) of ``history``, oldest first."""
    games: Counter[str] = Counter()
    points: Counter[str] = Counter()
    weeks: dict[str, str] = {}  # a day's week, worked out once per day
    for _, _, _, ended, _, _, _, won_points, _, _, _ in history:
        day_text = ended.date().isoformat() if isinstance(ended, datetime) else str(ended)[:10]
        week = weeks.get(day_text)
        if week is None:
            day = date.fromisoformat(day_text)
            week = weeks[day_text] = (day - timedelta(days=day.weekday())).isoformat()
        games[week] += 1
        points[week] += int(won_points)
    return tuple(WeekPoints(w, games[w], points[w]) for w in sorted(games))


# -- tournaments ------------------------------------------------------------------------------

TOURNAMENT_LIST = 200
"""The tournament list shows at most this many, newest first."""

_HEAD = (
    "SELECT t.name, t.name_key, t.format, t.channel, t.status, t.created, t.ended, "
    "(SELECT MAX(e.seq) FROM tournament_entry e WHERE e.tournament_id = t.id), "
    "(SELECT COUNT(*) FROM tournament_score s WHERE s.tournament_id = t.id) FROM tournament t"
)


@dataclass(frozen=True, slots=True)
class TournamentHead:
    """A tournament's row and its version: ``seq`` its newest entry's number, ``rows`` its
    score-sheet lines (what changes whenever the bot writes to it)."""

    name: str
    key: str
    format: str
    channel: str
    status: str
    created: datetime
    ended: datetime | None
    seq: int
    rows: int

    @property
    def version(self) -> str:
        return f"{self.status}:{self.seq}:{self.rows}"

    @property
    def live_version(self) -> str:
        """What a live page compares (``""``: finished, it never changes again)."""
        return "" if self.status in ("done", "cancelled") else f"{self.seq}.{self.rows}"


def _head(row: tuple[Any, ...]) -> TournamentHead:
    name, key, fmt, channel, status, created, ended, seq, rows = row
    return TournamentHead(
        str(name), str(key), str(fmt), str(channel), str(status), _time(created),
        None if ended is None else _time(ended), -1 if seq is None else int(seq), int(rows or 0),
    )  # fmt: skip


def tournament_heads(reader: Reader, limit: int = TOURNAMENT_LIST) -> list[TournamentHead]:
    """The newest ``limit`` tournaments with their versions (one query: the version's two
    sub-queries are index seeks on ``(tournament_id, seq)`` and ``tournament_id``)."""
    rows = reader._rows(f"{_HEAD} ORDER BY t.created DESC, t.id DESC LIMIT ?", (limit,))
    return [_head(r) for r in rows]


def tournament_head(reader: Reader, name: str) -> TournamentHead | None:
    """One tournament's row and version by name (any case), or None: the live pages'
    once-a-second question."""
    from unobot.tournament.store import name_key

    rows = reader._rows(f"{_HEAD} WHERE t.name_key = ?", (name_key(name),))
    return _head(rows[0]) if rows else None


def tournament_stored(reader: Reader, key: str) -> Any:
    """The tournament ``key`` (folded name) with its entries and sheet, read by the store's
    own reading code (:class:`SqlTournamentLog`) without its schema upgrade: the site never
    writes. A :class:`~unobot.tournament.store.Stored`, or None."""
    from unobot.tournament.store import SqlTournamentLog

    found = SqlTournamentLog(reader.db)._stored("name_key = ?", (key,))
    return found[0] if found else None
