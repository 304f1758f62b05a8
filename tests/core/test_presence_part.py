"""Presence alone (``unobot.core.presence.Presence``): seats held for players who left, their
end, a return, nick changes, on plain players and the fake clock."""

from __future__ import annotations

from tests.core.fakes import FakeScheduler
from unobot.core.presence import Presence
from unobot.core.seats import Player
from unobot.core.updates import Away, Back


def seated(*nicks: str) -> list[Player]:
    return [Player(n, n.lower()) for n in nicks]


def test_a_seat_is_held_for_the_grace_from_the_first_departure() -> None:
    fake = FakeScheduler()
    players = seated("ann", "bob")
    presence = Presence(players, grace=60.0)
    assert presence.away(players[1], fake.now()) == Away("bob", 60)
    left = fake.now()
    fake.advance(10)
    presence.away(players[1], fake.now())  # a second quit: the hold runs from the first
    out: dict[str, float] = {}
    presence.deadlines(out)
    assert out == {"away:bob": left + 60}
    assert presence.expired("away:bob", left + 59) is None
    assert presence.expired("away:bob", left + 60) == 1
    assert presence.back(players[1]) == Back("bob") and players[1].away_since is None
    assert presence.expired("away:bob", left + 60) is None


def test_two_seats_of_one_account_share_the_earlier_end() -> None:
    players = [Player("ann", "$a:acct"), Player("ann2", "$a:acct")]
    presence = Presence(players, grace=60.0)
    presence.away(players[1], 100.0)
    presence.away(players[0], 120.0)
    out: dict[str, float] = {}
    presence.deadlines(out)
    assert out == {"away:$a:acct": 160.0}
    assert presence.expired("away:$a:acct", 160.0) == 1  # the seat whose hold ended


def test_an_absence_of_the_bot_moves_earlier_holds_on() -> None:
    players = seated("ann", "bob", "cat")
    presence = Presence(players, grace=60.0)
    presence.away(players[0], 100.0)
    presence.away(players[1], 200.0)
    presence.catch_up(150.0, 30.0)
    assert players[0].away_since == 130.0 and players[1].away_since == 200.0


def test_a_nick_change_renames_the_seat_and_marks_a_held_namesake_gone() -> None:
    players = seated("ann", "bob")
    presence = Presence(players, grace=60.0)
    assert presence.rename("zoe", "zed") is None
    assert presence.rename("ANN", "bob") == [("bob", "bob(gone)"), ("ANN", "bob")]
    assert [p.nick for p in players] == ["bob", "bob(gone)"]
    assert presence.rename("bob", "Bob") == [("bob", "Bob")]  # their own nick, new case
