"""Extra connections (unobot.irc.pool): channels spread stably, each extra connection's
settings, and lines routed through the connection of their channel when it is in it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from unobot.irc.adapter import IrcSettings, ServerSettings
from unobot.irc.pool import ConnectionPool, extra_settings, home_of
from unobot.irc.transport import Tag


def settings(channels: int, **extra: Any) -> IrcSettings:
    return IrcSettings(
        servers=(ServerSettings("irc.example", 6667),),
        nick="unobot",
        channels={f"#c{i}": "" for i in range(channels)},
        nickserv_password="secret",
        **extra,
    )


def test_channels_spread_stably_over_the_connections() -> None:
    names = [f"#chan{i}" for i in range(300)]
    homes = [home_of(n, 3) for n in names]
    assert homes == [home_of(n.upper(), 3) for n in names]  # case does not move a channel
    assert all(homes.count(k) > 70 for k in range(3))  # roughly a third each
    assert {home_of(n, 1) for n in names} == {0}


def test_each_extra_connection_has_its_nick_its_channels_and_no_nickserv_password() -> None:
    base = settings(30, alt_nicks=("unobot_b",))
    extras = extra_settings(base, 3)
    assert [e.nick for e in extras] == ["unobot_b", "unobot3"]
    assert all(e.nickserv_password is None and e.alt_nicks == () for e in extras)
    shares = [set(e.channels) for e in extras]
    assert not shares[0] & shares[1]
    primary_share = {c for c in base.channels if home_of(c, 3) == 0}
    assert primary_share | shares[0] | shares[1] == set(base.channels)
    assert extra_settings(base, 1) == []


class FakeConn:
    def __init__(self, nick: str, joined: list[str], connected: bool = True) -> None:
        self.settings = IrcSettings(servers=(), nick=nick)
        self.nickname = nick
        self.joined = joined
        self.connected = connected
        self.sent: list[tuple[str, str, str]] = []
        self.calls = 0

    def privmsg(self, target: str, text: str, tag: Tag = Tag()) -> None:  # noqa: B008
        self.sent.append(("privmsg", target, text))

    def notice(self, target: str, text: str, tag: Tag = Tag()) -> None:  # noqa: B008
        self.sent.append(("notice", target, text))

    def call_soon_threadsafe(self, fn: Callable[[], None]) -> None:
        self.calls += 1
        fn()


def test_lines_leave_through_their_channels_connection_or_the_primary() -> None:
    channels = [f"#c{i}" for i in range(12)]
    home = {c: home_of(c, 3) for c in channels}
    mine = next(c for c in channels if home[c] == 1)
    theirs = next(c for c in channels if home[c] == 2)
    primary = FakeConn("unobot", channels)
    one = FakeConn("unobot2", [mine.upper()])
    two = FakeConn("unobot3", [theirs], connected=False)
    pool = ConnectionPool(primary, [one, two])  # type: ignore[list-item,arg-type]
    assert pool.nickname == "unobot"
    pool.privmsg(mine, "alice plays R5", Tag(mine))
    pool.notice("alice", "Your cards: R1", Tag(mine, key="hand alice"))
    pool.privmsg(theirs, "bob draws", Tag(theirs))  # its connection is down: the primary
    pool.notice("carol", "help text", Tag("", reply=True))  # about no channel: the primary
    assert one.sent == [("privmsg", mine, "alice plays R5"), ("notice", "alice", "Your cards: R1")]
    assert one.calls == 2
    assert primary.sent == [("privmsg", theirs, "bob draws"), ("notice", "carol", "help text")]
    assert two.sent == []
