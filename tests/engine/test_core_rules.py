"""The common core of every rule set (RULES.md "Common core"), checked exactly from positions."""

from __future__ import annotations

import pytest

from tests.engine.helpers import (
    OFFICIAL,
    B,
    G,
    R,
    Y,
    card,
    cards,
    hand,
    pile,
    position,
    refuse,
    rules,
)
from unobot.engine import (
    CardPlayed,
    CardsDrawn,
    ChallengeResolved,
    Draw,
    DrawPending,
    DrawReason,
    HandEnded,
    HandOutcome,
    Phase,
    Play,
    Reshuffled,
    Reversed,
    Scoring,
    Skipped,
    TurnPassed,
    errors,
)

NO_CHALLENGE = rules(wd4_challenge=False)
WILD_PLAYS = {Play(card("W"), c) for c in (R, Y, G, B)}
WD4_PLAYS = {Play(card("WD4"), c) for c in (R, Y, G, B)}
DRAW = {Draw()}
"""Official play lets a player draw instead of playing a playable card (Mattel's sheet: "You may
also choose NOT to play a playable card from your hand"): the draw is among the legal moves."""


# --- matching ---------------------------------------------------------------------------------


def test_colour_number_and_wilds_match_a_number_card() -> None:
    game = position("top=R5 | alice*: R7 G2 B5 YS W WD4 | bob: Y1 Y2")
    legal = game.legal_actions(0)
    assert len(legal) == len(set(legal))
    assert set(legal) == {Play(card("R7")), Play(card("B5"))} | WILD_PLAYS | WD4_PLAYS | DRAW
    assert game.is_playable(card("R7"), 0)
    assert game.is_playable(card("B5"), 0)
    assert not game.is_playable(card("G2"), 0)
    assert not game.is_playable(card("YS"), 0)


@pytest.mark.parametrize(
    ("top", "same_symbol", "other"),
    [("GS", "RS", "RR"), ("YR", "BR", "BS"), ("BD2", "GD2", "GR"), ("R0", "Y0", "Y1")],
)
def test_symbols_and_numbers_match_across_colours(top: str, same_symbol: str, other: str) -> None:
    game = position(f"top={top} | alice*: {same_symbol} {other} {other} | bob: Y1 Y2 Y3")
    assert game.legal_actions(0) == (Play(card(same_symbol)), Draw())
    refuse(game, 0, Play(card(other)), errors.CardNotPlayable, f"{other} does not match {top}")
    events = game.apply(0, Play(card(same_symbol)))
    assert events[0] == CardPlayed(0, card(same_symbol), card(same_symbol).color, 2)
    assert game.top is card(same_symbol)
    assert game.color is card(same_symbol).color


def test_after_a_wild_only_the_chosen_colour_and_wilds_match() -> None:
    game = position("top=W color=g | alice*: G3 R3 W | bob: Y1 Y2 Y3")
    assert set(game.legal_actions(0)) == {Play(card("G3"))} | WILD_PLAYS | DRAW
    refuse(game, 0, Play(card("R3")), errors.CardNotPlayable, "does not match W (green)")


# --- wild cards -------------------------------------------------------------------------------


@pytest.mark.parametrize("chosen", [R, Y, G, B])
def test_wild_names_any_colour_including_the_current_one(chosen: object) -> None:
    game = position("top=R5 | alice*: W R1 G1 | bob: R9 G9 Y9 B9")
    events = game.apply(0, Play(card("W"), chosen))  # type: ignore[arg-type]
    assert events == [CardPlayed(0, card("W"), chosen, 2)]  # type: ignore[arg-type]
    assert game.color is chosen
    assert game.top is card("W")
    assert game.current == 1
    assert game.phase is Phase.PLAY
    bob_plays = {a for a in game.legal_actions(1) if isinstance(a, Play)}
    same = {"red": "R9", "yellow": "Y9", "green": "G9", "blue": "B9"}[str(chosen)]
    assert bob_plays == {Play(card(same))}


def test_wd4_without_challenge_is_refused_while_holding_the_current_colour() -> None:
    game = position("top=R5 | alice*: R7 WD4 G1 | bob: Y1 Y2", NO_CHALLENGE)
    assert set(game.legal_actions(0)) == {Play(card("R7"))} | DRAW
    assert not game.is_playable(card("WD4"), 0)
    refuse(game, 0, Play(card("WD4"), G), errors.WildDrawFourNotAllowed, "hold no red card")


def test_wd4_restriction_uses_the_chosen_colour_after_a_wild() -> None:
    game = position("top=W color=g | alice*: G2 WD4 R5 | bob: Y1 Y2", NO_CHALLENGE)
    refuse(game, 0, Play(card("WD4"), R), errors.WildDrawFourNotAllowed, "hold no green card")


def test_wd4_allowed_when_only_numbers_or_symbols_of_other_colours_match() -> None:
    game = position(
        "top=RS | alice*: G5 GS WD4 | bob: Y1 Y2 | carol: Y3 | pile=B1 B2 B3 B4 B5", NO_CHALLENGE
    )
    # GS matches the symbol, but only a red card forbids the WD4.
    assert set(game.legal_actions(0)) == {Play(card("GS"))} | WD4_PLAYS | DRAW
    events = game.apply(0, Play(card("WD4"), B))
    assert events == [
        CardPlayed(0, card("WD4"), B, 2),
        CardsDrawn(1, cards("B1 B2 B3 B4"), DrawReason.PENALTY_CARD),
        Skipped(1),
    ]
    assert hand(game, 1) == "Y1 Y2 B1 B2 B3 B4"
    assert game.current == 2
    assert game.color is B
    assert game.phase is Phase.PLAY


def test_wd4_with_challenge_may_be_a_bluff_and_leaves_the_draw_pending() -> None:
    game = position("top=R5 | alice*: R7 WD4 G1 | bob: Y1 Y2 | carol: Y3 | pile=B1 B2 B3 B4")
    assert Play(card("WD4"), G) in game.legal_actions(0)
    events = game.apply(0, Play(card("WD4"), G))
    assert events == [CardPlayed(0, card("WD4"), G, 2), DrawPending(1, 4)]
    assert game.phase is Phase.PENDING
    assert game.pending == 4
    assert game.wd4_offender == 0
    assert game.wd4_guilty is True
    events = game.apply(1, Draw())
    assert events == [CardsDrawn(1, cards("B1 B2 B3 B4"), DrawReason.PENALTY_CARD), Skipped(1)]
    assert game.current == 2
    assert game.pending == 0
    assert game.phase is Phase.PLAY


# --- action cards -----------------------------------------------------------------------------


def test_skip_makes_the_next_player_lose_a_turn() -> None:
    game = position("top=R5 | alice*: RS R1 R2 | bob: R3 | carol: R4")
    assert game.apply(0, Play(card("RS"))) == [CardPlayed(0, card("RS"), R, 2), Skipped(1)]
    assert game.current == 2
    assert game.direction == 1


def test_skip_counter_clockwise() -> None:
    game = position("top=R5 dir=ccw | alice*: RS R1 R2 | bob: R3 | carol: R4")
    assert game.apply(0, Play(card("RS"))) == [CardPlayed(0, card("RS"), R, 2), Skipped(2)]
    assert game.current == 1


def test_reverse_flips_direction() -> None:
    game = position("top=R5 | alice: R1 | bob*: RR R1 R2 | carol: R4 | dave: R6")
    assert game.apply(1, Play(card("RR"))) == [CardPlayed(1, card("RR"), R, 2), Reversed(-1)]
    assert game.direction == -1
    assert game.current == 0
    assert game.next_seat(1) == 3


def test_reverse_twice_restores_direction() -> None:
    game = position("top=R5 | alice*: RR R1 R2 | bob: R3 R4 | carol: GR G7 G8")
    game.apply(0, Play(card("RR")))
    assert game.current == 2
    assert game.apply(2, Play(card("GR"))) == [CardPlayed(2, card("GR"), G, 2), Reversed(1)]
    assert game.direction == 1
    assert game.current == 0


def test_reverse_with_two_players_acts_as_skip() -> None:
    game = position("top=R5 | alice*: RR R1 R2 | bob: R3 R4")
    events = game.apply(0, Play(card("RR")))
    assert events == [CardPlayed(0, card("RR"), R, 2), Reversed(-1), Skipped(1)]
    assert game.current == 0
    assert game.phase is Phase.PLAY


def test_draw_two_makes_the_next_player_draw_two_and_lose_the_turn() -> None:
    game = position("top=R5 | alice*: RD2 R1 R2 | bob: G3 | carol: G4 | pile=B1 B2 B3")
    events = game.apply(0, Play(card("RD2")))
    assert events == [
        CardPlayed(0, card("RD2"), R, 2),
        CardsDrawn(1, cards("B1 B2"), DrawReason.PENALTY_CARD),
        Skipped(1),
    ]
    assert hand(game, 1) == "G3 B1 B2"
    assert pile(game) == "B3"
    assert game.current == 2
    assert game.phase is Phase.PLAY
    assert game.pending == 0


def test_wd4_without_challenge_or_stacking_draws_at_once() -> None:
    game = position("top=R5 | alice*: WD4 G1 G2 | bob: G3 | pile=B1 B2 B3 B4 B5", NO_CHALLENGE)
    events = game.apply(0, Play(card("WD4"), Y))
    assert events == [
        CardPlayed(0, card("WD4"), Y, 2),
        CardsDrawn(1, cards("B1 B2 B3 B4"), DrawReason.PENALTY_CARD),
        Skipped(1),
    ]
    assert game.current == 0  # two players: bob loses his turn
    assert game.color is Y


# --- the draw pile ----------------------------------------------------------------------------


def test_reshuffle_keeps_the_top_and_shuffles_the_rest_into_a_new_pile() -> None:
    game = position("top=R5 discard=G1 G2 B3 | alice*: Y9 Y8 | bob: Y1 | pile=")
    events = game.apply(0, Draw())
    assert events[0] == Reshuffled(3)
    drawn = events[1]
    assert isinstance(drawn, CardsDrawn)
    assert drawn.seat == 0 and drawn.reason is DrawReason.DRAW and len(drawn.cards) == 1
    assert events[2:] == [TurnPassed(0)]
    assert game.discard == [card("R5")]
    assert game.top is card("R5")
    assert sorted(map(str, (*drawn.cards, *game.draw_pile))) == ["B3", "G1", "G2"]
    assert game.hand_size(0) == 3
    assert game.current == 1


def test_reshuffle_in_the_middle_of_a_penalty_draw() -> None:
    game = position("top=R5 discard=G7 | alice*: RD2 R1 R2 | bob: Y1 | pile=B1")
    events = game.apply(0, Play(card("RD2")))
    assert events == [
        CardPlayed(0, card("RD2"), R, 2),
        Reshuffled(2),  # G7 and the R5 under the new top
        CardsDrawn(1, (card("B1"), events[2].cards[1]), DrawReason.PENALTY_CARD),  # type: ignore[union-attr]
        Skipped(1),
    ]
    assert events[2].cards[1] in cards("G7 R5")  # type: ignore[union-attr]
    assert game.discard == [card("RD2")]
    assert len(game.draw_pile) == 1
    assert game.hand_size(1) == 3


def test_nothing_left_to_draw_passes_the_turn() -> None:
    game = position("top=R5 | alice*: Y9 | bob: Y1 | pile=")
    events = game.apply(0, Draw())
    assert events == [CardsDrawn(0, (), DrawReason.DRAW), TurnPassed(0)]
    assert game.current == 1
    assert hand(game, 0) == "Y9"


# --- going out and scoring --------------------------------------------------------------------


def test_card_points() -> None:
    game = position("top=R5 | alice*: R1 | bob: R0 B9 GS YR BD2 W WD4 | carol: Y7")
    events = game.apply(0, Play(card("R1")))
    outcome = game.outcome
    assert events == [CardPlayed(0, card("R1"), R, 0), HandEnded(outcome)]  # type: ignore[arg-type]
    assert outcome == HandOutcome(
        winner=0,
        remaining=((), cards("R0 YR GS B9 BD2 W WD4"), cards("Y7")),  # sorted by colour
        points=(0, 169, 7),
        scores=(176, 0, 0),
    )
    assert game.over
    assert game.phase is Phase.OVER
    assert game.legal_actions(1) == ()


def test_own_points_scoring_each_keeps_their_points() -> None:
    game = position(
        "top=R5 | alice: R0 B9 | bob*: R1 | carol: W YS", rules(scoring=Scoring.OWN_POINTS)
    )
    game.apply(1, Play(card("R1")))
    assert game.outcome == HandOutcome(
        winner=1,
        remaining=(cards("R0 B9"), (), cards("YS W")),
        points=(9, 0, 70),
        scores=(9, 0, 70),
    )


def test_going_out_on_draw_two_makes_the_next_player_draw_before_scoring() -> None:
    game = position("top=R5 | alice*: RD2 | bob: G1 | carol: Y3 | pile=B1 B2 B3")
    events = game.apply(0, Play(card("RD2")))
    outcome = game.outcome
    assert events == [
        CardPlayed(0, card("RD2"), R, 0),
        CardsDrawn(1, cards("B1 B2"), DrawReason.PENALTY_CARD),
        HandEnded(outcome),  # type: ignore[arg-type]
    ]
    assert outcome is not None
    assert outcome.remaining == ((), cards("G1 B1 B2"), cards("Y3"))
    assert outcome.points == (0, 4, 3)
    assert outcome.scores == (7, 0, 0)


@pytest.mark.parametrize("rule_set", [OFFICIAL, NO_CHALLENGE], ids=["challenge", "no-challenge"])
def test_going_out_on_wd4_makes_the_next_player_draw_four_before_scoring(rule_set: object) -> None:
    game = position(
        "top=R5 dir=ccw | alice*: WD4 | bob: G1 | carol: Y3 | pile=B1 B2 B3 B4 B5",
        rule_set,  # type: ignore[arg-type]
    )
    events = game.apply(0, Play(card("WD4"), G))
    outcome = game.outcome
    assert events == [
        CardPlayed(0, card("WD4"), G, 0),
        CardsDrawn(2, cards("B1 B2 B3 B4"), DrawReason.PENALTY_CARD),
        HandEnded(outcome),  # type: ignore[arg-type]
    ]
    assert outcome is not None
    assert outcome.points == (0, 1, 3 + 1 + 2 + 3 + 4)
    assert outcome.scores == (14, 0, 0)
    assert not any(isinstance(e, ChallengeResolved) for e in events)


def test_going_out_on_draw_two_own_points_counts_the_drawn_cards() -> None:
    game = position(
        "top=R5 | alice*: RD2 | bob: G1 | pile=BS B9", rules(scoring=Scoring.OWN_POINTS)
    )
    game.apply(0, Play(card("RD2")))
    assert game.outcome is not None
    assert game.outcome.scores == (0, 1 + 20 + 9)
