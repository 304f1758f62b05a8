"""``.addbot`` on a real server: the names of people in the channel are refused.

The bot learns who is there from the server alone: the NAMES reply after its JOIN (a person
who was there before the bot) and the JOIN, PART and NICK lines after it. Unit tests of the
same rules: ``tests/core/test_addbot_names.py``.
"""

from __future__ import annotations

from collections.abc import Callable

from tests.e2e.client import TestClient
from tests.e2e.conftest import unique
from tests.e2e.servers import IrcServer
from tests.e2e.test_games import RunningBot
from unobot.core.computers import ComputerConfig
from unobot.core.table import TableConfig

MakeClient = Callable[..., TestClient]


def test_addbot_refuses_people_in_the_channel(
    irc_server: IrcServer, make_client: MakeClient
) -> None:
    channel = "#" + unique("names")
    early = make_client(irc_server, unique("early"))
    early.join(channel)  # there before the bot: known from the NAMES reply
    bot = RunningBot(irc_server, channel, TableConfig(), 1, bots=ComputerConfig(delay=0.0))
    try:
        alice = make_client(irc_server, unique("alice"))
        alice.join(channel)
        late = make_client(irc_server, unique("late"))
        late.join(channel)  # after the bot: known from the JOIN

        def ask(text: str) -> str:
            """``text`` from alice; the bot's first answer after it (notice or channel)."""
            mark = len(alice.snapshot())
            alice.privmsg(channel, text)
            return alice.wait_for(lambda m: m.nick == bot.nick, after=mark, what=text).text

        ask(".uno")
        assert bot.table() is not None
        for name in (early.nick, late.nick.upper()):
            answer = ask(f".addbot easy {name}")
            assert (
                answer == f"{name} is in the channel: a computer player can't take a person's nick"
            )
        assert ask(".addbot easy ChanServ").startswith("that name belongs to a network service")
        late.send(f"PART {channel}")
        alice.wait_for(lambda m: m.command == "PART" and m.nick == late.nick, what="PART")
        assert ask(f".addbot easy {late.nick}").startswith(f"{late.nick} (computer, easy) joins")
        table = bot.table()
        assert table is not None
        assert [p.nick for p in table.players] == [alice.nick, late.nick]
    finally:
        bot.stop()
