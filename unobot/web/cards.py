"""Cards as the site draws them: a colour class, a face text and a spoken label.

One definition for both renderers: the server draws the replay's first step with it, and the
page embeds the same views (one per distinct card in the game) for ``static/replay.js`` to draw
the other steps, so the script never decodes card notation itself. The face text always says
what the card is ("9", "Skip", "+2", "Wild", "+4"), so colour is never the only cue.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from unobot.engine.cards import Card, CardParseError, Color, Rank

__all__ = ["CardView", "card_view", "color_name", "views_of"]

_FACE = {
    Rank.SKIP: "Skip",
    Rank.REVERSE: "Rev",
    Rank.DRAW_TWO: "+2",
    Rank.SKIP_EVERYONE: "Skip all",
    Rank.DISCARD_ALL: "Disc. all",
    Rank.DRAW_FOUR: "+4",
}
_SPOKEN = {
    Rank.SKIP: "skip",
    Rank.REVERSE: "reverse",
    Rank.DRAW_TWO: "draw two",
    Rank.SKIP_EVERYONE: "skip everyone",
    Rank.DISCARD_ALL: "discard all",
    Rank.DRAW_FOUR: "draw four",
}
_WILD_VIEW = {
    Rank.WILD: ("Wild", "wild"),
    Rank.WILD_DRAW_FOUR: ("+4", "wild draw four"),
    Rank.WILD_DRAW_SIX: ("+6", "wild draw six"),
    Rank.WILD_DRAW_TEN: ("+10", "wild draw ten"),
    Rank.WILD_REVERSE_DRAW_FOUR: ("Rev +4", "wild reverse draw four"),
    Rank.WILD_COLOR_ROULETTE: ("Roulette", "wild colour roulette"),
}
_COLOR_NAMES = {"r": "red", "y": "yellow", "g": "green", "b": "blue"}


@dataclass(frozen=True, slots=True)
class CardView:
    code: str
    """The notation (``"B9"``, ``"WD4"``)."""
    css: str
    """``card-r``, ``card-y``, ``card-g``, ``card-b`` or ``card-w`` (wilds)."""
    face: str
    label: str
    """What a screen reader says: ``"red 9"``, ``"wild draw four"``."""
    letter: str
    """The colour's letter (``"R"``; ``"W"`` for wilds), shown by the colour-blind option."""

    def as_json(self) -> dict[str, Any]:
        return asdict(self)


def color_name(letter: str | None) -> str | None:
    """``"g"`` -> ``"green"`` (the chosen colour of a wild on the discard pile)."""
    return _COLOR_NAMES.get((letter or "").lower())


def card_view(code: str) -> CardView:
    """The view of one card in notation; an unreadable code is drawn as an unknown card, not
    an error (a replay must still show what it can)."""
    try:
        card = Card.parse(code)
    except (CardParseError, ValueError, TypeError):
        return CardView(str(code), "card-w", "?", f"unknown card {code}", "?")
    if card.color is None:
        face, spoken = _WILD_VIEW[card.rank]
        return CardView(card.text, "card-w", face, spoken, "W")
    color = Color(card.color)
    letter = color.letter
    face = _FACE.get(card.rank, str(int(card.rank)))
    spoken = _SPOKEN.get(card.rank, str(int(card.rank)))
    return CardView(card.text, f"card-{letter.lower()}", face, f"{color} {spoken}", letter)


def views_of(codes: set[str]) -> dict[str, dict[str, Any]]:
    """The JSON views of ``codes``, by code (what the replay script draws from)."""
    return {code: card_view(code).as_json() for code in sorted(codes)}
