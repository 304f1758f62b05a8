"""Seven-O (7 swaps hands with a chosen player, 0 passes every hand on) and Jump-In (play the
very card on top out of turn), from the hand notation."""

from __future__ import annotations

from tests.engine.helpers import PRESETS, R, card, hand, position, refuse, rules
from unobot.engine import (
    CallUno,
    CardPlayed,
    CardsDrawn,
    Catch,
    Draw,
    DrawPending,
    HandEnded,
    HandsRotated,
    HandsSwapped,
    JumpedIn,
    Pass,
    Phase,
    Play,
    Stacking,
    SwapPending,
    UnoCalled,
    errors,
)
from unobot.engine.actions import Swap

SEVEN_O = rules(PRESETS["seven-o"], min_players=2)
JUMP = rules(PRESETS["jump-in"], min_players=2)
HOUSE = rules(PRESETS["house"], min_players=2)
TABLE = "top=R5 | alice*: R7 R0 G1 | bob: G2 G3 | carol: Y1 Y2 Y3 Y4 | pile=B1 B2 B3 B4"


# --- Seven-O: the 7 --------------------------------------------------------------------------


def test_seven_with_a_target_swaps_at_once() -> None:
    game = position(TABLE, SEVEN_O)
    events = game.apply(0, Play(card("R7"), target=2))
    assert events == [CardPlayed(0, card("R7"), R, 2), HandsSwapped(0, 2, 4, 2)]
    assert hand(game, 0) == "Y1 Y2 Y3 Y4"
    assert hand(game, 2) == "R0 G1"
    assert hand(game, 1) == "G2 G3"
    assert game.current == 1 and game.phase is Phase.PLAY


def test_seven_without_a_target_waits_for_the_swap() -> None:
    game = position(TABLE, SEVEN_O)
    assert game.apply(0, Play(card("R7"))) == [CardPlayed(0, card("R7"), R, 2), SwapPending(0)]
    assert game.phase is Phase.CHOOSE_SWAP and game.current == 0
    assert set(game.legal_actions(0)) == {Swap(1), Swap(2)}
    refuse(game, 0, Draw(), errors.MustSwap, ".swap")  # only a swap resolves it
    refuse(game, 0, Pass(), errors.MustSwap, "")
    refuse(game, 0, Play(card("G1")), errors.MustSwap, "")
    refuse(game, 0, Swap(0), errors.CannotSwap, "another player")
    refuse(game, 0, Swap(5), errors.CannotSwap, "another player")
    refuse(game, 1, Swap(2), errors.NotYourTurn, "")
    assert game.apply(0, Swap(1)) == [HandsSwapped(0, 1, 2, 2)]
    assert hand(game, 0) == "G2 G3" and hand(game, 1) == "R0 G1"
    assert game.current == 1 and game.phase is Phase.PLAY


def test_a_target_goes_only_with_a_seven_of_seven_o() -> None:
    game = position(TABLE, SEVEN_O)
    refuse(game, 0, Play(card("R0"), target=1), errors.CannotSwap, "only a 7")
    refuse(game, 0, Play(card("R7"), target=0), errors.CannotSwap, "another player")
    refuse(game, 0, Play(card("R7"), target=3), errors.CannotSwap, "another player")
    plain = position(TABLE)
    refuse(plain, 0, Play(card("R7"), target=1), errors.CannotSwap, "only a 7")
    assert plain.apply(0, Play(card("R7"))) == [CardPlayed(0, card("R7"), R, 2)]
    assert plain.current == 1  # without Seven-O a 7 is a number


def test_the_last_card_goes_out_with_no_swap() -> None:
    game = position("top=R5 | alice*: R7 | bob: G2 G3", SEVEN_O)
    events = game.apply(0, Play(card("R7"), target=1))
    assert type(events[-1]) is HandEnded and game.over
    assert not any(type(e) is HandsSwapped for e in events)
    game = position("top=R5 | alice*: R0 | bob: G2 G3", SEVEN_O)
    assert type(game.apply(0, Play(card("R0")))[-1]) is HandEnded


def test_timeout_swaps_with_the_fewest_cards_first_in_play_order() -> None:
    game = position(
        "top=R5 | alice*: R7 R1 R2 | bob: G2 G3 G4 | carol: Y1 Y2 | dave: B1 B2", SEVEN_O
    )
    game.apply(0, Play(card("R7")))
    assert game.default_swap_target(0) == 2
    assert game.force_pass(0) == [HandsSwapped(0, 2, 2, 2)]
    assert hand(game, 2) == "R1 R2" and game.current == 1


# --- Seven-O: the 0 --------------------------------------------------------------------------


def test_zero_passes_every_hand_on_in_the_direction_of_play() -> None:
    game = position(TABLE, SEVEN_O)
    events = game.apply(0, Play(card("R0")))
    assert events == [CardPlayed(0, card("R0"), R, 2), HandsRotated(1, (4, 2, 2))]
    assert hand(game, 1) == "R7 G1"  # alice's hand went to bob
    assert hand(game, 2) == "G2 G3"
    assert hand(game, 0) == "Y1 Y2 Y3 Y4"
    assert game.current == 1


def test_zero_counter_clockwise() -> None:
    game = position(TABLE.replace("top=R5", "top=R5 dir=ccw"), SEVEN_O)
    events = game.apply(0, Play(card("R0")))
    assert events[-1] == HandsRotated(-1, (2, 4, 2))
    assert hand(game, 2) == "R7 G1"  # to carol, the next player counter-clockwise
    assert hand(game, 1) == "Y1 Y2 Y3 Y4"
    assert game.current == 2


# --- Seven-O: UNO state follows the rule in docs/rules.md --------------------------------------


def test_a_one_card_hand_received_needs_no_call_and_cant_be_caught() -> None:
    game = position("top=R5 | alice*: R7 G1 | bob: G2 G3 G4 | carol: Y1 Y2", SEVEN_O)
    game.apply(0, Play(card("R7")))  # down to one, no call: catchable ...
    assert game.exposed == 0 and Catch(0) in game.legal_actions(1)
    game.apply(0, Swap(1))  # ... until the hand goes to bob
    assert game.hand_size(1) == 1 and game.exposed == -1
    refuse(game, 2, Catch(1), errors.CannotCatch, "")
    refuse(game, 2, Catch(0), errors.CannotCatch, "")
    assert CallUno() not in game.legal_actions(1)
    refuse(game, 1, CallUno(), errors.UnoNotNeeded, "nobody can catch you")


def test_rotation_clears_a_pending_catch() -> None:
    game = position("top=R5 | alice*: R0 G1 | bob: G2 G3 G4 | carol: Y1 Y2", SEVEN_O)
    game.apply(0, Play(card("R0")))
    assert game.exposed == -1 and game.hand_size(1) == 1
    assert game.legal_actions(2) == ()


def test_a_call_with_the_seven_is_kept_in_the_events_and_spent() -> None:
    game = position("top=R5 | alice*: R7 G1 | bob: G2 G3 G4", SEVEN_O)
    events = game.apply(0, Play(card("R7"), uno=True, target=1))
    assert events == [CardPlayed(0, card("R7"), R, 1), UnoCalled(0), HandsSwapped(0, 1, 3, 1)]


# --- Jump-In ---------------------------------------------------------------------------------

JUMPS = "top=R9 | alice*: R5 R1 | bob: G3 G4 | carol: R5 Y3 | dave: R5 B3 B4 | pile=B1 B2 B5 B6"


def test_a_jump_plays_out_of_turn_and_play_goes_on_from_the_jumper() -> None:
    game = position(JUMPS, JUMP)
    game.apply(0, Play(card("R5")))
    assert game.current == 1
    assert Play(card("R5")) in game.legal_actions(3)
    assert game.legal_actions(1) and Play(card("R5")) not in game.legal_actions(2)[:0]
    events = game.apply(3, Play(card("R5")))
    assert events == [JumpedIn(3, 1), CardPlayed(3, card("R5"), R, 2)]
    assert game.current == 0  # from dave: bob and carol lost the turn


def test_first_jump_wins_a_jumped_card_cant_be_jumped() -> None:
    game = position(JUMPS, JUMP)
    game.apply(0, Play(card("R5")))
    game.apply(2, Play(card("R5")))  # carol jumps first
    assert game.current == 3  # dave is next: his R5 is simply his turn's play
    game2 = position(JUMPS.replace("dave: R5", "dave: Y7"), JUMP)
    game2.apply(0, Play(card("R5")))
    game2.apply(3, Play(card("R5"))) if game2.holds(3, card("R5")) else None
    game2.apply(2, Play(card("R5")))
    assert game2.current == 3
    refuse(game2, 0, Play(card("R1")), errors.NotYourTurn, "")


def test_late_jump_is_refused() -> None:
    game = position(
        "top=R9 | alice*: R5 R1 | bob: G3 G4 | carol: R5 Y3 | dave: B3 B4 | eve: R5 Y1",
        rules(JUMP, max_players=10),
    )
    game.apply(0, Play(card("R5")))
    game.apply(2, Play(card("R5")))  # carol wins the race; dave to move
    assert Play(card("R5")) not in game.legal_actions(4)
    refuse(game, 4, Play(card("R5")), errors.NotYourTurn, "")


def test_the_window_closes_with_the_next_turn_action() -> None:
    game = position(JUMPS, JUMP)
    game.apply(0, Play(card("R5")))
    game.apply(1, Draw())  # bob draws: the window on alice's R5 is shut
    refuse(game, 3, Play(card("R5")), errors.NotYourTurn, "")
    assert game.legal_actions(3) == ()


def test_uno_calls_and_catches_do_not_close_the_window() -> None:
    game = position(JUMPS, JUMP)
    game.apply(0, Play(card("R5")))  # alice down to one without calling
    game.apply(2, Catch(0))
    assert game.apply(3, Play(card("R5")))[0] == JumpedIn(3, 1)


def test_no_jump_on_the_start_card_own_card_or_a_different_card() -> None:
    game = position("top=R5 | alice*: G1 G2 | bob: R5 B1", JUMP)
    refuse(game, 1, Play(card("R5")), errors.NotYourTurn, "")  # the start card: no window
    game = position("top=R9 | alice*: R5 R5 R1 | bob: G3 G4 | carol: R6 Y3", JUMP)
    game.apply(0, Play(card("R5")))
    refuse(game, 0, Play(card("R5")), errors.NotYourTurn, "")  # one's own card
    refuse(game, 2, Play(card("R6")), errors.NotYourTurn, "")  # only the very card


def test_wilds_are_never_jumped() -> None:
    game = position("top=R9 | alice*: W R1 | bob: G3 G4 | carol: W Y3", JUMP)
    game.apply(0, Play(card("W"), R))
    refuse(game, 2, Play(card("W"), R), errors.NotYourTurn, "")


def test_without_jump_in_out_of_turn_is_refused() -> None:
    game = position(JUMPS)
    game.apply(0, Play(card("R5")))
    refuse(game, 3, Play(card("R5")), errors.NotYourTurn, "")


def test_a_jump_on_a_pending_draw_two_stacks() -> None:
    game = position(
        "top=R9 | alice*: RD2 R1 | bob: G3 G4 | carol: RD2 Y3 Y4 | dave: B3 B4 | pile=B1 B2 B5 B6",
        rules(HOUSE),
    )
    game.apply(0, Play(card("RD2")))
    assert game.phase is Phase.PENDING and game.current == 1
    events = game.apply(2, Play(card("RD2")))
    assert events == [JumpedIn(2, 1), CardPlayed(2, card("RD2"), R, 2), DrawPending(3, 4)]
    assert game.pending == 4 and game.current == 3  # bob escapes; dave faces four


def test_a_jump_without_stacking_is_a_fresh_draw_two() -> None:
    game = position(
        "top=R9 | alice*: RD2 R1 | bob: G3 G4 | carol: RD2 Y3 Y4 | dave: B3 B4 | pile=B1 B2 B5 B6",
        rules(JUMP, stacking=Stacking.NONE),
    )
    game.apply(0, Play(card("RD2")))  # bob draws two at once and is skipped
    assert game.current == 2 and game.hand_size(1) == 4
    events = game.apply(3, Play(card("RD2"))) if game.holds(3, card("RD2")) else None
    assert events is None
    events = game.apply(2, Play(card("RD2")))  # carol, in turn: a plain play
    assert type(events[0]) is CardPlayed and type(events[1]) is CardsDrawn
    assert events[1].seat == 3
    assert game.current == 0


def test_a_jump_on_a_skip_skips_from_the_jumper() -> None:
    game = position("top=R9 | alice*: RS R1 | bob: G3 G4 | carol: RS Y3 | dave: B3 B4", JUMP)
    game.apply(0, Play(card("RS")))  # bob skipped, carol to move
    assert game.current == 2
    events = game.apply(1, Play(card("RS"))) if game.holds(1, card("RS")) else []
    assert events == []
    game = position("top=R9 | alice*: RS R1 | bob: RS G4 | carol: Y2 Y3 | dave: B3 B4", JUMP)
    game.apply(0, Play(card("RS")))
    assert game.apply(1, Play(card("RS")))[:2] == [JumpedIn(1, 2), CardPlayed(1, card("RS"), R, 1)]
    assert game.current == 3  # carol skipped by bob's Skip


def test_a_jumped_seven_swaps_and_stays_shut() -> None:
    game = position("top=R9 | alice*: R7 R1 | bob: G3 G4 | carol: R7 Y3 Y4 | dave: R7 B4", HOUSE)
    game.apply(0, Play(card("R7"), target=1))
    assert game.current == 1
    events = game.apply(2, Play(card("R7")))
    assert events[0] == JumpedIn(2, 1) and game.phase is Phase.CHOOSE_SWAP and game.current == 2
    refuse(game, 3, Play(card("R7")), errors.NotYourTurn, "")
    game.apply(2, Swap(0))
    assert game.current == 3
    assert Play(card("R7")) not in game.legal_actions(0)
