"""``hard`` in every rule set (issue 38 §7): its playouts play Seven-O's 7s and 0s and No
Mercy's cards as ``normal`` does, its view of hidden hands reads a jump-in as no choice among
the hand's cards, and it searches whom a 7 swaps with."""

from __future__ import annotations

from random import Random

import pytest

from tests.ai.test_playout import _agreement
from tests.ai.test_variants_ai import _apply, _watch
from unobot.ai.hard import HardStrategy, candidates
from unobot.ai.normal import NormalStrategy
from unobot.ai.playout import _jumper
from unobot.engine import Phase, Play, Swap
from unobot.engine.cards import Card


@pytest.mark.parametrize(("name", "floor"), [("seven-o", 0.97), ("house", 0.97), ("no-mercy", 0.9)])
def test_playouts_agree_with_normal_in_the_variants(name: str, floor: float) -> None:
    """The playouts score a 7 or 0 by the cards it gains, as ``normal`` does (before, they
    agreed on 94.8% of Seven-O decisions; No Mercy 82.9%: its new coloured cards were left out
    of the colour count): what is left is ties broken at random by both."""
    agree, total = _agreement(name, 30)
    assert total > 1000
    assert agree / total > floor, (agree, total)


def test_playouts_keep_a_7_that_would_hand_over_a_bigger_hand() -> None:
    """Seven-O with Jump-In (``house``): ``normal`` jumps in with the card on top unless it is
    a 7 or 0 that would give it a bigger hand; the playouts' jumpers do the same. carol holds
    the R7 alice laid, but her one card left would be swapped for two: she doesn't jump; with
    three cards left she does."""
    for carol, jumps in (("R7 B3", False), ("R7 B3 B4 B5", True)):
        game, observers = _watch(
            f"top=R9 | alice*: R7 G1 G2 | bob: R1 Y1 | carol: {carol} | dave: G3 G4 G5", "house"
        )
        _apply(game, observers, 0, Play(Card.parse("R7")))
        _apply(game, observers, 0, Swap(1))
        assert game.jump_card(2) == Card.parse("R7")
        normal = NormalStrategy(Random(0)).act(observers[2].observe(game))
        assert (normal is not None) is jumps
        assert _jumper(game) == (2 if jumps else -1)


def test_a_jump_in_tells_nothing_of_the_jumpers_other_cards() -> None:
    """A jump is no choice among the hand's cards (only the card on top may jump): carol, who
    holds R9, jumps on alice's R5 with her own R5; that must not read as "carol would have
    laid a higher red if she held one", as a play in turn of R5 on red does."""
    game, observers = _watch(
        "top=R8 | alice*: R5 G1 G2 | bob: Y1 Y2 Y3 | carol: R5 R9 B4 | dave: G3 G4 G5",
        "jump-in",
    )
    _apply(game, observers, 0, Play(Card.parse("R5")))
    _apply(game, observers, 2, Play(Card.parse("R5")))  # out of turn: a jump
    obs = observers[0].observe(game)
    assert obs.last_plays[2] is None
    assert all(run[1] is None for run in obs.runs[2])
    r9 = Card.parse("R9").bit
    assert not any(segment[2] & r9 for segment in obs.hidden[2])
    # The same card laid in turn (bob's R5 on alice's R1) still reads as "no higher red".
    game, observers = _watch(
        "top=R8 | alice*: R1 G1 G2 | bob: R5 R9 Y3 | carol: B1 B2 B4 | dave: G3 G4 G5",
        "jump-in",
    )
    _apply(game, observers, 0, Play(Card.parse("R1")))
    _apply(game, observers, 1, Play(Card.parse("R5")))
    obs = observers[0].observe(game)
    assert obs.last_plays[1] is not None
    assert all(segment[2] & r9 for segment in obs.hidden[1])


def test_hard_searches_whom_a_7_swaps_with() -> None:
    """Seven-O: after its 7 ``hard`` searches every target, where ``normal`` swaps with the
    fewest cards. alice keeps R3 alone; handing it to bob (one card, next to move, red in
    force) lets him lay it and win at once, so ``hard`` swaps with carol or dave instead."""
    game, observers = _watch(
        "top=R5 | alice*: R7 R3 | bob: G1 | carol: B4 B6 | dave: Y2 Y8 | pile=" + "G9 " * 20
    )
    _apply(game, observers, 0, Play(Card.parse("R7"), uno=True))
    obs = observers[0].observe(game)
    assert obs.phase is Phase.CHOOSE_SWAP
    assert set(candidates(obs)) == {Swap(1), Swap(2), Swap(3)}
    assert NormalStrategy(Random(0)).act(obs) == Swap(1)
    choice = HardStrategy(Random(1), playouts=600).act(obs)
    assert choice in (Swap(2), Swap(3))
