"""One thread for every database call, so that no database can block the bot's reactor.

A stalled PostgreSQL (SIGSTOPped, or a network dropping packets) blocks whatever thread talks
to it, for as long as it stalls: no client-side timeout exists for a query already sent. So the
reactor never talks to a database. It hands jobs to a :class:`DbWorker` and gets their results
back on its own thread (``call_soon_threadsafe``), and a caller that waits for an answer (a
``.unostats``) gives up after ``timeout`` seconds on a reactor timer and says so, while the
worker stays stuck until the database wakes. The queue is bounded: a full queue refuses at
once instead of growing without end. Writes that must not be lost (finished games) go to the
local spool before they are handed over, so a stuck or killed worker loses nothing.

Without a thread-safe scheduler (unit tests on a manual clock, the terminal game's own loop is
thread-safe and uses threads) the worker runs each job inline, at once: the same results, in
the same order, with no thread.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable
from functools import partial
from typing import Any, Protocol, TypeVar

__all__ = ["DbWorker", "WorkerScheduler"]

log = logging.getLogger(__name__)

T = TypeVar("T")


class WorkerScheduler(Protocol):
    """The reactor's side: a timer, and (for a threaded worker) a door in from other threads."""

    def now(self) -> float: ...

    def call_later(self, delay: float, callback: Callable[[], None]) -> object: ...


_STOP = object()


class DbWorker:
    """Runs database jobs one at a time, in order, off the reactor thread."""

    def __init__(
        self,
        scheduler: WorkerScheduler,
        *,
        name: str = "db",
        timeout: float = 5.0,
        maxsize: int = 1000,
        threaded: bool | None = None,
    ) -> None:
        """``timeout``: seconds a caller waits for an answer before it is told the database
        is unavailable (the job itself still runs when it can). ``threaded``: default, when
        the scheduler has ``call_soon_threadsafe``."""
        self.scheduler = scheduler
        self.name = name
        self.timeout = timeout
        wake = getattr(scheduler, "call_soon_threadsafe", None)
        self.threaded = callable(wake) if threaded is None else threaded
        self._wake: Callable[[Callable[[], None]], None] | None = wake if self.threaded else None
        self._queue: queue.Queue[Any] = queue.Queue(maxsize=maxsize)
        self._busy_since: float | None = None
        """Monotonic time the running job started (None: idle)."""
        self._thread: threading.Thread | None = None
        if self.threaded:
            self._thread = threading.Thread(target=self._loop, name=f"unobot-{name}", daemon=True)
            self._thread.start()

    # --- the reactor's side --------------------------------------------------------------

    @property
    def stalled(self) -> bool:
        """A job has run for longer than ``timeout``: the database is not answering."""
        since = self._busy_since
        return since is not None and time.monotonic() - since > self.timeout

    @property
    def backlog(self) -> int:
        return self._queue.qsize()

    def submit(
        self,
        job: Callable[[], T],
        answer: Callable[[T], None] | None = None,
        failed: Callable[[str], None] | None = None,
        *,
        wait: bool = True,
    ) -> bool:
        """Run ``job`` on the worker; then ``answer(result)`` on the reactor thread, or
        ``failed(reason)`` if it raised, the queue is full, or (``wait``) no result came within
        ``timeout`` seconds (a late result is then dropped). Returns False when refused at once.
        A job that raises is logged here when nobody listens for its failure."""
        if not self.threaded:
            self._run_inline(job, answer, failed)
            return True
        if wait and self.stalled:
            if failed is not None:
                failed("the database is not answering")
            return False
        done = threading.Event() if failed is not None and wait else None
        try:
            self._queue.put_nowait((job, answer, failed, done))
        except queue.Full:
            log.warning("%s worker: %d jobs waiting; refused one", self.name, self._queue.qsize())
            if failed is not None:
                failed("too many database requests are waiting")
            return False
        if done is not None and failed is not None:
            self.scheduler.call_later(self.timeout, lambda: self._expire(done, failed))
        return True

    def _expire(self, done: threading.Event, failed: Callable[[str], None]) -> None:
        if not done.is_set():
            done.set()  # the answer, if it comes, is dropped
            failed("the database did not answer in time")

    def _run_inline(
        self, job: Callable[[], T], answer: Callable[[T], None] | None, failed: Any
    ) -> None:
        try:
            result = job()
        except Exception as err:
            self._report(err, failed)
            return
        if answer is not None:
            answer(result)

    def _report(self, err: Exception, failed: Callable[[str], None] | None) -> None:
        if failed is None:
            log.error("%s worker: a job failed: %s", self.name, err)
        else:
            log.warning("%s worker: %s", self.name, err)
            failed(str(err) or type(err).__name__)

    def close(self, wait: float = 2.0) -> bool:
        """Stop after the jobs already queued, waiting at most ``wait`` seconds; True if the
        queue was finished. A worker stuck on a stalled database is left behind (daemon)."""
        if self._thread is None:
            return True
        deadline = time.monotonic() + wait
        while True:
            try:
                self._queue.put(_STOP, timeout=max(0.01, deadline - time.monotonic()))
                break
            except queue.Full:
                if time.monotonic() >= deadline:
                    return False
        self._thread.join(max(0.0, deadline - time.monotonic()))
        return not self._thread.is_alive()

    # --- the worker's side ---------------------------------------------------------------

    def _loop(self) -> None:
        while True:
            item = self._queue.get()
            if item is _STOP:
                return
            job, answer, failed, done = item
            self._busy_since = time.monotonic()
            try:
                result = job()
            except Exception as err:
                self._deliver(done, partial(self._report, err, failed))
            else:
                if answer is not None:
                    self._deliver(done, partial(answer, result))
                elif done is not None:
                    done.set()  # no answer wanted: done, so the wait does not report a timeout
            finally:
                self._busy_since = None

    def _deliver(self, done: threading.Event | None, call: Callable[[], None]) -> None:
        def on_reactor() -> None:
            if done is not None:
                if done.is_set():
                    return  # too late: the caller was already told
                done.set()
            call()

        assert self._wake is not None
        try:
            self._wake(on_reactor)
        except Exception:  # the reactor is gone (shutting down)
            log.debug("%s worker: result after the reactor stopped", self.name)
