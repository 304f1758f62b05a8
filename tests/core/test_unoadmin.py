"""``.unoadmin CODE``: the one-time admin code from the bot's console makes the sender a bot
admin for the run, whatever the order of joining (``unobot.core.admins``). Against the fake
transport; the real processes: ``tests/e2e/test_unoadmin_e2e.py``."""

from __future__ import annotations

import logging
import re

import pytest

from tests.core.fakes import Harness, Sent
from unobot.core.admins import ALPHABET, TRIES, WRONG_IN_ALL, AdminCode, Claim, new_code
from unobot.core.bot import BotConfig
from unobot.irc.transport import Incoming, Kind

CODE = re.compile(rf"[{ALPHABET}]{{4}}-[{ALPHABET}]{{4}}-[{ALPHABET}]{{4}}\Z")
HOST = "me@192.0.2.7"


def test_codes_are_twelve_unmistakable_characters_and_all_different() -> None:
    codes = {new_code() for _ in range(500)}
    assert len(codes) == 500
    assert all(CODE.match(code) for code in codes)
    assert not set("ilo01") & set("".join(codes))


def test_a_code_works_once_in_any_case_with_or_without_dashes() -> None:
    shown: list[str] = []
    code = AdminCode(shown.append)
    first = shown[-1]
    typed = "  " + first.replace("-", " ").upper() + " "
    assert code.check("$h:a", typed) is Claim.GRANTED
    assert len(shown) == 2 and shown[1] != first  # the next one is shown
    assert code.check("$h:b", first) is Claim.WRONG  # used up
    assert code.check("$h:b", shown[1].replace("-", "")) is Claim.GRANTED


def test_three_wrong_codes_lock_a_person_out_and_twenty_close_the_code(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO)
    shown: list[str] = []
    closed: list[bool] = []
    code = AdminCode(shown.append, lambda: closed.append(True))
    for _ in range(TRIES):
        assert code.check("$h:guesser", "aaaa-bbbb-cccc", "guesser!x@y") is Claim.WRONG
    assert code.check("$h:guesser", shown[-1]) is Claim.LOCKED  # even the right one
    assert "3 wrong codes from guesser!x@y" in caplog.text
    assert "aaaa" not in caplog.text  # a guess is never logged
    for n in range(WRONG_IN_ALL - TRIES - 1):
        assert code.check(f"$h:other{n}", "nope") is Claim.WRONG
    assert closed == []
    assert code.check("$h:last", "nope") is Claim.WRONG
    assert closed == [True] and not code.open
    assert code.check("$h:owner", shown[-1]) is Claim.CLOSED
    assert all(c not in caplog.text for c in shown)  # nor the code


def _with_code(config: BotConfig | None = None) -> tuple[Harness, list[str]]:
    h = Harness(3, config)
    shown: list[str] = []
    h.bot.admin_code = AdminCode(shown.append)
    return h, shown


def _pm(h: Harness, nick: str, text: str, userhost: str = HOST, **extra: object) -> list[Sent]:
    start = len(h.sent)
    h.bot.handle(Incoming(Kind.MESSAGE, nick, "unobot", text, userhost=userhost, **extra))  # type: ignore[arg-type]
    return h.sent[start:]


def _texts(sent: list[Sent]) -> list[str]:
    return [s.text for s in sent]


def test_the_code_said_privately_lets_a_non_operator_change_rules_and_language() -> None:
    h, shown = _with_code()
    refused = h.say("me", ".unorules preset official", userhost=HOST)
    assert _texts(refused) == ["only a channel operator or a bot admin can change the rules"]
    answer = _pm(h, "me", f".unoadmin {shown[-1]}")
    assert [(s.kind, s.target) for s in answer] == [("notice", "me")]
    assert answer[0].text == (
        "You are a bot admin until the bot stops: you may change the rules (.unorules) and the "
        "language (.unolang) of any channel, stop any game (.unostop) and run tournaments "
        "(.tournament)."
    )
    said = h.say("me", ".unorules preset official", userhost=HOST)
    assert _texts(said) == ["me set the rules: official"]
    said = h.say("me", ".unolang de", userhost=HOST)
    assert _texts(said) == ["me hat die Sprache hier festgelegt: Deutsch."]
    assert len(shown) == 2  # the next code is on the console
    assert _texts(_pm(h, "me", f".unoadmin {shown[-1]}")) == ["You are a bot admin already."]
    assert len(shown) == 2  # and still unused


def test_the_code_said_in_the_channel_is_answered_privately_and_never_said_back() -> None:
    h, shown = _with_code()
    code = shown[-1]
    answer = h.say("me", f".unoadmin {code}", userhost=HOST)
    assert [s.kind for s in answer] == ["notice", "notice"]
    assert all(s.target == "me" and code not in s.text for s in answer)
    assert answer[1].text == (
        "That code was seen in the channel, but it worked only once. Next time say it to the "
        "bot alone: /msg unobot .unoadmin <code>"
    )
    assert h.bot.is_admin(Incoming(Kind.MESSAGE, "me", "#uno", "", userhost=HOST))
    # Anyone who read it in the channel is too late.
    late = h.say("reader", f".unoadmin {code}", userhost="r@198.51.100.1")
    assert _texts(late) == ["that is not the admin code"]


def test_a_wrong_code_gets_one_short_line_and_a_guesser_is_locked_out() -> None:
    h, shown = _with_code()
    for _ in range(TRIES):
        answer = _pm(h, "eve", ".unoadmin abcd-efgh-jkmn", userhost="eve@203.0.113.9")
        assert _texts(answer) == ["that is not the admin code"]
    answer = _pm(h, "eve2", f".unoadmin {shown[-1]}", userhost="eve@203.0.113.9")  # same host
    assert _texts(answer) == ["too many wrong codes: the bot takes none from you until it restarts"]
    assert _texts(_pm(h, "eve", ".unoadmin")) == [
        ".unoadmin <code>: the admin code the bot showed on its console; say it to the bot "
        "alone: /msg unobot .unoadmin <code>"
    ]


def test_the_grant_follows_a_nick_change_and_is_not_the_nicks() -> None:
    h, shown = _with_code()
    _pm(h, "me", f".unoadmin {shown[-1]}")
    h.event(Kind.NICK, "me", "", userhost=HOST, new_nick="Me2")
    assert h.bot.is_admin(Incoming(Kind.MESSAGE, "me2", "#uno", "", userhost=HOST))
    # The old nick, taken by someone on another host, is nobody's admin.
    assert not h.bot.is_admin(Incoming(Kind.MESSAGE, "me", "#uno", "", userhost="x@192.0.2.99"))
    assert not h.bot.is_admin(Incoming(Kind.MESSAGE, "Me2", "#uno", "", userhost="x@192.0.2.99"))


def test_with_a_services_account_the_account_is_the_admin() -> None:
    h, shown = _with_code()
    _pm(h, "me", f".unoadmin {shown[-1]}", userhost="me@gateway/web", account="Alice")
    other_nick = Incoming(
        Kind.MESSAGE, "alice_", "#uno", "", userhost="a@elsewhere", account="alice"
    )
    assert h.bot.is_admin(other_nick)
    assert not h.bot.is_admin(Incoming(Kind.MESSAGE, "me", "#uno", "", userhost="me@other"))


def test_without_a_code_the_command_says_so() -> None:
    h = Harness(3)  # bot.admin_code off (or closed after too many wrong codes)
    assert _texts(_pm(h, "me", ".unoadmin abcd-efgh-jkmn")) == [
        "the bot takes no admin code now: ask whoever runs it"
    ]


def test_a_configured_admin_needs_no_code_and_leaves_it_unused() -> None:
    h, shown = _with_code(BotConfig(admins=frozenset({"*!me@192.0.2.7"})))
    assert _texts(_pm(h, "me", ".unoadmin whatever")) == ["You are a bot admin already."]
    assert (
        h.bot.claim_admin(
            Incoming(Kind.MESSAGE, "me", "unobot", "", userhost=HOST), "$h:x", shown[-1]
        )
        is Claim.ALREADY
    )
    assert len(shown) == 1


def test_answers_are_in_the_senders_language() -> None:
    h, _shown = _with_code()
    h.bot.settings.set_language("me", "fr")
    answer = _pm(h, "me", ".unoadmin zzzz")
    assert _texts(answer) == ["ce n'est pas le code admin"]


def test_a_failing_unoadmin_is_logged_without_its_code(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    h, shown = _with_code()

    class Broken:
        def update(self, *args: object) -> None:
            raise RuntimeError("a bug")

    monkeypatch.setattr(h.bot, "members", Broken())
    _pm(h, "me", f".unoadmin {shown[-1]}")
    assert "failed to handle" in caplog.text and shown[-1] not in caplog.text
