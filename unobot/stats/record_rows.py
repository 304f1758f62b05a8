"""Records (``.unorecords``, the site's ``/records``): derived rows kept from the stored games.

Two tables (schema v9, :func:`unobot.stats.schema._v9_records`):

``game_figures``
    One row per result: what that player did in that game. The figures a move list gives
    (:class:`MoveFigures`: fewest moves and shortest time to win a hand, the biggest hand
    won, the most cards held at once, the most cards held in a hand they then won; NULL for
    a game stored without a move list) and the ones the game rows give (their winning streak
    and how many games they had played that UTC day, both counted in game id order, the
    order games are written).
``record_best``
    The holder of each record per network, scope (a channel, or ``""`` for all channels),
    calendar bucket (``all``, ``w<monday>``, ``m<yyyy-mm>``, as ``player_summary``) and
    audience (``people``: computer players left out, as the leaderboards do by default; or
    everyone). A query is one index range: no scan of a million results.

Both are written in the transaction that stores the game (:func:`record_game`), and rebuilt
from the game rows and move lists by :func:`rebuild_records` (``unobot records rebuild``).
The move-list figures need the game replayed, which is the core's job, a layer above this
one: the caller passes the function that does it (``unobot.replay.figures.move_figures``);
without one a game counts for the streak and games-in-a-day records only.

A record is beaten, not equalled: the first to reach a figure keeps it (games in id order,
and within a game by place), so rebuilding gives exactly the rows that writing gave.
Streaks in a week or month count that period's games only (a run that began last week counts
from this week's first game); games in a day are counted per UTC day.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import peewee as pw

from unobot.irc.casemap import irc_lower
from unobot.stats.game_rows import unpack_moves
from unobot.stats.model import GameRecord, Period, bucket_of, utc_naive
from unobot.stats.summaries import sql_for, stamp_for

__all__ = [
    "RECORDS",
    "Analyse",
    "MoveFigures",
    "Record",
    "RecordKind",
    "analysed",
    "find_figures",
    "read_records",
    "rebuild_records",
    "record_game",
]

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class MoveFigures:
    """What one player did in one game, read from its move list."""

    moves: int | None = None
    """Fewest moves in a hand they won: each card played and each draw from the pile on
    their turn counts one (penalty cards don't); None if they won no hand."""
    seconds: int | None = None
    """Shortest hand they won: from its deal to their last card, whole seconds."""
    points: int | None = None
    """Biggest hand won: the points that hand scored them."""
    cards: int = 0
    """Most cards they held at once, in any hand of the game."""
    comeback: int | None = None
    """Most cards they held during a hand they went on to win."""


Analyse = Callable[[str], Mapping[str, MoveFigures]]
"""A move list -> each player's figures, keyed by the seat's ident key and by ``"nick:"`` +
their folded nick at the end (see :func:`find_figures`); raises ValueError for a move list that
does not replay."""


def find_figures(
    figures: Mapping[str, MoveFigures] | None, ident: str, nick: str
) -> MoveFigures | None:
    """A result's figures: by the ident it was filed under, else by its nick."""
    if not figures:
        return None
    return figures.get(ident) or figures.get("nick:" + irc_lower(nick))


@dataclass(frozen=True, slots=True)
class RecordKind:
    key: str
    """What ``.unorecords`` and ``?record=`` take."""
    title: str
    unit: str
    lowest: bool = False
    """True when the smallest figure is the record (the fastest wins)."""


RECORDS: tuple[RecordKind, ...] = (
    RecordKind("moves", "Fastest win (moves)", "moves", lowest=True),
    RecordKind("time", "Fastest win (time)", "seconds", lowest=True),
    RecordKind("points", "Biggest hand won", "points"),
    RecordKind("streak", "Longest winning streak", "wins in a row"),
    RecordKind("cards", "Most cards held at once", "cards"),
    RecordKind("comeback", "Best comeback", "cards held in a hand won"),
    RecordKind("day", "Most games in a day", "games"),
)
KINDS = {k.key: k for k in RECORDS}


@dataclass(frozen=True, slots=True)
class Record:
    """One record and who holds it."""

    kind: RecordKind
    figure: int
    nick: str
    """The holder's current nick."""
    network: str
    is_bot: bool
    game_id: str
    """The game it was set in (its full id: links carry the first 8 characters)."""
    channel: str
    at: datetime
    """When that game ended (naive UTC)."""


# --- the running counts per player ----------------------------------------------------------


@dataclass(slots=True)
class _Run:
    """A player's counts after their last game in one scope (all channels, or one)."""

    week: str = ""
    month: str = ""
    day: str = ""
    streak: int = 0
    streak_w: int = 0
    streak_m: int = 0
    day_games: int = 0

    def after(self, won: bool, ended: datetime) -> _Run:
        week, month = bucket_of(Period.WEEK, ended), bucket_of(Period.MONTH, ended)
        day = ended.date().isoformat()
        return _Run(
            week,
            month,
            day,
            self.streak + 1 if won else 0,
            (self.streak_w + 1 if week == self.week else 1) if won else 0,
            (self.streak_m + 1 if month == self.month else 1) if won else 0,
            self.day_games + 1 if day == self.day else 1,
        )

    def streak_in(self, bucket: str) -> int:
        return {"a": self.streak, "w": self.streak_w, "m": self.streak_m}[bucket[0]]


_RUN_COLUMNS = "week, month, day, streak, streak_w, streak_m, day_games"


def _time(value: Any) -> datetime:
    return value if isinstance(value, datetime) else datetime.fromisoformat(str(value))


# --- one game ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Result:
    player_id: int
    ident: str
    nick: str
    won: bool
    is_bot: bool


_Key = tuple[str, str, str, bool]
"""(channel scope, bucket, record, people only)."""
_Best = tuple[int, int, int, Any]
"""(figure, player id, game row id, ended stamp)."""


def _game_rows(
    gid: int,
    channel: str,
    ended: datetime,
    results: Sequence[_Result],
    figures: Mapping[str, MoveFigures] | None,
    runs: dict[tuple[int, str], _Run],
) -> tuple[list[tuple[Any, ...]], dict[_Key, tuple[int, int]]]:
    """This game's ``game_figures`` rows and its best candidate per key as (figure, player);
    ``runs`` (player id, scope) is advanced in place."""
    rows: list[tuple[Any, ...]] = []
    best: dict[_Key, tuple[int, int]] = {}
    buckets = ("all", bucket_of(Period.WEEK, ended), bucket_of(Period.MONTH, ended))
    scopes = ("", channel) if channel else ("",)
    for r in results:
        fig = find_figures(figures, r.ident, r.nick)
        after = {}
        for scope in scopes:
            run = runs.get((r.player_id, scope)) or _Run()
            after[scope] = runs[(r.player_id, scope)] = run.after(r.won, ended)
        overall = after[""]
        rows.append(
            (
                gid, r.player_id,
                fig.moves if fig else None, fig.seconds if fig else None,
                fig.points if fig else None, fig.cards if fig else None,
                fig.comeback if fig else None, overall.streak, overall.day_games,
            )
        )  # fmt: skip
        for scope in scopes:
            run = after[scope]
            for bucket in buckets:
                found = {
                    "streak": run.streak_in(bucket),
                    "day": run.day_games,
                }
                if fig is not None:
                    found |= {
                        "moves": fig.moves, "time": fig.seconds, "points": fig.points,
                        "cards": fig.cards, "comeback": fig.comeback,
                    }  # fmt: skip
                for key, figure in found.items():
                    if figure is None or figure <= 0:
                        continue
                    for people in (False, True) if not r.is_bot else (False,):
                        k = (scope, bucket, key, people)
                        held = best.get(k)
                        if held is None or _beats(key, figure, held[0]):
                            best[k] = (figure, r.player_id)
    return rows, best


def _beats(key: str, figure: int, held: int) -> bool:
    return figure < held if KINDS[key].lowest else figure > held


_INSERT_FIGURES = (
    "INSERT INTO game_figures (game_id, player_id, moves, seconds, points, cards, comeback, "
    "streak, day_games) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
_UPSERT_RUN = (
    f"INSERT INTO record_run (player_id, channel, {_RUN_COLUMNS}) "
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (player_id, channel) DO UPDATE SET "
    "week = excluded.week, month = excluded.month, day = excluded.day, "
    "streak = excluded.streak, streak_w = excluded.streak_w, streak_m = excluded.streak_m, "
    "day_games = excluded.day_games"
)
_UPSERT_BEST = (
    "INSERT INTO record_best (network, channel, bucket, record, people, figure, player_id, "
    "game_id, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) "
    "ON CONFLICT (network, channel, bucket, record, people) DO UPDATE SET "
    "figure = excluded.figure, player_id = excluded.player_id, game_id = excluded.game_id, "
    "at = excluded.at"
)


def record_game(
    db: pw.Database,
    cur: Any,
    gid: int,
    game: GameRecord,
    player_ids: Sequence[int],
    figures: Mapping[str, MoveFigures] | None,
) -> None:
    """Add a game just written (row id ``gid``, its results' player ids in order) to the
    record tables, in the caller's transaction; ``figures``: :func:`analysed` (read before
    the transaction, so that the replay does not hold the write lock)."""
    q = lambda text: sql_for(db, text)  # noqa: E731
    results = [
        _Result(pid, r.ident, r.nick, r.won, r.is_bot)
        for pid, r in zip(player_ids, game.results, strict=True)
    ]
    channel = irc_lower(game.channel)
    ended = utc_naive(game.ended)
    pids = sorted({r.player_id for r in results})
    marks = ", ".join("?" * len(pids))
    cur.execute(
        q(
            f"SELECT player_id, channel, {_RUN_COLUMNS} FROM record_run "
            f"WHERE player_id IN ({marks}) AND channel IN (?, ?)"
        ),
        (*pids, "", channel),
    )
    runs = {(int(row[0]), str(row[1])): _Run(*row[2:]) for row in cur.fetchall()}
    rows, best = _game_rows(gid, channel, ended, results, figures, runs)
    cur.executemany(q(_INSERT_FIGURES), rows)
    cur.executemany(
        q(_UPSERT_RUN),
        [
            (pid, scope, run.week, run.month, run.day, run.streak, run.streak_w,
             run.streak_m, run.day_games)
            for (pid, scope), run in runs.items()
        ],
    )  # fmt: skip
    buckets = sorted({k[1] for k in best})
    if not best:
        return
    cur.execute(
        q(
            "SELECT channel, bucket, record, people, figure FROM record_best WHERE network = ? "
            f"AND channel IN (?, ?) AND bucket IN ({', '.join('?' * len(buckets))})"
        ),
        (game.network, "", channel, *buckets),
    )
    held = {(str(c), str(b), str(k), bool(p)): int(f) for c, b, k, p, f in cur.fetchall()}
    stamp = stamp_for(db)(ended)
    cur.executemany(
        q(_UPSERT_BEST),
        [
            (game.network, *key, figure, pid, gid, stamp)
            for key, (figure, pid) in sorted(best.items())
            if key not in held or _beats(key[2], figure, held[key])
        ],
    )


def analysed(
    analyse: Analyse | None, moves: str | None, game_id: str
) -> Mapping[str, MoveFigures] | None:
    """What ``analyse`` reads in ``moves``; None without either, or for a move list that does
    not replay (logged: the game then counts as one without)."""
    if analyse is None or not moves:
        return None
    try:
        return analyse(moves)
    except ValueError as err:
        log.warning(
            "records: the move list of game %s does not replay (%s); its records skipped",
            game_id, err,
        )  # fmt: skip
        return None


# --- rebuilding -------------------------------------------------------------------------------


def rebuild_records(db: pw.Database, analyse: Analyse | None, batch: int = 2000) -> int:
    """Recompute ``game_figures``, ``record_run`` and ``record_best`` from the game rows and
    their move lists (run inside the caller's transaction, or alone); returns the number of
    games. The same computation as :func:`record_game`, game by game in id order, with the
    running counts and the bests kept in memory."""
    q = lambda text: sql_for(db, text)  # noqa: E731
    stamp = stamp_for(db)
    with db.atomic():
        for table in ("game_figures", "record_run", "record_best"):
            db.execute_sql(f"DELETE FROM {table}")
        with_moves: set[int] = set()
        if analyse is not None:
            with_moves = {int(r[0]) for r in db.execute_sql("SELECT game_id FROM game_moves")}
        cur = db.execute_sql(
            "SELECT g.id, g.network, g.channel, g.ended, g.game_id, r.player_id, p.ident, "
            "p.nick, r.won, r.is_bot FROM game g JOIN game_result r ON r.game_id = g.id "
            "JOIN player p ON p.id = r.player_id ORDER BY g.id, r.place, r.id"
        )
        runs: dict[tuple[int, str], _Run] = {}
        bests: dict[tuple[str, str, str, str, bool], _Best] = {}
        pending: list[tuple[Any, ...]] = []
        games = 0
        writer = db.cursor()

        def finish(head: tuple[Any, ...], results: list[_Result]) -> None:
            gid, network, channel, ended, game_id = head
            figures = None
            if gid in with_moves:
                row = db.execute_sql(
                    q("SELECT data FROM game_moves WHERE game_id = ?"), (gid,)
                ).fetchone()
                if row is not None:
                    figures = analysed(analyse, unpack_moves(row[0]), str(game_id))
            when = _time(ended)
            rows, best = _game_rows(gid, irc_lower(channel), when, results, figures, runs)
            pending.extend(rows)
            for (scope, bucket, key, people), (figure, pid) in best.items():
                k = (network, scope, bucket, key, people)
                held = bests.get(k)
                if held is None or _beats(key, figure, held[0]):
                    bests[k] = (figure, pid, gid, stamp(when))
            if len(pending) >= batch:
                writer.executemany(q(_INSERT_FIGURES), pending)
                pending.clear()

        head: tuple[Any, ...] | None = None
        results: list[_Result] = []
        for gid, network, channel, ended, game_id, pid, ident, nick, won, is_bot in cur:
            if head is None or head[0] != gid:
                if head is not None:
                    finish(head, results)
                    games += 1
                head, results = (int(gid), network, channel, ended, game_id), []
            results.append(_Result(int(pid), ident, nick, bool(won), bool(is_bot)))
        if head is not None:
            finish(head, results)
            games += 1
        writer.executemany(q(_INSERT_FIGURES), pending)
        writer.executemany(
            q(_UPSERT_RUN),
            [
                (pid, scope, r.week, r.month, r.day, r.streak, r.streak_w, r.streak_m,
                 r.day_games)
                for (pid, scope), r in runs.items()
            ],
        )  # fmt: skip
        writer.executemany(
            q(_UPSERT_BEST),
            [(*key, *value) for key, value in sorted(bests.items())],
        )
    return games


# --- reading ----------------------------------------------------------------------------------


def read_records(
    db: pw.Database,
    period: Period,
    now: datetime,
    channel: str | None = None,
    network: str | None = None,
    include_bots: bool = False,
    only: Iterable[str] | None = None,
) -> list[Record]:
    """The records of ``period`` (the calendar week or month holding ``now``, or all time),
    in one channel or (``None``) all channels, on one network or (``None``) all of them, in
    :data:`RECORDS` order; a record nobody holds yet is left out. ``only``: these keys."""
    bucket = bucket_of(period, now)
    scope = irc_lower(channel) if channel else ""
    net, args = ("", []) if network is None else (" AND b.network = ?", [network])
    rows = db.execute_sql(
        sql_for(
            db,
            "SELECT b.record, b.figure, p.nick, b.network, p.is_bot, g.game_id, g.channel, "
            "b.at, b.game_id FROM record_best b JOIN player p ON p.id = b.player_id "
            "JOIN game g ON g.id = b.game_id "
            f"WHERE b.channel = ? AND b.bucket = ? AND b.people = ?{net}",
        ),
        (scope, bucket, not include_bots, *args),
    ).fetchall()
    wanted = set(only) if only is not None else set(KINDS)
    best: dict[str, tuple[Any, ...]] = {}
    for row in rows:
        key = str(row[0])
        if key not in KINDS or key not in wanted:
            continue
        held = best.get(key)
        # Several networks: the best of theirs, the earliest game on a tie.
        if (
            held is None
            or _beats(key, int(row[1]), int(held[1]))
            or (int(row[1]) == int(held[1]) and int(row[8]) < int(held[8]))
        ):
            best[key] = tuple(row)
    return [
        Record(
            KINDS[key], int(r[1]), str(r[2]), str(r[3]), bool(r[4]), str(r[5]), str(r[6]),
            _time(r[7]),
        )
        for key in KINDS
        if (r := best.get(key)) is not None
    ]  # fmt: skip
