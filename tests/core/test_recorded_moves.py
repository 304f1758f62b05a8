"""A recorded game keeps its move list: the table's own journal, which replays to the very
game that was played (same hands, same result), with cards in the notation."""

from __future__ import annotations

import json
from pathlib import Path
from random import Random

from tests.core.fakes import Harness
from tests.core.test_restore import journaled
from unobot.bench.soak import command_for
from unobot.core.journal import VERSION, replay_text
from unobot.stats.memory import MemoryStatsStore
from unobot.stats.recorder import GameRecorder


def play_out(h: Harness, seed: int) -> None:
    table = h.bot.tables["#uno"]
    rng = Random(seed)
    for _ in range(3000):
        if table.finished:
            return
        h.clock.time += 2
        nick, text = command_for(table, rng)
        h.say(nick, text)
    raise AssertionError("the game did not end")


def test_a_recorded_game_keeps_its_journal_as_its_move_list(tmp_path: Path) -> None:
    h, store = journaled(tmp_path, seed=3, start=1_000.0)
    h.start(["alice", "bob", "carol"])
    table = h.bot.tables["#uno"]
    play_out(h, 5)
    (record,) = store._games.values()
    assert record.moves is not None
    lines = [json.loads(line) for line in record.moves.splitlines()]
    assert lines[0][0] == "open" and lines[0][1]["version"] == VERSION
    played = [args["card"] for method, args in lines if method == "play"]
    assert played and all(isinstance(card, str) for card in played)
    replayed = replay_text(record.moves)
    assert replayed.finished
    assert replayed.names == table.names
    assert replayed.match is not None and table.match is not None
    assert replayed.match.totals == table.match.totals
    got = store.game(record.game_id)
    assert got is not None and got.moves == record.moves
    assert not list(tmp_path.glob("*.jsonl"))  # the journal file itself is gone (or a spare)


def test_without_a_journal_a_game_is_recorded_without_moves() -> None:
    h = Harness(seed=3)
    store = MemoryStatsStore(network="")
    h.bot.store = store
    h.bot.recorder = GameRecorder.following(store, "", h.clock)
    h.start(["alice", "bob"])
    play_out(h, 2)
    (record,) = store._games.values()
    assert record.moves is None


def test_a_game_that_ends_inside_a_restarts_replay_keeps_its_moves(tmp_path: Path) -> None:
    """Killed after the winning card was journaled, before the game was recorded: the next
    bot's replay ends the game and records it, with the journal as its move list."""
    h, store = journaled(tmp_path / "first", seed=3, start=1_000.0)
    h.start(["alice", "bob"])
    play_out(h, 4)
    (record,) = store._games.values()
    assert record.moves is not None
    folder = tmp_path / "second"
    folder.mkdir()
    (folder / f"{record.game_id}.jsonl").write_text(record.moves)  # as the kill left it
    second, second_store = journaled(folder, seed=1, start=5.0)
    second.bot.restore()
    (again,) = second_store._games.values()
    assert again.game_id == record.game_id
    assert again.moves == record.moves
