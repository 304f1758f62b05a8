"""The database worker: jobs off the reactor, answers back on it, callers never stuck behind a
stalled database, and the stores the bot uses on top of it (stats and settings)."""

from __future__ import annotations

import contextlib
import logging
import queue
import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import pytest

from unobot.core.settings import BackgroundSettings, DatabaseSettings
from unobot.stats.background import BackgroundStats, ask
from unobot.stats.memory import MemoryStatsStore
from unobot.stats.model import GameRecord, PlayerResult
from unobot.stats.sql import SqlStatsStore
from unobot.stats.worker import DbWorker


class Reactor:
    """The reactor's side as the adapter has it: timers and ``call_soon_threadsafe``. Nothing
    runs until the test pumps, on the test's thread (so "on the reactor" is observable)."""

    def __init__(self) -> None:
        self.calls: queue.Queue[Callable[[], None]] = queue.Queue()
        self.timers: list[tuple[float, Callable[[], None]]] = []
        self.thread = threading.get_ident()

    def now(self) -> float:
        return time.monotonic()

    def call_later(self, delay: float, callback: Callable[[], None]) -> object:
        self.timers.append((time.monotonic() + delay, callback))
        return callback

    def call_soon_threadsafe(self, fn: Callable[[], None]) -> None:
        self.calls.put(fn)

    def pump(self, seconds: float = 0.0, until: Callable[[], bool] | None = None) -> None:
        """Run what arrives and what comes due, for ``seconds`` or until ``until()``."""
        deadline = time.monotonic() + seconds
        while True:
            with contextlib.suppress(queue.Empty):
                self.calls.get(timeout=0.01)()
            due = [t for t in self.timers if t[0] <= time.monotonic()]
            for item in due:
                self.timers.remove(item)
                item[1]()
            if until is not None and until():
                return
            if time.monotonic() >= deadline and until is None:
                return
            assert time.monotonic() < deadline + 10, "gave up waiting"


def game(game_id: str, winner: str = "alice", loser: str = "bob") -> GameRecord:
    at = datetime(2026, 11, 24, 12, 0, tzinfo=UTC)
    return GameRecord(
        game_id=game_id,
        network="testnet",
        channel="#uno",
        preset="official",
        started=at,
        ended=at,
        results=(
            PlayerResult(winner, winner, 1, True, 50, 0, True),
            PlayerResult(loser, loser, 2, False, 0, 50, True),
        ),
    )


def test_answers_come_back_on_the_reactor_in_order() -> None:
    reactor = Reactor()
    worker = DbWorker(reactor, timeout=5)
    seen: list[tuple[int, int]] = []
    for n in range(5):
        worker.submit(lambda n=n: (n, threading.get_ident()), lambda r: seen.append(r))
    reactor.pump(until=lambda: len(seen) == 5)
    assert [n for n, _ in seen] == [0, 1, 2, 3, 4]
    assert all(thread != reactor.thread for _, thread in seen)  # computed off the reactor
    assert worker.close(2.0)


@pytest.mark.serial  # bounds of 50-200 ms on the caller's wait: run alone
def test_a_stalled_database_costs_a_caller_the_timeout_then_nothing() -> None:
    reactor = Reactor()
    worker = DbWorker(reactor, timeout=0.3)
    release = threading.Event()
    outcome: list[str] = []
    worker.submit(release.wait, wait=False)  # a write, stuck on the database
    worker.submit(lambda: "late", outcome.append, lambda why: outcome.append(f"failed: {why}"))
    started = time.monotonic()
    reactor.pump(until=lambda: bool(outcome))
    waited = time.monotonic() - started
    assert outcome == ["failed: the database did not answer in time"]
    assert 0.25 < waited < 2.0
    # Stalled now: a question is refused at once, without queueing behind the stuck job. (The
    # stall counts from when the stuck job began: on a loaded machine the worker thread may
    # have begun it a little after it was queued, so its timeout may end a little later.)
    deadline = time.monotonic() + 2.0
    while not worker.stalled and time.monotonic() < deadline:
        time.sleep(0.01)
    refused: list[str] = []
    started = time.monotonic()
    assert not worker.submit(lambda: 1, refused.append, refused.append)
    assert refused == ["the database is not answering"]
    assert time.monotonic() - started < 0.05
    # Writes still queue; when the database wakes they run, and the late answer is dropped.
    written: list[int] = []
    assert worker.submit(lambda: 7, written.append, wait=False)
    release.set()
    reactor.pump(until=lambda: written == [7])
    reactor.pump(0.1)
    assert outcome == ["failed: the database did not answer in time"]
    assert not worker.stalled
    assert worker.close(2.0)


def test_a_job_without_an_answer_that_succeeds_is_not_reported_as_timed_out() -> None:
    """A write whose caller only listens for failure (the tournament log's): done when it
    ran, so the wait for it ends quietly."""
    reactor = Reactor()
    worker = DbWorker(reactor, timeout=0.2)
    ran: list[int] = []
    failures: list[str] = []
    worker.submit(lambda: ran.append(1), None, failures.append)
    reactor.pump(0.6)
    assert ran == [1] and failures == []
    assert worker.close(2.0)


def test_a_full_queue_refuses_at_once_and_failures_are_reported(caplog) -> None:  # type: ignore[no-untyped-def]
    reactor = Reactor()
    worker = DbWorker(reactor, timeout=5, maxsize=2)
    release = threading.Event()
    worker.submit(release.wait, wait=False)
    time.sleep(0.05)  # the worker holds the first job; the queue has room for two more
    assert worker.submit(lambda: 1, wait=False) and worker.submit(lambda: 2, wait=False)
    why: list[str] = []
    assert not worker.submit(lambda: 3, lambda _: None, why.append, wait=False)
    assert why == ["too many database requests are waiting"]
    release.set()
    reactor.pump(until=lambda: worker.backlog == 0 and not worker._busy_since)

    def broken() -> None:
        raise OSError("disk I/O error")

    errors: list[str] = []
    worker.submit(broken, lambda _: None, errors.append)
    with caplog.at_level(logging.ERROR, logger="unobot.stats.worker"):
        worker.submit(broken, wait=False)  # nobody listens: logged
        reactor.pump(until=lambda: bool(errors) and "disk I/O error" in caplog.text)
    assert errors == ["disk I/O error"]
    assert "disk I/O error" in caplog.text
    assert worker.close(2.0)


@pytest.mark.serial  # bounds of 50-200 ms on the caller's wait: run alone
def test_close_leaves_a_stuck_worker_behind_within_its_wait() -> None:
    worker = DbWorker(Reactor(), timeout=5)
    stuck = threading.Event()
    worker.submit(stuck.wait, wait=False)
    started = time.monotonic()
    assert not worker.close(0.3)
    assert time.monotonic() - started < 1.0
    stuck.set()


def test_without_a_thread_safe_scheduler_jobs_run_inline() -> None:
    class Clock:
        def now(self) -> float:
            return 0.0

        def call_later(self, delay: float, callback: Callable[[], None]) -> object:
            raise AssertionError("inline jobs need no timer")

    worker = DbWorker(Clock())
    got: list[int] = []
    worker.submit(lambda: 41 + 1, got.append)
    assert got == [42] and not worker.threaded


# --- the stats store on the worker -----------------------------------------------------------


class Stalling(SqlStatsStore):
    """A real SQLite store that can be made to hang like a SIGSTOPped server."""

    gate = threading.Event()

    def _try(self, game: GameRecord) -> bool:
        self.gate.wait()
        return super()._try(game)

    def player(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        self.gate.wait()
        return super().player(*args, **kwargs)


@pytest.mark.serial  # bounds of 50-200 ms on the caller's wait: run alone
def test_games_are_spooled_at_once_and_written_once_the_database_wakes(tmp_path: Path) -> None:
    Stalling.gate = threading.Event()
    reactor = Reactor()
    inner = Stalling(f"sqlite:///{tmp_path / 'stats.db'}", network="testnet", connect_now=False)
    stats = BackgroundStats(inner, DbWorker(reactor, timeout=0.3))
    started = time.monotonic()
    stats.record_game(game("g1"))
    stats.record_game(game("g2"))
    assert time.monotonic() - started < 0.2  # the reactor never waited for the database
    assert [g.game_id for g in inner.spool.pending()] == ["g1", "g2"]  # durable already
    answers: list[object] = []
    ask(stats, lambda s: s.player("alice"), answers.append, lambda why: answers.append(why))
    reactor.pump(until=lambda: bool(answers))
    assert answers == ["the database did not answer in time"]
    Stalling.gate.set()
    reactor.pump(until=lambda: inner.pending == 0)
    stats.record_game(game("g1"))  # replayed (a crash before the spool was rewritten): ignored
    found: list[object] = []
    reactor.pump(0.2)
    ask(stats, lambda s: s.player("alice", min_games=1), found.append, found.append)
    reactor.pump(until=lambda: bool(found))
    assert found[0].games == 2 and found[0].wins == 2  # type: ignore[union-attr]
    stats.close(wait=2.0)


def test_ask_runs_inline_on_a_plain_store() -> None:
    store = MemoryStatsStore(network="testnet")
    store.record_game(game("g1"))
    got: list[object] = []
    ask(store, lambda s: s.player("bob", min_games=1), got.append, got.append)
    assert got[0].games == 1  # type: ignore[union-attr]

    def broken(_store: object) -> None:
        raise RuntimeError("boom")

    failed: list[str] = []
    ask(store, broken, failed.append, failed.append)
    assert failed == ["boom"]


# --- settings on the worker ------------------------------------------------------------------


def test_settings_answer_from_memory_while_the_database_is_away(tmp_path: Path) -> None:
    """The database can't be opened (its folder is a file: tests run as root, for whom no
    folder is read-only). Defaults answer, changes hold in memory, and are written once it
    can be opened."""
    reactor = Reactor()
    folder = tmp_path / "db"
    folder.write_text("not a folder")
    url = f"sqlite:///{folder / 'stats.db'}"
    worker = DbWorker(reactor, timeout=1.0)
    settings = BackgroundSettings(lambda: DatabaseSettings(url, 1.0), worker)
    reactor.pump(0.3)
    assert not settings.loaded
    assert settings.colors("alice") is True
    settings.set_colors("alice", False)
    settings.set_channel_rules("#uno", "official", {"stacking": "same"})
    reactor.pump(0.3)
    assert settings.colors("alice") is False and settings.pending == 2
    assert settings.channel_rules("#uno") == ("official", {"stacking": "same"})
    folder.unlink()
    folder.mkdir()
    settings.maintain()  # the upkeep timer: the database can be opened now
    reactor.pump(until=lambda: settings.pending == 0)
    assert settings.loaded
    stored = DatabaseSettings(url)
    assert stored.colors("alice") is False
    assert stored.channel_rules("#uno") == ("official", {"stacking": "same"})
    stored.close()
    settings.close()
    assert worker.close(2.0)


def test_settings_load_at_start_and_a_change_made_meanwhile_wins(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'stats.db'}"
    stored = DatabaseSettings(url)
    stored.set_colors("alice", False)
    stored.set_colors("bob", False)
    stored.close()
    reactor = Reactor()
    gate = threading.Event()

    def slow_open() -> DatabaseSettings:
        gate.wait()
        return DatabaseSettings(url)

    worker = DbWorker(reactor, timeout=1.0)
    settings = BackgroundSettings(slow_open, worker)
    settings.set_colors("bob", True)  # before the load answers
    gate.set()
    reactor.pump(until=lambda: settings.loaded and settings.pending == 0)
    assert settings.colors("alice") is False  # loaded
    assert settings.colors("bob") is True  # the newer change, and written
    again = DatabaseSettings(url)
    assert again.colors("bob") is True
    again.close()
    settings.close()
    assert worker.close(2.0)


def test_the_real_bot_starts_and_plays_without_a_usable_database(tmp_path: Path) -> None:
    """The entry point, its database file damaged (not an SQLite file): it starts, games are
    played and .pce-off answered, nothing is printed as a traceback. (A database that can
    never be opened, in a folder that does not exist or is a file, is refused at start
    instead: tests/test_operations.py.)"""
    import subprocess
    import sys

    from tests.e2e.client import TestClient
    from tests.e2e.servers import free_port

    root = Path(__file__).resolve().parents[2]
    folder = tmp_path / "db"
    folder.mkdir()
    (folder / "stats.db").write_bytes(b"not an SQLite database, " * 200)
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, str(root / "unobot.py"), "--port", str(port),
         "--database", f"sqlite:///{folder / 'stats.db'}"],
        cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip
    clients: list[TestClient] = []
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                clients.append(TestClient(port, "alice"))
                break
            except OSError:
                assert proc.poll() is None, proc.stdout.read()  # type: ignore[union-attr]
                assert time.monotonic() < deadline
                time.sleep(0.05)
        clients.append(TestClient(port, "bob"))
        alice, bob = clients
        for c in clients:
            c.join("#uno")
        alice.wait_for(
            lambda m: (
                # (the bot may be in first, and then holds @ there)
                (m.command == "353" and "unobot" in [n.lstrip("@+") for n in m.text.split()])
                or (m.command == "JOIN" and m.nick == "unobot")
            ),
            what="bot in #uno",
        )
        alice.privmsg("#uno", ".pce-off")
        alice.wait_for(lambda m: m.command == "NOTICE" and "plain letters" in m.text, what="pce")
        alice.privmsg("#uno", ".uno")
        bob.privmsg("#uno", ".join")
        alice.privmsg("#uno", ".deal")
        alice.wait_for(lambda m: m.command == "NOTICE" and "Your cards" in m.text, what="hand")
        assert "\x03" not in alice.received("NOTICE", "unobot")[-1].text  # plain, as asked
        alice.privmsg("#uno", ".unotop10")
        alice.wait_for(
            lambda m: m.command == "NOTICE" and "unavailable" in m.text, what="no stats", timeout=15
        )
    finally:
        for c in clients:
            c.close()
        proc.terminate()
        out, _ = proc.communicate(timeout=15)
    assert proc.returncode == 0, out
    assert "Traceback" not in out, out


def test_a_game_the_spool_refuses_is_reported_unsafe_kept_in_memory_and_written_later(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The bot's path (spool on the reactor, the database on the worker) with a spool folder
    nobody can write (a path through a plain file: even root can't) and a database that
    can't be opened: ``record_game`` says False at once (the caller keeps its own copy),
    the game waits in memory, each failure is said at ERROR with what to do, and once the
    database can be written the game goes there exactly once."""
    (tmp_path / "ro").write_text("a file, not a folder")
    db = tmp_path / "later" / "stats.db"
    reactor = Reactor()
    inner = SqlStatsStore(
        f"sqlite:///{db}",
        network="testnet",
        spool_path=tmp_path / "ro" / "stats.db.spool",
        connect_now=False,
        retry_interval=0.0,
    )
    stats = BackgroundStats(inner, DbWorker(reactor, timeout=2.0))
    caplog.set_level(logging.ERROR)
    assert stats.record_game(game("g1")) is False
    reactor.pump(until=lambda: inner.pending == 1)
    said = " ".join(r.getMessage() for r in caplog.records)
    assert "can't queue game g1" in said and "kept in memory and retried" in said
    assert "writable" in said
    db.parent.mkdir()  # the operator fixes it; the upkeep timer writes what waits
    stats.maintain()
    reactor.pump(until=lambda: inner.pending == 0)
    stats.record_game(game("g1"))  # recorded again from a kept journal: ignored
    found: list[object] = []
    ask(stats, lambda s: s.player("alice", min_games=1), found.append, found.append)
    reactor.pump(until=lambda: bool(found))
    assert found[0].games == 1  # type: ignore[union-attr]
    stats.close(wait=2.0)
