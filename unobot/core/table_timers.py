"""The scheduler's timers for the bot's tables: one handle per deadline a table wants.

Tables say when they need waking (``Table.deadlines``, by name: ``turn``, ``warn``,
``away:<key>``…); :class:`TableTimers` keeps one scheduler handle per table and name, armed
lazily after every change, and calls ``fire(key, name)`` when one is due. What a timer does
is the owner's (the bot: ``Table.on_timer``, or the end of a hold); this part only arms,
re-arms and cancels. It knows the scheduler and that callback, nothing else, so it is tested
alone on the fake clock. (``unobot.core.timers.TurnClock`` is the other side: *when* a
table's deadlines are.)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from unobot.irc.transport import Scheduler

__all__ = ["TIMER_RETRY", "TableTimers"]

TIMER_RETRY = 60.0
"""Seconds before a table timer that failed (a bug, logged) is tried again, rather than at once."""


class TableTimers:
    """Armed timers by table key; ``fire(key, name)`` is called when one is due."""

    def __init__(self, scheduler: Scheduler, fire: Callable[[str, str], None]) -> None:
        self.scheduler = scheduler
        self._fire = fire
        self._armed: dict[str, dict[str, tuple[float, object]]] = {}
        """Per table key: timer name -> (due time, scheduler handle)."""

    def arm(self, key: str, wanted: Mapping[str, float]) -> None:
        """Arm a scheduler timer for each of the ``wanted`` deadlines (name -> due), lazily.

        A timer armed for a moment earlier than the one now wanted is kept: it fires early,
        :meth:`Table.on_timer` ignores a deadline that has not come, and the publish that follows
        arms it again for the new moment. Why: the turn deadline moves later on every move;
        cancelling and re-arming the reactor's timer each time was ~8% of a command's cost in the
        irc benchmark, while this re-arms once per timeout period. Timers wanted sooner than
        armed, or no longer wanted, are cancelled at once.
        """
        timers = self._armed.setdefault(key, {})
        scheduler = self.scheduler
        for name, (due, handle) in list(timers.items()):
            want = wanted.get(name)
            if want is None or want < due:
                scheduler.cancel(handle)
                del timers[name]
        now = scheduler.now()
        fire = self._fire
        for name, due in wanted.items():
            if name not in timers:
                handle = scheduler.call_later(max(0.0, due - now), lambda k=key, n=name: fire(k, n))
                timers[name] = (due, handle)

    def fired(self, key: str, name: str) -> None:
        """The timer ``name`` of ``key`` has fired: its handle is spent (said first by the
        callback, so that what it does may arm it again)."""
        self._armed.get(key, {}).pop(name, None)

    def retry_later(self, key: str, name: str) -> None:
        """A timer that failed is still due: re-armed as it was, it would fire again at once,
        and again, for ever (the bot would do nothing else). It is tried again only in
        :data:`TIMER_RETRY` seconds; kept under its old moment, so that a deadline moved later
        meanwhile does not re-arm it sooner."""
        timers = self._armed.get(key, {})
        armed = timers.get(name)
        now = self.scheduler.now()
        if armed is None or armed[0] > now:
            return
        self.scheduler.cancel(armed[1])
        fire = self._fire
        handle = self.scheduler.call_later(TIMER_RETRY, lambda k=key, n=name: fire(k, n))
        timers[name] = (armed[0], handle)

    def armed(self, key: str) -> dict[str, float]:
        """The timers armed for ``key``: name -> the moment each was armed for."""
        return {name: due for name, (due, _handle) in self._armed.get(key, {}).items()}

    def cancel(self, key: str) -> None:
        """Cancel every timer of ``key`` (its table is dropped)."""
        for _due, handle in self._armed.pop(key, {}).values():
            self.scheduler.cancel(handle)

    def stop(self) -> None:
        """Cancel every timer of every table (the farewell: nothing is timed any more)."""
        for timers in self._armed.values():
            for _due, handle in timers.values():
                self.scheduler.cancel(handle)
        self._armed.clear()
