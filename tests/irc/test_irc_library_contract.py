"""The private parts of the ``irc`` library the adapter overrides, checked on whatever release
is installed (issue 40: ``irc>=20.5`` has no upper bound, so a fresh install gets the newest).

The adapter relies on two things the library does not promise: every event reaches the
reactor's ``_handle_event(connection, event)`` (``_Reactor`` replaces it to guard and cache the
handlers), and a SASL login keeps its state in ``_sasl_step`` and ends with ``_sasl_end()``
(``_ServerConnection.end_sasl`` calls it on the replies the library does not know). These tests
drive the real library over a real socket, so a release that renames or reroutes either fails
here by name rather than as a bot that silently stops answering or never registers.
"""

from __future__ import annotations

import socket
import threading
import time

import irc.client

from unobot.irc.adapter import _Reactor, _ServerConnection


class _Server:
    """A one-connection line server: sends ``greeting`` and records what the client sends."""

    def __init__(self, greeting: bytes) -> None:
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        self.received = b""
        self._greeting = greeting
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        conn, _ = self.sock.accept()
        with conn:
            conn.settimeout(5)
            time.sleep(0.2)  # after the client's registration lines
            conn.sendall(self._greeting)
            try:
                while chunk := conn.recv(4096):
                    self.received += chunk
            except OSError:
                pass

    def close(self) -> None:
        self.sock.close()


def _pump(reactor: irc.client.Reactor, until: object, seconds: float = 5.0) -> None:
    deadline = time.monotonic() + seconds
    while not until() and time.monotonic() < deadline:  # type: ignore[operator]
        reactor.process_once(0.05)


def test_every_event_goes_through_the_reactors_handle_event() -> None:
    server = _Server(b":srv 001 me :Welcome\r\n:ann!a@h PRIVMSG #uno :.uno\r\n")
    reactor = _Reactor()
    routed: list[str] = []
    original = reactor._handle_event

    def spy(connection: object, event: irc.client.Event) -> None:
        routed.append(event.type)
        original(connection, event)

    reactor._handle_event = spy  # type: ignore[method-assign]
    seen: list[str] = []
    reactor.add_global_handler("pubmsg", lambda c, e: seen.append(e.arguments[0]))
    conn = reactor.server()
    assert isinstance(conn, _ServerConnection)
    try:
        conn.connect("127.0.0.1", server.port, "me")
        _pump(reactor, lambda: seen)
        assert seen == [".uno"], "the library no longer delivers events to our handlers"
        assert "welcome" in routed and "pubmsg" in routed, (
            "irc.client.Reactor no longer routes events through _handle_event(connection, event)"
        )
    finally:
        conn.close()
        reactor.close_wake()
        server.close()


def test_a_sasl_login_keeps_its_step_and_ends_with_sasl_end() -> None:
    server = _Server(b":srv CAP * LS :sasl\r\n")
    reactor = _Reactor()
    conn = reactor.server()
    try:
        conn.connect("127.0.0.1", server.port, "me", password="pw", sasl_login="me")
        _pump(reactor, lambda: b"CAP REQ" in server.received)
        assert b"CAP REQ" in server.received
        assert getattr(conn, "_sasl_step", None) is not None, (
            "irc.client.ServerConnection no longer keeps a SASL login's state in _sasl_step"
        )
        assert conn.end_sasl() is True  # calls the library's _sasl_end
        _pump(reactor, lambda: b"CAP END" in server.received)
        assert b"CAP END" in server.received
        assert conn._sasl_step is None and conn.end_sasl() is False
    finally:
        conn.close()
        reactor.close_wake()
        server.close()
