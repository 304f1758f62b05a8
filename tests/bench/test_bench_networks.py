"""``python -m unobot.bench networks`` says what it does and why it stops (issue 40: run with
``--match 60``, an hour's match as ``.deal 60`` reads it, it printed its header and then
nothing for 500 s)."""

from __future__ import annotations

import argparse

import pytest

from unobot.bench import main
from unobot.bench.networks import SETUP_SECONDS, match_seconds, run_one


@pytest.mark.parametrize(
    ("text", "seconds"), [("180s", 180), ("3m", 180), ("60", 3600), ("1h30m", 5400), ("90S", 90)]
)
def test_the_match_reads_as_deal_reads_it(text: str, seconds: float) -> None:
    assert match_seconds(text) == seconds


@pytest.mark.parametrize("text", ["", "soon", "3x", "m"])
def test_a_match_that_is_no_length_is_refused(text: str) -> None:
    with pytest.raises(argparse.ArgumentTypeError):
        match_seconds(text)


def test_the_header_names_the_match_in_minutes_and_how_long_the_run_may_take(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The servers are not started here (run_one is replaced): the header and the refusal of a
    run where nothing could start are what is checked."""
    from unobot.bench import networks

    monkeypatch.setattr(
        networks,
        "run_one",
        lambda kind, games, **kw: networks.Run(kind, games, True, error=f"{kind} is not available"),
    )
    with pytest.raises(SystemExit) as stop:
        main(["networks", "--servers", "ircu", "--games", "1", "--match", "60"])
    assert stop.value.code == 1
    out = capsys.readouterr().out
    minutes = (3600 + SETUP_SECONDS) / 60
    assert f"a 60 match each (60 min; the run takes up to {minutes:g} min)" in out
    assert "| ircu | - | - | - | - | - | ircu is not available |" in out


def test_a_bad_match_or_server_is_refused_before_anything_starts(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["networks", "--match", "soon"])
    assert stop.value.code == 2
    assert "'soon' is not a match length" in capsys.readouterr().err
    with pytest.raises(SystemExit) as stop:
        main(["networks", "--servers", "ngircd"])
    assert stop.value.code == 2
    assert "unknown server ngircd" in capsys.readouterr().out


def test_a_server_that_is_missing_is_reported_not_waited_for(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """run_one with the server's program absent: the row's error says how to get it."""
    from unobot.bench import capacity

    servers = capacity._servers_module()

    def missing(kind: str, **kw: object) -> None:
        raise servers.ServerMissing(kind)

    monkeypatch.setattr(servers, "start_server", missing)
    result = run_one("irc2", 1, verbose=True)
    assert result.error.startswith("irc2 is not available: ")
    assert "tests/run.sh" in result.error
    assert "[irc2 +0s] irc2 is not available" in capsys.readouterr().out


def test_a_player_the_server_hangs_up_on_says_what_it_last_got_and_who_else_was_dropped() -> None:
    """A closed connection without an ``ERROR`` line says the last line the server sent and
    how many other players were hung up on too (all: the server ended or was never the
    server; none: it dropped this one), so a flaky failure explains itself (the CI flake of
    ``ircu-no-ops`` said only "c0p3: the server closed the connection")."""
    import socket
    import time

    from unobot.bench.irc import Clients

    with socket.create_server(("127.0.0.1", 0)) as listener:
        players = Clients(listener.getsockname()[1], 1, 3, 1, seed=1)
        players.connect(in_flight=3)
        conns = [listener.accept()[0] for _ in players.seats]
        try:
            for conn in conns:  # read NICK/USER: a close with unread input would be a reset
                conn.settimeout(5)
                got = b""
                while b"USER" not in got:
                    got += conn.recv(4096)
            conns[1].sendall(b":irc.test NOTICE AUTH :*** hello\r\n")
            deadline = time.monotonic() + 5
            while not players.seats[1].last_line:
                players._poll(deadline)
            conns[1].close()
            conns[2].close()
            with pytest.raises(ConnectionError) as raised:
                while True:
                    players._poll(deadline)
        finally:
            players.close()
            for conn in conns:
                conn.close()
    text = str(raised.value)
    assert "the server closed the connection (no ERROR line" in text
    if text.startswith("c0p1:"):
        assert "the last line from it: ':irc.test NOTICE AUTH :*** hello'" in text
    assert "1 of the 2 other players' connections closed too" in text
