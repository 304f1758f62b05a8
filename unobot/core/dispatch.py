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
from unobot.engine.cards import CardParseError
from unobot.engine.errors import UnoError

if TYPE_CHECKING:
    from unobot.core.plugin import Context

__all__ = ["APOLOGY", "SLOW_DOWN", "CommandThrottle", "Dispatcher", "Handler", "parse_command"]

log = logging.getLogger(__name__)

APOLOGY = "Sorry, something went wrong with that command."
SLOW_DOWN = "Slow down: commands from you are ignored for a few seconds."
_MAX_ARGS = 200


class CommandThrottle:
    """A token bucket per nick, so that nobody can make the bot flood its own send queue.

    The connection can send only about one line a second for all channels together. Moves that
    the game accepts are free (the game itself paces them: one turn at a time); every refused
    command and every command that only informs (help, hands, top card, opening and stopping
    tables) costs a token. With the bucket empty, any command from that nick is ignored, and
    they are told so at most once per ``notice_every`` seconds.
    """

    def __init__(self, burst: int = 8, interval: float = 1.5, notice_every: float = 30.0) -> None:
        self.burst = burst
        self.interval = interval
        self.notice_every = notice_every
        self._tokens: dict[str, tuple[float, float]] = {}
        self._told: dict[str, float] = {}

    def _level(self, who: str, now: float) -> float:
        tokens, last = self._tokens.get(who, (float(self.burst), now))
        return min(float(self.burst), tokens + (now - last) / self.interval)

    def charge(self, who: str, now: float) -> None:
        """Take a token for a refused or informational command."""
        self._tokens[who] = (max(0.0, self._level(who, now) - 1.0), now)
        if len(self._tokens) > 10_000:  # forget the idle: a full bucket is the default
            self._tokens = {
                k: (t, at) for k, (t, at) in self._tokens.items() if now - at < 60 * self.interval
            }

    def allow(self, who: str, now: float) -> bool | None:
        """True: go ahead; False: ignore silently; None: ignore and say "slow down" once."""
        if self._level(who, now) >= 1.0:
            return True
        told = self._told.get(who)
        if told is not None and now - told < self.notice_every:
            return False
        self._told[who] = now
        if len(self._told) > 10_000:
            self._told = {k: t for k, t in self._told.items() if now - t < self.notice_every}
        return None


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
        who, now = ctx.ident, ctx.now
        allowed = self.throttle.allow(who, now)
        if not allowed:
            if allowed is None:
                ctx.reply(SLOW_DOWN)
            return
        charged = False
        try:
            for check in handler.meta.guards:
                check(ctx)
            if not handler.meta.move:
                self.throttle.charge(who, now)
                charged = True
            handler.func(ctx)
        except (UnoError, CardParseError) as err:
            if not charged:
                self.throttle.charge(who, now)
            ctx.reply(str(err) or "you can't do that now")
        except Exception:
            log.exception("command %r from %s failed", handler.name, ctx.nick)
            ctx.reply(APOLOGY)
