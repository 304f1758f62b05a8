"""``unobot replay``: a recorded game printed from a SQLite stats store, as its channel saw it."""

from __future__ import annotations

import dataclasses
import sqlite3
from pathlib import Path

import pytest

from unobot.main import database_url
from unobot.replay.cli import main
from unobot.replay.simulate import recorded_games
from unobot.replay.steps import steps
from unobot.stats.model import GameRecord
from unobot.stats.sql import SqlStatsStore


@pytest.fixture(scope="module")
def stored(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, list[GameRecord]]:
    """A store of three simulated games (the third recorded without its move list)."""
    path = tmp_path_factory.mktemp("replay") / "stats.db"
    url = f"sqlite:///{path}"
    records = recorded_games(3, 21, presets=("official",))
    records[2] = dataclasses.replace(records[2], moves=None)
    store = SqlStatsStore(url)
    for record in records:
        store.record_game(record)
    store.close()
    return url, records


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv), database_url)
    out, err = capsys.readouterr()
    return code, out, err


def test_a_game_prints_its_header_and_every_channel_line(
    stored: tuple[str, list[GameRecord]], capsys: pytest.CaptureFixture[str]
) -> None:
    url, records = stored
    record = records[0]
    code, out, err = run(capsys, record.game_id[:8], "--database", url)
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0].startswith(f"Game {record.game_id[:8]} (no. 1) in #uno, official, 2025-")
    winner = next(r for r in record.results if r.won)
    assert f"  1. {winner.nick}: {winner.points_won} points, 0 left in hand (won, rating " in out
    assert record.moves is not None
    found = steps(record.moves)
    channel = [line for line in lines if line and not line.startswith(("---", "  "))][1:]
    assert channel == [line for step in found for line in step.lines]
    hands = max(step.hand for step in found)
    assert "--- hand 1 ---" in lines
    assert f"--- hand {hands - 1} ends, hand {hands} is dealt ---" in lines


def test_reveal_shows_every_hand_after_each_step(
    stored: tuple[str, list[GameRecord]], capsys: pytest.CaptureFixture[str]
) -> None:
    url, records = stored
    code, out, _ = run(capsys, "1", "--reveal", "--database", url)
    assert code == 0
    assert records[0].moves is not None
    first = steps(records[0].moves)[0]
    for nick, cards in first.hands:
        assert f"   {nick}: {' '.join(cards)}" in out
    plain = run(capsys, "1", "--database", url)[1]
    assert len(out.splitlines()) > 2 * len(plain.splitlines())


def test_a_game_without_a_move_list_says_so(
    stored: tuple[str, list[GameRecord]], capsys: pytest.CaptureFixture[str]
) -> None:
    url, _ = stored
    code, out, err = run(capsys, "3", "--database", url)
    assert code == 1
    assert "recorded without a move list" in err
    assert out.startswith("Game ")  # what is known: the result


@pytest.mark.parametrize(
    ("key", "code", "said"),
    [
        ("99", 1, "no recorded game 99"),
        ("abcdef", 1, "no recorded game abcdef"),
        ("xyz", 2, "not a game id"),
        ("12345", 1, "no recorded game"),
        ("abc", 2, "not a game id"),
        ("1; DROP TABLE game", 2, "not a game id"),
    ],
)
def test_an_unknown_or_malformed_id_is_one_clear_line(
    stored: tuple[str, list[GameRecord]],
    capsys: pytest.CaptureFixture[str],
    key: str,
    code: int,
    said: str,
) -> None:
    url, _ = stored
    got, out, err = run(capsys, key, "--database", url)
    assert got == code and out == ""
    assert said in err and len(err.splitlines()) == 1


def test_a_missing_database_or_config_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "none.db"
    code, _, err = run(capsys, "1", "--database", f"sqlite:///{missing}")
    assert code == 2 and "no stats database" in err
    assert not missing.exists()  # not created by looking
    code, _, err = run(capsys, "1", "--config", str(tmp_path / "nope.toml"))
    assert code == 2 and err.startswith("unobot replay: ")


def test_a_database_without_the_stats_tables_is_a_clear_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    empty = tmp_path / "empty.db"
    sqlite3.connect(empty).close()
    code, _, err = run(capsys, "1", "--database", f"sqlite:///{empty}")
    assert code == 1 and "can't read the stats database" in err


def test_a_stopped_game_says_so_and_nobody_won(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = f"sqlite:///{tmp_path / 'stats.db'}"
    record = recorded_games(1, 22, presets=("official",))[0]
    record = dataclasses.replace(
        record,
        stopped=True,
        results=tuple(dataclasses.replace(r, won=False) for r in record.results),
    )
    store = SqlStatsStore(url)
    store.record_game(record)
    store.close()
    code, out, _ = run(capsys, "1", "--database", url)
    assert code == 0
    head = out.splitlines()[0]
    assert head.startswith(f"Game {record.game_id[:8]} (no. 1) in #uno, official, ")
    assert head.endswith(", stopped before its end: nobody won")
    assert "(won" not in out
