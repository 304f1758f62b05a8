"""The real bot on the servers the big networks run: Undernet's ircu, IRCnet's irc2, the
EFnet/OFTC family's ircd-hybrid, each with Debian's default flood limits.

Six tables of four players, each player from a loopback address of its own, the bot process
at its default send budget (``flood_model = auto``): no flood kill, every player gets their
cards before their turn, every game finishes; the turn-to-answer p95 per server is printed.
On ircu the bot holds ops in its channels, as a bot there should, and sends hands as
``CNOTICE`` past the target-change limit. Without ops (the players made the channels)
ircu refuses hands to people past the tenth (``439``): the refused hands wait for the
server's time and arrive, the channel is told, and the log says once how to avoid it.

Why the runs start in the background at collection (``tests/conftest.py`` calls
:func:`tests.e2e.networks_runner.launch` once per pytest run: in the only process, or in the
xdist controller), in a process of their own (``tests/e2e/networks_runner.py``): ircu reads
half a line a second, so six games' lobbies and deals alone take two minutes, and ircu's
target limit holds a hand about a hundred seconds. The runs wait on the servers' budgets,
not on the CPU; begun first, they are done by the time pytest reaches this module, and the
suite is not minutes longer.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from tests.e2e.conftest import require
from tests.e2e.networks_runner import OUT_ENV, SCENARIOS, launch
from tests.parallel import LATE
from unobot.bench.networks import Run, report

pytestmark = pytest.mark.xdist_group(LATE)
"""Under xdist, after the other tests (tests/parallel.py): by then the scenarios are done."""


def result(name: str) -> Run:
    require(str(SCENARIOS[name]["kind"]))
    shared = os.environ.get(OUT_ENV)  # launched at collection (tests/conftest.py)
    out = Path(shared) if shared else launch()  # this module alone, run some other way
    done = out.with_suffix(".done")
    deadline = time.monotonic() + 600
    while not done.exists():
        assert time.monotonic() < deadline, f"{name}: the scenarios did not end in 10 minutes"
        time.sleep(0.5)
    log = out.with_suffix(".log")
    assert out.exists(), f"{name}: the scenarios ended ({done.read_text()}) without results\n" + (
        log.read_text(errors="replace")[-3000:] if log.exists() else ""
    )
    run = Run.from_json(json.loads(out.read_text())[name])
    print(f"\n{name}: {report(run)} (opening {run.setup_seconds:.0f} s, run {run.seconds:.0f} s)")
    return run


def failure(run: Run) -> str:
    """A failed run explained: the error, the server's state and log, the bot's log."""
    return f"{run.error}\n{run.server}\nthe bot's log ends:\n{run.log[-3000:]}"


@pytest.mark.parametrize("name", ["ircu", "irc2", "hybrid"])
def test_six_tables_no_kill_every_hand_every_game(name: str) -> None:
    run = result(name)
    assert not run.error, failure(run)
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
    assert not run.error, failure(run)
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
