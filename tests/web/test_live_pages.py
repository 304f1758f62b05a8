"""The live pages: ``/live``, a spectator's view of one game and their JSON twins, from live
rows written as the bot's writer writes them; a player page that says where its player is
playing now. Never a hand: the hands the test deals itself are nowhere on the pages."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest

from tests.web.conftest import NASTY, NOW, TestClient, _game
from unobot.stats import live_rows
from unobot.stats.sql import SqlStatsStore, open_database
from unobot.web.app import LIVE_HEADER, create_app

T = NOW.timestamp()
HANDS = {"ann": "R5 G7 WD4", "bob": "B2 Y9"}
"""What the players hold in the test's story: the pages must never show it."""


def state(players: dict[str, int], turn: str, top: str = "R5", **more: object) -> dict:
    return {
        "tournament": more.get("tournament"),
        "table_no": more.get("table_no"),
        "players": [{"nick": n, "cards": c} for n, c in players.items()],
        "turn": turn,
        "top": top,
        "color": "red",
        "direction": -1,
        "info": {"hand": 1, "rules": "official", "pending": 0},
    }


@pytest.fixture
def site(tmp_path: Path) -> Iterator[tuple[TestClient, object]]:
    url = f"sqlite:///{tmp_path / 'stats.db'}"
    store = SqlStatsStore(url, spool_path=tmp_path / "spool")
    store.record_game(_game("a" * 32, "net", NOW - timedelta(days=3), ["ann", "bob"]))
    store.close()
    db = open_database(url)
    first = live_rows.LiveWrite("net", "#Uno", state({"ann": 3, "bob": 2}, "ann"), fresh=True)
    first.started = T - 60
    first.lines = [(T - 60, "Uno (official): ann, bob. First card \x0304R5\x0f. ann's turn.")]
    cup = live_rows.LiveWrite(
        "net", "#cup-t2", state({NASTY: 7, "cy": 7}, NASTY, "G1", tournament="Cup", table_no=2),
        fresh=True, started=T - 30,
    )  # fmt: skip
    live_rows.write_batch(db, [first, cup], T - 10)
    with TestClient(create_app(db, clock=lambda: NOW)) as client:
        yield client, db
    db.close()


def never_a_hand(text: str) -> None:
    for hand in HANDS.values():
        assert hand not in text
    assert "Your cards" not in text


def test_live_lists_the_games_and_links_their_spectator_views(site) -> None:
    client, _db = site
    page = client.get("/live")
    assert page.status_code == 200
    assert 'href="/live/net/%23Uno"' in page.text and 'href="/live/net/%23cup-t2"' in page.text
    assert live_rows.spectate_path("net", "#cup-t2") == "/live/net/%23cup-t2"
    assert live_rows.spectate_path("", "#a/b") == "/live/-/%23a%2Fb"
    assert "ann (3), bob (2)" in page.text and "Cup, table 2" in page.text
    assert NASTY not in page.text  # escaped
    assert "data-live-version=" in page.text
    api = client.get("/api/live").json()["games"]
    assert [(g["channel"], g["turn"], g["table"]) for g in api] == [
        ("#cup-t2", NASTY, 2), ("#Uno", "ann", None),
    ]  # fmt: skip
    assert api[1]["players"] == [{"nick": "ann", "cards": 3}, {"nick": "bob", "cards": 2}]
    never_a_hand(page.text + str(api))


def test_the_spectator_view_follows_the_game_and_answers_204_when_nothing_changed(site) -> None:
    client, db = site
    page = client.get("/live/net/%23uno")  # the channel's case does not matter
    assert page.status_code == 200
    assert "<strong>ann</strong> to play" in page.text and "Counter-clockwise" in page.text
    assert "First card R5. ann&#39;s turn." in page.text  # the line, colour codes removed
    assert 'aria-label="red 5"' in page.text
    version = page.text.split('data-live-version="')[1].split('"')[0]
    assert client.get("/live/net/%23uno", headers={LIVE_HEADER: version}).status_code == 204
    move = live_rows.LiveWrite("net", "#Uno", state({"ann": 2, "bob": 2}, "bob", "R9"))
    move.lines = [(T, "ann plays R9. Top: R9. bob's turn.")]
    live_rows.write_batch(db, [move], T)
    fresh = client.get("/live/net/%23uno", headers={LIVE_HEADER: version})
    assert fresh.status_code == 200 and "<strong>bob</strong> to play" in fresh.text
    assert "ann plays R9" in fresh.text
    api = client.get("/api/live/net/%23Uno").json()
    assert api["top"] == "R9" and api["turn"] == "bob" and len(api["lines"]) == 2
    never_a_hand(page.text + fresh.text + str(api))


def test_an_ended_game_says_so_links_its_replay_and_stops_updating(site) -> None:
    client, db = site
    end = live_rows.LiveWrite("net", "#Side", state({"ann": 0, "bob": 4}, "bob"), fresh=True)
    end.started = (NOW - timedelta(days=3, minutes=7)).timestamp()
    live_rows.write_batch(db, [end], T - 5)
    live_rows.write_batch(db, [live_rows.LiveWrite("net", "#Side", ended=T - 4)], T - 4)
    page = client.get("/live/net/%23Side")
    assert "This game has ended." in page.text
    assert 'href="/game/aaaaaaaa"' in page.text
    assert 'data-live-version=""' in page.text  # finished: no more polling
    assert "#Side" not in client.get("/live").text
    assert client.get("/api/live/net/%23Side").json()["replay"] == "/game/aaaaaaaa"


def test_no_game_and_bad_addresses(site) -> None:
    client, _db = site
    page = client.get("/live/net/%23quiet")
    assert page.status_code == 200 and "No game is being played in #quiet" in page.text
    assert client.get("/api/live/net/%23quiet").status_code == 404
    assert client.get("/live/net/%23a%00b").status_code == 404
    assert client.get("/live/-/%23Uno").status_code == 200  # "-": the empty network


def test_a_player_page_says_where_they_play_now_and_updates_itself(site) -> None:
    client, db = site
    page = client.get("/player/ann?network=net")
    assert page.status_code == 200
    assert 'id="playing-now"' in page.text and 'href="/live/net/%23Uno"' in page.text
    version = page.text.split('data-live-version="')[1].split('"')[0]
    assert client.get("/player/ann?network=net", headers={LIVE_HEADER: version}).status_code == 204
    live_rows.write_batch(db, [live_rows.LiveWrite("net", "#Uno", ended=T)], T)
    after = client.get("/player/ann?network=net", headers={LIVE_HEADER: version})
    assert after.status_code == 200 and 'id="playing-now"' not in after.text


def test_a_store_without_the_live_tables_has_no_live_games(tmp_path: Path) -> None:
    from unobot.stats import schema

    url = f"sqlite:///{tmp_path / 'old.db'}"
    with pytest.MonkeyPatch.context() as m:
        m.setattr(schema, "SCHEMA_VERSION", schema.LIVE_VERSION - 1)
        SqlStatsStore(url, spool_path=tmp_path / "spool").close()
    db = open_database(url)
    with TestClient(create_app(db, clock=lambda: NOW)) as client:
        assert "No game is being played right now" in client.get("/live").text
        assert client.get("/api/live").json() == {"games": []}
    db.close()
