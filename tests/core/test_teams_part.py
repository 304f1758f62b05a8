"""The teams alone (``unobot.core.teams.Teams``): pairs asked and agreed, two teams' sides,
their refusals and the seat order at the deal, on plain players."""

from __future__ import annotations

import pytest

from unobot.core.seats import Player
from unobot.core.teams import Teams
from unobot.core.updates import TeamAsked, TeamJoined, TeamMade, Totals
from unobot.engine import preset
from unobot.engine.errors import UnoError


def people(*nicks: str) -> list[Player]:
    return [Player(n, n, level="easy" if n.startswith("Bot") else "") for n in nicks]


def test_a_pair_needs_two_asks_and_a_computer_never_refuses() -> None:
    teams = Teams(preset("pairs"))
    ann, bob, cat, bot = players = people("ann", "bob", "cat", "Bot1")
    assert teams.choose(bob, "ann", players) == TeamAsked("bob", "ann")
    assert teams.partner_of(ann) is None
    assert teams.choose(ann, "BOB", players) == TeamMade("ann", "bob")
    assert teams.partner_of(bob) is ann and teams.asks == []
    assert teams.choose(cat, "Bot1", players) == TeamMade("cat", "Bot1")
    assert teams.names(players, dealt=False) == (("ann", "bob"), ("cat", "Bot1"))
    with pytest.raises(UnoError, match="already play with bob"):
        teams.choose(ann, "cat", players)
    with pytest.raises(UnoError, match="cat already plays with Bot1"):
        teams.choose(Player("dan", "dan"), "cat", [*players, Player("dan", "dan")])
    with pytest.raises(UnoError, match="another player"):
        teams.choose(bot, "bot1", players)


def test_leaving_drops_a_players_team_and_asks() -> None:
    teams = Teams(preset("pairs"))
    ann, bob, cat, dan = players = people("ann", "bob", "cat", "dan")
    teams.choose(cat, "ann", players)
    teams.choose(bob, "dan", players)
    teams.choose(dan, "bob", players)
    teams.drop(ann)
    assert teams.asks == [] and teams.partner_of(dan) is bob
    teams.drop(bob)
    assert teams.pairs == [] and teams.partner_of(dan) is None


def test_pairs_are_dealt_opposite_each_other_the_rest_in_join_order() -> None:
    teams = Teams(preset("pairs"))
    players = people("ann", "bob", "cat", "dan", "eve", "fay")
    teams.choose(players[1], "fay", players)
    teams.choose(players[5], "bob", players)
    seated = teams.seat(players)
    assert [p.nick for p in seated] == ["ann", "bob", "dan", "cat", "fay", "eve"]
    assert teams.names(seated, dealt=True) == (("ann", "cat"), ("bob", "fay"), ("dan", "eve"))


def test_pairs_are_dealt_to_4_or_6() -> None:
    teams = Teams(preset("pairs"))
    with pytest.raises(UnoError, match=r"not 3: others can \.join"):
        teams.check_deal(3)
    with pytest.raises(UnoError, match=r"not 7: someone must \.leave"):
        teams.check_deal(7)
    teams.check_deal(4)


def test_two_teams_choose_sides_by_letter_or_by_player() -> None:
    teams = Teams(preset("two-teams"))
    ann, bob, cat, dan = players = people("ann", "bob", "cat", "dan")
    assert teams.choose(ann, "b", players) == TeamJoined(("ann",), "B", ("ann",))
    assert teams.choose(cat, "ann", players) == TeamJoined(("cat",), "B", ("ann", "cat"))
    assert teams.choose(bob, "dan", players) == TeamJoined(("bob", "dan"), "A", ("bob", "dan"))
    assert teams.side_of(dan) == 0 and teams.side_of(ann) == 1
    with pytest.raises(UnoError, match="already play for team B"):
        teams.choose(cat, "B", players)
    with pytest.raises(UnoError, match="name a team"):
        teams.choose(cat, "zoe", players)
    assert teams.names(players, dealt=False) == (("bob", "dan"), ("ann", "cat"))


def test_two_teams_refuse_an_uneven_deal_and_alternate_the_seats() -> None:
    teams = Teams(preset("two-teams"))
    players = people("ann", "bob", "cat", "dan")
    for p in players[:3]:
        teams.choose(p, "a", players)
    with pytest.raises(UnoError, match="team A has 3 players, more than half of 4"):
        teams.check_deal(4)
    with pytest.raises(UnoError, match="4, 6, 8 or 10 players, not 5"):
        teams.check_deal(5)
    teams.choose(players[2], "b", players)
    seated = teams.seat(players)
    assert [p.nick for p in seated] == ["ann", "cat", "bob", "dan"]
    assert [teams.side_of(p) for p in seated] == [0, 1, 0, 1]
    assert teams.names(seated, dealt=True) == (("ann", "bob"), ("cat", "dan"))


def test_not_in_teams_the_seats_stay() -> None:
    teams = Teams(preset("official"))
    players = people("ann", "bob")
    teams.check_deal(2)
    assert teams.seat(players) == players and teams.names(players, dealt=True) == ()


def test_totals_are_said_by_player_by_pair_or_by_team_letter() -> None:
    players = people("ann", "bob", "cat", "dan")
    official = preset("official")
    assert Teams(official).totals(players, (1, 2, 3, 4), official) == Totals(
        (("ann", 1), ("bob", 2), ("cat", 3), ("dan", 4)), official.target_score, False
    )
    pairs = preset("pairs")
    assert Teams(pairs).totals(players, (10, 20), pairs) == Totals(
        (("ann + cat", 10), ("bob + dan", 20)), pairs.target_score, False
    )
    two = preset("two-teams")
    assert Teams(two).totals(players, (5, 7), two) == Totals(
        (("A", 5), ("B", 7)), two.target_score, False, lettered=True
    )
