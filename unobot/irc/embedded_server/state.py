"""The embedded server's state: its clients, nicks and channels, and how a line reaches them.

Owned by the loop's one thread (:mod:`.server`); the command handlers (:mod:`.commands`) change
it and queue lines with ``send``, which only appends to the receiver's buffer and marks it
``dirty``: the loop writes it when its socket is writable.
"""

from __future__ import annotations

import selectors
import socket
import time
from collections.abc import Iterable

from unobot.irc.casemap import irc_lower

__all__ = ["MAX_TARGETS", "SERVER_NAME", "VERSION", "Channel", "Client", "Network", "word"]

SERVER_NAME = "localhost"
VERSION = "unobot-embedded"
MAX_TARGETS = 8
"""Targets honoured in one command (``PRIVMSG a,b,c``, ``WHOIS``, ``NAMES``, ``KICK``)."""


def word(text: str) -> str:
    """A parameter fit to echo in the middle of a reply: one word, no leading colon."""
    found = text.split(" ", 1)[0].lstrip(":")[:64]
    return found or "*"


class Client:
    """One connection: its buffers and who it is on IRC."""

    __slots__ = (
        "active",
        "away",
        "cap_pending",
        "channels",
        "closing",
        "dead",
        "events",
        "host",
        "inbuf",
        "modes",
        "nick",
        "outbuf",
        "overlong",
        "realname",
        "registered",
        "signon",
        "sock",
        "user",
    )

    def __init__(self, sock: socket.socket, host: str) -> None:
        self.sock = sock
        self.host = "0" + host if host.startswith(":") else host  # "::1" can't lead a param
        self.inbuf = bytearray()
        self.outbuf = bytearray()
        self.overlong = False
        self.events = selectors.EVENT_READ
        self.nick = ""
        self.user = ""
        self.realname = ""
        self.registered = False
        self.cap_pending = False
        self.channels: dict[str, Channel] = {}
        self.away = ""
        self.modes: set[str] = set()
        self.signon = int(time.time())
        self.active = time.monotonic()
        self.closing = False
        self.dead = False

    @property
    def me(self) -> str:
        """The nick numerics address: ``*`` until registered."""
        return self.nick if self.registered else "*"

    @property
    def prefix(self) -> str:
        return f"{self.nick}!{self.user}@{self.host}"


class Channel:
    """A channel: its members (in joining order) with their ``o``/``v`` status."""

    __slots__ = (
        "created",
        "invited",
        "members",
        "modes",
        "name",
        "topic",
        "topic_at",
        "topic_by",
    )

    def __init__(self, name: str) -> None:
        self.name = name
        self.members: dict[Client, str] = {}
        self.modes = set("nt")
        self.topic = ""
        self.topic_by = ""
        self.topic_at = 0
        self.created = int(time.time())
        self.invited: set[Client] = set()

    def prefix_of(self, client: Client) -> str:
        status = self.members.get(client, "")
        return "@" if "o" in status else "+" if "v" in status else ""

    def visible_to(self, client: Client) -> bool:
        return client in self.members or not self.modes & {"s", "p"}


class Network:
    """Who is connected, under which nick, in which channel; and who has lines to write.

    ``bots``: the bot's nicks (folded), which never count as someone in a channel when the
    first to join an empty one gets ``+o``.
    """

    def __init__(self, bots: Iterable[str] = ()) -> None:
        self.clients: set[Client] = set()
        self.nicks: dict[str, Client] = {}
        """By folded nick, including clients still registering."""
        self.channels: dict[str, Channel] = {}
        """By folded name; a channel exists while someone is in it."""
        self.dirty: set[Client] = set()
        """Clients with lines queued since the loop last wrote."""
        self.bots = frozenset(irc_lower(nick) for nick in bots)

    def send(self, client: Client, line: str) -> None:
        if client.dead:
            return
        client.outbuf += line.encode("utf-8", "surrogateescape") + b"\r\n"
        self.dirty.add(client)

    def num(self, client: Client, numeric: str, rest: str) -> None:
        self.send(client, f":{SERVER_NAME} {numeric} {client.me} {rest}")

    def to_channel(self, channel: Channel, line: str, skip: Client | None = None) -> None:
        for member in channel.members:
            if member is not skip:
                self.send(member, line)

    def registered(self, nick: str) -> Client | None:
        """The registered client using ``nick`` (one still registering is nobody yet)."""
        peer = self.nicks.get(irc_lower(nick))
        return peer if peer is not None and peer.registered else None

    def peers(self, client: Client) -> dict[Client, None]:
        """Everyone who shares a channel with ``client``, once each, without it."""
        peers: dict[Client, None] = {}
        for channel in client.channels.values():
            peers.update(dict.fromkeys(channel.members))
        peers.pop(client, None)
        return peers

    def part_ways(self, client: Client, reason: str) -> None:
        """Tell the others ``client`` quit, take it out of every channel, free its nick."""
        if client.registered:
            line = f":{client.prefix} QUIT :{reason}"
            for peer in self.peers(client):
                self.send(peer, line)
        for channel in list(client.channels.values()):
            self.remove(client, channel)
        for channel in self.channels.values():
            channel.invited.discard(client)
        if client.nick and self.nicks.get(irc_lower(client.nick)) is client:
            del self.nicks[irc_lower(client.nick)]
        client.registered = False

    def remove(self, client: Client, channel: Channel) -> None:
        channel.members.pop(client, None)
        key = irc_lower(channel.name)
        client.channels.pop(key, None)
        if not channel.members and self.channels.get(key) is channel:
            del self.channels[key]

    def is_bot(self, client: Client) -> bool:
        return irc_lower(client.nick) in self.bots
