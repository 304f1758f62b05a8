"""Who is in a channel and who holds ops there, as the adapter tells the core.

:class:`ChannelNames` gathers a NAMES reply (353 lines until their 366) into one
:attr:`~unobot.irc.transport.Kind.NAMES` record, and answers "is this nick an operator here"
from the library's channel tracking through a cache, as every channel message asks. It knows
nothing of the ``irc`` library: the adapter hands it the replies' arguments and a way to look a
channel up.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from unobot.irc.casemap import irc_lower
from unobot.irc.transport import Incoming, Kind

__all__ = ["NAMES_LIMIT", "ChannelNames"]

NAMES_LIMIT = 10_000
"""Nicks kept of one channel's NAMES reply (a hostile server can't make the list grow
without bound)."""

OPS_LIMIT = 10_000
"""Cached answers kept before the cache starts over."""


class Channel(Protocol):
    """What :class:`ChannelNames` asks of a channel the library tracks (``irc.bot.Channel``)."""

    def is_oper(self, nick: str) -> bool: ...

    def is_admin(self, nick: str) -> bool: ...

    def is_owner(self, nick: str) -> bool: ...


class ChannelNames:
    """NAMES replies being gathered, and the cache of who is an operator where.

    ``channel`` looks a channel up by name in the library's tracking (None: the bot is not in
    it). The adapter calls :meth:`forget_ops` on every MODE, join, part, quit, kick and nick
    change (ops may have changed) and :meth:`clear` when the connection is lost.
    """

    def __init__(self, channel: Callable[[str], Channel | None]) -> None:
        self._channel = channel
        self._ops: dict[tuple[str, str], bool] = {}
        self._names: dict[str, list[str]] = {}
        """NAMES replies being gathered, by channel (lower case)."""

    def is_op(self, channel: str, nick: str) -> bool:
        """Whether ``nick`` holds @ (or & / ~) in ``channel``, as the library tracks it.

        Cached until the next MODE, NAMES, join, part, quit, kick or nick change: the library's
        case-insensitive lookups build a cache per string and cost ~25 µs a check, and every
        channel message asks.
        """
        key = (channel, nick)
        found = self._ops.get(key)
        if found is None:
            chan = self._channel(channel)
            found = chan is not None and bool(
                chan.is_oper(nick) or chan.is_admin(nick) or chan.is_owner(nick)
            )
            if len(self._ops) > OPS_LIMIT:
                self._ops.clear()
            self._ops[key] = found
        return found

    def forget_ops(self) -> None:
        """Someone's status may have changed: ask the library again."""
        self._ops.clear()

    def clear(self) -> None:
        """The connection is gone: no replies under way, nothing known."""
        self._ops.clear()
        self._names.clear()

    def namreply(self, args: list[str], prefixes: str) -> None:
        """One 353 line (``args``: [symbol, channel, names]), gathered until its 366 (a big
        channel's list comes in several). Every status prefix (``prefixes``: the server's, e.g.
        ``~&@%+``) goes (multi-prefix sends ``@+nick``) and so does a userhost
        (userhost-in-names sends ``nick!user@host``)."""
        self._ops.clear()
        if len(args) < 3:
            return
        names = self._names.setdefault(irc_lower(args[1]), [])
        for entry in args[2].split():
            nick = entry.lstrip(prefixes).split("!", 1)[0]
            if nick and len(names) < NAMES_LIMIT:
                names.append(nick)

    def endofnames(self, args: list[str]) -> Incoming | None:
        """366 (``args``: [channel, text]): the record of the channel's gathered names, for
        the core; None for a reply without a channel."""
        if not args:
            return None
        channel = args[0]
        names = self._names.pop(irc_lower(channel), [])
        return Incoming(Kind.NAMES, "", channel, " ".join(names))
