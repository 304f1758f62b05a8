"""Computer players where the rules let a player draw instead of playing (issue 38: official
and irc-classic now do, as Mattel's sheet and the original bot allow)."""

from __future__ import annotations

from random import Random

import pytest

from tests.engine.helpers import position
from unobot.ai import Observer, make_strategy
from unobot.ai.hard import candidates
from unobot.engine import PRESETS, Draw, Game, Phase, Play


@pytest.mark.parametrize("name", ["official", "irc-classic", "bac-tournament"])
@pytest.mark.parametrize("level", ["easy", "normal"])
def test_easy_and_normal_never_draw_while_they_can_play(name: str, level: str) -> None:
    """``normal`` plays its best card and ``easy`` a random one: neither holds a card back
    (``easy`` chooses among its legal moves less that draw), so the rule changes nothing
    in how they play."""
    rules = PRESETS[name]
    strategy = make_strategy(level, Random(5))
    offered = 0
    for seed in range(300):
        players = 4 if name == "bac-tournament" else 2 + seed % 4
        game, _ = Game.deal(players, rules, Random(seed))
        if game.phase is not Phase.PLAY:
            continue
        obs = Observer(game.current, players, rules).observe(game)
        if not any(type(a) is Play for a in obs.legal):
            continue
        assert Draw() in obs.legal
        offered += 1
        assert type(strategy.act(obs)) is Play
    assert offered > 150


def test_hard_searches_a_draw_only_to_hold_back_a_wild() -> None:
    """The reason to draw with a card to play is a wild kept for later; any other draw is
    left out of the search (it would take playouts from the real choices)."""
    official = PRESETS["official"]
    game = position("top=R5 | alice*: R7 W G1 | bob: B1 B2 | carol: Y1 Y2", official)
    moves = candidates(Observer(0, 3, official).observe(game))
    assert Draw() in game.legal_actions() and Draw() not in moves
    game = position("top=R5 | alice*: W G1 B2 | bob: B1 B2 | carol: Y1 Y2", official)
    moves = candidates(Observer(0, 3, official).observe(game))
    assert Draw() in moves and {type(m) for m in moves} == {Play, Draw}
    stuck = position("top=R5 | alice*: G1 B2 Y3 | bob: B1 B2 | carol: Y1 Y2", official)
    assert candidates(Observer(0, 3, official).observe(stuck)) == [Draw()]


def test_hard_holds_a_wild_back_only_when_the_search_says_so_clearly() -> None:
    """With a handful of playouts no draw ever wins clearly enough (``FREE_DRAW_Z``): hard
    then plays as ``normal`` would, the wild."""
    official = PRESETS["official"]
    hard = make_strategy("hard", Random(2), playouts=8)
    for seed in range(6):
        game = position("top=R5 | alice*: W G1 B2 | bob: B1 B2 | carol: Y1 Y2", official, seed)
        action = hard.act(Observer(0, 3, official).observe(game))
        assert type(action) is Play and action.card.is_wild
