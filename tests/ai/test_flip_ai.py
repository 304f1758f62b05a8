"""The computer players on UNO Flip: every level of ``flip_action`` plays whole Flip hands
from the engine's legal actions without crashing (``hard`` there plays as ``normal``: the real
``hard`` is ``unobot.ai.flip_hard``, tests/ai/test_flip_hard.py), and ``normal`` beats
``easy`` more often than not."""

from __future__ import annotations

from random import Random

import pytest

from unobot.ai.flip import flip_action, with_uno_call
from unobot.ai.flip_hard import candidates
from unobot.engine.actions import Catch
from unobot.engine.flip import Face, FlipGame, FlipPlay
from unobot.engine.notation import parse_flip_position


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


def test_every_level_calls_uno_with_its_next_to_last_card() -> None:
    """ "must have called "UNO" when playing the next-to-last card": the move a computer
    makes (``with_uno_call``) calls it, so nobody can catch it; a play with more cards is
    left as it is. The turn's move is never the catch the engine also offers the mover."""
    for level in ("easy", "normal"):
        game, _ = parse_flip_position("top=R3 | a*: R5 B2 | b: Y1 R8 G9 | pile=G1 G2", Random(1))
        move = with_uno_call(game, 0, flip_action(game, level, Random(2)))
        assert move == FlipPlay(Face.parse("R5"), None, uno=True)
        game.apply(0, move)
        assert game.exposed == -1 and len(game.hands[0]) == 1
        position = "top=R3 exposed=c | a*: R5 B2 Y7 | b: Y1 | c: G9 | pile=G1 G2"
        game, _ = parse_flip_position(position, Random(1))
        assert Catch(2) in game.legal_actions(0)
        move = with_uno_call(game, 0, flip_action(game, level, Random(2)))
        assert move == FlipPlay(Face.parse("R5"))
        assert Catch(2) not in candidates(game)
