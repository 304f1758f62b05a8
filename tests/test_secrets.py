"""Secrets stay secret: masked in the library's DEBUG log, never echoed by a config error, never
shown by a settings ``repr``; and the rule that decides whether NickServ is the service.

The end-to-end side (an impostor NickServ on real servers, PASS with SASL) is in
``tests/e2e/test_identify.py``.
"""

from __future__ import annotations

import argparse
import logging
from pathlib import Path

import irc.client
import pytest

from unobot.config import ConfigError, add_arguments, is_secret, load
from unobot.irc.adapter import IrcSettings, ServerSettings, _event_text, service_verdict
from unobot.irc.redact import MASK, redact_line, redact_text

SECRET = "hunter2xyz"


# --- redacting protocol lines ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        (f"PASS {SECRET}", "PASS ***"),
        (f"PASS :{SECRET}", "PASS ***"),
        ("AUTHENTICATE PLAIN", "AUTHENTICATE PLAIN"),
        ("AUTHENTICATE +", "AUTHENTICATE +"),
        ("AUTHENTICATE AHVub2FjY3QAcGE1NQ==", "AUTHENTICATE ***"),
        ("AUTHENTICATE QUJDREVG", "AUTHENTICATE ***"),  # base64 in capitals only
        (f"OPER admin {SECRET}", "OPER admin ***"),
        (f"PRIVMSG NickServ :IDENTIFY {SECRET}", "PRIVMSG NickServ :IDENTIFY ***"),
        (f"PRIVMSG NickServ :identify account {SECRET}", "PRIVMSG NickServ :identify ***"),
        (f"PRIVMSG NickServ@services.x :ID {SECRET}", "PRIVMSG NickServ@services.x :ID ***"),
        ("PRIVMSG NickServ IDENTIFY", "PRIVMSG NickServ IDENTIFY"),  # nothing to hide
        (f"PRIVMSG NickServ :GHOST unobot {SECRET}", "PRIVMSG NickServ :GHOST ***"),
        (f"PRIVMSG NickServ :SET PASSWORD {SECRET}", "PRIVMSG NickServ :SET PASSWORD ***"),
        (f"NOTICE NickServ :REGISTER {SECRET} a@b.c", "NOTICE NickServ :REGISTER ***"),
        (f"NS IDENTIFY {SECRET}", "NS IDENTIFY ***"),
        (f"NICKSERV :IDENTIFY {SECRET}", "NICKSERV IDENTIFY ***"),
        (f"IDENTIFY {SECRET}", "IDENTIFY ***"),
        (f"@t=1 :a!b@c PRIVMSG me :identify {SECRET}", "@t=1 :a!b@c PRIVMSG me :identify ***"),
        # The bot's one-time admin code (a wrong guess may be the code but for a typo).
        (f":a!b@c PRIVMSG unobot :.unoadmin {SECRET}", ":a!b@c PRIVMSG unobot :.unoadmin ***"),
        (f":a!b@c PRIVMSG #uno :!UnoAdmin {SECRET} x", ":a!b@c PRIVMSG #uno :!UnoAdmin ***"),
        ("PRIVMSG #uno :.unoadmin", "PRIVMSG #uno :.unoadmin"),
        # Lines with nothing secret are left exactly as they are.
        ("PRIVMSG #uno :.pass", "PRIVMSG #uno :.pass"),
        ("PRIVMSG #uno :PASS the salt", "PRIVMSG #uno :PASS the salt"),
        ("JOIN #uno key", "JOIN #uno key"),
        ("PRIVMSG NickServ :INFO unobot", "PRIVMSG NickServ :INFO unobot"),
        ("", ""),
    ],
)  # fmt: skip
def test_redact_line(line: str, expected: str) -> None:
    assert redact_line(line) == expected


def test_redact_text_masks_protocol_lines_and_quoted_identify() -> None:
    assert redact_text(f"TO SERVER: PASS {SECRET}") == "TO SERVER: PASS ***"
    assert redact_text(f"FROM SERVER: :x!y@z PRIVMSG me :IDENTIFY {SECRET}").endswith(
        ":IDENTIFY ***"
    )
    quoted = f"command: privmsg, source: x!y@z, target: me, arguments: ['IDENTIFY {SECRET}']"
    assert SECRET not in redact_text(quoted)
    assert redact_text("process_forever(timeout=0.2)") == "process_forever(timeout=0.2)"


class _Socket:
    """Stands in for the connection's socket: the library writes to it, then logs the line."""

    def __init__(self) -> None:
        self.sent: list[bytes] = []

    def send(self, data: bytes) -> int:
        self.sent.append(data)
        return len(data)


def test_the_librarys_debug_log_shows_no_password(caplog: pytest.LogCaptureFixture) -> None:
    """The irc library's own ``send_raw`` logs each line at DEBUG ("TO SERVER: ..."); with the
    adapter imported (it installs the filter) the secrets are masked in what handlers see,
    while the bytes on the wire are untouched."""
    conn = irc.client.Reactor().server()
    sock = _Socket()
    conn.socket = sock
    caplog.set_level(logging.DEBUG, logger="irc.client")
    conn.pass_(SECRET)
    conn.send_items("AUTHENTICATE", "AHVub2FjY3QAaHVudGVyMnh5eg==")
    conn.privmsg("NickServ", f"IDENTIFY {SECRET}")
    conn.send_raw(f"NS IDENTIFY {SECRET}")
    conn.oper("admin", SECRET)
    conn.privmsg("#uno", "a move")
    assert SECRET not in caplog.text
    assert "aHVudGVyMnh5eg" not in caplog.text
    sent = [r.getMessage() for r in caplog.records if r.name == "irc.client"]
    assert sent == [
        "TO SERVER: PASS ***",
        "TO SERVER: AUTHENTICATE ***",
        "TO SERVER: PRIVMSG NickServ :IDENTIFY ***",
        "TO SERVER: NS IDENTIFY ***",
        "TO SERVER: OPER admin ***",
        "TO SERVER: PRIVMSG #uno :a move",
    ]
    assert sock.sent[0] == f"PASS {SECRET}\r\n".encode()  # the server still gets it
    assert MASK not in b"".join(sock.sent).decode()


# --- config errors and reprs -------------------------------------------------------------------


def _load(tmp_path: Path, text: str):  # type: ignore[no-untyped-def]
    path = tmp_path / "unobot.toml"
    path.write_text(text, encoding="utf-8")
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    return load(parser.parse_args(["--config", str(path)]))


@pytest.mark.parametrize(
    ("text", "named"),
    [
        (f'[irc]\nnickserv_password = ["{SECRET}"]\n',
         "irc.nickserv_password must be str, not a list"),
        (f"[irc]\nsasl_password = {{ pw = \"{SECRET}\" }}\n",
         "irc.sasl_password must be str, not a dict"),
        (f'[[irc.servers]]\nhost = "h"\npassword = ["{SECRET}"]\n',
         "irc.servers[0].password must be str, not a list"),
        (f'[stats]\ndatabase = ["postgresql://u:{SECRET}@h/db"]\n',
         "stats.database must be str, not a list"),
    ],
)  # fmt: skip
def test_a_secret_of_the_wrong_type_is_named_not_shown(
    tmp_path: Path, text: str, named: str
) -> None:
    with pytest.raises(ConfigError) as caught:
        _load(tmp_path, text)
    assert str(caught.value) == named
    assert SECRET not in str(caught.value)


def test_other_settings_still_show_the_wrong_value(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"irc.nick must be str, not \['x'\]"):
        _load(tmp_path, '[irc]\nnick = ["x"]\n')
    with pytest.raises(ConfigError, match=r"irc.servers\[0\].tls must be bool, not 'yes'"):
        _load(tmp_path, '[[irc.servers]]\nhost = "h"\ntls = "yes"\n')


@pytest.mark.parametrize(
    "key",
    ["password", "sasl_password", "nickserv_password", "database", "oper_passwd", "api_token"],
)
def test_secret_keys(key: str) -> None:
    assert is_secret(key)
    assert not is_secret("nick") and not is_secret("nickserv_host")


def test_settings_reprs_hide_passwords() -> None:
    settings = IrcSettings(
        servers=(ServerSettings("h", password=SECRET),),
        sasl_login="acct",
        sasl_password=SECRET,
        nickserv_password=SECRET,
    )
    assert SECRET not in repr(settings)
    assert "acct" in repr(settings)


def test_nickserv_identity_settings(tmp_path: Path) -> None:
    settings = _load(
        tmp_path,
        '[irc]\nnickserv_password = "x"\nnickserv_server = "*"\n'
        'nickserv_host = "NickServ@services.example.net"\n',
    )
    assert settings.irc.nickserv_server == "*"
    assert settings.irc.nickserv_host == "NickServ@services.example.net"
    assert _load(tmp_path, "").irc.nickserv_server == "services.*"  # the default
    for bad, says in [
        ('nickserv_server = "*"', "accepts any server"),
        ('nickserv_server = ""', "must not be empty"),
        ('nickserv_host = "NickServ@*"', "not wildcards only"),
        ('nickserv_server = "*"\nnickserv_host = "*.*"', "not wildcards only"),
    ]:
        with pytest.raises(ConfigError, match=says):
            _load(tmp_path, f"[irc]\n{bad}\n")


# --- who is NickServ ---------------------------------------------------------------------------


def _ns(**overrides: str) -> IrcSettings:
    return IrcSettings(servers=(ServerSettings("h"),), nickserv_password="x", **overrides)


@pytest.mark.parametrize(
    ("settings", "user", "host", "server", "trusted"),
    [
        # The default: on a services server, whoever it is.
        (_ns(), "NickServ", "services.libera.chat", "services.libera.chat", True),
        (_ns(), "services", "services.oftc.net", "Services.OFTC.net", True),
        # An impostor on an ordinary server (a network without services).
        (_ns(), "NickServ", "127.0.0.1", "irc.test", False),
        (_ns(), "~NickServ", "services.fake", "irc.example.net", False),
        (_ns(), "", "", "", False),  # nobody answered
        (_ns(), "NickServ", "h", "", False),  # no server line
        # A host mask narrows it further.
        (_ns(nickserv_host="NickServ@services.libera.chat"), "NickServ", "services.libera.chat",
         "services.libera.chat", True),
        (_ns(nickserv_host="services.libera.chat"), "anything", "services.libera.chat",
         "services.libera.chat", True),
        (_ns(nickserv_host="NickServ@services.libera.chat"), "NickServ", "evil.host",
         "services.libera.chat", False),
        # A network that hides its server names: the host alone decides.
        (_ns(nickserv_server="*", nickserv_host="*@services.example.net"), "NS",
         "services.example.net", "*.example.net", True),
        (_ns(nickserv_server="*", nickserv_host="*@services.example.net"), "NS",
         "user.example.net", "*.example.net", False),
    ],
)  # fmt: skip
def test_service_verdict(
    settings: IrcSettings, user: str, host: str, server: str, trusted: bool
) -> None:
    verdict = service_verdict(settings, user, host, server)
    assert (verdict is None) == trusted, verdict


def test_the_librarys_own_sasl_failures_have_their_reason_read() -> None:
    """irc 20.5 builds ``Event("login_failed", target, [reason])``: the reason lands in the
    event's target, and the log said "SASL login failed: " with nothing after it."""
    event = irc.client.Event("login_failed", "nick", ["server does not support sasl"])
    assert _event_text(event) == "server does not support sasl"
    server_said = irc.client.Event("saslfail", "srv", "nick", ["SASL authentication failed"])
    assert _event_text(server_said) == "SASL authentication failed"
    assert _event_text(irc.client.Event("saslfail", "srv", "nick", [])) == ""
