"""A 10-player game on inspircd with its default flood limits (10-line burst, then 1 line/s,
disconnect at an 8 KB receive queue): dealing and everyone asking for their cards at once is a
burst of hand notices that must all arrive, with the bot never disconnected.
"""

from __future__ import annotations

import time

from tests.e2e.client import TestClient
from tests.e2e.conftest import require, unique
from tests.e2e.servers import start_server
from tests.e2e.test_games import NetGame, Player, RunningBot
from unobot.core.table import TableConfig

PLAYERS = 10


def test_ten_player_game_with_mass_notices_keeps_the_bot_connected() -> None:
    require("inspircd")
    server = start_server("inspircd")
    bot = None
    clients: list[TestClient] = []
    try:
        bot = RunningBot(server, "#" + unique("flood"), TableConfig(), seed=21, rate=1.0, burst=4)
        assert (bot.adapter.settings.burst, bot.adapter.settings.rate) == (4, 1.0)
        players = []
        for i in range(PLAYERS):
            client = TestClient(server.port, unique("fl"))
            clients.append(client)
            client.join(bot.channel)
            players.append(Player(client, seed=i))
        game = NetGame(bot, players)
        started = time.monotonic()
        game.start()  # .uno, 9 x .join, .deal: 10 hand notices plus the channel lines
        for p in players:  # everyone asks for their hand again, at once
            p.client.privmsg(bot.channel, ".cards")
        for p in players:
            p.client.wait_count(
                lambda m, me=p.client.nick: (
                    m.command == "NOTICE"
                    and m.nick == bot.nick
                    and "Your cards" in m.text
                    and m.target == me
                ),
                2,
                timeout=90,
            )
        took = time.monotonic() - started
        game.sync(len(players[0].bot_lines(bot.nick, bot.channel)), timeout=60)
        for _ in range(3):  # and the game goes on
            game.step()
        assert bot.adapter.disconnects == 0, "the bot was disconnected"
        assert bot.adapter.connected
        print(f"\n10-player deal + 10 x .cards delivered in {took:.1f} s, "
              f"{bot.adapter.sent_lines} lines sent, no disconnect")  # fmt: skip
    finally:
        for c in clients:
            c.close()
        if bot is not None:
            bot.stop()
        server.cleanup()
