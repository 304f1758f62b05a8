"""The README's start command: ``unobot`` with no settings runs a local IRC server and the bot.

Runs the real entry point as a process (on a free port), connects real clients, and checks that
a colour preference set with .pce-off survives a restart (it lives in ./stats.db).
"""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.e2e.client import TestClient

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class BotProcess:
    def __init__(self, cwd: Path, port: int) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, str(ROOT / "unobot.py"), "--port", str(port)],
            cwd=cwd,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        self.port = port
        deadline = time.monotonic() + 20
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                break
            except OSError:
                assert self.proc.poll() is None, self.proc.stdout.read()  # type: ignore[union-attr]
                assert time.monotonic() < deadline, "the embedded server did not start"
                time.sleep(0.05)

    def stop(self) -> str:
        self.proc.terminate()
        try:
            out, _ = self.proc.communicate(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            out, _ = self.proc.communicate()
        return out


@pytest.fixture
def workdir(tmp_path: Path) -> Iterator[Path]:
    yield tmp_path


def join_when_bot_is_there(client: TestClient) -> None:
    deadline = time.monotonic() + 30  # a loaded CI machine can take a while to start the bot
    while True:
        client.join("#uno")
        names = client.wait_for(lambda m: m.command == "353", what="NAMES")
        if "unobot" in names.text.split():
            return
        assert time.monotonic() < deadline, "the bot never joined #uno"
        client.send("PART #uno")
        time.sleep(0.2)


def test_start_command_runs_server_and_bot_and_keeps_settings(workdir: Path) -> None:
    port = free_port()
    bot = BotProcess(workdir, port)
    try:
        alice = TestClient(port, "alice")
        join_when_bot_is_there(alice)
        alice.privmsg("#uno", ".pce-off")
        alice.wait_for(
            lambda m: m.command == "NOTICE" and m.nick == "unobot", timeout=20, what="pce reply"
        )
        alice.close()
    finally:
        out = bot.stop()
    assert "Connect any IRC client to 127.0.0.1 port" in out
    assert (workdir / "stats.db").exists()

    bot = BotProcess(workdir, port)
    try:
        alice = TestClient(port, "alice")
        bob = TestClient(port, "bob")
        join_when_bot_is_there(alice)
        bob.join("#uno")
        alice.privmsg("#uno", ".uno")
        alice.wait_for(lambda m: m.nick == "unobot" and "opens a game" in m.text)
        bob.privmsg("#uno", ".join")
        alice.wait_for(lambda m: m.nick == "unobot" and "bob joins" in m.text)
        alice.privmsg("#uno", ".deal")
        hand = alice.wait_for(
            lambda m: m.command == "NOTICE" and m.nick == "unobot" and "Your cards" in m.text
        )
        assert "\x03" not in hand.text, "alice turned colours off before the restart"
        bobs = bob.wait_for(
            lambda m: m.command == "NOTICE" and m.nick == "unobot" and "Your cards" in m.text
        )
        assert "\x03" in bobs.text
        alice.close()
        bob.close()
    finally:
        bot.stop()
