"""The derived ``player_summary`` rows, computed from the game rows.

Shared by the store (``unobot.stats.sql``), which keeps the summary current, and the schema's
migration that creates the table (``unobot.stats.schema``): here, below both, so neither has to
import the other.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import peewee as pw

from unobot.stats.model import Period, bucket_of, utc_naive

__all__ = [
    "backfill_stopped",
    "backfill_team_games",
    "period_start",
    "rebuild_summaries",
    "rows_sql",
    "sql_for",
    "stamp_for",
]


def sql_for(db: pw.Database, text: str) -> str:
    """Our SQL is written with ``?`` placeholders; psycopg2 wants ``%s``."""
    return text if isinstance(db, pw.SqliteDatabase) else text.replace("?", "%s")


def stamp_for(db: pw.Database) -> Callable[[datetime], Any]:
    """How a naive UTC datetime is passed: a sortable string for SQLite (peewee's format, with
    microseconds so string order is time order), the datetime itself for PostgreSQL."""
    if isinstance(db, pw.SqliteDatabase):
        return lambda d: d.strftime("%Y-%m-%d %H:%M:%S.%f")
    return lambda d: d


def period_start(period: Period, now: datetime) -> datetime:
    now = utc_naive(now)
    day = datetime(now.year, now.month, now.day)
    if period is Period.WEEK:
        return day - timedelta(days=now.weekday())
    return datetime(now.year, now.month, 1)


def rows_sql(week_key: str, month_key: str, teams: bool = True, stopped: bool = True) -> str:
    """SELECT of every summary row computed from the facts; four ``?``: week start twice,
    month start twice. Only the current week and month buckets are built: no query reads an
    older one (record_game still files each game under its own week and month). With
    ``teams`` a column counts team games (a store from schema v10, ``team_games``), then with
    ``stopped`` one counts stopped games (v11, ``stopped_games``)."""
    won = "CASE WHEN r.won THEN 1 ELSE 0 END"
    team = "CASE WHEN g.teams THEN 1 ELSE 0 END" if teams else "0"
    stop = "CASE WHEN g.stopped THEN 1 ELSE 0 END" if stopped else "0"
    team_sum = ", SUM(x.team_games)" if teams else ""
    team_sum += ", SUM(x.stopped_games)" if stopped else ""
    base = (
        f"r.player_id AS pid, {won} AS wins, r.points_won AS points, g.seconds AS seconds, "
        f"{team} AS team_games, {stop} AS stopped_games "
        "FROM game_result r JOIN game g ON g.id = r.game_id"
    )
    imported = "i.player_id, i.wins, i.points, i.seconds, 0, 0 FROM imported_score i"
    union = " UNION ALL ".join(
        [
            f"SELECT '' AS channel, 'all' AS bucket, 1 AS games, {base}",
            f"SELECT g.channel, 'all', 1, {base}",
            f"SELECT '', '{week_key}', 1, {base} WHERE g.ended >= ?",
            f"SELECT g.channel, '{week_key}', 1, {base} WHERE g.ended >= ?",
            f"SELECT '', '{month_key}', 1, {base} WHERE g.ended >= ?",
            f"SELECT g.channel, '{month_key}', 1, {base} WHERE g.ended >= ?",
            f"SELECT '', 'all', i.games, {imported}",
            f"SELECT i.channel, 'all', i.games, {imported} WHERE i.channel <> ''",
        ]
    )
    return (
        "SELECT x.pid, p.network, x.channel, x.bucket, SUM(x.games), SUM(x.wins), "
        "SUM(x.points), SUM(x.seconds), "
        "CAST(SUM(x.points) AS DOUBLE PRECISION) / SUM(x.games), "
        f"CAST(SUM(x.wins) AS DOUBLE PRECISION) / SUM(x.games), p.is_bot{team_sum} "
        f"FROM ({union}) AS x JOIN player p ON p.id = x.pid "
        "GROUP BY x.pid, p.network, x.channel, x.bucket, p.is_bot HAVING SUM(x.games) > 0"
    )


def rebuild_summaries(
    db: pw.Database, now: datetime | None = None, teams: bool = True, stopped: bool = True
) -> int:
    """Recompute the derived ``player_summary`` from the rows (run inside a transaction by the
    caller, or alone); returns the number of summary rows. ``teams`` False: a store before
    schema v10 (no ``team_games``, maybe no ``game.teams``), the count is left out; the same
    for ``stopped`` before v11 (``stopped_games``, ``game.stopped``)."""
    now = utc_naive(now or datetime.now(UTC))
    week_key, month_key = bucket_of(Period.WEEK, now), bucket_of(Period.MONTH, now)
    select = rows_sql(week_key, month_key, teams, stopped)
    extra = (", team_games" if teams else "") + (", stopped_games" if stopped else "")
    stamp = stamp_for(db)
    week, month = stamp(period_start(Period.WEEK, now)), stamp(period_start(Period.MONTH, now))
    with db.atomic():
        db.execute_sql("DELETE FROM player_summary")
        db.execute_sql(
            sql_for(
                db,
                "INSERT INTO player_summary (player_id, network, channel, bucket, games, wins, "
                f"points, seconds, ppg, pw, is_bot{extra}) {select}",
            ),
            (week, week, month, month),
        )
        db.execute_sql(
            "UPDATE summary_state SET last_game = (SELECT COALESCE(MAX(id), 0) FROM game)"
        )
        count = db.execute_sql("SELECT COUNT(*) FROM player_summary").fetchone()[0]
    return int(count)


def backfill_team_games(db: pw.Database) -> int:
    """Fill ``player_summary.team_games`` (a column just added, all 0) from the team games
    already folded into the summary (``id <= summary_state.last_game``; later ones are the
    next catch-up's), under every bucket each was filed in, as the catch-up files them: the
    week and month buckets of past periods too, which a rebuild would drop. Only team games
    are read. Returns the number of summary rows changed."""
    rows = db.execute_sql(
        "SELECT g.channel, g.ended, r.player_id FROM game g "
        "JOIN game_result r ON r.game_id = g.id "
        "WHERE g.teams AND g.id <= (SELECT last_game FROM summary_state)"
    ).fetchall()
    counts: dict[tuple[int, str, str], int] = {}
    for channel, ended, pid in rows:
        when = ended if isinstance(ended, datetime) else datetime.fromisoformat(ended)
        for bucket in ("all", bucket_of(Period.WEEK, when), bucket_of(Period.MONTH, when)):
            for chan in ("", channel):
                counts[(pid, chan, bucket)] = counts.get((pid, chan, bucket), 0) + 1
    cur = db.cursor()
    cur.executemany(
        sql_for(
            db,
            "UPDATE player_summary SET team_games = ? "
            "WHERE player_id = ? AND channel = ? AND bucket = ?",
        ),
        [(n, pid, chan, bucket) for (pid, chan, bucket), n in sorted(counts.items())],
    )
    return len(counts)


def backfill_stopped(db: pw.Database, games: list[int]) -> int:
    """Fold into ``player_summary`` that ``games`` (row ids), once counted as won by their
    leader, were stopped (schema v11): each win they gave taken back and each of their results
    counted as a stopped game, under every bucket the catch-up filed them in (as
    :func:`backfill_team_games`, past weeks and months too), ratios recomputed. Only games
    already folded in (``id <= summary_state.last_game``) are changed here: the next catch-up
    reads the later ones as they are now. Call before marking the rows (it reads their wins).
    Returns the number of summary rows changed."""
    if not games:
        return 0
    changes: dict[tuple[int, str, str], list[int]] = {}  # wins taken back, stopped games
    for start in range(0, len(games), 500):
        chunk = games[start : start + 500]
        marks = ", ".join("?" for _ in chunk)
        rows = db.execute_sql(
            sql_for(
                db,
                "SELECT g.channel, g.ended, r.player_id, r.won FROM game g "
                f"JOIN game_result r ON r.game_id = g.id WHERE g.id IN ({marks}) "
                "AND g.id <= (SELECT last_game FROM summary_state)",
            ),
            tuple(chunk),
        ).fetchall()
        for channel, ended, pid, won in rows:
            when = ended if isinstance(ended, datetime) else datetime.fromisoformat(ended)
            for bucket in ("all", bucket_of(Period.WEEK, when), bucket_of(Period.MONTH, when)):
                for chan in ("", channel):
                    change = changes.setdefault((pid, chan, bucket), [0, 0])
                    change[0] += 1 if won else 0
                    change[1] += 1
    cur = db.cursor()
    cur.executemany(
        sql_for(
            db,
            "UPDATE player_summary SET wins = wins - ?, stopped_games = stopped_games + ?, "
            "pw = CAST(wins - ? AS DOUBLE PRECISION) / games "
            "WHERE player_id = ? AND channel = ? AND bucket = ?",
        ),
        [
            (won, count, won, pid, chan, bucket)
            for (pid, chan, bucket), (won, count) in sorted(changes.items())
        ],
    )
    return len(changes)
