"""The options the source documents disagree on: drawing, stacking, the WD4 challenge, penalties."""

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
    PRESETS,
    AfterDraw,
    CardPlayed,
    CardsDrawn,
    Challenge,
    ChallengeResolved,
    Draw,
    DrawPending,
    DrawReason,
    HandEnded,
    NoPlayableCard,
    Pass,
    Phase,
    Play,
    Reshuffled,
    Skipped,
    Stacking,
    TurnPassed,
    errors,
)

DRAW_ONE_MAY = OFFICIAL
DRAW_ONE_MUST = rules(after_draw=AfterDraw.DRAWN_CARD_MUST)
ANY_CARD = rules(after_draw=AfterDraw.ANY_CARD)
UNTIL_PLAYABLE = rules(
    no_playable=NoPlayableCard.DRAW_UNTIL_PLAYABLE, after_draw=AfterDraw.DRAWN_CARD_MUST
)
END_TURN = rules(no_playable=NoPlayableCard.DRAW_ONE_END_TURN)
SAME = rules(stacking=Stacking.SAME, wd4_challenge=False)
ANY = rules(stacking=Stacking.ANY, wd4_challenge=False)


# --- no playable card -------------------------------------------------------------------------


def test_draw_one_playable_card_may_be_played() -> None:
    game = position("top=R5 | alice*: G1 Y2 Y3 | bob: B3 | carol: B4 | pile=R9 G7")
    assert game.legal_actions(0) == (Draw(),)
    assert game.apply(0, Draw()) == [CardsDrawn(0, (card("R9"),), DrawReason.DRAW)]
    assert game.phase is Phase.DRAWN
    assert game.drawn is card("R9")
    assert game.current == 0
    assert hand(game, 0) == "R9 Y2 Y3 G1"
    assert game.legal_actions(0) == (Play(card("R9")), Pass())
    assert game.apply(0, Play(card("R9"))) == [CardPlayed(0, card("R9"), R, 3)]
    assert game.current == 1
    assert game.phase is Phase.PLAY
    assert game.drawn is None


def test_draw_one_playable_card_may_be_kept() -> None:
    game = position("top=R5 | alice*: G1 Y2 | bob: B3 | carol: B4 | pile=R9 G7")
    game.apply(0, Draw())
    assert game.apply(0, Pass()) == [TurnPassed(0)]
    assert game.current == 1
    assert game.phase is Phase.PLAY
    assert hand(game, 0) == "R9 Y2 G1"


def test_draw_one_unplayable_card_ends_the_turn_by_itself() -> None:
    game = position("top=R5 | alice*: G1 Y2 | bob: B3 | carol: B4 | pile=G7 R9")
    assert game.apply(0, Draw()) == [CardsDrawn(0, (card("G7"),), DrawReason.DRAW), TurnPassed(0)]
    assert game.current == 1
    assert game.phase is Phase.PLAY
    assert game.drawn is None
    assert pile(game) == "R9"


def test_draw_one_drawn_wd4_not_playable_without_challenge_while_holding_the_colour() -> None:
    game = position("top=R5 | alice*: G1 G2 | bob: B3 | pile=WD4", rules(wd4_challenge=False))
    # Alice holds no red card, so the drawn WD4 is playable.
    game.apply(0, Draw())
    assert game.phase is Phase.DRAWN
    assert set(game.legal_actions(0)) == {Play(card("WD4"), c) for c in (R, Y, G, B)} | {Pass()}


def test_draw_until_playable_draws_several_then_must_play_the_card() -> None:
    game = position("top=R5 | alice*: G1 Y2 | bob: B3 | pile=G7 Y8 B5 B6", UNTIL_PLAYABLE)
    assert game.apply(0, Draw()) == [CardsDrawn(0, cards("G7 Y8 B5"), DrawReason.DRAW)]
    assert game.phase is Phase.DRAWN
    assert game.drawn is card("B5")
    assert pile(game) == "B6"
    assert game.legal_actions(0) == (Play(card("B5")),)
    refuse(game, 0, Pass(), errors.MustPlayDrawnCard, "must play the card you drew (B5)")
    refuse(game, 0, Draw(), errors.AlreadyDrew, "already drew")
    assert game.apply(0, Play(card("B5"))) == [CardPlayed(0, card("B5"), B, 4)]
    assert game.current == 1


def test_draw_until_playable_stops_on_a_wild() -> None:
    game = position("top=R5 | alice*: G1 | bob: B3 | pile=Y1 W R1", UNTIL_PLAYABLE)
    assert game.apply(0, Draw()) == [CardsDrawn(0, cards("Y1 W"), DrawReason.DRAW)]
    assert set(game.legal_actions(0)) == {Play(card("W"), c) for c in (R, Y, G, B)}


def test_draw_until_playable_with_nothing_playable_left_passes() -> None:
    game = position("top=R5 | alice*: G1 | bob: B3 | pile=Y1 Y2", UNTIL_PLAYABLE)
    assert game.apply(0, Draw()) == [CardsDrawn(0, cards("Y1 Y2"), DrawReason.DRAW), TurnPassed(0)]
    assert game.current == 1
    assert game.phase is Phase.PLAY


def test_draw_one_end_turn_even_a_playable_card_waits() -> None:
    game = position("top=R5 | alice*: G1 Y2 | bob: B3 | carol: B4 | pile=R9 G7", END_TURN)
    assert game.apply(0, Draw()) == [CardsDrawn(0, (card("R9"),), DrawReason.DRAW), TurnPassed(0)]
    assert game.current == 1
    assert game.phase is Phase.PLAY
    assert hand(game, 0) == "R9 Y2 G1"


# --- after drawing ----------------------------------------------------------------------------


def test_drawn_card_may_only_the_drawn_card_or_pass() -> None:
    """Mattel's sheet (T8231): "You may also choose NOT to play a playable card from your hand.
    If so, you must draw a card from the DRAW pile. If playable, that card can be put down in
    the same turn, however you may not play any other card from your hand after the draw."
    """
    game = position("top=R5 | alice*: R7 G1 G2 | bob: B3 | pile=R9", OFFICIAL)
    assert set(game.legal_actions(0)) == {Play(card("R7")), Draw()}
    game.apply(0, Draw())
    assert game.legal_actions(0) == (Play(card("R9")), Pass())
    refuse(game, 0, Play(card("R7")), errors.OnlyDrawnCard, "only play the card you drew (R9)")
    assert game.apply(0, Pass()) == [TurnPassed(0)]
    assert game.current == 1


def test_drawn_card_must_pass_is_refused() -> None:
    game = position("top=R5 | alice*: G1 Y2 | bob: B3 | pile=R9", DRAW_ONE_MUST)
    game.apply(0, Draw())
    assert game.legal_actions(0) == (Play(card("R9")),)
    refuse(game, 0, Pass(), errors.MustPlayDrawnCard, "you must play the card you drew (R9)")
    game.apply(0, Play(card("R9")))
    assert game.current == 1


def test_drawn_card_must_refuses_other_cards_after_a_voluntary_draw() -> None:
    game = position(
        "top=R5 | alice*: R7 G1 | bob: B3 | pile=R9",
        rules(after_draw=AfterDraw.DRAWN_CARD_MUST, voluntary_draw=True),
    )
    game.apply(0, Draw())
    refuse(game, 0, Play(card("R7")), errors.MustPlayDrawnCard, "must play the card you drew")


def test_drawn_card_must_unplayable_card_still_ends_the_turn() -> None:
    game = position("top=R5 | alice*: G1 Y2 | bob: B3 | pile=G9", DRAW_ONE_MUST)
    assert game.apply(0, Draw()) == [CardsDrawn(0, (card("G9"),), DrawReason.DRAW), TurnPassed(0)]
    assert game.current == 1


def test_any_card_after_drawing() -> None:
    """irc-classic: the original bot (003) takes ``.draw`` on your turn whatever you hold (its
    ``draw`` checks only whose turn it is and whether you drew already), and after it any card
    you hold may be played, or ``.pass``."""
    game = position("top=R5 | alice*: R7 G1 | bob: B3 | pile=G9", PRESETS["irc-classic"])
    assert set(game.legal_actions(0)) == {Play(card("R7")), Draw()}
    assert game.apply(0, Draw()) == [CardsDrawn(0, (card("G9"),), DrawReason.DRAW)]
    assert game.phase is Phase.DRAWN
    assert game.legal_actions(0) == (Play(card("R7")), Pass())
    assert game.apply(0, Play(card("R7"))) == [CardPlayed(0, card("R7"), R, 2)]
    assert game.current == 1


def test_any_card_drawn_playable_or_pass() -> None:
    game = position("top=R5 | alice*: G1 Y2 | bob: B3 | pile=R9", PRESETS["irc-classic"])
    game.apply(0, Draw())
    assert game.legal_actions(0) == (Play(card("R9")), Pass())
    assert game.apply(0, Pass()) == [TurnPassed(0)]


def test_any_card_nothing_playable_after_drawing_ends_the_turn() -> None:
    game = position("top=R5 | alice*: G1 Y2 | bob: B3 | pile=B9", PRESETS["irc-classic"])
    assert game.apply(0, Draw()) == [CardsDrawn(0, (card("B9"),), DrawReason.DRAW), TurnPassed(0)]
    assert game.current == 1


# --- voluntary draw ---------------------------------------------------------------------------


NO_FREE_DRAW = rules(voluntary_draw=False)


def test_voluntary_draw_refused() -> None:
    """The option off (``.unorules set voluntary_draw off``; ocuk-tournament, knockout,
    no-mercy): a player holding a card they can play may not draw."""
    game = position("top=R5 | alice*: R7 G1 | bob: B3 | pile=R9", NO_FREE_DRAW)
    assert Draw() not in game.legal_actions(0)
    refuse(game, 0, Draw(), errors.DrawNotAllowed, "you have a card you can play")


def test_voluntary_draw_refused_when_only_a_wild_is_playable() -> None:
    game = position("top=R5 | alice*: W G1 | bob: B3 | pile=R9", NO_FREE_DRAW)
    refuse(game, 0, Draw(), errors.DrawNotAllowed, "may not draw")


@pytest.mark.parametrize("name", ["official", "irc-classic", "bac-tournament"])
def test_voluntary_draw_of_an_unplayable_card_ends_the_turn(name: str) -> None:
    """Mattel's sheet: "If playable, that card can be put down in the same turn": a drawn card
    that can't go ends the turn, the playable card held back stays in hand (with
    ``any-card``, irc-classic's, the turn goes on only when a card in hand may be played:
    here R7 still can, see ``test_any_card_after_drawing``)."""
    game = position(
        "top=R5 | alice*: G7 G1 W | bob: B3 | carol: B4 | dave: B5 | pile=B9", PRESETS[name]
    )
    assert Draw() in game.legal_actions(0)
    events = game.apply(0, Draw())
    if name == "irc-classic":  # W is still playable: any card, or .pass
        assert events == [CardsDrawn(0, (card("B9"),), DrawReason.DRAW)]
        assert game.phase is Phase.DRAWN and game.drawn is None
        assert set(game.legal_actions(0)) == {Play(card("W"), c) for c in (R, Y, G, B)} | {Pass()}
        return
    assert events == [CardsDrawn(0, (card("B9"),), DrawReason.DRAW), TurnPassed(0)]
    assert game.current == 1
    assert hand(game, 0) == "G1 G7 B9 W"


def test_which_presets_let_a_player_draw_instead_of_playing() -> None:
    """Mattel's sheet for official and the presets built on it, the original bot's ``.draw``
    (003) for irc-classic, 002 for bac-tournament; the sheets of 000 (draw until playable),
    001 and No Mercy speak only of drawing for want of a match. UNO Flip's sheet: "You may
    draw instead of playing a playable card (then only the drawn card)"."""
    allowed = {name for name, preset in PRESETS.items() if preset.voluntary_draw}
    assert allowed == {
        "official", "irc-classic", "bac-tournament", "pairs", "two-teams", "seven-o",
        "jump-in", "house", "flip",
    }  # fmt: skip


def test_voluntary_draw_allowed() -> None:
    game = position(
        "top=R5 | alice*: R7 G1 G2 | bob: B3 | carol: B4 | dave: B5 | pile=G9",
        PRESETS["bac-tournament"],
    )
    assert set(game.legal_actions(0)) == {Play(card("R7")), Draw()}
    assert game.apply(0, Draw()) == [CardsDrawn(0, (card("G9"),), DrawReason.DRAW), TurnPassed(0)]
    assert game.current == 1


# --- stacking ---------------------------------------------------------------------------------

STACK_TABLE = (
    "top=R5 | alice*: RD2 R1 R2 | bob: GD2 G1 G2 | carol: BD2 WD4 B1 | dave: Y1 Y2 Y3"
    " | pile=Y4 Y5 Y6 Y7 Y8 Y9 G9"
)


def test_stacking_same_carries_the_total_on() -> None:
    game = position(STACK_TABLE, SAME)
    assert game.apply(0, Play(card("RD2"))) == [CardPlayed(0, card("RD2"), R, 2), DrawPending(1, 2)]
    assert game.phase is Phase.PENDING and game.pending == 2 and game.current == 1
    assert set(game.legal_actions(1)) == {Draw(), Play(card("GD2"))}
    refuse(game, 1, Play(card("G1")), errors.MustAnswerDraw, "you must draw 2, or stack a Draw Two")
    refuse(game, 1, Pass(), errors.MustAnswerDraw, "you must draw 2")
    assert game.apply(1, Play(card("GD2"))) == [CardPlayed(1, card("GD2"), G, 2), DrawPending(2, 4)]
    assert set(game.legal_actions(2)) == {Draw(), Play(card("BD2"))}
    refuse(game, 2, Play(card("WD4"), B), errors.MustAnswerDraw, "you must draw 4, or stack a Draw")
    assert game.apply(2, Play(card("BD2"))) == [CardPlayed(2, card("BD2"), B, 2), DrawPending(3, 6)]
    assert game.legal_actions(3) == (Draw(),)
    events = game.apply(3, Draw())
    assert events == [
        CardsDrawn(3, cards("Y4 Y5 Y6 Y7 Y8 Y9"), DrawReason.PENALTY_CARD),
        Skipped(3),
    ]
    assert game.current == 0
    assert game.pending == 0
    assert game.phase is Phase.PLAY
    assert hand(game, 3) == "Y1 Y2 Y3 Y4 Y5 Y6 Y7 Y8 Y9"
    assert pile(game) == "G9"


def test_stacking_none_draw_two_is_taken_at_once() -> None:
    game = position(STACK_TABLE, rules(stacking=Stacking.NONE))
    events = game.apply(0, Play(card("RD2")))
    assert events == [
        CardPlayed(0, card("RD2"), R, 2),
        CardsDrawn(1, cards("Y4 Y5"), DrawReason.PENALTY_CARD),
        Skipped(1),
    ]
    assert game.current == 2


def test_stacking_same_refuses_draw_two_on_wd4() -> None:
    game = position("top=WD4 color=r pending=4 | alice*: BD2 WD4 G1 | bob: Y1", SAME)
    assert set(game.legal_actions(0)) == {Draw()} | {Play(card("WD4"), c) for c in (R, Y, G, B)}
    refuse(game, 0, Play(card("BD2")), errors.MustAnswerDraw, "you must draw 4, or stack a WD4")
    assert game.apply(0, Play(card("WD4"), Y)) == [
        CardPlayed(0, card("WD4"), Y, 2),
        DrawPending(1, 8),
    ]
    assert game.color is Y


def test_stacking_same_wd4_on_wd4_keeps_the_colour_restriction() -> None:
    game = position("top=WD4 color=r pending=4 | alice*: RD2 WD4 G1 | bob: Y1", SAME)
    assert game.legal_actions(0) == (Draw(),)
    refuse(game, 0, Play(card("WD4"), G), errors.WildDrawFourNotAllowed, "hold no red card")


def test_stacking_same_refuses_wd4_on_draw_two() -> None:
    game = position("top=RD2 pending=2 | alice*: WD4 G1 | bob: Y1", SAME)
    assert game.legal_actions(0) == (Draw(),)
    refuse(game, 0, Play(card("WD4"), G), errors.MustAnswerDraw, "you must draw 2, or stack a Draw")


def test_stacking_any_wd4_on_draw_two() -> None:
    game = position("top=RD2 pending=2 | alice*: WD4 G1 G2 | bob: Y1", ANY)
    assert game.apply(0, Play(card("WD4"), G)) == [
        CardPlayed(0, card("WD4"), G, 2),
        DrawPending(1, 6),
    ]


def test_stacking_any_draw_two_on_wd4() -> None:
    game = position("top=WD4 color=g pending=4 | alice*: GD2 G1 G2 | bob: Y1", ANY)
    assert set(game.legal_actions(0)) == {Draw(), Play(card("GD2"))}
    assert game.apply(0, Play(card("GD2"))) == [CardPlayed(0, card("GD2"), G, 2), DrawPending(1, 6)]


def test_accepting_a_stack_draws_the_total_and_loses_the_turn() -> None:
    game = position(
        "top=RD2 pending=6 | alice: R1 | bob*: GD2 G1 | carol: Y1 | pile=B1 B2 B3 B4 B5 B6 B7", SAME
    )
    events = game.apply(1, Draw())
    assert events == [
        CardsDrawn(1, cards("B1 B2 B3 B4 B5 B6"), DrawReason.PENALTY_CARD),
        Skipped(1),
    ]
    assert game.current == 2
    assert hand(game, 1) == "G1 GD2 B1 B2 B3 B4 B5 B6"


def test_going_out_on_a_stacked_draw_two_passes_on_the_whole_total() -> None:
    game = position("top=RD2 pending=4 | alice*: GD2 | bob: Y1 | pile=B1 B2 B3 B4 B5 B6 B7", SAME)
    events = game.apply(0, Play(card("GD2")))
    assert events[:2] == [
        CardPlayed(0, card("GD2"), G, 0),
        CardsDrawn(1, cards("B1 B2 B3 B4 B5 B6"), DrawReason.PENALTY_CARD),
    ]
    assert isinstance(events[2], HandEnded)
    assert game.outcome is not None
    assert game.outcome.points == (0, 1 + 1 + 2 + 3 + 4 + 5 + 6)


# --- WD4 challenge ----------------------------------------------------------------------------

CHALLENGE_TABLE = "alice: R1 R2 | bob*: G5 Y5 | carol: B1 | top=WD4 color=g pending=4"
CHALLENGE_PILE = " | pile=B2 B3 B4 B5 B6 B7 B8"


def test_challenge_guilty_offender_draws_four_and_challenger_plays() -> None:
    game = position(CHALLENGE_TABLE + " guilty=yes" + CHALLENGE_PILE)
    assert game.wd4_offender == 0
    assert game.legal_actions(1) == (Draw(), Challenge())
    events = game.apply(1, Challenge())
    assert events == [
        ChallengeResolved(1, 0, True),
        CardsDrawn(0, cards("B2 B3 B4 B5"), DrawReason.CHALLENGE),
    ]
    assert game.current == 1
    assert game.phase is Phase.PLAY
    assert game.pending == 0
    assert hand(game, 0) == "R1 R2 B2 B3 B4 B5"
    assert hand(game, 1) == "Y5 G5"
    assert {a for a in game.legal_actions(1) if isinstance(a, Play)} == {
        Play(card("G5")),
        Play(card("G5"), uno=True),
    }


def test_challenge_innocent_challenger_draws_six_and_loses_the_turn() -> None:
    game = position(CHALLENGE_TABLE + CHALLENGE_PILE)
    events = game.apply(1, Challenge())
    assert events == [
        ChallengeResolved(1, 0, False),
        CardsDrawn(1, cards("B2 B3"), DrawReason.CHALLENGE),
        CardsDrawn(1, cards("B4 B5 B6 B7"), DrawReason.PENALTY_CARD),
        Skipped(1),
    ]
    assert game.current == 2
    assert game.phase is Phase.PLAY
    assert game.pending == 0
    assert game.hand_size(1) == 8
    assert hand(game, 0) == "R1 R2"


def test_challenge_from_real_play_guilty_when_holding_the_colour() -> None:
    game = position("top=R5 | alice*: WD4 R1 G1 | bob: Y5 | pile=B1 B2 B3 B4 B5 B6")
    game.apply(0, Play(card("WD4"), Y))
    events = game.apply(1, Challenge())
    assert events == [
        ChallengeResolved(1, 0, True),
        CardsDrawn(0, cards("B1 B2 B3 B4"), DrawReason.CHALLENGE),
    ]
    assert game.current == 1
    assert game.color is Y
    assert game.legal_actions(1) == (Play(card("Y5")), Draw())


def test_challenge_innocent_when_only_numbers_of_other_colours_matched() -> None:
    game = position("top=R5 | alice*: WD4 G5 YS | bob: Y7 | carol: Y8 | pile=B1 B2 B3 B4 B5 B6")
    game.apply(0, Play(card("WD4"), B))
    assert game.wd4_guilty is False
    events = game.apply(1, Challenge())
    assert events[0] == ChallengeResolved(1, 0, False)
    assert game.hand_size(1) == 7
    assert game.current == 2


def test_challenge_draw_counts_are_options() -> None:
    game = position(
        CHALLENGE_TABLE + " guilty=yes" + CHALLENGE_PILE, rules(challenge_guilty_draw=6)
    )
    events = game.apply(1, Challenge())
    assert events[1] == CardsDrawn(0, cards("B2 B3 B4 B5 B6 B7"), DrawReason.CHALLENGE)
    game = position(CHALLENGE_TABLE + CHALLENGE_PILE, rules(challenge_innocent_extra=0))
    events = game.apply(1, Challenge())
    assert events[-2:] == [CardsDrawn(1, cards("B2 B3 B4 B5"), DrawReason.PENALTY_CARD), Skipped(1)]
    assert game.hand_size(1) == 6


@pytest.mark.parametrize(
    ("text", "rule_set"),
    [
        ("top=R5 | alice*: R1 G1 | bob: B1", OFFICIAL),
        ("top=WD4 color=g | alice*: R1 G1 | bob: B1", OFFICIAL),
        ("top=RD2 pending=2 | alice*: R1 G1 | bob: B1", rules(SAME, wd4_challenge=True)),
    ],
    ids=["no-wd4", "wd4-answered", "draw-two-pending"],
)
def test_challenge_refused_when_there_is_nothing_to_challenge(text: str, rule_set: object) -> None:
    game = position(text, rule_set)  # type: ignore[arg-type]
    assert Challenge() not in game.legal_actions(0)
    refuse(game, 0, Challenge(), errors.CannotChallenge, "there is no Wild Draw Four to challenge")


@pytest.mark.parametrize("name", ["house", "ocuk-tournament", "irc-classic", "bac-tournament"])
@pytest.mark.parametrize(
    "text",
    [
        "top=RD2 pending=2 | alice*: R1 G1 | bob: B1 | carol: B2 | dave: B3",
        "top=WD4 color=g pending=4 | alice*: R1 G1 | bob: B1 | carol: B2 | dave: B3",
        "top=R5 | alice*: R1 G1 | bob: B1 | carol: B2 | dave: B3",
    ],
    ids=["draw-two-pending", "wd4-pending", "no-draw-card"],
)
def test_challenge_where_the_rules_have_none(name: str, text: str) -> None:
    """Issue 38: ``.challenge`` against a pending +2 in house or ocuk-tournament (stacking, no
    challenge: 000 "we will NOT be playing the CHALLENGE rule") is the engine's own refusal,
    which names the rule, not a table's guess about a player who left."""
    game = position(text, PRESETS[name])
    assert Challenge() not in game.legal_actions(0)
    refuse(
        game, 0, Challenge(), errors.CannotChallenge, "these rules have no Wild Draw Four challenge"
    )


def test_challenge_not_your_turn() -> None:
    game = position(CHALLENGE_TABLE + CHALLENGE_PILE)
    refuse(game, 2, Challenge(), errors.NotYourTurn, "not your turn")


# --- illegal-play penalty ---------------------------------------------------------------------


def test_illegal_play_penalty_via_penalize() -> None:
    knockout = PRESETS["knockout"]
    assert knockout.illegal_play_penalty == 2
    game = position("top=R5 | alice*: G1 R7 | bob: B3 | pile=Y1 Y2 Y3", knockout)
    refuse(game, 0, Play(card("G1")), errors.CardNotPlayable, "G1 does not match R5")
    events = game.penalize(0, knockout.illegal_play_penalty, DrawReason.ILLEGAL_PLAY)
    assert events == [CardsDrawn(0, cards("Y1 Y2"), DrawReason.ILLEGAL_PLAY)]
    assert hand(game, 0) == "R7 Y1 Y2 G1"
    assert game.current == 0  # the player still has their turn
    assert game.phase is Phase.PLAY
    assert pile(game) == "Y3"


def test_penalize_after_the_hand_is_over_is_refused() -> None:
    game = position("top=R5 | alice*: R1 | bob: B3 | pile=Y1 Y2")
    game.apply(0, Play(card("R1")))
    with pytest.raises(errors.HandOver, match="this hand is over"):
        game.penalize(1, 2, DrawReason.ILLEGAL_PLAY)
    assert hand(game, 1) == "B3"


def test_draw_until_playable_reshuffles_when_the_pile_runs_out() -> None:
    game = position("top=R5 discard=R1 | alice*: G1 | bob: B3 | pile=Y1", UNTIL_PLAYABLE)
    events = game.apply(0, Draw())
    assert events == [Reshuffled(1), CardsDrawn(0, cards("Y1 R1"), DrawReason.DRAW)]
    assert game.drawn is card("R1")
    assert game.discard == [card("R5")]
    assert game.draw_pile == []
