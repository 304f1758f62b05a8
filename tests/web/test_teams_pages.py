"""The site says which games were played in teams: the game page (and its JSON) and
the player page's recent games, from the ``game.teams`` flag (schema v8)."""

from __future__ import annotations

import html
import re
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
        assert "teams (a team game)" in page
        assert client.get("/api/game/7e7e7e7e").json()["teams"] is True
        assert client.get("/api/game/5a5a5a5a").json()["teams"] is False
        assert "(a team game)" not in html.unescape(client.get("/game/5a5a5a5a").text)
        player = client.get("/player/cat").text
        assert '<span class="teams">(teams)</span>' in player
    db.close()


def test_leaderboards_count_each_players_team_games(tmp_path: Path) -> None:
    """The site's leaderboards (page and JSON, every ranking) say how many of a player's
    games were team games, in the period and channel shown: as the store counts them."""
    url = f"sqlite:///{tmp_path / 'stats.db'}"
    recent, old = NOW - timedelta(hours=1), NOW - timedelta(days=40)

    def result(nick: str, won: bool) -> PlayerResult:
        return PlayerResult(player_ident(nick), nick, 1 if won else 3, won, 50 if won else 0, 9)

    def game(n: int, ended: object, channel: str, teams: bool, *nicks: str) -> GameRecord:
        return GameRecord(
            f"{n:032x}", "net", channel, "teams" if teams else "official",
            ended - timedelta(minutes=9), ended,  # type: ignore[operator]
            tuple(result(nick, i == 0 or (teams and i == 1)) for i, nick in enumerate(nicks)),
            teams=teams,
        )  # fmt: skip

    store = SqlStatsStore(url, clock=lambda: NOW, spool_path=tmp_path / "spool")
    for n, (ended, channel, teams, nicks) in enumerate(
        [(old, "#uno", True, ("ann", "cat", "bob", "dan"))] * 3
        + [(recent, "#uno", True, ("ann", "cat", "bob", "dan"))]
        + [(recent, "#side", False, ("ann", "bob"))] * 2
    ):
        store.record_game(game(n, ended, channel, teams, *nicks))
    assert store.summary_mismatches() == []
    store.close()
    db = open_database(url)
    with TestClient(create_app(db, clock=lambda: NOW)) as client:

        def counts(query: str) -> dict[str, tuple[int, int]]:
            players = client.get(f"/api/leaderboard?min=1&{query}").json()["players"]
            return {p["nick"]: (p["games"], p["team_games"]) for p in players}

        assert counts("ranking=pw&period=all") == {
            "ann": (6, 4), "cat": (4, 4), "bob": (6, 4), "dan": (4, 4),
        }  # fmt: skip
        assert counts("ranking=ppg&period=week") == {
            "ann": (3, 1), "cat": (1, 1), "bob": (3, 1), "dan": (1, 1),
        }  # fmt: skip
        assert counts("ranking=pw&period=all&channel=%23side") == {"ann": (2, 0), "bob": (2, 0)}
        assert counts("ranking=rating")["cat"] == (4, 4)  # all-time, every channel
        page = client.get("/leaderboard?ranking=pw&period=all&min=1").text
        assert "Teams</abbr></th>" in page and 'id="teams-note"' in page
        cells = re.findall(r'<td class="num team-games">(.*?)</td>', page)
        assert cells == ["4"] * 4
        side = client.get("/leaderboard?ranking=pw&period=all&channel=%23side&min=1").text
        assert (
            re.findall(r'<td class="num team-games">(.*?)</td>', side)
            == ['<span class="muted">–</span>'] * 2
        )
    db.close()
