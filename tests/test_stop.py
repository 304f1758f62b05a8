"""Stopping, piece by piece: the console's one line, the farewell on the embedded server, the
QUIT once the farewell has left, and Ctrl-C before the bot's own handler is in place. The
real processes stopped by a terminal's Ctrl-C and by SIGTERM: ``tests/e2e/test_stop.py``."""

from __future__ import annotations

import signal
from pathlib import Path

import pytest

from tests.core.fakes import Harness
from unobot import main as main_mod
from unobot.core.bot import Bot
from unobot.core.journal import Journal
from unobot.irc.transport import Kind


def test_the_stop_line_says_what_becomes_of_the_games_and_the_server() -> None:
    line = main_mod.stop_line(signal.SIGINT, 2, restored=True, embedded=True)
    assert line == (
        "unobot: stopping (Ctrl-C); 2 games will be restored at the next start; the local IRC "
        "server stops too (clients reconnect when it is back)."
    )
    assert main_mod.stop_line(signal.SIGTERM, 1, restored=False, embedded=False) == (
        "unobot: stopping (SIGTERM); 1 game ends here."
    )
    assert main_mod.stop_line(signal.SIGTERM, 0, restored=True, embedded=False) == (
        "unobot: stopping (SIGTERM)."
    )


def _bot_in(h: Harness, *channels: str) -> None:
    for channel in channels:
        h.event(Kind.JOIN, "unobot", channel)
        h.event(Kind.NAMES, "unobot", channel, text="unobot alice")


def test_on_the_embedded_server_every_channel_hears_that_the_server_stops(
    tmp_path: Path,
) -> None:
    h = Harness(3)
    h.bot.journal = Journal(tmp_path, h.clock.now)
    _bot_in(h, "#uno", "#lobby")
    h.start(["alice", "bob"])
    start = len(h.sent)
    assert h.bot.farewell(server_stops=True) == 2
    said = {s.target: s.text for s in h.sent[start:]}
    assert said == {
        "#uno": "unobot is restarting: this game will be restored when it is back. The IRC "
        "server stops with it: reconnect in a moment (/reconnect).",
        "#lobby": "unobot is stopping, and this IRC server with it: reconnect in a moment "
        "(/reconnect).",
    }
    assert h.bot.farewell(server_stops=True) == 0  # said once


def test_the_server_lines_are_said_in_each_channels_language() -> None:
    h = Harness(3)
    h.bot.settings.set_language("#de", "de")
    h.bot.settings.set_language("#pl", "pl")
    _bot_in(h, "#de", "#pl")
    h.start(["anna", "bob"], "#de")
    start = len(h.sent)
    h.bot.farewell(server_stops=True)
    said = {s.target: s.text for s in h.sent[start:]}
    assert said == {
        "#de": "unobot wird beendet: Dieses Spiel endet hier. Der IRC-Server wird ebenfalls "
        "beendet: verbinde dich gleich neu (/reconnect).",
        "#pl": "unobot się wyłącza, a z nim ten serwer IRC: połącz się ponownie za chwilę "
        "(/reconnect).",
    }


def test_on_a_network_only_the_games_hear_the_farewell_as_before() -> None:
    h = Harness(3)
    _bot_in(h, "#uno", "#lobby")
    h.start(["alice", "bob"])
    start = len(h.sent)
    assert h.bot.farewell() == 1
    assert [(s.target, s.text) for s in h.sent[start:]] == [
        ("#uno", "unobot is stopping: this game ends here.")
    ]


class _Adapter:
    """What ``quit_when_sent`` needs of an adapter: its queue, timers, stop."""

    def __init__(self, queued: int) -> None:
        self.queued = queued
        self.timers: list[tuple[float, object]] = []
        self.stopped: str | None = None

    def call_later(self, delay: float, callback: object) -> None:
        self.timers.append((delay, callback))

    def call_soon_threadsafe(self, callback: object) -> None:
        callback()  # type: ignore[operator]

    def stop(self, message: str) -> None:
        self.stopped = message


def test_quit_waits_until_the_farewell_has_left_every_connection() -> None:
    primary, extra = _Adapter(2), _Adapter(1)
    main_mod.quit_when_sent(primary, [extra], deadline=float("inf"))
    assert primary.stopped is None and len(primary.timers) == 1
    primary.queued = 0
    primary.timers.pop()[1]()  # type: ignore[operator]
    assert primary.stopped is None  # the extra connection still has its line
    extra.queued = 0
    primary.timers.pop()[1]()  # type: ignore[operator]
    assert primary.stopped == extra.stopped == "unobot shutting down"


def test_quit_comes_at_the_deadline_whatever_still_waits() -> None:
    primary = _Adapter(5)
    main_mod.quit_when_sent(primary, [], deadline=0.0)
    assert primary.stopped == "unobot shutting down"


def test_ctrl_c_while_the_bot_starts_is_one_line_and_exit_130(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    def interrupted(*args: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(main_mod, "run_bot", interrupted)
    with pytest.raises(SystemExit) as ended:
        main_mod.main(["--port", "0"])
    assert ended.value.code == 130
    out, err = capsys.readouterr()
    assert out == "" and err == "unobot: stopped (Ctrl-C).\n"


def test_farewell_counts_what_it_said_for_the_caller() -> None:
    """The stop waits for the farewell to leave only when something was said."""
    h = Harness(3)
    assert isinstance(h.bot, Bot)
    assert h.bot.farewell() == 0
