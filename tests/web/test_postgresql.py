"""The site's SQL on PostgreSQL (the queries are written once for both databases): the same
seeded store, every kind of page answering the store's own figures."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.stats.pg import PgServer, require_pg
from tests.web.conftest import NOW, TestClient, seed_store
from unobot.stats.model import Period, Ranking
from unobot.stats.sql import SqlStatsStore, open_database
from unobot.web.app import create_app


@pytest.fixture(scope="module")
def pg_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    server = PgServer(require_pg())
    server.start()
    try:
        url = server.new_database()
        seed_store(url, tmp_path_factory.mktemp("pgspool"), replays=10)
        yield url
    finally:
        server.destroy()


def test_pages_on_postgresql(pg_url: str, tmp_path: Path) -> None:
    store = SqlStatsStore(pg_url, clock=lambda: NOW, spool_path=tmp_path / "spool")
    db = open_database(pg_url)
    try:
        with TestClient(create_app(db, clock=lambda: NOW)) as client:
            for ranking, period in ((Ranking.PERCENT_WINS, Period.WEEK),
                                    (Ranking.POINTS_PER_GAME, Period.ALL)):  # fmt: skip
                expected = store.leaderboard(ranking, 50, period, min_games=1)
                api = client.get(
                    f"/api/leaderboard?ranking={ranking.value}&period={period.value}&min=1"
                ).json()["players"]
                assert [(p["nick"], p["games"]) for p in api] == [
                    (p.nick, p.games) for p in expected
                ]
            rated = [p.nick for p in store.rating_leaderboard(50, min_games=1)]
            api = client.get("/api/leaderboard?ranking=rating&min=1").json()["players"]
            assert [p["nick"] for p in api] == rated
            page = client.get("/leaderboard?ranking=ppg")
            assert page.status_code == 200 and '<option value="#uno">#uno</option>' in page.text
            alice = client.get("/api/player/alice?network=net").json()
            net = SqlStatsStore(pg_url, network="net", clock=lambda: NOW, connect_now=False)
            try:
                stats, rating = net.player("alice"), net.rating("alice", min_games=1)
            finally:
                net.close()
            assert stats is not None and rating is not None
            assert (alice["games"], alice["wins"], alice["points"]) == (
                stats.games, stats.wins, stats.points,
            )  # fmt: skip
            assert alice["rated_games"] == rating.games
            assert alice["rating_history"] and alice["opponents"] and alice["recent"]
            assert client.get("/player/alice?network=net").status_code == 200
            game = client.get(alice["recent"][0]["url"])
            assert game.status_code == 200 and 'id="results"' in game.text
            assert client.get("/game/00000000").status_code == 404
    finally:
        store.close()
        db.close()
