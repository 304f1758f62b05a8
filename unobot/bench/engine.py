"""The rules engine's speed: ``python -m unobot.bench engine --players 4 --games N``.

Complete random-agent games through the public API (legal actions -> choose -> apply, every
action checked); the last line is the headline, e.g. ``engine: 10500 games/s (2.10× the
yardstick)``: the same number of games of the plain object-per-card engine of
:mod:`unobot.bench.naive`, timed in the same run (issue 2's yardstick). The agents
play a card whenever they have one (as RLCard's random agent, whose legal moves offer a draw
only without a card to play): where the rules also let a player draw instead
(``voluntary_draw``, official since issue 38), a random agent drawing at will would hoard
cards and make every hand ten times as long, measuring the reshuffles, not the game.
"""

from __future__ import annotations

import argparse
import time
from random import Random

from unobot.ai.legal import without_voluntary_draw
from unobot.bench.naive import play_naive_game
from unobot.engine import PRESET_ALIASES, PRESETS, Deck, Draw, Game, HouseRules, Play, preset
from unobot.engine.cards import COMPILED


def add_arguments(eng: argparse.ArgumentParser) -> None:
    eng.add_argument("--players", type=int, default=4)
    eng.add_argument("--games", type=int, default=20_000)
    classic = [n for n in [*PRESETS, *PRESET_ALIASES] if not preset(n).flip]
    eng.add_argument("--preset", default="official", choices=sorted(classic))
    eng.add_argument("--seed", type=int, default=1)
    eng.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="OPTION=VALUE",
        help="change a rule option of the preset, as .unorules set does (voluntary_draw=off)",
    )
    eng.add_argument(
        "--all-presets", action="store_true", help="also time the other presets (games/10 each)"
    )
    eng.add_argument(
        "--no-yardstick",
        dest="yardstick",
        action="store_false",
        help="don't time the object-per-card yardstick (unobot.bench.naive) beside the engine",
    )
    eng.add_argument("--rlcard", action="store_true", help="also time RLCard's uno, if installed")
    eng.set_defaults(run=bench_engine)


def play_random_game(players: int, rules: HouseRules, rng: Random) -> int:
    """One complete hand between random agents through the public API.

    legal actions -> choose -> apply, with the engine's full rule checking on every action.
    Each agent chooses uniformly among its legal actions, less a draw offered beside a card to
    play (:func:`~unobot.ai.legal.without_voluntary_draw`): the same choices, from the same
    random numbers, as before the rules offered that draw. Returns the number of actions
    applied.
    """
    game, _ = Game.deal(players, rules, rng)
    rand = rng.random
    actions = 0
    if not rules.voluntary_draw:
        while game.outcome is None:
            seat = game.current
            legal = game.legal_actions(seat)
            game.apply(seat, legal[int(rand() * len(legal))])
            actions += 1
        return actions
    # The draw a player may take instead of a card is left out of the choice, without building
    # a new tuple: it follows the cards, last or before an UNO call and a catch (``Game``'s
    # order), so one random number picks among the others exactly as from the tuple without it.
    draw, play = Draw, Play
    general = rules.deck is Deck.NO_MERCY  # its legal actions put the draw first
    while game.outcome is None:
        seat = game.current
        legal = game.legal_actions(seat)
        n = len(legal)
        if general:
            legal = without_voluntary_draw(legal, game.phase)
            n = len(legal)
        elif type(legal[-1]) is draw:
            n -= 1  # the common case (alone, the draw is still index 0)
        elif n > 2 and type(legal[0]) is play:
            d = n - 2 if type(legal[n - 2]) is draw else n - 3
            if d > 0 and type(legal[d]) is draw:
                i = int(rand() * (n - 1))
                game.apply(seat, legal[i + 1 if i >= d else i])
                actions += 1
                continue
        game.apply(seat, legal[int(rand() * n)])
        actions += 1
    return actions


def _time_yardstick(players: int, games: int, seed: int) -> tuple[float, int]:
    """Seconds and actions for ``games`` games of the yardstick (:mod:`unobot.bench.naive`),
    warmed up and timed as :func:`_time_games` times the engine."""
    rng = Random(seed)
    for _ in range(min(200, games)):
        play_naive_game(players, rng)
    rng = Random(seed)
    actions = 0
    start = time.perf_counter()
    for _ in range(games):
        actions += play_naive_game(players, rng).actions
    return time.perf_counter() - start, actions


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
    for change in args.set:
        option, _, value = change.partition("=")
        rules = rules.with_option(option, value)
    print(f"engine build: {'compiled (mypyc)' if COMPILED else 'pure Python'}")
    if args.all_presets:
        # Other presets differ in game length and rule paths (stacking, draw until playable...).
        games = max(1, args.games // 10)
        for name in sorted(PRESETS):
            # UNO Flip is a game of its own (``FlipGame``), not timed by this loop of ``Game``s.
            if name != args.preset and not PRESETS[name].flip:
                other = preset(name)
                # Teams are dealt to some sizes only (pairs 4 or 6, two teams 4 to 10,
                # even): the nearest at or below --players, else the smallest.
                sizes = [n for n in other.team_sizes if n <= args.players] or [4]
                players = sizes[-1] if other.teams else args.players
                secs, acts = _time_games(players, other, games, args.seed)
                print(f"  {name}: {games / secs:.0f} games/s, {acts / games:.1f} actions/game")
    elapsed, actions = _time_games(args.players, rules, args.games, args.seed)
    changed = "".join(f", {k}={_text(v)}" for k, v in rules.differences().items())
    print(
        f"preset: {rules.name}{changed}, players: {args.players}, games: {args.games}, "
        f"seed: {args.seed}"
    )
    print(f"actions per game: {actions / args.games:.1f}")
    print(f"microseconds per action: {elapsed / actions * 1e6:.2f}")
    if args.rlcard:
        _bench_rlcard(args)
    rate = args.games / elapsed
    if args.yardstick:
        naive_secs, naive_actions = _time_yardstick(args.players, args.games, args.seed)
        naive = args.games / naive_secs
        print(f"yardstick actions per game: {naive_actions / args.games:.1f}")
        print(f"yardstick: {naive:.0f} games/s")
        print(f"engine: {rate:.0f} games/s ({rate / naive:.2f}\u00d7 the yardstick)")
    else:
        print(f"engine: {rate:.0f} games/s")


def _text(value: object) -> str:
    """An option's value as ``.unorules set`` takes it (``off``, ``draw-one``, ``251``)."""
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(getattr(value, "value", value))


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
