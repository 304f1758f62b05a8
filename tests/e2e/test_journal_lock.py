"""One journal folder, one bot: a second bot process started on the folder of a running one
refuses to start (exit 2, one line naming the folder and ``bot.journal``), and the first plays
on with its journal untouched. The lock is the kernel's: a SIGKILLed bot leaves no lock that
would keep the next start out. All with real bot processes, a real ircd and real clients."""

from __future__ import annotations

import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.e2e.conftest import module_server
from tests.e2e.servers import IrcServer
from tests.e2e.test_entrypoint import BotProcess as EmbeddedBot
from tests.e2e.test_entrypoint import free_port
from tests.e2e.test_restarts import ROOT, Scene, recorded

server = module_server("ngircd")


@pytest.fixture
def scene(server: IrcServer, tmp_path: Path) -> Iterator[Scene]:
    made = Scene(server, tmp_path)
    yield made
    made.close()


def contents(folder: Path) -> dict[str, bytes]:
    """Every file of the journal folder, by name, with what it holds."""
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def unobot(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(ROOT / "unobot.py"), *args],
        cwd=cwd, capture_output=True, text=True, timeout=60,
    )  # fmt: skip


def refusal(result: subprocess.CompletedProcess[str], folder: Path, pid: int) -> None:
    """Exit 2 and one line on stderr that names the folder, its holder and the setting."""
    assert result.returncode == 2, (result.stdout, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0] == (
        f"unobot: journal folder {folder} is in use by another unobot (pid {pid}); a second "
        "bot needs a folder of its own: set bot.journal in its config, or start it in "
        "another directory"
    )
    assert result.stdout == ""


def test_a_second_bot_on_the_folder_refuses_and_the_first_plays_on(
    scene: Scene, server: IrcServer, tmp_path: Path
) -> None:
    channel, players, game = scene.open("lock", 2)
    game.start()
    for _ in range(4):
        game.step()
    folder = tmp_path / "unobot-tables"
    before = contents(folder)
    assert any(name.endswith(".jsonl") for name in before)
    assert scene.bot is not None
    second = unobot(
        "--server", "127.0.0.1", "--port", str(server.port), "--channel", channel,
        "--nick", "unobot2", "--send-rate", "0", cwd=tmp_path,
    )  # fmt: skip
    refusal(second, folder, scene.bot.proc.pid)
    # It refused before reading the journal or connecting: nothing written, nobody told.
    assert contents(folder) == before
    assert not [m.raw for p in players for m in p.client.snapshot() if m.nick == "unobot2"]
    for _ in range(4):  # the first bot plays on
        game.step()
    assert scene.bot.proc.poll() is None
    # SIGKILLed, it leaves the lock file behind, but no lock: the next start restores the game.
    assert "Restored after a restart" in scene.kill_and_restart(game)
    assert " wins" in game.play_to_end()
    assert "Traceback" not in scene.bot.term()
    # After a clean exit too, the next bot starts (and quits cleanly on SIGTERM).
    assert "Traceback" not in scene.start().term()
    assert recorded(tmp_path) == 1


def test_the_embedded_default_twice_in_one_folder(tmp_path: Path) -> None:
    """The report's steps: ``unobot``, then ``unobot --port 6668`` (the first one's hint when
    its port is taken) in the same folder. The second refuses before it listens; check-config
    there notes the folder is in use and still says ok."""
    first = EmbeddedBot(tmp_path, free_port())
    try:
        other = free_port()
        refusal(unobot("--port", str(other), cwd=tmp_path), tmp_path / "unobot-tables",
                first.proc.pid)  # fmt: skip
        with pytest.raises(OSError):
            socket.create_connection(("127.0.0.1", other), timeout=0.5).close()
        checked = unobot("check-config", "--port", str(other), cwd=tmp_path)
        assert checked.returncode == 0, checked.stderr
        ok, note = checked.stdout.strip().splitlines()
        assert ok.startswith("settings: ok. unobot on the embedded local server")
        assert note == (
            f"note: journal folder {tmp_path / 'unobot-tables'} is in use by a running unobot "
            f"(pid {first.proc.pid}): fine before restarting that bot; a second bot needs its "
            "own bot.journal."
        )
        # Its own folder (bot.journal) and port: a second bot runs beside the first.
        config = tmp_path / "second.toml"
        config.write_text('[bot]\njournal = "tables-2"\n')
        second = EmbeddedBot(tmp_path, other, "--config", str(config))
        assert (tmp_path / "tables-2" / ".lock").read_text() == f"{second.proc.pid}\n"
        assert "Traceback" not in second.stop()
    finally:
        assert "Traceback" not in first.stop()
    assert unobot("check-config", "--port", "1", cwd=tmp_path).stdout.count("note:") == 0
