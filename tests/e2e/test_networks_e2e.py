"""The real bot on the servers the big networks run: Undernet's ircu, IRCnet's irc2, the
EFnet/OFTC family's ircd-hybrid, each with Debian's default flood limits.

Six tables of four players, each player from a loopback address of its own, the bot process
at its default send budget (``flood_model = auto``): no flood kill, every player gets their
cards before their turn, every game finishes; the turn-to-answer p95 per server is printed.
On ircu the bot holds ops in its channels, as a bot there should, and sends hands as
``CNOTICE`` past the target-change limit. Without ops (the players made the channels)
ircu refuses hands to people past the tenth (``439``): the refused hands wait for the
server's time and arrive, the channel is told, and the log says once how to avoid it.

Why the runs start in the background at collection (``pytest_collection_finish`` in
``tests/conftest.py`` calls :func:`start_early`), in a process of their own
(``tests/e2e/networks_runner.py``): ircu reads half a line a second, so six games' lobbies
and deals alone take two minutes, and ircu's target limit holds a hand about a hundred
seconds. The runs wait on the servers' budgets, not on the CPU; begun first, they are done by
the time pytest reaches this module, and the suite is not minutes longer.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from tests.e2e.conftest import require
from tests.e2e.networks_runner import SCENARIOS
from tests.e2e.servers import _which
from unobot.bench.networks import Run, report

ROOT = Path(__file__).resolve().parents[2]
_RUNNER: dict[str, object] = {}


def start_early() -> None:
    """Start the scenarios whose servers are here, in a process of their own (idempotent)."""
    if _RUNNER:
        return
    names = [n for n, spec in SCENARIOS.items() if _which(str(spec["kind"])) is not None]
    out = Path(tempfile.mkdtemp(prefix="unobot-networks-")) / "results.json"
    _RUNNER.update(names=names, out=out)
    if not names:
        return
    cmd = [sys.executable, "-m", "tests.e2e.networks_runner", str(out), *names]
    setpriv = shutil.which("setpriv")  # it ends with the test process, finished or not
    if setpriv:
        cmd = [setpriv, "--pdeathsig", "TERM", "--", *cmd]
    log = open(out.with_suffix(".log"), "wb")  # noqa: SIM115 - closed with the process
    _RUNNER["proc"] = subprocess.Popen(cmd, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)


def result(name: str) -> Run:
    require(str(SCENARIOS[name]["kind"]))
    start_early()
    proc = _RUNNER.get("proc")
    out: Path = _RUNNER["out"]  # type: ignore[assignment]
    assert isinstance(proc, subprocess.Popen), f"{name}: the scenarios did not start"
    deadline = time.monotonic() + 600
    while proc.poll() is None:
        assert time.monotonic() < deadline, f"{name}: the scenarios did not end in 10 minutes"
        time.sleep(0.5)
    assert out.exists(), out.with_suffix(".log").read_text(errors="replace")[-3000:]
    run = Run.from_json(json.loads(out.read_text())[name])
    print(f"\n{name}: {report(run)} (opening {run.setup_seconds:.0f} s, run {run.seconds:.0f} s)")
    return run


@pytest.mark.parametrize("name", ["ircu", "irc2", "hybrid"])
def test_six_tables_no_kill_every_hand_every_game(name: str) -> None:
    run = result(name)
    assert not run.error, run.error + "\n" + run.log[-3000:]
    assert run.model == name  # read off the server's version
    assert run.kills == 0 and run.quits == 0, run.log[-3000:]
    assert len(run.first_hand) == run.players == 24  # every player got their cards ...
    assert run.blind == 0  # ... before their turn
    assert run.finished == run.games == 6
    assert run.latencies, "no move was timed"
    if name == "ircu":  # ops in every channel: every hand went as CNOTICE, none refused
        assert run.cnotice and run.refused == 0 and not run.held_nicks
    assert "Traceback" not in run.log


def test_ircu_without_ops_refused_hands_wait_for_the_server_and_arrive() -> None:
    run = result("ircu-no-ops")
    assert not run.error, run.error + "\n" + run.log[-3000:]
    assert run.kills == 0 and run.quits == 0, run.log[-3000:]
    assert run.refused >= 1, "ircu refused nothing: its target limit did not show"
    assert run.held_nicks, "the channel was not told who waits for their cards"
    # A refused hand was sent again when the server allowed it (it said "wait 80-130 s").
    late = {n: t for n, t in run.first_hand.items() if n in run.held_nicks}
    assert late and max(late.values()) > 60, (late, run.first_hand)
    assert run.log.count("refuses private messages to new people") == 1  # one WARNING
    assert "Give the bot +v or +o" in run.log
    assert run.finished == run.games
    assert "Traceback" not in run.log
