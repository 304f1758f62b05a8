"""Seven-O and Jump-In through channel commands: ``.p r7 bob``, the swap prompt and ``.swap``,
hands by NOTICE to their new owners only, jumps out of turn and the "too late" reply."""

from __future__ import annotations

from tests.core.fakes import Sent, channel_lines, notices
from tests.core.test_presence_timers import rigged
from unobot.core.table import Table

PILE = " pile=" + "B9 " * 12


def said(out: list[Sent]) -> str:
    return " ".join(channel_lines(out))


def told(out: list[Sent], nick: str) -> str:
    return " ".join(notices(out, nick))


def hand(t: Table, nick: str) -> str:
    return " ".join(str(c) for c in t.hand_of(nick))


SEVEN = "top=R5 | alice*: R7 R0 G1 G2 | bob: G3 G4 | carol: Y1 Y2 Y3 |" + PILE


def test_play_seven_with_a_target_swaps_and_tells_only_the_two() -> None:
    h, t = rigged(SEVEN, "seven-o")
    out = h.say("alice", ".p r7 carol")
    text = said(out)
    assert "alice plays R7, alice swaps hands with carol" in text
    assert "alice now holds 3 cards, carol 3 cards" in text
    assert hand(t, "alice") == "Y1 Y2 Y3" and hand(t, "carol") == "R0 G1 G2"
    assert "Y1" in told(out, "alice") and "G1" in told(out, "carol")
    assert not notices(out, "bob") or "Y1" not in told(out, "bob")
    assert "Y1" not in text and "G1 G2" not in text  # the channel sees counts only


def test_play_r_7_nick_spelled_out() -> None:
    h, t = rigged(SEVEN, "seven-o")
    h.say("alice", ".play r 7 bob")
    assert hand(t, "alice") == "G3 G4"


def test_seven_without_target_asks_and_swap_answers() -> None:
    h, t = rigged(SEVEN, "seven-o")
    out = h.say("alice", ".p r7")
    assert "alice: swap with whom? .swap <nick>" in said(out)
    assert "choose whom to swap" in told(h.say("alice", ".draw"), "alice")
    assert "alice's turn" in told(h.say("bob", ".swap carol"), "bob")
    assert "not playing" in told(h.say("alice", ".swap nobody"), "alice")
    out = h.say("alice", ".swap bob")
    assert "alice swaps hands with bob" in said(out)
    assert hand(t, "bob") == "R0 G1 G2"
    assert "G1" in told(out, "bob") and "G3 G4" in told(out, "alice").replace(",", "")


def test_swap_timeout_takes_the_fewest_cards() -> None:
    h, t = rigged(SEVEN, "seven-o")
    h.say("alice", ".p r7")
    out = h.advance(t.config.turn_timeout + 1)
    assert "alice swaps hands with bob" in said(out)
    assert hand(t, "alice") == "G3 G4"


def test_zero_passes_every_hand_and_everyone_gets_theirs() -> None:
    h, t = rigged(SEVEN, "seven-o")
    out = h.say("alice", ".p r0")
    assert "every hand passes to the next player (alice 3, bob 3, carol 2)" in said(out)
    assert hand(t, "bob") == "R7 G1 G2"
    assert "R7" in told(out, "bob") and "Y1" in told(out, "alice") and "G3" in told(out, "carol")


def test_a_target_on_another_card_is_read_as_words_after_it() -> None:
    h, _t = rigged(SEVEN, "seven-o")
    out = h.say("alice", ".p r0 bob")  # not a 7: "bob" is ignored, like any trailing word
    assert "alice plays R0, every hand passes" in said(out)


JUMP = "top=R9 | alice*: R5 R1 | bob: G3 G4 | carol: R5 Y3 | dave: B3 B4 | eve: R5 B1 |" + PILE


def test_a_jump_out_of_turn_and_a_late_one() -> None:
    h, t = rigged(JUMP, "jump-in")
    h.say("alice", ".p r5")
    out = h.say("carol", ".p r5")
    assert "carol jumps in with R5" in said(out) and "dave's turn" in said(out)
    out = h.say("eve", ".p r5")
    assert "too late: carol jumped first" in told(out, "eve")
    assert hand(t, "eve") == "R5 B1"
    # a plain wrong-turn play gets the ordinary answer
    assert "dave's turn" in told(h.say("bob", ".p g3"), "bob")


def test_no_jump_in_the_plain_game() -> None:
    h, _t = rigged(JUMP)
    h.say("alice", ".p r5")
    assert "bob's turn" in told(h.say("carol", ".p r5"), "carol")
