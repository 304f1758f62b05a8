"""``unobot replay ID [--reveal] [--database URL] [--config FILE]``: a recorded game in the
terminal, hand by hand, as its channel saw it (:func:`unobot.replay.steps.steps`); with
``--reveal`` every player's hand after each step. ID is the number or the game id (at least
6 of its hex characters) that ``.unogame`` and the web site show.

Read-only: the database is opened directly and only read (no schema upgrade, no lock)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import TextIO

from unobot.core.render import game_length
from unobot.replay.steps import Step, steps
from unobot.stats.model import StoredGame, game_key

__all__ = ["format_game", "header", "main"]

PROG = "unobot replay"


def main(argv: list[str], database_url: Callable[[str | None, str | None], str]) -> int:
    """The exit status: 0 printed, 1 no such game or nothing to replay, 2 bad arguments or
    no database. ``database_url(config, database)`` resolves the two options as the bot would
    (``unobot.main.database_url``); it raises ValueError for a bad config."""
    parser = argparse.ArgumentParser(
        prog=PROG, description="A recorded game, hand by hand, as its channel saw it."
    )
    parser.add_argument("id", help="the game's number or id, as .unogame shows it")
    parser.add_argument("--reveal", action="store_true", help="show every hand after each step")
    parser.add_argument("--database", metavar="URL", help="stats store (default: the bot's)")
    parser.add_argument("--config", metavar="FILE", help="the bot's TOML settings")
    args = parser.parse_args(argv)

    if game_key(args.id) is None:
        print(
            f"{PROG}: not a game id: give its number or at least 6 characters of its id "
            "(as .unogame shows it)",
            file=sys.stderr,
        )
        return 2

    from unobot.stats.game_rows import find_game
    from unobot.stats.sql import _DB_ERRORS, missing_sqlite_file, open_database

    try:
        url = database_url(args.config, args.database)
    except ValueError as err:  # unobot.config.ConfigError
        print(f"{PROG}: {err}", file=sys.stderr)
        return 2
    db = open_database(url)
    try:
        missing = missing_sqlite_file(db)
        if missing is not None:
            print(f"{PROG}: no stats database {missing} (--database URL, --config FILE)",
                  file=sys.stderr)  # fmt: skip
            return 2
        try:
            game = find_game(db, args.id)
        except _DB_ERRORS as err:
            print(f"{PROG}: can't read the stats database: {err}", file=sys.stderr)
            return 1
    finally:
        db.close()
    if game is None:
        print(f"{PROG}: no recorded game {args.id.strip()[:40]} (or the id is ambiguous)",
              file=sys.stderr)  # fmt: skip
        return 1
    if game.moves is None:
        print(f"{PROG}: game {game.short_id} was recorded without a move list: only its result "
              "is known", file=sys.stderr)  # fmt: skip
        for line in header(game):
            print(line)
        return 1
    try:
        found = steps(game.moves)
    except ValueError as err:
        print(f"{PROG}: game {game.short_id}'s move list can't be replayed: {err}",
              file=sys.stderr)  # fmt: skip
        return 1
    return _write(format_game(game, found, reveal=args.reveal), sys.stdout)


def _write(lines: list[str], out: TextIO) -> int:
    try:
        for line in lines:
            out.write(line + "\n")
        out.flush()
    except BrokenPipeError:  # | head: not an error
        return 0
    return 0


def header(game: StoredGame) -> list[str]:
    """Which game, where, when (and whether it was stopped), and its players by place with
    points and rating after it."""
    from unobot.stats.ratings import conservative

    when = game.started.strftime("%Y-%m-%d %H:%M UTC")
    where = game.channel + (f" on {game.network}" if game.network else "")
    stopped = ", stopped before its end: nobody won" if game.stopped else ""
    lines = [
        f"Game {game.short_id} (no. {game.id}) in {where}, {game.preset}, {when}, "
        f"{game_length(game.seconds)}{stopped}"
    ]
    for result in game.results:
        notes = []
        if result.won:
            notes.append("won")
        if not result.finished:
            notes.append("left early")
        if result.is_bot:
            notes.append("computer")
        if result.mu is not None and result.sigma is not None:
            notes.append(f"rating {conservative(result.mu, result.sigma)}")
        extra = f" ({', '.join(notes)})" if notes else ""
        lines.append(
            f"  {result.place}. {result.nick}: {result.points_won} points, "
            f"{result.points_left} left in hand{extra}"
        )
    return lines


def format_game(game: StoredGame, found: list[Step], *, reveal: bool = False) -> list[str]:
    """The whole replay as lines: the header, then hand by hand the channel's lines (and,
    with ``reveal``, each player's hand after every step)."""
    lines = header(game)
    hand = 0
    for step in found:
        if step.hand != hand:
            lines.append("")
            if hand:
                lines.append(f"--- hand {hand} ends, hand {step.hand} is dealt ---")
            else:
                lines.append(f"--- hand {step.hand} ---")
            hand = step.hand
        lines.extend(step.lines)
        if reveal and not step.lines:  # a draw the channel hears of with the next move
            lines.append(f"  [{' '.join(filter(None, (step.actor, step.action)))}]")
        if reveal and step.hands:
            lines.extend(f"   {nick}: {' '.join(cards) or '-'}" for nick, cards in step.hands)
    return lines
