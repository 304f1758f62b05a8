"""Skill ratings calibrated on the computer players: ``python -m unobot.bench calibration``.

The three levels are a ladder of known order, so ratings that put them in any other order
measure something other than skill. This benchmark plays hands between several computer
players of each level (``easy-1`` … ``hard-4``: ratings are per player, as a channel's
regulars are), records each hand as a game through a real
:class:`~unobot.stats.sql.SqlStatsStore` (whose ``record_game`` rates it, exactly as the bot's
games are rated) and reads the ratings back with ``rating_leaderboard(include_bots=True)``.
A game's places follow the recorder (:mod:`unobot.stats.recorder`): the winner first, the
others by points left in hand, ties sharing a place.

Why tables of two by default (``--seats 2``; ``--seats 3,4`` plays mixed tables): ``hard``
searches with ``normal`` as its model of the other players, and is clearly stronger than
``normal`` only where that model holds. Measured (official preset, 300 games of 3-4 seats
each seating one player of every level): ``hard`` finished ahead of ``normal`` in 166/400
meetings at 100 playouts a move and 197/400 at 400, ahead of ``easy`` less often than
``normal`` was, and kept more points in hand when it lost (its playouts count wins, not
points), so the ratings put it level with or below ``normal``. Heads-up against ``normal``
it won 51% / 56.5% / 62% / 60% at 100 / 200 / 400 / 800 playouts (400 hands each). So two
seats, the ladder's rungs in turn (easy-normal, normal-hard), and 400 playouts: about where
its edge stops growing, and a hand of ``hard`` costs ~0.3 s.

Each deal is played once per rotation of its seats (every player holds every seat's cards
once); ``hard`` searches a fixed number of playouts a move (``--playouts``), so a run's
figures depend on ``--seed`` alone, whatever ``--jobs``. Per level it prints the mean
displayed rating, mean mu (± the spread among its players), mean sigma, games and win rate;
then for each rung the gap in mu and how often the stronger level finished ahead (Wilson 95%
interval); the last line is the headline, e.g. ``calibration: easy 394 < normal 890 < hard
974`` (mean displayed ratings), or the pair out of order.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import statistics
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from itertools import pairwise
from pathlib import Path
from random import Random

from unobot.ai.arena import play_hand, wilson
from unobot.ai.strategy import LEVELS
from unobot.engine import PRESETS, HouseRules, preset
from unobot.engine.rules import Scoring
from unobot.stats.model import GameRecord, PlayerResult, RatedPlayer, StatsUnavailable
from unobot.stats.ratings import conservative
from unobot.stats.sql import SqlStatsStore

__all__ = [
    "Calibration",
    "Hand",
    "LevelFigures",
    "Setup",
    "add_arguments",
    "calibrate",
    "head_to_head",
    "headline",
    "level_figures",
    "play_games",
    "players",
    "record",
    "schedule",
    "table_levels",
    "to_record",
]

NETWORK = "calibration"
CHANNEL = "#calibration"
START = datetime(2026, 1, 1)
SEED_STRIDE = 1_000_003
"""Deal ``d`` of run ``seed`` is seeded from ``seed * SEED_STRIDE + d`` (as the arena's games)."""


@dataclass(frozen=True, slots=True)
class Hand:
    """One hand played: who sat where, and how it ended (``winner`` -1: it could not end)."""

    index: int
    names: tuple[str, ...]
    """Seat order: the computer player at each seat (``hard-2``)."""
    winner: int
    left: tuple[int, ...]
    """Points of the cards left in each seat's hand (the winner's: 0)."""
    actions: int


DEFAULT_SEATS = (2,)
DEFAULT_PLAYOUTS = 400


@dataclass(frozen=True, slots=True)
class Setup:
    """Everything but the seed and the number of games that decides a run's games."""

    per_level: int = 4
    """Computer players of each level (``easy-1`` … ``easy-N``)."""
    seats: tuple[int, ...] = DEFAULT_SEATS
    """Table sizes, deal ``d`` taking ``seats[d % len(seats)]``."""
    rules_name: str = "official"
    playouts: int | None = DEFAULT_PLAYOUTS
    """``hard``'s playouts a move; None: its time budget instead (results then vary)."""
    budget_ms: float = 200.0

    def check(self) -> str | None:
        """What is wrong with this setup, for a user; None when it can be played."""
        if self.rules_name not in PRESETS:
            return f"no preset {self.rules_name[:30]!r}; presets: {', '.join(sorted(PRESETS))}"
        rules = preset(self.rules_name)
        if not self.seats:
            return "no table size given"
        for n in self.seats:
            if not rules.min_players <= n <= rules.max_players:
                return f"{rules.name} is for {rules.min_players} to {rules.max_players} players"
        need = max(-(-n // len(LEVELS)) for n in self.seats)
        if self.per_level < need:
            return f"tables of {max(self.seats)} need {need} players of each level"
        if self.playouts is not None and self.playouts < 1:
            return "hard needs at least one playout a move"
        return None


def players(per_level: int) -> dict[str, list[str]]:
    """The computer players of each level: ``easy-1`` … ``easy-N`` and so on."""
    return {level: [f"{level}-{i}" for i in range(1, per_level + 1)] for level in LEVELS}


def level_of(name: str) -> str:
    return name.rsplit("-", 1)[0]


def table_levels(size: int, turn: int) -> list[str]:
    """The levels at the ``turn``-th table of ``size`` seats. Two seats: the ladder's rungs in
    turn, easy-normal then normal-hard (the pairs whose order is in question; easy-hard would
    spend hard's search on a result nobody doubts). More seats: round the ladder from a level
    that moves each turn (three: one of each; four: one of each and a fourth that cycles)."""
    if size == 2:
        rung = turn % (len(LEVELS) - 1)
        return [LEVELS[rung], LEVELS[rung + 1]]
    return [LEVELS[(turn + k) % len(LEVELS)] for k in range(size)]


def schedule(games: int, seed: int, setup: Setup) -> list[tuple[tuple[str, ...], int]]:
    """The first ``games`` games: (players in seat order, the engine's seed). Each deal is
    played once per rotation of its seats (duplicate style: every player holds every seat's
    cards once, so the luck of the deal cancels as far as it can); the players of each level
    are drawn without replacement and their seats shuffled. Depends on the arguments alone,
    so any split of the games between processes plays the same games."""
    pool = players(setup.per_level)
    sizes = setup.seats
    out: list[tuple[tuple[str, ...], int]] = []
    deal = 0
    while len(out) < games:
        size = sizes[deal % len(sizes)]
        levels = table_levels(size, deal // len(sizes))
        rng = Random(seed * SEED_STRIDE + deal)
        names: list[str] = []
        for level in LEVELS:
            names += rng.sample(pool[level], levels.count(level))
        rng.shuffle(names)
        engine_seed = (seed * SEED_STRIDE + deal) ^ 0xCA11B  # not the seating's stream
        out += [(tuple(names[r:] + names[:r]), engine_seed) for r in range(size)]
        deal += 1
    return out[:games]


def hand_rules(rules_name: str) -> HouseRules:
    """The preset with each seat scoring its own points: play is the same card for card (only
    the end-of-hand tally reads ``scoring``), and ``play_hand``'s scores are then the points
    left in each hand, which places need; the winner's haul under the preset is their sum."""
    return replace(preset(rules_name), scoring=Scoring.OWN_POINTS)


def _play(args: tuple[list[tuple[int, tuple[str, ...], int]], Setup]) -> list[Hand]:
    """Play the games given as (index, seating, engine seed) (runs in a worker process)."""
    games, setup = args
    rules = hand_rules(setup.rules_name)
    out = []
    for index, names, engine_seed in games:
        winner, left, actions = play_hand(
            [level_of(n) for n in names],
            rules,
            engine_seed,
            playouts=setup.playouts,
            budget_ms=setup.budget_ms,
        )
        out.append(Hand(index, names, winner, left, actions))
    return out


def play_games(games: int, seed: int, setup: Setup, jobs: int = 1) -> list[Hand]:
    """Play the first ``games`` games of :func:`schedule` (in ``jobs`` processes), in order."""
    planned = [(i, names, s) for i, (names, s) in enumerate(schedule(games, seed, setup))]
    parts = max(1, min(games, jobs * 8)) if jobs > 1 else 1
    bounds = [games * i // parts for i in range(parts + 1)]
    tasks = [(planned[bounds[i] : bounds[i + 1]], setup) for i in range(parts)]
    if jobs > 1:
        import multiprocessing

        with multiprocessing.get_context("spawn").Pool(jobs) as pool:
            chunks = pool.map(_play, tasks, chunksize=1)
    else:
        chunks = [_play(task) for task in tasks]
    return [hand for chunk in chunks for hand in chunk]


def game_id(seed: int, index: int) -> str:
    """A 32-hex id (like the bot's uuid hex) fixed by the run and game: re-running a seed into
    the same store records nothing twice (``record_game`` is idempotent by game id)."""
    return hashlib.md5(f"calibration:{seed}:{index}".encode()).hexdigest()


def to_record(hand: Hand, seed: int, rules_name: str = "official") -> GameRecord | None:
    """The hand as the bot's recorder would file it: places winner first, then by points left
    (ties share a place), ``points_won`` the winner's haul (the others' cards), every result
    ``is_bot`` (with own-points scoring ``points_won`` is each seat's own points, as the
    recorder files them). None for a hand that could not end (no winner)."""
    if hand.winner < 0:
        return None
    own_points = preset(rules_name).scoring is Scoring.OWN_POINTS
    haul = sum(hand.left)
    others = [pts for s, pts in enumerate(hand.left) if s != hand.winner]
    rows = []
    for seat, name in enumerate(hand.names):
        won = seat == hand.winner
        scored = hand.left[seat] if own_points else haul if won else 0
        place = 1 if won else 2 + sum(1 for p in others if p < hand.left[seat])
        rows.append(
            PlayerResult(
                ident=f"$bot:{name}",
                nick=name,
                place=place,
                won=won,
                points_won=scored,
                points_left=hand.left[seat],
                is_bot=True,
            )
        )
    rows.sort(key=lambda r: r.place)
    started = START + timedelta(minutes=hand.index)
    return GameRecord(
        game_id=game_id(seed, hand.index),
        network=NETWORK,
        channel=CHANNEL,
        preset=rules_name,
        started=started,
        ended=started + timedelta(seconds=3 * hand.actions),  # a move every ~3 s on IRC
        results=tuple(rows),
    )


def record(store: SqlStatsStore, hands: Sequence[Hand], seed: int, rules_name: str) -> int:
    """Record every hand that ended, in game order (ratings depend on it); returns how many."""
    count = 0
    for hand in hands:
        rec = to_record(hand, seed, rules_name)
        if rec is not None:
            store.record_game(rec)
            count += 1
    return count


@dataclass(frozen=True, slots=True)
class LevelFigures:
    """One level's players as the store rates them."""

    level: str
    players: int
    display: float
    """Mean displayed rating (``conservative(mu, sigma)``) of the level's players."""
    mu: float
    mu_spread: float
    """Standard deviation of mu among the level's players (0 for one player)."""
    sigma: float
    games: int
    """Rated games summed over the level's players (seats played)."""
    wins: int


def level_figures(rated: Sequence[RatedPlayer], hands: Sequence[Hand]) -> list[LevelFigures]:
    """Per level (in ``LEVELS`` order, levels with no rated player left out): means over the
    rated players named ``<level>-<n>``; wins counted from the hands."""
    wins: dict[str, int] = {}
    for hand in hands:
        if hand.winner >= 0:
            level = level_of(hand.names[hand.winner])
            wins[level] = wins.get(level, 0) + 1
    out = []
    for level in LEVELS:
        mine = [r for r in rated if level_of(r.nick) == level]
        if not mine:
            continue
        mus = [r.mu for r in mine]
        out.append(
            LevelFigures(
                level=level,
                players=len(mine),
                display=statistics.fmean(conservative(r.mu, r.sigma) for r in mine),
                mu=statistics.fmean(mus),
                mu_spread=statistics.stdev(mus) if len(mus) > 1 else 0.0,
                sigma=statistics.fmean(r.sigma for r in mine),
                games=sum(r.games for r in mine),
                wins=wins.get(level, 0),
            )
        )
    return out


def headline(figures: Sequence[LevelFigures]) -> str:
    """``calibration: easy 12 < normal 498 < hard 585`` when mean displayed rating and mean mu
    both rise with the level; else which pair is out of order."""
    text = " < ".join(f"{f.level} {f.display:.0f}" for f in figures)
    if [f.level for f in figures] != list(LEVELS):
        return f"calibration: FAILED, levels rated: {text or 'none'}"
    wrong = [
        f"{a.level} {a.display:.0f} (mu {a.mu:.2f}) >= {b.level} {b.display:.0f} (mu {b.mu:.2f})"
        for a, b in pairwise(figures)
        if not (a.display < b.display and a.mu < b.mu)
    ]
    if wrong:
        return "calibration: FAILED, out of order: " + "; ".join(wrong)
    return f"calibration: {text}"


@dataclass(frozen=True, slots=True)
class Calibration:
    hands: list[Hand]
    recorded: int
    figures: list[LevelFigures]
    play_seconds: float
    record_seconds: float


def calibrate(
    games: int,
    seed: int = 1,
    setup: Setup = Setup(),
    *,
    jobs: int = 1,
    url: str | None = None,
) -> Calibration:
    """Play, record into the store at ``url`` (default: a fresh SQLite file in a temporary
    directory) and read the ratings back."""
    with tempfile.TemporaryDirectory(prefix="unobot-calibration-") as tmp:
        where = Path(tmp)
        store = SqlStatsStore(  # first: a URL it can't use fails before minutes of play
            url or f"sqlite:///{where / 'calibration.db'}",
            network=NETWORK,
            spool_path=where / "calibration.spool",
        )
        try:
            start = time.perf_counter()
            hands = play_games(games, seed, setup, jobs)
            played = time.perf_counter()
            recorded = record(store, hands, seed, setup.rules_name)
            names = {n for group in players(setup.per_level).values() for n in group}
            board = store.rating_leaderboard(len(names) + 100, min_games=1, include_bots=True)
            rated = [r for r in board if r.nick in names]
            done = time.perf_counter()
        finally:
            store.close()
    return Calibration(hands, recorded, level_figures(rated, hands), played - start, done - played)


def _lines(result: Calibration) -> list[str]:
    lines = [
        f"{'level':<7} {'players':>7} {'rating':>7} {'mean mu':>14} {'sigma':>6} "
        f"{'games':>6} {'win rate':>9}"
    ]
    for f in result.figures:
        rate = 100 * f.wins / f.games if f.games else 0.0
        mu = f"{f.mu:.2f} ±{f.mu_spread:.2f}"
        lines.append(
            f"{f.level:<7} {f.players:>7} {f.display:>7.0f} {mu:>14} {f.sigma:>6.2f} "
            f"{f.games:>6} {rate:>8.1f}%"
        )
    by_level = {f.level: f for f in result.figures}
    for low, high in pairwise(LEVELS):
        ahead, meetings = head_to_head(result.hands, low, high)
        if low in by_level and high in by_level and meetings:
            gap = by_level[high].mu - by_level[low].mu
            lo, hi = wilson(ahead, meetings)
            lines.append(
                f"{high} over {low}: {gap:+.2f} mu; ahead in {ahead:g} of {meetings} meetings, "
                f"{100 * ahead / meetings:.1f}% (95% CI {100 * lo:.1f}-{100 * hi:.1f})"
            )
    return lines


def head_to_head(hands: Sequence[Hand], low: str, high: str) -> tuple[float, int]:
    """(times a ``high`` player finished ahead of a ``low`` one at the same table, times they
    met): the winner is ahead of everyone, the others by points left, a tie counting half."""
    ahead = 0.0
    meetings = 0
    for hand in hands:
        if hand.winner < 0:
            continue
        levels = [level_of(name) for name in hand.names]
        for i, a in enumerate(levels):
            for j, b in enumerate(levels):
                if a != high or b != low:
                    continue
                meetings += 1
                if i == hand.winner or (j != hand.winner and hand.left[i] < hand.left[j]):
                    ahead += 1
                elif j != hand.winner and hand.left[i] == hand.left[j]:
                    ahead += 0.5
    return ahead, meetings


def bench_calibration(args: argparse.Namespace) -> None:
    setup = Setup(
        per_level=args.per_level,
        seats=args.seats,
        rules_name=args.preset,
        playouts=args.playouts if args.budget_ms is None else None,
        budget_ms=args.budget_ms or 200.0,
    )
    problem = setup.check()
    if problem:
        raise SystemExit(f"calibration: {problem}")
    search = f"{setup.playouts} playouts/move" if setup.playouts else f"{setup.budget_ms:g} ms/move"
    print(
        f"calibration: {args.games} games at tables of {','.join(map(str, setup.seats))}, "
        f"{setup.per_level} players per level, preset {setup.rules_name}, seed {args.seed}, "
        f"hard {search}, jobs {args.jobs}"
    )
    try:
        result = calibrate(args.games, args.seed, setup, jobs=args.jobs, url=args.db)
    except (ValueError, StatsUnavailable) as err:
        raise SystemExit(f"calibration: {str(err)[:200]}") from None
    for line in _lines(result):
        print(line)
    actions = sum(h.actions for h in result.hands) / max(1, len(result.hands))
    print(
        f"{result.recorded} games recorded ({len(result.hands) - result.recorded} without a "
        f"winner); play {result.play_seconds:.1f} s ({args.games / result.play_seconds:.1f} "
        f"games/s, {actions:.0f} actions/game), record and rate {result.record_seconds:.1f} s"
    )
    print(headline(result.figures))


def _at_least(low: float, kind: Callable[[str], float]) -> Callable[[str], float]:
    def parse(text: str) -> float:
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a number: {text[:20]!r}") from None
        if value < low:
            raise argparse.ArgumentTypeError(f"must be at least {low:g}")
        return value

    return parse


def _sizes(text: str) -> tuple[int, ...]:
    try:
        sizes = tuple(int(part) for part in text.split(",") if part.strip())
    except ValueError:
        raise argparse.ArgumentTypeError(f"not table sizes: {text[:20]!r} (e.g. 2,3,4)") from None
    if not sizes:
        raise argparse.ArgumentTypeError("no table size given")
    return sizes


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--games", type=_at_least(1, int), default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--jobs",
        type=_at_least(1, int),
        default=os.cpu_count() or 1,
        help="worker processes (default: one per core)",
    )
    parser.add_argument(
        "--seats",
        type=_sizes,
        default=DEFAULT_SEATS,
        help="table sizes, taken in turn game by game (default 2: see the module's notes)",
    )
    parser.add_argument(
        "--per-level", type=_at_least(1, int), default=4, help="computer players of each level"
    )
    parser.add_argument("--preset", default="official", choices=sorted(PRESETS))
    parser.add_argument(
        "--playouts",
        type=_at_least(1, int),
        default=DEFAULT_PLAYOUTS,
        help="hard: playouts per move",
    )
    parser.add_argument(
        "--budget-ms",
        type=_at_least(0.1, float),
        default=None,
        help="hard: thinking time per move instead of --playouts (results then vary by machine)",
    )
    parser.add_argument(
        "--db",
        default=None,
        help="record into this stats store (sqlite:///file or postgresql://...) and keep the "
        "games; default: a temporary SQLite file",
    )
    parser.set_defaults(run=bench_calibration)
