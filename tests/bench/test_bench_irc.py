"""Smoke test of ``python -m unobot.bench irc``: a small run finishes and its figures are sane.

Timing targets are not asserted here (a shared CI machine would make them flaky); what must
hold on any machine is asserted: every game ends, no command is lost or unanswered, the bot
sends at most two lines per turn besides the optional turn's hand, and an idle game is small.
"""

from __future__ import annotations

import math
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def figure(output: str, pattern: str) -> re.Match[str]:
    found = re.search(pattern, output, re.MULTILINE)
    assert found, f"no line matching {pattern!r} in:\n{output}"
    return found


@pytest.mark.parametrize(
    ("think", "language"), [("0", "en"), ("5", "en"), ("0", "de"), ("0", "pl")]
)
def test_small_irc_benchmark_runs_and_reports_sane_figures(think: str, language: str) -> None:
    """In English, German and Polish: the simulated players read the bot's lines in the
    language it speaks (their patterns come from the catalogues), and the budget holds."""
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "unobot.bench",
            "irc",
            "--channels",
            "3",
            "--seed",
            "2",
            "--think",
            think,
            "--language",
            language,
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    out = proc.stdout
    assert proc.returncode == 0, out + proc.stderr
    mode = "think 0-10 ms" if think == "5" else "answer at once"
    assert mode in out.splitlines()[0]
    assert f"the bot speaks {language}" in out
    assert figure(out, r"^games finished: (\d+)/3 ").group(1) == "3"
    sent, handled, answered, lost, unanswered = map(
        int,
        figure(
            out,
            r"^commands: sent (\d+), handled (\d+), answered (\d+), lost (-?\d+), "
            r"unanswered (\d+)$",
        ).groups(),
    )
    assert sent > 3 * 20  # a complete four-player game takes dozens of commands
    assert sent == handled == answered and lost == 0 and unanswered == 0
    assert figure(out, r"^player errors .*: (\d+)$").group(1) == "0"
    for name in ("latency median", "latency p99"):
        ms = float(figure(out, rf"^{name}: ([\d.]+) ms").group(1))
        assert 0 < ms < 10_000 and math.isfinite(ms), name
    assert float(figure(out, r"^commands per second: (\d+)").group(1)) > 0
    per_turn = float(figure(out, r"^lines per turn \(4 players\): ([\d.]+) ").group(1))
    turn_hands = float(figure(out, r"of which the turn's hands ([\d.]+);").group(1))
    needed = float(figure(out, r"without the turn's hands ([\d.]+), target").group(1))
    assert 1 <= needed <= 2  # the optional turn hands aside, which a backlog drops first
    assert 0.5 < turn_hands <= 1.0  # no send limit here: one a turn at most, never two copies
    assert per_turn == pytest.approx(needed + turn_hands, abs=0.015)
    idle_kb = float(figure(out, r"^memory per idle game: .* dealt 4-player ([\d.]+) KB").group(1))
    assert 0 < idle_kb < 50
    assert out.strip().splitlines()[-1].startswith("irc: p99 ")


def test_irc_benchmark_compares_the_live_view_off_and_on() -> None:
    """``--live both``: the same run without and with the live view's writes, each figure
    printed, and the writes per move counted (coalesced: well under one transaction a move)."""
    proc = subprocess.run(
        [sys.executable, "-m", "unobot.bench", "irc", "--channels", "3", "--seed", "2",
         "--think", "5", "--live", "both"],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    out = proc.stdout
    assert proc.returncode == 0, out + proc.stderr
    assert "--- live view off ---" in out and "--- live view on ---" in out
    assert "live view: off" in out and "live view: on (" in out
    assert out.count("games finished: 3/3 ") == 2
    for lost in re.findall(r"^commands: .* lost (-?\d+), unanswered (\d+)$", out, re.MULTILINE):
        assert lost == ("0", "0")
    flushes, turns = map(int, figure(out, r"^live view: (\d+) flushes .* for (\d+) turns").groups())
    assert 0 < flushes < turns
    per_move = float(figure(out, r"^live view off -> on: .*; ([\d.]+) transactions").group(1))
    assert 0 < per_move < 1
