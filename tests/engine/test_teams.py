"""Teams of two (``HouseRules.teams``, the ``teams`` preset): partners sit opposite, a player
going out wins the hand for the team, which scores the opponents' cards only, and the match to
500 is won by a team. Exact hands from the notation, then properties over seeded games."""

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
    partner,
    preset,
    team_of,
    team_scores,
)

TEAMS = preset("teams")


def crafted(match: Match, text: str) -> None:
    match.start_hand()
    match.game = position(text, match.rules)


def test_the_preset_is_the_official_game_in_pairs() -> None:
    assert TEAMS.teams and TEAMS.target_score == 500
    assert (TEAMS.min_players, TEAMS.max_players) == (4, 6)
    assert (
        dataclasses.replace(TEAMS, teams=False, name="official", min_players=2, max_players=10)
        == PRESETS["official"]
    )


def test_partners_sit_opposite() -> None:
    assert [partner(s, 4) for s in range(4)] == [2, 3, 0, 1]
    assert [partner(s, 6) for s in range(6)] == [3, 4, 5, 0, 1, 2]
    assert [team_of(s, 6) for s in range(6)] == [0, 1, 2, 0, 1, 2]


@pytest.mark.parametrize("players", [2, 3, 5, 7, 8, 10])
def test_only_four_or_six_play_teams(players: int) -> None:
    wide = dataclasses.replace(TEAMS, min_players=2, max_players=10)
    assert wide.deal_problem(players) == (
        f"teams of two are played by 4 or 6 players, not {players}"
    )
    with pytest.raises(ValueError, match="4 or 6 players"):
        Game.deal(players, wide, Random(1))
    assert not wide.deal_problem(4) and not wide.deal_problem(6)


def test_a_teams_range_without_4_or_6_is_refused() -> None:
    with pytest.raises(ValueError, match="teams of two need 4 or 6 players"):
        TEAMS.with_option("min_players", "5").with_option("max_players", "5")
    assert TEAMS.with_option("teams", "off").teams is False


def test_going_out_scores_only_the_opponents_cards() -> None:
    match = Match(4, TEAMS, Random(1))
    # ann (seat 0) and cat (seat 2) are partners; cat's W is not counted
    crafted(match, "top=R5 | ann*: R1 | bob: B9 YS | cat: W | dan: G5 WD4")
    events = match.apply(0, Play(card("R1")))
    end = events[-1]
    assert isinstance(end, HandEnded)
    assert end.outcome.winner == 0
    assert end.outcome.points == (0, 29, 50, 55)
    assert end.outcome.scores == (84, 0, 84, 0)
    assert match.totals == [84, 0, 84, 0]


def test_six_players_three_teams() -> None:
    match = Match(6, TEAMS, Random(1))
    # eve (seat 4) goes out: her partner is bob (seat 1); opponents are 0/3 and 2/5
    crafted(
        match,
        "top=G2 | a: R1 | bob: WD4 | c: B3 | d: Y4 | eve*: G7 | f: RS",
    )
    events = match.apply(4, Play(card("G7")))
    out = events[-1]
    assert isinstance(out, HandEnded)
    assert out.outcome.scores == (0, 28, 0, 0, 28, 0)  # 1 + 3 + 4 + 20, not bob's 50


def test_a_draw_card_to_finish_counts_for_the_team() -> None:
    match = Match(4, TEAMS, Random(1))
    # bob goes out with a Draw Two on cat: cat draws Y9 R8 first, and they count
    crafted(match, "top=R5 | ann: R1 | bob*: RD2 | cat: G1 | dan: W | pile=Y9 R8")
    out = match.apply(1, Play(card("RD2")))[-1]
    assert isinstance(out, HandEnded)
    assert out.outcome.points == (1, 0, 18, 50)
    assert out.outcome.scores == (0, 19, 0, 19)


def test_the_match_to_500_is_won_by_both_partners() -> None:
    match = Match(4, TEAMS, Random(1))
    crafted(match, "top=R5 | a*: R1 | b: W W W W | c: WD4 | d: W W W W")
    match.apply(0, Play(card("R1")))
    assert match.totals == [400, 0, 400, 0] and not match.over
    crafted(match, "top=R5 | a: W W | b*: R4 | c: W | d: B9")  # b and d: 150
    match.apply(1, Play(card("R4")))
    assert match.totals == [400, 150, 400, 150] and not match.over
    crafted(match, "top=R5 | a: RS | b: W W | c*: R7 | d: W")  # c: 150 of b and d, not a's RS
    events = match.apply(2, Play(card("R7")))
    assert match.totals == [550, 150, 550, 150]
    assert events[-1] == MatchEnded(MatchOutcome((550, 150, 550, 150), (0, 2), 3))


def test_own_points_in_teams_count_both_partners_cards() -> None:
    assert team_scores(1, (5, 0, 7, 20), Scoring.OWN_POINTS) == (12, 20, 12, 20)
    assert team_scores(1, (5, 0, 7, 20), Scoring.WINNER_COLLECTS) == (0, 12, 0, 12)


def test_a_leaver_forfeits_the_match_for_their_team() -> None:
    match = Match(4, TEAMS, Random(1))
    crafted(match, "top=R5 | a*: R1 | b: W | c: B2 | d: G5")
    match.apply(0, Play(card("R1")))  # a+c 55
    match.start_hand()
    events = match.remove_player(0)
    assert match.over
    assert events[-1] == MatchEnded(MatchOutcome((55, 0, 55, 0), (1, 3), 1))


def test_a_leaver_of_six_hands_the_match_to_the_best_other_team() -> None:
    match = Match(6, TEAMS, Random(1))
    crafted(match, "top=R5 | a: W | b*: R1 | c: B2 | d: G5 | e: Y1 | f: Y2")  # b+e 59 (not e's Y1)
    match.apply(1, Play(card("R1")))
    match.start_hand()
    events = match.remove_player(4)  # e leaves: b and e are out, a+d and c+f tie on 0
    assert events[-1] == MatchEnded(MatchOutcome((0, 59, 0, 0, 59, 0), (0, 2, 3, 5), 1))


# --- properties over many seeded games ----------------------------------------------------------


def check_team_outcome(game: Game) -> None:
    check_invariants(game)
    out = game.outcome
    assert out is not None
    n = game.n
    winner, mate = out.winner, partner(out.winner, n)
    assert game.hand_size(winner) == 0
    opponents = sum(c.points for s in range(n) if s not in (winner, mate) for c in game.hand(s))
    assert out.scores[winner] == out.scores[mate] == opponents
    assert all(out.scores[s] == 0 for s in range(n) if s not in (winner, mate))


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.sampled_from([4, 6]))
def test_team_hands_keep_every_invariant(seed: int, players: int) -> None:
    game, _ = Game.deal(players, TEAMS, Random(seed))
    play_checked(game, Random(seed ^ 0x5EED), probes=2)
    check_team_outcome(game)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.sampled_from([4, 6]))
def test_team_matches_end_with_a_team_on_500(seed: int, players: int) -> None:
    match = Match(players, TEAMS, Random(seed))
    agent = Random(seed)
    while not match.over:
        assert len(match.hands) < 200
        match.start_hand()
        game = match.game
        assert game is not None
        while not game.over:
            match.apply(game.current, choose(game.legal_actions(), agent))
        check_team_outcome(game)
        for s in range(players):
            assert match.totals[s] == match.totals[partner(s, players)]
    assert match.outcome is not None
    best = max(match.totals)
    assert best >= 500
    winners = match.outcome.winners
    assert winners and all(match.totals[s] == best for s in winners)
    assert {partner(s, players) for s in winners} == set(winners), "a team wins, never half"
