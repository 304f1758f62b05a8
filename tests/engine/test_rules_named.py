"""What the engine says about the rule in force: which cards may stack on a pending draw now
(``Game.stack_text``, the channel's hint) and why a play out of turn is no jump
(``Game.jump_refusal``). The hint must agree with the cards a hand marks as playable (the
engine's legal plays), in every stacking mode and deck."""

from __future__ import annotations

import pytest

from tests.engine.helpers import PRESETS, card, position, rules
from unobot.engine import Draw, Game, Phase, Play, errors
from unobot.engine.game import _DRAW_KINDS
from unobot.engine.rules import Deck, HouseRules, Stacking

NM = rules(PRESETS["no-mercy"], min_players=2)
HOUSE = PRESETS["house"]
PILE = " | pile=" + "B9 " * 10


def pending(rule_set: HouseRules, top: str, held: str, *, color: str = "", total: int = 4) -> Game:
    """Seat 0 faces ``total`` after ``top``; ``held``: seat 0's hand."""
    col = f" | color={color}" if color else ""
    return position(
        f"top={top}{col} | pending={total} | alice*: {held} | bob: R1 R2 R3{PILE}", rule_set
    )


@pytest.mark.parametrize(
    ("top", "color", "hint"),
    [
        ("RD2", "", "+2/+4/+6/+10"),
        ("RD4", "", "+4/+6/+10"),
        ("WRD4", "g", "+4/+6/+10"),
        ("WD6", "g", "+6/+10"),
        ("WD10", "g", "+10"),
    ],
)
def test_no_mercy_names_what_draws_as_many_or_more(top: str, color: str, hint: str) -> None:
    game = pending(NM, top, "RD2 BD4 WRD4 WD6 WD10 G5", color=color)
    assert game.phase is Phase.PENDING
    assert game.stack_text() == hint


def test_no_mercy_hint_agrees_with_the_playable_marks() -> None:
    """Every draw card the hint names is one the hand may play, and no other (the hand
    marking is ``legal_actions``' plays)."""
    held = "RD2 YD2 BD4 GD4 WRD4 WD6 WD10 G5 B7"
    for top, color in (("RD2", ""), ("GD4", ""), ("WRD4", "b"), ("WD6", "y"), ("WD10", "r")):
        game = pending(NM, top, held, color=color)
        playable = {a.card for a in game.legal_actions(0) if type(a) is Play}
        least = card(top).draw
        assert playable == {c for c in map(card, held.split()) if c.draw >= least}, top
        named = {int(v) for v in game.stack_text().replace("+", "").split("/")}
        assert named == {c.draw for c in playable}, top


@pytest.mark.parametrize(
    ("rule_set", "top", "color", "hint"),
    [
        (HOUSE, "RD2", "", "+2"),
        (HOUSE, "WD4", "g", "+4"),
        (PRESETS["ocuk-tournament"], "BD2", "", "+2"),
        (rules(stacking=Stacking.ANY), "RD2", "", "+2/+4"),
        (rules(stacking=Stacking.ANY), "WD4", "r", "+2/+4"),
        (rules(stacking=Stacking.HIGHER), "RD2", "", "+2/+4"),
        (rules(stacking=Stacking.HIGHER), "WD4", "r", "+4"),
        # No Mercy's deck stacking only the same kind: a D4 on a D4, not the other +4.
        (rules(NM, stacking=Stacking.SAME), "RD4", "", "D4"),
        (rules(NM, stacking=Stacking.SAME), "WRD4", "y", "WRD4"),
        (rules(NM, stacking=Stacking.SAME), "WD6", "y", "+6"),
    ],
)
def test_every_stacking_mode_names_its_cards(
    rule_set: HouseRules, top: str, color: str, hint: str
) -> None:
    held = "RD2 WD4" if rule_set.deck is Deck.CLASSIC else "RD2 BD4 WRD4 WD6"
    game = pending(rule_set, top, held, color=color)
    assert game.stack_text() == hint


def test_no_hint_without_stacking_or_a_pending_draw() -> None:
    official = position("top=WD4 | color=r | pending=4 | alice*: RD2 G1 | bob: R1" + PILE)
    assert official.phase is Phase.PENDING and official.stack_text() == ""
    playing = position("top=RD2 | alice*: RD2 G1 | bob: R1" + PILE, HOUSE)
    assert playing.stack_text() == ""


def test_a_lower_draw_card_is_refused_naming_the_rule() -> None:
    game = pending(NM, "WD6", "RD2 BD4 G5", color="g", total=6)
    with pytest.raises(errors.MustAnswerDraw) as refused:
        game.apply(0, Play(card("BD4")))
    assert str(refused.value) == "you must draw 6, or stack a draw card of +6 or more"


def test_no_mercy_deck_stacking_same_is_refused_with_the_card_that_stacks() -> None:
    game = pending(rules(NM, stacking=Stacking.SAME), "RD4", "WRD4 G5", total=4)
    with pytest.raises(errors.MustAnswerDraw) as refused:
        game.apply(0, Play(card("WRD4"), card("R1").color))
    assert str(refused.value) == "you must draw 4, or stack a D4"


def jumpable() -> Game:
    """alice played R5 in turn; bob is to move; carol may jump in with her R5."""
    game = position("top=R9 | alice*: R5 R5 R1 | bob: G3 G4 | carol: R5 Y3 W" + PILE, HOUSE)
    game.apply(0, Play(card("R5")))
    assert game.current == 1 and game.jump_card(2) is card("R5")
    return game


def why(game: Game, seat: int, text: str) -> str:
    refusal = game.jump_refusal(seat, card(text), "bob")
    assert isinstance(refusal, errors.NotYourTurn)  # still an out-of-turn refusal
    return str(refusal)


def test_a_jump_with_another_card_names_the_very_card_rule() -> None:
    assert why(jumpable(), 2, "Y3") == (
        "it is bob's turn; out of turn you may only jump in with the very card on top (R5)"
    )


def test_a_jump_on_ones_own_card() -> None:
    assert why(jumpable(), 0, "R5") == "it is bob's turn; you can't jump in on your own card"


def test_a_jump_after_the_next_move_says_when_jumps_are_allowed() -> None:
    game = jumpable()
    game.apply(1, Draw())  # bob draws: the window shuts
    assert game.top is card("R5") and game.jump_card(2) is None
    assert why(game, 2, "R5") == (
        "it is bob's turn; jump in only right after a card is played, before the next move"
    )


def test_no_jump_on_a_wild_and_none_with_a_card_not_held() -> None:
    game = position("top=W | color=r | alice: R5 | bob*: G3 G4 | carol: W Y3" + PILE, HOUSE)
    assert why(game, 2, "W") == "it is bob's turn; nobody jumps in on a wild (W)"
    assert isinstance(jumpable().jump_refusal(1, card("R5"), "bob"), errors.CardNotInHand)


def test_a_jump_on_a_seven_waiting_for_its_swap() -> None:
    game = position("top=R9 | alice*: R7 R1 | bob: G3 G4 | carol: R7 Y3" + PILE, HOUSE)
    game.apply(0, Play(card("R7")))
    assert game.phase is Phase.CHOOSE_SWAP
    assert why(game, 2, "R7") == "it is bob's turn; jump in on a 7 once its swap is done"


def test_every_draw_kind_is_named_once_per_deck() -> None:
    """The kinds ``stack_text`` chooses from: every card that draws, in each deck."""
    assert [c.text for c in _DRAW_KINDS[Deck.CLASSIC]] == ["RD2", "WD4"]
    assert [c.text for c in _DRAW_KINDS[Deck.NO_MERCY]] == ["RD2", "RD4", "WRD4", "WD6", "WD10"]
