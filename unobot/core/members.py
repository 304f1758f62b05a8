"""Who is in each of the bot's channels, kept from the records the adapter delivers.

Why the core keeps this: a computer player must not take the nick of a person in the channel
(``.addbot easy victim`` would have the channel read "victim plays Y7"), and only the server
knows who is there. The adapter sends the channel's NAMES after the bot's own JOIN, then every
JOIN, PART, KICK, QUIT and NICK; nothing else is needed. Nicks are kept folded (RFC 1459 case
mapping), one set per channel; a channel the bot leaves, or every channel when the
connection is lost, is forgotten (the next JOIN and NAMES bring it back).
"""

from __future__ import annotations

from unobot.irc.casemap import irc_eq, irc_lower
from unobot.irc.transport import Incoming, Kind

__all__ = ["Members"]


class Members:
    """Channel -> the folded nicks in it, as far as the server has told."""

    __slots__ = ("_channels",)

    def __init__(self) -> None:
        self._channels: dict[str, set[str]] = {}

    def update(self, incoming: Incoming, own_nick: str) -> None:
        """Follow one record (``own_nick``: the bot's nick, whose JOIN/PART/KICK start or end
        a channel's list)."""
        kind = incoming.kind
        if kind is Kind.MESSAGE:
            return
        nick = irc_lower(incoming.nick)
        channel = irc_lower(incoming.target)
        if kind is Kind.NAMES:
            self._channels[channel] = {irc_lower(n) for n in incoming.text.split()}
        elif kind is Kind.JOIN:
            if irc_eq(incoming.nick, own_nick):
                self._channels[channel] = {nick}  # NAMES follows with everyone else
            else:
                self._channels.setdefault(channel, set()).add(nick)
        elif kind in (Kind.PART, Kind.KICK):
            if irc_eq(incoming.nick, own_nick):
                self._channels.pop(channel, None)
            else:
                self._channels.get(channel, set()).discard(nick)
        elif kind is Kind.QUIT:
            for nicks in self._channels.values():
                nicks.discard(nick)
        elif kind is Kind.NICK:
            new = irc_lower(incoming.new_nick)
            for nicks in self._channels.values():
                if nick in nicks:
                    nicks.discard(nick)
                    nicks.add(new)
        elif kind is Kind.DISCONNECTED:
            self._channels.clear()

    def present(self, channel: str, nick: str) -> bool:
        """Whether ``nick`` is in ``channel`` (case-insensitively), as last told."""
        return irc_lower(nick) in self._channels.get(irc_lower(channel), ())

    def channels(self) -> list[str]:
        """The folded names of the channels the bot is in, as last told."""
        return list(self._channels)

    def of(self, channel: str) -> frozenset[str]:
        """The folded nicks in ``channel`` (empty when unknown)."""
        return frozenset(self._channels.get(irc_lower(channel), ()))
