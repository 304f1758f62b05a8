"""The wording a newcomer meets (issue 27): each line that read oddly, as the channel sees it
now. Rendered from table updates (exact lines), and through the bot where a command answers."""

from __future__ import annotations

import pytest

from tests.core.fakes import Harness, channel_lines, notices
from unobot.core.render_irc import Cards, channel_text, invite_text, render_update, wait_text
from unobot.core.updates import Dealt, EngineEvents, Status, Stopped, Update
from unobot.engine import DrawReason, Phase
from unobot.engine import events as ev
from unobot.engine.cards import Card, Color, parse_play
from unobot.engine.errors import CardNotInHand, NotYourTurn, card_name
from unobot.irc.casemap import irc_lower

NAMES = ("ann", "bob", "cat")
PLAIN = Cards(False)


def c(text: str) -> Card:
    return Card.parse(text)


def deal_line(*events: ev.Event, top: str, turn: str, phase: Phase = Phase.PLAY) -> str:
    """The deal's channel line when the engine reported ``events`` after the first card."""
    card = c(top)
    counts = tuple((n, 7) for n in NAMES)
    status = Status(card, card.color or Color.RED, turn, phase, 0, counts)
    update = Update([Dealt(NAMES, "official", 1), EngineEvents(tuple(events), NAMES)])
    update.status = status
    return channel_text(update, PLAIN)


def test_the_first_card_is_said_once() -> None:
    line = deal_line(ev.StartCardTurned(c("B7")), top="B7", turn="ann")
    assert line == "Uno (official): ann, bob, cat. First card B7. ann's turn."


@pytest.mark.parametrize(
    ("events", "top", "turn", "said"),
    [
        ([ev.Skipped(0)], "BS", "bob", "First card BS: ann is skipped. bob's turn."),
        ([ev.Reversed(-1)], "BR", "cat", "First card BR: play goes the other way. cat's turn."),
        (
            [ev.CardsDrawn(0, (c("R1"), c("G2")), DrawReason.START_CARD), ev.Skipped(0)],
            "RD2",
            "bob",
            "First card RD2: ann draws 2 and is skipped. bob's turn.",
        ),
    ],
)
def test_what_the_first_card_does_is_said_in_words(
    events: list[ev.Event], top: str, turn: str, said: str
) -> None:
    line = deal_line(ev.StartCardTurned(c(top)), *events, top=top, turn=turn)
    assert line.endswith(said), line
    assert "Top:" not in line and "reverses" not in line


def test_a_wild_first_card_asks_for_the_colour_without_a_made_up_one() -> None:
    line = deal_line(
        ev.StartCardReplaced(c("WD4")),
        ev.StartCardTurned(c("W")),
        top="W",
        turn="ann",
        phase=Phase.CHOOSE_COLOR,
    )
    assert line.endswith(
        "WD4 goes back in the deck. First card W. ann picks the colour (.color r/y/g/b)."
    ), line
    assert "(red)" not in line


def play_update(*events: ev.Event, counts: tuple[tuple[str, int], ...]) -> Update:
    status = Status(c("R1"), Color.RED, "bob", Phase.PLAY, 0, counts)
    return Update([EngineEvents(tuple(events), NAMES)], status=status)


def test_an_uno_is_announced_once_per_line() -> None:
    update = play_update(
        ev.CardPlayed(0, c("R1"), Color.RED, 1),
        ev.UnoCalled(0, automatic=True),
        counts=(("ann", 1), ("bob", 5), ("cat", 1)),
    )
    line = channel_text(update, PLAIN)
    # ann's UNO was just called out; cat's, from before, is still worth repeating.
    assert line == "ann plays R1 (UNO!). Top: R1. bob's turn. UNO: cat."
    (sent,) = render_update(update, "#uno", lambda _: False, channel_colors=False)
    assert sent.tag.key == "status" and sent.text.endswith(sent.tag.status)


def test_draw_then_play_a_wild_reads_as_one_sentence() -> None:
    update = play_update(
        ev.CardsDrawn(0, (c("WD4"),), DrawReason.DRAW),
        ev.CardPlayed(0, c("WD4"), Color.GREEN, 5),
        counts=(("ann", 5), ("bob", 5), ("cat", 5)),
    )
    line = channel_text(update, PLAIN)
    assert line.startswith("ann draws a card, plays WD4 and picks green. "), line
    update = play_update(
        ev.CardsDrawn(0, (c("R5"),), DrawReason.DRAW),
        ev.CardPlayed(0, c("R5"), Color.RED, 5),
        counts=(("ann", 5), ("bob", 5), ("cat", 5)),
    )
    assert channel_text(update, PLAIN).startswith("ann draws a card and plays R5. ")


def test_errors_name_whose_turn_and_spell_out_cards() -> None:
    assert str(NotYourTurn("cat")) == "it is cat's turn"
    assert str(CardNotInHand(c("W"))) == "you have no Wild"
    assert str(CardNotInHand(c("WD4"))) == "you have no Wild Draw Four"
    assert str(CardNotInHand(c("BD2"))) == "you have no Blue Draw Two"
    assert [card_name(c(t)) for t in ("R9", "YS", "GR")] == [
        "Red 9",
        "Yellow Skip",
        "Green Reverse",
    ]


@pytest.mark.parametrize(
    ("typed", "card", "color"),
    [
        ("y 7 please", "Y7", None),
        ("y7 thanks", "Y7", None),
        ("g skip lol", "GS", None),
        ("w g thanks", "W", Color.GREEN),
        ("wild draw four blue now", "WD4", Color.BLUE),
    ],
)
def test_words_after_a_complete_card_are_ignored(
    typed: str, card: str, color: Color | None
) -> None:
    assert parse_play(typed) == (c(card), color)


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ("y 7 8", "'7 8' is not a card value"),  # a value after the value: not guessed
        ("r 5 blue", "'5 blue' is not a card value"),  # a colour after the card
        ("w please", "'please' is not a colour"),  # the wild is not complete
        ("y 7please", "'7please' is not a card value"),
    ],
)
def test_ambiguous_words_after_a_card_are_refused(typed: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_play(typed)


def test_strict_notation_takes_no_extra_words() -> None:
    with pytest.raises(ValueError):
        Card.parse("R5 please")


@pytest.mark.parametrize(
    ("seconds", "said"),
    [
        (295, "in about 5 minutes"),
        (30, "in 30 seconds"),
        (0.2, "in 1 second"),
        (61, "in about 1 minute"),
        (3 * 3600, "in about 3 hours"),
    ],
)
def test_waits_are_said_as_people_say_them(seconds: float, said: str) -> None:
    assert wait_text(seconds) == said


def test_a_game_that_ends_invites_another_once() -> None:
    h = Harness()
    h.start(["alice", "bob"])
    out = channel_lines(h.say("alice", ".unostop"))
    assert out == ["alice stopped the game. .uno for another game."]
    assert sum(line.count(invite_text()) for line in out) == 1
    # A lobby that closes had no game: nothing to play "again".
    h.say("alice", ".uno")
    assert not any(invite_text() in line for line in channel_lines(h.say("alice", ".unostop")))


def test_no_invitation_on_a_tournament_table() -> None:
    update = Update([Stopped("alice")], finished=True)
    lines = render_update(update, "#uno", lambda _: False, invite=False)
    assert [line.text for line in lines] == ["alice stopped the game."]
    lines = render_update(update, "#uno", lambda _: False, invite=True, prefix="!")
    assert [line.text for line in lines] == ["alice stopped the game. !uno for another game."]


def test_the_deal_line_through_the_bot_and_a_wrong_turn_reply() -> None:
    h = Harness()
    (deal,) = channel_lines(h.start(["alice", "bob", "carol"]))
    assert " First card " in deal and "Top:" not in deal
    table = h.bot.tables[irc_lower("#uno")]
    assert table.game is not None
    current = table.players[table.game.current].nick
    other = next(n for n in ("alice", "bob", "carol") if n != current)
    assert notices(h.say(other, ".p r 5"), other) == [f"it is {current}'s turn"]


def test_help_lists_every_command_in_three_short_lines() -> None:
    h = Harness()
    out = [s.text for s in h.say("zed", ".unohelp")]
    assert len(out) == 3 and all(len(t.encode()) <= 400 for t in out)
    text = " ".join(out)
    # .p is shown; help is what they typed; .unoadmin is told on the bot's console with its
    # code (for that one person), not in the help for everybody.
    shown_as = {"play": ".p ", "uno-help": "", "unoadmin": ""}
    for name in h.bot.commands():
        assert shown_as.get(name, f".{name}") in text, name
    assert ".unotop10 [rating]" in text and "provisional until you have played 5 games" in text
    # Room for one more entry (another engineer adds .unohand on|off) on every line.
    assert all(
        len(t.encode()) + len(" .unohand on|off: your hand on your turn.") <= 400 for t in out
    )
