"""No Mercy (UNO Show 'em No Mercy, Mattel 2023), from the hand notation: every new card,
draw until playable, stacking equal-or-higher, the mercy rule, and 0/7 as in Seven-O."""

from __future__ import annotations

from collections import Counter
from random import Random

import pytest

from tests.engine.helpers import PRESETS, B, G, R, Y, card, hand, position, refuse, rules
from unobot.engine import (
    CardPlayed,
    CardsDrawn,
    ChooseColor,
    ColorChosen,
    Draw,
    DrawPending,
    HandEnded,
    HandsRotated,
    HandsSwapped,
    Pass,
    Phase,
    Play,
    RoulettePending,
    Scoring,
    Skipped,
    errors,
)
from unobot.engine.actions import CallUno, Catch
from unobot.engine.cards import Card, no_mercy_deck, parse_play
from unobot.engine.events import (
    CardsDiscarded,
    DrawReason,
    Eliminated,
    EveryoneSkipped,
    MatchEnded,
    Reversed,
)
from unobot.engine.game import Game
from unobot.engine.match import Match

NM = rules(PRESETS["no-mercy"], min_players=2)


def test_the_deck_has_168_cards_in_the_published_counts() -> None:
    deck = Counter(str(c) for c in no_mercy_deck())
    assert sum(deck.values()) == 168
    assert deck["R0"] == 2 and deck["R9"] == 2
    assert (deck["RS"], deck["RR"], deck["RD2"], deck["RDA"]) == (3, 3, 3, 3)
    assert (deck["RSE"], deck["RD4"]) == (2, 2)
    assert (deck["WRD4"], deck["WD6"], deck["WD10"], deck["WCR"]) == (8, 4, 4, 8)
    assert deck["W"] == 0 and deck["WD4"] == 0


@pytest.mark.parametrize(
    ("typed", "text", "color"),
    [
        ("r se", "RSE", None),
        ("r da", "RDA", None),
        ("r d4", "RD4", None),
        ("g +4", "GD4", None),
        ("wd6 b", "WD6", B),
        ("wd10 g", "WD10", G),
        ("wrd4 y", "WRD4", Y),
        ("wcr r", "WCR", R),
        ("b skipeveryone", "BSE", None),
    ],
)
def test_players_type_the_new_cards(typed: str, text: str, color: object) -> None:
    got, named = parse_play(typed)
    assert str(got) == text and named is color
    assert Card.parse(text) is got


def test_skip_everyone_plays_again() -> None:
    game = position("top=R5 | a*: RSE R1 G2 | b: G3 G4 | c: Y1 Y2", NM)
    events = game.apply(0, Play(card("RSE")))
    assert events == [CardPlayed(0, card("RSE"), R, 2), EveryoneSkipped(0)]
    assert game.current == 0 and game.phase is Phase.PLAY


def test_discard_all_lays_every_card_of_its_colour() -> None:
    game = position("top=R5 | a*: RDA R1 R9 GS G2 | b: G3 G4", NM)
    events = game.apply(0, Play(card("RDA")))
    assert events[0] == CardPlayed(0, card("RDA"), R, 2)
    assert events[1] == CardsDiscarded(0, (card("R1"), card("R9")), 2)
    assert hand(game, 0) == "G2 GS"
    assert game.top is card("RDA") and game.color is R
    assert game.current == 1


def test_discard_all_of_the_last_cards_goes_out() -> None:
    game = position("top=R5 | a*: RDA R1 | b: G3 G4", NM)
    events = game.apply(0, Play(card("RDA")))
    assert isinstance(events[-1], HandEnded) and events[-1].outcome.winner == 0


def test_discard_all_to_one_card_needs_the_uno_call() -> None:
    game = position("top=R5 | a*: RDA R1 G2 | b: G3 G4", NM)
    assert Play(card("RDA"), uno=True) in game.legal_actions()
    game.apply(0, Play(card("RDA")))
    assert game.exposed == 0


def test_coloured_draw_four_is_stacked_with_a_higher_wild() -> None:
    game = position(
        f"top=R5 | a*: RD4 G1 | b: WD6 B2 | c: Y1 Y2 | pile={' '.join(['Y5'] * 12)}", NM
    )
    assert game.apply(0, Play(card("RD4")))[-1] == DrawPending(1, 4)
    assert Play(card("WD6"), B) in game.legal_actions()
    events = game.apply(1, Play(card("WD6"), B))
    assert events[-1] == DrawPending(2, 10)
    events = game.apply(2, Draw())
    assert events[0].seat == 2 and len(events[0].cards) == 10
    assert game.current == 0


def test_stacking_needs_an_equal_or_higher_draw_of_any_colour() -> None:
    game = position(
        "top=RD4 | a*: GD2 BD4 Y1 | b: G3 G4 | pending=4 | pile=" + " ".join(["G1"] * 10), NM
    )
    legal = game.legal_actions()
    assert Play(card("BD4")) in legal  # equal, another colour
    assert Play(card("GD2")) not in legal  # lower
    with pytest.raises(errors.MustAnswerDraw):
        game.apply(0, Play(card("GD2")))
    assert game.apply(0, Play(card("BD4")))[-1] == DrawPending(1, 8)


def test_wild_draw_ten_and_reverse_draw_four() -> None:
    game = position("top=R5 | a*: WRD4 G1 | b: G3 G4 | c: Y1 Y2 | d: B1", NM)
    events = game.apply(0, Play(card("WRD4"), Y))
    assert Reversed(-1) in events and events[-1] == DrawPending(3, 4)
    assert game.direction == -1 and game.color is Y


def test_the_next_player_names_the_roulettes_colour_and_turns_cards_until_it_comes() -> None:
    """Wild Colour Roulette: "The next player chooses a color. After that, they must reveal
    cards one at a time from the Draw Pile until they get a card of that color (Wild Cards do
    NOT count). Then they add all the revealed cards to their hand and lose their turn." (the sheet)
    """
    game = position("top=R5 | a*: WCR G1 G2 | b: G3 G4 | c: Y1 Y2 | pile=R1 WD6 B2 G7 Y9", NM)
    assert Play(card("WCR")) in game.legal_actions()
    assert not any(type(a) is Play and a.color is not None for a in game.legal_actions())
    events = game.apply(0, Play(card("WCR")))
    assert events == [CardPlayed(0, card("WCR"), R, 2), RoulettePending(1)]
    assert game.current == 1 and game.phase is Phase.ROULETTE
    assert game.color is R  # in force until b names one
    assert game.legal_actions(1) == tuple(ChooseColor(c) for c in (R, Y, G, B))
    events = game.apply(1, ChooseColor(G))
    assert events == [
        ColorChosen(1, G),
        CardsDrawn(1, tuple(map(card, ["R1", "WD6", "B2", "G7"])), DrawReason.ROULETTE),
        Skipped(1),
    ]
    assert hand(game, 1) == "R1 G3 G4 G7 B2 WD6"
    assert game.current == 2 and game.phase is Phase.PLAY and game.color is G


def test_the_roulettes_player_names_no_colour() -> None:
    """The sheet: "The next player chooses a color": ``.p wcr r`` is refused, changing nothing."""
    game = position("top=R5 | a*: WCR G1 | b: G3 G4 | pile=R1 G7", NM)
    refuse(game, 0, Play(card("WCR"), G), errors.RouletteColorNotYours, "the next player names")


def test_while_the_roulettes_colour_is_awaited_only_the_next_player_names_it() -> None:
    """The Roulette's victim must name the colour before anything else; its player can't."""
    game = position("top=R5 | a*: WCR G1 | b: G3 R4 | c: Y1 Y2 | pile=R1 G7", NM)
    game.apply(0, Play(card("WCR")))
    for action in (Play(card("R4")), Draw(), Pass()):
        refuse(game, 1, action, errors.MustNameRouletteColor, "name a colour for the roulette")
    refuse(game, 0, ChooseColor(G), errors.NotYourTurn, "not your turn")
    game.apply(1, ChooseColor(G))
    assert game.current == 2


def test_an_idle_roulette_victim_names_the_colour_they_hold_most_and_draws_nothing_more() -> None:
    game = position("top=R5 | a*: WCR G1 | b: Y3 Y4 B1 | c: Y1 Y2 | pile=R1 G7 Y9 B2", NM)
    game.apply(0, Play(card("WCR")))
    events = game.force_pass(1)
    assert events == [
        ColorChosen(1, Y),
        CardsDrawn(1, tuple(map(card, ["R1", "G7", "Y9"])), DrawReason.ROULETTE),
        Skipped(1),
    ]
    assert game.current == 2 and game.hand_size(1) == 6


def test_the_roulette_stops_at_the_mercy_limit_and_puts_the_victim_out() -> None:
    many = " ".join(["G1"] * 22)
    game = position(f"top=R5 | a*: WCR R1 | b: {many} | c: Y1 Y2 | pile=G2 G3 G4 G5 B9 B9", NM)
    game.apply(0, Play(card("WCR")))
    events = game.apply(1, ChooseColor(B))
    drawn = next(e for e in events if type(e) is CardsDrawn)
    assert len(drawn.cards) == 3  # 22 + 3 = 25: the limit
    assert Eliminated(1, 25) in events and game.current == 2


def test_the_catch_window_of_the_roulettes_player_closes_when_the_colour_is_named() -> None:
    game = position("top=R5 | a*: WCR G1 | b: G3 G4 | c: Y1 Y2 | pile=R1 G7", NM)
    game.apply(0, Play(card("WCR")))  # down to one card, UNO not called
    assert game.exposed == 0 and Catch(0) in game.legal_actions(2)
    game.apply(1, ChooseColor(G))
    assert game.exposed == -1


def test_a_reverse_with_two_players_left_after_a_knock_out_skips_the_other() -> None:
    """Reverse: "With just two players a Reverse skips the other player, letting you take
    another turn": also when two are left of more, the mercy rule having put the rest out."""
    game = position("top=R5 out=b | a*: RR R1 R2 | b: | c: G1 G2", NM)
    events = game.apply(0, Play(card("RR")))
    assert events == [CardPlayed(0, card("RR"), R, 2), Reversed(-1), Skipped(2)]
    assert game.current == 0


def test_a_reverse_with_three_players_left_only_turns_play() -> None:
    game = position("top=R5 out=b | a*: RR R1 R2 | b: | c: G1 G2 | d: Y1 Y2", NM)
    events = game.apply(0, Play(card("RR")))
    assert events == [CardPlayed(0, card("RR"), R, 2), Reversed(-1)]
    assert game.current == 3


@pytest.mark.parametrize(
    "text",
    [
        "top=R5 | a*: WRD4 R1 R2 | b: G1 G2 | pile=B1 B2 B3 B4 B5",
        "top=R5 out=c | a*: WRD4 R1 R2 | b: G1 G2 | c: | pile=B1 B2 B3 B4 B5",
    ],
)
def test_a_wild_reverse_draw_four_with_two_players_makes_its_player_draw(text: str) -> None:
    """Wild Reverse Draw 4: "With just two players this card skips the other player and makes
    YOU draw 4 cards!" (two dealt, or two left after knock-outs)."""
    game = position(text, NM)
    events = game.apply(0, Play(card("WRD4"), B))
    assert events == [
        CardPlayed(0, card("WRD4"), B, 2),
        Reversed(-1),
        Skipped(1),
        DrawPending(0, 4),
    ]
    assert game.current == 0 and game.phase is Phase.PENDING and game.pending == 4
    events = game.apply(0, Draw())
    assert events == [
        CardsDrawn(0, tuple(map(card, ["B1", "B2", "B3", "B4"])), DrawReason.PENALTY_CARD),
        Skipped(0),
    ]
    assert game.current == 1 and game.hand_size(0) == 6


def test_the_wild_reverse_draw_fours_penalty_is_sent_back_by_stacking() -> None:
    """The sheet: "You may use the stacking rule to send the penalty back to the other
    player."
    """
    game = position("top=R5 | a*: WRD4 WD6 R2 | b: G1 G2 | pile=" + "B9 " * 12, NM)
    game.apply(0, Play(card("WRD4"), B))
    assert Play(card("WD6"), G) in game.legal_actions(0)
    events = game.apply(0, Play(card("WD6"), G))
    assert events[-1] == DrawPending(1, 10)
    game.apply(1, Draw())
    assert game.hand_size(1) == 12 and game.current == 0


def test_a_wild_reverse_draw_four_with_three_players_hits_the_previous_one() -> None:
    game = position("top=R5 | a*: WRD4 R1 | b: G1 G2 | c: Y1 Y2", NM)
    events = game.apply(0, Play(card("WRD4"), B))
    assert events[-1] == DrawPending(2, 4) and game.current == 2


@pytest.mark.parametrize(
    ("text", "last"),
    [
        ("top=R5 | a*: WD10 | b: R1 R2 | pile=" + "B9 " * 12, Play(card("WD10"), B)),
        ("top=R5 | a*: RD4 | b: R1 R2 | pile=" + "B9 " * 12, Play(card("RD4"))),
        ("top=R5 | a*: WRD4 | b: R1 R2 | c: Y1 | pile=" + "B9 " * 12, Play(card("WRD4"), B)),
        ("top=R5 | a*: WCR | b: R1 R2 | pile=" + "B9 " * 12, Play(card("WCR"))),
        ("top=RD2 pending=2 | a*: WD6 | b: R1 R2 | pile=" + "B9 " * 12, Play(card("WD6"), G)),
    ],
)
def test_the_final_card_wins_at_once_and_its_penalty_is_not_taken(text: str, last: Play) -> None:
    """Winning: "When a player plays their final card, they win." A final draw card (stacked
    on a total or not) makes nobody draw, and its cards are not counted (the hand that held
    R1 R2 scores 3, not 93 after a Wild Draw Ten)."""
    game = position(text, NM)
    events = game.apply(0, last)
    assert not any(type(e) in (CardsDrawn, DrawPending, RoulettePending) for e in events)
    end = events[-1]
    assert isinstance(end, HandEnded) and end.outcome.winner == 0
    assert end.outcome.points[1] == 3 and hand(game, 1) == "R1 R2"
    assert end.outcome.scores[0] == sum(end.outcome.points) and end.outcome.bonus == 0


def test_draw_until_playable_then_must_play_it() -> None:
    game = position("top=R5 | a*: G1 | b: G3 | pile=B2 Y3 R9 G4", NM)
    events = game.apply(0, Draw())
    assert events == [CardsDrawn(0, tuple(map(card, ["B2", "Y3", "R9"])), DrawReason.DRAW)]
    assert game.phase is Phase.DRAWN and game.legal_actions() == (Play(card("R9")),)


def test_mercy_rule_puts_a_player_out_and_play_passes_them() -> None:
    many = " ".join(["G1"] * 20)
    game = position(
        f"top=R5 | a*: WD6 R1 | b: {many} | c: R3 Y2 | d: R4 B3 | pile={' '.join(['B9'] * 8)}",
        NM,
    )
    game.apply(0, Play(card("WD6"), R))
    events = game.apply(1, Draw())  # 20 + 6 = 26 cards: out
    assert Eliminated(1, 26) in events
    assert game.eliminated(1) and game.hand_size(1) == 0
    # under the discard pile: R5 and the WD6 stay on top
    assert game.discard[-1] is card("WD6") and len(game.discard) == 28
    assert game.current == 2
    game.apply(2, Play(card("R3")))
    game.apply(3, Play(card("R4")))
    assert game.current == 0  # after d comes a: b is passed over


def test_last_player_standing_wins_and_scores_250_for_each_player_knocked_out() -> None:
    """The sheet: "Alternatively, if all other players are knocked out of the game, you win", and
    "250 Points for each player knocked out of the game during the hand (ignore the cards in
    their hand at the time they were knocked out)". Their own cards are not theirs to
    collect: a last one standing holding R1 R2 scores the bonus alone."""
    many = " ".join(["G1"] * 22)
    game = position(
        f"top=R5 out=c | a*: RD4 R1 R2 | b: {many} | c: | pile={' '.join(['B9'] * 8)}", NM
    )
    game.apply(0, Play(card("RD4")))
    events = game.apply(1, Draw())
    assert Eliminated(1, 26) in events
    end = events[-1]
    assert isinstance(end, HandEnded) and end.outcome.winner == 0
    assert end.outcome.scores == (500, 0, 0) and end.outcome.bonus == 500
    assert end.outcome.points == (3, 0, 0)
    assert game.over


def test_going_out_scores_the_cards_left_and_the_bonus() -> None:
    game = position("top=R5 out=c | a*: R9 | b: G1 WD6 | c: ", NM)
    end = game.apply(0, Play(card("R9")))[-1]
    assert isinstance(end, HandEnded)
    assert end.outcome.scores == (301, 0, 0) and end.outcome.bonus == 250


def test_the_bonus_goes_only_where_the_winner_collects() -> None:
    own = rules(NM, scoring=Scoring.OWN_POINTS)
    game = position("top=R5 out=c | a*: R9 | b: G1 WD6 | c: ", own)
    end = game.apply(0, Play(card("R9")))[-1]
    assert isinstance(end, HandEnded)
    assert end.outcome.scores == (0, 51, 0) and end.outcome.bonus == 0


def test_no_mercy_is_for_two_to_six_players() -> None:
    """The sheet: "2-6 players": the preset deals no more (a channel may still raise
    max_players)."""
    assert (PRESETS["no-mercy"].min_players, PRESETS["no-mercy"].max_players) == (2, 6)
    Game.deal(6, PRESETS["no-mercy"], Random(0))
    with pytest.raises(ValueError, match="2 to 6 players"):
        Game.deal(7, PRESETS["no-mercy"], Random(0))


def test_no_mercy_1000_plays_hands_until_someone_reaches_1000() -> None:
    """Keeping score: "When a player reaches 1000 points, they are the winner." (the sheet)"""
    scored = PRESETS["no-mercy-1000"]
    assert scored.target_score == 1000 and scored.mercy_bonus == 250
    assert scored.differences(PRESETS["no-mercy"]) == {"target_score": 1000}
    match = Match(3, scored, Random(0))
    match.start_hand()
    match.game = position("top=R5 out=c | a*: R9 | b: G1 WD6 | c: ", scored)
    match.apply(0, Play(card("R9")))  # 301 points
    assert not match.over and match.totals == [301, 0, 0]
    match.start_hand()
    wilds = " ".join(["WD10"] * 14)
    match.game = position(f"top=R5 out=b | a*: R9 | b: | c: {wilds}", scored)
    events = match.apply(0, Play(card("R9")))  # 700 + 250 = 950: 1251
    assert isinstance(events[-1], MatchEnded) and match.over
    assert match.totals == [1251, 0, 0] and match.outcome is not None
    assert match.outcome.winners == (0,) and match.outcome.hands == 2


def test_seven_swaps_and_zero_rotates_skipping_the_eliminated() -> None:
    game = position("top=R5 | a*: R7 R0 G1 | b: G2 G3 | c: Y1 Y2 Y3", NM)
    game._out = 1 << 1  # b is out (hand emptied by the mercy rule)
    game._sizes[1] = 0
    game._counts[1] = [0] * len(game._counts[1])
    game._masks[1] = 0
    with pytest.raises(errors.CannotSwap):
        game.apply(0, Play(card("R7"), target=1))
    events = game.apply(0, Play(card("R7"), target=2))
    assert HandsSwapped(0, 2, 3, 2) in events
    assert game.current == 2


def test_zero_passes_hands_among_players_still_in() -> None:
    game = position("top=R5 | a*: R0 G1 G2 | b: B2 B3 | c: Y1 Y2 Y3", NM)
    events = game.apply(0, Play(card("R0")))
    assert any(isinstance(e, HandsRotated) for e in events)
    assert hand(game, 1) == "G1 G2" and hand(game, 2) == "B2 B3"
    assert hand(game, 0) == "Y1 Y2 Y3"


def test_uno_call_still_works() -> None:
    game = position("top=R5 | a*: R1 R2 | b: G3 G4", NM)
    assert CallUno() in game.legal_actions()


def test_random_no_mercy_games_conserve_cards_and_end() -> None:
    eliminations = 0
    for seed in range(120):
        rng = Random(seed)
        game, _ = Game.deal(2 + seed % 5, NM, rng)
        for _ in range(5_000):
            if game.over:
                break
            game.apply(game.current, rng.choice(game.legal_actions()))
            total = sum(game.counts()) + len(game.draw_pile) + len(game.discard)
            assert total == 168
            eliminations += sum(game.eliminated(s) for s in range(game.n)) and 0
        assert game.over
        out = game.outcome
        assert out is not None
        bonus = 250 * bin(game._out).count("1")
        assert out.scores[out.winner] == sum(out.points) - out.points[out.winner] + bonus
        eliminations += bin(game._out).count("1")
    assert eliminations > 0


def test_an_eliminated_seat_has_no_moves_not_even_a_catch() -> None:
    many = " ".join(["G1"] * 20)
    game = position(
        f"top=R5 | a*: WD6 R1 | b: {many} | c: R3 R2 | d: R4 B3 | pile={' '.join(['B9'] * 8)}",
        NM,
    )
    game.apply(0, Play(card("WD6"), R))
    game.apply(1, Draw())
    assert game.eliminated(1)
    game.apply(2, Play(card("R3")))  # c is down to one card without calling UNO: catchable
    assert game.legal_actions(3) != () and game.legal_actions(1) == ()
    for action in (Catch(2), CallUno(), Draw(), Play(card("G1"))):
        with pytest.raises(errors.OutOfHand):
            game.apply(1, action)


def _match(text: str, players: int, **changes: object) -> Match:
    """A No Mercy match whose hand in play is the position ``text``."""
    match = Match(players, rules(NM, **changes), Random(0))
    match.game = position(text, match.rules)
    return match


def test_a_timed_out_turn_that_breaks_the_mercy_limit_ends_the_hand_in_the_match() -> None:
    # The turn timer's draw (force_pass) may put the idler out and leave one player standing:
    # the match records that hand like any other (it once stayed "in progress" for ever).
    many = " ".join(["G1"] * 24)
    match = _match(f"top=R5 | a*: {many} | b: R1 R2 | pile=B9 B9", 2, target_score=500)
    events = match.force_pass(0)
    assert Eliminated(0, 25) in events and isinstance(events[-1], HandEnded)
    assert not match.hand_in_progress and len(match.hands) == 1
    # a's cards go under the pile and don't count; b scores 250 for knocking a out
    assert match.hands[0].winner == 1 and match.totals == [0, 250]
    match.start_hand()  # the next hand can be dealt


def test_a_leaver_who_was_the_last_one_standing_beside_one_player_ends_the_hand() -> None:
    many = " ".join(["G1"] * 20)
    match = _match(
        f"top=R5 | a*: WD6 R1 | b: {many} | c: R3 R2 | pile={' '.join(['B9'] * 8)}",
        3,
        target_score=500,
    )
    match.apply(0, Play(card("WD6"), R))
    match.apply(1, Draw())  # b is out by the mercy rule
    assert match.hand_in_progress
    events = match.remove_player(0)  # a leaves: c is the last one standing
    end = next(e for e in events if isinstance(e, HandEnded))
    assert end.outcome.winner == 1  # c, in the new numbering (b, c)
    assert not match.hand_in_progress and match.players == 2 and len(match.hands) == 1
    match.start_hand()


def test_without_a_target_that_hand_ends_the_match() -> None:
    many = " ".join(["G1"] * 24)
    match = _match(f"top=R5 | a*: {many} | b: R1 R2 | c: R3 | pile=B9 B9", 3)
    match.game._out = 1 << 2  # c is already out (its hand emptied by the mercy rule)
    match.game._sizes[2] = 0
    match.game._counts[2] = [0] * len(match.game._counts[2])
    match.game._masks[2] = 0
    events = match.force_pass(0)
    assert isinstance(events[-1], MatchEnded) and match.over
    assert match.outcome is not None and match.outcome.winners == (1,)


def test_games_journaled_before_version_4_replay_as_they_were_played() -> None:
    """``legacy_no_mercy`` (set by the journal for older games, never by players) keeps the
    bot's earlier readings: the Roulette's player names its colour and it is turned up at
    once, two players left of more play a Reverse as with more, a Wild Reverse Draw Four
    with two hits the other player, and a final draw card is still drawn."""
    old = rules(NM, legacy_no_mercy=True, max_players=10)
    assert "legacy_no_mercy" not in old.differences(NM)
    with pytest.raises(errors.RuleError):
        NM.with_option("legacy_no_mercy", "on")
    game = position("top=R5 | a*: WCR G1 | b: G3 G4 | c: Y1 Y2 | pile=R1 WD6 B2 G7 Y9", old)
    assert (
        Play(card("WCR"), G) in game.legal_actions()
        and Play(card("WCR")) not in game.legal_actions()
    )
    events = game.apply(0, Play(card("WCR"), G))
    assert CardsDrawn(1, cards_of("R1 WD6 B2 G7"), DrawReason.ROULETTE) in events
    assert game.current == 2 and game.color is G
    game = position("top=R5 out=b | a*: RR R1 R2 | b: | c: G1 G2", old)
    game.apply(0, Play(card("RR")))
    assert game.current == 2
    game = position("top=R5 | a*: WRD4 R1 R2 | b: G1 G2", old)
    assert game.apply(0, Play(card("WRD4"), B))[-1] == DrawPending(1, 4)
    game = position("top=R5 | a*: WD10 | b: R1 R2 | pile=" + "B9 " * 12, old)
    end = game.apply(0, Play(card("WD10"), B))[-1]
    assert isinstance(end, HandEnded) and end.outcome.points[1] == 93


def cards_of(text: str) -> tuple[Card, ...]:
    return tuple(map(card, text.split()))


def test_the_roulette_lapses_when_its_victim_leaves() -> None:
    """The next player's turn begins with their colour; if they leave before naming it, the
    Roulette lapses (as a pending total does) and the next player plays on the colour before."""
    game = position("top=R5 | a*: WCR G1 G2 | b: G3 G4 | c: Y1 R2 | d: B1 B2 | pile=R1 G7", NM)
    game.apply(0, Play(card("WCR")))
    game.remove_seat(1)
    assert game.current == 1 and game.phase is Phase.PLAY and game.color is R
    assert Play(card("R2")) in game.legal_actions()


def test_a_timed_out_pending_draw_that_breaks_the_mercy_limit_puts_the_idler_out() -> None:
    """The turn timer takes a pending draw through ``force_pass`` (issue 38: the table no longer
    stands in with a ``Draw``): the mercy rule is checked there too, as after a ``Draw`` (No
    Mercy's sheet: 25 or more cards and you are out)."""
    many = " ".join(["G1"] * 20)
    game = position(
        f"top=R5 | a*: WD6 R1 | b: {many} | c: R3 Y2 | d: R4 B3 | pile={' '.join(['B9'] * 8)}",
        NM,
    )
    game.apply(0, Play(card("WD6"), R))
    events = game.force_pass(1)  # 20 + 6 = 26 cards: out, as with .draw
    assert Eliminated(1, 26) in events
    assert game.eliminated(1) and game.current == 2
