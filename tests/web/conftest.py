"""A stats database for the site's tests: real recorded games (the bot core's tables, with
their move lists) on two networks, plus a few hand-written ones (a nick change, a nasty nick,
a game without moves), written through the real SqlStatsStore, as the bot writes them."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

with warnings.catch_warnings():  # starlette asks for httpx2, which is not on this machine
    warnings.filterwarnings("ignore", "Using `httpx` with `starlette.testclient`")
    from starlette.testclient import TestClient

from unobot.replay.figures import move_figures
from unobot.replay.simulate import recorded_games
from unobot.stats.model import GameRecord, PlayerResult, player_ident
from unobot.stats.sql import SqlStatsStore, open_database
from unobot.web.app import create_app

NOW = datetime(2026, 11, 20, 12, 0, tzinfo=UTC)
"""A Friday: this week began Monday 16 November, this month on the 1st."""
NASTY = "<script>alert(1)</script>"


@dataclass(frozen=True)
class Seeded:
    url: str
    games: tuple[GameRecord, ...]
    """Every game written, in the order written."""


def _game(
    game_id: str, network: str, ended: datetime, order: list[str], moves: str | None = None
) -> GameRecord:
    """A hand-written game: ``order`` by place, the winner collecting 20 a loser."""
    results = tuple(
        PlayerResult(
            player_ident(nick), nick, place, place == 1,
            20 * (len(order) - 1) if place == 1 else 0, 0 if place == 1 else 20,
        )
        for place, nick in enumerate(order, 1)
    )  # fmt: skip
    return GameRecord(
        game_id, network, "#Side", "official", ended - timedelta(minutes=7), ended, results, moves
    )


def seed(path: Path) -> Seeded:
    url = f"sqlite:///{path}"
    return Seeded(url, seed_store(url, path.parent))


def seed_store(url: str, spool_dir: Path, replays: int = 36) -> tuple[GameRecord, ...]:
    """Write the test games to the store at ``url``; returns them in the order written."""
    games: list[GameRecord] = []
    # Real games, up to 12 days before "now": some in this week and month, most before.
    games += recorded_games(
        replays, 19, network="net", channel="#uno", start=NOW - timedelta(days=12)
    )
    games += recorded_games(
        12, 5, network="other", channel="#uno", start=NOW - timedelta(days=30),
        players=("alice", "mallory", "oscar", "peggy"),
    )  # fmt: skip
    # On "net": carol goes by "Caro" in her last game (a nick change: both names find her),
    # a player whose nick is markup, and a game recorded without its move list.
    late = NOW - timedelta(hours=1)
    games.append(_game("f" * 32, "net", late - timedelta(minutes=30), [NASTY, "alice", "bob"]))
    games.append(_game("e" * 32, "net", late - timedelta(minutes=20), ["bob", NASTY]))
    renamed = GameRecord(
        "d" * 32, "net", "#Side", "official", late - timedelta(minutes=17), late,
        (
            PlayerResult("carol", "Caro", 1, True, 40, 0),
            PlayerResult("alice", "alice", 2, False, 0, 20),
        ),
    )  # fmt: skip
    games.append(renamed)
    # A computer player who beats alice and bob five times: rated above them, never ranked.
    for n in range(5):
        robo = _game(
            f"c{n}" + "c" * 30, "net", late - timedelta(days=n + 1), ["Robo", "alice", "bob"]
        )
        games.append(
            replace(robo, results=(replace(robo.results[0], is_bot=True), *robo.results[1:]))
        )
    # A game id whose short id is all digits (as 1 in 40 are), a week earlier.
    games.append(
        _game("1234567890abc" + "0" * 19, "net", NOW - timedelta(days=7), ["carol", "bob"])
    )
    store = SqlStatsStore(
        url, clock=lambda: NOW, spool_path=spool_dir / "seed.spool", analyse=move_figures
    )
    try:
        for game in games:
            store.record_game(game)
        assert store.pending == 0
        store.maintain()  # the summaries caught up, as the bot's upkeep does
    finally:
        store.close()
    return tuple(games)


@pytest.fixture(scope="package")
def seeded(tmp_path_factory: pytest.TempPathFactory) -> Seeded:
    return seed(tmp_path_factory.mktemp("webdb") / "stats.db")


@pytest.fixture(scope="package")
def client(seeded: Seeded) -> Iterator[TestClient]:
    db = open_database(seeded.url)
    with TestClient(create_app(db, clock=lambda: NOW)) as test_client:
        yield test_client
    db.close()


@pytest.fixture
def store(seeded: Seeded, tmp_path: Path) -> Iterator[SqlStatsStore]:
    """The store's own answers, to compare the site's with (its queries catch up first,
    which changes nothing here: the seed ended with a catch-up)."""
    opened = SqlStatsStore(seeded.url, clock=lambda: NOW, spool_path=tmp_path / "spool")
    yield opened
    opened.close()
