"""Matches (running totals, target score, single hand, timed end, dealer rotation) and
determinism (same seed and actions, same events card for card)."""

from __future__ import annotations

from random import Random

import pytest

from tests.engine.helpers import card, cards, of_type, position, rules
from unobot.engine import (
    PRESETS,
    CardPlayed,
    Event,
    Game,
    HandEnded,
    HandOutcome,
    HandStarted,
    HouseRules,
    Match,
    MatchEnded,
    MatchOutcome,
    Play,
    Scoring,
    errors,
)

WINNER_COLLECTS = rules(target_score=100)
OWN_POINTS = rules(target_score=100, scoring=Scoring.OWN_POINTS)


def random_move(game: Game, policy: Random) -> tuple[int, object]:
    seat = game.current
    return seat, policy.choice(game.legal_actions(seat))


def play_hand(match: Match, policy: Random) -> list[Event]:
    """Play the current hand of ``match`` to its end with random legal actions."""
    assert match.game is not None
    events: list[Event] = []
    for _ in range(10_000):
        if match.game.over:
            return events
        seat, action = random_move(match.game, policy)
        events += match.apply(seat, action)  # type: ignore[arg-type]
    raise AssertionError("hand did not end")


def crafted_hand(match: Match, text: str) -> None:
    """Replace the freshly dealt hand by an exact position (same table size and rules)."""
    match.start_hand()
    match.game = position(text, match.rules)


# --- exact totals from crafted hands ------------------------------------------------------------


def test_winner_collects_running_totals_and_target() -> None:
    match = Match(3, WINNER_COLLECTS, Random(1))
    crafted_hand(match, "top=R5 | a*: R1 | b: W B9 | c: G5")  # a scores 50 + 9 + 5
    events = match.apply(0, Play(card("R1")))
    assert isinstance(events[-1], HandEnded)
    assert events[-1].outcome.scores == (64, 0, 0)
    assert match.totals == [64, 0, 0]
    assert not match.over
    crafted_hand(match, "top=R5 | a: R2 R3 | b*: R4 | c: GS Y1")  # b scores 5 + 21
    match.apply(1, Play(card("R4")))
    assert match.totals == [64, 26, 0]
    assert not match.over
    crafted_hand(match, "top=R5 | a: WD4 | b: R2 | c*: R9 | pile=Y9")  # c: 50 + 2
    events = match.apply(2, Play(card("R9")))
    assert match.totals == [64, 26, 52]
    assert not match.over
    crafted_hand(match, "top=R5 | a*: R1 | b: W | c: G5")  # a: 55 more, 119 >= 100
    events = match.apply(0, Play(card("R1")))
    assert match.totals == [119, 26, 52]
    assert match.over
    assert events[-1] == MatchEnded(MatchOutcome((119, 26, 52), (0,), 4))
    assert match.outcome == MatchOutcome((119, 26, 52), (0,), 4)
    assert [h.winner for h in match.hands] == [0, 1, 2, 0]
    with pytest.raises(errors.UnoError, match="the match is over"):
        match.start_hand()


def test_own_points_reaching_the_target_ends_and_lowest_total_wins() -> None:
    match = Match(3, OWN_POINTS, Random(1))
    crafted_hand(match, "top=R5 | a*: R1 | b: W B9 | c: G5")
    match.apply(0, Play(card("R1")))
    assert match.hands[-1].scores == (0, 59, 5)
    assert match.totals == [0, 59, 5]
    assert not match.over
    crafted_hand(match, "top=R5 | a: W WD4 | b*: R4 | c: G5")
    events = match.apply(1, Play(card("R4")))
    assert match.totals == [100, 59, 10]
    assert match.over
    assert events[-1] == MatchEnded(MatchOutcome((100, 59, 10), (2,), 2))


def test_tied_best_totals_are_all_winners() -> None:
    match = Match(3, rules(OWN_POINTS, target_score=10), Random(1))
    crafted_hand(match, "top=R5 | a*: R1 | b: B5 | c: G5")
    match.apply(0, Play(card("R1")))
    assert match.totals == [0, 5, 5]
    crafted_hand(match, "top=R5 | a: B5 | b*: R1 | c: G9 G1")
    events = match.apply(1, Play(card("R1")))
    assert events[-1] == MatchEnded(MatchOutcome((5, 5, 15), (0, 1), 2))


def test_single_hand_when_no_target_and_no_time_limit() -> None:
    classic = PRESETS["irc-classic"]
    assert classic.target_score == 0 and classic.time_limit_minutes == 0
    match = Match(3, classic, Random(4))
    crafted_hand(match, "top=R5 | a: B1 | b*: R1 | c: G5")
    events = match.apply(1, Play(card("R1")))
    assert events[0] == CardPlayed(1, card("R1"), card("R1").color, 0)  # type: ignore[arg-type]
    assert isinstance(events[1], HandEnded)
    assert events[2] == MatchEnded(MatchOutcome((0, 6, 0), (1,), 1))
    assert match.over
    assert match.totals == [0, 6, 0]


def test_single_hand_own_points_lowest_wins() -> None:
    match = Match(4, PRESETS["bac-tournament"], Random(4))
    crafted_hand(match, "top=R5 | a: B1 | b*: R1 | c: G5 | d: WD4")
    events = match.apply(1, Play(card("R1")))
    assert events[-1] == MatchEnded(MatchOutcome((1, 0, 5, 50), (1,), 1))


# --- timed matches ------------------------------------------------------------------------------


def test_timed_own_points_match_counts_the_incomplete_hand() -> None:
    knockout = PRESETS["knockout"]
    assert knockout.time_limit_minutes == 60 and knockout.target_score == 0
    match = Match(3, knockout, Random(2))
    crafted_hand(match, "top=R5 | a*: R1 | b: B9 | c: G5")
    events = match.apply(0, Play(card("R1")))
    assert not any(isinstance(e, MatchEnded) for e in events)  # time, not a target, ends it
    assert not match.over
    assert match.totals == [0, 9, 5]
    crafted_hand(match, "top=R5 | a: RS W | b*: R2 G1 | c: Y7 Y8")
    match.apply(1, Play(card("R2")))
    assert match.hand_in_progress
    events = match.end_by_time()
    incomplete = HandOutcome(
        -1,
        (cards("RS W"), cards("G1"), cards("Y7 Y8")),
        (70, 1, 15),
        (70, 1, 15),
        complete=False,
    )
    assert match.hands[-1] == incomplete
    assert match.totals == [70, 10, 20]
    assert events == [MatchEnded(MatchOutcome((70, 10, 20), (1,), 2))]
    assert match.over
    assert match.end_by_time() == []


def test_timed_winner_collects_match_ignores_the_incomplete_hand() -> None:
    match = Match(2, rules(target_score=0, time_limit_minutes=30), Random(2))
    crafted_hand(match, "top=R5 | a*: R1 | b: B9")
    match.apply(0, Play(card("R1")))
    crafted_hand(match, "top=R5 | a*: R2 G1 | b: W B9")
    events = match.end_by_time()
    assert events == [MatchEnded(MatchOutcome((9, 0), (0,), 1))]
    assert len(match.hands) == 1


def test_timed_winner_collects_tie_goes_to_the_fewest_points_in_the_unfinished_hand() -> None:
    match = Match(3, rules(target_score=0, time_limit_minutes=30), Random(2))
    crafted_hand(match, "top=R5 | a*: R2 G1 WD4 | b: B9 Y3 | c: W")
    events = match.end_by_time()  # no hand finished: everyone on 0
    assert events == [MatchEnded(MatchOutcome((0, 0, 0), (1,), 0))]


def test_timed_winner_collects_tie_on_points_in_hand_stays_shared() -> None:
    match = Match(2, rules(target_score=0, time_limit_minutes=30), Random(2))
    crafted_hand(match, "top=R5 | a*: R2 G1 | b: B3")
    assert match.end_by_time() == [MatchEnded(MatchOutcome((0, 0), (0, 1), 0))]


def test_end_by_time_between_hands() -> None:
    match = Match(2, rules(PRESETS["knockout"], max_players=4), Random(2))
    crafted_hand(match, "top=R5 | a*: R1 | b: B9")
    match.apply(0, Play(card("R1")))
    assert not match.hand_in_progress
    assert match.end_by_time() == [MatchEnded(MatchOutcome((0, 9), (0,), 1))]


# --- the match's own bookkeeping ----------------------------------------------------------------


@pytest.mark.parametrize("first_dealer", [0, 2])
def test_dealer_moves_on_each_hand(first_dealer: int) -> None:
    # (Random players who draw at will hoard cards until one hand reaches any target.)
    match = Match(3, rules(target_score=100, voluntary_draw=False), Random(5), dealer=first_dealer)
    policy = Random(6)
    dealers = []
    for _ in range(4):
        events = match.start_hand()
        started = events[0]
        assert isinstance(started, HandStarted)
        dealers.append(started.dealer)
        assert match.game is not None and match.game.dealer == started.dealer
        play_hand(match, policy)
        if match.over:
            break
    assert len(dealers) >= 2
    assert dealers == [(first_dealer + i) % 3 for i in range(len(dealers))]


def test_match_refuses_out_of_order_calls() -> None:
    match = Match(2, WINNER_COLLECTS, Random(1))
    with pytest.raises(errors.UnoError, match="no hand has been dealt"):
        match.apply(0, Play(card("R1")))
    match.start_hand()
    with pytest.raises(errors.UnoError, match="a hand is already being played"):
        match.start_hand()
    with pytest.raises(ValueError, match="for 3 to 10 players"):
        Match(2, PRESETS["ocuk-tournament"], Random(1))


def test_match_after_a_hand_ended_refuses_actions() -> None:
    match = Match(2, WINNER_COLLECTS, Random(1))
    crafted_hand(match, "top=R5 | a*: R1 | b: B9")
    match.apply(0, Play(card("R1")))
    with pytest.raises(errors.HandOver):
        match.apply(1, Play(card("B9")))


@pytest.mark.parametrize("scoring", list(Scoring))
def test_random_matches_keep_running_totals(scoring: Scoring) -> None:
    rule_set = rules(target_score=150, scoring=scoring)
    match = Match(4, rule_set, Random(21))
    policy = Random(22)
    hands = 0
    while not match.over:
        match.start_hand()
        events = play_hand(match, policy)
        hands += 1
        ended = of_type(events, HandEnded)
        assert len(ended) == 1 and ended[0].outcome is match.hands[-1]
        expected = [sum(h.scores[s] for h in match.hands) for s in range(4)]
        assert match.totals == expected
        if max(expected) >= 150:
            assert isinstance(events[-1], MatchEnded)
        else:
            assert not match.over
        assert hands < 100
    assert match.outcome is not None
    best = (min if scoring is Scoring.OWN_POINTS else max)(match.totals)
    assert match.outcome.winners == tuple(s for s in range(4) if match.totals[s] == best)
    assert match.outcome.hands == hands == len(match.hands)


# --- determinism --------------------------------------------------------------------------------


def record_game(seed: int, policy_seed: int, rule_set: HouseRules, players: int) -> list[Event]:
    game, events = Game.deal(players, rule_set, Random(seed))
    policy = Random(policy_seed)
    for _ in range(10_000):
        if game.over:
            return events
        seat, action = random_move(game, policy)
        events = events + game.apply(seat, action)  # type: ignore[arg-type]
    raise AssertionError("hand did not end")


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_same_seed_and_actions_give_the_same_events(name: str) -> None:
    rule_set = PRESETS[name]
    players = max(rule_set.min_players, 4)
    first = record_game(31, 32, rule_set, players)
    second = record_game(31, 32, rule_set, players)
    assert first == second
    assert isinstance(first[-1], HandEnded)
    assert record_game(33, 32, rule_set, players) != first


def test_same_seed_same_match() -> None:
    def run() -> tuple[list[Event], list[int]]:
        match = Match(3, rules(target_score=120), Random(8))
        policy = Random(9)
        log: list[Event] = []
        while not match.over:
            log += match.start_hand()
            log += play_hand(match, policy)
        return log, match.totals

    assert run() == run()


def test_ocuk_target_in_the_first_hand_plays_one_more_and_both_can_go_through() -> None:
    from unobot.engine.events import HandOutcome

    ocuk = PRESETS["ocuk-tournament"]
    assert ocuk.extra_hand_if_first
    match = Match(3, ocuk, Random(1))
    first = HandOutcome(0, ((), (), ()), (0, 200, 100), (300, 0, 0))
    assert match._record(first) == []  # 300 >= 251 in the very first hand: one more hand
    assert not match.over
    second = HandOutcome(1, ((), (), ()), (0, 0, 260), (0, 260, 0))
    ended = match._record(second)
    assert match.over and match.outcome is not None
    assert match.outcome.winners == (0, 1)  # both at or above 251 go through
    assert ended and match.outcome.totals == (300, 260, 0)


def test_ocuk_first_hand_winner_alone_goes_through_after_the_extra_hand() -> None:
    from unobot.engine.events import HandOutcome

    match = Match(3, PRESETS["ocuk-tournament"], Random(1))
    match._record(HandOutcome(0, ((), (), ()), (0, 200, 100), (300, 0, 0)))
    match._record(HandOutcome(2, ((), (), ()), (10, 20, 0), (0, 0, 30)))
    assert match.outcome is not None and match.outcome.winners == (0,)
