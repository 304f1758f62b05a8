"""The engine benchmark's random agents (``python -m unobot.bench engine``)."""

from __future__ import annotations

import dataclasses
from random import Random

from tests.engine.helpers import card, position
from unobot.ai.legal import without_voluntary_draw
from unobot.bench.engine import play_random_game
from unobot.engine import PRESETS, Draw, Play

HOUSE = PRESETS["house"]


def test_agents_play_the_same_games_whether_or_not_the_rules_offer_a_draw() -> None:
    """Issue 38 made ``official`` offer a draw beside a playable card. The agents leave that
    draw out (a random player drawing at will would hoard cards), with the same choices from
    the same random numbers as before: the benchmark still times the same games."""
    official = PRESETS["official"]
    assert official.voluntary_draw
    before = dataclasses.replace(official, voluntary_draw=False)
    for players in (2, 4, 7):
        with_draw = [play_random_game(players, official, Random(seed)) for seed in range(30)]
        without = [play_random_game(players, before, Random(seed)) for seed in range(30)]
        assert with_draw == without


def test_without_voluntary_draw_leaves_out_only_a_draw_beside_a_card() -> None:
    game = position("top=R5 | alice*: R7 R8 G1 | bob: B3 B4 | carol: Y1")
    legal = game.legal_actions()
    assert legal == (Play(card("R7")), Play(card("R8")), Draw())
    assert without_voluntary_draw(legal, game.phase) == (Play(card("R7")), Play(card("R8")))
    stuck = position("top=R5 | alice*: G1 G2 G3 | bob: B3 | carol: Y1")
    assert without_voluntary_draw(stuck.legal_actions(), stuck.phase) == (Draw(),)
    # Facing a draw card, the draw is the answer and the cards are stacks: all stay.
    facing = position("top=RD2 pending=2 | alice*: GD2 G1 | bob: B3 | carol: Y1", HOUSE)
    legal = facing.legal_actions()
    assert Draw() in legal and Play(card("GD2")) in legal
    assert without_voluntary_draw(legal, facing.phase) == legal
