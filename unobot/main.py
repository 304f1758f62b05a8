"""Command line: ``unobot`` / ``python unobot.py``.

Until the IRC bot lands, running it with no arguments plays a seeded demo hand between random
players and prints it, so a fresh install shows the engine working.
"""

from __future__ import annotations

import argparse
import sys
from random import Random

from unobot.engine import PRESETS, Game, preset
from unobot.render import describe, hand_text


def demo(players: int, preset_name: str, seed: int) -> int:
    """Play one hand between uniformly random players and print it; return the action count."""
    rules = preset(preset_name)
    names = ["alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi", "ivan", "judy"]
    names = names[:players]
    rng = Random(seed)
    agent = Random(seed + 1)
    game, events = Game.deal(players, rules, rng)
    print(f"Demo hand: {players} players, rules {rules.name}, seed {seed}")
    for seat, name in enumerate(names):
        print(f"  {name}'s hand: {hand_text(game.hand(seat))}")
    actions = 0
    while True:
        for event in events:
            line = describe(event, names)
            if line:
                print(line)
        if game.over:
            return actions
        seat = game.current
        legal = game.legal_actions(seat)
        events = game.apply(seat, agent.choice(legal))
        actions += 1


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="unobot", description="Uno for IRC channels.")
    parser.add_argument("--players", type=int, default=4, help="demo players (2-10)")
    parser.add_argument("--preset", default="official", choices=sorted(PRESETS))
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    if not 2 <= args.players <= 10:
        parser.error("--players must be 2 to 10")
    try:
        demo(args.players, args.preset, args.seed)
    except ValueError as err:
        parser.error(str(err))


if __name__ == "__main__":
    main()
