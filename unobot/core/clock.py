"""A clock that moves only when told: the scheduler tests, benchmarks and replays give the bot.

The bot asks its scheduler for ``now()``, ``call_later(delay, callback)`` and ``cancel(handle)``
(the IRC adapter answers from the reactor). :class:`ManualClock` answers the same three and runs
the timers that come due, in order, when :meth:`ManualClock.advance` moves time on, so a test,
the soak benchmark and a replay play hours of timers in no time and the same way every run. One
clock for the three, in the core so that none of them imports another's stack.
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Callable

__all__ = ["ManualClock"]


class ManualClock:
    """Time that moves only by :meth:`advance`; timers run in the order they fall due (ties:
    the order they were armed). A heap, as the bot re-arms a timer on nearly every move."""

    def __init__(self, start: float = 1000.0) -> None:
        self.time = start
        self._heap: list[tuple[float, int]] = []
        self._timers: dict[int, Callable[[], None]] = {}
        self._ids = itertools.count(1)

    def now(self) -> float:
        return self.time

    def call_later(self, delay: float, callback: Callable[[], None]) -> object:
        ident = next(self._ids)
        self._timers[ident] = callback
        heapq.heappush(self._heap, (self.time + max(0.0, delay), ident))
        return ident

    def cancel(self, handle: object) -> None:
        self._timers.pop(handle, None)  # type: ignore[call-overload]

    def kill(self) -> None:
        """Forget every timer (a process that dies)."""
        self._timers.clear()
        self._heap.clear()

    @property
    def pending(self) -> int:
        """Timers armed and not yet run or cancelled."""
        return len(self._timers)

    def advance(self, seconds: float, limit: int | None = None) -> bool:
        """Run the timers due within ``seconds``, earliest first, then stand at the end.
        False: ``limit`` timers ran and more were due (a timer that re-arms itself at once
        would otherwise run for ever); the rest stay armed."""
        target = self.time + seconds
        ran = 0
        heap = self._heap
        while heap and heap[0][0] <= target:
            if heap[0][1] not in self._timers:  # cancelled
                heapq.heappop(heap)
                continue
            if limit is not None and ran >= limit:
                self.time = target
                return False
            when, ident = heapq.heappop(heap)
            callback = self._timers.pop(ident)
            self.time = max(self.time, when)
            callback()
            ran += 1
        self.time = target
        return True
