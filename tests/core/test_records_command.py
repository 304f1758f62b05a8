""".unorecords: this channel's records by default, every channel's with ``everywhere`` (or
privately), one record with its holder, when and the game's link; short lines, bad words get
one short reply that echoes nothing dangerous."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.core.test_game_command import WebConfig
from tests.core.test_stats_commands import ask
from tests.core.test_stats_recording import RecordingStore, StatsHarness
from unobot.core.render_irc import LIMIT
from unobot.replay.figures import move_figures
from unobot.replay.simulate import recorded_games
from unobot.stats import GameRecord
from unobot.stats.model import Period
from unobot.stats.sql import SqlStatsStore


@pytest.fixture(scope="module")
def games() -> list[GameRecord]:
    uno = recorded_games(6, 5, network="testnet", channel="#uno")
    other = recorded_games(3, 6, network="testnet", channel="#other", players=["mallory", "oscar"])
    return sorted(uno + other, key=lambda g: g.ended)


@pytest.fixture
def store(tmp_path: Path, games: list[GameRecord]) -> Iterator[SqlStatsStore]:
    sql = SqlStatsStore(
        f"sqlite:///{tmp_path / 's.db'}", network="testnet", analyse=move_figures,
        spool_path=tmp_path / "spool", clock=lambda: games[-1].ended,
    )  # fmt: skip
    for g in games:
        sql.record_game(g)
    yield sql
    sql.close()


def harness(store: SqlStatsStore, url: str = "") -> StatsHarness:
    return StatsHarness(1, WebConfig(network="testnet", web_public_url=url), RecordingStore(store))


def test_a_channel_gets_its_own_records(store: SqlStatsStore) -> None:
    h = harness(store)
    said, told = ask(h, "zed", ".unorecords")
    assert told == [] and 1 <= len(said) <= 2
    assert said[0].startswith("Uno records in #uno (people only): fewest moves: ")
    assert all(len(line.encode()) <= LIMIT for line in said)
    for r in store.records(Period.ALL, "#uno"):
        assert r.nick in " ".join(said)
    assert "mallory" not in " ".join(said) and "oscar" not in " ".join(said)
    # Everywhere: #other's players may hold some; the scope is said.
    said, _ = ask(h, "zed", ".unorecords everywhere")
    assert said[0].startswith("Uno records in all channels (people only): ")
    assert ask(h, "zed", ".unorecords all channels")[0] == said
    # Asked privately: all channels, answered privately; a #channel picks one.
    _, told = ask(h, "zed", ".unorecords", channel=None)
    assert told[0].startswith("Uno records in all channels (people only): ")
    _, told = ask(h, "zed", ".unorecords #OTHER", channel=None)
    assert told[0].startswith("Uno records in #other (people only): ")
    assert "alice" not in " ".join(told)


def test_one_record_names_its_holder_and_links_the_game(store: SqlStatsStore) -> None:
    h = harness(store, url="https://example.net/uno/")
    best = store.records(Period.ALL, "#uno", only=["streak"])[0]
    said, _ = ask(h, "zed", ".unorecords streak")
    assert said == [
        f"Longest winning streak in #uno: {best.nick}, {best.figure} "
        f"win{'s' if best.figure != 1 else ''} in a row, "
        f"{best.at:%Y-%m-%d %H:%M} UTC, https://example.net/uno/game/{best.game_id[:8]}"
    ]
    fastest = store.records(Period.ALL, None, only=["time"])[0]
    said, _ = ask(h, "zed", ".unorecords all fastest everywhere")
    assert said[0].startswith(f"Fastest win (time) in all channels: {fastest.nick}, ")
    assert f" UTC in {fastest.channel}, https://example.net/uno/game/" in said[0]
    # The summary ends with the records page.
    said, _ = ask(h, "zed", ".unorecords month")
    assert said[-1].endswith("https://example.net/uno/records")
    assert said[0].startswith("Uno records in #uno this month (people only): ")


def test_nothing_yet_and_bad_words(store: SqlStatsStore, games: list[GameRecord]) -> None:
    h = harness(store)
    said, _ = ask(h, "zed", ".unorecords #empty")
    assert said == ["No Uno records in #empty yet."]
    said, _ = ask(h, "zed", ".unorecords #empty cards week")
    assert said == ["Nobody holds that record in #empty this week yet."]
    _, told = ask(h, "zed", ".unorecords \x02bold\x03 everything")
    assert told == [
        "'?bold?' is not week/month/all, everywhere, a #channel or a record (moves, time, "
        "points, streak, cards, comeback, day)"
    ]


def test_computer_players_hold_no_record(tmp_path: Path) -> None:
    played = recorded_games(6, 9, network="testnet", computers=True)
    sql = SqlStatsStore(
        f"sqlite:///{tmp_path / 'b.db'}", network="testnet", analyse=move_figures,
        spool_path=tmp_path / "spool", clock=lambda: played[-1].ended,
    )  # fmt: skip
    for g in played:
        sql.record_game(dataclasses.replace(g))
    bots = {r.nick for g in played for r in g.results if r.is_bot}
    assert bots
    said, _ = ask(harness(sql), "zed", ".unorecords")
    assert said and not any(bot in line for bot in bots for line in said)
    sql.close()
