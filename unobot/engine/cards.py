"""Cards as small immutable values, their text notation, and the deck.

There are only 54 distinct classic Uno cards (13 ranks in 4 colours, Wild, Wild Draw Four); the
108-card deck holds copies. The No Mercy deck (:func:`no_mercy_deck`) adds 16 more distinct cards
(codes 54-69, so the classic cards keep theirs). Every distinct card is created once and
interned, so cards compare by identity, hash by a small integer code and cost nothing to copy:
the engine's hot path and the computer players' simulations depend on that.

The notation is the one players type and see: ``R5 B0 GS YR BD2 W WD4``, and for No Mercy
``RSE`` (Skip Everyone), ``RDA`` (Discard All), ``RD4`` (Draw Four), ``WD6``, ``WD10``, ``WRD4``
(Wild Reverse Draw Four) and ``WCR`` (Wild Colour Roulette). ``str(card)`` gives it
and ``Card.parse(str(card)) is card`` holds for every card. :func:`parse_play` reads the looser
forms players type after ``.play`` (``b 9``, ``r s``, ``g r``, ``r +2``, ``w g``, ``wd4 b`` …).
"""

# translations: domain("commands")  (the message ids of its refusals, marked N_)

from __future__ import annotations

import re
from enum import IntEnum
from operator import itemgetter
from random import Random
from typing import ClassVar, Final

from unobot.engine.errors import N_, CardParseError, ColorProse

__all__ = [
    "CARDS",
    "Card",
    "CardParseError",
    "Color",
    "Rank",
    "full_deck",
    "no_mercy_deck",
    "parse_color",
    "parse_play",
    "shuffle",
]


class Color(IntEnum):
    """The four suit colours. Wild cards have no colour of their own (``Card.color is None``)."""

    RED = 0
    YELLOW = 1
    GREEN = 2
    BLUE = 3

    @property
    def letter(self) -> str:
        return "RYGB"[self]

    def __str__(self) -> str:
        return self.name.lower()


class Rank(IntEnum):
    """Card faces. Numbers are their own value; the action and wild ranks follow."""

    ZERO = 0
    ONE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    SKIP = 10
    REVERSE = 11
    DRAW_TWO = 12
    WILD = 13
    WILD_DRAW_FOUR = 14
    # No Mercy (the classic ranks keep their values: stored games and cache keys rely on them).
    SKIP_EVERYONE = 15
    DISCARD_ALL = 16
    DRAW_FOUR = 17
    """The coloured Draw Four of No Mercy (not a wild)."""
    WILD_DRAW_SIX = 18
    WILD_DRAW_TEN = 19
    WILD_REVERSE_DRAW_FOUR = 20
    WILD_COLOR_ROULETTE = 21

    @property
    def is_number(self) -> bool:
        return self <= 9

    @property
    def is_wild(self) -> bool:
        return self == 13 or self == 14 or self >= 18


_COLORED_NO_MERCY = (Rank.SKIP_EVERYONE, Rank.DISCARD_ALL, Rank.DRAW_FOUR)
_WILD_NO_MERCY = (
    Rank.WILD_DRAW_SIX,
    Rank.WILD_DRAW_TEN,
    Rank.WILD_REVERSE_DRAW_FOUR,
    Rank.WILD_COLOR_ROULETTE,
)


_RANK_TEXT = {
    Rank.SKIP: "S",
    Rank.REVERSE: "R",
    Rank.DRAW_TWO: "D2",
    Rank.SKIP_EVERYONE: "SE",
    Rank.DISCARD_ALL: "DA",
    Rank.DRAW_FOUR: "D4",
}
_WILD_TEXT = {
    Rank.WILD: "W",
    Rank.WILD_DRAW_FOUR: "WD4",
    Rank.WILD_DRAW_SIX: "WD6",
    Rank.WILD_DRAW_TEN: "WD10",
    Rank.WILD_REVERSE_DRAW_FOUR: "WRD4",
    Rank.WILD_COLOR_ROULETTE: "WCR",
}
# No Mercy's cards score like their classic kin (coloured actions 20, wilds 50): docs/rules.md.
_POINTS = {
    Rank.SKIP: 20,
    Rank.REVERSE: 20,
    Rank.DRAW_TWO: 20,
    Rank.WILD: 50,
    Rank.WILD_DRAW_FOUR: 50,
    Rank.SKIP_EVERYONE: 20,
    Rank.DISCARD_ALL: 20,
    Rank.DRAW_FOUR: 20,
    Rank.WILD_DRAW_SIX: 50,
    Rank.WILD_DRAW_TEN: 50,
    Rank.WILD_REVERSE_DRAW_FOUR: 50,
    Rank.WILD_COLOR_ROULETTE: 50,
}
_DRAWS = {
    Rank.DRAW_TWO: 2,
    Rank.WILD_DRAW_FOUR: 4,
    Rank.DRAW_FOUR: 4,
    Rank.WILD_DRAW_SIX: 6,
    Rank.WILD_DRAW_TEN: 10,
    Rank.WILD_REVERSE_DRAW_FOUR: 4,
}


class Card:
    """One distinct Uno card. Interned: get one from ``Card.of``, ``Card.parse`` or ``CARDS``.

    Attributes are plain values read on the engine's hot path: ``color`` (``Color`` or ``None`` for
    wilds), ``rank``, ``points`` (its score when left in a hand), ``code`` (0–53, stable; the
    index in ``CARDS``), ``is_wild`` and ``draw`` (cards it makes the next player draw).
    """

    __slots__ = ("bit", "code", "color", "draw", "is_wild", "key", "points", "rank", "text")

    _interned: ClassVar[dict[tuple[Color | None, Rank], Card]] = {}

    code: Final[int]
    bit: Final[int]
    """``1 << code``: hands keep a bitmask of the distinct cards they hold."""
    key: Final[int]
    color: Final[Color | None]
    rank: Final[Rank]
    points: Final[int]
    is_wild: Final[bool]
    draw: Final[int]
    text: Final[str]

    def __init__(self, color: Color | None, rank: Rank, code: int) -> None:
        # Final attributes are read-only in the compiled class; in pure Python the guard
        # installed after the interned cards exist (below) refuses changes.
        self.color = color
        self.rank = rank
        self.code = code
        self.bit = 1 << code
        # Index of (colour, rank) in the engine's playability table; wilds get theirs on play.
        self.key = -1 if color is None else color * 32 + rank
        self.points = _POINTS.get(rank, int(rank))
        self.is_wild = color is None
        self.draw = _DRAWS.get(rank, 0)
        if color is None:
            text = _WILD_TEXT[rank]
        else:
            text = color.letter + _RANK_TEXT.get(rank, str(int(rank)))
        self.text = text

    def __reduce__(self) -> tuple[object, tuple[int]]:
        # Unpickling (e.g. in arena worker processes) must give back the interned instance.
        return (_card_by_code, (self.code,))

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: object) -> Card:
        return self

    def __hash__(self) -> int:
        return self.code

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Card({self.text})"

    @classmethod
    def of(cls, color: Color | None, rank: Rank) -> Card:
        """The interned card of that colour and rank (colour ``None`` for the two wild ranks)."""
        try:
            return cls._interned[(color, rank)]
        except KeyError:
            raise CardParseError(
                N_("there is no card {color} {rank}"), color=str(color), rank=rank.name.lower()
            ) from None

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse strict notation (``R5``, ``GS``, ``BD2``, ``W``, ``WD4``; any case)."""
        card, color = _parse_card(text)  # strict: no words after the card
        if color is not None and not card.is_wild:
            raise CardParseError(N_("'{text}' is not a card"), text=_shown(text))
        return card


def _build_cards() -> tuple[Card, ...]:
    cards: list[Card] = []
    for color in Color:
        for rank in list(Rank)[:13]:
            cards.append(Card(color, rank, len(cards)))
    cards.append(Card(None, Rank.WILD, len(cards)))
    cards.append(Card(None, Rank.WILD_DRAW_FOUR, len(cards)))
    for color in Color:
        for rank in _COLORED_NO_MERCY:
            cards.append(Card(color, rank, len(cards)))
    for rank in _WILD_NO_MERCY:
        cards.append(Card(None, rank, len(cards)))
    for card in cards:
        Card._interned[(card.color, card.rank)] = card
    return tuple(cards)


CARDS: tuple[Card, ...] = _build_cards()
"""All 70 distinct cards, indexed by ``Card.code``: the 54 classic ones (codes 0-53), then No
Mercy's 16."""

CLASSIC_CODES: Final = 54
"""Distinct cards of the classic deck: its hands count codes ``0 .. CLASSIC_CODES - 1`` only."""

COMPILED: bool = not __file__.endswith(".py")
"""True when the mypyc-compiled engine modules are running (see :mod:`unobot.build_mode`)."""


def _refuse_change(self: Card, name: str, *value: object) -> None:
    raise AttributeError("Card is immutable")


if not COMPILED:
    # Pure Python only: the compiled class enforces its Final attributes itself (and may not
    # be patched). Installed once the interned cards are built, since __init__ assigns.
    setattr(Card, "__setattr__", _refuse_change)  # noqa: B010
    setattr(Card, "__delattr__", _refuse_change)  # noqa: B010


def _card_by_code(code: int) -> Card:
    return CARDS[code]


def full_deck(decks: int = 1) -> list[Card]:
    """The 108-card deck (times ``decks``), in a fixed order: shuffle it with :func:`shuffle`."""
    return list(_ONE_DECK * decks)


def no_mercy_deck() -> list[Card]:
    """The 168-card deck of UNO Show 'em No Mercy (Mattel, 2023), in a fixed order.

    Per colour: two of each number 0-9 (80 in all), three Skip, three Reverse, three Draw Two,
    three Discard All, two Skip Everyone, two Draw Four (88 coloured action cards in all with the
    wilds below); wilds: eight Wild Reverse Draw Four, four Wild Draw Six, four Wild Draw Ten and
    eight Wild Colour Roulette. 80 + 4 * 16 + 24 = 168.
    """
    return list(_NO_MERCY_DECK)


_NO_MERCY_COPIES = {
    Rank.SKIP: 3,
    Rank.REVERSE: 3,
    Rank.DRAW_TWO: 3,
    Rank.DISCARD_ALL: 3,
    Rank.SKIP_EVERYONE: 2,
    Rank.DRAW_FOUR: 2,
    Rank.WILD_REVERSE_DRAW_FOUR: 8,
    Rank.WILD_DRAW_SIX: 4,
    Rank.WILD_DRAW_TEN: 4,
    Rank.WILD_COLOR_ROULETTE: 8,
    Rank.WILD: 0,
    Rank.WILD_DRAW_FOUR: 0,
}


def _build_no_mercy() -> tuple[Card, ...]:
    deck: list[Card] = []
    for card in CARDS:
        deck += [card] * _NO_MERCY_COPIES.get(card.rank, 2)
    return tuple(deck)


_NO_MERCY_DECK = _build_no_mercy()


def _build_deck() -> tuple[Card, ...]:
    one: list[Card] = []
    for card in CARDS[:CLASSIC_CODES]:
        if card.is_wild:
            one += [card] * 4
        elif card.rank is Rank.ZERO:
            one.append(card)
        else:
            one += [card, card]
    return tuple(one)


_ONE_DECK = _build_deck()


def shuffle(cards: list[Card], rng: Random) -> None:
    """Shuffle in place, uniformly, using only ``rng.random()``.

    ``random.shuffle`` draws one bounded integer per card in Python code; sorting by one C-level
    float per card is uniform too (ties have probability ~2**-40 for a deck) and faster, which
    matters when computer players simulate thousands of hands per move.
    """
    count = len(cards)
    if count < 2:
        return
    rand = rng.random
    keys = [rand() for _ in range(count)]
    order = sorted(range(count), key=keys.__getitem__)
    cards[:] = itemgetter(*order)(cards)


# --- parsing what players type -------------------------------------------------------------

_COLOR_WORDS = {
    "r": Color.RED, "red": Color.RED,
    "y": Color.YELLOW, "yellow": Color.YELLOW,
    "g": Color.GREEN, "green": Color.GREEN,
    "b": Color.BLUE, "blue": Color.BLUE,
}  # fmt: skip

_RANK_WORDS: dict[str, Rank] = {str(i): Rank(i) for i in range(10)}
_RANK_WORDS.update(
    {
        "zero": Rank.ZERO, "one": Rank.ONE, "two": Rank.TWO, "three": Rank.THREE,
        "four": Rank.FOUR, "five": Rank.FIVE, "six": Rank.SIX, "seven": Rank.SEVEN,
        "eight": Rank.EIGHT, "nine": Rank.NINE,
        "s": Rank.SKIP, "skip": Rank.SKIP,
        "r": Rank.REVERSE, "rev": Rank.REVERSE, "reverse": Rank.REVERSE,
        "d2": Rank.DRAW_TWO, "+2": Rank.DRAW_TWO, "d": Rank.DRAW_TWO, "dt": Rank.DRAW_TWO,
        "draw2": Rank.DRAW_TWO, "drawtwo": Rank.DRAW_TWO,
        "se": Rank.SKIP_EVERYONE, "skipeveryone": Rank.SKIP_EVERYONE, "sa": Rank.SKIP_EVERYONE,
        "da": Rank.DISCARD_ALL, "discardall": Rank.DISCARD_ALL,
        "d4": Rank.DRAW_FOUR, "+4": Rank.DRAW_FOUR, "draw4": Rank.DRAW_FOUR,
        "drawfour": Rank.DRAW_FOUR,
    }
)  # fmt: skip

_WILD_WORDS = {
    "w": Rank.WILD, "wild": Rank.WILD,
    "wd4": Rank.WILD_DRAW_FOUR, "w4": Rank.WILD_DRAW_FOUR, "w+4": Rank.WILD_DRAW_FOUR,
    "+4": Rank.WILD_DRAW_FOUR, "wilddraw4": Rank.WILD_DRAW_FOUR, "wild+4": Rank.WILD_DRAW_FOUR,
    "wilddrawfour": Rank.WILD_DRAW_FOUR,
    "wd6": Rank.WILD_DRAW_SIX, "w6": Rank.WILD_DRAW_SIX, "w+6": Rank.WILD_DRAW_SIX,
    "+6": Rank.WILD_DRAW_SIX,
    "wd10": Rank.WILD_DRAW_TEN, "w10": Rank.WILD_DRAW_TEN, "w+10": Rank.WILD_DRAW_TEN,
    "+10": Rank.WILD_DRAW_TEN,
    "wrd4": Rank.WILD_REVERSE_DRAW_FOUR, "wr4": Rank.WILD_REVERSE_DRAW_FOUR,
    "wr+4": Rank.WILD_REVERSE_DRAW_FOUR,
    "wcr": Rank.WILD_COLOR_ROULETTE, "roulette": Rank.WILD_COLOR_ROULETTE,
}  # fmt: skip

# Longest-first alternatives so "wd4g" splits as WD4 + g and "bd2" as B + D2.
_WILD_RE = re.compile(
    "^(" + "|".join(sorted(map(re.escape, _WILD_WORDS), key=len, reverse=True)) + r")(.*)$"
)
_COLOR_RE = re.compile(
    "^(" + "|".join(sorted(map(re.escape, _COLOR_WORDS), key=len, reverse=True)) + r")(.*)$"
)
_MAX_SHOWN = 20


def _shown(text: str) -> str:
    """User text made safe to quote back: printable, one line, short."""
    clean = "".join(ch if ch.isprintable() else "?" for ch in text.strip())
    return clean if len(clean) <= _MAX_SHOWN else clean[: _MAX_SHOWN - 1] + "…"


def parse_color(text: str) -> Color:
    """A colour by letter or name (``g``, ``Green``)."""
    try:
        return _COLOR_WORDS[text.strip().lower()]
    except KeyError:
        raise CardParseError(
            N_("'{text}' is not a colour: use r, y, g or b"), text=_shown(text)
        ) from None


def parse_play(text: str) -> tuple[Card, Color | None]:
    """Read a card as typed after ``.play``; return it with the colour named for a wild (or None).

    Accepts ``b 9``, ``b9``, ``B9``, ``r s``, ``g r``, ``r d2``, ``r +2``, ``blue skip``, ``w g``,
    ``wd4 b``, ``w4 b``, ``w+4 blue`` and the strict notation, in any case. A wild without a colour
    parses (colour ``None``); the engine then asks for the colour. Anything else raises
    :class:`CardParseError` saying what was wrong.

    Words after a complete card are ignored when the first of them can't be part of a card
    (``y 7 please``, ``w g thanks``): people type like that. When it could (``y 7 8``, ``r 5
    blue``, ``w please``: a wild still without its colour), nothing is guessed and the error
    stands, so a slip never plays a card the player did not mean.
    """
    try:
        return _parse_card(text)
    except CardParseError:
        words = text.split()
        for k in range(min(len(words) - 1, _MAX_CARD_WORDS), 0, -1):
            if _card_word(words[k]):
                continue
            try:
                card, color = _parse_card(" ".join(words[:k]))
            except CardParseError:
                continue
            if not card.is_wild or color is not None or card.rank is Rank.WILD_COLOR_ROULETTE:
                return card, color  # (No Mercy's Roulette is played without a colour)
        raise


_MAX_CARD_WORDS = 4
"""The most words a card takes (``wild draw four blue``)."""


def _card_word(word: str) -> bool:
    """Whether ``word`` could be part of a card (a colour, a value, a wild, ``5x``, ``+2``)."""
    low = word.lower()
    return (
        low in _COLOR_WORDS
        or low in _RANK_WORDS
        or low in _WILD_WORDS
        or low[:1].isdigit()
        or low[:1] == "+"
    )


def _parse_card(text: str) -> tuple[Card, Color | None]:
    """:func:`parse_play` without the forgiveness for words after the card."""
    raw = "".join(text.lower().split())
    if not raw:
        raise CardParseError(N_("which card? e.g. .play r 5, .play w g"))
    m = _WILD_RE.match(raw)
    if m:
        card = Card.of(None, _WILD_WORDS[m.group(1)])
        rest = m.group(2)
        return card, (parse_color(rest) if rest else None)
    m = _COLOR_RE.match(raw)
    if not m:
        raise CardParseError(
            N_("'{text}' is not a card: e.g. r 5, g s, b d2, w g, wd4 b"), text=_shown(text)
        )
    color = _COLOR_WORDS[m.group(1)]
    rest = m.group(2)
    if not rest:
        raise CardParseError(
            N_("which {color} card? e.g. .play {letter} 5"),
            color=ColorProse(color),
            letter=color.letter.lower(),
        )
    rank = _RANK_WORDS.get(rest)
    if rank is None:
        words = text.split()
        if len(words) > 1 and words[0].lower() == m.group(1):
            rest = " ".join(words[1:])  # as typed: '7 8', not '78'
        raise CardParseError(
            N_("'{text}' is not a card value: use 0-9, s, r or d2"), text=_shown(rest)
        )
    return Card.of(color, rank), None
