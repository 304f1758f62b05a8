"""The director's durability: every entry of a tournament's log written to the stats database.

Writes go through the database worker (``submit``), so a stalled database delays the record,
never a game; a batch the database refused is queued again and written ``RETRY`` seconds later.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from unobot.irc.transport import Scheduler
from unobot.tournament.state import Entry, Tournament
from unobot.tournament.store import Entry as StoredEntry
from unobot.tournament.store import TournamentLog

__all__ = ["RETRY", "LogWriter"]

log = logging.getLogger(__name__)

RETRY = 30.0
"""Seconds before entries the database refused are written again."""


class LogWriter:
    """Queues each applied entry for ``store`` and writes it off the reactor.

    ``store``: where entries are kept (None: only in memory, lost at a restart); ``submit``:
    how a database job is run off the reactor (``DbWorker.submit``; None: inline); ``kept``:
    whether a tournament (by name) is still run, so its refused entries are worth retrying;
    ``lost``: told ``(name, reason)`` when the database would not create a tournament.
    """

    def __init__(
        self,
        scheduler: Scheduler,
        store: TournamentLog | None,
        submit: Callable[..., Any] | None,
        kept: Callable[[str], bool],
        lost: Callable[[str, str], None],
    ) -> None:
        self.scheduler = scheduler
        self.store = store
        self.submit = submit
        self._kept = kept
        self._lost = lost
        self._unsent: list[tuple[str, StoredEntry]] = []
        self._retry: object | None = None

    def write(self, tournament: Tournament, entry: Entry, *, create: bool = False) -> None:
        """Queue ``entry`` (just applied: the last of the tournament's log) for the database;
        a result also writes its lines of the seeds' score sheet."""
        if self.store is None:
            return
        name = tournament.name
        seq = len(tournament.log) - 1
        self._unsent.append((name, StoredEntry(seq, entry.kind, entry.data, entry.at)))
        if create:
            fmt, channel, store = tournament.format_name, tournament.channel, self.store
            self.run(lambda: store.create(name, fmt, channel, entry.at), self._not_created(name))
        if entry.kind == "result":
            count = sum(len(hand["players"]) for hand in entry.data["hands"])
            rows = tournament.sheet.lines[len(tournament.sheet.lines) - count :]
            store = self.store
            if rows:
                self.run(lambda: store.add_sheet(name, rows))
        self._flush()

    def _not_created(self, name: str) -> Callable[[str], None]:
        def failed(reason: str) -> None:
            # Another bot on the same database took the name first: this one is dropped.
            log.error("tournament %s not created in the database: %s", name, reason)
            self._unsent = [(n, e) for n, e in self._unsent if n != name]
            self._lost(name, reason)

        return failed

    def _flush(self) -> None:
        if not self._unsent or self.store is None:
            return
        batch, self._unsent = self._unsent, []
        store = self.store

        def job() -> None:
            for name, entry in batch:
                store.append(name, entry)

        def failed(reason: str) -> None:
            log.warning(
                "tournament log: %d entries not written yet (%s); retrying", len(batch), reason
            )
            self._unsent[:0] = [(n, e) for n, e in batch if self._kept(n)]
            if self._retry is None:
                self._retry = self.scheduler.call_later(RETRY, self._retried)

        self.run(job, failed)

    def _retried(self) -> None:
        self._retry = None
        self._flush()

    def run(self, job: Callable[[], Any], failed: Callable[[str], None] | None = None) -> None:
        """``job`` on the database worker (inline without one); ``failed`` is told why."""
        if self.submit is None:
            try:
                job()
            except Exception as err:
                log.exception("tournament log write failed")
                if failed is not None:
                    failed(str(err))
            return
        # An answer, even an empty one: DbWorker only marks a job done by delivering one, so
        # a job with no answer but a ``failed`` was always reported as timed out.
        self.submit(job, lambda _done: None, failed, wait=failed is not None)
