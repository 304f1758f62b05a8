"""The hand that comes when the turn does, over a real IRC server: real clients play a game,
and the player to move has just received ``Your turn | Your cards (N): ...`` by NOTICE, the
cards they may play marked (``[R5]`` for a ``.pce-off`` player, bold in colour), once a turn;
a player who said ``.unohand off`` gets their hand only when it changes."""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest

from tests.e2e.conftest import require
from tests.e2e.test_games import (  # noqa: F401  (fixtures)
    NetGame,
    Player,
    RunningBot,
    players_for,
    run_bot,
    server,
)
from tests.plugins.fakes import strip_codes
from unobot.bench import turnhand
from unobot.engine.actions import Play
from unobot.engine.cards import Card
from unobot.irc.casemap import irc_lower


def turn_notices(player: Player, bot: str) -> list[str]:
    """The raw text of every turn's hand ``player`` received from the bot."""
    return [
        m.text
        for m in player.client.snapshot()
        if m.nick == bot and m.command == "NOTICE" and "Your turn | " in strip_codes(m.text)
    ]


def bold_cards(text: str) -> set[Card]:
    """The cards of a coloured hand line that a client shows in bold: one meaning, playable."""
    hand = text.split(": ", 1)[1]
    return {Card.parse(strip_codes(w)) for w in hand.split() if w.startswith("\x02")}


def other_hands(player: Player, bot: str) -> list[str]:
    """The raw text of every hand ``player`` received that was not a turn's (the deal's,
    a draw's)."""
    return [
        m.text
        for m in player.client.snapshot()
        if m.nick == bot
        and m.command == "NOTICE"
        and "Your cards (" in strip_codes(m.text)
        and "Your turn | " not in strip_codes(m.text)
    ]


class TurnHandGame(NetGame):
    """A NetGame that checks, before each turn's first move, the notice of that turn."""

    def __init__(self, bot: RunningBot, players: list[Player], plain: str, off: str) -> None:
        super().__init__(bot, players)
        self.plain = irc_lower(plain)
        self.off = irc_lower(off)
        self.consumed = {irc_lower(p.client.nick): 0 for p in players}
        self.checked = 0
        self.skip_next = False

    def step(self) -> None:
        seen = self.status(self.channel_text())
        assert seen is not None
        nick = irc_lower(seen.turn)
        player = self.players[nick]
        if seen.phase == "picks":
            self.skip_next = True  # a wild first card: the colour first, then the same turn
        elif self.drawn or self.skip_next or nick == self.off:
            self.skip_next = False
        else:
            self.check_turn(player, nick)
        super().step()

    def check_turn(self, player: Player, nick: str) -> None:
        deadline = time.monotonic() + 10
        while len(turn_notices(player, self.bot.nick)) <= self.consumed[nick]:
            assert time.monotonic() < deadline, f"{nick} got no hand when the turn came"
            time.sleep(0.01)
        told = turn_notices(player, self.bot.nick)
        assert len(told) == self.consumed[nick] + 1, told  # once a turn
        self.consumed[nick] = len(told)
        text = told[-1]
        table = self.bot.table()
        game = table.game
        legal = {a.card for a in game.legal_actions() if type(a) is Play}
        assert f"Your cards ({game.hand_size(game.current)}): " in strip_codes(text)
        words = strip_codes(text).split(": ", 1)[1].split()
        if nick == self.plain:  # plain text: brackets, no formatting codes
            assert text == strip_codes(text)
            assert {Card.parse(w[1:-1]) for w in words if w.startswith("[")} == legal
        else:  # bold marks exactly the playable cards, a wild too (issue 37)
            assert bold_cards(text) == legal and "[" not in text
        self.checked += 1


def test_the_player_to_move_gets_their_hand_by_notice_over_irc(
    run_bot: Callable[..., RunningBot],  # noqa: F811
    players_for: Callable[[RunningBot, int], list[Player]],  # noqa: F811
) -> None:
    bot = run_bot(seed=3)
    players = players_for(bot, 3)
    plain, off = players[1].client.nick, players[2].client.nick
    game = TurnHandGame(bot, players, plain=plain, off=off)
    game.command(players[1], ".pce-off")
    replies = game.command(players[2], ".unohand off")
    assert any("only when it changes" in r for r in replies), replies
    game.start()
    for _ in range(60):
        if game.over():
            break
        game.step()
    assert game.checked >= 10
    # Nothing is bold in a hand that is not a turn's: a wild is a black card, not a bold one.
    coloured = [p for p in players if irc_lower(p.client.nick) != irc_lower(plain)]
    hands = [text for p in coloured for text in other_hands(p, bot.nick)]
    assert hands and all("\x02" not in text for text in hands)
    assert any("\x0300,01W" in m.text for p in coloured for m in p.client.snapshot())
    # The player who turned it off got none after the deal (the deal's notice is marked
    # when they play first: it is the hand they get anyway).
    assert len(turn_notices(players[2], bot.nick)) <= 1
    assert game.consumed[irc_lower(plain)] >= 3


# --- at a person's pace, the bot process at its own send budget -------------------------------


@pytest.mark.parametrize(("kind", "games"), [("embedded", 1), ("ngircd", 2)])
def test_at_a_persons_pace_every_turn_brings_the_hand_first(kind: str, games: int) -> None:
    """Issue 37: three people a game, each moving 0.8-2.5 s after the channel says it is their
    turn (the turnhand benchmark's players, real connections). On the quick start's embedded
    server (no send budget) and with two games on ngircd (the bot at its 1 line/s model),
    every turn's player has that turn's hand before their move leaves, and it arrives before
    the channel's line naming them (it goes first in its channel's turn)."""
    if kind != "embedded":
        require(kind)
    result = turnhand.measure(kind, games, 25.0 if games == 1 else 30.0, seed=7)
    assert not result.error, result.error
    assert result.turns >= 10, turnhand.report(result)  # ngircd x2: a turn every ~4.6 s each
    assert result.had == result.turns, turnhand.report(result)
    assert result.percentile(0.95) <= 0.05, turnhand.report(result)  # before or with the line
