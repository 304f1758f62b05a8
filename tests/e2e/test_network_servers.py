"""The servers big old networks run, and real services, as fixtures (tests/e2e/servers.py).

ircu 2.10.12 (Undernet), irc2 2.11 (IRCnet) and ircd-hybrid 8.2 (EFnet/OFTC family) from
unpacked Debian packages with Debian's default classes; atheme on InspIRCd 3 (SASL PLAIN and
NickServ) and anope on hybrid (NickServ). Clients connect from their own loopback addresses,
as players do: the servers' per-IP limits are Debian's. Not in ``SERVER_KINDS`` (every other
e2e test would run on them): these tests are the place to grow per-server checks.
"""

from __future__ import annotations

import base64
import itertools
import logging
import socket
import threading
import time
from collections.abc import Callable, Iterator

import pytest

from tests.e2e.client import Msg, TestClient
from tests.e2e.conftest import BotHarness, bot_settings, require, unique
from tests.e2e.servers import NETWORK_KINDS, SERVICES, IrcServer, plain_text, start_server

MakeBot = Callable[..., BotHarness]

_addresses = (f"127.{a}.{b}.{c}" for a in (61, 62) for b in range(256) for c in range(1, 255))


def address() -> str:
    """A loopback source address no other client of this module used (servers count and
    throttle connections per IP: ircu 4 per 40 s, hybrid 1 per 2 s and 2 at once)."""
    return next(_addresses)


_nicks = itertools.count(1)


def nick(prefix: str = "p") -> str:
    """Short enough for ircu's NICKLEN 12."""
    return f"{prefix}{next(_nicks)}"


@pytest.fixture(scope="module")
def _servers() -> Iterator[dict[str, IrcServer]]:
    """One server per kind for the module, started when a test first asks for it."""
    started: dict[str, IrcServer] = {}
    yield started
    for server in started.values():
        server.cleanup()


def _server(servers: dict[str, IrcServer], kind: str) -> IrcServer:
    require(kind)
    if kind not in servers:
        began = time.monotonic()
        servers[kind] = start_server(kind)
        logging.getLogger("e2e").info(
            "%s listening after %.2f s (start_server %.2f s)",
            kind,
            servers[kind].start_seconds,
            time.monotonic() - began,
        )
    return servers[kind]


@pytest.fixture(params=NETWORK_KINDS)
def network_server(request: pytest.FixtureRequest, _servers: dict[str, IrcServer]) -> IrcServer:
    return _server(_servers, request.param)


@pytest.fixture
def ircu(_servers: dict[str, IrcServer]) -> IrcServer:
    return _server(_servers, "ircu")


def _client(server: IrcServer, prefix: str = "p") -> TestClient:
    return TestClient(server.port, nick(prefix), source=address())


def _said(sender: str, command: str, text: str) -> Callable[[Msg], bool]:
    return lambda m: m.command == command and m.nick == sender and m.text == text


def test_starts_fast_and_two_clients_talk_in_a_channel(network_server: IrcServer) -> None:
    """Two clients from different loopback addresses register, join, and exchange PRIVMSG
    and NOTICE both ways; the server started in a few seconds."""
    assert network_server.start_seconds < 5
    alice, bob = _client(network_server, "a"), _client(network_server, "b")
    try:
        channel = unique("#net")
        alice.join(channel)
        bob.join(channel)
        alice.privmsg(channel, "hello bob")
        bob.wait_for(_said(alice.nick, "PRIVMSG", "hello bob"), what="channel PRIVMSG")
        bob.send(f"NOTICE {channel} :hello alice")
        alice.wait_for(_said(bob.nick, "NOTICE", "hello alice"), what="channel NOTICE")
        alice.privmsg(bob.nick, "psst")
        bob.wait_for(_said(alice.nick, "PRIVMSG", "psst"), what="private PRIVMSG")
        bob.send(f"NOTICE {alice.nick} :noted")
        alice.wait_for(_said(bob.nick, "NOTICE", "noted"), what="private NOTICE")
        # each client is seen from its own address (nothing rewrote the source)
        alice.send(f"WHOIS {bob.nick}")
        whois = alice.wait_for(lambda m: m.command == "311", what="WHOIS")
        assert whois.params[3].startswith("127.61.")
    finally:
        alice.close()
        bob.close()


def test_ircu_advertises_cprivmsg_cnotice_and_ten_channels(ircu: IrcServer) -> None:
    client = _client(ircu)
    isupport = " ".join(m.raw for m in client.received("005"))
    client.close()
    for token in ("CPRIVMSG", "CNOTICE", "MAXCHANNELS=10", "NICKLEN=12"):
        assert f" {token} " in isupport, isupport


def test_twenty_four_players_on_twenty_four_addresses_all_get_in(
    network_server: IrcServer,
) -> None:
    """Debian's per-IP limits stay, and nothing else (hybrid's 16 clients per /24, ident
    requirements, registration timeouts) stops a table's worth of players."""
    clients: list[TestClient] = []
    errors: list[BaseException] = []
    lock = threading.Lock()

    def connect() -> None:
        try:
            client = _client(network_server, "t")
        except BaseException as exc:  # handed to the test thread
            with lock:
                errors.append(exc)
            return
        with lock:
            clients.append(client)

    threads = [threading.Thread(target=connect) for _ in range(24)]
    try:
        for t in threads:
            t.start()
        for t in threads:
            t.join(30)
        assert not errors, errors[:3]
        assert len(clients) == 24
    finally:
        for client in clients:
            client.close()


def test_ircu_target_change_limit_439_is_on(ircu: IrcServer) -> None:
    """Undernet's "Target change too fast" (439) stays: a client messaging one new nick after
    another runs out of its 10 free targets (the bot must cope with it). One line with a
    list of 12 targets shows it without waiting out ircu's flood timer."""
    clients = [_client(ircu, "t") for _ in range(12)]
    sender = _client(ircu, "s")
    clients.append(sender)
    try:
        sender.privmsg(",".join(c.nick for c in clients[:-1]), "hi")
        refusal = sender.wait_for(lambda m: m.command == "439", what="439")
        assert "Target change too fast" in refusal.text
        assert refusal.params[1] in {c.nick for c in clients[-3:-1]}  # the 11th or the 12th
    finally:
        for client in clients:
            client.close()


# --- services --------------------------------------------------------------------------------


@pytest.fixture(scope="module", params=sorted(SERVICES))
def services_server(request: pytest.FixtureRequest) -> Iterator[IrcServer]:
    """inspircd + atheme, hybrid + anope: NickServ on services.test, account registered."""
    services = request.param
    kind = SERVICES[services]
    require(kind)
    require(services)
    server = start_server(kind, services=services)
    logging.getLogger("e2e").info(
        "%s + %s: NickServ ready %.2f s after the services started",
        kind,
        services,
        server.services_seconds,
    )
    yield server
    server.cleanup()


def _nickserv_answer(client: TestClient, line: str) -> str:
    mark = len(client.snapshot())
    client.send(line)
    answer = client.wait_for(
        lambda m: m.command == "NOTICE" and m.nick == "NickServ", after=mark, what="NickServ"
    )
    return plain_text(answer.text)


IDENTIFIED = {"atheme": "You are now identified for unobot.", "anope": "Password accepted"}
WRONG_PASSWORD = {"atheme": "Invalid password for unobot.", "anope": "Password incorrect."}


def test_nickserv_lives_on_a_services_server(services_server: IrcServer) -> None:
    client = _client(services_server, "w")
    try:
        client.send("WHOIS NickServ")
        where = client.wait_for(lambda m: m.command == "312", what="WHOIS server")
        assert where.params[2] == "services.test"
    finally:
        client.close()


def test_nickserv_identify_right_and_wrong_password(services_server: IrcServer) -> None:
    services = services_server.services
    assert services is not None
    account, password = services_server.account, services_server.password
    client = _client(services_server, "i")
    try:
        wrong = _nickserv_answer(client, f"PRIVMSG NickServ :IDENTIFY {account} not-{password}")
        assert wrong.startswith(WRONG_PASSWORD[services]), wrong
        right = _nickserv_answer(client, f"PRIVMSG NickServ :IDENTIFY {account} {password}")
        assert right.startswith(IDENTIFIED[services]), right
    finally:
        client.close()


@pytest.mark.parametrize("services_server", ["atheme"], indirect=True)  # hybrid has no SASL
def test_sasl_plain_logs_in_on_inspircd_with_atheme(services_server: IrcServer) -> None:
    sock = socket.create_connection(
        ("127.0.0.1", services_server.port), source_address=(address(), 0)
    )
    sock.settimeout(10)
    me = nick("s")
    token = base64.b64encode(
        f"\0{services_server.account}\0{services_server.password}".encode()
    ).decode()
    buf = b""

    def until(*commands: str) -> str:
        nonlocal buf
        while True:
            while b"\r\n" in buf:
                raw, buf = buf.split(b"\r\n", 1)
                line = raw.decode()
                words = line.split()
                if line.startswith("PING"):
                    sock.sendall(b"PONG " + raw[5:] + b"\r\n")
                elif len(words) > 1 and (words[1] in commands or words[0] in commands):
                    return line
            data = sock.recv(4096)
            assert data, "server closed the connection"
            buf += data

    try:
        sock.sendall(f"CAP LS 302\r\nNICK {me}\r\nUSER {me} 0 * :sasl test\r\n".encode())
        assert "sasl" in until("CAP")
        sock.sendall(b"CAP REQ :sasl\r\n")
        assert " ACK " in until("CAP")
        sock.sendall(b"AUTHENTICATE PLAIN\r\n")
        assert until("AUTHENTICATE").split()[-1] in ("+", ":+")
        sock.sendall(f"AUTHENTICATE {token}\r\n".encode())
        logged_in = until("900", "903", "904")
        if " 900 " in logged_in:
            logged_in = until("903", "904")
        assert " 903 " in logged_in, logged_in
        sock.sendall(b"CAP END\r\n")
        assert " 001 " in until("001")
    finally:
        sock.close()


def test_the_bot_logs_in_with_the_services(
    services_server: IrcServer, make_bot: MakeBot, caplog: pytest.LogCaptureFixture
) -> None:
    """The real adapter: SASL PLAIN on inspircd + atheme; NickServ IDENTIFY (after its WHOIS
    found NickServ on services.*) on hybrid + anope. A second client's WHOIS then shows the
    bot logged in to the account (330)."""
    caplog.set_level(logging.INFO)
    account, password = services_server.account, services_server.password
    channel = unique("#svc")
    if services_server.services == "atheme":
        extra = {"sasl_login": account, "sasl_password": password, "nick": nick("bot")}
    else:
        extra = {"nickserv_password": password, "nick": account}
    bot = make_bot(bot_settings(services_server, channels={channel: ""}, **extra))
    bot.wait_joined(channel, timeout=20)
    watcher = _client(services_server, "w")
    try:
        deadline = time.monotonic() + 10
        while True:
            mark = len(watcher.snapshot())
            watcher.send(f"WHOIS {bot.adapter.nickname}")
            end = watcher.wait_for(lambda m: m.command == "318", after=mark, what="WHOIS end")
            lines = watcher.snapshot()[mark:]
            if any(m.command == "330" and m.params[2] == account for m in lines):
                break
            assert time.monotonic() < deadline, [m.raw for m in lines] + [end.raw]
            time.sleep(0.2)
    finally:
        watcher.close()
    assert not [r for r in caplog.records if r.getMessage().startswith("not identifying to")]


@pytest.mark.parametrize("right", [True, False], ids=["right", "wrong"])
def test_the_log_says_in_one_line_what_nickserv_answered(
    services_server: IrcServer, make_bot: MakeBot, caplog: pytest.LogCaptureFixture, right: bool
) -> None:
    """atheme's "Invalid password for unobot." and anope's "Password incorrect." were raw
    DEBUG lines: now a WARNING naming the setting; a correct IDENTIFY is confirmed at INFO."""
    caplog.set_level(logging.INFO, "unobot")
    services = services_server.services or ""
    password = services_server.password if right else "not-the-password"
    channel = unique("#ns")
    bot = make_bot(
        bot_settings(
            services_server,
            channels={channel: ""},
            nick=services_server.account,
            nickserv_password=password,
        )
    )
    bot.wait_joined(channel, timeout=20)
    wanted = "identified to NickServ: " if right else "NickServ refused the password"
    deadline = time.monotonic() + 10
    while not [r for r in caplog.records if wanted in r.getMessage()]:
        assert time.monotonic() < deadline, caplog.text[-2000:]
        time.sleep(0.1)
    record = next(r for r in caplog.records if wanted in r.getMessage())
    assert record.levelno == (logging.INFO if right else logging.WARNING)
    said = IDENTIFIED[services] if right else WRONG_PASSWORD[services]
    assert said in record.getMessage()
    assert "irc.nickserv_password" in record.getMessage() or right
    assert password not in caplog.text or right  # the wrong one is never shown either


def test_sasl_on_a_server_without_capabilities_is_said_at_warning(
    make_bot: MakeBot, caplog: pytest.LogCaptureFixture
) -> None:
    """ircu answers CAP with 421: SASL configured there used to be skipped without a word,
    though the README promised the reason would be logged."""
    require("ircu")
    caplog.set_level(logging.INFO, "unobot")
    server = start_server("ircu")
    try:
        channel = unique("#sasl")
        bot = make_bot(
            bot_settings(
                server, channels={channel: ""}, nick=nick("b"), sasl_login="unobot",
                sasl_password="secret-pw",
            )
        )  # fmt: skip
        bot.wait_joined(channel, timeout=20)
        skipped = [r for r in caplog.records if "SASL login skipped" in r.getMessage()]
        assert len(skipped) == 1 and skipped[0].levelno == logging.WARNING
        assert "does not negotiate capabilities" in skipped[0].getMessage()
        assert "secret-pw" not in caplog.text
        assert "sending by the ircu flood model" in caplog.text
    finally:
        server.cleanup()


def test_a_restart_keeps_the_port_and_the_account(services_server: IrcServer) -> None:
    """``restart`` (as reconnect tests use it) brings back the server on its port and the
    services with the account (from their database, or registered again)."""
    port = services_server.port
    services_server.restart()
    assert services_server.port == port
    client = _client(services_server, "r")
    try:
        account, password = services_server.account, services_server.password
        right = _nickserv_answer(client, f"PRIVMSG NickServ :IDENTIFY {account} {password}")
        assert right.startswith(IDENTIFIED[services_server.services or ""]), right
    finally:
        client.close()


@pytest.mark.parametrize("kind", NETWORK_KINDS)
def test_kill_and_restart(kind: str, _servers: dict[str, IrcServer]) -> None:
    server = _server(_servers, kind)
    client = _client(server, "k")
    server.restart(kill=True)
    assert client.closed.wait(5)
    client.close()
    again = _client(server, "k")
    again.close()


def test_ircu_channel_limit_is_said_and_a_freed_slot_is_used(
    make_bot: MakeBot, caplog: pytest.LogCaptureFixture
) -> None:
    """ircu lets a client be in 10 channels (MAXCHANNELS=10, 405 past it). Eleven configured:
    a WARNING at connect names the one that will not be joined, the 405 names it again, and
    when the bot leaves a channel (kicked) it joins the waiting one."""
    require("ircu")
    caplog.set_level(logging.INFO, "unobot")
    server = start_server("ircu")
    owner = _client(server, "o")
    try:
        first = unique("#lim")
        owner.join(first)  # the owner holds ops there (the bot will not) and can kick it
        channels = [first] + [unique("#lim") for _ in range(10)]
        bot = make_bot(
            bot_settings(
                server, channels=dict.fromkeys(channels, ""), nick=nick("b"), rejoin_delay=-1
            )
        )
        for channel in channels[:10]:
            bot.wait_joined(channel, timeout=20)
        said = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
        assert any(
            "lets a client be in 10 channels; 11 are configured" in m and channels[10] in m
            for m in said
        ), said
        deadline = time.monotonic() + 10
        while not any("405" in m and channels[10] in m for m in _messages(caplog)):
            assert time.monotonic() < deadline, _messages(caplog)
            time.sleep(0.1)
        owner.send(f"KICK {first} {bot.adapter.nickname} :make room")
        # The slot is used at once; ircu may still make the JOIN wait (eleven new channels
        # in a row are eleven target changes: 439 on JOIN), which is said and retried.
        late = f"can't join {channels[10]} yet: Target change too fast"
        deadline = time.monotonic() + 10
        while not (
            channels[10].lower() in (c.lower() for c in bot.joined())
            or any(late in m for m in _messages(caplog))
        ):
            assert time.monotonic() < deadline, _messages(caplog)
            time.sleep(0.1)
        assert any(
            f"a channel slot is free: joining {channels[10]}" in m for m in _messages(caplog)
        )
    finally:
        owner.close()
        server.cleanup()


def _messages(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records]
