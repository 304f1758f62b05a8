"""Computer players in teams (pairs, and two teams with seats alternating): they never catch a
teammate, hand the turn to a teammate about to go out (pairs at a table of four; two teams at
any size), and play whole team games and arenas."""

from __future__ import annotations

import dataclasses
from random import Random

import pytest

from unobot.ai.arena import main as arena_main
from unobot.ai.arena import play_hand
from unobot.ai.hard import HardStrategy
from unobot.ai.normal import NormalStrategy
from unobot.ai.observation import Observer
from unobot.engine import Catch, Play, preset
from unobot.engine.cards import Card
from unobot.engine.notation import parse_position

TEAMS = preset("teams")
SOLO = dataclasses.replace(TEAMS, teams=False, name="official")


def observe(text: str, seat: int, rules=TEAMS):  # type: ignore[no-untyped-def]
    game, _ = parse_position(text, rules, Random(1))
    return game, Observer(seat, game.n, rules).observe(game)


def test_a_missed_uno_call_is_caught_by_opponents_not_by_the_partner() -> None:
    game, _ = parse_position("top=R5 | a: G1 G2 | b: B1 B2 | c*: R7 R8 | d: Y1 Y2", TEAMS)
    game.apply(2, Play(Card.parse("R7")))  # c forgets UNO
    assert game.exposed == 2
    for strategy in (NormalStrategy(Random(1)), HardStrategy(Random(1), playouts=40)):
        partner_view = Observer(0, 4, TEAMS).observe(game)
        assert Catch(2) in partner_view.legal
        assert strategy.act(partner_view) != Catch(2)
    opponent_view = Observer(1, 4, TEAMS).observe(game)
    assert NormalStrategy(Random(1)).act(opponent_view) == Catch(2)


def test_with_the_partner_on_one_card_normal_skips_the_opponent_between() -> None:
    text = "top=G9 | a*: R9 R8 R7 R6 R2 GS | b: B1 B2 B3 | c: Y4 | d: B4 B5 B6"
    _, solo = observe(text, 0, SOLO)
    assert NormalStrategy(Random(1)).act(solo) == Play(Card.parse("R9"))  # its own best
    _, team = observe(text, 0)
    assert NormalStrategy(Random(1)).act(team) == Play(Card.parse("GS"))  # c plays next


def test_team_hands_are_played_to_the_end_by_every_level() -> None:
    for seed in range(6):
        winner, scores, _ = play_hand(
            ["hard", "normal", "easy", "normal"], TEAMS, seed, playouts=30
        )
        assert winner >= 0
        assert scores[winner] == scores[(winner + 2) % 4] and sum(scores) == 2 * scores[winner]
    winner, _, _ = play_hand(["normal"] * 6, TEAMS, 3)
    assert winner >= 0


def test_the_arena_takes_the_teams_preset(capsys) -> None:  # type: ignore[no-untyped-def]
    assert arena_main(
        ["--preset", "teams", "--players", "hard,normal,hard,normal", "--games", "8",
         "--playouts", "20"]
    ) == 0  # fmt: skip
    out = capsys.readouterr().out
    assert "fair share per team: 50.0%" in out
    hard = next(line for line in out.splitlines() if line.startswith("hard"))
    normal = next(line for line in out.splitlines() if line.startswith("normal"))
    # a team's samples are its hands, and every hand is won by one of the two teams
    assert int(hard.split()[2]) == int(normal.split()[2]) == 8
    assert int(hard.split()[3]) + int(normal.split()[3]) == 8


# --- two teams, seats alternating (the ``two-teams`` preset) -------------------------------------

TWO = preset("two-teams")
TWO_SOLO = dataclasses.replace(TWO, teams=False, name="official")


def test_with_two_teams_no_teammate_is_ever_caught() -> None:
    """Seats alternate: a (0), c (2) and e (4) are one team. e forgets UNO: a and c let it
    go, every opponent catches it."""
    text = "top=R5 | a: G1 G2 | b: B1 B2 | c: Y1 Y2 | d: B3 B4 | e*: R7 R8 | f: G3 G4"
    game, _ = parse_position(text, TWO)
    game.apply(4, Play(Card.parse("R7")))
    assert game.exposed == 4
    for seat in (0, 2):
        view = Observer(seat, 6, TWO).observe(game)
        assert Catch(4) in view.legal
        assert NormalStrategy(Random(1)).act(view) != Catch(4)
        assert HardStrategy(Random(1), playouts=40).act(view) != Catch(4)
    for seat in (1, 3, 5):
        view = Observer(seat, 6, TWO).observe(game)
        assert NormalStrategy(Random(1)).act(view) == Catch(4)


def test_with_two_teams_normal_skips_the_opponent_before_a_close_teammate() -> None:
    """With two teams the seat two turns on is always a teammate: at six, a's Skip stops b
    and hands the turn to c, on one card (in pairs, at six, c would be an opponent)."""
    text = "top=G9 | a*: R9 R8 R7 R6 R2 GS | b: B1 B2 B3 | c: Y4 | d: B4 B5 B6 | e: G1 G2 | f: G3"
    _, solo = observe(text, 0, TWO_SOLO)
    assert NormalStrategy(Random(1)).act(solo) == Play(Card.parse("R9"))  # its own best
    _, team = observe(text, 0, TWO)
    assert NormalStrategy(Random(1)).act(team) == Play(Card.parse("GS"))  # c plays next
    _, pairs = observe(text, 0, TEAMS)  # pairs of six: c is an opponent, not helped
    assert NormalStrategy(Random(1)).act(pairs) == Play(Card.parse("R9"))


def test_two_team_hands_are_played_to_the_end_by_every_level() -> None:
    for players in (6, 8, 10):
        levels = (["hard", "normal", "easy", "normal", "hard"] * 2)[:players]
        winner, scores, _ = play_hand(levels, TWO, players, playouts=20)
        assert winner >= 0
        team = {s for s in range(players) if s % 2 == winner % 2}
        assert all(scores[s] == scores[winner] for s in team)
        assert all(scores[s] == 0 for s in range(players) if s not in team)


def test_the_arena_takes_the_two_teams_preset(capsys) -> None:  # type: ignore[no-untyped-def]
    assert arena_main(
        ["--preset", "two-teams", "--players", "hard,normal,hard,normal,hard,normal",
         "--games", "6", "--playouts", "12"]
    ) == 0  # fmt: skip
    out = capsys.readouterr().out
    assert "two teams of 3 (a win counts for every teammate); fair share per team: 50.0%" in out
    hard = next(line for line in out.splitlines() if line.startswith("hard"))
    normal = next(line for line in out.splitlines() if line.startswith("normal"))
    # a team's samples are its hands, and every hand is won by one of the two teams
    assert int(hard.split()[2]) == int(normal.split()[2]) == 6
    assert int(hard.split()[3]) + int(normal.split()[3]) == 6


def test_the_arena_wants_each_team_of_one_level(capsys) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(SystemExit):
        arena_main(["--preset", "two-teams", "--players", "hard,hard,normal,normal"])
    assert "teammates sit every 2 seats" in capsys.readouterr().err


def test_the_arena_counts_a_teams_points_once() -> None:
    """Every teammate is credited the team's points: the table reports the team's points per
    hand, not that times the team's size. Two hands: hard's team won 30, normal's 50."""
    from unobot.ai.arena import ArenaResult, table

    result = ArenaResult(
        ("hard", "normal", "hard", "normal", "hard", "normal"), 2, [1] * 6,
        [30.0, 50.0] * 3, [900.0, 2500.0] * 3, 100, 1.0,
    )  # fmt: skip
    lines = table(result, team_size=3)
    hard = next(line for line in lines if line.startswith("hard")).split()
    normal = next(line for line in lines if line.startswith("normal")).split()
    assert (hard[2], hard[3], hard[6]) == ("2", "1", "15.0")
    assert (normal[2], normal[3], normal[6]) == ("2", "1", "25.0")
