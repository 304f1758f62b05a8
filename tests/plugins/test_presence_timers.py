"""Nick changes, players leaving and coming back, turn timers, and several channels at once."""

from __future__ import annotations

from tests.plugins.fakes import Harness, channel_lines, notices, read_status
from tests.plugins.test_games import Driver
from unobot.casemap import irc_lower
from unobot.table import Table
from unobot.transport import Kind


def table(h: Harness, channel: str = "#uno") -> Table:
    return h.bot.tables[irc_lower(channel)]


def current(t: Table) -> str:
    assert t.game is not None
    return t.players[t.game.current].nick


def total_cards(t: Table) -> int:
    game = t.game
    assert game is not None
    return sum(map(len, game.hands)) + len(game.draw_pile) + len(game.discard)


def test_nick_change_follows_the_player() -> None:
    h = Harness(3)
    h.start(["alice", "bob", "carol"])
    t = table(h)
    mover = current(t)
    hand = t.hand_of(mover)
    assert h.event(Kind.NICK, mover, new_nick="Renamed[1]") == []
    assert current(t) == "Renamed[1]" and t.hand_of("renamed{1}") == hand
    assert "not playing" in notices(h.say(mover, ".draw"), mover)[0]
    out = h.say("RENAMED{1}", ".cards")
    assert out[0].target == "RENAMED{1}" and "Your cards (7)" in out[0].text
    if mover == "alice":  # the starter's rights follow the nick too
        assert t.starter == "Renamed[1]"


def test_quit_holds_the_seat_then_removes_the_player() -> None:
    h = Harness(4)
    h.start(["alice", "bob", "carol", "dave"])
    t = table(h)
    cards = total_cards(t)
    bob_hand = t.hand_of("bob")
    out = h.event(Kind.QUIT, "bob")
    assert channel_lines(out) == ["bob left: their seat is held for 60s."]
    out = h.advance(59)
    assert all("bob is out" not in line for line in channel_lines(out))
    out = h.advance(1)
    (line,) = [x for x in channel_lines(out) if "bob is out" in x]
    assert "gone for 60s" in line and "Top: " in line
    assert t.names == ("alice", "carol", "dave")
    assert total_cards(t) == cards
    game = t.game
    assert game is not None
    assert sorted(game.draw_pile[: len(bob_hand)], key=lambda c: c.code) == list(bob_hand)
    assert current(t) in t.names  # play goes on without bob


def test_part_and_rejoin_within_grace_keeps_the_seat() -> None:
    h = Harness(4)
    h.start(["alice", "bob", "carol"])
    t = table(h)
    h.event(Kind.PART, "Bob", "#uno")
    h.advance(30)
    out = h.event(Kind.JOIN, "bob", "#UNO")
    assert channel_lines(out) == ["bob is back."]
    h.advance(40)
    assert t.names == ("alice", "bob", "carol")
    # a kick is a departure too; speaking in the channel counts as coming back
    h.event(Kind.KICK, "carol", "#uno", text="flood")
    assert "carol left" in channel_lines(h.sent[-1:])[0]
    h.say("carol", ".top")
    assert t.players[2].away_since is None


def test_last_player_standing_wins_and_is_scored() -> None:
    h = Harness(4)
    h.start(["alice", "bob"])
    t = table(h)
    bob_points = sum(c.points for c in t.hand_of("bob"))
    h.event(Kind.PART, "bob", "#uno")
    out = h.advance(60)
    lines = channel_lines(out)
    assert any("bob is out" in x for x in lines)
    assert any(f"alice wins the hand and {bob_points} points" in x for x in lines), lines
    assert any("Left: bob 7 cards" in x and "alice 7" not in x for x in lines)
    assert not h.bot.tables and h.clock.pending == 0


def test_leave_mid_game() -> None:
    h = Harness(4)
    h.start(["alice", "bob", "carol"])
    t = table(h)
    out = h.say("carol", ".leave")
    assert "carol is out (left the game)" in channel_lines(out)[0]
    assert t.names == ("alice", "bob")


def test_turn_timer_warns_then_draws_and_passes_then_removes() -> None:
    h = Harness(6)
    h.start(["alice", "bob", "carol"])
    t = table(h)
    first = current(t)
    hand_size = len(t.hand_of(first))
    out = h.advance(90)
    assert channel_lines(out) == [f"{first}: your turn, 30s left."]
    out = h.advance(30)
    (line,) = channel_lines(out)
    assert line.startswith(f"{first} ran out of time. {first} draws a card and passes")
    assert len(t.hand_of(first)) == hand_size + 1
    assert notices(out, first)[0].startswith("You drew ")
    assert current(t) != first
    # everyone idles: each strike is one, then the first to time out twice is removed
    h.advance(240)
    out = h.advance(120)
    assert any(f"{first} is out (2 turns timed out)" in x for x in channel_lines(out))
    assert first not in t.names
    h.advance(10_000)
    assert not h.bot.tables and h.clock.pending == 0


def test_acting_resets_the_timeout_strikes() -> None:
    h = Harness(6)
    d = Driver(h, ["alice", "bob"], seed=6)
    t = table(h)
    first = current(t)
    out = h.advance(120)  # first times out once
    assert t.player(first).timeouts == 1  # type: ignore[union-attr]
    d.feed(out)
    d.seen = read_status(channel_lines(out))
    # the other player moves, then first moves himself: strikes back to zero
    while current(t) != first:
        d.step()
    d.step()
    assert t.player(first).timeouts == 0  # type: ignore[union-attr]


def test_several_channels_at_once_share_nothing() -> None:
    h = Harness(8)
    one = Driver(h, ["alice", "bob", "carol", "dave"], "#one", seed=1)
    two = Driver(h, ["erin", "frank", "Alice"], "#Two", seed=2)
    assert set(h.bot.tables) == {"#one", "#two"}
    steps = 0
    while one.running or two.running:
        for d in (one, two):
            if d.running:
                d.step()
                steps += 1
    assert steps > 20
    assert one.finish().winner_line and two.finish().winner_line
    assert not h.bot.tables and h.clock.pending == 0


def test_private_commands_need_a_single_game() -> None:
    h = Harness(8)
    h.start(["alice", "bob"], "#one")
    h.start(["alice", "carol"], "#two")
    assert "no Uno game" in notices(h.pm("alice", ".cards"), "alice")[0]
    assert "Your cards" in notices(h.pm("bob", ".cards"), "bob")[0]
