"""The adapter's connection factory: what it sets on the socket it opens."""

from __future__ import annotations

import socket

import irc.connection

from unobot.irc.adapter import _TimeoutFactory


def test_connections_send_each_line_at_once_without_nagle() -> None:
    with socket.create_server(("127.0.0.1", 0)) as server:
        conn = _TimeoutFactory(5.0, irc.connection.identity).connect(server.getsockname())
        try:
            assert conn.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY) != 0
            assert conn.gettimeout() is None  # blocking: the reactor selects before reading
        finally:
            conn.close()


def test_a_call_from_another_thread_wakes_the_reactor_at_once() -> None:
    """``call_soon_threadsafe`` ends the reactor's select instead of waiting for its timeout
    (how a computer player's decision comes back from its worker process)."""
    import threading
    import time

    from unobot.irc.adapter import IrcAdapter, IrcSettings, ServerSettings

    with socket.create_server(("127.0.0.1", 0)) as server:
        port = server.getsockname()[1]
        adapter = IrcAdapter(
            IrcSettings(servers=(ServerSettings("127.0.0.1", port),), reconnect_min=60),
            lambda incoming: None,
        )
        ran = threading.Event()
        thread = threading.Thread(target=adapter.run, daemon=True)
        thread.start()
        try:
            waits = []
            for _ in range(5):  # the fastest of five: a busy machine may delay one
                time.sleep(0.3)  # the reactor is in its select (the server never answers)
                ran.clear()
                start = time.monotonic()
                adapter.call_soon_threadsafe(ran.set)
                assert ran.wait(5)
                waits.append(time.monotonic() - start)
            assert min(waits) < 0.1, waits  # not the select's 0.2 s timeout
        finally:
            adapter.stop()
            thread.join(5)
