"""The engine benchmark's random agents (``python -m unobot.bench engine``)."""

from __future__ import annotations

import dataclasses
import re
from collections import Counter
from random import Random

import pytest

from tests.engine.helpers import card, position
from unobot.ai.legal import without_voluntary_draw
from unobot.bench.engine import play_random_game
from unobot.bench.naive import NaiveCard, NaiveGame, naive_deck, play_naive_game
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


def test_the_yardstick_plays_complete_legal_games() -> None:
    """The yardstick (``unobot.bench.naive``) plays whole hands by the rules: every card of the
    108 is still in a hand or a pile at the end, the winner holds none and everyone else some
    (each play is checked against the legal moves: the next test)."""
    full = Counter(naive_deck())
    assert len(naive_deck()) == 108
    for players in (2, 4, 7, 10):
        for seed in range(40):
            game = play_naive_game(players, Random(seed))
            held = [c for hand in game.hands for c in hand]
            assert Counter(held + game.draw_pile + game.discard) == full
            assert game.winner is not None
            assert game.hands[game.winner] == []
            assert all(game.hands[s] for s in range(players) if s != game.winner)
            assert game.actions > 0


def test_the_yardstick_refuses_a_card_that_cannot_be_played() -> None:
    game = NaiveGame(2, Random(1))
    game.deal()
    game.discard = [NaiveCard("red", 5)]
    game.color = "red"
    game.hands[0] = [NaiveCard("blue", 7), NaiveCard("red", 1), NaiveCard(None, "wild4")]
    assert game.legal_moves(0) == [NaiveCard("red", 1)]
    with pytest.raises(ValueError):
        game.play(0, NaiveCard("blue", 7))
    with pytest.raises(ValueError):
        game.play(0, NaiveCard(None, "wild4"))


def test_the_benchmark_prints_the_engine_against_the_yardstick(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The headline keeps ``engine: N games/s`` first (scripts parse it) and adds the ratio to
    the yardstick timed in the same run; the yardstick's own line comes before it."""
    from unobot.bench import main

    main(["engine", "--games", "30"])
    lines = capsys.readouterr().out.splitlines()
    assert re.fullmatch(r"yardstick: \d+ games/s", lines[-2])
    assert re.fullmatch(r"engine: \d+ games/s \(\d+\.\d\d\u00d7 the yardstick\)", lines[-1])
    main(["engine", "--games", "30", "--no-yardstick"])
    assert re.fullmatch(r"engine: \d+ games/s", capsys.readouterr().out.splitlines()[-1])
