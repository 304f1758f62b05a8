"""hard's playout policy is the normal player's: the two agree on the decisions of real games."""

from __future__ import annotations

from random import Random

import pytest

from unobot.ai.normal import NormalStrategy
from unobot.ai.observation import Observer
from unobot.ai.playout import normal_move, normal_playout
from unobot.engine import PRESETS, Action, Game, Phase, Play, preset


def _same(a: Action, b: Action) -> bool:
    """The same decision (a play of the same card naming the same colour counts as one)."""
    if type(a) is Play and type(b) is Play:
        return (a.card, a.color, a.uno) == (b.card, b.color, b.uno)
    return a == b


def _agreement(rules_name: str, games: int) -> tuple[int, int]:
    rules = preset(rules_name)
    agree = total = 0
    for seed in range(games):
        game, events = Game.deal(4, rules, Random(seed))
        observers = [Observer(s, 4, rules) for s in range(4)]
        normal = NormalStrategy(Random(seed))
        color_before = -1
        for _ in range(3000):
            for observer in observers:
                observer.see(events)
            if game.over:
                break
            seat = game.current
            legal = game.legal_actions(seat)
            obs = observers[seat].observe(game)
            theirs = normal.act(obs)
            assert theirs is not None
            if len(legal) > 1:
                ours = normal_move(game, seat, legal, color_before, 0.5)
                assert ours in legal
                total += 1
                agree += _same(ours, theirs)
            if type(theirs) is Play and theirs.card.is_wild:
                color_before = game.color if game.phase is not Phase.CHOOSE_COLOR else -1
            events = game.apply(seat, theirs)
    return agree, total


@pytest.mark.parametrize("name", ["official", "irc-classic", "ocuk-tournament"])
def test_playout_policy_agrees_with_normal(name: str) -> None:
    agree, total = _agreement(name, 60)
    assert total > 500
    # Only ties between equally scored cards (broken at random by both) may differ.
    assert agree / total > 0.93, (agree, total)


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_playouts_finish_with_a_winner(name: str) -> None:
    rules = PRESETS[name]
    for seed in range(40):
        players = min(max(2 + seed % 4, rules.min_players), rules.max_players)
        game, _ = Game.deal(players, rules, Random(seed))
        winner = normal_playout(game, Random(seed))
        assert winner == game.outcome.winner  # type: ignore[union-attr]
