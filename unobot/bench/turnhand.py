"""``python -m unobot.bench turnhand``: does the player to move have their hand before moving?

What it answers: with the real bot process and real players moving at a person's pace (0.8-2.5 s
after the channel says it is their turn, uniform, seeded), on how many turns had the player
received their hand (``Your turn | Your cards …``, the playable cards marked) before their
move left their socket; how long after (or before: negative) the channel's line naming them the
hand arrived (p50/p95); how many bot lines a turn costs; and how many seconds a turn takes
(each game's turns over the time measured). One line per server and number of games:

    embedded  1 game : 100.0% of 83 turns had their hand, hand at turn -1 ms p50 ...

Servers: ``embedded`` (the bot's own local server, the quick start: no send budget), ``ngircd``
(Debian's, the bot sending by its 1 line/s model) and ``ircu`` (Undernet's server with Debian's
flood limits, the bot joined first so it holds ``@`` and sends hands as ``CNOTICE``: ircu's
own budget, about a line per 2.5 s, sets the pace). They are started as the end-to-end tests
start them (``tests/e2e/servers.py``), so the benchmark needs a checkout. ``--no-turn-hand``
runs the bot with ``bot.turn_hand = false``, to compare the pace; ``--bot PATH`` runs another
checkout's ``unobot.py`` (an earlier commit, for before/after figures).

How a turn is counted: the channel line whose status names a player (``bob's turn``, ``bob
must …``; not a first card's colour pick) begins their turn; their first command after it is
their move. They had their hand if a turn notice reached them after the channel last named
someone else (the notice of this turn, not of an earlier one). The players are
:mod:`unobot.bench.capacity`'s simulated ones (each from a loopback address of its own),
``--players`` to a game (3, as friends in the quick start), a new game after each.

The figures are printed, never asserted: ``tests/e2e/test_turn_hand_e2e.py`` asserts every turn
on the embedded server and on ngircd.
"""

from __future__ import annotations

import argparse
import math
import socket
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from unobot.bench.alone import run_alone
from unobot.bench.capacity import (
    ROOT,
    BotProcess,
    Figures,
    Players,
    _numbers,
    _servers_module,
    percentile,
)
from unobot.bench.irc import _CODES, BOT_NICK, HOST, Seat, _free_port
from unobot.bench.networks import _names

__all__ = ["KINDS", "Run", "TurnPlayers", "add_arguments", "measure", "run"]

KINDS = ("embedded", "ngircd", "ircu")
THINK = (0.8, 2.5)
"""Seconds a person takes to move once the channel says it is their turn."""
PLAYERS = 3


@dataclass
class Run:
    """One server and number of games: what the players' sockets saw."""

    kind: str
    games: int
    turn_hand: bool
    turns: int = 0
    had: int = 0
    """Of ``turns``: the player had this turn's hand before moving."""
    deltas: list[float] = field(default_factory=list)
    """Seconds from the channel line naming the player to their hand (negative: before)."""
    seconds: float = 0.0
    lines: int = 0
    error: str = ""
    figures: Figures | None = None

    @property
    def share(self) -> float:
        return self.had / self.turns if self.turns else math.nan

    @property
    def seconds_per_turn(self) -> float:
        """Each game's pace: seconds measured over that game's turns."""
        return self.seconds * self.games / self.turns if self.turns else math.nan

    @property
    def lines_per_turn(self) -> float:
        return self.lines / self.turns if self.turns else math.nan

    def percentile(self, q: float) -> float:
        return percentile(self.deltas, q)


class TurnPlayers(Players):
    """The capacity benchmark's players, also timing each turn's hand against each move."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.run: Run | None = None
        self.turn_at: dict[str, float] = {}
        """Players whose turn it is and whose move has not left yet: when the turn began."""
        self.hand_at: dict[str, float] = {}
        """Each player's last turn notice: when it arrived."""
        self.other_at: dict[str, float] = {}
        """When each player last read a channel line naming someone else to move."""

    def _line(self, seat: Seat, line: str) -> None:  # type: ignore[override]
        prefix, rest = "", line
        if line.startswith(":"):
            prefix, _, rest = line[1:].partition(" ")
        head, _, text = rest.partition(" :")
        words = head.split()
        if prefix.partition("!")[0].lower().startswith(BOT_NICK) and len(words) >= 2:
            now = time.monotonic()
            plain = _CODES.sub("", text)
            reader = seat.game.reader
            if words[0] == "NOTICE" and words[1] == seat.nick and reader.turn_hand(plain):
                self.hand_at[seat.nick] = now
            elif words[0] == "PRIVMSG" and words[1] == seat.game.channel and seat.counting:
                status = reader.status(plain)
                if status is not None and status.nick == seat.nick and status.phase != "picks":
                    self.turn_at.setdefault(seat.nick, now)
                elif status is not None and status.nick != seat.nick:
                    self.other_at[seat.nick] = now
                    self.turn_at.pop(seat.nick, None)
        super()._line(seat, line)

    def send(self, seat: Seat, line: str) -> None:
        began = self.turn_at.pop(seat.nick, None) if line.startswith("PRIVMSG #") else None
        super().send(seat, line)
        run = self.run
        if began is None or run is None or not self._in_window(began):
            return
        word = line.partition(" :")[2].lstrip(".").split(" ", 1)[0].lower()
        if word in ("color", "colour", "co"):
            return
        run.turns += 1
        hand = self.hand_at.get(seat.nick)
        if hand is not None and hand > self.other_at.get(seat.nick, -math.inf):
            run.had += 1
            run.deltas.append(hand - began)


def _start(kind: str):  # -> tests.e2e.servers.IrcServer | None
    """The server for ``kind``; None for ``embedded`` (the bot runs its own)."""
    if kind == "embedded":
        return None
    servers = _servers_module()
    try:
        return servers.start_server(kind)
    except servers.ServerMissing as err:
        raise RuntimeError(
            f"{kind} is not there ({err}): tests/run.sh installs ngircd and unpacks ircu"
        ) from None


def measure(
    kind: str,
    games: int,
    seconds: float,
    seed: int,
    *,
    turn_hand: bool = True,
    players: int = PLAYERS,
    think: tuple[float, float] = THINK,
    root: Path = ROOT,
) -> Run:
    """One run: the server, the bot, ``games`` tables of ``players``, ``seconds`` measured
    once every table showed its first turn."""
    result = Run(kind, games, turn_hand)
    try:
        server = _start(kind)
    except RuntimeError as err:
        result.error = str(err)
        return result
    port = server.port if server is not None else _free_port()
    settings = "" if turn_hand else "[bot]\nturn_hand = false\n"
    table = TurnPlayers(port, games, seed, players=players, think=think)
    table.run = result
    channels = [f"#bench{c}" for c in range(games)]
    bot: BotProcess | None = None
    try:
        with tempfile.TemporaryDirectory(prefix=f"unobot-turnhand-{kind}-") as tmp:
            bot = BotProcess(
                port, channels, 1, Path(tmp), settings, embedded=server is None, root=root
            )
            if kind == "ircu":  # the bot first in its channels: @ there, hands as CNOTICE
                here = _names(port, channels, 60.0)
                if not all(here.get(c, " ")[0] == "@" for c in channels):
                    raise RuntimeError(f"the bot is not opped in every channel: {here}")
            elif server is None:
                _wait_listening(port, bot)
            figures = Figures(games, 1, turn_hand=turn_hand)
            table.play(bot, figures, seconds)
            result.figures = figures
            result.seconds = figures.seconds
            result.lines = figures.lines
    except Exception as err:  # reported, not raised: the other runs go on
        result.error = f"{type(err).__name__}: {err}"
        if bot is not None:
            result.error += f"\n{bot.output()[-1500:]}"
    finally:
        if bot is not None:
            bot.stop()
        table.close()
        if server is not None:
            server.cleanup()
    return result


def _wait_listening(port: int, bot: BotProcess, timeout: float = 30.0) -> None:
    """The embedded server inside the bot process answers (it starts before the bot)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if bot.exited() is not None:
            raise RuntimeError(f"the bot exited: {bot.output()[-1500:]}")
        try:
            socket.create_connection((HOST, port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"nothing listens on port {port} after {timeout:g} s")


def _ms(value: float) -> str:
    return "-" if math.isnan(value) else f"{value * 1000:+.0f} ms"


def report(r: Run) -> str:
    """One run's line."""
    head = f"{r.kind:<8} {r.games} game{'s' if r.games > 1 else ' '}"
    head += "" if r.turn_hand else " (no turn hand)"
    if r.error:
        return f"{head}: FAILED: {r.error}"
    return (
        f"{head}: {100 * r.share:.1f}% of {r.turns} turns had their hand before moving, "
        f"hand at turn {_ms(r.percentile(0.5))} p50 {_ms(r.percentile(0.95))} p95, "
        f"{r.lines_per_turn:.2f} lines/turn, {r.seconds_per_turn:.1f} s a turn"
    )


def run(args: argparse.Namespace) -> list[Run]:
    """Every server for every number of games; one line each, then ``turnhand:``."""
    root = Path(args.bot).resolve() if args.bot else ROOT
    print(
        f"turnhand bench: {args.players}-player games, players move {args.think[0]:g}-"
        f"{args.think[1]:g} s after their turn, {args.seconds:g} s measured per run, seed "
        f"{args.seed}, hand at each turn {'on' if args.turn_hand else 'off'}, the bot of "
        f"{root}",
        flush=True,
    )
    results: list[Run] = []
    for kind in args.servers:
        for games in args.games:
            result = measure(
                kind, games, args.seconds, args.seed, turn_hand=args.turn_hand,
                players=args.players, think=tuple(args.think), root=root,
            )  # fmt: skip
            results.append(result)
            print(report(result), flush=True)
    done = [r for r in results if not r.error and r.turns]
    parts = [
        f"{r.kind} x{r.games} {100 * r.share:.1f}% ({r.seconds_per_turn:.1f} s/turn)" for r in done
    ]
    failed = len(results) - len(done)
    tail = f"; {failed} run(s) failed" if failed else ""
    print(f"turnhand: {', '.join(parts) or 'nothing measured'}{tail}")
    return results


def _kinds(text: str) -> list[str]:
    kinds = [k.strip() for k in text.split(",") if k.strip()]
    unknown = [k for k in kinds if k not in KINDS]
    if not kinds or unknown:
        raise argparse.ArgumentTypeError(f"servers are some of {', '.join(KINDS)}")
    return kinds


def _think(text: str) -> list[float]:
    try:
        low, high = (float(v) for v in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError("--think LOW,HIGH in seconds, e.g. 0.8,2.5") from None
    if not 0 <= low <= high:
        raise argparse.ArgumentTypeError("--think needs 0 <= LOW <= HIGH")
    return [low, high]


def add_arguments(p: argparse.ArgumentParser) -> None:
    """Register ``turnhand``'s options on its subcommand parser."""
    p.add_argument("--servers", type=_kinds, default=list(KINDS), help="embedded,ngircd,ircu")
    p.add_argument("--games", type=_numbers, default=[1, 2], help="games at once, e.g. 1,2")
    p.add_argument("--seconds", type=float, default=120.0, help="seconds measured per run")
    p.add_argument("--players", type=int, default=PLAYERS, help="players per game (3)")
    p.add_argument("--think", type=_think, default=list(THINK), help="LOW,HIGH seconds")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument(
        "--turn-hand",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="the bot sends the hand when the turn comes (default); --no-turn-hand to compare",
    )
    p.add_argument("--bot", default="", help="another checkout whose unobot.py runs")
    p.set_defaults(run=run)


def main(argv: list[str] | None = None) -> None:
    """``python -m unobot.bench.turnhand`` works too (same options)."""
    run_alone("turnhand", add_arguments, __doc__, argv)


if __name__ == "__main__":
    main()
