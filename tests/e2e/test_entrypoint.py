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

from tests.e2e.client import Msg, TestClient

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class BotProcess:
    def __init__(self, cwd: Path, port: int, *extra: str) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, str(ROOT / "unobot.py"), "--port", str(port), *extra],
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

    def output(self) -> str:
        """What the bot printed so far, without waiting (for failure messages)."""
        if self.proc.poll() is None:
            return "(still running)"
        return self.proc.stdout.read() if self.proc.stdout else ""  # type: ignore[union-attr]

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


def join_when_bot_is_there(client: TestClient, bot: BotProcess) -> None:
    """Join #uno and wait until the bot is in it: listed by NAMES, or seen joining after us."""
    client.join("#uno")

    def bot_here(m: Msg) -> bool:
        if m.command == "353":  # "@unobot": the bot joined first, as the channel's operator
            return "unobot" in [name.lstrip("@+") for name in m.text.split()]
        return m.command == "JOIN" and m.nick == "unobot"

    try:
        client.wait_for(bot_here, timeout=30, what="the bot in #uno")
    except AssertionError as err:
        raise AssertionError(f"{err}\nbot output:\n{bot.output()}") from None


def deal_for_two(alice: TestClient, bob: TestClient) -> None:
    """alice opens a game in #uno, bob joins it, alice deals."""
    alice.privmsg("#uno", ".uno")
    alice.wait_for(lambda m: m.nick == "unobot" and "opens a game" in m.text)
    bob.privmsg("#uno", ".join")
    alice.wait_for(lambda m: m.nick == "unobot" and "bob joins" in m.text)
    alice.privmsg("#uno", ".deal")


def test_start_command_runs_server_and_bot_and_keeps_settings(workdir: Path) -> None:
    port = free_port()
    bot = BotProcess(workdir, port)
    try:
        alice = TestClient(port, "alice")
        join_when_bot_is_there(alice, bot)
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
        join_when_bot_is_there(alice, bot)
        bob.join("#uno")
        deal_for_two(alice, bob)
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


def test_the_bot_starts_and_plays_with_its_postgresql_down(workdir: Path) -> None:
    """A PostgreSQL that is merely down (nothing listens on its port) is no config error:
    check-config says ok, and the bot starts, plays and says stats are unavailable (it spools
    and retries; tests/e2e/test_database_faults.py shows the catching up)."""
    url = f"postgresql://uno@127.0.0.1:{free_port()}/uno"
    checked = subprocess.run(
        [sys.executable, str(ROOT / "unobot.py"), "check-config", "--database", url],
        cwd=workdir, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert checked.returncode == 0 and "ok." in checked.stdout, checked.stderr
    port = free_port()
    bot = BotProcess(workdir, port, "--database", url)
    try:
        alice, bob = TestClient(port, "alice"), TestClient(port, "bob")
        join_when_bot_is_there(alice, bot)
        bob.join("#uno")
        deal_for_two(alice, bob)
        alice.wait_for(lambda m: m.command == "NOTICE" and "Your cards" in m.text)
        alice.privmsg("#uno", ".unostats")
        alice.wait_for(lambda m: m.nick == "unobot" and "unavailable" in m.text, timeout=20)
        alice.close()
        bob.close()
    finally:
        out = bot.stop()
    assert "Traceback" not in out, out
