"""Nick changes, players leaving and coming back, turn timers, and several channels at once."""

from __future__ import annotations

from dataclasses import dataclass
from random import Random

import pytest

from tests.core.fakes import Harness, channel_lines, notices, read_status
from tests.core.test_games import Driver
from unobot.core.bot import BotConfig
from unobot.core.render_irc import Cards, channel_text
from unobot.core.table import Table, TableConfig
from unobot.core.updates import EngineEvents, Removed, Update
from unobot.engine import preset
from unobot.engine.events import SeatRemoved
from unobot.engine.notation import parse_position
from unobot.irc.casemap import irc_lower
from unobot.irc.transport import Kind


def table(h: Harness, channel: str = "#uno") -> Table:
    return h.bot.tables[irc_lower(channel)]


def current(t: Table) -> str:
    assert t.game is not None
    return t.players[t.game.current].nick


def rigged(position: str, rules: str = "official", seed: int = 1) -> tuple[Harness, Table]:
    """A dealt game whose hand is replaced by an exact position (same players, same seats), so
    a test can reach a particular state through commands without searching for a seed."""
    h = Harness(seed, BotConfig(table=TableConfig(rules=preset(rules))))
    game, names = parse_position(position, preset(rules), Random(seed))
    h.start(names)
    t = table(h)
    assert t.match is not None and t.names == tuple(names)
    t.match.game = game
    t._new_turn(h.clock.now())
    return h, t


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


# --- removals and timeouts through the engine's interventions ------------------------------

FOUR = "alice*: R7 R8 | bob: G1 G2 | carol: Y1 Y2 | dave: B1 B2 | pile=B9 B8 B7 B6 B5 B4 B3 G9"


def test_a_removal_keeps_a_pending_uno_catch() -> None:
    h, t = rigged("top=R5 | " + FOUR)
    h.say("alice", ".play r7")  # down to one card without calling UNO: she can be caught
    out = h.say("carol", ".leave")
    assert channel_lines(out) == [
        "carol is out (left the game), their cards go under the draw pile. "
        "Top: R7. bob's turn. UNO: alice."
    ]
    out = h.say("dave", ".catch alice")
    assert "dave catches alice without UNO: alice draws 2" in channel_lines(out)[0]
    assert len(t.hand_of("alice")) == 3


def test_a_removal_keeps_a_wd4_open_to_challenge() -> None:
    h, t = rigged(
        "top=R5 | alice*: WD4 R7 R8 | bob: G1 G2 | carol: Y1 | dave: B1 | pile=" + "B9 " * 9
    )
    h.say("alice", ".play wd4 g")  # a bluff: she holds red
    h.say("dave", ".leave")
    out = h.say("bob", ".challenge")
    assert "bob challenges alice: the WD4 was a bluff" in channel_lines(out)[0]
    assert len(t.hand_of("alice")) == 2 + 4 and len(t.hand_of("bob")) == 2


def test_no_challenge_once_the_wd4_player_left() -> None:
    h, t = rigged("top=R5 | alice*: WD4 R7 | bob: G1 G2 | carol: Y1 | dave: B1 | pile=" + "B9 " * 9)
    h.say("alice", ".play wd4 g")
    h.say("alice", ".leave")
    assert "has left" in notices(h.say("bob", ".challenge"), "bob")[0]
    assert t.names == ("bob", "carol", "dave") and all(
        len(t.hand_of(n)) == 1 for n in ("carol", "dave")
    )
    out = h.say("bob", ".draw")
    assert "bob draws 4 and is skipped" in channel_lines(out)[0]
    assert len(t.hand_of("bob")) == 6


def test_a_removal_before_the_mover_keeps_their_clock() -> None:
    h, _ = rigged("top=R5 | alice: B1 | bob: G1 | carol*: R7 R8 | dave: B2 | pile=" + "B9 " * 9)
    h.say("carol", ".play r7")  # dave's turn starts now; carol can be caught
    h.advance(60)
    h.say("alice", ".leave")  # dave's seat number moves down one
    h.advance(10)
    h.say("carol", ".uno")  # out of turn: must not restart dave's clock
    out = h.advance(50)
    assert any(x.startswith("dave ran out of time") for x in channel_lines(out))


def test_timeout_draws_and_passes_with_a_playable_card() -> None:
    h, t = rigged("top=R5 | alice*: R7 B2 | bob: G1 | carol: Y1 | pile=B9 G3")
    out = h.advance(120)
    assert channel_lines(out)[-1].startswith("alice ran out of time. alice draws a card and passes")
    assert [c.text for c in t.hand_of("alice")] == ["R7", "B2", "B9"]
    assert current(t) == "bob"


def test_timeout_when_the_drawn_card_must_be_played() -> None:
    h, t = rigged("top=R5 | alice*: B2 | bob: G1 | carol: Y1 | pile=R9 G3", rules="knockout")
    assert channel_lines(h.say("alice", ".draw")) == []  # told with her decision
    assert "must play the card you drew" in notices(h.say("alice", ".pass"), "alice")[0]
    out = h.advance(120)
    _warning, line = channel_lines(out)
    assert line.startswith("alice draws a card. alice ran out of time. alice passes.")
    assert len(t.hand_of("alice")) == 2 and current(t) == "bob"


def test_timeout_on_a_pending_draw_ends_the_catch_window() -> None:
    h, t = rigged("top=R5 | alice*: WD4 R7 | bob: G1 | carol: Y1 | pile=" + "B9 " * 9)
    h.say("alice", ".play wd4 g")  # one card left, UNO not called: bob's turn begins
    out = h.advance(120)
    assert "bob ran out of time. bob draws 4 and is skipped" in channel_lines(out)[-1]
    assert "nobody" in notices(h.say("carol", ".catch alice"), "carol")[0]
    assert len(t.hand_of("alice")) == 1


def test_match_ends_when_too_few_are_left_for_the_next_hand() -> None:
    # ocuk-tournament needs three players to deal; the hand in play still ends normally
    h, _ = rigged("top=R5 | alice*: R7 | bob: G1 G2 | carol: Y1 | pile=B9 B8", "ocuk-tournament")
    h.say("carol", ".leave")
    out = h.say("alice", ".play r7")
    assert "alice wins the hand and 3 points!" in " ".join(channel_lines(out))
    assert not h.bot.tables and h.clock.pending == 0


def test_seat_removed_renders_once_and_unknown_events_are_ignored() -> None:
    @dataclass
    class FromTheFuture:
        seat: int

    names = ("alice", "bob", "carol")
    batch = EngineEvents((SeatRemoved(1, 3), FromTheFuture(0)), names)  # type: ignore[arg-type]
    plain = Cards(False)
    assert (
        channel_text(Update([batch]), plain) == "bob leaves the hand (3 cards under the draw pile)."
    )
    told = Update([Removed("Bob", "left the game"), batch])
    assert channel_text(told, plain) == (
        "Bob is out (left the game), their cards go under the draw pile."
    )


def test_a_failing_timer_is_retried_a_minute_later_not_at_once(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    # A timer whose handler raises (a bug) is still due: re-armed as is, it fired again at
    # once, for ever (the fuzz machine's "timers ran away"). Now once a minute.
    h = Harness(3)
    h.start(["alice", "bob"])
    calls: list[str] = []

    def broken(self: Table, name: str, now: float) -> Update:
        calls.append(name)
        raise RuntimeError("a bug")

    monkeypatch.setattr(Table, "timer_due", broken)
    h.advance(600)
    # the warning and the turn's end, each when due (<= 120 s), then once a minute
    assert 8 <= calls.count("turn") <= 10 and 8 <= calls.count("warn") <= 10
    assert "timer turn for #uno failed" in caplog.text
