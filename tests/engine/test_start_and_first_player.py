"""Dealing: the start card's effects under each ``start_card`` option, and who plays first.

Seeds are found by scanning 0, 1, 2, ... for a deal with the wanted start card, so the tests are
deterministic and don't depend on magic numbers.
"""

from __future__ import annotations

from collections import Counter
from random import Random

import pytest

from tests.engine.helpers import OFFICIAL, B, G, R, Y, find_seed, of_type, refuse, rules
from unobot.engine import (
    PRESETS,
    CardsDrawn,
    ChooseColor,
    ColorChosen,
    Draw,
    DrawReason,
    Event,
    FirstPlayer,
    FirstPlayerDraw,
    Game,
    HandStarted,
    HouseRules,
    Phase,
    Play,
    Reversed,
    Skipped,
    StartCard,
    StartCardReplaced,
    StartCardTurned,
    errors,
)
from unobot.engine.cards import Card, Rank, full_deck

REDRAW_WILDS = rules(start_card=StartCard.REDRAW_WILDS)
REDRAW_SPECIALS = rules(start_card=StartCard.REDRAW_SPECIALS)
HIGHEST = rules(first_player=FirstPlayer.HIGHEST_CARD)
RANDOM_FIRST = rules(first_player=FirstPlayer.RANDOM)


def first_turned(rank: Rank) -> object:
    """Condition: the very first card turned up (nothing replaced yet) has ``rank``."""

    def condition(game: Game, events: list[Event]) -> bool:
        turned = [e for e in events if isinstance(e, StartCardTurned | StartCardReplaced)]
        return turned[0].card.rank is rank

    return condition


def assert_all_cards_accounted(game: Game) -> None:
    held: Counter[Card] = Counter()
    for h in game.hands:
        held.update(h)
    held.update(game.draw_pile)
    held.update(game.discard)
    assert held == Counter(full_deck(game.rules.decks_for(game.n)))


# --- start card: official effects -------------------------------------------------------------


def test_number_start_card_left_of_dealer_starts() -> None:
    _seed, game, events = find_seed(first_turned(Rank.SEVEN), 4, OFFICIAL, dealer=2)
    top = game.top
    assert events == [HandStarted(2, 3, 4, 7, 1), StartCardTurned(top)]
    assert game.current == 3
    assert game.dealer == 2
    assert game.direction == 1
    assert game.phase is Phase.PLAY
    assert game.color is top.color
    assert game.discard == [top]
    assert game.counts() == [7, 7, 7, 7]
    assert len(game.draw_pile) == 108 - 28 - 1
    assert_all_cards_accounted(game)


def test_skip_start_card_skips_the_first_player() -> None:
    _seed, game, events = find_seed(first_turned(Rank.SKIP), 3, OFFICIAL, dealer=0)
    assert events == [HandStarted(0, 2, 3, 7, 1), StartCardTurned(game.top), Skipped(1)]
    assert game.current == 2
    assert game.phase is Phase.PLAY


def test_draw_two_start_card_hits_the_first_player() -> None:
    seed, game, events = find_seed(first_turned(Rank.DRAW_TWO), 3, OFFICIAL, dealer=1)
    top = game.top
    assert events[:2] == [HandStarted(1, 0, 3, 7, 1), StartCardTurned(top)]
    drawn = events[2]
    assert isinstance(drawn, CardsDrawn)
    assert drawn.seat == 2 and drawn.reason is DrawReason.START_CARD and len(drawn.cards) == 2
    assert events[3:] == [Skipped(2)]
    assert game.counts() == [7, 7, 9]
    assert game.current == 0
    assert game.pending == 0
    assert game.phase is Phase.PLAY
    # The two cards are the next two of the pile: re-deal the same seed and look.
    again, _ = Game.deal(3, OFFICIAL, Random(seed), 1)
    assert again.hand(2) == game.hand(2)
    assert len(game.draw_pile) == 108 - 21 - 1 - 2
    assert_all_cards_accounted(game)


def test_reverse_start_card_dealer_starts_and_play_goes_the_other_way() -> None:
    _seed, game, events = find_seed(first_turned(Rank.REVERSE), 4, OFFICIAL, dealer=1)
    assert events == [HandStarted(1, 1, 4, 7, 1), StartCardTurned(game.top), Reversed(-1)]
    assert game.current == 1
    assert game.direction == -1
    assert game.next_seat(1) == 0


def test_reverse_start_card_with_two_players_is_a_skip() -> None:
    _seed, game, events = find_seed(first_turned(Rank.REVERSE), 2, OFFICIAL, dealer=0)
    assert events == [HandStarted(0, 0, 2, 7, 1), StartCardTurned(game.top), Reversed(-1)]
    assert game.current == 0  # seat 1, left of the dealer, lost the first turn


def test_wild_start_card_first_player_names_the_colour() -> None:
    _seed, game, events = find_seed(first_turned(Rank.WILD), 3, OFFICIAL, dealer=0)
    assert events == [HandStarted(0, 1, 3, 7, 1), StartCardTurned(Card.parse("W"))]
    assert game.phase is Phase.CHOOSE_COLOR
    assert game.current == 1
    assert set(game.legal_actions(1)) == {ChooseColor(c) for c in (R, Y, G, B)}
    assert len(game.legal_actions(1)) == 4
    assert game.legal_actions(0) == () and game.legal_actions(2) == ()
    some_card = game.hand(1)[0]
    refuse(
        game, 1, Play(some_card, B if some_card.is_wild else None), errors.MustChooseColor, "colour"
    )
    refuse(game, 1, Draw(), errors.MustChooseColor, "name the colour")
    refuse(game, 0, ChooseColor(G), errors.NotYourTurn, "not your turn")
    assert game.apply(1, ChooseColor(G)) == [ColorChosen(1, G)]
    assert game.phase is Phase.PLAY
    assert game.color is G
    assert game.current == 1  # the same player now plays
    plays = {a.card for a in game.legal_actions(1) if isinstance(a, Play)}
    assert plays == {c for c in game.hand(1) if c.color is G or c.is_wild}


def test_wd4_start_card_goes_back_and_another_is_turned() -> None:
    _seed, game, events = find_seed(first_turned(Rank.WILD_DRAW_FOUR), 3, OFFICIAL, dealer=0)
    wd4 = Card.parse("WD4")
    assert isinstance(events[0], HandStarted)
    assert events[1] == StartCardReplaced(wd4)
    turned = of_type(events, StartCardTurned)
    assert len(turned) == 1
    assert turned[0].card is game.top
    assert game.top is not wd4
    replaced = of_type(events, StartCardReplaced)
    assert all(e.card is wd4 for e in replaced)  # only WD4s are refused under OFFICIAL
    assert game.discard == [game.top]
    assert wd4 in game.draw_pile  # back in the deck
    assert_all_cards_accounted(game)


# --- start card: redraw options ---------------------------------------------------------------


@pytest.mark.parametrize("rank", [Rank.WILD, Rank.WILD_DRAW_FOUR])
def test_redraw_wilds_replaces_wild_start_cards(rank: Rank) -> None:
    seed, _, _ = find_seed(first_turned(rank), 3, OFFICIAL)
    game, events = Game.deal(3, REDRAW_WILDS, Random(seed), 0)
    assert events[1] == StartCardReplaced(Card.of(None, rank))
    assert all(e.card.is_wild for e in of_type(events, StartCardReplaced))
    assert not game.top.is_wild
    assert game.phase is not Phase.CHOOSE_COLOR
    assert Card.of(None, rank) in game.draw_pile
    assert_all_cards_accounted(game)


def test_redraw_wilds_keeps_official_action_effects() -> None:
    _seed, game, events = find_seed(first_turned(Rank.SKIP), 3, REDRAW_WILDS, dealer=0)
    assert events == [HandStarted(0, 2, 3, 7, 1), StartCardTurned(game.top), Skipped(1)]


@pytest.mark.parametrize(
    "rank", [Rank.SKIP, Rank.REVERSE, Rank.DRAW_TWO, Rank.WILD, Rank.WILD_DRAW_FOUR]
)
def test_redraw_specials_starts_only_on_a_number(rank: Rank) -> None:
    seed, _, _ = find_seed(first_turned(rank), 3, OFFICIAL)
    game, events = Game.deal(3, REDRAW_SPECIALS, Random(seed), 0)
    replaced = of_type(events, StartCardReplaced)
    assert replaced[0].card.rank is rank
    assert all(e.card.rank > 9 for e in replaced)
    assert game.top.rank <= 9
    assert events[0] == HandStarted(0, 1, 3, 7, 1)
    assert events[-1] == StartCardTurned(game.top)
    assert game.current == 1 and game.direction == 1 and game.counts() == [7, 7, 7]
    assert_all_cards_accounted(game)


# --- first player -----------------------------------------------------------------------------


@pytest.mark.parametrize("dealer", [0, 1, 2, 3])
def test_left_of_dealer(dealer: int) -> None:
    _seed, game, events = find_seed(first_turned(Rank.FIVE), 4, OFFICIAL, dealer=dealer)
    assert events[0] == HandStarted(dealer, (dealer + 1) % 4, 4, 7, 1)
    assert not of_type(events, FirstPlayerDraw)
    assert game.current == (dealer + 1) % 4


def check_highest_card_draw(events: list[Event], players: int) -> int:
    """Replay the FirstPlayerDraw rounds by the rules; return the seat that wins them."""
    rounds = of_type(events, FirstPlayerDraw)
    contenders = tuple(range(players))
    for i, draw in enumerate(rounds):
        assert draw.seats == contenders
        assert len(draw.cards) == len(contenders)
        values = [c.rank if c.rank <= 9 else -1 for c in draw.cards]
        best = max(values)
        if best >= 0:
            contenders = tuple(s for s, v in zip(draw.seats, values, strict=True) if v == best)
        if i < len(rounds) - 1:
            assert len(contenders) > 1 or best < 0
    assert len(contenders) == 1
    return contenders[0]


def highest(condition: object) -> tuple[Game, list[Event]]:
    _seed, game, events = find_seed(
        lambda g, ev: first_turned(Rank.THREE)(g, ev) and condition(ev),  # type: ignore[operator]
        4,
        HIGHEST,
        dealer=0,
    )
    return game, events


def test_highest_card_single_round() -> None:
    game, events = highest(lambda ev: len(of_type(ev, FirstPlayerDraw)) == 1)
    (draw,) = of_type(events, FirstPlayerDraw)
    winner = check_highest_card_draw(events, 4)
    numbers = [c.rank for c in draw.cards if c.rank <= 9]
    assert draw.cards[winner].rank == max(numbers)
    assert numbers.count(max(numbers)) == 1
    assert events[0] == HandStarted((winner - 1) % 4, winner, 4, 7, 1)
    assert game.current == winner
    assert game.dealer == (winner - 1) % 4


def test_highest_card_ignores_specials() -> None:
    # A round where some card is a special (Skip/Reverse/Draw Two/Wild): it never wins.
    game, events = highest(
        lambda ev: (
            len(of_type(ev, FirstPlayerDraw)) == 1
            and any(c.rank > 9 for c in of_type(ev, FirstPlayerDraw)[0].cards)
            and max(c.rank for c in of_type(ev, FirstPlayerDraw)[0].cards if c.rank <= 9) < 9
        )
    )
    (draw,) = of_type(events, FirstPlayerDraw)
    winner = check_highest_card_draw(events, 4)
    assert draw.cards[winner].rank <= 9
    assert game.current == winner


def test_highest_card_ties_draw_again_among_the_tied() -> None:
    game, events = highest(lambda ev: len(of_type(ev, FirstPlayerDraw)) >= 2)
    rounds = of_type(events, FirstPlayerDraw)
    first_values = [c.rank for c in rounds[0].cards if c.rank <= 9]
    tied = tuple(s for s, c in enumerate(rounds[0].cards) if c.rank == max(first_values))
    assert len(tied) >= 2
    assert rounds[1].seats == tied
    winner = check_highest_card_draw(events, 4)
    assert winner in tied
    assert game.current == winner


def test_highest_card_all_specials_draw_again() -> None:
    _seed, _game, events = find_seed(
        lambda g, ev: any(all(c.rank > 9 for c in d.cards) for d in of_type(ev, FirstPlayerDraw)),
        2,
        HIGHEST,
    )
    rounds = of_type(events, FirstPlayerDraw)
    special = next(i for i, d in enumerate(rounds) if all(c.rank > 9 for c in d.cards))
    assert rounds[special + 1].seats == rounds[special].seats
    winner = check_highest_card_draw(events, 2)
    assert isinstance(events[0], HandStarted)
    assert events[0].dealer == (winner - 1) % 2


def test_highest_card_draw_uses_the_same_rng_deterministically() -> None:
    a = Game.deal(5, HIGHEST, Random(11))[1]
    b = Game.deal(5, HIGHEST, Random(11))[1]
    assert a == b
    assert of_type(a, FirstPlayerDraw)


def test_random_first_player_ignores_the_dealer_argument_and_covers_every_seat() -> None:
    firsts = set()
    for seed in range(60):
        game, events = Game.deal(4, RANDOM_FIRST, Random(seed), dealer=0)
        started = events[0]
        assert isinstance(started, HandStarted)
        assert game.dealer == started.dealer
        turned = of_type(events, StartCardTurned)[-1].card
        if turned.rank <= 9 or turned.is_wild:
            assert started.first == (started.dealer + 1) % 4 == game.current
            firsts.add(started.first)
        _again, again_events = Game.deal(4, RANDOM_FIRST, Random(seed), dealer=3)
        assert again_events == events  # the dealer argument plays no part
    assert firsts == {0, 1, 2, 3}


def test_deal_respects_hand_size_and_double_deck() -> None:
    rule_set = HouseRules(name="x", hand_size=5, double_deck_above=4)
    game, events = Game.deal(5, rule_set, Random(3))
    assert isinstance(events[0], HandStarted)
    assert events[0].decks == 2 and events[0].hand_size == 5
    assert game.counts()[0] == 5
    assert_all_cards_accounted(game)


def test_irc_classic_doubles_the_deck_above_four_players() -> None:
    classic = PRESETS["irc-classic"]
    game, events = Game.deal(5, classic, Random(1))
    assert isinstance(events[0], HandStarted) and events[0].decks == 2
    assert len(game.draw_pile) + len(game.discard) + sum(game.counts()) == 216
    assert_all_cards_accounted(game)
    game, events = Game.deal(4, classic, Random(1))
    assert isinstance(events[0], HandStarted) and events[0].decks == 1
    assert_all_cards_accounted(game)


# --- start cards without effect (000) ---------------------------------------------------------

NO_EFFECTS = rules(start_card_effects=False)


@pytest.mark.parametrize("rank", [Rank.SKIP, Rank.REVERSE, Rank.DRAW_TWO])
def test_without_start_card_effects_the_first_player_plays_on_an_action_card(rank: Rank) -> None:
    seed, _, _ = find_seed(first_turned(rank), 4, OFFICIAL, dealer=1)
    game, events = Game.deal(4, NO_EFFECTS, Random(seed), 1)
    assert events == [HandStarted(1, 2, 4, 7, 1), StartCardTurned(game.top)]
    assert game.top.rank is rank
    assert game.current == 2 and game.direction == 1 and game.phase is Phase.PLAY
    assert game.counts() == [7, 7, 7, 7]
    assert_all_cards_accounted(game)


def test_without_start_card_effects_a_wild_start_still_needs_a_colour() -> None:
    seed, _, _ = find_seed(first_turned(Rank.WILD), 3, OFFICIAL, dealer=0)
    game, events = Game.deal(3, NO_EFFECTS, Random(seed), 0)
    assert events == [HandStarted(0, 1, 3, 7, 1), StartCardTurned(Card.parse("W"))]
    assert game.phase is Phase.CHOOSE_COLOR and game.current == 1


def test_ocuk_preset_highest_card_player_starts_clockwise_whatever_the_start_card() -> None:
    ocuk = PRESETS["ocuk-tournament"]
    assert not ocuk.start_card_effects and ocuk.start_card is StartCard.REDRAW_WILDS
    for rank in (Rank.SKIP, Rank.REVERSE, Rank.DRAW_TWO):
        _seed, game, events = find_seed(
            lambda g, e, rank=rank: g.top.rank is rank,
            4,
            ocuk,  # type: ignore[misc]
        )
        last = of_type(events, FirstPlayerDraw)[-1]
        numbers = [c.rank if c.rank <= 9 else -1 for c in last.cards]
        highest = last.seats[numbers.index(max(numbers))]
        assert game.current == highest, rank
        assert game.direction == 1 and game.counts() == [7, 7, 7, 7]
        assert not of_type(events, Skipped) and not of_type(events, Reversed)
