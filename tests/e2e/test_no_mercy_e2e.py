"""No Mercy over a real IRC server with real client connections: ``.uno no-mercy`` opens the
table, a player holding 20 cards is made to draw a Wild Draw Six and the mercy rule puts them
out (the channel says so), their commands are refused with one clear reply while the others
play the hand to its end, and the stats store records the game with a win for the winner.
The Wild Colour Roulette's colour is named by the next player, with ``.color`` or, when they
let their turn clock run out, by the bot for them."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.core.fakes import strip_codes
from tests.core.test_stats_recording import RecordingStore
from tests.e2e.conftest import unique
from tests.e2e.servers import IrcServer
from tests.e2e.test_games import NetGame, Player, RunningBot, make_players, rig, server  # noqa: F401
from unobot.core.table import TableConfig
from unobot.irc.casemap import irc_lower
from unobot.stats.sql import SqlStatsStore

OUT = "you are out of this hand (mercy rule)"


@pytest.fixture
def mercy_bot(
    server: IrcServer,  # noqa: F811
    tmp_path: Path,
) -> Iterator[tuple[RunningBot, RecordingStore, list[Player]]]:
    store = RecordingStore(SqlStatsStore(f"sqlite:///{tmp_path / 'stats.db'}"))
    # The channel's rules are the default (irc-classic): No Mercy comes from ``.uno no-mercy``.
    bot = RunningBot(server, "#" + unique("mercy"), TableConfig(), seed=7, store=store)  # type: ignore[arg-type]
    players = make_players(server, 3, bot.channel)
    yield bot, store, players
    for p in players:
        p.client.close()
    bot.stop()
    store.close()


def test_a_mercy_elimination_over_irc_is_announced_refused_and_recorded(
    mercy_bot: tuple[RunningBot, RecordingStore, list[Player]],
) -> None:
    bot, store, players = mercy_bot
    game = NetGame(bot, players)
    first, *rest = players
    game.command(first, ".uno no-mercy")
    for p in rest:
        game.command(p, ".join")
    game.command(first, ".deal")
    assert any("Uno (no-mercy)" in line for line in game.channel_text())
    names = rig(bot, ["WD6 R1 R2", " ".join(["G1"] * 20), "R3 R4 Y3"], top="R5")
    by_nick = {irc_lower(p.client.nick): p for p in players}
    a, b, c = (by_nick[irc_lower(n)] for n in names)
    game.command(a, ".p wd6 r")
    game.command(b, ".draw")  # 20 + 6 = 26 cards: out
    said = game.channel_text()[-1]
    assert f"MERCY! {names[1]} holds 26 cards and is out of the hand" in said, said
    assert f"{names[2]}'s turn" in said
    # Their commands are refused, privately, in one clear line; the table does not move.
    for text in (".p g1", ".draw", ".uno"):
        assert game.command(b, text) == [OUT], text
    assert game.command(b, ".cards")[0] == "You are out of this hand (mercy rule)."
    b.client.wait_for(lambda m: m.nick == bot.nick and f"{names[1]} out, " in strip_codes(m.text))
    # The others play the hand to its end: a goes out first and wins.
    game.command(c, ".p r3")
    game.command(a, ".p r1 uno")
    game.command(c, ".p r4 uno")
    game.command(a, ".p r2")
    text = " ".join(game.channel_text()[-2:])
    assert f"{names[0]} wins" in text, text
    deadline = time.monotonic() + 10
    while not store.games:
        assert time.monotonic() < deadline, "the game was not recorded"
        time.sleep(0.02)
    (record,) = store.games
    assert record.preset == "no-mercy"
    results = {r.nick: r for r in record.results}
    assert results[names[0]].won and results[names[0]].place == 1
    assert not results[names[1]].won and not results[names[2]].won
    assert sum(r.won for r in record.results) == 1


def test_the_next_player_names_the_roulettes_colour_over_irc(
    server: IrcServer,  # noqa: F811
) -> None:
    """ "The next player chooses a color": three real clients at a person's pace. ``.p wcr r``
    is refused; ``.p wcr`` asks the next player in the channel; the Roulette's player can't
    answer for them; the next player's ``.color g`` turns up cards to the first green one,
    which reach their hand by NOTICE, and skips them. A second Roulette on the same player,
    who lets the (shortened) turn clock run out, is answered for them with the colour they
    hold most."""
    bot = RunningBot(
        server,  # type: ignore[arg-type]
        "#" + unique("roulette"),
        TableConfig(turn_timeout=6.0, turn_warning=0.0),
        seed=3,
    )
    players = make_players(server, 3, bot.channel)  # type: ignore[arg-type]
    try:
        game = NetGame(bot, players)
        first, *rest = players
        game.command(first, ".uno no-mercy")
        for p in rest:
            game.command(p, ".join")
        game.command(first, ".deal")
        pile = "R1 B2 G7 Y5 R9 G8 " + " ".join(["B9"] * 12)
        names = rig(bot, ["WCR WCR R1 R2", "G3 Y4", "G1 Y2 R3"], "R5", pile)
        by_nick = {irc_lower(p.client.nick): p for p in players}
        a, b, c = (by_nick[irc_lower(n)] for n in names)
        assert game.command(a, ".p wcr r") == [
            "the next player names the roulette's colour: play it without one (.play wcr)"
        ]
        time.sleep(1.0)
        game.command(a, ".p wcr")
        said = game.channel_text()[-1]
        assert f"{names[0]} plays WCR" in said, said
        assert (
            f"Top: WCR. {names[1]}: name a colour for the roulette (.color r/y/g/b), then draw "
            "until it comes."
        ) in said, said
        time.sleep(1.0)
        assert game.command(a, ".color r") == [f"{names[1]} names the roulette's colour, not you"]
        time.sleep(1.5)
        notes = game.command(b, ".color g")
        said = game.channel_text()[-1]
        assert f"{names[1]} picks green for the roulette, draws 3 cards and is skipped" in said
        assert f"Top: WCR (green). {names[2]}'s turn." in said, said
        assert any("You drew R1 G7 B2" in n and "Your cards (5)" in n for n in notes), notes
        time.sleep(1.0)
        game.command(c, ".p g1")
        time.sleep(1.0)
        game.command(a, ".p wcr")
        assert f"{names[1]}: name a colour for the roulette" in game.channel_text()[-1]
        # b lets the clock run: green (G3 G7) is named for them, and Y5 R9 G8 come up.
        line = f"{names[1]} picks green for the roulette, draws 3 cards and is skipped"
        deadline = time.monotonic() + 20
        while not any(line in t for t in game.channel_text()[-2:]):
            assert time.monotonic() < deadline, game.channel_text()[-3:]
            time.sleep(0.05)
        text = " ".join(game.channel_text()[-2:])
        assert f"{names[1]} ran out of time" in text, text
        table = bot.table()
        assert table is not None and table.game is not None
        assert table.game.hand_size(1) == 8 and table.game.current == 2
    finally:
        for p in players:
            p.client.close()
        bot.stop()
