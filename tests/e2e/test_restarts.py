"""Chaos: the real bot process SIGKILLed mid-game and started again on the same database and
journal, against a real ircd with real clients. The game goes on with identical hands and
turn order, and is recorded exactly once. SIGTERM: one line per channel, a clean exit."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace

import pytest

from tests.e2e.conftest import require, unique
from tests.e2e.servers import IrcServer, start_server
from tests.e2e.test_games import NetGame, Player, make_players
from tests.plugins.fakes import read_status, strip_codes
from unobot.stats.sql import SqlStatsStore

ROOT = Path(__file__).resolve().parents[2]
NICK = "unobot"


@pytest.fixture(scope="module")
def server() -> Iterator[IrcServer]:
    require("ngircd")
    srv = start_server("ngircd")
    yield srv
    srv.cleanup()


class BotProcess:
    """``python unobot.py`` against ``server``, in ``cwd`` (its stats.db and unobot-tables)."""

    def __init__(self, server: IrcServer, cwd: Path, channel: str, watcher: Player) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, str(ROOT / "unobot.py"), "--server", "127.0.0.1",
             "--port", str(server.port), "--channel", channel, "--send-rate", "0",
             "--nick", NICK],
            cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        )  # fmt: skip
        joins = len(
            [m for m in watcher.client.snapshot() if m.command == "JOIN" and m.nick == NICK]
        )
        deadline = time.monotonic() + 20
        while (
            len([m for m in watcher.client.snapshot() if m.command == "JOIN" and m.nick == NICK])
            <= joins
        ):
            assert self.proc.poll() is None, self.proc.stdout.read()  # type: ignore[union-attr]
            assert time.monotonic() < deadline, "the bot did not join"
            time.sleep(0.02)

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def term(self) -> str:
        self.proc.send_signal(signal.SIGTERM)
        out, _ = self.proc.communicate(timeout=15)
        return out


def view(channel: str) -> SimpleNamespace:
    """What NetGame needs of a bot it can't look inside (another process)."""
    return SimpleNamespace(nick=NICK, channel=channel, table=lambda: None)


def hands(players: list[Player]) -> dict[str, list[str]]:
    return {p.client.nick: sorted(c.text for c in p.agent.hand) for p in players}


def restored_line(game: NetGame, since: int) -> str:
    deadline = time.monotonic() + 20
    while True:
        lines = game.channel_text()[since:]
        found = [t for t in lines if t.startswith("Restored after a restart")]
        if found:
            return found[0]
        assert time.monotonic() < deadline, lines
        time.sleep(0.02)


def wait_hands(players: list[Player], since: list[int]) -> None:
    """Until every player got their hand again after the restore."""
    deadline = time.monotonic() + 10
    for p, seen in zip(players, since, strict=True):
        while not any(
            m.nick == NICK and m.command == "NOTICE" and "Your cards" in m.text
            for m in p.client.snapshot()[seen:]
        ):
            assert time.monotonic() < deadline, p.client.nick
            time.sleep(0.02)
        p.catch_up(NICK)


def recorded(cwd: Path) -> int:
    store = SqlStatsStore(f"sqlite:///{cwd / 'stats.db'}", network=None)
    try:
        return int(store.db.execute_sql("SELECT COUNT(*) FROM game").fetchone()[0])
    finally:
        store.db.close()


@pytest.mark.parametrize("moves", [0, 12], ids=["lobby", "mid-turn"])
def test_sigkill_mid_game_then_restart_goes_on_identically(
    server: IrcServer, tmp_path: Path, moves: int
) -> None:
    channel = "#" + unique("kill")
    players = make_players(server, 3, channel)
    bot = BotProcess(server, tmp_path, channel, players[0])
    try:
        game = NetGame(view(channel), players)  # type: ignore[arg-type]
        if moves == 0:
            first, *rest = players
            game.command(first, ".uno")
            for p in rest:
                game.command(p, ".join")
        else:
            game.start()
            for _ in range(moves):
                game.step()
        before_hands = hands(players)
        before = read_status(game.channel_text()) if moves else None
        count = len(game.channel_text())
        seen = [len(p.client.snapshot()) for p in players]
        bot.kill()
        assert list((tmp_path / "unobot-tables").glob("*.jsonl"))
        bot = BotProcess(server, tmp_path, channel, players[0])
        line = restored_line(game, count)
        if moves == 0:
            assert "game is open (3 players" in line
            game.command(players[0], ".deal")
        else:
            wait_hands(players, seen)
            assert hands(players) == before_hands  # the very same cards
            after = read_status([line])
            assert after is not None and before is not None
            assert (after.turn, after.top, after.color) == (before.turn, before.top, before.color)
        winner = game.play_to_end()
        assert " wins" in winner
        out = bot.term()
        assert "Traceback" not in out, out
        assert recorded(tmp_path) == 1
        assert list((tmp_path / "unobot-tables").glob("*.jsonl")) == []
    finally:
        if bot.proc.poll() is None:
            bot.kill()
        for p in players:
            p.client.close()


def test_sigkill_right_after_the_winning_card_records_the_game_once(
    server: IrcServer, tmp_path: Path
) -> None:
    channel = "#" + unique("win")
    players = make_players(server, 2, channel)
    bot = BotProcess(server, tmp_path, channel, players[0])
    try:
        game = NetGame(view(channel), players)  # type: ignore[arg-type]
        game.start()
        game.play_to_end()
        bot.kill()  # whatever of the end had been written: journal, spool, database
        bot = BotProcess(server, tmp_path, channel, players[0])
        time.sleep(0.5)  # a restored game would be announced by now
        assert not any(t.startswith("Restored") for t in game.channel_text())
        assert bot.term() and recorded(tmp_path) == 1
    finally:
        if bot.proc.poll() is None:
            bot.kill()
        for p in players:
            p.client.close()


def test_sigterm_says_one_line_per_game_and_the_game_comes_back(
    server: IrcServer, tmp_path: Path
) -> None:
    channel = "#" + unique("term")
    players = make_players(server, 2, channel)
    bot = BotProcess(server, tmp_path, channel, players[0])
    try:
        game = NetGame(view(channel), players)  # type: ignore[arg-type]
        game.start()
        game.command(players[0], ".top")
        started = time.monotonic()
        out = bot.term()
        assert time.monotonic() - started < 4.0
        assert "Traceback" not in out, out
        said = [
            strip_codes(m.text)
            for m in players[0].client.snapshot()
            if m.nick == NICK and m.command == "PRIVMSG" and "restarting" in m.text
        ]
        assert said == ["unobot is restarting: this game will be restored when it is back."]
        count = len(game.channel_text())
        bot = BotProcess(server, tmp_path, channel, players[0])
        assert restored_line(game, count)
    finally:
        if bot.proc.poll() is None:
            bot.kill()
        for p in players:
            p.client.close()


def test_sigkill_during_a_timed_match_restores_it_mid_hand(
    server: IrcServer, tmp_path: Path
) -> None:
    channel = "#" + unique("timed")
    players = make_players(server, 3, channel)
    bot = BotProcess(server, tmp_path, channel, players[0])
    try:
        game = NetGame(view(channel), players)  # type: ignore[arg-type]
        first, *rest = players
        game.command(first, ".uno")
        for p in rest:
            game.command(p, ".join")
        game.command(first, ".deal 30m")
        for _ in range(8):
            game.step()
        before_hands = hands(players)
        before = read_status(game.channel_text())
        count = len(game.channel_text())
        seen = [len(p.client.snapshot()) for p in players]
        bot.kill()
        bot = BotProcess(server, tmp_path, channel, players[0])
        line = restored_line(game, count)
        wait_hands(players, seen)
        assert hands(players) == before_hands
        after = read_status([line])
        assert after is not None and before is not None
        assert (after.turn, after.top, after.color) == (before.turn, before.top, before.color)
        for _ in range(5):  # the match goes on
            game.step()
        assert "Traceback" not in bot.term()
    finally:
        if bot.proc.poll() is None:
            bot.kill()
        for p in players:
            p.client.close()
