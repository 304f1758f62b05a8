"""Extra connections (``irc.connections``) against a real server and the real bot process:
each extra connection joins its share of the channels with its own nick; the primary reads
every channel; the lines of a channel (its game's lines, its players' hands) leave through
the connection of that channel."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

from tests.e2e.client import TestClient
from tests.e2e.conftest import module_server, unique
from tests.e2e.servers import IrcServer
from unobot.irc.pool import home_of

ROOT = Path(__file__).resolve().parents[2]


server = module_server("ngircd")


def channels_per_connection(count: int) -> list[str]:
    """One fresh channel name homed on each of ``count`` connections."""
    found: dict[int, str] = {}
    while len(found) < count:
        name = "#" + unique("cx")
        found.setdefault(home_of(name, count), name)
    return [found[i] for i in range(count)]


def test_three_connections_share_the_channels_and_send_their_lines(
    server: IrcServer, tmp_path: Path
) -> None:
    channels = channels_per_connection(3)
    nick = unique("ub")
    watchers = []
    for channel in channels:
        client = TestClient(server.port, unique("w"))
        client.join(channel)
        watchers.append(client)
    config = tmp_path / "unobot.toml"
    config.write_text(f'[irc]\nconnections = 3\nalt_nicks = ["{nick}b", "{nick}c"]\n')
    proc = subprocess.Popen(
        [sys.executable, str(ROOT / "unobot.py"), "--config", str(config), "--server",
         "127.0.0.1", "--port", str(server.port), "--nick", nick, "--send-rate", "0",
         *[arg for c in channels for arg in ("--channel", c)]],
        cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip
    players: list[TestClient] = []
    try:
        # The primary joins every channel; the extra connection k joins channel k only.
        expected = [{nick}, {nick, f"{nick}b"}, {nick, f"{nick}c"}]
        for watcher, want in zip(watchers, expected, strict=True):
            deadline = time.monotonic() + 20
            while {m.nick for m in watcher.received("JOIN")} & {
                nick,
                f"{nick}b",
                f"{nick}c",
            } != want:
                assert proc.poll() is None, proc.stdout.read()  # type: ignore[union-attr]
                assert time.monotonic() < deadline, [m.raw for m in watcher.received("JOIN")]
                time.sleep(0.05)
        # A game in the channel of the second extra connection: commands go to the primary,
        # the channel's lines and the hands come from the extra connection's nick.
        channel = channels[2]
        alice, bob = TestClient(server.port, unique("al")), TestClient(server.port, unique("bo"))
        players = [alice, bob]
        for p in players:
            p.join(channel)
        time.sleep(0.3)
        alice.privmsg(channel, ".uno")
        opened = alice.wait_for(lambda m: m.command == "PRIVMSG" and m.target == channel)
        assert opened.nick == f"{nick}c", opened.raw
        bob.privmsg(channel, ".join")
        alice.privmsg(channel, ".deal")
        hand = bob.wait_for(lambda m: m.command == "NOTICE" and "cards" in m.text)
        assert hand.nick == f"{nick}c", hand.raw
        # The primary's own channel is still answered by the primary.
        watchers[0].privmsg(channels[0], ".uno")
        line = watchers[0].wait_for(lambda m: m.command == "PRIVMSG" and m.target == channels[0])
        assert line.nick == nick, line.raw
        proc.terminate()
        out, _ = proc.communicate(timeout=15)
        assert "Traceback" not in out, out
    finally:
        if proc.poll() is None:
            proc.kill()
        for client in watchers + players:
            client.close()
