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

from unobot.bench.soak import Clock, Watch, play_random_move
from unobot.core.bot import Bot, BotConfig
from unobot.core.journal import Journal
from unobot.core.settings import MemorySettings
from unobot.core.table import Table, TableConfig
from unobot.engine import preset
from unobot.irc.transport import Incoming, Kind

TARGET_SECONDS = 5.0


def fill(folder: Path, tables: int, moves: int, seed: int) -> int:
    """Journal ``tables`` games cut after up to ``moves`` moves each; returns the moves."""
    clock = Clock()
    journal = Journal(folder, clock.now)
    rng = Random(seed)
    total = 0
    for n in range(tables):
        table = Table(f"#t{n}", "p0", "p0", clock.time, TableConfig(rules=preset("official")),
                      Random(n))  # fmt: skip
        journal.opened(table, n, clock.time, "p0")
        for i in range(1, 4):
            table.join(f"p{i}", f"p{i}", clock.time)
        table.deal("p0", clock.time)
        for _ in range(moves):
            if table.finished:
                break
            clock.time += 0.5
            play_random_move(table, rng, clock.time)
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
        clock = Clock()
        transport = Watch()
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
