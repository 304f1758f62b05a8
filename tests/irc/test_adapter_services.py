"""The adapter when services rename it: a scripted server on a socket plays the services.

Why scripted: atheme and anope rename an unidentified user of a registered nick only after a
minute or more; the real services' answers to IDENTIFY (right and wrong) are covered against
atheme and anope in ``tests/e2e/test_network_servers.py``. Here the server renames the bot at
once, so the order of things (renamed, identified, the nick taken back) is seen in a second.
"""

from __future__ import annotations

import logging
import socket
import threading
import time
from collections.abc import Iterator

import pytest

from unobot.irc.adapter import IrcAdapter, IrcSettings, ServerSettings


class ScriptedServer:
    """One client; answers registration, WHOIS NickServ and IDENTIFY as services would."""

    def __init__(self, answer: str) -> None:
        self.answer = answer
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.received: list[str] = []
        self.nick = ""
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        conn, _ = self.listener.accept()
        buf = b""
        with conn:
            while True:
                data = conn.recv(4096)
                if not data:
                    return
                *lines, buf = (buf + data).split(b"\r\n")
                for raw in lines:
                    line = raw.decode()
                    self.received.append(line)
                    for reply in self._answer(line):
                        conn.sendall(reply.encode() + b"\r\n")

    def _answer(self, line: str) -> list[str]:
        words = line.split(" ")
        if words[0] == "NICK":
            old, self.nick = self.nick, words[1].lstrip(":")
            return [f":{old}!u@h NICK :{self.nick}"] if old else []
        if words[0] == "USER":
            renamed, self.nick = self.nick, "Guest32460"
            return [
                f":irc.test 001 {renamed} :Welcome",
                f":irc.test 004 {renamed} irc.test scripted-1.0 i o",
                f":{renamed}!u@h NICK :{self.nick}",  # services enforce the registered nick
            ]
        if words[:2] == ["WHOIS", "NickServ"]:
            return [
                f":irc.test 311 {self.nick} NickServ NickServ services.test * :Nick Services",
                f":irc.test 312 {self.nick} NickServ services.test :Services",
                f":irc.test 318 {self.nick} NickServ :End of /WHOIS list.",
            ]
        if line.startswith("PRIVMSG NickServ :IDENTIFY"):
            return [f":NickServ!NickServ@services.test NOTICE {self.nick} :{self.answer}"]
        return []

    def close(self) -> None:
        self.listener.close()


@pytest.fixture
def run_bot() -> Iterator:
    adapters: list[tuple[IrcAdapter, threading.Thread, ScriptedServer]] = []

    def start(answer: str) -> tuple[IrcAdapter, ScriptedServer]:
        server = ScriptedServer(answer)
        settings = IrcSettings(
            servers=(ServerSettings("127.0.0.1", server.port),),
            nick="unobot",
            nickserv_password="pw",
            nickserv_server="services.*",
            reconnect_min=60,
        )
        adapter = IrcAdapter(settings, lambda incoming: None)
        thread = threading.Thread(target=adapter.run, daemon=True)
        thread.start()
        adapters.append((adapter, thread, server))
        return adapter, server

    yield start
    for adapter, thread, server in adapters:
        adapter.stop()
        thread.join(5)
        server.close()


def wait(condition, what: str, timeout: float = 5.0) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, what
        time.sleep(0.02)


def test_renamed_by_services_it_identifies_and_takes_its_nick_back(
    run_bot, caplog: pytest.LogCaptureFixture
) -> None:  # type: ignore[no-untyped-def]
    caplog.set_level(logging.INFO, "unobot")
    adapter, server = run_bot("You are now \x02identified\x02 for \x02unobot\x02.")
    wait(lambda: adapter.nickname == "unobot" and "NICK unobot" in server.received[2:], "nick")
    said = [(r.levelno, r.getMessage()) for r in caplog.records]
    renamed = [m for lvl, m in said if "renamed from unobot to Guest32460" in m]
    assert renamed and all(lvl == logging.WARNING for lvl, m in said if m in renamed)
    assert (logging.INFO, "identified to NickServ: You are now identified for unobot.") in said
    assert any("the bot is unobot again" in m for _, m in said)
    order = server.received
    assert order.index("PRIVMSG NickServ :IDENTIFY pw") < order.index("NICK unobot", 1)


def test_a_refused_password_is_a_warning_and_the_nick_is_not_fought_for(
    run_bot, caplog: pytest.LogCaptureFixture
) -> None:  # type: ignore[no-untyped-def]
    caplog.set_level(logging.INFO, "unobot")
    adapter, server = run_bot("Invalid password for \x02unobot\x02.")
    wait(lambda: any("refused the password" in r.getMessage() for r in caplog.records), "warn")
    record = next(r for r in caplog.records if "refused the password" in r.getMessage())
    assert record.levelno == logging.WARNING
    assert record.getMessage() == (
        "NickServ refused the password (irc.nickserv_password): Invalid password for unobot."
    )
    time.sleep(0.5)
    assert adapter.nickname == "Guest32460"
    assert "NICK unobot" not in server.received[1:]  # services would only rename it again
    assert "pw" not in caplog.text.replace("password", "")
