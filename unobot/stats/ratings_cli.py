"""``unobot ratings rebuild [--database URL] [--config FILE]``: recompute every player's skill
rating from the stored game rows (:func:`unobot.stats.rating_rows.rebuild_rating_rows`), e.g.
after the rating model changes or rows were edited by hand. Safe while bots run: the rebuild
takes the store's write lock, so no game is rated twice or missed."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import Any

from unobot.stats.sql import _DB_ERRORS, SqlStatsStore, missing_sqlite_file, open_database

__all__ = ["main", "rebuild_command"]


def main(argv: list[str], database_url: Callable[[str | None, str | None], str]) -> int:
    """The exit status. ``database_url(config, database)`` resolves the two options as the bot
    would (``unobot.main.database_url``); it raises ValueError for a bad config."""
    return rebuild_command(
        argv,
        database_url,
        group="ratings",
        title="Skill ratings.",
        summary="recompute every rating from the game rows",
        description=__doc__ or "",
        rebuild=lambda store: store.rebuild_ratings(),
    )


def rebuild_command(
    argv: list[str],
    database_url: Callable[[str | None, str | None], str],
    *,
    group: str,
    title: str,
    summary: str,
    description: str,
    rebuild: Callable[[SqlStatsStore], int],
    **store_options: Any,
) -> int:
    """``unobot GROUP rebuild [--database URL] [--config FILE]``: one derived table recomputed
    from the stored games by ``rebuild(store)`` (returns the games read), with the same
    options, refusals and exit statuses for every such command (2: bad options or no
    database file; 1: the database failed). ``store_options`` go to :class:`SqlStatsStore`
    (the records' move-list analyser)."""
    parser = argparse.ArgumentParser(prog=f"unobot {group}", description=title)
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    sub = commands.add_parser("rebuild", help=summary, description=description)
    sub.add_argument("--database", metavar="URL", help="stats store (default: the bot's)")
    sub.add_argument("--config", metavar="FILE", help="the bot's TOML settings")
    args = parser.parse_args(argv)
    prog = f"unobot {group} rebuild"
    try:
        url = database_url(args.config, args.database)
    except ValueError as err:  # unobot.config.ConfigError
        print(f"{prog}: {err}", file=sys.stderr)
        return 2
    probe = open_database(url)
    missing = missing_sqlite_file(probe)
    probe.close()
    if missing is not None:
        print(
            f"{prog}: no stats database {missing} (--database URL, --config FILE)", file=sys.stderr
        )
        return 2
    try:
        store = SqlStatsStore(url, connect_now=False, **store_options)
        try:
            games = rebuild(store)
        finally:
            store.close()
    except _DB_ERRORS as err:
        print(f"{prog}: can't update the stats database: {err}", file=sys.stderr)
        return 1
    print(f"rebuilt {group} from {games} games")
    return 0
