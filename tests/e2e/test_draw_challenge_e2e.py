"""Issue 38 over real IRC servers, real client connections, at a person's pace.

Drawing instead of playing: on ``official`` a player holding R7 on R5 draws, is told the drawn
card is the only one they may play, has ``.p r 7`` refused and plays the drawn card; on
``irc-classic`` the card held back is played after the draw. A ``.challenge`` against a
pending +2 where the rules have no challenge (``house``) gets the engine's own refusal, in
the language the player chose (``.unolang me de``).
"""

from __future__ import annotations

import time
from collections.abc import Callable

from tests.e2e.test_games import (  # noqa: F401  (fixtures)
    NetGame,
    Player,
    RunningBot,
    players_for,
    rig,
    run_bot,
    server,
)
from unobot.core.table import TableConfig
from unobot.engine import preset
from unobot.irc.casemap import irc_lower

PACE = 1.0
"""Seconds between two moves: a person's pace (moves 1-3 s apart)."""


def seated(bot: RunningBot, players: list[Player], names: list[Player | str]) -> list[Player]:
    by_nick = {irc_lower(p.client.nick): p for p in players}
    return [by_nick[irc_lower(str(n))] for n in names]


def test_official_draw_instead_of_playing_then_only_the_drawn_card_over_irc(
    run_bot: Callable[..., RunningBot],  # noqa: F811
    players_for: Callable[[RunningBot, int], list[Player]],  # noqa: F811
) -> None:
    bot = run_bot(TableConfig(rules=preset("official")), seed=5)
    players = players_for(bot, 3)
    game = NetGame(bot, players)
    game.start()
    names = rig(bot, ["R7 G2 G3", "R1 B2 B3", "Y1 Y2 Y3"], top="R5", pile="R9 G8 G8 G8 G8")
    ann, bob, _cat = seated(bot, players, names)
    time.sleep(PACE)
    told = game.command(ann, ".draw")  # R7 could be played: held back
    assert any("You drew R9 | Play R9 or .pass (only the card you drew)" in t for t in told), told
    time.sleep(PACE)
    told = game.command(ann, ".p r 7")
    assert "after drawing you may only play the card you drew (R9) or pass" in told, told
    time.sleep(PACE)
    game.command(ann, ".p r 9")
    assert f"{ann.client.nick} draws a card and plays R9" in game.channel_text()[-1]
    table = bot.table()
    assert table is not None
    assert sorted(str(c) for c in table.hand_of(ann.client.nick)) == ["G2", "G3", "R7"]
    # A drawn card that can't go ends the turn by itself; the card held back (R1) stays.
    time.sleep(PACE)
    bob.client.privmsg(bot.channel, ".draw")
    passed = f"{bob.client.nick} draws a card and passes"
    bob.client.wait_for(lambda m: m.nick == bot.nick and passed in m.text)
    assert sorted(str(c) for c in table.hand_of(bob.client.nick)) == ["B2", "B3", "G8", "R1"]


def test_irc_classic_plays_the_card_held_back_after_the_draw_over_irc(
    run_bot: Callable[..., RunningBot],  # noqa: F811
    players_for: Callable[[RunningBot, int], list[Player]],  # noqa: F811
) -> None:
    bot = run_bot(TableConfig(rules=preset("irc-classic")), seed=5)
    players = players_for(bot, 3)
    game = NetGame(bot, players)
    game.start()
    names = rig(bot, ["R7 G2 G3", "B1 B2 B3", "Y1 Y2 Y3"], top="R5", pile="B9 B9 B9 B9")
    ann, _bob, _cat = seated(bot, players, names)
    time.sleep(PACE)
    told = game.command(ann, ".draw")
    assert any("You drew B9 | You may play any playable card, or .pass" in t for t in told), told
    time.sleep(PACE)
    game.command(ann, ".p r 7")
    assert f"{ann.client.nick} draws a card and plays R7" in game.channel_text()[-1]


def test_challenge_where_the_rules_have_none_is_the_engines_answer_translated_over_irc(
    run_bot: Callable[..., RunningBot],  # noqa: F811
    players_for: Callable[[RunningBot, int], list[Player]],  # noqa: F811
) -> None:
    bot = run_bot(TableConfig(rules=preset("house")), seed=5)
    players = players_for(bot, 3)
    game = NetGame(bot, players)
    game.start()
    names = rig(bot, ["RD2 G2 G3", "B1 B2 B3", "Y1 Y2 Y3"], top="R5", pile="B9 B9 B9 B9")
    ann, bob, _cat = seated(bot, players, names)
    bob.client.privmsg(bot.nick, ".unolang me de")
    bob.client.wait_for(lambda m: m.nick == bot.nick and m.command == "NOTICE")
    time.sleep(PACE)
    game.command(ann, ".p r d2")
    assert f"{bob.client.nick} must draw 2" in " ".join(game.channel_text()[-2:])
    time.sleep(PACE)
    told = game.command(bob, ".challenge")
    assert told[-1] == "diese Regeln kennen kein Anzweifeln der Zieh vier Farbenwahl", told
    table = bot.table()
    assert table is not None and len(table.hand_of(bob.client.nick)) == 3
