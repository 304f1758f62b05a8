"""The lag probe alone (:class:`unobot.irc.lag.LagProbe`): a manual clock, a real outbox, no socket.

What it must do: send a PING only while the bot is sending and one is due, time it from when it
left (not from when it was queued), tell the pacer what the PONG said, count a probe that does
not come back as lag, and space the probes out while the server keeps up.
"""

from __future__ import annotations

import logging

import pytest

from unobot.core.clock import ManualClock
from unobot.irc.flood import bucket
from unobot.irc.lag import LAG_TICK, LagProbe
from unobot.irc.outbox import Outbox


class Rig:
    """A probe on a manual clock, with the adapter's side played by fields."""

    def __init__(self, every: float = 30.0) -> None:
        self.clock = ManualClock()
        self.outbox = Outbox(4, 1.0, 400)
        self.outbox.set_model(bucket(4, 1.0))
        self.outbox.reset(self.clock.now())
        self.connected = True
        self.sent = 0
        self.drains = 0
        self.probe = LagProbe(
            every,
            self.outbox,
            self.clock,
            connected=lambda: self.connected,
            sent_lines=lambda: self.sent,
            drain=self._drain,
            clock=self.clock.now,
        )

    def _drain(self) -> None:
        self.drains += 1

    def pings(self) -> list[str]:
        """The PING lines the outbox lets go now (taken out of it, as a drain would)."""
        return [line.target for line in self.outbox.due(self.clock.now()) if line.command == "PING"]

    def probe_goes_out(self) -> str:
        """Make the bot busy, let the next look send a probe, and 'write' it to the socket."""
        self.sent += 8
        self.clock.advance(LAG_TICK)
        [token] = self.pings()
        self.probe.left(token)
        return token


def test_no_probe_while_the_bot_is_quiet_or_before_one_is_due() -> None:
    rig = Rig(every=30.0)
    rig.probe.start()
    rig.clock.advance(60.0)  # quiet: nothing sent, nothing queued
    assert rig.pings() == [] and rig.probe.probe is None
    rig.sent = 8
    rig.connected = False
    rig.clock.advance(LAG_TICK)
    assert rig.pings() == []  # not while disconnected
    rig.connected = True
    rig.clock.advance(LAG_TICK)
    assert rig.pings() == ["unobot-lag-1"] and rig.drains == 1
    assert rig.clock.pending == 1  # the look re-arms itself, once


def test_probing_off_arms_nothing() -> None:
    rig = Rig(every=0.0)
    rig.probe.start()
    assert rig.clock.pending == 0


def test_the_probe_is_timed_from_when_it_left_and_lag_slows_the_pacer(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO, "unobot")
    rig = Rig(every=30.0)
    rig.probe.start()
    rig.clock.advance(30.0)
    rig.sent = 8
    rig.clock.advance(LAG_TICK)
    [token] = rig.pings()
    assert rig.probe.probe == (token, None)  # queued, not yet timed
    rig.clock.advance(1.0)  # it waited in the queue: not the server's doing
    rig.probe.left(token)
    rig.clock.advance(5.0)
    rig.probe.pong(["irc.test", "other"])  # someone else's PONG: ignored
    assert rig.probe.probe is not None
    rig.probe.pong(["irc.test", token])
    assert rig.probe.probe is None
    assert rig.outbox.pacer.factor == 1.5  # 5 s of lag > LAG_HIGH
    assert rig.outbox.ahead(rig.clock.now()) >= 5.0  # and nothing more leaves for as long
    assert "the server holds the bot's lines back (lag 5.0 s): sending 1.5x slower" in caplog.text
    assert rig.probe.every == 30.0


def test_prompt_answers_space_the_probes_out_to_eight_times() -> None:
    rig = Rig(every=30.0)
    rig.probe.start()
    for expected in (60.0, 120.0, 240.0, 240.0):
        rig.clock.advance(rig.probe.every)
        token = rig.probe_goes_out()
        rig.clock.advance(0.1)
        rig.probe.pong([token])
        assert rig.probe.every == expected
    rig.clock.advance(100.0)
    rig.sent += 8
    rig.clock.advance(LAG_TICK)
    assert rig.pings() == []  # 240 s not yet over since the last answer


def test_a_probe_that_does_not_come_back_counts_as_lag_once() -> None:
    rig = Rig(every=30.0)
    rig.probe.start()
    rig.clock.advance(30.0)
    token = rig.probe_goes_out()
    rig.clock.advance(9.0)  # past 3 x LAG_HIGH (6 s) and a look after that
    assert rig.probe.late and rig.outbox.pacer.factor == 1.5
    rig.clock.advance(10.0)
    assert rig.outbox.pacer.factor == 1.5  # not counted again
    assert rig.pings() == []  # and no second probe while this one is out
    rig.probe.pong([token])  # its answer at last: already counted
    assert rig.outbox.pacer.factor == 1.5 and not rig.probe.late and rig.probe.probe is None


def test_a_new_connection_forgets_the_probe_under_way() -> None:
    rig = Rig(every=30.0)
    rig.probe.start()
    rig.clock.advance(30.0)
    token = rig.probe_goes_out()
    rig.probe.reset()
    rig.probe.pong([token])  # from the old connection: nothing to time
    assert rig.outbox.pacer.factor == 1.0
    rig.sent += 8
    rig.clock.advance(LAG_TICK)
    assert rig.pings() == ["unobot-lag-2"]


def test_no_probe_on_an_unlimited_server() -> None:
    rig = Rig(every=30.0)
    rig.outbox.set_model(bucket(4, 0.0))
    rig.probe.start()
    rig.clock.advance(30.0)
    rig.sent = 100
    rig.clock.advance(LAG_TICK)
    assert rig.pings() == [] and rig.probe.probe is None
