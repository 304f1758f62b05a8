"""Computer players at No Mercy: they stack when a draw is on them, prefer a Discard All that
sheds many cards, name the Roulette colour the next player lacks, pass over eliminated seats
when judging who is next, and every level plays No Mercy hands to the end."""

from __future__ import annotations

import dataclasses
from random import Random

import pytest

from tests.ai.test_variants_ai import _apply, _watch
from unobot.ai.arena import play_hand
from unobot.ai.normal import NormalStrategy
from unobot.engine import Draw, Phase, Play, preset
from unobot.engine.cards import Card, Color


def test_normal_stacks_a_draw_rather_than_take_it() -> None:
    game, observers = _watch(
        "top=R5 | alice*: RD4 R1 R2 | bob: WD10 G9 Y3 B4 | carol: Y1 Y2", "no-mercy"
    )
    _apply(game, observers, 0, Play(Card.parse("RD4")))
    obs = observers[1].observe(game)
    assert obs.phase is Phase.PENDING and Draw() in obs.legal
    act = NormalStrategy(Random(0)).act(obs)
    assert type(act) is Play and act.card == Card.parse("WD10")


def test_normal_prefers_a_discard_all_that_sheds_many() -> None:
    game, observers = _watch(
        "top=R5 | alice*: RDA R1 R2 R3 R8 G9 | bob: G1 G2 G3 | carol: Y1 Y2 Y3", "no-mercy"
    )
    act = NormalStrategy(Random(0)).act(observers[0].observe(game))
    assert type(act) is Play and act.card == Card.parse("RDA")


def test_roulette_names_the_colour_the_next_player_lacks() -> None:
    game, observers = _watch(
        "top=Y5 | alice*: WCR G1 G2 G3 B1 | bob: R2 R3 R4 | carol: B2 B3 B4", "no-mercy"
    )
    obs = observers[0].observe(game)
    normal = NormalStrategy(Random(0))
    assert normal.act(obs) == Play(Card.parse("WCR"), Color.GREEN)  # nothing known: own best
    # Once bob is known to lack yellow (he had to draw on it), the Roulette names yellow.
    voids = tuple(frozenset({Color.YELLOW}) if s == 1 else frozenset() for s in range(3))
    assert normal.act(dataclasses.replace(obs, voids=voids)) == Play(
        Card.parse("WCR"), Color.YELLOW
    )


def test_the_next_seat_passes_over_an_eliminated_one() -> None:
    many = " ".join(["G1"] * 20)
    game, observers = _watch(
        f"top=R5 | alice*: WD6 R1 R2 | bob: {many} | carol: R3 Y2 | dave: R4 B3 | "
        + "pile="
        + " ".join(["B9"] * 8),
        "no-mercy",
    )
    _apply(game, observers, 0, Play(Card.parse("WD6"), Color.RED))
    _apply(game, observers, 1, Draw())
    assert game.eliminated(1)
    _apply(game, observers, 2, Play(Card.parse("R3")))
    _apply(game, observers, 3, Play(Card.parse("R4")))
    obs = observers[0].observe(game)
    assert obs.next_seat(1) == 2 and obs.next_seat(2) == 3


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_every_level_plays_no_mercy_to_the_end(seed: int) -> None:
    winner, scores, actions = play_hand(
        ("hard", "normal", "easy", "normal"), preset("no-mercy"), seed, playouts=8
    )
    assert winner >= 0 and sum(scores) >= 0 and actions > 0
