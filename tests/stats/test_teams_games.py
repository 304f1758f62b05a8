"""Team games in the stats (schema v8): the flag on the game, read back in every store, both
partners of the winning team counted as winners, and the migration of a v7 store on SQLite and
PostgreSQL (its games were not team games)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from tests.stats.conftest import StoreFactory
from tests.stats.test_contract import game, res
from unobot.stats import schema


def team_game(game_id: str) -> object:
    # ann + cat beat bob + dan: both partners won, with the team's total
    return dataclasses.replace(
        game(
            res("Ann", True, 510, place=1),
            res("Cat", True, 510, place=1, left=12),
            res("Bob", place=3, left=30),
            res("Dan", place=3, left=7),
            game_id=game_id,
        ),
        teams=True,
    )


def test_a_team_game_is_flagged_and_a_win_for_both_partners(make_store: StoreFactory) -> None:
    store = make_store(network="testnet")
    store.record_game(team_game("7ea0" * 8))
    store.record_game(game(res("Ann", True, 40), res("Bob"), game_id="501a" * 8))
    got = store.game("7ea07e")
    assert got is not None and got.teams
    assert [(r.nick, r.won) for r in got.results] == [
        ("Ann", True),
        ("Cat", True),
        ("Bob", False),
        ("Dan", False),
    ]
    solo = store.game("501a50")
    assert solo is not None and not solo.teams
    for nick, wins in (("Ann", 2), ("Cat", 1), ("Bob", 0)):
        stats = store.player(nick, min_games=1)
        assert stats is not None and stats.wins == wins


@pytest.mark.parametrize("engine", ["sqlite", "postgresql"])
def test_a_v7_store_gets_the_team_flag(
    engine: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest
) -> None:
    from unobot.stats.sql import SqlStatsStore

    if engine == "sqlite":
        url = f"sqlite:///{tmp_path / 'old.db'}"
    else:
        url = request.getfixturevalue("pg_server").new_database()
    with monkeypatch.context() as m:
        m.setattr(schema, "SCHEMA_VERSION", schema.TEAMS_VERSION - 1)
        old = SqlStatsStore(url, spool_path=tmp_path / "a")
        # a store made by a v7 bot has no such column (today's v1 step would make it)
        old.db.execute_sql("ALTER TABLE game DROP COLUMN teams")
        old.record_game(game(res("Ann", True, 40), res("Bob"), game_id="01d0" * 8))
        assert schema.schema_version(old.db) == schema.TEAMS_VERSION - 1
        old.close()
    new = SqlStatsStore(url, spool_path=tmp_path / "b")
    assert schema.schema_version(new.db) == schema.SCHEMA_VERSION >= schema.TEAMS_VERSION
    assert "teams" in {c.name for c in new.db.get_columns("game")}
    before = new.game("01d001")
    assert before is not None and not before.teams
    new.record_game(team_game("7ea1" * 8))
    after = new.game("7ea17e")
    assert after is not None and after.teams
    new.close()


def test_team_games_are_counted_per_player_period_and_channel(make_store: StoreFactory) -> None:
    """Schema v10: each player's line (and leaderboard row) says how many of its games were
    team games, in the period and channel asked about, in every store."""
    from datetime import datetime, timedelta

    from tests.stats.conftest import NOW
    from unobot.stats import Period, Ranking

    store = make_store(network="testnet")
    october = datetime(2026, 10, 20, 12, 0)
    store.record_game(dataclasses.replace(team_game("7e02" * 8), ended=october,
                                          started=october - timedelta(minutes=5)))  # fmt: skip
    store.record_game(team_game("7e03" * 8))
    store.record_game(game(res("Ann", True, 40), res("Bob"), channel="#side"))
    ann = store.player("Ann", min_games=1)
    assert ann is not None and (ann.games, ann.team_games) == (3, 2)
    week = store.player("Ann", period=Period.WEEK, min_games=1)
    assert week is not None and (week.games, week.team_games) == (2, 1)
    side = store.player("Ann", channel="#Side", min_games=1)
    assert side is not None and (side.games, side.team_games) == (1, 0)
    board = store.leaderboard(Ranking.PERCENT_WINS, 10, min_games=1)
    assert [(p.nick, p.games, p.team_games) for p in board] == [
        ("Ann", 3, 2), ("Cat", 2, 2), ("Bob", 3, 2), ("Dan", 2, 2),
    ]  # fmt: skip
    month = store.leaderboard(Ranking.POINTS_PER_GAME, 10, Period.MONTH, "#uno", min_games=1)
    assert {p.nick: p.team_games for p in month} == {"Ann": 1, "Cat": 1, "Bob": 1, "Dan": 1}
    assert NOW.month == 11
    if hasattr(store, "summary_mismatches"):
        assert store.summary_mismatches() == []
        # A wrong count is a mismatch like any other figure.
        store.db.execute_sql("UPDATE player_summary SET team_games = team_games + 1")
        assert store.summary_mismatches() != []
        store.rebuild_summaries()
        assert store.summary_mismatches() == []
        assert store.player("Ann", min_games=1).team_games == 2


@pytest.mark.parametrize("engine", ["sqlite", "postgresql"])
def test_a_v9_store_gets_its_team_games_counted(
    engine: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest
) -> None:
    """The v10 step adds ``player_summary.team_games`` and counts the team games a v9 bot
    stored; the summary then agrees with the rows."""
    from unobot.stats.sql import SqlStatsStore

    if engine == "sqlite":
        url = f"sqlite:///{tmp_path / 'old.db'}"
    else:
        url = request.getfixturevalue("pg_server").new_database()
    with monkeypatch.context() as m:
        m.setattr(schema, "SCHEMA_VERSION", schema.TEAM_BOARDS_VERSION - 1)
        old = SqlStatsStore(url, spool_path=tmp_path / "a")
        # a store made by a v9 bot has no such column (today's v2 step would make it)
        old.db.execute_sql("ALTER TABLE player_summary DROP COLUMN team_games")
        old.record_game(team_game("7ea2" * 8))
        old.record_game(game(res("Ann", True, 40), res("Bob"), game_id="01d1" * 8))
        assert old.player("Ann", min_games=1).team_games == 0  # a v9 bot doesn't count them
        assert schema.schema_version(old.db) == schema.TEAM_BOARDS_VERSION - 1
        old.close()
    new = SqlStatsStore(url, spool_path=tmp_path / "b")
    assert schema.schema_version(new.db) == schema.SCHEMA_VERSION >= schema.TEAM_BOARDS_VERSION
    assert "team_games" in {c.name for c in new.db.get_columns("player_summary")}
    assert new.summary_mismatches() == []
    ann = new.player("Ann", min_games=1)
    assert ann is not None and (ann.games, ann.wins, ann.team_games) == (2, 2, 1)
    new.record_game(team_game("7ea3" * 8))
    assert new.player("Cat", min_games=1).team_games == 2
    assert new.summary_mismatches() == []
    new.close()


def test_a_game_of_two_teams_of_five_in_every_store(make_store: StoreFactory) -> None:
    """The 1993 sheet's team game at ten: all five of the winning team won (place 1, the
    team's total), the other five lost, tied on the team's place (6); read back, counted as a
    team game for all ten, rated with teammates tied (in memory, SQLite and PostgreSQL)."""
    from unobot.stats import Ranking

    winners = ["Ann", "Cat", "Eve", "Gus", "Ivy"]
    losers = ["Bob", "Dan", "Fay", "Hal", "Jon"]
    record = dataclasses.replace(
        game(
            *(res(n, True, 530, place=1, left=i * 4) for i, n in enumerate(winners)),
            *(res(n, False, 210, place=6, left=10 + i) for i, n in enumerate(losers)),
            game_id="2ea0" * 8,
        ),
        preset="two-teams",
        teams=True,
    )
    store = make_store(network="testnet")
    store.record_game(record)
    got = store.game("2ea02e")
    assert got is not None and got.teams and got.preset == "two-teams"
    assert [(r.nick, r.place, r.won, r.points_won) for r in got.results] == [
        *((n, 1, True, 530) for n in winners),
        *((n, 6, False, 210) for n in losers),
    ]
    for nick in winners + losers:
        stats = store.player(nick, min_games=1)
        assert stats is not None and (stats.games, stats.team_games) == (1, 1)
        assert stats.wins == (nick in winners) and stats.points == (530 if nick in winners else 210)
    board = store.leaderboard(Ranking.PERCENT_WINS, 10, min_games=1)
    assert [p.nick for p in board[:5]] == winners and len(board) == 10
    ratings = {r.nick: (r.mu, r.sigma) for r in got.results}
    # teammates tied on one place and starting equal: one team's ratings move as one
    assert len({ratings[n] for n in winners}) == 1 and len({ratings[n] for n in losers}) == 1
    assert ratings["Ann"][0] > ratings["Bob"][0]
    if hasattr(store, "summary_mismatches"):
        assert store.summary_mismatches() == []
