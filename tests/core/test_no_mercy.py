"""No Mercy at the table and through commands: a mercy elimination in the channel, the
eliminated seat shown as ``out``, its commands refused with one clear reply, swaps and the turn
timer passing over it, its player leaving, the last one standing winning, ``.uno no-mercy``."""

from __future__ import annotations

import dataclasses
import re
from random import Random

from tests.core.fakes import Harness, Sent, channel_lines, notices
from tests.core.test_presence_timers import rigged
from unobot.core.table import Table
from unobot.engine.notation import parse_position

MANY = " ".join(["G1"] * 20)
PILE = " pile=" + "B9 " * 30
# bob holds 20: the Wild Draw Six alice plays on him makes 26, and the mercy rule puts him out.
MERCY = f"top=R5 | alice*: WD6 R1 R2 | bob: {MANY} | carol: R7 Y2 Y3 | dave: R4 B3 |" + PILE
OUT = "you are out of this hand (mercy rule)"


def said(out: list[Sent]) -> str:
    return " ".join(channel_lines(out))


def told(out: list[Sent], nick: str) -> str:
    return " ".join(notices(out, nick))


def eliminated() -> tuple[Harness, Table]:
    h, t = rigged(MERCY, "no-mercy")
    h.say("alice", ".p wd6 r")
    out = h.say("bob", ".draw")
    assert "MERCY! bob holds 26 cards and is out of the hand" in said(out)
    assert "carol's turn" in said(out)
    return h, t


def test_the_eliminated_seat_is_out_in_the_counts_and_gets_no_hand() -> None:
    h, _t = eliminated()
    mine = told(h.say("bob", ".cards"), "bob")
    assert "You are out of this hand (mercy rule)." in mine
    assert "Your cards" not in mine
    assert "Cards: alice 2, bob out, carol 3, dave 2." in mine
    assert "bob out" in told(h.say("alice", ".cards"), "alice")
    assert "carol's turn" in told(h.say("bob", ".top"), "bob")


def test_every_move_of_the_eliminated_player_gets_one_clear_reply() -> None:
    h, t = eliminated()
    for text in (".p g1", ".draw", ".pass", ".uno", ".catch carol", ".challenge", ".color r"):
        out = h.say("bob", text)
        assert told(out, "bob") == OUT, text
        assert not channel_lines(out)
    assert t.game is not None and t.game.current == 2  # nothing moved


def test_a_seven_cannot_swap_with_an_eliminated_player() -> None:
    h, _t = eliminated()
    assert told(h.say("carol", ".p r7 bob"), "carol") == "bob is out of this hand (mercy rule)"
    out = h.say("carol", ".p r7 alice")
    assert "carol swaps hands with alice" in said(out)
    assert "dave's turn" in said(out)


def test_turns_and_the_turn_timer_pass_over_the_eliminated_seat() -> None:
    h, _t = eliminated()
    text = said(h.advance(1_000))  # carol, dave, alice ... time out in turn: never bob
    assert "carol ran out of time" in text and "dave ran out of time" in text
    assert "bob ran out of time" not in text and "bob's turn" not in text


def test_an_eliminated_player_leaving_takes_no_cards_anywhere() -> None:
    h, t = eliminated()
    out = h.say("bob", ".leave")
    assert "bob leaves (left the game); the mercy rule had already put them out" in said(out)
    assert "carol's turn" in said(out)
    assert t.names == ("alice", "carol", "dave")
    assert "carol swaps hands with dave" in said(h.say("carol", ".p r7 dave"))


def test_the_last_one_standing_wins_and_the_game_ends() -> None:
    many = " ".join(["G1"] * 22)
    h, t = rigged(f"top=R5 | alice*: RD4 R1 R2 | bob: {many} |" + PILE, "no-mercy")
    h.say("alice", ".p r d4")
    text = said(h.say("bob", ".draw"))
    assert "MERCY! bob holds 26 cards and is out of the hand" in text
    assert "alice wins" in text and "alice and bob win" not in text
    assert t.finished and t.match is not None and t.match.outcome is not None
    assert t.match.outcome.winners == (0,)  # not everyone on totals tied at 0


def test_uno_no_mercy_opens_a_no_mercy_table() -> None:
    h = Harness(5)
    h.say("alice", ".uno no-mercy")
    h.say("bob", ".join")
    out = h.say("alice", ".deal")
    assert "Uno (no-mercy)" in said(out)
    t = h.bot.tables["#uno"]
    game = t.game
    assert game is not None
    cards = sum(game.counts()) + len(game.draw_pile) + len(game.discard)
    assert cards == 168


def test_an_eliminated_starter_may_still_stop_the_game() -> None:
    many = " ".join(["G1"] * 20)
    h, t = rigged(f"top=R5 | bob: {many} | alice: R3 Y2 | carol*: WD6 R1 |" + PILE, "no-mercy")
    assert t.starter == "bob"  # the first seat opened the game
    h.say("carol", ".p wd6 r")
    assert "MERCY! bob holds 26 cards" in said(h.say("bob", ".draw"))
    assert "bob stopped the game" in said(h.say("bob", ".unostop"))
    assert t.finished


def test_a_timed_out_draw_over_the_mercy_limit_ends_the_game() -> None:
    # The turn timer's one card puts alice at 25: she is out, bob is left standing and wins
    # (the timer once drew it outside the match, which never heard that the hand was over).
    many = " ".join(["G1"] * 24)
    h, t = rigged(f"top=R5 | alice*: {many} | bob: R1 R2 |" + PILE, "no-mercy")
    text = said(h.advance(121))  # one turn's time
    assert "alice ran out of time" in text
    assert "MERCY! alice holds 25 cards and is out of the hand" in text
    assert "bob wins" in text and t.finished
    assert t.match is not None and t.match.over and len(t.match.hands) == 1


THREE = f"top=R5 | alice*: WD6 R1 R2 | bob: {MANY} | carol: R7 Y2 Y3 |" + PILE


def test_a_leaver_beside_the_last_one_standing_ends_the_hand_and_the_next_is_dealt() -> None:
    h, t = rigged(THREE, "no-mercy")
    assert t.match is not None
    t.match.rules = dataclasses.replace(t.match.rules, target_score=500)
    h.say("alice", ".p wd6 r")
    assert "MERCY! bob holds 26 cards" in said(h.say("bob", ".draw"))
    out = said(h.say("alice", ".leave"))
    assert "carol wins" in out
    assert t.names == ("bob", "carol") and len(t.match.hands) == 1 and not t.finished
    game = t.game
    assert game is not None and not game.over and game.hand_size(0) == game.hand_size(1) == 7
    assert "ran out of time" in said(h.advance(1_000))  # the new hand's timer runs as usual


def test_a_leaver_beside_the_last_one_standing_ends_a_one_hand_game() -> None:
    h, t = rigged(THREE, "no-mercy")
    h.say("alice", ".p wd6 r")
    h.say("bob", ".draw")
    out = said(h.say("alice", ".leave"))
    assert "carol wins" in out and t.finished


# --- the sheet's rules at the table (issue 38) ------------------------------------------------

ROULETTE = "top=R5 | alice*: WCR R1 R2 | bob: G3 Y4 | carol: Y1 Y2 | pile=R1 WD6 B2 G7 Y9" + (
    " B9" * 30
)


def test_the_roulettes_colour_is_named_by_the_next_player_with_color() -> None:
    """ "The next player chooses a color": ``.p wcr`` asks bob in the channel; ``.p wcr r``
    is refused saying why; only bob may answer, and nothing else first; his ``.color g``
    turns cards up until a green one and skips him."""
    h, t = rigged(ROULETTE, "no-mercy")
    assert told(h.say("alice", ".p wcr r"), "alice") == (
        "the next player names the roulette's colour: play it without one (.play wcr)"
    )
    out = said(h.say("alice", ".p wcr"))
    assert (
        "alice plays WCR (2 cards left). Top: WCR. bob: name a colour for the roulette "
        "(.color r/y/g/b), "
        "then draw until it comes."
    ) in out, out
    assert "picks" not in out
    assert told(h.say("alice", ".color r"), "alice") == "bob names the roulette's colour, not you"
    assert told(h.say("bob", ".p y4"), "bob") == (
        "name a colour for the roulette first (e.g. .color g)"
    )
    assert told(h.say("carol", ".color b"), "carol") == "bob names the roulette's colour, not you"
    out = h.say("bob", ".color g")
    text = said(out)
    assert "bob picks green for the roulette, draws 4 cards and is skipped." in text, text
    assert "Top: WCR (green). carol's turn." in text
    assert "You drew R1 G7 B2 WD6" in told(out, "bob")
    assert t.game is not None and t.game.hand_size(1) == 6


def test_the_roulettes_victim_has_the_turn_timer_and_names_the_colour_they_hold_most() -> None:
    h, _t = rigged(ROULETTE, "no-mercy")
    h.say("alice", ".p wcr")
    text = said(h.advance(121))
    assert "bob ran out of time" in text
    # bob holds G3 Y4: yellow comes first of the colours held most
    assert "bob picks yellow for the roulette, draws 5 cards and is skipped" in text, text


def test_a_computer_player_answers_the_roulette() -> None:
    from unobot.core.bot_config import BotConfig
    from unobot.core.computers import ComputerConfig
    from unobot.core.table import TableConfig
    from unobot.engine import preset

    for level in ("easy", "normal", "hard"):
        config = BotConfig(
            table=TableConfig(rules=preset("no-mercy")),
            bots=ComputerConfig(delay=0.0, playouts=16),
        )
        h = Harness(3, config)
        h.say("alice", ".uno")
        h.say("alice", f".addbot {level} Zed")
        h.say("alice", ".addbot normal Yan")
        h.say("alice", ".deal")
        h.advance(0)
        t = h.bot.tables["#uno"]
        assert t.names == ("alice", "Zed", "Yan")
        text = ROULETTE.replace("bob:", "Zed:").replace("carol:", "Yan:")
        game, _names = parse_position(text, t.config.rules, Random(3))
        assert t.match is not None
        t.match.game = game
        t._new_turn(h.clock.now())
        out = said(h.say("alice", ".p wcr")) + said(h.advance(0))
        assert re.search(
            r"Zed picks (red|yellow|green|blue) for the roulette, draws \d+ cards? "
            r"and is skipped",
            out,
        ), (level, out)


def test_a_final_draw_card_wins_at_once_and_nobody_draws() -> None:
    """ "When a player plays their final card, they win": bob does not draw the ten, and
    alice scores the 3 points he holds."""
    h, t = rigged("top=R5 | alice*: WD10 | bob: R1 R2 | carol: Y1 |" + PILE, "no-mercy")
    text = said(h.say("alice", ".p wd10 b"))
    assert "alice plays WD10 and picks blue." in text, text
    assert "draws" not in text and "must draw" not in text
    assert "alice wins the hand and 4 points!" in text
    assert t.finished


def test_a_wild_reverse_draw_four_with_two_players_comes_back_to_its_player() -> None:
    """ "With just two players this card skips the other player and makes YOU draw 4 cards!
    You may use the stacking rule to send the penalty back to the other player.\""""
    h, _t = rigged("top=R5 | alice*: WRD4 WD6 R2 | bob: G1 G2 |" + PILE, "no-mercy")
    text = said(h.say("alice", ".p wrd4 b"))
    assert (
        "alice plays WRD4 and picks blue (2 cards left), play goes the other way, bob is "
        "skipped, alice must draw 4. Top: WRD4 (blue). alice must draw 4 (.draw or stack a "
        "+4/+6/+10)."
    ) in text, text
    text = said(h.say("alice", ".p wd6 g"))
    assert "bob must draw 10" in text, text


def test_the_winner_scores_250_for_each_player_knocked_out() -> None:
    many = " ".join(["G1"] * 22)
    h, _t = rigged(f"top=R5 | alice*: RD4 R1 R2 | bob: {many} |" + PILE, "no-mercy")
    h.say("alice", ".p r d4")
    text = said(h.say("bob", ".draw"))
    assert "alice wins the hand and 250 points, 250 of them for players knocked out!" in text


def test_uno_no_mercy_1000_plays_to_1000_points() -> None:
    h = Harness(5)
    h.say("alice", ".uno no-mercy-1000")
    h.say("bob", ".join")
    out = said(h.say("alice", ".deal"))
    assert "Uno (no-mercy-1000) [to 1000 points]: alice, bob" in out, out
