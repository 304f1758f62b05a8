"""The bot's games across network faults: kicked from a channel, the connection lost.

The adapter tells the core with records (``Kind.DISCONNECTED``, ``Kind.RECONNECTED``, and the
bot's own ``KICK``/``JOIN``); here they are fed by hand on a manual clock, so the fairness of
the timers can be checked to the second. The real thing, against real servers, is in
``tests/e2e/test_network_faults.py``.
"""

from __future__ import annotations

import logging

import pytest

from tests.core.fakes import Harness, channel_lines, read_status
from tests.core.test_games import Driver
from unobot.core.bot import BotConfig
from unobot.core.render_irc import Cards, resumed_text
from unobot.core.table import Table, TableConfig
from unobot.core.updates import Status
from unobot.engine import Phase
from unobot.engine.cards import Card, Color
from unobot.irc.casemap import irc_lower
from unobot.irc.transport import Kind

BOT = "unobot"  # the fake transport's nick


def table(h: Harness, channel: str = "#uno") -> Table:
    return h.bot.tables[irc_lower(channel)]


def current(t: Table) -> str:
    assert t.game is not None
    return t.players[t.game.current].nick


def dealt(seed: int = 6, **config: float) -> tuple[Harness, Table]:
    h = Harness(seed, BotConfig(table=TableConfig(**config)))  # type: ignore[arg-type]
    h.start(["alice", "bob", "carol"])
    return h, table(h)


def test_kicked_the_game_waits_and_goes_on_when_the_bot_is_back(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO, "unobot")
    h, t = dealt()
    mover = current(t)
    h.advance(100)  # 20 s of the turn left
    assert h.event(Kind.KICK, BOT, "#uno", text="go away") == []
    assert "kicked from #uno (go away)" in caplog.text
    out = h.advance(45)  # the turn's time would have run out twice over: nothing happens
    assert out == [] and current(t) == mover
    out = h.event(Kind.JOIN, BOT, "#UNO")
    assert [(s.kind, s.target) for s in out] == [("privmsg", "#uno")]  # one line, no more
    (line,) = channel_lines(out)
    assert line.startswith("Back after a kick: the game goes on. Top: ")
    assert read_status([line]) is not None and read_status([line]).turn == mover  # type: ignore[union-attr]
    # A whole turn again for the player to move: warned at 90 s, out of time at 120 s.
    assert h.advance(89.9) == []
    assert channel_lines(h.advance(0.1)) == [f"{mover}: your turn, 30s left."]
    assert h.advance(29.9) == []
    (timeout,) = channel_lines(h.advance(0.1))
    assert timeout.startswith(f"{mover} ran out of time.")
    assert "back in #uno after 45.0 s (kick)" in caplog.text


def test_the_game_plays_to_the_end_after_a_kick() -> None:
    h = Harness(8)
    game = Driver(h, ["alice", "bob", "carol"])
    for _ in range(6):
        game.step()
    h.event(Kind.KICK, BOT, "#uno")
    h.advance(3)
    (line,) = channel_lines(h.event(Kind.JOIN, BOT, "#uno"))
    assert read_status([line]) == game.seen
    game.finish()
    assert not h.bot.tables and h.clock.pending == 0


def test_kicked_and_not_back_within_the_grace_the_game_is_dropped_and_logged(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO, "unobot")
    h, _ = dealt(grace=30)
    h.event(Kind.KICK, BOT, "#uno", text="banned")
    assert h.advance(29.9) == [] and irc_lower("#uno") in h.bot.tables
    assert h.advance(0.1) == []  # nobody to tell: the bot isn't in the channel
    assert not h.bot.tables and h.clock.pending == 0
    assert "table in #uno dropped: the bot could not get back in within 30 s (after a kick)" in (
        caplog.text
    )
    # Back later: nothing to resume, nothing said.
    assert h.event(Kind.JOIN, BOT, "#uno") == []


def test_a_lobby_waits_too_and_is_shown_again() -> None:
    h = Harness(3)
    h.say("alice", ".uno")
    h.say("bob", ".join")
    h.event(Kind.KICK, BOT, "#uno")
    (line,) = channel_lines(h.event(Kind.JOIN, BOT, "#uno"))
    assert line == (
        "Back after a kick: the game goes on. alice's game is open (2 players: alice, bob): "
        ".join to play."
    )
    out = h.say("alice", ".deal")
    assert read_status(channel_lines(out)) is not None


def test_disconnected_every_game_waits_until_its_channel_is_rejoined(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO, "unobot")
    h = Harness(5)
    h.start(["alice", "bob"], "#one")
    h.start(["carol", "dave"], "#two")
    h.say("erin", ".uno", "#lobby")
    one, two = table(h, "#one"), table(h, "#two")
    movers = current(one), current(two)
    h.advance(110)
    assert h.event(Kind.DISCONNECTED, BOT, text="Connection reset by peer") == []
    assert "connection lost (Connection reset by peer): 3 game(s)" in caplog.text
    assert h.advance(600) == []  # however long the server is away: nothing times out
    assert len(h.bot.tables) == 3 and h.clock.pending == 0  # and no timer runs meanwhile
    assert h.event(Kind.RECONNECTED, BOT) == []  # not in any channel yet: nothing to say
    h.advance(2)
    lines = []
    seated = {"#one": ["alice", "bob"], "#two": ["carol", "dave"], "#lobby": []}
    for channel in ("#two", "#one", "#lobby"):
        out = h.event(Kind.JOIN, BOT, channel)
        assert out[0].target == channel
        # Every seated player gets their hand again: the server may have lost the last ones
        # with the connection (a flood kill drops whatever it had not read).
        hands = {s.target: s.text for s in out[1:]}
        assert sorted(hands) == seated[channel]
        lines += channel_lines(out, channel)
        # The player to move gets it as their turn brings it, the playable cards marked.
        status = read_status(channel_lines(out, channel)[:1])
        for nick, text in hands.items():
            turn = status is not None and nick == status.turn
            assert text.startswith("Your turn | Your cards" if turn else "Your cards"), hands
    assert all(x.startswith("Reconnected: the game goes on. ") for x in lines)
    assert read_status(lines[:1]).turn == movers[1]  # type: ignore[union-attr]
    assert read_status(lines[1:2]).turn == movers[0]  # type: ignore[union-attr]
    assert "erin's game is open (1 player: erin)" in lines[2]
    # Each turn clock starts again at the rejoin.
    assert h.advance(89.9) == []
    out = h.advance(0.1)
    assert channel_lines(out, "#one") == [f"{movers[0]}: your turn, 30s left."]
    assert channel_lines(out, "#two") == [f"{movers[1]}: your turn, 30s left."]


def test_reconnected_but_a_channel_is_not_rejoined_its_game_is_dropped_after_the_grace(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO, "unobot")
    h = Harness(5, BotConfig(table=TableConfig(grace=20)))
    h.start(["alice", "bob"], "#one")
    h.start(["carol", "dave"], "#two")
    h.event(Kind.DISCONNECTED, BOT, text="EOF")
    h.advance(300)  # disconnected: the hold does not run out
    h.event(Kind.RECONNECTED, BOT)
    h.event(Kind.JOIN, BOT, "#one")  # #two refuses the bot (say, banned meanwhile)
    h.advance(19.9)
    assert set(h.bot.tables) == {"#one", "#two"}
    h.advance(0.1)
    assert set(h.bot.tables) == {"#one"}
    assert (
        "table in #two dropped: the bot could not get back in within 20 s (after a disconnect)"
        in (caplog.text)
    )


def test_seats_held_and_a_timed_match_lose_no_time_to_the_bot() -> None:
    h = Harness(7, BotConfig(table=TableConfig(grace=60)))
    h.say("alice", ".uno")
    h.say("bob", ".join")
    h.say("carol", ".join")
    h.say("alice", ".deal 10m")
    t = table(h)
    start = h.clock.now()
    h.advance(20)
    h.event(Kind.QUIT, "carol")  # carol's seat is held for 60 s: until start + 80
    h.advance(10)
    h.event(Kind.DISCONNECTED, BOT)
    h.advance(100)  # 100 s lost
    h.event(Kind.RECONNECTED, BOT)
    h.event(Kind.JOIN, BOT, "#uno")
    assert t.dealt_at == pytest.approx(start + 100)  # the match's 10 minutes start later
    out = h.advance(49.9)  # carol had 50 s of grace left when the bot went away
    assert not any("carol is out" in x for x in channel_lines(out))
    out = h.advance(0.1)
    assert any("carol is out (gone for 60s)" in x for x in channel_lines(out))


def test_duplicate_joins_and_reconnects_say_nothing_more() -> None:
    h, _ = dealt()
    h.event(Kind.DISCONNECTED, BOT)
    h.event(Kind.RECONNECTED, BOT)
    assert len(channel_lines(h.event(Kind.JOIN, BOT, "#uno"))) == 1
    assert h.event(Kind.JOIN, BOT, "#uno") == []  # a second JOIN record: already back
    h.event(Kind.RECONNECTED, BOT)  # a reconnect without a disconnect changes nothing
    assert h.event(Kind.JOIN, BOT, "#uno") == []
    assert h.event(Kind.JOIN, BOT, "#other") == []  # a channel without a game


def test_the_bot_parting_drops_its_game_with_a_log_line(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, "unobot")
    h, _ = dealt()
    h.event(Kind.PART, BOT, "#uno")
    assert not h.bot.tables and h.clock.pending == 0
    assert "table in #uno dropped: the bot left the channel" in caplog.text


def test_a_finished_game_is_logged_when_dropped(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, "unobot")
    h, _ = dealt()
    h.say("alice", ".unostop")
    assert not h.bot.tables
    assert "table in #uno dropped: the game is over" in caplog.text


def test_the_bot_under_another_nick_after_a_reconnect_still_knows_its_join() -> None:
    h, _ = dealt()
    h.event(Kind.DISCONNECTED, BOT)
    h.transport.nickname = "unobot_"  # the old session still held the nick
    h.event(Kind.RECONNECTED, "unobot_")
    (line,) = channel_lines(h.event(Kind.JOIN, "unobot_", "#uno"))
    assert line.startswith("Reconnected: the game goes on.")


def test_resumed_text_shows_what_the_player_to_move_must_do() -> None:
    status = Status(
        Card.parse("WD4"), Color.GREEN, "bob", Phase.PENDING, 4, (("alice", 1), ("bob", 5)), "+4"
    )
    text = resumed_text("disconnect", status, None, Cards(False), "!")
    assert text == (
        "Reconnected: the game goes on. Top: WD4 (green). bob must draw 4 (!draw or stack a +4)."
        " UNO: alice."
    )
    assert resumed_text("kick", None, None, Cards(False)) == "Back after a kick: the game goes on."


def test_a_player_held_by_the_servers_target_limit_is_named_in_the_channel_once() -> None:
    """The adapter says the server makes the bot wait before it may send bob his cards
    (ircu's 439): the channel hears it, so nobody thinks the bot forgot him; someone who is
    not seated there is not named."""
    h, _ = dealt()
    out = h.event(Kind.HELD, "bob", "#uno", text="104")
    assert channel_lines(out, "#uno") == [
        "bob: the server makes me wait 104 s before I can send you your cards; they follow "
        "by themselves."
    ]
    assert h.event(Kind.HELD, "zed", "#uno", text="104") == []
    assert h.event(Kind.HELD, "bob", "#elsewhere", text="5") == []
