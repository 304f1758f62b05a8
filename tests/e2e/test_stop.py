"""Stopping is quiet: ``unobot`` and ``unobot web`` run on a pseudo-terminal, as a person runs
them, and stopped as a person (or systemd) stops them: Ctrl-C typed on the terminal (the
terminal sends SIGINT to the whole process group, the ``hard`` player's worker process too)
or SIGTERM to the process group (systemd's default for a unit). Each prints exactly one line
after the signal, no traceback, and exits 0; no worker process is left behind.

On the embedded server the stop also cuts every IRC client off: the farewell in the channel
says so (``reconnect in a moment (/reconnect)``) and the server's last line to each client is
an ``ERROR`` saying the same. Unit tests of the same: ``tests/test_stop.py``.
"""

from __future__ import annotations

import contextlib
import http.client
import os
import signal
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace

import pexpect
import pytest

from tests.e2e.client import Msg, TestClient
from tests.e2e.test_entrypoint import free_port
from tests.e2e.test_games import NetGame, Player
from unobot.stats.sql import SqlStatsStore

ROOT = Path(__file__).resolve().parents[2]


class Console:
    """``python unobot.py ARGS`` on a pseudo-terminal of its own (its session and process
    group, as a shell's foreground job), its output read as it comes."""

    def __init__(self, args: list[str], cwd: Path) -> None:
        env = {**os.environ, "PYTHONUNBUFFERED": "1", "COLUMNS": "200"}
        self.child = pexpect.spawn(
            sys.executable,
            [str(ROOT / "unobot.py"), *args],
            cwd=str(cwd),
            env=env,
            encoding="utf-8",
            codec_errors="replace",
            timeout=30,
            dimensions=(50, 200),
        )
        self.seen = ""
        """Everything the process printed so far (read by :meth:`wait_for` and :meth:`drain`)."""

    def wait_for(self, text: str, timeout: float = 30) -> None:
        try:
            self.child.expect_exact(text, timeout=timeout)
        except (pexpect.TIMEOUT, pexpect.EOF):
            raise AssertionError(f"no {text!r}; output:\n{self.seen}{self.child.before}") from None
        self.seen += self.child.before + self.child.after

    def drain(self) -> None:
        """Read what the process printed so far without waiting (a pty's buffer is small:
        a process that nobody reads would block on a write)."""
        # A pattern matching whatever came: the match consumes it, what an earlier expect
        # read past its match included (expecting TIMEOUT would leave it for the next one).
        while self.child.expect([r"[\s\S]+", pexpect.TIMEOUT, pexpect.EOF], timeout=0.1) == 0:
            self.seen += self.child.before + self.child.after

    def stop(self, how: str) -> tuple[list[str], str, int | None]:
        """Stop the process as ``how`` says (``ctrl-c``: the terminal's interrupt character,
        so the terminal signals the whole foreground group; ``sigterm``: SIGTERM to the
        process group, as systemd stops a unit). Returns the non-empty lines printed after
        the signal, all of that output, and the exit status (None: ended by a signal)."""
        self.drain()
        if how == "ctrl-c":
            self.child.sendintr()
        else:
            os.killpg(self.child.pid, signal.SIGTERM)
        self.child.expect(pexpect.EOF, timeout=30)
        out = self.child.before
        self.child.close()
        lines = [line.replace("^C", "").strip() for line in out.splitlines()]
        return [line for line in lines if line], out, self.child.exitstatus

    def close(self) -> None:
        if self.child.isalive():
            self.child.terminate(force=True)


def children(pid: int) -> dict[int, str]:
    """The processes whose parent is ``pid``, with their command lines."""
    found = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue
        if int(stat.rpartition(")")[2].split()[1]) == pid:
            found[int(entry.name)] = cmdline
    return found


def workers(pid: int) -> list[int]:
    """The bot's computer-player worker processes (``spawn_main``; not the resource
    tracker, which ignores Ctrl-C of its own accord)."""
    return [p for p, cmd in children(pid).items() if "spawn_main" in cmd]


def gone(pids: list[int], timeout: float = 10) -> bool:
    deadline = time.monotonic() + timeout
    while any(Path(f"/proc/{p}").exists() for p in pids):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def wait_for_the_bot(client: TestClient) -> None:
    """Until the bot is in #uno: listed by NAMES (it joined first) or seen joining."""

    def here(m: Msg) -> bool:
        if m.command == "353":
            return "unobot" in [name.lstrip("@+") for name in m.text.split()]
        return m.command == "JOIN" and m.nick == "unobot"

    client.wait_for(here, timeout=20, what="the bot in #uno")


@contextlib.contextmanager
def bot_with_a_person(
    tmp_path: Path, nick: str, *args: str
) -> Iterator[tuple[Console, TestClient]]:
    """``unobot --port P ARGS`` on a terminal (its embedded server) and ``nick``, a real
    client, with it in #uno; both closed afterwards."""
    port = free_port()
    console = Console(["--port", str(port), *args], tmp_path)
    client: TestClient | None = None
    try:
        console.wait_for("Ctrl-C stops")
        client = TestClient(port, nick)
        client.join("#uno")
        wait_for_the_bot(client)
        yield console, client
    finally:
        console.close()
        if client is not None:
            client.close()


@pytest.mark.parametrize("how", ["ctrl-c", "sigterm"])
def test_the_bot_stops_in_one_line_with_a_hard_player_seated(tmp_path: Path, how: str) -> None:
    """A person against a ``hard`` computer player on the embedded server, the game under way
    and the worker process started (it thinks for the computer seat); then Ctrl-C."""
    config = tmp_path / "unobot.toml"
    config.write_text("[bot]\nturn_timeout = 90.0\n\n[bots]\ndelay = 0.3\nplayouts = 40\n")
    with bot_with_a_person(tmp_path, "alice", "--config", str(config)) as (console, alice):
        person = Player(alice, seed=1)
        view = SimpleNamespace(nick="unobot", channel="#uno", table=lambda: None)
        game = NetGame(view, [person])  # type: ignore[arg-type]
        game.command(person, ".uno")
        game.command(person, ".addbot hard")
        game.command(person, ".deal")
        for _ in range(40):  # until the hard player has thought once (the pool started)
            console.drain()
            if workers(console.child.pid):
                break
            game.step()
        started = workers(console.child.pid)
        assert started, "the hard player's worker process never started"
        assert not game.over()
        lines, out, status = console.stop(how)
        name = "Ctrl-C" if how == "ctrl-c" else "SIGTERM"
        assert "Traceback" not in out and "KeyboardInterrupt" not in out, out
        assert lines == [
            f"unobot: stopping ({name}); 1 game will be restored at the next start; the "
            "local IRC server stops too (clients reconnect when it is back)."
        ], out
        assert status == 0
        assert gone(started), "a worker process outlived the bot"
        # What the person in the channel saw: the farewell saying the server goes too, then
        # the server's own last line, and the connection closed.
        farewell = alice.wait_for(
            lambda m: m.nick == "unobot" and m.command == "PRIVMSG" and "/reconnect" in m.text,
            what="the farewell",
        )
        assert farewell.text == (
            "unobot is restarting: this game will be restored when it is back. The IRC "
            "server stops with it: reconnect in a moment (/reconnect)."
        )
        error = alice.wait_for(lambda m: m.command == "ERROR", what="the server's ERROR")
        assert "reconnect in a moment" in error.text
        assert alice.closed.wait(5)


def test_the_bot_says_so_in_a_channel_without_a_game(tmp_path: Path) -> None:
    """On the embedded server everybody loses their connection, not only the players: a
    channel without a game hears it too."""
    with bot_with_a_person(tmp_path, "bob") as (console, bob):
        time.sleep(0.5)  # the bot's NAMES reply is in
        lines, out, status = console.stop("ctrl-c")
        assert lines == [
            "unobot: stopping (Ctrl-C); the local IRC server stops too (clients reconnect "
            "when it is back)."
        ], out
        assert status == 0
        said = bob.wait_for(lambda m: m.nick == "unobot" and m.command == "PRIVMSG")
        assert said.target == "#uno"
        assert said.text == (
            "unobot is stopping, and this IRC server with it: reconnect in a moment (/reconnect)."
        )


@pytest.mark.parametrize("how", ["ctrl-c", "sigterm"])
def test_the_web_site_stops_in_one_line(tmp_path: Path, how: str) -> None:
    """``unobot web`` with a browser's keep-alive connection open; then Ctrl-C."""
    url = f"sqlite:///{tmp_path / 'stats.db'}"
    SqlStatsStore(url, spool_path=tmp_path / "spool").close()  # the bot made the database
    port = free_port()
    console = Console(["web", "--database", url, "--port", str(port)], tmp_path)
    try:
        console.wait_for("Ctrl-C stops")
        browser = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        browser.request("GET", "/")
        page = browser.getresponse()
        assert page.status == 200
        page.read()  # the connection stays open (HTTP/1.1 keep-alive)
        lines, out, status = console.stop(how)
        browser.close()
        name = "Ctrl-C" if how == "ctrl-c" else "SIGTERM"
        assert "Traceback" not in out and "CancelledError" not in out, out
        assert lines == [f"unobot web: stopping ({name})."], out
        assert status == 0
    finally:
        console.close()
