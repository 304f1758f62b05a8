"""The lag probe: a PING, now and then, whose PONG says how long the server holds the bot's lines.

A server that reads the bot's lines late (irc2's penalty, inspircd's fake lag) answers a PING
only once it has read everything before it, so the time from the PING leaving to its PONG is
how far behind the server is. :class:`LagProbe` sends one every ``lag_probe`` seconds while the
bot is sending, tells the outbox's pacer what it measured (the pacer slows the sending down),
and spaces the probes out while the server keeps up (a probe is a line of the budget).

It knows nothing of the ``irc`` library: the adapter forwards the PONGs and says when a probe
left; the probe pushes its PING into the :class:`~unobot.irc.outbox.Outbox` and asks for a drain.
"""

from __future__ import annotations

import itertools
import logging
import time
from collections.abc import Callable

from unobot.irc.outbox import Lane, Outbox
from unobot.irc.transport import Scheduler, Tag

__all__ = ["LAG_TICK", "LagProbe"]

log = logging.getLogger("unobot.irc.adapter")  # the adapter's lines, as operators filter them

LAG_TICK = 2.0
"""Seconds between looks at the lag probe (is one due, is the one under way late)."""

_PROBE = Tag("", reply=True, urgent=True, person="$lag")
"""A lag probe waits for a reply's turn in the flow of private lines, and never expires."""


class LagProbe:
    """Probes the server's lag on one connection and paces the outbox by it.

    The adapter calls :meth:`start` once, :meth:`reset` on every new connection, :meth:`left`
    when a PING line goes out, and :meth:`pong` with every PONG's arguments. ``every`` is the
    configured ``lag_probe`` (0: never probe); ``connected`` and ``sent_lines`` read the
    adapter's state; ``drain`` asks it to send what the outbox allows.
    """

    def __init__(
        self,
        every: float,
        outbox: Outbox,
        timers: Scheduler,
        *,
        connected: Callable[[], bool],
        sent_lines: Callable[[], int],
        drain: Callable[[], None],
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.base = every
        self._outbox = outbox
        self._timers = timers
        self._connected = connected
        self._sent_lines = sent_lines
        self._drain = drain
        self._clock = clock
        self.probe: tuple[str, float | None] | None = None
        """The probe under way: (token, when it left; None while it waits in the queue)."""
        self.late = False
        """The probe under way has been out so long that it counted as lag already."""
        self._tokens = itertools.count(1)
        self._mark = 0
        """``sent_lines`` when the last probe came back: probe again only after sending."""
        self.done = clock()
        """When the last probe came back (or the probe was made)."""
        self.every = every
        """Seconds between probes now: ``lag_probe`` while the server lags, doubling (to 8x)
        while every probe comes back at once: a probe costs a line (2 s of ircu's budget)."""

    def start(self) -> None:
        """Arm the periodic look (none when probing is off)."""
        if self.base > 0:
            self._timers.call_later(LAG_TICK, self.tick)

    def reset(self) -> None:
        """A new connection: a probe sent on the last one will never come back."""
        self.probe = None
        self.late = False

    def left(self, token: str) -> None:
        """A PING with ``token`` was written to the socket: the probe's clock starts now."""
        if self.probe is not None and self.probe[0] == token:
            self.probe = (token, self._clock())

    def tick(self) -> None:
        """Every 2 s: send a probe when the bot has been sending, none is under way and the
        last came back ``every`` seconds ago; a probe that has not come back for long counts
        as lag already (the server is holding it)."""
        try:
            now = self._clock()
            probe = self.probe
            if not self._connected() or now - self.done < self.every:
                return
            if probe is not None:
                left = probe[1]
                late = left is not None and now - left > 3 * self._outbox.pacer.LAG_HIGH
                if late and left is not None and not self.late:
                    self.late = True
                    self.lagged(now - left, now)
                return
            busy = len(self._outbox) > 0 or self._sent_lines() - self._mark >= 8
            if busy and not self._outbox.unlimited:
                token = f"unobot-lag-{next(self._tokens)}"
                self.probe = (token, None)
                # In a reply's turn, not ahead of everything: the games keep their share of
                # the budget (the probe is timed from when it leaves, so its wait here does
                # not count as the server's).
                self._outbox.push("PING", token, "", Lane.PRIVATE, tag=_PROBE, now=now)
                self._drain()
        finally:
            self._timers.call_later(LAG_TICK, self.tick)

    def pong(self, args: list[str]) -> None:
        """A PONG with these arguments: the probe's answer when it carries its token."""
        probe = self.probe
        if probe is None or probe[1] is None or probe[0] not in args:
            return
        now = self._clock()
        self.probe = None
        self._mark = self._sent_lines()
        self.done = now
        lag = now - probe[1]
        if not self.late:
            self.lagged(lag, now)
        self.late = False

    def lagged(self, lag: float, now: float) -> None:
        """The server held a line ``lag`` seconds: pace by it, and space the probes."""
        pacer = self._outbox.pacer
        was = pacer.factor
        base = self.base
        prompt = lag < pacer.LAG_LOW
        self.every = min(8 * base, 2 * self.every) if prompt else base
        if pacer.lag(lag):
            self._outbox.pause(now, lag)
            log.info(
                "the server holds the bot's lines back (lag %.1f s): sending %.1fx slower",
                lag,
                pacer.factor,
            )
        elif was > 1.0 and pacer.factor == 1.0:
            log.info("the server keeps up again (lag %.1f s): sending at its full rate", lag)
