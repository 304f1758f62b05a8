"""``unobot records rebuild [--database URL] [--config FILE]``: recompute the records (fastest
wins, biggest hands, streaks, cards held, comebacks, games in a day) from the stored games and
their move lists (:func:`unobot.stats.record_rows.rebuild_records`), e.g. after upgrading a
store whose games predate the records, or after rows were edited by hand. Safe while bots
run: the rebuild takes the store's write lock, so no game is counted twice or missed."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable

__all__ = ["main"]


def main(argv: list[str], database_url: Callable[[str | None, str | None], str]) -> int:
    """The exit status. ``database_url(config, database)`` resolves the two options as the bot
    would (``unobot.main.database_url``); it raises ValueError for a bad config."""
    parser = argparse.ArgumentParser(prog="unobot records", description="Records.")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    rebuild = commands.add_parser(
        "rebuild", help="recompute the records from the stored games", description=__doc__
    )
    rebuild.add_argument("--database", metavar="URL", help="stats store (default: the bot's)")
    rebuild.add_argument("--config", metavar="FILE", help="the bot's TOML settings")
    args = parser.parse_args(argv)
    prog = "unobot records rebuild"

    from unobot.replay.figures import move_figures
    from unobot.stats.sql import _DB_ERRORS, SqlStatsStore, missing_sqlite_file, open_database

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
        store = SqlStatsStore(url, connect_now=False, analyse=move_figures)
        try:
            games = store.rebuild_records()
        finally:
            store.close()
    except _DB_ERRORS as err:
        print(f"{prog}: can't update the stats database: {err}", file=sys.stderr)
        return 1
    print(f"rebuilt records from {games} games")
    return 0
