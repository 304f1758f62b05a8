"""A deal that can't happen is refused in words, and a deal that fails leaves a lobby.

Found from outside: ``.unorules set hand_size 15``, 8 players and ``.deal`` raised IndexError
after the table was marked as playing with no game, and every command then answered "the cards
have not been dealt yet" and ``.deal`` "the cards are already dealt" until ``.unostop``.
"""

from __future__ import annotations

import dataclasses
import logging

import pytest

from tests.core.fakes import Harness, notices, strip_codes
from unobot.core.bot import BotConfig
from unobot.core.table import State, TableConfig
from unobot.engine import Match, preset
from unobot.irc.casemap import irc_lower

OP = {"is_op": True}
EIGHT = ["p1", "p2", "p3", "p4", "p5", "p6", "p7", "p8"]


def test_a_hand_size_no_deck_can_deal_is_refused_by_unorules() -> None:
    h = Harness()
    h.say("op", ".unorules preset official", **OP)
    h.advance(10)
    out = h.say("op", ".unorules set hand_size 15", **OP)
    reply = " ".join(strip_codes(s.text) for s in out)
    assert "too few to turn a start card" in reply and "hand_size 10 at most" in reply
    h.advance(10)
    h.start(EIGHT)
    table = h.bot.tables[irc_lower("#uno")]
    assert table.dealt and table.config.rules.hand_size == 7


def test_rules_that_skipped_validation_are_refused_at_the_deal_and_the_lobby_stays() -> None:
    unchecked = dataclasses.replace(preset("official"), hand_size=15)
    h = Harness(config=BotConfig(table=TableConfig(rules=unchecked)))
    out = h.start(EIGHT)
    assert any("can't deal: 8 players with 15 cards each" in n for n in notices(out, "p1"))
    table = h.bot.tables[irc_lower("#uno")]
    assert table.state is State.LOBBY and table.match is None
    h.say("p8", ".leave")
    assert "p8" not in table.names  # still a lobby: seats come and go


def test_a_deal_that_raises_below_the_table_leaves_a_lobby_that_can_deal_again(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    h = Harness()
    real = Match.start_hand
    calls = {"n": 0}

    def failing_once(self: Match) -> list[object]:
        calls["n"] += 1
        if calls["n"] == 1:
            raise RuntimeError("a bug below the table")
        return real(self)  # type: ignore[return-value]

    monkeypatch.setattr(Match, "start_hand", failing_once)
    with caplog.at_level(logging.ERROR):
        out = h.start(["alice", "bob"])
    assert "a bug below the table" in caplog.text
    assert not any("Traceback" in s.text for s in out)
    table = h.bot.tables[irc_lower("#uno")]
    assert table.state is State.LOBBY and table.match is None and table.hand_number == 0
    out = h.say("alice", ".deal")
    assert table.dealt and table.hand_number == 1
    assert notices(out, "alice") and notices(out, "bob"), "both got their hands"
