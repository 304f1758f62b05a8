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
from unobot.i18n import N_, domain

_, ngettext = domain("web")

__all__ = ["CardView", "card_view", "color_name", "views_of"]

_FACE = {
    Rank.SKIP: N_("Skip"),
    Rank.REVERSE: N_("Rev"),
    Rank.DRAW_TWO: "+2",
    Rank.SKIP_EVERYONE: N_("Skip all"),
    Rank.DISCARD_ALL: N_("Disc. all"),
    Rank.DRAW_FOUR: "+4",
}
"""The face text: short (a card is small; the commercial name abbreviated as its players
would), in the page's language; numbers and ``+2`` are the same everywhere."""
_SAME = frozenset({"+2", "+4", "+6", "+10"})
_SPOKEN = {
    Rank.SKIP: N_("{colour} skip"),
    Rank.REVERSE: N_("{colour} reverse"),
    Rank.DRAW_TWO: N_("{colour} draw two"),
    Rank.SKIP_EVERYONE: N_("{colour} skip everyone"),
    Rank.DISCARD_ALL: N_("{colour} discard all"),
    Rank.DRAW_FOUR: N_("{colour} draw four"),
}
"""What a screen reader says of a coloured action card, in the page's language (the card's
name as sold there, so the colour's place in it is the translator's)."""
_WILD_VIEW = {
    Rank.WILD: (N_("Wild"), N_("wild")),
    Rank.WILD_DRAW_FOUR: ("+4", N_("wild draw four")),
    Rank.WILD_DRAW_SIX: ("+6", N_("wild draw six")),
    Rank.WILD_DRAW_TEN: ("+10", N_("wild draw ten")),
    Rank.WILD_REVERSE_DRAW_FOUR: (N_("Rev +4"), N_("wild reverse draw four")),
    Rank.WILD_COLOR_ROULETTE: (N_("Roulette"), N_("wild colour roulette")),
}
_COLOR_NAMES = {"r": N_("red"), "y": N_("yellow"), "g": N_("green"), "b": N_("blue")}
_NUMBER = N_("{colour} {number}")


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
    face_class: str = "card-face"
    """``card-face``, plus ``card-face-small`` (or ``-tiny``) when a word of the face is longer
    than a card holds at the normal size (``Disc. all``, ``Roulette``, Polish ``Kolor``): a
    smaller font, not a face spilling over the next card."""

    def as_json(self) -> dict[str, Any]:
        return asdict(self)


_COLOR_WORDS = {english: letter for letter, english in _COLOR_NAMES.items()}


def color_name(letter: str | None) -> str | None:
    """``"g"`` -> ``"green"`` (the chosen colour of a wild on the discard pile), in the page's
    language. The live rows store the word (``"green"``, as ``str(Color)``): it is read too."""
    key = (letter or "").lower()
    name = _COLOR_NAMES.get(_COLOR_WORDS.get(key, key))
    return None if name is None else _(name)


def card_view(code: str) -> CardView:
    """The view of one card in notation; an unreadable code is drawn as an unknown card, not
    an error (a replay must still show what it can)."""
    try:
        card = Card.parse(code)
    except (CardParseError, ValueError, TypeError):
        return CardView(str(code), "card-w", "?", _("unknown card {code}", code=code), "?")
    if card.color is None:
        face, spoken = _WILD_VIEW[card.rank]
        shown = _face(face)
        return CardView(card.text, "card-w", shown, _(spoken), "W", _face_class(shown, True))
    color = Color(card.color)
    letter = color.letter
    face = _face(_FACE[card.rank]) if card.rank in _FACE else str(int(card.rank))
    colour = color_name(letter) or str(color)
    action = _SPOKEN.get(card.rank)
    if action is None:
        label = _(_NUMBER, colour=colour, number=int(card.rank))
    else:
        label = _(action, colour=colour)
    return CardView(
        card.text, f"card-{letter.lower()}", face, label, letter, _face_class(face, False)
    )


def _face(text: str) -> str:
    return text if text in _SAME else _(text)


FACE_WORD = 4
"""The longest word a card's face shows at the normal size (``Skip``, ``Stop``); a wild's
face has a wider patch around it, so one letter less."""


def _face_class(face: str, wild: bool) -> str:
    longest = max((len(word) for word in face.split()), default=0) + (1 if wild else 0)
    if longest > FACE_WORD + 2:
        return "card-face card-face-tiny"
    return "card-face card-face-small" if longest > FACE_WORD else "card-face"


def views_of(codes: set[str]) -> dict[str, dict[str, Any]]:
    """The JSON views of ``codes``, by code (what the replay script draws from)."""
    return {code: card_view(code).as_json() for code in sorted(codes)}
