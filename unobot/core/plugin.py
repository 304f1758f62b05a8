"""The plugin API: what a command plugin may use, and how plugins are found and loaded.

A plugin is a module of plain functions decorated with the commands they answer (as in Sopel):

    from unobot.core.plugin import Context, command, example

    @command("unoquote")
    @example(".unoquote")
    def unoquote(ctx: Context) -> None:
        ctx.say("Uno!")

The decorators only record metadata; the dispatcher decides (prefix, guards, throttling, error
replies). A handler gets a :class:`Context`: who said what where (``nick``, ``channel``,
``args``, ``now``, ``ident``, ``is_admin``), ``reply`` (a private NOTICE), ``say`` (a line in
the channel the command came from; a NOTICE when it came in private), the channel's table
(``find_table``, ``table`` behind the ``in_table``/``in_game`` guards) and ``bot``, the
:class:`BotApi`: send a line, publish a table update, the settings and stats stores, the
rules and tables. Raising :class:`~unobot.engine.errors.UnoError` answers the user with its
message; any other exception is logged and answered with an apology, never a traceback.

``bot.plugins`` in the config lists the plugins to load (:func:`load_plugins`): module names
(the built-in ``unobot.plugins.uno_game``, ``uno_stats``, ``uno_rules``) or paths of ``.py``
files. This module sits below the bot: the bot core imports no plugin, it loads what it is told.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import re
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from types import ModuleType
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from unobot.core.render_irc import Line
from unobot.engine.errors import UnoError
from unobot.i18n import domain, speak
from unobot.irc.casemap import irc_lower
from unobot.irc.transport import Tag

if TYPE_CHECKING:
    from unobot.core.admins import Claim
    from unobot.core.bot_config import BotConfig
    from unobot.core.settings import SettingsStore
    from unobot.core.table import Table
    from unobot.core.updates import Update
    from unobot.engine import HouseRules
    from unobot.engine.actions import Action
    from unobot.irc.transport import Incoming, Scheduler, Transport
    from unobot.stats import StatsStore

__all__ = [
    "BotApi",
    "CommandMeta",
    "Context",
    "Guard",
    "PluginError",
    "action",
    "command",
    "example",
    "guard",
    "in_channel",
    "in_game",
    "in_table",
    "is_file_spec",
    "load_plugins",
    "meta_of",
    "move",
]


class BotApi(Protocol):
    """The part of the bot a plugin may use (``ctx.bot``)."""

    config: BotConfig
    settings: SettingsStore
    """Players' preferences and channels' rules."""
    store: StatsStore | None
    """Finished games and leaderboards (None: stats are off)."""
    tables: dict[str, Table]
    """Open tables by folded channel name."""
    transport: Transport
    scheduler: Scheduler

    def send(self, line: Line) -> None:
        """Send one line (CR/LF/NUL can't start another)."""

    def publish(self, table: Table, update: Update) -> None:
        """Render and send a table update, and re-arm the table's timers."""

    def open_table(
        self, channel: str, nick: str, ident: str, rules: HouseRules | None = None
    ) -> Table:
        """Open a game in ``channel`` started by ``nick``."""

    def table_for(self, channel: str | None, nick: str) -> Table | None:
        """The channel's table, or in private the one table ``nick`` sits at."""

    def rules_for(self, channel: str) -> HouseRules:
        """The rules a new game in ``channel`` gets."""

    def colors_for(self, table: Table) -> Callable[[str], bool]:
        """Whether a player at ``table`` wants mIRC colours."""

    def hand_query_for(self, table: Table) -> Callable[[str], bool]:
        """Whether a player at ``table`` wants their hands by private message."""

    def channel_language(self, channel: str) -> str:
        """The language spoken in ``channel``."""

    def person_language(self, ident: str, channel: str | None = None) -> str:
        """The language of what is sent to ``ident`` alone (``channel``: where it comes from)."""

    def commands(self) -> dict[str, str]:
        """Each command by its first name (``play`` for ``.p``), with its plugin's module."""

    def ident(self, incoming: Incoming) -> str:
        """The key of the sender's preferences and stats."""

    def is_admin(self, incoming: Incoming) -> bool:
        """Is the sender a bot admin?"""

    def claim_admin(self, incoming: Incoming, person: str, code: str) -> Claim:
        """``.unoadmin CODE``: this run's admin code makes the sender a bot admin."""


@dataclass(slots=True)
class Context:
    """One command being handled: who said what where, and how to answer."""

    bot: BotApi
    incoming: Incoming
    command: str
    args: str

    @property
    def nick(self) -> str:
        return self.incoming.nick

    @property
    def channel(self) -> str | None:
        """The channel the command was said in; None in a private message."""
        return None if self.incoming.private else self.incoming.target

    @property
    def now(self) -> float:
        return self.bot.scheduler.now()

    @property
    def ident(self) -> str:
        """Key for this player's preferences: the services account if known, else the nick."""
        return self.bot.ident(self.incoming)

    @property
    def person(self) -> str:
        """Who is asking, for the command budgets: their services account when known, else
        their host (clones on one host and a nick change are the same person), else the
        nick."""
        if self.incoming.account:
            return "$a:" + irc_lower(self.incoming.account)
        host = self.incoming.userhost.rpartition("@")[2]
        return "$h:" + host.lower() if host else irc_lower(self.incoming.nick)

    @property
    def is_admin(self) -> bool:
        return self.bot.is_admin(self.incoming)

    @property
    def prefix(self) -> str:
        return self.bot.config.prefix

    def find_table(self) -> Table | None:
        """The channel's table, or in private the one table the sender sits at."""
        return self.bot.table_for(self.channel, self.nick)

    @property
    def table(self) -> Table:
        table = self.find_table()
        if table is None:  # guards run first, so this is a plugin bug
            raise RuntimeError("command needs a table but has no guard")
        return table

    @property
    def channel_language(self) -> str:
        """The language of the channel the command was said in (in private: :attr:`language`)."""
        channel = self.channel
        return self.bot.channel_language(channel) if channel else self.language

    @property
    def language(self) -> str:
        """The sender's own language: what replies to them alone are in (``.unolang me``,
        else the channel's: the one they spoke in, or in private the table they sit at)."""
        channel = self.channel
        if channel is None:
            table = self.find_table()
            channel = table.channel if table is not None else None
        return self.bot.person_language(self.ident, channel)

    def reply_tag(self, channel: str | None = None) -> Tag:
        """How a reply to this command waits in the send queue: in the channel's flow (the
        channel it was said in by default), in turn with other people's replies."""
        return Tag(channel if channel is not None else self.channel or "", reply=True,
                   person=self.person)  # fmt: skip

    def reply(self, text: str, *, query: bool = False) -> None:
        """A private answer (NOTICE): mistakes and personal information never go to a channel.
        A translated message (:class:`~unobot.i18n.Text`) is sent in the sender's language.
        ``query``: by private message instead (PRIVMSG, a query window in most clients), for
        what goes where the sender's hands go (``.cards`` to a ``.unohand query`` player)."""
        text = speak(text, self.language)
        self.bot.send(Line("privmsg" if query else "notice", self.nick, text, self.reply_tag()))

    def say(self, text: str) -> None:
        """A line to the channel the command was said in (to the sender, privately, when the
        command came in a private message). CR/LF/NUL can't start another IRC line; the
        adapter splits a line too long for the server between words."""
        channel = self.channel
        if channel is None:
            self.reply(text)
        else:
            text = speak(text, self.bot.channel_language(channel))
            self.bot.send(Line("privmsg", channel, text, self.reply_tag(channel)))

    def publish(self, table: Table, update: Update) -> None:
        self.bot.publish(table, update)


_, ngettext = domain("commands")

Guard = Callable[["Context"], None]
"""Raises UnoError (its message is the reply) when a command may not run in this context."""

F = TypeVar("F", bound=Callable[..., Any])

_ATTR = "__unobot_command__"


@dataclass(slots=True)
class CommandMeta:
    """What the decorators recorded on a handler."""

    names: list[str] = field(default_factory=list)
    examples: list[str] = field(default_factory=list)
    guards: list[Guard] = field(default_factory=list)
    move: bool = False
    """A game move: free when the game accepts it (see ``dispatch.CommandThrottle``)."""
    action: type[Action] | None = None
    """The engine action the move makes (``Play``, ``CallUno`` …): when the table would act
    on it now (``Table.is_timely``), no budget spent by others holds it back."""


def meta_of(func: Callable[..., Any]) -> CommandMeta | None:
    """The recorded metadata of ``func``, or None for a plain function."""
    return getattr(func, _ATTR, None)


def _meta(func: Callable[..., Any]) -> CommandMeta:
    meta = meta_of(func)
    if meta is None:
        meta = CommandMeta()
        setattr(func, _ATTR, meta)
    return meta


def command(*names: str) -> Callable[[F], F]:
    """Answer ``names`` (matched case-insensitively, without the prefix)."""

    def deco(func: F) -> F:
        _meta(func).names.extend(n.lower() for n in names)
        return func

    return deco


def example(text: str) -> Callable[[F], F]:
    """A usage example, for help texts and documentation."""

    def deco(func: F) -> F:
        _meta(func).examples.insert(0, text)
        return func

    return deco


def move(func: F) -> F:
    """Mark a game move (join, deal, play, draw …): the game paces these, so only refused ones
    count against the sender's command allowance."""
    _meta(func).move = True
    return func


def action(kind: type[Action]) -> Callable[[F], F]:
    """Mark a game move that makes the engine action ``kind`` (implies :func:`move`): the
    mover's own move at their turn, or an UNO call or catch in its window, then goes through
    even when others behind the same address spent the command budget (a LAN party)."""

    def deco(func: F) -> F:
        meta = _meta(func)
        meta.move = True
        meta.action = kind
        return func

    return deco


def guard(check: Guard) -> Callable[[F], F]:
    """Run ``check`` before the handler; guards run in the order they appear, top first."""

    def deco(func: F) -> F:
        _meta(func).guards.insert(0, check)
        return func

    return deco


def _need_channel(ctx: Context) -> None:
    if ctx.channel is None:
        raise UnoError(_("say that in the game's channel"))


def _need_table(ctx: Context) -> None:
    if ctx.find_table() is None:
        raise UnoError(
            _("there is no Uno game here: start one with {prefix}uno", prefix=ctx.prefix)
        )


def _need_game(ctx: Context) -> None:
    table = ctx.find_table()
    if table is None or not table.dealt:
        raise UnoError(_("no Uno game is being played here"))


def in_channel(func: F) -> F:
    """Only in a channel (commands that open or join a channel's game)."""
    return guard(_need_channel)(func)


def in_table(func: F) -> F:
    """Only where a game is open (lobby or dealt); in private, the game the sender sits at."""
    return guard(_need_table)(func)


def in_game(func: F) -> F:
    """Only while a game is dealt; in private, the game the sender sits at."""
    return guard(_need_game)(func)


# --- loading ---------------------------------------------------------------------------------


class PluginError(Exception):
    """A plugin that can't be loaded; the message is one line naming it and why."""


def load_plugins(specs: Iterable[str]) -> list[ModuleType]:
    """Import each plugin: a module name (``unobot.plugins.uno_game``, ``mybot.quotes``) or the
    path of a ``.py`` file. Raises :class:`PluginError`, one line naming the plugin and why, for
    one that can't be imported, that defines no command (a typo in a name should not pass for
    a plugin), or that answers a command another plugin already answers."""
    modules = []
    owner: dict[str, str] = {}
    for spec in specs:
        try:
            module = _load_file(spec) if is_file_spec(spec) else importlib.import_module(spec)
        except PluginError:
            raise
        except (Exception, SystemExit) as err:  # whatever a broken plugin raises on import
            raise PluginError(f"plugin {spec}: {_one_line(err)}") from None
        names = [n for v in vars(module).values() if _is_command(v) for n in meta_of(v).names]  # type: ignore[union-attr]
        if not names:
            raise PluginError(f"plugin {spec}: defines no command (use @command)")
        for name in names:
            if name in owner:
                raise PluginError(f"plugin {spec}: .{name} is already a command of {owner[name]}")
            owner[name] = spec
        modules.append(module)
    return modules


def is_file_spec(spec: str) -> bool:
    """A plugin given as the path of a ``.py`` file, not a module name."""
    return spec.endswith(".py") or "/" in spec or os.sep in spec


def _load_file(path: str) -> ModuleType:
    if not os.path.isfile(path):
        raise PluginError(f"plugin {path}: no such file")
    stem = re.sub(r"\W", "_", os.path.splitext(os.path.basename(path))[0])
    name = f"unobot_plugin_{stem}"  # its own top-level name: it can't shadow a real module
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise PluginError(f"plugin {path}: not a Python file")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # as an import would: dataclasses and pickling look it up
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[name]
        raise
    return module


def _is_command(value: object) -> bool:
    meta = meta_of(value) if callable(value) else None
    return meta is not None and bool(meta.names)


def _one_line(err: BaseException) -> str:
    text = " ".join(str(err).split())
    return f"{type(err).__name__}: {text}" if text else type(err).__name__
