"""In-process micro-benchmark of ``Bot.handle`` (issue 39): whole three-player games through
the bot's core with the fake transport (``tests/core/fakes.py``), legal moves typed as
commands, each command timed in CPU time (``thread_time``); the languages alternate within one
process. Not a test: run it from a checkout's root, e.g. to compare two commits::

    python tests/bench/handle.py [ROUNDS=5] [GAMES=40] [LANGS=en,de]

It prints each language's median, over the rounds, of the mean µs a command.
"""

from __future__ import annotations

import statistics
import sys
import time
from random import Random

sys.path.insert(0, ".")

from tests.core.fakes import Harness
from unobot.bench.soak import command_for
from unobot.irc.casemap import irc_lower


def one_round(lang: str, games: int) -> float:
    """Mean CPU µs of a command over ``games`` seeded games in ``lang``."""
    total = 0.0
    n = 0
    clock = time.thread_time
    key = irc_lower("#uno")
    for g in range(games):
        h = Harness(seed=g)
        if lang != "en":
            h.settings.set_language("#uno", lang)
        rng = Random(g)
        h.start(["ann", "bob", "cat"])
        for _step in range(2000):
            table = h.bot.tables.get(key)
            if table is None or table.game is None:
                break
            nick, text = command_for(table, rng)
            start = clock()
            h.say(nick, text)
            total += clock() - start
            n += 1
            del h.transport.sent[:]
    return total / n * 1e6


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    games = int(sys.argv[2]) if len(sys.argv) > 2 else 40
    langs = sys.argv[3].split(",") if len(sys.argv) > 3 else ["en", "de"]
    found: dict[str, list[float]] = {lang: [] for lang in langs}
    for _round in range(rounds):
        for lang in langs:
            found[lang].append(one_round(lang, games))
    for lang, means in found.items():
        each = " ".join(f"{m:.1f}" for m in means)
        print(f"{lang}: median {statistics.median(means):.1f} us/command (rounds: {each})")


if __name__ == "__main__":
    main()
