"""Bot admins for this run: whoever gives the code shown on the bot's console (``.unoadmin``).

Why: on the embedded server the channel's ``@`` goes to whoever joins first, and a friend's
JOIN may arrive before that of the person who started the bot; that person could then change
nothing (the rules, the language), and a restart gave the ``@`` to the friend again. The
person who started the bot has its console: the bot shows a one-time code there (or, with no
terminal, in a file only its user can read: ``unobot.main``), and ``.unoadmin CODE``, said
privately or in a channel, makes the sender a bot admin until the bot stops, whatever the
order of joining (as Jupyter's token or Jenkins's first admin password). It works on any
network, not only the embedded server.

The code (:func:`new_code`): 12 characters from 31 that can't be mistaken for each other (59
bits from ``secrets``), shown as ``abcd-efgh-jkmn``; given back in any case, with or without
the dashes or spaces. Each code works once: when it is used, the next one is shown on the
console, so a code said in a channel (everyone there saw it) is worth nothing afterwards.
Guessing is pointless and is cut short too: after :data:`TRIES` wrong codes one person
(``Context.person``: services account, else host) is refused for the rest of the run, and
after :data:`WRONG_IN_ALL` wrong codes in all no code is taken any more this run (the
console is told: a restart shows a new one, ``--admin NICK`` needs none). The code itself is
never logged, never said back, and a wrong guess is not logged either (it may be a password
typed into the wrong window).

Who becomes admin (:class:`Grants`): the sender as the network knows them. With a services
account, the account (``$a:name``, as ``bot.admins`` entries; a nick change or a reconnect
keeps it); without one, the exact ``nick!user@host`` the message came from (on the embedded
server the host is the client's address: another machine can't borrow the nick; a reconnect
from the same client is the same person). A nick change the bot sees moves the grant to the
new nick. Grants last until the bot stops: never stored.
"""

from __future__ import annotations

import fnmatch
import hmac
import logging
import secrets
from collections.abc import Callable, Iterable
from enum import Enum

from unobot.irc.casemap import irc_lower
from unobot.irc.transport import Incoming

__all__ = [
    "ALPHABET",
    "TRIES",
    "WRONG_IN_ALL",
    "AdminCode",
    "Admins",
    "Claim",
    "Grants",
    "new_code",
]

log = logging.getLogger(__name__)
bot_log = logging.getLogger("unobot.core.bot")  # a grant is the bot's line, as before

ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"
"""Lower-case letters and digits without i, l, o, 0 and 1 (read off a console, typed by
hand); 31 of them: 12 characters are ~59 bits."""

TRIES = 3
"""Wrong codes one person may give in a run; then they are refused until the bot restarts."""

WRONG_IN_ALL = 20
"""Wrong codes from everyone together after which no code is taken any more this run."""


def new_code() -> str:
    """A fresh code: ``abcd-efgh-jkmn`` (``secrets``, three groups of four)."""
    text = "".join(secrets.choice(ALPHABET) for _ in range(12))
    return "-".join(text[i : i + 4] for i in range(0, 12, 4))


def _plain(text: str) -> str:
    """A code as typed, compared without case, dashes or spaces."""
    return "".join(text.split()).replace("-", "").lower()


class Claim(Enum):
    """What became of a ``.unoadmin``."""

    GRANTED = "granted"
    """The right code: the sender is a bot admin now (and the code is used up)."""
    ALREADY = "already"
    """The sender was a bot admin already (the code, right or wrong, is left alone)."""
    WRONG = "wrong"
    LOCKED = "locked"
    """Too many wrong codes from this person: not even looked at."""
    CLOSED = "closed"
    """No code is taken: turned off (``bot.admin_code``), or too many wrong codes in all."""


class AdminCode:
    """This run's one-time code; ``show`` puts each new one before the operator (the console
    or a file), and ``closed`` tells them when no code is taken any more."""

    def __init__(
        self,
        show: Callable[[str], None],
        closed: Callable[[], None] = lambda: None,
        make: Callable[[], str] = new_code,
    ) -> None:
        self._show = show
        self._closed = closed
        self._make = make
        self._code = ""
        self._wrong: dict[str, int] = {}
        self.wrong_in_all = 0
        self.open = True
        self.used = 0
        """Codes given right so far (each made someone an admin)."""
        self._renew()

    def _renew(self) -> None:
        self._code = self._make()
        self._show(self._code)

    def check(self, person: str, guess: str, who: str = "") -> Claim:
        """``guess`` from ``person`` (their budget key: account or host; ``who``: how the log
        names them): GRANTED (the next code is shown), WRONG, LOCKED or CLOSED."""
        if not self.open:
            return Claim.CLOSED
        if self._wrong.get(person, 0) >= TRIES:
            return Claim.LOCKED
        if hmac.compare_digest(_plain(guess).encode(), _plain(self._code).encode()):
            self.used += 1
            self._renew()
            return Claim.GRANTED
        tries = self._wrong[person] = self._wrong.get(person, 0) + 1
        self.wrong_in_all += 1
        if tries >= TRIES:
            log.warning(
                "admin code: %d wrong codes from %s: refused until the bot restarts",
                tries,
                who or person,
            )
        else:
            log.info("admin code: a wrong code from %s", who or person)
        if self.wrong_in_all >= WRONG_IN_ALL:
            self.open = False
            self._code = ""
            log.warning(
                "admin code: %d wrong codes in all: no code is taken any more this run "
                "(a restart shows a new one; --admin NICK needs none)",
                self.wrong_in_all,
            )
            self._closed()
        return Claim.WRONG


class Grants:
    """Who became a bot admin with the code this run (see the module's doc)."""

    def __init__(self) -> None:
        self._ids: set[str] = set()

    @staticmethod
    def _mask(nick: str, userhost: str) -> str:
        return f"{irc_lower(nick)}!{userhost.lower()}"

    def add(self, incoming: Incoming) -> str:
        """Make the sender of ``incoming`` an admin; returns how they are known (for the
        log): ``$a:account`` or ``nick!user@host``."""
        if incoming.account:
            who = "$a:" + irc_lower(incoming.account)
        else:
            who = self._mask(incoming.nick, incoming.userhost)
        self._ids.add(who)
        return who

    def has(self, incoming: Incoming) -> bool:
        if not self._ids:
            return False
        if incoming.account and "$a:" + irc_lower(incoming.account) in self._ids:
            return True
        return self._mask(incoming.nick, incoming.userhost) in self._ids

    def renamed(self, old: str, new: str) -> None:
        """``old`` is now ``new`` (a NICK the bot saw): a grant by mask follows the nick."""
        head = irc_lower(old) + "!"
        for who in [w for w in self._ids if w.startswith(head)]:
            self._ids.discard(who)
            self._ids.add(irc_lower(new) + "!" + who[len(head) :])

    def __len__(self) -> int:
        return len(self._ids)


class Admins:
    """Who is a bot admin: a ``bot.admins`` entry (or ``--admin``) matches them, or they gave
    this run's code. ``entries``: the configured patterns (``nick!user@host`` globs, or
    ``$a:account``); :attr:`code`: this run's :class:`AdminCode`, None when none is taken."""

    def __init__(self, entries: Iterable[str] = ()) -> None:
        self.entries = tuple(entries)
        self.grants = Grants()
        """Who became a bot admin with the code this run."""
        self.code: AdminCode | None = None

    def is_admin(self, incoming: Incoming) -> bool:
        """An entry matches the sender, or they gave this run's code (:meth:`claim`)."""
        if self.grants.has(incoming):
            return True
        mask = irc_lower(f"{incoming.nick}!{incoming.userhost}")
        account = "$a:" + irc_lower(incoming.account) if incoming.account else None
        for entry in self.entries:
            pattern = irc_lower(entry)
            if pattern == account or (
                not pattern.startswith("$a:") and fnmatch.fnmatchcase(mask, pattern)
            ):
                return True
        return False

    def claim(self, incoming: Incoming, person: str, code: str) -> Claim:
        """``.unoadmin CODE`` from the sender of ``incoming`` (``person``: their command budget
        key): with this run's code they are a bot admin until the bot stops (logged, without
        the code, as a WARNING: the operator sees who)."""
        if self.is_admin(incoming):
            return Claim.ALREADY
        admin_code = self.code
        if admin_code is None:
            return Claim.CLOSED
        who = f"{incoming.nick}!{incoming.userhost}" if incoming.userhost else incoming.nick
        claim = admin_code.check(person, code, who)
        if claim is Claim.GRANTED:
            known = self.grants.add(incoming)
            known = "" if irc_lower(known) == irc_lower(who) else f" (as {known})"
            bot_log.warning("%s gave the admin code: a bot admin until the bot stops%s", who, known)
        return claim
