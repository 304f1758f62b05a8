"""The lag probe on a real server: the adapter's PING leaves, the server's PONG comes back to it.

:class:`unobot.irc.lag.LagProbe` is tested alone in ``tests/irc/test_lag_probe.py``; this checks the
adapter's side of it against ngircd and inspircd (whose fake lag holds a client's lines): the
probe is sent once the bot has been sending, timed from when it left the socket, and its PONG
(``:server PONG server :unobot-lag-1``) is recognised, so the probe ends and the next one waits.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from tests.e2e.conftest import BotHarness, bot_settings, module_server, unique
from tests.e2e.servers import IrcServer

MakeBot = Callable[..., BotHarness]

server = module_server("ngircd", "inspircd")


def test_a_probe_goes_out_after_sending_and_its_pong_comes_back(
    server: IrcServer, make_bot: MakeBot
) -> None:
    channel = unique("#lag")
    settings = bot_settings(
        server,
        channels={channel: ""},
        lag_probe=1.0,  # due 1 s after the last; looked at every 2 s
        flood_model="bucket",
        burst=20,
        rate=10.0,
    )
    bot = make_bot(settings)
    bot.wait_joined(channel)
    started = time.monotonic()
    assert bot.call(lambda: bot.adapter._lag.probe) is None
    for n in range(10):  # "busy": 8 lines or more since the last probe came back
        bot.call(lambda n=n: bot.adapter.privmsg(channel, f"line {n}"))
    bot.wait(lambda: bot.adapter.sent_lines >= 10, 10, "the lines sent")
    bot.wait(lambda: bot.call(lambda: bot.adapter._lag.done) > started, 15, "a probe answered")
    probe = bot.call(lambda: bot.adapter._lag)
    assert probe.probe is None and not probe.late  # ended by its PONG, in time
    assert bot.call(lambda: probe._mark) >= 11  # the lines, then the PING itself
    assert bot.adapter.connected
