"""The peewee-backed stats store: SQLite (default, WAL) or PostgreSQL, chosen by URL.

Hot paths use plain SQL on the DB-API cursor (the peewee models in :mod:`unobot.stats.schema`
define the tables): a game write is ~20 statements in one transaction and peewee's query
builder would cost more than SQLite's work. Every figure comes from the rows: the summary
table is derived data, updated in the same transaction as each game and rebuilt from the rows
by :func:`rebuild_summaries`.

When the database can't be reached (PostgreSQL down, disk full, locked past the busy timeout),
:meth:`SqlStatsStore.record_game` puts the game in a durable local spool and returns; the
spool drains, oldest first, on the next write, query or :meth:`~SqlStatsStore.flush_pending`
once the retry interval has passed. ``game_id`` is unique, so a replayed game is not counted
twice.
"""

from __future__ import annotations

import contextlib
import logging
import sqlite3
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import peewee as pw
from playhouse.db_url import connect

from unobot.irc.casemap import irc_lower
from unobot.stats import schema
from unobot.stats.game_rows import find_game, pack_moves
from unobot.stats.model import (
    GameRecord,
    ImportedScore,
    Period,
    PlayerStats,
    Ranking,
    RatedPlayer,
    StatsUnavailable,
    StoredGame,
    bucket_of,
    game_key,
    player_ident,
    utc_naive,
)
from unobot.stats.rating_rows import rate_game, rebuild_rating_rows
from unobot.stats.ratings import PlayerRating
from unobot.stats.record_rows import Analyse, Record, analysed, read_records, rebuild_records
from unobot.stats.record_rows import record_game as add_records
from unobot.stats.records import normalized
from unobot.stats.spool import Spool
from unobot.stats.summaries import (
    period_start,
    rebuild_summaries,
    rows_sql,
    sql_for,
    stamp_for,
)

__all__ = ["SqlStatsStore", "find_player", "open_database", "rebuild_summaries"]

log = logging.getLogger(__name__)

_DB_ERRORS: tuple[type[BaseException], ...] = (pw.PeeweeException, sqlite3.Error)
_INTEGRITY: tuple[type[BaseException], ...] = (pw.IntegrityError, sqlite3.IntegrityError)
try:
    import psycopg2

    _DB_ERRORS += (psycopg2.Error,)
    _INTEGRITY += (psycopg2.IntegrityError,)
except ImportError:  # pragma: no cover - SQLite-only installs
    pass

_NEVER = datetime(1970, 1, 1)
"""last_seen of a player known only from an import: any real game is more recent."""


def missing_sqlite_file(db: pw.Database) -> str | None:
    """The file of a SQLite database that does not exist (yet), else None: a command-line
    tool reports it instead of creating an empty store by connecting."""
    file = str(getattr(db, "database", ""))
    if isinstance(db, pw.SqliteDatabase) and file != ":memory:" and not Path(file).exists():
        return file
    return None


READER_CACHE_KB = 65_536
"""SQLite's page cache for readers (the web site, the command-line tools): 64 MB, so the hot
index pages of a big store stay cached."""
STORE_CACHE_KB = 256
"""SQLite's page cache for :class:`SqlStatsStore`, the bot's connection: 256 kB. A cache keeps
every page it touched up to its size, and the bot touches new pages with every game it writes
(~1.7 kB a game): with 64 MB the process grew with every game for ~38,000 games, with SQLite's
own 2 MB for ~1,200 (an hour of five channels: ``bench memory``); 256 kB is full within ~150
games. The bot's queries read the small summary and player indexes, and the operating system's
file cache serves the rest: ``bench stats`` (300,000 results) measured the same record rate
and query p99s within the noise with 256 kB as with 2 MB (2026-12-03, docs/benchmarks.md)."""


def open_database(url: str, timeout: float = 5.0, cache_kb: int = READER_CACHE_KB) -> pw.Database:
    """A peewee database for ``url``: ``sqlite:///stats.db`` (WAL, synchronous=NORMAL: a
    commit survives the bot crashing, the last few may be lost if the machine loses power),
    or ``postgresql://user:pass@host:port/db``. ``timeout``: seconds SQLite waits on a lock,
    and PostgreSQL on connecting, before the game goes to the spool instead (the bot's reactor
    waits meanwhile, so keep it short). ``cache_kb``: SQLite's page cache per connection."""
    if url.startswith("sqlite"):
        pragmas = {
            "journal_mode": "wal",
            "synchronous": "normal",
            # Checkpoint every ~40 MB of WAL rather than 4 MB: pages that consecutive games
            # touch (indexes, summaries) are copied back once, with fewer fsyncs.
            "wal_autocheckpoint": 10_000,
            "cache_size": -cache_kb,  # negative: kB, not pages
        }
        return connect(url, pragmas=pragmas, timeout=timeout)
    if url.startswith(("postgres", "postgresql")):
        extra: dict[str, Any] = {}
        if "connect_timeout" not in url:
            extra["connect_timeout"] = max(1, round(timeout))
        if "options" not in url:  # a statement the server can't finish in time is cancelled
            extra["options"] = f"-c statement_timeout={max(1, round(timeout * 1000))}"
        return connect(url, **extra)
    raise ValueError(f"unsupported stats database URL {url!r} (sqlite:/// or postgresql://)")


_UPSERT_PLAYER = (
    "INSERT INTO player (network, ident, account, nick, nick_folded, is_bot, first_seen, "
    "last_seen) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (network, ident) DO UPDATE SET "
    "nick = CASE WHEN excluded.last_seen >= player.last_seen THEN excluded.nick "
    "ELSE player.nick END, "
    "nick_folded = CASE WHEN excluded.last_seen >= player.last_seen THEN excluded.nick_folded "
    "ELSE player.nick_folded END, "
    "last_seen = CASE WHEN excluded.last_seen >= player.last_seen THEN excluded.last_seen "
    "ELSE player.last_seen END, "
    "account = COALESCE(excluded.account, player.account), is_bot = excluded.is_bot "
    "RETURNING id"
)
_UPSERT_NICK = (
    "INSERT INTO player_nick (player_id, nick, nick_folded, last_seen) VALUES (?, ?, ?, ?) "
    "ON CONFLICT (player_id, nick_folded) DO UPDATE SET "
    "nick = CASE WHEN excluded.last_seen >= player_nick.last_seen THEN excluded.nick "
    "ELSE player_nick.nick END, "
    "last_seen = CASE WHEN excluded.last_seen >= player_nick.last_seen "
    "THEN excluded.last_seen ELSE player_nick.last_seen END"
)
_INSERT_GAME = (
    "INSERT INTO game (game_id, network, channel, preset, started, ended, seconds, winner_id) "
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id"
)
_INSERT_RESULT = (
    "INSERT INTO game_result (game_id, player_id, place, won, points_won, points_left, "
    "finished, is_bot) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
)
_INSERT_RATED_RESULT = (
    "INSERT INTO game_result (game_id, player_id, place, won, points_won, points_left, "
    "finished, is_bot, mu, sigma) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
_ADD = "player_summary.{0} + excluded.{0}"
_UPSERT_SUMMARY = (
    "INSERT INTO player_summary (player_id, network, channel, bucket, games, wins, points, "
    "seconds, ppg, pw, is_bot) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
    "ON CONFLICT (player_id, channel, bucket) DO UPDATE SET "
    f"games = {_ADD.format('games')}, wins = {_ADD.format('wins')}, "
    f"points = {_ADD.format('points')}, seconds = {_ADD.format('seconds')}, "
    f"ppg = CAST({_ADD.format('points')} AS DOUBLE PRECISION) / ({_ADD.format('games')}), "
    f"pw = CAST({_ADD.format('wins')} AS DOUBLE PRECISION) / ({_ADD.format('games')}), "
    "is_bot = excluded.is_bot"
)
_UPSERT_TEAM_SUMMARY = (  # schema v10: and how many of the games were team games
    _UPSERT_SUMMARY.replace("is_bot) VALUES (", "is_bot, team_games) VALUES (?, ", 1)
    + f", team_games = {_ADD.format('team_games')}"
)
_UPSERT_STOPPED_SUMMARY = (  # schema v11: and how many were stopped before their end
    _UPSERT_TEAM_SUMMARY.replace(
        "team_games) VALUES (", "team_games, stopped_games) VALUES (?, ", 1
    )
    + f", stopped_games = {_ADD.format('stopped_games')}"
)
_SYNC_BOT = "UPDATE player_summary SET is_bot = ? WHERE player_id = ? AND is_bot <> ?"


def _counts_teams() -> bool:
    """Whether this bot's schema keeps ``player_summary.team_games`` (v10): lower only in
    tests standing in for an older bot."""
    return schema.SCHEMA_VERSION >= schema.TEAM_BOARDS_VERSION


def _counts_stopped() -> bool:
    """Whether this bot's schema keeps stopped games (v11: ``game.stopped``,
    ``player_summary.stopped_games``): lower only in tests standing in for an older bot."""
    return schema.SCHEMA_VERSION >= schema.STOPPED_VERSION


def _extra_counts() -> str:
    """The summary's team and stopped game counts as a query reads them (0 before the
    schema that keeps each)."""
    team = "s.team_games" if _counts_teams() else "0"
    return f"{team}, {'s.stopped_games' if _counts_stopped() else '0'}"


def _mu_sigma(rating: PlayerRating | None) -> tuple[float | None, float | None]:
    return (rating.mu, rating.sigma) if rating is not None else (None, None)


def find_player(
    db: pw.Database, name: str, network: str | None = None
) -> tuple[int, str, str, bool] | None:
    """The player ``name`` means, as (id, nick, network, is_bot): an ident (``$a:acct`` or
    folded nick); else whoever uses that nick now (a person before a computer player of the
    same name, most recently seen first), whose ident it is, or who used it last.
    ``network``: only that network's players (None: every network). Shared by the store and
    the web site, so ``.unostats bob`` and ``/player/bob`` name the same player."""
    folded = irc_lower(name)
    net, args = ("", []) if network is None else (" AND p.network = ?", [network])
    order = " ORDER BY p.is_bot, p.last_seen DESC, p.id DESC LIMIT 1"
    cols = "SELECT p.id, p.nick, p.network, p.is_bot FROM player p"
    tries = (
        [f"{cols} WHERE p.ident = ?{net}{order}"]
        if folded.startswith("$a:")
        else [
            f"{cols} WHERE p.nick_folded = ?{net}{order}",
            f"{cols} WHERE p.ident = ?{net}{order}",
            f"{cols} JOIN player_nick n ON p.id = n.player_id WHERE n.nick_folded = ?{net} "
            "ORDER BY n.last_seen DESC, p.id DESC LIMIT 1",
        ]
    )
    cur = db.cursor()
    for sql in tries:
        cur.execute(sql_for(db, sql), (folded, *args))
        row = cur.fetchone()
        if row is not None:
            pid, nick, network_, is_bot = row
            return int(pid), str(nick), str(network_), bool(is_bot)
    return None


class SqlStatsStore:
    """The :class:`~unobot.stats.model.StatsStore` on SQLite or PostgreSQL."""

    def __init__(
        self,
        url: str = "sqlite:///stats.db",
        *,
        network: str | None = None,
        clock: Callable[[], datetime] | None = None,
        spool_path: str | Path | None = None,
        retry_interval: float = 5.0,
        timeout: float = 5.0,
        connect_now: bool = True,
        cache_kb: int = STORE_CACHE_KB,
        analyse: Analyse | None = None,
    ) -> None:
        """``network``: whose players the queries see (None: all networks in the store).
        ``clock``: "now" (UTC) for week/month periods. ``spool_path``: the local queue for
        games while the database is away (default: next to a SQLite file, else
        ``unobot-stats.spool`` in the working directory). ``retry_interval``: seconds
        between attempts to reach a database that failed, so a down server doesn't stall
        every game's end. ``timeout``: see :func:`open_database`. ``connect_now``: False
        leaves the first connection (and the schema's migration) to the first call, which the
        bot makes on its database worker, so that starting never waits for the database.
        ``cache_kb``: SQLite's page cache (:data:`STORE_CACHE_KB`). ``analyse``: reads a
        game's move list for the records (``unobot.replay.figures.move_figures``, passed in
        because replaying is the core's job); None: games count for the records the rows
        alone give (streaks, games in a day)."""
        self.url = url
        self.analyse = analyse
        self.network = network
        self.clock = clock or (lambda: datetime.now(UTC))
        self.db = open_database(url, timeout, cache_kb)
        self.retry_interval = retry_interval
        if spool_path is None:
            db_file = getattr(self.db, "database", "")
            if isinstance(self.db, pw.SqliteDatabase) and db_file and db_file != ":memory:":
                spool_path = f"{db_file}.spool"
            else:
                spool_path = "unobot-stats.spool"
        self.spool = Spool(spool_path)
        self._unspooled: list[GameRecord] = []
        """Games the spool itself refused (local disk full): last resort, memory only."""
        self._retry_at = 0.0
        self._stamp = stamp_for(self.db)
        self._sqlite = isinstance(self.db, pw.SqliteDatabase)
        self._q: dict[str, str] = {}
        self._unsummarized = 0
        self.catch_up_every = 500
        """Games written before the summary is caught up without waiting for a query or
        :meth:`maintain`; 0 leaves it to those two (a bot calls ``maintain`` from a timer)."""
        self._migrated = False
        if not connect_now:
            return
        try:
            schema.migrate(self.db)
        except _DB_ERRORS as err:
            # Start anyway: games queue locally; migrations run once the database answers.
            log.error("stats database %s unavailable at start-up: %s", url, err)
            self._down()
            self._migrated = False
        else:
            self._migrated = True

    # -- plumbing --------------------------------------------------------------------------

    def _s(self, text: str) -> str:
        q = self._q.get(text)
        if q is None:
            q = self._q[text] = sql_for(self.db, text)
        return q

    def _down(self) -> None:
        """Forget a connection that failed (peewee would keep the dead one) and back off."""
        conn = self.db._state.conn
        if conn is not None:
            with contextlib.suppress(Exception):  # already dead
                conn.close()
        self.db.dispose()
        self._retry_at = time.monotonic() + self.retry_interval

    def _ensure_schema(self) -> None:
        if not self._migrated:
            schema.migrate(self.db)
            self._migrated = True

    # -- writing ---------------------------------------------------------------------------

    def _write(self, game: GameRecord) -> bool:
        """One game in one transaction; False when its game_id is already stored."""
        self._ensure_schema()
        stamp = self._stamp
        ended = stamp(game.ended)
        seconds = max(0, int((game.ended - game.started).total_seconds()))
        version = schema.SCHEMA_VERSION  # lower only in tests standing in for an older bot
        figures = (  # the replay before the transaction: it never holds the write lock
            analysed(self.analyse, game.moves, game.game_id)
            if version >= schema.RECORDS_VERSION
            else None
        )
        cur = self.db.cursor()
        with self.db.atomic():
            self._lock(cur)
            cur.execute(self._s("SELECT 1 FROM game WHERE game_id = ?"), (game.game_id,))
            if cur.fetchone() is not None:
                return False
            ids = []
            upsert = self._s(_UPSERT_PLAYER)
            for r in game.results:
                account = irc_lower(r.account) if r.account else None
                cur.execute(
                    upsert,
                    (
                        game.network, r.ident, account, r.nick, irc_lower(r.nick),
                        r.is_bot, ended, ended,
                    ),
                )  # fmt: skip
                ids.append(cur.fetchone()[0])
            winner = next((pid for pid, r in zip(ids, game.results, strict=True) if r.won), None)
            cur.execute(
                self._s(_INSERT_GAME),
                (
                    game.game_id, game.network, game.channel, game.preset,
                    stamp(game.started), ended, seconds, winner,
                ),
            )  # fmt: skip
            gid = cur.fetchone()[0]
            if game.teams and schema.SCHEMA_VERSION >= schema.TEAMS_VERSION:
                cur.execute(self._s("UPDATE game SET teams = ? WHERE id = ?"), (True, gid))
            if game.stopped and _counts_stopped():
                cur.execute(self._s("UPDATE game SET stopped = ? WHERE id = ?"), (True, gid))
            pairs = list(zip(ids, game.results, strict=True))
            cur.executemany(
                self._s(_UPSERT_NICK),
                [(pid, r.nick, irc_lower(r.nick), ended) for pid, r in pairs],
            )
            after = (
                rate_game(self.db, cur, game.network, game.ended, pairs)
                if version >= schema.RATINGS_VERSION
                else {}
            )
            history = version >= schema.REPLAYS_VERSION  # each result keeps its rating after
            cur.executemany(
                self._s(_INSERT_RATED_RESULT if history else _INSERT_RESULT),
                [
                    (gid, pid, r.place, r.won, r.points_won, r.points_left, r.finished, r.is_bot,
                     *(_mu_sigma(after.get(str(pid))) if history else ()))
                    for pid, r in pairs
                ],
            )  # fmt: skip
            if history and game.moves:
                cur.execute(
                    self._s("INSERT INTO game_moves (game_id, data) VALUES (?, ?)"),
                    (gid, pack_moves(game.moves)),
                )
            if version >= schema.RECORDS_VERSION:
                add_records(self.db, cur, gid, game, ids, figures)
        return True

    @contextlib.contextmanager
    def _writing(self) -> Iterator[Any]:
        """A write transaction that holds the store's write lock (SQLite: ``BEGIN IMMEDIATE``;
        PostgreSQL: the advisory lock of :meth:`_lock`); yields its cursor."""
        cur = self.db.cursor()
        atomic = self.db.atomic("IMMEDIATE") if self._sqlite else self.db.atomic()
        with atomic:
            self._lock(cur)
            yield cur

    def _lock(self, cur: Any) -> None:
        """PostgreSQL: serialise game writes and summary catch-up between bots sharing the
        database, so game ids commit in order and the ``last_game`` watermark never skips one
        (SQLite serialises writers by itself)."""
        if not self._sqlite:
            cur.execute("SELECT pg_advisory_xact_lock(4242043)")

    def _catch_up(self) -> int:
        """Add the games written since the watermark to player_summary, in one transaction;
        returns how many games. Every figure a query reads passes through here first, so the
        summary is the rows' own aggregate, merely kept pre-computed."""
        teams, stops = _counts_teams(), _counts_stopped()
        team = "g.teams" if teams else "FALSE"
        stop = "g.stopped" if stops else "FALSE"
        with self._writing() as cur:
            cur.execute("SELECT last_game FROM summary_state")
            mark = int(cur.fetchone()[0])
            cur.execute(
                self._s(
                    f"SELECT g.id, g.channel, g.ended, g.seconds, r.player_id, r.won, "
                    f"r.points_won, p.network, p.is_bot, {team}, {stop} FROM game g "
                    "JOIN game_result r ON r.game_id = g.id JOIN player p ON p.id = r.player_id "
                    "WHERE g.id > ?"
                ),
                (mark,),
            )
            rows = cur.fetchall()
            if not rows:
                return 0
            sums: dict[tuple[int, str, str], list[int]] = {}
            info: dict[int, tuple[str, bool]] = {}
            buckets: dict[Any, tuple[str, str, str]] = {}
            games: set[int] = set()
            for row in rows:
                gid, channel, ended, seconds, pid, won, points, network, is_bot, teamed, cut = row
                games.add(gid)
                info[pid] = (network, bool(is_bot))
                keys = buckets.get(ended)
                if keys is None:
                    when = ended if isinstance(ended, datetime) else datetime.fromisoformat(ended)
                    keys = buckets[ended] = (
                        "all", bucket_of(Period.WEEK, when), bucket_of(Period.MONTH, when)
                    )  # fmt: skip
                for chan in ("", channel):
                    for bucket in keys:
                        t = sums.get((pid, chan, bucket))
                        if t is None:
                            t = sums[(pid, chan, bucket)] = [0, 0, 0, 0, 0, 0]
                        t[0] += 1
                        t[1] += 1 if won else 0
                        t[2] += points
                        t[3] += seconds
                        t[4] += 1 if teamed else 0
                        t[5] += 1 if cut else 0
            upsert = (
                _UPSERT_STOPPED_SUMMARY if stops else _UPSERT_TEAM_SUMMARY if teams
                else _UPSERT_SUMMARY
            )  # fmt: skip
            cur.executemany(
                self._s(upsert),
                [
                    (pid, info[pid][0], chan, bucket, g, w, p, sec, p / g, w / g, info[pid][1],
                     *((tg,) if teams else ()), *((st,) if stops else ()))
                    for (pid, chan, bucket), (g, w, p, sec, tg, st) in sorted(sums.items())
                ],
            )  # fmt: skip
            cur.executemany(self._s(_SYNC_BOT), [(bot, pid, bot) for pid, (_, bot) in info.items()])
            cur.execute(self._s("UPDATE summary_state SET last_game = ?"), (max(games),))
        self._unsummarized = 0
        return len(games)

    def _fresh(self) -> None:
        """Catch the summary up if any game (ours or another bot's) is not in it yet."""
        cur = self.db.cursor()
        cur.execute(
            "SELECT (SELECT last_game FROM summary_state), (SELECT COALESCE(MAX(id), 0) FROM game)"
        )
        mark, top = cur.fetchone()
        if top > mark:
            self._catch_up()

    def _try(self, game: GameRecord) -> bool:
        """Write ``game``; False (and back off) when the database is unreachable."""
        try:
            if self._write(game):
                self._unsummarized += 1
                if self.catch_up_every and self._unsummarized >= self.catch_up_every:
                    self._catch_up()
        except _INTEGRITY as err:
            self._down()
            self._retry_at = 0.0
            if self._exists(game.game_id):
                return True  # another writer stored it between our check and insert
            log.error("stats: game %s rejected by the database (%s); dropped", game.game_id, err)
            return True
        except _DB_ERRORS as err:
            log.warning("stats database unavailable (%s); game %s queued", err, game.game_id)
            self._down()
            return False
        return True

    def _exists(self, game_id: str) -> bool:
        try:
            cur = self.db.execute_sql(self._s("SELECT 1 FROM game WHERE game_id = ?"), (game_id,))
            return cur.fetchone() is not None
        except _DB_ERRORS:
            self._down()
            return False

    def _queue(self, game: GameRecord, *, again: bool = False) -> bool:
        """Queue ``game`` in the spool; False when the spool refused it and it is kept in
        memory only (retried with the spool, but lost if the process ends first). ``again``:
        a game from memory that the database refused again (said once already)."""
        try:
            self.spool.append(game)
        except OSError as err:
            if again:
                self._unspooled.append(game)
                return False
            log.error(
                "stats: game %s can't be written to the database or queued in %s (%s); it is "
                "kept in memory and retried: make that folder writable (or free disk space)",
                game.game_id, self.spool.path, err,
            )  # fmt: skip
            self._unspooled.append(game)
            return False
        return True

    def record_game(self, game: GameRecord) -> bool:
        """Store ``game`` now, or queue it durably if the database can't be reached; False
        when it could be kept in memory only (see :meth:`StatsStore.record_game`)."""
        game = normalized(game)
        if self._unspooled or self.spool or time.monotonic() < self._retry_at:
            self._queue(game)
            self._drain()
            return all(g.game_id != game.game_id for g in self._unspooled)
        if not self._try(game):
            return self._queue(game)
        return True

    def _drain(self, force: bool = False) -> int:
        if not force and time.monotonic() < self._retry_at:
            return 0
        memory, self._unspooled = self._unspooled, []
        spooled = self.spool.pending()
        waiting = spooled + memory
        if not waiting:
            return 0
        done: set[str] = set()
        for game in waiting:
            if not self._try(game):
                break
            done.add(game.game_id)
        try:
            # Only what was written leaves the spool: a game appended meanwhile (the reactor
            # appends while this runs on the database worker) stays queued.
            self.spool.discard(done & {g.game_id for g in spooled})
        except OSError as err:
            log.error("stats: can't rewrite spool %s (%s)", self.spool.path, err)
            # It still holds every queued game; replays are ignored by game_id.
        for game in memory:
            if game.game_id not in done:
                self._queue(game, again=True)
        if done:
            log.info("stats: %d queued games written, %d still waiting", len(done), self.pending)
        return len(done)

    def live(self, job: Callable[[pw.Database], Any]) -> Any:
        """Run a live-view job (``unobot.stats.live``) on this store's connection: its result,
        or None when the database can't be reached (then backed off from like a game write:
        the live view waits, the games don't). Never raises a database error."""
        if time.monotonic() < self._retry_at:
            return None
        try:
            self._ensure_schema()
            return job(self.db)
        except _DB_ERRORS as err:
            log.info("stats database unavailable for the live view: %s", err)
            self._down()
            return None

    def maintain(self) -> None:
        """Background upkeep, from a timer: write queued games, then bring the summary up to
        date so that the next query doesn't pay for it. Never raises."""
        try:
            self._ensure_schema()
            self.flush_pending()
            self._fresh()
        except _DB_ERRORS as err:
            log.info("stats upkeep postponed: %s", err)
            self._down()

    def flush_pending(self) -> int:
        """Try now to write every queued game (e.g. from a timer); returns how many were."""
        return self._drain(force=True)

    @property
    def pending(self) -> int:
        """How many games wait in the local queue."""
        return len(self.spool.pending()) + len(self._unspooled)

    def import_scores(
        self,
        scores: Iterable[ImportedScore],
        source: str,
        network: str = "",
        channel: str | None = None,
    ) -> int:
        """Add the old bot's totals as aggregate rows (one transaction); importing ``source``
        again replaces its rows. Returns the number of players imported."""
        self._ensure_schema()
        chan = irc_lower(channel) if channel else ""
        never = self._stamp(_NEVER)
        now = self._stamp(utc_naive(self.clock()))
        count = 0
        with self.db.atomic():
            cur = self.db.cursor()
            cur.execute(
                self._s(
                    "DELETE FROM imported_score WHERE source = ? AND player_id IN "
                    "(SELECT id FROM player WHERE network = ?)"
                ),
                (source, network),
            )
            for s in scores:
                ident = player_ident(s.nick)
                cur.execute(
                    self._s(
                        "INSERT INTO player (network, ident, account, nick, nick_folded, is_bot, "
                        "first_seen, last_seen) VALUES (?, ?, NULL, ?, ?, ?, ?, ?) "
                        "ON CONFLICT (network, ident) DO UPDATE SET ident = excluded.ident "
                        "RETURNING id"
                    ),
                    (network, ident, s.nick, irc_lower(s.nick), False, never, never),
                )
                pid = cur.fetchone()[0]
                cur.execute(
                    self._s(
                        "INSERT INTO player_nick (player_id, nick, nick_folded, last_seen) "
                        "VALUES (?, ?, ?, ?) ON CONFLICT (player_id, nick_folded) DO NOTHING"
                    ),
                    (pid, s.nick, irc_lower(s.nick), never),
                )
                cur.execute(
                    self._s(
                        "INSERT INTO imported_score (player_id, channel, source, games, wins, "
                        "points, seconds, imported_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) "
                        "ON CONFLICT (player_id, channel, source) DO UPDATE SET "
                        "games = excluded.games, wins = excluded.wins, "
                        "points = excluded.points, seconds = excluded.seconds"
                    ),
                    (pid, chan, source, s.games, s.wins, s.points, s.seconds, now),
                )
                count += 1
            rebuild_summaries(self.db, self.clock(), _counts_teams(), _counts_stopped())
        return count

    def rebuild_summaries(self) -> int:
        """Recompute the derived summary rows from the facts (see the module docstring)."""
        self._ensure_schema()
        return rebuild_summaries(self.db, self.clock(), _counts_teams(), _counts_stopped())

    def summary_mismatches(self) -> list[tuple[Any, ...]]:
        """Summary rows (current buckets) that differ from the rows' own aggregate: [] when
        the derived table is right. For tests and ``make check``-style audits."""
        self._prepare()
        now = utc_naive(self.clock())
        week_key, month_key = bucket_of(Period.WEEK, now), bucket_of(Period.MONTH, now)
        teams, stops = _counts_teams(), _counts_stopped()
        select = rows_sql(week_key, month_key, teams, stops)
        week = self._stamp(period_start(Period.WEEK, now))
        month = self._stamp(period_start(Period.MONTH, now))
        fresh = {  # the facts' figures, team games last (ppg, pw and is_bot left out)
            tuple(r[:8]) + tuple(int(n) for n in r[11:])
            for r in self.db.execute_sql(self._s(select), (week, week, month, month)).fetchall()
        }
        team = (", team_games" if teams else "") + (", stopped_games" if stops else "")
        stored = {
            tuple(r)
            for r in self.db.execute_sql(
                self._s(
                    "SELECT player_id, network, channel, bucket, games, wins, points, seconds"
                    f"{team} FROM player_summary WHERE bucket IN ('all', ?, ?)"
                ),
                (week_key, month_key),
            ).fetchall()
        }
        return sorted(fresh ^ stored, key=repr)

    def close(self) -> None:
        self._drain()
        if self._unspooled:
            # The last chance gone: say which games, and where else they may be found.
            log.error(
                "stats: %d finished game(s) neither stored nor queued are lost with this "
                "process: %s (a game whose table journal was kept is recorded at the next "
                "start; see the errors above for what to fix)",
                len(self._unspooled), ", ".join(g.game_id for g in self._unspooled),
            )  # fmt: skip
        try:
            if self._unsummarized:
                self._catch_up()
        except _DB_ERRORS:
            pass  # the next store to open the database catches up
        try:
            self.db.close()
        except _DB_ERRORS:
            self.db.dispose()

    # -- reading ---------------------------------------------------------------------------

    def _prepare(self) -> None:
        """Before answering: write games that waited, and bring the summary up to date."""
        if self.spool or self._unspooled:
            self._drain()
        try:
            self._ensure_schema()
            self._fresh()
        except _DB_ERRORS as err:
            self._down()
            raise StatsUnavailable(f"stats database unavailable: {err}") from err

    def _query(self, sql: str, params: Sequence[Any]) -> list[tuple[Any, ...]]:
        try:
            cur = self.db.cursor()
            cur.execute(self._s(sql), tuple(params))
            return list(cur.fetchall())
        except _DB_ERRORS as err:
            self._down()
            raise StatsUnavailable(f"stats database unavailable: {err}") from err

    def _net(self, alias: str) -> tuple[str, list[Any]]:
        if self.network is None:
            return "", []
        return f" AND {alias}.network = ?", [self.network]

    def find(self, name: str) -> int | None:
        """The player id ``name`` means (:func:`find_player`), on this store's network."""
        try:
            found = find_player(self.db, name, self.network)
        except _DB_ERRORS as err:
            self._down()
            raise StatsUnavailable(f"stats database unavailable: {err}") from err
        return None if found is None else found[0]

    def _scope(self, period: Period, channel: str | None) -> tuple[str, str]:
        return (irc_lower(channel) if channel else "", bucket_of(period, self.clock()))

    def player(
        self,
        name: str,
        ranking: Ranking = Ranking.PERCENT_WINS,
        period: Period = Period.ALL,
        channel: str | None = None,
        min_games: int = 5,
        include_bots: bool = False,
    ) -> PlayerStats | None:
        self._prepare()
        pid = self.find(name)
        if pid is None:
            return None
        chan, bucket = self._scope(period, channel)
        col = "pw" if ranking is Ranking.PERCENT_WINS else "ppg"
        rows = self._query(
            f"SELECT p.nick, s.games, s.wins, s.points, s.seconds, s.{col}, s.is_bot, "
            f"{_extra_counts()} FROM player_summary s JOIN player p ON p.id = s.player_id "
            "WHERE s.player_id = ? AND s.channel = ? AND s.bucket = ?",
            [pid, chan, bucket],
        )
        if not rows or not rows[0][1]:
            return None
        nick, games, wins, points, seconds, ratio, is_bot, team_games, stopped = rows[0]
        rank = None
        if games >= min_games and (include_bots or not is_bot):
            net, args = self._net("s")
            bots = "" if include_bots else " AND s.is_bot = ?"
            better = self._query(
                f"SELECT COUNT(*) FROM player_summary s WHERE s.channel = ? AND s.bucket = ?{net}"
                f" AND s.{col} >= ? AND s.games >= ?{bots} AND (s.{col} > ? OR s.games > ? OR "
                "(s.games = ? AND s.player_id < ?))",
                [chan, bucket, *args, ratio, min_games]
                + ([] if include_bots else [False])
                + [ratio, games, games, pid],
            )
            rank = int(better[0][0]) + 1
        return PlayerStats(
            nick, int(games), int(wins), int(points), int(seconds), rank, bool(is_bot),
            int(team_games), int(stopped),
        )  # fmt: skip

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
        if limit <= 0:
            return []
        self._prepare()
        chan, bucket = self._scope(period, channel)
        col = "pw" if ranking is Ranking.PERCENT_WINS else "ppg"
        net, args = self._net("s")
        bots = "" if include_bots else " AND s.is_bot = ?"
        # The rank index's order, walked from the top: the ranked players, then (asked for
        # provisional ones, and room left) the others from the top of the same walk.
        select = (
            f"SELECT p.nick, s.games, s.wins, s.points, s.seconds, s.is_bot, {_extra_counts()} "
            "FROM player_summary s JOIN player p ON p.id = s.player_id "
            f"WHERE s.channel = ? AND s.bucket = ?{net} AND s.games {{}} ?{bots} "
            f"ORDER BY s.{col} DESC, s.games DESC, s.player_id LIMIT ?"
        )
        head = [chan, bucket, *args, min_games] + ([] if include_bots else [False])
        rows = self._query(select.format(">="), [*head, limit])
        board = [
            PlayerStats(nick, int(g), int(w), int(p), int(s), n, bool(b), int(t), int(st))
            for n, (nick, g, w, p, s, b, t, st) in enumerate(rows, 1)
        ]
        if provisional and len(board) < limit:
            rest = self._query(select.format("<"), [*head, limit - len(board)])
            board += [
                PlayerStats(nick, int(g), int(w), int(p), int(s), None, bool(b), int(t), int(st))
                for nick, g, w, p, s, b, t, st in rest
            ]
        return board

    # -- games -----------------------------------------------------------------------------

    def game(self, key: str) -> StoredGame | None:
        """A recorded game by row id or game-id prefix, with its move list."""
        if game_key(key) is None:
            return None
        self._prepare()
        try:
            return find_game(self.db, key, self.network, stopped=_counts_stopped())
        except _DB_ERRORS as err:
            self._down()
            raise StatsUnavailable(str(err)) from err

    def last_game(self, name: str) -> StoredGame | None:
        """The last recorded game of the player ``name`` (ident, current or past nick)."""
        self._prepare()
        try:
            pid = self.find(name)
            if pid is None:
                return None
            rows = self._query(
                "SELECT MAX(game_id) FROM game_result WHERE player_id = ?", [pid]
            )  # the (player_id, game_id) index: one seek
            if not rows or rows[0][0] is None:
                return None
            return find_game(self.db, int(rows[0][0]), self.network, stopped=_counts_stopped())
        except _DB_ERRORS as err:
            self._down()
            raise StatsUnavailable(str(err)) from err

    # -- records ---------------------------------------------------------------------------

    def records(
        self,
        period: Period = Period.ALL,
        channel: str | None = None,
        include_bots: bool = False,
        only: Iterable[str] | None = None,
    ) -> list[Record]:
        """The records (``unobot.stats.record_rows``) of ``period`` in ``channel`` (None: all
        channels) on this store's network; a record nobody holds yet is left out."""
        self._prepare()
        try:
            return read_records(
                self.db, period, utc_naive(self.clock()), channel, self.network, include_bots,
                only,
            )  # fmt: skip
        except _DB_ERRORS as err:
            self._down()
            raise StatsUnavailable(f"stats database unavailable: {err}") from err

    def rebuild_records(self) -> int:
        """Recompute the records from the game rows and move lists (``unobot records
        rebuild``); returns the number of games."""
        self._drain()
        self._ensure_schema()
        with self._writing():
            return rebuild_records(self.db, self.analyse)

    # -- ratings ---------------------------------------------------------------------------

    def rebuild_ratings(self) -> int:
        """Recompute every player's rating from the game rows (``unobot ratings rebuild``);
        returns the number of games replayed."""
        self._drain()
        self._ensure_schema()
        with self._writing():
            return rebuild_rating_rows(self.db)

    def player_ratings(self) -> dict[tuple[str, str], PlayerRating]:
        """Every stored rating, by (network, ident), of this store's network (all if None)."""
        self._prepare()
        net, args = self._net("p")
        rows = self._query(
            "SELECT p.network, p.ident, r.mu, r.sigma, r.games FROM player_rating r "
            f"JOIN player p ON p.id = r.player_id WHERE 1 = 1{net}",
            args,
        )
        return {(n, i): PlayerRating(float(mu), float(s), int(g)) for n, i, mu, s, g in rows}

    def rating(
        self, name: str, min_games: int = 5, include_bots: bool = False
    ) -> RatedPlayer | None:
        """A player's rating and rank by conservative rating (all-time)."""
        self._prepare()
        pid = self.find(name)
        if pid is None:
            return None
        rows = self._query(
            "SELECT p.nick, r.mu, r.sigma, r.ordinal, r.games, p.is_bot FROM player_rating r "
            "JOIN player p ON p.id = r.player_id WHERE r.player_id = ?",
            [pid],
        )
        if not rows:
            return None
        nick, mu, sigma, ordinal, games, is_bot = rows[0]
        rank = None
        if games >= min_games and (include_bots or not is_bot):
            net, args = self._net("p")
            bots = "" if include_bots else " AND p.is_bot = ?"
            better = self._query(
                "SELECT COUNT(*) FROM player_rating r JOIN player p ON p.id = r.player_id "
                f"WHERE r.games >= ?{net}{bots} AND (r.ordinal > ? OR (r.ordinal = ? AND "
                "(r.games > ? OR (r.games = ? AND r.player_id < ?))))",
                [min_games, *args]
                + ([] if include_bots else [False])
                + [ordinal, ordinal, games, games, pid],
            )
            rank = int(better[0][0]) + 1
        return RatedPlayer(nick, float(mu), float(sigma), int(games), rank, bool(is_bot))

    def rating_leaderboard(
        self, limit: int, min_games: int = 5, include_bots: bool = False, provisional: bool = False
    ) -> list[RatedPlayer]:
        """The top ``limit`` players by conservative rating with at least ``min_games``; with
        ``provisional``, room left is filled with those rated in fewer games (rank None)."""
        if limit <= 0:
            return []
        self._prepare()
        net, args = self._net("p")
        bots = "" if include_bots else " AND p.is_bot = ?"
        select = (
            "SELECT p.nick, r.mu, r.sigma, r.games, p.is_bot FROM player_rating r "
            f"JOIN player p ON p.id = r.player_id WHERE r.games {{}} ?{net}{bots} "
            "ORDER BY r.ordinal DESC, r.games DESC, r.player_id LIMIT ?"
        )
        head = [min_games, *args] + ([] if include_bots else [False])
        rows = self._query(select.format(">="), [*head, limit])
        board = [
            RatedPlayer(nick, float(mu), float(s), int(g), n, bool(b))
            for n, (nick, mu, s, g, b) in enumerate(rows, 1)
        ]
        if provisional and len(board) < limit:
            rest = self._query(select.format("<"), [*head, limit - len(board)])
            board += [
                RatedPlayer(nick, float(mu), float(s), int(g), None, bool(b))
                for nick, mu, s, g, b in rest
            ]
        return board
