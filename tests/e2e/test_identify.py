"""Logging in without giving a secret away, against real servers.

- On a network without services anyone can take the nick NickServ: a real client does, and
  must receive no IDENTIFY (ngircd, inspircd, miniircd). A service whose identity the config
  names does get it, before the joins; a network with no NickServ at all costs no wait.
- The server password is sent as PASS with SASL configured too (before: never sent, the bot
  was refused at every registration): ngircd and inspircd with a ``Password``, and the
  scripted SASL server for the SASL half.
- DEBUG logs of all this show no password.
"""

from __future__ import annotations

import base64
import logging
import time
from collections.abc import Callable, Iterator

import pytest

from tests.e2e.client import Msg, TestClient
from tests.e2e.conftest import BotHarness, bot_settings, require, unique
from tests.e2e.servers import IrcServer, free_port
from tests.e2e.test_tls_sasl import _SaslServer
from unobot.irc.adapter import ServerSettings

MakeBot = Callable[..., BotHarness]
MakeClient = Callable[..., TestClient]

SECRET = "s3cret-pw-42"
SERVER_PASSWORD = "letmein-77"


def _from(nick: str, command: str = "PRIVMSG") -> Callable[[Msg], bool]:
    return lambda m: m.command == command and m.nick == nick


def _refusals(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.getMessage().startswith("not identifying to")]


def _no_secret_logged(caplog: pytest.LogCaptureFixture) -> None:
    text = "\n".join(r.getMessage() for r in caplog.records)
    assert SECRET not in text and SERVER_PASSWORD not in text


# --- NickServ ----------------------------------------------------------------------------------


def test_a_network_without_nickserv_costs_no_wait(
    irc_server: IrcServer, make_bot: MakeBot, caplog: pytest.LogCaptureFixture
) -> None:
    """Nobody has the nick: the WHOIS says so (401) and the joins go at once, not after the
    check's 10 s bound; one WARNING says why the bot did not identify."""
    caplog.set_level(logging.INFO)
    channel = unique("#nons")
    service = unique("NoServ")  # a nick nobody on the shared server has
    began = time.monotonic()
    bot = make_bot(
        bot_settings(
            irc_server, channels={channel: ""}, nickserv_password=SECRET, nickserv_nick=service
        )
    )
    bot.wait_joined(channel, timeout=8)
    assert time.monotonic() - began < 8
    [refusal] = _refusals(caplog)
    assert refusal.levelno == logging.WARNING
    assert "nobody has the nick" in refusal.getMessage()


def test_an_impostor_nickserv_gets_no_password(
    irc_server: IrcServer,
    make_bot: MakeBot,
    make_client: MakeClient,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A user takes the nick NickServ on a server without services: the bot's WHOIS shows an
    ordinary user on an ordinary server, so no IDENTIFY is sent; the bot joins and plays on."""
    caplog.set_level(logging.DEBUG)
    impostor = make_client(irc_server, "NickServ")
    channel = unique("#imp")
    impostor.join(channel)
    bot = make_bot(bot_settings(irc_server, channels={channel: ""}, nickserv_password=SECRET))
    bot.wait_joined(channel)
    me = bot.adapter.nickname
    impostor.wait_for(_from(me, "JOIN"), what="the bot's JOIN")
    impostor.privmsg(channel, "still here")
    bot.wait_record(lambda r: r.text == "still here")
    time.sleep(0.3)
    got = [m.raw for m in impostor.snapshot() if m.nick == me and m.command != "JOIN"]
    assert got == [], got  # not even a PRIVMSG without the password
    assert not [m for m in impostor.snapshot() if SECRET in m.raw]
    [refusal] = _refusals(caplog)
    assert refusal.levelno == logging.WARNING
    assert "not one matching 'services.*'" in refusal.getMessage()
    assert f"WHOIS {bot.adapter.settings.nickserv_nick}" in caplog.text
    _no_secret_logged(caplog)


@pytest.mark.parametrize("kind", ["miniircd", "ngircd"])
def test_a_confirmed_service_is_identified_to_before_the_joins(
    kind: str,
    make_bot: MakeBot,
    make_client: MakeClient,
    fresh_server: Callable[[str], IrcServer],
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Where the config names the service (its server and its user@host, as this test's
    stand-in has them), the IDENTIFY goes to it, before the JOINs, and the DEBUG log shows
    ``IDENTIFY ***``."""
    caplog.set_level(logging.DEBUG)
    server = fresh_server(kind)
    services = make_client(server, "NickServ")
    services.send("WHOIS NickServ")  # what the bot will be told about it
    user = services.wait_for(lambda m: m.command == "311", what="311")
    where = services.wait_for(lambda m: m.command == "312", what="312")
    channel = unique("#ns")
    services.join(channel)
    bot = make_bot(
        bot_settings(
            server,
            channels={channel: ""},
            nickserv_password=SECRET,
            nickserv_server=where.params[2],
            nickserv_host=f"{user.params[2]}@{user.params[3]}",
        )
    )
    bot.wait_joined(channel)
    me = bot.adapter.nickname
    ident = services.wait_for(_from(me), what="IDENTIFY")
    assert ident.text == f"IDENTIFY {SECRET}"
    # The bot knows it joined before the server has relayed its JOIN to this client: wait.
    services.wait_for(_from(me, "JOIN"), what="the bot's JOIN, relayed")
    lines = services.snapshot()
    assert lines.index(ident) < next(i for i, m in enumerate(lines) if _from(me, "JOIN")(m))
    assert not _refusals(caplog)
    assert "PRIVMSG NickServ :IDENTIFY ***" in caplog.text
    _no_secret_logged(caplog)


# --- the server password with SASL ------------------------------------------------------------


class _PasswordServer(IrcServer):
    """ngircd or inspircd that wants a server password (``PASS``) from every client."""

    def command(self) -> list[str]:
        cmd = super().command()
        if self.kind == "ngircd":
            conf = self.workdir / "ngircd.conf"
            text = conf.read_text().replace(
                "[Global]\n", f"[Global]\n  Password = {SERVER_PASSWORD}\n", 1
            )
        else:
            conf = self.workdir / "inspircd.conf"
            text = conf.read_text().replace(
                '<connect allow="*"',
                f'<connect allow="*" password="{SERVER_PASSWORD}" hash="plaintext"',
                1,
            )
        conf.write_text(text)
        return cmd


@pytest.fixture(params=["ngircd", "inspircd"])
def password_server(request: pytest.FixtureRequest) -> Iterator[IrcServer]:
    require(request.param)
    server = _PasswordServer(request.param, free_port())
    server.start()
    yield server
    server.cleanup()


def _sasl_settings(server: IrcServer, password: str, **extra: object):  # type: ignore[no-untyped-def]
    return bot_settings(
        server,
        servers=(ServerSettings("127.0.0.1", server.port, password=password),),
        sasl_login="unoacct",
        sasl_password=SECRET,
        **extra,
    )


def test_sasl_and_a_server_password_register_on_real_servers(
    password_server: IrcServer, make_bot: MakeBot, caplog: pytest.LogCaptureFixture
) -> None:
    """Before: with SASL configured PASS was never sent, and these servers refused the bot at
    every registration ("Access denied"). Neither runs SASL, so the login fails with a reason
    said (ngircd: "server does not support sasl"; inspircd answers no CAP at all) and the bot
    registers with its server password."""
    caplog.set_level(logging.DEBUG)
    channel = unique("#pw")
    bot = make_bot(_sasl_settings(password_server, SERVER_PASSWORD, channels={channel: ""}))
    bot.wait_joined(channel, timeout=15)
    assert bot.adapter.connects == 1
    failures = [r.getMessage() for r in caplog.records if "SASL login failed" in r.getMessage()]
    if password_server.kind == "ngircd":
        assert failures == ["SASL login failed: server does not support sasl"]
    assert all(f.split(": ", 1)[1].strip() for f in failures)  # never an empty reason
    assert "TO SERVER: PASS ***" in caplog.text
    _no_secret_logged(caplog)


def test_a_wrong_server_password_is_said_in_the_log(
    password_server: IrcServer, make_bot: MakeBot, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, "unobot")
    bot = make_bot(_sasl_settings(password_server, "wrong-one"))
    bot.wait(lambda: bot.adapter.disconnects >= 1, 15, "the refusal")
    assert bot.adapter.connects == 0
    closed = [r for r in caplog.records if r.getMessage().startswith("the server closes the link")]
    assert closed and closed[0].levelno == logging.WARNING
    assert "Access denied" in closed[0].getMessage()


def test_sasl_login_and_pass_together(make_bot: MakeBot, caplog: pytest.LogCaptureFixture) -> None:
    """The scripted SASL server: PASS (the server password) comes first, ahead of NICK and
    USER, and AUTHENTICATE carries the SASL credentials; the bot registers, and does not
    identify to NickServ on top of a SASL login."""
    caplog.set_level(logging.DEBUG)
    fake = _SaslServer()
    try:
        settings = _sasl_settings(
            IrcServer("fake", fake.port), SERVER_PASSWORD, nickserv_password="unused"
        )
        bot = make_bot(settings)
        bot.wait(lambda: bot.adapter.connected, 10, "registration")
        time.sleep(0.2)
        received = list(fake.received)
        assert received[0] == f"PASS {SERVER_PASSWORD}"
        assert received.index("CAP LS") < received.index("CAP END")
        assert [line.split()[0] for line in received[:4]] == ["PASS", "CAP", "NICK", "USER"]
        auth = next(x for x in received if x.startswith("AUTHENTICATE ") and "PLAIN" not in x)
        assert base64.b64decode(auth.split()[1]) == f"\0unoacct\0{SECRET}".encode()
        assert len([x for x in received if x.startswith("PASS")]) == 1
        assert not [x for x in received if "IDENTIFY" in x or x.startswith("WHOIS")]
        _no_secret_logged(caplog)
        assert auth.split()[1] not in caplog.text  # nor the base64 of the SASL exchange
    finally:
        fake.close()
