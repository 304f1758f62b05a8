"""Recorded games read back whole (SQL stores): the game, its result lines with each player's
rating after it, and its move list.

Shared by the store's :meth:`~unobot.stats.sql.SqlStatsStore.game` (``.unogame``), ``unobot
replay`` and the web site, which open the database themselves. Move lists are stored
zlib-compressed (:func:`pack_moves`): a journal's JSON lines repeat the same few keys, and
compress to about a quarter.
"""

from __future__ import annotations

import zlib
from datetime import datetime
from typing import Any

import peewee as pw

from unobot.stats.model import StoredGame, StoredResult, game_lookups
from unobot.stats.summaries import sql_for

__all__ = ["find_game", "pack_moves", "unpack_moves"]


def pack_moves(moves: str) -> bytes:
    return zlib.compress(moves.encode("utf-8"), 6)


def unpack_moves(data: Any) -> str:
    """``data`` as the driver returns a BLOB/bytea (bytes or memoryview)."""
    return zlib.decompress(bytes(data)).decode("utf-8")


def _time(value: Any) -> datetime:
    return value if isinstance(value, datetime) else datetime.fromisoformat(str(value))


_GAME = (
    "SELECT id, game_id, network, channel, preset, started, ended, seconds, teams, {} "
    "FROM game WHERE "
)


def find_game(
    db: pw.Database,
    key: int | str,
    network: str | None = None,
    *,
    moves: bool = True,
    stopped: bool | None = None,
) -> StoredGame | None:
    """The game whose row id is ``key`` (an int), or that a typed reference names (text: a
    row number or game-id prefix, looked up as :func:`unobot.stats.model.game_lookups`
    says); None when none, or several, match. ``network``: only that network's games.
    ``moves``: also read the move list. ``stopped``: whether the store has ``game.stopped``
    (schema v11; None: asked of the database), so a reader of a store the bot has not
    upgraded yet still finds its games."""
    if stopped is None:  # (the schema module imports this one: asked of the table itself)
        stopped = any(c.name == "stopped" for c in db.get_columns("game"))
    game_sql = _GAME.format("stopped" if stopped else "FALSE")
    net, args = ("", []) if network is None else (" AND network = ?", [network])
    cur = db.cursor()
    rows: list[Any] = []
    for lookup in [key] if isinstance(key, int) else game_lookups(key):
        if isinstance(lookup, int):
            cur.execute(sql_for(db, game_sql + "id = ?" + net), (lookup, *args))
        else:  # a prefix range on the unique index: hex digits sort before "g"
            cur.execute(
                sql_for(
                    db,
                    game_sql + "game_id >= ? AND game_id < ?" + net + " ORDER BY game_id LIMIT 2",
                ),
                (lookup, lookup + "g", *args),
            )
        rows = cur.fetchall()
        if rows:
            break
    if len(rows) != 1:
        return None
    gid, game_id, network_, channel, preset, started, ended, seconds, teams, cut = rows[0]
    cur.execute(
        sql_for(
            db,
            "SELECT p.nick, r.place, r.won, r.points_won, r.points_left, r.finished, r.is_bot, "
            "r.mu, r.sigma FROM game_result r JOIN player p ON p.id = r.player_id "
            "WHERE r.game_id = ? ORDER BY r.place, r.id",
        ),
        (gid,),
    )
    results = tuple(
        StoredResult(
            nick, int(place), bool(won), int(pw_), int(pl), bool(fin), bool(bot),
            None if mu is None else float(mu), None if sigma is None else float(sigma),
        )
        for nick, place, won, pw_, pl, fin, bot, mu, sigma in cur.fetchall()
    )  # fmt: skip
    text = None
    if moves:
        cur.execute(sql_for(db, "SELECT data FROM game_moves WHERE game_id = ?"), (gid,))
        row = cur.fetchone()
        text = unpack_moves(row[0]) if row is not None else None
    return StoredGame(
        int(gid), game_id, network_, channel, preset, _time(started), _time(ended),
        int(seconds), results, text, bool(teams), bool(cut),
    )  # fmt: skip
