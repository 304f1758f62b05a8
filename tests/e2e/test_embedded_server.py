"""The embedded default's local IRC server: idle at ~0% CPU, prompt, and a clean Ctrl-C.

Found from outside: ``unobot`` with no arguments sat at 93-99% CPU with nobody playing (each
client's thread in the ``irc`` package's server polled writability every 0.1 s), and Ctrl-C
printed a KeyError traceback from the server's QUIT handler.
"""

from __future__ import annotations

import signal
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.e2e.client import TestClient
from tests.e2e.servers import free_port
from tests.e2e.test_entrypoint import BotProcess, join_when_bot_is_there
from unobot.bench.irc import _cpu_seconds
from unobot.irc import embedded_server

IDLE_SECONDS = 3.0
IDLE_CPU_LIMIT = 0.3
"""CPU seconds the whole process may use in IDLE_SECONDS: 10% of a core, generous for a
loaded machine; the spinning server used a whole core (and more, with more clients)."""


def test_embedded_default_idles_without_cpu_and_stays_responsive(tmp_path: Path) -> None:
    bot = BotProcess(tmp_path, free_port())
    clients: list[TestClient] = []
    try:
        for nick in ("idle1", "idle2", "idle3"):
            client = TestClient(bot.port, nick)
            clients.append(client)
            join_when_bot_is_there(client, bot)
        time.sleep(1.0)  # let start-up work settle
        before = _cpu_seconds(bot.proc.pid)
        started = time.monotonic()
        time.sleep(IDLE_SECONDS)
        after = _cpu_seconds(bot.proc.pid)
        wall = time.monotonic() - started
        assert before is not None and after is not None
        used = after - before
        print(f"idle CPU: {used:.2f} s in {wall:.1f} s with the bot and 3 clients connected")
        assert used < IDLE_CPU_LIMIT, f"{used:.2f} s of CPU in {wall:.1f} s idle"
        sent = time.monotonic()
        clients[0].privmsg("#uno", ".uno")
        clients[1].wait_for(lambda m: m.nick == "unobot" and "opens a game" in m.text, timeout=5)
        print(f".uno answered in {time.monotonic() - sent:.3f} s")
    finally:
        for client in clients:
            client.close()
        bot.stop()


def test_ctrl_c_stops_the_embedded_default_without_a_traceback(tmp_path: Path) -> None:
    bot = BotProcess(tmp_path, free_port())
    alice = TestClient(bot.port, "alice")
    try:
        join_when_bot_is_there(alice, bot)
        alice.privmsg("#uno", ".uno")
        alice.wait_for(lambda m: m.nick == "unobot" and "opens a game" in m.text)
        bot.proc.send_signal(signal.SIGINT)
        out, _ = bot.proc.communicate(timeout=20)
    finally:
        alice.close()
        if bot.proc.poll() is None:
            bot.stop()
    assert bot.proc.returncode == 0, out
    assert "Traceback" not in out and "KeyError" not in out, out
    assert "WARNING" not in out, out
    # the others in the channel saw the bot leave
    assert any(m.command == "QUIT" and m.nick == "unobot" for m in alice.snapshot())


@pytest.fixture
def server() -> Iterator[tuple[embedded_server.EmbeddedServer, int]]:
    port = free_port()
    running = embedded_server.start("127.0.0.1", port)
    yield running, port
    running.shutdown()
    running.server_close()


def test_the_server_relays_at_once_and_survives_odd_input(
    server: tuple[embedded_server.EmbeddedServer, int],
) -> None:
    running, port = server
    alice, bob = TestClient(port, "alice"), TestClient(port, "bob")
    try:
        alice.join("#t")
        bob.join("#t")
        sent = time.monotonic()
        alice.privmsg("#t", "hello")
        bob.wait_for(lambda m: m.command == "PRIVMSG" and m.text == "hello", timeout=1)
        assert time.monotonic() - sent < 1.0
        # A byte that isn't UTF-8 does not drop the sender.
        alice.send_bytes(b"PRIVMSG #t :caf\xe9\r\n")
        bob.wait_for(lambda m: m.command == "PRIVMSG" and m.text.startswith("caf"), timeout=2)
        alice.privmsg("#t", "still here")
        bob.wait_for(lambda m: m.text == "still here", timeout=2)
        # PART of a channel one is not in is answered, not a dropped connection.
        mark = len(alice.snapshot())
        alice.send("PART #nowhere :bye")
        alice.wait_for(lambda m: m.command in ("403", "442"), after=mark, timeout=2)
        # CAP requests are refused, not unknown commands.
        alice.send("CAP REQ :account-tag")
        alice.wait_for(lambda m: m.command == "CAP" and "NAK" in m.params, after=mark)
        # QUIT: the others see it, the quitter gets ERROR and is disconnected.
        alice.send("QUIT :gone")
        bob.wait_for(lambda m: m.command == "QUIT" and m.nick == "alice", timeout=2)
        assert alice.closed.wait(2), "the server closes the link after QUIT"
        mark = len(bob.snapshot())
        bob.send("NAMES #t")
        names = bob.wait_for(lambda m: m.command == "353", after=mark, timeout=2)
        assert names.text.split() == ["bob"], "alice left #t (and her op with her)"
        again = TestClient(port, "alice")  # the nick is free again
        again.close()
    finally:
        alice.close()
        bob.close()


def test_shutdown_returns_and_frees_the_port(
    server: tuple[embedded_server.EmbeddedServer, int],
) -> None:
    running, port = server
    client = TestClient(port, "carol")
    client.join("#t")
    running.shutdown()
    running.server_close()
    with pytest.raises(OSError), socket.create_connection(("127.0.0.1", port), timeout=1):
        pass
    client.close()
