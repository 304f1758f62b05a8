"""Every level only ever chooses legal moves: thousands of seeded games under every preset.

The loop asks each strategy exactly as the arena does (its turn, and out of turn when it could
call UNO or catch) and checks each answer against the observation's legal actions before the
engine applies it (``apply`` would refuse an illegal action anyway)."""

from __future__ import annotations

from random import Random

import pytest

from unobot.ai import Observation, Observer, make_strategy
from unobot.engine import PRESETS, Action, Game, HouseRules, Play

MAX_ACTIONS = 5000


def _legal(action: Action, obs: Observation) -> bool:
    """In ``obs.legal``; or (Seven-O) a 7 that is, naming whom it swaps with, as a person's
    ``.p r7 bob`` does (the engine lists a 7 once, without a target): anyone else in the hand."""
    if type(action) is Play and action.target >= 0:
        return (
            obs.rules.seven_o
            and action.card.rank == 7
            and Play(action.card, action.color, action.uno) in obs.legal
            and action.target != obs.seat
            and 0 <= action.target < obs.players
            and obs.counts[action.target] > 0
        )
    return action in obs.legal


def _play(levels: list[str], rules: HouseRules, seed: int) -> int:
    players = len(levels)
    game, events = Game.deal(players, rules, Random(seed))
    observers = [Observer(seat, players, rules) for seat in range(players)]
    strategies = [make_strategy(lv, Random(seed + s), playouts=6) for s, lv in enumerate(levels)]
    for _ in range(MAX_ACTIONS):
        for observer in observers:
            observer.see(events)
        if game.over:
            return game.outcome.winner  # type: ignore[union-attr]
        events = []
        if game.exposed >= 0:
            for seat in range(players):
                if seat == game.current:
                    continue
                obs = observers[seat].observe(game)
                action = strategies[seat].act(obs)
                if action is not None:
                    assert _legal(action, obs), (levels[seat], action, obs.legal)
                    events = game.apply(seat, action)
                    break
            if events:
                continue
        seat = game.current
        obs = observers[seat].observe(game)
        action = strategies[seat].act(obs)
        assert action is not None and _legal(action, obs), (levels[seat], action, obs.legal)
        events = game.apply(seat, action)
    raise AssertionError("hand did not end")


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_easy_and_normal_play_only_legal_moves(name: str) -> None:
    rules = PRESETS[name]
    rng = Random(name)
    winners = set()
    for seed in range(600):
        players = rng.randint(rules.min_players, min(rules.max_players, 6))
        if rules.team_problem(players):
            players = 4  # teams of two: 4 or 6
        levels = [rng.choice(("easy", "normal")) for _ in range(players)]
        winners.add(levels[_play(levels, rules, seed)])
    assert winners == {"easy", "normal"}


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_hard_plays_only_legal_moves(name: str) -> None:
    rules = PRESETS[name]
    rng = Random(name)
    for seed in range(25):
        players = rng.randint(rules.min_players, min(rules.max_players, 5))
        if rules.team_problem(players):
            players = 4  # teams of two: 4 or 6
        levels = ["hard"] + [rng.choice(("easy", "normal", "hard")) for _ in range(players - 1)]
        _play(levels, rules, seed)


def test_hard_with_fixed_playouts_is_reproducible() -> None:
    rules = PRESETS["official"]
    first = [_play(["hard", "normal", "easy"], rules, seed) for seed in range(5)]
    again = [_play(["hard", "normal", "easy"], rules, seed) for seed in range(5)]
    assert first == again


def test_unknown_level_is_refused() -> None:
    with pytest.raises(ValueError, match="levels: easy, normal, hard"):
        make_strategy("genius", Random(1))
