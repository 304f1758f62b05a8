"""The game of two teams at the table and through commands (the 1993 Mattel/International Games
sheet: "Its team game for 4, 6, 8 and 10 players: two teams, seats alternating"): ``.uno
two-teams``, choosing a team with ``.team a|b|<nick>`` and its refusals, even teams at the deal,
seats alternating A B A B, the deal, hand, totals and match lines by team letter, computer
players in both teams, the record of every player's result, and a journaled game replayed."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from random import Random

import pytest

from tests.core.fakes import Harness, channel_lines, notices
from tests.core.test_computers import FAST, HumanVsComputers, with_store
from tests.core.test_journal import Clock, move, snapshot
from unobot.core.bot import BotConfig
from unobot.core.journal import Journal, replay_text
from unobot.core.render_irc import Cards, _engine_fragments, rules_note
from unobot.core.table import Table, TableConfig
from unobot.core.updates import EngineEvents, TeamJoined, Totals
from unobot.engine import TeamGame, preset
from unobot.engine.errors import UnoError
from unobot.engine.events import HandEnded, HandOutcome, MatchEnded, MatchOutcome

TWO = TableConfig(rules=preset("two-teams"))
NICKS = ("ann", "bob", "cat", "dan", "eve", "fay", "gus", "hal", "ivy", "jon")


def lobby(count: int, config: TableConfig = TWO) -> Table:
    table = Table("#uno", "ann", "ann", 0.0, config, Random(1))
    for nick in NICKS[1:count]:
        table.join(nick, nick, 0.0)
    return table


def replies(sent: list, nick: str) -> list[str]:
    return notices(sent, nick) + channel_lines(sent)


def test_uno_two_teams_opens_the_preset_and_pairs_keeps_its_names() -> None:
    for word, name in (("two-teams", "two-teams"), ("pairs", "pairs"), ("partners", "pairs"),
                       ("teams", "pairs")):  # fmt: skip
        h = Harness()
        h.say("ann", f".uno {word}")
        assert h.bot.tables["#uno"].config.rules.name == name


def test_uno_with_a_team_preset_keeps_the_channels_own_team_rules() -> None:
    """A channel whose rules are a game of two teams to 300: ``.uno two-teams`` and ``.uno
    teams`` open those; ``.uno pairs`` opens the pairs preset."""
    own = dataclasses.replace(preset("two-teams"), target_score=300)
    for word, target, name in (("two-teams", 300, "two-teams"), ("teams", 300, "two-teams"),
                               ("pairs", 500, "pairs")):  # fmt: skip
        h = Harness(config=BotConfig(table=TableConfig(rules=own)))
        h.say("ann", f".uno {word}")
        rules = h.bot.tables["#uno"].config.rules
        assert (rules.name, rules.target_score) == (name, target), word


def test_choosing_a_team_by_letter_or_by_a_players_nick() -> None:
    h = Harness()
    h.say("ann", ".uno two-teams")
    for nick in ("bob", "cat", "dan", "eve", "fay"):
        h.say(nick, ".join")
    assert channel_lines(h.say("bob", ".team B")) == ["bob joins team B (now bob)."]
    assert channel_lines(h.say("cat", ".team bob")) == ["cat joins team B (now bob, cat)."]
    # dan names eve, who has no team: both join the smaller team, A
    assert channel_lines(h.say("dan", ".team eve")) == ["dan and eve join team A (now dan, eve)."]
    assert channel_lines(h.say("dan", ".team b")) == ["dan joins team B (now bob, cat, dan)."]
    # ann chooses A, then names fay, who has no team yet: fay comes to ann's team
    h.say("ann", ".team a")
    assert channel_lines(h.say("ann", ".team fay")) == ["fay joins team A (now eve, ann, fay)."]
    listed = replies(h.say("fay", ".team"), "fay")
    assert listed == [
        "Team A: eve, ann, fay. Team B: bob, cat, dan. .team a or .team b (or .team <nick>) to "
        "choose; "
        "at the deal the others join the smaller team, in join order."
    ]


@pytest.mark.parametrize(
    ("who", "word", "reply"),
    [
        ("ann", "zed", "name a team, .team a or .team b, or a player of this game"),
        ("ann", "ann", "name a team, .team a or .team b, or another player"),
        ("bob", "a", "you already play for team A"),
        ("bob", "cat", "you already play for team A"),
        ("ann", "a\rb", "name a team"),
    ],
)
def test_team_refusals_are_clear(who: str, word: str, reply: str) -> None:
    table = lobby(6)
    table.team("bob", "a", 1.0)
    table.team("cat", "a", 1.0)
    with pytest.raises(UnoError, match=reply.replace(".", r"\.")):
        table.team(who, word, 2.0)


def test_a_team_holds_half_the_seats_at_most() -> None:
    table = lobby(10)
    for nick in NICKS[:5]:
        table.team(nick, "a", 1.0)
    with pytest.raises(UnoError, match="team A is full: 5 players at most"):
        table.team("fay", "a", 1.0)
    table.team("fay", "b", 1.0)  # the other team has room


@pytest.mark.parametrize("count", [5, 7, 9])
def test_only_even_tables_are_dealt(count: int) -> None:
    table = lobby(count)
    with pytest.raises(UnoError) as err:
        table.deal("ann", 1.0)
    assert str(err.value) == (
        f"two teams are dealt to 4, 6, 8 or 10 players, not {count}: others can .join"
    )


def test_a_team_chosen_by_more_than_half_is_not_dealt() -> None:
    table = lobby(6)
    for nick in ("ann", "bob", "cat", "dan"):
        table.team(nick, "b", 1.0)
    with pytest.raises(UnoError, match="team B has 4 players, more than half of 6: someone moves "
                                       r"with \.team a"):  # fmt: skip
        table.deal("ann", 2.0)
    table.team("dan", "a", 3.0)
    table.deal("ann", 4.0)  # eve and fay go to the smaller team, A
    assert table.team_names() == (("dan", "eve", "fay"), ("ann", "bob", "cat"))
    assert table.names == ("dan", "ann", "eve", "bob", "fay", "cat")


def test_seats_alternate_the_rest_dealt_to_the_smaller_team_in_join_order() -> None:
    """The sheet: "two teams, seats alternating". Nobody chose: the seats are the join order.
    Here eve and fay chose A, gus chose B; the others, in join order, each go to the smaller
    team (A on a tie)."""
    plain = lobby(8)
    plain.deal("ann", 1.0)
    assert plain.names == NICKS[:8]
    table = lobby(8)
    table.team("eve", "a", 1.0)
    table.team("fay", "a", 1.0)
    table.team("gus", "b", 1.0)
    update = table.deal("ann", 2.0)
    # A has 2, B 1: ann -> B (2-2), bob -> A (tie), cat -> B, dan -> A, hal -> B (4-4)
    assert table.team_names() == (("bob", "dan", "eve", "fay"), ("ann", "cat", "gus", "hal"))
    assert table.names == ("bob", "ann", "dan", "cat", "eve", "gus", "fay", "hal")
    dealt = update.events[0]
    assert dealt.two_teams and dealt.teams == table.team_names()
    for seat in range(8):
        assert table.side_of(table.players[seat]) == seat % 2


def test_the_deal_line_names_both_teams_and_the_rule() -> None:
    h = Harness()
    h.say("ann", ".uno two-teams")
    for nick in ("bob", "cat", "dan", "eve", "fay"):
        h.say(nick, ".join")
    lines = channel_lines(h.say("ann", ".deal"))
    text = " ".join(lines)
    assert (
        "Uno (two-teams) [to 500 points]: ann, bob, cat, dan, eve, fay; two teams, seats "
        "alternating: team A ann, cat, eve; team B bob, dan, fay" in text
    ), lines
    assert "Two teams: going out wins the hand for your whole team." in lines
    assert rules_note(preset("two-teams")) == (
        "Two teams: going out wins the hand for your whole team."
    )
    # during the game .team says who plays for whom
    assert replies(h.say("dan", ".team"), "dan") == [
        "Team A: ann, cat, eve. Team B: bob, dan, fay."
    ]


def test_hand_totals_and_match_lines_by_team_letter() -> None:
    table = lobby(6)
    table.deal("ann", 1.0)
    assert table._totals() == Totals((("A", 0), ("B", 0)), 500, False, lettered=True)
    outcome = HandOutcome(3, ((),) * 6, (50, 0, 3, 0, 24, 1), (0, 77, 0, 77, 0, 77))
    batch = EngineEvents((HandEnded(outcome),), table.names, TeamGame.TWO_TEAMS)
    assert (
        "dan wins the hand for team B and 77 points!" in _engine_fragments(batch, Cards(False))[0]
    )
    end = MatchEnded(MatchOutcome((520, 310) * 3, (0, 2, 4), 5))
    batch = EngineEvents((end,), table.names, TeamGame.TWO_TEAMS)
    text = " ".join(_engine_fragments(batch, Cards(False)))
    assert "Team A wins the match! Totals: team A 520, team B 310" in text
    from unobot.core.render_irc import channel_text
    from unobot.core.updates import Update

    said = channel_text(Update([Totals((("A", 84), ("B", 0)), 500, False, True)]), Cards(False))
    assert said == "Totals: team A 84, team B 0 (first to 500)."


def test_a_player_leaving_forfeits_the_match_for_their_team() -> None:
    table = lobby(6)
    table.deal("ann", 1.0)
    update = table.leave("dan", 2.0)  # team B
    assert update.finished and table.finished
    batch = next(e for e in update.events if isinstance(e, EngineEvents))
    text = " ".join(_engine_fragments(batch, Cards(False)))
    assert "Team A wins the match! Totals: team A 0, team B 0" in text


def test_ten_players_with_computers_in_both_teams_play_a_match_and_are_recorded() -> None:
    """One person and nine computer players (``.addbot``) of both teams play a whole match
    of two teams of five; every player's result is recorded: the winning team's five won,
    with the team's total, the other five lost, and the game is a team game."""
    rules = dataclasses.replace(preset("two-teams"), target_score=120)
    config = BotConfig(table=TableConfig(rules=rules, turn_timeout=10_000), bots=FAST)
    h = Harness(3, config)
    store = with_store(h)
    game = HumanVsComputers(h, ["easy", "normal"] * 4 + ["hard"], seed=4)
    lines = game.finish()
    text = " ".join(lines)
    assert "two teams, seats alternating: team A alice, " in text
    assert "wins the hand for team " in text
    assert "Totals: team A " in text
    (record,) = store._games.values()
    assert record.teams and record.preset == "two-teams" and len(record.results) == 10
    winners = [r for r in record.results if r.won]
    losers = [r for r in record.results if not r.won]
    assert len(winners) == len(losers) == 5
    assert len({r.points_won for r in winners}) == 1 and winners[0].points_won >= 120
    assert len({r.points_won for r in losers}) == 1
    # a team's place is shared: 1 for the winners, 6 for the other team
    assert {r.place for r in winners} == {1} and {r.place for r in losers} == {6}
    assert any(r.is_bot for r in winners) and any(r.is_bot for r in losers)


def test_a_journaled_two_team_game_replays_exactly(tmp_path: Path) -> None:
    clock = Clock()
    journal = Journal(tmp_path, clock, wall=lambda: clock.t)
    table = Table("#uno", "p0", "p0", clock(), TWO, Random(9))
    journal.opened(table, 9, clock(), "p0")
    for i in range(1, 8):
        table.join(f"p{i}", f"p{i}", clock())
    table.team("p5", "b", clock())
    table.team("p6", "p5", clock())
    table.team("p0", "b", clock())
    clock.t += 1
    table.deal("p0", clock())
    assert table.team_names() == (("p1", "p2", "p3", "p4"), ("p0", "p5", "p6", "p7"))
    rng = Random(4)
    for _ in range(400):
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


def test_team_joined_is_an_update_event() -> None:
    table = lobby(4)
    update = table.team("bob", "a", 1.0)
    assert update.events == [TeamJoined(("bob",), "A", ("bob",))]


def test_channel_rules_stored_under_the_old_name_teams_still_load() -> None:
    """The settings store (and a table's journal) keep a preset's name and the options changed
    from it: rules stored as ``teams`` load as the pairs preset, and are stored again under
    its name, ``pairs``; a game of two teams round-trips as ``two-teams``."""
    from unobot.core.settings import rules_as_text, rules_from_text

    old = rules_from_text("teams", {"target_score": "300"})
    assert (old.name, old.team_game, old.target_score) == ("pairs", TeamGame.PAIRS, 300)
    assert rules_as_text(old) == ("pairs", {"target_score": "300"})
    two = dataclasses.replace(preset("two-teams"), target_score=250)
    assert rules_from_text(*rules_as_text(two)) == two
    # the option on another preset: official with teams on and two teams
    own = preset("official").with_option("teams", "on").with_option("team_game", "two-teams")
    assert rules_as_text(own) == ("official", {"teams": "on", "team_game": "two-teams"})
    assert rules_from_text(*rules_as_text(own)) == own


def test_unorules_takes_the_old_and_new_names() -> None:
    h = Harness()
    said = replies(h.say("ann", ".unorules preset teams", is_op=True), "ann")
    assert any("pairs" in line for line in said), said
    said = replies(h.say("ann", ".unorules preset two-teams", is_op=True), "ann")
    assert any("two-teams" in line for line in said), said
    h.say("ann", ".uno")
    assert h.bot.tables["#uno"].config.rules.team_game is TeamGame.TWO_TEAMS
