"""Complete games over real IRC servers: the whole bot (adapter + core + plugins) in a thread,
real client connections playing by what their own NOTICEs and the channel told them.

miniircd runs everywhere; ngircd where it is installed (CI installs it, see tests/run.sh).
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from random import Random
from typing import TypeVar

import pytest

from tests.core.fakes import Agent, Seen, read_status, strip_codes
from tests.e2e.client import Msg, TestClient
from tests.e2e.conftest import bot_settings, module_server, on_reactor, unique
from tests.e2e.servers import IrcServer
from unobot.core.bot import Bot, BotConfig
from unobot.core.computers import ComputerConfig
from unobot.core.journal import Journal
from unobot.core.settings import MemorySettings, SettingsStore
from unobot.core.table import TableConfig
from unobot.engine.notation import parse_position
from unobot.irc.adapter import IrcAdapter
from unobot.irc.casemap import irc_lower
from unobot.main import database_stores, keep_up, live_writer
from unobot.stats import StatsStore
from unobot.stats.recorder import GameRecorder

T = TypeVar("T")
GAME_SERVERS = ["miniircd", "ngircd"]
HINT = re.compile(r"\| (You must play|You may play|Play) ")
"""A hand notice's hint after a draw that leaves the drawer a decision (the table gives one
for every such draw: :func:`unobot.core.hands.draw_hint`)."""


server = module_server(*GAME_SERVERS)


class RunningBot:
    """The real bot on a real connection, its reactor in a thread."""

    def __init__(
        self,
        srv: IrcServer,
        channel: str,
        table: TableConfig,
        seed: int,
        *,
        store: StatsStore | None = None,
        bots: ComputerConfig | None = None,
        database: str | None = None,
        db_timeout: float = 5.0,
        upkeep: float = 0.5,
        more_channels: tuple[str, ...] = (),
        journal: Path | None = None,
        live: bool = False,
        **irc: object,
    ) -> None:
        """``database``: settings and stats in that database, wired as ``unobot.main`` does
        (the database worker, the upkeep timer every ``upkeep`` seconds); ``live``: with
        the live view's writer on that worker too (``[stats] live``)."""
        self.channel = channel
        channels = {c: "" for c in (channel, *more_channels)}
        settings = bot_settings(srv, **{"rate": 0.0, "channels": channels, **irc})
        self.adapter = IrcAdapter(settings, lambda rec: self.bot.handle(rec))
        prefs: SettingsStore = MemorySettings()
        if database is not None:
            prefs, store = database_stores(database, "", db_timeout, self.adapter)  # type: ignore[assignment]
            keep_up(self.adapter, prefs, store, upkeep)  # type: ignore[arg-type]
        self.prefs = prefs
        self.store = store
        self.live = live_writer(store, "", self.adapter) if live and database else None  # type: ignore[arg-type]
        self.bot = Bot(
            self.adapter,
            self.adapter,
            prefs,
            BotConfig(table=table, bots=bots or ComputerConfig()),
            rng=Random(seed),
            store=store,
            recorder=None if store is None else GameRecorder.following(store, "", self.adapter),
            journal=None if journal is None else Journal(journal, self.adapter.now),
            live=self.live,
        )
        self.nick = settings.nick
        self.thread = threading.Thread(target=self.adapter.run, daemon=True, name="bot")
        self.thread.start()
        deadline = time.monotonic() + 10
        while not all(c in self.adapter.joined for c in channels):
            assert time.monotonic() < deadline, "bot did not join"
            time.sleep(0.02)

    def table(self):
        return self.bot.tables.get(irc_lower(self.channel))

    def call(self, fn: Callable[[], T], timeout: float = 5.0) -> T:
        """Run ``fn`` on the bot's reactor thread (the bot is single-threaded); its value."""
        return on_reactor(self.adapter, fn, timeout)

    def stop(self) -> None:
        self.adapter.stop("test over")
        self.thread.join(5)
        if self.live is not None:
            self.live.close()
        close = getattr(self.prefs, "close", None)
        if close is not None:
            close()
            self.store.close(wait=2.0)  # type: ignore[union-attr]


@pytest.fixture
def run_bot(server: IrcServer) -> Iterator[Callable[..., RunningBot]]:
    bots: list[RunningBot] = []

    def make(table: TableConfig | None = None, seed: int = 1) -> RunningBot:
        bot = RunningBot(server, "#" + unique("uno"), table or TableConfig(), seed)
        bots.append(bot)
        return bot

    yield make
    for bot in bots:
        bot.stop()


class Player:
    """A real client and the agent that decides from what this client received."""

    def __init__(self, client: TestClient, seed: int) -> None:
        self.client = client
        self.agent = Agent(client.nick, Random(seed))
        self.read = 0

    def bot_lines(self, bot: str, channel: str) -> list[Msg]:
        return [
            m
            for m in self.client.snapshot()
            if m.nick == bot and m.command == "PRIVMSG" and m.target == channel
        ]

    def told(self, m: Msg, bot: str) -> bool:
        """Whether ``m`` is a line of the bot's to this player that the agent reads: a NOTICE
        to their nick (a subclass reads hands by private message too)."""
        return (
            m.nick == bot
            and m.command == "NOTICE"
            and irc_lower(m.target) == irc_lower(self.client.nick)
        )

    def catch_up(self, bot: str) -> list[str]:
        """Feed the agent the bot's new notices to this player; return them."""
        lines = self.client.snapshot()
        new = lines[self.read :]
        self.read = len(lines)
        texts = [strip_codes(m.text) for m in new if self.told(m, bot)]
        for text in texts:
            self.agent.read_notice(text.split(" | Cards:")[0])  # .cards adds the counts
        return texts


class NetGame:
    """Drives one game over the network, one command at a time by the player to move."""

    def __init__(self, bot: RunningBot, players: list[Player]) -> None:
        """How long a hand notice with no channel line means "drew a playable card": longer
        for a rate-limited bot, whose channel line queues behind the notices."""
        self.bot = bot
        self.players = {irc_lower(p.client.nick): p for p in players}
        self.order = players
        self.channel = bot.channel
        self.drawn = False
        self.turns = 0

    def channel_text(self) -> list[str]:
        return [strip_codes(m.text) for m in self.order[0].bot_lines(self.bot.nick, self.channel)]

    def sync(self, count: int, timeout: float = 10.0) -> None:
        """Wait until every player has received ``count`` bot lines in the channel."""
        deadline = time.monotonic() + timeout
        for p in self.order:
            while len(p.bot_lines(self.bot.nick, self.channel)) < count:
                assert time.monotonic() < deadline, f"{p.client.nick} missed channel lines"
                time.sleep(0.01)
        for p in self.order:
            p.catch_up(self.bot.nick)

    def command(self, player: Player, text: str, timeout: float = 30.0) -> list[str]:
        """Send ``text``; wait for a channel line, a private reply, or a hand notice with a
        hint (a draw that leaves a decision: the bot gives a hint for every such draw, so no
        quiet period is needed, and a slow channel line under load, or a hand sent again
        after a restart, is never mistaken for one). Returns the notices to ``player``."""
        nick = self.bot.nick
        before = len(player.bot_lines(nick, self.channel))
        seen_before = len(player.client.snapshot())
        player.client.privmsg(self.channel, text)
        deadline = time.monotonic() + timeout
        while len(player.bot_lines(nick, self.channel)) == before:
            fresh = player.client.snapshot()[seen_before:]
            notes = [strip_codes(m.text) for m in fresh if self.private(player, m)]
            if any("Your cards (" not in t or HINT.search(t) for t in notes):
                break
            assert time.monotonic() < deadline, f"no answer to {text!r}"
            time.sleep(0.01)
        self.sync(len(player.bot_lines(nick, self.channel)))
        return [strip_codes(m.text) for m in player.client.snapshot()[seen_before:]
                if self.private(player, m)]  # fmt: skip

    def private(self, player: Player, m: Msg) -> bool:
        """Whether ``m``, received by ``player``, is the bot's private answer (a NOTICE) to
        a command of theirs (a subclass takes private messages too)."""
        return m.nick == self.bot.nick and m.command == "NOTICE"

    def start(self) -> None:
        first, *rest = self.order
        self.command(first, ".uno")
        for p in rest:
            self.command(p, ".join")
        self.command(first, ".deal")

    def check_hands(self) -> None:
        table = self.bot.table()
        if table is None or table.game is None:
            return
        for p in self.order:
            told = sorted(p.agent.hand, key=lambda c: c.code)
            assert told == list(table.hand_of(p.client.nick)), p.client.nick

    def over(self) -> bool:
        return any(" wins" in t for t in self.channel_text()[-3:])

    # Hooks for drivers of other rule sets (tests/e2e/test_presets_e2e.py).
    def status(self, lines: list[str]) -> Seen | None:
        return read_status(lines)

    def answer_pending(self, lines: list[str]) -> str:
        """The command for a player who must draw a pending total."""
        return ".draw"

    def refusal_expected(self) -> bool:
        """Whether a private refusal is no error now (never, in a plain game)."""
        return False

    def hand_goes_on(self, new_lines: str) -> bool:
        """Whether the mover's hand outlived their play (not when a new hand was dealt)."""
        return True

    def step(self) -> None:
        self.check_hands()
        lines = self.channel_text()
        seen = self.status(lines)
        assert seen is not None, lines[-3:]
        player = self.players.get(irc_lower(seen.turn))
        if player is None:  # a computer player's turn (tests/e2e/test_computers_e2e.py)
            self.wait_for_others(len(lines))
            return
        if seen.phase == "picks":
            command = ".color g"
        elif seen.phase == "must":
            command = self.answer_pending(lines)
        else:
            command = player.agent.choose(seen.top, seen.color, self.drawn)
        before = len(lines)
        replies = self.command(player, command)
        errors = [t for t in replies if "Your cards" not in t]
        if errors and self.refusal_expected():
            return
        assert not errors, (command, errors)
        new = " ".join(self.channel_text()[before:])
        # A Skip or Reverse between two players: the turn came back, and with it the hand
        # (read already, without the card played).
        again = any("Your turn | " in t for t in replies)
        if command.startswith((".p ", ".play")) and self.hand_goes_on(new) and not again:
            player.agent.played(command)
        # The turn moved on when the channel said a move (a line with a status); a line without
        # one (a knockout's "10 seconds left in this game") may land right after a draw that
        # left the mover a choice, and must not make them draw again ("you already drew").
        if self.status(self.channel_text()[before:]) is not None:
            self.turns += 1
            self.drawn = False
        else:
            self.drawn = True

    def wait_for_others(self, count: int, timeout: float = 30.0) -> None:
        """Wait for the channel to say more than ``count`` lines (someone else moved)."""
        deadline = time.monotonic() + timeout
        first = self.order[0]
        while len(first.bot_lines(self.bot.nick, self.channel)) <= count:
            assert time.monotonic() < deadline, f"nobody moved: {self.channel_text()[-2:]}"
            time.sleep(0.01)
        self.sync(len(first.bot_lines(self.bot.nick, self.channel)))
        self.drawn = False

    def play_to_end(self, max_steps: int = 3000) -> str:
        for _ in range(max_steps):
            if self.over():
                self.wait_for_invitation()
                return next(t for t in reversed(self.channel_text()) if " wins" in t)
            self.step()
        pytest.fail("game did not end")

    def wait_for_invitation(self, timeout: float = 10.0) -> None:
        """The bot's line after a game (``.uno for another game.``) follows the winner's: wait
        for it, so that what a test asks next is not answered before it arrives."""
        deadline = time.monotonic() + timeout
        while not any(t.endswith("uno for another game.") for t in self.channel_text()[-3:]):
            assert time.monotonic() < deadline, f"no invitation: {self.channel_text()[-2:]}"
            time.sleep(0.01)
        self.sync(len(self.order[0].bot_lines(self.bot.nick, self.channel)))


def rig(
    bot: RunningBot, hands: list[str], top: str, pile: str = " ".join(["B9"] * 12)
) -> list[str]:
    """Replace the dealt hand by an exact position (the seats stay), on the bot's own thread:
    seat 0 to move, ``pile`` drawn first card first. Returns the nicks in seat order."""
    table = bot.table()
    assert table is not None and table.match is not None
    names = list(table.names)
    pairs = enumerate(zip(names, hands, strict=True))
    seats = " | ".join(f"{n}{'*' if i == 0 else ''}: {h}" for i, (n, h) in pairs)
    position = f"top={top} | {seats} | pile={pile}"

    def swap_in() -> None:
        game, seated = parse_position(position, table.config.rules, Random(1))
        assert seated == names
        table.match.game = game  # type: ignore[union-attr]
        table._new_turn(bot.adapter.now())

    on_reactor(bot.adapter, swap_in)
    return names


def make_players(server: IrcServer, count: int, channel: str) -> list[Player]:
    players = []
    for i in range(count):
        client = TestClient(server.port, unique("pl"))
        client.join(channel)
        players.append(Player(client, seed=i))
    return players


@pytest.fixture
def players_for(server: IrcServer) -> Iterator[Callable[[RunningBot, int], list[Player]]]:
    made: list[Player] = []

    def make(bot: RunningBot, count: int) -> list[Player]:
        players = make_players(server, count, bot.channel)
        made.extend(players)
        return players

    yield make
    for p in made:
        p.client.close()


def test_complete_game_over_irc(
    run_bot: Callable[..., RunningBot], players_for: Callable[[RunningBot, int], list[Player]]
) -> None:
    bot = run_bot(seed=3)
    players = players_for(bot, 3)
    game = NetGame(bot, players)
    game.start()
    winner = game.play_to_end()
    assert re.search(r"\bwins\b", winner)
    assert game.turns > 5
    # Nobody's hand ever reached the channel.
    for line in game.channel_text():
        assert "Your cards" not in line and "You drew" not in line
    # Every hand notice went to its own player only.
    for p in players:
        for m in p.client.received("NOTICE", bot.nick):
            assert irc_lower(m.target) == irc_lower(p.client.nick)


def test_illegal_play_is_refused_privately(
    run_bot: Callable[..., RunningBot], players_for: Callable[[RunningBot, int], list[Player]]
) -> None:
    bot = run_bot(seed=5)
    players = players_for(bot, 2)
    game = NetGame(bot, players)
    game.start()
    seen = read_status(game.channel_text())
    assert seen is not None
    mover = game.players[irc_lower(seen.turn)]
    other = next(p for p in players if p is not mover)
    lines_before = len(game.channel_text())
    # Out of turn, a card nobody has, garbage: short private replies, game unchanged.
    for who, text in [(other, ".p r 5"), (mover, ".p q 7"), (mover, ".play x")]:
        replies = game.command(who, text)
        assert replies and all(len(r.encode()) < 200 for r in replies), (text, replies)
    assert len(game.channel_text()) == lines_before
    assert read_status(game.channel_text()) == seen


def test_unostop_rights(
    run_bot: Callable[..., RunningBot], players_for: Callable[[RunningBot, int], list[Player]]
) -> None:
    bot = run_bot(seed=7)
    starter, other = players_for(bot, 2)
    game = NetGame(bot, [starter, other])
    game.start()
    replies = game.command(other, ".unostop")
    assert replies and bot.table() is not None
    game.command(starter, ".unostop")
    assert bot.table() is None
    assert any("stopped" in t for t in game.channel_text()[-2:])


def test_nick_change_mid_game(
    run_bot: Callable[..., RunningBot], players_for: Callable[[RunningBot, int], list[Player]]
) -> None:
    bot = run_bot(seed=11)
    players = players_for(bot, 2)
    game = NetGame(bot, players)
    game.start()
    renamed = players[1]
    new_nick = unique("renamed")
    renamed.client.send(f"NICK {new_nick}")
    renamed.client.wait_for(lambda m: m.command == "NICK" and m.text == new_nick)
    deadline = time.monotonic() + 5
    while not (bot.table() and bot.table().has(new_nick)):
        assert time.monotonic() < deadline, "the table did not follow the nick change"
        time.sleep(0.02)
    old = irc_lower(renamed.client.nick)
    renamed.client.nick = new_nick
    renamed.agent.nick = new_nick
    game.players[irc_lower(new_nick)] = game.players.pop(old)
    game.play_to_end()


def test_player_quitting_mid_game(
    run_bot: Callable[..., RunningBot], players_for: Callable[[RunningBot, int], list[Player]]
) -> None:
    bot = run_bot(TableConfig(grace=0.5), seed=13)
    players = players_for(bot, 3)
    game = NetGame(bot, players)
    game.start()
    leaver = players[2]
    leaver.client.close()
    game.order.remove(leaver)
    del game.players[irc_lower(leaver.client.nick)]
    observer = players[0]
    observer.client.wait_for(
        lambda m: m.nick == bot.nick and "is out" in strip_codes(m.text), timeout=10
    )
    table = bot.table()
    assert table is not None and not table.has(leaver.client.nick)
    game.sync(len(observer.bot_lines(bot.nick, bot.channel)))
    game.play_to_end()


def test_turn_timer_fires(
    run_bot: Callable[..., RunningBot], players_for: Callable[[RunningBot, int], list[Player]]
) -> None:
    bot = run_bot(TableConfig(turn_timeout=1.0, turn_warning=0.5), seed=17)
    players = players_for(bot, 3)
    game = NetGame(bot, players)
    game.start()
    seen = read_status(game.channel_text())
    assert seen is not None
    idle = seen.turn
    watcher = players[0].client
    watcher.wait_for(lambda m: m.nick == bot.nick and "time" in strip_codes(m.text), timeout=5)
    watcher.wait_for(
        lambda m: m.nick == bot.nick and "ran out of time" in strip_codes(m.text), timeout=5
    )
    # the turn moved on from the idle player
    deadline = time.monotonic() + 5
    while True:
        after = read_status(game.channel_text())
        if after is not None and irc_lower(after.turn) != irc_lower(idle):
            break
        assert time.monotonic() < deadline
        time.sleep(0.05)
