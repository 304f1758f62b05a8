"""Calling UNO: automatic and manual calls, catching a missed call, the two catch windows, false
UNO calls."""

from __future__ import annotations

import pytest

from tests.engine.helpers import OFFICIAL, R, card, cards, hand, position, refuse, rules
from unobot.engine import (
    PRESETS,
    CallUno,
    CardPlayed,
    CardsDrawn,
    Catch,
    CatchWindow,
    Draw,
    DrawPending,
    DrawReason,
    Phase,
    Play,
    Skipped,
    TurnPassed,
    UnoCalled,
    UnoCaught,
    errors,
)

TABLE = "top=R5 | alice*: R7 R2 | bob: G1 G2 G3 | carol: Y1 Y2 Y3 | pile=B1 B2 B3 B4 B5 B6"
NEXT_CARD = rules(catch_window=CatchWindow.NEXT_CARD, uno_penalty=4)


# --- automatic ------------------------------------------------------------------------------


def test_auto_uno_is_called_by_the_engine() -> None:
    game = position(TABLE, PRESETS["irc-classic"])
    assert set(game.legal_actions(0)) == {Play(card("R7")), Play(card("R2")), Draw()}
    assert game.apply(0, Play(card("R7"))) == [
        CardPlayed(0, card("R7"), R, 1),
        UnoCalled(0, automatic=True),
    ]
    assert game.exposed == -1
    assert game.legal_actions(2) == ()
    assert Catch(0) not in game.legal_actions(1)
    refuse(game, 2, Catch(0), errors.CannotCatch, "nobody to catch")
    refuse(game, 0, CallUno(), errors.UnoNotNeeded, "called automatically")


# --- manual: calling ------------------------------------------------------------------------


def test_manual_play_offers_the_call_with_the_next_to_last_card() -> None:
    game = position(TABLE)
    assert set(game.legal_actions(0)) == {
        Play(card("R7")),
        Play(card("R7"), uno=True),
        Play(card("R2")),
        Play(card("R2"), uno=True),
        CallUno(),
        Draw(),  # drawing instead of playing (Mattel's sheet)
    }


def test_manual_play_with_uno_calls_it() -> None:
    game = position(TABLE)
    events = game.apply(0, Play(card("R7"), uno=True))
    assert events == [CardPlayed(0, card("R7"), R, 1), UnoCalled(0)]
    assert game.exposed == -1
    assert game.current == 1
    assert game.legal_actions(2) == ()
    refuse(game, 2, Catch(0), errors.CannotCatch, "nobody to catch")


def test_call_uno_before_the_play_counts() -> None:
    game = position(TABLE)
    assert game.apply(0, CallUno()) == [UnoCalled(0)]
    assert game.current == 0
    events = game.apply(0, Play(card("R7")))
    assert events[0] == CardPlayed(0, card("R7"), R, 1)
    assert all(isinstance(e, UnoCalled) and e.seat == 0 for e in events[1:])
    assert game.exposed == -1
    refuse(game, 1, Catch(0), errors.CannotCatch, "nobody to catch")


def test_call_uno_right_after_the_play_saves_the_player() -> None:
    game = position(TABLE)
    assert game.apply(0, Play(card("R7"))) == [CardPlayed(0, card("R7"), R, 1)]
    assert game.exposed == 0
    assert game.legal_actions(0) == (CallUno(),)
    assert game.legal_actions(2) == (Catch(0),)
    assert set(game.legal_actions(1)) == {Draw(), Catch(0)}
    assert game.apply(0, CallUno()) == [UnoCalled(0)]
    assert game.exposed == -1
    assert game.legal_actions(2) == ()
    refuse(game, 2, Catch(0), errors.CannotCatch, "there is nobody to catch")
    assert hand(game, 0) == "R2"


# --- manual: catching -----------------------------------------------------------------------


@pytest.mark.parametrize("catcher", [1, 2])
def test_catch_inside_the_window_gives_the_penalty(catcher: int) -> None:
    game = position(TABLE)
    game.apply(0, Play(card("R7")))
    events = game.apply(catcher, Catch(0))
    assert events == [
        UnoCaught(catcher, 0, 2),
        CardsDrawn(0, cards("B1 B2"), DrawReason.MISSED_UNO),
    ]
    assert hand(game, 0) == "R2 B1 B2"
    assert game.exposed == -1
    assert game.current == 1  # catching is not a turn
    assert game.phase is Phase.PLAY
    refuse(game, 2, Catch(0), errors.CannotCatch, "nobody to catch")


def test_uno_penalty_is_an_option() -> None:
    game = position(TABLE, rules(uno_penalty=4))
    game.apply(0, Play(card("R7")))
    assert game.apply(2, Catch(0)) == [
        UnoCaught(2, 0, 4),
        CardsDrawn(0, cards("B1 B2 B3 B4"), DrawReason.MISSED_UNO),
    ]


def test_player_cannot_catch_themselves() -> None:
    game = position(TABLE)
    game.apply(0, Play(card("R7")))
    refuse(game, 0, Catch(0), errors.CannotCatch, "nobody to catch")


@pytest.mark.parametrize("target", [0, 1, 2, 7])
def test_catch_refused_when_nothing_to_catch(target: int) -> None:
    game = position(TABLE)
    refuse(game, 1, Catch(target), errors.CannotCatch, "there is nobody to catch")


def test_catch_refused_for_a_player_who_has_more_than_one_card() -> None:
    game = position(TABLE)
    game.apply(0, Play(card("R7")))
    refuse(game, 2, Catch(1), errors.CannotCatch, "nobody to catch")


# --- catch window: next turn ----------------------------------------------------------------


def test_next_turn_window_closes_when_the_next_player_draws() -> None:
    game = position(TABLE)
    game.apply(0, Play(card("R7")))
    assert game.apply(1, Draw()) == [CardsDrawn(1, (card("B1"),), DrawReason.DRAW), TurnPassed(1)]
    assert game.exposed == -1
    assert Catch(0) not in game.legal_actions(2)
    refuse(game, 2, Catch(0), errors.CannotCatch, "nobody to catch")


def test_next_turn_window_closes_when_the_next_player_plays() -> None:
    game = position("top=R5 | alice*: R7 R2 | bob: R8 G2 G3 | carol: Y1 Y2 Y3 | pile=B1 B2")
    game.apply(0, Play(card("R7")))
    game.apply(1, Play(card("R8")))
    assert game.exposed == -1
    refuse(game, 2, Catch(0), errors.CannotCatch, "nobody to catch")


def test_next_turn_window_closes_when_the_next_player_takes_a_penalty() -> None:
    game = position(
        "top=R5 | alice*: WD4 R2 | bob: G1 G2 G3 | carol: Y1 Y2 Y3 | pile=B1 B2 B3 B4 B5"
    )
    assert game.apply(0, Play(card("WD4"), R)) == [
        CardPlayed(0, card("WD4"), R, 1),
        DrawPending(1, 4),
    ]
    assert game.exposed == 0
    game.apply(1, Draw())
    assert game.exposed == -1
    refuse(game, 2, Catch(0), errors.CannotCatch, "nobody to catch")


def test_next_turn_window_stays_open_while_the_next_player_is_skipped() -> None:
    game = position(TABLE.replace("R7 R2", "RS R2"))
    assert game.apply(0, Play(card("RS"))) == [CardPlayed(0, card("RS"), R, 1), Skipped(1)]
    assert game.current == 2
    assert game.apply(1, Catch(0))[0] == UnoCaught(1, 0, 2)


# --- catch window: next card ("HALT!") --------------------------------------------------------


def test_next_card_window_stays_open_while_the_next_player_only_draws() -> None:
    game = position(TABLE, NEXT_CARD)
    game.apply(0, Play(card("R7")))
    assert game.apply(1, Draw()) == [CardsDrawn(1, (card("B1"),), DrawReason.DRAW), TurnPassed(1)]
    assert game.current == 2
    assert game.exposed == 0
    assert Catch(0) in game.legal_actions(2)
    assert game.apply(2, Catch(0)) == [
        UnoCaught(2, 0, 4),
        CardsDrawn(0, cards("B2 B3 B4 B5"), DrawReason.MISSED_UNO),
    ]


def test_next_card_window_closes_when_a_card_is_played() -> None:
    game = position(TABLE.replace("carol: Y1", "carol: R9"), NEXT_CARD)
    game.apply(0, Play(card("R7")))
    game.apply(1, Draw())
    game.apply(2, Play(card("R9")))
    assert game.exposed == -1
    refuse(game, 1, Catch(0), errors.CannotCatch, "nobody to catch")


def test_ocuk_preset_halt_after_draw_until_playable() -> None:
    ocuk = PRESETS["ocuk-tournament"]
    game = position(
        "top=R5 | alice*: R7 R2 | bob: G1 G2 G3 | carol: Y1 Y2 Y3 | pile=B1 B2 R9 B3 B4 B5 B6",
        ocuk,
    )
    game.apply(0, Play(card("R7")))
    assert game.apply(1, Draw()) == [CardsDrawn(1, cards("B1 B2 R9"), DrawReason.DRAW)]
    assert game.exposed == 0
    assert game.apply(2, Catch(0)) == [
        UnoCaught(2, 0, 4),
        CardsDrawn(0, cards("B3 B4 B5 B6"), DrawReason.MISSED_UNO),
    ]
    assert game.current == 1 and game.phase is Phase.DRAWN


def test_ocuk_preset_halt_too_late_after_the_card() -> None:
    ocuk = PRESETS["ocuk-tournament"]
    game = position(
        "top=R5 | alice*: R7 R2 | bob: G1 G2 G3 | carol: Y1 Y2 Y3 | pile=B1 B2 R9 B3 B4 B5 B6",
        ocuk,
    )
    game.apply(0, Play(card("R7")))
    game.apply(1, Draw())
    game.apply(1, Play(card("R9")))
    refuse(game, 2, Catch(0), errors.CannotCatch, "nobody to catch")


# --- false UNO --------------------------------------------------------------------------------


def test_false_uno_call_draws_the_penalty_in_knockout() -> None:
    knockout = PRESETS["knockout"]
    assert knockout.false_uno_penalty == 3
    game = position("top=R5 | alice*: R1 R2 R3 | bob: G1 | pile=B1 B2 B3 B4", knockout)
    assert game.apply(0, CallUno()) == [CardsDrawn(0, cards("B1 B2 B3"), DrawReason.FALSE_UNO)]
    assert hand(game, 0) == "R1 R2 R3 B1 B2 B3"
    assert game.current == 0


def test_false_uno_with_a_play_draws_the_penalty_in_knockout() -> None:
    game = position(
        "top=R5 | alice*: R1 R2 R3 | bob: G1 G2 | pile=B1 B2 B3 B4", PRESETS["knockout"]
    )
    assert game.apply(0, Play(card("R1"), uno=True)) == [
        CardPlayed(0, card("R1"), R, 2),
        CardsDrawn(0, cards("B1 B2 B3"), DrawReason.FALSE_UNO),
    ]
    assert hand(game, 0) == "R2 R3 B1 B2 B3"
    assert game.current == 1


def test_false_uno_refused_when_the_penalty_is_zero() -> None:
    assert OFFICIAL.false_uno_penalty == 0
    game = position("top=R5 | alice*: R1 R2 R3 | bob: G1 G2 | pile=B1 B2 B3 B4")
    assert Play(card("R1"), uno=True) not in game.legal_actions(0)
    assert CallUno() not in game.legal_actions(0)
    refuse(game, 0, CallUno(), errors.UnoNotNeeded, "more than one card")
    refuse(game, 0, Play(card("R1"), uno=True), errors.UnoNotNeeded, "more than one card")
    refuse(game, 1, CallUno(), errors.UnoNotNeeded, "more than one card")


# --- regressions (bugs these tests found) -------------------------------------------------


def test_catch_with_a_negative_seat_is_refused() -> None:
    # Carol called UNO properly and holds one card; nobody is exposed.
    game = position("top=R5 | alice*: R7 R2 G3 | bob: G1 G2 G3 | carol: Y1 | pile=B1 B2 B3")
    assert game.exposed == -1
    refuse(game, 0, Catch(-1), errors.CannotCatch, "nobody to catch")
    assert hand(game, 2) == "Y1"


def test_uno_can_be_called_before_stacking_down_to_one_card() -> None:
    ocuk = PRESETS["ocuk-tournament"]
    game = position("top=RD2 pending=2 | alice: R1 R2 R3 | bob*: GD2 B5 | carol: Y1 |", ocuk)
    assert CallUno() in game.legal_actions(1)
    assert game.apply(1, CallUno()) == [UnoCalled(1)]
    game.apply(1, Play(card("GD2")))
    assert game.exposed == -1  # called: nobody can catch bob
    # with nothing to stack, a call is no help and not offered
    game = position("top=RD2 pending=2 | alice: R1 R2 R3 | bob*: G1 B5 | carol: Y1 |", ocuk)
    assert CallUno() not in game.legal_actions(1)


def test_drawn_names_the_drawn_card_only_when_it_can_be_played() -> None:
    game = position("top=R5 | alice*: R7 | bob: G1 | pile=B9", PRESETS["irc-classic"])
    game.apply(0, Draw())
    assert game.phase is Phase.DRAWN and game.drawn is None  # B9 can't go, R7 still can
    assert Play(card("R7")) in game.legal_actions(0)


# --- UNO said before the card (000) -----------------------------------------------------------

NO_LATE_CALL = rules(late_uno_call=False)


def test_without_late_calls_a_call_after_the_card_does_not_save_the_player() -> None:
    game = position(TABLE, NO_LATE_CALL)
    assert game.apply(0, Play(card("R7"))) == [CardPlayed(0, card("R7"), R, 1)]
    assert game.exposed == 0
    assert game.legal_actions(0) == ()  # no late call to offer
    assert game.legal_actions(2) == (Catch(0),)
    refuse(game, 0, CallUno(), errors.UnoNotNeeded, "too late: UNO is called with the card")
    assert game.apply(2, Catch(0)) == [
        UnoCaught(2, 0, 2),
        CardsDrawn(0, cards("B1 B2"), DrawReason.MISSED_UNO),
    ]


def test_without_late_calls_a_call_with_or_before_the_card_still_counts() -> None:
    game = position(TABLE, NO_LATE_CALL)
    assert game.apply(0, Play(card("R7"), uno=True)) == [
        CardPlayed(0, card("R7"), R, 1),
        UnoCalled(0),
    ]
    assert game.exposed == -1
    game = position(TABLE, NO_LATE_CALL)
    assert game.apply(0, CallUno()) == [UnoCalled(0)]
    game.apply(0, Play(card("R7")))
    assert game.exposed == -1
    assert game.legal_actions(2) == ()


def test_ocuk_preset_halts_a_call_made_after_the_card_until_the_next_card() -> None:
    ocuk = PRESETS["ocuk-tournament"]
    assert not ocuk.late_uno_call and ocuk.catch_window is CatchWindow.NEXT_CARD
    game = position(
        "top=R5 | alice*: R7 R2 | bob: G1 G2 G3 | carol: Y1 Y2 Y3 | pile=B1 B2 R9 B3 B4 B5 B6",
        ocuk,
    )
    game.apply(0, Play(card("R7")))
    refuse(game, 0, CallUno(), errors.UnoNotNeeded, "caught until the next card")
    game.apply(1, Draw())  # bob begins his turn: under 000 alice can still be HALTed
    assert game.legal_actions(2) == (Catch(0),)
    assert game.apply(2, Catch(0))[0] == UnoCaught(2, 0, 4)


def test_other_presets_keep_the_late_call() -> None:
    for name, preset_rules in PRESETS.items():
        assert preset_rules.late_uno_call is (name != "ocuk-tournament"), name


def test_a_call_after_the_window_closed_uncaught_says_nothing_is_left_to_call() -> None:
    """Alice missed her call, then bob moved before anyone caught her: she is safe, and a late
    ``.uno`` is answered with that, not with "your UNO is already called" (she never called)."""
    game = position(TABLE)
    game.apply(0, Play(card("R7")))  # down to one, no call
    assert game.exposed == 0
    game.apply(1, Draw())  # bob moves: the catch window shuts (official: the next turn begins)
    assert game.exposed == -1 and Catch(0) not in game.legal_actions(2)
    refuse(game, 0, CallUno(), errors.UnoNotNeeded, "nobody can catch you any more")
