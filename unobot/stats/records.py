"""Checks and the JSON form of :class:`GameRecord`, shared by every store and the spool.

One place decides what a valid record is, so the SQL store, the in-memory store and the
durable queue agree on it, and a record read back from the queue equals the one written.
"""

from __future__ import annotations

import json
from dataclasses import asdict, replace
from datetime import datetime
from typing import Any

from unobot.irc.casemap import irc_lower
from unobot.stats.model import GameRecord, PlayerResult, utc_naive

__all__ = ["from_json", "normalized", "to_json"]


def normalized(game: GameRecord) -> GameRecord:
    """``game`` with naive-UTC times and a folded channel; ValueError for a record no store
    could file (no id, no players, one ident twice, ended before it started, a stopped game
    with a winner)."""
    if not game.game_id:
        raise ValueError("a game record needs a game_id")
    if not game.results:
        raise ValueError(f"game {game.game_id}: no player results")
    idents = [r.ident for r in game.results]
    if len(set(idents)) != len(idents):
        raise ValueError(f"game {game.game_id}: a player appears twice ({idents})")
    if game.stopped and any(r.won for r in game.results):
        raise ValueError(f"game {game.game_id}: a stopped game has no winner")
    started, ended = utc_naive(game.started), utc_naive(game.ended)
    if ended < started:
        raise ValueError(f"game {game.game_id}: ended before it started")
    return replace(game, started=started, ended=ended, channel=irc_lower(game.channel))


def to_json(game: GameRecord) -> str:
    """One line of JSON (no newline inside), the spool's format."""
    data: dict[str, Any] = asdict(game)
    data["started"] = game.started.isoformat()
    data["ended"] = game.ended.isoformat()
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False)


def from_json(line: str) -> GameRecord:
    data = json.loads(line)
    return GameRecord(
        game_id=data["game_id"],
        network=data["network"],
        channel=data["channel"],
        preset=data["preset"],
        started=datetime.fromisoformat(data["started"]),
        ended=datetime.fromisoformat(data["ended"]),
        results=tuple(PlayerResult(**r) for r in data["results"]),
        moves=data.get("moves"),
        teams=bool(data.get("teams", False)),
        stopped=bool(data.get("stopped", False)),
    )
