"""Issue 27: in the quick start (``unobot`` with no settings) somebody can be in charge.

The embedded server gave nobody channel-operator status, so ``.unorules preset official``
answered "only a channel operator or a bot admin can change the rules" to everyone. Now the
first person to join the bot's channel gets +o (the bot, which joins first, doesn't count),
operators can op and deop others, and ``--admin NICK`` makes a bot admin. All of it through
the real entry point and real client connections: the bot must see the +o it is told about
by a MODE line (it was there first) and by NAMES (when it joins after the person).
"""

from __future__ import annotations

import time
from pathlib import Path

from tests.e2e.client import Msg, TestClient
from tests.e2e.test_entrypoint import BotProcess, free_port

REFUSED = "only a channel operator or a bot admin can change the rules"


def _from_bot(m: Msg) -> bool:
    return m.nick == "unobot" and m.command in ("PRIVMSG", "NOTICE")


def _names(client: TestClient, channel: str) -> list[str]:
    """The channel's NAMES as ``client`` gets them now (``@`` for operators)."""
    mark = len(client.snapshot())
    client.send(f"NAMES {channel}")
    client.wait_for(lambda m: m.command == "366", after=mark, what="end of NAMES")
    return [n for m in client.snapshot()[mark:] if m.command == "353" for n in m.text.split()]


def join_first(client: TestClient, bot: BotProcess) -> None:
    """Once the bot is in #uno (it gets +o as the first to join an empty channel), ``client``
    joins as the first person: the channel's operator, whose +o the bot must count from the
    MODE line it sees."""
    deadline = time.monotonic() + 30
    while "@unobot" not in _names(client, "#uno"):
        assert time.monotonic() < deadline, f"the bot never joined #uno\n{bot.output()}"
        time.sleep(0.1)
    mark = len(client.snapshot())
    client.join("#uno")
    client.wait_for(
        lambda m: m.command == "MODE" and m.params[1:] == ("+o", client.nick), after=mark
    )


def _set_rules(client: TestClient, watcher: TestClient, preset: str) -> str:
    """``client`` asks for ``preset``; the bot's answer: the channel line (seen by
    ``watcher`` too) when accepted, else the refusal (a notice to ``client``)."""
    mark, seen = len(client.snapshot()), len(watcher.snapshot())
    client.privmsg("#uno", f".unorules preset {preset}")
    answer = client.wait_for(
        lambda m: _from_bot(m) and "rules" in m.text,
        after=mark,
        what=f"the answer to .unorules preset {preset}",
        timeout=20,
    )
    if "set the rules" in answer.text:
        watcher.wait_for(lambda m: _from_bot(m) and "set the rules" in m.text, after=seen)
    return answer.text


def test_the_first_person_in_the_quick_start_channel_is_its_operator(tmp_path: Path) -> None:
    bot = BotProcess(tmp_path, free_port(), "--admin", "carol,dave!*@*")
    clients: list[TestClient] = []
    try:
        alice = TestClient(bot.port, "alice")
        clients.append(alice)
        join_first(alice, bot)
        assert {"@alice", "@unobot"} <= set(_names(alice, "#uno"))

        bob = TestClient(bot.port, "bob")
        clients.append(bob)
        bob.join("#uno")
        assert "bob" in _names(bob, "#uno"), "the channel had someone: no op for bob"

        assert "alice set the rules: official" in _set_rules(alice, bob, "official")
        assert REFUSED in _set_rules(bob, alice, "irc-classic")

        # An operator can op someone, and take it back; others get 482.
        bob.send("MODE #uno +o bob")
        bob.wait_for(lambda m: m.command == "482")
        alice.send("MODE #uno +o bob")
        bob.wait_for(lambda m: m.command == "MODE" and m.params[1:] == ("+o", "bob"))
        assert "bob set the rules: irc-classic" in _set_rules(bob, alice, "irc-classic")
        alice.send("MODE #uno -o bob")
        bob.wait_for(lambda m: m.command == "MODE" and m.params[1:] == ("-o", "bob"))
        assert REFUSED in _set_rules(bob, alice, "official")

        # --admin carol: a bot admin without being an operator.
        carol = TestClient(bot.port, "carol")
        clients.append(carol)
        carol.join("#uno")
        assert "carol" in _names(carol, "#uno")
        assert "carol set the rules: ocuk-tournament" in _set_rules(carol, alice, "ocuk-tournament")

        # The bot learns ops from NAMES too: kicked, it rejoins (after irc.rejoin_delay, 5 s)
        # a channel where alice already is an operator.
        bob.send("KICK #uno unobot :no")
        bob.wait_for(lambda m: m.command == "482")
        mark = len(alice.snapshot())
        alice.send("KICK #uno unobot :come back")
        alice.wait_for(lambda m: m.command == "KICK" and m.params[1] == "unobot", after=mark)
        alice.wait_for(lambda m: m.command == "JOIN" and m.nick == "unobot", after=mark, timeout=20)
        assert "unobot" in _names(alice, "#uno"), "the bot came back without +o"
        assert "alice set the rules: official" in _set_rules(alice, bob, "official")
        assert REFUSED in _set_rules(bob, alice, "irc-classic")
    finally:
        for client in clients:
            client.close()
        out = bot.stop()
    assert "Traceback" not in out, out
