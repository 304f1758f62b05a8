"""Computer players in Seven-O and Jump-In: swap targets, jumps, and a view of hidden hands
that follows swaps and rotations (a hand given away is known exactly)."""

from __future__ import annotations

from random import Random

import pytest

from tests.ai.test_observation import _fits
from unobot.ai.arena import play_hand
from unobot.ai.easy import EasyStrategy
from unobot.ai.hard import deal_hidden
from unobot.ai.normal import NormalStrategy, swap_target
from unobot.ai.observation import Observer
from unobot.bench.dealer import normal_turns
from unobot.engine import Game, Phase, Play, preset
from unobot.engine.actions import Swap
from unobot.engine.cards import Card
from unobot.engine.notation import parse_position

SEVEN_O = preset("seven-o")


def _watch(text: str, rules: str = "seven-o") -> tuple[Game, list[Observer]]:
    game, _names = parse_position(text, preset(rules), Random(0))
    observers = [Observer(s, game.n, game.rules) for s in range(game.n)]
    for observer in observers:
        observer.observe(game)
    return game, observers


def _apply(game: Game, observers: list[Observer], seat: int, action: object) -> list[object]:
    events = game.apply(seat, action)  # type: ignore[arg-type]
    for observer in observers:
        observer.see(events)
    return events  # type: ignore[return-value]


def test_the_hand_given_away_is_known_exactly() -> None:
    game, observers = _watch(
        "top=R5 | alice*: R7 G1 G1 B2 | bob: Y1 Y2 | carol: B3 B4 B5 | pile=" + "G9 " * 20
    )
    _apply(game, observers, 0, Play(Card.parse("R7"), target=1))
    obs = observers[0].observe(game)
    for seed in range(20):
        hands, _pile = deal_hidden(obs, Random(seed))
        assert sorted(hands[1], key=lambda c: c.code) == game.hand(1)  # G1 G1 B2
    # carol knows nothing of it (only its size)
    carol = observers[2].observe(game)
    assert sum(s[0] for s in carol.hidden[1]) == 3
    assert not any(s[1] for s in carol.hidden[1])


def test_rotation_pins_the_next_hand_and_moves_the_facts() -> None:
    game, observers = _watch(
        "top=R5 | alice*: R0 G1 B2 | bob: Y1 Y2 | carol: B3 B4 B5 | pile=" + "G9 " * 20
    )
    _apply(game, observers, 0, Play(Card.parse("R0")))
    obs = observers[0].observe(game)
    hands, _ = deal_hidden(obs, Random(1))
    assert sorted(hands[1], key=lambda c: c.code) == game.hand(1)  # alice's G1 B2, now bob's
    assert obs.hand == tuple(game.hand(0))


@pytest.mark.parametrize("name", ["seven-o", "house"])
def test_what_the_observer_infers_still_holds_with_hands_moving(name: str) -> None:
    checked = swaps = 0
    for game, seat, obs in normal_turns(preset(name), range(40)):
        for other in range(4):
            if other == seat:
                continue
            segments = obs.hidden[other]
            assert sum(s[0] for s in segments) == game.hand_size(other)
            assert _fits(game.hand(other), segments, 1)
            checked += 1
        swaps += game.top.rank in (0, 7)
    assert checked > 500 and swaps > 20


def test_normal_swaps_with_the_fewest_cards_and_jumps_in() -> None:
    game, observers = _watch(
        "top=R5 | alice*: R7 G1 G2 B2 | bob: Y1 Y2 Y3 | carol: B3 B4 | dave: G3 G4 G5",
        "house",
    )
    normal = NormalStrategy(Random(0))
    _apply(game, observers, 0, Play(Card.parse("R7")))
    obs = observers[0].observe(game)
    assert obs.phase is Phase.CHOOSE_SWAP and swap_target(obs) == 2
    assert normal.act(obs) == Swap(2)
    game, observers = _watch(
        "top=R9 | alice*: R5 G1 | bob: Y1 Y2 Y3 | carol: R5 B4 | dave: G3 G4 G5", "jump-in"
    )
    _apply(game, observers, 0, Play(Card.parse("R5"), uno=True))
    jump = normal.act(observers[2].observe(game))
    assert type(jump) is Play and jump.card == Card.parse("R5")
    assert normal.act(observers[3].observe(game)) is None  # nothing to jump with
    picks = {EasyStrategy(Random(s)).act(observers[2].observe(game)) for s in range(20)}
    assert None in picks and {p.card for p in picks if p is not None} == {Card.parse("R5")}


@pytest.mark.parametrize("name", ["seven-o", "jump-in", "house"])
def test_every_level_plays_the_variants_to_the_end(name: str) -> None:
    for seed in range(3):
        winner, scores, actions = play_hand(
            ("hard", "normal", "easy", "normal"), preset(name), seed, playouts=8
        )
        assert winner >= 0 and sum(scores) >= 0 and actions > 0


def test_playouts_jump_in() -> None:
    """hard's playouts jump in as ``normal`` does: carol, holding the R5 alice just played,
    jumps in with her last card at once (bob's Skip never comes)."""
    from unobot.ai.playout import play_out

    text = "top=R9 | alice*: R5 G1 | bob: RS Y1 | carol: R5 | dave: G3 G4 | pile=" + "B9 " * 20
    game, _ = parse_position(text, preset("jump-in"), Random(0))
    game.apply(0, Play(Card.parse("R5")))
    assert play_out(game, 0.5) == 2
    assert game.hand_size(0) == 1 and game.hand_size(1) == 2 and game.hand_size(3) == 2
    game, _ = parse_position(text, SEVEN_O, Random(0))  # no Jump-In: no jump
    game.apply(0, Play(Card.parse("R5")))
    play_out(game, 0.5)
    assert (game.hand_size(0), game.hand_size(1), game.hand_size(3)) != (1, 2, 2)  # bob moved
