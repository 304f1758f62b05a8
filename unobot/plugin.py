"""Decorators for plugin commands. They only record metadata; the dispatcher decides.

Keeping decorators passive (as Sopel does) means a plugin module can be imported, inspected and
tested without a bot, and all policy (prefix, guards, error replies) lives in one place.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from unobot.engine.errors import UnoError

if TYPE_CHECKING:
    from unobot.bot import Context

__all__ = [
    "CommandMeta",
    "Guard",
    "command",
    "example",
    "guard",
    "in_channel",
    "in_game",
    "in_table",
    "meta_of",
]

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


def guard(check: Guard) -> Callable[[F], F]:
    """Run ``check`` before the handler; guards run in the order they appear, top first."""

    def deco(func: F) -> F:
        _meta(func).guards.insert(0, check)
        return func

    return deco


def _need_channel(ctx: Context) -> None:
    if ctx.channel is None:
        raise UnoError("say that in the game's channel")


def _need_table(ctx: Context) -> None:
    if ctx.find_table() is None:
        raise UnoError("there is no Uno game here: start one with .uno")


def _need_game(ctx: Context) -> None:
    table = ctx.find_table()
    if table is None or not table.dealt:
        raise UnoError("no Uno game is being played here")


def in_channel(func: F) -> F:
    """Only in a channel (commands that open or join a channel's game)."""
    return guard(_need_channel)(func)


def in_table(func: F) -> F:
    """Only where a game is open (lobby or dealt); in private, the game the sender sits at."""
    return guard(_need_table)(func)


def in_game(func: F) -> F:
    """Only while a game is dealt; in private, the game the sender sits at."""
    return guard(_need_game)(func)
