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
