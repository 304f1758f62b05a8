"""The contract between the bot's core and the network: records in, lines out.

The IRC adapter (``unobot.irc.adapter``, the only module importing ``irc``) turns server events
into :class:`Incoming` records and implements :class:`Transport`; tests use a fake transport
that records what would be sent. Nothing here does I/O. The network's faults are records too
(``DISCONNECTED``, ``RECONNECTED``, the bot's own ``KICK`` and ``JOIN``), so the core hears of
them through the same single callback as everything else.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import Enum
from typing import Protocol

from unobot.values import value

__all__ = ["UNTAGGED", "Incoming", "Kind", "Scheduler", "Tag", "Transport"]


class Kind(Enum):
    MESSAGE = "message"
    """PRIVMSG to a channel (``target`` is the channel) or to the bot (``target`` is its nick)."""
    JOIN = "join"
    PART = "part"
    QUIT = "quit"
    """``target`` is empty: the user left every channel (netsplit or quit)."""
    KICK = "kick"
    """``nick`` was kicked from ``target`` (``text`` is the reason). When ``nick`` is the bot
    itself, the adapter joins ``target`` again after a short delay; the bot's own ``JOIN``
    record says it is back in."""
    NICK = "nick"
    """``nick`` is now ``new_nick``."""
    DISCONNECTED = "disconnected"
    """The bot lost its registered connection (``nick`` is the nick it had, ``text`` the cause;
    ``target`` is empty). It is in no channel until it rejoins them after a reconnect: each
    rejoin arrives as the bot's own ``JOIN``. Not sent when the bot quits on purpose."""
    NAMES = "names"
    """Who is in channel ``target`` as the server listed them when the bot joined it
    (``text``: their nicks, separated by spaces, without status prefixes; the bot's own
    included). Follows the bot's own ``JOIN``: after a restart or a reconnect it tells the
    core who left while the bot was away."""
    HELD = "held"
    """The server makes the bot wait before it may send ``nick`` private lines (ircu's 439
    "Target change too fast"): a line of the game in channel ``target`` waits ``text``
    seconds. Sent once when the wait begins; the line follows by itself when it ends."""
    RECONNECTED = "reconnected"
    """The bot is registered again after a ``DISCONNECTED`` (not on the first registration);
    ``nick`` is its nick now (maybe an alternate). Its JOINs are queued; they follow as
    ``JOIN`` records, or a refusal the adapter logs (banned, invite-only, full, bad key)."""


@value
class Incoming:
    kind: Kind
    nick: str
    target: str = ""
    text: str = ""
    userhost: str = ""
    """``user@host`` of the sender, when known (for admin hostmasks)."""
    account: str | None = None
    """Services account (IRCv3 account-tag / extended-join / WHOX), when the network tells."""
    new_nick: str = ""
    is_op: bool = False
    """Whether ``nick`` is a channel operator in ``target`` (for commands such as .unostop)."""

    @property
    def private(self) -> bool:
        return self.kind is Kind.MESSAGE and not self.target.startswith(("#", "&", "+", "!"))


@value
class Tag:
    """What a line is, for the adapter's send queue, fair by channel (the core knows; the
    queue can't guess: ``unobot.irc.outbox``).

    ``channel``: the channel the line is about: a game's channel lines and its players' hands
    carry their table's channel, a reply the channel the command was said in ("" for none: a
    private command). ``reply``: an answer to one user's command (help, stats, a refusal),
    not the game's own line; it waits behind game lines and is dropped when it could only
    arrive late. ``key``: a newer line with the same channel and key replaces a queued one
    (a player's hand: only the newest is worth sending), and a keyed line the same as the last
    one of its key that left is not sent again. ``status``: the end of the line that
    a newer line with the same channel and key makes stale (whose turn it is, the top card):
    while such a line still waits, the two become one line, the older's news followed by the
    newer line, so a backlog sends fewer lines instead of older states.
    """

    channel: str = ""
    reply: bool = False
    key: str = ""
    status: str = ""
    part: int = 0
    """The line's place in a keyed text sent as several lines (a long hand): the first
    replaces every queued line of the key, the next ones join it."""
    urgent: bool = False
    """A reply that goes before the channel's waiting replies and never expires (the one
    "slow down" a flooder is told: behind their own replies it expired with them)."""
    person: str = ""
    """For a reply: who asked (their budget key: account, host or nick). A channel's replies
    take turns by person, so one person's requests only ever delay their own; without it a
    private reply counts as its target's."""
    again: bool = False
    """A keyed line that goes even when it is the same as the last of its key that left (that
    one may never have arrived: its reader was away)."""
    optional: bool = False
    """The hand of the player whose turn it is, sent only because the turn came: it goes first
    in its channel's turn; with more than two games on the connection it goes only from spare
    budget, else it is the line that gives way (the player can always ask with ``.cards``),
    and it is dropped when its channel has a newer game line (the turn moved on)."""


UNTAGGED = Tag()
"""A line nothing is known of: the game's own, in its target's flow."""


class Transport(Protocol):
    """Where the core sends text. Implementations queue, split and sanitise; never block."""

    nickname: str

    def privmsg(self, target: str, text: str, tag: Tag = UNTAGGED) -> None:
        """Queue ``text`` for ``target`` (a channel or a nick); ``tag`` says what it is."""
        ...

    def notice(self, target: str, text: str, tag: Tag = UNTAGGED) -> None: ...


class Scheduler(Protocol):
    """Timers for turn timeouts and grace periods; the reactor's scheduler, or a fake clock."""

    def call_later(self, delay: float, callback: Callable[[], None]) -> object:
        """Run ``callback`` after ``delay`` seconds; returns a handle for ``cancel``."""
        ...

    def cancel(self, handle: object) -> None: ...

    def now(self) -> float: ...
