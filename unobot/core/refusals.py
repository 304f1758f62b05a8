"""A refused command's reply in the reader's language: the engine's errors translated.

The rules engine can't import the translations (it does no I/O, and part of it is compiled by
mypyc), so its errors carry an English message id and named parameters
(:class:`~unobot.engine.errors.Explained`). Here, on the way out, the id is looked up in the
``commands`` catalogue, and a card or colour named in the sentence (``you have no Red 9``) is
named in the reader's own words per the glossary (``Rot 9``, ``9 rouge``); card *codes*
(``R9``, ``WD4``) stay as they are in every language.
"""

from __future__ import annotations

from typing import Any

from unobot.engine.errors import CardProse, ColorProse, Explained
from unobot.i18n import N_, Text, domain

__all__ = ["card_prose", "color_prose", "refusal"]

_, ngettext = domain("commands")

_COLORS = {
    0: N_("Red"),
    1: N_("Yellow"),
    2: N_("Green"),
    3: N_("Blue"),
}
_COLORED = {
    0: N_("Red {face}"),
    1: N_("Yellow {face}"),
    2: N_("Green {face}"),
    3: N_("Blue {face}"),
}
_FACES = {
    10: N_("Skip"),
    11: N_("Reverse"),
    12: N_("Draw Two"),
    13: N_("Wild"),
    14: N_("Wild Draw Four"),
    15: N_("Skip Everyone"),
    16: N_("Discard All"),
    17: N_("Draw Four"),
    18: N_("Wild Draw Six"),
    19: N_("Wild Draw Ten"),
    20: N_("Wild Reverse Draw Four"),
    21: N_("Wild Colour Roulette"),
}


def color_prose(color: object) -> str:
    """A colour's name in the language being spoken (``Rot``); not a colour: as it is."""
    try:
        return _(_COLORS[int(color)])  # type: ignore[call-overload]
    except (KeyError, TypeError, ValueError):
        return str(color)


def card_prose(card: object) -> str:
    """A card named in a sentence in the language being spoken (``Rot 9``, ``Passe ton tour
    rouge``, ``Joker``): number cards keep their digit, faces take the glossary's names."""
    rank = getattr(card, "rank", None)
    if rank is None:
        return str(card)
    face = _(_FACES[int(rank)]) if int(rank) in _FACES else str(int(rank))
    color = getattr(card, "color", None)
    if color is None:
        return face
    return _(_COLORED[int(color)], face=face)


def _spoken(value: Any) -> Any:
    if isinstance(value, CardProse):
        return card_prose(value.card)
    if isinstance(value, ColorProse):
        return color_prose(value.color)
    return value


def refusal(err: BaseException) -> str:
    """What to answer for ``err`` (an ``UnoError``, ``CardParseError``, ``RuleError``) in the
    language being spoken, re-speakable in the sender's (a :class:`Text`) where possible.

    Already translated (a plugin raised ``UnoError(_("..."))``): that text. An engine error:
    its message id from the ``commands`` catalogue (an id that is no catalogue's, from code
    not translated yet, comes out in English as it was)."""
    first = err.args[0] if err.args else ""
    if isinstance(first, Text):
        return first
    message_id = getattr(err, "message_id", None) if isinstance(err, Explained) else None
    if message_id:
        params = getattr(err, "params", {})
        return _(message_id, **{k: _spoken(v) for k, v in params.items()})
    return first or _("you can't do that now")
