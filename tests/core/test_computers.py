"""Computer players at a table: ``.addbot`` / ``.removebot``, their turns, stale decisions, stats.

The person at the table is an :class:`~tests.core.fakes.Agent` who acts only on their NOTICEs
and the channel's lines; the computer players move on the bot's timers (delay 0 here, so
``advance(0)`` lets them play).
"""

from __future__ import annotations

import logging
import re
from random import Random

import pytest

from tests.core.fakes import Agent, Harness, Seen, Sent, channel_lines, notices, read_status
from unobot.ai import Observation, Observer
from unobot.core.bot import BotConfig
from unobot.core.computers import ComputerConfig, InlineDecider, decide
from unobot.core.table import TableConfig
from unobot.engine import preset
from unobot.irc.casemap import irc_lower
from unobot.stats import PlayerResult, Ranking
from unobot.stats.memory import MemoryStatsStore

FAST = ComputerConfig(delay=0.0, playouts=24)


def harness(
    seed: int = 1, rules: str = "irc-classic", bots: ComputerConfig = FAST, **table: object
) -> Harness:
    config = BotConfig(
        table=TableConfig(rules=preset(rules), **table),  # type: ignore[arg-type]
        bots=bots,
    )
    return Harness(seed, config)


def with_store(h: Harness) -> MemoryStatsStore:
    """Give the harness's bot a memory stats store (the recorder is made by the bot)."""
    from unobot.stats.recorder import GameRecorder

    store = MemoryStatsStore(network="")
    h.bot.store = store
    h.bot.recorder = GameRecorder(store, "", GameRecorder.utc_from(h.clock))
    return store


# --- adding and removing ---------------------------------------------------------------------


def test_addbot_default_names_levels_and_removebot() -> None:
    h = harness()
    h.say("alice", ".uno")
    said = channel_lines(h.say("alice", ".addbot"))
    assert said == ["NormalBot1 (computer, normal) joins (2 players)."]
    said = channel_lines(h.say("alice", ".addbot hard"))
    assert said == ["HardBot1 (computer, hard) joins (3 players)."]
    said = channel_lines(h.say("alice", ".addbot EASY Rookie"))
    assert said == ["Rookie (computer, easy) joins (4 players)."]
    table = h.bot.tables["#uno"]
    assert [(p.nick, p.level) for p in table.players] == [
        ("alice", ""), ("NormalBot1", "normal"), ("HardBot1", "hard"), ("Rookie", "easy"),
    ]  # fmt: skip
    assert table.players[2].key == "$bot:hardbot1"
    assert channel_lines(h.say("alice", ".removebot")) == ["Rookie leaves."]
    assert channel_lines(h.say("alice", ".removebot hardbot1")) == ["HardBot1 leaves."]
    assert [p.nick for p in table.players] == ["alice", "NormalBot1"]
    assert channel_lines(h.say("alice", ".addbot normal")) == [
        "NormalBot2 (computer, normal) joins (3 players)."
    ]


@pytest.mark.parametrize(
    ("args", "error"),
    [
        (".addbot impossible", "the level comes first"),
        (".addbot hard a b", "usage"),
        (".addbot hard 9lives", "is a nick"),
        (".addbot hard bad\x02name", "is a nick"),
        (".addbot hard averyveryverylongname", "is a nick"),
        (".addbot hard #chan", "is a nick"),
        (".addbot hard alice", "already taken"),
        (".addbot hard UNOBOT", "already taken"),  # the bot's own nick
        (".removebot nobody", "no computer player of that name"),
        (".removebot alice", "no computer player of that name"),
        (".removebot", "no computer player in this game"),
    ],
)
def test_bad_input_is_refused_without_echoing_it(args: str, error: str) -> None:
    h = harness()
    h.say("alice", ".uno")
    out = h.say("alice", args)
    replies = notices(out, "alice")
    assert len(replies) == 1 and error in replies[0], replies
    assert "\x02" not in out[0].text and "averyvery" not in out[0].text
    assert not channel_lines(out)
    assert [p.nick for p in h.bot.tables["#uno"].players] == ["alice"]


def test_limits_rights_and_the_lobby_only() -> None:
    h = harness(rules="knockout")  # up to 4 players
    h.say("alice", ".uno")
    assert "only players in this game" in notices(h.say("mallory", ".addbot"), "mallory")[0]
    assert channel_lines(h.say("oper", ".addbot", is_op=True))  # an operator may
    h.say("bob", ".join")
    assert channel_lines(h.say("bob", ".addbot easy"))  # any seated player may
    assert "the game is full (4 players)" in notices(h.say("alice", ".addbot"), "alice")[0]
    assert "only players" in notices(h.say("mallory", ".removebot"), "mallory")[0]
    h.say("alice", ".deal")
    assert "before the deal" in notices(h.say("alice", ".addbot"), "alice")[0]
    assert "before the deal" in notices(h.say("alice", ".removebot"), "alice")[0]


def test_addbot_can_be_turned_off() -> None:
    h = harness(bots=ComputerConfig(enabled=False))
    h.say("alice", ".uno")
    assert "turned off" in notices(h.say("alice", ".addbot"), "alice")[0]


def test_a_person_with_a_computer_players_nick_cannot_act_for_it() -> None:
    h = harness(turn_timeout=1000)
    h.say("alice", ".uno")
    h.say("alice", ".addbot easy Zed")
    assert "computer player here has your nick" in notices(h.say("zed", ".join"), "zed")[0]
    h.say("alice", ".deal")
    table = h.bot.tables["#uno"]
    # Zed on the network can't play, leave or rename the computer seat, nor get its hand.
    from unobot.irc.transport import Kind

    h.event(Kind.PART, "Zed", "#uno")
    h.event(Kind.NICK, "Zed", new_nick="Zod")
    assert notices(h.say("Zed", ".leave"), "Zed")
    assert [p.nick for p in table.players] == ["alice", "Zed"]
    assert table.players[1].away_since is None
    assert not any("Your cards" in t for t in notices(h.sent, "zed") + notices(h.sent, "Zed"))


def test_the_lobby_closes_when_only_computer_players_are_left() -> None:
    h = harness()
    h.say("alice", ".uno")
    h.say("bob", ".join")
    h.say("alice", ".addbot")
    h.say("alice", ".leave")
    assert h.bot.tables["#uno"].starter == "bob"  # a person deals, never a computer player
    h.say("bob", ".leave")
    assert "#uno" not in h.bot.tables


def test_the_game_ends_when_the_last_person_leaves() -> None:
    h = harness(turn_timeout=1000)
    store = with_store(h)
    h.say("alice", ".uno")
    h.say("alice", ".addbot easy")
    h.say("alice", ".addbot normal")
    h.say("alice", ".deal")
    h.advance(0)  # the computer players move until it is alice's turn
    said = channel_lines(h.say("alice", ".leave"))
    assert "The game is over: no person is left in the game." in " ".join(said)
    assert "#uno" not in h.bot.tables
    assert not channel_lines(h.advance(100))  # nothing moves any more
    assert not store._games  # no hand was completed: nothing to record


def test_one_person_and_one_computer_player_make_a_game() -> None:
    """The starter (always a person) deals a table of one person and a computer player."""
    h = harness()
    h.say("alice", ".uno")
    h.say("alice", ".addbot")
    table = h.bot.tables["#uno"]
    assert table.starter == "alice"
    assert "wait" not in " ".join(notices(h.say("alice", ".deal"), "alice"))
    assert table.dealt


# --- playing ---------------------------------------------------------------------------------


class HumanVsComputers:
    """One person (an Agent reading only their NOTICEs and the channel) against computers."""

    def __init__(self, h: Harness, levels: list[str], seed: int = 0, *, uno: bool = False):
        self.h = h
        self.agent = Agent("alice", Random(seed), follow_hints=True, call_uno=uno)
        start = len(h.sent)
        h.say("alice", ".uno")
        for level in levels:
            h.say("alice", f".addbot {level}")
        h.say("alice", ".deal")
        self.first = start
        self.read = start
        self.drawn = False
        self.turns = 0

    @property
    def running(self) -> bool:
        return "#uno" in self.h.bot.tables

    def catch_up(self) -> list[str]:
        """Let the computer players move until it is alice's turn (or the game is over);
        alice reads everything the bot sent meanwhile."""
        self.h.advance(0)  # runs every move that comes due at once, one after another
        seen = self.status()
        if self.running and (seen is None or irc_lower(seen.turn) != "alice"):
            # alice missed an UNO call: the computer players wait out her grace first
            self.h.advance(self.h.bot.config.bots.uno_grace)
        self._feed(self.h.sent[self.read :])
        self.read = len(self.h.sent)
        if not self.running:
            return []
        seen = self.status()
        assert seen is not None and irc_lower(seen.turn) == "alice", "the computers stopped"
        return []

    def status(self) -> Seen | None:
        """The channel's last status; a long update (a hand's end and the next deal) may
        split it over two lines."""
        lines = channel_lines(self.h.sent[self.first :])
        for k in (1, 2, 3):
            seen = read_status([" ".join(lines[-k:])])
            if seen is not None:
                return seen
        return None

    def _feed(self, batch: list[Sent]) -> None:
        for text in notices(batch, "alice"):
            self.agent.read_notice(text)

    def step(self) -> None:
        seen = self.status()
        assert seen is not None and irc_lower(seen.turn) == "alice"
        if seen.phase == "picks":
            command = ".color r"
        elif seen.phase == "must":
            command = ".draw"
        else:
            command = self.agent.choose(seen.top, seen.color, self.drawn)
        out = self.h.say("alice", command)
        self.read = len(self.h.sent)
        replies = [t for t in notices(out, "alice") if "Your cards" not in t]
        assert not replies, (command, replies, self.agent.hand, seen)
        if command.startswith((".p ", ".play")):
            self.agent.played(command)
        self._feed(out)
        self.drawn = not channel_lines(out)
        if not self.drawn:
            self.turns += 1

    def finish(self) -> list[str]:
        for _ in range(3000):
            self.catch_up()
            if not self.running:
                return channel_lines(self.h.sent[self.first :])
            self.step()
        pytest.fail("game did not end")


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
@pytest.mark.parametrize("rules", ["irc-classic", "official"])
def test_one_person_against_three_computer_players(level: str, rules: str) -> None:
    h = harness(seed=5, rules=rules, turn_timeout=10_000)
    store = with_store(h)
    game = HumanVsComputers(h, [level] * 3, seed=2, uno=rules == "official")
    lines = game.finish()
    assert any("wins the" in line for line in lines), lines[-3:]
    assert not any("ran out of time" in line for line in lines)
    names = ["alice", *(f"{level.capitalize()}Bot{n}" for n in (1, 2, 3))]
    # Hands went to alice only; the computer players never got a NOTICE.
    assert {s.target for s in h.sent if s.kind == "notice"} <= {"alice"}
    assert not h.bot.tables and h.clock.pending == 0
    if rules == "official":  # a match to 500: recorded at its end
        pass
    records = list(store._games.values())
    assert len(records) == 1
    results = {r.nick: r for r in records[0].results}
    assert set(results) == set(names)
    assert not results["alice"].is_bot and results["alice"].ident == "alice"
    for name in names[1:]:
        assert results[name].is_bot and results[name].ident == "$bot:" + irc_lower(name)


def test_computer_players_catch_and_challenge_a_person_within_the_rules_window() -> None:
    """Official rules (manual UNO, catch until the next turn, WD4 challenge): alice never calls
    UNO, and the computer players catch her out of turn, and challenge her Wild Draw Fours."""
    found: set[str] = set()
    for seed in range(12):
        h = harness(seed=seed, rules="official", turn_timeout=10_000)
        text = " ".join(HumanVsComputers(h, ["normal", "normal", "hard"], seed=seed).finish())
        found |= {what for what in ("catches alice", "challenges alice") if what in text}
        if len(found) == 2:
            break
    assert found == {"catches alice", "challenges alice"}


def test_computer_players_stack_where_the_rules_allow() -> None:
    stack = re.compile(r"Bot\d plays \S*D2, \S+ must draw [468]|Bot\d plays WD4.*must draw 8")
    for seed in range(6):
        h = harness(seed=seed, rules="ocuk-tournament", turn_timeout=10_000)
        lines = HumanVsComputers(h, ["normal", "normal", "hard"], seed=seed).finish()
        if any(stack.search(line) for line in lines):
            return
    pytest.fail("no computer player stacked")


def test_computer_turns_wait_for_the_configured_pause() -> None:
    h = harness(bots=ComputerConfig(delay=2.0), turn_timeout=1000)
    h.say("alice", ".uno")
    h.say("alice", ".addbot easy")
    h.say("alice", ".deal")
    table = h.bot.tables["#uno"]
    alice_moves(h)
    assert table.game is not None and table.game.current == 1
    version = h.bot.computers._tables[table].version
    assert not channel_lines(h.advance(1.0))  # 2 s ±30%: not yet
    assert channel_lines(h.advance(2.0))
    assert h.bot.computers._tables[table].version > version


# --- stale decisions -------------------------------------------------------------------------


class SlowDecider:
    """Holds decisions until the test releases them, as a worker process would."""

    def __init__(self) -> None:
        self.inline = InlineDecider(playouts=8)
        self.waiting: list[tuple[object, ...]] = []

    def submit(self, level, seed, obs, done) -> None:  # type: ignore[no-untyped-def]
        self.waiting.append((level, seed, obs, done))

    def release(self) -> None:
        waiting, self.waiting = self.waiting, []
        for level, seed, obs, done in waiting:
            self.inline.submit(level, seed, obs, done)  # type: ignore[arg-type]

    def close(self) -> None:
        pass


def slow_harness() -> tuple[Harness, SlowDecider]:
    from unobot.core.bot import Bot

    h = harness(turn_timeout=1000)
    slow = SlowDecider()
    h.bot = Bot(h.transport, h.clock, h.settings, h.bot.config, rng=Random(3), decider=slow)
    return h, slow


def computer_to_move(h: Harness) -> None:
    h.say("alice", ".uno")
    h.say("alice", ".addbot hard")
    h.say("alice", ".deal")
    alice_moves(h)


def alice_moves(h: Harness) -> None:
    """alice plays (or draws, or passes) until it is the computer player's turn."""
    from unobot.engine.actions import Play

    table = h.bot.tables["#uno"]
    while table.game is not None and table.game.current == 0:
        action = table.game.legal_actions(0)[0]
        if type(action) is Play:
            color = " r" if action.card.is_wild else ""
            h.say("alice", f".play {action.card.text}{color}")
        else:
            h.say("alice", "." + type(action).__name__.lower())


def test_a_decision_for_a_stopped_game_is_dropped() -> None:
    h, slow = slow_harness()
    computer_to_move(h)
    assert slow.waiting
    h.say("alice", ".unostop")
    h.say("alice", ".uno")  # a new game in the same channel
    before = len(h.sent)
    slow.release()
    h.advance(5)
    assert h.sent[before:] == []


def test_a_decision_for_a_changed_table_is_dropped_and_asked_again() -> None:
    h, slow = slow_harness()
    computer_to_move(h)
    table = h.bot.tables["#uno"]
    assert len(slow.waiting) == 1
    stale = slow.waiting[0]
    # The computer player times out while it thinks: the table moved on.
    h.advance(1000)
    assert table.game is not None
    slow.waiting = [w for w in slow.waiting if w is not stale]
    before = len(h.sent)
    level, seed, obs, done = stale
    done(decide(level, seed, obs, 200, 8))  # type: ignore[arg-type, operator]
    h.advance(0)
    assert not channel_lines(h.sent[before:])  # the old answer changed nothing


# --- stats -----------------------------------------------------------------------------------


def test_computer_players_are_kept_out_of_human_leaderboards() -> None:
    from datetime import UTC, datetime

    from unobot.stats import GameRecord

    store = MemoryStatsStore(network="")
    t = datetime(2026, 11, 1, tzinfo=UTC)
    for i in range(6):
        store.record_game(
            GameRecord(
                f"g{i}", "", "#uno", "official", t, t,
                (
                    PlayerResult("$bot:hardbot1", "HardBot1", 1, True, 100, 0, is_bot=True),
                    PlayerResult("alice", "alice", 2, False, 0, 10),
                ),
            )
        )  # fmt: skip
    h = harness()
    h.bot.store = store
    board = notices(h.pm("bob", ".unotop10"), "bob") + channel_lines(h.say("bob", ".unotop10"))
    assert any("alice" in line for line in board) and not any("HardBot1" in b for b in board)
    h.clock.advance(20)
    line = channel_lines(h.say("carol", ".unostats HardBot1"))[0]
    assert line.startswith("HardBot1: 6 games, 6 wins") and "computer player" in line
    assert store.leaderboard(Ranking.PERCENT_WINS, 10, include_bots=True)[0].nick == "HardBot1"


def opening_observation() -> Observation:
    """What the first player of a dealt four-player official game sees."""
    from unobot.engine import Game

    rules = preset("official")
    game, events = Game.deal(4, rules, Random(2))
    observer = Observer(game.current, 4, rules)
    observer.see(events)
    return observer.observe(game)


def test_the_pool_decides_hard_moves_in_a_worker_process_and_answers_through_the_reactor() -> None:
    """``hard`` goes to a worker process and its answer comes back through the callback given
    for the reactor (here a queue the test drains); other levels are answered inline."""
    import queue

    from unobot.core.computers import PoolDecider

    obs = opening_observation()
    calls: queue.Queue = queue.Queue()
    pool = PoolDecider(1, calls.put, playouts=16)
    got: list[object] = []
    try:
        pool.submit("normal", 1, obs, got.append)
        assert len(got) == 1 and calls.empty()  # inline
        pool.submit("hard", 1, obs, got.append)
        assert len(got) == 1
        calls.get(timeout=60)()  # what the reactor would run
        assert len(got) == 2 and got[1] in obs.legal
    finally:
        pool.close()


def test_games_with_computer_players_in_the_sql_store(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Real games recorded in SQLite: the computer players are stored as such, out of the
    people's leaderboards, and still found by name."""
    from unobot.stats.recorder import GameRecorder
    from unobot.stats.sql import SqlStatsStore

    store = SqlStatsStore(f"sqlite:///{tmp_path / 'stats.db'}", network="")
    config = BotConfig(
        table=TableConfig(rules=preset("irc-classic"), turn_timeout=10_000),
        bots=FAST,
        stats_min_games=1,
        stats_cooldown=0.0,
    )
    h = Harness(4, config)
    h.bot.store = store
    h.bot.recorder = GameRecorder(store, "", GameRecorder.utc_from(h.clock))
    try:
        for seed in range(2):
            HumanVsComputers(h, ["easy", "hard"], seed=seed).finish()
        top = channel_lines(h.say("bob", ".unotop10"))
        assert top and "alice" in top[0] and "Bot" not in " ".join(top)
        line = channel_lines(h.say("bob", ".unostats HardBot1"))[0]
        assert line.startswith("HardBot1: 2 games") and "computer player" in line
        line = channel_lines(h.say("bob", ".unostats $bot:hardbot1"))[0]
        assert line.startswith("HardBot1: 2 games")
        stats = store.player("$bot:easybot1", min_games=1)
        assert stats is not None and stats.is_bot and stats.games == 2
        with_bots = store.leaderboard(Ranking.PERCENT_WINS, 5, min_games=1, include_bots=True)
        assert {s.nick for s in with_bots} == {"alice", "EasyBot1", "HardBot1"}
    finally:
        store.close()


def test_a_worker_answer_for_a_stopped_game_is_dropped() -> None:
    """The real pool: a hard decision in flight when the game stops changes nothing when its
    answer reaches the reactor."""
    import queue

    from unobot.core.bot import Bot
    from unobot.core.computers import PoolDecider

    calls: queue.Queue = queue.Queue()
    h = harness(turn_timeout=1000)
    pool = PoolDecider(1, calls.put, playouts=16)
    h.bot = Bot(h.transport, h.clock, h.settings, h.bot.config, rng=Random(3), decider=pool)
    try:
        computer_to_move(h)
        h.say("alice", ".unostop")
        before = len(h.sent)
        calls.get(timeout=60)()  # the answer arrives on the reactor
        h.advance(5)
        assert h.sent[before:] == []
    finally:
        pool.close()


# --- a strategy or a worker that fails -------------------------------------------------------


class IllegalDecider:
    """Answers every computer turn with a card the seat doesn't hold (a strategy bug)."""

    def submit(self, level, seed, obs, done) -> None:  # type: ignore[no-untyped-def]
        from unobot.engine.actions import Play
        from unobot.engine.cards import Card

        held = set(obs.hand)
        card = next(c for c in (Card.parse(t) for t in ("R0", "G0", "B0", "Y0")) if c not in held)
        done(Play(card) if obs.my_turn else None)

    def close(self) -> None:
        pass


def test_a_refused_computer_move_is_replaced_by_a_legal_one_at_once() -> None:
    from unobot.core.bot import Bot

    h = harness(turn_timeout=1000)
    h.bot = Bot(
        h.transport, h.clock, h.settings, h.bot.config, rng=Random(3), decider=IllegalDecider()
    )
    computer_to_move(h)
    table = h.bot.tables["#uno"]
    assert table.game is not None and table.game.current == 1
    out = h.advance(0)  # no turn timer needed: the computer player moved
    assert table.game is None or table.game.current != 1 or table.game.drawn is not None
    assert channel_lines(out)


def test_a_failing_worker_is_replaced_by_a_normal_decision() -> None:
    import queue

    from unobot.core.computers import PoolDecider

    obs = opening_observation()
    calls: queue.Queue = queue.Queue()
    pool = PoolDecider(1, calls.put, playouts=16)
    got: list[object] = []
    try:
        pool.submit("hard", 1, obs, got.append)
        pool._pool.shutdown(wait=True, cancel_futures=True)  # type: ignore[union-attr]
        pool.submit("hard", 2, obs, got.append)  # the pool is gone: decided inline as normal
        assert len(got) == 1 and got[0] in obs.legal
    finally:
        pool.close()


def _first_observation() -> Observation:
    """The view of the first player to move in a seeded hand (for a worker to decide on)."""
    from unobot.engine import Game, preset

    rules = preset("official")
    game, events = Game.deal(3, rules, Random(1))
    observer = Observer(game.current, 3, rules)
    observer.see(events)
    return observer.observe(game)


def _running(pid: int) -> bool:
    """Whether process ``pid`` is there and not a zombie (one that has ended)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def test_a_hard_worker_ends_when_the_bot_is_killed(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """SIGKILL never lets the bot shut its pool down; its ``hard`` worker used to wait for
    ever (an orphan after every kill -9). It now watches its parent and ends with it."""
    import os
    import signal
    import subprocess
    import sys
    import time

    code = (
        "import sys, time, threading\n"
        "from unobot.core import computers\n"
        "computers.PARENT_CHECK_SECONDS = 0.1\n"
        "from tests.core.test_computers import _first_observation\n"
        "done = threading.Event()\n"
        "d = computers.PoolDecider(1, lambda f: f(), playouts=4)\n"
        "d.submit('hard', 1, _first_observation(), lambda a: done.set())\n"
        "done.wait(60)\n"
        "print(*d._pool._processes, flush=True)\n"
        "time.sleep(60)\n"
    )
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True,
                            cwd=root)  # fmt: skip
    assert proc.stdout is not None
    workers = [int(pid) for pid in proc.stdout.readline().split()]
    assert workers
    proc.send_signal(signal.SIGKILL)
    proc.wait(10)
    deadline = time.monotonic() + 10
    while any(_running(pid) for pid in workers):
        assert time.monotonic() < deadline, "the worker outlived the bot"
        time.sleep(0.05)


def test_hard_workers_ignore_ctrl_c_and_sigterm_and_end_when_the_pool_closes(
    capfd: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture
) -> None:
    """A terminal's Ctrl-C reaches the whole process group, the workers too (and systemd's
    SIGTERM the whole unit): a worker used to die of it with ``Process SpawnProcess-1:
    Traceback … KeyboardInterrupt``. Now the signal, even in the worker's first moments, is
    ignored: the worker answers on, prints nothing, and ends when the bot closes the pool."""
    import os
    import queue
    import signal
    import time

    from unobot.core.computers import PoolDecider

    obs = _first_observation()
    calls: queue.Queue = queue.Queue()
    pool = PoolDecider(1, calls.put, playouts=8)
    got: list[object] = []
    try:
        pool.submit("hard", 1, obs, got.append)
        workers = list(pool._pool._processes)  # type: ignore[union-attr]
        assert workers
        for pid in workers:  # at once: the worker is still starting
            os.kill(pid, signal.SIGINT)
        calls.get(timeout=60)()
        for pid in workers:
            os.kill(pid, signal.SIGINT)
            os.kill(pid, signal.SIGTERM)
        time.sleep(0.3)
        assert all(_running(pid) for pid in workers)
        pool.submit("hard", 2, obs, got.append)
        calls.get(timeout=60)()
        assert len(got) == 2 and all(a in obs.legal for a in got)
        assert list(pool._pool._processes) == workers  # type: ignore[union-attr]
        # Answered by the workers: a broken pool would have logged its fall-back.
        assert not [r for r in caplog.records if r.levelno >= logging.WARNING], caplog.text
    finally:
        pool.close()
    deadline = time.monotonic() + 10
    while any(os.path.exists(f"/proc/{pid}") and _running(pid) for pid in workers):
        assert time.monotonic() < deadline, "a worker outlived its pool"
        time.sleep(0.05)
    err = capfd.readouterr().err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err


def test_a_closed_pool_drops_its_decisions_without_a_word(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Decisions still queued when the bot stops are cancelled by the pool's shutdown: that
    is no failure to log (it used to be, with a traceback), and none is made afterwards."""
    import queue

    from unobot.core.computers import PoolDecider

    obs = _first_observation()
    calls: queue.Queue = queue.Queue()
    pool = PoolDecider(1, calls.put, playouts=400)
    got: list[object] = []
    for seed in range(1, 8):  # the first being decided, the others queued behind it
        pool.submit("hard", seed, obs, got.append)
    executor = pool._pool
    assert executor is not None
    manager = executor._executor_manager_thread  # type: ignore[attr-defined]
    pool.close()
    # The close waited for the pool's own thread to end: left running, the interpreter's exit
    # hook woke it through a pipe it had just closed (``OSError: Bad file descriptor`` printed
    # after a SIGTERM's stop line).
    assert manager is not None and not manager.is_alive()
    pool.submit("hard", 9, obs, got.append)  # after the stop: nothing
    executor.shutdown(wait=True)  # every decision out has finished or been cancelled
    while not calls.empty():
        calls.get()()
    assert got == []
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING], caplog.records


def test_the_default_decider_uses_workers_only_where_the_scheduler_can_be_woken() -> None:
    """``default_decider``: worker processes need a reactor callable from their threads."""
    from tests.core.fakes import FakeScheduler
    from unobot.core.computers import ComputerConfig, InlineDecider, PoolDecider, default_decider

    class Reactor(FakeScheduler):
        def call_soon_threadsafe(self, callback: object) -> None:
            raise AssertionError("not started: the pool starts on the first hard decision")

    assert isinstance(default_decider(FakeScheduler(), ComputerConfig()), InlineDecider)
    pool = default_decider(Reactor(), ComputerConfig())
    assert isinstance(pool, PoolDecider)
    pool.close()
    none = ComputerConfig(workers=0)
    assert isinstance(default_decider(Reactor(), none), InlineDecider)
