"""``python -m unobot.bench memory``: does the bot process grow with every game it plays?

What it answers: with the real bot process (the ``unobot`` entry point an operator runs, else
``python unobot.py``) on a local IRC server, C channels each with one person and three
computer players re-dealing as soon as a game ends, how the process's resident memory
(``VmRSS`` in ``/proc/PID/status``) moves as games are played: RSS once warmed up, RSS at the
end, and the slope in kB per game over the post-warm-up part (least squares). Target: flat
after warm-up, under 0.5 kB a game.

How, and why this way:

- The whole process, not a part of it: a tracemalloc of the core (``bench soak``) sees neither
  the database worker's thread, nor SQLite's page cache (C memory), nor the ``irc`` library,
  nor the allocator's fragmentation, and an operator's ``top`` sees all of them.
- Everything real: the bot is started as an operator starts it, with a config file (send rate
  0, the computer players' pause 0, short clocks, its own SQLite stats database and journal
  folder in a scratch folder); the IRC server (miniircd, else the ``irc`` package's server) runs
  in a process of its own so that its memory is not counted; the people are
  :mod:`unobot.bench.irc`'s simulated players (they know only what their NOTICEs and the
  channel told them), one per channel, in this process. Each person opens a game (``.uno``),
  seats three computer players (``.addbot``), deals, plays the hand out and opens the next
  game at once.
- The workload is an operator's report (issue 40): five channels, one person and three
  ``easy`` computer players each, re-dealt as soon as a game ends.
- Games are counted as the people see them end; RSS is sampled every ``--sample`` seconds.
  The first ``--warmup`` games (300) fill what is filled once and then stays: SQLite's page
  cache (256 kB, full after ~150 games: each game written touches new pages), the engine's
  legal-action cache (two generations of 256 keys in the bot's process), modules imported on
  first use, the allocator's arenas. The slope is fitted over the samples after them: a leak
  shows there as a steady slope, a cache still filling as one that flattens (see
  docs/benchmarks.md). With SQLite's 2 MB and 4,096 keys, those two filled for ~1,300 games
  and read as +4.8 kB a game.
- ``--level hard`` puts ``hard``'s worker process in the figures (its RSS is printed apart);
  it is slow (~0.25 games/s with one worker).
- ``RssAnon`` (the heap: Python objects, SQLite's cache, malloc arenas) and ``RssFile``
  (mapped files: libraries, SQLite's WAL index) are printed apart, so growth can be placed.
"""

from __future__ import annotations

import argparse
import contextlib
import math
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from random import Random

from unobot.bench.alone import run_alone
from unobot.bench.irc import _CODES, BOT_NICK, HOST, ChannelGame, Clients, Seat, start_server

__all__ = ["People", "Person", "Sample", "add_arguments", "bot_command", "run", "slope"]

ROOT = Path(__file__).resolve().parents[2]
COMPUTERS = 3
TARGET_KB_PER_GAME = 0.5
_ENDS = (" wins the hand", " stopped the game", "The game is over")
_FULL = re.compile(rf" joins \({COMPUTERS + 1} players\)")


# --- the people ---------------------------------------------------------------------------------


class Person(Seat):
    """One channel's only person: opens a game, seats three computer players, deals, plays
    the hand as :class:`~unobot.bench.irc.Seat` does (from its NOTICEs and the channel), and
    opens the next game as soon as one ends."""

    def __init__(self, game: ChannelGame, nick: str, rng: Random, level: str) -> None:
        super().__init__(game, 0, nick, rng)
        self.level = level
        self.finished = 0
        self.last_end = time.monotonic()

    def on_channel(self, text: str, client: Clients) -> None:
        plain = _CODES.sub("", text)
        if "opens a game of Uno" in plain:
            self.hand, self.expect, self.drew = [], 0, False
            for _ in range(COMPUTERS):
                self.command(f".addbot {self.level}", client)
        elif _FULL.search(plain):
            self.command(".deal", client)
        elif any(end in plain for end in _ENDS):
            self.drew = False
            self.finished += 1
            self.last_end = time.monotonic()
            if isinstance(client, People) and client.wanted > client.finished:
                self.command(".uno", client)
        else:
            super().on_channel(text, client)


class People(Clients):
    """The people of every channel in one selector loop (:class:`~unobot.bench.irc.Clients`)."""

    def __init__(self, port: int, channels: int, games: int, level: str, seed: int) -> None:
        super().__init__(port, channels, 1, games, seed)
        self.wanted = games
        for c, game in enumerate(self.games):
            game.seats = [Person(game, f"person{c}", Random(seed * 100_003 + c), level)]
        self.seats = [s for g in self.games for s in g.seats]
        self.bot_in: set[str] = set()
        """Channels the bot was seen to join."""

    def connect(self, in_flight: int = 4) -> None:
        """Each person from a loopback address of their own (channel c: 127.0.c+1.2), as
        people on a network are: the bot budgets commands by host."""
        opened = sum(s.sock is not None for s in self.seats)
        for index, seat in enumerate(self.seats[opened : opened + in_flight], start=opened):
            self.open_seat(seat, f"127.0.{1 + index}.2", "unobot memory bench")

    def _line(self, seat: Seat, line: str) -> None:
        if line.startswith(f":{BOT_NICK}!") and " JOIN " in line:
            self.bot_in.add(seat.game.channel)
        super()._line(seat, line)

    @property
    def finished(self) -> int:
        return sum(s.finished for s in self.seats if isinstance(s, Person))

    def open_games(self) -> None:
        for game in self.games:
            game.seats[0].command(".uno", self)

    def join(self, bot: BotProcess, timeout: float = 30.0) -> None:
        """Connect and join every channel, and wait for the bot there (raises if the bot
        exits meanwhile)."""
        deadline = time.monotonic() + timeout
        while not all(s.joined for s in self.seats) or len(self.bot_in) < len(self.games):
            bot.check()
            self.connect()
            self._poll(deadline)

    def unstick(self, stall_after: float) -> int:
        """A channel where the bot said nothing for ``stall_after`` s: the person passes if
        they drew last (they lost track of the turn), else opens a game (a lost ``.uno``);
        returns how many channels needed it."""
        now = time.monotonic()
        stuck = 0
        for seat in self.seats:
            quiet = now - max(seat.last_end, seat.game.last_seen)
            if isinstance(seat, Person) and quiet > stall_after:
                stuck += 1
                seat.last_end = now
                seat.command(".pass" if seat.drew else ".uno", self)
                seat.drew = False
        return stuck


# --- the bot process ----------------------------------------------------------------------------


def bot_command() -> list[str]:
    """How an operator starts the bot: the ``unobot`` entry point installed next to this
    interpreter, else ``python unobot.py`` from the checkout, else ``python -m unobot.main``."""
    script = Path(sys.executable).with_name("unobot")
    if script.exists():
        return [str(script)]
    if (ROOT / "unobot.py").exists():
        return [sys.executable, str(ROOT / "unobot.py")]
    return [sys.executable, "-m", "unobot.main"]


CONFIG = """\
[irc]
send_rate = 0
[bot]
turn_timeout = 10
grace = 5
lobby_timeout = 5
idle_stop = 10
journal = "{journal}"
[bots]
delay = {delay}
[stats]
database = "sqlite:///{database}"
[log]
level = "WARNING"
"""


class BotProcess:
    """The bot, started with a config file in a scratch folder (its stats and journal)."""

    def __init__(
        self,
        port: int,
        channels: list[str],
        folder: Path,
        extra_env: dict[str, str],
        delay: float = 0.0,
    ) -> None:
        self.folder = folder
        config = folder / "unobot.toml"
        config.write_text(
            CONFIG.format(journal=folder / "tables", database=folder / "stats.db", delay=delay)
        )
        cmd = [*bot_command(), "--config", str(config), "--server", HOST,
               "--port", str(port), "--nick", BOT_NICK]  # fmt: skip
        for channel in channels:
            cmd += ["--channel", channel]
        self.log_path = folder / "bot.log"
        with open(self.log_path, "wb") as log:
            self.proc = subprocess.Popen(
                cmd,
                cwd=folder,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
                env={**os.environ, **extra_env},
            )

    @property
    def pid(self) -> int:
        return self.proc.pid

    def output(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def check(self) -> None:
        if self.proc.poll() is not None:
            raise RuntimeError(f"the bot exited ({self.proc.returncode}): {self.output()[-2000:]}")

    def stop(self) -> None:
        """SIGTERM (a clean exit within 2 s), SIGKILL if it hangs."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)


# --- what is measured ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Sample:
    """The bot process's memory (kB, from ``/proc/PID/status``) after ``games`` games."""

    games: int
    seconds: float
    rss: int
    anon: int
    file: int
    threads: int
    children: int = 0
    """RSS of the bot's child processes together (``hard``'s worker processes), kB."""
    files: int = 0
    """The bot's open file descriptors (sockets, the database, the journal's files)."""


def read_status(pid: int) -> dict[str, int]:
    """The kB and count fields of ``/proc/PID/status`` (VmRSS, RssAnon, RssFile, Threads)."""
    values: dict[str, int] = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, rest = line.partition(":")
        words = rest.split()
        if words and words[0].isdigit():
            values[key] = int(words[0])
    return values


def children_of(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (from ``/proc/*/stat``)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, ValueError, IndexError):
            if int(stat.read_text().rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(stat.parent.name))
    return found


def sample(pid: int, games: int, seconds: float) -> Sample:
    s = read_status(pid)
    children = 0
    for child in children_of(pid):
        with contextlib.suppress(OSError, KeyError):
            children += read_status(child)["VmRSS"]
    return Sample(
        games,
        seconds,
        s["VmRSS"],
        s.get("RssAnon", 0),
        s.get("RssFile", 0),
        s.get("Threads", 0),
        children,
        len(os.listdir(f"/proc/{pid}/fd")),
    )


def slope(points: list[tuple[float, float]]) -> float:
    """The least-squares slope of y over x (0 with fewer than two distinct x)."""
    if len(points) < 2:
        return 0.0
    n = len(points)
    mx = sum(x for x, _ in points) / n
    my = sum(y for _, y in points) / n
    sxx = sum((x - mx) ** 2 for x, _ in points)
    if sxx == 0:
        return 0.0
    return sum((x - mx) * (y - my) for x, y in points) / sxx


@dataclass
class Result:
    """One run's samples and what was fitted to them."""

    samples: list[Sample] = field(default_factory=list)
    warmup: int = 0
    games: int = 0
    seconds: float = 0.0
    stalls: int = 0
    errors: list[str] = field(default_factory=list)

    def after_warmup(self) -> list[Sample]:
        """The samples the slope is fitted over (all of them when the run was shorter)."""
        return [s for s in self.samples if s.games >= self.warmup] or self.samples

    def kb_per_game(self, attr: str = "rss") -> float:
        return slope([(s.games, getattr(s, attr)) for s in self.after_warmup()])

    def at_warmup(self) -> Sample:
        return self.after_warmup()[0]


def _exit_on_sigterm(signum: int, frame: object) -> None:
    raise SystemExit(128 + signum)


def play(args: argparse.Namespace, extra_env: dict[str, str] | None = None) -> Result:
    """One run: a server, the bot process, the people; ``args.games`` games in all.

    SIGTERM (``timeout``, a CI runner) ends it through ``finally`` like Ctrl-C does: the bot
    runs in a session of its own and would otherwise play on, unwatched, after the benchmark."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, _exit_on_sigterm)
    server = start_server(args.server)
    result = Result(warmup=args.warmup)
    tmp = tempfile.mkdtemp(prefix="unobot-memory-")
    channels = [f"#bench{c}" for c in range(args.channels)]
    bot = BotProcess(server.port, channels, Path(tmp), extra_env or {}, args.bot_delay)
    people: People | None = None
    try:
        people = People(server.port, args.channels, args.games, args.level, args.seed)
        people.join(bot)
        began = time.monotonic()
        people.open_games()
        next_sample = began
        every = max(1, args.games // 12)
        next_print = 0
        deadline = began + max(args.timeout, args.seconds + 120)
        until = began + args.seconds if args.seconds else math.inf
        while people.finished < args.games and time.monotonic() < until:
            bot.check()
            people._poll(deadline)
            now = time.monotonic()
            result.stalls += people.unstick(args.stall)
            if now >= next_sample:
                next_sample = now + args.sample
                result.samples.append(sample(bot.pid, people.finished, now - began))
                if people.finished >= next_print:  # about a dozen lines in all
                    next_print = (people.finished // every + 1) * every
                    _print_sample(result.samples[-1])
        result.seconds = time.monotonic() - began
        result.games = people.finished
        result.samples.append(sample(bot.pid, people.finished, result.seconds))
        _print_sample(result.samples[-1])
        result.errors = [f"{s.nick}: {e}" for s in people.seats for e in s.errors]
    finally:
        bot.stop()
        if people is not None:
            people.close()
        server.stop()
        if args.keep:
            print(f"  (scratch folder kept: {tmp})")
        else:
            shutil.rmtree(tmp, ignore_errors=True)
    return result


def _print_sample(s: Sample) -> None:
    workers = f"; worker processes {s.children / 1024:.1f} MB" if s.children else ""
    print(
        f"  {s.games:6d} games {s.seconds:7.1f} s: RSS {s.rss / 1024:6.1f} MB "
        f"(anon {s.anon / 1024:.1f}, file {s.file / 1024:.1f}), {s.threads} threads, "
        f"{s.files} open files{workers}",
        flush=True,
    )


def report(result: Result) -> str:
    """The headline: RSS at warm-up and at the end, the post-warm-up slope against target."""
    first, last = result.at_warmup(), result.samples[-1]
    per_game = result.kb_per_game()
    verdict = "flat" if per_game < TARGET_KB_PER_GAME else "GROWING"
    return (
        f"memory: {result.games} games, RSS {first.rss / 1024:.1f} MB after warm-up "
        f"({first.games} games) -> {last.rss / 1024:.1f} MB at the end; "
        f"{per_game:+.2f} kB/game after warm-up (target < {TARGET_KB_PER_GAME}: {verdict})"
    )


def run(args: argparse.Namespace) -> Result:
    if not Path("/proc/self/status").exists():
        print("memory: needs Linux /proc to read the process's RSS")
        raise SystemExit(2)
    env: dict[str, str] = {}
    if args.arena_max:
        env["MALLOC_ARENA_MAX"] = str(args.arena_max)
    print(
        f"memory bench: the bot process ({' '.join(Path(c).name for c in bot_command())}), "
        f"{args.channels} channels x (1 person + {COMPUTERS} {args.level} computer players), "
        f"send rate 0, computer pause {args.bot_delay:g} s, {args.games} games"
        + (f" or {args.seconds:g} s" if args.seconds else "")
        + f", warm-up {args.warmup} games"
        + (f", MALLOC_ARENA_MAX={args.arena_max}" if args.arena_max else ""),
        flush=True,
    )
    result = play(args, env)
    first, last = result.at_warmup(), result.samples[-1]
    rate = result.games / result.seconds if result.seconds else 0.0
    print(
        f"{result.games} games in {result.seconds:.0f} s ({rate:.1f} games/s), "
        f"{result.stalls} stalls, {len(result.errors)} player errors"
    )
    for example in result.errors[:3]:
        print(f"  e.g. {example}")
    print(
        f"RSS {result.samples[0].rss / 1024:.1f} MB at the first sample, "
        f"{first.rss / 1024:.1f} MB at warm-up ({first.games} games), "
        f"{last.rss / 1024:.1f} MB at the end ({last.games} games); after warm-up: "
        f"RSS {result.kb_per_game():+.2f}, anon {result.kb_per_game('anon'):+.2f}, "
        f"file {result.kb_per_game('file'):+.2f} kB/game; threads {last.threads}, open files "
        f"{min(s.files for s in result.samples)}-{max(s.files for s in result.samples)}"
        + (
            f"; worker processes {last.children / 1024:.1f} MB, "
            f"{result.kb_per_game('children'):+.2f} kB/game"
            if last.children
            else ""
        )
    )
    print(report(result))
    return result


def add_arguments(p: argparse.ArgumentParser) -> None:
    """Register ``memory``'s options on its subcommand parser."""
    p.add_argument("--games", type=int, default=3000, help="games in all (default 3000)")
    p.add_argument("--channels", type=int, default=5, help="channels, one person each")
    p.add_argument("--warmup", type=int, default=300, help="games before the slope is fitted (300)")
    p.add_argument(
        "--level", default="easy", choices=["easy", "normal", "hard"],
        help="the computer players' level (hard thinks in a worker process: slow)",
    )  # fmt: skip
    p.add_argument("--sample", type=float, default=1.0, help="seconds between RSS samples")
    p.add_argument(
        "--bot-delay", type=float, default=0.0,
        help="the computer players' pause before a move ([bots] delay; the bot's default 1.5)",
    )  # fmt: skip
    p.add_argument(
        "--seconds", type=float, default=0.0,
        help="stop after this long (with --games as a ceiling): --seconds 3600 --bot-delay 1.5 "
        "is an hour at an operator's pace",
    )  # fmt: skip
    p.add_argument("--server", default="miniircd", choices=["miniircd", "embedded"])
    p.add_argument("--arena-max", type=int, default=0, help="MALLOC_ARENA_MAX for the bot")
    p.add_argument("--stall", type=float, default=15.0, help="seconds before unsticking")
    p.add_argument("--timeout", type=float, default=3600.0, help="give up after this long")
    p.add_argument("--keep", action="store_true", help="keep the scratch folder (its log)")
    p.add_argument("--seed", type=int, default=1)
    p.set_defaults(run=run)


def main(argv: list[str] | None = None) -> None:
    """``python -m unobot.bench.memory`` works too (same options)."""
    run_alone("memory", add_arguments, __doc__, argv)


if __name__ == "__main__":
    main()
