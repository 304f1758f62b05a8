"""How close ``hard``'s sampled opponent hands come to the real ones: ``python -m unobot.bench
dealer``.

``hard`` is limited by what it can infer about hidden cards (given the real hands the same
search wins 54% against three ``normal``, against ~31% without). Its win rate moves by a point
or so per refinement of the dealer, which takes ~8,000 arena games (hours) to see; this measures
the dealer directly instead. In games among ``normal`` players it takes every turn of seat 0,
deals the other hands ``--worlds`` times as ``hard`` would, and compares them with the real
hands: per colour (and wilds) the cards held too many or too few (``colour error``, lower is
better) and the share of the real cards the sample got exactly (``overlap``, higher is better).
It does so for three dealers, each knowing more of what public play says:

- ``facts``: only what each hand certainly or likely lacks (a seat that drew held nothing
  playable; wilds kept for last; high cards shed first);
- ``+runs``: also every free choice since the seat last drew (``Observation.runs``);
- ``+earlier``: also the choices from before that draw, as odds (``Observation.earlier``): the
  dealer ``hard`` uses.
"""

from __future__ import annotations

import argparse
import dataclasses
import time
from collections.abc import Iterable, Iterator
from random import Random

from unobot.ai.hard import Dealer
from unobot.ai.normal import NormalStrategy
from unobot.ai.observation import Observation, Observer
from unobot.engine import PRESETS, Game, HouseRules, preset
from unobot.engine.cards import Card

__all__ = ["add_arguments", "colour_error", "normal_turns", "run"]

_VARIANTS = ("facts", "+runs", "+earlier")


def normal_turns(
    rules: HouseRules, seeds: Iterable[int]
) -> Iterator[tuple[Game, int, Observation]]:
    """Every turn of four-player games among ``normal`` players: the game, the seat to move and
    what it observes; the move is made once the caller has looked. (The tests use it too.)"""
    for seed in seeds:
        game, events = Game.deal(4, rules, Random(seed))
        observers = [Observer(s, 4, rules) for s in range(4)]
        players = [NormalStrategy(Random(seed * 4 + s)) for s in range(4)]
        for _ in range(3000):
            for observer in observers:
                observer.see(events)
            if game.over:
                break
            seat = game.current
            obs = observers[seat].observe(game)
            yield game, seat, obs
            action = players[seat].act(obs)
            assert action is not None
            events = game.apply(seat, action)


def _view(obs: Observation, variant: str) -> Observation:
    """``obs`` with what the variant's dealer is not to know left out."""
    none = ((),) * obs.players
    if variant == "facts":
        return dataclasses.replace(obs, runs=none, earlier=none)
    if variant == "+runs":
        return dataclasses.replace(obs, earlier=none)
    return obs


def colour_error(sampled: list[Card], real: list[Card]) -> int:
    """Cards of each colour (and wilds) one hand holds more or fewer than the other, summed."""
    counts = [0] * 5
    for card in sampled:
        counts[4 if card.color is None else card.color] += 1
    for card in real:
        counts[4 if card.color is None else card.color] -= 1
    return sum(abs(c) for c in counts)


def _overlap(sampled: list[Card], real: list[Card]) -> float:
    left = [0] * 54
    for card in real:
        left[card.code] += 1
    hits = 0
    for card in sampled:
        if left[card.code] > 0:
            left[card.code] -= 1
            hits += 1
    return hits / len(real)


def run(args: argparse.Namespace) -> None:
    rules = preset(args.preset)
    error = dict.fromkeys(_VARIANTS, 0.0)
    overlap = dict.fromkeys(_VARIANTS, 0.0)
    seconds = dict.fromkeys(_VARIANTS, 0.0)
    rngs = {variant: Random(args.seed) for variant in _VARIANTS}
    hands = turns = 0
    for game, seat, obs in normal_turns(rules, range(args.seed, args.seed + args.games)):
        if seat != 0:
            continue
        others = [s for s in range(1, obs.players) if game.hand_size(s)]
        turns += 1
        hands += len(others)
        for variant in _VARIANTS:
            start = time.perf_counter()
            dealer = Dealer(_view(obs, variant))
            worlds = [dealer.deal(rngs[variant])[0] for _ in range(args.worlds)]
            seconds[variant] += time.perf_counter() - start
            for other in others:
                real = game.hand(other)
                for world in worlds:
                    error[variant] += colour_error(world[other], real) / args.worlds
                    overlap[variant] += _overlap(world[other], real) / args.worlds
    print(
        f"{args.games} games of 4 normal players ({args.preset}), seat 0's {turns} turns, "
        f"{hands} opponent hands, {args.worlds} worlds each"
    )
    print(f"{'dealer':10} {'colour error':>13} {'overlap':>8} {'us/world':>9}")
    for variant in _VARIANTS:
        per_world = seconds[variant] / (turns * args.worlds) * 1e6
        print(
            f"{variant:10} {error[variant] / hands:13.3f} {overlap[variant] / hands:8.3f} "
            f"{per_world:9.0f}"
        )
    print(
        f"dealer: colour error {error['+earlier'] / hands:.3f} "
        f"(facts only {error['facts'] / hands:.3f}), overlap {overlap['+earlier'] / hands:.3f}"
    )


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--games", type=int, default=600)
    parser.add_argument("--worlds", type=int, default=8, help="worlds dealt per turn")
    parser.add_argument("--preset", default="official", choices=sorted(PRESETS))
    parser.add_argument("--seed", type=int, default=1000)
    parser.set_defaults(run=run)
