"""The person who starts the bot can administer it, whatever the order of joining: the real
``unobot`` process shows a one-time admin code on its console (on a pseudo-terminal, as a
person runs it) or, with no terminal, in a file only its user can read; ``/msg unobot
.unoadmin CODE`` from a real IRC client makes that client a bot admin for the run.

On the embedded server a friend joins ``#uno`` first and gets the ``@``; the person at the
console, second, is refused the rules, gives the code, and then changes the rules and the
language. On ngircd (a real network's server, the bot with no terminal) the same with the
code read from the file, and the grant follows a nick change. Unit tests:
``tests/core/test_unoadmin.py``, ``tests/core/test_admin_code.py``.
"""

from __future__ import annotations

import re
import signal
import stat
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from tests.e2e.client import Msg, TestClient
from tests.e2e.conftest import unique
from tests.e2e.servers import IrcServer
from tests.e2e.test_entrypoint import free_port
from tests.e2e.test_stop import Console, wait_for_the_bot
from unobot.core.admins import ALPHABET

ROOT = Path(__file__).resolve().parents[2]
SHOWN = re.compile(
    rf"Admin code for this run: ([{ALPHABET}]{{4}}-[{ALPHABET}]{{4}}-[{ALPHABET}]{{4}}) "
)
NEXT = re.compile(rf"the next admin code: ([{ALPHABET}-]{{14}})")


def ask(client: TestClient, target: str, text: str, bot: str = "unobot") -> Msg:
    """``text`` to ``target``; the bot's first answer to this client after it (a NOTICE to
    the client, or a line in the channel)."""
    mark = len(client.snapshot())
    client.privmsg(target, text)
    return client.wait_for(
        lambda m: m.nick == bot and m.command in ("NOTICE", "PRIVMSG"),
        after=mark,
        timeout=15,
        what=f"the answer to {text!r}",
    )


def test_the_person_at_the_console_becomes_admin_though_a_friend_joined_first(
    tmp_path: Path,
) -> None:
    port = free_port()
    console = Console(["--port", str(port)], tmp_path)
    clients: list[TestClient] = []
    try:
        console.wait_for("Ctrl-C stops")
        console.wait_for("a code works once, then the next one is shown here).")
        found = SHOWN.search(console.seen)
        assert found, console.seen
        code = found.group(1)
        friend = TestClient(port, "friend")
        clients.append(friend)
        friend.join("#uno")
        wait_for_the_bot(friend)
        me = TestClient(port, "me")
        clients.append(me)
        me.join("#uno")
        names = me.wait_for(lambda m: m.command == "353", what="NAMES")
        assert "@friend" in names.text.split() and "me" in names.text.split()  # no @ for me

        refused = ask(me, "#uno", ".unorules preset official")
        assert refused.command == "NOTICE"
        assert refused.text == "only a channel operator or a bot admin can change the rules"
        assert ask(me, "#uno", ".unolang de").text.startswith("only a channel operator")

        guess = ask(friend, "unobot", ".unoadmin abcd-efgh-jkmn")
        assert (guess.command, guess.text) == ("NOTICE", "that is not the admin code")

        granted = ask(me, "unobot", f".unoadmin {code}")
        assert granted.command == "NOTICE" and granted.target == "me"
        assert granted.text.startswith("You are a bot admin until the bot stops: you may change")
        console.wait_for("the next admin code: ")
        console.drain()
        following = NEXT.search(console.seen)
        assert following is not None and following.group(1) != code
        log = [
            line for line in console.seen.splitlines() if " WARNING " in line or " INFO " in line
        ]
        assert any("me!me@127.0.0.1 gave the admin code" in line for line in log), log[-5:]
        assert not [line for line in log if code in line], "the code was logged"

        rules = ask(me, "#uno", ".unorules preset official")
        assert (rules.command, rules.target, rules.text) == (
            "PRIVMSG",
            "#uno",
            "me set the rules: official",
        )
        lang = ask(me, "#uno", ".unolang de")
        assert lang.text == "me hat die Sprache hier festgelegt: Deutsch."
        # The code said once is worth nothing to anyone else.
        late = ask(friend, "unobot", f".unoadmin {code}")
        assert late.text == "that is not the admin code"  # (in private: the bot's language)
        # Nobody saw the code in the channel: every answer was private.
        said = [m.text for m in friend.snapshot() if m.command == "PRIVMSG" and m.target == "#uno"]
        assert not [t for t in said if code in t]
    finally:
        console.close()
        for client in clients:
            client.close()


def _bot_process(
    server: IrcServer, cwd: Path, channel: str, watcher: TestClient
) -> subprocess.Popen[str]:
    """``unobot.py`` against ``server``, its output to a pipe (no terminal: a service), its
    log at DEBUG (every IRC line it receives)."""
    proc = subprocess.Popen(
        [sys.executable, str(ROOT / "unobot.py"), "--server", "127.0.0.1",
         "--port", str(server.port), "--channel", channel, "--send-rate", "0",
         "--nick", "unobot", "--log-level", "DEBUG"],
        cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip
    deadline = time.monotonic() + 20
    while not any(m.command == "JOIN" and m.nick == "unobot" for m in watcher.snapshot()):
        assert proc.poll() is None, proc.stdout.read()  # type: ignore[union-attr]
        assert time.monotonic() < deadline, "the bot did not join"
        time.sleep(0.05)
    return proc


def test_on_a_network_with_no_terminal_the_code_is_in_a_file(
    fresh_server: Callable[..., IrcServer], tmp_path: Path
) -> None:
    server = fresh_server("ngircd")
    channel = "#" + unique("admin")
    friend = TestClient(server.port, unique("friend"))
    me = TestClient(server.port, unique("me"))
    proc = None
    code = "(none read)"
    try:
        friend.join(channel)  # the channel's first: @ on ngircd
        me.join(channel)
        proc = _bot_process(server, tmp_path, channel, friend)
        path = tmp_path / "unobot-admin-code"
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
        code = path.read_text().strip()
        assert ask(me, channel, ".unorules preset official").text.startswith("only a channel")
        typo = code[:-1] + ("x" if code[-1] != "x" else "y")  # one character off
        wrong = ask(me, "unobot", f".unoadmin {typo}")
        assert wrong.text == "that is not the admin code"
        typed = code.upper().replace("-", " ")
        granted = ask(me, "unobot", f".unoadmin {typed}")
        assert granted.text.startswith("You are a bot admin until the bot stops")
        assert path.read_text().strip() != code  # the next one
        new = unique("me")
        me.send(f"NICK {new}")
        friend.wait_for(lambda m: m.command == "NICK" and m.text == new, what="the nick change")
        me.nick = new
        rules = ask(me, channel, ".unorules preset official")
        assert rules.text == f"{new} set the rules: official"
    finally:
        if proc is not None:
            proc.send_signal(signal.SIGTERM)
            out, _ = proc.communicate(timeout=20)
            assert "Traceback" not in out, out
            assert f"Admin code for this run: in {tmp_path / 'unobot-admin-code'}" in out
            # Neither the code nor the guesses, though every line received is logged.
            assert "PRIVMSG unobot :.unoadmin ***" in out
            hidden = (code, code.upper().replace("-", " "), code[:-1])
            assert not [t for t in hidden if t in out], out[-3000:]
            assert not (tmp_path / "unobot-admin-code").exists()  # gone with the run
        friend.close()
        me.close()
