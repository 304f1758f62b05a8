"""Outbox: sanitising, byte-aware splitting, and the token bucket over a queue fair by
channel, with a fake clock."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from unobot.irc.outbox import Lane, Outbox, WireLine, sanitize, sanitize_target, split_text
from unobot.irc.transport import Tag


def test_sanitize_drops_line_breaks_nul_and_ctcp_but_keeps_colours() -> None:
    text = "a\r\nQUIT :bye\x00\x01ACTION\x01 \x02b\x02 \x0304,01R5\x0f \x16\x1d\x1fx\x07\x7f"
    out = sanitize(text)
    assert not set(out) & {"\r", "\n", "\x00", "\x01", "\x07", "\x7f"}
    assert "\x02b\x02" in out and "\x0304,01R5\x0f" in out and "\x16\x1d\x1f" in out
    assert out.startswith("a  QUIT :bye")


def test_sanitize_target_is_one_word() -> None:
    assert sanitize_target("bob\r\nQUIT") == "bob  QUIT".replace(" ", "")
    assert sanitize_target(":#chan x") == "#chanx"
    assert sanitize_target("a,b") == "ab"
    assert sanitize_target("\x02bob\x03") == "bob"


def test_split_short_text_is_one_piece_and_empty_is_none() -> None:
    assert split_text("hello world") == ["hello world"]
    assert split_text("") == []
    assert split_text("   ") == []


def test_split_at_spaces_keeps_cards_whole() -> None:
    cards = " ".join(f"\x0304R{i % 10}\x0f" for i in range(200))
    pieces = split_text(cards, 100)
    assert all(len(p.encode()) <= 100 for p in pieces)
    words = [w for p in pieces for w in p.split(" ")]
    assert words == cards.split(" ")


def test_split_never_cuts_multibyte_characters() -> None:
    text = "é" * 1000  # no spaces: hard cuts
    pieces = split_text(text, 401)
    assert "".join(pieces) == text
    assert all(len(p.encode()) <= 401 for p in pieces)


def test_split_does_not_separate_colour_code_from_digits() -> None:
    text = "x" * 8 + "\x0304,12word"  # a hard cut at 10 bytes would fall after "\x030"
    pieces = split_text(text, 10)
    assert pieces[0] == "x" * 8
    assert pieces[1].startswith("\x0304,12")
    assert "".join(pieces) == text


_ALPHABET = st.sampled_from(["a", " ", "é", "€", "😀", "\x03", "1", ","])


@given(st.text(alphabet=_ALPHABET, max_size=300))
def test_split_property_bytes_and_content(text: str) -> None:
    pieces = split_text(text, 16)
    assert all(0 < len(p.encode()) <= 16 for p in pieces)
    # Only spaces are lost, and only at the cut points.
    assert "".join(pieces).replace(" ", "") == text.replace(" ", "")


def test_bucket_burst_then_rate_with_fake_clock() -> None:
    box = Outbox(burst=4, rate=1.0)
    for i in range(10):
        box.push("NOTICE", "#c", f"line {i}")
    assert [ln.text for ln in box.due(0.0)] == [f"line {i}" for i in range(4)]
    assert box.due(0.0) == []
    assert box.next_time(0.0) == pytest.approx(1.0)
    assert box.due(0.5) == []
    assert box.next_time(0.5) == pytest.approx(1.0)
    assert [ln.text for ln in box.due(1.0)] == ["line 4"]
    assert [ln.text for ln in box.due(3.0)] == ["line 5", "line 6"]
    # Idle time refills only up to the burst.
    assert len(box.due(100.0)) == 3
    assert box.next_time(100.0) is None


def test_sent_lines_never_exceed_burst_plus_rate_times_time() -> None:
    box = Outbox(burst=4, rate=2.0)
    for i in range(60):
        box.push("NOTICE", "bob", str(i))
    sent: list[tuple[float, WireLine]] = []
    now = 0.0
    while (t := box.next_time(now)) is not None:
        now = t
        sent.extend((now, line) for line in box.due(now))
    assert len(sent) == 60
    assert sent[-1][0] == pytest.approx((60 - 4) / 2.0)
    for when, _ in sent:
        assert sum(1 for w, _ in sent if w <= when) <= 4 + 2.0 * when + 1e-6


def test_control_first_then_a_games_hands_before_its_channel_lines() -> None:
    box = Outbox(burst=3, rate=1.0)
    box.push("PRIVMSG", "#uno", "chatter 1")
    box.push("PRIVMSG", "#uno", "chatter 2")
    box.push("NOTICE", "alice", "your hand", tag=Tag("#uno"))
    box.push("JOIN", "#uno", "key")
    box.push("NOTICE", "bob", "your hand", tag=Tag("#UNO"))
    assert box.due(0.0) == [
        WireLine("JOIN", "#uno", "key"),
        WireLine("NOTICE", "alice", "your hand"),
        WireLine("NOTICE", "bob", "your hand"),
    ]
    assert [ln.text for ln in box.due(2.0)] == ["chatter 1", "chatter 2"]


def test_explicit_lane_and_rate_zero_is_unlimited() -> None:
    box = Outbox(burst=1, rate=0)
    box.push("NOTICE", "bob", "late", lane=Lane.CHANNEL)
    for i in range(100):
        box.push("PRIVMSG", "#c", str(i))
    box.push("NOTICE", "carol", "first")
    lines = box.due(0.0)
    # Two flows take turns: private lines (hands first) and #c.
    assert len(lines) == 102 and [ln.text for ln in lines[:4]] == ["first", "0", "late", "1"]
    assert box.next_time(0.0) is None


def test_push_splits_and_sanitises_and_reports_count() -> None:
    box = Outbox(burst=100, rate=0, limit=50)
    assert box.push("privmsg", "#c", "word " * 40) == 4
    assert box.push("NOTICE", "bob\r\n", "a\r\nb") == 1
    assert box.push("NOTICE", " ", "nobody") == 0
    assert box.push("NOTICE", "bob", "\r\n") == 0
    lines = box.due(0.0)
    assert all(ln.command in ("PRIVMSG", "NOTICE") for ln in lines)
    assert WireLine("NOTICE", "bob", "a  b") in lines and len(lines) == 5


def drain(box: Outbox, until: float = 10_000.0, start: float = 0.0) -> list[tuple[float, WireLine]]:
    """Everything the box sends, with when, as the adapter's timer would take it."""
    sent: list[tuple[float, WireLine]] = []
    now = start
    while (t := box.next_time(now)) is not None and t <= until:
        now = t
        sent.extend((now, line) for line in box.due(now))
    return sent


def test_a_busy_channel_gets_its_share_and_no_more() -> None:
    """One channel floods 100 lines; another game's 3 lines, queued after, still go within
    the next six (two flows: every other line), not after the hundred."""
    box = Outbox(burst=1, rate=1.0)
    for i in range(100):
        box.push("PRIVMSG", "#busy", f"spam {i}")
    box.due(0.0)
    for i in range(3):
        box.push("PRIVMSG", "#game", f"move {i}")
    sent = [line.text for _, line in drain(box)]
    assert [sent.index(f"move {i}") for i in range(3)] == [1, 3, 5]


@settings(max_examples=80, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from(["#a", "#b", "#c", "#d", ""]), st.booleans(), st.integers(1, 5)),
        min_size=1,
        max_size=60,
    )
)
def test_each_game_sends_at_least_every_one_and_a_half_rounds(
    pushes: list[tuple[str, bool, int]],
) -> None:
    """The fairness bound: while a game has lines waiting, no more than the other games' lines
    (one each) and one reply per two game lines go between two of its own, however many
    replies wait; and replies are never starved (no more than two game lines in a row while
    one waits). Replies don't expire here."""
    box = Outbox(burst=1, rate=1.0, reply_ttl=1e9)
    for channel, reply, count in pushes:
        for i in range(count):
            kind = "reply" if reply else "game"
            if channel:
                box.push("PRIVMSG", channel, f"{kind} {i}", tag=Tag(channel, reply=reply))
            else:
                box.push("NOTICE", "someone", f"{kind} {i}", tag=Tag("", reply=reply))
    sent = [line for _, line in drain(box)]
    assert len(sent) == sum(n for _, _, n in pushes)
    games = {c for c, reply, _ in pushes if not reply}
    bound = len(games) + -(-len(games) // 2)  # G + ceil(G / 2)
    order = [(ln.target if ln.target.startswith("#") else "", ln.text[:4]) for ln in sent]
    for flow in games:
        positions = [i for i, (f, kind) in enumerate(order) if f == flow and kind == "game"]
        assert positions[0] < bound
        for a, b in itertools.pairwise(positions):
            assert b - a <= bound, (flow, a, b, order)
    last_reply = max((i for i, (_, kind) in enumerate(order) if kind == "repl"), default=0)
    run = 0
    for _, kind in order[:last_reply]:
        run = run + 1 if kind == "game" else 0
        assert run <= 2, order


def test_replies_get_every_third_turn_and_expire_rather_than_arrive_late() -> None:
    box = Outbox(burst=1, rate=1.0, reply_ttl=5.0)
    for i in range(6):
        box.push("PRIVMSG", "#uno", f"game {i}")
        box.push("NOTICE", "carol", f"help {i}", tag=Tag("#uno", reply=True))
    sent = drain(box)
    texts = [line.text for _, line in sent]
    # game, game, reply, game, game, reply, ... and the replies older than 5 s are gone.
    assert texts[:6] == ["game 0", "game 1", "help 0", "game 2", "game 3", "help 1"]
    assert all(when <= 5.0 for when, line in sent if line.text.startswith("help"))
    assert box.dropped == 6 - sum(1 for t in texts if t.startswith("help"))
    assert len(box) == 0


def test_a_newer_hand_replaces_the_queued_one() -> None:
    box = Outbox(burst=1, rate=1.0)
    box.due(0.0)  # the bucket is empty: everything waits
    box.push("NOTICE", "bob", "Your cards: R1 R2", tag=Tag("#uno", key="hand:bob"))
    box.push("PRIVMSG", "#uno", "bob draws")
    box.push("NOTICE", "bob", "Your cards: R1 R2 G3", tag=Tag("#uno", key="hand:bob"))
    box.push("NOTICE", "amy", "Your cards: B4", tag=Tag("#uno", key="hand:amy"))
    assert len(box) == 3 and box.replaced == 1
    assert [line.text for _, line in drain(box)] == [
        "Your cards: R1 R2 G3",
        "Your cards: B4",
        "bob draws",
    ]


def test_reset_restores_the_burst_and_clear_drops() -> None:
    box = Outbox(burst=2, rate=1.0)
    for i in range(5):
        box.push("NOTICE", "bob", str(i))
    assert len(box.due(0.0)) == 2
    box.reset(0.1)
    assert len(box.due(0.1)) == 2
    box.clear()
    assert len(box) == 0 and box.due(9.0) == []


def test_bad_arguments() -> None:
    with pytest.raises(ValueError):
        Outbox(burst=0)
    with pytest.raises(ValueError):
        Outbox(rate=-1)
    with pytest.raises(ValueError):
        split_text("x", 3)


def test_a_waiting_status_line_folds_in_the_next_moves() -> None:
    """While a channel's last line waits, the next update's line joins it: the older news,
    then the newer line with its (newer) status; lines per turn fall under backpressure."""
    box = Outbox(burst=1, rate=1.0, limit=120)
    box.due(0.0)  # the bucket is empty: everything waits

    def move(news: str, turn: str) -> None:
        status = f"Top: R5. {turn}'s turn."
        box.push(
            "PRIVMSG", "#uno", f"{news} {status}", tag=Tag("#uno", key="status", status=status)
        )

    move("alice plays R5.", "bob")
    move("bob draws a card.", "carol")
    move("carol plays R7.", "alice")
    box.push("NOTICE", "bob", "Your cards: R1", tag=Tag("#uno", key="hand bob"))
    assert len(box) == 2 and box.merged == 2
    texts = [line.text for _, line in drain(box)]
    assert texts == [
        "Your cards: R1",
        "alice plays R5. bob draws a card. carol plays R7. Top: R5. alice's turn.",
    ]
    # Nothing folds into a line already sent, nor past the byte limit.
    move("x" * 50 + ".", "bob")
    move("y" * 50 + ".", "carol")
    assert box.merged == 2 and len(box) == 2


def test_many_channels_are_joined_in_few_lines_keyed_first() -> None:
    box = Outbox(burst=100, rate=0, limit=60)
    channels = [(f"#chan{i:02d}", "") for i in range(20)] + [("#secret", "pw"), ("#a,b", "")]
    lines = box.push_joins(channels)
    sent = box.due(0.0)
    assert lines == len(sent) and 2 < lines < 8
    assert all(len(f"{ln.target} {ln.text}".encode()) <= 61 for ln in sent)
    assert sent[0].target.startswith("#secret,") and sent[0].text == "pw"
    joined = [name for ln in sent for name in ln.target.split(",")]
    assert sorted(joined) == sorted(["#secret", "#ab", *[c for c, _ in channels[:20]]])


def test_a_long_hand_keeps_its_lines_and_an_unchanged_hand_waits_for_no_backlog() -> None:
    box = Outbox(burst=1, rate=1.0)
    box.due(0.0)

    def hand(*lines: str) -> None:
        for part, text in enumerate(lines):
            box.push("NOTICE", "bob", text, tag=Tag("#uno", key="hand bob", part=part))

    hand("Your cards (30): R1 ...", "... G9")
    hand("Your cards (31): R1 ...", "... G9 B2")  # replaces both waiting lines
    assert [line.text for _, line in drain(box)] == ["Your cards (31): R1 ...", "... G9 B2"]
    box.push("PRIVMSG", "#uno", "bob draws")  # a backlog in the channel
    hand("Your cards (31): R1 ...", "... G9 B2")  # what left last: not sent again
    assert len(box) == 1 and box.unchanged == 2
    hand("Your cards (30): R1 ...", "... G9")  # changed: sent
    assert len(box) == 3
    drain(box)
    hand("Your cards (30): R1 ...", "... G9")  # the same, but nothing waits: sent again
    assert len(box) == 2


def test_lines_waiting_for_a_nick_follow_its_change() -> None:
    box = Outbox(burst=1, rate=1.0)
    box.due(0.0)
    box.push("NOTICE", "Bob", "Your cards: R1", tag=Tag("#uno", key="hand bob"))
    box.push("NOTICE", "bob", "help 1", tag=Tag("#uno", reply=True))
    box.push("NOTICE", "amy", "help 2", tag=Tag("#uno", reply=True))
    assert box.renamed("BOB", "bobby") == 2
    assert sorted(line.target for _, line in drain(box)) == ["amy", "bobby", "bobby"]


def test_an_urgent_reply_goes_before_the_waiting_ones_and_never_expires() -> None:
    box = Outbox(burst=1, rate=1.0, reply_ttl=5.0)
    box.due(0.0)
    for i in range(10):
        box.push("NOTICE", "zed", f"help {i}", tag=Tag("#uno", reply=True))
    box.push("NOTICE", "zed", "Slow down", tag=Tag("#uno", reply=True, urgent=True))
    sent = [line.text for _, line in drain(box)]
    assert sent[0] == "Slow down" and len(sent) < 11  # the rest expired after 5 s


def _turn_hand(box: Outbox, nick: str, text: str, channel: str = "#uno") -> int:
    tag = Tag(channel, key="hand " + nick, optional=True)
    return box.push("NOTICE", nick, text, tag=tag)


def test_a_turn_hand_goes_before_its_channel_line_every_turn_of_one_or_two_games() -> None:
    """The player reads their hand, then that it is their turn: every turn while the connection
    carries one or two games, though the clock is still paying for the last turn (the hand
    costs its line and the game's pace follows the budget); without a budget at once."""
    box = Outbox(burst=4, rate=1.0)  # 3 s ahead at most
    box.push("PRIVMSG", "#uno", "alice plays R5. Top: R5. bob's turn.")
    _turn_hand(box, "bob", "Your turn | Your cards (2): [R1] G2")
    sent = drain(box)
    assert [line.text for _, line in sent] == [
        "Your turn | Your cards (2): [R1] G2",
        "alice plays R5. Top: R5. bob's turn.",
    ]
    assert [when for when, _ in sent] == [0.0, 0.0] and box.skipped == 0
    box.push("PRIVMSG", "#uno", "bob plays R1. Top: R1. carol's turn.")  # 2 s ahead now
    _turn_hand(box, "carol", "Your turn | Your cards (1): [R9]")
    box.push("PRIVMSG", "#two", "dan plays G5. Top: G5. eve's turn.")  # a second game
    _turn_hand(box, "eve", "Your turn | Your cards (3): [G1] R2 B3", "#two")
    sent = drain(box, start=0.5)
    assert [line.text for _, line in sent] == [
        "Your turn | Your cards (1): [R9]",
        "Your turn | Your cards (3): [G1] R2 B3",
        "bob plays R1. Top: R1. carol's turn.",
        "dan plays G5. Top: G5. eve's turn.",
    ]
    assert [when for when, _ in sent] == [0.5, 0.5, 1.0, 2.0] and box.skipped == 0
    unlimited = Outbox(burst=1, rate=0)
    for channel in ("#a", "#b", "#c", "#d"):
        unlimited.push("PRIVMSG", channel, f"{channel} move. Top: R5. bob's turn.")
        _turn_hand(unlimited, "bob", "Your turn | Your cards (2): [R1] G2", channel)
    assert len(unlimited.due(0.0)) == 8 and unlimited.skipped == 0


def test_the_turn_hand_goes_before_the_other_hands_of_its_turn() -> None:
    """After a penalty the player to move reads their hand first: the one who drew gets
    theirs again at their own turn, and reads the channel meanwhile."""
    box = Outbox(burst=1, rate=1.0)
    box.due(0.0)
    box.push("PRIVMSG", "#uno", "alice plays WD4 and picks red. bob draws 4. carol's turn.")
    box.push("NOTICE", "bob", "You drew 4 | Your cards (9): ...", tag=Tag("#uno", key="hand bob"))
    _turn_hand(box, "carol", "Your turn | Your cards (3): [R1] G2 B3")
    assert [line.target for _, line in drain(box)] == ["carol", "bob", "#uno"]


def test_with_three_games_on_the_connection_a_turn_hand_goes_from_spare_budget_only() -> None:
    """Three games carried: the budget is every game's wall, so a turn's hand would cost the
    others a line. It is dropped while another game waits or the clock is still paying, and
    every game line still goes in the same seconds as without it; at rest it goes again."""
    box = Outbox(burst=1, rate=1.0)
    for when, channel in enumerate(("#a", "#b", "#c")):  # the connection carries three games
        box.push("PRIVMSG", channel, f"{channel} deals. Top: R5. x's turn.")
        assert len(box.due(float(when))) == 1
    assert box.games(3.0) == 3
    for channel in ("#a", "#b", "#c"):
        box.push("PRIVMSG", channel, f"{channel} move. Top: R5. x's turn.")
    _turn_hand(box, "bob", "Your turn | Your cards (2): [R1] G2", "#a")
    sent = drain(box, start=3.0)
    assert [line.text for _, line in sent] == [
        f"{c} move. Top: R5. x's turn." for c in ["#a", "#b", "#c"]
    ]
    assert [when for when, _ in sent] == [3.0, 4.0, 5.0]
    assert box.skipped == 1 and len(box) == 0
    assert box.games(5.0 + 31.0) == 0  # 30 s later the connection carries no game
    roomy = Outbox(burst=4, rate=1.0)  # three games, and room in the budget at rest
    for when, channel in enumerate(("#a", "#b", "#c")):
        roomy.push("PRIVMSG", channel, f"{channel} deals. Top: R5. x's turn.")
        roomy.due(float(when))
    roomy.push("PRIVMSG", "#a", "#a move. Top: R1. bob's turn.")
    _turn_hand(roomy, "bob", "Your turn | Your cards (1): G2", "#a")
    assert len(drain(roomy, start=20.0)) == 2 and roomy.skipped == 0  # nothing else waits


def test_a_waiting_turn_hand_is_dropped_when_its_channel_moves_on() -> None:
    """The next move in the channel makes the waiting hand stale (the turn moved on); a hand
    that changed replaces it too. Other channels' turn hands are left alone."""
    box = Outbox(burst=1, rate=1.0)
    box.due(0.0)
    box.push("PRIVMSG", "#uno", "alice plays R5. Top: R5. bob's turn.")
    _turn_hand(box, "bob", "Your turn | Your cards (2): [R1] G2")
    box.push("PRIVMSG", "#uno", "bob plays R1. Top: R1. carol's turn.")
    assert box.skipped == 1
    _turn_hand(box, "carol", "Your turn | Your cards (1): [R9]")
    box.push(
        "NOTICE", "carol", "You drew G1 | Your cards (2): R9 G1", tag=Tag("#uno", key="hand carol")
    )
    assert box.skipped == 2
    texts = [line.text for _, line in drain(box)]
    assert not any("Your turn" in t for t in texts)
    assert texts[0] == "You drew G1 | Your cards (2): R9 G1"


def test_a_newer_turn_hand_replaces_a_waiting_one_and_a_refused_one_is_not_sent_again() -> None:
    box = Outbox(burst=4, rate=1.0)
    _turn_hand(box, "bob", "Your turn | Your cards (2): [R1] G2")
    _turn_hand(box, "bob", "Your turn | Your cards (3): [R1] G2 G3")
    assert len(box) == 1 and box.replaced == 1
    (line,) = [line for _, line in drain(box)]
    assert line.text.endswith("G3")
    assert box.refused("bob", 10.0, 2.0) == (line, "extras", False)
    assert len(box) == 0


def test_a_hand_sent_again_to_someone_back_goes_though_it_says_the_same() -> None:
    """The same hand as the last that left is not sent again while its channel has lines
    waiting (a backlog says less), unless it is sent because the player may have missed that
    one (``Tag.again``: they were away; it went to a nick that was gone)."""
    box = Outbox(burst=4, rate=1.0)
    hand = Tag("#uno", key="hand bob")
    assert box.push("NOTICE", "bob", "Your cards (2): R1 G2", tag=hand) == 1
    box.due(0.0)
    box.push("PRIVMSG", "#uno", "bob is back.")
    assert box.push("NOTICE", "bob", "Your cards (2): R1 G2", tag=hand) == 0  # unchanged
    again = Tag("#uno", key="hand bob", again=True)
    assert box.push("NOTICE", "bob", "Your cards (2): R1 G2", tag=again) == 1
    assert [line.target for line in box.due(5.0)] == ["bob", "#uno"]
