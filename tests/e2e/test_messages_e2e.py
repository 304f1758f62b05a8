"""The wording a newcomer meets, as real clients receive it over a real IRC server (issue 27):
the deal's first-card line, a refusal out of turn, a play with words after the card, the
card colours on the wire, and the invitation to another game once the game is over."""

from __future__ import annotations

import re

from tests.core.fakes import read_status
from tests.e2e.conftest import module_server, unique
from tests.e2e.servers import IrcServer
from tests.e2e.test_games import GAME_SERVERS, NetGame, Player, RunningBot, make_players
from unobot.core.table import TableConfig
from unobot.irc.casemap import irc_lower

server = module_server(*GAME_SERVERS)


def test_a_game_reads_well_from_the_first_card_to_the_invitation(server: IrcServer) -> None:
    bot = RunningBot(server, "#" + unique("uno"), TableConfig(), 7)
    players = make_players(server, 3, bot.channel)
    try:
        play_and_read(bot, players)
    finally:
        for p in players:
            p.client.close()
        bot.stop()


def play_and_read(bot: RunningBot, players: list[Player]) -> None:
    game = NetGame(bot, players)
    game.start()

    deal = game.channel_text()[-1]
    first = re.search(r"First card (\S+?)[.:]", deal)
    assert first, deal
    assert f"Top: {first.group(1)}" not in deal, deal  # said once
    # On the wire a suit card is a small card: text and background colours both set.
    raw = players[0].bot_lines(bot.nick, bot.channel)[-1].text
    if first.group(1)[0] in "RYGB":
        assert re.search(r"\x03\d\d,\d\d" + re.escape(first.group(1)) + "\x0f", raw), repr(raw)

    seen = read_status(game.channel_text())
    assert seen is not None
    mover = game.players[irc_lower(seen.turn)]
    other = next(p for p in players if p is not mover)
    told = game.command(other, ".p r 5")
    assert told == [f"it is {seen.turn}'s turn"], told

    # The mover says a little more than the card: it is played all the same.
    command = mover.agent.choose(seen.top, seen.color, drawn=False)
    assert command.startswith((".p ", ".play ")) and " w" not in command, command  # seed 7
    before = len(game.channel_text())
    replies = game.command(mover, command + " please")
    assert not [t for t in replies if "Your cards" not in t], replies
    assert len(game.channel_text()) > before
    assert f"{mover.client.nick} plays " in game.channel_text()[before]
    mover.agent.played(command)
    game.turns += 1

    game.play_to_end()
    # Once the game is over, one short sentence on the last line tells everyone how to play again.
    for p in players:
        p.client.wait_for(
            lambda m: (
                m.nick == bot.nick
                and m.target == bot.channel
                and m.text.endswith(".uno for another game.")
            ),
            what="the invitation to another game",
        )
    said = game.channel_text()
    assert said[-1].endswith(" .uno for another game."), said[-3:]
    assert sum(t.count(".uno for another game.") for t in said) == 1
    assert bot.table() is None
