"""The local IRC server of the embedded default (``unobot`` with no settings), in-process.

A thin subclass of the ``irc`` package's own minimal server (``irc.server``), which is already a
dependency: a thread per client, JOIN/PART/PRIVMSG/NOTICE/NICK/QUIT. Why a subclass and not the
server as it comes: each client's thread there polls ``select`` for writability every 0.1 s,
and a connected socket is nearly always writable, so every connection (the bot's own included)
spun a CPU core while nobody played. Here a client's thread sleeps in ``select`` until its
socket has input or another thread queues a line for it (a socketpair wakes it), and asks for
writability only while it has lines to send: idle, the process uses no CPU.

It also mends what printed tracebacks on the console: QUIT removed the client from its
channels with ``set.remove`` (KeyError the second time) and left them listed for ``finish`` to
walk again; PART of a channel one isn't in raised the same; one byte that isn't UTF-8 dropped
the sender; errors in a client's thread were printed by ``socketserver``. A user who stops the
bot with Ctrl-C now sees nothing but the bot's own last lines.

Why not miniircd in-process: it is GPL-licensed (this project is MIT), reads its options from a
command line, and the ``irc`` package's server needs only these few changes.
"""

from __future__ import annotations

import contextlib
import logging
import select
import socket
import sys
import threading
from typing import Any

import irc.server

__all__ = ["EmbeddedServer", "start"]

log = logging.getLogger(__name__)


class _WakingQueue(list[str]):
    """One client's lines to send; appending (from any client's thread) wakes its thread."""

    def __init__(self, wake: socket.socket) -> None:
        super().__init__()
        self._wake = wake

    def append(self, line: str) -> None:
        super().append(line)
        # A full wake buffer means a wake-up is already pending; a closed one, a client gone.
        with contextlib.suppress(OSError):
            self._wake.send(b"\0")


class EmbeddedClient(irc.server.IRCClient):
    """A client's connection: sleeps until there is something to read or to send."""

    server: EmbeddedServer

    def setup(self) -> None:
        # socketserver calls setup() before handle(), after IRCClient.__init__ made send_queue.
        self._wake_in, wake_out = socket.socketpair()
        self._wake_in.setblocking(False)
        wake_out.setblocking(False)
        self._wake_out = wake_out
        self.send_queue = _WakingQueue(wake_out)

    def _handle_one(self) -> None:
        want_write = [self.request] if self.send_queue else []
        readable, writable, errored = select.select(
            [self.request, self._wake_in], want_write, [self.request]
        )
        if errored:
            raise self.Disconnect()
        if self._wake_in in readable:
            with contextlib.suppress(BlockingIOError):
                while self._wake_in.recv(4096):
                    pass
        if writable:
            while self.send_queue:
                self._send(self.send_queue.pop(0))
        if self.request in readable:
            self._handle_incoming()

    def _handle_incoming(self) -> None:
        try:
            data = self.request.recv(4096)
        except OSError as err:
            raise self.Disconnect() from err
        if not data:
            raise self.Disconnect()
        self.buffer.feed(data)
        for line in self.buffer:
            # Leniently: a byte that isn't UTF-8 must not drop the sender (the bot copes too).
            self._handle_line(line.decode("utf-8", "replace"))

    def _send(self, msg: str) -> None:
        try:
            self.request.sendall(msg.encode("utf-8") + b"\r\n")  # send() may write a part
        except OSError as err:
            raise self.Disconnect() from err

    def handle_cap(self, params: str) -> str | None:
        """No IRCv3 capabilities: answer what is asked (the bot asks for some) instead of
        logging an unknown command for every connection."""
        sub, _, rest = params.partition(" ")
        sub = sub.upper()
        who = self.nick or "*"
        if sub == "LS":
            return f":{self.server.servername} CAP {who} LS :"
        if sub == "REQ":
            return f":{self.server.servername} CAP {who} NAK :{rest.lstrip(':')}"
        return None  # END, ACK, LIST: nothing to say

    def handle_part(self, params: str) -> None:
        names = params.split(" ", 1)[0]  # "PART #a,#b :reason": the reason is not a channel
        for name in filter(None, names.split(",")):
            channel = self.channels.pop(name, None)
            if channel is None or self not in channel.clients:
                self.send_queue.append(
                    f":{self.server.servername} 442 {self.nick} {name} :You're not on that channel"
                )
                continue
            response = f":{self.client_ident()} PART {name}"
            for client in list(channel.clients):
                client.send_queue.append(response)
            channel.clients.discard(self)

    def handle_quit(self, params: str) -> None:
        """Tell the others, leave every channel once, and close the link as servers do."""
        reason = params.lstrip(":")
        response = f":{self.client_ident()} QUIT :{reason}"
        channels = list(self.channels.values())
        self.channels.clear()
        for channel in channels:
            channel.clients.discard(self)
            for client in list(channel.clients):
                client.send_queue.append(response)
        self._send(f"ERROR :Closing link ({reason or 'quit'})")
        raise self.Disconnect()

    def finish(self) -> None:
        # The base class tells the channels and frees the nick; a QUIT left no channels.
        with contextlib.suppress(KeyError):  # a nick never registered under this client
            super().finish()
        self._wake_in.close()
        self._wake_out.close()


class EmbeddedServer(irc.server.IRCServer):
    """The server; a thread per client (daemon threads: nothing holds the process up)."""

    def handle_error(self, request: Any, client_address: Any) -> None:
        """One line in the log instead of a traceback on the console."""
        err = sys.exc_info()[1]
        log.warning("embedded IRC server: client %s dropped: %r", client_address, err)


def start(host: str, port: int) -> EmbeddedServer:
    """Listen on ``host:port`` and serve in a daemon thread; ``shutdown()`` stops it.

    Raises OSError when the address can't be used (the port is taken).
    """
    # The library logs every connection at INFO ("Client connected: None!None@localhost"):
    # warnings and worse are what a user of the embedded default needs to see.
    logging.getLogger("irc.server").setLevel(logging.WARNING)
    server = EmbeddedServer((host, port), EmbeddedClient)
    thread = threading.Thread(target=server.serve_forever, name="irc-server", daemon=True)
    thread.start()
    return server
