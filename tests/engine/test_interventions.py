"""What the table does to a hand from outside the rules: timeouts and players leaving."""

from random import Random

import pytest

from unobot.engine import PRESETS, Match, Phase, errors
from unobot.engine.actions import Challenge, Draw, Play
from unobot.engine.events import (
    CardsDrawn,
    DrawReason,
    HandEnded,
    MatchEnded,
    SeatRemoved,
    TurnPassed,
)

from .helpers import OFFICIAL, G, card, hand, pile, position, rules


def test_force_pass_draws_one_even_with_a_playable_card() -> None:
    game = position("top=R5 | alice*: R7 B2 | bob: G1 | carol: Y1 | pile=B9 G3")
    events = game.force_pass(0)
    assert events == [CardsDrawn(0, (card("B9"),), DrawReason.DRAW), TurnPassed(0)]
    assert hand(game, 0) == "R7 B2 B9"
    assert game.current == 1 and game.phase is Phase.PLAY


def test_force_pass_keeps_a_drawn_card_the_rules_say_must_be_played() -> None:
    must = rules(OFFICIAL, after_draw=PRESETS["knockout"].after_draw)
    game = position("top=R5 | alice*: B2 | bob: G1 | carol: Y1 | pile=R9", must)
    game.apply(0, Draw())
    assert game.phase is Phase.DRAWN
    assert game.force_pass(0) == [TurnPassed(0)]
    assert hand(game, 0) == "R9 B2" and game.current == 1


def test_force_pass_takes_a_pending_draw() -> None:
    game = position("top=WD4 color=g pending=4 | alice*: B2 | bob: G1 | pile=R1 R2 R3 R4")
    events = game.force_pass(0)
    assert (
        CardsDrawn(0, tuple(map(card, ["R1", "R2", "R3", "R4"])), DrawReason.PENALTY_CARD) in events
    )
    assert game.current == 1 and game.pending == 0


def test_force_pass_on_a_pending_draw_is_the_draw_it_stands_for() -> None:
    """Taking a pending draw begins the turn, which ends the catch (004: "If you fail to say
    "UNO" and another player catches you before the next player starts their turn"): the
    timer's ``force_pass`` closes it as the ``Draw`` it stands for does (issue 38: the table
    no longer works around it)."""
    text = "top=R5 | alice*: WD4 R1 | bob: B2 | carol: Y1 | pile=G1 G2 G3 G4 G5"
    timed_out = position(text)
    drew = position(text)
    for game in (timed_out, drew):
        game.apply(0, Play(card("WD4"), G))  # down to one card, UNO not called
        assert game.exposed == 0 and game.phase is Phase.PENDING
    events = timed_out.force_pass(1)
    assert events == drew.apply(1, Draw())
    assert timed_out.exposed == drew.exposed == -1
    assert timed_out.current == drew.current == 2


def test_force_pass_chooses_the_colour_held_most_first() -> None:
    game = position("top=W color=r | alice*: G1 G2 B3 | bob: Y1 | pile=R9", OFFICIAL)
    game.phase = Phase.CHOOSE_COLOR
    game.force_pass(0)
    assert game.color is G and game.current == 1


def test_force_pass_only_for_the_player_to_move() -> None:
    game = position("top=R5 | alice*: R7 | bob: G1 | pile=B9")
    with pytest.raises(errors.NotYourTurn):
        game.force_pass(1)


def test_remove_seat_puts_cards_under_the_pile_and_renumbers() -> None:
    game = position("top=R5 | alice: R7 | bob*: G1 G2 | carol: Y1 Y2 | dave: B1 | pile=B9")
    events = game.remove_seat(1)
    assert events == [SeatRemoved(1, 2)]
    assert game.n == 3
    assert [hand(game, s) for s in range(3)] == ["R7", "Y1 Y2", "B1"]
    assert pile(game) == "B9 G2 G1"  # bob's cards are drawn last
    assert game.current == 1  # carol, the next player, now seat 1
    game.apply(1, Draw())  # she has nothing playable; the hand goes on
    assert game.current == 2


def test_remove_seat_keeps_the_turn_of_someone_else() -> None:
    game = position("top=R5 | alice: R7 | bob: G1 | carol*: Y1 R2 | pile=B9")
    game.remove_seat(0)
    assert game.current == 1 and hand(game, 1) == "R2 Y1"
    game.apply(1, Play(card("R2")))
    assert game.current == 0


def test_remove_seat_needs_three_players() -> None:
    game = position("top=R5 | alice*: R7 | bob: G1 | pile=B9")
    with pytest.raises(ValueError, match="forfeit"):
        game.remove_seat(0)


def test_forfeit_scores_the_leavers_cards_for_the_winner() -> None:
    game = position("top=R5 | alice*: R7 GS | bob: G1 W | pile=B9")
    events = game.forfeit(1)
    outcome = events[-1].outcome  # type: ignore[union-attr]
    assert isinstance(events[-1], HandEnded)
    assert outcome.winner == 0
    assert outcome.points == (0, 51)
    assert outcome.scores == (51, 0)
    assert game.over


def test_match_remove_player_with_two_ends_the_match() -> None:
    match = Match(2, OFFICIAL, Random(3))
    match.start_hand()
    events = match.remove_player(0)
    assert isinstance(events[-1], MatchEnded)
    assert match.outcome is not None and match.outcome.winners == (1,)
    assert match.totals[1] > 0


def test_match_remove_player_goes_on_with_three() -> None:
    match = Match(4, OFFICIAL, Random(3))
    match.start_hand()
    match.totals[:] = [10, 20, 30, 40]
    match.remove_player(1)
    assert match.players == 3 and match.totals == [10, 30, 40]
    game = match.game
    assert game is not None and game.n == 3
    while not game.over:
        match.apply(game.current, game.legal_actions()[0])
    assert len(match.totals) == 3


def test_a_hand_gone_below_the_rules_minimum_ends_the_match_when_it_ends() -> None:
    """ocuk-tournament's tables are "of at least 3 people" (000): a leaver takes a table of three
    down to two; the hand in play goes on, and when it ends the match ends on the totals, as
    a timed match does (issue 38: the match decides this, not the table)."""
    ocuk = PRESETS["ocuk-tournament"]
    match = Match(3, ocuk, Random(3))
    match.start_hand()
    match.game = position("top=R5 | alice*: R7 | bob: G1 G2 | carol: Y1 Y2", ocuk)
    match.totals[:] = [10, 200, 30]
    assert not [e for e in match.remove_player(1) if isinstance(e, MatchEnded)]
    assert match.players == 2 and match.hand_in_progress
    events = match.apply(0, Play(card("R7")))  # alice goes out: 10 + 3 (carol's Y1 Y2)
    assert isinstance(events[-2], HandEnded) and isinstance(events[-1], MatchEnded)
    assert match.over and match.totals == [13, 30]
    assert match.outcome is not None and match.outcome.winners == (1,)  # the highest total


def test_no_challenge_once_the_wd4_player_has_left() -> None:
    game = position(
        "top=R5 | alice*: WD4 R7 R8 | bob: G1 G2 | carol: Y1 Y2 | dave: B1 B2 | pile=B9 B8 B7 B6"
    )
    game.apply(0, Play(card("WD4"), G))
    game.remove_seat(0)
    assert Challenge() not in game.legal_actions(0)
    with pytest.raises(errors.CannotChallenge, match="has left"):
        game.apply(0, Challenge())
    assert game.counts() == [2, 2, 2]


def test_force_pass_on_a_pending_draw_closes_the_catch_window() -> None:
    game = position("top=R5 | alice*: WD4 R7 | bob: G1 | carol: Y1 | pile=B9 B8 B7 B6 B5")
    game.apply(0, Play(card("WD4"), G))
    assert game.exposed == 0
    game.force_pass(1)
    assert game.exposed == -1


def test_dealer_moves_to_the_next_player_when_the_dealer_leaves() -> None:
    match = Match(4, OFFICIAL, Random(3), dealer=1)
    match.start_hand()
    assert match.dealer == 1
    match.remove_player(1)  # bob, the dealer, leaves; carol (now seat 1) deals next
    game = match.game
    assert game is not None
    while not game.over:
        match.apply(game.current, game.legal_actions()[0])
    match.start_hand()
    assert match.dealer == 1


def test_copy_is_independent_in_both_builds() -> None:
    game = position("top=R5 | alice*: R7 R8 | bob: G1 G2 | pile=B9 B8")
    twin = game.copy()
    twin.apply(0, Play(card("R7")))
    assert hand(game, 0) == "R7 R8" and game.current == 0
    assert hand(twin, 0) == "R8" and twin.current == 1
    assert game.legal_actions(0) == position("top=R5 | alice*: R7 R8 | bob: G1 G2").legal_actions(0)
