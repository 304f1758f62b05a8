"""Team matches over a real IRC server, played to their end by real clients who read only what
the bot tells them.

Pairs: ``.uno teams`` (the old name of ``pairs``), a ``.team`` pairing (the others paired in
join order), partners seated opposite, hands won for the team, final totals by team, every
partner's result recorded as the team's win or loss, and ``.unostats`` counting it as a team
game. Two teams (the 1993 sheet's "team game for 4, 6, 8 and 10 players: two teams, seats
alternating"): six seats, four people and two computer players, teams chosen by letter and by
nick, seats alternating, hands and the match won by a team, every player's result recorded."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator

import pytest

from tests.e2e.conftest import module_server, unique
from tests.e2e.servers import IrcServer
from tests.e2e.test_games import GAME_SERVERS, Player, RunningBot, make_players
from tests.e2e.test_presets_e2e import PresetGame
from unobot.core.computers import ComputerConfig
from unobot.core.table import TableConfig
from unobot.engine import preset
from unobot.irc.casemap import irc_lower
from unobot.stats.memory import MemoryStatsStore

server = module_server(*GAME_SERVERS)

TARGET = 150
"""The teams preset plays to 500; a lower target keeps the match to a few hands."""


@pytest.fixture
def cleanup() -> Iterator[tuple[list[RunningBot], list[Player]]]:
    made: tuple[list[RunningBot], list[Player]] = ([], [])
    yield made
    for p in made[1]:
        p.client.close()
    for bot in made[0]:
        bot.stop()


def test_a_team_match_is_played_to_the_end_over_irc(
    server: IrcServer, cleanup: tuple[list[RunningBot], list[Player]]
) -> None:
    rules = dataclasses.replace(preset("teams"), target_score=TARGET)
    store = MemoryStatsStore()
    bot = RunningBot(server, "#" + unique("teams"), TableConfig(rules=rules), seed=31, store=store)
    cleanup[0].append(bot)
    seated = make_players(server, 4, bot.channel)
    cleanup[1].extend(seated)
    a, b, c, d = seated
    na, nb, nc, nd = (p.client.nick for p in seated)
    game = PresetGame(bot, seated, seed=7)
    game.command(a, ".uno teams")
    for p in (b, c, d):
        game.command(p, ".join")
    # a and c pair up with .team; b and d are left over and paired at the deal
    game.command(a, f".team {nc}")
    assert game.channel_text()[-1] == f"{na} asks {nc} to be partners: {nc}, .team {na} to accept."
    assert any("your partner is another player" in t for t in game.command(b, f".team {nb}"))
    game.command(c, f".team {na}")
    assert game.channel_text()[-1] == f"{nc} and {na} are a team."
    assert any(
        f"{na} already plays with {nc}: a team is two players" in t
        for t in game.command(d, f".team {na}")
    )
    game.command(a, ".deal")
    deal = " ".join(game.channel_text()[-2:])
    # partners opposite: seats a, b, c, d in join order become a, b, c, d with a+c and b+d
    assert (
        f"Uno (pairs) [to {TARGET} points]: {na}, {nb}, {nc}, {nd}; "
        f"teams (partners opposite): {na} + {nc}; {nb} + {nd}"
    ) in deal, deal
    text = game.play_match()
    assert re.search(rf"wins the hand for team ({na} \+ {nc}|{nb} \+ {nd})", text)
    final = re.search(
        rf"Team (\S+ \+ \S+) wins the match! Totals: {re.escape(na)} \+ {re.escape(nc)} (\d+), "
        rf"{re.escape(nb)} \+ {re.escape(nd)} (\d+)",
        text,
    )
    assert final is not None, text[-400:]
    ours, theirs = int(final.group(2)), int(final.group(3))
    winners = {na, nc} if final.group(1) == f"{na} + {nc}" else {nb, nd}
    assert max(ours, theirs) >= TARGET
    assert (ours > theirs) == (winners == {na, nc})
    # every partner's game recorded: the team's win (both) or loss (both), the team's total
    for p in seated:
        stats = store.player(p.client.nick, min_games=1)
        assert stats is not None and stats.games == 1
        assert stats.wins == (p.client.nick in winners), p.client.nick
    recorded = store.last_game(na)
    assert recorded is not None and recorded.teams
    points = {irc_lower(r.nick): r.points_won for r in recorded.results}
    assert points[irc_lower(na)] == points[irc_lower(nc)] == ours
    assert points[irc_lower(nb)] == points[irc_lower(nd)] == theirs
    # the leaderboards say which games were team games: .unostats counts this one
    game.command(b, ".unostats")
    won = nb in winners
    assert game.channel_text()[-1].startswith(
        f"{nb}: 1 game (1 in teams), {1 if won else 0} win{'' if won else 's'} "
    ), game.channel_text()[-1]


def test_a_match_of_two_teams_of_three_is_played_to_the_end_over_irc(
    server: IrcServer, cleanup: tuple[list[RunningBot], list[Player]]
) -> None:
    """``.uno two-teams`` (the channel's rules, a two-team game to 150) with four people and two
    computer players (``.addbot``): teams chosen
    with ``.team b`` and ``.team <nick>`` (a computer player's too), the rest dealt to the
    smaller team; seats alternate A B A B A B, the deal names both teams, hands are won for a
    team by letter, and the match by a team, every player of which is recorded as a winner."""
    rules = dataclasses.replace(preset("two-teams"), target_score=TARGET)
    store = MemoryStatsStore()
    bots = ComputerConfig(delay=0.05, playouts=30)
    bot = RunningBot(
        server, "#" + unique("two"), TableConfig(rules=rules), seed=33, store=store, bots=bots
    )
    cleanup[0].append(bot)
    seated = make_players(server, 4, bot.channel)
    cleanup[1].extend(seated)
    a, b, c, d = seated
    na, nb, nc, nd = (p.client.nick for p in seated)
    game = PresetGame(bot, seated, seed=9)
    game.command(a, ".uno two-teams")
    for p in (b, c, d):
        game.command(p, ".join")
    game.command(a, ".addbot easy")
    game.command(b, ".addbot normal")
    # b picks team B by letter, c joins b's team by nick; d asks for the easy computer player,
    # who has no team yet: both join the smaller team, A
    game.command(b, ".team b")
    assert game.channel_text()[-1] == f"{nb} joins team B (now {nb})."
    game.command(c, f".team {nb}")
    assert game.channel_text()[-1] == f"{nc} joins team B (now {nb}, {nc})."
    game.command(d, ".team EasyBot1")
    assert game.channel_text()[-1] == f"{nd} and EasyBot1 join team A (now {nd}, EasyBot1)."
    refused = game.command(a, ".team zed")
    assert any("name a team, .team a or .team b, or a player of this game" in t for t in refused)
    listed = game.command(a, ".team")
    assert any(f"Team A: {nd}, EasyBot1. Team B: {nb}, {nc}." in t for t in listed), listed
    game.command(a, ".deal")
    deal = " ".join(game.channel_text()[-3:])
    # a and NormalBot1 chose nothing; A (d, EasyBot1) and B (b, c) are even, so a joins A (a
    # tie) and NormalBot1 then the smaller, B. Each team in join order, seats alternate:
    # A: a, d, EasyBot1; B: b, c, NormalBot1.
    assert (
        f"Uno (two-teams) [to {TARGET} points]: {na}, {nb}, {nd}, {nc}, EasyBot1, NormalBot1; "
        f"two teams, seats alternating: team A {na}, {nd}, EasyBot1; "
        f"team B {nb}, {nc}, NormalBot1"
    ) in deal, deal
    assert "Two teams: going out wins the hand for your whole team." in deal
    text = game.play_match()
    assert re.search(r"wins the hand for team [AB] and \d+ points!", text), text[-400:]
    assert re.search(r"Totals: team A \d+, team B \d+ \(first to", text)
    final = re.search(r"Team ([AB]) wins the match! Totals: team A (\d+), team B (\d+)", text)
    assert final is not None, text[-400:]
    won, total_a, total_b = final.group(1), int(final.group(2)), int(final.group(3))
    assert max(total_a, total_b) >= TARGET and (total_a > total_b) == (won == "A")
    team_a = {na, nd, "EasyBot1"}
    winners = team_a if won == "A" else {nb, nc, "NormalBot1"}
    recorded = store.last_game(na)
    assert recorded is not None and recorded.teams and recorded.preset == "two-teams"
    results = {r.nick: r for r in recorded.results}
    assert set(results) == {na, nb, nc, nd, "EasyBot1", "NormalBot1"}
    for nick, r in results.items():
        assert r.won == (nick in winners), nick
        assert r.points_won == (total_a if nick in team_a else total_b), nick
        assert r.place == (1 if nick in winners else 4), nick
    for p in seated:
        stats = store.player(p.client.nick, min_games=1)
        assert stats is not None and stats.games == 1 and stats.team_games == 1
        assert stats.wins == (p.client.nick in winners)
