"""The bot's side of the live view: what is being played now, written for the web process.

:class:`LiveWriter` follows the tables as the stats recorder does (the bot calls
:meth:`~LiveWriter.observe` with every update it publishes, :meth:`~LiveWriter.said` with
every line it says in a channel, :meth:`~LiveWriter.dropped` when a table goes) and writes
``live_game`` / ``live_line`` (:mod:`unobot.stats.live_rows`) through the bot's database
worker. What it costs the reactor is a dictionary update per move and per line; the database
work is coalesced:

- one flush every ``interval`` seconds at most (0.5 s: at most two transactions a second
  for all the bot's games together), carrying each changed channel's *newest* state, read
  from its table at flush time, and the lines said since the last flush;
- one flush in flight at a time: while the worker is busy (a slow or stalled database) the
  changes wait here, one state per channel and the last :data:`KEEP_LINES` lines, and the
  next flush carries the newest: nothing piles up in the worker's queue;
- a database that fails is the store's to back off from (``SqlStatsStore.live``): the flush
  is dropped, its end marks kept for the next one.

Only public state leaves: the discard pile's top, whose turn, the direction, each player's
card *count*, totals; never a card of a hand (lines said privately, NOTICEs, are never
passed here: the bot passes channel PRIVMSGs only).

On start the bot's own network's rows are cleared (a crash left them), on stop too; every
:data:`HEARTBEAT` seconds its games still being played are touched and anybody's rows
unwritten for :data:`~unobot.stats.live_rows.STALE_SECONDS` aged out, so a dead bot's games
leave ``/live`` without another bot's help (the site also skips stale rows).
"""

from __future__ import annotations

import logging
import re
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from unobot.irc.casemap import irc_lower
from unobot.stats import live_rows
from unobot.stats.live_rows import KEEP_LINES, LiveWrite

if TYPE_CHECKING:
    import peewee as pw

    from unobot.core.table import Table
    from unobot.core.updates import Update

__all__ = ["HEARTBEAT", "INTERVAL", "LiveWriter", "public_state"]

log = logging.getLogger(__name__)

INTERVAL = 0.5
"""Seconds between flushes at most."""
HEARTBEAT = 60.0
"""Seconds between the touches that keep a quiet game listed (and the aging out of stale
rows)."""

_TABLE_NO = re.compile(r"^t(\d+)$")


@dataclass(slots=True)
class _Live:
    table: Table
    started: float
    dirty: bool = True
    fresh: bool = True
    lines: deque[tuple[float, str]] = field(default_factory=lambda: deque(maxlen=KEEP_LINES))
    ended: float | None = None
    seq: int = 0
    """Lines handed to flushes so far (the next line's number is ``seq + 1``)."""


def public_state(table: Table) -> dict[str, Any] | None:
    """What the spectator view shows of ``table`` now: the pile's top, the colour, whose turn,
    the direction, every player's card count (None before the deal). A game that is over shows
    how it ended (the winner's empty hand). Never a hand."""
    game = table.game
    if game is None or not game.discard:
        return None
    status = table.status()
    if status is not None:
        top, color, turn, counts = status.top, status.color, status.current, status.counts
        phase, pending, stack = status.phase.name.lower(), status.pending, status.stack
    else:  # over (or between hands): read what the channel last saw from the game itself
        top, color, turn = game.top, game.color, ""
        counts = tuple(
            (p.nick, game.hand_size(s)) for s, p in enumerate(table.players) if s < game.n
        )
        phase, pending, stack = "over", 0, ""
    tag = table.config.tournament
    tournament, _, game_key = tag.partition("/") if tag else ("", "", "")
    number = _TABLE_NO.match(game_key)
    info: dict[str, Any] = {
        "rules": table.config.rules.name,
        "hand": table.hand_number,
        "phase": phase,
        "pending": pending,
        "stack": stack,
    }
    match = table.match
    if match is not None and (len(match.hands) or table.hand_number > 1):
        info["totals"] = [
            [p.nick, int(t)] for p, t in zip(table.players, match.totals, strict=False)
        ]
    if game_key:
        info["game_key"] = game_key
    return {
        "tournament": tournament or None,
        "table_no": int(number.group(1)) if number else None,
        "players": [{"nick": nick, "cards": cards} for nick, cards in counts],
        "turn": turn,
        "top": top.text,
        "color": str(color),
        "direction": int(game.direction),
        "info": info,
    }


class LiveWriter:
    """Writes the live rows of one bot (one network) off the reactor, coalesced."""

    def __init__(
        self,
        submit: Callable[[Callable[[pw.Database], Any], Callable[[Any], None]], bool],
        scheduler: Any,
        network: str,
        *,
        interval: float = INTERVAL,
        heartbeat: float = HEARTBEAT,
        clock: Callable[[], float] = time.time,
    ) -> None:
        """``submit(job, done)``: run ``job(db)`` on the database worker, then ``done(result)``
        on the reactor (``result`` None when the database was away); False when refused at
        once (``done`` is then never called). ``scheduler``: the reactor's ``call_later``
        and ``now``. ``clock``: epoch seconds for the rows (the site compares them with its
        own clock)."""
        self._submit = submit
        self.scheduler = scheduler
        self.network = network
        self.interval = interval
        self.heartbeat = heartbeat
        self.clock = clock
        self._games: dict[str, _Live] = {}
        self._ends: dict[str, LiveWrite] = {}
        """Ends whose write failed: sent with the next flush."""
        self._busy = False
        self._timer: object | None = None
        self._last = -1e9
        self._beat: object | None = None
        self.flushes = 0
        """Flushes handed to the worker (the benchmark reports them per move)."""
        self.statements = 0
        """Rows those flushes wrote or deleted (per :func:`live_rows.write_batch`)."""
        self.skipped = 0
        """Flush moments passed because the previous flush was still running."""
        self.closed = False

    # --- the bot's side --------------------------------------------------------------------

    def start(self) -> None:
        """Clear this network's rows (a crashed run's) before anything is written, and start
        the heartbeat."""
        network, now = self.network, self.clock()

        def job(db: pw.Database) -> bool:
            live_rows.clear_network(db, network)
            live_rows.age_out(db, now)
            return True

        self._submit(job, lambda result: None)
        if self.heartbeat > 0:
            self._beat = self.scheduler.call_later(self.heartbeat, self._heartbeat)

    def observe(self, table: Table, update: Update) -> None:
        """Every update the bot publishes (before its lines are sent). Never raises."""
        try:
            self._observe(table, update)
        except Exception:
            log.exception("live: could not follow the game in %s", table.channel)

    def _observe(self, table: Table, update: Update) -> None:
        if self.closed:
            return
        key = irc_lower(table.channel)
        live = self._games.get(key)
        if live is None or live.table is not table:
            if table.game is None or table.finished:
                return  # a lobby: nothing to watch yet
            live = self._games[key] = _Live(table, self.clock())
            self._ends.pop(key, None)
        if table.finished or update.finished:
            if live.ended is None:
                live.ended = self.clock()
        else:
            live.dirty = True
        self._arm()

    def said(self, target: str, text: str) -> None:
        """A line the bot said to ``target`` (PRIVMSG): kept when ``target`` is the channel
        of a game being watched."""
        live = self._games.get(irc_lower(target))
        if live is not None and not self.closed:
            live.lines.append((self.clock(), text))
            self._arm()

    def dropped(self, table: Table) -> None:
        """``table`` went away (ended, stopped, or lost): its row is marked ended."""
        live = self._games.get(irc_lower(table.channel))
        if live is not None and live.table is table and live.ended is None:
            live.ended = self.clock()
            self._arm()

    def close(self) -> None:
        """The bot stops: its games leave ``/live`` (a journaled game comes back with the next
        process, which writes it again)."""
        if self.closed:
            return
        self.closed = True
        for handle in (self._timer, self._beat):
            if handle is not None:
                self.scheduler.cancel(handle)
        self._games.clear()
        network = self.network
        self._submit(lambda db: live_rows.clear_network(db, network) or True, lambda r: None)

    # --- flushing --------------------------------------------------------------------------

    def _arm(self) -> None:
        if self._timer is not None or self._busy:
            return  # a flush is due, or the running one's end arms the next
        wait = max(0.0, self._last + self.interval - self.scheduler.now())
        self._timer = self.scheduler.call_later(wait, self._flush)

    def pending(self) -> bool:
        return bool(self._ends) or any(
            g.dirty or g.lines or g.ended is not None for g in self._games.values()
        )

    def _batch(self) -> list[LiveWrite]:
        batch = list(self._ends.values())
        self._ends.clear()
        for key, live in list(self._games.items()):
            if not (live.dirty or live.lines or live.ended is not None):
                continue
            write = LiveWrite(self.network, live.table.channel, started=live.started)
            write.fresh = live.fresh
            if live.dirty or live.ended is not None:
                write.state = public_state(live.table)  # an ended game's: how it ended
            if write.fresh and write.state is None and live.ended is None:
                continue  # nothing to show yet: wait for the first state
            write.lines = list(live.lines)
            if write.lines:
                write.first_seq = live.seq + 1
                live.seq += len(write.lines)
            live.lines.clear()
            live.dirty = live.fresh = False
            if live.ended is not None:
                write.ended = live.ended
                del self._games[key]
            batch.append(write)
        return batch

    def _flush(self) -> None:
        self._timer = None
        if self._busy:
            self.skipped += 1
            return
        try:
            batch = self._batch()
        except Exception:
            log.exception("live: could not read the tables' state")
            return
        if not batch:
            return
        self._busy = True
        self._last = self.scheduler.now()
        self.flushes += 1

        def job(db: pw.Database) -> int:
            return live_rows.write_batch(db, batch, self.clock())

        def done(result: Any) -> None:
            self._busy = False
            if result is None:  # the database was away: keep the ends, drop the rest
                for write in batch:
                    again = self._games.get(irc_lower(write.channel))
                    if write.fresh and again is not None and again.started == write.started:
                        again.fresh = again.dirty = True  # the old game's lines still to go
                    if write.ended is not None:
                        key = irc_lower(write.channel)
                        if key not in self._games:
                            self._ends[key] = LiveWrite(
                                write.network, write.channel, ended=write.ended,
                                started=write.started,
                            )  # fmt: skip
            else:
                self.statements += int(result)
            if not self.closed and self.pending():
                self._arm()

        if not self._submit(job, done):
            self._busy = False

    def _heartbeat(self) -> None:
        self._beat = None
        if self.closed:
            return
        if not self._busy:
            network, now = self.network, self.clock()
            channels = [g.table.channel for g in self._games.values() if g.ended is None]

            def job(db: pw.Database) -> bool:
                live_rows.touch(db, network, channels, now)
                live_rows.age_out(db, now)
                return True

            self._busy = True

            def done(result: Any) -> None:
                self._busy = False
                if not self.closed and self.pending():
                    self._arm()

            if not self._submit(job, done):
                self._busy = False
        self._beat = self.scheduler.call_later(self.heartbeat, self._heartbeat)
