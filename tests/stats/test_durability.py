"""No finished game is lost or counted twice when the database goes away.

PostgreSQL is really stopped mid-session (its own server, so other tests are undisturbed);
SQLite is really locked by another connection. Games finished meanwhile wait in the spool
file and are written, once each, when the database answers again.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest

from tests.stats.conftest import NOW
from tests.stats.pg import PgServer, require_pg
from tests.stats.test_contract import game, res
from unobot.stats import GameRecord, Ranking
from unobot.stats.model import StatsUnavailable
from unobot.stats.spool import Spool
from unobot.stats.sql import SqlStatsStore


@pytest.fixture
def own_pg() -> Iterator[PgServer]:
    server = PgServer(require_pg())
    server.start()
    yield server
    server.destroy()


def _count_games(url: str) -> dict[str, int]:
    import psycopg2

    conn = psycopg2.connect(url)
    with conn.cursor() as cur:
        cur.execute("SELECT game_id, COUNT(*) FROM game GROUP BY game_id")
        counts = dict(cur.fetchall())
    conn.close()
    return counts


def _games(prefix: str, n: int) -> list[GameRecord]:
    return [
        game(res("alice", True, 10), res("bob", left=10), game_id=f"{prefix}{i}") for i in range(n)
    ]


def test_postgresql_stopped_mid_session_loses_and_duplicates_nothing(
    own_pg: PgServer, tmp_path: Path
) -> None:
    url = own_pg.new_database()
    spool = tmp_path / "stats.spool"
    store = SqlStatsStore(url, clock=lambda: NOW, spool_path=spool, retry_interval=0.0)
    for record in _games("before", 3):
        store.record_game(record)
    own_pg.stop()
    for record in _games("during", 5):
        store.record_game(record)  # never raises
    assert store.pending == 5
    assert len(Spool(spool).pending()) == 5
    with pytest.raises(StatsUnavailable):
        store.leaderboard(Ranking.PERCENT_WINS, 10)
    store.record_game(_games("during", 1)[0])  # a retry of a queued game, still down
    own_pg.start()
    for record in _games("after", 2):
        store.record_game(record)  # drains the queue first, then writes this one
    assert store.pending == 0
    assert not spool.exists()
    counts = _count_games(url)
    assert set(counts.values()) == {1}
    assert len(counts) == 3 + 5 + 2
    alice = store.player("alice")
    assert (alice.games, alice.wins, alice.points) == (10, 10, 100)
    assert store.summary_mismatches() == []
    store.close()


def test_a_store_started_while_postgresql_is_down_queues_until_it_is_back(
    own_pg: PgServer, tmp_path: Path
) -> None:
    url = own_pg.new_database()
    own_pg.stop()
    spool = tmp_path / "stats.spool"
    store = SqlStatsStore(url, clock=lambda: NOW, spool_path=spool, retry_interval=0.0)
    for record in _games("g", 4):
        store.record_game(record)
    assert store.pending == 4
    # The bot crashes here: a new process finds the spool and writes it once the server is up.
    own_pg.start()
    again = SqlStatsStore(url, clock=lambda: NOW, spool_path=spool, retry_interval=0.0)
    assert again.flush_pending() == 4
    assert _count_games(url) == {f"g{i}": 1 for i in range(4)}
    assert again.player("bob").games == 4
    again.close()


def test_sqlite_locked_by_another_writer_queues_then_writes(tmp_path: Path) -> None:
    db = tmp_path / "stats.db"
    store = SqlStatsStore(f"sqlite:///{db}", clock=lambda: NOW, retry_interval=0.0, timeout=0.05)
    store.record_game(_games("a", 1)[0])
    other = sqlite3.connect(db, isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")
    for record in _games("b", 3):
        store.record_game(record)
    assert store.pending == 3
    assert Path(f"{db}.spool").exists()  # the default spool sits next to the database
    other.execute("ROLLBACK")
    other.close()
    assert store.flush_pending() == 3
    assert store.player("alice").games == 4
    store.close()


def test_a_replayed_or_torn_spool_still_records_each_game_once(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'stats.db'}"
    spool_path = tmp_path / "q.spool"
    store = SqlStatsStore(db, clock=lambda: NOW, spool_path=spool_path, retry_interval=0.0)
    records = _games("x", 3)
    store.record_game(records[0])
    spool = Spool(spool_path)
    for record in records:  # x0 was written already: a crash before the spool was emptied
        spool.append(record)
    with open(spool_path, "a") as f:
        f.write('{"game_id": "torn", "netw')  # the bot died mid-append
    assert store.flush_pending() == 3
    assert store.player("alice").games == 3
    assert not spool_path.exists()
    store.close()


def test_queued_games_keep_their_times(tmp_path: Path) -> None:
    spool = Spool(tmp_path / "q")
    record = game(res("Ally", True, 3, account="Acct"), ended=NOW - timedelta(days=3))
    spool.append(record)
    assert spool.pending() == [record]
