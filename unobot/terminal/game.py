"""``unobot play``: a game of Uno in a terminal against computer players, with no network.

The point is to run *the bot itself*: the same :class:`~unobot.core.bot.Bot`, the same plugins, the
same commands and wording as on IRC, so what a player learns here works in a channel and the
terminal game exercises the real code paths. Only the edge is replaced:

- :class:`TerminalTransport` implements :class:`~unobot.irc.transport.Transport` by printing what
  the bot says, the way an IRC client shows it: channel lines as ``<unobot> ...``, the NOTICEs
  to the human (their hand, answers to mistakes) as ``-unobot- ...``. Lines addressed to anyone
  else (computer players' hands, should the bot send them) are never printed: the terminal shows
  exactly what the human's IRC client would.
- mIRC formatting in those lines (cards in colour, the playable ones in bold) becomes ANSI
  escapes on a terminal and is stripped otherwise (:func:`mirc_to_ansi`, a pure function).
- :class:`LoopScheduler` implements :class:`~unobot.irc.transport.Scheduler` on an asyncio event
  loop from the standard library: ``loop.call_later``/``TimerHandle.cancel`` are exactly the
  protocol, and a single loop keeps the core single-threaded as on IRC (no new dependency).
- When stdin and stdout are both a terminal, lines are read with a line editor
  (:mod:`~unobot.terminal.prompt`, prompt_toolkit: editing, history, the input line kept whole
  while moves are printed, and a ``your turn>`` prompt as the cue). Otherwise (a pipe, a file,
  a transcript) stdin is read by a daemon thread that hands each line to the loop
  (``call_soon_threadsafe``): unlike ``loop.add_reader`` this works for a pipe and a
  redirected regular file alike, and on every platform.
- The human's own turn is said to them: ``Top: R5. Your turn.``, not ``me's turn.``
  (:func:`~unobot.terminal.transport.second_person`), and their hand is shown when it comes.

The game starts the way a channel would (``.uno``, ``.addbot LEVEL`` once per computer player,
``.deal``), so computer players come from the same ``.addbot`` command IRC users have.

The session's language (``--lang``, else the environment's) is the bot's configured language
(``BotConfig.language``), so the game's lines and replies are in it; the program's own lines
(domain ``terminal``: the welcome, the prompt's cue, "Game over") are said in the human's
language as the bot knows it, so ``.unolang me fr`` (or ``.unolang fr`` for the pseudo-channel)
switches those too, as on IRC.
"""

from __future__ import annotations

import asyncio
import codecs
import contextlib
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from random import Random
from typing import TYPE_CHECKING, TextIO

from unobot.core.dispatch import CommandThrottle
from unobot.core.settings import MemorySettings
from unobot.engine import preset
from unobot.i18n import domain, speaking
from unobot.irc.casemap import irc_eq, irc_lower
from unobot.irc.transport import Incoming, Kind
from unobot.stats.recorder import GameRecorder
from unobot.terminal.ansi import use_color
from unobot.terminal.options import (
    CHANNEL,
    QUIT_WORDS,
    TURN_TIMEOUT,
    PlayOptions,
    hard_budget,
    parse_args,
)
from unobot.terminal.transport import LoopScheduler, TerminalTransport

_, ngettext = domain("terminal")

if TYPE_CHECKING:
    from unobot.core.bot import Bot
    from unobot.stats import StatsStore

__all__ = ["TerminalGame", "main", "run"]


class _Unthrottled(CommandThrottle):
    """A throttle that allows everything (see :class:`TerminalGame`)."""

    def allow(
        self,
        who: str,
        now: float,
        channel: str | None = None,
        *,
        move: bool = False,
        nick: str = "",
        timely: bool = False,
    ) -> bool | None:
        return True

    def refused_timely(self, nick: str, now: float) -> None:
        pass

    def charge(self, who: str, now: float, channel: str | None = None, nick: str = "") -> None:
        pass


class _TerminalSettings(MemorySettings):
    """Preferences in memory, with cards formatted as the terminal shows them.

    The bot formats a player's hand in colour unless they said ``.unocolors off``; the
    terminal then strips the codes when it shows no colour (``--color never``, a pipe), and
    with them the bold that marks the playable cards of the turn's hand. Defaulting to the
    terminal's choice gets the plain marks instead (``[R5]``)."""

    def __init__(self, color: bool) -> None:
        super().__init__()
        self._default_colors = color

    def colors(self, player: str) -> bool:
        return self._colors.get(player, self._default_colors)


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
        from unobot.core.bot import Bot, BotConfig
        from unobot.core.computers import ComputerConfig, InlineDecider
        from unobot.core.table import TableConfig

        self.options = options
        self.loop = loop
        self.color = color
        self.echo = echo
        self.done: asyncio.Future[None] = loop.create_future()
        self._write_raw = write
        self.transport = TerminalTransport(
            self._write, options.nick, color=color, lang=options.lang
        )
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
        config = BotConfig(
            table=table,
            network="terminal",
            bots=bots,
            stats_cooldown=0.0,
            language=options.lang,  # the channel's and the human's: every game line in it
        )
        rng = Random(options.seed) if options.seed is not None else None
        # Preferences live in memory: a stats database may hold a channel's .unorules from
        # IRC, which must not override --preset here.
        recorder = None
        if store is not None:
            recorder = GameRecorder.following(store, "terminal", self.scheduler)
        self.bot: Bot = Bot(
            self.transport,
            self.scheduler,
            _TerminalSettings(color),
            config,
            rng=rng,
            store=store,
            recorder=recorder,
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
        self.transport.language = self._language_of
        self._playing = False
        self.on_change: Callable[[], None] = lambda: None
        """Called after every input and timer: the line editor redraws its prompt (the turn
        cue may have changed)."""

    # --- output ------------------------------------------------------------------------

    def _write(self, line: str) -> None:
        try:
            self._write_raw(line)
        except (BrokenPipeError, ValueError):  # output closed (`| head`): nobody is watching
            self.finish()

    def status(self, text: str) -> None:
        """A line from the terminal program itself (not the bot), marked like a client's.

        ``text`` is built by the caller under :meth:`speaking` (see there)."""
        mark = "\x1b[2m***\x1b[0m" if self.color else "***"
        self._write(f"{mark} {text}")

    @property
    def lang(self) -> str:
        """The human's language: ``--lang`` (the bot's), or what ``.unolang`` changed it to."""
        return self._language_of(self.options.nick)

    def _language_of(self, target: str) -> str:
        """The language the bot speaks to ``target``: the pseudo-channel's, or the human's."""
        if irc_eq(target, CHANNEL):
            return self.bot.channel_language(CHANNEL)
        return self.bot.person_language(irc_lower(target), CHANNEL)

    def speaking(self) -> contextlib.AbstractContextManager[str]:
        """The session's language, around every line the program itself builds: a line may be
        built in a callback from the stdin thread or a timer, whose context is not the one
        ``run`` started in, so the language is set where the words are chosen."""
        return speaking(self.lang)

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
                with self.speaking():
                    self.status(_("A game is on: .unostop ends it, then .new starts another."))
            else:
                self.start()
            return
        if text.startswith("/"):  # an IRC client's command: sent as chat it would only confuse
            with self.speaking():
                self.status(
                    _(
                        "{command} is not known here: type commands as in the channel "
                        "(.p r5, .cards, .unohelp); .quit leaves.",
                        command=text.split()[0][:20],
                    )
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
        with self.speaking():
            self.status(
                ngettext(
                    "Uno in {channel}: you are {nick}, against {n} computer player ({level}); "
                    "rules {preset}.",
                    "Uno in {channel}: you are {nick}, against {n} computer players ({level}); "
                    "rules {preset}.",
                    o.bots,
                    channel=CHANNEL,
                    nick=o.nick,
                    level=o.level,
                    preset=o.preset,
                )
            )
            self.status(
                _(
                    "Type as on IRC: .p r5 / .p w g (wild, green) / .d (draw) / .pa (pass) / "
                    ".cards / .top / .unohelp; .quit or Ctrl-D leaves."
                )
            )

    # --- game state --------------------------------------------------------------------

    def _table_open(self) -> bool:
        return irc_lower(CHANNEL) in self.bot.tables

    def my_turn(self) -> bool:
        """Whether the game waits for the human (to play, draw, pick a colour...)."""
        table = self.bot.tables.get(irc_lower(CHANNEL))
        status = table.status() if table is not None else None
        return status is not None and irc_eq(status.current, self.options.nick)

    def _check_end(self) -> None:
        """After every input and timer: when the table has gone, offer the next game."""
        open_now = self._table_open()
        if self._playing and not open_now and not self.done.done():
            with self.speaking():
                self.status(
                    _(
                        "Game over. .new deals another with the same players (or .uno, .addbot "
                        "[easy|normal|hard], .deal to set one up yourself); .quit leaves."
                    )
                )
        self._playing = open_now
        self.on_change()

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


def run(options: PlayOptions, stdin: TextIO, stdout: TextIO) -> int:
    """Play until EOF, ``.quit`` or Ctrl-C; returns the exit status."""
    color = use_color(options.color, stdout)
    store = None
    if options.database:
        from unobot.replay.figures import move_figures
        from unobot.stats.sql import SqlStatsStore

        try:
            store = SqlStatsStore(options.database, network="terminal", analyse=move_figures)
        except Exception as err:  # a wrong URL or driver: one line, as the bot's config errors
            with speaking(options.lang):
                problem = _(
                    "unobot play: can't open --database {url}: {error}",
                    url=options.database,
                    error=err,
                )
            print(problem, file=sys.stderr)
            return 2

    interactive = _isatty(stdin) and _isatty(stdout)

    def write(line: str) -> None:
        # Interactive, sys.stdout is prompt_toolkit's proxy (patch_stdout), which prints above
        # the input line: looked up at each write, as the patch comes and goes.
        out = sys.stdout if interactive else stdout
        out.write(line + "\n")
        out.flush()

    loop = asyncio.new_event_loop()
    game = TerminalGame(options, loop, write, color=color, echo=not _isatty(stdin), store=store)
    try:
        with contextlib.suppress(NotImplementedError, RuntimeError):  # Windows; not main thread
            loop.add_signal_handler(signal.SIGINT, game.interrupt)
        if interactive:
            _play_interactive(game, loop)
        else:
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


def _play_interactive(game: TerminalGame, loop: asyncio.AbstractEventLoop) -> None:
    """The game with prompt_toolkit's line editor reading the terminal (see
    :mod:`~unobot.terminal.prompt`); imported here, so piped play never loads it."""
    from prompt_toolkit.patch_stdout import patch_stdout

    from unobot.terminal.prompt import read_lines, stop

    with patch_stdout(raw=True):  # raw: the ANSI colours pass through
        game.welcome()
        game.start()
        task = loop.create_task(read_lines(game))
        try:
            loop.run_until_complete(game.done)
        finally:
            stop(task, loop)


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
