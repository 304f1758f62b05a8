"""Store fixtures: the same contract runs on memory, SQLite and a real PostgreSQL server."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from tests.stats.pg import PgServer, require_pg
from unobot.stats.memory import MemoryStatsStore
from unobot.stats.sql import SqlStatsStore

NOW = datetime(2026, 11, 20, 12, 0, tzinfo=UTC)
"""A Friday: the week began Monday 16 November, the month on the 1st."""

StoreFactory = Callable[..., Any]


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PgServer]:
    server = PgServer(require_pg())
    server.start()
    yield server
    server.destroy()


@pytest.fixture(params=["memory", "sqlite", "postgresql"])
def kind(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def make_store(kind: str, request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[StoreFactory]:
    """``make_store(network=None, clock=...)``: a store on this test's database; called twice
    it opens a second store on the SAME database (memory: the same object)."""
    opened: list[Any] = []
    url = ""
    if kind == "sqlite":
        url = f"sqlite:///{tmp_path / 'stats.db'}"
    elif kind == "postgresql":
        url = request.getfixturevalue("pg_server").new_database()
    shared: dict[str, MemoryStatsStore] = {}

    def factory(network: str | None = None, clock: Callable[[], datetime] = lambda: NOW) -> Any:
        if kind == "memory":
            if "store" not in shared:
                shared["store"] = MemoryStatsStore(network=network, clock=clock)
                return shared["store"]
            # A second view of the same games (another network's bot on the same store).
            view = MemoryStatsStore(network=network, clock=clock)
            base = shared["store"]
            view._games, view._players, view._imported = base._games, base._players, base._imported
            view._ratings = base._ratings
            return view
        store = SqlStatsStore(
            url, network=network, clock=clock, spool_path=tmp_path / f"spool{len(opened)}",
            retry_interval=0.0,
        )  # fmt: skip
        opened.append(store)
        return store

    yield factory
    for store in opened:
        store.close()
