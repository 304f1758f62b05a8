"""Dealing never hangs or crashes: ``validate()`` refuses what can't be dealt, ``deal`` ends.

Two defects found from outside: turning the start card looped for ever when the cards left
after the deal were all ones the start-card rule refuses (``YD2 BS RR`` under
redraw-specials), and a hand size that used up the deck raised IndexError from the deal.
"""

from __future__ import annotations

import dataclasses
from random import Random

import pytest
from hypothesis import event, given
from hypothesis import strategies as st

from tests.engine.test_properties import MAX_ACTIONS, check_invariants, choose
from unobot.engine import PRESETS, FirstPlayer, Game, HouseRules, StartCard, preset
from unobot.engine.cards import Card
from unobot.engine.events import FirstPlayerDraw, StartCardReplaced, StartCardTurned


class CountingRandom(Random):
    """A seeded RNG that fails the test instead of letting a loop run for ever."""

    def __init__(self, seed: int, limit: int = 20_000) -> None:
        super().__init__(seed)
        self.calls = 0
        self.limit = limit

    def random(self) -> float:
        self.calls += 1
        assert self.calls <= self.limit, "the deal drew random numbers without end"
        return super().random()


def test_the_reported_endless_start_card_is_refused() -> None:
    rules = preset("official").with_option("start_card", "redraw-specials")
    with pytest.raises(ValueError, match="too few to turn a start card"):
        rules.with_option("hand_size", "15")
    unchecked = dataclasses.replace(rules, hand_size=15)  # rules built without validate()
    with pytest.raises(ValueError, match="7 players with 15 cards each leave 3 of 108"):
        Game.deal(7, unchecked, CountingRandom(41))


def test_a_hand_size_that_uses_up_the_deck_is_refused_not_an_index_error() -> None:
    with pytest.raises(ValueError, match="hand_size 10 at most, or max_players 9"):
        preset("official").with_option("hand_size", "11")
    unchecked = dataclasses.replace(preset("official"), hand_size=11)
    with pytest.raises(ValueError, match="10 players with 11 cards each leave 0 of 108"):
        Game.deal(10, unchecked, Random(1))


def test_every_preset_validates_and_deals_its_largest_hand_at_every_table_size() -> None:
    for rules in PRESETS.values():
        rules.validate()
        for players in range(rules.min_players, rules.max_players + 1):
            if rules.team_problem(players):  # teams: 4 or 6, never 5 (tests/engine/test_teams)
                continue
            biggest = dataclasses.replace(rules, hand_size=rules.max_hand_size(players))
            assert biggest.deal_problem(players) == ""
            for seed in range(20):
                game, _ = Game.deal(players, biggest, CountingRandom(seed))
                check_invariants(game)
            too_big = dataclasses.replace(biggest, hand_size=biggest.hand_size + 1)
            assert too_big.deal_problem(players)


@pytest.mark.parametrize(
    ("mode", "refused"),
    [
        (StartCard.OFFICIAL, "WD4 WD4 WD4 WD4"),
        (StartCard.REDRAW_WILDS, "W WD4 W WD4 W"),
        (StartCard.REDRAW_SPECIALS, "YD2 BS RR W WD4 GS"),
    ],
)
def test_turning_takes_each_refused_card_once_then_the_first_acceptable(
    mode: StartCard, refused: str
) -> None:
    """The worst pile for each rule: every refused card on top of the only acceptable one."""
    game = Game(2, dataclasses.replace(preset("official"), start_card=mode), Random(3))
    bad = [Card.parse(text) for text in refused.split()]
    good = Card.parse("G7")
    game.draw_pile = [good, *reversed(bad)]  # drawn from the end: the refused ones first
    events: list[object] = []
    game._turn_start_card(events)  # type: ignore[arg-type]
    assert [e.card for e in events if isinstance(e, StartCardReplaced)] == bad
    assert [e.card for e in events if isinstance(e, StartCardTurned)] == [good]
    assert game.top is good
    assert sorted(game.draw_pile, key=lambda c: c.code) == sorted(bad, key=lambda c: c.code)


@st.composite
def table_rules(draw: st.DrawFn) -> HouseRules:
    """Every option that decides how many cards a deal needs, at any table size."""
    low, high = sorted(draw(st.lists(st.integers(2, 10), min_size=2, max_size=2)))
    return HouseRules(
        name="random",
        first_player=draw(st.sampled_from(FirstPlayer)),
        start_card=draw(st.sampled_from(StartCard)),
        hand_size=draw(st.integers(1, 15)),
        min_players=low,
        max_players=high,
        double_deck_above=draw(st.integers(0, 10)),
    )


@given(rules=table_rules(), seed=st.integers(0, 2**32), data=st.data())
def test_deal_deals_whatever_validate_accepts(
    rules: HouseRules, seed: int, data: st.DataObject
) -> None:
    try:
        rules.validate()
    except ValueError:
        event("refused by validate()")
        return
    players = data.draw(st.integers(rules.min_players, rules.max_players), label="players")
    rng = CountingRandom(seed)
    game, events = Game.deal(players, rules, rng)
    check_invariants(game)
    refused = sum(isinstance(e, StartCardReplaced) for e in events)
    assert refused <= 32 * rules.decks_for(players), "a refused card turned twice"
    # The deal's shuffles, the highest-card draws and the start card's: bounded.
    draws = sum(isinstance(e, FirstPlayerDraw) for e in events)
    assert rng.calls <= 108 * draws + 2 * 216
    # ... and the hand dealt plays to its end, whatever the sizes.
    agent = Random(seed)
    for _ in range(MAX_ACTIONS):
        if game.over:
            break
        game.apply(game.current, choose(game.legal_actions(), agent))
    assert game.over, "hand did not end"
    check_invariants(game)


@given(rules=table_rules(), players=st.integers(2, 10), seed=st.integers(0, 2**32))
def test_deal_on_any_rules_deals_or_refuses_cleanly(
    rules: HouseRules, players: int, seed: int
) -> None:
    """Rules that skipped validate() (built in code): a ValueError, never IndexError or a hang."""
    try:
        game, _ = Game.deal(players, rules, CountingRandom(seed))
    except ValueError as err:
        event("refused")
        assert rules.deal_problem(players) or not rules.min_players <= players <= rules.max_players
        assert str(err)
        return
    event("dealt")
    assert not rules.deal_problem(players)
    check_invariants(game)
