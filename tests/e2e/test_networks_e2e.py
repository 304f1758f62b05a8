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
``tests/conftest.py`` calls :func:`start_early`): ircu reads half a line a second, so six
games' lobbies and deals alone take two minutes, and ircu's target limit holds a hand about
a hundred seconds. The runs wait on the servers' budgets, not on the CPU; begun first, they
are done by the time pytest reaches this module, and the suite is not minutes longer.
"""

from __future__ import annotations

import threading

import pytest

from tests.e2e.conftest import require
from tests.e2e.servers import _which
from unobot.bench.networks import Run, report, run_one

SCENARIOS: dict[str, dict[str, object]] = {
    "ircu": {"kind": "ircu", "games": 6, "match": "40s"},
    "irc2": {"kind": "irc2", "games": 6, "match": "40s"},
    "hybrid": {"kind": "hybrid", "games": 6, "match": "40s"},
    "ircu-no-ops": {"kind": "ircu", "games": 3, "match": "150s", "ops": False},
}
RESULTS: dict[str, Run] = {}
_THREADS: dict[str, threading.Thread] = {}
_LOCK = threading.Lock()


def start_early() -> None:
    """Start every scenario whose server is here, each in a thread (idempotent)."""
    with _LOCK:
        for name, spec in SCENARIOS.items():
            kind = str(spec["kind"])
            if name in _THREADS or _which(kind) is None:
                continue
            args = {k: v for k, v in spec.items() if k != "kind"}

            def one(name: str = name, kind: str = kind, args: dict = args) -> None:
                try:
                    RESULTS[name] = run_one(kind, seed=7, timeout=420.0, **args)  # type: ignore[arg-type]
                except Exception as err:  # the server would not start: the test says so
                    RESULTS[name] = Run(kind, 0, True, error=f"{type(err).__name__}: {err}")

            thread = threading.Thread(target=one, daemon=True, name=f"networks-{name}")
            _THREADS[name] = thread
            thread.start()


def result(name: str) -> Run:
    require(str(SCENARIOS[name]["kind"]))
    start_early()
    thread = _THREADS[name]
    thread.join(timeout=600.0)
    assert not thread.is_alive(), f"{name}: the run did not end within 10 minutes"
    run = RESULTS[name]
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
