"""Issue 27 over a real IRC server: a LAN party. Ten seated players and an onlooker, every one
a real client connection from 127.0.0.1, so one person to the bot's command budget; the
onlooker floods the channel with ``.top``, ``.cards``, ``.tstatus`` and ``.unohelp`` all game
long. Before the fix the players' moves were silently dropped once the onlooker had spent the
budget (the table then waited for the turn timer); now every move is acted on at once, the
players are never told to slow down, and the onlooker is, once.

The turn timer is cut to 10 s, so a swallowed move would show as a timeout line rather than
two minutes of silence; the driver waits at most 5 s for the bot's answer to a move (on this
loopback the answers come within milliseconds). The game is played to its end (77 moves,
about 6 s on either server).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import pytest

from tests.core.fakes import strip_codes
from tests.e2e.client import TestClient
from tests.e2e.conftest import require, unique
from tests.e2e.servers import IrcServer, start_server
from tests.e2e.test_games import NetGame, Player, RunningBot, make_players
from unobot.core.dispatch import SLOW_DOWN
from unobot.core.table import TableConfig

TURNS = 1000
"""A bound on the game's length, in moves shown in the channel (the seeded game takes 77)."""
FLOOD = (".top", ".cards", ".tstatus", ".unohelp")


@pytest.fixture(scope="module", params=["miniircd", "ngircd"])
def server(request: pytest.FixtureRequest) -> Iterator[IrcServer]:
    require(request.param)
    srv = start_server(request.param)
    yield srv
    srv.cleanup()


class QuickGame(NetGame):
    """The test's game driver, waiting 5 s (not 30) for the bot's answer to a move."""

    def command(self, player: Player, text: str, timeout: float = 5.0) -> list[str]:
        return super().command(player, text, timeout)


def test_ten_players_and_a_flooding_onlooker_behind_one_address(server: IrcServer) -> None:
    table = TableConfig(turn_timeout=10.0, turn_warning=0.0)
    bot = RunningBot(server, "#" + unique("lan"), table, seed=7)
    players = make_players(server, 10, bot.channel)
    onlooker = TestClient(server.port, unique("zed"))
    stop = threading.Event()
    sent = [0]

    def flood() -> None:
        while not stop.wait(0.05):
            onlooker.privmsg(bot.channel, FLOOD[sent[0] % len(FLOOD)])
            sent[0] += 1

    flooder = threading.Thread(target=flood, daemon=True, name="onlooker")
    started = time.monotonic()
    try:
        onlooker.join(bot.channel)
        game = QuickGame(bot, players)
        game.start()
        flooder.start()
        while not game.over() and game.turns < TURNS:
            game.step()  # fails on any refusal or "Slow down", or an unanswered move
        took = time.monotonic() - started
    finally:
        stop.set()
        flooder.join(2)
        bot.stop()
        for p in players:
            p.client.close()
        onlooker.close()
    host = {m.raw.split("@", 1)[1].split(" ", 1)[0] for p in players for m in p.client.snapshot()
            if m.command == "JOIN" and m.nick == p.client.nick}  # fmt: skip
    told = [strip_codes(m.text) for m in onlooker.received("NOTICE", bot.nick)]
    channel = game.channel_text()
    print(
        f"\n{server.kind}: {game.turns} moves shown in {took:.1f} s by 10 players on {host}; "
        f"the onlooker sent {sent[0]} commands, got {len(told)} notices"
    )
    assert len(host) == 1, host  # one address for everyone
    assert game.over() and game.turns >= 20, channel[-3:]
    assert not [line for line in channel if "ran out of time" in line], channel[-5:]
    assert told.count(SLOW_DOWN) == 1, told[-5:]
    assert len(told) < sent[0] / 3  # the onlooker was mostly ignored
    for p in players:
        assert SLOW_DOWN not in [strip_codes(m.text) for m in p.client.received("NOTICE")]
