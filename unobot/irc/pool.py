"""More than one connection to a network, when one send budget isn't enough.

A network lets a client send about a line a second; every game the bot runs shares that. Many
networks allow a few connections from one host (often 3-5 per IP, more for a bot an operator
asked them about), and each connection has a send budget of its own. With
``irc.connections = N`` the bot opens N connections: the primary (its configured nick) joins
every channel, reads every command there and is the one the core talks to; each extra
connection (its own nick: the next of ``irc.alt_nicks``, else the nick and a number) joins a
share of the channels, and the lines about those channels (the game's lines, its players'
hands, replies to its users) leave through it. Channels are spread by a stable hash of their
name, so a channel keeps its connection across restarts.

Why the extra connections don't read commands: two connections in one channel would see
every command twice; one reader keeps the core exactly as with one connection. Why a line
goes out through the primary when its channel's connection is not in the channel (connecting,
kicked, disconnected): late is better than never, and the primary is in every channel.

Each extra connection is a whole :class:`~unobot.irc.adapter.IrcAdapter` with its own reactor
thread; the primary's thread hands it lines with ``call_soon_threadsafe``.
"""

from __future__ import annotations

import dataclasses
import logging
import threading
import zlib
from collections.abc import Sequence

from unobot.irc.adapter import IrcAdapter, IrcSettings
from unobot.irc.casemap import irc_lower
from unobot.irc.outbox import CHANNEL_PREFIXES
from unobot.irc.transport import UNTAGGED, Tag

__all__ = ["ConnectionPool", "extra_settings", "home_of"]

log = logging.getLogger(__name__)


def home_of(channel: str, connections: int) -> int:
    """The connection (0: the primary) whose send budget ``channel``'s lines use."""
    if connections <= 1:
        return 0
    return zlib.crc32(irc_lower(channel).encode()) % connections


def extra_settings(settings: IrcSettings, connections: int) -> list[IrcSettings]:
    """The settings of each extra connection: its nick, its share of the channels, no
    NickServ password (that is the primary nick's; SASL logs in by account and is kept)."""
    extras = []
    for index in range(1, connections):
        nicks = settings.alt_nicks
        nick = nicks[index - 1] if index - 1 < len(nicks) else f"{settings.nick}{index + 1}"
        channels = {
            name: key
            for name, key in settings.channels.items()
            if home_of(name, connections) == index
        }
        extras.append(
            dataclasses.replace(
                settings,
                nick=nick,
                alt_nicks=(),
                channels=channels,
                nickserv_password=None,
                apology="",
            )
        )
    return extras


class ConnectionPool:
    """The core's transport over a primary connection and extra ones (see the module doc).

    Only the primary's thread calls :meth:`privmsg`/:meth:`notice` (the core runs there)."""

    def __init__(self, primary: IrcAdapter, extras: Sequence[IrcAdapter]) -> None:
        self.primary = primary
        self.extras = list(extras)
        self.connections = 1 + len(self.extras)
        self._threads: list[threading.Thread] = []

    @property
    def nickname(self) -> str:
        return self.primary.nickname

    def route(self, target: str, tag: Tag) -> IrcAdapter:
        """The connection a line about ``tag.channel`` (or to channel ``target``) leaves by."""
        channel = tag.channel or (target if target.startswith(CHANNEL_PREFIXES) else "")
        if not channel or not self.extras:
            return self.primary
        index = home_of(channel, self.connections)
        if index == 0:
            return self.primary
        extra = self.extras[index - 1]
        low = irc_lower(channel)
        try:  # read from this thread while the extra's own may change it: a rare race
            inside = extra.connected and any(irc_lower(c) == low for c in extra.joined)
        except RuntimeError:
            inside = False
        if inside:
            return extra
        return self.primary  # not (yet, or no longer) in the channel: the primary is

    def privmsg(self, target: str, text: str, tag: Tag = UNTAGGED) -> None:
        self._send("privmsg", target, text, tag)

    def notice(self, target: str, text: str, tag: Tag = UNTAGGED) -> None:
        self._send("notice", target, text, tag)

    def join(self, channel: str, key: str = "") -> None:
        """Channels joined at run time (tournament tables) are the primary's: it reads."""
        self.primary.join(channel, key)

    def invite(self, nick: str, channel: str) -> None:
        self.primary.invite(nick, channel)

    def _send(self, command: str, target: str, text: str, tag: Tag) -> None:
        conn = self.route(target, tag)
        send = getattr(conn, command)
        if conn is self.primary:
            send(target, text, tag)  # this thread is the primary's
        else:
            conn.call_soon_threadsafe(lambda: send(target, text, tag))

    def start_extras(self) -> None:
        """Connect the extra connections, each on a reactor thread of its own."""
        for extra in self.extras:
            thread = threading.Thread(
                target=extra.run, name=f"unobot-{extra.settings.nick}", daemon=True
            )
            thread.start()
            self._threads.append(thread)
        if self.extras:
            log.info(
                "%d extra connection(s): %s",
                len(self.extras),
                ", ".join(
                    f"{e.settings.nick} ({len(e.settings.channels)} channels)" for e in self.extras
                ),
            )

    def stop_extras(self, message: str, wait: float = 5.0) -> None:
        for extra in self.extras:
            extra.stop(message)
        for thread in self._threads:
            thread.join(wait)
