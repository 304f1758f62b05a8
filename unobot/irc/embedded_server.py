"""The local IRC server of the embedded default (``unobot`` with no settings), in-process.

A small IRC server of our own: one thread, one ``selectors`` loop over every socket.

Why one thread: the ``irc`` package's ``irc.server`` (which this replaced) runs a thread per
client over shared sets and dicts with no lock. Clients that connected, joined or quit within
the same few milliseconds raced each other ("Set changed size during iteration"): one was
dropped, and its nick stayed taken until the bot restarted. A lock around all of that state
would have had to cover every handler of the library's server, which was never written for it.
Here a single thread owns every nick, channel and buffer, and handles one line at a time to
its end: no interleaving of connects, joins, parts, nick changes, quits and disconnects can
exist, so none can drop a client or leak a nick. Sends are appended to the receiver's buffer
and written when its socket is writable; a slow reader never holds anyone else up (over
``SENDQ_BYTES`` unread, it is disconnected, as real servers do).

Why zero CPU when idle: the loop sleeps in ``select`` with no timeout and asks for
writability only for sockets that have bytes waiting (a connected socket is nearly always
writable; asking for it all the time spun a core, as the library's server did). The server
sends no PINGs: a local link that dies is closed by the kernel, and a timer would wake it.

Input never harms the server: any CR or LF ends a line (so nothing a client sends can
become two lines for another), NUL bytes are dropped, a line is cut at 510 bytes as IRC
servers do, bytes that aren't UTF-8 are relayed as they came (``surrogateescape``), and a
handler that raised would log one line and leave the sender connected.

Channel operators, as on real servers: whoever joins a channel that has no one in it gets
``+o`` (shown as ``@nick`` in NAMES and announced by a MODE line). The bot is not counted as
someone: it connects and joins its channels first, so without this it would hold the only
``@`` and nobody could change the rules, stop a game or run a tournament. ``bots`` names the
bot's nicks (``unobot.main`` passes the configured nick, alternatives and extra connections'
nicks): a person who joins a channel where only bots are gets ``+o`` too. Operators can
``MODE #chan +o/-o/+v/-v nick``, set ``+imnpst``, change the topic (``+t``), ``KICK`` and
``INVITE``; others get 482.

Why not miniircd in-process: it is GPL-licensed (this project is MIT) and reads its options
from a command line.
"""

from __future__ import annotations

import contextlib
import fnmatch
import logging
import re
import selectors
import socket
import threading
import time
from collections.abc import Callable, Iterable, Iterator

from unobot.irc.casemap import irc_lower

__all__ = ["EmbeddedServer", "start"]

log = logging.getLogger(__name__)

SERVER_NAME = "localhost"
VERSION = "unobot-embedded"
LINE_BYTES = 510
"""A line's length without CR LF (RFC 1459); the rest of a longer one is dropped."""
SENDQ_BYTES = 4 * 1024 * 1024
"""Unread bytes a client may have waiting before it is disconnected."""
NICKLEN = 30
CHANNELLEN = 50
TOPICLEN = 390
AWAYLEN = 200
MODES = 4
"""Modes with a parameter (``+o``, ``+v``) honoured in one MODE line."""
MAX_TARGETS = 8
FLAG_MODES = "imnpst"
ISUPPORT = (
    f"AWAYLEN={AWAYLEN} CASEMAPPING=rfc1459 CHANMODES=,,,{FLAG_MODES} CHANNELLEN={CHANNELLEN} "
    f"CHANTYPES=#& KICKLEN={TOPICLEN} MODES={MODES} NETWORK=local NICKLEN={NICKLEN} "
    f"PREFIX=(ov)@+ TARGMAX=PRIVMSG:{MAX_TARGETS},NOTICE:{MAX_TARGETS} TOPICLEN={TOPICLEN}"
)

DEFAULT_MOTD = ("unobot's local IRC server: join the bot's channel and type .uno to play.",)
NOT_THERE = "They aren't on that channel"

_NICK = re.compile(r"[A-Za-z\[\]\\`_^{|}][A-Za-z0-9\[\]\\`_^{|}-]*\Z")
_LINE_END = re.compile(rb"[\r\n]")
_USERNAME_JUNK = re.compile(r"[^A-Za-z0-9_.-]")
_READ = selectors.EVENT_READ
_WRITE = selectors.EVENT_WRITE


def _valid_channel(name: str) -> bool:
    return (
        1 < len(name) <= CHANNELLEN
        and name[0] in "#&"
        and not any(ch in name for ch in " ,:\x07")
        and name.isprintable()
    )


def _word(text: str) -> str:
    """A parameter fit to echo in the middle of a reply: one word, no leading colon."""
    word = text.split(" ", 1)[0].lstrip(":")[:64]
    return word or "*"


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


class _Client:
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
        self.events = _READ
        self.nick = ""
        self.user = ""
        self.realname = ""
        self.registered = False
        self.cap_pending = False
        self.channels: dict[str, _Channel] = {}
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


class _Channel:
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
        self.members: dict[_Client, str] = {}
        self.modes = set("nt")
        self.topic = ""
        self.topic_by = ""
        self.topic_at = 0
        self.created = int(time.time())
        self.invited: set[_Client] = set()

    def prefix_of(self, client: _Client) -> str:
        status = self.members.get(client, "")
        return "@" if "o" in status else "+" if "v" in status else ""

    def visible_to(self, client: _Client) -> bool:
        return client in self.members or not self.modes & {"s", "p"}


Handler = Callable[[_Client, list[str]], None]


class EmbeddedServer:
    """The server. ``serve_forever`` runs the loop (in the thread ``start`` makes);
    ``shutdown`` stops it from any thread, ``server_close`` frees the port."""

    def __init__(
        self, host: str, port: int, bots: Iterable[str] = (), motd: Iterable[str] = ()
    ) -> None:
        self._listener = socket.create_server((host, port), backlog=128)
        self._listener.setblocking(False)
        self.server_address: tuple[str, int] = self._listener.getsockname()[:2]
        self._bots = frozenset(irc_lower(nick) for nick in bots)
        self._motd = tuple(motd) or DEFAULT_MOTD  # 422 (no MOTD) would be an error numeric
        self._created = time.strftime("%Y-%m-%d %H:%M:%S %Z")
        self._selector = selectors.DefaultSelector()
        self._wake_r, self._wake_w = socket.socketpair()
        self._wake_r.setblocking(False)
        self._wake_w.setblocking(False)
        self._selector.register(self._listener, _READ)
        self._selector.register(self._wake_r, _READ)
        self._clients: set[_Client] = set()
        self._nicks: dict[str, _Client] = {}
        self._channels: dict[str, _Channel] = {}
        self._dirty: set[_Client] = set()
        self._stop = False
        self._stop_reason = ""
        self._running = threading.Event()
        self._stopped = threading.Event()
        self._closed = False
        # (handler, least number of parameters, allowed before registration)
        self._commands: dict[str, tuple[Handler, int, bool]] = {
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
            "NAMES": (self._names_cmd, 0, False),
            "WHO": (self._who, 0, False),
            "WHOIS": (self._whois, 1, False),
            "WHOWAS": (self._whowas, 1, False),
            "MODE": (self._mode, 1, False),
            "TOPIC": (self._topic, 1, False),
            "KICK": (self._kick, 2, False),
            "INVITE": (self._invite, 2, False),
            "USERHOST": (self._userhost, 1, False),
            "ISON": (self._ison, 1, False),
            "LIST": (self._list, 0, False),
            "AWAY": (self._away, 0, False),
            "MOTD": (lambda client, params: self._send_motd(client), 0, False),
            "LUSERS": (lambda client, params: self._lusers(client), 0, False),
            "VERSION": (self._version, 0, False),
            "TIME": (self._time, 0, False),
        }

    # -- the loop ------------------------------------------------------------------------------

    def serve_forever(self) -> None:
        """Serve until ``shutdown``; every client is disconnected at the end."""
        self._running.set()
        try:
            while not self._stop:
                for key, mask in self._selector.select():
                    if key.fileobj is self._listener:
                        self._accept()
                    elif key.fileobj is self._wake_r:
                        with contextlib.suppress(OSError):
                            while self._wake_r.recv(4096):
                                pass
                    else:
                        client: _Client = key.data
                        if not client.dead and mask & _WRITE:
                            self._flush(client)
                        if not client.dead and not client.closing and mask & _READ:
                            self._read(client)
                self._flush_dirty()
        finally:
            for client in list(self._clients):
                self._farewell(client)
                self._close(client)
            self._stopped.set()

    def _farewell(self, client: _Client) -> None:
        """The last line a client gets when the server stops (as real servers send it:
        irssi shows it where the connection was), in one try that never waits."""
        reason = self._stop_reason or "Server shutting down"
        self._send(client, f"ERROR :Closing link: {client.host} ({reason})")
        with contextlib.suppress(OSError):
            client.sock.send(client.outbuf)

    def shutdown(self, reason: str = "") -> None:
        """Stop ``serve_forever`` (from any thread) and wait until it has; each client is
        told ``reason`` in its closing ``ERROR`` line."""
        self._stop_reason = reason[:TOPICLEN]
        self._stop = True
        with contextlib.suppress(OSError):
            self._wake_w.send(b"\0")
        if self._running.is_set():
            self._stopped.wait()

    def server_close(self) -> None:
        """Free the port (after ``shutdown``)."""
        if self._closed:
            return
        self._closed = True
        for client in list(self._clients):
            self._close(client)
        self._selector.close()
        for sock in (self._listener, self._wake_r, self._wake_w):
            sock.close()

    def _accept(self) -> None:
        while True:
            try:
                sock, address = self._listener.accept()
            except (BlockingIOError, InterruptedError):
                return
            except ConnectionAbortedError:
                continue
            except OSError as err:  # out of file descriptors: the next turn tries again
                log.warning("embedded IRC server: can't accept a connection: %s", err)
                return
            sock.setblocking(False)
            with contextlib.suppress(OSError):
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            client = _Client(sock, str(address[0]))
            self._clients.add(client)
            self._selector.register(sock, _READ, client)

    def _read(self, client: _Client) -> None:
        try:
            data = client.sock.recv(16384)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            data = b""
        if not data:
            self._disconnect(client, "Connection closed")
            return
        for raw in self._lines(client, data):
            if client.dead or client.closing:
                return
            self._handle(client, raw)

    @staticmethod
    def _lines(client: _Client, data: bytes) -> Iterator[bytes]:
        """Complete lines of ``data`` after what came before; a line over LINE_BYTES is cut
        there and the rest of it dropped (so a client can't make the buffer grow)."""
        buf = client.inbuf
        buf += data
        while True:
            found = _LINE_END.search(buf)
            if found is None:
                if len(buf) > LINE_BYTES:
                    if not client.overlong:
                        client.overlong = True
                        yield bytes(buf[:LINE_BYTES])
                    del buf[:]
                return
            end = found.start()
            raw = bytes(buf[:end])
            del buf[: end + 1]
            if client.overlong:
                client.overlong = False  # the end of a line already cut
                continue
            if raw:
                yield raw[:LINE_BYTES]

    def _handle(self, client: _Client, raw: bytes) -> None:
        line = raw.replace(b"\0", b"").decode("utf-8", "surrogateescape")
        command, params = _parse(line)
        if not command:
            return
        entry = self._commands.get(command)
        if not client.registered and (entry is None or not entry[2]):
            if command == "JOIN" and not "".join(params).strip():
                return  # irssi sends "JOIN :" while it negotiates CAP: nothing to say
            self._num(client, "451", ":You have not registered")
            return
        if entry is None:
            self._num(client, "421", f"{_word(command)} :Unknown command")
            return
        handler, least, _ = entry
        if len(params) < least:
            self._num(client, "461", f"{_word(command)} :Not enough parameters")
            return
        try:
            handler(client, params)
        except Exception as err:  # a bug here must not cost the sender its connection
            log.warning("embedded IRC server: %s from %s failed: %r", command, client.me, err)
            log.debug("embedded IRC server: traceback", exc_info=True)

    # -- sending -------------------------------------------------------------------------------

    def _send(self, client: _Client, line: str) -> None:
        if client.dead:
            return
        client.outbuf += line.encode("utf-8", "surrogateescape") + b"\r\n"
        self._dirty.add(client)

    def _num(self, client: _Client, numeric: str, rest: str) -> None:
        self._send(client, f":{SERVER_NAME} {numeric} {client.me} {rest}")

    def _to_channel(self, channel: _Channel, line: str, skip: _Client | None = None) -> None:
        for member in channel.members:
            if member is not skip:
                self._send(member, line)

    def _registered(self, nick: str) -> _Client | None:
        """The registered client using ``nick`` (one still registering is nobody yet)."""
        peer = self._nicks.get(irc_lower(nick))
        return peer if peer is not None and peer.registered else None

    def _peers(self, client: _Client) -> dict[_Client, None]:
        """Everyone who shares a channel with ``client``, once each, without it."""
        peers: dict[_Client, None] = {}
        for channel in client.channels.values():
            peers.update(dict.fromkeys(channel.members))
        peers.pop(client, None)
        return peers

    def _flush_dirty(self) -> None:
        while self._dirty:
            client = self._dirty.pop()
            if not client.dead:
                self._flush(client)

    def _flush(self, client: _Client) -> None:
        if len(client.outbuf) > SENDQ_BYTES:
            log.warning("embedded IRC server: %s reads too slowly; disconnected", client.me)
            self._disconnect(client, "SendQ exceeded")
            return
        while client.outbuf:
            try:
                sent = client.sock.send(client.outbuf)
            except (BlockingIOError, InterruptedError):
                break
            except OSError:
                self._disconnect(client, "Connection reset by peer")
                return
            del client.outbuf[:sent]
        if client.closing and not client.outbuf:
            self._close(client)
            return
        wanted = (0 if client.closing else _READ) | (_WRITE if client.outbuf else 0)
        if wanted != client.events:
            self._selector.modify(client.sock, wanted, client)
            client.events = wanted

    # -- leaving -------------------------------------------------------------------------------

    def _part_ways(self, client: _Client, reason: str) -> None:
        """Tell the others ``client`` quit, take it out of every channel, free its nick."""
        if client.registered:
            line = f":{client.prefix} QUIT :{reason}"
            for peer in self._peers(client):
                self._send(peer, line)
        for channel in list(client.channels.values()):
            self._remove(client, channel)
        for channel in self._channels.values():
            channel.invited.discard(client)
        if client.nick and self._nicks.get(irc_lower(client.nick)) is client:
            del self._nicks[irc_lower(client.nick)]
        client.registered = False

    def _disconnect(self, client: _Client, reason: str) -> None:
        if not client.dead:
            self._part_ways(client, reason)
            self._close(client)

    def _close(self, client: _Client) -> None:
        if client.dead:
            return
        client.dead = True
        self._clients.discard(client)
        self._dirty.discard(client)
        with contextlib.suppress(KeyError, ValueError, OSError):
            self._selector.unregister(client.sock)
        client.sock.close()

    def _remove(self, client: _Client, channel: _Channel) -> None:
        channel.members.pop(client, None)
        key = irc_lower(channel.name)
        client.channels.pop(key, None)
        if not channel.members and self._channels.get(key) is channel:
            del self._channels[key]

    # -- registration --------------------------------------------------------------------------

    def _cap(self, client: _Client, params: list[str]) -> None:
        """No IRCv3 capabilities: the list is empty and every request is refused. A CAP LS
        before registration holds it until CAP END, as the specification asks."""
        sub = params[0].upper()
        if sub == "LS":
            if not client.registered:
                client.cap_pending = True
            self._send(client, f":{SERVER_NAME} CAP {client.me} LS :")
        elif sub == "LIST":
            self._send(client, f":{SERVER_NAME} CAP {client.me} LIST :")
        elif sub == "REQ":
            if not client.registered:
                client.cap_pending = True
            wanted = params[1] if len(params) > 1 else ""
            self._send(client, f":{SERVER_NAME} CAP {client.me} NAK :{wanted}")
        elif sub == "END":
            client.cap_pending = False
            self._try_register(client)
        else:
            self._num(client, "410", f"{_word(sub)} :Invalid CAP command")

    def _nick(self, client: _Client, params: list[str]) -> None:
        new = params[0] if params else ""
        if not new:
            self._num(client, "431", ":No nickname given")
            return
        if len(new) > NICKLEN or not _NICK.match(new):
            self._num(client, "432", f"{_word(new)} :Erroneous nickname")
            return
        key = irc_lower(new)
        holder = self._nicks.get(key)
        if holder is not None and holder is not client:
            self._num(client, "433", f"{new} :Nickname is already in use")
            return
        if new == client.nick:
            return
        if client.nick:
            del self._nicks[irc_lower(client.nick)]
        self._nicks[key] = client
        if client.registered:
            line = f":{client.prefix} NICK :{new}"
            self._send(client, line)
            for peer in self._peers(client):
                self._send(peer, line)
        client.nick = new
        self._try_register(client)

    def _user(self, client: _Client, params: list[str]) -> None:
        if client.registered or client.user:
            self._num(client, "462", ":You may not reregister")
            return
        client.user = _USERNAME_JUNK.sub("", params[0])[:10] or "user"
        client.realname = params[3][:100]
        self._try_register(client)

    def _try_register(self, client: _Client) -> None:
        if client.registered or not client.nick or not client.user or client.cap_pending:
            return
        client.registered = True
        me = client.nick
        self._num(client, "001", f":Welcome to the local IRC network, {client.prefix}")
        self._num(client, "002", f":Your host is {SERVER_NAME}, running version {VERSION}")
        self._num(client, "003", f":This server was created {self._created}")
        self._num(client, "004", f"{SERVER_NAME} {VERSION} iw {FLAG_MODES}ov")
        self._num(client, "005", f"{ISUPPORT} :are supported by this server")
        self._lusers(client)
        self._send_motd(client)
        log.debug("embedded IRC server: %s registered", me)

    def _lusers(self, client: _Client) -> None:
        users = sum(1 for c in self._clients if c.registered)
        self._num(client, "251", f":There are {users} users and 0 invisible on 1 servers")
        self._num(client, "254", f"{len(self._channels)} :channels formed")
        self._num(client, "255", f":I have {users} clients and 0 servers")

    def _send_motd(self, client: _Client) -> None:
        self._num(client, "375", f":- {SERVER_NAME} Message of the day -")
        for line in self._motd:
            self._num(client, "372", f":- {line}")
        self._num(client, "376", ":End of /MOTD command.")

    def _ping(self, client: _Client, params: list[str]) -> None:
        if not params or not params[0]:
            self._num(client, "409", ":No origin specified")
            return
        self._send(client, f":{SERVER_NAME} PONG {SERVER_NAME} :{params[0]}")

    def _quit(self, client: _Client, params: list[str]) -> None:
        reason = params[0][:TOPICLEN] if params and params[0] else "Client Quit"
        self._part_ways(client, reason)
        self._send(client, f"ERROR :Closing link: {client.host} ({reason})")
        client.closing = True

    def _version(self, client: _Client, params: list[str]) -> None:
        self._num(client, "351", f"{VERSION} {SERVER_NAME} :unobot's local IRC server")

    def _time(self, client: _Client, params: list[str]) -> None:
        self._num(client, "391", f"{SERVER_NAME} :{time.strftime('%a %b %d %Y %H:%M:%S %Z')}")

    # -- channels ------------------------------------------------------------------------------

    def _is_bot(self, client: _Client) -> bool:
        return irc_lower(client.nick) in self._bots

    def _join(self, client: _Client, params: list[str]) -> None:
        names = params[0]
        if names == "0":
            for channel in list(client.channels.values()):
                self._to_channel(channel, f":{client.prefix} PART {channel.name}")
                self._remove(client, channel)
            return
        for name in names.split(","):
            if not name:
                continue
            if not _valid_channel(name):
                self._num(client, "403", f"{_word(name)} :No such channel")
                continue
            key = irc_lower(name)
            channel = self._channels.get(key)
            if channel is not None and client in channel.members:
                continue
            if channel is not None and "i" in channel.modes and client not in channel.invited:
                self._num(client, "473", f"{channel.name} :Cannot join channel (+i)")
                continue
            if channel is None:
                channel = self._channels[key] = _Channel(name)
            # The first to join an empty channel gets +o; the bot doesn't count as someone.
            opped = all(self._is_bot(member) for member in channel.members)
            channel.members[client] = "o" if opped else ""
            channel.invited.discard(client)
            client.channels[key] = channel
            self._to_channel(channel, f":{client.prefix} JOIN {channel.name}")
            if opped:
                self._to_channel(channel, f":{SERVER_NAME} MODE {channel.name} +o {client.nick}")
            if channel.topic:
                self._topic_reply(client, channel)
            self._names(client, channel)

    def _part(self, client: _Client, params: list[str]) -> None:
        reason = params[1][:TOPICLEN] if len(params) > 1 else ""
        for name in params[0].split(","):
            if not name:
                continue
            channel = self._channels.get(irc_lower(name))
            if channel is None:
                self._num(client, "403", f"{_word(name)} :No such channel")
                continue
            if client not in channel.members:
                self._num(client, "442", f"{channel.name} :You're not on that channel")
                continue
            tail = f" :{reason}" if reason else ""
            self._to_channel(channel, f":{client.prefix} PART {channel.name}{tail}")
            self._remove(client, channel)

    def _privmsg(self, client: _Client, params: list[str]) -> None:
        self._message(client, params, "PRIVMSG")

    def _notice(self, client: _Client, params: list[str]) -> None:
        self._message(client, params, "NOTICE")

    def _message(self, client: _Client, params: list[str], command: str) -> None:
        """PRIVMSG and NOTICE; a NOTICE is never answered with an error (RFC 1459)."""
        notice = command == "NOTICE"
        if not params or not params[0]:
            if not notice:
                self._num(client, "411", f":No recipient given ({command})")
            return
        if len(params) < 2 or not params[1]:
            if not notice:
                self._num(client, "412", ":No text to send")
            return
        text = params[1]
        client.active = time.monotonic()
        for target in params[0].split(",")[:MAX_TARGETS]:
            if not target:
                continue
            if target[0] in "#&":
                channel = self._channels.get(irc_lower(target))
                if channel is None:
                    if not notice:
                        self._num(client, "401", f"{_word(target)} :No such nick/channel")
                    continue
                status = channel.members.get(client)
                if (status is None and "n" in channel.modes) or (
                    "m" in channel.modes and not status
                ):
                    if not notice:
                        self._num(client, "404", f"{channel.name} :Cannot send to channel")
                    continue
                line = f":{client.prefix} {command} {channel.name} :{text}"
                self._to_channel(channel, line, skip=client)
                continue
            peer = self._registered(target)
            if peer is None:
                if not notice:
                    self._num(client, "401", f"{_word(target)} :No such nick/channel")
                continue
            self._send(peer, f":{client.prefix} {command} {peer.nick} :{text}")
            if peer.away and not notice:
                self._num(client, "301", f"{peer.nick} :{peer.away}")

    def _names(self, client: _Client, channel: _Channel) -> None:
        symbol = "@" if "s" in channel.modes else "*" if "p" in channel.modes else "="
        names = [channel.prefix_of(member) + member.nick for member in channel.members]
        chunk: list[str] = []
        size = 0
        for name in names:
            if chunk and size + len(name) > 400:
                self._num(client, "353", f"{symbol} {channel.name} :{' '.join(chunk)}")
                chunk, size = [], 0
            chunk.append(name)
            size += len(name) + 1
        if chunk:
            self._num(client, "353", f"{symbol} {channel.name} :{' '.join(chunk)}")
        self._num(client, "366", f"{channel.name} :End of /NAMES list.")

    def _names_cmd(self, client: _Client, params: list[str]) -> None:
        if not params or not params[0]:
            for channel in list(self._channels.values()):
                if channel.visible_to(client):
                    self._names(client, channel)
            return
        for name in params[0].split(",")[:MAX_TARGETS]:
            channel = self._channels.get(irc_lower(name))
            if channel is not None and channel.visible_to(client):
                self._names(client, channel)
            else:
                self._num(client, "366", f"{_word(name)} :End of /NAMES list.")

    def _who(self, client: _Client, params: list[str]) -> None:
        mask = params[0] if params and params[0] else "*"
        if mask[0] in "#&":
            channel = self._channels.get(irc_lower(mask))
            if channel is not None and channel.visible_to(client):
                for member in channel.members:
                    self._who_line(client, member, channel)
        else:
            pattern = "*" if mask == "0" else irc_lower(mask)
            exact = self._nicks.get(pattern)
            found = [exact] if exact is not None else [
                peer for key, peer in self._nicks.items() if fnmatch.fnmatchcase(key, pattern)
            ]  # fmt: skip
            for peer in found[:200]:
                if peer.registered:
                    self._who_line(client, peer, None)
        self._num(client, "315", f"{_word(mask)} :End of /WHO list.")

    def _who_line(self, client: _Client, peer: _Client, channel: _Channel | None) -> None:
        here = "G" if peer.away else "H"
        status = channel.prefix_of(peer) if channel is not None else ""
        where = channel.name if channel is not None else "*"
        self._num(
            client,
            "352",
            f"{where} {peer.user} {peer.host} {SERVER_NAME} {peer.nick} {here}{status} "
            f":0 {peer.realname}",
        )

    def _whois(self, client: _Client, params: list[str]) -> None:
        for nick in params[-1].split(",")[:MAX_TARGETS]:
            peer = self._registered(nick)
            if peer is None:
                self._num(client, "401", f"{_word(nick)} :No such nick/channel")
                self._num(client, "318", f"{_word(nick)} :End of /WHOIS list.")
                continue
            self._num(client, "311", f"{peer.nick} {peer.user} {peer.host} * :{peer.realname}")
            channels = [
                channel.prefix_of(peer) + channel.name
                for channel in peer.channels.values()
                if channel.visible_to(client)
            ]
            if channels:
                self._num(client, "319", f"{peer.nick} :{' '.join(channels)}")
            self._num(client, "312", f"{peer.nick} {SERVER_NAME} :unobot's local IRC server")
            if peer.away:
                self._num(client, "301", f"{peer.nick} :{peer.away}")
            idle = int(time.monotonic() - peer.active)
            self._num(client, "317", f"{peer.nick} {idle} {peer.signon} :seconds idle, signon time")
            self._num(client, "318", f"{peer.nick} :End of /WHOIS list.")

    def _whowas(self, client: _Client, params: list[str]) -> None:
        nick = _word(params[0])
        self._num(client, "406", f"{nick} :There was no such nickname")
        self._num(client, "369", f"{nick} :End of WHOWAS")

    def _mode(self, client: _Client, params: list[str]) -> None:
        if params[0][:1] in ("#", "&"):
            self._channel_mode(client, params[0], params[1:])
        else:
            self._user_mode(client, params[0], params[1:])

    def _channel_mode(self, client: _Client, name: str, args: list[str]) -> None:
        channel = self._channels.get(irc_lower(name))
        if channel is None:
            self._num(client, "403", f"{_word(name)} :No such channel")
            return
        if not args or not args[0]:
            self._num(client, "324", f"{channel.name} +{''.join(sorted(channel.modes))}")
            self._num(client, "329", f"{channel.name} {channel.created}")
            return
        modestring, rest = args[0], list(args[1:])
        lists = {"b": ("368", "ban"), "e": ("349", "exception"), "I": ("347", "invite")}
        if modestring.lstrip("+") in lists and not rest:  # "MODE #c b": the (empty) list
            numeric, what = lists[modestring.lstrip("+")]
            self._num(client, numeric, f"{channel.name} :End of channel {what} list")
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
                peer = self._registered(nick)
                if peer is None:
                    self._num(client, "401", f"{_word(nick)} :No such nick/channel")
                elif peer not in channel.members:
                    self._num(client, "441", f"{peer.nick} {channel.name} :{NOT_THERE}")
                else:
                    status = channel.members[peer]
                    if sign == "+" and char not in status:
                        channel.members[peer] = "".join(m for m in "ov" if m in status + char)
                        applied.append((sign, char, peer.nick))
                    elif sign == "-" and char in status:
                        channel.members[peer] = status.replace(char, "")
                        applied.append((sign, char, peer.nick))
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
            self._num(client, "472", f"{char} :is unknown mode char to me for {channel.name}")
        if need_op:
            self._num(client, "482", f"{channel.name} :You're not channel operator")
        if applied:
            self._to_channel(channel, f":{client.prefix} MODE {channel.name} {_modes(applied)}")

    def _user_mode(self, client: _Client, nick: str, args: list[str]) -> None:
        peer = self._registered(nick)
        if peer is None:
            self._num(client, "401", f"{_word(nick)} :No such nick/channel")
            return
        if peer is not client:
            self._num(client, "502", ":Can't change mode for other users")
            return
        if not args or not args[0]:
            self._num(client, "221", f"+{''.join(sorted(client.modes))}")
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
            self._num(client, "501", ":Unknown MODE flag")
        if applied:
            self._send(client, f":{client.prefix} MODE {client.nick} :{_modes(applied)}")

    def _topic_reply(self, client: _Client, channel: _Channel) -> None:
        self._num(client, "332", f"{channel.name} :{channel.topic}")
        self._num(client, "333", f"{channel.name} {channel.topic_by} {channel.topic_at}")

    def _topic(self, client: _Client, params: list[str]) -> None:
        channel = self._channels.get(irc_lower(params[0]))
        if channel is None:
            self._num(client, "403", f"{_word(params[0])} :No such channel")
            return
        status = channel.members.get(client)
        if len(params) < 2:
            if not channel.visible_to(client):
                self._num(client, "442", f"{channel.name} :You're not on that channel")
            elif channel.topic:
                self._topic_reply(client, channel)
            else:
                self._num(client, "331", f"{channel.name} :No topic is set")
            return
        if status is None:
            self._num(client, "442", f"{channel.name} :You're not on that channel")
            return
        if "t" in channel.modes and "o" not in status:
            self._num(client, "482", f"{channel.name} :You're not channel operator")
            return
        channel.topic = params[1][:TOPICLEN]
        channel.topic_by = client.nick
        channel.topic_at = int(time.time())
        self._to_channel(channel, f":{client.prefix} TOPIC {channel.name} :{channel.topic}")

    def _kick(self, client: _Client, params: list[str]) -> None:
        channel = self._channels.get(irc_lower(params[0]))
        if channel is None:
            self._num(client, "403", f"{_word(params[0])} :No such channel")
            return
        status = channel.members.get(client)
        if status is None:
            self._num(client, "442", f"{channel.name} :You're not on that channel")
            return
        if "o" not in status:
            self._num(client, "482", f"{channel.name} :You're not channel operator")
            return
        reason = params[2][:TOPICLEN] if len(params) > 2 and params[2] else client.nick
        for nick in params[1].split(",")[:MAX_TARGETS]:
            peer = self._nicks.get(irc_lower(nick))
            if peer is None or peer not in channel.members:
                self._num(client, "441", f"{_word(nick)} {channel.name} :{NOT_THERE}")
                continue
            self._to_channel(channel, f":{client.prefix} KICK {channel.name} {peer.nick} :{reason}")
            self._remove(peer, channel)

    def _invite(self, client: _Client, params: list[str]) -> None:
        peer = self._registered(params[0])
        if peer is None:
            self._num(client, "401", f"{_word(params[0])} :No such nick/channel")
            return
        name = params[1]
        channel = self._channels.get(irc_lower(name))
        if channel is not None:
            status = channel.members.get(client)
            if status is None:
                self._num(client, "442", f"{channel.name} :You're not on that channel")
                return
            if peer in channel.members:
                self._num(client, "443", f"{peer.nick} {channel.name} :is already on channel")
                return
            if "i" in channel.modes and "o" not in status:
                self._num(client, "482", f"{channel.name} :You're not channel operator")
                return
            channel.invited.add(peer)
            name = channel.name
        elif not _valid_channel(name):
            self._num(client, "403", f"{_word(name)} :No such channel")
            return
        self._num(client, "341", f"{peer.nick} {name}")
        self._send(peer, f":{client.prefix} INVITE {peer.nick} :{name}")
        if peer.away:
            self._num(client, "301", f"{peer.nick} :{peer.away}")

    # -- queries -------------------------------------------------------------------------------

    def _userhost(self, client: _Client, params: list[str]) -> None:
        replies = []
        for nick in " ".join(params).split()[:5]:
            peer = self._registered(nick)
            if peer is not None:
                replies.append(f"{peer.nick}={'-' if peer.away else '+'}{peer.user}@{peer.host}")
        self._num(client, "302", f":{' '.join(replies)}")

    def _ison(self, client: _Client, params: list[str]) -> None:
        present = []
        for nick in " ".join(params).split()[:50]:
            peer = self._registered(nick)
            if peer is not None:
                present.append(peer.nick)
        self._num(client, "303", f":{' '.join(present)}")

    def _list(self, client: _Client, params: list[str]) -> None:
        wanted = {irc_lower(n) for n in params[0].split(",")} if params and params[0] else None
        self._num(client, "321", "Channel :Users  Name")
        for key, channel in list(self._channels.items()):
            if (wanted is None or key in wanted) and channel.visible_to(client):
                self._num(client, "322", f"{channel.name} {len(channel.members)} :{channel.topic}")
        self._num(client, "323", ":End of /LIST")

    def _away(self, client: _Client, params: list[str]) -> None:
        if params and params[0]:
            client.away = params[0][:AWAYLEN]
            self._num(client, "306", ":You have been marked as being away")
        else:
            client.away = ""
            self._num(client, "305", ":You are no longer marked as being away")


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


def start(
    host: str, port: int, bots: Iterable[str] = (), motd: Iterable[str] = ()
) -> EmbeddedServer:
    """Listen on ``host:port`` and serve in a daemon thread; ``shutdown()`` stops it.

    ``bots``: the bot's nicks, which never count as someone in a channel when deciding who
    gets ``+o`` (see the module doc); ``motd``: the lines of the message of the day.
    Raises OSError when the address can't be used (the port is taken).
    """
    server = EmbeddedServer(host, port, bots=bots, motd=motd)
    thread = threading.Thread(target=server.serve_forever, name="irc-server", daemon=True)
    thread.start()
    return server
