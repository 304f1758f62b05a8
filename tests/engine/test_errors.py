"""Illegal actions raise the narrow error, with a short message for the player, and change
nothing (position, phase, pending draw, catch window, legal actions of every seat, rng)."""

from __future__ import annotations

import pytest

from tests.engine.helpers import OFFICIAL, B, G, card, position, refuse, rules
from unobot.engine import (
    PRESETS,
    Action,
    CallUno,
    Catch,
    Challenge,
    ChooseColor,
    Draw,
    HouseRules,
    Pass,
    Phase,
    Play,
    errors,
)

NO_CHALLENGE = rules(wd4_challenge=False)
BASIC = "top=R5 | alice*: R7 G1 W WD4 | bob: B3 B4 | carol: Y1 Y2 | pile=G9 R9"
ALL_ACTIONS: list[Action] = [
    Play(card("R7")),
    Play(card("W"), G),
    Draw(),
    Pass(),
    CallUno(),
    Catch(0),
    Challenge(),
    ChooseColor(B),
]

CASES: list[tuple[str, str, HouseRules, list[tuple[int, Action]], int, Action, type, str]] = [
    ("not-your-turn-play", BASIC, OFFICIAL, [], 1, Play(card("B3")), errors.NotYourTurn,
     "it is not your turn"),
    ("not-your-turn-draw", BASIC, OFFICIAL, [], 2, Draw(), errors.NotYourTurn, "not your turn"),
    ("not-your-turn-pass", BASIC, OFFICIAL, [], 1, Pass(), errors.NotYourTurn, "not your turn"),
    ("card-not-in-hand", BASIC, OFFICIAL, [], 0, Play(card("R9")), errors.CardNotInHand,
     "you have no Red 9"),
    ("wild-not-in-hand", "top=R5 | alice*: R7 G1 | bob: B3", OFFICIAL, [], 0,
     Play(card("W"), G), errors.CardNotInHand, "you have no Wild"),
    ("card-not-playable", BASIC, OFFICIAL, [], 0, Play(card("G1")), errors.CardNotPlayable,
     "G1 does not match R5"),
    ("card-not-playable-after-wild", "top=W color=b | alice*: R7 G1 | bob: B3", OFFICIAL, [], 0,
     Play(card("R7")), errors.CardNotPlayable, "R7 does not match W (blue)"),
    ("wd4-not-allowed", BASIC, NO_CHALLENGE, [], 0, Play(card("WD4"), G),
     errors.WildDrawFourNotAllowed, "you may only play a Wild Draw Four when you hold no red card"),
    ("colour-required-wild", BASIC, OFFICIAL, [], 0, Play(card("W")), errors.ColorRequired,
     "name a colour for W"),
    ("colour-required-wd4", BASIC, OFFICIAL, [], 0, Play(card("WD4")), errors.ColorRequired,
     "name a colour for WD4"),
    ("colour-not-needed", BASIC, OFFICIAL, [], 0, Play(card("R7"), G), errors.ColorNotNeeded,
     "R7 is not a wild"),
    ("cannot-pass-before-drawing", BASIC, OFFICIAL, [], 0, Pass(), errors.CannotPass,
     "you can't pass: draw a card first"),
    ("cannot-pass-nothing-playable", "top=R5 | alice*: G1 G2 | bob: B3", OFFICIAL, [], 0, Pass(),
     errors.CannotPass, "draw a card first"),
    ("already-drew", "top=R5 | alice*: G1 G2 G3 | bob: B3 | pile=R9", OFFICIAL, [(0, Draw())], 0,
     Draw(), errors.AlreadyDrew, "you already drew this turn"),
    ("only-drawn-card", "top=R5 | alice*: R7 G1 G2 | bob: B3 | pile=R9",
     OFFICIAL, [(0, Draw())], 0, Play(card("R7")), errors.OnlyDrawnCard,
     "only play the card you drew (R9)"),
    ("must-play-drawn-card", "top=R5 | alice*: G1 G2 G3 | bob: B3 | pile=R9",
     PRESETS["knockout"], [(0, Draw())], 0, Pass(), errors.MustPlayDrawnCard,
     "you must play the card you drew (R9)"),
    ("draw-not-allowed", BASIC, rules(voluntary_draw=False), [], 0, Draw(), errors.DrawNotAllowed,
     "you may not draw"),
    ("must-answer-draw-play", "top=WD4 color=g pending=4 | alice*: G1 G2 G3 | bob: B3", OFFICIAL,
     [], 0, Play(card("G1")), errors.MustAnswerDraw, "you must draw 4"),
    ("must-answer-draw-pass", "top=WD4 color=g pending=4 | alice*: G1 G2 G3 | bob: B3", OFFICIAL,
     [], 0, Pass(), errors.MustAnswerDraw, "you must draw 4"),
    ("must-answer-draw-stack-hint", "top=RD2 pending=2 | alice*: G1 GD2 G3 | bob: B3",
     rules(stacking=PRESETS["ocuk-tournament"].stacking), [], 0, Play(card("G1")),
     errors.MustAnswerDraw, "you must draw 2, or stack a Draw Two"),
    ("must-choose-colour-play", "top=W color=r phase=choose_color | alice*: R7 G1 G2 | bob: B3",
     OFFICIAL, [], 0, Play(card("R7")), errors.MustChooseColor, "name the colour first"),
    ("must-choose-colour-draw", "top=W color=r phase=choose_color | alice*: R7 G1 G2 | bob: B3",
     OFFICIAL, [], 0, Draw(), errors.MustChooseColor, "name the colour first"),
    ("must-choose-colour-pass", "top=W color=r phase=choose_color | alice*: R7 G1 G2 | bob: B3",
     OFFICIAL, [], 0, Pass(), errors.MustChooseColor, "name the colour first"),
    ("colour-already-set", BASIC, OFFICIAL, [], 0, ChooseColor(G), errors.UnoError,
     "the colour is already set"),
    ("cannot-challenge", BASIC, OFFICIAL, [], 0, Challenge(), errors.CannotChallenge,
     "no Wild Draw Four to challenge"),
    ("cannot-catch", BASIC, OFFICIAL, [], 1, Catch(0), errors.CannotCatch,
     "there is nobody to catch"),
    ("uno-not-needed", BASIC, OFFICIAL, [], 0, CallUno(), errors.UnoNotNeeded,
     "you have more than one card"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("text", "rule_set", "before", "seat", "action", "error", "phrase"),
    [case[1:] for case in CASES],
    ids=[case[0] for case in CASES],
)
def test_refused_actions_change_nothing(
    text: str,
    rule_set: HouseRules,
    before: list[tuple[int, Action]],
    seat: int,
    action: Action,
    error: type[errors.UnoError],
    phrase: str,
) -> None:
    game = position(text, rule_set)
    for who, act in before:
        game.apply(who, act)
    refuse(game, seat, action, error, phrase)


def test_choose_colour_phase_from_notation() -> None:
    game = position("top=W color=r phase=choose_color | alice*: R7 G1 G2 | bob: B3")
    assert game.phase is Phase.CHOOSE_COLOR
    refuse(game, 1, ChooseColor(G), errors.NotYourTurn, "not your turn")
    game.apply(0, ChooseColor(G))
    assert game.phase is Phase.PLAY
    assert {a for a in game.legal_actions(0) if isinstance(a, Play)} == {
        Play(card("G1")),
        Play(card("G2")),
    }


@pytest.mark.parametrize("action", ALL_ACTIONS, ids=lambda a: type(a).__name__)
@pytest.mark.parametrize("seat", [0, 1, 2])
def test_every_action_after_the_hand_is_over(seat: int, action: Action) -> None:
    game = position("top=R5 | alice*: R7 | bob: B3 B4 | carol: Y1 Y2 | pile=G9 R9")
    game.apply(0, Play(card("R7")))
    assert game.over
    assert [game.legal_actions(s) for s in range(3)] == [(), (), ()]
    refuse(game, seat, action, errors.HandOver, "this hand is over")


@pytest.mark.parametrize("action", ALL_ACTIONS, ids=lambda a: type(a).__name__)
@pytest.mark.parametrize("seat", [-1, 3, 10])
def test_every_action_from_a_non_player(seat: int, action: Action) -> None:
    game = position(BASIC)
    refuse(game, seat, action, errors.NotAPlayer, "you are not playing in this game")


def test_non_player_during_a_catch_window() -> None:
    game = position("top=R5 | alice*: R7 R8 | bob: B3 B4 | carol: Y1 Y2 | pile=G9 R9")
    game.apply(0, Play(card("R7")))
    assert game.exposed == 0
    refuse(game, 3, Catch(0), errors.NotAPlayer, "not playing")


def test_every_error_message_is_short_and_plain() -> None:
    samples = [
        errors.NotAPlayer(),
        errors.NotYourTurn("bob"),
        errors.HandOver(),
        errors.CardNotInHand(card("R5")),
        errors.CardNotPlayable(card("R5"), card("G7")),
        errors.WildDrawFourNotAllowed(G),
        errors.ColorRequired(card("WD4")),
        errors.ColorNotNeeded(card("R5")),
        errors.CannotPass(),
        errors.AlreadyDrew(),
        errors.DrawNotAllowed(),
        errors.OnlyDrawnCard(card("R5")),
        errors.MustPlayDrawnCard(card("R5")),
        errors.MustAnswerDraw(4, "WD4"),
        errors.MustChooseColor(),
        errors.CannotChallenge(),
        errors.CannotCatch("bob"),
        errors.UnoNotNeeded(),
    ]
    for err in samples:
        text = str(err)
        assert isinstance(err, errors.UnoError)
        assert 5 < len(text) <= 80, text
        assert text == text.strip() and "\n" not in text and "Error" not in text
    assert str(errors.NotYourTurn("bob")) == "it is bob's turn"
    assert str(errors.NotYourTurn()) == "it is not your turn"
    assert str(errors.CannotCatch("bob")) == "there is nobody called bob to catch"


@pytest.mark.parametrize("seat", [-1, 3])
def test_non_player_has_no_legal_actions_during_a_catch_window(seat: int) -> None:
    game = position("top=R5 | alice*: R7 R8 | bob: B3 B4 | carol: Y1 Y2 | pile=G9 R9")
    game.apply(0, Play(card("R7")))
    assert game.legal_actions(seat) == ()
