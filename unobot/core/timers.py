"""A table's clocks: the turn's timer and its warning, a timed match's end and its warning,
and the last change (for the idle stop).

A table reads no clock: it is told ``now`` with every call. :class:`TurnClock` keeps the
moments those calls set and says when each timer is due (:meth:`TurnClock.deadlines`); the
table asks for them in :meth:`~unobot.core.table.Table.deadlines` and, when the bot calls it
back, does what the timer does (a warning, a timeout, the end of a timed match), since that
changes the game. Seats held for players who left are :mod:`unobot.core.presence`'s.
"""

from __future__ import annotations

__all__ = ["TurnClock"]


class TurnClock:
    """The timing of one table, as plain values; the table's config gives the lengths."""

    def __init__(
        self, now: float, *, turn_timeout: float, turn_warning: float, time_warning: float
    ) -> None:
        """``turn_warning``: seconds before the timeout at which the player to move is warned
        (0: never); ``time_warning``: seconds before a timed match's end at which the channel
        is (0: a fifth of the time, at most 5 minutes)."""
        self.turn_timeout = turn_timeout
        self.turn_warning = turn_warning
        self._time_warning = time_warning
        self.turn_started = now
        self.warned = False
        """The player to move has been warned of the timeout."""
        self.seat = -1
        """Whose turn the timer runs for (-1: none yet)."""
        self.time_limit = 0.0
        """Seconds from the deal to the match's end by time (0: untimed)."""
        self.dealt_at = now
        self.time_warned = False
        self.last_activity = now
        """The last change at the table (a join, a move…): ``.unostop`` by anyone after the
        idle time."""

    def touch(self, now: float) -> None:
        """Something changed at the table at ``now``."""
        self.last_activity = now

    def idle_for(self, now: float) -> float:
        return now - self.last_activity

    def new_turn(self, now: float, seat: int) -> None:
        """The turn of ``seat`` starts at ``now``: a whole turn, not warned yet."""
        self.turn_started = now
        self.warned = False
        self.seat = seat

    def start(self, now: float, time_limit: float) -> None:
        """The match is dealt at ``now``; ``time_limit`` seconds (0: untimed)."""
        self.time_limit = time_limit
        self.dealt_at = now

    # --- when -------------------------------------------------------------------------------

    def turn_deadlines(self, out: dict[str, float]) -> None:
        """Add the turn's timers to ``out``: ``warn`` (unless warned, or no warning), ``turn``."""
        timeout = self.turn_started + self.turn_timeout
        if 0 < self.turn_warning < self.turn_timeout and not self.warned:
            out["warn"] = timeout - self.turn_warning
        out["turn"] = timeout

    def match_deadlines(self, out: dict[str, float]) -> None:
        """Add a timed match's timers to ``out``: ``time-warn`` (unless warned), ``time``."""
        if not self.time_limit:
            return
        end = self.dealt_at + self.time_limit
        if not self.time_warned:
            out["time-warn"] = end - self.time_warning()
        out["time"] = end

    def time_warning(self) -> float:
        """How long before the end of a timed match the channel is warned: 5 minutes of an
        hour, a fifth of a short game."""
        if self._time_warning > 0:
            return min(self._time_warning, self.time_limit)
        return min(300.0, self.time_limit / 5)

    # --- what is due --------------------------------------------------------------------------

    def warn_turn(self, now: float) -> int:
        """The ``warn`` timer: the player to move is warned; the whole seconds left."""
        self.warned = True
        return int(self.turn_started + self.turn_timeout - now + 0.5)

    def warn_time(self) -> int:
        """The ``time-warn`` timer: the channel is warned; the whole seconds left."""
        self.time_warned = True
        return int(self.time_warning() + 0.5)

    def last_hand(self, warning_ends_round: bool) -> bool:
        """Is the hand in play the last one: the time warned, under ``warning_ends_round``?"""
        return bool(self.time_limit) and self.time_warned and warning_ends_round

    def catch_up(self, since: float, now: float, dealt: bool) -> None:
        """Nobody could play between ``since`` and ``now``: the player to move gets a whole
        turn again, a timed match and the idle time move on by the time lost."""
        lost = max(0.0, now - since)
        if dealt:
            self.turn_started = now
            self.warned = False
            self.dealt_at += lost
        self.last_activity += lost
