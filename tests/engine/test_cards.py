"""Cards: the deck, the notation round trip, and what players type after .play."""

import pickle

import pytest

from unobot.engine.cards import CARDS, Card, CardParseError, Color, Rank, full_deck, parse_play


def test_deck_has_108_cards_of_the_right_kinds() -> None:
    deck = full_deck()
    assert len(deck) == 108
    for color in Color:
        mine = [c for c in deck if c.color is color]
        assert len(mine) == 25
        assert sum(c.rank is Rank.ZERO for c in mine) == 1
        for rank in list(Rank)[1:13]:
            assert sum(c.rank is rank for c in mine) == 2
    assert sum(c.rank is Rank.WILD for c in deck) == 4
    assert sum(c.rank is Rank.WILD_DRAW_FOUR for c in deck) == 4
    assert len(full_deck(2)) == 216


@pytest.mark.parametrize("card", CARDS, ids=str)
def test_notation_round_trips(card: Card) -> None:
    assert Card.parse(str(card)) is card
    assert Card.parse(str(card).lower()) is card
    assert pickle.loads(pickle.dumps(card)) is card


def test_points() -> None:
    assert [Card.parse(t).points for t in ("R0", "B9", "GS", "YR", "BD2", "W", "WD4")] == [
        0, 9, 20, 20, 20, 50, 50,
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("typed", "card", "color"),
    [
        ("b 9", "B9", None), ("b9", "B9", None), ("B9", "B9", None), ("r s", "RS", None),
        ("g r", "GR", None), ("r d2", "RD2", None), ("r +2", "RD2", None),
        ("w g", "W", Color.GREEN), ("wd4 b", "WD4", Color.BLUE), ("w4 b", "WD4", Color.BLUE),
        ("W G", "W", Color.GREEN), ("WD4 Y", "WD4", Color.YELLOW), ("  y   0 ", "Y0", None),
        ("blue skip", "BS", None), ("wild red", "W", Color.RED), ("w", "W", None),
        ("+4 r", "WD4", Color.RED),
    ],
)  # fmt: skip
def test_play_forms(typed: str, card: str, color: Color | None) -> None:
    assert parse_play(typed) == (Card.parse(card), color)


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ("", "which card"),
        ("x 5", "'x 5' is not a card"),
        ("r x", "'x' is not a card value"),
        ("r 10", "'10' is not a card value"),
        ("w q", "'q' is not a colour"),
        ("r", "which red card"),
        ("r\x00\r\n5x", "'[?]5x' is not a card value"),
    ],
)
def test_bad_input_names_the_problem(typed: str, message: str) -> None:
    with pytest.raises(CardParseError, match=message):
        parse_play(typed)


def test_quoted_text_is_safe_and_short() -> None:
    with pytest.raises(CardParseError) as err:
        parse_play("r " + "\x01PRIVMSG #x :hi\r\n" * 50)
    text = str(err.value)
    assert "\r" not in text and "\n" not in text and "\x01" not in text
    assert len(text) < 80


def test_cards_are_immutable() -> None:
    with pytest.raises(AttributeError):
        CARDS[0].rank = Rank.NINE  # type: ignore[misc]
