"""Records (``unobot.stats.record_rows``): every record computed from made-up games, on SQLite
and a real PostgreSQL server; the move-list figures checked against the replay's own steps;
rebuilding gives exactly the rows that writing gave; the v9 migration fills them."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import peewee as pw
import pytest

from tests.stats.conftest import NOW
from unobot.replay.figures import move_figures
from unobot.replay.simulate import recorded_games
from unobot.replay.steps import steps
from unobot.stats import schema
from unobot.stats.model import GameRecord, Period, PlayerResult
from unobot.stats.record_rows import MoveFigures
from unobot.stats.sql import SqlStatsStore

DAY = timedelta(days=1)


@pytest.fixture(params=["sqlite", "postgresql"])
def open_store(
    request: pytest.FixtureRequest, tmp_path: Path
) -> Iterator[Callable[..., SqlStatsStore]]:
    """``open_store(analyse=..., clock=...)``: a store on this test's one database."""
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path / 'stats.db'}"
    else:
        url = request.getfixturevalue("pg_server").new_database()
    opened: list[SqlStatsStore] = []

    def factory(**options: Any) -> SqlStatsStore:
        options.setdefault("clock", lambda: NOW)
        store = SqlStatsStore(url, spool_path=tmp_path / f"spool{len(opened)}", **options)
        opened.append(store)
        return store

    yield factory
    for store in opened:
        store.close()


def res(nick: str, won: bool, bot: bool = False) -> PlayerResult:
    ident = f"$bot:{nick}" if bot else nick
    return PlayerResult(ident, nick, 1 if won else 2, won, 50 if won else 0, 0, is_bot=bot)


def game(n: int, ended: datetime, *results: PlayerResult, channel: str = "#uno") -> GameRecord:
    return GameRecord(
        f"{n:032x}", "net", channel, "official", ended - timedelta(minutes=5), ended, results
    )


def by_key(records: list[Any]) -> dict[str, tuple[int, str]]:
    return {r.kind.key: (r.figure, r.nick) for r in records}


def test_streaks_days_and_periods(open_store: Callable[..., SqlStatsStore]) -> None:
    store = open_store()
    monday = datetime(2026, 11, 16, 10)
    # ann wins 3 in a row last week (Sunday), loses, then wins 2 this week; bob 4 in #other.
    games = [
        game(1, monday - 3 * DAY, res("ann", True), res("bob", False)),
        game(2, monday - 2 * DAY, res("ann", True), res("bob", False)),
        game(3, monday - DAY, res("ann", True), res("bob", False)),
        game(4, monday + DAY, res("ann", True), res("cid", False)),
        game(5, monday + DAY + timedelta(hours=1), res("ann", True), res("cid", False)),
        game(6, monday + 2 * DAY, res("bob", True), res("ann", False), channel="#other"),
        game(7, monday + 2 * DAY + timedelta(hours=1), res("bob", True), channel="#other"),
        game(8, monday + 2 * DAY + timedelta(hours=2), res("bob", True), channel="#other"),
        game(9, monday + 2 * DAY + timedelta(hours=3), res("bob", True), channel="#other"),
        game(10, monday + 2 * DAY + timedelta(hours=4), res("zed", True, bot=True),
             res("bob", False), channel="#other"),
    ]  # fmt: skip
    for g in games:
        store.record_game(g)
    # ann's 4th win in a row (games 1-3 then 4) is all-time; this week counts from Monday.
    every = by_key(store.records(Period.ALL))
    assert every["streak"] == (5, "ann")
    assert by_key(store.records(Period.ALL, "#uno"))["streak"] == (5, "ann")
    assert by_key(store.records(Period.ALL, "#other"))["streak"] == (4, "bob")
    assert by_key(store.records(Period.WEEK, "#uno"))["streak"] == (2, "ann")
    assert by_key(store.records(Period.WEEK))["streak"] == (4, "bob")
    # Games in a day: bob played 5 on Wednesday (the computer's game counts for him).
    assert by_key(store.records(Period.WEEK))["day"] == (5, "bob")
    assert by_key(store.records(Period.WEEK, "#uno"))["day"] == (2, "ann")
    # No move lists: only the records the rows give.
    assert set(every) == {"streak", "day"}
    # A computer player's figures count only when asked for (its 1 win beats nothing).
    assert by_key(store.records(Period.ALL, include_bots=True)) == every
    assert store.records(Period.ALL, "#nowhere") == []
    holder = next(r for r in store.records(Period.ALL, "#uno") if r.kind.key == "streak")
    assert holder.game_id == games[4].game_id and holder.channel == "#uno"
    assert holder.at == games[4].ended


def test_move_list_figures_and_computer_players(open_store: Callable[..., SqlStatsStore]) -> None:
    figures = {
        "a1": MoveFigures(moves=9, seconds=300, points=80, cards=7, comeback=7),
        "b1": MoveFigures(cards=14),
        "a2": MoveFigures(moves=7, seconds=420, points=20, cards=9, comeback=9),
        "b2": MoveFigures(cards=11),
        "z3": MoveFigures(moves=6, seconds=100, points=500, cards=30, comeback=30),
        "a3": MoveFigures(cards=8),
    }

    def analyse(moves: str) -> dict[str, MoveFigures]:
        return {ident: figures[key] for ident, key in (pair.split("=") for pair in moves.split())}

    store = open_store(analyse=analyse)
    start = datetime(2026, 11, 17, 9)
    plays = [
        (res("ann", True), res("bob", False), "ann=a1 bob=b1"),
        (res("ann", True), res("bob", False), "ann=a2 bob=b2"),
        (res("zed", True, bot=True), res("ann", False), "$bot:zed=z3 ann=a3"),
    ]
    for n, (winner, loser, moves) in enumerate(plays, 1):
        g = dataclasses.replace(game(n, start + n * timedelta(hours=1), winner, loser), moves=moves)
        store.record_game(g)
    people = by_key(store.records(Period.ALL))
    assert people == {
        "moves": (7, "ann"), "time": (300, "ann"), "points": (80, "ann"), "streak": (2, "ann"),
        "cards": (14, "bob"), "comeback": (9, "ann"), "day": (3, "ann"),
    }  # fmt: skip
    everyone = by_key(store.records(Period.ALL, include_bots=True))
    assert everyone["moves"] == (6, "zed") and everyone["cards"] == (30, "zed")
    assert everyone["day"] == (3, "ann")
    assert [r.kind.key for r in store.records(only=["cards"])] == ["cards"]


def _snapshot(db: pw.Database) -> list[list[tuple[Any, ...]]]:
    return [
        sorted(map(tuple, db.execute_sql(f"SELECT * FROM {t}").fetchall()), key=repr)
        for t in ("game_figures", "record_run", "record_best")
    ]


@pytest.fixture(scope="module")
def played() -> list[GameRecord]:
    return recorded_games(14, 7, presets=("irc-classic", "official"), gap=5 * 3600.0,
                          computers=True)  # fmt: skip


def test_rebuild_gives_what_writing_gave(
    open_store: Callable[..., SqlStatsStore], played: list[GameRecord]
) -> None:
    store = open_store(analyse=move_figures, clock=lambda: played[-1].ended)
    for g in played:
        store.record_game(g)
    written = _snapshot(store.db)
    assert written[0] and any(row[2] is not None for row in written[0])  # moves figures
    assert store.rebuild_records() == len(played)
    assert _snapshot(store.db) == written
    keys = {r.kind.key for r in store.records(Period.ALL)}
    assert keys == {"moves", "time", "points", "streak", "cards", "comeback", "day"}


def test_the_migration_fills_the_records_of_stored_games(
    open_store: Callable[..., SqlStatsStore], played: list[GameRecord]
) -> None:
    with pytest.MonkeyPatch.context() as m:  # the bot before records
        m.setattr(schema, "SCHEMA_VERSION", schema.RECORDS_VERSION - 2)
        m.setattr(schema, "MIGRATIONS", schema.MIGRATIONS[: schema.RECORDS_VERSION - 2])
        old = open_store()
        for g in played:
            old.record_game(g)
        assert not old.db.table_exists("record_best")
        old.close()
    new = open_store(analyse=move_figures, clock=lambda: played[-1].ended)
    new.records()  # migrates
    assert schema.schema_version(new.db) == schema.SCHEMA_VERSION >= schema.RECORDS_VERSION
    # The rows' records at once; the move lists' after ``unobot records rebuild``.
    assert {r.kind.key for r in new.records()} == {"streak", "day"}
    new.rebuild_records()
    assert len(new.records()) == 7


def test_move_figures_agree_with_the_replay(played: list[GameRecord]) -> None:
    """Cards held, from the replay's steps (the hands after every call), for every player of
    every game; for games of one hand, the winner's comeback and moves too."""
    checked = 0
    for g in played:
        assert g.moves is not None
        found = move_figures(g.moves)
        shown = steps(g.moves)
        for r in g.results:
            fig = found.get(r.ident) or found["nick:" + r.nick.lower()]
            most = max(len(held) for s in shown for nick, held in s.hands if nick == r.nick)
            assert fig.cards == most, (g.game_id, r.nick)
            if not r.won:
                continue
            assert fig.moves is not None and fig.seconds is not None and fig.points
            assert 0 <= fig.seconds <= (g.ended - g.started).total_seconds() + 1
            if shown[-1].hand != 1:
                continue
            checked += 1
            assert fig.comeback == most
            plays = sum(1 for s in shown if s.actor == r.nick and s.action.startswith("plays"))
            draws = sum(1 for s in shown if s.actor == r.nick and s.action.startswith("draws"))
            assert plays <= fig.moves <= plays + draws
            assert fig.points == r.points_won
        if shown[-1].hand != 1:
            continue  # a match: its losers may have won a hand
        for r in (r for r in g.results if not r.won):
            fig = found.get(r.ident) or found["nick:" + r.nick.lower()]
            assert fig.moves is None and fig.comeback is None
    assert checked >= 3


def test_a_move_list_that_does_not_replay_is_a_value_error() -> None:
    with pytest.raises(ValueError):
        move_figures('["open", {}]\n["play", {"nick": 3}]\n')


def test_unobot_records_rebuild(
    tmp_path: Path, played: list[GameRecord], capsys: pytest.CaptureFixture[str]
) -> None:
    """The subcommand, through ``unobot.main`` as typed: a store written without move-list
    figures (a bot before records, then upgraded) gets them all; a missing file is one line."""
    from unobot.main import main

    url = f"sqlite:///{tmp_path / 'old.db'}"
    old = SqlStatsStore(url, spool_path=tmp_path / "spool", clock=lambda: played[-1].ended)
    for g in played:
        old.record_game(g)  # no analyse: streaks and days only
    assert {r.kind.key for r in old.records()} == {"streak", "day"}
    old.close()
    with pytest.raises(SystemExit) as done:
        main(["records", "rebuild", "--database", url])
    assert done.value.code == 0
    assert capsys.readouterr().out == f"rebuilt records from {len(played)} games\n"
    new = SqlStatsStore(url, spool_path=tmp_path / "spool", clock=lambda: played[-1].ended)
    assert len(new.records()) == 7
    new.close()
    with pytest.raises(SystemExit) as done:
        main(["records", "rebuild", "--database", f"sqlite:///{tmp_path / 'none.db'}"])
    assert done.value.code == 2
    assert "no stats database" in capsys.readouterr().err


def test_a_move_list_that_does_not_replay_counts_as_none(
    open_store: Callable[..., SqlStatsStore], caplog: pytest.LogCaptureFixture
) -> None:
    store = open_store(analyse=move_figures)
    broken = dataclasses.replace(
        game(1, datetime(2026, 11, 17, 9), res("ann", True), res("bob", False)),
        moves='["open", {"version": 99}]\n',
    )
    assert store.record_game(broken)
    assert by_key(store.records()) == {"streak": (1, "ann"), "day": (1, "ann")}
    assert "does not replay" in caplog.text
