"""Records over a real IRC server: a bot wired to its database as ``unobot.main`` wires it (the
database worker, the move lists read for the records) plays a real game with real clients, then
``.unorecords`` answers in the channel with that game's winner and figures, and one record
with the game that set it."""

from __future__ import annotations

import dataclasses
import time
from pathlib import Path

from tests.e2e.conftest import unique
from tests.e2e.servers import IrcServer
from tests.e2e.test_games import NetGame, RunningBot, make_players, server  # noqa: F401
from tests.e2e.test_stats_e2e import ask, play_one
from unobot.core.table import TableConfig
from unobot.irc.casemap import irc_lower
from unobot.stats.model import Period
from unobot.stats.sql import SqlStatsStore


def test_a_played_game_sets_the_records_and_unorecords_says_so(
    server: IrcServer,  # noqa: F811
    tmp_path: Path,
) -> None:
    url = f"sqlite:///{tmp_path / 'stats.db'}"
    bot = RunningBot(
        server, "#" + unique("records"), TableConfig(), seed=31, database=url,
        journal=tmp_path / "tables",
    )  # fmt: skip
    # No list limits in this test (the first answer would hold the channel's for 10 s).
    bot.bot.config = dataclasses.replace(bot.bot.config, stats_cooldown=0.0)
    players = make_players(server, 3, bot.channel)
    reader = SqlStatsStore(url, spool_path=tmp_path / "reader.spool")
    try:
        game = NetGame(bot, players)
        said, _ = ask(game, players[0], ".unorecords")
        assert said == [f"No Uno records in {irc_lower(bot.channel)} yet."]
        play_one(bot, players)
        deadline = time.monotonic() + 10
        while (record := reader.last_game(players[0].client.nick)) is None:
            assert time.monotonic() < deadline, "the game was not written"
            time.sleep(0.1)
        winner = next(r.nick for r in record.results if r.won)
        held = {r.kind.key: r for r in reader.records(Period.ALL, bot.channel)}
        # Every record comes from this game; the move-list ones were read by the bot's store.
        assert set(held) == {"moves", "time", "points", "streak", "cards", "comeback", "day"}
        assert all(r.game_id == record.game_id for r in held.values())
        assert (held["streak"].nick, held["streak"].figure) == (winner, 1)
        assert held["moves"].nick == winner and held["moves"].figure >= 7

        said, _ = ask(game, players[1], ".unorecords")
        text = " ".join(said)
        assert said[0].startswith(f"Uno records in {irc_lower(bot.channel)} (people only): ")
        assert f"fewest moves: {winner} {held['moves'].figure} moves" in text
        assert f"streak: {winner} 1 win in a row" in text
        said, _ = ask(game, players[2], ".unorecords cards")
        cards = held["cards"]
        assert said == [
            f"Most cards held at once in {irc_lower(bot.channel)}: {cards.nick}, "
            f"{cards.figure} cards, {cards.at:%Y-%m-%d %H:%M} UTC, game {record.short_id}"
        ]
    finally:
        for p in players:
            p.client.close()
        bot.stop()
        reader.close()
