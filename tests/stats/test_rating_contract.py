"""Skill ratings in every store (memory, SQLite, PostgreSQL): kept as games are recorded,
equal to a rebuild from the game rows, ranked under the min-games and bots rules."""

from __future__ import annotations

from random import Random

import pytest

from tests.stats.conftest import StoreFactory
from tests.stats.test_contract import game, res
from unobot.stats.ratings import rebuild


def random_games(seed: int, n: int) -> list:
    rng = Random(seed)
    nicks = [f"P{i}" for i in range(12)] + ["Bot1"]
    out = []
    for i in range(n):
        seats = rng.sample(nicks, rng.randint(1, 5))
        results = []
        for place, nick in enumerate(seats, 1):
            left = rng.random() < 0.1
            results.append(
                res(nick, place == 1 and not left, place=place, finished=not left,
                    is_bot=nick.startswith("Bot"))
            )  # fmt: skip
        out.append(game(*results, network=rng.choice(["net1", "net2"]), game_id=f"r{seed}-{i}"))
    return out


def test_incremental_ratings_equal_a_rebuild(make_store: StoreFactory) -> None:
    store = make_store()
    games = random_games(7, 120)
    for g in games:
        store.record_game(g)
    store.record_game(games[3])  # a replay changes nothing
    incremental = store.player_ratings()
    expected = {}
    for net in ("net1", "net2"):
        for ident, rating in rebuild([g for g in games if g.network == net]).items():
            expected[(net, ident)] = rating
    assert set(incremental) == set(expected)
    assert store.rebuild_ratings() == len(games)
    rebuilt = store.player_ratings()
    for key, rating in expected.items():
        for got in (incremental[key], rebuilt[key]):
            assert got.games == rating.games
            assert got.mu == pytest.approx(rating.mu, abs=1e-9)
            assert got.sigma == pytest.approx(rating.sigma, abs=1e-9)


def test_rating_ranks_follow_min_games_and_bots(make_store: StoreFactory) -> None:
    store = make_store(network="testnet")
    for _ in range(6):
        store.record_game(game(res("Ann", True, place=1), res("Bob", place=2), res("Cy", place=3)))
        store.record_game(game(res("Bot1", True, place=1, is_bot=True), res("Bob", place=2)))
    store.record_game(game(res("Dee", True, place=1), res("Ann", place=2)))
    top = store.rating_leaderboard(10)
    assert [p.nick for p in top] == ["Ann", "Bob", "Cy"]
    assert [p.rank for p in top] == [1, 2, 3]
    assert top[0].mu - 3 * top[0].sigma > top[1].mu - 3 * top[1].sigma
    with_bots = store.rating_leaderboard(10, include_bots=True)
    assert "Bot1" in [p.nick for p in with_bots]
    dee = store.rating("dee")
    assert dee is not None and dee.games == 1 and dee.rank is None
    assert store.rating("dee", min_games=1).rank is not None
    ann = store.rating("ANN")
    assert ann is not None and ann.rank == 1 and ann.games == 7
    bot = store.rating("Bot1")
    assert bot is not None and bot.is_bot and bot.rank is None
    assert store.rating("Bot1", include_bots=True).rank is not None
    assert store.rating("nobody") is None
    assert store.rating_leaderboard(0) == []


def test_ratings_rebuild_command(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    from unobot.main import main
    from unobot.stats.sql import SqlStatsStore

    url = f"sqlite:///{tmp_path / 'stats.db'}"
    store = SqlStatsStore(url, spool_path=tmp_path / "spool")
    for g in random_games(3, 40):
        store.record_game(g)
    before = store.player_ratings()
    store.db.execute_sql("UPDATE player_rating SET mu = 0, games = 99")
    store.close()
    with pytest.raises(SystemExit) as done:
        main(["ratings", "rebuild", "--database", url])
    assert done.value.code == 0
    assert "rebuilt ratings from 40 games" in capsys.readouterr().out
    store = SqlStatsStore(url, spool_path=tmp_path / "spool")
    assert store.player_ratings() == before
    store.close()
    with pytest.raises(SystemExit) as done:
        main(["ratings", "rebuild", "--database", f"sqlite:///{tmp_path / 'none.db'}"])
    assert done.value.code == 2
