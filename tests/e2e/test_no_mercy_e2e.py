"""No Mercy over a real IRC server with real client connections: ``.uno no-mercy`` opens the
table, a player holding 20 cards is made to draw a Wild Draw Six and the mercy rule puts them
out (the channel says so), their commands are refused with one clear reply while the others
play the hand to its end, and the stats store records the game with a win for the winner."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.e2e.conftest import unique
from tests.e2e.servers import IrcServer
from tests.e2e.test_games import NetGame, Player, RunningBot, make_players, server  # noqa: F401
from tests.e2e.test_seven_jump_e2e import rig
from tests.plugins.fakes import strip_codes
from tests.plugins.test_stats_recording import RecordingStore
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
