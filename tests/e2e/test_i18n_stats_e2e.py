"""Stats in a German channel over a real IRC server, one player having asked for French: a bot
wired to its database as ``unobot.main`` wires it (the answers come back from the database
worker's thread, after the command) says its stats lines in the channel in German and sends
its private replies to the French player in French, to the others in German."""

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
from unobot.stats.sql import SqlStatsStore


def test_a_german_channel_answers_in_german_and_a_french_player_privately_in_french(
    server: IrcServer,  # noqa: F811
    tmp_path: Path,
) -> None:
    url = f"sqlite:///{tmp_path / 'stats.db'}"
    bot = RunningBot(
        server, "#" + unique("sprache"), TableConfig(), seed=37, database=url,
        journal=tmp_path / "tables",
    )  # fmt: skip
    channel = irc_lower(bot.channel)
    bot.bot.config = dataclasses.replace(bot.bot.config, stats_cooldown=0.0, stats_min_games=1)
    players = make_players(server, 2, bot.channel)
    reader = SqlStatsStore(url, spool_path=tmp_path / "reader.spool")
    try:
        game = NetGame(bot, players)
        play_one(bot, players)  # played in English: the test players read English game lines
        french, german = players
        deadline = time.monotonic() + 10
        while (record := reader.last_game(french.client.nick)) is None:
            assert time.monotonic() < deadline, "the game was not written"
            time.sleep(0.1)
        # The channel speaks German from now on ([bot.channel_languages]); one player French.
        bot.bot.config = dataclasses.replace(bot.bot.config, channel_languages={channel: "de"})
        game.command(french, ".unolang me fr")

        said, told = ask(game, german, f".unostats {french.client.nick}")
        assert told == [] and len(said) == 1
        assert said[0].startswith(f"{french.client.nick}: 1 Spiel, ")
        assert "Punkte/Spiel, Platz " in said[0] and "nach Punkten pro Spiel" in said[0]
        said, told = ask(game, french, ".unostats")  # said in the channel: the channel's
        assert said[0].startswith(f"{french.client.nick}: 1 Spiel, ") and told == []

        said, told = ask(game, french, ".unorating personne")
        assert said == [] and told == ["Aucune partie Uno cotée enregistrée pour personne."]
        said, told = ask(game, german, ".unorating niemand")
        assert said == [] and told == ["Keine gewerteten Uno-Spiele von niemand gespeichert."]

        said, told = ask(game, french, ".unogame")  # a summary, privately, in French
        assert said == []
        assert told[0].startswith(f"Partie {record.short_id} sur {channel} (irc-classic), ")
        assert " manche" in told[0] and "(victoire)" in " ".join(told)
        said, told = ask(game, german, ".unogame")
        assert said == [] and told[0].startswith(f"Spiel {record.short_id} in {channel} ")

        said, _ = ask(game, french, ".unorecords")  # a list said in the channel: German
        assert said[0].startswith(f"Uno-Rekorde in {channel} (nur Menschen): wenigste Züge: ")
        said, told = ask(game, french, ".unorecords streak")
        assert told == [] and said[0].startswith(f"Längste Siegesserie in {channel}: ")
        assert "1 Sieg in Folge" in said[0]
    finally:
        for p in players:
            p.client.close()
        bot.stop()
        reader.close()
