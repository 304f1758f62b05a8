"""``python -m unobot.bench irc``: the whole bot under many concurrent games on a local server.

What it answers: how long the bot takes to answer a command when 50 channels play at once, how
many commands per second it gets through, that no command is lost, how many lines it sends per
turn (on a real network every line costs about a second of the connection's send budget, shared
by all channels) and how much memory an idle game holds.

How, and why this way:

- Three processes, so that the bot is the thing measured. The server is miniircd (the test
  extra installs it; no flood limits) as a subprocess; without it, unobot's own embedded
  server, but in a child process too. The simulated players run in another child process, all
  their sockets in one selector loop. The bot (the real :class:`~unobot.core.bot.Bot` and
  :class:`~unobot.irc.adapter.IrcAdapter`, send rate 0 = unlimited) runs its reactor in a thread
  of this process, which has nothing else to do: no other thread competes with it for the GIL.
  Server and clients run at nice 10, so on a small machine the bot gets a core when it has work,
  as it would on a machine of its own.
- The players know only what a person on IRC would: the hand from their own NOTICEs, the top
  card and whose turn it is from the channel. They play complete games by the rules (the default
  preset) in every channel at once.
- Latency is measured inside the bot without changing what it does: this adapter instance's
  connection ``process_data`` (one socket read and the handling of every line in it) is wrapped
  to stamp when the bytes were read, ``bot.handle`` to count commands and see whether they queued
  a reply, and the adapter's ``_drain`` (the outbox flush) to stamp when the replies left the
  queue. With rate 0 a drain sends everything queued, so a command's latency is from the read of
  its bytes to the end of the first drain after it, including the wait behind the other commands
  read in the same chunk. Only this run's instances are wrapped; the code is not patched.
  Garbage collections in the bot's process are timed too (``gc.callbacks``): they stop the
  reactor, and a full one is the usual cause of the worst latencies.
- By default a simulated player answers the moment it reads the bot's line. The channels then
  fall into lockstep (the bot's replies to one read go out together, every channel answers at
  once), so dozens of commands arrive in one read: the worst case for latency. ``--think MS``
  has each player wait a random 0-2xMS first, closer to people and to a busy network.
- Memory per idle game is measured apart, with ``tracemalloc``, on a :class:`Bot` with a transport
  and a scheduler that only keep what they are given.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import heapq
import importlib.util
import itertools
import json
import logging
import os
import re
import selectors
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import tracemalloc
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from random import Random
from typing import TYPE_CHECKING, Any

from unobot.bench.reading import Reader
from unobot.engine.cards import Card, CardParseError, Color, Rank
from unobot.i18n import LANGUAGES

if TYPE_CHECKING:
    from unobot.core.bot import Bot
    from unobot.irc.adapter import IrcAdapter
    from unobot.irc.transport import Incoming

__all__ = ["add_parser", "idle_game_memory", "main", "run"]

BOT_NICK = "unobot"
HOST = "127.0.0.1"
TARGET_P99_MS = 5.0
TARGET_LINES_PER_TURN = 2.0
TARGET_IDLE_BYTES = 50_000


# --- the server --------------------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


def _wait_listening(port: int, alive: Callable[[], bool], timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not alive():
            raise RuntimeError("the IRC server exited before listening")
        try:
            with socket.create_connection((HOST, port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.02)
    raise RuntimeError(f"the IRC server did not listen on {port} within {timeout}s")


LOAD_NICE = 10
"""Niceness of the server and the clients: when the bot has work it gets a core, as it would
on its own machine; the load still runs whenever the bot waits."""


def _lower_priority(pid: int = 0) -> None:
    with contextlib.suppress(OSError, AttributeError):
        os.setpriority(os.PRIO_PROCESS, pid, LOAD_NICE)


def _cpu_seconds(pid: int) -> float | None:
    """User + system CPU of a process (Linux /proc), None where that can't be read."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


def _embedded_server_child(port: int) -> None:
    """Child process: the embedded server (one selectors loop) until terminated."""
    from unobot.main import start_embedded_server

    _lower_priority()
    start_embedded_server(HOST, port)
    threading.Event().wait()


def _spawn_child(role: str, params: dict[str, Any], **popen: Any) -> subprocess.Popen[bytes]:
    """``python -m unobot.bench.irc --child ROLE PARAMS`` with this interpreter and package.

    Why a plain subprocess and not multiprocessing: spawn re-imports the caller's main module
    (a script without a ``__main__`` guard would start the benchmark again); this needs nothing
    from the caller.
    """
    root = str(Path(__file__).resolve().parents[2])  # the folder holding the package: with
    # unobot/ itself on the path, "irc" would be unobot/irc instead of the irc library
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")])),
    }
    cmd = [sys.executable, "-m", "unobot.bench.irc", "--child", role, json.dumps(params)]
    return subprocess.Popen(cmd, env=env, start_new_session=True, **popen)


def _stopper(proc: subprocess.Popen[bytes]) -> Callable[[], None]:
    def stop() -> None:
        if proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(5)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(5)

    return stop


@dataclass
class Server:
    """A local IRC server without flood limits, in a process of its own."""

    kind: str
    port: int
    stop: Callable[[], None]
    description: str
    pid: int


def _miniircd_args(port: int) -> list[str]:
    args = ["--listen", HOST, "--ports", str(port)]
    if hasattr(os, "geteuid") and os.geteuid() == 0:  # miniircd refuses root otherwise
        args += ["--setuid", "root"]
    return args


def _miniircd_child(port: int) -> None:
    """Child process: miniircd's own ``main`` (imported), so the parent watch runs beside it."""
    import miniircd  # type: ignore[import-not-found]

    _lower_priority()
    sys.argv = ["miniircd", *_miniircd_args(port)]
    miniircd.main()


def _exit_with_parent() -> None:
    """End this helper process when the benchmark's process is gone.

    Why: a benchmark killed hard (a test runner's timeout sends SIGKILL) runs no ``finally``,
    and its server would stay behind, listening, forever.
    """
    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(0)

    threading.Thread(target=watch, name="exit-with-parent", daemon=True).start()


def start_server(prefer: str = "miniircd") -> Server:
    """miniircd as a subprocess when installed, else the embedded server in a child process.

    Why a process of its own either way: relaying 200 clients' lines costs CPU, and inside the
    bot's process that work would hold the GIL the bot's reactor needs.
    """
    port = _free_port()
    if prefer == "miniircd" and importlib.util.find_spec("miniircd") is not None:
        proc = _spawn_child(
            "miniircd", {"port": port}, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        kind, description = "miniircd", "miniircd (subprocess, no flood limits)"
    else:
        proc = _spawn_child(
            "server", {"port": port}, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        why = "miniircd not installed" if prefer == "miniircd" else "asked for"
        kind = "embedded"
        description = f"embedded server (subprocess, no flood limits; {why})"
    stop = _stopper(proc)
    try:
        _wait_listening(port, lambda: proc.poll() is None)
    except BaseException:
        stop()
        raise
    return Server(kind, port, stop, description, proc.pid)


# --- the bot and its probe ---------------------------------------------------------------------


@dataclass
class Probe:
    """What the wrapped bot measured: per-command latency, counts and reactor busy time."""

    latencies: list[float] = field(default_factory=list)
    move_latencies: list[float] = field(default_factory=list)
    """Only the moves of running games (not ``.uno``/``.join``/``.deal``, which 50 channels
    send in one synchronised burst at the start)."""
    handle_times: list[float] = field(default_factory=list)
    """Seconds in ``bot.handle`` per command: the core's own share of the latency."""
    batches: list[int] = field(default_factory=list)
    """Commands per socket read that held any: the queue a command can wait in."""
    commands: int = 0
    answered: int = 0
    busy: float = 0.0
    """Seconds the reactor spent reading and handling lines and flushing the outbox."""
    first: float | None = None
    last: float = 0.0
    gc_pauses: list[tuple[int, float]] = field(default_factory=list)
    """(generation, seconds) of every garbage collection in this process during the run."""
    _gc_start: float = 0.0
    _read_at: float = 0.0
    _pending: list[tuple[float, bool]] = field(default_factory=list)

    def on_gc(self, phase: str, info: dict[str, int]) -> None:
        """A ``gc.callbacks`` entry: a collection stops the reactor thread too."""
        if phase == "start":
            self._gc_start = time.perf_counter()
        else:
            self.gc_pauses.append((info["generation"], time.perf_counter() - self._gc_start))


_LOBBY = frozenset({"uno", "join", "deal"})


def instrument(adapter: IrcAdapter, bot: Bot, prefix: str) -> Probe:
    """Wrap this adapter's read and flush and this bot's ``handle`` (instances only) to measure.

    Why wrapping instances instead of a hook in the adapter: behaviour and code stay exactly as
    in a normal run, and only the objects of this benchmark pay for the stamps.
    """
    probe = Probe()
    clock = time.perf_counter
    conn = adapter._conn  # the library's ServerConnection; the reactor calls process_data on it
    drain = getattr(adapter, "_drain", None)
    if drain is None or not hasattr(conn, "process_data"):
        raise RuntimeError("IrcAdapter changed: the irc benchmark can't find _drain/process_data")
    read = conn.process_data
    handle = bot.handle

    def timed_read() -> None:
        start = probe._read_at = clock()
        before = probe.commands
        read()
        probe.busy += clock() - start
        if probe.commands > before:
            probe.batches.append(probe.commands - before)

    def timed_handle(incoming: Incoming) -> None:
        if not incoming.text.startswith(prefix) or incoming.nick == adapter.nickname:
            handle(incoming)
            return
        before = adapter.queued
        start = clock()
        handle(incoming)
        probe.handle_times.append(clock() - start)
        probe.commands += 1
        if probe.first is None:
            probe.first = probe._read_at
        if adapter.queued > before:
            probe.answered += 1
            word = incoming.text[len(prefix) :].split(" ", 1)[0].lower()
            probe._pending.append((probe._read_at, word not in _LOBBY))

    def timed_drain() -> None:
        start = clock()
        drain()
        end = clock()
        probe.busy += end - start
        if probe._pending and adapter.queued == 0:  # rate 0: the drain sent everything queued
            for read_at, move in probe._pending:
                probe.latencies.append(end - read_at)
                if move:
                    probe.move_latencies.append(end - read_at)
            probe._pending.clear()
            probe.last = end

    conn.process_data = timed_read
    adapter._drain = timed_drain  # type: ignore[method-assign]
    bot.handle = timed_handle  # type: ignore[method-assign]
    return probe


# --- the simulated players (child process) -----------------------------------------------------

_CODES = re.compile(r"\x03(\d{1,2}(,\d{1,2})?)?|[\x02\x0f\x16\x1d\x1f]")
# "Top: R5. bob's turn." / the deal's "First card BS: ann is skipped. bob's turn."
_STATUS = re.compile(
    r"(?:Top:|First card) (\S+?)(?: \((red|yellow|green|blue)\))?(?:: [^.]*)?\. "
    r"(\S+?)('s turn| picks| must)"
)
_CARDS_ONLY = re.compile(r"[RYGBWD0-9SR \[\]]+")


def _parse_cards(text: str) -> list[Card]:
    """Cards as the bot writes them (``[R5]``: playable, in a plain turn's hand)."""
    return [Card.parse(t.strip("[]")) for t in text.split()]


class Seat:
    """One simulated player: a socket, and what this player was told."""

    def __init__(self, game: ChannelGame, index: int, nick: str, rng: Random) -> None:
        self.game = game
        self.index = index
        self.nick = nick
        self.rng = rng
        self.sock: socket.socket | None = None
        self.inbuf = b""
        self.out = bytearray()
        self.registered = False
        self.joined = False
        self.hand: list[Card] = []
        self.expect = 0
        self.top: Card | None = None
        self.color: Color | None = None
        self.drew = False
        """Sent .draw this turn and waits to see the drawn card."""
        self.decide_after_hand = False
        self.counting = False
        """Between the lobby filling up and the end of the game: notices count as game lines."""
        self.notices = 0
        self.turn_hands = 0
        """Of ``notices``: hands sent because the turn came (``Your turn | ...``)."""
        self.commands = 0
        self.errors: list[str] = []
        self.last_line = ""
        """The last line the server sent this player (for the message when it hangs up)."""

    # what this player reads
    def on_notice(self, text: str, client: Clients) -> None:
        text = _CODES.sub("", text)
        reader = self.game.reader
        if self.counting:
            self.notices += 1
            self.turn_hands += reader.turn_hand(text)
        m = reader.hand(text)
        if m:
            self.expect = m[0]
            self.hand = _parse_cards(m[1])
            if self.drew and reader.drew(text):
                self.drew = False
                self.decide_after_hand = True
        elif len(self.hand) < self.expect and _CARDS_ONLY.fullmatch(text):
            self.hand += _parse_cards(text)  # a long hand goes on in the next notice
        else:
            self.errors.append(text)
            return
        if self.decide_after_hand and len(self.hand) >= self.expect:
            self.decide_after_hand = False
            # The bot ended the turn by itself if nothing is playable now (the channel says so);
            # otherwise the turn is still ours (the rules let us play any playable card).
            command = self.choose()
            if command is not None:
                self.command(command, client)

    def on_channel(self, text: str, client: Clients) -> None:
        text = _CODES.sub("", text)
        game = self.game
        if self.index == 0:
            game.observe(text, client)
        reader = game.reader
        if reader.opens(text):
            self.hand, self.expect, self.drew = [], 0, False
            if self.index != 0:
                self.command(".join", client)
            return
        joins = reader.joins(text)
        if joins == len(game.seats):
            self.counting = True
            if self.index == 0:
                self.command(".deal", client)
            return
        if reader.ended(text):
            self.counting = False
            self.drew = False
            return
        status = reader.status(text)
        if status is None:
            return
        self.top, self.color = status.top, status.color
        if status.nick != self.nick:
            return
        phase = status.phase
        if phase == "picks":
            self.command(f".color {self.favourite().letter.lower()}", client)
        elif phase == "must":
            self.command(".draw", client)
        else:
            command = self.choose()
            if command is None:
                self.drew = True
                command = ".draw"
            self.command(command, client)

    # what this player does
    def favourite(self) -> Color:
        counts = Counter(c.color for c in self.hand if c.color is not None)
        return counts.most_common(1)[0][0] if counts else Color.BLUE

    def choose(self) -> str | None:
        """A playable card as a ``.play`` command, or None: a person's reading of the rules."""
        top, color = self.top, self.color
        if top is None or color is None:
            return None
        matching = [
            c
            for c in self.hand
            if c.color is color or (c.rank is top.rank and not top.is_wild) or c.is_wild
        ]
        if any(c.color is color for c in self.hand):  # WD4 only without the current colour
            matching = [c for c in matching if c.rank is not Rank.WILD_DRAW_FOUR]
        if not matching:
            return None
        card = self.rng.choice(matching)
        self.hand.remove(card)
        if card.is_wild:
            return f".play {card.text.lower()} {self.favourite().letter.lower()}"
        letter = card.color.letter.lower() if card.color is not None else ""
        rank = card.text[1:].lower()
        # the forms people type
        return [f".p {letter} {rank}", f".play {card.text}", f".p {letter}{rank}"][
            self.rng.randrange(3)
        ]

    def command(self, text: str, client: Clients) -> None:
        self.commands += 1
        self.game.last_command = (self, text)
        client.say(self, f"PRIVMSG {self.game.channel} :{text}")


class ChannelGame:
    """One channel's players and what its first player counted of the bot's channel lines."""

    def __init__(self, channel: str, games: int, reader: Reader | None = None) -> None:
        self.channel = channel
        self.reader = reader if reader is not None else Reader()
        """Reads the bot's lines in the channel's language (their patterns from the catalogue)."""
        self.games_left = games
        self.seats: list[Seat] = []
        self.counting = False
        self.channel_lines = 0
        self.statuses = 0
        self.turns = 0
        self.finished = 0
        self.last_seen = time.monotonic()
        self.last_command: tuple[Seat, str] | None = None
        self.stalls = 0

    def start(self, client: Clients) -> None:
        self.games_left -= 1
        self.seats[0].command(".uno", client)

    def observe(self, text: str, client: Clients) -> None:
        """Seat 0's copy of every bot line in the channel: count game lines and turns."""
        joins = self.reader.joins(text)
        if joins is not None and not self.counting:
            if joins == len(self.seats):
                self.counting = True
                self.statuses = 0
            return
        if not self.counting:
            return
        self.channel_lines += 1
        if self.reader.status(text) is not None:
            self.statuses += 1
        if self.reader.ended(text):
            # every status after the deal's own began a turn; the winning move ends the last
            self.turns += self.statuses
            self.counting = False
            self.finished += 1
            if self.games_left > 0:
                self.start(client)

    @property
    def done(self) -> bool:
        return self.games_left == 0 and not self.counting and self.finished > 0


class Clients:
    """Every simulated player's socket in one selector loop (one thread, no lock)."""

    def __init__(
        self,
        port: int,
        channels: int,
        players: int,
        games: int,
        seed: int,
        think: float = 0.0,
        language: str = "en",
    ) -> None:
        self.port = port
        self.think = think
        """Mean seconds a player takes before each command (uniform in 0..2x); 0 = at once."""
        self.think_rng = Random(seed)  # apart from the players' own: same choices either way
        self.thinking: list[tuple[float, int, Seat, str]] = []
        """Commands waiting for their player's think time: (when, order, seat, line), a heap."""
        self.sel = selectors.DefaultSelector()
        reader = Reader(language)  # the players read the bot's lines in the bot's language
        self.games = [ChannelGame(f"#bench{c}", games, reader) for c in range(channels)]
        for c, game in enumerate(self.games):
            for p in range(players):
                seat = Seat(game, p, f"c{c}p{p}", Random(seed * 100_003 + c * 101 + p))
                game.seats.append(seat)
        self.seats = [s for g in self.games for s in g.seats]
        self.sent_lines = 0
        self._order = itertools.count()  # heap tie-breaker: seats don't compare

    def connect(self, in_flight: int = 4) -> None:
        """Open connections, at most ``in_flight`` not yet registered at a time.

        Why: miniircd listens with a backlog of 5, and a connection beyond it waits for the
        kernel's SYN retry (1 s, then 3 s...): 200 connections at once took 14 s.
        """
        opened = sum(s.sock is not None for s in self.seats)
        waiting = opened - sum(s.registered for s in self.seats)
        for seat in self.seats[opened : opened + max(0, in_flight - waiting)]:
            self.open_seat(seat)

    def open_seat(self, seat: Seat, source: str = "", realname: str = "unobot bench") -> None:
        """Connect ``seat`` (from loopback address ``source`` if given) and register it."""
        address = (source, 0) if source else None
        sock = socket.create_connection((HOST, self.port), timeout=10, source_address=address)
        sock.setblocking(False)
        seat.sock = sock
        self.sel.register(sock, selectors.EVENT_READ, seat)
        self.send(seat, f"NICK {seat.nick}")
        # Letters only: ircu refuses a username like "c0p1" ("USER: Bad username").
        self.send(seat, f"USER player 0 * :{realname}")

    def say(self, seat: Seat, line: str) -> None:
        """A player's command: sent after the player's think time (at once when it is 0)."""
        if self.think <= 0:
            self.send(seat, line)
            return
        when = time.monotonic() + self.think_rng.uniform(0.0, 2.0 * self.think)
        heapq.heappush(self.thinking, (when, next(self._order), seat, line))

    def _release(self) -> None:
        now = time.monotonic()
        while self.thinking and self.thinking[0][0] <= now:
            _, _, seat, line = heapq.heappop(self.thinking)
            self.send(seat, line)

    def send(self, seat: Seat, line: str) -> None:
        seat.out += line.encode() + b"\r\n"
        self.sent_lines += 1
        self._flush(seat)

    def _flush(self, seat: Seat) -> None:
        assert seat.sock is not None
        with contextlib.suppress(BlockingIOError):
            sent = seat.sock.send(seat.out)
            del seat.out[:sent]
        events = selectors.EVENT_READ | (selectors.EVENT_WRITE if seat.out else 0)
        self.sel.modify(seat.sock, events, seat)

    def run(self, deadline: float, stall_after: float = 5.0) -> tuple[float, float]:
        """Register, join, play every game; returns (setup seconds, play seconds)."""
        began = time.monotonic()
        while not all(s.joined for s in self.seats):
            self.connect()
            self._poll(deadline)
        play_began = time.monotonic()
        for game in self.games:
            game.last_seen = play_began
            game.start(self)
        while not all(g.done for g in self.games) and time.monotonic() < deadline:
            self._poll(deadline)
            now = time.monotonic()
            for game in self.games:
                if not game.done and now - game.last_seen > stall_after:
                    self._unstall(game, now)
        return play_began - began, time.monotonic() - play_began

    def _unstall(self, game: ChannelGame, now: float) -> None:
        """Nothing from the bot for a while: count it, and pass if the mover drew last."""
        game.stalls += 1
        game.last_seen = now
        for seat in game.seats:
            if seat.drew:
                seat.drew = False
                seat.command(".pass", self)

    def _poll(self, deadline: float) -> None:
        if time.monotonic() > deadline:
            raise TimeoutError("the benchmark ran past its deadline")
        timeout = 0.5
        if self.thinking:
            timeout = min(timeout, max(0.0, self.thinking[0][0] - time.monotonic()))
        for key, events in self.sel.select(timeout=timeout):
            seat: Seat = key.data
            if events & selectors.EVENT_WRITE:
                self._flush(seat)
            if events & selectors.EVENT_READ:
                self._read(seat)
        self._release()

    def _read(self, seat: Seat) -> None:
        assert seat.sock is not None
        try:
            data = seat.sock.recv(65536)
        except BlockingIOError:
            return
        if not data:
            raise ConnectionError(
                f"{seat.nick}: the server closed the connection (no ERROR line; the last "
                f"line from it: {seat.last_line!r}, {self._closed_too(seat)})"
            )
        *lines, seat.inbuf = (seat.inbuf + data).split(b"\n")
        for raw in lines:
            seat.last_line = raw.rstrip(b"\r").decode("utf-8", "replace")
            self._line(seat, seat.last_line)

    def _closed_too(self, seat: Seat) -> str:
        """How many of the other players' connections the server has closed as well (all of
        them: the server ended; none: it dropped this one)."""
        others = [s for s in self.seats if s is not seat and s.sock is not None]
        closed = 0
        for other in others:
            try:
                closed += other.sock.recv(1, socket.MSG_PEEK) == b""  # type: ignore[union-attr]
            except BlockingIOError:
                pass
            except OSError:
                closed += 1
        return f"{closed} of the {len(others)} other players' connections closed too"

    def _line(self, seat: Seat, line: str) -> None:
        prefix = ""
        if line.startswith(":"):
            prefix, _, line = line[1:].partition(" ")
        head, _, text = line.partition(" :")
        words = head.split()
        if not words:
            return
        command = words[0].upper()
        nick = prefix.split("!", 1)[0]
        if command == "PING":
            self.send(seat, f"PONG :{text}")
        elif nick == BOT_NICK and command in ("PRIVMSG", "NOTICE"):
            seat.game.last_seen = time.monotonic()
            try:
                if command == "NOTICE":
                    seat.on_notice(text, self)
                elif words[1:2] == [seat.game.channel]:
                    seat.on_channel(text, self)
            except CardParseError as err:
                seat.errors.append(f"unreadable: {text!r} ({err})")
        elif command == "001":
            seat.registered = True
            self.send(seat, f"JOIN {seat.game.channel}")
        elif command == "366":
            seat.joined = True
        elif command in ("432", "433", "ERROR"):
            raise ConnectionError(f"{seat.nick}: {line}")

    def close(self) -> None:
        for seat in self.seats:
            if seat.sock is not None:
                with contextlib.suppress(OSError):
                    seat.sock.close()

    def results(self, setup: float, play: float) -> dict[str, Any]:
        errors = [f"{s.nick}: {e}" for s in self.seats for e in s.errors]
        return {
            "setup_seconds": setup,
            "play_seconds": play,
            "commands_sent": sum(s.commands for s in self.seats),
            "games_finished": sum(g.finished for g in self.games),
            "channels_unfinished": sum(not g.done for g in self.games),
            "channel_lines": sum(g.channel_lines for g in self.games),
            "notices": sum(s.notices for s in self.seats),
            "turn_hands": sum(s.turn_hands for s in self.seats),
            "turns": sum(g.turns for g in self.games),
            "stalls": sum(g.stalls for g in self.games),
            "errors": len(errors),
            "error_examples": errors[:5],
        }


def _clients_child(params: dict[str, Any]) -> None:
    """Child process: play every game, print the counts (or the error) as one JSON line."""
    _lower_priority()
    clients = Clients(
        params["port"],
        params["channels"],
        params["players"],
        params["games"],
        params["seed"],
        params.get("think", 0.0),
        params.get("language", "en"),
    )
    try:
        setup, play = clients.run(time.monotonic() + params["timeout"])
        out = {**clients.results(setup, play), "cpu": time.process_time()}
    except Exception as err:  # the parent reports it; a traceback here would be lost
        out = {"failed": f"{type(err).__name__}: {err}"}
    finally:
        clients.close()
    print(json.dumps(out), flush=True)


# --- memory per idle game ----------------------------------------------------------------------


class _KeepTransport:
    """Keeps nothing it is sent (an idle game's outbox is empty) but answers like a transport."""

    nickname = BOT_NICK

    def privmsg(self, target: str, text: str, tag: object = None) -> None:
        return None

    def notice(self, target: str, text: str, tag: object = None) -> None:
        return None


class _KeepScheduler:
    """Holds every timer callback, as the reactor would, so their closures are counted."""

    def __init__(self) -> None:
        self.timers: dict[int, tuple[float, Callable[[], None]]] = {}
        self._ids = 0

    def call_later(self, delay: float, callback: Callable[[], None]) -> object:
        self._ids += 1
        self.timers[self._ids] = (delay, callback)
        return self._ids

    def cancel(self, handle: object) -> None:
        self.timers.pop(handle, None)  # type: ignore[call-overload]

    def now(self) -> float:
        return 1000.0


def idle_game_memory(players: int, tables: int = 200, seed: int = 1) -> tuple[float, float]:
    """Bytes per idle lobby table and per idle dealt table (``players`` seats), by tracemalloc."""
    from unobot.core.bot import Bot
    from unobot.irc.transport import Incoming, Kind

    def say(bot: Bot, nick: str, channel: str, text: str) -> None:
        bot.handle(Incoming(Kind.MESSAGE, nick, channel, text, userhost=f"{nick}@bench"))

    def fill(bot: Bot, lo: int, hi: int, deal: bool) -> None:
        for t in range(lo, hi):
            channel = f"#idle{t}"
            if not deal:
                say(bot, f"m{t}p0", channel, ".uno")
                continue
            for p in range(1, players):
                say(bot, f"m{t}p{p}", channel, ".join")
            say(bot, f"m{t}p0", channel, ".deal")

    bot = Bot(_KeepTransport(), _KeepScheduler(), rng=Random(seed))
    fill(bot, -2, 0, False)  # warm-up outside the count: lazy imports, caches, interned strings
    fill(bot, -2, 0, True)
    gc.collect()
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        fill(bot, 0, tables, False)
        gc.collect()
        lobby = tracemalloc.get_traced_memory()[0]
        fill(bot, 0, tables, True)
        gc.collect()
        dealt = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    if sum(t.dealt for t in bot.tables.values()) != tables + 2:
        raise RuntimeError("memory benchmark: not every table was dealt")
    return (lobby - base) / tables, (dealt - base) / tables


# --- the run -----------------------------------------------------------------------------------


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _verdict(ok: bool) -> str:
    return "ok" if ok else "MISSED"


def run(args: argparse.Namespace) -> dict[str, float]:
    """Run the benchmark, print each figure on its own line; return the figures."""
    from unobot.core.bot import Bot, BotConfig
    from unobot.core.journal import Journal
    from unobot.core.settings import MemorySettings
    from unobot.core.table import TableConfig
    from unobot.irc.adapter import IrcAdapter, IrcSettings, ServerSettings
    from unobot.main import database_stores, live_writer, tune_gc
    from unobot.stats.recorder import GameRecorder

    channels = [f"#bench{c}" for c in range(args.channels)]
    print(
        f"irc bench: {args.channels} channels x {args.players} players, "
        f"{args.games_per_channel} game(s) each, seed {args.seed}, {os.cpu_count()} CPUs, "
        + (
            f"players think 0-{2 * args.think:g} ms before each command"
            if args.think > 0
            else "players answer at once (lockstep)"
        )
    )
    server = start_server(args.server)
    print(f"server: {server.description}, port {server.port}; the bot speaks {args.language}")
    print(
        "bot: Bot + IrcAdapter (send rate 0 = unlimited), reactor thread in this process; "
        f"clients: {args.channels * args.players} sockets in one selector loop in a child process"
    )
    settings = IrcSettings(
        servers=(ServerSettings(HOST, server.port),),
        nick=BOT_NICK,
        channels=dict.fromkeys(channels, ""),
        rate=0.0,
        reconnect_min=0.5,
        reconnect_max=2.0,
    )
    holder: dict[str, Bot] = {}
    adapter = IrcAdapter(settings, lambda incoming: holder["bot"].handle(incoming))
    config = BotConfig(table=TableConfig(turn_hand=args.turn_hand), language=args.language)
    folder = tempfile.TemporaryDirectory(prefix="unobot-bench-")
    journal = Journal(Path(folder.name) / "tables", adapter.now) if args.journal else None
    prefs: Any = MemorySettings()
    stats: Any = None
    recorder = None
    live_on = bool(getattr(args, "live_on", False))
    live: Any = None
    if live_on and not args.database:
        args.database = "sqlite"  # the live view writes to the stats database
    if args.database:
        url = args.database
        if url == "sqlite":
            url = f"sqlite:///{Path(folder.name) / 'stats.db'}"
        prefs, stats = database_stores(url, "", 5.0, adapter)
        recorder = GameRecorder.following(stats, "", adapter)
        if live_on:
            live = live_writer(stats, "", adapter)
            _time_live_hooks(live)
    print(
        f"journal: {'on (a local file per table)' if journal else 'off'}; database: "
        f"{args.database or 'none (settings in memory, no stats)'}; live view: "
        f"{'on (live_game/live_line written through the database worker)' if live else 'off'}"
    )
    bot = Bot(
        adapter,
        adapter,
        prefs,
        config,
        rng=Random(args.seed),
        store=stats,
        recorder=recorder,
        journal=journal,
        live=live,
    )
    holder["bot"] = bot
    bot.restore()  # as the real bot starts: nothing to restore, the journal's spare files made
    probe = instrument(adapter, bot, config.prefix)
    tune_gc()  # as unobot's own start-up does
    reactor_cpu: list[float] = []

    def reactor() -> None:
        adapter.run()
        reactor_cpu.append(time.thread_time())

    thread = threading.Thread(target=reactor, name="unobot-bench", daemon=True)
    cpu: dict[str, float | None] = {}
    quiet = logging.getLogger("unobot.irc.adapter")
    level = quiet.level
    quiet.setLevel(logging.ERROR)  # "disconnected" at the end is no news here; errors still show
    gc.callbacks.append(probe.on_gc)
    clients: subprocess.Popen[bytes] | None = None
    try:
        thread.start()
        deadline = time.monotonic() + 20
        while len(adapter.joined) < len(channels):
            if time.monotonic() > deadline:
                raise RuntimeError(f"the bot joined {len(adapter.joined)}/{len(channels)}")
            time.sleep(0.02)
        params = {
            "port": server.port,
            "channels": args.channels,
            "players": args.players,
            "games": args.games_per_channel,
            "seed": args.seed,
            "think": args.think / 1000.0,
            "language": args.language,
            "timeout": args.timeout,
        }
        clients = _spawn_child("clients", params, stdout=subprocess.PIPE)
        try:
            out, _ = clients.communicate(timeout=args.timeout + 30)
        except subprocess.TimeoutExpired:
            raise RuntimeError("the client process sent no results") from None
        lines = out.decode().strip().splitlines()
        if not lines:
            raise RuntimeError(f"the client process exited with {clients.returncode}, no results")
        result: dict[str, Any] = json.loads(lines[-1])
        # Let the last replies leave the queue before the counts are read.
        settle = time.monotonic() + 2
        while adapter.queued and time.monotonic() < settle:
            time.sleep(0.01)
        cpu["server"] = _cpu_seconds(server.pid)
        cpu["clients"] = result.get("cpu")
    finally:
        adapter.stop("benchmark over")
        thread.join(5)
        if live is not None:
            live.close()
        if stats is not None:
            prefs.close()
            stats.close(wait=5.0)
        folder.cleanup()
        gc.callbacks.remove(probe.on_gc)
        quiet.setLevel(level)
        cpu["bot"] = reactor_cpu[0] if reactor_cpu else None
        if clients is not None:
            _stopper(clients)()
        server.stop()
    if "failed" in result:
        raise RuntimeError(f"the clients failed: {result['failed']}")
    figures = _report(args, probe, result, cpu, adapter.sent_lines)
    if live is not None:
        figures.update(_live_report(live, result["turns"]))
    return figures


def _time_live_hooks(live: Any) -> None:
    """Time what the live view costs the reactor itself: every call of the writer's hooks
    (``observe``, ``said``, ``dropped``) and its flushes (reading the tables' state, handing
    the batch over), summed in ``live.reactor_seconds``. Only this instance is wrapped."""
    live.reactor_seconds = 0.0
    for name in ("observe", "said", "dropped", "_flush"):
        inner = getattr(live, name)

        def timed(*args: Any, _inner: Any = inner) -> None:
            started = time.perf_counter()
            try:
                _inner(*args)
            finally:
                live.reactor_seconds += time.perf_counter() - started

        setattr(live, name, timed)


def _live_report(live: Any, turns: int) -> dict[str, float]:
    """What the live view's writes cost: database transactions and rows per move."""
    per_move = live.flushes / turns if turns else float("nan")
    statements = live.statements / turns if turns else float("nan")
    print(
        f"live view: {live.flushes} flushes (one transaction each, all channels together) for "
        f"{turns} turns: {per_move:.3f} transactions and {statements:.2f} rows written or "
        "deleted per move; "
        f"{live.skipped} flush moments passed while the worker was still busy"
    )
    reactor_us = live.reactor_seconds / turns * 1e6 if turns else float("nan")
    print(
        f"live view on the reactor: {live.reactor_seconds * 1000:.1f} ms in all, "
        f"{reactor_us:.1f} us per move (its hooks and flushes; the database work is on the "
        "worker thread)"
    )
    return {
        "live_flushes_per_move": per_move,
        "live_statements_per_move": statements,
        "live_reactor_us_per_move": reactor_us,
    }


def _report(
    args: argparse.Namespace,
    probe: Probe,
    result: dict[str, Any],
    cpu: dict[str, float | None],
    sent: int,
) -> dict[str, float]:
    games = args.channels * args.games_per_channel
    lat = probe.latencies or [float("nan")]
    median_ms = statistics.median(lat) * 1000
    p99_ms = _percentile(lat, 0.99) * 1000
    span = (probe.last - probe.first) if probe.first is not None else float("nan")
    per_second = probe.commands / span if span > 0 else float("nan")
    capacity = probe.commands / probe.busy if probe.busy > 0 else float("nan")
    lost = result["commands_sent"] - probe.commands
    unanswered = probe.commands - probe.answered
    turns = result["turns"]
    lines = result["channel_lines"] + result["notices"]
    per_turn = lines / turns if turns else float("nan")
    # The turn's hands are optional lines: with many games on a budget the send queue sends
    # them from spare budget only (here, with no send limit, all), so the target is for the
    # lines without them.
    needed = (lines - result["turn_hands"]) / turns if turns else float("nan")
    lobby, dealt = idle_game_memory(args.players, seed=args.seed)
    print(
        f"games finished: {result['games_finished']}/{games} ({turns} turns, "
        f"{result['play_seconds']:.2f} s; clients connected and joined in "
        f"{result['setup_seconds']:.2f} s)"
    )
    print(
        f"commands: sent {result['commands_sent']}, handled {probe.commands}, answered "
        f"{probe.answered}, lost {lost}, unanswered {unanswered}"
    )
    print(f"player errors (replies that were not a hand): {result['errors']}")
    for example in result["error_examples"]:
        print(f"  e.g. {example}")
    if result["stalls"]:
        print(f"stalls (5 s without a bot line in a running game): {result['stalls']}")
    print(
        f"latency median: {median_ms:.3f} ms (socket read of the command -> its reply sent, "
        f"inside the bot)"
    )
    print(f"latency p99: {p99_ms:.3f} ms (target < {TARGET_P99_MS:g} ms: {_verdict(p99_ms < 5)})")
    print(f"latency max: {max(lat) * 1000:.3f} ms")
    moves = probe.move_latencies or [float("nan")]
    print(
        f"latency of game moves only: median {statistics.median(moves) * 1000:.3f} ms, p99 "
        f"{_percentile(moves, 0.99) * 1000:.3f} ms ({len(probe.move_latencies)} moves; without "
        "the opening burst of .uno/.join/.deal from every channel at once)"
    )
    handle_ms = [t * 1000 for t in probe.handle_times] or [float("nan")]
    print(
        f"bot.handle per command: median {statistics.median(handle_ms):.3f} ms, p99 "
        f"{_percentile(handle_ms, 0.99):.3f} ms (the core alone, without the wait in the batch)"
    )
    batches = probe.batches or [0]
    print(
        f"commands per socket read: mean {statistics.mean(batches):.1f}, max {max(batches)} "
        "(each reply leaves as its handler returns; later commands in a read wait)"
    )
    print(
        f"commands per second: {per_second:.0f} (whole loop: clients -> server -> bot -> "
        f"server -> clients, over {span:.2f} s)"
    )
    busy_share = probe.busy / span if span > 0 else float("nan")
    print(
        f"bot reactor busy: {probe.busy:.2f} s ({busy_share:.0%} of that time); "
        f"capacity if busy all the time: {capacity:.0f} commands/s"
    )
    shown = ", ".join(
        f"{who} {'?' if secs is None else f'{secs:.2f}'} s"
        for who, secs in (
            ("bot reactor thread", cpu.get("bot")),
            ("clients", cpu.get("clients")),
            ("server", cpu.get("server")),
        )
    )
    print(
        f"CPU time: {shown} ({os.cpu_count()} CPUs shared with whatever else runs; server and "
        f"clients at nice {LOAD_NICE})"
    )
    print(
        f"lines per turn ({args.players} players): {per_turn:.2f} (channel "
        f"{result['channel_lines'] / max(1, turns):.2f} + notices "
        f"{result['notices'] / max(1, turns):.2f}, of which the turn's hands "
        f"{result['turn_hands'] / max(1, turns):.2f}; deal to win; without the turn's hands "
        f"{needed:.2f}, target <= {TARGET_LINES_PER_TURN:g}: "
        f"{_verdict(needed <= TARGET_LINES_PER_TURN)})"
    )
    print(f"bot lines sent in all: {sent} (including registration and JOINs)")
    pauses = probe.gc_pauses or [(0, 0.0)]
    worst = max(pauses, key=lambda p: p[1])
    print(
        f"garbage collections in the bot's process: {len(probe.gc_pauses)}, longest "
        f"{worst[1] * 1000:.1f} ms (generation {worst[0]}): the reactor stops for them too"
    )
    print(
        f"memory per idle game: lobby {lobby / 1000:.1f} KB, dealt {args.players}-player "
        f"{dealt / 1000:.1f} KB (tracemalloc; target < {TARGET_IDLE_BYTES // 1000} KB: "
        f"{_verdict(dealt < TARGET_IDLE_BYTES)})"
    )
    print(
        f"irc: p99 {p99_ms:.2f} ms, median {median_ms:.2f} ms, {per_second:.0f} commands/s, "
        f"{lost} lost, {per_turn:.2f} lines/turn ({needed:.2f} without the turn's hands), "
        f"{dealt / 1000:.1f} KB/idle game"
    )
    return {
        "median_ms": median_ms,
        "p99_ms": p99_ms,
        "commands_per_second": per_second,
        "lost": lost,
        "unanswered": unanswered,
        "lines_per_turn": per_turn,
        "lines_per_turn_needed": needed,
        "idle_game_bytes": dealt,
        "games_finished": result["games_finished"],
    }


def add_parser(sub: Any) -> None:
    """Register ``irc`` on ``python -m unobot.bench``'s subcommands."""
    p = sub.add_parser("irc", help="the bot on a local server, many channels playing at once")
    p.add_argument("--channels", type=int, default=50)
    p.add_argument("--players", type=int, default=4, help="players per channel (2-10)")
    p.add_argument("--games-per-channel", type=int, default=1)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument(
        "--server",
        choices=("miniircd", "embedded"),
        default="miniircd",
        help="miniircd if installed (default), else the embedded server",
    )
    p.add_argument(
        "--think",
        type=float,
        default=0.0,
        metavar="MS",
        help="mean milliseconds each player waits before a command (uniform in 0..2x MS); "
        "0 (default) answers at once, so the channels' commands arrive in lockstep bursts",
    )
    p.add_argument("--timeout", type=float, default=300.0, help="seconds for all the games")
    p.add_argument(
        "--language",
        default="en",
        choices=LANGUAGES,
        help="what the bot speaks (its [bot] language); the players read it in that language",
    )
    p.add_argument(
        "--journal",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="journal every table as the real bot does (default); --no-journal to compare",
    )
    p.add_argument(
        "--turn-hand",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="send each player their hand when their turn comes (default, as the bot does); "
        "--no-turn-hand to compare",
    )
    p.add_argument(
        "--live",
        choices=("off", "on", "both"),
        default="off",
        help="the live view's writes (``[stats] live``): off (default), on, or both: the "
        "same run without and then with them, and the two compared (needs a database: "
        "a temporary SQLite file unless --database says otherwise)",
    )
    p.add_argument(
        "--database",
        metavar="URL",
        help="settings and stats in this database, as the real bot has them ('sqlite' for a "
        "temporary SQLite file, or postgresql://...); default none",
    )
    p.set_defaults(run=_run_cli)


def _run_cli(args: argparse.Namespace) -> None:
    if not 2 <= args.players <= 10:
        raise SystemExit("--players must be 2 to 10")
    if args.channels < 1 or args.games_per_channel < 1:
        raise SystemExit("--channels and --games-per-channel must be at least 1")
    live = getattr(args, "live", "off")
    if live != "both":
        args.live_on = live == "on"
        run(args)
        return
    if not args.database:
        args.database = "sqlite"
    runs = {}
    for on in (False, True):
        args.live_on = on
        print(f"--- live view {'on' if on else 'off'} ---")
        runs[on] = run(args)
    off, on_ = runs[False], runs[True]
    print(
        "live view off -> on: latency p99 {:.2f} -> {:.2f} ms, median {:.2f} -> {:.2f} ms, "
        "{:.0f} -> {:.0f} commands/s; {:.3f} transactions and {:.2f} rows per move, "
        "{:.1f} us of reactor time per move".format(
            off["p99_ms"], on_["p99_ms"], off["median_ms"], on_["median_ms"],
            off["commands_per_second"], on_["commands_per_second"],
            on_["live_flushes_per_move"], on_["live_statements_per_move"],
            on_["live_reactor_us_per_move"],
        )
    )  # fmt: skip


def main(argv: list[str] | None = None) -> None:
    """``python -m unobot.bench.irc`` works too (same options as ``bench irc``).

    ``--child ROLE PARAMS`` is how the benchmark starts its own helper processes.
    """
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--child"]:
        params = json.loads(argv[2])
        _exit_with_parent()
        if argv[1] == "miniircd":
            _miniircd_child(params["port"])
        elif argv[1] == "server":
            _embedded_server_child(params["port"])
        else:
            _clients_child(params)
        return
    parser = argparse.ArgumentParser(prog="python -m unobot.bench.irc", description=__doc__)
    add_parser(parser.add_subparsers(dest="which", required=True))
    args = parser.parse_args(["irc", *argv])
    args.run(args)


if __name__ == "__main__":
    main()
