"""Issue 37 item 7 in the store, on memory, SQLite and PostgreSQL: a stopped game is a game
nobody won (counted apart as stopped, read back as stopped), leaderboards can list the players
below the minimum games after the ranked ones (provisional), and the v11 step marks the stopped
games a store kept from before as stopped."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from tests.stats.conftest import NOW, StoreFactory
from tests.stats.test_contract import game, play, res
from unobot.stats import GameRecord, Period, PlayerStats, Ranking
from unobot.stats.records import from_json, to_json


def stopped(*results: object, **kw: object) -> GameRecord:
    return dataclasses.replace(game(*results, **kw), stopped=True)  # type: ignore[arg-type]


# --- stopped games ---------------------------------------------------------------------------


def test_a_stopped_game_counts_for_everyone_and_is_won_by_nobody(make_store: StoreFactory) -> None:
    store = make_store(network="testnet")
    play(store, 2, res("Ann", True, 30), res("Bob", left=30))
    store.record_game(stopped(res("Bob", False, 45, place=1), res("Ann", place=2, left=12)))
    ann = store.player("ann", min_games=1)
    bob = store.player("bob", min_games=1)
    assert ann == PlayerStats("Ann", 3, 2, 60, 1800, 1, stopped_games=1)
    assert bob == PlayerStats("Bob", 3, 0, 45, 1800, 2, stopped_games=1)
    assert bob.percent_wins == 0.0 and bob.points_per_game == 15.0
    last = store.last_game("Bob")
    assert last is not None and last.stopped and not any(r.won for r in last.results)
    assert [(r.nick, r.place, r.points_won) for r in last.results] == [
        ("Bob", 1, 45),
        ("Ann", 2, 0),
    ]
    first = store.game("1")
    assert first is not None and not first.stopped and first.results[0].won
    # In a channel's and a period's figures as well.
    week = store.player("bob", period=Period.WEEK, channel="#UNO", min_games=1)
    assert week is not None and (week.games, week.stopped_games) == (3, 1)
    board = store.leaderboard(Ranking.POINTS_PER_GAME, 5, min_games=1)
    assert [(s.nick, s.stopped_games) for s in board] == [("Ann", 1), ("Bob", 1)]


def test_a_stopped_game_with_a_winner_is_refused(make_store: StoreFactory) -> None:
    store = make_store()
    with pytest.raises(ValueError, match="stopped game has no winner"):
        store.record_game(stopped(res("Ann", True, 10), res("Bob")))
    assert store.player("ann") is None


def test_the_spool_keeps_a_stopped_team_game_as_it_was() -> None:
    record = dataclasses.replace(stopped(res("Ann", points=5), res("Bob", left=5)), teams=True)
    again = from_json(to_json(record))
    assert again == record and again.stopped and again.teams


# --- provisional players ---------------------------------------------------------------------


def test_with_nobody_at_the_minimum_everyone_is_listed_provisional(
    make_store: StoreFactory,
) -> None:
    store = make_store()
    assert store.leaderboard(Ranking.POINTS_PER_GAME, 10, provisional=True) == []
    play(store, 2, res("Ann", True, 30), res("Bob", left=30))
    play(store, 1, res("Cy", True, 90), res("Bot1", is_bot=True))
    assert store.leaderboard(Ranking.POINTS_PER_GAME, 10) == []  # as before: ranked only
    board = store.leaderboard(Ranking.POINTS_PER_GAME, 10, provisional=True)
    assert [(s.nick, s.games, s.rank) for s in board] == [
        ("Cy", 1, None),
        ("Ann", 2, None),
        ("Bob", 2, None),
    ]
    with_bots = store.leaderboard(Ranking.PERCENT_WINS, 10, include_bots=True, provisional=True)
    assert [s.nick for s in with_bots] == ["Ann", "Cy", "Bob", "Bot1"]  # 100%: more games first
    two = store.leaderboard(Ranking.PERCENT_WINS, 2, provisional=True)
    assert [s.nick for s in two] == ["Ann", "Cy"]


def test_provisional_players_come_after_the_ranked_ones_within_the_limit(
    make_store: StoreFactory,
) -> None:
    store = make_store()
    play(store, 5, res("Ann", True, 10), res("Bob", left=10))  # 5 games each: ranked
    play(store, 1, res("Cy", True, 500), res("Dee"))  # 1 game each: provisional
    board = store.leaderboard(Ranking.POINTS_PER_GAME, 10, provisional=True)
    assert [(s.nick, s.rank) for s in board] == [
        ("Ann", 1),
        ("Bob", 2),
        ("Cy", None),
        ("Dee", None),
    ]
    three = store.leaderboard(Ranking.POINTS_PER_GAME, 3, provisional=True)
    assert [(s.nick, s.rank) for s in three] == [("Ann", 1), ("Bob", 2), ("Cy", None)]
    two = store.leaderboard(Ranking.POINTS_PER_GAME, 2, provisional=True)
    assert [s.nick for s in two] == ["Ann", "Bob"]  # no room: the ranked ones only
    week = store.leaderboard(Ranking.PERCENT_WINS, 10, Period.WEEK, "#uno", provisional=True)
    assert [(s.nick, s.rank) for s in week] == [("Ann", 1), ("Bob", 2), ("Cy", None), ("Dee", None)]
    other = store.leaderboard(Ranking.PERCENT_WINS, 10, channel="#other", provisional=True)
    assert other == []  # no game there: nobody to list


def test_rating_lists_can_show_the_provisional_too(make_store: StoreFactory) -> None:
    store = make_store(network="testnet")
    assert store.rating_leaderboard(10, provisional=True) == []
    for _ in range(5):
        store.record_game(game(res("Ann", True, place=1), res("Bob", place=2)))
    store.record_game(game(res("Cy", True, place=1), res("Dee", place=2)))
    board = store.rating_leaderboard(10, provisional=True)
    assert [(p.nick, p.rank) for p in board][:2] == [("Ann", 1), ("Bob", 2)]
    assert {(p.nick, p.rank, p.games) for p in board[2:]} == {("Cy", None, 1), ("Dee", None, 1)}
    assert board[2].mu - 3 * board[2].sigma >= board[3].mu - 3 * board[3].sigma
    assert [p.nick for p in store.rating_leaderboard(10)] == ["Ann", "Bob"]
    alone = store.rating_leaderboard(10, min_games=6, provisional=True)
    assert [p.rank for p in alone] == [None] * 4


# --- the v11 step ----------------------------------------------------------------------------

STOPPED_MOVES = "\n".join(
    json.dumps(line, separators=(",", ":"))
    for line in [
        ["open", {"version": 3, "channel": "#uno", "seed": 1}],
        ["play", {"nick": "Ann", "card": "B9", "color": None, "now": 2.0}],
        ["stop", {"nick": "Ann"}],
    ]
)
PLAYED_MOVES = STOPPED_MOVES.replace('["stop",{"nick":"Ann"}]', '["pass",{"nick":"Bob"}]')


@pytest.mark.parametrize("engine", ["sqlite", "postgresql"])
def test_the_v11_step_marks_the_games_a_stop_ended_before_it(
    engine: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest
) -> None:
    """A v10 bot recorded a ``.unostop`` as won by whoever led; the upgrade finds those games
    by their move list's last call, takes the win back, and the summary agrees with the rows."""
    from unobot.stats import schema
    from unobot.stats.sql import SqlStatsStore

    if engine == "sqlite":
        url = f"sqlite:///{tmp_path / 'old.db'}"
    else:
        url = request.getfixturevalue("pg_server").new_database()
    was_stopped = dataclasses.replace(
        game(res("Ann", True, 60), res("Bob", left=20), game_id="5a" * 16), moves=STOPPED_MOVES
    )
    played = dataclasses.replace(
        game(res("Ann", True, 40), res("Bob", left=40), game_id="6b" * 16), moves=PLAYED_MOVES
    )
    no_moves = game(res("Bob", True, 10), res("Ann"), game_id="7c" * 16)
    with monkeypatch.context() as m:
        m.setattr(schema, "SCHEMA_VERSION", schema.STOPPED_VERSION - 1)
        old = SqlStatsStore(url, spool_path=tmp_path / "a", clock=lambda: NOW)
        # a store made by a v10 bot has neither column (today's v1 and v2 steps make them)
        old.db.execute_sql("ALTER TABLE game DROP COLUMN stopped")
        old.db.execute_sql("ALTER TABLE player_summary DROP COLUMN stopped_games")
        for record in (was_stopped, played, no_moves):
            old.record_game(record)
        assert old.player("Ann", min_games=1).wins == 2  # the v10 bot's view
        old.close()
    new = SqlStatsStore(url, spool_path=tmp_path / "b", clock=lambda: NOW)
    assert schema.schema_version(new.db) == schema.SCHEMA_VERSION >= schema.STOPPED_VERSION
    assert new.summary_mismatches() == []
    ann = new.player("Ann", min_games=1)
    assert ann is not None and (ann.games, ann.wins, ann.stopped_games) == (3, 1, 1)
    got = new.game("5a5a5a")
    assert got is not None and got.stopped and not any(r.won for r in got.results)
    assert not new.game("6b6b6b").stopped and new.game("6b6b6b").results[0].won
    new.record_game(stopped(res("Ann", points=5), res("Bob"), game_id="8d" * 16))
    assert new.player("Ann", min_games=1).stopped_games == 2
    assert new.summary_mismatches() == []
    new.close()


def test_a_real_stops_move_list_ends_in_the_call_the_v11_step_looks_for(tmp_path: Path) -> None:
    """The bot's own journal (a real table, journaled, recorded as the bot records it): the
    move list of a game stopped with ``.unostop`` ends in the ``stop`` call, that of a game
    played to its end does not."""
    from unobot.core.bot import BotConfig
    from unobot.core.table import TableConfig
    from unobot.engine import preset
    from unobot.irc.casemap import irc_lower
    from unobot.replay.simulate import _Simulation
    from unobot.stats.schema import _last_call

    sim = _Simulation(tmp_path, 3, "net", "#uno", NOW, computers=False)
    try:
        played = sim.play_game(["Ann", "Bob", "Cy"], "irc-classic")
        assert played is not None and not played.stopped and played.moves is not None
        assert _last_call(played.moves) not in ("stop", "")
        sim.bot.config = BotConfig(table=TableConfig(rules=preset("official")))
        for nick, text in (("Ann", ".uno"), ("Bob", ".join"), ("Ann", ".deal")):
            sim.say(nick, text)
        table = sim.bot.tables[irc_lower("#uno")]
        for _ in range(5000):
            if table.hand_number >= 2:
                break
            sim._step(table, {})
        assert table.hand_number >= 2
        sim.say("Ann", ".unostop")
        record = sim.store.records[-1]
        assert record.stopped and record.moves is not None
        assert _last_call(record.moves) == "stop"
    finally:
        sim.close()
