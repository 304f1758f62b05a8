"""From a line of text to a handler call: prefix, command name, guards, errors.

This is the one place where user mistakes become replies: an ``UnoError`` or ``CardParseError``
raised by a guard or a handler goes back to the sender privately, with the game unchanged (the
engine and the table validate before changing anything). Anything else is a bug: it is logged
with its traceback and the sender gets a short apology, so no traceback ever reaches a channel
and one bad command never stops the bot.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from types import ModuleType
from typing import TYPE_CHECKING, Any

from unobot.core.plugin import CommandMeta, meta_of
from unobot.core.refusals import refusal
from unobot.core.render_irc import Line
from unobot.core.trusted import TrustedHosts
from unobot.engine.cards import CardParseError
from unobot.engine.errors import UnoError
from unobot.i18n import N_, domain, speaking
from unobot.irc.casemap import irc_lower
from unobot.irc.transport import Tag

if TYPE_CHECKING:
    from unobot.core.plugin import Context

__all__ = [
    "APOLOGY",
    "SLOW_DOWN",
    "Buckets",
    "CommandThrottle",
    "Dispatcher",
    "Handler",
    "parse_command",
]

log = logging.getLogger(__name__)
_, ngettext = domain("commands")

APOLOGY = N_("Sorry, something went wrong with that command.")
SLOW_DOWN = N_("Slow down: commands from you are ignored for a few seconds.")
"""English message ids, said in the sender's language (``_(SLOW_DOWN)``)."""
_MAX_ARGS = 200


class Buckets:
    """A token bucket per key: ``burst`` tokens, one more every ``interval`` seconds."""

    def __init__(self, burst: int, interval: float) -> None:
        self.burst = burst
        self.interval = interval
        self._tokens: dict[str, tuple[float, float]] = {}

    def level(self, key: str, now: float) -> float:
        tokens, last = self._tokens.get(key, (float(self.burst), now))
        return min(float(self.burst), tokens + (now - last) / self.interval)

    def charge(self, key: str, now: float) -> None:
        self._tokens[key] = (max(0.0, self.level(key, now) - 1.0), now)
        if len(self._tokens) > 10_000:  # forget the idle: a full bucket is the default
            horizon = self.burst * self.interval
            self._tokens = {k: v for k, v in self._tokens.items() if now - v[1] < horizon}


class CommandThrottle:
    """Budgets for commands that cost the bot lines without moving a game, so that nobody
    can flood its send queue: accepted moves are free; refused and informational commands cost
    a token from the person's, the channel's and everybody's bucket; a timely move (the table
    is waiting for it) is never held back by a budget others behind the same address spent.
    The rules in full (who counts as a person, the notices, trusted hosts): docs/networks.md,
    "Command budgets".
    """

    def __init__(
        self,
        burst: int = 10,
        interval: float = 2.0,
        notice_every: float = 60.0,
        *,
        channel_burst: int = 12,
        channel_interval: float = 1.5,
        global_burst: int = 30,
        global_interval: float = 0.75,
        notice_burst: int = 5,
        turn_burst: int = 3,
        turn_interval: float = 5.0,
        trusted: TrustedHosts | None = None,
        trusted_multiplier: float = 4.0,
    ) -> None:
        self.people = Buckets(burst, interval)
        self.trusted_people = Buckets(round(burst * trusted_multiplier),
                                      interval / trusted_multiplier)  # fmt: skip
        self.channels = Buckets(channel_burst, channel_interval)
        self.everyone = Buckets(global_burst, global_interval)
        self.notice_every = notice_every
        self.notices = Buckets(notice_burst, notice_every / notice_burst)
        self.trusted_notices = Buckets(
            round(notice_burst * trusted_multiplier),
            notice_every / (notice_burst * trusted_multiplier),
        )
        self.turns = Buckets(turn_burst, turn_interval)
        self.nicks = Buckets(burst, interval)
        """A trusted host's nicks, each counted as a person would be (for "quiet")."""
        self.trusted = trusted if trusted is not None else TrustedHosts()
        self._told: dict[str, float] = {}

    def is_trusted(self, who: str) -> bool:
        """Whether the person key ``who`` (``$h:host``) is a trusted host's."""
        return bool(self.trusted) and who.startswith("$h:") and who[3:] in self.trusted

    def _person(self, who: str) -> Buckets:
        return self.trusted_people if self.is_trusted(who) else self.people

    def _keys(self, who: str, channel: str | None) -> list[tuple[Buckets, str]]:
        return [(self._person(who), who), (self.channels, channel or ""), (self.everyone, "*")]

    def charge(self, who: str, now: float, channel: str | None = None, nick: str = "") -> None:
        """Take a token for a refused or informational command."""
        for buckets, key in self._keys(who, channel):
            buckets.charge(key, now)
        if self.is_trusted(who):
            self.nicks.charge(f"{who} {irc_lower(nick)}", now)

    def _quiet(self, who: str, nick: str, now: float) -> bool:
        """Whether the person (on a trusted host: the nick) has not been asking lately."""
        if self.is_trusted(who):
            return self.nicks.level(f"{who} {irc_lower(nick)}", now) >= self.nicks.burst - 1
        return self.people.level(who, now) >= self.people.burst - 1

    def refused_timely(self, nick: str, now: float) -> None:
        """A timely move let through was refused by the table: it costs the nick's own budget
        of such refusals (the person's is charged by :meth:`charge`)."""
        self.turns.charge(irc_lower(nick), now)

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
        """True: go ahead; False: ignore silently; None: ignore and say "slow down" once.
        A ``move`` needs only the person's budget (the channel's is for what informs); a
        ``timely`` one (see the class) only the nick's budget of refused timely moves."""
        if timely and self.turns.level(irc_lower(nick), now) >= 1.0:
            return True
        keys = self._keys(who, channel)[:1] if move else self._keys(who, channel)
        if all(b.level(k, now) >= 1.0 for b, k in keys):
            return True
        if keys[0][0].level(who, now) >= 1.0 and self._quiet(who, nick, now):
            return True  # the shared budgets were spent by others: a quiet person goes on
        return None if self._tell(who, irc_lower(nick), now) else False

    def _tell(self, who: str, nick: str, now: float) -> bool:
        """Whether to tell ``nick`` (of person ``who``) to slow down now: once per
        ``notice_every`` per nick, within the host's budget of notices."""
        key = f"{who} {nick}"
        told = self._told.get(key)
        if told is not None and now - told < self.notice_every:
            return False
        notices = self.trusted_notices if self.is_trusted(who) else self.notices
        if notices.level(who, now) < 1.0:
            return False
        notices.charge(who, now)
        self._told[key] = now
        if len(self._told) > 10_000:
            self._told = {k: t for k, t in self._told.items() if now - t < self.notice_every}
        return True


@dataclass(frozen=True, slots=True)
class Handler:
    name: str
    """The name the handler was registered under first (``play`` for ``.p``)."""
    func: Callable[[Context], Any]
    meta: CommandMeta


def parse_command(text: str, prefix: str) -> tuple[str, str] | None:
    """``(name, args)`` for ``".P  b 9"`` -> ``("p", "b 9")``; None if not a command.

    The name is lower-cased; ``args`` is stripped and cut short: nothing a player types needs
    more, and it bounds what an error message could ever quote back.
    """
    if not prefix or not text.startswith(prefix):
        return None
    body = text[len(prefix) :]
    if not body or body[0].isspace():
        return None
    name, _, args = body.partition(" ")
    return name.lower(), args.strip()[:_MAX_ARGS]


class Dispatcher:
    """Commands collected from plugin modules; ``run`` calls one safely."""

    def __init__(
        self,
        prefix: str = ".",
        modules: Iterable[ModuleType] = (),
        throttle: CommandThrottle | None = None,
    ) -> None:
        self.prefix = prefix
        self.throttle = throttle if throttle is not None else CommandThrottle()
        self.handlers: dict[str, Handler] = {}
        for module in modules:
            self.register_module(module)

    def register_module(self, module: ModuleType) -> None:
        """Register every decorated function in ``module``."""
        for value in vars(module).values():
            meta = meta_of(value) if callable(value) else None
            if meta is not None and meta.names:
                self.register(value, meta)

    def register(self, func: Callable[[Context], Any], meta: CommandMeta) -> None:
        handler = Handler(meta.names[0], func, meta)
        for name in meta.names:
            if name in self.handlers:
                raise ValueError(f"command {name!r} is registered twice")
            self.handlers[name] = handler

    def find(self, text: str) -> tuple[Handler, str] | None:
        """The handler a message asks for and its argument text, or None (not for us)."""
        parsed = parse_command(text, self.prefix)
        if parsed is None:
            return None
        handler = self.handlers.get(parsed[0])
        return None if handler is None else (handler, parsed[1])

    def run(self, handler: Handler, ctx: Context) -> None:
        """Check guards and call the handler, answering mistakes and bugs privately."""
        who, now, channel = ctx.person, ctx.now, ctx.channel
        timely = self._timely(handler, ctx)
        allowed = self.throttle.allow(
            who, now, channel, move=handler.meta.move, nick=ctx.nick, timely=timely
        )
        if not allowed:
            if allowed is None:
                # Urgent: queued behind the flooder's own replies, it expired with them.
                urgent = Tag(ctx.channel or "", reply=True, urgent=True, person=who)
                with speaking(ctx.language):
                    text = _(SLOW_DOWN)
                ctx.bot.send(Line("notice", ctx.nick, text, urgent))
            return
        charged = False
        try:
            for check in handler.meta.guards:
                check(ctx)
            if not handler.meta.move:
                self.throttle.charge(who, now, channel, ctx.nick)
                charged = True
            handler.func(ctx)
        except (UnoError, CardParseError) as err:
            if not charged:
                self.throttle.charge(who, now, channel, ctx.nick)
            if timely:
                self.throttle.refused_timely(ctx.nick, now)
            # In the sender's own language: the engine's errors carry an English message id
            # (and cards to name), a plugin's are already translated (refusals.refusal).
            with speaking(ctx.language):
                ctx.reply(refusal(err))
        except Exception:
            log.exception("command %r from %s failed", handler.name, ctx.nick)
            ctx.reply(_(APOLOGY))

    @staticmethod
    def _timely(handler: Handler, ctx: Context) -> bool:
        """Whether the command is a move its table would act on now (``Table.is_timely``)."""
        action = handler.meta.action
        if action is None:
            return False
        table = ctx.find_table()
        return table is not None and table.is_timely(ctx.nick, action)
