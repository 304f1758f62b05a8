"""Smoke test of ``python -m unobot.bench memory``: a few games through the real bot process.

No memory figure is asserted (a few games say nothing about growth, and RSS depends on the
machine): what must hold anywhere is that every game is played to its end by one person and
three computer players per channel, with no player error, and the figures are printed.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_a_few_games_of_the_memory_benchmark_run_and_print_their_figures() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "unobot.bench", "memory", "--games", "12", "--channels", "3",
         "--warmup", "3", "--sample", "0.2"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )  # fmt: skip
    out = proc.stdout
    assert proc.returncode == 0, out + proc.stderr
    found = re.search(r"^(\d+) games in \d+ s .*, \d+ stalls, (\d+) player errors$", out, re.M)
    assert found, out
    games, errors = map(int, found.groups())
    assert games >= 12 and errors == 0, out
    assert re.search(r"[\d.]+ MB at warm-up \(\d+ games\)", out), out
    assert re.match(
        r"memory: \d+ games, RSS [\d.]+ MB after warm-up .* kB/game", out.splitlines()[-1]
    )
