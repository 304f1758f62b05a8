"""The server fixtures' contract: a missing server skips locally but fails under CI."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from tests.e2e import conftest, servers
from tests.e2e.servers import NETWORK_KINDS, SERVER_KINDS, SERVICES, start_server


@pytest.mark.parametrize("kind", ["ngircd", *NETWORK_KINDS, *SERVICES])
def test_missing_server_skips_locally_and_fails_in_ci(
    kind: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(conftest, "_which", lambda kind: None)
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match="not installed"):
        conftest.require(kind)
    monkeypatch.setenv("CI", "1")
    with pytest.raises(pytest.fail.Exception, match="not installed"):
        conftest.require(kind)


def test_an_unpacked_package_is_found_only_in_the_cache(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The network servers are never looked up on PATH (an installed ircd-hybrid would be a
    different build in a different place): only in the cache tests/run.sh fills."""
    monkeypatch.setattr(servers, "IRCD_CACHE", tmp_path)
    assert servers._which("hybrid") is None
    assert "tests/run.sh" in servers.install_hint("hybrid")
    program = tmp_path / "ircd-hybrid/usr/sbin/ircd-hybrid"
    program.parent.mkdir(parents=True)
    program.write_text("")
    assert servers._which("hybrid") == (str(program) if servers.shutil.which("gcc") else None)


def test_network_kinds_stay_out_of_the_default_parametrization() -> None:
    assert not set(NETWORK_KINDS) & set(SERVER_KINDS)
    assert SERVER_KINDS == ("miniircd", "ngircd", "inspircd")


@pytest.mark.parametrize("kind", SERVER_KINDS)
def test_each_server_starts_fast_on_its_own_port_and_stops(kind: str) -> None:
    conftest.require(kind)
    server = start_server(kind)
    try:
        assert server.port != 6667
        assert server.start_seconds < 5
        print(f"\n{kind}: listening after {server.start_seconds * 1000:.0f} ms")
    finally:
        server.cleanup()
    assert server.proc is None


@pytest.mark.parametrize("kind", ["ircu", "miniircd"])
def test_a_port_taken_before_the_server_binds_it_is_not_taken_for_the_server(
    kind: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``free_port()`` only guesses: another process may bind the port before the server
    does. ircu then runs on without a listener and a connect probe succeeds on the other
    process's socket: the bench players of the network scenarios, sent there, read an HTTP
    error page and saw "the server closed the connection" (a CI flake). ``start`` checks the
    listener is the server's own (``PortTaken``) and ``start_server`` takes another port."""
    conftest.require(kind)
    with socket.create_server(("127.0.0.1", 0)) as other:  # someone else's listener
        taken = other.getsockname()[1]
        guesses = iter([taken])
        real_free_port = servers.free_port
        monkeypatch.setattr(servers, "free_port", lambda: next(guesses, None) or real_free_port())
        server = start_server(kind)
        try:
            assert server.port != taken
            assert server._owns_listener()
            assert server.state().startswith("running")
        finally:
            server.cleanup()
        assert server.state().startswith("not running")
        bare = servers.IrcServer(kind, taken)
        try:
            with pytest.raises(servers.PortTaken, match=f"another process listens on .*:{taken}"):
                bare.start()
            assert bare.proc is None  # stopped, not left running without a listener
        finally:
            bare.cleanup()


def test_the_registrar_waits_past_nickservs_greeting_for_its_register_answer() -> None:
    """CI once read atheme's greeting of a registered nick (it came after the REGISTER on a
    restart) as the REGISTER's answer and failed the services' start."""
    from tests.e2e.client import parse
    from tests.e2e.servers import _register_answer

    def notice(text: str) -> bool:
        return _register_answer(parse(f":NickServ!NickServ@services.test NOTICE unobot :{text}"))

    assert not notice(
        "This nickname is registered. Please choose a different nickname, or identify via "
        "\x02/msg NickServ identify <password>\x02."
    )
    assert not notice(
        "This nickname is registered and protected. If it is your nick, type "
        "/msg NickServ IDENTIFY password."
    )  # anope's greeting
    assert notice("\x02unobot\x02 is already registered.")
    assert notice("\x02unobot\x02 is now registered to \x02unobot@example.org\x02.")
    assert notice("Nickname unobot registered.")
    assert not _register_answer(parse(":irc.test NOTICE unobot :registered"))
