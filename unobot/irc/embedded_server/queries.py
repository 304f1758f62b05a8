"""The embedded server's queries: the commands that only read the network and answer.

NAMES, WHO, WHOIS, WHOWAS, USERHOST, ISON, LIST, MOTD, LUSERS, VERSION, TIME; and the replies
the changing commands (:mod:`.commands`) send along, a JOIN's names and topic, registration's
LUSERS and MOTD. None of them changes anything; every reply is queued on the
:class:`~.state.Network`.
"""

from __future__ import annotations

import fnmatch
import time
from collections.abc import Iterable

from unobot.irc.casemap import irc_lower
from unobot.irc.embedded_server.state import (
    MAX_TARGETS,
    SERVER_NAME,
    VERSION,
    Channel,
    Client,
    Network,
    word,
)

__all__ = ["DEFAULT_MOTD", "Queries"]

DEFAULT_MOTD = ("unobot's local IRC server: join the bot's channel and type .uno to play.",)


class Queries:
    """The answers to what a client asks. ``motd``: the lines of the message of the day."""

    def __init__(self, net: Network, motd: Iterable[str] = ()) -> None:
        self.net = net
        self._motd = tuple(motd) or DEFAULT_MOTD  # 422 (no MOTD) would be an error numeric

    def lusers(self, client: Client) -> None:
        users = sum(1 for c in self.net.clients if c.registered)
        self.net.num(client, "251", f":There are {users} users and 0 invisible on 1 servers")
        self.net.num(client, "254", f"{len(self.net.channels)} :channels formed")
        self.net.num(client, "255", f":I have {users} clients and 0 servers")

    def motd(self, client: Client) -> None:
        self.net.num(client, "375", f":- {SERVER_NAME} Message of the day -")
        for line in self._motd:
            self.net.num(client, "372", f":- {line}")
        self.net.num(client, "376", ":End of /MOTD command.")

    def on_version(self, client: Client, params: list[str]) -> None:
        self.net.num(client, "351", f"{VERSION} {SERVER_NAME} :unobot's local IRC server")

    def on_time(self, client: Client, params: list[str]) -> None:
        self.net.num(client, "391", f"{SERVER_NAME} :{time.strftime('%a %b %d %Y %H:%M:%S %Z')}")

    def names(self, client: Client, channel: Channel) -> None:
        symbol = "@" if "s" in channel.modes else "*" if "p" in channel.modes else "="
        names = [channel.prefix_of(member) + member.nick for member in channel.members]
        chunk: list[str] = []
        size = 0
        for name in names:
            if chunk and size + len(name) > 400:
                self.net.num(client, "353", f"{symbol} {channel.name} :{' '.join(chunk)}")
                chunk, size = [], 0
            chunk.append(name)
            size += len(name) + 1
        if chunk:
            self.net.num(client, "353", f"{symbol} {channel.name} :{' '.join(chunk)}")
        self.net.num(client, "366", f"{channel.name} :End of /NAMES list.")

    def on_names(self, client: Client, params: list[str]) -> None:
        if not params or not params[0]:
            for channel in list(self.net.channels.values()):
                if channel.visible_to(client):
                    self.names(client, channel)
            return
        for name in params[0].split(",")[:MAX_TARGETS]:
            channel = self.net.channels.get(irc_lower(name))
            if channel is not None and channel.visible_to(client):
                self.names(client, channel)
            else:
                self.net.num(client, "366", f"{word(name)} :End of /NAMES list.")

    def on_who(self, client: Client, params: list[str]) -> None:
        mask = params[0] if params and params[0] else "*"
        if mask[0] in "#&":
            channel = self.net.channels.get(irc_lower(mask))
            if channel is not None and channel.visible_to(client):
                for member in channel.members:
                    self._who_line(client, member, channel)
        else:
            pattern = "*" if mask == "0" else irc_lower(mask)
            exact = self.net.nicks.get(pattern)
            found = [exact] if exact is not None else [
                peer for key, peer in self.net.nicks.items() if fnmatch.fnmatchcase(key, pattern)
            ]  # fmt: skip
            for peer in found[:200]:
                if peer.registered:
                    self._who_line(client, peer, None)
        self.net.num(client, "315", f"{word(mask)} :End of /WHO list.")

    def _who_line(self, client: Client, peer: Client, channel: Channel | None) -> None:
        here = "G" if peer.away else "H"
        status = channel.prefix_of(peer) if channel is not None else ""
        where = channel.name if channel is not None else "*"
        self.net.num(
            client,
            "352",
            f"{where} {peer.user} {peer.host} {SERVER_NAME} {peer.nick} {here}{status} "
            f":0 {peer.realname}",
        )

    def on_whois(self, client: Client, params: list[str]) -> None:
        for nick in params[-1].split(",")[:MAX_TARGETS]:
            peer = self.net.registered(nick)
            if peer is None:
                self.net.num(client, "401", f"{word(nick)} :No such nick/channel")
                self.net.num(client, "318", f"{word(nick)} :End of /WHOIS list.")
                continue
            self.net.num(client, "311", f"{peer.nick} {peer.user} {peer.host} * :{peer.realname}")
            channels = [
                channel.prefix_of(peer) + channel.name
                for channel in peer.channels.values()
                if channel.visible_to(client)
            ]
            if channels:
                self.net.num(client, "319", f"{peer.nick} :{' '.join(channels)}")
            self.net.num(client, "312", f"{peer.nick} {SERVER_NAME} :unobot's local IRC server")
            if peer.away:
                self.net.num(client, "301", f"{peer.nick} :{peer.away}")
            idle = int(time.monotonic() - peer.active)
            self.net.num(
                client, "317", f"{peer.nick} {idle} {peer.signon} :seconds idle, signon time"
            )
            self.net.num(client, "318", f"{peer.nick} :End of /WHOIS list.")

    def on_whowas(self, client: Client, params: list[str]) -> None:
        nick = word(params[0])
        self.net.num(client, "406", f"{nick} :There was no such nickname")
        self.net.num(client, "369", f"{nick} :End of WHOWAS")

    def topic(self, client: Client, channel: Channel) -> None:
        self.net.num(client, "332", f"{channel.name} :{channel.topic}")
        self.net.num(client, "333", f"{channel.name} {channel.topic_by} {channel.topic_at}")

    def on_userhost(self, client: Client, params: list[str]) -> None:
        replies = []
        for nick in " ".join(params).split()[:5]:
            peer = self.net.registered(nick)
            if peer is not None:
                replies.append(f"{peer.nick}={'-' if peer.away else '+'}{peer.user}@{peer.host}")
        self.net.num(client, "302", f":{' '.join(replies)}")

    def on_ison(self, client: Client, params: list[str]) -> None:
        present = []
        for nick in " ".join(params).split()[:50]:
            peer = self.net.registered(nick)
            if peer is not None:
                present.append(peer.nick)
        self.net.num(client, "303", f":{' '.join(present)}")

    def on_list(self, client: Client, params: list[str]) -> None:
        wanted = {irc_lower(n) for n in params[0].split(",")} if params and params[0] else None
        self.net.num(client, "321", "Channel :Users  Name")
        for key, channel in list(self.net.channels.items()):
            if (wanted is None or key in wanted) and channel.visible_to(client):
                self.net.num(
                    client, "322", f"{channel.name} {len(channel.members)} :{channel.topic}"
                )
        self.net.num(client, "323", ":End of /LIST")
