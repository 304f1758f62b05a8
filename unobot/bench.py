"""Benchmarks that print their figures: ``python -m unobot.bench engine --players 4 --games N``.

Targets live here, never in timed unit tests. The last line of each benchmark is its headline
figure, e.g. ``engine: 10500 games/s``.
"""

from __future__ import annotations

import argparse
import sys
import time
from random import Random

from unobot import bench_irc
from unobot.cards import COMPILED
from unobot.engine import PRESETS, Game, HouseRules, preset


def play_random_game(players: int, rules: HouseRules, rng: Random) -> int:
    """One complete hand between uniformly random agents through the public API.

    legal actions -> choose -> apply, with the engine's full rule checking on every action.
    Returns the number of actions applied.
    """
    game, _ = Game.deal(players, rules, rng)
    rand = rng.random
    actions = 0
    while game.outcome is None:
        seat = game.current
        legal = game.legal_actions(seat)
        game.apply(seat, legal[int(rand() * len(legal))])
        actions += 1
    return actions


def _time_games(players: int, rules: HouseRules, games: int, seed: int) -> tuple[float, int]:
    """Seconds and actions for ``games`` random games, after a warm-up outside the timing."""
    rng = Random(seed)
    # Warm up the legal-action cache and the interpreter's specialisations.
    for _ in range(min(200, games)):
        play_random_game(players, rules, rng)
    rng = Random(seed)
    actions = 0
    start = time.perf_counter()
    for _ in range(games):
        actions += play_random_game(players, rules, rng)
    return time.perf_counter() - start, actions


def bench_engine(args: argparse.Namespace) -> None:
    rules = preset(args.preset)
    print(f"engine build: {'compiled (mypyc)' if COMPILED else 'pure Python'}")
    if args.all_presets:
        # Other presets differ in game length and rule paths (stacking, draw until playable...).
        games = max(1, args.games // 10)
        for name in sorted(PRESETS):
            if name != args.preset:
                secs, acts = _time_games(args.players, preset(name), games, args.seed)
                print(f"  {name}: {games / secs:.0f} games/s, {acts / games:.1f} actions/game")
    elapsed, actions = _time_games(args.players, rules, args.games, args.seed)
    print(f"preset: {rules.name}, players: {args.players}, games: {args.games}, seed: {args.seed}")
    print(f"actions per game: {actions / args.games:.1f}")
    print(f"microseconds per action: {elapsed / actions * 1e6:.2f}")
    if args.rlcard:
        _bench_rlcard(args)
    print(f"engine: {args.games / elapsed:.0f} games/s")


def _bench_rlcard(args: argparse.Namespace) -> None:
    """RLCard's uno environment, for scale (only when it is installed; never a dependency)."""
    try:
        import rlcard  # type: ignore[import-not-found]
    except ImportError:
        print("rlcard: not installed (pip install rlcard to compare)")
        return
    env = rlcard.make("uno", config={"seed": args.seed, "game_num_players": args.players})
    from rlcard.agents import RandomAgent  # type: ignore[import-not-found]

    env.set_agents([RandomAgent(num_actions=env.num_actions) for _ in range(args.players)])
    games = max(1, args.games // 20)
    start = time.perf_counter()
    for _ in range(games):
        env.run(is_training=False)
    elapsed = time.perf_counter() - start
    print(f"rlcard uno (same machine, {games} games): {games / elapsed:.0f} games/s")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m unobot.bench", description=__doc__)
    sub = parser.add_subparsers(dest="which", required=True)
    eng = sub.add_parser("engine", help="random-agent games through the rules engine")
    eng.add_argument("--players", type=int, default=4)
    eng.add_argument("--games", type=int, default=20_000)
    eng.add_argument("--preset", default="official", choices=sorted(PRESETS))
    eng.add_argument("--seed", type=int, default=1)
    eng.add_argument(
        "--all-presets", action="store_true", help="also time the other presets (games/10 each)"
    )
    eng.add_argument("--rlcard", action="store_true", help="also time RLCard's uno, if installed")
    eng.set_defaults(run=bench_engine)
    from unobot import bench_stats  # the stats store benchmark lives in its own module

    bench_stats.add_arguments(sub.add_parser("stats", help="stats store: query latency, games/s"))
    bench_irc.add_parser(sub)  # `irc`: the whole bot on a local server (unobot/bench_irc.py)
    from unobot import bench_computers  # where hard computer players think

    bench_computers.add_arguments(
        sub.add_parser("computers", help="reactor latency while hard computer players think")
    )
    from unobot import bench_dealer  # how near hard's sampled hands come to the real ones

    bench_dealer.add_arguments(
        sub.add_parser("dealer", help="hard's sampled opponent hands against the real ones")
    )
    args = parser.parse_args(argv)
    args.run(args)


if __name__ == "__main__":
    main(sys.argv[1:])
