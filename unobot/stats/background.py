"""The stats store as the bot uses it: every database call on the worker, never the reactor.

:class:`BackgroundStats` wraps a :class:`~unobot.stats.model.StatsStore`. A finished game is
first appended to the store's local spool (a local file, fsync'd: nothing lost if the bot is
killed or the database stalls), then the worker writes the spool to the database. Queries go
through :func:`ask`: the answer comes back on the reactor thread, or "unavailable" after the
worker's timeout. For a plain store (unit tests, memory) :func:`ask` runs the query inline, so
plugins are written once for both.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, TypeVar

from unobot.stats.model import GameRecord, StatsStore
from unobot.stats.records import normalized
from unobot.stats.worker import DbWorker

__all__ = ["BackgroundStats", "ask"]

log = logging.getLogger(__name__)

T = TypeVar("T")


class BackgroundStats:
    """A stats store whose database is reached only from a :class:`DbWorker`."""

    def __init__(self, store: StatsStore, worker: DbWorker) -> None:
        self.store = store
        self.worker = worker

    def record_game(self, game: GameRecord) -> bool:
        """Queue ``game`` durably now (the spool), write it to the database on the worker.
        False when it is not durable yet: the spool refused it (a read-only or full disk),
        and the worker will try the database, else keep it in memory; the caller keeps a
        copy of its own until the next start (the bot keeps the game's journal)."""
        spool = getattr(self.store, "spool", None)
        if spool is None or not self.worker.threaded:
            saved: list[bool | None] = [False]

            def answer(result: bool | None) -> None:
                saved[0] = result is not False

            # Inline (no thread): the answer comes before submit returns.
            self.worker.submit(lambda: self.store.record_game(game), answer, wait=False)
            return bool(saved[0]) if not self.worker.threaded else True
        try:
            spool.append(normalized(game))
        except OSError as err:  # the local disk refuses: the store keeps it in memory
            log.error(
                "stats: can't queue game %s in %s (%s); the database is tried next",
                game.game_id, spool.path, err,
            )  # fmt: skip
            self.worker.submit(lambda: self.store.record_game(game), wait=False)
            return False
        self.worker.submit(self.store.flush_pending, wait=False)  # type: ignore[attr-defined]
        return True

    def ask(
        self,
        job: Callable[[StatsStore], T],
        answer: Callable[[T], None],
        failed: Callable[[str], None],
    ) -> None:
        """``job(store)`` on the worker; ``answer`` or ``failed`` on the reactor thread."""
        self.worker.submit(lambda: job(self.store), answer, failed)

    def live_submit(self) -> Callable[[Callable[[Any], Any], Callable[[Any], None]], bool] | None:
        """How a :class:`~unobot.stats.live.LiveWriter` runs its jobs: on this worker, against
        the store's connection (``SqlStatsStore.live``), never waiting; None when the store
        has no database (memory)."""
        run = getattr(self.store, "live", None)
        if run is None:
            return None

        def submit(job: Callable[[Any], Any], done: Callable[[Any], None]) -> bool:
            return self.worker.submit(lambda: run(job), done, lambda why: done(None), wait=False)

        return submit

    def maintain(self) -> None:
        """Upkeep (queued games, the leaderboard summary), on the worker; never waits."""
        upkeep = getattr(self.store, "maintain", None)
        if upkeep is not None and self.worker.backlog == 0:
            self.worker.submit(upkeep, wait=False)

    @property
    def pending(self) -> int:
        """Games waiting in the local queue (read from the spool file: no database)."""
        return int(getattr(self.store, "pending", 0))

    def close(self, wait: float = 2.0) -> None:
        """Write what can be written within ``wait`` seconds, then close (what is left stays
        in the spool for the next start)."""
        self.worker.submit(self.store.close, wait=False)
        if not self.worker.close(wait):
            log.warning("stats: the database did not answer at shutdown; queued games kept")


def ask(
    store: Any,
    job: Callable[[StatsStore], T],
    answer: Callable[[T], None],
    failed: Callable[[str], None],
) -> None:
    """Run a query against ``store`` without blocking the reactor: on its worker for a
    :class:`BackgroundStats`, inline for a plain store. Exactly one of ``answer(result)`` or
    ``failed(reason)`` is called; a query that raises is logged."""
    if isinstance(store, BackgroundStats):
        store.ask(job, answer, failed)
        return
    try:
        result = job(store)
    except Exception as err:
        log.exception("stats: query failed")
        failed(str(err) or type(err).__name__)
        return
    answer(result)
