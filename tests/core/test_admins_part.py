"""Bot admins alone (``unobot.core.admins.Admins``): configured patterns, the run's code and
its grants, from plain records, without a bot."""

from __future__ import annotations

import logging

import pytest

from unobot.core.admins import AdminCode, Admins, Claim
from unobot.irc.transport import Incoming, Kind


def said(nick: str, userhost: str = "u@host", account: str | None = None) -> Incoming:
    return Incoming(Kind.MESSAGE, nick, "unobot", ".unoadmin", userhost, account)


def test_configured_masks_and_accounts_match_whatever_the_case() -> None:
    admins = Admins(["Ann!*@*.example", "$a:Bob"])
    assert admins.is_admin(said("ANN", "x@home.EXAMPLE"))
    assert not admins.is_admin(said("ann", "x@elsewhere"))
    assert admins.is_admin(said("anyone", account="bob"))
    assert not admins.is_admin(said("bob"))  # the nick alone is not the account
    assert not admins.is_admin(said("x", "$a:bob"))  # an account entry is no hostmask
    assert not Admins().is_admin(said("ann", "x@home.example"))


def test_the_code_grants_once_and_then_the_sender_is_already_admin(
    caplog: pytest.LogCaptureFixture,
) -> None:
    shown: list[str] = []
    admins = Admins()
    assert admins.claim(said("cat"), "$h:host", "aaaa-bbbb-cccc") is Claim.CLOSED  # no code
    admins.code = AdminCode(shown.append, make=iter(["aaaa-bbbb-cccc", "dddd-eeee-ffff"]).__next__)
    with caplog.at_level(logging.WARNING):
        assert admins.claim(said("cat"), "$h:host", "AAAA BBBB CCCC") is Claim.GRANTED
    assert "cat!u@host gave the admin code" in caplog.text and "aaaa" not in caplog.text
    assert admins.is_admin(said("cat")) and not admins.is_admin(said("cat", "u@other"))
    assert admins.claim(said("cat"), "$h:host", "dddd-eeee-ffff") is Claim.ALREADY
    assert shown[-1] == "dddd-eeee-ffff"  # the next code is still unused


def test_a_grant_follows_a_nick_change() -> None:
    admins = Admins()
    admins.code = AdminCode(lambda _code: None, make=iter(["aaaa-bbbb-cccc", "x"]).__next__)
    admins.claim(said("cat"), "$h:host", "aaaa-bbbb-cccc")
    admins.grants.renamed("cat", "kit")
    assert admins.is_admin(said("kit")) and not admins.is_admin(said("cat"))
