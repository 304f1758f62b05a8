"""``python -m unobot.bench capacity``: how many games one bot can carry on a strict network.

What it answers: with the real bot (``python unobot.py``, the default 1 line/s after a burst
of 4) on inspircd with its default flood limits, and G 4-player games played at once in G
channels by simulated people who think 2-6 s before each move, how long a move takes to be
seen by the other players (move-to-visible p50/p95), how many turns all the tables together
get through per second, how many lines the bot spends per turn, and whether any channel is
starved: the longest time a channel with a game waited for its next bot line, against the
bound (active channels) x 1.5 s that a send queue fair by channel must keep.

How, and why this way:

- Everything real, nothing patched: inspircd is started as the end-to-end tests start it
  (``tests/e2e/servers.py``: Debian's default ``<connect>`` limits, only the per-IP client
  count raised), the bot is the ``unobot.py`` process an operator runs, the players are real
  IRC connections. Its send budget and its command throttle are what is measured, so neither
  is turned off.
- Every player connects from its own loopback address (127.0.c.p): the bot budgets commands by
  host, and on one address the whole benchmark would be one person.
- The players are :mod:`unobot.bench.irc`'s simulated players (they know only what their own
  NOTICEs and the channel told them), with a seeded think time of 2-6 s (uniform) before each
  move; lobby commands (``.join``, ``.deal``) go at once.
- Measured from outside, at the players' sockets: a move's latency runs from its command
  leaving the player's socket to the bot's channel line naming the mover arriving at another
  player. A channel *waits on the bot* while its game is open and none of its players is
  thinking (the ball is in the bot's court); the wait ends with the next bot line for that
  channel (a channel line or a notice to one of its players). A turn is a move shown.
- The lobby and the deal of G games at once cost ~9 lines a game, i.e. ~70 s at 1 line/s for
  8 games before anybody can move. That phase is timed and its longest wait reported apart;
  the ``--seconds`` window starts once every channel has shown its first turn, so the rates
  describe play, not the opening.
- ``--connections N`` is passed as the config key ``irc.connections`` (extra connections, each
  with its own send budget); a bot that refuses the key is reported as not supporting it.
- ``--no-turn-hand`` sets ``bot.turn_hand = false`` (no hand when the turn comes, only when it
  changes), to compare; the turn's hands that arrived are counted apart (``turn hands``).

The figures are printed, never asserted: the end-to-end tests (``tests/e2e/test_fairness.py``)
assert the bound.
"""

from __future__ import annotations

import argparse
import heapq
import math
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from unobot.bench.alone import run_alone
from unobot.bench.irc import _CODES, _STATUS, BOT_NICK, HOST, Clients, Seat, _percentile

__all__ = [
    "BotProcess",
    "Figures",
    "Players",
    "Refused",
    "add_arguments",
    "fair_bound",
    "measure",
    "run",
]

ROOT = Path(__file__).resolve().parents[2]
PLAYERS = 4
THINK = (2.0, 6.0)
"""Seconds a player thinks before a move, uniform (seeded)."""
SHARE_SECONDS = 1.5
"""The fairness bound on average: a channel with a game gets a line in every (active
channels) x this seconds at 1 line/s (round robin, one reply after every two game lines)."""


def fair_bound(active: int) -> float:
    """The longest a channel with a game may wait for its next line at 1 line/s, with
    ``active`` channels playing: the outbox's guarantee (``Outbox``, property-tested in
    tests/irc/test_outbox.py), the other games' lines, one each, and one reply per two game lines,
    rounded up: G + ceil(G / 2) slots. That is (active) x :data:`SHARE_SECONDS` for an even
    number of games and half a slot more for an odd one: three games wait 5 s when replies
    keep coming (reply, game, game, reply, then theirs), not 4.5."""
    games = max(1, active)
    return float(games + -(-games // 2))


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile of ``values`` (nearest rank, as every benchmark here reports it);
    NaN when there are none (a run that measured nothing)."""
    return _percentile(values, q) if values else math.nan


LOBBY = frozenset({"uno", "join", "deal"})
MOVES = frozenset({"p", "play", "d", "draw", "pa", "pass", "co", "color", "colour"})
STALL_SECONDS = 30.0
"""A channel without a bot line this long while a player drew: that player passes (the
simulated player lost track); counted as a stall."""
UNSUPPORTED = "connections: not supported by this bot yet"


def _is_bot(nick: str) -> bool:
    """The bot's nicks: ``unobot`` and, with extra connections, alternates named from it."""
    return nick.lower().startswith(BOT_NICK)


# --- the server and the bot --------------------------------------------------------------------


def _servers_module() -> Any:
    """``tests/e2e/servers.py``: inspircd started exactly as the end-to-end tests do.

    Why the tests' module and not a copy here: the benchmark must run against the very limits
    the fairness tests assert against. It lives in the source tree, not in the installed
    package, so the benchmark needs a checkout.
    """
    if str(ROOT) not in sys.path and (ROOT / "tests" / "e2e" / "servers.py").exists():
        sys.path.insert(0, str(ROOT))
    try:
        from tests.e2e import servers
    except ImportError:
        print("capacity: needs the source tree (tests/e2e/servers.py starts inspircd); run it "
              "from a checkout")  # fmt: skip
        raise SystemExit(2) from None
    return servers


class BotProcess:
    """``python unobot.py`` against the server, in a scratch folder (its stats and journal)."""

    def __init__(
        self,
        port: int,
        channels: list[str],
        connections: int,
        folder: Path,
        settings: str = "",
        log_level: str = "WARNING",
        *,
        embedded: bool = False,
        root: Path = ROOT,
    ) -> None:
        """``settings``: more TOML for its config file (the tests make their players admins);
        ``log_level``: INFO to read what the bot says of the server (``bench networks``);
        ``embedded``: no server of its own is given, so the bot runs its embedded one on
        ``port``; ``root``: the checkout whose ``unobot.py`` runs (another commit's, to
        compare)."""
        self.folder = folder
        self.log_path = folder / "bot.log"
        server = [] if embedded else ["--server", HOST]
        cmd = [
            sys.executable,
            str(root / "unobot.py"),
            *server, "--port", str(port), "--nick", BOT_NICK,
            "--database", f"sqlite:///{folder / 'stats.db'}", "--log-level", log_level,
        ]  # fmt: skip
        for channel in channels:
            cmd += ["--channel", channel]
        if connections > 1:
            alternates = ", ".join(f'"{BOT_NICK}{chr(ord("b") + i)}"' for i in range(connections))
            settings = (
                f"[irc]\nconnections = {connections}\nalt_nicks = [{alternates}]\n" + settings
            )
        if settings:
            config = folder / "unobot.toml"
            config.write_text(settings)
            cmd += ["--config", str(config)]
        # The bot ends with the thread that started it (a run cut short, a test runner killed:
        # no finally runs, and a bot left behind would reconnect for ever).
        setpriv = shutil.which("setpriv")
        if setpriv:
            cmd = [setpriv, "--pdeathsig", "TERM", "--", *cmd]
        with open(self.log_path, "wb") as log:
            self.proc = subprocess.Popen(
                cmd, cwd=folder, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
            )

    def output(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def exited(self) -> int | None:
        return self.proc.poll()

    def stop(self) -> None:
        """SIGTERM (one line per game, a clean exit within 2 s), SIGKILL if it hangs."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)


class Refused(RuntimeError):
    """The bot stopped at start: its settings were refused (the message is its output)."""


# --- what is measured ---------------------------------------------------------------------------


@dataclass
class Meter:
    """One channel's measurements, from what its players' sockets saw."""

    channel: str
    active: bool = False
    """A game is open here: from ``.uno`` to the line that ends it."""
    thinking: int = 0
    """Commands of this channel's players waiting for their think time."""
    last_event: float = 0.0
    waiting_since: float | None = None
    waiting_among: int = 0
    """Channels with a game open when this channel's wait began."""
    copies: int = 0
    """Channel lines seen so far by the seat that saw most (the first copy of each counts)."""
    pending: tuple[str, float] | None = None
    """The last move sent and not yet shown: (mover, when it left the mover's socket)."""
    first_turn: float | None = None
    finished: int = 0
    texts: list[str] = field(default_factory=list)
    """The bot's channel lines, codes stripped."""


@dataclass
class Figures:
    """One run's results (one G and one number of connections)."""

    games: int
    connections: int
    seconds: float = 0.0
    setup_seconds: float = math.nan
    latencies: list[float] = field(default_factory=list)
    lines: int = 0
    waits: list[tuple[float, int, str]] = field(default_factory=list)
    """(seconds waited, active channels when the wait began, channel), during the window."""
    setup_waits: list[tuple[float, int, str]] = field(default_factory=list)
    finished: int = 0
    stalls: int = 0
    errors: list[str] = field(default_factory=list)
    slow_downs: int = 0
    bot_quits: int = 0
    turn_hands: int = 0
    """Hand notices sent because the turn came (``Your turn | ...``), during the window."""
    turn_hand: bool = True
    """The bot ran with ``bot.turn_hand`` on."""

    @property
    def turns(self) -> int:
        return len(self.latencies)

    @property
    def turns_per_second(self) -> float:
        return self.turns / self.seconds if self.seconds > 0 else math.nan

    @property
    def lines_per_turn(self) -> float:
        return self.lines / self.turns if self.turns else math.nan

    def percentile(self, q: float) -> float:
        return percentile(self.latencies, q)

    @staticmethod
    def worst(waits: list[tuple[float, int, str]]) -> tuple[float, int, str]:
        """The wait furthest over (or least under) its bound."""
        if not waits:
            return (0.0, 0, "-")
        return max(waits, key=lambda w: w[0] - fair_bound(w[1]))


class Players(Clients):
    """:class:`unobot.bench.irc.Clients` (the simulated players in one selector loop) with a
    think time before each move, a loopback address per player, the bot's other nicks
    understood, and every send and bot line timed for the :class:`Meter` of its channel.

    The steps (``join``, ``open``, ``until``, ``measure``, ``close_window``) are public so that
    the end-to-end fairness tests drive the same players and measure waits the same way.
    """

    def __init__(
        self,
        port: int,
        games: int,
        seed: int,
        *,
        players: int = PLAYERS,
        think: tuple[float, float] = THINK,
        hands: int | None = None,
        deal: str = "",
    ) -> None:
        """``games`` channels ``#bench0``..., ``players`` each, playing ``hands`` games each
        (None: a new one after each, for ever); ``think``: (0, 0) to answer at once;
        ``deal``: what follows ``.deal`` (``"20s"``: a timed match, over when the time is up,
        so a test's games take a known time)."""
        super().__init__(port, games, players, hands or 1_000_000, seed, think=sum(think) / 2)
        self.per_game = players
        self.think_range = think
        self.deal = deal
        self.ends = (
            (" the match", " stopped the game") if deal else (" wins the hand", " stopped the game")
        )
        self.meters = {g.channel: Meter(g.channel) for g in self.games}
        self.seen = {s.nick: 0 for s in self.seats}
        self.window: tuple[float, float] | None = None
        self.figures: Figures | None = None
        self.setup_waits: list[tuple[float, int, str]] = []
        self.bot_here: set[str] = set()
        self.slow_downs = 0
        self.bot_quits = 0
        self.began: dict[tuple[float, int, str], float] = {}
        """When each recorded wait began (for :meth:`around`)."""
        self.timeline: deque[tuple[float, str]] = deque(maxlen=5000)
        """What went on, in order: each command sent and each bot line seen (its first copy),
        with its time: a wait over the bound shows what the bot sent meanwhile."""

    def around(self, wait: tuple[float, int, str]) -> str:
        """The timeline from a little before a recorded ``wait`` began to its end."""
        began = self.began.get(wait)
        if began is None:
            return "(not recorded)"
        return "\n".join(
            f"{when - began:+8.3f} {what}"
            for when, what in self.timeline
            if began - 1.5 <= when <= began + wait[0] + 0.1
        )

    def address(self, index: int) -> str:
        """Player ``index``'s own loopback address: channel c, seat p -> 127.0.c+1.p+2."""
        return f"127.0.{1 + index // self.per_game}.{2 + index % self.per_game}"

    # connections: one loopback address per player, all registering at once
    def connect(self, in_flight: int = 64) -> None:
        """inspircd takes ~1 s per registration but registers many at once."""
        opened = sum(s.sock is not None for s in self.seats)
        for index, seat in enumerate(self.seats[opened : opened + in_flight], start=opened):
            self.open_seat(seat, self.address(index), "unobot capacity bench")

    # think time
    def say(self, seat: Seat, line: str) -> None:
        """Lobby commands at once; a move after the player's think time."""
        word = line.partition(" :")[2].lstrip(".").split(" ", 1)[0].lower()
        if word == "deal" and self.deal:
            line = f"{line} {self.deal}"
        if word in LOBBY or self.think_range[1] <= 0:
            self.send(seat, line)
            return
        self.meters[seat.game.channel].thinking += 1
        when = time.monotonic() + self.think_rng.uniform(*self.think_range)
        heapq.heappush(self.thinking, (when, next(self._order), seat, line))

    def _release(self) -> None:
        now = time.monotonic()
        while self.thinking and self.thinking[0][0] <= now:
            _, _, seat, line = heapq.heappop(self.thinking)
            self.meters[seat.game.channel].thinking -= 1
            self.send(seat, line)

    def send(self, seat: Seat, line: str) -> None:
        super().send(seat, line)
        if not line.startswith("PRIVMSG #"):
            return
        now = time.monotonic()
        meter = self.meters[seat.game.channel]
        meter.last_event = now
        self.timeline.append((now, f"{meter.channel} <- {seat.nick}: {line.partition(' :')[2]}"))
        word = line.partition(" :")[2].lstrip(".").split(" ", 1)[0].lower()
        if word == "uno":
            meter.active = True
        if word in MOVES and self._in_window(now):
            meter.pending = (seat.nick, now)

    # what the players receive
    def _line(self, seat: Seat, line: str) -> None:
        prefix, rest = "", line
        if line.startswith(":"):
            prefix, _, rest = line[1:].partition(" ")
        nick, _, address = prefix.partition("!")
        head, _, text = rest.partition(" :")
        words = head.split()
        if _is_bot(nick):
            if nick != BOT_NICK:  # an extra connection: the players read it as the bot
                line = f":{BOT_NICK}!{address} {rest}"
            self._from_bot(seat, words, text)
        elif words[:1] == ["353"] and any(_is_bot(n.lstrip("@%+~&")) for n in text.split()):
            self.bot_here.add(seat.game.channel)
        super()._line(seat, line)

    def _from_bot(self, seat: Seat, words: list[str], text: str) -> None:
        now = time.monotonic()
        meter = self.meters[seat.game.channel]
        command = words[0].upper() if words else ""
        if command == "JOIN":
            self.bot_here.add((words[1:2] or [text])[0])
            return
        if command == "QUIT":
            self.bot_quits += 1
            return
        plain = _CODES.sub("", text)
        if command == "NOTICE" and words[1:2] == [seat.nick]:
            self.slow_downs += plain.startswith("Slow down")
            if "Your turn | " in plain and self.figures is not None and self._in_window(now):
                self.figures.turn_hands += 1
            self.timeline.append((now, f"{meter.channel} notice {seat.nick}: {plain[:50]}"))
            self._bot_line(meter, now)
        elif command == "PRIVMSG" and words[1:2] == [meter.channel]:
            self.seen[seat.nick] += 1
            if self.seen[seat.nick] > meter.copies:  # the first copy of this line
                meter.copies = self.seen[seat.nick]
                meter.texts.append(plain)
                self.timeline.append((now, f"{meter.channel} says: {plain[:60]}"))
                self._bot_line(meter, now)
                self._channel_line(meter, plain, now)
            if meter.pending is not None and meter.pending[0] != seat.nick:
                mover, sent = meter.pending
                if re.search(rf"(?<![\w-]){re.escape(mover)}(?![\w-])", plain):
                    meter.pending = None
                    if self.figures is not None and self._in_window(sent):
                        self.figures.latencies.append(now - sent)

    def _bot_line(self, meter: Meter, now: float) -> None:
        """A line for ``meter``'s channel arrived: a wait on the bot (if any) ends."""
        meter.last_event = now
        if self.figures is not None and self._in_window(now):
            self.figures.lines += 1
        if meter.waiting_since is not None:
            self._record(meter, now - meter.waiting_since, meter.waiting_since)
            meter.waiting_since = None

    def _channel_line(self, meter: Meter, plain: str, now: float) -> None:
        if _STATUS.search(plain) and meter.first_turn is None:
            meter.first_turn = now
        if any(end in plain for end in self.ends):
            meter.active = False
            meter.finished += 1
            if self.figures is not None and self._in_window(now):
                self.figures.finished += 1

    def _active(self) -> int:
        return sum(m.active for m in self.meters.values())

    def _record(self, meter: Meter, waited: float, began: float) -> None:
        """A wait of ``waited`` s: its bound counts the channels with a game when it began or
        when it ended, whichever are more (a game that just ended may still have its last
        lines queued)."""
        entry = (waited, max(meter.waiting_among, self._active()), meter.channel)
        self.began[entry] = began
        if self.window is None:
            self.setup_waits.append(entry)
        elif self.figures is not None and self._in_window(began):
            self.figures.waits.append(entry)

    def _in_window(self, when: float) -> bool:
        return self.window is not None and self.window[0] <= when <= self.window[1]

    def _settle(self) -> None:
        """After each read: a channel whose game is open and where nobody thinks waits on the
        bot, from its last event (the last bot line or command)."""
        for meter in self.meters.values():
            if meter.active and meter.thinking == 0:
                if meter.waiting_since is None:
                    meter.waiting_since = meter.last_event
                    meter.waiting_among = self._active()
            else:
                meter.waiting_since = None

    def _poll(self, deadline: float) -> None:
        super()._poll(deadline)
        self._settle()

    # the steps of a run
    def join(self, bot: BotProcess, timeout: float = 60.0) -> None:
        """Connect every player, join the channels, and wait for the bot in each of them.
        Raises :class:`Refused` if the bot stopped (its settings refused)."""
        deadline = time.monotonic() + timeout
        while not (all(s.joined for s in self.seats) and len(self.bot_here) >= len(self.games)):
            if bot.exited() is not None:
                raise Refused(bot.output().strip())
            if time.monotonic() > deadline:
                raise RuntimeError(
                    f"setup: {sum(s.joined for s in self.seats)}/{len(self.seats)} players "
                    f"joined, the bot in {len(self.bot_here)}/{len(self.games)} channels"
                )
            self.connect()
            self._poll(deadline + 5)

    def say_first(self, text: str) -> None:
        """The first player of every channel says ``text`` there, at once."""
        for game in self.games:
            self.send(game.seats[0], f"PRIVMSG {game.channel} :{text}")

    def open(self) -> float:
        """Every channel's first player opens a game (the others join when they see it)."""
        opened = time.monotonic()
        for game in self.games:
            game.last_seen = opened
            game.start(self)
        return opened

    def until(self, done: Callable[[], bool], timeout: float, bot: BotProcess, what: str) -> None:
        """Play until ``done()``; RuntimeError after ``timeout`` s or if the bot exits."""
        deadline = time.monotonic() + timeout
        while not done():
            now = time.monotonic()
            if now > deadline:
                raise RuntimeError(f"no {what} within {timeout:g} s")
            if bot.exited() is not None:
                raise RuntimeError(f"the bot exited: {bot.output()[-2000:]}")
            self._poll(deadline + 5)
            for game in self.games:
                if game.counting and now - game.last_seen > STALL_SECONDS:
                    self._unstall(game, now)

    def measure(self, figures: Figures, start: float) -> None:
        """Count into ``figures`` from ``start`` on (a wait already begun counts from there)."""
        self.figures = figures
        self.window = (start, math.inf)
        for meter in self.meters.values():
            if meter.waiting_since is not None:
                meter.waiting_since = max(meter.waiting_since, start)

    def close_window(self, end: float) -> None:
        """Stop counting at ``end``: a channel still waiting then counts its wait so far."""
        assert self.window is not None and self.figures is not None
        self.window = (self.window[0], end)
        for meter in self.meters.values():
            if meter.waiting_since is not None and meter.waiting_since < end:
                self._record(meter, end - meter.waiting_since, meter.waiting_since)
                meter.waiting_since = None
        figures = self.figures
        figures.seconds = end - self.window[0]
        figures.stalls = sum(g.stalls for g in self.games)
        figures.errors = [f"{s.nick}: {e}" for s in self.seats for e in s.errors]
        figures.slow_downs = self.slow_downs
        figures.bot_quits = self.bot_quits

    def play(self, bot: BotProcess, figures: Figures, seconds: float) -> None:
        """The benchmark's run: join, open every game, play until each showed a turn (the
        opening, timed apart), then measure ``seconds`` of play."""
        self.join(bot)
        opened = self.open()
        self.until(
            lambda: all(m.first_turn is not None for m in self.meters.values()),
            30 + 15 * len(self.games),
            bot,
            "first turn in every channel",
        )
        began = time.monotonic()
        figures.setup_seconds = began - opened
        figures.setup_waits = list(self.setup_waits)
        self.measure(figures, began)
        self.until(lambda: time.monotonic() >= began + seconds, seconds + 10, bot, "end")
        self.close_window(began + seconds)


# --- the run ------------------------------------------------------------------------------------


def measure(
    games: int, connections: int, seconds: float, seed: int, turn_hand: bool = True
) -> Figures:
    """One run: a fresh inspircd, the bot, ``games`` tables of 4 simulated players."""
    servers = _servers_module()
    try:
        server = servers.start_server("inspircd")
    except servers.ServerMissing:
        print("capacity: inspircd is not installed (apt-get install inspircd; tests/run.sh "
              "installs it when run as root)")  # fmt: skip
        raise SystemExit(2) from None
    figures = Figures(games, connections, turn_hand=turn_hand)
    players: Players | None = None
    settings = "" if turn_hand else "[bot]\nturn_hand = false\n"
    try:
        with tempfile.TemporaryDirectory(prefix="unobot-capacity-") as tmp:
            channels = [f"#bench{c}" for c in range(games)]
            bot = BotProcess(server.port, channels, connections, Path(tmp), settings)
            try:
                players = Players(server.port, games, seed)
                players.play(bot, figures, seconds)
            finally:
                bot.stop()
                if players is not None:
                    players.close()
    finally:
        server.cleanup()
    return figures


def _seconds(value: float) -> str:
    """Seconds as people read them: milliseconds below one second."""
    if math.isnan(value):
        return "-"
    return f"{value * 1000:.0f} ms" if value < 1 else f"{value:.1f} s"


def report(f: Figures) -> str:
    """The run's summary line."""
    wait, active, channel = Figures.worst(f.waits)
    bound = fair_bound(active)
    verdict = "within" if wait <= bound else "OVER"
    conn = f"{f.connections} connection{'s' if f.connections > 1 else ''}"
    return (
        f"G={f.games} ({conn}): {f.turns_per_second:.2f} turns/s ({f.turns} turns in "
        f"{f.seconds:.0f} s), move-to-visible p50 {_seconds(f.percentile(0.5))} p95 "
        f"{_seconds(f.percentile(0.95))}, {f.lines_per_turn:.2f} lines/turn (turn hands "
        f"{f.turn_hands / f.turns if f.turns else 0:.2f}), longest wait "
        f"{wait:.1f} s in {channel} ({active} active: bound {bound:.1f} s, {verdict})"
    )


def _details(f: Figures) -> None:
    wait, active, channel = Figures.worst(f.setup_waits)
    print(
        f"  opening: {f.games} lobbies and deals until every channel showed a turn: "
        f"{f.setup_seconds:.1f} s, longest wait meanwhile {wait:.1f} s in {channel} "
        f"({active} active: bound {fair_bound(active):.1f} s)"
    )
    print(
        f"  hands finished {f.finished}, stalls {f.stalls}, player errors {len(f.errors)}, "
        f"'Slow down' notices {f.slow_downs}, bot disconnects {f.bot_quits}"
    )
    for example in f.errors[:3]:
        print(f"    e.g. {example}")


def _numbers(text: str) -> list[int]:
    try:
        values = [int(v) for v in text.split(",") if v.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a list of numbers (e.g. 1,4,8)"
        ) from None
    if not values or min(values) < 1:
        raise argparse.ArgumentTypeError("each number must be at least 1")
    return values


def run(args: argparse.Namespace) -> list[Figures]:
    """Every G for every number of connections; one line each, then ``capacity:``."""
    print(
        f"capacity bench: inspircd (default flood limits), the bot process at its default "
        f"send rate (1 line/s after a burst of 4), {PLAYERS}-player games, players think "
        f"{THINK[0]:g}-{THINK[1]:g} s before each move, {args.seconds:g} s of play per run "
        f"after every game showed its first turn, seed {args.seed}, hand at each turn "
        f"{'on' if args.turn_hand else 'off'}"
    )
    results: list[Figures] = []
    unsupported = False
    for connections in args.connections:
        for games in args.games:
            if connections > 1 and unsupported:
                continue
            try:
                figures = measure(games, connections, args.seconds, args.seed, args.turn_hand)
            except Refused as err:
                if connections > 1 and "connections" in str(err):
                    print(UNSUPPORTED)
                    unsupported = True
                    continue
                raise
            results.append(figures)
            print(report(figures), flush=True)
            _details(figures)
    print(_headline(results, unsupported))
    return results


def _headline(results: list[Figures], unsupported: bool) -> str:
    parts = [
        f"{f.games} game{'s' if f.games > 1 else ''}"
        + (f" x{f.connections} conn" if f.connections > 1 else "")
        + f" {f.turns_per_second:.2f} turns/s p50 {_seconds(f.percentile(0.5))}"
        for f in results
    ]
    over = [f for f in results for w in f.waits if w[0] > fair_bound(w[1])]
    fair = "every channel within its bound" if not over else f"{len(over)} waits OVER the bound"
    ratio = ""
    for f in results:
        single = next((r for r in results if r.games == f.games and r.connections == 1), None)
        if f.connections > 1 and single is not None and single.turns_per_second > 0:
            ratio += (
                f"; {f.games} games: {f.connections} connections give "
                f"{f.turns_per_second / single.turns_per_second:.1f}x the turns/s of 1"
            )
    if unsupported:
        ratio += f"; {UNSUPPORTED}"
    return f"capacity: {', '.join(parts) or 'nothing measured'}; {fair}{ratio}"


def add_arguments(p: argparse.ArgumentParser) -> None:
    """Register ``capacity``'s options on its subcommand parser."""
    p.add_argument(
        "--games", type=_numbers, default=[1, 4, 8], help="simultaneous games, e.g. 1,4,8"
    )
    p.add_argument(
        "--connections",
        type=_numbers,
        default=[1],
        help="the bot's connections (irc.connections), e.g. 1,3 (default 1)",
    )
    p.add_argument("--seconds", type=float, default=60.0, help="seconds of play measured per run")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument(
        "--turn-hand",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="the bot sends each player their hand when their turn comes (default, as the bot "
        "does); --no-turn-hand to compare",
    )
    p.set_defaults(run=run)


def main(argv: list[str] | None = None) -> None:
    """``python -m unobot.bench.capacity`` works too (same options)."""
    run_alone("capacity", add_arguments, __doc__, argv)


if __name__ == "__main__":
    main()
