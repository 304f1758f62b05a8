"""``unobot import-scores FILE``: bring the original bot's score file into the stats store.

The old bot kept one line per nick: ``nick games wins points seconds``. Those totals have no
dates and no channel, so they become imported aggregate rows (``imported_score``) that the
queries add to the player's recorded games: they count in all-time figures (``.unostats``,
``.unotop10``), never in ``week`` or ``month``, and in one channel's figures only when imported
with ``--channel``. Importing the same file (``--source``, default its name) again replaces
its rows instead of adding them twice.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from unobot.irc.casemap import irc_lower
from unobot.stats.model import ImportedScore

__all__ = ["main", "parse_scores"]


class ScoreFileError(ValueError):
    """A line of the score file that isn't ``nick games wins points seconds``."""


def parse_scores(text: str) -> list[ImportedScore]:
    """The file's lines as values; blank lines and ``#`` comments are skipped. A nick listed
    twice has its totals added (the old bot could write one after a nick-case change)."""
    merged: dict[str, ImportedScore] = {}
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        parts = line.split()
        if len(parts) != 5:
            raise ScoreFileError(
                f"line {number}: expected 'nick games wins points seconds', got {line[:60]!r}"
            )
        nick, *nums = parts
        try:
            games, wins, points, seconds = (int(n) for n in nums)
        except ValueError:
            raise ScoreFileError(f"line {number}: numbers expected after the nick") from None
        if min(games, wins, points, seconds) < 0 or wins > games:
            raise ScoreFileError(f"line {number}: impossible totals for {nick}")
        key = irc_lower(nick)
        old = merged.get(key)
        if old is not None:
            games, wins = games + old.games, wins + old.wins
            points, seconds = points + old.points, seconds + old.seconds
        merged[key] = ImportedScore(nick, games, wins, points, seconds)
    return list(merged.values())


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="unobot import-scores",
        description="Import the original bot's score file (nick games wins points seconds).",
    )
    parser.add_argument("file", type=Path)
    parser.add_argument("--database", default="sqlite:///stats.db", help="stats store URL")
    parser.add_argument("--network", default="", help="network the bot records games under")
    parser.add_argument("--channel", default=None, help="count them in this channel's figures")
    parser.add_argument("--source", default=None, help="label (default: the file name)")
    args = parser.parse_args(argv)
    try:
        scores = parse_scores(args.file.read_text(encoding="utf-8", errors="replace"))
    except (OSError, ScoreFileError) as err:
        print(f"unobot import-scores: {args.file}: {err}", file=sys.stderr)
        return 2
    from unobot.stats.sql import SqlStatsStore
    from unobot.stats.urls import database_url_problem

    problem = database_url_problem(args.database)
    if problem is not None:
        print(f"unobot import-scores: --database: {problem}", file=sys.stderr)
        return 2
    store = SqlStatsStore(args.database, network=args.network)
    count = store.import_scores(scores, args.source or args.file.name, args.network, args.channel)
    store.close()
    games = sum(s.games for s in scores)
    where = args.database.rpartition("@")[2]  # never the password
    print(f"imported {count} players ({games} games) from {args.file} into {where}")
    return 0
