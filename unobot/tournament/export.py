"""``unobot tournament export NAME``: a stored tournament as one CSV file.

``unobot tournament export NAME [--database URL] [--config FILE] [-o FILE]`` reads the
tournament from the stats database (the bot's: ``--database``, else the config file's
``stats.database``, else ``sqlite:///stats.db`` in the working directory, as the bot resolves
it) and writes CSV (RFC 4180, UTF-8) to ``FILE`` or standard output. An unknown name is one
line on standard error and exit status 2.

Every row has the same eight columns, ``record,tournament,table,game,player,score,detail,at``;
``record`` says what the row is and which of the others it fills (the rest are empty).
``tournament`` is the tournament's name on every row; ``at`` is when it happened, ISO 8601 in
UTC (``2026-11-20T18:04:05Z``).

=============== ========================================================================
record          columns
=============== ========================================================================
``tournament``  one row first. detail: ``format=…; channel=…; status=…`` (then
                ``options=…``, ``by=…``, and ``cancelled by …: reason`` if so); at: created
``entrant``     one per player signed up (in sign-up order; one who left is not listed).
                player; at: when they joined
``reserve``     the same, for a reserve
``game``        one per game seated: table (number), game (the game's key: ``t1``,
                ``final``), detail: ``<stage> at <channel>: <players, space-separated>``
``result``      one per player per game reported: table, game (key), player, score (their
                match total; empty for one who left), detail: ``won``, ``left`` or empty
``correction``  game (key), player, score (the change, e.g. ``-20``), detail: ``by …: reason``
``penalty``     player, score (cards drawn), detail: ``by … in <channel>``
``removal``     player, detail: ``by …: reason``
``substitution`` player (who comes in), detail: ``replaces <old>, by …``
``sheet``       the seeds' score sheet, one per player per hand: table, game (the game's
                key, as in ``result`` rows: a game's sheet rows add up to its result rows),
                player, score (card points, or ``Won``), detail: the sheet's own line —
                ``Beank > T1,G1,170`` in a heat (hands counted per table), ``ann >
                Final,G1,12`` / ``ann > Round 2 game 1,G3,40`` for the final and later
                rounds (hands counted within the game), ending ``(clock)`` for a hand the
                game's clock cut short (its points count); at: that game's result
``standing``    the last standings: game (the place, 1 best), player, score, detail: the
                note and whether they are ``final`` or ``provisional``
=============== ========================================================================

Rows come in that order: the tournament, its entrants, then games, results, corrections,
penalties, removals and substitutions as they happened, then the sheet, then the standings.
"""

from __future__ import annotations

import argparse
import csv
import sys
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from typing import Any, TextIO

from unobot.tournament.store import Stored

__all__ = ["HEADER", "export_csv", "main", "rows"]

HEADER = ("record", "tournament", "table", "game", "player", "score", "detail", "at")


def iso(at: float | None) -> str:
    """Epoch seconds as ISO 8601 UTC (``2026-11-20T18:04:05Z``); "" for None."""
    if at is None:
        return ""
    return datetime.fromtimestamp(at, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _text(value: Any) -> str:
    return "" if value is None else str(value)


def _by(by: Any, reason: Any) -> str:
    return f"by {_text(by)}: {reason}" if reason else f"by {_text(by)}"


def rows(stored: Stored) -> Iterator[tuple[str, ...]]:
    """The CSV rows of ``stored`` (without the header), as the module docstring lists them."""
    name = stored.name

    def row(record: str, table: Any = "", game: Any = "", player: Any = "", score: Any = "",
            detail: str = "", at: float | None = None) -> tuple[str, ...]:  # fmt: skip
        return (record, name, _text(table), _text(game), _text(player), _text(score), detail,
                iso(at))  # fmt: skip

    first = next((e for e in stored.entries if e.kind == "new"), None)
    parts = [f"format={stored.format}", f"channel={stored.channel}", f"status={stored.status}"]
    if first is not None:
        options = " ".join(str(o) for o in first.data.get("options") or ())
        if options:
            parts.append(f"options={options}")
        if first.data.get("by"):
            parts.append(f"by={first.data['by']}")
    for e in stored.entries:
        if e.kind == "cancel":
            parts.append("cancelled " + _by(e.data.get("by"), e.data.get("reason")))
    yield row("tournament", detail="; ".join(parts), at=stored.created)

    signed: dict[str, tuple[str, bool, float]] = {}
    for e in stored.entries:
        if e.kind == "join":
            who = str(e.data["name"])
            signed[who] = (who, bool(e.data.get("reserve")), e.at)
        elif e.kind == "leave":
            signed.pop(str(e.data["name"]), None)
    for who, reserve, at in signed.values():
        yield row("reserve" if reserve else "entrant", player=who, at=at)

    tables: dict[str, Any] = {}
    reported: dict[str, float] = {}
    for e in stored.entries:
        d = e.data
        if e.kind == "seat":
            tables[str(d["key"])] = d.get("table", "")
            players = " ".join(str(p) for p in d.get("players") or ())
            detail = f"{d.get('stage', '')} at {d.get('channel', '')}: {players}"
            yield row("game", d.get("table", ""), d["key"], detail=detail, at=e.at)
        elif e.kind == "result":
            key = str(d["key"])
            reported[key] = e.at
            winners = set(d.get("winners") or ())
            for who, total in d.get("totals") or ():
                won = "won" if who in winners else ""
                yield row("result", tables.get(key, ""), key, who, total, won, e.at)
            for who in d.get("gone") or ():
                yield row("result", tables.get(key, ""), key, who, "", "left", e.at)
        elif e.kind == "correct":
            detail = _by(d.get("by"), d.get("reason"))
            delta = int(d.get("delta", 0))
            yield row("correction", "", d.get("key", ""), d["name"], f"{delta:+d}", detail, e.at)
        elif e.kind == "penalty":
            detail = f"by {d.get('by', '')} in {d.get('channel', '')}"
            yield row("penalty", player=d["name"], score=d.get("cards", ""), detail=detail, at=e.at)
        elif e.kind == "remove":
            detail = _by(d.get("by"), d.get("reason"))
            yield row("removal", player=d["name"], detail=detail, at=e.at)
        elif e.kind == "sub":
            detail = f"replaces {d.get('old', '')}, by {d.get('by', '')}"
            yield row("substitution", player=d["new"], detail=detail, at=e.at)

    for line in stored.sheet:
        score = "Won" if line.won else line.points
        at = reported.get(line.game_key)
        yield row("sheet", line.table, line.game_key, line.player, score, line.text(), at)

    last = next((e for e in reversed(stored.entries) if e.kind == "standings"), None)
    if last is not None:
        final = "final" if last.data.get("final") else "provisional"
        for place, who, score, note in last.data.get("rows") or ():
            detail = f"{note}; {final}" if note else final
            yield row("standing", "", place, who, score, detail, last.at)


def export_csv(stored: Stored, out: TextIO) -> int:
    """Write ``stored`` as CSV to ``out`` (open it with ``newline=""``); returns the number of
    rows after the header."""
    writer = csv.writer(out)
    writer.writerow(HEADER)
    count = 0
    for line in rows(stored):
        writer.writerow(line)
        count += 1
    return count


def main(argv: list[str], database_url: Callable[[str | None, str | None], str]) -> int:
    """``unobot tournament export NAME …``; the exit status. ``database_url(config, database)``
    resolves the two options to the URL the bot would use (``unobot.main.database_url``: the
    config is read above this layer); it raises ValueError for a bad config."""
    parser = argparse.ArgumentParser(
        prog="unobot tournament", description="Tournaments kept in the stats database."
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    export = commands.add_parser(
        "export",
        help="write a tournament as CSV",
        description="Write a stored tournament as CSV (see unobot.tournament.export).",
    )
    export.add_argument("name", metavar="NAME", help="the tournament's name (any case)")
    export.add_argument("--database", metavar="URL", help="stats store (default: the bot's)")
    export.add_argument("--config", metavar="FILE", help="the bot's TOML settings")
    export.add_argument("-o", "--output", metavar="FILE", help="write here (default: stdout)")
    args = parser.parse_args(argv)
    prog = "unobot tournament export"

    from unobot.stats.sql import _DB_ERRORS, missing_sqlite_file
    from unobot.tournament.store import SqlTournamentLog

    try:
        url = database_url(args.config, args.database)
    except ValueError as err:  # unobot.config.ConfigError
        print(f"{prog}: {err}", file=sys.stderr)
        return 2
    log = SqlTournamentLog.from_url(url)
    missing = missing_sqlite_file(log.db)
    if missing is not None:
        print(
            f"{prog}: no stats database {missing} (--database URL, --config FILE)", file=sys.stderr
        )
        return 2
    try:
        stored = log.load(args.name)
        known = log.names(10) if stored is None else []
    except _DB_ERRORS as err:
        print(f"{prog}: can't read the stats database: {err}", file=sys.stderr)
        return 1
    finally:
        log.close()
    if stored is None:
        hint = f" (recent: {', '.join(known)})" if known else " (none is stored)"
        print(f"{prog}: no tournament called {args.name!r}{hint}", file=sys.stderr)
        return 2
    if args.output is None:
        export_csv(stored, sys.stdout)
        return 0
    try:
        with open(args.output, "w", encoding="utf-8", newline="") as out:
            export_csv(stored, out)
    except OSError as err:
        print(f"{prog}: can't write {args.output}: {err}", file=sys.stderr)
        return 1
    return 0
