"""The tournament log's contract, on memory, SQLite and a real PostgreSQL server."""

from __future__ import annotations

import shutil
import threading
from collections.abc import Callable, Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import peewee as pw
import pytest

from tests.stats.conftest import NOW
from unobot.stats import schema
from unobot.stats.model import GameRecord, PlayerResult, Ranking
from unobot.stats.sql import SqlStatsStore, open_database
from unobot.tournament.model import TournamentError
from unobot.tournament.store import (
    Entry,
    MemoryTournamentLog,
    SheetRow,
    SqlTournamentLog,
    Stored,
    TournamentLog,
)

T0 = 1_795_000_000.25
"""An epoch time with a fraction (2026-11-18), as the director writes them."""

LogFactory = Callable[[], TournamentLog]


@pytest.fixture
def url(kind: str, request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if kind == "sqlite":
        return f"sqlite:///{tmp_path / 'stats.db'}"
    if kind == "postgresql":
        return str(request.getfixturevalue("pg_server").new_database())
    return ""


@pytest.fixture
def make_log(url: str) -> Iterator[LogFactory]:
    """``make_log()``: a log on this test's database; called twice, a second log on the SAME
    database (memory: the same object)."""
    opened: list[TournamentLog] = []
    memory = MemoryTournamentLog()

    def factory() -> TournamentLog:
        log: TournamentLog = SqlTournamentLog.from_url(url) if url else memory
        opened.append(log)
        return log

    yield factory
    for log in opened:
        log.close()


def new(seq: int = 0, at: float = T0, **data: Any) -> Entry:
    fields = {"format": "ocuk", "channel": "#uno", "options": [], "by": "ann", "seed": 7}
    return Entry(seq, "new", {**fields, "tables": ["#uno-t1"], **data}, at)


def test_create_append_load(make_log: LogFactory) -> None:
    log = make_log()
    assert log.load("Cup") is None
    log.create("Cup", "ocuk", "#uno", T0)
    entries = [
        new(),
        Entry(1, "join", {"name": "Beank", "reserve": False}, T0 + 1),
        Entry(2, "join", {"name": "Zoë, \"the\" one", "reserve": True}, T0 + 2.5),
        Entry(3, "seat", {"key": "t1", "table": 1, "channel": "#uno-t1", "stage": "Table 1",
                          "players": ["Beank", "BigStu"]}, T0 + 3),
    ]  # fmt: skip
    for entry in entries:
        log.append("Cup", entry)
    stored = log.load("cUP")
    assert stored is not None
    assert (stored.name, stored.format, stored.channel, stored.status) == (
        "Cup", "ocuk", "#uno", "signup"
    )  # fmt: skip
    assert stored.created == pytest.approx(T0, abs=1e-5)
    assert stored.ended is None
    assert stored.entries == entries
    assert stored.sheet == []


def test_entries_come_back_in_seq_order_as_json(make_log: LogFactory) -> None:
    log = make_log()
    log.create("Cup", "ocuk", "#uno", T0)
    hand = {"players": ["a", "b"], "points": [0, 10], "scores": [10, 0], "winner": "a"}
    data = {"key": "t1", "totals": [["a", 10], ["b", 0]], "winners": ["a"], "hands": [hand]}
    result = Entry(2, "result", {**data, "gone": []}, T0)
    log.append("Cup", result)
    log.append("Cup", Entry(1, "start", {}, T0))
    log.append("Cup", new())
    stored = log.load("Cup")
    assert stored is not None
    assert [e.seq for e in stored.entries] == [0, 1, 2]
    assert stored.entries[2] == result


def test_append_is_idempotent(make_log: LogFactory) -> None:
    log = make_log()
    log.create("Cup", "ocuk", "#uno", T0)
    join = Entry(1, "join", {"name": "Beank", "reserve": False}, T0 + 1)
    for entry in (new(), join, new(), join, join):
        log.append("Cup", entry)  # a re-sent batch: no error, nothing twice
    stored = log.load("Cup")
    assert stored is not None and stored.entries == [new(), join]
    # Same seq, another change: a bug somewhere; refused rather than silently dropped.
    with pytest.raises(TournamentError, match="differs"):
        log.append("Cup", Entry(1, "join", {"name": "Other", "reserve": False}, T0 + 1))
    with pytest.raises(TournamentError, match="differs"):
        log.append("Cup", Entry(1, "leave", {"name": "Beank"}, T0 + 1))


def test_status_follows_the_entries(make_log: LogFactory) -> None:
    log = make_log()
    log.create("Cup", "ocuk", "#uno", T0)
    log.create("Plate", "knockout", "#uno", T0 + 1)
    log.create("Bowl", "rotation", "#cards", T0 + 2)
    for name in ("Cup", "Plate", "Bowl"):
        log.append(name, new())
    assert [s.status for s in log.active()] == ["signup"] * 3

    log.append("Cup", Entry(1, "start", {}, T0 + 10))
    log.append("Plate", Entry(1, "start", {}, T0 + 10))
    log.append("Plate", Entry(2, "done", {}, T0 + 99.5))
    log.append("Bowl", Entry(1, "cancel", {"by": "ann", "reason": "rain"}, T0 + 50))
    log.append("Bowl", Entry(1, "cancel", {"by": "ann", "reason": "rain"}, T0 + 50))
    states = {n: log.load(n) for n in ("Cup", "Plate", "Bowl")}
    assert {n: s.status for n, s in states.items() if s} == {
        "Cup": "running", "Plate": "done", "Bowl": "cancelled"
    }  # fmt: skip
    plate = states["Plate"]
    assert plate is not None and plate.ended == pytest.approx(T0 + 99.5, abs=1e-5)
    cup = states["Cup"]
    assert cup is not None and cup.ended is None

    active = log.active()
    assert [s.name for s in active] == ["Cup"]
    assert [e.kind for e in active[0].entries] == ["new", "start"]

    # A finished tournament stays finished (a late entry is still kept).
    log.append("Plate", Entry(3, "start", {}, T0 + 120))
    plate = log.load("Plate")
    assert plate is not None and plate.status == "done" and len(plate.entries) == 4


def test_names_are_unique_whatever_the_case(make_log: LogFactory) -> None:
    log = make_log()
    log.create("Summer Cup", "ocuk", "#uno", T0)
    for taken in ("summer cup", "SUMMER CUP", "Summer Cup"):
        with pytest.raises(TournamentError, match="already"):
            log.create(taken, "knockout", "#cards", T0 + 5)
    log.append("Summer Cup", new())
    log.append("Summer Cup", Entry(1, "cancel", {"by": "ann", "reason": ""}, T0 + 6))
    with pytest.raises(TournamentError, match="already"):
        log.create("summer CUP", "ocuk", "#uno", T0 + 7)  # finished, still taken
    # IRC case rules: [ ] and { } are the same letter in different cases.
    log.create("Cup[1]", "ocuk", "#uno", T0 + 8)
    with pytest.raises(TournamentError):
        log.create("cup{1}", "ocuk", "#uno", T0 + 9)
    stored = log.load("Summer Cup")
    assert stored is not None and stored.format == "ocuk"


def test_names_newest_first(make_log: LogFactory) -> None:
    log = make_log()
    for n, name in enumerate(["One", "Two", "Three", "Four"]):
        log.create(name, "ocuk", "#uno", T0 + n)
    assert log.names(3) == ["Four", "Three", "Two"]
    assert log.names() == ["Four", "Three", "Two", "One"]
    assert log.names(0) == []


def test_unknown_tournament(make_log: LogFactory) -> None:
    log = make_log()
    with pytest.raises(TournamentError, match="no tournament"):
        log.append("Nope", Entry(1, "join", {"name": "a", "reserve": False}, T0))
    with pytest.raises(TournamentError, match="no tournament"):
        log.add_sheet("Nope", [SheetRow("t1", 1, 1, "a", 0, True)])
    assert log.load("Nope") is None


def test_a_new_entry_creates_a_tournament_whose_create_was_lost(make_log: LogFactory) -> None:
    log = make_log()
    log.append("Lost", new(format="knockout", channel="#cards", at=T0 + 3))
    log.append("Lost", Entry(1, "join", {"name": "a", "reserve": False}, T0 + 4))
    stored = log.load("lost")
    assert stored is not None
    assert (stored.name, stored.format, stored.channel, stored.status) == (
        "Lost", "knockout", "#cards", "signup"
    )  # fmt: skip
    assert stored.created == pytest.approx(T0 + 3, abs=1e-5)
    assert [e.kind for e in stored.entries] == ["new", "join"]


def test_score_sheet(make_log: LogFactory) -> None:
    log = make_log()
    log.create("Cup", "ocuk", "#uno", T0)
    t1 = [
        SheetRow("t1", 1, 1, "Beank", 170, False),
        SheetRow("t1", 1, 1, "BigStu", 0, True),
        SheetRow("t1", 1, 2, "Beank", 0, True),
        SheetRow("t1", 1, 2, "BigStu", 23, False),
    ]
    t2 = [SheetRow("t2", 2, 1, 'Zoë, "the" one', 0, True), SheetRow("t2", 2, 1, "x", 5, False)]
    log.add_sheet("Cup", t1)
    log.add_sheet("Cup", t2)
    log.add_sheet("Cup", t1)  # re-sent: replaces t1's lines, adds none
    stored = log.load("Cup")
    assert stored is not None
    assert sorted(stored.sheet, key=repr) == sorted(t1 + t2, key=repr)
    assert [r.text() for r in stored.sheet if r.game_key == "t1"] == [
        "Beank > T1,G1,170", "BigStu > T1,G1,Won", "Beank > T1,G2,Won", "BigStu > T1,G2,23",
    ]  # fmt: skip
    log.add_sheet("Cup", [])
    again = log.load("Cup")
    assert again is not None and len(again.sheet) == 6
    active = log.active()
    assert active[0].sheet == stored.sheet


def test_two_logs_share_one_database(kind: str, make_log: LogFactory) -> None:
    first, second = make_log(), make_log()
    first.create("Cup", "ocuk", "#uno", T0)
    second.append("Cup", new())
    with pytest.raises(TournamentError):
        second.create("CUP", "ocuk", "#uno", T0)
    stored = first.load("Cup")
    assert stored is not None and stored.entries == [new()]


def test_calls_from_worker_threads(make_log: LogFactory) -> None:
    """The bot calls the log on its database worker: other threads than the one that made
    it, each with its own connection."""
    log = make_log()
    log.create("Cup", "ocuk", "#uno", T0)
    log.append("Cup", new())
    errors: list[BaseException] = []

    def joins(first: int) -> None:
        try:
            for seq in range(first, first + 10):
                log.append("Cup", Entry(seq, "join", {"name": f"p{seq}", "reserve": False}, T0))
            log.load("Cup")
        except BaseException as err:  # pragma: no cover - reported below
            errors.append(err)

    threads = [threading.Thread(target=joins, args=(1 + 10 * n,)) for n in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert errors == []
    stored = log.load("Cup")
    assert stored is not None and [e.seq for e in stored.entries] == list(range(31))


def test_sql_log_on_the_stats_stores_database(kind: str, url: str, tmp_path: Path) -> None:
    """The bot's way: the stats store's own database object, one connection for both."""
    if kind == "memory":
        pytest.skip("SQL only")
    store = SqlStatsStore(url, spool_path=tmp_path / "spool")
    log = SqlTournamentLog(store.db)
    log.create("Cup", "ocuk", "#uno", T0)
    log.append("Cup", new())
    log.close()  # not its database: stays open for the store
    assert log.active()[0].name == "Cup"
    store.close()


def _game(n: int) -> GameRecord:
    ended = NOW.replace(tzinfo=None) - timedelta(hours=n)
    results = (
        PlayerResult("alice", "Alice", 1, True, 50, 0),
        PlayerResult("bob", "bob", 2, False, 0, 50),
    )
    return GameRecord(f"g{n}", "net", "#uno", "official", ended - timedelta(minutes=5), ended,
                      results)  # fmt: skip


def test_a_v2_database_migrates_to_v3_with_its_data(
    kind: str, url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    if kind == "memory":
        pytest.skip("SQL only")
    with monkeypatch.context() as m:  # the bot before tournaments: schema v2
        m.setattr(schema, "SCHEMA_VERSION", 2)
        old = SqlStatsStore(url, spool_path=tmp_path / "spool", clock=lambda: NOW)
        for n in range(3):
            old.record_game(_game(n))
        old.close()
    db = open_database(url)
    assert schema.schema_version(db) == 2
    assert not db.table_exists("tournament")
    db.close()

    log = SqlTournamentLog.from_url(url)
    log.create("Cup", "ocuk", "#uno", T0)  # the first call migrates
    log.append("Cup", new())
    assert schema.schema_version(log.db) == schema.SCHEMA_VERSION >= 3
    log.close()

    store = SqlStatsStore(url, spool_path=tmp_path / "spool", clock=lambda: NOW)
    board = store.leaderboard(Ranking.PERCENT_WINS, 5, min_games=1)
    assert [(p.nick, p.games, p.wins) for p in board] == [("Alice", 3, 3), ("bob", 3, 0)]
    assert store.summary_mismatches() == []
    store.close()
    again = SqlTournamentLog.from_url(url)
    stored = again.load("Cup")
    assert stored is not None and stored.entries == [new()]
    again.close()


def test_the_example_database_is_at_the_current_version(tmp_path: Path) -> None:
    """``python -m unobot.stats.example`` rebuilt it after the last schema change."""
    example = Path(__file__).parents[2] / "stats.db.example"
    copy = tmp_path / "example.db"
    shutil.copy(example, copy)
    db = pw.SqliteDatabase(str(copy))
    assert schema.schema_version(db) == schema.SCHEMA_VERSION
    db.close()


def test_stored_defaults() -> None:
    stored = Stored("Cup", "ocuk", "#uno", "signup", T0)
    assert stored.entries == [] and stored.sheet == [] and stored.ended is None


def test_score_sheet_keeps_labels_the_clock_and_the_round(make_log: LogFactory) -> None:
    """Schema v6: the final and later rounds are named on the sheet, a hand the clock ended
    is marked, every line knows its round."""
    log = make_log()
    log.create("Cup", "knockout", "#uno", T0)
    rows = [
        SheetRow("r1-g1", 1, 1, "ann", 0, True),
        SheetRow("r1-g1", 1, 2, "ann", 66, False, clock=True),
        SheetRow("r2-g1", 1, 1, "ann", 12, False, "Final", round=2),
        SheetRow("r2-g1", 1, 2, "ann", 40, False, "Final", True, 2),
    ]
    log.add_sheet("Cup", rows)
    stored = log.load("Cup")
    assert stored is not None and stored.sheet == rows
    assert [r.text() for r in stored.sheet] == [
        "ann > T1,G1,Won", "ann > T1,G2,66 (clock)", "ann > Final,G1,12",
        "ann > Final,G2,40 (clock)",
    ]  # fmt: skip


def test_a_v5_database_migrates_to_v6_with_its_sheet(
    kind: str, url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A sheet written before v6 (no label, clock or round columns) reads as heats of round
    1, as it was written; new lines keep their label after the upgrade."""
    if kind == "memory":
        pytest.skip("SQL only")
    with monkeypatch.context() as m:  # the bot before v6
        m.setattr(schema, "SCHEMA_VERSION", 5)
        old = SqlTournamentLog.from_url(url)
        old.create("Cup", "ocuk", "#uno", T0)
        # (a new store's v3 step makes the table from today's model: take the columns away)
        from playhouse.migrate import SchemaMigrator, migrate

        migrator = SchemaMigrator.from_database(old.db)
        migrate(*(migrator.drop_column("tournament_score", c) for c in
                  ("label", "clock", "round_number")))  # fmt: skip
        old.db.execute_sql(
            old._s(
                "INSERT INTO tournament_score (tournament_id, game_key, table_number, game, "
                "player, points, won) VALUES (1, 't1', 1, 1, 'Beank', 170, ?)"
            ),
            (False,),
        )
        assert schema.schema_version(old.db) == 5
        old.close()
    log = SqlTournamentLog.from_url(url)
    log.add_sheet("Cup", [SheetRow("final", 1, 1, "Beank", 9, False, "Final", round=2)])
    assert schema.schema_version(log.db) == schema.SCHEMA_VERSION >= 6
    stored = log.load("Cup")
    assert stored is not None
    assert stored.sheet == [
        SheetRow("t1", 1, 1, "Beank", 170, False),
        SheetRow("final", 1, 1, "Beank", 9, False, "Final", round=2),
    ]
    log.close()
