"""Each preset's own rules, played through channel commands from exact positions.

Every test sets up a position (``rigged``: a dealt game whose hand is replaced, same players and
seats) and then only speaks as players: what a preset does differently from the others must be
visible in what the channel and the players' notices say.
"""

from __future__ import annotations

from random import Random

from tests.core.fakes import Harness, Sent, channel_lines, notices
from tests.core.test_presence_timers import rigged
from unobot.core.bot import Bot, BotConfig
from unobot.core.table import Table, TableConfig
from unobot.engine import preset
from unobot.engine.notation import parse_position
from unobot.irc.transport import Incoming, Kind

PILE = " pile=" + "B9 " * 12


def said(out: list[Sent]) -> str:
    return " ".join(channel_lines(out))


def told(out: list[Sent], nick: str) -> str:
    return " ".join(notices(out, nick))


def size(t: Table, nick: str) -> int:
    return len(t.hand_of(nick))


# --- official ----------------------------------------------------------------------------------


def test_official_challenge_of_a_fair_wd4_costs_six_cards() -> None:
    h, t = rigged("top=R5 | alice*: WD4 G1 G2 | bob: B1 B2 | carol: Y1 Y2 |" + PILE)
    out = h.say("alice", ".play wd4 b")
    assert "bob must draw 4 (.draw or .challenge)." in said(out)
    out = h.say("bob", ".challenge")
    text = said(out)
    assert "bob challenges alice: the WD4 was played fairly" in text
    assert size(t, "bob") == 8 and "carol's turn" in text
    assert "You drew B9 B9 B9 B9 B9 B9" in told(out, "bob")


def test_official_challenge_of_a_bluff_costs_the_bluffer_four() -> None:
    h, t = rigged("top=R5 | alice*: WD4 R7 G2 | bob: B1 B2 | carol: Y1 Y2 |" + PILE)
    h.say("alice", ".play wd4 b")
    text = said(h.say("bob", ".challenge"))
    assert "the WD4 was a bluff" in text and "alice draws 4 (challenge)" in text
    assert size(t, "alice") == 6 and size(t, "bob") == 2 and "bob's turn" in text


def test_official_missed_uno_costs_two_until_the_next_turn_begins() -> None:
    h, t = rigged("top=R5 | alice*: R7 R8 | bob: B1 R2 | carol: Y1 Y2 |" + PILE)
    h.say("alice", ".p r 7")
    out = h.say("carol", ".catch alice")
    assert "carol catches alice without UNO: alice draws 2" in said(out)
    assert size(t, "alice") == 3
    # Once bob's turn has begun, a missed call can no longer be caught.
    h, t = rigged("top=R5 | alice*: R7 R8 | bob: B1 R2 | carol: Y1 Y2 |" + PILE)
    h.say("alice", ".p r 7")
    h.say("bob", ".p r 2")
    assert "nobody to catch" in told(h.say("carol", ".catch alice"), "carol")
    assert size(t, "alice") == 1


def test_official_uno_called_with_the_play_or_right_after() -> None:
    h, t = rigged("top=R5 | alice*: R7 R8 | bob: B1 R2 | carol: Y1 Y2 |" + PILE)
    assert "alice plays R7 (UNO!)" in said(h.say("alice", ".p r 7 uno"))
    assert "nobody to catch" in told(h.say("carol", ".catch alice"), "carol")
    assert size(t, "alice") == 1
    h, t = rigged("top=R5 | alice*: R7 R8 | bob: B1 R2 | carol: Y1 Y2 |" + PILE)
    h.say("alice", ".p r7")
    assert "alice calls UNO" in said(h.say("alice", ".unocall"))
    h.say("carol", ".halt alice")
    assert size(t, "alice") == 1
    h, t = rigged("top=R5 | alice*: WD4 R8 | bob: B1 R2 | carol: Y1 Y2 |" + PILE)
    assert "(UNO!)" in said(h.say("alice", ".play w+4 g uno"))


def test_official_draw_one_then_only_that_card_or_pass() -> None:
    h, _t = rigged("top=R5 | alice*: B1 G2 | bob: B3 | carol: Y1 | pile=R9 B9 B9")
    out = h.say("alice", ".draw")
    assert channel_lines(out) == []  # the channel hears of it with the decision
    assert "You drew R9 | Play R9 or .pass (only the card you drew)" in told(out, "alice")
    assert "alice draws a card and passes" in said(h.say("alice", ".pass"))


def test_official_draw_while_holding_a_playable_card_then_only_the_drawn_card() -> None:
    """Issue 38, Mattel's sheet: "You may also choose NOT to play a playable card from your
    hand. If so, you must draw a card from the DRAW pile. If playable, that card can be put
    down in the same turn, however you may not play any other card from your hand after the
    draw."
    """
    h, t = rigged("top=R5 | alice*: R7 G2 | bob: B3 | carol: Y1 | pile=R9 B9 B9")
    out = h.say("alice", ".draw")  # R7 could be played: held back
    assert "You drew R9 | Play R9 or .pass (only the card you drew)" in told(out, "alice")
    refused = told(h.say("alice", ".p r 7"), "alice")
    assert refused == "after drawing you may only play the card you drew (R9) or pass"
    assert size(t, "alice") == 3
    assert "alice draws a card and plays R9" in said(h.say("alice", ".p r 9"))
    # A drawn card that can't go ends the turn; the card held back stays in hand.
    h, t = rigged("top=R5 | alice*: R7 G2 | bob: B3 | carol: Y1 | pile=B9 B9 B9")
    assert "alice draws a card and passes" in said(h.say("alice", ".draw"))
    assert size(t, "alice") == 3 and t.game is not None and t.game.current == 1


def test_official_with_voluntary_draw_off_refuses_the_draw() -> None:
    """Today's reading stays an option: ``.unorules set voluntary_draw off``."""
    rules = preset("official").with_option("voluntary_draw", "off")
    h = Harness(1, BotConfig(table=TableConfig(rules=rules)))
    game, names = parse_position("top=R5 | alice*: R7 G2 | bob: B3 | carol: Y1", rules, Random(1))
    h.start(names)
    t = h.bot.tables["#uno"]
    assert t.match is not None
    t.match.game = game
    out = h.say("alice", ".draw")
    assert told(out, "alice") == "you have a card you can play: you may not draw"
    assert size(t, "alice") == 2


def test_official_match_runs_to_500_with_totals_after_each_hand() -> None:
    h, t = rigged("top=R5 | alice*: R7 | bob: B1 WD4 | carol: Y1 |" + PILE)
    text = said(h.say("alice", ".p r 7"))
    assert "alice wins the hand and 52 points" in text
    assert "Totals: alice 52, bob 0, carol 0 (first to 500)." in text
    assert "hand 2: alice, bob, carol" in text and t.hand_number == 2


def test_timed_deal_announces_warns_and_ends() -> None:
    h = Harness(1, BotConfig(table=TableConfig(rules=preset("official"), turn_timeout=10**6)))
    h.say("alice", ".uno")
    h.say("bob", ".join")
    assert "not a time limit" in told(h.say("alice", ".deal soon"), "alice")
    out = h.say("alice", ".deal 30m")
    assert "Uno (official) [to 500 points, 30 minutes time limit]: alice, bob." in said(out)
    out = h.advance(25 * 60 - 1)
    assert "left in this game" not in said(out)
    assert "5 minutes left in this game." in said(h.advance(1))
    text = said(h.advance(5 * 60))
    # winner-collects with no hand finished: the fewest points in the unfinished hand wins
    assert "Time is up." in text
    assert "bob wins the match (the tie goes to the fewest points in hand)!" in text
    assert "Totals: alice 0, bob 0" in text
    assert not h.bot.tables


def test_deal_time_forms() -> None:
    from unobot.plugins.uno_game import parse_duration

    assert [parse_duration(x) for x in ("60m", "60", "1h", "1h30m", "90s", "45min")] == [
        3600,
        3600,
        3600,
        5400,
        90,
        2700,
    ]


# --- irc-classic -------------------------------------------------------------------------------


def test_irc_classic_calls_uno_by_itself_and_lets_any_card_follow_a_draw() -> None:
    h, t = rigged("top=R5 | alice*: R7 R8 | bob: B1 G2 | carol: Y1 |" + PILE, "irc-classic")
    assert "alice plays R7 (UNO!)" in said(h.say("alice", ".p r 7"))
    assert "automatically" in told(h.say("alice", ".unocall"), "alice")
    assert "nobody to catch" in told(h.say("carol", ".catch alice"), "carol")
    assert size(t, "alice") == 1
    h, t = rigged("top=R5 | alice*: B1 G2 | bob: B3 | carol: Y1 | pile=R9 B9", "irc-classic")
    out = h.say("alice", ".draw")
    assert "You may play R9 or any playable card, or .pass" in told(out, "alice")
    assert "alice draws a card and plays R9" in said(h.say("alice", ".p r 9"))


def test_irc_classic_draw_whatever_you_hold_then_any_card_or_pass() -> None:
    """Issue 38: the original bot's ``.draw`` (003) checks only whose turn it is and whether
    you drew already; after it ``.play`` takes any card you hold, or ``.pass``."""
    h, t = rigged("top=R5 | alice*: R7 G2 | bob: B3 | carol: Y1 | pile=B9 B9", "irc-classic")
    out = h.say("alice", ".draw")  # R7 could be played: held back; B9 can't go
    assert "You drew B9 | You may play any playable card, or .pass" in told(out, "alice")
    assert "alice draws a card and plays R7" in said(h.say("alice", ".p r 7"))
    assert size(t, "alice") == 2
    h, t = rigged("top=R5 | alice*: R7 G2 | bob: B3 | carol: Y1 | pile=B9 B9", "irc-classic")
    h.say("alice", ".draw")
    assert "alice draws a card and passes" in said(h.say("alice", ".pass"))
    assert size(t, "alice") == 3


# --- ocuk-tournament ---------------------------------------------------------------------------


def test_ocuk_and_house_challenge_of_a_pending_draw_two_names_the_rule() -> None:
    """Issue 38: ``.challenge`` against a pending +2 got a table-level guess ("whoever played
    that WD4 has left"); the engine's own answer names the rule (000: "we will NOT be playing
    the CHALLENGE rule"; house: no challenge, stacking)."""
    for name in ("ocuk-tournament", "house"):
        h, t = rigged("top=R5 | alice*: RD2 R8 | bob: B1 G2 | carol: Y1 Y2 |" + PILE, name)
        assert "bob must draw 2" in said(h.say("alice", ".p r d2"))
        out = h.say("bob", ".challenge")
        assert said(out) == ""
        assert told(out, "bob") == "these rules have no Wild Draw Four challenge"
        assert size(t, "bob") == 2


def test_ocuk_first_player_by_highest_card_is_announced() -> None:
    h = Harness(5, BotConfig(table=TableConfig(rules=preset("ocuk-tournament"))))
    out = h.start(["alice", "bob", "carol"])
    text = said(out)
    assert "Uno (ocuk-tournament) [to 251 points]" in text
    assert "draw for first player: alice " in text


def test_ocuk_stacks_draw_twos_and_shows_the_total() -> None:
    h, t = rigged(
        "top=R5 | alice*: RD2 R1 | bob: GD2 G1 | carol: Y1 Y2 | dave: B1 B2 |" + PILE,
        "ocuk-tournament",
    )
    assert "bob must draw 2 (.draw or stack a +2)." in said(h.say("alice", ".p r d2"))
    assert "carol must draw 4 (.draw or stack a +2)." in said(h.say("bob", ".p g +2"))
    text = said(h.say("carol", ".draw"))
    assert "carol draws 4 and is skipped" in text and "dave's turn" in text
    assert size(t, "carol") == 6


def test_ocuk_draws_until_playable_and_that_card_must_be_played() -> None:
    h, _t = rigged(
        "top=R5 | alice*: B1 G2 | bob: B3 | carol: Y1 | pile=Y2 G3 R9 B9", "ocuk-tournament"
    )
    out = h.say("alice", ".draw")
    assert "You drew R9 Y2 G3 | You must play R9 | Your cards (5)" in told(out, "alice")
    assert "R9" in told(h.say("alice", ".pass"), "alice")
    assert "alice draws 3 cards and plays R9" in said(h.say("alice", ".p r 9"))


def test_ocuk_halt_costs_four_until_the_next_card_is_played() -> None:
    h, t = rigged(
        "top=R5 | alice*: R7 R8 | bob: B1 B2 | carol: Y1 Y2 | pile=G1 R3 B9 B9 B9 B9",
        "ocuk-tournament",
    )
    h.say("alice", ".p r 7")
    h.say("bob", ".draw")  # bob's turn has begun, but no card has been played yet
    out = h.say("carol", ".halt alice")
    assert "carol catches alice without UNO: alice draws 4" in said(out)
    assert size(t, "alice") == 5
    h.say("bob", ".p r 3")  # the next card closes the window for good


def test_ocuk_uno_said_after_the_card_is_too_late_and_can_still_be_halted() -> None:
    h, t = rigged("top=R5 | alice*: R7 R8 | bob: B1 B2 | carol: Y1 Y2 |" + PILE, "ocuk-tournament")
    h.say("alice", ".p r 7")
    out = h.say("alice", ".uno")
    assert "too late: UNO is called with the card or before it" in told(out, "alice")
    assert "carol catches alice without UNO: alice draws 4" in said(h.say("carol", ".halt alice"))
    assert size(t, "alice") == 5


def test_ocuk_uno_said_with_the_card_is_safe() -> None:
    h, t = rigged("top=R5 | alice*: R7 R8 | bob: B1 B2 | carol: Y1 Y2 |" + PILE, "ocuk-tournament")
    assert "alice plays R7 (UNO!)" in said(h.say("alice", ".p r 7 uno"))
    out = h.say("carol", ".halt alice")
    assert said(out) == "" and told(out, "carol")  # refused, to carol alone
    assert size(t, "alice") == 1


# --- bac-tournament ----------------------------------------------------------------------------


BAC = "top=R5 | alice*: R7 B1 | bob: B3 B4 | carol: Y1 Y2 | dave: G1 G2 |"


def test_bac_voluntary_draw_and_only_the_drawn_card() -> None:
    h, t = rigged(BAC + " pile=R9 B9 B9", "bac-tournament")
    out = h.say("alice", ".draw")  # allowed although R7 could be played
    assert "You drew R9 | Play R9 or .pass (only the card you drew)" in told(out, "alice")
    assert "R9" in told(h.say("alice", ".p r 7"), "alice") and size(t, "alice") == 3
    assert "alice draws a card and plays R9" in said(h.say("alice", ".p r 9"))


def test_bac_each_keeps_own_points() -> None:
    h, _t = rigged(
        "top=R5 | alice*: R7 | bob: B3 B4 | carol: Y1 WD4 | dave: GS |", "bac-tournament"
    )
    text = said(h.say("alice", ".p r 7"))
    assert "alice wins the hand!" in text and "carol 2 cards (51 pts)" in text
    assert not h.bot.tables  # a single hand (timed rounds are dealt with .deal 30m)


def test_bac_timed_round_counts_the_unfinished_hand() -> None:
    h = Harness(2, BotConfig(table=TableConfig(rules=preset("bac-tournament"), turn_timeout=10**6)))
    h.say("alice", ".uno")
    for nick in ("bob", "carol", "dave"):
        h.say(nick, ".join")
    h.say("alice", ".deal 20m")
    t = next(iter(h.bot.tables.values()))
    assert t.game is not None
    points = [sum(c.points for c in hand) for hand in t.game.hands]
    text = said(h.advance(20 * 60))
    assert "Time is up: the unfinished hand counts." in text
    totals = ", ".join(f"{n} {p}" for n, p in zip(t.names, points, strict=True))
    assert f"Totals: {totals}" in text
    # the counted hand is listed like a finished one: every player's cards and points
    counted = text.split("Cards counted: ")[1].split(". ")[0]
    for name, held in zip(t.names, points, strict=True):
        assert f"{name} " in counted and f"({held} pts)" in counted, counted
    assert counted.count(" pts): ") == 4


def bac_round(position: str, seed: int = 2) -> tuple[Harness, Table]:
    """A bac-tournament table dealt with ``.deal 10m`` (warned at 8 minutes), its hand
    replaced by ``position`` (players alice, bob, carol, dave)."""
    rules = preset("bac-tournament")
    h = Harness(seed, BotConfig(table=TableConfig(rules=rules, turn_timeout=10**6)))
    h.say("alice", ".uno")
    for nick in ("bob", "carol", "dave"):
        h.say(nick, ".join")
    h.say("alice", ".deal 10m")
    t = next(iter(h.bot.tables.values()))
    assert t.match is not None and t.names == ("alice", "bob", "carol", "dave")
    t.match.game, _ = parse_position(position, t.match.rules, Random(seed))
    t._new_turn(h.clock.now())
    return h, t


LAST_CARD = "top=R5 | alice*: R7 | bob: B3 B4 | carol: Y1 WD4 | dave: GS |" + PILE


def test_bac_after_the_round_warning_a_finished_hand_ends_the_round() -> None:
    h, t = bac_round(LAST_CARD)
    assert "2 minutes left in this round: this hand is the last." in said(h.advance(8 * 60))
    text = said(h.say("alice", ".p r 7"))
    assert "alice wins the hand!" in text
    assert "The round warning was given, so no new hand is dealt: the round ends here." in text
    assert "alice wins the match! Totals: alice 0, bob 7, carol 51, dave 20" in text
    assert "hand 2" not in text
    assert t.hand_number == 1 and not h.bot.tables
    assert said(h.advance(2 * 60)) == ""  # no "time is up" for a round already over


def test_bac_before_the_round_warning_another_hand_is_dealt() -> None:
    h, t = bac_round(LAST_CARD)
    h.advance(8 * 60 - 1)
    text = said(h.say("alice", ".p r 7"))
    assert "hand 2: alice, bob, carol, dave" in text and t.hand_number == 2
    assert "this hand is the last" in said(h.advance(1))
    assert t.match is not None and not t.match.over


def test_without_warning_ends_round_a_timed_match_deals_on_after_the_warning() -> None:
    h = Harness(1, BotConfig(table=TableConfig(rules=preset("official"), turn_timeout=10**6)))
    h.say("alice", ".uno")
    h.say("bob", ".join")
    h.say("alice", ".deal 10m")
    t = next(iter(h.bot.tables.values()))
    assert "2 minutes left in this game." in said(h.advance(8 * 60))
    assert t.match is not None
    t.match.game, _ = parse_position("top=R5 | alice*: R7 | bob: B3 B4 |" + PILE, t.match.rules)
    t._new_turn(h.clock.now())
    assert "hand 2: alice, bob" in said(h.say("alice", ".p r 7"))


# --- knockout ----------------------------------------------------------------------------------


def test_knockout_false_uno_costs_three() -> None:
    h, t = rigged("top=R5 | alice*: R7 R8 B1 | bob: B3 B4 | carol: Y1 Y2 |" + PILE, "knockout")
    assert "alice draws 3 for a false UNO" in said(h.say("alice", ".p r 7 uno"))
    assert size(t, "alice") == 5
    assert "carol draws 3 for a false UNO" in said(h.say("carol", ".unocall"))
    assert size(t, "carol") == 5


def test_knockout_wrong_challenge_costs_four_plus_two_and_the_turn() -> None:
    h, t = rigged("top=R5 | alice*: WD4 G1 G2 | bob: B1 B2 | carol: Y1 Y2 |" + PILE, "knockout")
    h.say("alice", ".play wd4 g")
    text = said(h.say("bob", ".ch"))
    assert "the WD4 was played fairly" in text and "carol's turn" in text and size(t, "bob") == 8


def test_knockout_illegal_card_is_taken_back_and_costs_two() -> None:
    h, t = rigged("top=R5 | alice*: R7 B1 | bob: B3 B4 | carol: Y1 Y2 |" + PILE, "knockout")
    out = h.say("alice", ".p b 1")
    assert "alice draws 2 for an illegal play" in said(out) and size(t, "alice") == 4
    assert "alice's turn" in said(out)
    assert "alice plays R7" in said(h.say("alice", ".p r 7"))


def test_knockout_sixty_minute_game() -> None:
    h = Harness(3, BotConfig(table=TableConfig(rules=preset("knockout"), turn_timeout=10**6)))
    out = h.start(["alice", "bob"])
    assert "Uno (knockout) [60 minutes time limit]: alice, bob." in said(out)
    assert "5 minutes left" in said(h.advance(55 * 60))
    text = said(h.advance(5 * 60))
    assert "Time is up: the unfinished hand counts." in text and "the match!" in text


# --- a plain "uno" in the channel --------------------------------------------------------------


def test_plain_uno_message_calls_uno() -> None:
    from unobot.plugins.uno_game import said_uno

    h, t = rigged("top=R5 | alice*: R7 R8 | bob: B1 R2 | carol: Y1 Y2 |" + PILE)
    h.say("alice", ".p r 7")
    bot: Bot = h.bot
    start = len(h.sent)
    assert not said_uno(bot, Incoming(Kind.MESSAGE, "alice", "#uno", "uno now"))
    assert said_uno(bot, Incoming(Kind.MESSAGE, "alice", "#uno", "UNO!"))
    assert "alice calls UNO" in said(h.sent[start:])
    h.say("carol", ".catch alice")
    assert size(t, "alice") == 1


def test_irc_classic_timed_match_deals_hand_after_hand() -> None:
    from unobot.engine.notation import parse_position

    h = Harness(4, BotConfig(table=TableConfig(rules=preset("irc-classic"), turn_timeout=10**6)))
    h.say("alice", ".uno")
    h.say("bob", ".join")
    assert "[30 minutes time limit]" in said(h.say("alice", ".deal 30m"))
    t = next(iter(h.bot.tables.values()))
    assert t.match is not None
    t.match.game, _ = parse_position("top=R5 | alice*: R7 | bob: B1 WD4", preset("irc-classic"))
    t._new_turn(h.clock.now())
    text = said(h.say("alice", ".p r 7"))
    assert "Totals: alice 51, bob 0 (highest wins). hand 2: alice, bob." in text
    assert "Time is up." in said(h.advance(30 * 60)) and not h.bot.tables


def test_a_plain_uno_in_the_channel_calls_it() -> None:
    """Where calls are manual, typing just "uno" (or "UNO!") after the play saves the player."""
    h, t = rigged("top=R5 | alice*: R7 R8 | bob: B1 R2 | carol: Y1 Y2 |" + PILE)
    h.say("alice", ".p r7")
    assert "alice calls UNO" in said(h.say("alice", "UNO!"))
    assert "nobody to catch" in told(h.say("carol", ".catch alice"), "carol")
    assert size(t, "alice") == 1
    assert h.say("zed", "uno") == []  # not seated: just chat
    assert h.say("bob", "uno is a fun game") == []  # not a call
    out = h.say("carol", "uno")  # two cards, not her turn: refused, privately
    assert out and all(s.kind == "notice" and s.target == "carol" for s in out)
    assert "bob calls UNO" in said(h.say("bob", "uno"))  # his turn, two cards: calls it early
