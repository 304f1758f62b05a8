"""TLS (verify on by default, a pinned self-signed certificate, or verify off) and SASL PLAIN."""

from __future__ import annotations

import base64
import socket
import threading
import time
from collections.abc import Callable

from tests.e2e.conftest import BotHarness, bot_settings, unique
from tests.e2e.servers import IrcServer, free_port
from unobot.irc.adapter import ServerSettings

MakeBot = Callable[..., BotHarness]


def _tls_settings(server: IrcServer, **tls: object) -> dict[str, object]:
    return {"servers": (ServerSettings("127.0.0.1", server.port, tls=True, **tls),)}  # type: ignore[arg-type]


def test_tls_refuses_a_self_signed_certificate_by_default(
    make_bot: MakeBot, fresh_server: Callable[..., IrcServer]
) -> None:
    server = fresh_server("miniircd", tls=True)
    bot = make_bot(bot_settings(server, **_tls_settings(server)))
    bot.wait(lambda: bot.adapter.disconnects >= 2, 10, "failed attempts")
    assert bot.adapter.connects == 0


def test_tls_with_the_pinned_certificate_or_verify_off(
    make_bot: MakeBot, fresh_server: Callable[..., IrcServer]
) -> None:
    server = fresh_server("miniircd", tls=True)
    for tls in ({"tls_ca_file": str(server.cert_file)}, {"tls_verify": False}):
        channel = unique("#tls")
        bot = make_bot(bot_settings(server, channels={channel: ""}, **_tls_settings(server, **tls)))
        bot.wait_joined(channel)
        rec = bot.wait_record(lambda r, c=channel: r.target == c)
        assert rec.nick == bot.adapter.nickname
        bot.stop()


class _SaslServer:
    """A scripted server for the SASL PLAIN exchange (real SASL needs linked services)."""

    def __init__(self) -> None:
        self.port = free_port()
        self.listener = socket.create_server(("127.0.0.1", self.port))
        self.received: list[str] = []
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        conn, _ = self.listener.accept()
        with conn:
            buf = b""
            nick = "*"
            while True:
                data = conn.recv(4096)
                if not data:
                    return
                buf += data
                *lines, buf = buf.split(b"\r\n")
                for raw in lines:
                    line = raw.decode()
                    self.received.append(line)
                    words = line.split()
                    reply = ""
                    if words[0] == "NICK":
                        nick = words[1]
                    elif line == "CAP LS":
                        reply = "CAP * LS :multi-prefix sasl"
                    elif line == "CAP REQ sasl":
                        reply = "CAP * ACK :sasl"
                    elif line == "AUTHENTICATE PLAIN":
                        reply = "AUTHENTICATE +"
                    elif words[0] == "AUTHENTICATE":
                        reply = f":srv 903 {nick} :SASL authentication successful"
                    elif line == "CAP END":
                        reply = f":srv 001 {nick} :Welcome"
                    elif line == "CAP REQ :account-tag":
                        reply = "CAP * ACK :account-tag"
                    elif line == "CAP REQ :extended-join":
                        reply = "\r\n".join(
                            [
                                "CAP * ACK :extended-join",
                                ":ann!a@h JOIN #uno annacct :Ann",
                                ":bob!b@h JOIN #uno * :Bob",
                                "@account=annacct :ann!a@h PRIVMSG #uno :.unostop",
                                ":bob!b@h PRIVMSG #uno :.unostop",
                            ]
                        )
                    if reply:
                        conn.sendall(reply.encode() + b"\r\n")

    def close(self) -> None:
        self.listener.close()


def test_sasl_plain_login(make_bot: MakeBot) -> None:
    fake = _SaslServer()
    try:
        settings = bot_settings(
            IrcServer("fake", fake.port),
            sasl_login="unoacct",
            sasl_password="pa55",
            nickserv_password="unused-with-sasl",
        )
        bot = make_bot(settings)
        bot.wait(lambda: bot.adapter.connected, 10, "registration")
        auth = next(
            line
            for line in fake.received
            if line.startswith("AUTHENTICATE ") and "PLAIN" not in line
        )
        assert base64.b64decode(auth.split()[1]) == b"\x00unoacct\x00pa55"
        time.sleep(0.3)
        assert not [line for line in fake.received if "IDENTIFY" in line]
        assert not [line for line in fake.received if line.startswith("PASS")]
        # IRCv3 account-tag and extended-join become Incoming.account.
        bot.wait_record(lambda r: r.nick == "bob" and r.text == ".unostop")
        accounts = [(r.kind.value, r.nick, r.account) for r in bot.seen()]
        assert accounts == [
            ("join", "ann", "annacct"),
            ("join", "bob", None),
            ("message", "ann", "annacct"),
            ("message", "bob", None),
        ]
    finally:
        fake.close()
