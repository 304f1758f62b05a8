"""Command line: ``unobot`` / ``python unobot.py``.

With no arguments the bot runs on an embedded default: a local IRC server inside the process on
127.0.0.1:6667, the bot in ``#uno``, stats in ``./stats.db``. ``--config FILE`` or the flags
connect it to a real network instead. ``unobot demo`` plays a seeded demo hand in the terminal;
``unobot play`` is a game against computer players in the terminal (``unobot.terminal``).
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import logging
import os
import re
import signal
import sys
import time
from collections.abc import Sequence
from random import Random
from types import ModuleType
from typing import TYPE_CHECKING, Any

from unobot import config as config_mod
from unobot.ai.legal import without_voluntary_draw
from unobot.core.admins import AdminCode
from unobot.core.plugin import PluginError, load_plugins
from unobot.core.render import hand_text
from unobot.core.render_irc import Cards, channel_text
from unobot.core.updates import EngineEvents, Update
from unobot.engine import PRESET_ALIASES, PRESETS, Game, preset

if TYPE_CHECKING:
    from unobot.core.settings import BackgroundSettings
    from unobot.irc.embedded_server import EmbeddedServer
    from unobot.stats.background import BackgroundStats
    from unobot.stats.worker import WorkerScheduler

log = logging.getLogger("unobot")
UPKEEP_SECONDS = 30.0


def demo(players: int, preset_name: str, seed: int) -> int:
    """Play one hand between random players and print it; return the action count. They choose
    uniformly among their legal moves, a card rather than a draw the rules offer beside it."""
    rules = preset(preset_name)
    names = ["alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi", "ivan", "judy"]
    names = names[:players]
    rng = Random(seed)
    agent = Random(seed + 1)
    game, events = Game.deal(players, rules, rng)
    print(f"Demo hand: {players} players, rules {rules.name}, seed {seed}")
    for seat, name in enumerate(names):
        print(f"  {name}'s hand: {hand_text(game.hand(seat))}")
    actions = 0
    fmt = Cards(False)
    while True:
        # As the channel words it (one renderer: unobot.core.render_irc), in plain letters.
        update = Update(events=[EngineEvents(tuple(events), tuple(names))])
        text = channel_text(update, fmt)
        if text:
            print(text)
        if game.over:
            return actions
        seat = game.current
        legal = without_voluntary_draw(game.legal_actions(seat), game.phase)
        events = game.apply(seat, agent.choice(legal))
        actions += 1


BOT_LEGAL_CACHE = 256
"""Entries per generation of the engine's legal-action cache in the bot's process (its
computer players' workers keep the engine's default): full within ~100 games, ~80 kB."""


def tune_gc() -> None:
    """Keep garbage collection pauses out of command latency.

    After start-up nearly every object (modules, tables, cached actions) lives for the whole
    run; ``gc.freeze`` takes them out of the collector's sight, so a full collection no longer
    walks them (measured: 24-44 ms pauses of the reactor before, see ``bench irc``). Young
    collections are made rarer too: the bot allocates many short-lived records per command.
    """
    gc.collect()
    gc.freeze()
    gc.set_threshold(3_000, 20, 50)


def start_embedded_server(
    host: str, port: int, bots: Sequence[str] = (), motd: Sequence[str] = ()
) -> EmbeddedServer:
    """The local IRC server (``unobot.irc.embedded_server``), in a daemon thread of this process.

    ``bots``: the bot's nicks; they don't count as someone in a channel, so the first person
    to join the bot's channel gets +o (channel operators may change the rules, stop games and
    run tournaments). ``motd``: the message of the day."""
    from unobot.irc import embedded_server

    try:
        return embedded_server.start(host, port, bots=bots, motd=motd)
    except OSError as err:
        raise config_mod.ConfigError(
            f"can't listen on {host}:{port} ({err.strerror}); try --port 6668"
        ) from None


def version() -> str:
    """``unobot 0.1.0 (compiled engine)``: the installed distribution's version and which
    engine build runs (a checkout that was never installed says ``unknown``)."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as dist_version

    from unobot.engine.cards import COMPILED

    try:
        number = dist_version("unobot")
    except PackageNotFoundError:
        number = "unknown"
    return f"unobot {number} ({'compiled' if COMPILED else 'pure Python'} engine)"


def load_settings(
    argv: list[str], prog: str = "unobot"
) -> tuple[config_mod.Settings, list[ModuleType]]:
    """Settings from the command line and the plugins they name, or exit 2 with one line."""
    parser = argparse.ArgumentParser(
        prog=prog,
        description="Uno for IRC channels. With no options: a local IRC server and the bot in "
        "#uno. Subcommands: play (a game against computer players in the terminal), demo (a "
        "hand in the terminal), arena (computer players against each other), check-config "
        "FILE (validate a config and exit), tournament export NAME (a tournament as CSV), "
        "ratings rebuild, records rebuild, replay ID (a recorded game in the terminal), web "
        "(the stats site).",
    )
    parser.add_argument("--version", action="version", version=version())
    config_mod.add_arguments(parser)
    args = parser.parse_args(argv)
    try:
        settings = config_mod.load(args)
        plugins = load_plugins(settings.bot.plugins)
    except (config_mod.ConfigError, PluginError) as err:
        print(f"{prog}: {err}", file=sys.stderr)
        raise SystemExit(2) from None
    return settings, plugins


def check_config(argv: list[str]) -> int:
    """``unobot check-config [FILE] [the bot's options]``: load and check everything the bot
    would at start with ``--config FILE`` and those options (every key, the rules, the
    plugins, the database URL and its folder), print a summary and exit 0, or one line and
    exit 2. Connects to nothing and creates nothing: for a deploy script. A journal folder
    that a running bot holds gets a note (fine before a restart; not for a second bot)."""
    parser = argparse.ArgumentParser(
        prog="unobot check-config",
        usage="%(prog)s [FILE] [the bot's options, e.g. --database URL]",
        description="Check settings as the bot would at start, and exit.",
    )
    parser.add_argument(
        "file", metavar="FILE", nargs="?", help="TOML settings (see unobot.toml.example)"
    )
    if not argv or argv[0] in ("-h", "--help"):
        parser.parse_args(argv)
        parser.error("give a FILE or the bot's options to check")
    file = argv[0] if not argv[0].startswith("-") else None
    options = argv[1:] if file is not None else argv
    settings, plugins = load_settings(
        (["--config", file] if file is not None else []) + options, prog="unobot check-config"
    )
    servers = ", ".join(
        f"{s.host}:{s.effective_port}{' (TLS)' if s.tls else ''}" for s in settings.irc.servers
    )
    where = "the embedded local server" if settings.embedded else servers
    print(
        f"{file if file is not None else 'settings'}: ok. {settings.irc.nick} on {where}, "
        f"channels {', '.join(settings.irc.channels)}; rules {settings.bot.table.rules.name}; "
        f"database {_redacted(settings.database)}; plugins "
        f"{', '.join(p.__name__ for p in plugins)}."
    )
    if settings.journal:
        from unobot.core.journal import folder_holder

        pid = folder_holder(settings.journal)
        if pid is not None:
            print(
                f"note: journal folder {os.path.abspath(settings.journal)} is in use by a "
                f"running unobot{f' (pid {pid})' if pid else ''}: fine before restarting that "
                "bot; a second bot needs its own bot.journal."
            )
    return 0


def take_journal_folder(folder: str) -> int | None:
    """Lock the journal folder for this process's life (``journal.lock_folder``), before
    anything reads it or starts listening: the lock's descriptor, or None when the folder is
    unusable (logged: the bot plays on without a journal, never on an unlocked one). Another
    live bot on the folder is a ConfigError: exit 2, one line."""
    from unobot.core.journal import FolderInUse, lock_folder

    try:
        return lock_folder(folder)
    except FolderInUse as err:
        holder = f" (pid {err.pid})" if err.pid else ""
        raise config_mod.ConfigError(
            f"journal folder {os.path.abspath(err.folder)} is in use by another unobot"
            f"{holder}; a second bot needs a folder of its own: set bot.journal in its "
            "config, or start it in another directory"
        ) from None
    except OSError as err:
        log.error("journal folder %s unusable (%s): games won't survive a restart", folder, err)
        return None


def _redacted(url: str) -> str:
    """A database URL without its password, fit to print."""
    return re.sub(r"(://[^:/@]*:)[^@]*@", r"\1***@", url)


def database_url(config: str | None, database: str | None) -> str:
    """The stats database a subcommand reads, found as the bot finds it: ``database`` (its
    ``--database``), else the ``config`` file's ``stats.database``, else ``./stats.db``.
    Raises ConfigError."""
    parser = argparse.ArgumentParser(add_help=False)
    config_mod.add_arguments(parser)
    args = parser.parse_args(["--config", config] if config else [])
    args.database = database
    return config_mod.load(args).database


def database_stores(
    url: str, network: str, timeout: float, scheduler: WorkerScheduler
) -> tuple[BackgroundSettings, BackgroundStats]:
    """The settings and stats stores on one database worker: every database call runs on
    that thread, never the reactor's, so a stalled or vanished database can delay a
    leaderboard, never a game (``unobot.stats.worker``). Nothing connects here."""
    from unobot.core.settings import BackgroundSettings, DatabaseSettings
    from unobot.replay.figures import move_figures
    from unobot.stats.background import BackgroundStats
    from unobot.stats.sql import SqlStatsStore
    from unobot.stats.worker import DbWorker

    worker = DbWorker(scheduler, timeout=timeout)
    settings = BackgroundSettings(lambda: DatabaseSettings(url, timeout), worker)
    # Games are recorded in the same database; queries see only this network's players.
    stats = BackgroundStats(
        SqlStatsStore(
            url, network=network, timeout=timeout, connect_now=False, analyse=move_figures
        ),
        worker,
    )
    return settings, stats


def give_director_its_database(bot: Any, url: str, timeout: float, stats: BackgroundStats) -> Any:
    """The tournament director (when the tournament plugin is loaded) keeps its tournaments in
    the stats database, through the stats' database worker, and reads back the unfinished
    ones (after the journal restored the tables: a tournament's game at a restored table goes
    on there). Returns the tournament log to close at the end, or None."""
    from unobot.tournament.director import Director
    from unobot.tournament.store import SqlTournamentLog

    director = getattr(bot, "director", None)
    if not isinstance(director, Director):
        return None
    log_ = SqlTournamentLog.from_url(url, timeout)
    director.store = log_
    director.submit = stats.worker.submit
    director.loaded = False
    director.load()
    return log_


def live_writer(stats: BackgroundStats, network: str, scheduler: Any) -> Any:
    """The live view's writer (``unobot.stats.live``) on the stats' database worker, started
    (this network's stale rows cleared first); None for a store without a database."""
    from unobot.stats.live import LiveWriter

    submit = stats.live_submit()
    if submit is None:
        return None
    writer = LiveWriter(submit, scheduler, network)
    writer.start()
    return writer


def keep_up(
    scheduler: WorkerScheduler,
    settings: BackgroundSettings,
    stats: BackgroundStats,
    every: float = UPKEEP_SECONDS,
) -> None:
    """Every ``every`` seconds: queued games and settings written once the database is back,
    the leaderboard summary kept current, all on the worker, off the path of any command."""

    def upkeep() -> None:
        try:
            stats.maintain()
            settings.maintain()
        finally:
            scheduler.call_later(every, upkeep)

    scheduler.call_later(every, upkeep)


ADMIN_CODE_FILE = "unobot-admin-code"
"""Where the admin code is kept when the bot has no terminal (a service): in its working
folder, readable by its user only."""


def console(text: str) -> None:
    """Print ``text`` as one line on the console, in a single write.

    Why not ``print``: it writes the text and its newline apart, and with unbuffered output
    (``PYTHONUNBUFFERED``, common under services and containers) a log line from another
    thread can land between the two, gluing itself to the end of this one (seen with the
    admin code's line)."""
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


class AdminCodeShown:
    """Puts this run's admin code (``unobot.core.admins``) before the operator, and only
    them: printed on the console when it is a terminal; otherwise (a service, output to a
    file or a pipe) written to :data:`ADMIN_CODE_FILE`, mode 0600, and the console says where.
    Never through ``logging``: a log (a file, the journal, a paste in a bug report) is often
    read by others. Each new code (one is shown again once a code has been used) replaces the
    last; :meth:`remove` deletes the file (when no code is taken any more, and at the end)."""

    def __init__(self, nick: str, prefix: str, terminal: bool, path: str = ADMIN_CODE_FILE) -> None:
        self.nick, self.prefix, self.terminal = nick, prefix, terminal
        self.path = os.path.abspath(path)
        self.shown = 0
        self._wrote = False

    def show(self, code: str) -> None:
        """Raises OSError when the file can't be written (the first time: no code this run)."""
        first = self.shown == 0
        self.shown += 1
        say = f"/msg {self.nick} {self.prefix}unoadmin"
        if self.terminal:
            if first:
                console(
                    f"Admin code for this run: {code} (say `{say} {code}` to be a bot admin "
                    "until the bot stops, whatever the order of joining; a code works once, "
                    "then the next one is shown here)."
                )
            else:
                console(f"unobot: the next admin code: {code}")
            return
        try:
            self._write(code)
        except OSError as err:
            if first:
                raise
            log.warning("the next admin code can't be written to %s (%s)", self.path, err)
            return
        if first:
            console(
                f"Admin code for this run: in {self.path} (readable by this user only; say "
                f"`{say} CODE` to be a bot admin until the bot stops; a code works once, then "
                "the file holds the next one)."
            )

    def _write(self, code: str) -> None:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self.path)  # a fresh file: never someone else's, nor a link
        fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
        with os.fdopen(fd, "w", encoding="ascii") as file:
            file.write(code + "\n")
        self._wrote = True

    def remove(self) -> None:
        if self._wrote:
            with contextlib.suppress(OSError):
                os.unlink(self.path)
            self._wrote = False


FAREWELL_SECONDS = 8.0
"""The longest a stop waits for the farewell lines to leave (a server's flood budget may hold
them back a few seconds behind the last moves); systemd's unit gives 20 s."""


def quit_when_sent(adapter: Any, extras: Sequence[Any], deadline: float) -> None:
    """QUIT on every connection once nothing waits to be sent (the farewell lines and the
    moves before them: a QUIT right away lost them behind a slow server's send budget), or
    at ``deadline`` (``time.monotonic()``) at the latest. Runs on ``adapter``'s reactor."""
    if time.monotonic() < deadline and any(c.queued for c in (adapter, *extras)):
        adapter.call_later(0.05, lambda: quit_when_sent(adapter, extras, deadline))
        return
    for extra in extras:
        extra.call_soon_threadsafe(lambda extra=extra: extra.stop("unobot shutting down"))
    adapter.stop("unobot shutting down")


def stop_line(signum: int, games: int, restored: bool, embedded: bool) -> str:
    """The one line a stop prints on the console (Ctrl-C, SIGTERM): what becomes of the games
    and, on the embedded server, of the people connected to it."""
    try:
        name = signal.Signals(signum).name
    except ValueError:
        name = f"signal {signum}"
    line = f"unobot: stopping ({'Ctrl-C' if name == 'SIGINT' else name})"
    if games:
        if restored:
            fate = "will be restored at the next start"
        else:
            fate = "ends here" if games == 1 else "end here"
        line += f"; {games} game{'s' if games != 1 else ''} {fate}"
    if embedded:
        line += "; the local IRC server stops too (clients reconnect when it is back)"
    return line + "."


def run_bot(settings: config_mod.Settings, plugins: list[ModuleType] | None = None) -> None:
    """Connect, join and play until interrupted."""
    from unobot.core.bot import Bot
    from unobot.core.journal import Journal
    from unobot.engine.game import set_legal_cache_limit
    from unobot.irc.adapter import IrcAdapter
    from unobot.irc.pool import ConnectionPool, extra_settings
    from unobot.stats.recorder import GameRecorder

    set_legal_cache_limit(BOT_LEGAL_CACHE)
    # First: a second bot on this journal folder stops here, before it listens or reads.
    journal_lock = take_journal_folder(settings.journal) if settings.journal else None
    server = settings.irc.servers[0]
    embedded = None
    if settings.embedded:
        channels = ", ".join(settings.irc.channels)
        bot_nicks = [settings.irc.nick, *settings.irc.alt_nicks]
        bot_nicks += [
            extra.nick for extra in extra_settings(settings.irc, settings.irc.connections)
        ]
        embedded = start_embedded_server(
            server.host,
            server.effective_port,
            bots=bot_nicks,
            motd=[
                f"unobot's local IRC server. Join {channels} and type .uno to open a game.",
                "The first person to join a channel is its operator (@): operators change the "
                "rules (.unorules), stop games and run tournaments.",
                "Your hands come by NOTICE (irssi shows them in its status window); .unohand "
                "query sends them as private messages, in a window of their own.",
            ],
        )
        console(
            f"unobot: local IRC server on {server.host}:{server.effective_port}; the bot joins "
            f"{channels} as {settings.irc.nick}.\n"
            f"Connect any IRC client to {server.host} port {server.effective_port} "
            f"(e.g. `irssi -c {server.host} -p {server.effective_port}`), join {channels} "
            "and type .uno to open a game (.unohelp lists the commands; in irssi, .unohand "
            "query brings your hands to a window of their own). The first to join "
            "is the channel's operator (@), who may change the rules (.unorules). Ctrl-C stops "
            "(this IRC server too: clients reconnect when the bot is back)."
        )
    holder: dict[str, Bot] = {}
    adapter = IrcAdapter(settings.irc, lambda incoming: holder["bot"].handle(incoming))
    # Extra connections only send (the primary reads every channel): see unobot.irc.pool.
    pool = ConnectionPool(
        adapter,
        [IrcAdapter(extra, lambda incoming: None)
         for extra in extra_settings(settings.irc, settings.irc.connections)],
    )  # fmt: skip
    try:
        store, stats = database_stores(
            settings.database, settings.bot.network, settings.db_timeout, adapter
        )
    except (ValueError, RuntimeError) as err:
        # The settings check the URL's form (stats.urls.database_url_problem); whatever the
        # driver still refuses gets the same one line, without the password.
        raise config_mod.ConfigError(f"stats.database: {_redacted(str(err))}") from None
    recorder = GameRecorder.following(stats, settings.bot.network, adapter)
    journal = Journal(settings.journal, adapter.now) if journal_lock is not None else None
    live = live_writer(stats, settings.bot.network, adapter) if settings.live else None
    bot = Bot(
        pool if pool.extras else adapter,
        adapter,
        store,
        settings.bot,
        plugins=plugins,
        store=stats,
        recorder=recorder,
        journal=journal,
        live=live,
    )
    holder["bot"] = bot
    code_shown = None
    if settings.bot.admin_code:
        code_shown = AdminCodeShown(settings.irc.nick, settings.bot.prefix, sys.stdout.isatty())
        try:
            bot.admin_code = AdminCode(code_shown.show, code_shown.remove)
        except OSError as err:
            log.warning("no admin code this run: can't write %s (%s)", code_shown.path, err)
    restored = bot.restore()
    if restored:
        log.info("%d game(s) restored; each goes on when the bot is back in its channel", restored)
    tournaments = give_director_its_database(bot, settings.database, settings.db_timeout, stats)

    asked: list[int] = []
    """The stop signals received (the first one stops; a second one hurries the stop)."""

    def stop(signum: int, frame: object) -> None:
        asked.append(signum)
        if len(asked) == 1:
            adapter.call_later(0, farewell)
        else:  # Ctrl-C again: quit now, without waiting for the farewell lines to leave
            adapter.call_soon_threadsafe(lambda: quit_when_sent(adapter, pool.extras, 0.0))

    def farewell() -> None:
        # One line per channel with a game (on the embedded server, in every channel: its
        # people lose their connection too), then QUIT once the lines have left.
        said = 0
        try:
            games = len(bot.tables)
            said = bot.farewell(server_stops=embedded is not None)  # in each channel's language
            console(stop_line(asked[0], games, journal is not None, embedded is not None))
        finally:  # whatever happened above, the bot stops
            quit_when_sent(
                adapter, pool.extras, time.monotonic() + (FAREWELL_SECONDS if said else 0)
            )

    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)

    keep_up(adapter, store, stats)
    tune_gc()
    pool.start_extras()
    adapter.run()
    bot.computers.close()  # the hard players' worker processes end (they ignore Ctrl-C)
    pool.stop_extras("unobot shutting down")
    if embedded is not None:
        embedded.shutdown("unobot stopped: reconnect in a moment")
        embedded.server_close()
    store.close()
    if live is not None:
        live.close()  # this bot's games leave /live (queued before the stats' last writes)
    stats.close(wait=2.0)  # what the database can't take in time stays in the spool
    if tournaments is not None:
        tournaments.close()
    if journal_lock is not None:
        os.close(journal_lock)  # (the process's end would let it go too)
    if code_shown is not None:
        code_shown.remove()  # the code dies with the run


def main(argv: list[str] | None = None) -> None:
    """The command line. Ctrl-C at any moment ends it with one line, never a traceback: the
    bot and ``unobot web`` handle their stop signals themselves once started (one line
    each); before that, or in a command that is not meant to run for long, this says it."""
    try:
        _main(sys.argv[1:] if argv is None else argv)
    except KeyboardInterrupt:
        print("unobot: stopped (Ctrl-C).", file=sys.stderr)
        raise SystemExit(130) from None


def _main(args_list: list[str]) -> None:
    if args_list and args_list[0] == "import-scores":
        from unobot.stats.importer import main as import_scores

        raise SystemExit(import_scores(args_list[1:]))
    if args_list and args_list[0] == "tournament":
        from unobot.tournament.export import main as tournament

        raise SystemExit(tournament(args_list[1:], database_url))
    if args_list and args_list[0] == "ratings":
        from unobot.stats.ratings_cli import main as ratings

        raise SystemExit(ratings(args_list[1:], database_url))
    if args_list and args_list[0] == "records":
        from unobot.replay.records_cli import main as records

        raise SystemExit(records(args_list[1:], database_url))
    if args_list and args_list[0] == "web":
        from unobot.web.cli import main as web

        raise SystemExit(web(args_list[1:], database_url))
    if args_list and args_list[0] == "replay":
        from unobot.replay.cli import main as replay

        raise SystemExit(replay(args_list[1:], database_url))
    if args_list and args_list[0] == "arena":
        from unobot.ai.arena import main as arena

        raise SystemExit(arena(args_list[1:]))
    if args_list and args_list[0] == "play":
        from unobot.terminal.game import main as play

        raise SystemExit(play(args_list[1:]))
    if args_list and args_list[0] == "demo":
        parser = argparse.ArgumentParser(prog="unobot demo", description="Play a demo hand.")
        parser.add_argument("--players", type=int, default=4, help="players (2-10)")
        parser.add_argument(
            "--preset", default="official", choices=sorted([*PRESETS, *PRESET_ALIASES])
        )
        parser.add_argument("--seed", type=int, default=1)
        args = parser.parse_args(args_list[1:])
        if not 2 <= args.players <= 10:
            parser.error("--players must be 2 to 10")
        try:
            demo(args.players, args.preset, args.seed)
        except ValueError as err:
            parser.error(str(err))
        return
    if args_list and args_list[0] == "check-config":
        raise SystemExit(check_config(args_list[1:]))
    settings, plugins = load_settings(args_list)
    logging.basicConfig(
        level=settings.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    try:
        run_bot(settings, plugins)
    except config_mod.ConfigError as err:
        print(f"unobot: {err}", file=sys.stderr)
        raise SystemExit(2) from None


if __name__ == "__main__":
    main()
