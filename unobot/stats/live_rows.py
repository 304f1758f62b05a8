"""The live-game rows (``live_game``, ``live_line``: schema v6): written by the bot's database
worker (:class:`unobot.stats.live.LiveWriter`), read by the web process.

Plain SQL on the DB-API cursor, ``?`` placeholders turned into ``%s`` for PostgreSQL by
:func:`~unobot.stats.summaries.sql_for`, the same text on both engines (``ON CONFLICT`` upserts
exist in SQLite 3.24+ and PostgreSQL 9.5+). Every row carries its network: bots sharing one
PostgreSQL store write and clean up their own rows only.

Reading (the site, and the tournament pages: a tournament's tables link to their spectator
views): :func:`live_games`, :func:`live_game`, :func:`live_lines`, :func:`live_version`,
:func:`tournament_tables`, :func:`in_channel`, :func:`playing_now`. Each tolerates a store
whose schema predates the live tables (an older bot): no live games, not an error.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

import peewee as pw

from unobot.irc.casemap import irc_lower
from unobot.irc.outbox import strip_codes
from unobot.stats.schema import LIVE_VERSION, schema_version
from unobot.stats.summaries import sql_for

__all__ = [
    "KEEP_LINES",
    "STALE_SECONDS",
    "LiveLine",
    "LiveView",
    "LiveWrite",
    "age_out",
    "clear_network",
    "in_channel",
    "list_version",
    "live_game",
    "live_games",
    "live_lines",
    "live_version",
    "plain_text",
    "playing_now",
    "spectate_path",
    "touch",
    "tournament_tables",
    "write_batch",
]

KEEP_LINES = 40
"""Channel lines kept per live game (the spectator view shows them all)."""
STALE_SECONDS = 300.0
"""A live row not written for this long is a dead bot's: not listed, and aged out by the next
bot's upkeep. A bot touches its rows every :data:`unobot.stats.live.HEARTBEAT` seconds, so a
game that merely waits (a paused tournament) stays listed."""
ENDED_SECONDS = 3600.0
"""An ended game's row is kept this long (its spectator page says it ended and links to the
replay), unless the channel's next game replaces it first."""


def plain_text(text: str) -> str:
    """An IRC line without its colour and formatting codes (what a web page shows)."""
    return strip_codes(text)


@dataclass(slots=True)
class LiveWrite:
    """One channel's change in a flush: the newest public state (``state``, None when only
    lines or the end are new), the channel lines said since the last flush, and whether the
    game ended (``ended``: epoch seconds) or a new game started in the channel (``fresh``:
    the old game's lines go)."""

    network: str
    channel: str
    state: dict[str, Any] | None = None
    lines: list[tuple[float, str]] = field(default_factory=list)
    ended: float | None = None
    fresh: bool = False
    started: float = 0.0
    first_seq: int = 0
    """The number of the first of ``lines`` (the writer counts them: no query); 0: ask."""


_UPSERT = (
    "INSERT INTO live_game (network, channel_key, channel, tournament, table_no, players, turn, "
    "top, color, direction, info, version, started, updated, ended) "
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?, NULL) "
    "ON CONFLICT (network, channel_key) DO UPDATE SET channel = excluded.channel, "
    "tournament = excluded.tournament, table_no = excluded.table_no, "
    "players = excluded.players, turn = excluded.turn, top = excluded.top, "
    "color = excluded.color, direction = excluded.direction, info = excluded.info, "
    "version = live_game.version + 1, started = excluded.started, "
    "updated = excluded.updated, ended = NULL"
)


_INSERT_LINE = (
    "INSERT INTO live_line (network, channel_key, seq, at, text) VALUES (?, ?, ?, ?, ?) "
    "ON CONFLICT (network, channel_key, seq) DO UPDATE SET at = excluded.at, text = excluded.text"
)


def _cursor_sql(db: pw.Database, cache: dict[str, str], text: str) -> str:
    sql = cache.get(text)
    if sql is None:
        sql = cache[text] = sql_for(db, text)
    return sql


_SQL: dict[int, dict[str, str]] = {}


def _run(db: pw.Database, cur: Any, text: str, params: Sequence[Any] = ()) -> None:
    cur.execute(_cursor_sql(db, _SQL.setdefault(id(type(db)), {}), text), tuple(params))


def write_batch(db: pw.Database, batch: Iterable[LiveWrite], now: float) -> int:
    """Apply one flush, in one transaction, each kind of statement once for every channel
    (``executemany``); returns the rows written or deleted by statement (the benchmark counts
    the database's work per move with it)."""
    fresh: list[tuple[Any, ...]] = []
    states: list[tuple[Any, ...]] = []
    lines: list[tuple[Any, ...]] = []
    trims: list[tuple[Any, ...]] = []
    touched: list[tuple[Any, ...]] = []
    ends: list[tuple[Any, ...]] = []
    cur = db.cursor()
    asked = 0
    for w in batch:
        key = irc_lower(w.channel)
        if w.fresh:
            fresh.append((w.network, key))
        if w.state is not None:
            s = w.state
            states.append((
                w.network, key, w.channel, s.get("tournament"), s.get("table_no"),
                json.dumps(s["players"]), s["turn"], s["top"], s["color"], s["direction"],
                json.dumps(s["info"]), w.started, now,
            ))  # fmt: skip
        if w.lines:
            said = w.lines[-KEEP_LINES:]
            seq = w.first_seq - 1
            if w.first_seq <= 0:  # not counted by the writer: ask
                _run(
                    db,
                    cur,
                    "SELECT COALESCE(MAX(seq), 0) FROM live_line "
                    "WHERE network = ? AND channel_key = ?",
                    (w.network, key),
                )
                seq = int(cur.fetchone()[0])
                asked += 1
            lines += [
                (w.network, key, seq + n, at, plain_text(text)[:600])
                for n, (at, text) in enumerate(said, 1)
            ]
            trims.append((w.network, key, seq + len(said) - KEEP_LINES))
            if w.state is None and w.ended is None:  # lines alone: the page changes too
                touched.append((now, w.network, key))
        if w.ended is not None:
            ends.append((w.ended, now, w.network, key))
    steps: tuple[tuple[str, list[tuple[Any, ...]]], ...] = (
        ("DELETE FROM live_line WHERE network = ? AND channel_key = ?", fresh),
        (_UPSERT, states),
        (_INSERT_LINE, lines),
        ("DELETE FROM live_line WHERE network = ? AND channel_key = ? AND seq <= ?", trims),
        (
            "UPDATE live_game SET version = version + 1, updated = ? "
            "WHERE network = ? AND channel_key = ?",
            touched,
        ),
        (
            "UPDATE live_game SET ended = ?, version = version + 1, updated = ? "
            "WHERE network = ? AND channel_key = ? AND ended IS NULL",
            ends,
        ),
    )
    cache = _SQL.setdefault(id(type(db)), {})
    with db.atomic():
        for text, rows in steps:
            if rows:
                cur.executemany(_cursor_sql(db, cache, text), rows)
    return asked + sum(len(rows) for _, rows in steps)


def clear_network(db: pw.Database, network: str) -> None:
    """Forget every live row of ``network`` (a bot starting: its own rows are a crashed
    run's; a bot stopping: its games end with it)."""
    cur = db.cursor()
    with db.atomic():
        _run(db, cur, "DELETE FROM live_line WHERE network = ?", (network,))
        _run(db, cur, "DELETE FROM live_game WHERE network = ?", (network,))


def touch(db: pw.Database, network: str, channels: Sequence[str], now: float) -> None:
    """The bot's heartbeat: its games still being played are fresh (no version change)."""
    if not channels:
        return
    cur = db.cursor()
    marks = ", ".join("?" for _ in channels)
    _run(
        db,
        cur,
        f"UPDATE live_game SET updated = ? WHERE network = ? AND ended IS NULL "
        f"AND channel_key IN ({marks})",
        (now, network, *[irc_lower(c) for c in channels]),
    )


def age_out(db: pw.Database, now: float) -> None:
    """Remove rows nobody wrote for :data:`STALE_SECONDS` (any network: a dead bot's) and
    ended games older than :data:`ENDED_SECONDS`."""
    cur = db.cursor()
    with db.atomic():
        _run(
            db,
            cur,
            "DELETE FROM live_line WHERE EXISTS (SELECT 1 FROM live_game g WHERE "
            "g.network = live_line.network AND g.channel_key = live_line.channel_key AND "
            "(g.updated < ? OR g.ended < ?))",
            (now - STALE_SECONDS, now - ENDED_SECONDS),
        )
        _run(
            db,
            cur,
            "DELETE FROM live_game WHERE updated < ? OR ended < ?",
            (now - STALE_SECONDS, now - ENDED_SECONDS),
        )


# --- reading ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class LiveView:
    """A live game as the site shows it: public state only."""

    network: str
    channel: str
    tournament: str | None
    table_no: int | None
    players: tuple[tuple[str, int], ...]
    """(nick, cards in hand) in seat order."""
    turn: str
    top: str
    color: str
    direction: int
    info: dict[str, Any]
    version: int
    started: float
    updated: float
    ended: float | None

    @property
    def stamp(self) -> str:
        """What a self-updating page compares: changes with every write of this row."""
        return f"{self.started:.3f}-{self.version}"


@dataclass(frozen=True, slots=True)
class LiveLine:
    seq: int
    at: float
    text: str


_COLUMNS = (
    "network, channel, tournament, table_no, players, turn, top, color, direction, info, "
    "version, started, updated, ended"
)


def _view(row: Sequence[Any]) -> LiveView:
    players = tuple((str(p["nick"]), int(p["cards"])) for p in json.loads(row[4] or "[]"))
    return LiveView(
        str(row[0]),
        str(row[1]),
        row[2],
        None if row[3] is None else int(row[3]),
        players,
        str(row[5]),
        str(row[6]),
        str(row[7]),
        int(row[8]),
        json.loads(row[9] or "{}"),
        int(row[10]),
        float(row[11]),
        float(row[12]),
        None if row[13] is None else float(row[13]),
    )


_READY: set[int] = set()
"""Databases (by id) seen with the live tables: the schema is not asked again."""


def _has_tables(db: pw.Database) -> bool:
    if id(db) in _READY:
        return True
    ready = schema_version(db) >= LIVE_VERSION
    if ready:
        _READY.add(id(db))
    return ready


def _select(db: pw.Database, where: str, params: Sequence[Any]) -> list[LiveView]:
    if not _has_tables(db):
        return []
    cur = db.cursor()
    _run(db, cur, f"SELECT {_COLUMNS} FROM live_game WHERE {where}", params)
    return [_view(row) for row in cur.fetchall()]


def live_games(db: pw.Database, now: float, network: str | None = None) -> list[LiveView]:
    """The games being played now (not ended, written within :data:`STALE_SECONDS`), on
    ``network`` or every network, by network and channel."""
    where, params = "ended IS NULL AND updated >= ?", [now - STALE_SECONDS]
    if network is not None:
        where, params = where + " AND network = ?", [*params, network]
    return sorted(_select(db, where, params), key=lambda v: (v.network, irc_lower(v.channel)))


def live_game(db: pw.Database, network: str, channel: str, now: float) -> LiveView | None:
    """The live row of ``channel`` on ``network`` (an ended game's too, while it is kept);
    None when there is none or it is stale."""
    rows = _select(
        db,
        "network = ? AND channel_key = ? AND updated >= ?",
        (network, irc_lower(channel), now - STALE_SECONDS),
    )
    return rows[0] if rows else None


def live_version(db: pw.Database, network: str, channel: str, now: float) -> str:
    """The spectator page's version, from the primary key alone: ``started-version``, or
    ``ended`` parts when it ended, ``none`` when there is no live game."""
    if not _has_tables(db):
        return "none"
    cur = db.cursor()
    _run(
        db,
        cur,
        "SELECT started, version, ended FROM live_game WHERE network = ? AND "
        "channel_key = ? AND updated >= ?",
        (network, irc_lower(channel), now - STALE_SECONDS),
    )
    row = cur.fetchone()
    if row is None:
        return "none"
    return f"{float(row[0]):.3f}-{int(row[1])}" + ("-ended" if row[2] is not None else "")


def list_version(db: pw.Database, now: float) -> str:
    """``/live``'s version: changes whenever any live game is written (one aggregate over a
    table of a few rows)."""
    if not _has_tables(db):
        return "none"
    cur = db.cursor()
    _run(
        db,
        cur,
        "SELECT COUNT(*), COALESCE(SUM(version), 0), COALESCE(MAX(started), 0) FROM live_game "
        "WHERE ended IS NULL AND updated >= ?",
        (now - STALE_SECONDS,),
    )
    count, versions, started = cur.fetchone()
    return f"{int(count)}-{int(versions)}-{float(started):.3f}"


def live_lines(
    db: pw.Database, network: str, channel: str, limit: int = KEEP_LINES
) -> list[LiveLine]:
    """The channel's last lines (oldest first)."""
    if not _has_tables(db):
        return []
    cur = db.cursor()
    _run(
        db,
        cur,
        "SELECT seq, at, text FROM live_line WHERE network = ? AND channel_key = ? "
        "ORDER BY seq DESC LIMIT ?",
        (network, irc_lower(channel), limit),
    )
    return [LiveLine(int(s), float(a), str(t)) for s, a, t in reversed(cur.fetchall())]


def tournament_tables(db: pw.Database, tournament: str, now: float) -> list[LiveView]:
    """The live games of the tournament called ``tournament`` (as typed or folded), by table
    number: whose turn it is at each table, and the link to its spectator view."""
    rows = _select(
        db, "tournament IS NOT NULL AND ended IS NULL AND updated >= ?", (now - STALE_SECONDS,)
    )
    name = irc_lower(tournament)
    found = [v for v in rows if v.tournament is not None and irc_lower(v.tournament) == name]
    return sorted(found, key=lambda v: (v.table_no is None, v.table_no or 0, v.channel))


def in_channel(
    db: pw.Database, channel: str, now: float, network: str | None = None
) -> list[LiveView]:
    """The live game in ``channel`` (one per network that has one)."""
    where, params = (
        "channel_key = ? AND ended IS NULL AND updated >= ?",
        [
            irc_lower(channel),
            now - STALE_SECONDS,
        ],
    )
    if network is not None:
        where, params = where + " AND network = ?", [*params, network]
    return _select(db, where, params)


def spectate_path(network: str, channel: str) -> str:
    """The spectator view's path on the site (before any root path): ``/live/<network>/<channel>``,
    ``-`` for the empty network, the channel quoted (its ``#`` would start a fragment)."""
    return f"/live/{quote(network or '-', safe='')}/{quote(channel, safe='')}"


def playing_now(db: pw.Database, nick: str, now: float, network: str = "") -> LiveView | None:
    """The live game ``nick`` has a seat in, on ``network`` ("" = any), or None."""
    folded = irc_lower(nick)
    for view in live_games(db, now, network or None):
        if any(irc_lower(n) == folded for n, _ in view.players):
            return view
    return None
