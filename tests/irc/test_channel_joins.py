"""The channels to be in, alone (:class:`unobot.irc.joins.ChannelJoins`): no socket, no library.

A manual clock, a real outbox, and the adapter's side played by fields. What must hold: every
channel (configured or joined later) is joined after a welcome with its key, a kick rejoins
once after the delay (never with a negative delay, not when back in already or disconnected),
a refusal is said and not retried, a 405 joins when a slot frees, and a channel limit under
the configured channels is said once.
"""

from __future__ import annotations

import logging

import pytest

from unobot.core.clock import ManualClock
from unobot.irc.joins import ChannelJoins
from unobot.irc.outbox import Outbox, WireLine


class Rig:
    def __init__(self, channels: dict[str, str], rejoin_delay: float = 5.0) -> None:
        self.clock = ManualClock()
        self.outbox = Outbox(4, 0.0, 400)
        self.connected = True
        self.joined: list[str] = []
        self.drains = 0
        self.joins = ChannelJoins(
            channels,
            rejoin_delay,
            self.outbox,
            self.clock,
            connected=lambda: self.connected,
            joined=lambda: self.joined,
            drain=self._drain,
        )

    def _drain(self) -> None:
        self.drains += 1

    def sent(self) -> list[WireLine]:
        return self.outbox.due(self.clock.now())


def test_every_channel_is_joined_with_its_key_after_a_welcome() -> None:
    rig = Rig({"#uno": "", "#Keyed": "sesame"})
    rig.joins.join("#later", "k2")
    assert rig.sent() == [WireLine("JOIN", "#later", "k2")] and rig.drains == 1
    rig.joins.join_all()
    lines = rig.sent()
    assert [line.command for line in lines] == ["JOIN"]  # one line for all of them
    channels, keys = lines[0].target.split(","), lines[0].text.split(",")
    assert dict(zip(channels, keys + [""] * len(channels), strict=False)) == {
        "#Keyed": "sesame",
        "#later": "k2",
        "#uno": "",
    }


def test_a_kick_rejoins_once_after_the_delay(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, "unobot")
    rig = Rig({"#uno": "sesame"})
    rig.joins.kicked("#UNO", "op", "out")
    assert "kicked from #UNO by op (out); rejoining in 5.0 s" in caplog.text
    rig.clock.advance(4.9)
    assert rig.sent() == []
    rig.clock.advance(0.2)
    assert rig.sent() == [WireLine("JOIN", "#UNO", "sesame")]  # the configured key
    rig.clock.advance(60)
    assert rig.sent() == []  # once


def test_no_rejoin_when_back_in_already_or_disconnected_or_told_not_to() -> None:
    rig = Rig({})
    rig.joins.kicked("#a", "op", "out")
    rig.joined = ["#A"]  # an INVITE brought it back
    rig.clock.advance(5.0)
    assert rig.sent() == []
    rig.connected = False
    rig.joins.kicked("#b", "op", "out")
    rig.clock.advance(5.0)
    assert rig.sent() == []  # the welcome will join it
    never = Rig({}, rejoin_delay=-1)
    never.joins.kicked("#c", "op", "out")
    assert never.clock.pending == 0
    rig.connected = True
    rig.joins.join_all()  # a kicked channel is remembered (with no key) for the next welcome
    assert rig.sent() == [WireLine("JOIN", "#a,#b", "")]


def test_a_refusal_is_said_and_not_retried(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, "unobot")
    rig = Rig({"#uno": ""})
    rig.joins.refused("bannedfromchan", ["#uno", "Cannot join channel (+b)"])
    rig.joins.refused("weird", [])
    assert caplog.messages == [
        "can't join #uno: the bot is banned (+b) (Cannot join channel (+b))",
        "can't join ?: weird ()",
    ]
    rig.clock.advance(600)
    assert rig.sent() == [] and rig.clock.pending == 0
    rig.joins.left()  # a slot freeing joins only channels refused with 405
    assert rig.sent() == []


def test_too_many_channels_joins_when_a_slot_frees() -> None:
    rig = Rig({"#a": "", "#K": "key"})
    rig.joins.refused("toomanychannels", ["#k", "You have joined too many channels"])
    rig.connected = False
    rig.joins.left()
    assert rig.sent() == []
    rig.connected = True
    rig.joins.left()
    assert rig.sent() == [WireLine("JOIN", "#K", "key")]
    rig.joins.left()
    assert rig.sent() == []  # tried once


def test_a_join_the_server_says_to_wait_for_is_tried_after_the_wait() -> None:
    rig = Rig({"#uno": ""})
    rig.joins.later("#uno", "Target change too fast. Please wait 17 seconds.", 17.0)
    rig.clock.advance(17.5)
    assert rig.sent() == []
    rig.clock.advance(1.0)
    assert rig.sent() == [WireLine("JOIN", "#uno", "")]


def test_a_channel_limit_under_the_configured_channels_is_said_once(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO, "unobot")
    rig = Rig({f"#c{i}": "" for i in range(12)})
    rig.joins.server_limit(None)
    rig.joins.server_limit(20)
    assert caplog.messages == []
    rig.joins.server_limit(10)
    rig.joins.server_limit(10)
    assert caplog.messages == [
        "the server lets a client be in 10 channels; 12 are configured: #c10, #c11 will not "
        "be joined (use irc.connections for more, or fewer channels)"
    ]
