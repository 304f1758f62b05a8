"""Rating models compared on held-out games: ``python -m unobot.bench ratings``.

A seeded synthetic history: ``--players`` players with hidden skills (normal, sd 1) play
``--games`` games of 2-6 players drawn at random; a game's place order sorts each player's
performance, skill plus noise (``--noise normal``: Thurstone-like, or ``gumbel``: exactly the
Plackett-Luce generative model), and each player leaves early with probability
``--leave`` (ranking last, as :func:`unobot.stats.ratings.game_ranks` has it). Each openskill
model is trained on the first 80 % of the games in order; for every remaining game it
predicts the winner as the player with the highest mu (ratings keep learning through the test
games, as the bot's do, but each prediction is made before the game is rated). The last line
is the headline: each model's share of test winners named.
"""

from __future__ import annotations

import argparse
import math
import time
from datetime import datetime, timedelta
from random import Random
from typing import Any

from openskill.models import BradleyTerryFull, PlackettLuce, ThurstoneMostellerFull

from unobot.stats.model import GameRecord, PlayerResult
from unobot.stats.ratings import PlayerRating, new_rating, update

__all__ = ["MODELS", "add_arguments", "compare", "synthetic_games"]

MODELS: dict[str, Any] = {
    "PlackettLuce": PlackettLuce,
    "BradleyTerryFull": BradleyTerryFull,
    "ThurstoneMostellerFull": ThurstoneMostellerFull,
}
START = datetime(2026, 1, 1)


def synthetic_games(
    players: int, games: int, seed: int, noise: str = "normal", leave: float = 0.05
) -> list[GameRecord]:
    rng = Random(seed)
    skill = [rng.gauss(0.0, 1.0) for _ in range(players)]
    out = []
    for g in range(games):
        seats = rng.sample(range(players), rng.randint(2, 6))
        if noise == "gumbel":
            perf = {p: skill[p] - math.log(-math.log(rng.random() or 1e-12)) for p in seats}
        else:
            perf = {p: skill[p] + rng.gauss(0.0, 1.0) for p in seats}
        left = {p for p in seats if rng.random() < leave}
        if len(left) == len(seats):
            left.discard(seats[0])
        order = sorted((p for p in seats if p not in left), key=perf.__getitem__, reverse=True)
        results = [
            PlayerResult(f"p{p}", f"P{p}", i + 1, i == 0, 0, 0) for i, p in enumerate(order)
        ] + [
            PlayerResult(f"p{p}", f"P{p}", len(order) + 1, False, 0, 0, finished=False)
            for p in left
        ]
        when = START + timedelta(minutes=g)
        out.append(GameRecord(f"g{g}", "bench", "#uno", "standard", when, when, tuple(results)))
    return out


def compare(games: list[GameRecord], model: Any, train: float = 0.8) -> tuple[float, float]:
    """(accuracy naming the winner of each held-out game by highest mu, chance level)."""
    cut = int(len(games) * train)
    ratings: dict[str, PlayerRating] = {}
    for game in games[:cut]:
        ratings.update(update(ratings, game, model))
    fresh = new_rating(model)
    hits = 0
    chance = 0.0
    for game in games[cut:]:
        winner = next(r.ident for r in game.results if r.won)
        mus = {r.ident: (ratings.get(r.ident) or fresh).mu for r in game.results}
        best = max(mus.values())
        top = [i for i, mu in mus.items() if mu == best]
        hits += winner in top and 1 / len(top)  # a tie counts as a fair guess among the top
        chance += 1 / len(game.results)
        ratings.update(update(ratings, game, model))
    n = len(games) - cut
    return hits / n, chance / n


def bench_ratings(args: argparse.Namespace) -> None:
    print(
        f"ratings: {args.players} players, {args.games} games, seed {args.seed}, "
        f"leave {args.leave}, trained on the first 80 %"
    )
    headline = []
    for noise in args.noise:
        games = synthetic_games(args.players, args.games, args.seed, noise, args.leave)
        for name, cls in MODELS.items():
            t = time.perf_counter()
            acc, chance = compare(games, cls())
            took = time.perf_counter() - t
            print(
                f"  noise {noise:7s} {name:23s} winner named {100 * acc:5.1f} %"
                f"  (chance {100 * chance:4.1f} %, {took:.1f} s)"
            )
            headline.append(f"{name}/{noise} {100 * acc:.1f}%")
    print("ratings: " + ", ".join(headline))


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--players", type=int, default=300)
    parser.add_argument("--games", type=int, default=6000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--leave", type=float, default=0.05, help="chance a player leaves")
    parser.add_argument(
        "--noise",
        nargs="+",
        choices=["normal", "gumbel"],
        default=["normal", "gumbel"],
        help="performance noise of the synthetic players",
    )
    parser.set_defaults(run=bench_ratings)
