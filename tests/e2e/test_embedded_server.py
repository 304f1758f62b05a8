"""The embedded default's local IRC server: idle at ~0% CPU, prompt, and a clean Ctrl-C.

Found from outside: ``unobot`` with no arguments sat at 93-99% CPU with nobody playing (each
client's thread in the ``irc`` package's server polled writability every 0.1 s), and Ctrl-C
printed a KeyError traceback from the server's QUIT handler.
"""

from __future__ import annotations

import logging
import signal
import socket
import threading
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
    _, port = server
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


HAMMER_CLIENTS = 32
HAMMER_ROUNDS = 15


def _hammer_round(port: int, round_no: int, errors: list[str]) -> None:
    """HAMMER_CLIENTS threads connect, join, talk, change nicks, part and leave at once."""
    start = threading.Barrier(HAMMER_CLIENTS)
    joined = threading.Barrier(HAMMER_CLIENTS)
    talked = threading.Barrier(HAMMER_CLIENTS)
    renamed = threading.Barrier(HAMMER_CLIENTS)

    def one(i: int) -> None:
        nick = f"ham{i}"
        client: TestClient | None = None
        try:
            start.wait(20)
            client = TestClient(port, nick)  # fails on a 433: the nick was left behind
            client.send("JOIN #hammer,#side")
            client.wait_for(
                lambda m: m.command == "366" and m.params[1] == "#side", what="join", timeout=20
            )
            for _ in range(3):  # parts and joins racing the others' joins and quits
                client.send("PART #side :brb")
                client.send("JOIN #side")
            joined.wait(20)  # everyone is in #hammer: each hello reaches all the others
            client.privmsg("#hammer", f"hello from {nick}")
            heard = client.wait_count(
                lambda m: m.command == "PRIVMSG" and m.text.startswith("hello from"),
                HAMMER_CLIENTS - 1,
                timeout=20,
            )
            talked.wait(20)
            if len(heard) < HAMMER_CLIENTS - 1:
                errors.append(f"{nick} heard {len(heard)} of {HAMMER_CLIENTS - 1}")
            new = f"r{round_no}x{i}"
            client.send(f"NICK {new}")
            client.wait_for(lambda m: m.command == "NICK" and m.text == new, what="new nick")
            renamed.wait(20)
            if client.closed.is_set():
                errors.append(f"{nick} was dropped")
            if i % 3 == 0:  # hang up without a word
                client.sock.shutdown(socket.SHUT_RDWR)
                client.sock.close()
            elif i % 3 == 1:
                client.send("PART #hammer,#side :off")
                client.send("QUIT :done")
            else:
                client.send("QUIT :done")
            if i % 3 and not client.closed.wait(10):
                errors.append(f"{nick}: no close after QUIT")
        except Exception as err:  # every failure is reported, not just the first
            errors.append(f"{nick}: {err!r}")
            for barrier in (start, joined, talked, renamed):
                barrier.abort()
        finally:
            if client is not None:
                client.close()

    threads = [threading.Thread(target=one, args=(i,)) for i in range(HAMMER_CLIENTS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(90)


def test_clients_connecting_joining_and_quitting_at_once_are_never_dropped(
    server: tuple[embedded_server.EmbeddedServer, int], caplog: pytest.LogCaptureFixture
) -> None:
    """Issue 27: with a thread per client, three clients joining or quitting at once lost one
    of them ("Set changed size during iteration") and its nick stayed taken. Here 32 clients
    connect, join two channels, part and rejoin, talk, change nicks and quit (with QUIT, after
    PART, or by hanging up) at the same moments, round after round, with the same nicks."""
    caplog.set_level(logging.DEBUG, logger="unobot.irc.embedded_server")
    _, port = server
    errors: list[str] = []
    started = time.monotonic()
    for round_no in range(HAMMER_ROUNDS):
        _hammer_round(port, round_no, errors)
        causes = [e for e in errors if "BrokenBarrierError" not in e]  # the others waited
        assert not errors, f"round {round_no}: {(causes or errors)[:10]}"
        # Nothing left behind: no nick is still in use, no channel still has members.
        probe = TestClient(port, f"probe{round_no}")
        every = [f"ham{i}" for i in range(HAMMER_CLIENTS)]
        every += [f"r{round_no}x{i}" for i in range(HAMMER_CLIENTS)]
        probe.send(f"ISON :{' '.join(every)}")
        ison = probe.wait_for(lambda m: m.command == "303")
        assert ison.text.split() == [], f"left behind: {ison.text}"
        probe.send("NAMES #hammer,#side")
        probe.wait_count(lambda m: m.command == "366", 2)
        assert not probe.received("353"), "a channel still lists someone"
        probe.close()
    print(
        f"{HAMMER_ROUNDS} rounds of {HAMMER_CLIENTS} clients in {time.monotonic() - started:.1f} s"
    )
    bad = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert not bad, [r.getMessage() for r in bad]
