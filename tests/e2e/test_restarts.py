"""Chaos: the real bot process SIGKILLed mid-game and started again on the same database and
journal, against a real ircd with real clients. The game goes on with identical hands and
turn order, and is recorded exactly once. SIGTERM: one line per channel, a clean exit, and
nothing changes after that line (a move, even a winning one, is refused). Computer seats of
every level come back knowing what they knew and move at once."""

from __future__ import annotations

import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace

import pytest

from tests.core.fakes import Seen, read_status, strip_codes
from tests.e2e.conftest import module_server, unique
from tests.e2e.servers import IrcServer
from tests.e2e.test_games import NetGame, Player, make_players
from unobot.irc.casemap import irc_lower
from unobot.stats.sql import SqlStatsStore

ROOT = Path(__file__).resolve().parents[2]
NICK = "unobot"


server = module_server("ngircd")


class BotProcess:
    """``python unobot.py`` against ``server``, in ``cwd`` (its stats.db and unobot-tables)."""

    def __init__(
        self, server: IrcServer, cwd: Path, channel: str, watcher: Player, extra: list[str]
    ) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, str(ROOT / "unobot.py"), "--server", "127.0.0.1",
             "--port", str(server.port), "--channel", channel, "--send-rate", "0",
             "--nick", NICK, *extra],
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
        return self.output()

    def output(self) -> str:
        """Everything the process logged, once it has exited."""
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


class Scene:
    """A channel, its players (real clients) and the bot process; the test may kill and start
    the bot again, and whatever it leaves running is stopped afterwards."""

    def __init__(self, server: IrcServer, cwd: Path) -> None:
        self.server, self.cwd = server, cwd
        self.players: list[Player] = []
        self.bot: BotProcess | None = None
        self.extra: list[str] = []
        """More command-line arguments for the bot (a config file)."""
        self.logs: list[str] = []
        """The output of every bot process that has exited."""

    def open(self, prefix: str, count: int) -> tuple[str, list[Player], NetGame]:
        channel = "#" + unique(prefix)
        self.channel = channel
        self.players = make_players(self.server, count, channel)
        self.start()
        return channel, self.players, NetGame(view(channel), self.players)  # type: ignore[arg-type]

    def start(self) -> BotProcess:
        self.bot = BotProcess(self.server, self.cwd, self.channel, self.players[0], self.extra)
        return self.bot

    def kill_and_restart(self, game: NetGame) -> str:
        """SIGKILL the bot mid-game, start it again; the channel's "restored" line."""
        assert self.bot is not None
        count = len(game.channel_text())
        self.bot.kill()  # (its output is not read: only the processes that end cleanly)
        assert list((self.cwd / "unobot-tables").glob("*.jsonl"))
        self.start()
        return restored_line(game, count)

    def kill_and_compare(self, game: NetGame) -> None:
        """Kill and restart mid-hand: every player gets the very same cards again, and the
        turn, top card and colour are unchanged."""
        before_hands = hands(self.players)
        before = read_status(game.channel_text())
        seen = [len(p.client.snapshot()) for p in self.players]
        line = self.kill_and_restart(game)
        wait_hands(self.players, seen)
        assert hands(self.players) == before_hands
        after = read_status([line])
        assert after is not None and before is not None
        assert (after.turn, after.top, after.color) == (before.turn, before.top, before.color)

    def close(self) -> None:
        if self.bot is not None and self.bot.proc.poll() is None:
            self.bot.kill()
        for p in self.players:
            p.client.close()


@pytest.fixture
def scene(server: IrcServer, tmp_path: Path) -> Iterator[Scene]:
    made = Scene(server, tmp_path)
    yield made
    made.close()


def test_sigkill_in_the_lobby_then_restart_keeps_the_seats(scene: Scene, tmp_path: Path) -> None:
    _, players, game = scene.open("lobby", 3)
    first, *rest = players
    game.command(first, ".uno")
    for p in rest:
        game.command(p, ".join")
    assert "game is open (3 players" in scene.kill_and_restart(game)
    game.command(first, ".deal")
    assert " wins" in game.play_to_end()
    assert scene.bot is not None and "Traceback" not in scene.bot.term()
    assert recorded(tmp_path) == 1
    assert list((tmp_path / "unobot-tables").glob("*.jsonl")) == []


def test_sigkill_mid_turn_then_restart_goes_on_identically(scene: Scene, tmp_path: Path) -> None:
    _, _, game = scene.open("kill", 3)
    game.start()
    for _ in range(12):
        game.step()
    scene.kill_and_compare(game)
    assert " wins" in game.play_to_end()
    assert scene.bot is not None and "Traceback" not in scene.bot.term()
    assert recorded(tmp_path) == 1
    assert list((tmp_path / "unobot-tables").glob("*.jsonl")) == []


def test_sigkill_right_after_the_winning_card_records_the_game_once(
    scene: Scene, tmp_path: Path
) -> None:
    _, _, game = scene.open("win", 2)
    game.start()
    game.play_to_end()
    assert scene.bot is not None
    scene.bot.kill()  # whatever of the end had been written: journal, spool, database
    bot = scene.start()
    time.sleep(0.5)  # a restored game would be announced by now
    assert not any(t.startswith("Restored") for t in game.channel_text())
    assert bot.term() and recorded(tmp_path) == 1


def test_sigterm_says_one_line_per_game_and_the_game_comes_back(scene: Scene) -> None:
    _, players, game = scene.open("term", 2)
    game.start()
    game.command(players[0], ".top")
    assert scene.bot is not None
    started = time.monotonic()
    out = scene.bot.term()
    assert time.monotonic() - started < 4.0
    assert "Traceback" not in out, out
    said = [
        strip_codes(m.text)
        for m in players[0].client.snapshot()
        if m.nick == NICK and m.command == "PRIVMSG" and "restarting" in m.text
    ]
    assert said == ["unobot is restarting: this game will be restored when it is back."]
    count = len(game.channel_text())
    scene.start()
    assert restored_line(game, count)


def test_sigkill_during_a_timed_match_restores_it_mid_hand(scene: Scene) -> None:
    _, players, game = scene.open("timed", 3)
    first, *rest = players
    game.command(first, ".uno")
    for p in rest:
        game.command(p, ".join")
    game.command(first, ".deal 30m")
    for _ in range(8):
        game.step()
    scene.kill_and_compare(game)
    for _ in range(5):  # the match goes on
        game.step()
    assert scene.bot is not None and "Traceback" not in scene.bot.term()


def test_a_player_who_quit_while_the_bot_was_down_gets_the_seat_grace(scene: Scene) -> None:
    """Killed mid-game; one player quits before the bot is back. The channel's member list
    at the rejoin shows them gone: their seat is held for the grace, as if seen leaving."""
    _, players, game = scene.open("gone", 3)
    game.start()
    for _ in range(4):
        game.step()
    assert scene.bot is not None
    count = len(game.channel_text())
    scene.bot.kill()
    gone = players[2]
    gone.client.send("QUIT :power cut")
    time.sleep(0.3)
    scene.start()
    restored_line(game, count)
    deadline = time.monotonic() + 10
    while not any(
        t.startswith(f"{gone.client.nick} left: their seat is held for")
        for t in game.channel_text()[count:]
    ):
        assert time.monotonic() < deadline, game.channel_text()[count:]
        time.sleep(0.02)
    assert "Traceback" not in scene.bot.term()


def computers_config(cwd: Path, delay: float = 1.0) -> list[str]:
    """Arguments for a bot whose computer players pause ``delay`` before each move (a second:
    the test can stop the bot between a person's move and the computer's answer; the bot
    started after that is quicker) and whose turn timer is long: a computer seat that waited
    for it would fail the test's waits."""
    config = cwd / f"unobot-{delay}.toml"
    config.write_text(
        f"[bot]\nturn_timeout = 90.0\n\n[bots]\ndelay = {delay}\nplayouts = 40\nworkers = 1\n"
    )
    return ["--config", str(config)]


def status(game: NetGame) -> Seen:
    seen = read_status(game.channel_text())
    assert seen is not None, game.channel_text()[-3:]
    return seen


def to_a_computers_turn(game: NetGame, person: Player, steps: int) -> None:
    """Play ``steps`` turns, then on until the person's move hands the turn to a computer
    seat: the test acts in the second before that seat moves."""
    for _ in range(steps):
        game.step()
    for _ in range(500):
        mover = irc_lower(status(game).turn)
        game.step()
        after = irc_lower(status(game).turn)
        if mover == irc_lower(person.client.nick) and after not in game.players:
            return
    pytest.fail("the turn never passed from the person to a computer seat")


@pytest.mark.parametrize("how", ["kill", "term"])
def test_computer_seats_of_every_level_move_at_once_after_a_restart(
    scene: Scene, tmp_path: Path, how: str
) -> None:
    """A person against easy, normal and hard computer seats; the bot SIGKILLed (or
    SIGTERMed) while a computer seat "thinks". The new process restores the game, that seat
    moves within its pause (not after the 90 s turn timer: before the fix, a restored
    computer seat had no view of the hand and never moved again), and the game plays to its
    end and is recorded once."""
    scene.extra = computers_config(tmp_path)
    _, (person,), game = scene.open("cpu" + how, 1)
    game.command(person, ".uno")
    for level in ("hard", "normal", "easy"):
        game.command(person, f".addbot {level}")
    game.command(person, ".deal")
    to_a_computers_turn(game, person, 6)
    waiting = status(game).turn
    assert scene.bot is not None
    scene.extra = computers_config(tmp_path, delay=0.2)
    if how == "kill":
        scene.kill_and_compare(game)
    else:
        before = hands(scene.players)
        seen = [len(person.client.snapshot())]
        count = len(game.channel_text())
        scene.logs.append(scene.bot.term())
        scene.start()
        line = restored_line(game, count)
        wait_hands(scene.players, seen)
        assert hands(scene.players) == before
        restored = read_status([line])
        assert restored is not None and restored.turn == waiting
    lines = len(game.channel_text())
    started = time.monotonic()
    game.wait_for_others(lines, timeout=10)  # the computer seat to move has moved
    assert time.monotonic() - started < 6, "the restored computer seat waited"
    assert " wins" in game.play_to_end()
    text = game.channel_text()
    assert not [t for t in text if "ran out of time" in t], [t for t in text if "out of" in t]
    after = text[text.index(next(t for t in text if t.startswith("Restored"))) :]
    for name in ("HardBot1", "NormalBot1", "EasyBot1"):
        assert any(re.match(rf"{name} (plays|draws)", t) for t in after), name
    assert scene.bot is not None
    scene.logs.append(scene.bot.term())
    log = "\n".join(scene.logs)
    assert "Traceback" not in log and "no view" not in log, log[-3000:]
    assert recorded(tmp_path) == 1
    assert list((tmp_path / "unobot-tables").glob("*.jsonl")) == []


def farewell_seen(game: NetGame, count: int) -> None:
    deadline = time.monotonic() + 5
    while not any(t.startswith("unobot is restarting") for t in game.channel_text()[count:]):
        assert time.monotonic() < deadline, "no farewell"
        time.sleep(0.005)


def refused(player: Player, since: int, timeout: float = 5.0) -> str:
    """The bot's private answer to ``player`` after ``since``."""
    deadline = time.monotonic() + timeout
    while True:
        notes = [
            strip_codes(m.text)
            for m in player.client.snapshot()[since:]
            if m.nick == NICK and m.command == "NOTICE" and "Your cards" not in m.text
        ]
        if notes:
            return notes[0]
        assert time.monotonic() < deadline, "no answer"
        time.sleep(0.005)


def test_moves_after_the_sigterm_farewell_are_refused_and_the_game_comes_back_as_it_was(
    scene: Scene, tmp_path: Path
) -> None:
    """SIGTERM with computer seats at the table: once the farewell is said, the person's move
    gets "play again in a moment", nobody moves (computer seats neither) until the process
    exits, and the restored game is the game at the farewell."""
    scene.extra = computers_config(tmp_path)
    _, (person,), game = scene.open("window", 1)
    game.command(person, ".uno")
    game.command(person, ".addbot easy")
    game.command(person, ".addbot normal")
    game.command(person, ".deal")
    for _ in range(200):
        if irc_lower(status(game).turn) == irc_lower(person.client.nick):
            break
        game.step()
    seen = status(game)
    assert irc_lower(seen.turn) == irc_lower(person.client.nick)
    before = hands(scene.players)
    move = person.agent.choose(seen.top, seen.color, game.drawn)
    assert scene.bot is not None
    count, since = len(game.channel_text()), len(person.client.snapshot())
    scene.bot.proc.send_signal(signal.SIGTERM)
    scene.extra = computers_config(tmp_path, delay=0.2)
    farewell_seen(game, count)
    person.client.privmsg(scene.channel, move)
    assert refused(person, since) == "unobot is restarting: play again in a moment"
    scene.logs.append(scene.bot.output())
    said = game.channel_text()[count:]
    assert said == ["unobot is restarting: this game will be restored when it is back."], said
    seen_now = [len(person.client.snapshot())]
    scene.start()
    line = restored_line(game, count)
    wait_hands(scene.players, seen_now)
    assert hands(scene.players) == before
    restored = read_status([line])
    assert restored is not None and (restored.turn, restored.top, restored.color) == (
        seen.turn, seen.top, seen.color,
    )  # fmt: skip
    assert " wins" in game.play_to_end()
    scene.logs.append(scene.bot.term())
    assert "Traceback" not in "\n".join(scene.logs)
    assert recorded(tmp_path) == 1


def test_a_winning_move_after_the_sigterm_farewell_is_refused_and_won_once_later(
    scene: Scene, tmp_path: Path
) -> None:
    """The reported case: a winning card played in the second between the farewell and the
    exit was announced and recorded, then the restored game was won again. Now it is refused;
    after the restart the same card wins, once."""
    _, _, game = scene.open("winwin", 2)
    game.start()
    move = None
    for _ in range(3000):
        seen = status(game)
        player = game.players.get(irc_lower(seen.turn))
        if player is not None and len(player.agent.hand) == 1 and seen.phase == "s turn":
            move = player.agent.choose(seen.top, seen.color, game.drawn)
            if move.startswith(".p"):
                break
        assert not game.over()
        game.step()
    assert move is not None and player is not None and move.startswith(".p")
    assert scene.bot is not None
    count, since = len(game.channel_text()), len(player.client.snapshot())
    scene.bot.proc.send_signal(signal.SIGTERM)
    farewell_seen(game, count)
    player.client.privmsg(scene.channel, move)
    assert refused(player, since) == "unobot is restarting: play again in a moment"
    scene.logs.append(scene.bot.output())
    assert not any(" wins" in t for t in game.channel_text()[count:])
    assert recorded(tmp_path) == 0
    scene.start()
    restored_line(game, count)
    won = game.command(player, move)
    assert not [t for t in won if "Your cards" not in t], won
    assert any(" wins" in t for t in game.channel_text()[count:])
    scene.logs.append(scene.bot.term())
    assert "Traceback" not in "\n".join(scene.logs)
    assert recorded(tmp_path) == 1
    assert sum(" wins" in t for t in game.channel_text()) == 1
