"""Soak: many channels playing for a long while under random faults (``bench soak``).

The real bot core (its plugins, tables, journal, recorder, the database worker inline) on a
recording transport and a manual clock, with simulated players who move as the engine allows,
typing the commands a person would. Between moves, faults are injected at random: the bot
killed and started again from its journal (a new ``Bot``, nothing carried over but the journal
folder and the stats store), the connection lost and back, the bot kicked and rejoining, a
player quitting and coming back within the seat grace, the stats store refusing every call for
a while. Half the channels seat computer players too (``--computers`` a game, easy, normal and
hard in turn), which must come back from every restart knowing what they knew and move at
once. It prints games finished (recorded), games lost (a game that vanished unrecorded),
hands leaked (a hand sent to anyone but its player, or shown in a channel), restored games
with computer seats and how many of them finished, computer seats that ran out of time (a
restored one without its view of the hand would, every turn), and memory as it goes
(tracemalloc, without the stats the store would keep: see :class:`Tally`), which should stay
flat. Targets: 0 lost, 0 leaked, 0 computer timeouts, memory flat.
"""

from __future__ import annotations

import argparse
import logging
import re
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from random import Random
from typing import Any

from unobot.ai.legal import without_voluntary_draw
from unobot.core.bot import Bot, BotConfig
from unobot.core.clock import ManualClock
from unobot.core.computers import ComputerConfig
from unobot.core.journal import Journal
from unobot.core.settings import MemorySettings
from unobot.core.table import Table
from unobot.engine.actions import (
    Action,
    CallUno,
    Catch,
    Challenge,
    ChooseColor,
    Draw,
    Pass,
    Play,
    Swap,
)
from unobot.engine.flip import FlipChoose, FlipPlay
from unobot.irc.casemap import irc_lower
from unobot.irc.transport import Incoming, Kind
from unobot.stats.memory import MemoryStatsStore
from unobot.stats.recorder import GameRecorder

__all__ = ["Clock", "Watch", "command_for", "play_random_move", "random_action", "run"]

BOT = "unobot"


def random_action(table: Table, rng: Random) -> tuple[str, Action]:
    """A legal action, chosen at random, of whoever is to move at ``table``, with their nick
    (a card rather than a draw the rules offer beside it: :func:`without_voluntary_draw`)."""
    game = table.game
    assert game is not None
    seat = game.current
    if table.flip:  # UNO Flip: the mover's actions, a card when there is one
        legal = game.legal_actions(seat)
        plays = [a for a in legal if type(a) is FlipPlay or type(a) is FlipChoose]
        pool = plays or list(legal)
        return table.names[seat], pool[int(rng.random() * len(pool))]  # type: ignore[return-value]
    if game.rules.jump_in:
        # Jump-In: whoever holds the card on top may jump in (half the time when one can).
        jumpers = [s for s in range(game.n) if game.jump_card(s) is not None]
        if jumpers and rng.random() < 0.5:
            seat = jumpers[int(rng.random() * len(jumpers))]
            plays = [a for a in game.legal_actions(seat) if type(a) is Play]
            return table.names[seat], plays[int(rng.random() * len(plays))]
    # A card when there is one to play: drawing at will, a random player would hoard cards.
    actions = without_voluntary_draw(game.legal_actions(seat), game.phase)
    return table.names[seat], actions[int(rng.random() * len(actions))]


def play_random_move(table: Table, rng: Random, now: float) -> None:
    """Make a random legal move at ``table`` through its own methods, at ``now``."""
    nick, action = random_action(table, rng)
    names = table.names
    if type(action) is Play:
        table.play(nick, action.card, action.color, now, uno=action.uno)
    elif type(action) is FlipPlay:
        table.play(nick, action.face, action.color, now, uno=action.uno)  # type: ignore[arg-type]
    elif type(action) is FlipChoose:
        table.choose_color(nick, action.color, now)  # type: ignore[arg-type]
    elif type(action) is Draw:
        table.draw(nick, now)
    elif type(action) is Pass:
        table.pass_turn(nick, now)
    elif type(action) is ChooseColor:
        table.choose_color(nick, action.color, now)
    elif type(action) is Challenge:
        table.challenge(nick, now)
    elif type(action) is CallUno:
        table.call_uno(nick, now)
    elif type(action) is Catch:
        table.catch(nick, names[action.target], now)
    elif type(action) is Swap:
        table.swap(nick, names[action.target], now)


def command_for(table: Table, rng: Random) -> tuple[str, str]:
    """A legal move for whoever may move, as the command a player would type."""
    nick, action = random_action(table, rng)
    names = table.names
    if type(action) is Play:
        text = f".p {action.card}"
        if action.color is not None:
            text += f" {action.color.letter.lower()}"
        return nick, text + (" uno" if action.uno else "")
    if type(action) is FlipPlay:
        text = f".p {action.face.text.lower()}"
        if action.color is not None:
            text += f" {action.color.letter.lower()}"
        return nick, text + (" uno" if action.uno else "")
    if type(action) is FlipChoose:
        return nick, f".color {action.color.letter.lower()}"
    if type(action) is Draw:
        return nick, ".draw"
    if type(action) is Pass:
        return nick, ".pass"
    if type(action) is ChooseColor:
        return nick, f".color {action.color.letter.lower()}"
    if type(action) is Challenge:
        return nick, ".challenge"
    if type(action) is CallUno:
        return nick, ".unocall"
    if type(action) is Swap:
        return nick, f".swap {names[action.target]}"
    assert type(action) is Catch
    return nick, f".catch {names[action.target]}"


Clock = ManualClock
"""The soak's scheduler (:class:`unobot.core.clock.ManualClock`; the name kept for callers)."""


class Watch:
    """The transport: counts lines and checks that no hand goes astray."""

    nickname = BOT
    _HAND = re.compile(r"Your cards \(")
    _COMPUTER_TIMEOUT = re.compile(r"^(Easy|Normal|Hard)Bot\d+ ran out of time")

    def __init__(self) -> None:
        self.lines = 0
        self.computer_timeouts = 0
        self.leaks: list[str] = []
        self.seats: Callable[[str], bool] = lambda nick: True
        self.before: set[str] = set()
        """Who sat at a table before the current step (a player removed by it, say after
        two timeouts, is told of their last draw: that is their own hand)."""

    def privmsg(self, target: str, text: str, tag: object = None) -> None:
        self.lines += 1
        if self._COMPUTER_TIMEOUT.search(text):
            self.computer_timeouts += 1
        if self._HAND.search(text):
            self.leaks.append(f"hand in channel {target}: {text[:60]}")

    def notice(self, target: str, text: str, tag: object = None) -> None:
        self.lines += 1
        if self._HAND.search(text) and not self.seats(target) and target not in self.before:
            self.leaks.append(f"hand to {target}, who holds no seat")


class Failing:
    """A stats store that can be made to refuse every call (a database that is away)."""

    def __init__(self, inner: MemoryStatsStore) -> None:
        self.inner = inner
        self.down = False

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self.inner, name)
        if not callable(attr):
            return attr

        def call(*args: Any, **kwargs: Any) -> Any:
            if self.down and name != "record_game":
                raise ConnectionError("stats database away")
            return attr(*args, **kwargs)

        return call


class Tally(MemoryStatsStore):
    """Keeps of each recorded game its id only. The real stores write games to a database;
    a memory store that kept them would grow with every game by design and hide whether the
    bot itself holds on to anything."""

    def __init__(self) -> None:
        super().__init__(network="")
        self.ids: set[str] = set()

    def record_game(self, game: Any) -> None:
        self.ids.add(game.game_id)


def _memory() -> float:
    """Bytes the bot holds (tracemalloc), without the soak's own bookkeeping (this module's
    sets of game ids; the id strings themselves, ~80 bytes a game, still count)."""
    snapshot = tracemalloc.take_snapshot().filter_traces(
        [tracemalloc.Filter(False, __file__), tracemalloc.Filter(False, tracemalloc.__file__)]
    )
    return float(sum(stat.size for stat in snapshot.statistics("filename")))


def run(args: argparse.Namespace) -> dict[str, float]:
    quiet = logging.getLogger("unobot")
    level = quiet.level
    quiet.setLevel(logging.ERROR)  # faults are logged by design; the soak counts them itself
    try:
        return _soak(args)
    finally:
        quiet.setLevel(level)
        tracemalloc.stop()


def _soak(args: argparse.Namespace) -> dict[str, float]:
    rng = Random(args.seed)
    tracemalloc.start()
    with tempfile.TemporaryDirectory(prefix="unobot-soak-") as tmp:
        folder = Path(tmp)
        clock = Clock()
        watch = Watch()
        store = Failing(Tally())
        channels = [f"#soak{n}" for n in range(args.channels)]
        players = {c: [f"p{n}x{i}" for i in range(args.players)] for c, n in
                   zip(channels, range(len(channels)), strict=True)}  # fmt: skip
        started: set[str] = set()  # game ids dealt
        restored_computers: set[str] = set()  # game ids restored with computer seats
        levels = ("easy", "normal", "hard")
        counts = {"restarts": 0, "disconnects": 0, "kicks": 0, "quits": 0, "db_down": 0}
        memory: list[tuple[int, float]] = []  # (games recorded, bytes held) as it goes

        def make_bot() -> Bot:
            bot = Bot(
                watch,  # type: ignore[arg-type]
                clock,  # type: ignore[arg-type]
                MemorySettings(),
                BotConfig(
                    stats_cooldown=0.0,
                    bots=ComputerConfig(delay=1.0, playouts=8, workers=0),
                ),
                rng=Random(rng.random()),
                store=store,  # type: ignore[arg-type]
                recorder=GameRecorder.following(store, "", clock),  # type: ignore[arg-type]
                journal=Journal(folder / "tables", clock.now),
            )
            return bot

        bot = make_bot()

        def seated(nick: str) -> bool:
            return any(t.has(nick) for t in bot.tables.values())

        watch.seats = seated

        def say(nick: str, channel: str, text: str) -> None:
            bot.handle(Incoming(Kind.MESSAGE, nick, channel, text))

        report_every = max(1, args.rounds // 8)
        began = time.perf_counter()

        def remember() -> None:
            watch.before = {p.nick for t in bot.tables.values() for p in t.players}

        for round_ in range(1, args.rounds + 1):
            remember()
            for channel in channels:
                table = bot.tables.get(irc_lower(channel))
                nicks = players[channel]
                if table is None:
                    say(nicks[0], channel, ".uno")
                    for nick in nicks[1:]:
                        say(nick, channel, ".join")
                    number = channels.index(channel)
                    if number % 2 == 0:
                        for _ in range(args.computers):
                            say(nicks[0], channel, f".addbot {levels[number // 2 % 3]}")
                    say(nicks[0], channel, ".deal")
                    table = bot.tables.get(irc_lower(channel))
                    if table is not None and table.game_id:
                        started.add(table.game_id)
                    continue
                if table.game is None or irc_lower(channel) in bot.holds:
                    continue
                if table.players[table.game.current].computer:
                    continue  # it moves on the clock, after its pause
                nick, text = command_for(table, rng)
                say(nick, channel, text)
            remember()
            clock.advance(rng.random() * 3)
            remember()
            # Faults.
            roll = rng.random()
            if roll < args.fault_rate * 0.25:  # SIGKILL and a new process on the journal
                counts["restarts"] += 1
                clock.kill()  # the old process's timers die with it
                if bot.journal is not None:  # and the kernel closes its files
                    bot.journal.close()
                clock.time += rng.random() * 60
                bot = make_bot()
                bot.restore()
                restored_computers.update(
                    t.game_id for t in bot.tables.values() if t.dealt and t.computers
                )
                for channel in channels:
                    bot.handle(Incoming(Kind.JOIN, BOT, channel))
            elif roll < args.fault_rate * 0.5:  # the connection lost, and back
                counts["disconnects"] += 1
                bot.handle(Incoming(Kind.DISCONNECTED, BOT, "", "ping timeout"))
                clock.advance(rng.random() * 20)
                bot.handle(Incoming(Kind.RECONNECTED, BOT))
                for channel in channels:
                    bot.handle(Incoming(Kind.JOIN, BOT, channel))
            elif roll < args.fault_rate * 0.7:  # kicked, and rejoining
                counts["kicks"] += 1
                channel = rng.choice(channels)
                bot.handle(Incoming(Kind.KICK, BOT, channel, "soak"))
                clock.advance(5)
                bot.handle(Incoming(Kind.JOIN, BOT, channel))
            elif roll < args.fault_rate * 0.9:  # a player quits and comes back in the grace
                counts["quits"] += 1
                channel = rng.choice(channels)
                nick = rng.choice(players[channel])
                bot.handle(Incoming(Kind.QUIT, nick, "", "netsplit"))
                clock.advance(rng.random() * 30)
                bot.handle(Incoming(Kind.JOIN, nick, channel))
            elif roll < args.fault_rate:  # the stats database away for a while
                counts["db_down"] += 1
                store.down = not store.down
            for table in bot.tables.values():
                if table.game_id:
                    started.add(table.game_id)
            if round_ % report_every == 0 or round_ == args.rounds:
                memory.append((len(store.inner.ids), _memory()))  # type: ignore[attr-defined]
                print(
                    f"round {round_}: {memory[-1][0]} games recorded, "
                    f"{len(bot.tables)} open, memory {memory[-1][1] / 1e6:.2f} MB"
                )
        # Everyone stops moving: every open game ends by the clocks (timeouts, the idle stop).
        store.down = False
        for _ in range(40):
            if not bot.tables:
                break
            clock.advance(600)
        recorded = set(store.inner.ids)  # type: ignore[attr-defined]
        open_ids = {t.game_id for t in bot.tables.values()}
        # A game stopped before any hand ended is not recorded by design; the soak's games
        # only stop by the clocks after moves, so every dealt game must be recorded.
        lost = started - recorded - open_ids
        seconds = time.perf_counter() - began
    print(
        f"faults: {counts['restarts']} restarts, {counts['disconnects']} disconnects, "
        f"{counts['kicks']} kicks, {counts['quits']} quits, {counts['db_down']} database "
        f"flips; {watch.lines} lines in {seconds:.1f} s"
    )
    print(f"games dealt: {len(started)}, finished and recorded: {len(recorded)}")
    print(
        f"restored games with computer seats: {len(restored_computers)}, finished and "
        f"recorded: {len(restored_computers & recorded)}; computer seats out of time: "
        f"{watch.computer_timeouts} (target 0)"
    )
    for leak in watch.leaks[:5]:
        print(f"  leak: {leak}")
    # Flat: from the second report on (the first still fills caches and the spare files),
    # what the bot holds per game recorded since.
    (games0, bytes0), (games1, bytes1) = memory[min(1, len(memory) - 1)], memory[-1]
    per_game = (bytes1 - bytes0) / max(1, games1 - games0)
    print(f"memory held: {bytes0 / 1e6:.2f} MB at {games0} games, {bytes1 / 1e6:.2f} MB at "
          f"{games1} ({per_game:+.0f} bytes a game)")  # fmt: skip
    print(f"soak: {len(recorded)} games finished, {len(lost)} lost (target 0), "
          f"{len(watch.leaks)} hands leaked (target 0), memory {per_game:+.0f} B/game "
          "(target flat)")  # fmt: skip
    return {"finished": len(recorded), "lost": len(lost), "leaked": len(watch.leaks),
            "bytes_per_game": per_game, "restored_computers": len(restored_computers),
            "restored_computers_finished": len(restored_computers & recorded),
            "computer_timeouts": watch.computer_timeouts}  # fmt: skip


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--channels", type=int, default=20)
    p.add_argument("--players", type=int, default=3)
    p.add_argument(
        "--computers", type=int, default=1, help="computer seats a game, every other channel"
    )
    p.add_argument("--rounds", type=int, default=4000, help="moves per channel, at most")
    p.add_argument("--fault-rate", type=float, default=0.02, help="chance of a fault a round")
    p.add_argument("--seed", type=int, default=1)
    p.set_defaults(run=run)
