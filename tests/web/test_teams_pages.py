"""The site says which games were played in teams of two: the game page (and its JSON) and
the player page's recent games, from the ``game.teams`` flag (schema v8)."""

from __future__ import annotations

import html
import warnings
from datetime import timedelta
from pathlib import Path

from tests.web.conftest import NOW
from unobot.stats.model import GameRecord, PlayerResult, player_ident
from unobot.stats.sql import SqlStatsStore, open_database
from unobot.web.app import create_app

with warnings.catch_warnings():
    warnings.filterwarnings("ignore", "Using `httpx` with `starlette.testclient`")
    from starlette.testclient import TestClient


def test_team_games_are_marked_on_game_and_player_pages(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'stats.db'}"
    ended = NOW - timedelta(hours=1)

    def result(nick: str, place: int, won: bool, points: int = 0) -> PlayerResult:
        return PlayerResult(player_ident(nick), nick, place, won, points, 0 if won else 20)

    teams = GameRecord(
        "7e" * 16, "net", "#uno", "teams", ended - timedelta(minutes=20), ended,
        (result("ann", 1, True, 510), result("cat", 1, True, 510), result("bob", 3, False),
         result("dan", 3, False)),
        teams=True,
    )  # fmt: skip
    solo = GameRecord(
        "5a" * 16, "net", "#uno", "official", ended - timedelta(minutes=9), ended,
        (result("ann", 1, True, 20), result("bob", 2, False)),
    )  # fmt: skip
    store = SqlStatsStore(url, clock=lambda: NOW, spool_path=tmp_path / "spool")
    store.record_game(teams)
    store.record_game(solo)
    store.maintain()
    store.close()
    db = open_database(url)
    with TestClient(create_app(db, clock=lambda: NOW)) as client:
        page = html.unescape(client.get("/game/7e7e7e7e").text)
        assert "teams (teams of two)" in page
        assert client.get("/api/game/7e7e7e7e").json()["teams"] is True
        assert client.get("/api/game/5a5a5a5a").json()["teams"] is False
        assert "(teams of two)" not in html.unescape(client.get("/game/5a5a5a5a").text)
        player = client.get("/player/cat").text
        assert '<span class="teams">(teams)</span>' in player
    db.close()
