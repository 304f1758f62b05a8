"""Stats over a real IRC server: complete games are recorded, then ``.unostats`` and
``.unotop10`` answer in the channel with the figures those games add up to, and privately while
a game is being played there.

The store is the real SQLite one (``SqlStatsStore`` on a fresh file), wrapped so the test also
sees the records the bot handed it.
"""

from __future__ import annotations

import dataclasses
import re
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.core.test_stats_recording import RecordingStore
from tests.e2e.conftest import unique
from tests.e2e.servers import IrcServer
from tests.e2e.test_games import NetGame, Player, RunningBot, make_players, server  # noqa: F401
from unobot.core.table import TableConfig
from unobot.irc.casemap import irc_lower
from unobot.stats import Ranking
from unobot.stats.sql import SqlStatsStore


@pytest.fixture
def stats_bot(
    server: IrcServer,  # noqa: F811
    tmp_path: Path,
) -> Iterator[tuple[RunningBot, RecordingStore, list[Player]]]:
    store = RecordingStore(SqlStatsStore(f"sqlite:///{tmp_path / 'stats.db'}"))
    bot = RunningBot(server, "#" + unique("stats"), TableConfig(), seed=23, store=store)  # type: ignore[arg-type]
    # Rank everyone from their first game (set before anyone speaks: the bot reads it per
    # command).
    bot.bot.config = dataclasses.replace(bot.bot.config, stats_min_games=1)
    players = make_players(server, 3, bot.channel)
    yield bot, store, players
    for p in players:
        p.client.close()
    bot.stop()
    store.close()


def play_one(bot: RunningBot, players: list[Player]) -> None:
    game = NetGame(bot, players)
    game.start()
    game.play_to_end()
    for p in players:
        p.agent.hand = []


def ask(game: NetGame, player: Player, text: str) -> tuple[list[str], list[str]]:
    """The bot's new channel lines and notices to ``player`` after ``text``."""
    before = len(game.channel_text())
    told = game.command(player, text)
    return game.channel_text()[before:], told


def test_games_are_recorded_and_stats_answer_with_their_figures(
    stats_bot: tuple[RunningBot, RecordingStore, list[Player]],
) -> None:
    bot, store, players = stats_bot
    play_one(bot, players)
    play_one(bot, players[:2])
    assert len(store.games) == 2
    nicks = [p.client.nick for p in players]
    for record in store.games:
        assert record.channel == irc_lower(bot.channel) and record.preset == "irc-classic"
        assert sum(r.won for r in record.results) == 1
        assert all(r.finished for r in record.results)
        assert {r.nick for r in record.results} <= set(nicks)

    figures: dict[str, tuple[int, int, int]] = {}
    for nick in nicks:
        mine = [r for g in store.games for r in g.results if r.nick == nick]
        figures[nick] = (len(mine), sum(r.won for r in mine), sum(r.points_won for r in mine))
    # The order of equal figures is the store's to choose: take it from the store, check it is
    # ordered by points per game, and check every figure against the records.
    board = store.leaderboard(Ranking.POINTS_PER_GAME, 10, min_games=1)
    order = [s.nick for s in board]
    assert sorted(order) == sorted(nicks)
    ppg = [figures[n][2] / figures[n][0] for n in order]
    assert ppg == sorted(ppg, reverse=True)

    game = NetGame(bot, players)
    first = players[0]
    said, _ = ask(game, first, ".unostats")
    games, wins, points = figures[first.client.nick]
    rank = order.index(first.client.nick) + 1
    assert said == [
        f"{first.client.nick}: {games} games, {wins} win{'' if wins == 1 else 's'} "
        f"({100 * wins / games:.1f}%), "
        f"{points} points, {points / games:.1f} points/game, rank {rank} by points per game"
    ]
    said, _ = ask(game, players[1], ".unotop10")
    entries = [
        f"{i}. {n} {figures[n][2] / figures[n][0]:.1f} ({figures[n][0]})"
        for i, n in enumerate(order, 1)
    ]
    assert said == ["Uno top 10 by points per game (games): " + ", ".join(entries)]
    said, _ = ask(game, players[2], f".unostats pw {players[0].client.nick}")
    assert len(said) == 1 and re.search(r"rank \d by percent wins$", said[0])

    # During a game in the channel, the list comes privately and the channel hears nothing.
    game.start()
    said, told = ask(game, players[2], ".unotop10 here")
    assert said == []
    assert [t for t in told if t.startswith("Uno top 10")] == [
        "Uno top 10 by points per game (games) in " + bot.channel + ": " + ", ".join(entries)
    ]
    game.command(first, ".unostop")
    assert len(store.games) == 2  # stopped before any hand ended: not recorded


def test_a_bot_without_a_store_says_stats_are_off(server: IrcServer) -> None:  # noqa: F811
    """Briefly and privately."""
    bot = RunningBot(server, "#" + unique("nostats"), TableConfig(), seed=29)
    (player,) = make_players(server, 1, bot.channel)
    try:
        game = NetGame(bot, [player])
        said, told = ask(game, player, ".unotop10")
        assert said == [] and told == ["Stats are off on this bot."]
    finally:
        player.client.close()
        bot.stop()


def test_a_played_game_keeps_its_moves_and_unogame_answers(
    server: IrcServer,  # noqa: F811
    tmp_path: Path,
) -> None:
    """Over a real server, a journaled bot wired to its database as ``unobot.main`` wires it
    (the database worker) records the game with its move list; the replay of that list says
    what the channel saw; ``.unogame`` (the asker's last game) and ``.unogame <id>`` answer
    with the game's summary, privately."""
    from unobot.replay.steps import steps

    url = f"sqlite:///{tmp_path / 'stats.db'}"
    bot = RunningBot(
        server, "#" + unique("replay"), TableConfig(), seed=29, database=url,
        journal=tmp_path / "tables",
    )  # fmt: skip
    players = make_players(server, 3, bot.channel)
    reader = SqlStatsStore(url, spool_path=tmp_path / "reader.spool")
    try:
        game = NetGame(bot, players)
        before = len(game.channel_text())
        play_one(bot, players)
        seen = game.channel_text()[before:]
        nick = players[0].client.nick
        deadline = time.monotonic() + 10
        while (record := reader.last_game(nick)) is None:
            assert time.monotonic() < deadline, "the game was not written"
            time.sleep(0.1)
        assert record.moves is not None
        replayed = [line for step in steps(record.moves) for line in step.lines]
        # every line the replay says, the channel saw, in the same order
        it = iter(seen)
        assert all(any(line == s for s in it) for line in replayed), (replayed, seen)
        assert len(replayed) >= len(seen) - 2
        short = record.short_id
        said, told = ask(game, players[0], ".unogame")
        assert said == []
        assert told[0].startswith(f"Game {short} in {irc_lower(bot.channel)}")
        assert nick in " ".join(told)
        said, told = ask(game, players[1], f".unogame {short.upper()}")
        assert said == [] and told[0].startswith(f"Game {short} ")
    finally:
        for p in players:
            p.client.close()
        bot.stop()
        reader.close()


def test_a_new_channel_lists_provisional_players_and_a_stopped_game_is_shown_stopped(
    server: IrcServer,  # noqa: F811
    tmp_path: Path,
) -> None:
    """Issue 37 over a real server, on the bot wired to its database as ``unobot.main`` wires
    it, with its journal: a new channel's ``.unotop10`` says nobody has played (and what
    counts as a game); a match stopped with ``.unostop`` in its second hand is recorded as
    stopped, won by nobody; ``.unogame`` says so, ``.unostats`` counts it as a stopped game of
    a provisional player, and ``.unotop10`` lists the players so far as provisional."""
    from tests.e2e.test_presets_e2e import PresetGame
    from unobot.engine import preset

    url = f"sqlite:///{tmp_path / 'stats.db'}"
    bot = RunningBot(
        server, "#" + unique("stop"), TableConfig(rules=preset("official")), seed=31,
        database=url, journal=tmp_path / "tables",
    )  # fmt: skip
    players = make_players(server, 3, bot.channel)
    reader = SqlStatsStore(url, spool_path=tmp_path / "reader.spool")
    rule = "A game counts once a hand of it is played out; a stopped game counts, won by nobody."
    try:
        game = PresetGame(bot, players, seed=3)
        first = players[0]
        said, told = ask(game, first, ".unotop10")
        assert said == [] and told == [f"Nobody has played Uno yet. {rule}"]
        game.command(first, ".uno")
        for p in players[1:]:
            game.command(p, ".join")
        game.command(first, ".deal")
        for _ in range(3000):
            table = bot.table()
            if table is not None and table.hand_number >= 2:
                break
            game.step()
        table = bot.table()
        assert table is not None and table.hand_number == 2 and table.match is not None
        totals = dict(zip(table.names, table.match.totals, strict=True))
        said, _ = ask(game, first, ".unostop")
        assert said[-1].endswith("stopped the game. .uno for another game.")
        deadline = time.monotonic() + 10
        while (record := reader.last_game(first.client.nick)) is None:
            assert time.monotonic() < deadline, "the stopped game was not written"
            time.sleep(0.1)
        assert record.stopped and not any(r.won for r in record.results)
        assert {r.nick: r.points_won for r in record.results} == totals
        # .unogame: stopped in the hand it was stopped in, nobody marked as the winner.
        said, told = ask(game, players[1], ".unogame")
        summary = " ".join(told)
        assert said == [] and summary.startswith(f"Game {record.short_id} in ")
        assert ", stopped in hand 2: 1. " in summary and "won" not in summary
        # .unostats: one game, stopped, not won; provisional, with what counts as a game.
        nick = first.client.nick
        points = totals[nick]
        said, _ = ask(game, first, ".unostats")
        assert said == [
            f"{nick}: 1 game (1 stopped), 0 wins (0.0%), {points} point"
            f"{'' if points == 1 else 's'}, {points:.1f} points/game, "
            f"provisional (fewer than 5 games). {rule}"
        ]
        # .unotop10: everyone so far, marked provisional, by points per game.
        said, _ = ask(game, players[2], ".unotop10")
        best = sorted(totals.items(), key=lambda kv: -kv[1])
        assert len(said) == 1 and said[0].startswith(
            "Uno top 10 by points per game (games): provisional (fewer than 5 games): "
            f"{best[0][0]} {best[0][1]:.1f} (1)"
        )
        assert all(f"{n} {p:.1f} (1)" in said[0] for n, p in totals.items())
    finally:
        for p in players:
            p.client.close()
        bot.stop()
        reader.close()
