"""Games whose channel the bot is out of: their clocks stopped, and until when they wait.

When the bot loses its connection (``disconnect``) or is kicked (``kick``), or a restarted
bot restores a game before it is back in the channel (``restart``), or a tournament pauses a
table (``pause``), that table is *held*: its own timers stop (nobody is timed out while the
channel can't hear the bot), and one timer, ``offline``, says when the game is dropped unless
the bot is back in the channel by then. A hold counts from a kick, a reconnect or a restore;
a lost connection or a pause waits without a limit until then.

:class:`Holds` keeps those records and their changes; what a hold's end or the bot's return
does to a game (the line to the channel, the hands sent again, the table dropped) is the
bot's. It is given the moments and graces it needs and knows no table, so it is tested alone.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

__all__ = ["Hold", "Holds"]


@dataclasses.dataclass(slots=True)
class Hold:
    """A game whose channel the bot is not in (kicked, or its connection lost)."""

    since: float
    why: str
    """``kick``, ``disconnect``, ``restart`` (a game restored from the journal) or ``pause``
    (a tournament's)."""
    until: float | None
    """When the game is dropped unless the bot is back in the channel; None while the bot is
    not connected at all (the clock starts on the reconnect), or while paused."""


class Holds:
    """The held games by table key (the folded channel name)."""

    def __init__(self) -> None:
        self._held: dict[str, Hold] = {}

    def __contains__(self, key: object) -> bool:
        return key in self._held

    def __len__(self) -> int:
        return len(self._held)

    def __iter__(self) -> Iterator[str]:
        return iter(self._held)

    def get(self, key: str) -> Hold | None:
        return self._held.get(key)

    def deadlines(self, key: str) -> dict[str, float] | None:
        """The timers a held game wants instead of its own: none, or the hold's end
        (``offline``); None when the game is not held (its own deadlines hold)."""
        hold = self._held.get(key)
        if hold is None:
            return None
        return {} if hold.until is None else {"offline": hold.until}

    def hold(self, key: str, now: float, why: str, until: float | None = None) -> bool:
        """Hold the game of ``key`` from ``now`` unless it is held already (a kicked game
        keeps its own hold through a lost connection). Whether it is newly held."""
        if key in self._held:
            return False
        self._held[key] = Hold(now, why, until)
        return True

    def kicked(self, key: str, now: float, grace: float) -> None:
        """The bot was kicked: the game waits ``grace`` from ``now`` (held already, say
        since a lost connection, it keeps the moment its clocks stopped)."""
        hold = self._held.get(key)
        if hold is None:
            self._held[key] = Hold(now, "kick", now + grace)
        else:
            hold.why, hold.until = "kick", now + grace

    def waiting(self) -> list[str]:
        """The held games whose hold has no end yet (a lost connection's, a pause's)."""
        return [key for key, hold in self._held.items() if hold.until is None]

    def count_from(self, key: str, until: float) -> None:
        """The hold of ``key`` ends at ``until`` (the bot is connected again)."""
        self._held[key].until = until

    def paused(self, key: str) -> bool:
        """Whether ``key`` is held by a pause alone (a pause does not end a network hold)."""
        hold = self._held.get(key)
        return hold is not None and hold.until is None and hold.why == "pause"

    def expired(self, key: str, now: float) -> bool:
        """Whether the hold of ``key`` has ended at ``now`` (the bot did not get back in)."""
        hold = self._held.get(key)
        return hold is not None and hold.until is not None and hold.until <= now

    def end(self, key: str) -> Hold | None:
        """The game of ``key`` is no longer held (the bot is back, or the table went): its
        hold as it was, or None when it was not held."""
        return self._held.pop(key, None)
