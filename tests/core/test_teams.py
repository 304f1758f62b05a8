"""Teams of two at the table and through commands: ``.uno teams``, ``.team`` pairing and its
refusals, partners seated opposite at the deal, the deal line and totals by team, computer
partners, and a journaled team game replayed exactly."""

from __future__ import annotations

from pathlib import Path
from random import Random

import pytest

from tests.core.fakes import Harness, channel_lines, notices
from tests.core.test_journal import Clock, move, snapshot
from unobot.core.journal import Journal, replay_text
from unobot.core.table import Table, TableConfig
from unobot.core.updates import EngineEvents, Totals
from unobot.engine import TeamGame, preset
from unobot.engine.errors import UnoError
from unobot.engine.events import HandEnded, HandOutcome

TEAMS = TableConfig(rules=preset("teams"))


def lobby(*nicks: str, config: TableConfig = TEAMS) -> Table:
    table = Table("#uno", nicks[0], nicks[0], 0.0, config, Random(1))
    for nick in nicks[1:]:
        table.join(nick, nick, 0.0)
    return table


def replies(sent: list, nick: str) -> list[str]:
    return notices(sent, nick) + channel_lines(sent)


def test_team_requests_pair_when_mutual() -> None:
    h = Harness()
    h.say("ann", ".uno teams")
    for nick in ("bob", "cat", "dan"):
        h.say(nick, ".join")
    asked = channel_lines(h.say("ann", ".team cat"))
    assert asked == ["ann asks cat to be partners: cat, .team ann to accept."]
    made = channel_lines(h.say("cat", ".team ANN"))
    assert made == ["cat and ann are a team."]
    assert any("Teams: ann + cat." in line for line in replies(h.say("bob", ".team"), "bob"))


@pytest.mark.parametrize(
    ("who", "text", "reply"),
    [
        ("ann", ".team ann", "your partner is another player"),
        ("ann", ".team zed", "no player of that name is in this game"),
        ("ann", ".team cat", "you already play with cat"),
        ("bob", ".team cat", "cat already plays with ann: a team is two players"),
        ("ann", ".team bob", "you already play with cat: a team is two players"),
        ("ann", ".team a\rb", "no player of that name"),
    ],
)
def test_team_refusals_are_clear(who: str, text: str, reply: str) -> None:
    table = lobby("ann", "bob", "cat", "dan")
    table.team("ann", "cat", 1.0)
    table.team("cat", "ann", 1.0)
    with pytest.raises(UnoError, match=reply.replace(".", r"\.")):
        table.team(who, text.split(" ", 1)[1], 2.0)


def test_team_outside_a_teams_game_or_after_the_deal() -> None:
    plain = lobby("ann", "bob", config=TableConfig(rules=preset("official")))
    with pytest.raises(
        UnoError, match=r"not played in teams: open one with \.uno pairs or \.uno two-teams"
    ):
        plain.team("ann", "bob", 1.0)
    table = lobby("ann", "bob", "cat", "dan")
    table.deal("ann", 1.0)
    with pytest.raises(UnoError, match="teams are made before the deal"):
        table.team("ann", "bob", 2.0)


@pytest.mark.parametrize("count", [2, 3, 5])
def test_only_4_or_6_are_dealt(count: int) -> None:
    names = ["ann", "bob", "cat", "dan", "eve"][:count]
    table = lobby(*names)
    with pytest.raises(UnoError) as err:
        table.deal("ann", 100.0)
    if count < 4:
        assert str(err.value) == "4 players are needed to deal: others can .join"
    else:
        assert str(err.value) == "teams of two are dealt to 4 or 6 players, not 5: others can .join"


def test_partners_sit_opposite_the_rest_paired_in_join_order() -> None:
    table = lobby("ann", "bob", "cat", "dan", "eve", "fay")
    table.team("dan", "bob", 1.0)
    table.team("bob", "dan", 1.0)
    update = table.deal("ann", 2.0)
    # bob+dan chosen; ann+cat and eve+fay paired in join order; teams ordered by first joiner
    assert table.names == ("ann", "bob", "eve", "cat", "dan", "fay")
    assert table.team_names() == (("ann", "cat"), ("bob", "dan"), ("eve", "fay"))
    dealt = update.events[0]
    assert dealt.teams == (("ann", "cat"), ("bob", "dan"), ("eve", "fay"))
    h = Harness()
    h.say("ann", ".uno teams")  # the old name of the pairs preset
    for nick in ("bob", "cat", "dan"):
        h.say(nick, ".join")
    lines = channel_lines(h.say("ann", ".deal"))
    assert any(
        "Uno (pairs) [to 500 points]: ann, cat, bob, dan; teams (partners opposite): "
        "ann + bob; cat + dan" in line
        for line in lines
    ), lines


def test_a_computer_partner_accepts_at_once_and_leaving_unpairs() -> None:
    table = lobby("ann", "bob", "cat")
    table.add_computer("hard", "Robo", 1.0)
    update = table.team("ann", "Robo", 1.0)
    assert [type(e).__name__ for e in update.events] == ["TeamMade"]
    assert table.team_names() == (("ann", "Robo"),)
    table.remove_computer("Robo", 2.0)
    assert table.team_names() == ()


def test_totals_and_hand_end_by_team() -> None:
    table = lobby("ann", "bob", "cat", "dan")
    table.deal("ann", 1.0)
    assert table._totals() == Totals((("ann + bob", 0), ("cat + dan", 0)), 500, False)
    from unobot.core.render_irc import Cards, _engine_fragments

    outcome = HandOutcome(0, ((), (), (), ()), (0, 29, 50, 55), (84, 0, 84, 0))
    text = _engine_fragments(
        EngineEvents((HandEnded(outcome),), table.names, TeamGame.PAIRS), Cards(False)
    )
    assert "ann wins the hand for team ann + bob and 84 points!" in text[0]


def test_a_journaled_team_game_replays_exactly(tmp_path: Path) -> None:
    clock = Clock()
    journal = Journal(tmp_path, clock, wall=lambda: clock.t)
    table = Table("#uno", "p0", "p0", clock(), TEAMS, Random(9))
    journal.opened(table, 9, clock(), "p0")
    for i in range(1, 6):
        table.join(f"p{i}", f"p{i}", clock())
    table.team("p4", "p1", clock())
    table.team("p1", "p4", clock())
    clock.t += 1
    table.deal("p0", clock())
    assert table.names == ("p0", "p1", "p3", "p2", "p4", "p5")
    rng = Random(4)
    for _ in range(300):
        if table.finished:
            break
        clock.t += 1
        move(table, rng, clock)
    assert table.moves is not None
    text = table.moves()
    assert text is not None and '"team"' in text
    rebuilt = replay_text(text)
    assert snapshot(rebuilt) == snapshot(table)
    assert rebuilt.team_names() == table.team_names()


def test_a_player_leaving_forfeits_the_match_for_their_team() -> None:
    table = lobby("ann", "bob", "cat", "dan")
    table.deal("ann", 1.0)
    update = table.leave("cat", 2.0)
    assert update.finished and table.finished
    batch = next(e for e in update.events if isinstance(e, EngineEvents))
    from unobot.core.render_irc import Cards, _engine_fragments

    text = " ".join(_engine_fragments(batch, Cards(False)))
    # join order pairs ann + bob and cat + dan: cat's team forfeits, ann + bob win on 0 - 0
    assert "Team ann + bob wins the match! Totals: ann + bob 0, cat + dan 0" in text
