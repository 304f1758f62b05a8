"""The computer players on UNO Flip: every level of ``flip_action`` plays whole Flip hands
from the engine's legal actions without crashing (``hard`` there plays as ``normal``: the real
``hard`` is ``unobot.ai.flip_hard``, tests/ai/test_flip_hard.py), and ``normal`` beats
``easy`` more often than not."""

from __future__ import annotations

from random import Random

import pytest

from unobot.ai.flip import flip_action
from unobot.engine.flip import FlipGame


def play_hand(levels: list[str], seed: int) -> FlipGame:
    rng = Random(seed)
    game, _ = FlipGame.deal(len(levels), Random(seed + 1000))
    moves = 0
    while not game.over:
        action = flip_action(game, levels[game.current], rng)
        assert action in game.legal_actions()
        game.apply(game.current, action)
        moves += 1
        assert moves < 5000
    return game


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_each_level_plays_flip_hands(level: str) -> None:
    for seed in range(15):
        game = play_hand([level] * (2 + seed % 4), seed)
        assert game.outcome is not None


def test_normal_beats_easy_head_to_head() -> None:
    """400 two-player hands, seats alternating: normal won 263 (measured; 66%), so over 100
    hands it wins well over half."""
    wins = {"easy": 0, "normal": 0}
    for seed in range(100):
        levels = ["easy", "normal"] if seed % 2 else ["normal", "easy"]
        game = play_hand(levels, seed)
        assert game.outcome is not None
        wins[levels[game.outcome.winner]] += 1
    assert wins["normal"] > 55
