"""The channels the bot is to be in: joined after every welcome, rejoined after a kick, and
the server's refusals said once and never retried in a loop.

:class:`ChannelJoins` remembers every channel to be in with its key (configured, or joined
later by the core), rejoins a channel ``rejoin_delay`` seconds after a kick (once), logs a
refused JOIN at WARNING without retrying it (a retry loop against a ban would only flood; the
next reconnect tries once more), and joins a channel refused for too many channels (405) as
soon as the bot leaves another. It knows nothing of the ``irc`` library: the adapter forwards
the events' arguments, and it pushes its JOINs into the
:class:`~unobot.irc.outbox.Outbox` and asks for a drain.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping

from unobot.irc.casemap import irc_lower
from unobot.irc.outbox import Outbox
from unobot.irc.transport import Scheduler

__all__ = ["REFUSALS", "ChannelJoins"]

log = logging.getLogger("unobot.irc.adapter")  # the adapter's lines, as operators filter them

REFUSALS = {
    "channelisfull": "the channel is full (+l)",
    "inviteonlychan": "the channel is invite-only (+i)",
    "bannedfromchan": "the bot is banned (+b)",
    "badchannelkey": "wrong channel key (+k)",
    "nochanmodes": "refused (477: often a registered nick is needed)",
    "toomanychannels": "the bot is in as many channels as the server allows (405); "
    "it joins when it leaves another",
}
"""Why the server would not let the bot in, by the library's event type (471, 473, 474, 475,
477, 405)."""


class ChannelJoins:
    """The channels to be in, with their keys, and what the server said about joining them.

    ``channels`` is the configured channel -> key; ``connected`` and ``joined`` (the channels
    the bot is in now) read the adapter's state; ``drain`` asks it to send.
    """

    def __init__(
        self,
        channels: Mapping[str, str],
        rejoin_delay: float,
        outbox: Outbox,
        timers: Scheduler,
        *,
        connected: Callable[[], bool],
        joined: Callable[[], list[str]],
        drain: Callable[[], None],
    ) -> None:
        self.rejoin_delay = rejoin_delay
        self._outbox = outbox
        self._timers = timers
        self._connected = connected
        self._joined = joined
        self._drain = drain
        self.keys: dict[str, tuple[str, str]] = {
            irc_lower(channel): (channel, key or "") for channel, key in channels.items()
        }
        """Folded name -> (channel, key) of every channel to be in: rejoined after a reconnect."""
        self.waiting_slot: set[str] = set()
        """Channels refused with 405 (too many channels): joined when the bot leaves one."""
        self._told_max = False

    def join(self, channel: str, key: str = "") -> None:
        """Join ``channel`` now (queued); it is rejoined after reconnects and kicks too."""
        self.keys[irc_lower(channel)] = (channel, key)
        self._outbox.push("JOIN", channel, key)
        self._drain()

    def join_all(self) -> None:
        """The welcome (once the services check allows): every channel, in few lines."""
        self._outbox.push_joins(self.keys.values())

    def server_limit(self, limit: int | None) -> None:
        """005 said how many channels a client may be in: say once when fewer than wanted."""
        wanted = [name for name, _ in self.keys.values()]
        if limit is not None and len(wanted) > limit and not self._told_max:
            self._told_max = True
            log.warning(
                "the server lets a client be in %d channels; %d are configured: %s will not "
                "be joined (use irc.connections for more, or fewer channels)",
                limit,
                len(wanted),
                ", ".join(wanted[limit:]),
            )

    def kicked(self, channel: str, by: str, reason: str) -> None:
        """The bot was kicked from ``channel``: join it again after ``rejoin_delay``, once."""
        delay = self.rejoin_delay
        if delay < 0:
            log.warning("kicked from %s by %s (%s); not rejoining", channel, by, reason)
            return
        log.warning("kicked from %s by %s (%s); rejoining in %.1f s", channel, by, reason, delay)
        self.keys.setdefault(irc_lower(channel), (channel, ""))
        self._timers.call_later(delay, lambda: self.rejoin(channel))

    def later(self, channel: str, text: str, wait: float) -> None:
        """439/707 for a JOIN: the server says when; try once more a second after that."""
        log.warning("can't join %s yet: %s; trying again in %.0f s", channel, text, wait)
        self._timers.call_later(wait + 1.0, lambda: self.rejoin(channel))

    def rejoin(self, channel: str) -> None:
        """JOIN ``channel`` again, unless disconnected or back in already."""
        if not self._connected():
            return  # the welcome joins every channel anyway
        if irc_lower(channel) in (irc_lower(c) for c in self._joined()):
            return  # back in already (an operator's INVITE, a manual JOIN)
        _, key = self.keys.get(irc_lower(channel), (channel, ""))
        log.info("rejoining %s", channel)
        self._outbox.push("JOIN", channel, key)
        self._drain()

    def refused(self, kind: str, args: list[str]) -> None:
        """471/473/474/475/477/405 (``kind``: the library's event type): the server would not
        let us in. Logged, never retried here: a retry loop against a ban would only flood;
        the next reconnect tries once more (a 405 is tried when a slot is free)."""
        channel = args[0] if args else "?"
        why = REFUSALS.get(kind, kind)
        text = args[1] if len(args) > 1 else ""
        log.warning("can't join %s: %s (%s)", channel, why, text)
        if kind == "toomanychannels":
            self.waiting_slot.add(irc_lower(channel))

    def left(self) -> None:
        """The bot left a channel: one refused for too many channels (405) is tried now."""
        if self.waiting_slot and self._connected():
            folded = self.waiting_slot.pop()
            channel, key = self.keys.get(folded, (folded, ""))
            log.info("a channel slot is free: joining %s", channel)
            self._outbox.push("JOIN", channel, key)
            self._drain()
