"""A computer player never takes the nick of somebody in the channel, nor a service's.

Before: ``.addbot easy victim`` with victim in the channel seated a computer called victim, and
the channel read "victim plays Y7" of a person who played nothing. The bot now keeps who is in
each channel (:class:`~unobot.core.members.Members`, from NAMES after its JOIN, then JOIN,
PART, KICK, QUIT and NICK) and ``.addbot`` refuses those names.
"""

from __future__ import annotations

import pytest

from tests.core.fakes import Harness, channel_lines, notices
from unobot.core.bot import BotConfig
from unobot.core.computers import ComputerConfig, is_service_nick
from unobot.core.members import Members
from unobot.irc.transport import Incoming, Kind


def harness(names: str = "unobot alice victim") -> Harness:
    """A bot in #uno with ``names`` in it (its own JOIN, then the NAMES), and alice's table."""
    h = Harness(1, BotConfig(bots=ComputerConfig(delay=0.0, playouts=8)))
    h.event(Kind.JOIN, h.bot.transport.nickname, "#uno")
    h.event(Kind.NAMES, "", "#uno", text=names)
    h.say("alice", ".uno")
    return h


def seated(h: Harness) -> list[str]:
    return [p.nick for p in h.bot.tables["#uno"].players]


# --- the member list ---------------------------------------------------------------------------


def test_members_follow_names_joins_departures_and_renames() -> None:
    m = Members()

    def feed(kind: Kind, nick: str, target: str = "", **extra: str) -> None:
        m.update(Incoming(kind, nick, target, **extra), "unobot")  # type: ignore[arg-type]

    feed(Kind.JOIN, "unobot", "#uno")
    feed(Kind.NAMES, "", "#uno", text="unobot Alice bob")
    feed(Kind.JOIN, "unobot", "#other")
    feed(Kind.NAMES, "", "#other", text="unobot alice")
    assert m.of("#UNO") == {"unobot", "alice", "bob"}
    assert m.present("#uno", "ALICE") and m.present("#uno", "Bob")
    feed(Kind.JOIN, "Carol", "#uno")
    feed(Kind.PART, "bob", "#uno")
    feed(Kind.NICK, "carol", new_nick="Caz")
    assert m.of("#uno") == {"unobot", "alice", "caz"}
    feed(Kind.KICK, "caz", "#uno")
    feed(Kind.QUIT, "alice")  # from every channel
    assert m.of("#uno") == {"unobot"} and m.of("#other") == {"unobot"}
    feed(Kind.MESSAGE, "dave", "#uno", text="hi")  # speaking is not joining
    assert not m.present("#uno", "dave")
    feed(Kind.PART, "unobot", "#other")  # the bot left: forgotten
    assert m.of("#other") == frozenset()
    feed(Kind.DISCONNECTED, "unobot")
    assert m.of("#uno") == frozenset()


def test_the_bots_own_join_starts_a_fresh_list() -> None:
    m = Members()
    m.update(Incoming(Kind.NAMES, "", "#uno", "unobot ghost"), "unobot")
    m.update(Incoming(Kind.JOIN, "unobot", "#uno"), "unobot")  # rejoined: the old list is stale
    assert m.of("#uno") == {"unobot"}


# --- .addbot -----------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["victim", "VICTIM", "alice_"])
def test_the_nick_of_someone_in_the_channel_is_refused(name: str) -> None:
    h = harness("unobot alice victim alice_")
    out = h.say("alice", f".addbot easy {name}")
    assert notices(out, "alice") == [
        f"{name} is in the channel: a computer player can't take a person's nick"
    ]
    assert not channel_lines(out)
    assert seated(h) == ["alice"]


@pytest.mark.parametrize(
    "name", ["NickServ", "chanserv", "OperServ", "Q", "X", "Global", "FooServ"]
)
def test_a_services_name_is_refused(name: str) -> None:
    h = harness()
    out = h.say("alice", f".addbot easy {name}")
    assert notices(out, "alice") == ["that name belongs to a network service: choose another name"]
    assert seated(h) == ["alice"]
    assert is_service_nick(name)


def test_seated_players_and_the_bots_own_nick_stay_taken() -> None:
    h = harness()
    for name in ("alice", "UNOBOT"):
        out = h.say("alice", f".addbot hard {name}")
        assert len(notices(out, "alice")) == 1 and "already taken" in notices(out, "alice")[0]
    assert seated(h) == ["alice"]


def test_a_name_is_free_again_once_its_owner_has_gone() -> None:
    h = harness()
    h.event(Kind.PART, "victim", "#uno")
    assert channel_lines(h.say("alice", ".addbot easy victim")) == [
        "victim (computer, easy) joins (2 players)."
    ]
    h.event(Kind.JOIN, "bob", "#uno")
    h.event(Kind.NICK, "bob", new_nick="Rookie")
    out = h.say("alice", ".addbot easy rookie")
    assert "is in the channel" in notices(out, "alice")[0]
    h.event(Kind.QUIT, "Rookie")
    assert channel_lines(h.say("alice", ".addbot easy Rookie")) == [
        "Rookie (computer, easy) joins (3 players)."
    ]


def test_default_names_skip_people_in_the_channel() -> None:
    h = harness("unobot alice NormalBot1 normalbot2")
    assert channel_lines(h.say("alice", ".addbot")) == [
        "NormalBot3 (computer, normal) joins (2 players)."
    ]


def test_a_bad_name_is_still_refused_without_echoing_it() -> None:
    h = harness()
    out = h.say("alice", ".addbot hard bad\x02serv")
    assert len(notices(out, "alice")) == 1 and "\x02" not in notices(out, "alice")[0]
    assert seated(h) == ["alice"]
