"""Benchmarks that print their figures: ``python -m unobot.bench engine`` (or ``irc``,
``stats``, ``dealer``, ``computers``, ``capacity``, ``networks``, ``ratings``, ``web``,
``calibration``, ``memory``, ``turnhand``).

Targets live here, never in timed unit tests. The last line of each benchmark is its headline
figure, e.g. ``engine: 10500 games/s``. Each benchmark is a module of this package with an
``add_arguments`` (or ``add_parser``) for its subcommand.
"""

from __future__ import annotations

import argparse

__all__ = ["main"]


def main(argv: list[str] | None = None) -> None:
    # Imported here, not at the top: ``python -m unobot.bench.irc`` (the benchmark's child
    # processes) imports this package first and must not import ``irc`` before running it.
    from unobot.bench import (
        calibration,
        capacity,
        computers,
        dealer,
        engine,
        irc,
        memory,
        networks,
        ratings,
        restore,
        soak,
        stats,
        turnhand,
        web,
    )

    parser = argparse.ArgumentParser(prog="python -m unobot.bench", description=__doc__)
    sub = parser.add_subparsers(dest="which", required=True)
    engine.add_arguments(
        sub.add_parser("engine", help="random-agent games through the rules engine")
    )
    stats.add_arguments(sub.add_parser("stats", help="stats store: query latency, games/s"))
    irc.add_parser(sub)  # `irc`: the whole bot on a local server
    computers.add_arguments(
        sub.add_parser("computers", help="reactor latency while hard computer players think")
    )
    dealer.add_arguments(
        sub.add_parser("dealer", help="hard's sampled opponent hands against the real ones")
    )
    restore.add_arguments(sub.add_parser("restore", help="a restart giving back 100 games"))
    soak.add_arguments(sub.add_parser("soak", help="many channels under random faults"))
    capacity.add_arguments(
        sub.add_parser("capacity", help="the bot process on inspircd: games at once, fairness")
    )
    networks.add_arguments(
        sub.add_parser("networks", help="the bot on ircu, irc2, hybrid, InspIRCd: kills, hands")
    )
    ratings.add_arguments(
        sub.add_parser("ratings", help="rating models naming held-out games' winners")
    )
    calibration.add_arguments(
        sub.add_parser("calibration", help="computer players' ratings: easy < normal < hard")
    )
    web.add_arguments(
        sub.add_parser("web", help="the stats site's pages on the 1M-result store: p99 per page")
    )
    memory.add_arguments(
        sub.add_parser("memory", help="the bot process's RSS over 2,000 games: kB per game")
    )
    turnhand.add_arguments(
        sub.add_parser("turnhand", help="the hand before each move: embedded, ngircd, ircu")
    )
    args = parser.parse_args(argv)
    args.run(args)
