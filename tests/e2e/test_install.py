"""The path a new user takes: the README's start command, run literally on a fresh copy.

Every other test runs the editable install that ``tests/run.sh`` makes, which once hid a start
command that failed for every user (an installed wheel's compiled engine refused to load). Here
a copy of the tree as a fresh clone has it gets the README's own command (read from README.md):
a new venv, ``pip install .`` (a wheel built and installed, non-editable, compiled with mypyc)
and the ``unobot`` console script, which must start the embedded default and play. The same
install then runs the bot against a real ngircd, ``python unobot.py`` from the copy, and shows
that an edited installed source makes the engine fall back to Python instead of running stale.

The install compiles the engine (minutes on a slow machine): one install serves the module.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.e2e.client import Msg, TestClient
from tests.e2e.conftest import require
from tests.e2e.servers import IrcServer, free_port, start_server

ROOT = Path(__file__).resolve().parents[2]
INSTALL_SECONDS = 900  # a slow machine compiling with mypyc; normally a few minutes


def readme_start_command() -> str:
    """The README's install-and-start command: the quick start's first shell block."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    quick = text.split("## Quick start", 1)[1]
    block = re.search(r"```sh\n(.*?)```", quick, re.S)
    assert block, "README's quick start has no ```sh block"
    lines = [line for line in block.group(1).splitlines() if line.strip()]
    assert len(lines) == 1 and "pip install" in lines[0], lines
    return lines[0]


def fresh_copy(dest: Path) -> Path:
    """The files a fresh clone has (tracked and new, not ignored), without build output."""
    try:
        listed = subprocess.run(
            ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
            cwd=ROOT,
            capture_output=True,
            check=True,
        ).stdout.split(b"\0")
    except (OSError, subprocess.CalledProcessError):  # not a git checkout (an unpacked sdist)
        skip = shutil.ignore_patterns(
            ".*", "build", "__pycache__", "*.so", "stats.db*", "*.egg-info"
        )
        shutil.copytree(ROOT, dest, ignore=skip, dirs_exist_ok=True)
        return dest
    for raw in filter(None, listed):
        name = raw.decode()
        source = ROOT / name
        if source.is_file():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, dest / name)
    return dest


def user_env() -> dict[str, str]:
    """This environment less what would steer an install or import away from a user's."""
    env = dict(os.environ)
    for name in ("VIRTUAL_ENV", "PYTHONPATH", "PYTHONHOME", "UNOBOT_PURE"):
        env.pop(name, None)
    venv_bin = str(Path(sys.executable).parent)
    env["PATH"] = os.pathsep.join(p for p in env.get("PATH", "").split(os.pathsep) if p != venv_bin)
    return env


def wait_for_port(proc: subprocess.Popen[str], port: int, timeout: float) -> None:
    import socket

    deadline = time.monotonic() + timeout
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            return
        except OSError:
            if proc.poll() is not None:
                raise AssertionError(f"exited {proc.returncode}:\n{output(proc)}") from None
            assert time.monotonic() < deadline, f"nothing listened on {port} in {timeout}s"
            time.sleep(0.2)


def output(proc: subprocess.Popen[str]) -> str:
    return proc.stdout.read() if proc.stdout else ""


def group_pids(leader: int) -> list[int]:
    """Processes in ``leader``'s process group (the shell and the bot it started)."""
    pids = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[2]) == leader:
                pids.append(int(entry.name))
    return pids


def bot_pid(leader: int) -> int:
    """The process that runs the bot: the one with unobot's engine loaded."""
    for pid in group_pids(leader):
        try:
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            continue
        if b"unobot" in cmdline and b"sh\0-c" not in cmdline:
            return pid
    raise AssertionError(f"no unobot process in group {leader}: {group_pids(leader)}")


def stop_like_ctrl_c(proc: subprocess.Popen[str], pid: int) -> tuple[int, str]:
    """SIGINT to the bot (what Ctrl-C sends), then its exit status and everything printed."""
    os.kill(pid, signal.SIGINT)
    try:
        out, _ = proc.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, _ = proc.communicate()
        raise AssertionError(f"did not stop on SIGINT:\n{out}") from None
    return proc.returncode, out


def from_bot(nick: str, text: str, command: str = "") -> Callable[[Msg], bool]:
    """A line from ``nick`` containing ``text`` (of ``command``, if given)."""

    def match(m: Msg) -> bool:
        return m.nick == nick and text in m.text and (not command or m.command == command)

    return match


def play_a_few_commands(port: int, channel: str = "#uno", bot: str = "unobot") -> None:
    """Two people open a game, deal, each get a hand by NOTICE, look at the table, stop."""
    alice = TestClient(port, "alice")
    bob = TestClient(port, "bob")
    try:
        for client in (alice, bob):
            client.join(channel)
        alice.wait_for(
            lambda m: (
                (m.command == "353" and bot in [n.lstrip("@+") for n in m.text.split()])
                or (m.command == "JOIN" and m.nick == bot)
            ),
            timeout=30,
            what="the bot in the channel",
        )
        alice.privmsg(channel, ".uno")
        alice.wait_for(from_bot(bot, "opens a game"), what=".uno reply")
        bob.privmsg(channel, ".join")
        alice.wait_for(from_bot(bot, "bob joins"), what=".join reply")
        alice.privmsg(channel, ".deal")
        for client in (alice, bob):
            client.wait_for(from_bot(bot, "Your cards", "NOTICE"), what="hand")
        mark = len(bob.snapshot())
        bob.privmsg(channel, ".top")
        bob.wait_for(lambda m: m.nick == bot and m.text.startswith("Top: "), after=mark)
        alice.privmsg(channel, ".unostop")
        alice.wait_for(from_bot(bot, "stop"), what=".unostop reply")
    finally:
        alice.close()
        bob.close()


def start(args: list[str], cwd: Path) -> subprocess.Popen[str]:
    """A process as a user starts it from ``cwd`` (its own session, output collected)."""
    return subprocess.Popen(
        args,
        cwd=cwd,
        env=user_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )


def play_and_stop(proc: subprocess.Popen[str], port: int, pid: int | None = None) -> str:
    """Play a few commands on the bot at ``port``, Ctrl-C it (``pid``, default ``proc``), and
    check it stopped cleanly; returns what it printed."""
    try:
        play_a_few_commands(port)
        status, out = stop_like_ctrl_c(proc, pid or proc.pid)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert status == 0, out
    assert "Traceback" not in out, out
    return out


class Installed:
    """The fresh copy and its venv after the README's command installed it."""

    def __init__(self, copy: Path) -> None:
        self.copy = copy
        self.venv = copy / ".venv"
        self.site = next((self.venv / "lib").glob("python3*/site-packages"))


@pytest.fixture(scope="module")
def readme_install(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Installed, dict]]:
    """Run the README's start command in a fresh copy; yield once the bot it started has been
    played with and stopped with Ctrl-C (cleanly: status 0, no traceback).

    The command both installs and starts the bot, so the first look at the running bot happens
    here; what it saw is handed to the tests that check it.
    """
    copy = fresh_copy(tmp_path_factory.mktemp("clone"))
    port = free_port()
    command = f"{readme_start_command()} --port {port}"
    proc = start(["sh", "-c", command], copy)
    seen: dict = {"command": command}
    try:
        wait_for_port(proc, port, INSTALL_SECONDS)
        pid = bot_pid(proc.pid)
        seen["maps"] = Path(f"/proc/{pid}/maps").read_text()
        seen["output"] = play_and_stop(proc, port, pid)
    except BaseException:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
        raise
    yield Installed(copy), seen


def test_readme_command_installs_a_compiled_wheel_and_starts_plays_and_stops(
    readme_install: tuple[Installed, dict],
) -> None:
    installed, seen = readme_install
    # Non-editable: the package is in site-packages, with the compiled engine beside it.
    assert (installed.site / "unobot" / "engine" / "cards.py").exists()
    assert not list(installed.site.glob("__editable__*"))
    compiled = list((installed.site / "unobot" / "engine").glob("cards.*.so"))
    assert compiled, "the engine was not compiled"
    # Only unobot lands at the top of site-packages (the plugins are unobot.plugins, the
    # compiled engine's shared library unobot._engine__mypyc): no name to collide with.
    record = next(installed.site.glob("unobot-*.dist-info")) / "RECORD"
    tops = {line.split(",", 1)[0].split("/", 1)[0] for line in record.read_text().splitlines()}
    tops.discard("..")  # the console script, in the venv's bin/
    assert tops == {"unobot", record.parent.name}, tops
    assert (installed.site / "unobot" / "plugins" / "uno_game.py").exists()
    assert list((installed.site / "unobot").glob("_engine__mypyc.*.so"))
    # The running bot loaded the compiled engine from the install (no fallback to Python).
    assert str(installed.site) in seen["maps"] and "__mypyc" in seen["maps"]
    assert "pure Python" not in seen["output"]
    assert "Connect any IRC client to 127.0.0.1 port" in seen["output"]


def test_installed_wheel_speaks_every_language_from_compiled_catalogues(
    readme_install: tuple[Installed, dict],
) -> None:
    """The wheel carries every catalogue compiled (setup.py runs Babel when it builds): the
    installed bot answers ``.unolang me de`` in German from the ``.mo``, not from a ``.po``."""
    installed, _ = readme_install
    from unobot.i18n import DOMAINS, LANGUAGES

    locale = installed.site / "unobot" / "locale"
    for lang in LANGUAGES[1:]:
        for name in DOMAINS:
            assert (locale / lang / "LC_MESSAGES" / f"{name}.mo").stat().st_size > 100
    assert not list(locale.rglob("*.po")), "sources are not installed"
    script = (
        "from unobot.i18n import catalog, domain, speaking\n"
        "import gettext\n"
        "_, n = domain('commands')\n"
        "assert type(catalog('de', 'commands')) is gettext.GNUTranslations\n"
        "with speaking('de'):\n"
        "    print(_('What is sent to you alone is now in {language}.', language='Deutsch'))\n"
    )
    done = subprocess.run(
        [str(installed.venv / "bin" / "python"), "-c", script],
        cwd="/", env=user_env(), capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    said = done.stdout.strip()
    assert "Deutsch" in said and "What is sent" not in said, said


def test_installed_console_script_plays_on_a_real_server(
    readme_install: tuple[Installed, dict],
) -> None:
    """The installed ``unobot`` against ngircd: a network, not the embedded server."""
    installed, _ = readme_install
    require("ngircd")
    server: IrcServer = start_server("ngircd")
    try:
        unobot = str(installed.venv / "bin" / "unobot")
        args = ["--server", "127.0.0.1", "--port", str(server.port), "--send-rate", "0"]
        play_and_stop(start([unobot, *args], installed.copy), server.port)
    finally:
        server.cleanup()


def test_python_unobot_py_starts_from_the_copy(readme_install: tuple[Installed, dict]) -> None:
    """``python unobot.py`` after the install (the README's other way to start)."""
    installed, _ = readme_install
    port = free_port()
    proc = start([str(installed.venv / "bin" / "python"), "unobot.py", "--port", str(port)],
                 installed.copy)  # fmt: skip
    wait_for_port(proc, port, 60)
    play_and_stop(proc, port)


def test_installed_version_and_check_config_with_a_file_plugin(
    readme_install: tuple[Installed, dict], tmp_path: Path
) -> None:
    """What an operator of the installed bot runs: ``--version`` (from the wheel's metadata),
    ``check-config`` on the example config, and on one adding a plugin file beside it."""
    installed, _ = readme_install
    unobot = str(installed.venv / "bin" / "unobot")

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [unobot, *args], cwd=tmp_path, env=user_env(), capture_output=True, text=True,
            timeout=60,
        )  # fmt: skip

    assert run("--version").stdout.strip() == "unobot 0.1.0 (compiled engine)"
    example = run("check-config", str(installed.copy / "unobot.toml.example"))
    assert example.returncode == 0 and ": ok." in example.stdout, example.stderr
    (tmp_path / "hello.py").write_text(
        "from unobot.core.plugin import command\n"
        "@command('hello')\ndef hello(ctx):\n    ctx.say('hello')\n"
    )
    config = tmp_path / "unobot.toml"
    config.write_text(
        '[bot]\nplugins = ["unobot.plugins.uno_game", "hello.py"]\n', encoding="utf-8"
    )
    checked = run("check-config", str(config))
    assert checked.returncode == 0, checked.stderr
    assert "plugins unobot.plugins.uno_game, unobot_plugin_hello." in checked.stdout
    assert not (tmp_path / "stats.db").exists()  # it checked, and opened nothing


def test_an_edited_installed_source_runs_as_python_not_stale(
    readme_install: tuple[Installed, dict], tmp_path: Path
) -> None:
    """The guard still catches a source changed after compiling, without file times."""
    installed, _ = readme_install
    python = str(installed.venv / "bin" / "python")
    probe = (
        "import unobot.engine.game as g, unobot.engine.cards as c; print(c.COMPILED, g.__file__)"
    )

    def run() -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [python, "-c", probe], cwd=tmp_path, env=user_env(), capture_output=True, text=True,
            timeout=60,
        )  # fmt: skip

    before = run()
    assert before.returncode == 0 and before.stdout.startswith("True "), before
    game = installed.site / "unobot" / "engine" / "game.py"
    original = game.read_bytes()
    try:
        game.write_bytes(original + b"\n# edited after the install\n")
        after = run()
    finally:
        game.write_bytes(original)
    assert after.returncode == 0, after.stderr
    assert after.stdout.strip() == f"False {game}"
    assert "changed after it was compiled" in after.stderr
    assert run().stdout.startswith("True ")


def test_installed_web_site_and_replay_serve_the_example_store(
    readme_install: tuple[Installed, dict], tmp_path: Path
) -> None:
    """The stats site and the replay command from the wheel (templates and static files are
    package data: an editable install would hide their absence), on the shipped example."""
    import json
    import urllib.request

    installed, _ = readme_install
    unobot = str(installed.venv / "bin" / "unobot")
    example = shutil.copy(installed.copy / "stats.db.example", tmp_path / "stats.db")
    url = f"sqlite:///{example}"
    replay = subprocess.run(
        [unobot, "replay", "1", "--reveal", "--database", url], cwd=tmp_path, env=user_env(),
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert replay.returncode == 0, replay.stderr
    assert replay.stdout.startswith("Game ") and "--- hand 1 ---" in replay.stdout
    port = free_port()
    proc = start([unobot, "web", "--database", url, "--port", str(port)], tmp_path)
    try:
        wait_for_port(proc, port, 60)

        def get(path: str) -> str:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=10) as reply:
                assert reply.status == 200, path
                return reply.read().decode()

        assert 'id="leaderboard"' in get("/leaderboard?ranking=pw")
        assert "<svg" in get("/player/Alice")
        assert 'id="replay-data"' in get("/game/1")
        assert "card-" in get("/static/site.css")
        game = json.loads(get("/api/game/1"))
        assert game["results"][0]["place"] == 1 and len(game["steps"]) > 10
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
