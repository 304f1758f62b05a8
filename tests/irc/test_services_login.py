"""The services login alone (:class:`unobot.irc.services.ServicesLogin`): no socket, no library.

A manual clock, a real outbox, and the adapter's side played by fields. What must hold: the
NickServ password goes only to a service a WHOIS confirmed, the joins wait for that check and
come after it whatever its outcome (bounded by a timeout), NickServ's answer is said in one
line, SASL's outcome is said once, and a nick taken by services is taken back once identified.
"""

from __future__ import annotations

import logging

import pytest

from unobot.core.clock import ManualClock
from unobot.irc.outbox import Outbox, WireLine
from unobot.irc.services import NICKSERV_WHOIS_TIMEOUT, ServicesLogin
from unobot.irc.settings import IrcSettings, ServerSettings

SERVICE = ("NickServ", "services", "services.test")
"""Who answers a WHOIS of NickServ on a network with services: user, host, server."""


class Rig:
    def __init__(self, sasl_login: str | None = None, sasl_password: str | None = None) -> None:
        self.settings = IrcSettings(
            servers=(ServerSettings("irc.test"),),
            alt_nicks=("unobot2",),
            nickserv_password="s3cret",
            sasl_login=sasl_login,
            sasl_password=sasl_password,
        )
        self.clock = ManualClock()
        self.outbox = Outbox(4, 0.0, 400)
        self.connected = True
        self.nick = "unobot"
        self.joins = 0
        self.drains = 0
        self.login = ServicesLogin(
            self.settings,
            self.outbox,
            self.clock,
            connected=lambda: self.connected,
            nickname=lambda: self.nick,
            join_channels=self._join,
            drain=self._drain,
            clock=self.clock.now,
        )

    def _join(self) -> None:
        self.joins += 1

    def _drain(self) -> None:
        self.drains += 1

    def sent(self) -> list[WireLine]:
        return self.outbox.due(self.clock.now())

    def answer_whois(self, user: str, host: str, server: str, nick: str = "NickServ") -> None:
        self.login.whois("whoisuser", [nick, user, host, "*", "Nick Services"])
        self.login.whois("whoisserver", [nick, server, "Services"])
        self.login.whois("endofwhois", [nick, "End of /WHOIS list."])


def test_the_password_goes_only_to_a_service_the_whois_confirmed() -> None:
    rig = Rig()
    rig.login.registered()
    assert rig.login.checking and rig.joins == 0  # the joins wait for the check
    assert rig.sent() == [WireLine("WHOIS", "NickServ", "")]
    rig.login.whois("whoisuser", ["SomeoneElse", "x", "evil.example", "*", "x"])  # not asked
    rig.answer_whois(*SERVICE, nick="nickserv")  # nicks compare case-insensitively
    assert not rig.login.checking and rig.joins == 1 and rig.drains == 1
    assert rig.sent() == [WireLine("PRIVMSG", "NickServ", "IDENTIFY s3cret")]
    assert rig.login.identify_sent == rig.clock.now()
    assert rig.clock.pending == 0  # the timeout was cancelled


def test_an_impostor_gets_no_password_and_the_joins_go_on(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO, "unobot")
    rig = Rig()
    rig.login.registered()
    rig.sent()
    rig.answer_whois("evil", "evil.example", "irc.test")  # an ordinary server: not services
    assert rig.sent() == [] and rig.joins == 1 and rig.login.identify_sent is None
    [refusal] = [r for r in caplog.records if r.getMessage().startswith("not identifying")]
    assert refusal.levelno == logging.WARNING
    assert "it is on server irc.test, not one matching 'services.*'" in refusal.getMessage()
    assert "s3cret" not in caplog.text
    rig.login.reset()  # a second connection, a second refusal: said at INFO
    rig.login.registered()
    rig.login.whois("nosuchnick", ["NickServ", "No such nick"])
    refusals = [r for r in caplog.records if r.getMessage().startswith("not identifying")]
    assert [r.levelno for r in refusals] == [logging.WARNING, logging.INFO]
    assert "nobody has the nick" in refusals[1].getMessage() and rig.joins == 2


def test_no_answer_to_the_whois_gives_up_after_the_timeout() -> None:
    rig = Rig()
    rig.login.registered()
    rig.clock.advance(NICKSERV_WHOIS_TIMEOUT - 0.5)
    assert rig.login.checking and rig.joins == 0
    rig.clock.advance(1.0)
    assert not rig.login.checking and rig.joins == 1
    assert [line.command for line in rig.sent()] == ["WHOIS"]  # and no IDENTIFY
    rig.answer_whois(*SERVICE)  # too late: stale
    assert rig.sent() == [] and rig.joins == 1


def test_a_lost_connection_ends_the_check_without_joining() -> None:
    rig = Rig()
    rig.login.registered()
    rig.login.lost()
    assert not rig.login.checking and rig.clock.pending == 0
    rig.clock.advance(NICKSERV_WHOIS_TIMEOUT + 1)
    assert rig.joins == 0


def test_nickserv_answers_are_said_in_one_line_and_accepted_takes_the_nick_back(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG, "unobot")
    rig = Rig()
    rig.nick = "Guest32460"
    rig.login.notice("NickServ", "You are now identified for \x02unobot\x02.")  # not asked yet
    assert rig.login.identified is None
    rig.login.registered()
    rig.answer_whois(*SERVICE)
    rig.sent()
    rig.login.notice("Mallory", "Password accepted - you are now recognized.")  # not NickServ
    rig.login.notice("NickServ", "This nickname is registered.")  # not news
    assert rig.login.identified is None
    rig.login.notice("nickserv", "You are now identified for \x02unobot\x02.")
    assert rig.login.identified is True
    assert "identified to nickserv: You are now identified for unobot." in caplog.text
    assert rig.sent() == [WireLine("NICK", "unobot", "")]
    rig.login.notice("NickServ", "Password incorrect.")  # one answer counts
    assert rig.login.identified is True


def test_a_refused_password_is_a_warning_and_keeps_the_nick(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO, "unobot")
    rig = Rig()
    rig.nick = "Guest1"
    rig.login.registered()
    rig.answer_whois(*SERVICE)
    rig.sent()
    rig.login.notice("NickServ", "Invalid password for unobot.")
    assert rig.login.identified is False and rig.sent() == []
    [warning] = [r for r in caplog.records if "refused the password" in r.getMessage()]
    assert warning.levelno == logging.WARNING


def test_renamed_by_services_it_takes_the_nick_back_only_once_identified(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO, "unobot")
    rig = Rig()
    rig.nick = "Guest32460"
    rig.login.renamed("unobot", "Guest32460")
    assert "the bot was renamed from unobot to Guest32460" in caplog.text
    assert rig.sent() == []  # not identified yet
    rig.login.identified = True
    rig.login.renamed("unobot", "Guest32460")
    assert rig.sent() == [WireLine("NICK", "unobot", "")] and rig.drains == 1
    caplog.clear()
    rig.login.renamed("Guest32460", "UNOBOT2")  # an alternate of its own: no news
    rig.login.renamed("Guest32460", "unobot")
    assert [r.getMessage() for r in caplog.records] == ["the bot is unobot again"]
    rig.connected = False
    rig.login.regain_nick()
    assert rig.sent() == []  # not while disconnected


def test_sasl_logged_in_means_no_nickserv(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, "unobot")
    rig = Rig(sasl_login="unobot", sasl_password="pw")
    rig.login.cap_seen()
    rig.login.sasl_succeeded()
    rig.login.registered()
    assert not rig.login.checking and rig.sent() == []
    assert [r.getMessage() for r in caplog.records] == ["SASL login succeeded (account unobot)"]


def test_sasl_outcomes_are_said_once_and_nickserv_is_tried_instead(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO, "unobot")
    rig = Rig(sasl_login="unobot", sasl_password="pw")
    rig.login.sasl_failed("")
    rig.login.registered()
    assert rig.login.checking  # NickServ instead
    said = [(r.levelno, r.getMessage()) for r in caplog.records]
    assert said == [
        (
            logging.ERROR,
            "SASL login failed: the server gave no reason (check irc.sasl_login and "
            "irc.sasl_password); NickServ is tried instead",
        )
    ]
    caplog.clear()
    rig.login.reset()
    rig.login.sasl_stuck("", "saslaborted")
    assert caplog.messages == ["SASL login failed: saslaborted (saslaborted)"]
    caplog.clear()
    rig.login.reset()  # no CAP at all (ircu, irc2)
    rig.login.registered()
    assert caplog.messages[0].startswith("SASL login skipped: the server does not negotiate")
    caplog.clear()
    rig.login.reset()
    rig.login.cap_seen()  # CAP, but SASL never finished
    rig.login.registered()
    assert caplog.messages[0] == (
        "SASL login not done: the server did not finish it; NickServ is tried instead"
    )
