"""The adapter's connection factory: what it sets on the socket it opens."""

from __future__ import annotations

import socket

import irc.connection

from unobot.irc_adapter import _TimeoutFactory


def test_connections_send_each_line_at_once_without_nagle() -> None:
    with socket.create_server(("127.0.0.1", 0)) as server:
        conn = _TimeoutFactory(5.0, irc.connection.identity).connect(server.getsockname())
        try:
            assert conn.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY) != 0
            assert conn.gettimeout() is None  # blocking: the reactor selects before reading
        finally:
            conn.close()
