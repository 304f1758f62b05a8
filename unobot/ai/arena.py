"""Strategies against each other: ``python unobot.py arena --players hard,normal,normal,normal``.

Each game is one hand dealt by the engine; the strategies' seats rotate from game to game so
none keeps the advantage of a seat. Every game's seed follows from ``--seed`` and its number
alone, so results are the same whatever ``--jobs`` splits the games into processes (except that
a time-budgeted ``hard`` searches as far as the machine's speed allows). Prints each strategy's
win rate (Wilson 95% interval) and points per game (normal-approximation 95% interval).
"""

from __future__ import annotations

import argparse
import math
import time
from collections.abc import Sequence
from dataclasses import dataclass
from random import Random

from unobot.ai.observation import Observer
from unobot.ai.strategy import LEVELS, make_strategy
from unobot.engine import PRESET_ALIASES, PRESETS, Game, HouseRules, preset, teammates

__all__ = ["ArenaResult", "main", "play_flip_hand", "play_hand", "run_arena", "wilson"]

MAX_ACTIONS = 5000
"""A guard against a hand that cannot end (no playable card and no card left to draw)."""


def play_flip_hand(
    levels: Sequence[str],
    seed: int,
    *,
    budget_ms: float = 200.0,
    playouts: int | None = None,
    hand_size: int = 7,
) -> tuple[int, tuple[int, ...], int]:
    """One hand of UNO Flip (:class:`~unobot.engine.flip.FlipGame`) with ``levels[seat]`` at
    each seat, as :func:`play_hand`. ``easy`` and ``normal`` read the game's own hand and the
    public piles (:func:`~unobot.ai.flip.flip_action`); ``hard`` decides on its seat's
    :class:`~unobot.ai.flip_hard.FlipView` and :class:`~unobot.ai.flip_hard.FlipMemory`
    only. Every action goes through ``FlipGame.apply``, which refuses anything illegal."""
    from unobot.ai.flip import flip_action
    from unobot.ai.flip_hard import FlipHard, FlipMemory, FlipView
    from unobot.engine.flip import FlipGame

    players = len(levels)
    game, events = FlipGame.deal(players, Random(seed), hand_size=hand_size)
    rngs = [Random(seed * 31 + seat + 1) for seat in range(players)]
    memories = {
        seat: FlipMemory(seat, players) for seat, level in enumerate(levels) if level == "hard"
    }
    hards = {
        seat: FlipHard(rngs[seat], budget_ms=budget_ms, playouts=playouts) for seat in memories
    }
    actions = 0
    while True:
        for memory in memories.values():
            memory.see(events, game)
        outcome = game.outcome
        if outcome is not None:
            scores = tuple(outcome.points if s == outcome.winner else 0 for s in range(players))
            return outcome.winner, scores, actions
        if actions >= MAX_ACTIONS:
            return -1, tuple(0 for _ in range(players)), actions
        seat = game.current
        hard = hards.get(seat)
        if hard is not None:
            action = hard.act(FlipView.of(game, seat, memories[seat]))
        else:
            action = flip_action(game, levels[seat], rngs[seat])
        events = game.apply(seat, action)
        actions += 1


def play_hand(
    levels: Sequence[str],
    rules: HouseRules,
    seed: int,
    *,
    budget_ms: float = 200.0,
    playouts: int | None = None,
) -> tuple[int, tuple[int, ...], int]:
    """One hand with ``levels[seat]`` at each seat. Returns (winner, scores, actions).

    Every action a strategy returns goes through ``Game.apply``, which refuses anything
    illegal (an exception: tests rely on it). Out-of-turn chances (an UNO call, a catch) are
    offered to the seats concerned in a random order after every change.
    """
    players = len(levels)
    deal_rng = Random(seed)
    order_rng = Random(seed ^ 0x5EED)
    game, events = Game.deal(players, rules, deal_rng)
    observers = [Observer(seat, players, rules) for seat in range(players)]
    strategies = [
        make_strategy(level, Random(seed * 31 + seat + 1), budget_ms=budget_ms, playouts=playouts)
        for seat, level in enumerate(levels)
    ]
    seats = list(range(players))
    actions = 0
    while True:
        for observer in observers:
            observer.see(events)
        if game.outcome is not None:
            return game.outcome.winner, game.outcome.scores, actions
        if actions >= MAX_ACTIONS:
            return -1, tuple(0 for _ in range(players)), actions
        events = []
        if game.exposed >= 0 or (rules.jump_in and not game.over):
            # Out-of-turn chances: UNO calls and catches, and jumps (Jump-In).
            order_rng.shuffle(seats)
            for seat in seats:
                if seat == game.current or not game.legal_actions(seat):
                    continue
                action = strategies[seat].act(observers[seat].observe(game))
                if action is not None:
                    events = game.apply(seat, action)
                    actions += 1
                    break
            if events:
                continue
        seat = game.current
        action = strategies[seat].act(observers[seat].observe(game))
        if action is None:
            raise RuntimeError(f"{strategies[seat].name} returned no action on its turn")
        events = game.apply(seat, action)
        actions += 1


@dataclass(slots=True)
class ArenaResult:
    """Per entry of ``--players`` (seats rotate): wins and points over all games."""

    levels: tuple[str, ...]
    games: int
    wins: list[int]
    points: list[float]
    points_sq: list[float]
    actions: int
    seconds: float


def _chunk(
    levels: tuple[str, ...],
    rules_name: str,
    seed: int,
    games: range,
    budget_ms: float,
    playouts: int | None,
) -> tuple[list[int], list[float], list[float], int]:
    """Play games ``games`` (rotated seats); sums per entry. Runs in a worker process."""
    rules = preset(rules_name)
    n = len(levels)
    wins = [0] * n
    points = [0.0] * n
    points_sq = [0.0] * n
    actions = 0
    for index in games:
        shift = index % n
        # Seat s holds entry (s + shift) % n: each entry sits in each seat equally often.
        seated = [levels[(s + shift) % n] for s in range(n)]
        if rules.flip:
            winner, scores, acts = play_flip_hand(
                seated, seed * 1_000_003 + index, budget_ms=budget_ms, playouts=playouts,
                hand_size=rules.hand_size,
            )  # fmt: skip
        else:
            winner, scores, acts = play_hand(
                seated, rules, seed * 1_000_003 + index, budget_ms=budget_ms, playouts=playouts
            )
        actions += acts
        # Teams: a hand won by a player is a win for every teammate (pairs: the seat
        # opposite; two teams: every other seat).
        count = rules.team_count(n)
        won = teammates(winner, n, count) if count and winner >= 0 else (winner,)
        for seat in range(n):
            entry = (seat + shift) % n
            if seat in won:
                wins[entry] += 1
            points[entry] += scores[seat]
            points_sq[entry] += scores[seat] ** 2
    return wins, points, points_sq, actions


def _run_chunk(args: tuple) -> tuple[list[int], list[float], list[float], int]:  # type: ignore[type-arg]
    return _chunk(*args)


def run_arena(
    levels: Sequence[str],
    games: int,
    rules_name: str = "official",
    seed: int = 1,
    *,
    jobs: int = 1,
    budget_ms: float = 200.0,
    playouts: int | None = None,
) -> ArenaResult:
    """Play ``games`` hands, in ``jobs`` processes, and sum the results per entry."""
    entries = tuple(levels)
    n = len(entries)
    start = time.perf_counter()
    parts = max(1, min(games, jobs * 8)) if jobs > 1 else 1
    bounds = [games * i // parts for i in range(parts + 1)]
    tasks = [
        (entries, rules_name, seed, range(bounds[i], bounds[i + 1]), budget_ms, playouts)
        for i in range(parts)
    ]
    if jobs > 1:
        import multiprocessing

        with multiprocessing.get_context("spawn").Pool(jobs) as pool:
            results = pool.map(_run_chunk, tasks, chunksize=1)
    else:
        results = [_run_chunk(task) for task in tasks]
    wins, points, points_sq, actions = [0] * n, [0.0] * n, [0.0] * n, 0
    for w, p, q, a in results:
        for i in range(n):
            wins[i] += w[i]
            points[i] += p[i]
            points_sq[i] += q[i]
        actions += a
    return ArenaResult(entries, games, wins, points, points_sq, actions,
                       time.perf_counter() - start)  # fmt: skip


def wilson(successes: int, trials: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson score interval for a proportion: sound near 0 and 1, unlike p ± 1.96·se."""
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def table(result: ArenaResult, team_size: int = 1) -> list[str]:
    """The results per strategy name (entries of the same level pooled), as text lines.

    ``team_size`` above 1: teammates (one level per team) share every result, so a team's
    hands are the samples, its wins the hands it won and its points the team's: the seats'
    counts and points divided by the team's size (else the interval would count each hand
    that many times and come out too narrow, and the points would be the team's that many
    times over)."""
    names: list[str] = []
    for level in result.levels:
        if level not in names:
            names.append(level)
    lines = [
        f"{'strategy':<9} {'seats':>5} {'samples':>7} {'wins':>6}  {'win rate (95% CI)':<24}"
        f"{'points/game (95% CI)':<26}"
    ]
    games = result.games
    for name in names:
        idx = [i for i, level in enumerate(result.levels) if level == name]
        trials = games * len(idx)
        wins = sum(result.wins[i] for i in idx)
        total = sum(result.points[i] for i in idx)
        total_sq = sum(result.points_sq[i] for i in idx)
        if team_size > 1:  # every teammate was credited the team's points: count them once
            trials, wins = trials // team_size, wins // team_size
            total, total_sq = total / team_size, total_sq / team_size
        low, high = wilson(wins, trials)
        mean = total / trials if trials else 0.0
        var = max(0.0, total_sq / trials - mean * mean) if trials else 0.0
        half = 1.96 * math.sqrt(var / trials) if trials > 1 else 0.0
        rate = f"{100 * wins / trials:.1f}% ({100 * low:.1f}-{100 * high:.1f})"
        ppg = f"{mean:.1f} ({mean - half:.1f}-{mean + half:.1f})"
        lines.append(f"{name:<9} {len(idx):>5} {trials:>7} {wins:>6}  {rate:<24}{ppg:<26}")
    fair = 100 / len(result.levels)
    lines.append(f"fair share per seat: {fair:.1f}%")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="unobot arena", description="Computer players against each other (seats rotate)."
    )
    parser.add_argument(
        "--players", default="hard,normal,normal,normal", help="levels, one per seat: easy, "
        "normal, hard (e.g. normal,easy,easy,easy)"
    )  # fmt: skip
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--preset", default="official", choices=sorted([*PRESETS, *PRESET_ALIASES]))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument(
        "--budget-ms", type=float, default=200.0, help="hard: thinking time per move"
    )
    parser.add_argument(
        "--playouts", type=int, default=None, help="hard: fixed playouts per move instead of time"
    )
    args = parser.parse_args(argv)
    levels = [p.strip().lower() for p in args.players.split(",") if p.strip()]
    for level in levels:
        if level not in LEVELS:
            parser.error(f"no level '{level[:20]}'; levels: {', '.join(LEVELS)}")
    rules = preset(args.preset)
    if not rules.min_players <= len(levels) <= rules.max_players:
        parser.error(f"{rules.name} is for {rules.min_players} to {rules.max_players} players")
    if rules.team_problem(len(levels)):
        parser.error(rules.team_problem(len(levels)))
    count = rules.team_count(len(levels))
    if count and levels != [levels[s % count] for s in range(len(levels))]:
        # Seats rotate from game to game: teammates (seats s, s + count, ...) stay of one
        # level only if the list repeats every ``count`` seats.
        parser.error(
            "teams: teammates sit every {} seats, so list levels like {}".format(
                count, ",".join((["hard", "normal", "easy"] * 2)[:count] * 2)
            )
        )
    if args.games < 1 or args.jobs < 1:
        parser.error("--games and --jobs must be at least 1")
    result = run_arena(
        levels, args.games, args.preset, args.seed, jobs=args.jobs,
        budget_ms=args.budget_ms, playouts=args.playouts,
    )  # fmt: skip
    search = f"{args.playouts} playouts/move" if args.playouts else f"{args.budget_ms:g} ms/move"
    print(
        f"arena: {args.games} games, players {','.join(levels)}, preset {args.preset}, "
        f"seed {args.seed}, hard {search}, jobs {args.jobs}"
    )
    size = len(levels) // count if count else 1
    lines = table(result, size)
    if count:  # a win is the team's: the fair share is per team, not per seat
        kind = "teams of two" if size == 2 else f"two teams of {size}"
        lines[-1] = (
            f"{kind} (a win counts for every teammate); fair share per team: {100 / count:.1f}%"
        )
    for line in lines:
        print(line)
    print(
        f"{result.seconds:.1f} s, {result.actions / args.games:.1f} actions/game, "
        f"{args.games / result.seconds:.2f} games/s"
    )
    return 0
