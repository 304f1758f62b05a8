"""The derived ``player_rating`` rows (SQL stores), computed with :mod:`unobot.stats.ratings`.

Shared by the store (``unobot.stats.sql``), which updates a game's players' rows in the same
transaction that writes the game, and the schema's migration and ``unobot ratings rebuild``,
which recompute every row from the game rows in game id order (the order games were written,
which the store's write lock makes the order they were rated in). Players are keyed by their
row id, so one replay rates every network's games, each against its own players.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

import peewee as pw

from unobot.stats.model import GameRecord, PlayerResult
from unobot.stats.ratings import PlayerRating, update
from unobot.stats.summaries import sql_for, stamp_for

__all__ = ["load_ratings", "rate_game", "rebuild_rating_rows", "save_ratings"]

_UPSERT = (
    "INSERT INTO player_rating (player_id, network, mu, sigma, ordinal, games, updated) "
    "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (player_id) DO UPDATE SET "
    "mu = excluded.mu, sigma = excluded.sigma, ordinal = excluded.ordinal, "
    "games = excluded.games, updated = excluded.updated"
)
_EPOCH = datetime(1970, 1, 1)


def load_ratings(db: pw.Database, cur: Any, ids: Sequence[int]) -> dict[str, PlayerRating]:
    """The stored ratings of players ``ids`` (by row id as a string)."""
    if not ids:
        return {}
    marks = ", ".join("?" for _ in ids)
    cur.execute(
        sql_for(
            db,
            f"SELECT player_id, mu, sigma, games FROM player_rating WHERE player_id IN ({marks})",
        ),
        tuple(ids),
    )
    return {str(pid): PlayerRating(float(mu), float(s), int(g)) for pid, mu, s, g in cur}


def save_ratings(
    db: pw.Database,
    cur: Any,
    ratings: Mapping[str, PlayerRating],
    network: str,
    when: datetime,
) -> None:
    stamp = stamp_for(db)
    cur.executemany(
        sql_for(db, _UPSERT),
        [
            (int(pid), network, r.mu, r.sigma, r.mu - 3.0 * r.sigma, r.games, stamp(when))
            for pid, r in sorted(ratings.items(), key=lambda kv: int(kv[0]))
        ],
    )


def rate_game(
    db: pw.Database,
    cur: Any,
    network: str,
    ended: datetime,
    lines: Sequence[tuple[int, PlayerResult]],
) -> dict[str, PlayerRating]:
    """Rate one game being written: ``lines`` its (player id, result) pairs. Returns the new
    ratings by player id (as a string; empty for a game of one), which the result rows keep as
    the rating history."""
    results = tuple(
        PlayerResult(str(pid), "", r.place, r.won, 0, 0, r.finished) for pid, r in lines
    )
    game = GameRecord("", network, "", "", ended, ended, results)
    before = load_ratings(db, cur, sorted({pid for pid, _ in lines}))
    after = update(before, game)
    if after:
        save_ratings(db, cur, after, network, ended)
    return after


def rebuild_rating_rows(db: pw.Database, *, history: bool = True) -> int:
    """Recompute every ``player_rating`` row from the game rows (call inside a transaction),
    and with ``history`` (schema v5) every result's rating after its game; returns the number
    of games replayed."""
    cur = db.cursor()
    cur.execute(
        "SELECT g.id, g.network, g.ended, r.player_id, r.place, r.won, r.finished, r.id "
        "FROM game g JOIN game_result r ON r.game_id = g.id ORDER BY g.id, r.id"
    )
    games: list[tuple[str, Any, list[PlayerResult], list[int]]] = []
    last = None
    for gid, network, ended, pid, place, won, finished, rid in cur.fetchall():
        if gid != last:
            games.append((network, ended, [], []))
            last = gid
        games[-1][2].append(PlayerResult(str(pid), "", int(place), bool(won), 0, 0, bool(finished)))
        games[-1][3].append(int(rid))
    ratings: dict[str, PlayerRating] = {}
    nets: dict[str, tuple[str, Any]] = {}
    rows: list[tuple[float | None, float | None, int]] = []
    for network, ended, results, rids in games:
        when = ended if isinstance(ended, datetime) else datetime.fromisoformat(ended)
        record = GameRecord("", network, "", "", when, when, tuple(results))
        after = update(ratings, record)
        ratings.update(after)
        for pid in after:
            nets[pid] = (network, when)
        if history:
            for result, rid in zip(results, rids, strict=True):
                new = after.get(result.ident)
                rows.append((new.mu, new.sigma, rid) if new else (None, None, rid))
    if history:
        cur.executemany(sql_for(db, "UPDATE game_result SET mu = ?, sigma = ? WHERE id = ?"), rows)
    cur.execute("DELETE FROM player_rating")
    stamp = stamp_for(db)
    cur.executemany(
        sql_for(db, _UPSERT),
        [
            (int(pid), nets[pid][0], r.mu, r.sigma, r.mu - 3.0 * r.sigma, r.games,
             stamp(nets[pid][1] or _EPOCH))
            for pid, r in sorted(ratings.items(), key=lambda kv: int(kv[0]))
        ],
    )  # fmt: skip
    return len(games)
