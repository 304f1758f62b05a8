"""The embedded server's IRC commands: what each line a client sends does.

The loop (:mod:`.server`) hands every complete line to :meth:`Commands.handle`, which parses
it, checks registration and the parameter count, and runs the command's handler to its end:
here for what changes the network (registration, JOIN, PART, messages, MODE, TOPIC, KICK,
INVITE, AWAY, QUIT), in :mod:`.queries` for what only asks (NAMES, WHO, WHOIS, LIST…).
Handlers read and change the :class:`~.state.Network` and queue their replies there; they never
touch a socket (a QUIT marks the client ``closing``, and the loop closes it once its last line
is written).

Channel operators, as on real servers: whoever joins a channel that has no one in it gets
``+o`` (shown as ``@nick`` in NAMES and announced by a MODE line). The bot is not counted as
someone: it connects and joins its channels first, so without this it would hold the only
``@`` and nobody could change the rules, stop a game or run a tournament. ``bots`` names the
bot's nicks (``unobot.main`` passes the configured nick, alternatives and extra connections'
nicks): a person who joins a channel where only bots are gets ``+o`` too. Operators can
``MODE #chan +o/-o/+v/-v nick``, set ``+imnpst``, change the topic (``+t``), ``KICK`` and
``INVITE``; others get 482.
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Callable, Iterable

from unobot.irc.casemap import irc_lower
from unobot.irc.embedded_server.queries import Queries
from unobot.irc.embedded_server.state import (
    MAX_TARGETS,
    SERVER_NAME,
    VERSION,
    Channel,
    Client,
    Network,
    word,
)

__all__ = ["TOPICLEN", "Commands"]

log = logging.getLogger(__name__)

NICKLEN = 30
CHANNELLEN = 50
TOPICLEN = 390
AWAYLEN = 200
MODES = 4
"""Modes with a parameter (``+o``, ``+v``) honoured in one MODE line."""
FLAG_MODES = "imnpst"
ISUPPORT = (
    f"AWAYLEN={AWAYLEN} CASEMAPPING=rfc1459 CHANMODES=,,,{FLAG_MODES} CHANNELLEN={CHANNELLEN} "
    f"CHANTYPES=#& KICKLEN={TOPICLEN} MODES={MODES} NETWORK=local NICKLEN={NICKLEN} "
    f"PREFIX=(ov)@+ TARGMAX=PRIVMSG:{MAX_TARGETS},NOTICE:{MAX_TARGETS} TOPICLEN={TOPICLEN}"
)

NOT_THERE = "They aren't on that channel"

_NICK = re.compile(r"[A-Za-z\[\]\\`_^{|}][A-Za-z0-9\[\]\\`_^{|}-]*\Z")
_USERNAME_JUNK = re.compile(r"[^A-Za-z0-9_.-]")


def _valid_channel(name: str) -> bool:
    return (
        1 < len(name) <= CHANNELLEN
        and name[0] in "#&"
        and not any(ch in name for ch in " ,:\x07")
        and name.isprintable()
    )


def _parse(line: str) -> tuple[str, list[str]]:
    """``[@tags] [:prefix] COMMAND params... [:trailing]`` -> (COMMAND, params)."""
    if line.startswith("@"):
        line = line.partition(" ")[2]
    if line.startswith(":"):
        line = line.partition(" ")[2]
    head, sep, trailing = line.partition(" :")
    if not sep and head.startswith(":"):  # "CMD" never starts with ":"; tolerate it
        return "", []
    words = [w for w in head.split(" ") if w]
    if not words:
        return "", []
    params = words[1:]
    if sep:
        params.append(trailing)
    return words[0].upper(), params


Handler = Callable[[Client, list[str]], None]


class Commands:
    """Every command's handler: those that change the network here, those that only answer
    in :class:`~.queries.Queries`. ``motd``: the lines of the message of the day."""

    def __init__(self, net: Network, motd: Iterable[str] = ()) -> None:
        self.net = net
        self.queries = q = Queries(net, motd)
        self._created = time.strftime("%Y-%m-%d %H:%M:%S %Z")
        # (handler, least number of parameters, allowed before registration)
        self._table: dict[str, tuple[Handler, int, bool]] = {
            "CAP": (self._cap, 1, True),
            "PASS": (lambda client, params: None, 0, True),
            "NICK": (self._nick, 0, True),
            "USER": (self._user, 4, True),
            "PING": (self._ping, 0, True),
            "PONG": (lambda client, params: None, 0, True),
            "QUIT": (self._quit, 0, True),
            "JOIN": (self._join, 1, False),
            "PART": (self._part, 1, False),
            "PRIVMSG": (self._privmsg, 0, False),
            "NOTICE": (self._notice, 0, False),
            "NAMES": (q.on_names, 0, False),
            "WHO": (q.on_who, 0, False),
            "WHOIS": (q.on_whois, 1, False),
            "WHOWAS": (q.on_whowas, 1, False),
            "MODE": (self._mode, 1, False),
            "TOPIC": (self._topic, 1, False),
            "KICK": (self._kick, 2, False),
            "INVITE": (self._invite, 2, False),
            "USERHOST": (q.on_userhost, 1, False),
            "ISON": (q.on_ison, 1, False),
            "LIST": (q.on_list, 0, False),
            "AWAY": (self._away, 0, False),
            "MOTD": (lambda client, params: q.motd(client), 0, False),
            "LUSERS": (lambda client, params: q.lusers(client), 0, False),
            "VERSION": (q.on_version, 0, False),
            "TIME": (q.on_time, 0, False),
        }

    def handle(self, client: Client, raw: bytes) -> None:
        """One line from ``client`` (its CR LF gone), answered to its end; a handler that
        raised logs one line and leaves the sender connected."""
        line = raw.replace(b"\0", b"").decode("utf-8", "surrogateescape")
        command, params = _parse(line)
        if not command:
            return
        entry = self._table.get(command)
        if not client.registered and (entry is None or not entry[2]):
            if command == "JOIN" and not "".join(params).strip():
                return  # irssi sends "JOIN :" while it negotiates CAP: nothing to say
            self.net.num(client, "451", ":You have not registered")
            return
        if entry is None:
            self.net.num(client, "421", f"{word(command)} :Unknown command")
            return
        handler, least, _ = entry
        if len(params) < least:
            self.net.num(client, "461", f"{word(command)} :Not enough parameters")
            return
        try:
            handler(client, params)
        except Exception as err:  # a bug here must not cost the sender its connection
            log.warning("embedded IRC server: %s from %s failed: %r", command, client.me, err)
            log.debug("embedded IRC server: traceback", exc_info=True)

    # -- registration --------------------------------------------------------------------------

    def _cap(self, client: Client, params: list[str]) -> None:
        """No IRCv3 capabilities: the list is empty and every request is refused. A CAP LS
        before registration holds it until CAP END, as the specification asks."""
        sub = params[0].upper()
        if sub == "LS":
            if not client.registered:
                client.cap_pending = True
            self.net.send(client, f":{SERVER_NAME} CAP {client.me} LS :")
        elif sub == "LIST":
            self.net.send(client, f":{SERVER_NAME} CAP {client.me} LIST :")
        elif sub == "REQ":
            if not client.registered:
                client.cap_pending = True
            wanted = params[1] if len(params) > 1 else ""
            self.net.send(client, f":{SERVER_NAME} CAP {client.me} NAK :{wanted}")
        elif sub == "END":
            client.cap_pending = False
            self._try_register(client)
        else:
            self.net.num(client, "410", f"{word(sub)} :Invalid CAP command")

    def _nick(self, client: Client, params: list[str]) -> None:
        new = params[0] if params else ""
        if not new:
            self.net.num(client, "431", ":No nickname given")
            return
        if len(new) > NICKLEN or not _NICK.match(new):
            self.net.num(client, "432", f"{word(new)} :Erroneous nickname")
            return
        key = irc_lower(new)
        holder = self.net.nicks.get(key)
        if holder is not None and holder is not client:
            self.net.num(client, "433", f"{new} :Nickname is already in use")
            return
        if new == client.nick:
            return
        if client.nick:
            del self.net.nicks[irc_lower(client.nick)]
        self.net.nicks[key] = client
        if client.registered:
            line = f":{client.prefix} NICK :{new}"
            self.net.send(client, line)
            for peer in self.net.peers(client):
                self.net.send(peer, line)
        client.nick = new
        self._try_register(client)

    def _user(self, client: Client, params: list[str]) -> None:
        if client.registered or client.user:
            self.net.num(client, "462", ":You may not reregister")
            return
        client.user = _USERNAME_JUNK.sub("", params[0])[:10] or "user"
        client.realname = params[3][:100]
        self._try_register(client)

    def _try_register(self, client: Client) -> None:
        if client.registered or not client.nick or not client.user or client.cap_pending:
            return
        client.registered = True
        me = client.nick
        self.net.num(client, "001", f":Welcome to the local IRC network, {client.prefix}")
        self.net.num(client, "002", f":Your host is {SERVER_NAME}, running version {VERSION}")
        self.net.num(client, "003", f":This server was created {self._created}")
        self.net.num(client, "004", f"{SERVER_NAME} {VERSION} iw {FLAG_MODES}ov")
        self.net.num(client, "005", f"{ISUPPORT} :are supported by this server")
        self.queries.lusers(client)
        self.queries.motd(client)
        log.debug("embedded IRC server: %s registered", me)

    def _ping(self, client: Client, params: list[str]) -> None:
        if not params or not params[0]:
            self.net.num(client, "409", ":No origin specified")
            return
        self.net.send(client, f":{SERVER_NAME} PONG {SERVER_NAME} :{params[0]}")

    def _quit(self, client: Client, params: list[str]) -> None:
        reason = params[0][:TOPICLEN] if params and params[0] else "Client Quit"
        self.net.part_ways(client, reason)
        self.net.send(client, f"ERROR :Closing link: {client.host} ({reason})")
        client.closing = True

    # -- channels ------------------------------------------------------------------------------

    def _join(self, client: Client, params: list[str]) -> None:
        names = params[0]
        if names == "0":
            for channel in list(client.channels.values()):
                self.net.to_channel(channel, f":{client.prefix} PART {channel.name}")
                self.net.remove(client, channel)
            return
        for name in names.split(","):
            if not name:
                continue
            if not _valid_channel(name):
                self.net.num(client, "403", f"{word(name)} :No such channel")
                continue
            key = irc_lower(name)
            channel = self.net.channels.get(key)
            if channel is not None and client in channel.members:
                continue
            if channel is not None and "i" in channel.modes and client not in channel.invited:
                self.net.num(client, "473", f"{channel.name} :Cannot join channel (+i)")
                continue
            if channel is None:
                channel = self.net.channels[key] = Channel(name)
            # The first to join an empty channel gets +o; the bot doesn't count as someone.
            opped = all(self.net.is_bot(member) for member in channel.members)
            channel.members[client] = "o" if opped else ""
            channel.invited.discard(client)
            client.channels[key] = channel
            self.net.to_channel(channel, f":{client.prefix} JOIN {channel.name}")
            if opped:
                self.net.to_channel(channel, f":{SERVER_NAME} MODE {channel.name} +o {client.nick}")
            if channel.topic:
                self.queries.topic(client, channel)
            self.queries.names(client, channel)

    def _part(self, client: Client, params: list[str]) -> None:
        reason = params[1][:TOPICLEN] if len(params) > 1 else ""
        for name in params[0].split(","):
            if not name:
                continue
            channel = self.net.channels.get(irc_lower(name))
            if channel is None:
                self.net.num(client, "403", f"{word(name)} :No such channel")
                continue
            if client not in channel.members:
                self.net.num(client, "442", f"{channel.name} :You're not on that channel")
                continue
            tail = f" :{reason}" if reason else ""
            self.net.to_channel(channel, f":{client.prefix} PART {channel.name}{tail}")
            self.net.remove(client, channel)

    def _privmsg(self, client: Client, params: list[str]) -> None:
        self._message(client, params, "PRIVMSG")

    def _notice(self, client: Client, params: list[str]) -> None:
        self._message(client, params, "NOTICE")

    def _message(self, client: Client, params: list[str], command: str) -> None:
        """PRIVMSG and NOTICE; a NOTICE is never answered with an error (RFC 1459)."""
        notice = command == "NOTICE"
        if not params or not params[0]:
            if not notice:
                self.net.num(client, "411", f":No recipient given ({command})")
            return
        if len(params) < 2 or not params[1]:
            if not notice:
                self.net.num(client, "412", ":No text to send")
            return
        text = params[1]
        client.active = time.monotonic()
        for target in params[0].split(",")[:MAX_TARGETS]:
            if not target:
                continue
            if target[0] in "#&":
                channel = self.net.channels.get(irc_lower(target))
                if channel is None:
                    if not notice:
                        self.net.num(client, "401", f"{word(target)} :No such nick/channel")
                    continue
                status = channel.members.get(client)
                if (status is None and "n" in channel.modes) or (
                    "m" in channel.modes and not status
                ):
                    if not notice:
                        self.net.num(client, "404", f"{channel.name} :Cannot send to channel")
                    continue
                line = f":{client.prefix} {command} {channel.name} :{text}"
                self.net.to_channel(channel, line, skip=client)
                continue
            peer = self.net.registered(target)
            if peer is None:
                if not notice:
                    self.net.num(client, "401", f"{word(target)} :No such nick/channel")
                continue
            self.net.send(peer, f":{client.prefix} {command} {peer.nick} :{text}")
            if peer.away and not notice:
                self.net.num(client, "301", f"{peer.nick} :{peer.away}")

    def _mode(self, client: Client, params: list[str]) -> None:
        if params[0][:1] in ("#", "&"):
            self._channel_mode(client, params[0], params[1:])
        else:
            self._user_mode(client, params[0], params[1:])

    def _channel_mode(self, client: Client, name: str, args: list[str]) -> None:
        channel = self.net.channels.get(irc_lower(name))
        if channel is None:
            self.net.num(client, "403", f"{word(name)} :No such channel")
            return
        if not args or not args[0]:
            self.net.num(client, "324", f"{channel.name} +{''.join(sorted(channel.modes))}")
            self.net.num(client, "329", f"{channel.name} {channel.created}")
            return
        modestring, rest = args[0], list(args[1:])
        lists = {"b": ("368", "ban"), "e": ("349", "exception"), "I": ("347", "invite")}
        if modestring.lstrip("+") in lists and not rest:  # "MODE #c b": the (empty) list
            numeric, what = lists[modestring.lstrip("+")]
            self.net.num(client, numeric, f"{channel.name} :End of channel {what} list")
            return
        is_op = "o" in channel.members.get(client, "")
        sign = "+"
        applied: list[tuple[str, str, str]] = []
        unknown: dict[str, None] = {}
        need_op = False
        with_param = 0
        for char in modestring:
            if char in "+-":
                sign = char
            elif char in "ov":
                if not rest:
                    continue
                nick = rest.pop(0)
                with_param += 1
                if with_param > MODES:
                    continue
                if not is_op:
                    need_op = True
                    continue
                change = self._member_mode(client, channel, sign, char, nick)
                if change is not None:
                    applied.append(change)
            elif char in FLAG_MODES:
                if not is_op:
                    need_op = True
                elif sign == "+" and char not in channel.modes:
                    channel.modes.add(char)
                    applied.append((sign, char, ""))
                elif sign == "-" and char in channel.modes:
                    channel.modes.discard(char)
                    applied.append((sign, char, ""))
            else:
                if char in "beIkl" and rest and (sign == "+" or char != "l"):
                    rest.pop(0)  # its parameter is not a mode character
                if char.isalnum():
                    unknown[char] = None
        for char in unknown:
            self.net.num(client, "472", f"{char} :is unknown mode char to me for {channel.name}")
        if need_op:
            self.net.num(client, "482", f"{channel.name} :You're not channel operator")
        if applied:
            self.net.to_channel(channel, f":{client.prefix} MODE {channel.name} {_modes(applied)}")

    def _member_mode(
        self, client: Client, channel: Channel, sign: str, char: str, nick: str
    ) -> tuple[str, str, str] | None:
        """An operator's ``+o``/``-o``/``+v``/``-v`` (``sign``, ``char``) on ``nick``: the
        change made, or None (no such nick or not on the channel: said so; already so:
        nothing)."""
        peer = self.net.registered(nick)
        if peer is None:
            self.net.num(client, "401", f"{word(nick)} :No such nick/channel")
            return None
        if peer not in channel.members:
            self.net.num(client, "441", f"{peer.nick} {channel.name} :{NOT_THERE}")
            return None
        status = channel.members[peer]
        if sign == "+" and char not in status:
            channel.members[peer] = "".join(m for m in "ov" if m in status + char)
            return (sign, char, peer.nick)
        if sign == "-" and char in status:
            channel.members[peer] = status.replace(char, "")
            return (sign, char, peer.nick)
        return None

    def _user_mode(self, client: Client, nick: str, args: list[str]) -> None:
        peer = self.net.registered(nick)
        if peer is None:
            self.net.num(client, "401", f"{word(nick)} :No such nick/channel")
            return
        if peer is not client:
            self.net.num(client, "502", ":Can't change mode for other users")
            return
        if not args or not args[0]:
            self.net.num(client, "221", f"+{''.join(sorted(client.modes))}")
            return
        sign = "+"
        applied: list[tuple[str, str, str]] = []
        unknown = False
        for char in args[0]:
            if char in "+-":
                sign = char
            elif char in "iw":
                if sign == "+" and char not in client.modes:
                    client.modes.add(char)
                    applied.append((sign, char, ""))
                elif sign == "-" and char in client.modes:
                    client.modes.discard(char)
                    applied.append((sign, char, ""))
            elif char not in "oO":  # +o is for IRC operators: silently not granted
                unknown = True
        if unknown:
            self.net.num(client, "501", ":Unknown MODE flag")
        if applied:
            self.net.send(client, f":{client.prefix} MODE {client.nick} :{_modes(applied)}")

    def _topic(self, client: Client, params: list[str]) -> None:
        channel = self.net.channels.get(irc_lower(params[0]))
        if channel is None:
            self.net.num(client, "403", f"{word(params[0])} :No such channel")
            return
        status = channel.members.get(client)
        if len(params) < 2:
            if not channel.visible_to(client):
                self.net.num(client, "442", f"{channel.name} :You're not on that channel")
            elif channel.topic:
                self.queries.topic(client, channel)
            else:
                self.net.num(client, "331", f"{channel.name} :No topic is set")
            return
        if status is None:
            self.net.num(client, "442", f"{channel.name} :You're not on that channel")
            return
        if "t" in channel.modes and "o" not in status:
            self.net.num(client, "482", f"{channel.name} :You're not channel operator")
            return
        channel.topic = params[1][:TOPICLEN]
        channel.topic_by = client.nick
        channel.topic_at = int(time.time())
        self.net.to_channel(channel, f":{client.prefix} TOPIC {channel.name} :{channel.topic}")

    def _kick(self, client: Client, params: list[str]) -> None:
        channel = self.net.channels.get(irc_lower(params[0]))
        if channel is None:
            self.net.num(client, "403", f"{word(params[0])} :No such channel")
            return
        status = channel.members.get(client)
        if status is None:
            self.net.num(client, "442", f"{channel.name} :You're not on that channel")
            return
        if "o" not in status:
            self.net.num(client, "482", f"{channel.name} :You're not channel operator")
            return
        reason = params[2][:TOPICLEN] if len(params) > 2 and params[2] else client.nick
        for nick in params[1].split(",")[:MAX_TARGETS]:
            peer = self.net.nicks.get(irc_lower(nick))
            if peer is None or peer not in channel.members:
                self.net.num(client, "441", f"{word(nick)} {channel.name} :{NOT_THERE}")
                continue
            self.net.to_channel(
                channel, f":{client.prefix} KICK {channel.name} {peer.nick} :{reason}"
            )
            self.net.remove(peer, channel)

    def _invite(self, client: Client, params: list[str]) -> None:
        peer = self.net.registered(params[0])
        if peer is None:
            self.net.num(client, "401", f"{word(params[0])} :No such nick/channel")
            return
        name = params[1]
        channel = self.net.channels.get(irc_lower(name))
        if channel is not None:
            status = channel.members.get(client)
            if status is None:
                self.net.num(client, "442", f"{channel.name} :You're not on that channel")
                return
            if peer in channel.members:
                self.net.num(client, "443", f"{peer.nick} {channel.name} :is already on channel")
                return
            if "i" in channel.modes and "o" not in status:
                self.net.num(client, "482", f"{channel.name} :You're not channel operator")
                return
            channel.invited.add(peer)
            name = channel.name
        elif not _valid_channel(name):
            self.net.num(client, "403", f"{word(name)} :No such channel")
            return
        self.net.num(client, "341", f"{peer.nick} {name}")
        self.net.send(peer, f":{client.prefix} INVITE {peer.nick} :{name}")
        if peer.away:
            self.net.num(client, "301", f"{peer.nick} :{peer.away}")

    def _away(self, client: Client, params: list[str]) -> None:
        if params and params[0]:
            client.away = params[0][:AWAYLEN]
            self.net.num(client, "306", ":You have been marked as being away")
        else:
            client.away = ""
            self.net.num(client, "305", ":You are no longer marked as being away")


def _modes(applied: list[tuple[str, str, str]]) -> str:
    """``[("+", "o", "alice"), ("-", "v", "bob")]`` -> ``+o-v alice bob``."""
    letters = []
    sign = ""
    for change_sign, char, _ in applied:
        if change_sign != sign:
            letters.append(change_sign)
            sign = change_sign
        letters.append(char)
    args = [arg for _, _, arg in applied if arg]
    return " ".join(["".join(letters), *args])
