"""``python -m unobot.bench networks``: the bot on the servers the big networks run.

What it answers: with the real bot process at its default send budget (``irc.flood_model =
auto``) on ircu (Undernet), irc2 (IRCnet), ircd-hybrid (EFnet/OFTC family) and InspIRCd, each
with Debian's default flood limits, and G tables of 4 players each connected from an address
of its own, does the bot stay connected, does every player get their cards, does every game
finish, and how long does a move take to show? One line per server:

    server, model, lines/s achieved, kills, hands refused/retried/lost, games finished,
    turn-to-answer p50/p95

- *kills*: the server closed the bot's link for flooding (its log's WARNING, or the players
  saw it quit).
- *refused*: private lines the server refused for a target change too fast (ircu's 439);
  *retried*: players the channel was told wait for their cards (the lines went when the
  server allowed); *lost*: turns a player had to take without having been sent their cards.
- *turn-to-answer*: from a move leaving the player's socket to the bot's channel line naming
  the mover arriving at another player.

How: the servers are started as the end-to-end tests start them (``tests/e2e/servers.py``:
ircu, irc2 and hybrid from Debian packages unpacked by ``tests/run.sh``); the bot is
``python unobot.py`` as an operator runs it, with its log at INFO; the players are
:mod:`unobot.bench.capacity`'s simulated players, each from its own loopback address
(127.0.c.p), thinking 2-6 s before each move as the capacity benchmark's do (``--think 0``:
at once). Each table plays a timed match (``.deal 180s`` by default: long enough to time a
few dozen moves on ircu after its two-minute opening), so a run takes a known time. The bot
joins its channels before the players, so it holds ops there, as a bot on such a network
should (then ircu's ``CNOTICE`` carries every hand past the target limit); ``--no-ops`` lets
the players create the channels instead, to see the limit.

The figures are printed, never asserted: ``tests/e2e/test_networks_e2e.py`` asserts the
properties on a shorter run.
"""

from __future__ import annotations

import argparse
import contextlib
import re
import socket
import statistics
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from unobot.bench.capacity import THINK, BotProcess, Figures, Players, _servers_module
from unobot.bench.irc import _CODES, _STATUS, BOT_NICK, HOST

__all__ = ["KINDS", "Run", "add_arguments", "measure", "run_one"]

KINDS = ("ircu", "irc2", "hybrid", "inspircd")
SETUP_SECONDS = 300.0
"""Time allowed beyond the match itself: joining, the opening, the last hand's end."""
PROGRESS_SECONDS = 60.0
"""How often a running server's progress is printed."""
_MATCH = re.compile(r"(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?")


def match_seconds(text: str) -> float:
    """Seconds of ``.deal``'s timed match ``text``, read as the bot reads it: ``90s``, ``3m``,
    ``1h30m``, and a bare number is minutes (``60`` is an hour, not a minute)."""
    raw = text.strip().lower()
    if raw.isdecimal():
        return int(raw) * 60.0
    found = _MATCH.fullmatch(raw)
    if not raw or found is None or not any(found.groups()):
        raise argparse.ArgumentTypeError(f"{text!r} is not a match length: e.g. 180s, 3m, 1h")
    h, m, sec = (int(g or 0) for g in found.groups())
    return h * 3600.0 + m * 60.0 + sec


def progress(kind: str, since: float, text: str) -> None:
    """One line of a server's progress, as it happens (the runs take minutes: a silent one
    can't be told from a stuck one)."""
    print(f"  [{kind} +{time.monotonic() - since:.0f}s] {text}", flush=True)


HELD = "the server makes me wait"
"""The start of the channel line that says a player waits for their cards (render_irc)."""


@dataclass
class Run:
    """One server's run."""

    kind: str
    games: int
    ops: bool
    version: str = ""
    model: str = ""
    figures: Figures | None = None
    seconds: float = 0.0
    setup_seconds: float = 0.0
    lines: int = 0
    kills: int = 0
    quits: int = 0
    refused: int = 0
    held: int = 0
    """Channel lines telling a player they wait for their cards."""
    blind: int = 0
    """Turns a player had to take without having been sent a hand."""
    hands: int = 0
    """Hand notices the players received."""
    first_hand: dict[str, float] = field(default_factory=dict)
    """Seconds from the games' opening to each player's first hand."""
    held_nicks: set[str] = field(default_factory=set)
    """Players the channel was told wait for their cards."""
    players: int = 0
    finished: int = 0
    latencies: list[float] = field(default_factory=list)
    lags: list[float] = field(default_factory=list)
    cnotice: bool = False
    error: str = ""
    server: str = ""
    """When the run failed: the server process's state (running, or how it ended) and the end
    of its log, taken before the server was stopped."""
    log: str = ""

    def to_json(self) -> dict[str, object]:
        """The run as plain data (the end-to-end tests run it in a process of its own)."""
        data = {f.name: getattr(self, f.name) for f in fields(self) if f.name != "figures"}
        data["held_nicks"] = sorted(self.held_nicks)
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Run:
        return cls(**{**data, "held_nicks": set(data.get("held_nicks", ()))})

    def percentile(self, q: float) -> float:
        if not self.latencies:
            return float("nan")
        values = sorted(self.latencies)
        return values[min(len(values) - 1, int(q * len(values)))]

    @property
    def lines_per_second(self) -> float:
        return self.lines / self.seconds if self.seconds else 0.0

    @property
    def ok(self) -> bool:
        return (
            not self.error
            and self.kills == 0
            and self.quits == 0
            and self.blind == 0
            and self.finished == self.games
        )


class NetPlayers(Players):
    """The capacity benchmark's players, also counting what this benchmark reports."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.held = 0
        self.blind = 0
        self.hands = 0
        self.first_hand: dict[str, float] = {}
        """Each player's first hand notice: when it arrived."""
        self.held_nicks: set[str] = set()

    def _line(self, seat, line: str) -> None:  # type: ignore[no-untyped-def]
        prefix, rest = "", line
        if line.startswith(":"):
            prefix, _, rest = line[1:].partition(" ")
        nick = prefix.partition("!")[0]
        head, _, text = rest.partition(" :")
        words = head.split()
        if nick.lower().startswith(BOT_NICK) and len(words) >= 2:
            plain = _CODES.sub("", text)
            if words[0] == "NOTICE" and words[1] == seat.nick and "Your cards" in plain:
                self.hands += 1
                self.first_hand.setdefault(seat.nick, time.monotonic())
            elif words[0] == "PRIVMSG" and words[1] == seat.game.channel:
                if seat.index == 0 and HELD in plain:
                    self.held += 1
                    self.held_nicks.add(plain.partition(":")[0])
                status = _STATUS.search(plain)
                turn = status is not None and status.group(3) == seat.nick
                if turn and not seat.hand and seat.expect == 0 and seat.counting:
                    self.blind += 1
        super()._line(seat, line)


def _names(port: int, channels: list[str], timeout: float) -> dict[str, str]:
    """Each channel the bot is in, with its status there ("@#bench0": ops), as a throwaway
    client's WHOIS of the bot shows them (NAMES would not: servers hide an invisible user
    from those outside the channel), once the bot is in every channel (or the timeout)."""
    seen: dict[str, str] = {}
    deadline = time.monotonic() + timeout
    with socket.create_connection((HOST, port), timeout=5, source_address=("127.0.0.250", 0)) as s:
        s.sendall(b"NICK watcher\r\nUSER watcher 0 * :watcher\r\n")
        buf = b""
        asked = 0.0
        while time.monotonic() < deadline and len(seen) < len(channels):
            now = time.monotonic()
            if now - asked > 1.0:
                asked = now
                with contextlib.suppress(OSError):
                    s.sendall(f"WHOIS {BOT_NICK}\r\n".encode())
            s.settimeout(0.5)
            try:
                data = s.recv(65536)
            except TimeoutError:
                continue
            if not data:
                break
            *lines, buf = (buf + data).split(b"\r\n")
            for raw in lines:
                line = raw.decode("utf-8", "replace")
                if line.startswith("PING"):
                    s.sendall(("PONG" + line[4:] + "\r\n").encode())
                words = line.split(" ")
                if len(words) > 3 and words[1] == "319":  # RPL_WHOISCHANNELS
                    for entry in line.partition(" :")[2].split():
                        name = entry.lstrip("@+%&~").lower()
                        if name in channels:
                            seen[name] = entry
        with contextlib.suppress(OSError):
            s.sendall(b"QUIT\r\n")
    return seen


def run_one(
    kind: str,
    games: int = 6,
    *,
    match: str = "180s",
    ops: bool = True,
    seed: int = 1,
    think: tuple[float, float] = THINK,
    settings: str = "",
    timeout: float | None = None,
    verbose: bool = False,
) -> Run:
    """One server, ``games`` tables of 4, each a timed match of ``match``; at most the match
    and :data:`SETUP_SECONDS` (or ``timeout``). A server that can't start is reported in the
    run's ``error``, not raised; ``verbose`` prints each step as it happens."""
    servers = _servers_module()
    result = Run(kind, games, ops)
    since = time.monotonic()

    def say(text: str) -> None:
        if verbose:
            progress(kind, since, text)

    if timeout is None:
        timeout = match_seconds(match) + SETUP_SECONDS
    try:
        server = servers.start_server(kind)
    except servers.ServerMissing:
        result.error = f"{kind} is not available: {servers.install_hint(kind)}"
        say(result.error)
        return result
    except Exception as err:  # a server that would not start or listen says why
        result.error = f"{kind} did not start: {type(err).__name__}: {err}"
        say(result.error)
        return result
    say(f"server up on port {server.port}")
    try:
        with tempfile.TemporaryDirectory(prefix=f"unobot-net-{kind}-") as tmp:
            _play(result, server.port, Path(tmp), match, seed, think, settings, timeout, say)
        if result.error:  # before the cleanup stops it: did the server live, what did it log?
            tail = server.log()[-1500:].strip() or "(empty)"
            result.server = f"{kind} on port {server.port}: {server.state()}; its log ends:\n{tail}"
    finally:
        server.cleanup()
    say(f"done: {result.error or 'finished'}")
    return result


def _play(
    result: Run,
    port: int,
    folder: Path,
    match: str,
    seed: int,
    think: tuple[float, float],
    settings: str,
    timeout: float,
    say: Callable[[str], None] = lambda text: None,
) -> None:
    games = result.games
    channels = [f"#bench{c}" for c in range(games)]
    players = NetPlayers(port, games, seed, think=think, hands=1, deal=match)
    config = "[bot]\nturn_timeout = 30\n" + settings
    bot: BotProcess | None = None
    try:
        if result.ops:
            bot = BotProcess(port, channels, 1, folder, config, log_level="INFO")
            here = _names(port, channels, 60.0)
            result.cnotice = len(here) == games and all(v[0] in "@+" for v in here.values())
            say(f"bot in {len(here)}/{games} channels{' with ops' if result.cnotice else ''}")
        else:  # the players make the channels: the bot holds no ops there
            deadline = time.monotonic() + 60
            while not all(s.joined for s in players.seats):
                players.connect()
                players._poll(deadline)
            bot = BotProcess(port, channels, 1, folder, config, log_level="INFO")
        players.join(bot, timeout=120.0)
        say(f"{len(players.seats)} players joined; the games open, each a {match} match")
        figures = Figures(games, 1)
        opened = players.open()
        players.measure(figures, opened)
        meters = players.meters.values()
        shown = [time.monotonic()]

        def done() -> bool:
            over = sum(m.finished >= 1 for m in meters)
            if time.monotonic() - shown[0] >= PROGRESS_SECONDS:
                shown[0] = time.monotonic()
                say(f"{len(figures.latencies)} moves timed, {over}/{games} matches over")
            return over == games

        players.until(done, timeout, bot, "end of every match")
        end = time.monotonic()
        players.close_window(end)
        result.figures = figures
        result.seconds = end - opened
        first = [m.first_turn for m in meters if m.first_turn]
        result.setup_seconds = (max(first) - opened) if first else float("nan")
        result.first_hand = {n: t - opened for n, t in players.first_hand.items()}
    except Exception as err:  # reported, not raised: the other servers' runs go on
        result.error = f"{type(err).__name__}: {err}"
    finally:
        if bot is not None:
            bot.stop()
            result.log = bot.output()
        _collect(result, players)
        players.close()


_MODEL = re.compile(r"runs (\S+): sending by the (\S+) flood model")
_LAG = re.compile(r"holds the bot's lines back \(lag ([\d.]+) s\)")


def _collect(result: Run, players: NetPlayers) -> None:
    log = result.log
    found = _MODEL.search(log)
    if found:
        result.version, result.model = found.group(1), found.group(2)
    result.kills = log.count("closes the link for flooding")
    result.refused = log.count("refuses private messages to new people") + len(
        re.findall(r"\b(?:439|707) refused for", log)
    )
    result.lags = [float(x) for x in _LAG.findall(log)]
    result.held = players.held
    result.blind = players.blind
    result.hands = players.hands
    result.held_nicks = set(players.held_nicks)
    result.players = len(players.seats)
    result.quits = players.bot_quits
    result.finished = sum(m.finished >= 1 for m in players.meters.values())
    if result.figures is not None:
        result.latencies = list(result.figures.latencies)
        result.lines = result.figures.lines


def measure(
    kinds: list[str],
    games: int,
    match: str,
    ops: bool,
    seed: int,
    think: tuple[float, float],
    verbose: bool = False,
) -> list[Run]:
    """Every server at once (each its own server, bot and players, in a thread of its own:
    the runs wait on send budgets, not on the CPU)."""
    results: dict[str, Run] = {}

    def one(kind: str) -> None:
        try:
            results[kind] = run_one(
                kind, games, match=match, ops=ops, seed=seed, think=think, verbose=verbose
            )
        except Exception as err:  # one server's failure is its row, not the end of the others
            results[kind] = Run(kind, games, ops, error=f"{type(err).__name__}: {err}")

    threads = [threading.Thread(target=one, args=(k,), name=f"net-{k}") for k in kinds]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return [results[k] for k in kinds]


def _ms(value: float) -> str:
    if value != value:  # NaN
        return "-"
    return f"{value * 1000:.0f} ms" if value < 1 else f"{value:.1f} s"


def report(r: Run) -> str:
    """The server's row."""
    if r.error and r.figures is None:
        return f"| {r.kind} | - | - | - | - | - | {r.error} |"
    return (
        f"| {r.kind} ({r.version or '?'}) | {r.model or '?'} | {r.lines_per_second:.2f} | "
        f"{r.kills + r.quits} | {r.refused}/{r.held}/{r.blind} | {r.finished}/{r.games} | "
        f"{_ms(r.percentile(0.5))} / {_ms(r.percentile(0.95))} |"
        + (f" {r.error}" if r.error else "")
    )


def run(args: argparse.Namespace) -> list[Run]:
    kinds = args.servers
    unknown = [k for k in kinds if k not in KINDS]
    if unknown or not kinds:
        print(
            f"networks: unknown server {', '.join(unknown) or '(none)'}: one of {', '.join(KINDS)}"
        )
        raise SystemExit(2)
    seconds = match_seconds(args.match)
    print(
        f"networks bench: {args.games} tables x 4 players (each from its own address) per "
        f"server, a {args.match} match each ({seconds / 60:g} min; the run takes up to "
        f"{(seconds + SETUP_SECONDS) / 60:g} min), the bot at its default budget (flood_model "
        f"auto){'' if args.ops else ', players make the channels (the bot has no ops)'}, seed "
        f"{args.seed}; servers at once: {', '.join(kinds)}",
        flush=True,
    )
    think = THINK if args.think is None else (args.think, args.think)
    results = measure(kinds, args.games, args.match, args.ops, args.seed, think, verbose=True)
    print("| server | model | lines/s | kills | hands refused/retried/lost | games | "
          "turn-to-answer p50 / p95 |")  # fmt: skip
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for r in results:
        print(report(r))
    for r in results:
        extra = f"  {r.kind}: opening {r.setup_seconds:.0f} s, run {r.seconds:.0f} s, " + (
            f"{r.hands} hands received, {len(r.latencies)} moves timed, CNOTICE "
            f"{'yes' if r.cnotice else 'no'}"
        )
        if r.lags:
            extra += f", the server held lines {len(r.lags)}x (max {max(r.lags):.1f} s)"
        print(extra)
        if r.server:
            print("  " + r.server.replace("\n", "\n    "))
    ok = [r for r in results if r.ok]
    mean = statistics.mean(r.percentile(0.95) for r in ok) if ok else float("nan")
    print(
        f"networks: {len(ok)}/{len(results)} servers with no kill, no hand lost and every "
        f"game finished; mean turn-to-answer p95 {_ms(mean)}"
    )
    if all(r.figures is None for r in results):  # nothing ran: say so in the exit status too
        raise SystemExit(1)
    return results


def _match_arg(text: str) -> str:
    match_seconds(text)  # refused here, with the forms it takes, rather than by the bot
    return text.strip().lower()


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--servers",
        type=lambda s: [k for k in s.split(",") if k],
        default=list(KINDS),
        help=f"comma-separated, of {', '.join(KINDS)} (default all, run at once)",
    )
    p.add_argument("--games", type=int, default=6, help="tables of 4 per server (default 6)")
    p.add_argument(
        "--match",
        default="180s",
        type=_match_arg,
        help="each table's timed match, as .deal takes it: 90s, 3m, 1h (a bare number is "
        "minutes; default 180s)",
    )
    p.add_argument(
        "--no-ops",
        dest="ops",
        action="store_false",
        help="players create the channels: the bot holds no ops (ircu's 439 then shows)",
    )
    p.add_argument(
        "--think",
        type=float,
        default=None,
        help=f"seconds a player thinks before each move (default {THINK[0]:g}-{THINK[1]:g})",
    )
    p.add_argument("--seed", type=int, default=1)
    p.set_defaults(run=run)
