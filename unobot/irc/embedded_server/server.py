"""The embedded server's loop: one thread, one ``selectors`` loop over every socket.

It accepts connections, reads complete lines and hands each to :class:`~.commands.Commands`,
and writes what the handlers queued. Why one thread, see the package's doc.

Why zero CPU when idle: the loop sleeps in ``select`` with no timeout and asks for
writability only for sockets that have bytes waiting (a connected socket is nearly always
writable; asking for it all the time spun a core, as the library's server did). The server
sends no PINGs: a local link that dies is closed by the kernel, and a timer would wake it.

Input never harms the server: any CR or LF ends a line (so nothing a client sends can
become two lines for another), NUL bytes are dropped, a line is cut at 510 bytes as IRC
servers do, and bytes that aren't UTF-8 are relayed as they came (``surrogateescape``).
A slow reader never holds anyone else up (over ``SENDQ_BYTES`` unread, it is disconnected,
as real servers do).
"""

from __future__ import annotations

import contextlib
import logging
import re
import selectors
import socket
import threading
from collections.abc import Iterable, Iterator

from unobot.irc.embedded_server.commands import TOPICLEN, Commands
from unobot.irc.embedded_server.state import Client, Network

__all__ = ["EmbeddedServer", "start"]

log = logging.getLogger(__name__)

LINE_BYTES = 510
"""A line's length without CR LF (RFC 1459); the rest of a longer one is dropped."""
SENDQ_BYTES = 4 * 1024 * 1024
"""Unread bytes a client may have waiting before it is disconnected."""

_LINE_END = re.compile(rb"[\r\n]")
_READ = selectors.EVENT_READ
_WRITE = selectors.EVENT_WRITE


class EmbeddedServer:
    """The server. ``serve_forever`` runs the loop (in the thread ``start`` makes);
    ``shutdown`` stops it from any thread, ``server_close`` frees the port."""

    def __init__(
        self, host: str, port: int, bots: Iterable[str] = (), motd: Iterable[str] = ()
    ) -> None:
        self._listener = socket.create_server((host, port), backlog=128)
        self._listener.setblocking(False)
        self.server_address: tuple[str, int] = self._listener.getsockname()[:2]
        self._selector = selectors.DefaultSelector()
        self._wake_r, self._wake_w = socket.socketpair()
        self._wake_r.setblocking(False)
        self._wake_w.setblocking(False)
        self._selector.register(self._listener, _READ)
        self._selector.register(self._wake_r, _READ)
        self._net = Network(bots)
        self._commands = Commands(self._net, motd)
        self._stop = False
        self._stop_reason = ""
        self._running = threading.Event()
        self._stopped = threading.Event()
        self._closed = False

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
                        client: Client = key.data
                        if not client.dead and mask & _WRITE:
                            self._flush(client)
                        if not client.dead and not client.closing and mask & _READ:
                            self._read(client)
                self._flush_dirty()
        finally:
            for client in list(self._net.clients):
                self._farewell(client)
                self._close(client)
            self._stopped.set()

    def _farewell(self, client: Client) -> None:
        """The last line a client gets when the server stops (as real servers send it:
        irssi shows it where the connection was), in one try that never waits."""
        reason = self._stop_reason or "Server shutting down"
        self._net.send(client, f"ERROR :Closing link: {client.host} ({reason})")
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
        for client in list(self._net.clients):
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
            client = Client(sock, str(address[0]))
            self._net.clients.add(client)
            self._selector.register(sock, _READ, client)

    def _read(self, client: Client) -> None:
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
            self._commands.handle(client, raw)

    @staticmethod
    def _lines(client: Client, data: bytes) -> Iterator[bytes]:
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

    def _flush_dirty(self) -> None:
        while self._net.dirty:
            client = self._net.dirty.pop()
            if not client.dead:
                self._flush(client)

    def _flush(self, client: Client) -> None:
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

    def _disconnect(self, client: Client, reason: str) -> None:
        if not client.dead:
            self._net.part_ways(client, reason)
            self._close(client)

    def _close(self, client: Client) -> None:
        if client.dead:
            return
        client.dead = True
        self._net.clients.discard(client)
        self._net.dirty.discard(client)
        with contextlib.suppress(KeyError, ValueError, OSError):
            self._selector.unregister(client.sock)
        client.sock.close()


def start(
    host: str, port: int, bots: Iterable[str] = (), motd: Iterable[str] = ()
) -> EmbeddedServer:
    """Listen on ``host:port`` and serve in a daemon thread; ``shutdown()`` stops it.

    ``bots``: the bot's nicks, which never count as someone in a channel when deciding who
    gets ``+o`` (see :mod:`.commands`); ``motd``: the lines of the message of the day.
    Raises OSError when the address can't be used (the port is taken).
    """
    server = EmbeddedServer(host, port, bots=bots, motd=motd)
    thread = threading.Thread(target=server.serve_forever, name="irc-server", daemon=True)
    thread.start()
    return server
