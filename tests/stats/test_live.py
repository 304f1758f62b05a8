"""The live view's writer and rows: a real bot's tables (the core on fakes) followed into
``live_game``/``live_line`` on SQLite and PostgreSQL, writes coalesced per flush, a busy
worker never piled up, a database outage never felt by the game, never a hand written."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from random import Random
from typing import Any

import peewee as pw
import pytest

from tests.core.fakes import (
    FakeScheduler,
    FakeTransport,
    channel_lines,
    notices,
    strip_codes,
)
from unobot.core.bot import Bot
from unobot.core.dispatch import CommandThrottle
from unobot.core.settings import MemorySettings
from unobot.stats import live_rows, schema
from unobot.stats.live import LiveWriter
from unobot.stats.sql import SqlStatsStore, open_database

WALL = 1_800_000_000.0


class Jobs:
    """The database worker as the writer sees it: jobs held until the test runs them (a busy
    worker), or run at once (``inline``) against ``db``."""

    def __init__(self, db: pw.Database | None, inline: bool = False) -> None:
        self.db = db
        self.inline = inline
        self.waiting: list[tuple[Callable[[Any], Any], Callable[[Any], None]]] = []
        self.submitted = 0
        self.down = False

    def submit(self, job: Callable[[Any], Any], done: Callable[[Any], None]) -> bool:
        self.submitted += 1
        self.waiting.append((job, done))
        if self.inline:
            self.run()
        return True

    def run(self) -> None:
        while self.waiting:
            job, done = self.waiting.pop(0)
            done(None if self.down else job(self.db))


class Rig:
    """A bot on fakes with a live writer on a real database."""

    def __init__(self, db: pw.Database | None, network: str = "net", inline: bool = True) -> None:
        self.transport = FakeTransport()
        self.clock = FakeScheduler()
        self.jobs = Jobs(db, inline)
        self.wall = WALL
        self.writer = LiveWriter(
            self.jobs.submit, self.clock, network, clock=lambda: self.wall + self.clock.now()
        )
        self.writer.start()
        self.bot = Bot(
            self.transport, self.clock, MemorySettings(), rng=Random(5), live=self.writer
        )
        # Moves come faster than people type (the test's clock hardly moves): no throttle.
        self.bot.dispatcher.throttle = CommandThrottle(
            burst=10**6, channel_burst=10**6, global_burst=10**6, turn_burst=10**6
        )

    def say(self, nick: str, text: str, channel: str = "#Uno") -> None:
        from unobot.irc.transport import Incoming, Kind

        self.bot.handle(Incoming(Kind.MESSAGE, nick, channel, text))

    def start(self, nicks: list[str], channel: str = "#Uno") -> None:
        self.say(nicks[0], ".uno", channel)
        for nick in nicks[1:]:
            self.say(nick, ".join", channel)
        self.say(nicks[0], ".deal", channel)

    def move(self, channel: str = "#Uno") -> None:
        """One legal move by the player to move (the engine's first legal action, typed as a
        player types it)."""
        from unobot.engine.actions import Challenge, ChooseColor, Draw, Pass, Play

        table = self.bot.tables[channel.lower()]
        status = table.status()
        assert status is not None and table.game is not None
        nick = status.current
        legal = table.game.legal_actions(table.game.current)
        plays = [a for a in legal if type(a) is Play and (a.color is None or a.color.letter == "R")]
        action = (plays or [a for a in legal if type(a) in (Draw, Pass, ChooseColor)] or legal)[0]
        if type(action) is Play:
            text = f".play {action.card.text}" + (" r" if action.card.is_wild else "")
        elif type(action) is Draw:
            text = ".draw"
        elif type(action) is Pass:
            text = ".pass"
        elif type(action) is ChooseColor:
            text = ".color r"
        else:
            assert type(action) is Challenge
            text = ".challenge"
        self.say(nick, text, channel)
        assert table.status() != status or table.finished, f"{text} was not taken"


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "postgresql":
        return str(request.getfixturevalue("pg_server").new_database())
    return f"sqlite:///{tmp_path / 'stats.db'}"


@pytest.fixture
def db(db_url: str, tmp_path: Path) -> Iterator[pw.Database]:
    SqlStatsStore(db_url, spool_path=tmp_path / "spool").close()  # migrated as the bot does
    opened = open_database(db_url)
    yield opened
    opened.close()


def test_the_schema_step_makes_the_live_tables_on_both_engines(db: pw.Database) -> None:
    assert schema.schema_version(db) == schema.SCHEMA_VERSION >= schema.LIVE_VERSION
    assert {"live_game", "live_line"} <= set(db.get_tables())


def test_a_v5_store_is_upgraded_with_the_live_tables(
    db_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with monkeypatch.context() as m:
        m.setattr(schema, "SCHEMA_VERSION", schema.LIVE_VERSION - 1)
        old = SqlStatsStore(db_url, spool_path=tmp_path / "a")
        assert "live_game" not in old.db.get_tables()
        assert live_rows.live_games(old.db, WALL) == []  # an old store: no live games, no error
        old.close()
    new = SqlStatsStore(db_url, spool_path=tmp_path / "b")
    new.maintain()
    assert schema.schema_version(new.db) == schema.SCHEMA_VERSION
    assert {"live_game", "live_line"} <= set(new.db.get_tables())
    new.close()


def test_a_game_is_followed_move_by_move_and_never_shows_a_hand(db: pw.Database) -> None:
    rig = Rig(db)
    rig.start(["ann", "bob", "cy"])
    rig.clock.advance(1)
    view = live_rows.live_game(db, "net", "#uno", rig.wall + rig.clock.now())
    assert view is not None and view.channel == "#Uno" and view.ended is None
    table = rig.bot.tables["#uno"]
    status = table.status()
    assert status is not None
    assert view.players == status.counts and view.turn == status.current
    assert view.top == status.top.text and view.direction in (1, -1)
    lines = [line.text for line in live_rows.live_lines(db, "net", "#uno")]
    said = channel_lines(rig.transport.sent, "#Uno")
    deal = next(n for n, text in enumerate(said) if text.startswith("Uno ("))
    assert lines == said[deal:]  # every channel line from the deal on, plain text
    for _ in range(6):
        before = view.version
        rig.move()
        rig.clock.advance(1)
        view = live_rows.live_game(db, "net", "#uno", rig.wall + rig.clock.now())
        assert view is not None and view.version > before
        status = table.status()
        assert status is not None and view.turn == status.current and view.players == status.counts
    # No hand anywhere in the rows: every hand notice's cards are absent from what was written.
    row = db.execute_sql("SELECT players, info, top FROM live_game").fetchone()
    written = " ".join(str(c) for c in row) + " ".join(
        t for (t,) in db.execute_sql("SELECT text FROM live_line").fetchall()
    )
    for nick in ("ann", "bob", "cy"):
        for notice in notices(rig.transport.sent, nick):
            assert notice not in written
        assert json.dumps([c.text for c in table.hand_of(nick)]) not in written
    assert "Your cards" not in written
    rig.say("ann", ".unostop")
    rig.clock.advance(1)
    view = live_rows.live_game(db, "net", "#uno", rig.wall + rig.clock.now())
    assert view is not None and view.ended is not None
    assert live_rows.live_games(db, rig.wall + rig.clock.now()) == []


def test_hands_by_private_message_never_reach_the_live_view(db: pw.Database) -> None:
    """``.unohand query``: the hands go by PRIVMSG, which the live writer is told of only for
    a channel's lines (``LiveObserver.said``): no hand is written, whatever way it goes."""
    rig = Rig(db)
    told: list[str] = []
    said = rig.writer.said

    def spy(target: str, text: str) -> None:
        told.append(target)
        said(target, text)

    rig.writer.said = spy  # type: ignore[method-assign]
    for nick in ("ann", "bob"):
        rig.say(nick, ".unohand query")
    rig.start(["ann", "bob", "cy"])
    for _ in range(8):
        rig.move()
    rig.clock.advance(1)
    sent = rig.transport.sent
    by_query = [s.text for s in sent if s.kind == "privmsg" and s.target in ("ann", "bob")]
    assert sum("Your cards (" in strip_codes(t) for t in by_query) >= 2
    written = " ".join(t for (t,) in db.execute_sql("SELECT text FROM live_line").fetchall())
    row = db.execute_sql("SELECT players, info, top FROM live_game").fetchone()
    written += " ".join(str(c) for c in row)
    assert written and "Your cards" not in written and "Your turn" not in written
    for text in by_query:
        assert strip_codes(text) not in written
    lines = [line.text for line in live_rows.live_lines(db, "net", "#uno")]
    assert lines and all(not line.startswith("Your ") for line in lines)
    assert told and set(told) == {"#Uno"}  # never told of a line to a nick


def test_writes_are_coalesced_and_a_busy_worker_is_not_piled_up() -> None:
    rig = Rig(None, inline=False)
    rig.jobs.waiting.clear()  # the start-up clean-up
    rig.start(["ann", "bob", "cy", "dee", "eve", "fay"])  # six: thirty moves end no game
    for _ in range(10):  # ten moves within one interval: one flush
        rig.move()
    rig.clock.advance(0.6)
    assert len(rig.jobs.waiting) == 1
    # The worker is busy (the database is slow): moves go on, nothing more is submitted.
    for _ in range(30):
        rig.move()
        rig.clock.advance(0.6)
    for n in range(60):  # and the channel hears more than the live view keeps
        rig.bot.say("#Uno", f"note {n}")
    assert len(rig.jobs.waiting) == 1 and rig.writer.pending()
    assert all(len(g.lines) <= live_rows.KEEP_LINES for g in rig.writer._games.values())
    # The first flush ends: the next one (one more) carries the newest state.
    batches: list[Any] = []
    job, done = rig.jobs.waiting.pop(0)
    done(3)
    rig.clock.advance(0.6)
    assert len(rig.jobs.waiting) == 1
    job, done = rig.jobs.waiting.pop(0)

    class Capture:
        def cursor(self) -> Any:
            raise RuntimeError

    import unobot.stats.live_rows as rows

    real = rows.write_batch
    rows.write_batch = lambda db, batch, now: batches.append(batch) or 1  # type: ignore[assignment]
    try:
        job(Capture())
    finally:
        rows.write_batch = real  # type: ignore[assignment]
    (write,) = batches[0]
    status = rig.bot.tables["#uno"].status()
    assert status is not None and write.state["turn"] == status.current
    assert write.state["players"] == [{"nick": n, "cards": c} for n, c in status.counts]
    assert len(write.lines) == live_rows.KEEP_LINES  # the newest lines, not all of them
    assert write.lines[-1][1] == "note 59"
    done(1)
    assert rig.writer.flushes == 2


def test_a_database_outage_changes_nothing_for_the_game(db: pw.Database) -> None:
    rig = Rig(db)
    rig.start(["ann", "bob"])
    rig.clock.advance(1)
    rig.jobs.down = True  # every flush fails (SqlStatsStore.live answers None)
    for _ in range(5):
        rig.move()
        rig.clock.advance(1)
    rig.say("ann", ".unostop")
    rig.clock.advance(1)
    assert "#uno" not in rig.bot.tables
    rig.jobs.down = False
    rig.clock.advance(1)
    rig.start(["ann", "bob"], "#other")
    rig.clock.advance(1)
    now = rig.wall + rig.clock.now()
    ended = live_rows.live_game(db, "net", "#uno", now)
    assert ended is not None and ended.ended is not None  # the end was kept and written
    assert [v.channel for v in live_rows.live_games(db, now)] == ["#other"]


def test_networks_are_kept_apart_and_a_restart_clears_its_own_rows(db: pw.Database) -> None:
    one, two = Rig(db, "one"), Rig(db, "two")
    one.start(["ann", "bob"])
    two.start(["cy", "dee"])
    one.clock.advance(1)
    two.clock.advance(1)
    now = one.wall + one.clock.now()
    assert [(v.network, v.channel) for v in live_rows.live_games(db, now)] == [
        ("one", "#Uno"), ("two", "#Uno"),
    ]  # fmt: skip
    assert [v.players[0][0] for v in live_rows.in_channel(db, "#uno", now, "two")] == ["cy"]
    assert live_rows.playing_now(db, "DEE", now, "two") is not None
    assert live_rows.playing_now(db, "dee", now, "one") is None
    Rig(db, "one")  # network one's bot starts again: its crashed run's rows go
    assert [v.network for v in live_rows.live_games(db, now)] == ["two"]
    assert live_rows.live_lines(db, "one", "#uno") == []
    # A dead bot's rows leave the list once stale, and the next upkeep removes them.
    later = now + live_rows.STALE_SECONDS + 1
    assert live_rows.live_games(db, later) == []
    live_rows.age_out(db, later)
    assert db.execute_sql("SELECT COUNT(*) FROM live_game").fetchone()[0] == 0


def test_tournament_tables_are_found_by_name(db: pw.Database) -> None:
    write = live_rows.LiveWrite("net", "#cup-t2", started=WALL, fresh=True)
    write.state = {
        "tournament": "Cup", "table_no": 2, "players": [{"nick": "ann", "cards": 7}],
        "turn": "ann", "top": "R5", "color": "red", "direction": 1, "info": {},
    }  # fmt: skip
    live_rows.write_batch(db, [write], WALL)
    (view,) = live_rows.tournament_tables(db, "cup", WALL)
    assert (view.channel, view.table_no, view.turn) == ("#cup-t2", 2, "ann")
    assert live_rows.live_version(db, "net", "#CUP-T2", WALL) == view.stamp
