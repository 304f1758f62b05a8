"""Logging in to the network's services: SASL's outcome, and NickServ only when it is the service.

:class:`ServicesLogin` follows one connection's login: it says what SASL did (or why it was not
done), and when the bot has a NickServ password and SASL did not log it in, it first asks the
server who holds the nick (``WHOIS NickServ``) and sends ``IDENTIFY`` only to a service whose
identity the answer confirms (:func:`service_verdict`): on a network without services anyone
can take the nick. The joins wait for that check, so that the nick is identified before them
where it can be. NickServ's answer is logged in one line, and a nick the services took away is
taken back once identified.

It knows nothing of the ``irc`` library: the adapter forwards the events' arguments and text,
and the login pushes its lines (WHOIS, IDENTIFY, NICK) into the
:class:`~unobot.irc.outbox.Outbox` and asks for a drain.
"""

from __future__ import annotations

import fnmatch
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass

from unobot.irc.casemap import irc_lower
from unobot.irc.outbox import Lane, Outbox, strip_codes
from unobot.irc.serverinfo import nickserv_outcome
from unobot.irc.settings import IrcSettings
from unobot.irc.transport import Scheduler

__all__ = ["NICKSERV_WHOIS_TIMEOUT", "ServiceCheck", "ServicesLogin", "service_verdict"]

log = logging.getLogger("unobot.irc.adapter")  # the adapter's lines, as operators filter them

NICKSERV_WHOIS_TIMEOUT = 10.0
"""Seconds to wait for the WHOIS of NickServ before giving up on identifying (the joins wait
for it, so it is bounded)."""


def service_verdict(settings: IrcSettings, user: str, host: str, server: str) -> str | None:
    """Why the WHOIS answer for NickServ (``user@host`` on ``server``) is not the configured
    service, or None when it is and may be sent the password.

    The rule: the service's server must match ``nickserv_server`` (``services.*`` by default:
    networks run their services as a server of their own, which no user can pose as), and its
    ``user@host`` must match ``nickserv_host`` when that is set. An empty answer (the nick is
    not there, or the WHOIS went unanswered) is never trusted.
    """
    if not host:
        return "nobody answers to the nick"
    wanted = settings.nickserv_server
    if not fnmatch.fnmatchcase(server.lower(), wanted.lower()):
        return f"it is on server {server or '(not given)'}, not one matching {wanted!r}"
    mask = settings.nickserv_host
    if mask:
        seen = f"{user}@{host}" if "@" in mask else host
        if not fnmatch.fnmatchcase(seen.lower(), mask.lower()):
            return f"it is {user}@{host}, not {mask!r}"
    return None


@dataclass(slots=True)
class ServiceCheck:
    """A WHOIS of NickServ under way, and what it has said so far."""

    nick: str
    user: str = ""
    host: str = ""
    server: str = ""
    timer: object | None = None


class ServicesLogin:
    """One adapter's login to services, connection after connection.

    The adapter calls :meth:`reset` for every new connection, :meth:`registered` on the
    welcome (and joins its channels itself unless :attr:`checking`), and forwards CAP, the
    SASL outcomes, WHOIS answers, private notices, 900 and the bot's own renames; :meth:`lost`
    when the connection is gone. ``join_channels`` is called when a check that held the joins
    ends; ``connected`` and ``nickname`` read the adapter's state; ``drain`` asks it to send.
    """

    def __init__(
        self,
        settings: IrcSettings,
        outbox: Outbox,
        timers: Scheduler,
        *,
        connected: Callable[[], bool],
        nickname: Callable[[], str],
        join_channels: Callable[[], None],
        drain: Callable[[], None],
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.settings = settings
        self._outbox = outbox
        self._timers = timers
        self._connected = connected
        self._nickname = nickname
        self._join_channels = join_channels
        self._drain = drain
        self._clock = clock
        self._nicks = [irc_lower(n) for n in (settings.nick, *settings.alt_nicks)]
        self.sasl_ok = False
        """SASL logged the bot in on this connection (NickServ is then not asked)."""
        self.sasl_said = False
        """The outcome of SASL on this connection was logged (so its silence can be)."""
        self.has_cap = False
        """The server answered CAP (IRCv3); ircu and irc2 answer 421."""
        self.identify_sent: float | None = None
        """When IDENTIFY went to NickServ on this connection (its answer is looked for)."""
        self.identified: bool | None = None
        """NickServ's answer to IDENTIFY: True accepted, False refused, None not yet."""
        self.check: ServiceCheck | None = None
        """The WHOIS of NickServ before identifying, while under way."""
        self.refused = 0
        """Times identifying was refused (the first is a WARNING, later ones INFO)."""

    @property
    def checking(self) -> bool:
        """A WHOIS of NickServ is under way: the joins wait for its outcome."""
        return self.check is not None

    def reset(self) -> None:
        """A new connection: nothing is known of this server's login yet."""
        self.sasl_ok = self.sasl_said = self.has_cap = False
        self.identify_sent = None
        self.identified = None

    def lost(self) -> None:
        """The connection is gone: a check under way will get no answer."""
        if self.check is not None:
            if self.check.timer is not None:
                self._timers.cancel(self.check.timer)
            self.check = None

    def cap_seen(self) -> None:
        self.has_cap = True

    # -- SASL ------------------------------------------------------------------------------
    def sasl_succeeded(self) -> None:
        self.sasl_ok = self.sasl_said = True
        log.info("SASL login succeeded (account %s)", self.settings.sasl_login)

    def sasl_failed(self, reason: str) -> None:
        """904 or the library's own failure, with the reason the server (or library) gave."""
        reason = reason or "the server gave no reason (check irc.sasl_login and irc.sasl_password)"
        also = "; NickServ is tried instead" if self.settings.nickserv_password else ""
        self.sasl_said = True
        log.error("SASL login failed: %s%s", reason, also)

    def sasl_stuck(self, reason: str, code: str) -> None:
        """902/905/906, after the adapter ended the exchange the library would wait on."""
        self.sasl_said = True
        log.error("SASL login failed: %s (%s)", reason or code, code)

    def registered(self) -> None:
        """The welcome: say why SASL did not log the bot in, if it was meant to and nothing
        said so yet; then check NickServ when it is to be asked."""
        cfg = self.settings
        if cfg.sasl_login and cfg.sasl_password and not self.sasl_said:
            self.sasl_said = True
            also = "; NickServ is tried instead" if cfg.nickserv_password else ""
            if self.has_cap:
                log.warning("SASL login not done: the server did not finish it%s", also)
            else:
                log.warning(
                    "SASL login skipped: the server does not negotiate capabilities (no CAP: "
                    "ircu, irc2 and other older servers)%s",
                    also,
                )
        if cfg.nickserv_password and not self.sasl_ok:
            # The service is checked first; the JOINs wait for the outcome, so that the nick is
            # identified before them where it can be (some channels need +r).
            self.check_nickserv()

    # -- NickServ --------------------------------------------------------------------------
    def check_nickserv(self) -> None:
        """WHOIS NickServ before it gets the password (:func:`service_verdict` judges the
        answer); bounded by ``NICKSERV_WHOIS_TIMEOUT``."""
        check = self.check = ServiceCheck(self.settings.nickserv_nick)
        check.timer = self._timers.call_later(
            NICKSERV_WHOIS_TIMEOUT, lambda: self.done(check, "no answer to WHOIS")
        )
        self._outbox.push("WHOIS", check.nick, "", Lane.CONTROL)

    def whois(self, kind: str, args: list[str]) -> None:
        """311/312/318/401 (``kind``: the library's event type) about the nick being checked
        (other WHOIS answers are ignored)."""
        check = self.check
        if check is None or not args or irc_lower(args[0]) != irc_lower(check.nick):
            return
        if kind == "whoisuser" and len(args) >= 3:
            check.user, check.host = args[1], args[2]
        elif kind == "whoisserver" and len(args) >= 2:
            check.server = args[1]
        elif kind == "nosuchnick":
            self.done(check, "nobody has the nick (no services on this network?)")
        elif kind == "endofwhois":
            verdict = service_verdict(self.settings, check.user, check.host, check.server)
            self.done(check, verdict)

    def done(self, check: ServiceCheck, refusal: str | None) -> None:
        """The check's outcome: IDENTIFY (``refusal`` None) or a log line saying why not;
        then the JOINs that waited."""
        if self.check is not check:
            return  # stale: its connection is gone (a newer check may be under way)
        self.check = None
        if check.timer is not None:
            self._timers.cancel(check.timer)
        where = f"{check.user}@{check.host} on {check.server}" if check.host else "?"
        if refusal is None:
            log.info("identifying to %s (%s)", check.nick, where)
            self.identify_sent = self._clock()
            self._outbox.push(
                "PRIVMSG", check.nick, f"IDENTIFY {self.settings.nickserv_password}", Lane.CONTROL
            )
        else:
            self.refused += 1
            log.log(
                logging.WARNING if self.refused == 1 else logging.INFO,
                "not identifying to %s: %s; a password goes only to a confirmed service "
                "(irc.nickserv_server %r, irc.nickserv_host %r)",
                check.nick,
                refusal,
                self.settings.nickserv_server,
                self.settings.nickserv_host,
            )
        self._join_channels()
        self._drain()

    def notice(self, nick: str, text: str) -> None:
        """A private notice from ``nick``: NickServ's answer to IDENTIFY, said at INFO
        (accepted) or WARNING (refused) in one line; then the configured nick is taken back if
        services had renamed the bot."""
        if self.identify_sent is None or self.identified is not None:
            return
        if irc_lower(nick) != irc_lower(self.settings.nickserv_nick):
            return
        text = strip_codes(text)  # anope and atheme answer in bold
        outcome = nickserv_outcome(text)
        if outcome is None:  # something else ("This nickname is registered..."): not news
            log.debug("%s says: %s", nick, text)
            return
        self.identified = outcome
        if outcome:
            log.info("identified to %s: %s", nick, text)
            self.regain_nick()
        else:
            log.warning("%s refused the password (irc.nickserv_password): %s", nick, text)

    def logged_in(self, text: str) -> None:
        """900 RPL_LOGGEDIN: the server says which account the bot is logged in to."""
        log.info("logged in: %s", text)

    def renamed(self, old: str, new: str) -> None:
        """The bot's own nick changed. Asked for (regaining the configured nick): fine.
        Otherwise services renamed it (``Guest32460``: the nick is registered and the bot
        had not identified in time); it takes the configured nick back once identified."""
        if irc_lower(new) == irc_lower(self.settings.nick):
            log.info("the bot is %s again", new)
            return
        if irc_lower(new) in self._nicks:
            return
        log.warning(
            "the bot was renamed from %s to %s (services enforcing a registered nick: check "
            "irc.nickserv_password or SASL); it takes %s back once identified",
            old,
            new,
            self.settings.nick,
        )
        if self.identified:
            self.regain_nick()

    def regain_nick(self) -> None:
        """Ask for the configured nick again, when connected under another."""
        if self._connected() and irc_lower(self._nickname()) != irc_lower(self.settings.nick):
            self._outbox.push("NICK", self.settings.nick, "")
            self._drain()
