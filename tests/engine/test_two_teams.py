"""Two teams (``team_game two-teams``, the ``two-teams`` preset): the 1993 Mattel/International
Games sheet's team game, "for 4, 6, 8 and 10 players: two teams, seats alternating". A player
going out ends the hand for everyone and their team scores every opponent's cards, as the same
sheet's partners game: "When either partner goes out, the hand is over. Total all of the
points in both opposing partner's hands"; first team to 500. Exact hands from the notation,
then properties over seeded games of every size."""

from __future__ import annotations

import dataclasses
from random import Random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.engine.helpers import card, position
from tests.engine.test_properties import check_invariants, choose, play_checked
from unobot.engine import (
    PRESETS,
    Game,
    HandEnded,
    Match,
    MatchEnded,
    MatchOutcome,
    Play,
    Scoring,
    TeamGame,
    preset,
    preset_name,
    team_scores,
    teammates,
)
from unobot.engine.errors import RuleError

TWO = preset("two-teams")
PAIRS = preset("pairs")


def crafted(match: Match, text: str) -> None:
    match.start_hand()
    match.game = position(text, match.rules)


def test_the_preset_is_the_official_game_in_two_teams_of_up_to_ten() -> None:
    """The sheet: "Its team game for 4, 6, 8 and 10 players"; first team to 500."""
    assert TWO.teams and TWO.team_game is TeamGame.TWO_TEAMS and TWO.target_score == 500
    assert (TWO.min_players, TWO.max_players) == (4, 10)
    assert TWO.team_sizes == (4, 6, 8, 10)
    plain = dataclasses.replace(
        TWO, teams=False, team_game=TeamGame.PAIRS, name="official", min_players=2
    )
    assert plain == PRESETS["official"]


def test_pairs_keeps_its_old_names() -> None:
    """``teams`` was the pairs preset's name: stored channel rules and ``.uno teams`` still
    mean pairs, and so does the sheet's word for them, ``partners``."""
    assert preset("teams") is preset("partners") is PAIRS
    assert PAIRS.name == "pairs" and PAIRS.team_game is TeamGame.PAIRS
    assert preset_name(" Teams ") == "pairs" and preset_name("two-teams") == "two-teams"
    assert preset_name("trios") is None
    assert "teams" not in PRESETS  # listed once, under its new name


def test_seats_alternate_between_the_two_teams() -> None:
    """The sheet: "two teams, seats alternating" - the even seats against the odd."""
    assert TWO.team_count(10) == 2 and PAIRS.team_count(6) == 3
    assert teammates(3, 10, 2) == (1, 3, 5, 7, 9)
    assert teammates(4, 8, 2) == (0, 2, 4, 6)
    assert teammates(4, 6, 3) == (1, 4)  # pairs: partners opposite


@pytest.mark.parametrize("players", [2, 3, 5, 7, 9])
def test_only_4_6_8_or_10_play_two_teams(players: int) -> None:
    wide = dataclasses.replace(TWO, min_players=2)
    assert wide.deal_problem(players) == (
        f"two teams are played by 4, 6, 8 or 10 players, not {players}"
    )
    with pytest.raises(ValueError, match="4, 6, 8 or 10 players"):
        Game.deal(players, wide, Random(1))
    assert not any(wide.deal_problem(n) for n in (4, 6, 8, 10))


def test_ten_players_are_dealt_from_one_deck() -> None:
    game, _ = Game.deal(10, TWO, Random(3))
    assert all(game.hand_size(s) == 7 for s in range(10))
    assert len(game.draw_pile) + len(game.discard) == 108 - 70


def test_a_range_without_an_even_count_is_refused() -> None:
    with pytest.raises(RuleError, match="two teams need 4, 6, 8 or 10 players"):
        TWO.with_option("min_players", "9").with_option("max_players", "9")
    assert PAIRS.with_option("team_game", "two-teams").team_game is TeamGame.TWO_TEAMS
    with pytest.raises(RuleError, match="team_game is one of: pairs, two-teams"):
        TWO.with_option("team_game", "trios")


def test_going_out_scores_every_opponents_cards_for_the_whole_team() -> None:
    """The sheet: "When either partner goes out, the hand is over. Total all of the points in both
    opposing partner's hands": with two teams of three, all three opponents' hands count, the
    teammates' do not, and every player of the team is credited the team's points."""
    match = Match(6, TWO, Random(1))
    # e (seat 4) goes out: a, c, e are team A (even seats); b, d, f team B
    crafted(match, "top=G2 | a: W | b: B3 | c: WD4 | d: Y4 RS | e*: G7 | f: R1")
    end = match.apply(4, Play(card("G7")))[-1]
    assert isinstance(end, HandEnded)
    assert end.outcome.winner == 4
    assert end.outcome.points == (50, 3, 50, 24, 0, 1)
    assert end.outcome.scores == (28, 0, 28, 0, 28, 0)  # 3 + 24 + 1, not a's or c's wilds
    assert match.totals == [28, 0, 28, 0, 28, 0]


def test_eight_players_odd_seat_goes_out() -> None:
    match = Match(8, TWO, Random(1))
    crafted(
        match,
        "top=R5 | a: G1 | b: W | c: G2 | d*: R9 | e: G3 | f: B9 | g: G4 | h: WD4",
    )
    end = match.apply(3, Play(card("R9")))[-1]
    assert isinstance(end, HandEnded)
    assert end.outcome.scores == (0, 10, 0, 10, 0, 10, 0, 10)  # 1 + 2 + 3 + 4


def test_a_draw_card_to_finish_hits_an_opponent_and_counts() -> None:
    """Seats alternate, so the next player is always an opponent: a Draw Two to go out makes
    an opponent draw, and those cards count for the team (Mattel's T8231: "These cards are
    counted when the points are totaled")."""
    match = Match(6, TWO, Random(1))
    crafted(match, "top=R5 | a*: RD2 | b: G1 | c: B9 | d: G2 | e: Y1 | f: G3 | pile=Y9 R8")
    out = match.apply(0, Play(card("RD2")))[-1]
    assert isinstance(out, HandEnded)
    assert out.outcome.points == (0, 18, 9, 2, 1, 3)
    assert out.outcome.scores == (23, 0, 23, 0, 23, 0)


def test_the_match_to_500_is_won_by_the_whole_team() -> None:
    """The sheet's partners game: the first team to 500 wins; every player of it wins."""
    match = Match(4, TWO, Random(1))
    crafted(match, "top=R5 | a*: R1 | b: W W W W | c: WD4 | d: W W W W")
    match.apply(0, Play(card("R1")))
    assert match.totals == [400, 0, 400, 0] and not match.over
    crafted(match, "top=R5 | a: RS | b: W W | c*: R7 | d: W")
    events = match.apply(2, Play(card("R7")))
    assert match.totals == [550, 0, 550, 0]
    assert events[-1] == MatchEnded(MatchOutcome((550, 0, 550, 0), (0, 2), 2))


def test_own_points_in_two_teams_count_the_whole_team() -> None:
    points = (5, 0, 7, 20, 1, 2)
    assert team_scores(1, points, Scoring.OWN_POINTS, 2) == (13, 22, 13, 22, 13, 22)
    assert team_scores(1, points, Scoring.WINNER_COLLECTS, 2) == (0, 13, 0, 13, 0, 13)
    # pairs: the same function with three teams of two
    assert team_scores(1, points, Scoring.WINNER_COLLECTS) == (0, 34, 0, 0, 34, 0)


def test_a_leaver_forfeits_the_match_for_their_team() -> None:
    match = Match(6, TWO, Random(1))
    crafted(match, "top=R5 | a: W | b*: R1 | c: B2 | d: G5 | e: Y1 | f: Y2")  # B: 53
    match.apply(1, Play(card("R1")))
    match.start_hand()
    events = match.remove_player(2)  # c of team A leaves: team B wins the match
    assert match.over
    assert events[-1] == MatchEnded(MatchOutcome((0, 53, 0, 53, 0, 53), (1, 3, 5), 1))


def test_a_timed_match_counts_each_teams_cards_together() -> None:
    match = Match(4, dataclasses.replace(TWO, scoring=Scoring.OWN_POINTS), Random(1))
    crafted(match, "top=R5 | a*: R1 G2 | b: W | c: B2 | d: G5")
    match.end_by_time()
    assert match.totals == [5, 55, 5, 55]
    assert match.outcome is not None and match.outcome.winners == (0, 2)


# --- properties over many seeded games ----------------------------------------------------------


def check_two_team_outcome(game: Game) -> None:
    check_invariants(game)
    out = game.outcome
    assert out is not None
    n = game.n
    team = teammates(out.winner, n, 2)
    assert game.hand_size(out.winner) == 0
    opponents = sum(c.points for s in range(n) if s not in team for c in game.hand(s))
    assert all(out.scores[s] == opponents for s in team)
    assert all(out.scores[s] == 0 for s in range(n) if s not in team)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.sampled_from([4, 6, 8, 10]))
def test_two_team_hands_keep_every_invariant(seed: int, players: int) -> None:
    game, _ = Game.deal(players, TWO, Random(seed))
    play_checked(game, Random(seed ^ 0x5EED), probes=2)
    check_two_team_outcome(game)


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.sampled_from([4, 6, 8, 10]))
def test_two_team_matches_end_with_a_team_on_500(seed: int, players: int) -> None:
    match = Match(players, TWO, Random(seed))
    agent = Random(seed)
    while not match.over:
        assert len(match.hands) < 200
        match.start_hand()
        game = match.game
        assert game is not None
        while not game.over:
            match.apply(game.current, choose(game.legal_actions(), agent))
        check_two_team_outcome(game)
        for s in range(players):
            assert match.totals[s] == match.totals[s % 2]
    assert match.outcome is not None
    best = max(match.totals)
    assert best >= 500
    winners = set(match.outcome.winners)
    assert winners in ({*range(0, players, 2)}, {*range(1, players, 2)}), "a team wins, whole"
