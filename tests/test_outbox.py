"""Outbox: sanitising, byte-aware splitting and the two-lane token bucket, with a fake clock."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from unobot.irc.outbox import Lane, Line, Outbox, sanitize, sanitize_target, split_text


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
    sent: list[tuple[float, Line]] = []
    now = 0.0
    while (t := box.next_time(now)) is not None:
        now = t
        sent.extend((now, line) for line in box.due(now))
    assert len(sent) == 60
    assert sent[-1][0] == pytest.approx((60 - 4) / 2.0)
    for when, _ in sent:
        assert sum(1 for w, _ in sent if w <= when) <= 4 + 2.0 * when + 1e-6


def test_private_lane_before_channel_lane_and_control_first() -> None:
    box = Outbox(burst=3, rate=1.0)
    box.push("PRIVMSG", "#uno", "chatter 1")
    box.push("PRIVMSG", "#uno", "chatter 2")
    box.push("NOTICE", "alice", "your hand")
    box.push("JOIN", "#uno", "key")
    box.push("NOTICE", "bob", "your hand")
    assert box.due(0.0) == [
        Line("JOIN", "#uno", "key"),
        Line("NOTICE", "alice", "your hand"),
        Line("NOTICE", "bob", "your hand"),
    ]
    assert [ln.text for ln in box.due(2.0)] == ["chatter 1", "chatter 2"]


def test_explicit_lane_and_rate_zero_is_unlimited() -> None:
    box = Outbox(burst=1, rate=0)
    box.push("NOTICE", "bob", "late", lane=Lane.CHANNEL)
    for i in range(100):
        box.push("PRIVMSG", "#c", str(i))
    box.push("NOTICE", "carol", "first")
    lines = box.due(0.0)
    assert len(lines) == 102 and lines[0].text == "first" and lines[1].text == "late"
    assert box.next_time(0.0) is None


def test_push_splits_and_sanitises_and_reports_count() -> None:
    box = Outbox(burst=100, rate=0, limit=50)
    assert box.push("privmsg", "#c", "word " * 40) == 4
    assert box.push("NOTICE", "bob\r\n", "a\r\nb") == 1
    assert box.push("NOTICE", " ", "nobody") == 0
    assert box.push("NOTICE", "bob", "\r\n") == 0
    lines = box.due(0.0)
    assert all(ln.command in ("PRIVMSG", "NOTICE") for ln in lines)
    assert lines[0] == Line("NOTICE", "bob", "a  b")  # private lane first


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
