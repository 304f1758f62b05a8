"""How long a restart takes to give back every game: ``python -m unobot.bench restore``.

Plays ``--tables`` journaled games (4 players, official rules, random legal moves) part of the
way, as a bot killed mid-game leaves them, then times a fresh bot rebuilding them all from the
journal (``Bot.restore``: read and replay every file) and announcing each in its channel once
it is back (the one line, the hands again). Target: under 5 s for 100 tables.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path
from random import Random

from unobot.core.bot import Bot, BotConfig
from unobot.core.journal import Journal
from unobot.core.settings import MemorySettings
from unobot.core.table import Table, TableConfig
from unobot.engine import preset
from unobot.engine.actions import (
    Action,
    CallUno,
    Catch,
    Challenge,
    ChooseColor,
    Draw,
    Pass,
    Play,
)
from unobot.irc.transport import Incoming, Kind

TARGET_SECONDS = 5.0


class _Clock:
    def __init__(self) -> None:
        self.t = 1000.0

    def now(self) -> float:
        return self.t

    def call_later(self, delay: float, callback: object) -> object:
        return object()

    def cancel(self, handle: object) -> None:
        pass


class _Quiet:
    nickname = "unobot"

    def __init__(self) -> None:
        self.lines = 0

    def privmsg(self, target: str, text: str) -> None:
        self.lines += 1

    def notice(self, target: str, text: str) -> None:
        self.lines += 1


def random_action(table: Table, rng: Random) -> tuple[str, Action]:
    """A legal action, chosen at random, of whoever is to move at ``table``, with their nick."""
    game = table.game
    assert game is not None
    seat = game.current
    actions = game.legal_actions(seat)
    return table.names[seat], actions[int(rng.random() * len(actions))]


def play_random_move(table: Table, rng: Random, now: float) -> None:
    """Make a random legal move at ``table`` through its own methods, at ``now``."""
    nick, action = random_action(table, rng)
    names = table.names
    if type(action) is Play:
        table.play(nick, action.card, action.color, now, uno=action.uno)
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


def fill(folder: Path, tables: int, moves: int, seed: int) -> int:
    """Journal ``tables`` games cut after up to ``moves`` moves each; returns the moves."""
    clock = _Clock()
    journal = Journal(folder, clock.now)
    rng = Random(seed)
    total = 0
    for n in range(tables):
        table = Table(f"#t{n}", "p0", "p0", clock.t, TableConfig(rules=preset("official")),
                      Random(n))  # fmt: skip
        journal.opened(table, n, clock.t, "p0")
        for i in range(1, 4):
            table.join(f"p{i}", f"p{i}", clock.t)
        table.deal("p0", clock.t)
        for _ in range(moves):
            if table.finished:
                break
            clock.t += 0.5
            play_random_move(table, rng, clock.t)
            total += 1
        if table.finished:
            journal.closed(table)
    journal.close()
    return total


def run(args: argparse.Namespace) -> dict[str, float]:
    with tempfile.TemporaryDirectory(prefix="unobot-restore-") as tmp:
        folder = Path(tmp)
        moves = fill(folder, args.tables, args.moves, args.seed)
        files = len(list(folder.glob("*.jsonl")))
        print(f"restore bench: {files} journaled games in progress, {moves} moves in all")
        clock = _Clock()
        transport = _Quiet()
        started = time.perf_counter()
        bot = Bot(
            transport,  # type: ignore[arg-type]
            clock,  # type: ignore[arg-type]
            MemorySettings(),
            BotConfig(table=TableConfig(rules=preset("official"))),
            journal=Journal(folder, clock.now),
        )
        built = time.perf_counter()
        restored = bot.restore()
        replayed = time.perf_counter()
        for table in list(bot.tables.values()):
            bot.handle(Incoming(Kind.JOIN, "unobot", table.channel))
        announced = time.perf_counter()
    print(f"bot created: {(built - started) * 1000:.0f} ms")
    print(f"journals read and replayed: {restored} games in {(replayed - built) * 1000:.0f} ms")
    print(f"announced (one line each, hands again): {transport.lines} lines in "
          f"{(announced - replayed) * 1000:.0f} ms")  # fmt: skip
    total = announced - started
    verdict = "ok" if total < TARGET_SECONDS else "MISSED"
    print(
        f"restore: {restored} games in {total:.2f} s (target < {TARGET_SECONDS:.0f} s: {verdict})"
    )
    return {"games": restored, "seconds": total}


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--tables", type=int, default=100)
    p.add_argument("--moves", type=int, default=120, help="moves played per game at most")
    p.add_argument("--seed", type=int, default=1)
    p.set_defaults(run=run)
