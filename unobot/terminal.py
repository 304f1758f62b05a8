"""``unobot play``: a game of Uno in a terminal against computer players, with no network.

The point is to run *the bot itself*: the same :class:`~unobot.bot.Bot`, the same plugins, the
same commands and wording as on IRC, so what a player learns here works in a channel and the
terminal game exercises the real code paths. Only the edge is replaced:

- :class:`TerminalTransport` implements :class:`~unobot.transport.Transport` by printing what
  the bot says, the way an IRC client shows it: channel lines as ``<unobot> ...``, the NOTICEs
  to the human (their hand, answers to mistakes) as ``-unobot- ...``. Lines addressed to anyone
  else (computer players' hands, should the bot send them) are never printed: the terminal shows
  exactly what the human's IRC client would.
- mIRC formatting in those lines (cards in colour, bold wilds) becomes ANSI escapes on a
  terminal and is stripped otherwise (:func:`mirc_to_ansi`, a pure function).
- :class:`LoopScheduler` implements :class:`~unobot.transport.Scheduler` on an asyncio event
  loop from the standard library: ``loop.call_later``/``TimerHandle.cancel`` are exactly the
  protocol, and a single loop keeps the core single-threaded as on IRC (no new dependency).
- stdin is read by a daemon thread that hands each line to the loop (``call_soon_threadsafe``):
  unlike ``loop.add_reader`` this works for a terminal, a pipe and a redirected regular file
  alike, and on every platform.

The game starts the way a channel would (``.uno``, ``.addbot LEVEL`` once per computer player,
``.deal``), so computer players come from the same ``.addbot`` command IRC users have.
"""

from __future__ import annotations

import argparse
import asyncio
import codecs
import contextlib
import dataclasses
import getpass
import os
import re
import signal
import sys
import threading
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from random import Random
from typing import TYPE_CHECKING, TextIO

from unobot.casemap import irc_eq, irc_lower
from unobot.dispatch import CommandThrottle
from unobot.engine import PRESETS, preset
from unobot.transport import Incoming, Kind

if TYPE_CHECKING:
    from unobot.bot import Bot
    from unobot.stats import StatsStore

__all__ = [
    "LEVELS",
    "LoopScheduler",
    "PlayOptions",
    "TerminalGame",
    "TerminalTransport",
    "main",
    "mirc_to_ansi",
    "parse_args",
]

LEVELS = ("easy", "normal", "hard")
CHANNEL = "#uno"
BOT_NICK = "unobot"
TURN_TIMEOUT = 24 * 3600.0
"""The human is the only one who can stall a terminal game, and stalling only delays themself:
a turn timer would just be a nuisance, so it is set beyond any sitting (the table needs one)."""
DEFAULT_DELAY = 1.0
"""Seconds a computer player waits before it acts: long enough to follow the game as it goes,
short enough not to bore (``--delay 0`` for tests and the impatient)."""
DEFAULT_HARD_BUDGET = 200.0
HARD_BUDGET_ENV = "UNOBOT_HARD_BUDGET_MS"
"""Environment variable overriding the ``hard`` level's search budget per move (milliseconds):
tests play whole games against ``hard`` in a fraction of the default 200 ms a move."""
QUIT_WORDS = frozenset({".quit", ".exit", "/quit", "/exit", "/q"})

# --- mIRC formatting -> ANSI -----------------------------------------------------------------

_FG = (97, 30, 34, 32, 91, 31, 35, 33, 93, 92, 36, 96, 94, 95, 90, 37)
"""ANSI SGR foreground codes for mIRC colours 0-15 (white, black, navy, green, red, brown,
purple, orange, yellow, light green, teal, cyan, light blue, pink, grey, light grey): the 16
basic ANSI colours every terminal has, nearest in hue. Background is the same + 10."""

_FORMAT = re.compile(
    r"\x03(?:(\d{1,2})(?:,(\d{1,2}))?)?"  # colour: fg[,bg]; a bare \x03 resets colours
    r"|\x04(?:([0-9a-fA-F]{6})(?:,([0-9a-fA-F]{6}))?)?"  # hex colour (mIRC 7.x)
    r"|[\x02\x0f\x11\x16\x1d\x1e\x1f]"
)
_TOGGLES = {
    "\x02": "bold",
    "\x1d": "italic",
    "\x1f": "underline",
    "\x1e": "strike",
    "\x16": "reverse",
}
_SGR = {"bold": "1", "italic": "3", "underline": "4", "strike": "9", "reverse": "7"}


@dataclass(slots=True)
class _Style:
    bold: bool = False
    italic: bool = False
    underline: bool = False
    strike: bool = False
    reverse: bool = False
    fg: str = ""
    """An SGR parameter string for the foreground (``"91"``, ``"38;2;255;0;0"``), or empty."""
    bg: str = ""

    def sgr(self) -> str:
        """The full state as one escape that starts from a reset, so toggles can't drift."""
        params = ["0"] + [_SGR[name] for name in _SGR if getattr(self, name)]
        params += [p for p in (self.fg, self.bg) if p]
        return f"\x1b[{';'.join(params)}m"

    @property
    def plain(self) -> bool:
        return self == _Style()


def _mirc_color(code: str | None, background: bool) -> str:
    if code is None:
        return ""
    n = int(code)
    if n >= len(_FG):  # 99 is "default"; 16-98 (mIRC's extended palette) shown as default too
        return ""
    return str(_FG[n] + (10 if background else 0))


def _hex_color(code: str | None, background: bool) -> str:
    if code is None:
        return ""
    r, g, b = (int(code[i : i + 2], 16) for i in (0, 2, 4))
    return f"{48 if background else 38};2;{r};{g};{b}"


def mirc_to_ansi(text: str, *, ansi: bool) -> str:
    """``text`` with mIRC formatting codes turned into ANSI escapes (``ansi``) or removed.

    Handles colours (``\\x03NN[,MM]``, a bare ``\\x03`` ends colour; hex ``\\x04RRGGBB``), the
    toggles bold ``\\x02``, italic ``\\x1d``, underline ``\\x1f``, strike ``\\x1e``, reverse
    ``\\x16``, and reset ``\\x0f``. Each code emits the complete resulting style (from a reset),
    and a line that ends styled is closed with a reset, so colour never bleeds into the next
    line or the prompt. Pure, for unit tests.
    """
    if not ansi:
        return _FORMAT.sub("", text)
    out: list[str] = []
    style = _Style()
    pos = 0
    for m in _FORMAT.finditer(text):
        out.append(text[pos : m.start()])
        pos = m.end()
        code = m.group(0)[0]
        before = dataclasses.replace(style)
        if code == "\x03":
            if m.group(1) is None:
                style.fg = style.bg = ""
            else:
                style.fg = _mirc_color(m.group(1), background=False)
                if m.group(2) is not None:
                    style.bg = _mirc_color(m.group(2), background=True)
        elif code == "\x04":
            if m.group(3) is None:
                style.fg = style.bg = ""
            else:
                style.fg = _hex_color(m.group(3), background=False)
                if m.group(4) is not None:
                    style.bg = _hex_color(m.group(4), background=True)
        elif code == "\x0f":
            style = _Style()
        elif code in _TOGGLES:
            name = _TOGGLES[code]
            setattr(style, name, not getattr(style, name))
        # \x11 (monospace) has no terminal equivalent: the terminal is monospace already.
        if style != before:
            out.append(style.sgr())
    out.append(text[pos:])
    if not style.plain:
        out.append("\x1b[0m")
    return "".join(out)


# --- options ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PlayOptions:
    bots: int = 3
    level: str = "normal"
    preset: str = "irc-classic"
    seed: int | None = None
    nick: str = "you"
    color: str = "auto"
    """``always``, ``never`` or ``auto`` (colour when stdout is a terminal and NO_COLOR unset)."""
    delay: float = DEFAULT_DELAY
    database: str | None = None


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="unobot play",
        description="Play Uno in this terminal against computer players, with the IRC bot's "
        "commands (.p r5, .p w g, .d, .pa, .cards, .top, .unohelp) and no network. Ctrl-D or "
        ".quit leaves.",
    )
    parser.add_argument(
        "--bots", type=int, default=3, metavar="N", help="computer players, 1-9 (default 3)"
    )
    parser.add_argument(
        "--level", default="normal", choices=LEVELS, help="computer level (default normal)"
    )
    parser.add_argument(
        "--preset",
        default="irc-classic",
        choices=sorted(PRESETS),
        metavar="NAME",
        help=f"rules: {', '.join(sorted(PRESETS))} (default irc-classic)",
    )
    parser.add_argument("--seed", type=int, default=None, help="seed for reproducible deals")
    parser.add_argument(
        "--nick", default=None, help="your nick (default: your login name, else 'you')"
    )
    parser.add_argument(
        "--color",
        default="auto",
        choices=("auto", "always", "never"),
        help="colours: auto (when output is a terminal and NO_COLOR is unset), always, never",
    )
    parser.add_argument(
        "--delay",
        type=float,
        default=DEFAULT_DELAY,
        metavar="SECONDS",
        help=f"computer players' pause before acting, ±30%% (default {DEFAULT_DELAY:g}; 0-60)",
    )
    parser.add_argument(
        "--database",
        metavar="URL",
        default=None,
        help="record games in this stats database (sqlite:///stats.db, postgresql://...) so "
        ".unostats counts them; default: no stats, nothing written",
    )
    return parser


_NICK = re.compile(r"[A-Za-z\[\]\\`_^{|}][A-Za-z0-9\[\]\\`_^{|}-]{0,29}")


def usable_nick(nick: str) -> bool:
    """An RFC 2812 nick, other than the bot's and other than a computer player's default name
    (``EasyBot1``...: the table would refuse the computer player a human already holds)."""
    return bool(
        _NICK.fullmatch(nick)
        and not irc_eq(nick, BOT_NICK)
        and not re.fullmatch(r"(easy|normal|hard)bot\d*", nick, re.IGNORECASE)
    )


def default_nick() -> str:
    """The login name, as IRC clients default to: the channel's lines are in the third person
    (``alice plays R5``), which reads better with a name than with ``you``."""
    try:
        name = getpass.getuser()
    except Exception:  # no login name in this environment (getuser raises OSError/KeyError)
        return "you"
    return name if usable_nick(name) else "you"


def parse_args(argv: list[str]) -> PlayOptions:
    """Parse and check ``unobot play`` arguments; exits with a usage message when wrong."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if not 1 <= args.bots <= 9:
        parser.error("--bots must be 1 to 9")
    rules = preset(args.preset)
    if not rules.min_players <= args.bots + 1 <= rules.max_players:
        parser.error(
            f"{args.preset} is for {rules.min_players}-{rules.max_players} players: "
            f"--bots {rules.min_players - 1} to {min(9, rules.max_players - 1)}"
        )
    if not args.delay >= 0 or args.delay > 60:  # `not >=` also refuses nan
        parser.error("--delay must be 0 to 60 seconds")
    if args.nick is None:
        args.nick = default_nick()
    elif not usable_nick(args.nick):
        parser.error(f"--nick {args.nick!r} is not a usable IRC nick")
    return PlayOptions(
        bots=args.bots,
        level=args.level,
        preset=args.preset,
        seed=args.seed,
        nick=args.nick,
        color=args.color,
        delay=args.delay,
        database=args.database,
    )


def use_color(choice: str, stream: TextIO, environ: Mapping[str, str] | None = None) -> bool:
    """``--color``: ``auto`` means a terminal and no ``NO_COLOR`` (https://no-color.org)."""
    if choice == "always":
        return True
    if choice == "never":
        return False
    env = os.environ if environ is None else environ
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty()) and not env.get("NO_COLOR") and env.get("TERM") != "dumb"


# --- transport and scheduler -----------------------------------------------------------------


class TerminalTransport:
    """Prints what the bot sends that the human would see, as an IRC client shows it.

    ``write`` receives whole lines; the game passes a function that also stops the program
    when the output has gone away (a closed pipe)."""

    def __init__(
        self,
        write: Callable[[str], None],
        human: str,
        *,
        color: bool,
        channel: str = CHANNEL,
        nickname: str = BOT_NICK,
    ) -> None:
        self.nickname = nickname
        self.human = human
        self.channel = channel
        self.color = color
        self._write = write

    def privmsg(self, target: str, text: str) -> None:
        if irc_eq(target, self.channel):
            self._show("<", ">", text)
        elif irc_eq(target, self.human):
            self._show("*", "*", text)  # a private message, as irssi shows a query line

    def notice(self, target: str, text: str) -> None:
        if irc_eq(target, self.human) or irc_eq(target, self.channel):
            self._show("-", "-", text)

    def _show(self, left: str, right: str, text: str) -> None:
        body = mirc_to_ansi(text, ansi=self.color)
        who = f"{left}{self.nickname}{right}"
        if self.color:
            who = f"\x1b[1m{who}\x1b[0m"
        self._write(f"{who} {body}")


class _Timer:
    """A cancellable handle that may be armed later (when created from another thread)."""

    __slots__ = ("callback", "cancelled", "handle")

    def __init__(self, callback: Callable[[], None]) -> None:
        self.callback = callback
        self.handle: asyncio.TimerHandle | None = None
        self.cancelled = False


class LoopScheduler:
    """:class:`~unobot.transport.Scheduler` on an asyncio loop, plus an ``after`` hook.

    ``after`` runs once each timer callback has finished: the game uses it to notice that a
    computer player's move ended the game. ``call_later`` and ``cancel`` may be called from
    another thread (a computer player thinking off-thread): the handle is returned at once
    and armed on the loop, since asyncio's own ``call_later`` is not thread-safe.
    """

    def __init__(
        self, loop: asyncio.AbstractEventLoop, after: Callable[[], None] | None = None
    ) -> None:
        self.loop = loop
        self.after = after
        self._thread = threading.get_ident()

    def call_later(self, delay: float, callback: Callable[[], None]) -> object:
        timer = _Timer(callback)
        if threading.get_ident() == self._thread:
            self._arm(timer, delay)
        else:
            self.loop.call_soon_threadsafe(self._arm, timer, delay)
        return timer

    def cancel(self, handle: object) -> None:
        if not isinstance(handle, _Timer):
            return
        handle.cancelled = True
        if handle.handle is not None:
            if threading.get_ident() == self._thread:
                handle.handle.cancel()
            else:
                self.loop.call_soon_threadsafe(handle.handle.cancel)

    def now(self) -> float:
        return self.loop.time()

    def call_soon_threadsafe(self, callback: Callable[[], None]) -> None:
        """The door in from other threads, as :class:`~unobot.irc_adapter.IrcAdapter` has."""
        self.loop.call_soon_threadsafe(self._run, _Timer(callback))

    def _arm(self, timer: _Timer, delay: float) -> None:
        if not timer.cancelled:
            timer.handle = self.loop.call_later(max(0.0, delay), self._run, timer)

    def _run(self, timer: _Timer) -> None:
        if timer.cancelled:
            return
        timer.cancelled = True  # fired: a later cancel is a no-op
        try:
            timer.callback()
        finally:
            if self.after is not None:
                self.after()


# --- the game --------------------------------------------------------------------------------


class _Unthrottled(CommandThrottle):
    """A throttle that allows everything (see :class:`TerminalGame`)."""

    def allow(self, who: str, now: float) -> bool | None:
        return True

    def charge(self, who: str, now: float) -> None:
        pass


class TerminalGame:
    """One terminal session: a bot, a pseudo-channel, one human nick and their typed lines."""

    def __init__(
        self,
        options: PlayOptions,
        loop: asyncio.AbstractEventLoop,
        write: Callable[[str], None],
        *,
        color: bool,
        echo: bool,
        store: StatsStore | None = None,
    ) -> None:
        """``echo``: repeat each typed line as ``<nick> line`` (when stdin is not a terminal,
        whose own echo already shows it), so a transcript reads like a channel log."""
        from unobot.bot import Bot, BotConfig
        from unobot.computers import ComputerConfig, InlineDecider
        from unobot.settings import MemorySettings
        from unobot.table import TableConfig

        self.options = options
        self.loop = loop
        self.color = color
        self.echo = echo
        self.done: asyncio.Future[None] = loop.create_future()
        self._write_raw = write
        self.transport = TerminalTransport(self._write, options.nick, color=color)
        self.scheduler = LoopScheduler(loop, after=self._check_end)
        table = TableConfig(
            rules=preset(options.preset),
            turn_timeout=TURN_TIMEOUT,
            turn_warning=0.0,
            idle_stop=TURN_TIMEOUT,
            # Your hand again after each card you play: on IRC one more line per turn counts
            # against the flood limit, here it saves typing .cards before every move.
            hand_after_play=True,
        )
        budget = hard_budget()
        bots = ComputerConfig(delay=options.delay, budget_ms=budget, workers=0)
        # No stats cooldown either: it spaces out leaderboards in a shared channel.
        config = BotConfig(table=table, network="terminal", bots=bots, stats_cooldown=0.0)
        rng = Random(options.seed) if options.seed is not None else None
        # Preferences live in memory: a stats database may hold a channel's .unorules from
        # IRC, which must not override --preset here.
        self.bot: Bot = Bot(
            self.transport,
            self.scheduler,
            MemorySettings(),
            config,
            rng=rng,
            store=store,
            # Computer players decide on the loop's thread, not in worker processes as on a
            # busy IRC bot: here one table is played and the human is waiting for the move
            # anyway (a hard move's 200 ms block delays nothing else), and it spares spawning
            # interpreters and pickling observations for a game in a terminal.
            decider=InlineDecider(budget),
        )
        # The command throttle protects an IRC connection's send queue (~1 line/s shared by
        # every channel) from one user's flood of .cards; here the only one to flood is the
        # human's own screen, so every command is answered.
        self.bot.dispatcher.throttle = _Unthrottled()
        self._playing = False

    # --- output ------------------------------------------------------------------------

    def _write(self, line: str) -> None:
        try:
            self._write_raw(line)
        except (BrokenPipeError, ValueError):  # output closed (`| head`): nobody is watching
            self.finish()

    def status(self, text: str) -> None:
        """A line from the terminal program itself (not the bot), marked like a client's."""
        mark = "\x1b[2m***\x1b[0m" if self.color else "***"
        self._write(f"{mark} {text}")

    # --- input -------------------------------------------------------------------------

    def say(self, text: str, *, echo: bool = True) -> None:
        """The human says ``text`` in the channel (a command or chat), as on IRC."""
        if echo:
            who = f"\x1b[1m<{self.options.nick}>\x1b[0m" if self.color else f"<{self.options.nick}>"
            self._write(f"{who} {text}")
        self.bot.handle(Incoming(Kind.MESSAGE, self.options.nick, CHANNEL, text, is_op=True))
        self._check_end()

    def line(self, raw: str) -> None:
        """One line typed by the human."""
        text = raw.rstrip("\r\n")
        if not text.strip() or self.done.done():
            return
        word = text.strip().lower()
        if word in QUIT_WORDS:
            self.finish()
            return
        if word in (".new", "/new"):
            if self._table_open():
                self.status("A game is on: .unostop ends it, then .new starts another.")
            else:
                self.start()
            return
        if text.startswith("/"):  # an IRC client's command: sent as chat it would only confuse
            self.status(
                f"{text.split()[0][:20]} is not known here: type commands as in the channel "
                "(.p r5, .cards, .unohelp); .quit leaves."
            )
            return
        self.say(text, echo=self.echo)

    def start(self) -> None:
        """Open a game as a channel would: ``.uno``, ``.addbot LEVEL`` per computer, ``.deal``."""
        self.say(".uno")
        for _ in range(self.options.bots):
            self.say(f".addbot {self.options.level}")
        self.say(".deal")

    def welcome(self) -> None:
        o = self.options
        players = f"{o.bots} computer player{'s' if o.bots != 1 else ''} ({o.level})"
        self.status(f"Uno in {CHANNEL}: you are {o.nick}, against {players}; rules {o.preset}.")
        self.status(
            "Type as on IRC: .p r5 / .p w g (wild, green) / .d (draw) / .pa (pass) / .cards / "
            ".top / .unohelp; .quit or Ctrl-D leaves."
        )

    # --- game state --------------------------------------------------------------------

    def _table_open(self) -> bool:
        return irc_lower(CHANNEL) in self.bot.tables

    def _check_end(self) -> None:
        """After every input and timer: when the table has gone, offer the next game."""
        open_now = self._table_open()
        if self._playing and not open_now and not self.done.done():
            self.status(
                "Game over. .new deals another with the same players (or .uno, .addbot "
                "[easy|normal|hard], .deal to set one up yourself); .quit leaves."
            )
        self._playing = open_now

    def finish(self) -> None:
        if not self.done.done():
            self.done.set_result(None)

    def interrupt(self) -> None:
        """Ctrl-C: leave as quietly as ``.quit`` (the terminal has just echoed ``^C``, so end
        that line first: the shell's prompt then starts on a line of its own)."""
        if not self.done.done():
            self._write("")
        self.finish()


def _lines(stream: TextIO) -> Iterator[str]:
    """Lines from ``stream``, read from its file descriptor when it has one.

    ``os.read`` on the descriptor holds no lock of the ``sys.stdin`` object, so this thread,
    still blocked in a read when the program ends, can't trip the interpreter's shutdown
    (which may close ``sys.stdin`` and would wait for that lock). Bytes are decoded leniently,
    as the IRC adapter does: a stray latin-1 byte is not a reason to end the game.
    """
    try:
        fd = stream.fileno()
    except (AttributeError, OSError, ValueError):
        yield from iter(stream.readline, "")
        return
    decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
    pending = ""
    while chunk := os.read(fd, 4096):
        pending += decoder.decode(chunk)
        *complete, pending = pending.split("\n")
        yield from complete
    pending += decoder.decode(b"", final=True)
    if pending:
        yield pending


def _reader(stream: TextIO, loop: asyncio.AbstractEventLoop, game: TerminalGame) -> None:
    """Reads lines on its own thread (blocking reads never stall the loop); EOF ends the game."""
    try:
        for raw in _lines(stream):
            loop.call_soon_threadsafe(game.line, raw)
    except (OSError, ValueError):
        pass
    with contextlib.suppress(RuntimeError):  # the loop may already be closed
        loop.call_soon_threadsafe(game.finish)


def hard_budget(environ: Mapping[str, str] | None = None) -> float:
    """The ``hard`` level's search time per move in milliseconds: 200, or ``$UNOBOT_HARD_BUDGET_MS``
    (1 to 10000; tests play whole games against ``hard`` with a few ms a move). Not an option:
    players choose a level, not a budget."""
    env = os.environ if environ is None else environ
    try:
        value = float(env.get(HARD_BUDGET_ENV, ""))
    except ValueError:
        return DEFAULT_HARD_BUDGET
    return value if 1 <= value <= 10_000 else DEFAULT_HARD_BUDGET


def run(options: PlayOptions, stdin: TextIO, stdout: TextIO) -> int:
    """Play until EOF, ``.quit`` or Ctrl-C; returns the exit status."""
    color = use_color(options.color, stdout)
    store = None
    if options.database:
        from unobot.stats.sql import SqlStatsStore

        try:
            store = SqlStatsStore(options.database, network="terminal")
        except Exception as err:  # a wrong URL or driver: one line, as the bot's config errors
            print(f"unobot play: can't open --database {options.database}: {err}", file=sys.stderr)
            return 2

    def write(line: str) -> None:
        stdout.write(line + "\n")
        stdout.flush()

    loop = asyncio.new_event_loop()
    game = TerminalGame(options, loop, write, color=color, echo=not _isatty(stdin), store=store)
    try:
        with contextlib.suppress(NotImplementedError, RuntimeError):  # Windows; not main thread
            loop.add_signal_handler(signal.SIGINT, game.interrupt)
        game.welcome()
        game.start()  # before the first typed line can arrive
        threading.Thread(
            target=_reader, args=(stdin, loop, game), name="stdin", daemon=True
        ).start()
        loop.run_until_complete(game.done)
    except KeyboardInterrupt:
        pass
    finally:
        with contextlib.suppress(Exception):
            loop.close()
        if store is not None:
            store.close()
    return 0


def _isatty(stream: TextIO) -> bool:
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


def main(argv: list[str]) -> int:
    options = parse_args(argv)
    try:
        return run(options, sys.stdin, sys.stdout)
    except BrokenPipeError:
        # Output closed under us: point stdout at nowhere so the interpreter's final flush
        # doesn't print a second error, and leave quietly.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
