"""Names and ops alone (:class:`unobot.irc.names.ChannelNames`): replies in, records out, no socket.

A NAMES reply comes in several 353 lines and ends with a 366; the core gets one record with
every nick, stripped of status prefixes and userhosts, never more than the limit. Whether a
nick is an operator is asked of the library's channel tracking once, then cached until
something may have changed it.
"""

from __future__ import annotations

from collections.abc import Collection

from unobot.irc.names import NAMES_LIMIT, ChannelNames
from unobot.irc.transport import Incoming, Kind


class FakeChannel:
    """The three questions the library's ``Channel`` answers, counted."""

    def __init__(
        self, opers: Collection[str], admins: Collection[str], owners: Collection[str]
    ) -> None:
        self.opers, self.admins, self.owners = opers, admins, owners
        self.asked = 0

    def is_oper(self, nick: str) -> bool:
        self.asked += 1
        return nick in self.opers

    def is_admin(self, nick: str) -> bool:
        return nick in self.admins

    def is_owner(self, nick: str) -> bool:
        return nick in self.owners


def test_a_names_reply_in_several_lines_is_one_record_without_prefixes() -> None:
    names = ChannelNames(lambda channel: None)
    names.namreply(["=", "#Uno", "@alice +bob"], "~&@%+")
    names.namreply(["=", "#uno", "@+carol dave!d@host.example ~&erin"], "~&@%+")
    names.namreply(["=", "#other", "zed"], "@+")
    assert names.endofnames(["#UNO", "End of /NAMES list."]) == Incoming(
        Kind.NAMES, "", "#UNO", "alice bob carol dave erin"
    )
    assert names.endofnames(["#uno", "End"]) == Incoming(Kind.NAMES, "", "#uno", "")  # gone
    assert names.endofnames(["#other"]) == Incoming(Kind.NAMES, "", "#other", "zed")


def test_odd_replies_are_ignored() -> None:
    names = ChannelNames(lambda channel: None)
    names.namreply(["=", "#uno"], "@+")  # no names field
    names.namreply(["=", "#uno", "@ + @+"], "@+")  # prefixes and nothing else
    assert names.endofnames([]) is None
    assert names.endofnames(["#uno"]) == Incoming(Kind.NAMES, "", "#uno", "")


def test_a_names_reply_keeps_at_most_the_limit() -> None:
    names = ChannelNames(lambda channel: None)
    for start in range(0, NAMES_LIMIT + 500, 500):
        names.namreply(["=", "#big", " ".join(f"n{i}" for i in range(start, start + 500))], "@+")
    record = names.endofnames(["#big"])
    assert record is not None and len(record.text.split()) == NAMES_LIMIT


def test_a_lost_connection_drops_the_replies_under_way() -> None:
    names = ChannelNames(lambda channel: None)
    names.namreply(["=", "#uno", "alice"], "@+")
    names.clear()
    assert names.endofnames(["#uno"]) == Incoming(Kind.NAMES, "", "#uno", "")


def test_is_op_asks_the_tracking_once_until_something_changes() -> None:
    chan = FakeChannel(opers={"alice"}, admins={"amy"}, owners={"olga"})
    names = ChannelNames(lambda channel: chan if channel == "#uno" else None)
    assert names.is_op("#uno", "alice") and names.is_op("#uno", "amy")
    assert names.is_op("#uno", "olga") and not names.is_op("#uno", "bob")
    assert not names.is_op("#elsewhere", "alice")  # not a channel the bot is in
    asked = chan.asked
    assert names.is_op("#uno", "alice") and not names.is_op("#uno", "bob")
    assert chan.asked == asked  # cached
    chan.opers = {"bob"}  # a MODE: the adapter says so
    names.forget_ops()
    assert names.is_op("#uno", "bob") and not names.is_op("#uno", "alice")
    chan.opers = {"alice"}
    names.namreply(["=", "#uno", "@alice"], "@+")  # a NAMES reply forgets too
    assert names.is_op("#uno", "alice")
    chan.opers = set()
    names.clear()
    assert not names.is_op("#uno", "alice")
