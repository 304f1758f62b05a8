"""A game over a real IRC server between one scripted person and three computer players.

The person is a real client whose agent acts only on its NOTICEs and the channel (the
:class:`~tests.e2e.test_games.NetGame` driver); the computer players are seated with
``.addbot``, think in the bot's worker process (``hard``) or inline, and move on the reactor's
timers after a short pause. The game runs to its end.
"""

from __future__ import annotations

import re

import pytest

from tests.e2e.conftest import module_server, unique
from tests.e2e.servers import IrcServer
from tests.e2e.test_games import GAME_SERVERS, NetGame, RunningBot, make_players
from unobot.core.computers import ComputerConfig, PoolDecider
from unobot.core.table import TableConfig
from unobot.irc.casemap import irc_lower

server = module_server(*GAME_SERVERS)


@pytest.mark.parametrize("levels", [("hard", "normal", "easy")])
def test_one_person_against_three_computer_players_over_irc(
    server: IrcServer, levels: tuple[str, ...]
) -> None:
    bots = ComputerConfig(delay=0.05, playouts=60, workers=1)
    bot = RunningBot(server, "#" + unique("uno"), TableConfig(), 21, bots=bots)
    (person,) = make_players(server, 1, bot.channel)
    try:
        assert isinstance(bot.bot.computers.decider, PoolDecider)  # hard thinks off the reactor
        game = NetGame(bot, [person])
        game.command(person, ".uno")
        for level in levels:
            game.command(person, f".addbot {level}")
        game.command(person, ".deal")
        table = bot.table()
        assert table is not None and [p.level for p in table.players] == ["", *levels]
        winner = game.play_to_end()
        assert re.search(r"\bwins\b", winner)
        text = " ".join(game.channel_text())
        for name in ("HardBot1", "NormalBot1", "EasyBot1"):
            assert f"{name} plays" in text or f"{name} draws" in text
        # The person's hand came to them alone; no computer seat was ever sent a NOTICE.
        for m in person.client.received("NOTICE", bot.nick):
            assert irc_lower(m.target) == irc_lower(person.client.nick)
    finally:
        person.client.close()
        bot.bot.computers.close()
        bot.stop()
