"""Issue 37 item 7 on the stats site: a new install's leaderboards list the players so far,
marked provisional, instead of an empty table; a stopped game is shown as stopped on its page,
in a player's recent games and on the spectator page, never as won; the leaderboards and a
player's page say what counts as a game."""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest

from tests.web.conftest import NOW, TestClient, _game
from unobot.stats import live_rows
from unobot.stats.model import GameRecord, PlayerResult
from unobot.stats.sql import SqlStatsStore, open_database
from unobot.web.app import create_app

WHAT_COUNTS = "A game counts once a hand of it has been played out."
STOPPED_ID = "5b" * 16


def stopped_game(ended: object = NOW - timedelta(minutes=5)) -> GameRecord:
    """``.unostop`` in the second hand: Cy led with 28, nobody won."""
    results = (
        PlayerResult("cy", "Cy", 1, False, 28, 9),
        PlayerResult("ann", "ann", 2, False, 0, 14),
        PlayerResult("bob", "bob", 3, False, 0, 30, finished=False),
    )
    return GameRecord(
        STOPPED_ID, "net", "#uno", "official", NOW - timedelta(minutes=25),
        ended, results, stopped=True,  # type: ignore[arg-type]
    )  # fmt: skip


@pytest.fixture
def fresh(tmp_path: Path) -> Iterator[tuple[TestClient, str]]:
    """A new install: three finished games and a stopped one, nobody near 5 games."""
    url = f"sqlite:///{tmp_path / 'stats.db'}"
    store = SqlStatsStore(url, spool_path=tmp_path / "spool")
    store.record_game(_game("a" * 32, "net", NOW - timedelta(days=2), ["ann", "bob"]))
    store.record_game(_game("b" * 32, "net", NOW - timedelta(days=1), ["ann", "cy"]))
    store.record_game(_game("c" * 32, "net", NOW - timedelta(hours=3), ["bob", "ann"]))
    store.record_game(stopped_game())
    store.close()
    db = open_database(url)
    with TestClient(create_app(db, clock=lambda: NOW)) as client:
        yield client, url
    db.close()


def provisional_rows(page: str) -> list[str]:
    rows = re.findall(r'<tr class="player-row provisional">(.*?)</tr>', page, re.S)
    nicks = [re.search(r'class="player-link"[^>]*>([^<]*)<', row) for row in rows]
    return [html.unescape(m.group(1)) for m in nicks if m]


@pytest.mark.parametrize("ranking", ["rating", "pw", "ppg"])
def test_a_new_install_lists_the_players_so_far_as_provisional(
    fresh: tuple[TestClient, str], ranking: str
) -> None:
    client, url = fresh
    page = client.get(f"/leaderboard?ranking={ranking}").text
    assert "No player has" not in page and "Nobody has played here yet." not in page
    assert '<tr class="player-row">' not in page  # nobody ranked yet
    listed = provisional_rows(page)
    assert sorted(listed) == ["Cy", "ann", "bob"]
    head = '<tr class="provisional-head"><th scope="rowgroup" colspan="8">Provisional: fewer'
    assert head in page
    assert "0 players ranked by" in html.unescape(page) and "(and 3 provisional)" in page
    assert "Players with fewer are listed after them, marked provisional." in page
    assert WHAT_COUNTS in page
    api = client.get(f"/api/leaderboard?ranking={ranking}").json()["players"]
    assert [p["nick"] for p in api] == listed
    assert all(p["provisional"] and p["rank"] is None for p in api)
    if ranking != "rating":  # the bot's own order (.unotop10)
        store = SqlStatsStore(url, network=None, clock=lambda: NOW, connect_now=False)
        from unobot.stats import Ranking

        try:
            board = store.leaderboard(Ranking(ranking), 50, provisional=True)
        finally:
            store.close()
        assert [p.nick for p in board] == listed


def test_ranked_players_come_first_then_the_provisional(fresh: tuple[TestClient, str]) -> None:
    client, _ = fresh
    page = client.get("/leaderboard?ranking=ppg&min=3").text  # ann has 4 games, bob 3
    ranked = re.findall(r'<tr class="player-row">.*?class="player-link"[^>]*>([^<]*)<', page, re.S)
    assert sorted(ranked) == ["ann", "bob"] and provisional_rows(page) == ["Cy"]
    assert page.index("Provisional: fewer than 3 games") > page.index(">ann<")
    api = client.get("/api/leaderboard?ranking=ppg&min=3").json()["players"]
    assert [(p["rank"], p["provisional"]) for p in api] == [(1, False), (2, False), (None, True)]


def test_an_empty_board_says_nobody_has_played(fresh: tuple[TestClient, str]) -> None:
    client, _ = fresh
    page = client.get("/leaderboard?ranking=pw&channel=%23quiet").text
    assert "Nobody has played here yet." in page


def test_a_stopped_game_is_shown_stopped_never_won(fresh: tuple[TestClient, str]) -> None:
    client, _ = fresh
    page = client.get(f"/game/{STOPPED_ID[:8]}").text
    assert 'class="tag stopped">stopped</span>' in page
    assert "This game was stopped before its end: nobody won it." in page
    assert (
        "(won)" not in page and "<strong>" not in page.split('id="results"')[1].split("</table>")[0]
    )
    api = client.get(f"/api/game/{STOPPED_ID[:8]}").json()
    assert api["stopped"] is True and not any(r["won"] for r in api["results"])
    finished = client.get("/api/game/aaaaaaaa").json()
    assert finished["stopped"] is False and finished["results"][0]["won"]


def test_a_players_page_counts_and_marks_the_stopped_games(fresh: tuple[TestClient, str]) -> None:
    client, _ = fresh
    page = client.get("/player/ann?network=net").text
    total = re.search(r'<dd id="games-total">(.*?)</dd>', page, re.S)
    assert total and " ".join(re.sub(r"<[^>]+>", "", total.group(1)).split()) == "4 (1 stopped)"
    assert WHAT_COUNTS in page
    recent = page.split('id="recent-games"')[1].split("</table>")[0]
    first = recent.split("<tr>")[2]  # the newest game: the stopped one
    assert 'class="tag stopped">stopped</span>' in first and "won" not in first
    api = client.get("/api/player/ann?network=net").json()
    assert api["games"] == 4 and api["stopped_games"] == 1
    assert [g["stopped"] for g in api["recent"]] == [True, False, False, False]


def test_the_spectator_page_of_a_stopped_game_says_it_was_stopped(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'stats.db'}"
    store = SqlStatsStore(url, spool_path=tmp_path / "spool")
    store.record_game(stopped_game(NOW - timedelta(seconds=30)))
    store.close()
    db = open_database(url)
    t = NOW.timestamp()
    view = {
        "players": [{"nick": "Cy", "cards": 3}, {"nick": "ann", "cards": 5}],
        "turn": "ann", "top": "R5", "color": "red", "direction": 1,
        "info": {"hand": 2, "rules": "official", "pending": 0},
    }  # fmt: skip
    first = live_rows.LiveWrite("net", "#uno", view, fresh=True, started=t - 25 * 60)
    live_rows.write_batch(db, [first], t - 40)
    live_rows.write_batch(db, [live_rows.LiveWrite("net", "#uno", ended=t - 30)], t - 30)
    with TestClient(create_app(db, clock=lambda: NOW)) as client:
        page = client.get("/live/net/%23uno").text
        assert "This game was stopped before its end: nobody won it." in page
        assert f'href="/game/{STOPPED_ID[:8]}"' in page
        api = client.get("/api/live/net/%23uno").json()
        assert api["stopped"] is True and api["replay"] == f"/game/{STOPPED_ID[:8]}"
    db.close()


def test_a_reader_of_a_store_before_v11_still_shows_its_games(tmp_path: Path) -> None:
    """The site may run against a store its bot has not upgraded yet: no stopped column."""
    url = f"sqlite:///{tmp_path / 'stats.db'}"
    store = SqlStatsStore(url, spool_path=tmp_path / "spool")
    store.record_game(_game("a" * 32, "net", NOW - timedelta(days=2), ["ann", "bob"]))
    store.close()
    db = open_database(url)
    db.execute_sql("ALTER TABLE game DROP COLUMN stopped")
    db.execute_sql("ALTER TABLE player_summary DROP COLUMN stopped_games")
    db.execute_sql("UPDATE schema_version SET version = 10")
    with TestClient(create_app(db, clock=lambda: NOW)) as client:
        assert client.get("/api/game/aaaaaaaa").json()["stopped"] is False
        assert client.get("/api/player/ann?network=net").json()["stopped_games"] == 0
        assert [p["nick"] for p in client.get("/api/leaderboard?ranking=ppg").json()["players"]]
    db.close()
