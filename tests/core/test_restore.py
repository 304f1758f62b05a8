"""Restarts through the bot: a game journaled by one bot is restored by the next (same folder,
a new process's clock), announced in one line when the bot is back in the channel, hands sent
again, nobody timed out for the downtime, and it plays on to a result recorded once."""

from __future__ import annotations

import argparse
import logging
import re
from pathlib import Path
from random import Random

import pytest

from tests.core.fakes import Harness, channel_lines, notices
from unobot.ai import Observation
from unobot.bench.soak import command_for
from unobot.core.bot import BotConfig
from unobot.core.computers import ComputerConfig
from unobot.core.journal import Journal
from unobot.core.table import Table
from unobot.engine.actions import Play
from unobot.irc.casemap import irc_lower
from unobot.irc.transport import Kind
from unobot.stats.background import BackgroundStats
from unobot.stats.memory import MemoryStatsStore
from unobot.stats.recorder import GameRecorder
from unobot.stats.sql import SqlStatsStore
from unobot.stats.worker import DbWorker

WALL = 1_700_000_000.0


def journaled(
    tmp_path: Path, seed: int, start: float, wall: float = WALL, config: BotConfig | None = None
) -> tuple[Harness, MemoryStatsStore]:
    """A harness whose bot journals into ``tmp_path`` and records into a memory store; its
    clock starts at ``start``, when the wall clock says ``wall``."""
    h = Harness(seed=seed, config=config)
    h.clock.time = start
    h.bot.journal = Journal(tmp_path, h.clock.now, wall=lambda: wall + h.clock.time - start)
    store = MemoryStatsStore(network="")
    h.bot.store = store
    h.bot.recorder = GameRecorder.following(store, "", h.clock)
    return h, store


def restarted(
    tmp_path: Path, died_at: float, later: float, seed: int = 9
) -> tuple[Harness, MemoryStatsStore]:
    """The next bot on the same folder: its monotonic clock starts anew at 5.0, and the wall
    clock says ``later`` seconds passed since the first bot (started at 1,000) died."""
    second, store = journaled(tmp_path, seed=seed, start=5.0)
    second.bot.journal = Journal(
        tmp_path,
        second.clock.now,
        wall=lambda: WALL + (died_at - 1_000.0) + later + second.clock.time - 5.0,
    )
    return second, store


def state(table: Table) -> tuple[object, ...]:
    game = table.game
    assert game is not None
    return (
        [list(game.hand(i)) for i in range(game.n)],
        list(game.draw_pile),
        list(game.discard),
        game.current,
        game.direction,
        game.phase,
        table.names,
        table.rng.getstate(),
    )


def test_a_game_is_restored_announced_and_played_to_one_record(tmp_path: Path) -> None:
    first, first_store = journaled(tmp_path, seed=4, start=1_000.0)
    first.start(["alice", "bob", "carol"])
    table = first.bot.tables["#uno"]
    rng = Random(9)
    for _ in range(25):
        first.clock.time += 2
        nick, text = command_for(table, rng)
        first.say(nick, text)
        if table.finished:
            break
    assert not table.finished
    before = state(table)
    died_at = first.clock.time
    # SIGKILL: nothing more from the first bot. A new one starts 40 s later (wall time) on a
    # monotonic clock that begins anew.
    second, second_store = restarted(tmp_path, died_at, 40, seed=99)
    assert second.bot.restore() == 1
    restored = second.bot.tables["#uno"]
    assert state(restored) == before
    # Nothing is said, and no turn timer runs, until the bot is back in the channel (within
    # the seat grace and a minute to connect: else the game is dropped, see below).
    assert second.advance(100) == []
    sent = second.event(Kind.JOIN, "unobot", "#uno")
    lines = channel_lines(sent)
    assert len(lines) == 1 and lines[0].startswith("Restored after a restart: the game goes on.")
    assert "'s turn" in lines[0] or " picks" in lines[0] or " must" in lines[0]
    mover = restored.names[restored.game.current]
    for nick in ("alice", "bob", "carol"):
        # the player to move as their turn brings it, the playable cards marked
        start = "Your turn | Your cards" if nick == mover else "Your cards"
        assert any(n.startswith(start) for n in notices(sent, nick)), (nick, mover)
    # The player to move has a whole turn again: nobody was timed out for the downtime.
    timeout = restored.config.turn_timeout
    quiet = second.advance(timeout - 5)
    assert not any("timed out" in t or "draws" in t for t in channel_lines(quiet)), quiet
    # It plays on to the end in the new bot; the game is recorded once, by its journal's id.
    for _ in range(3000):
        if restored.finished:
            break
        second.clock.time += 1
        nick, text = command_for(restored, rng)
        second.say(nick, text)
    assert restored.finished
    assert "#uno" not in second.bot.tables
    assert second.bot.journal is not None and second.bot.journal.settle()
    assert list(tmp_path.glob("*.jsonl")) == []  # the journal of an ended game goes
    assert first_store.player("alice", min_games=1) is None
    stats = second_store.player("alice", min_games=1)
    assert stats is not None and stats.games == 1


def test_a_game_that_ended_just_before_the_kill_is_recorded_once(tmp_path: Path) -> None:
    """Killed after the winning card was journaled but before the game was recorded: the
    replay ends the game again and the recorder records it, under the same id, so a record
    that did make it is not doubled."""
    first, first_store = journaled(tmp_path, seed=6, start=1_000.0)
    first.start(["alice", "bob"])
    table = first.bot.tables["#uno"]
    rng = Random(2)
    files = list(tmp_path.glob("*.jsonl"))
    saved = None
    while not table.finished:
        first.clock.time += 1
        saved = files[0].read_bytes()  # the journal just before this move
        nick, text = command_for(table, rng)
        first.say(nick, text)
    assert first_store.player("alice", min_games=1) is not None  # recorded by the first bot
    # Put back the journal as a kill between the last move and the record would leave it:
    # the last move written, the file not yet removed.
    assert saved is not None
    assert first.bot.journal is not None and first.bot.journal.settle()  # the file went
    files[0].write_bytes(saved)
    second, _ = journaled(tmp_path, seed=1, start=5.0)
    second.bot.store = first_store  # the same stats database
    second.bot.recorder = GameRecorder.following(first_store, "", second.clock)
    rest = Journal(tmp_path, second.clock.now)
    second.bot.journal = rest
    # Replaying stops one move short of the end: the game is restored, not finished.
    assert second.bot.restore() == 1
    restored = second.bot.tables["#uno"]
    assert restored.game_id == table.game_id
    second.event(Kind.JOIN, "unobot", "#uno")
    while not restored.finished:
        second.clock.time += 1
        nick, text = command_for(restored, rng)
        second.say(nick, text)
    games = [first_store.player(n, min_games=1) for n in ("alice", "bob")]
    assert [g.games for g in games if g is not None] == [1, 1]  # once, not twice


def test_a_restored_game_the_bot_cant_get_back_to_is_dropped_with_its_journal(
    tmp_path: Path,
) -> None:
    first, _ = journaled(tmp_path, seed=4, start=1_000.0)
    first.start(["alice", "bob"])
    second, _ = journaled(tmp_path, seed=5, start=1.0)
    assert second.bot.restore() == 1
    grace = second.bot.tables["#uno"].config.grace
    assert second.advance(grace + 61) == []
    assert second.bot.journal is not None and second.bot.journal.settle()
    assert second.bot.tables == {} and list(tmp_path.glob("*.jsonl")) == []


def test_farewell_says_one_line_per_game_and_keeps_the_journal(tmp_path: Path) -> None:
    h, _ = journaled(tmp_path, seed=3, start=10.0)
    h.start(["alice", "bob"])
    h.say("carol", ".uno", "#other")
    sent = h.advance(0)
    h.bot.farewell("unobot is restarting: this game will be restored when it is back.")
    said = [s for s in h.sent if s.text.startswith("unobot is restarting")]
    assert sorted(irc_lower(s.target) for s in said) == ["#other", "#uno"]
    assert len(list(tmp_path.glob("*.jsonl"))) == 2
    assert sent == []


def test_a_timed_match_keeps_its_remaining_time_across_a_restart(tmp_path: Path) -> None:
    first, _ = journaled(tmp_path, seed=8, start=1_000.0)
    first.say("alice", ".uno")
    first.say("bob", ".join")
    first.say("alice", ".deal 30m")
    first.clock.time += 600  # ten minutes into the match
    table = first.bot.tables["#uno"]
    first.say(*command_for(table, Random(1)))
    left_before = {k: v - first.clock.time for k, v in table.deadlines().items()}
    assert any(v > 1000 for v in left_before.values())  # the match's end, ~20 minutes away
    died_at = first.clock.time
    second, _ = journaled(tmp_path, seed=9, start=50.0)
    gone = WALL + (died_at - 1_000.0) + 300  # down for five minutes
    second.bot.journal = Journal(
        tmp_path, second.clock.now, wall=lambda: gone + second.clock.time - 50
    )
    assert second.bot.restore() == 1
    second.clock.time += 20  # connecting and joining
    second.event(Kind.JOIN, "unobot", "#uno")
    restored = second.bot.tables["#uno"]
    left_after = {k: v - second.clock.time for k, v in restored.deadlines().items()}
    longest = max(left_before, key=lambda k: left_before[k])
    assert left_after[longest] == left_before[longest]  # not a second lost to the downtime


def test_the_restore_benchmark_runs(capsys) -> None:  # type: ignore[no-untyped-def]
    from unobot.bench import main

    main(["restore", "--tables", "5", "--moves", "20"])
    out = capsys.readouterr().out
    assert "restore: 5 games in" in out and "(target < 5 s: ok)" in out


def test_the_soak_benchmark_loses_and_leaks_nothing(capsys) -> None:  # type: ignore[no-untyped-def]
    from unobot.bench import main

    main(["soak", "--channels", "4", "--rounds", "300", "--fault-rate", "0.05"])
    out = capsys.readouterr().out
    assert ", 0 lost (target 0), 0 hands leaked (target 0)" in out, out
    assert "restarts" in out
    # Half the channels seat computer players; those restored finish, never timed out.
    found = re.search(
        r"restored games with computer seats: (\d+), finished and recorded: (\d+); "
        r"computer seats out of time: 0 \(target 0\)",
        out,
    )
    assert found is not None, out


def test_the_soak_restores_games_with_computer_seats_that_all_finish() -> None:
    from unobot.bench.soak import add_arguments

    parser = argparse.ArgumentParser()
    add_arguments(parser)
    args = parser.parse_args(["--channels", "6", "--rounds", "400", "--fault-rate", "0.1"])
    result = args.run(args)
    assert result["lost"] == 0 and result["computer_timeouts"] == 0, result
    assert result["restored_computers"] >= 3, result
    assert result["restored_computers_finished"] == result["restored_computers"], result


def computer_views(h: Harness, table: Table) -> dict[str, Observation]:
    """What each computer seat of ``table`` would decide on now (its observer's view)."""
    state = h.bot.computers._tables[table]
    assert table.game is not None
    return {key: obs.observe(table.game) for key, obs in state.observers.items()}


def play_with_computers(h: Harness, table: Table, rng: Random, limit: int) -> list[str]:
    """alice moves at random when it is her turn; the computer seats on the clock. Returns
    the channel lines said meanwhile."""
    said: list[str] = []
    for _ in range(limit):
        if table.finished:
            break
        game = table.game
        assert game is not None
        if table.names[game.current] == "alice":
            h.clock.time += 1
            said += channel_lines(h.say(*command_for(table, rng)))
        else:
            said += channel_lines(h.advance(1.0))  # a computer seat moves after its pause
    return said


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_restored_computer_seats_know_what_they_knew_move_at_once_and_finish(
    tmp_path: Path, level: str, caplog: pytest.LogCaptureFixture
) -> None:
    """Killed on a computer seat's turn: after the restore each computer seat has exactly
    the view it had (rebuilt from the replayed events, not guessed), the seat to move moves
    after its pause, not after the turn timer, and the game plays to one record, no
    computer seat ever timed out."""
    config = BotConfig(bots=ComputerConfig(delay=0.5, playouts=8))
    first, _ = journaled(tmp_path, 1, 1_000.0, WALL, config)
    first.say("alice", ".uno")
    first.say("alice", f".addbot {level}")
    first.say("alice", f".addbot {level}")
    first.say("alice", ".deal")
    table = first.bot.tables["#uno"]
    rng = Random(4)
    play_with_computers(first, table, rng, 10)
    # On to alice's next move, which hands the turn to a computer seat: the kill comes while
    # that seat "thinks" (its move is due, not made).
    for _ in range(200):
        game = table.game
        assert game is not None and not table.finished
        if table.names[game.current] == "alice":
            first.clock.time += 1
            first.say(*command_for(table, rng))
            game = table.game
            if game is not None and not table.finished and table.names[game.current] != "alice":
                break
        else:
            first.advance(1.0)
    game = table.game
    assert game is not None and not table.finished
    mover = table.names[game.current]
    assert table.players[game.current].computer
    before, views = state(table), computer_views(first, table)
    gone = WALL + (first.clock.time - 1_000.0) + 30
    second, store = journaled(tmp_path, 2, 10.0, gone, config)
    caplog.set_level(logging.WARNING, "unobot.core.computers")
    assert second.bot.restore() == 1
    restored = second.bot.tables["#uno"]
    assert state(restored) == before
    assert [p.level for p in restored.players] == ["", level, level]
    # Each computer seat's knowledge is exactly what it was in the first process.
    assert computer_views(second, restored) == views
    joined = channel_lines(second.event(Kind.JOIN, "unobot", "#uno"))
    assert joined[0].startswith("Restored after a restart") and f"{mover}'s turn" in joined[0]
    # The computer seat to move does so within its pause (0.5 s, +30%), long before the
    # turn timer (a draw is said with what follows it: the table is what shows the move).
    assert channel_lines(second.advance(0.3)) == [] and state(restored) == before
    moved = channel_lines(second.advance(0.4))
    assert state(restored) != before
    said = play_with_computers(second, restored, rng, 3000)
    assert restored.finished
    assert not [line for line in moved + said if "ran out of time" in line]
    assert not [r for r in caplog.records if "no view" in r.getMessage()]
    alice = store.player("alice", min_games=1)
    assert alice is not None and alice.games == 1
    for name in restored.names[1:]:
        bot = store.player(f"$bot:{irc_lower(name)}", min_games=1)
        assert bot is not None and bot.games == 1, name


def test_players_gone_while_the_bot_was_down_get_the_seat_grace(tmp_path: Path) -> None:
    """The channel's member list when the bot is back (NAMES) says who left while it was
    away: their seats are held for the normal grace, then given up; a player who had left
    before the stop and is there again has their seat back."""
    first, _ = journaled(tmp_path, seed=4, start=1_000.0)
    first.start(["alice", "bob", "carol", "dave"])
    first.event(Kind.PART, "dave", "#uno")  # dave leaves before the stop: seat held
    died_at = first.clock.time
    second, _ = restarted(tmp_path, died_at, 20)
    assert second.bot.restore() == 1
    table = second.bot.tables["#uno"]
    second.event(Kind.JOIN, "unobot", "#uno")
    # A list without the bot in it is not trusted.
    assert second.event(Kind.NAMES, "", "#uno", text="alice") == []
    said = channel_lines(second.event(Kind.NAMES, "", "#uno", text="unobot alice carol dave"))
    assert said == ["bob left: their seat is held for 60s.", "dave is back."], said
    grace = table.config.grace
    assert grace == 60
    assert not any("bob" in line for line in channel_lines(second.advance(grace - 1)))
    out = channel_lines(second.advance(2))
    assert any(line.startswith("bob is out") for line in out), out
    assert table.names == ("alice", "carol", "dave") or set(table.names) == {
        "alice",
        "carol",
        "dave",
    }


def test_a_lobby_player_gone_while_the_bot_was_down_leaves_the_lobby(tmp_path: Path) -> None:
    first, _ = journaled(tmp_path, seed=4, start=1_000.0)
    first.say("alice", ".uno")
    first.say("bob", ".join")
    first.say("carol", ".join")
    second, _ = journaled(tmp_path, seed=9, start=5.0)
    assert second.bot.restore() == 1
    second.event(Kind.JOIN, "unobot", "#uno")
    second.event(Kind.NAMES, "", "#uno", text="unobot alice carol")
    assert second.bot.tables["#uno"].names == ("alice", "carol")


def winning_move(table: Table) -> tuple[str, str] | None:
    """The command that ends the game now (the player to move lays their last card), if any."""
    game = table.game
    assert game is not None
    seat = game.current
    if len(game.hand(seat)) != 1:
        return None
    for action in game.legal_actions(seat):
        if type(action) is Play:
            color = f" {action.color.letter.lower()}" if action.color is not None else ""
            return table.names[seat], f".p {action.card}{color}"
    return None


def test_after_the_farewell_a_move_is_refused_and_the_restart_undoes_nothing(
    tmp_path: Path,
) -> None:
    """The journal closes with the farewell while the process lives on for a moment: a move
    then is refused with a short reply (not shown, not lost to the restart), timers and the
    lobby stay still, and the restored game is exactly the game at the farewell."""
    h, store = journaled(tmp_path, seed=4, start=1_000.0)
    h.start(["alice", "bob", "carol"])
    table = h.bot.tables["#uno"]
    rng = Random(3)
    for _ in range(6):
        h.clock.time += 1
        h.say(*command_for(table, rng))
    before = state(table)
    journal_text = [p.read_bytes() for p in tmp_path.glob("*.jsonl")]
    h.bot.farewell("unobot is restarting: this game will be restored when it is back.")
    nick, text = command_for(table, rng)
    refused = h.say(nick, text)
    assert [(s.kind, s.target) for s in refused] == [("notice", nick)]
    assert refused[0].text.endswith("unobot is restarting: play again in a moment")
    assert state(table) == before
    # Nothing else changes either: no timeout however long the last moment lasts, no new
    # game, no departure, no UNO said in plain text.
    assert h.advance(table.config.turn_timeout * 3) == []
    assert channel_lines(h.say("dave", ".uno", "#other"), "#other") == []
    assert "#other" not in h.bot.tables
    h.event(Kind.PART, "carol", "#uno")
    h.say(nick, "uno")
    assert state(table) == before and table.players[2].away_since is None
    h.bot.farewell("unobot is restarting: this game will be restored when it is back.")
    assert sum(s.text.startswith("unobot is restarting: this game") for s in h.sent) == 1
    assert [p.read_bytes() for p in tmp_path.glob("*.jsonl")] == journal_text
    second, _ = restarted(tmp_path, h.clock.time, 10)
    assert second.bot.restore() == 1
    assert state(second.bot.tables["#uno"]) == before
    assert store.player("alice", min_games=1) is None


def test_a_winning_move_after_the_farewell_is_refused_and_won_once_after_the_restart(
    tmp_path: Path,
) -> None:
    first, first_store = journaled(tmp_path, seed=6, start=1_000.0)
    first.start(["alice", "bob"])
    table = first.bot.tables["#uno"]
    rng = Random(2)
    win = None
    for _ in range(3000):
        win = winning_move(table)
        if win is not None:
            break
        first.clock.time += 1
        first.say(*command_for(table, rng))
    assert win is not None and not table.finished
    before = state(table)
    first.bot.farewell("unobot is restarting: this game will be restored when it is back.")
    refused = first.say(*win)
    assert [s.text for s in refused] == ["unobot is restarting: play again in a moment"]
    assert not table.finished and state(table) == before
    assert first_store.player("alice", min_games=1) is None  # nothing recorded
    # The next process has the game as it was, and the winning card wins it there, once.
    second, second_store = restarted(tmp_path, first.clock.time, 10)
    assert second.bot.restore() == 1
    restored = second.bot.tables["#uno"]
    assert state(restored) == before
    second.event(Kind.JOIN, "unobot", "#uno")
    lines = channel_lines(second.say(*win))
    assert restored.finished, lines
    assert any("wins" in line for line in lines), lines
    players = [second_store.player(n, min_games=1) for n in ("alice", "bob")]
    assert [p.games for p in players if p is not None] == [1, 1]


def test_computer_seats_and_timers_stand_still_after_the_farewell(tmp_path: Path) -> None:
    config = BotConfig(bots=ComputerConfig(delay=0.5, playouts=8))
    h, _ = journaled(tmp_path, 1, 1_000.0, WALL, config)
    h.say("alice", ".uno")
    h.say("alice", ".addbot easy")
    h.say("alice", ".addbot normal")
    h.say("alice", ".deal")
    table = h.bot.tables["#uno"]
    game = table.game
    assert game is not None
    if table.names[game.current] == "alice":
        h.clock.time += 1
        h.say(*command_for(table, Random(1)))
    assert table.players[game.current].computer and not table.finished
    before = state(table)
    h.bot.farewell("unobot is restarting: this game will be restored when it is back.")
    assert h.advance(table.config.turn_timeout * 3) == []  # no computer move, no timeout
    assert state(table) == before


def sql_bot(
    tmp_path: Path, url: str, spool: Path, seed: int, start: float
) -> tuple[Harness, SqlStatsStore]:
    """A bot as ``unobot.main`` wires it (the SQL store behind its database worker, here
    inline), journaling into ``tmp_path / "tables"``."""
    h = Harness(seed=seed)
    h.clock.time = start
    store = SqlStatsStore(url, network="", spool_path=spool, retry_interval=0.0)
    stats = BackgroundStats(store, DbWorker(h.clock))
    h.bot.store = stats  # type: ignore[assignment]
    h.bot.recorder = GameRecorder.following(stats, "", h.clock)  # type: ignore[arg-type]
    h.bot.journal = Journal(tmp_path / "tables", h.clock.now)
    return h, store


def test_a_finished_game_nothing_can_store_keeps_its_journal_and_is_recorded_next_start(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The stats database and its spool both refuse a finished game (their folder unusable:
    here a path through a plain file, which even root can't write): the game is kept in
    memory and retried, its journal is kept instead of recycled, and the operator is told at
    ERROR what to do. The next start, with the disk fixed, records it from the journal, once."""
    (tmp_path / "ro").write_text("a file, not a folder")
    broken = f"sqlite:///{tmp_path / 'ro' / 'stats.db'}"
    h, store = sql_bot(tmp_path, broken, tmp_path / "ro" / "stats.db.spool", 6, 1_000.0)
    caplog.set_level(logging.WARNING)
    h.start(["alice", "bob"])
    table = h.bot.tables["#uno"]
    game_id = table.game_id
    rng = Random(2)
    while not table.finished:
        h.clock.time += 1
        h.say(*command_for(table, rng))
    assert h.bot.tables == {}
    assert store.pending == 1  # in memory, retried
    kept = tmp_path / "tables" / f"{game_id}.jsonl"
    assert kept.exists()
    errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert any(
        f"its journal {kept} is kept and the next start records" in e and "writable" in e
        for e in errors
    ), errors
    caplog.clear()
    store.close()  # the process ends with the game still in memory: said, with its id
    assert any(
        "lost with this process" in r.getMessage() and game_id in r.getMessage()
        for r in caplog.records
        if r.levelno >= logging.ERROR
    )
    # The operator fixes the disk (here: another folder) and starts the bot again.
    good = f"sqlite:///{tmp_path / 'stats.db'}"
    for attempt in range(2):  # a second start changes nothing
        again, fixed = sql_bot(tmp_path, good, tmp_path / "stats.db.spool", 7, 5.0)
        assert again.bot.restore() == 0
        assert again.bot.journal is not None and again.bot.journal.settle()
        assert not kept.exists(), attempt
        alice = fixed.player("alice", min_games=1)
        assert alice is not None and alice.games == 1
        assert fixed.game(game_id) is not None
        fixed.close()


def test_a_game_kept_in_memory_only_is_written_when_the_database_takes_it(
    tmp_path: Path,
) -> None:
    """A spool that refuses while the database answers is no loss at all: the game goes
    straight to the database, and the journal is recycled as usual."""
    (tmp_path / "ro").write_text("a file, not a folder")
    url = f"sqlite:///{tmp_path / 'stats.db'}"
    h, store = sql_bot(tmp_path, url, tmp_path / "ro" / "stats.db.spool", 6, 1_000.0)
    h.start(["alice", "bob"])
    table = h.bot.tables["#uno"]
    rng = Random(2)
    while not table.finished:
        h.clock.time += 1
        h.say(*command_for(table, rng))
    assert store.pending == 0 and store.game(table.game_id) is not None
    assert h.bot.journal is not None and h.bot.journal.settle()
    assert list((tmp_path / "tables").glob("*.jsonl")) == []
    store.close()
