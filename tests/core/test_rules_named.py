"""The rules in the channel, through commands: the stacking hint names what can stack now (and
the hand marks the same cards), a refused jump or swap names the rule it missed, and a computer
player's 7 names whom it swaps with in the same move (no prompt meant for people)."""

from __future__ import annotations

import re
from random import Random

import pytest

from tests.core.fakes import Agent, Harness, Sent, channel_lines, notices, strip_codes
from tests.core.test_computers import HumanVsComputers, harness
from tests.core.test_presence_timers import rigged
from unobot.core.bot import BotConfig
from unobot.core.render_irc import rules_note
from unobot.core.table import TableConfig
from unobot.engine import PRESETS, preset
from unobot.engine.cards import Card, Color, Rank, parse_play
from unobot.i18n import LANGUAGES, speaking

PILE = " pile=" + "B9 " * 30


def said(out: list[Sent]) -> str:
    return " ".join(channel_lines(out))


def told(out: list[Sent], nick: str) -> str:
    return " ".join(notices(out, nick))


def marked(text: str) -> set[str]:
    """The cards a plain (``.pce-off``) hand notice marks as playable: ``[RD4]``."""
    return set(re.findall(r"\[(\w+)\]", text))


# --- the stacking hint -------------------------------------------------------------------------

STACK = f"top=R5 | alice*: WD6 RD4 R1 R2 | bob: RD2 BD4 WD10 G7 | carol: Y1 Y2 Y3 |{PILE}"


def test_after_a_wild_draw_six_the_hint_names_six_and_ten_as_the_hand_does() -> None:
    h, _t = rigged(STACK, "no-mercy")
    h.say("bob", ".pce-off")
    out = h.say("alice", ".p wd6 g")
    assert "bob must draw 6 (.draw or stack a +6/+10)." in said(out)
    assert marked(told(out, "bob")) == {"WD10"}
    refused = told(h.say("bob", ".p b d4"), "bob")
    assert refused == "you must draw 6, or stack a draw card of +6 or more"


def test_after_a_coloured_draw_four_the_hint_names_four_and_up_as_the_hand_does() -> None:
    h, _t = rigged(STACK, "no-mercy")
    h.say("bob", ".pce-off")
    out = h.say("alice", ".p r d4")
    assert "bob must draw 4 (.draw or stack a +4/+6/+10)." in said(out)
    assert marked(told(out, "bob")) == {"BD4", "WD10"}
    out = h.say("bob", ".p b d4")  # any colour: No Mercy stacks by the number drawn
    assert "carol must draw 8 (.draw or stack a +4/+6/+10)." in said(out)


def test_stacking_the_same_card_names_it() -> None:
    h, _t = rigged(f"top=R5 | alice*: RD2 R1 | bob: BD2 WD4 G7 | carol: Y1 |{PILE}", "house")
    h.say("bob", ".pce-off")
    out = h.say("alice", ".p r d2")
    assert "bob must draw 2 (.draw or stack a +2)." in said(out)
    assert marked(told(out, "bob")) == {"BD2"}


# --- refusals that name the rule ---------------------------------------------------------------

JUMP = f"top=R9 | alice*: R5 R5 R1 | bob: G3 G4 | carol: R5 Y3 | dave: B3 B4 | pile=R2 {PILE[6:]}"
"""bob, to move after alice's R5, draws R2: a card he may play, so his turn goes on."""


def test_a_jump_with_another_card_names_the_very_card_rule() -> None:
    h, t = rigged(JUMP, "jump-in")
    h.say("alice", ".p r5")
    out = h.say("carol", ".p y3")
    assert told(out, "carol") == (
        "it is bob's turn; out of turn you may only jump in with the very card on top (R5)"
    )
    assert not channel_lines(out) and t.game is not None and t.game.current == 1
    own = told(h.say("alice", ".p r5"), "alice")
    assert own == "it is bob's turn; you can't jump in on your own card"
    assert "bob draws a card" not in said(h.say("bob", ".draw"))  # told with what he does
    late = told(h.say("carol", ".p r5"), "carol")
    assert "jump in only right after a card is played, before the next move" in late


def test_without_jump_in_a_play_out_of_turn_only_says_whose_turn_it_is() -> None:
    h, _t = rigged(JUMP)
    h.say("alice", ".p r5")
    assert told(h.say("carol", ".p y3"), "carol") == "it is bob's turn"


def test_swap_without_seven_o_and_with_nobody_named_by_the_rule() -> None:
    h, _t = rigged(JUMP)
    out = h.say("bob", ".swap carol")
    assert told(out, "bob") == "Seven-O is not played here: hands are never swapped"
    h, _t = rigged(f"top=R5 | alice*: R7 R1 | bob: G3 | carol: Y1 |{PILE}", "seven-o")
    assert told(h.say("alice", ".swap bob"), "alice") == "there is no 7 to swap hands with"
    h.say("alice", ".p r7")
    assert told(h.say("alice", ".swap zed"), "alice") == "zed is not playing in this hand"


def test_a_refusal_naming_the_rule_is_said_in_the_players_language() -> None:
    h, _t = rigged(JUMP, "jump-in")
    h.say("carol", ".unolang me de")
    h.say("alice", ".p r5")
    reply = told(h.say("carol", ".p y3"), "carol")
    assert "bob" in reply and "R5" in reply and "jump" not in reply, reply


# --- computer players' 7s ----------------------------------------------------------------------


class SevenAgent(Agent):
    """A person who names a swap target with every 7 (not their last card)."""

    def choose(self, top: Card, color: Color, drawn: bool) -> str:
        command = super().choose(top, color, drawn)
        if command.startswith((".p ", ".play ")) and len(self.hand) > 1:
            card, _ = parse_play(command.split(" ", 1)[1].removesuffix(" uno"))
            if card.rank is Rank.SEVEN:
                command += " NormalBot1"
        return command

    def played(self, command: str) -> None:
        super().played(command.removesuffix(" NormalBot1"))


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_a_computer_players_seven_swaps_in_the_same_move(level: str) -> None:
    """Whole Seven-O games: every 7 a computer player plays is told with its swap in one
    line, and the prompt meant for people (``swap with whom?``) never names a computer."""
    swaps = 0
    for seed in range(8):
        h = harness(seed=seed, rules="seven-o", turn_timeout=10_000)
        game = HumanVsComputers(h, [level, "normal", level], seed=seed)
        game.agent = SevenAgent("alice", Random(seed), follow_hints=True)
        lines = game.finish()
        text = " ".join(lines)
        assert not re.search(r"Bot\d: swap with whom", text), text
        swaps += len(re.findall(r"Bot\d plays [RYGB]7, \w+ swaps hands with", text))
        assert not any("ran out of time" in line for line in lines)
        if swaps >= 2:
            return
    pytest.fail(f"computer players played {swaps} 7s with a swap")


# --- the deal's line of what the variant changes -----------------------------------------------

SEVEN_O = "Seven-O: a 7 swaps hands with whom you name, a 0 passes every hand on."


def test_the_first_deal_says_what_the_variant_changes_in_a_line_of_its_own() -> None:
    h, _t = rigged(f"top=R5 | alice*: R1 | bob: G3 G4 | carol: Y1 Y2 |{PILE}", "seven-o")
    deal = [s for s in h.sent if s.kind == "privmsg"]
    texts = [strip_codes(s.text) for s in deal]
    first = next(i for i, t in enumerate(texts) if t.startswith("Uno (seven-o) [to 500 points]"))
    assert texts[first + 1] == SEVEN_O
    assert all(len(s.text.encode()) <= 400 for s in deal)
    # the next hand of the match is dealt without it
    out = h.say("alice", ".p r1")
    assert "hand 2" in said(out) and "Seven-O" not in said(out)


def test_the_classic_game_gets_no_such_line() -> None:
    h = Harness(1, BotConfig(table=TableConfig(rules=preset("official"))))
    lines = channel_lines(h.start(["alice", "bob"]))
    assert lines[-1].startswith("Uno (official) [to 500 points]: alice, bob.")


def test_a_channels_own_combination_is_described_as_played() -> None:
    h = Harness(1, BotConfig(table=TableConfig(rules=preset("official"))))
    h.say("op", ".unorules set stacking same", is_op=True)
    h.say("op", ".unorules set jump_in on", is_op=True)
    lines = channel_lines(h.start(["alice", "bob"]))
    assert lines[-2].startswith("Uno (official) [to 500 points]: alice, bob.")
    assert lines[-1] == (
        "Jump-In: whoever holds the very card on top may play it out of turn. "
        "Stacking: +2 on +2, +4 on +4."
    )


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_every_presets_line_fits_in_every_language(name: str) -> None:
    for lang in LANGUAGES:
        with speaking(lang):
            note = rules_note(PRESETS[name])
        assert len(note.encode()) <= 400, (lang, note)
        assert bool(note) == (name not in ("official", "irc-classic", "bac-tournament", "knockout"))
