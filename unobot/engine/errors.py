"""User mistakes as narrow exception types, each with a message fit to show the player.

The dispatcher maps any ``UnoError`` to a short private reply; the game state is unchanged
whenever one is raised.

The engine does no I/O and knows no language, so an error carries its English *message id*
and named parameters (:class:`Explained`): ``str(err)`` is the English sentence (what the
engine's tests read), and the dispatcher says it again in the player's language from the
``commands`` catalogue. A card or colour named in a sentence is kept as itself
(:class:`CardProse`, :class:`ColorProse`) so that the translation names it in its own words.

"""

# translations: domain("commands")  (extraction: these message ids are the commands catalogue's)

from __future__ import annotations

import re
from typing import Any

__all__ = [
    "N_",
    "AlreadyDrew",
    "CannotCatch",
    "CannotChallenge",
    "CannotJumpIn",
    "CannotPass",
    "CannotSwap",
    "CardNotInHand",
    "CardNotPlayable",
    "CardParseError",
    "CardProse",
    "ColorNotNeeded",
    "ColorProse",
    "ColorRequired",
    "DrawNotAllowed",
    "Explained",
    "HandOver",
    "JumpTooLate",
    "MustAnswerDraw",
    "MustChooseColor",
    "MustNameRouletteColor",
    "MustPlayDrawnCard",
    "MustSwap",
    "NotAPlayer",
    "NotYourTurn",
    "OnlyDrawnCard",
    "OutOfHand",
    "RouletteColorNotYours",
    "RuleError",
    "UnoError",
    "UnoNotNeeded",
    "WildDrawFourNotAllowed",
    "card_name",
]


def N_(message: str) -> str:
    """Marks an English message id for extraction (``commands`` domain); translated when shown."""
    return message


_FACES = {
    10: "Skip",
    11: "Reverse",
    12: "Draw Two",
    13: "Wild",
    14: "Wild Draw Four",
    15: "Skip Everyone",
    16: "Discard All",
    17: "Draw Four",
    18: "Wild Draw Six",
    19: "Wild Draw Ten",
    20: "Wild Reverse Draw Four",
    21: "Wild Colour Roulette",
}


def card_name(card: object) -> str:
    """A card spelled out for a sentence (``Red 9``, ``Blue Skip``, ``Wild``): ``you have no W``
    reads like a typo to someone who has not learnt the notation yet. Anything that is not a
    card (a test's string) is shown as it is."""
    rank = getattr(card, "rank", None)
    if rank is None:
        return str(card)
    face = _FACES.get(int(rank), str(int(rank)))
    color = getattr(card, "color", None)
    return face if color is None else f"{str(color).capitalize()} {face}"


class CardProse:
    """A card named in an error's sentence: English ``Red 9`` here, each language's own words
    where the error is shown (``unobot.core.refusals``)."""

    __slots__ = ("card",)

    def __init__(self, card: object) -> None:
        self.card = card

    def __str__(self) -> str:
        return card_name(self.card)

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)


class ColorProse:
    """A colour named in an error's sentence (``red``), translated where it is shown."""

    __slots__ = ("color",)

    def __init__(self, color: object) -> None:
        self.color = color

    def __str__(self) -> str:
        return str(self.color)

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)


class Explained(ValueError):
    """An error whose message is a message id plus named parameters.

    ``Explained(N_("{card} does not match {top}"), card=..., top=...)``: ``str(err)`` is the
    English sentence; :attr:`message_id` and :attr:`params` let the layer that shows it say it
    in the reader's language. Given an already translated text (``UnoError(_("..."))`` in a
    plugin) and no parameters, ``args[0]`` is that text itself, so it keeps its translation."""

    message_id: str
    params: dict[str, Any]

    def __init__(self, message: str = "", /, **params: Any) -> None:
        self.message_id = message
        self.params = params
        super().__init__(message.format_map(params) if params else message)


class UnoError(Explained):
    """A move the rules don't allow right now. ``str(err)`` is the reply for the player."""


class RuleError(Explained):
    """A rule option or combination that can't be played (``.unorules set``, a preset's name)."""


class CardParseError(Explained):
    """Text that names no card; the message is fit to show the player who typed it."""


class NotAPlayer(UnoError):
    def __init__(self) -> None:
        super().__init__(N_("you are not playing in this game"))


class NotYourTurn(UnoError):
    def __init__(self, whose: str = "") -> None:
        if whose:
            super().__init__(N_("it is {nick}'s turn"), nick=whose)
        else:
            super().__init__(N_("it is not your turn"))


_NO_JUMP = {
    "card": N_("it is {nick}'s turn; out of turn you may only jump in with the very card on top "
               "({top})"),
    "wild": N_("it is {nick}'s turn; nobody jumps in on a wild ({top})"),
    "own": N_("it is {nick}'s turn; you can't jump in on your own card"),
    "swap": N_("it is {nick}'s turn; jump in on a 7 once its swap is done"),
    "closed": N_("it is {nick}'s turn; jump in only right after a card is played, before the "
                 "next move"),
}  # fmt: skip


class CannotJumpIn(NotYourTurn):
    """Jump-In: a play out of turn that is no jump the rule allows; says whose turn it is and
    which part of the rule the play missed (``why``: a key of ``_NO_JUMP``)."""

    def __init__(self, why: str, whose: str, top: object) -> None:
        UnoError.__init__(self, _NO_JUMP[why], nick=whose, top=str(top))
        self.why = why


class HandOver(UnoError):
    def __init__(self) -> None:
        super().__init__(N_("this hand is over"))


class CardNotInHand(UnoError):
    def __init__(self, card: object) -> None:
        super().__init__(N_("you have no {card}"), card=CardProse(card))


class CardNotPlayable(UnoError):
    def __init__(self, card: object, top: object) -> None:
        super().__init__(N_("{card} does not match {top}"), card=str(card), top=str(top))


class WildDrawFourNotAllowed(UnoError):
    def __init__(self, color: object) -> None:
        super().__init__(
            N_("you may only play a Wild Draw Four when you hold no {color} card"),
            color=ColorProse(color),
        )


class ColorRequired(UnoError):
    def __init__(self, card: object) -> None:
        super().__init__(
            N_("name a colour for {card}: e.g. .play {code} g"),
            card=str(card),
            code=str(card).lower(),
        )


class ColorNotNeeded(UnoError):
    def __init__(self, card: object) -> None:
        super().__init__(N_("{card} is not a wild: no colour to name"), card=str(card))


class CannotPass(UnoError):
    def __init__(self, why: str = "") -> None:
        if why:
            super().__init__(why)
        else:
            super().__init__(N_("you can't pass: draw a card first"))


class AlreadyDrew(UnoError):
    def __init__(self) -> None:
        super().__init__(N_("you already drew this turn: play the card you drew or pass"))


class DrawNotAllowed(UnoError):
    def __init__(self) -> None:
        super().__init__(N_("you have a card you can play: you may not draw"))


class OnlyDrawnCard(UnoError):
    def __init__(self, card: object) -> None:
        super().__init__(
            N_("after drawing you may only play the card you drew ({card}) or pass"),
            card=str(card),
        )


class MustPlayDrawnCard(UnoError):
    def __init__(self, card: object) -> None:
        super().__init__(N_("you must play the card you drew ({card})"), card=str(card))


_STACK_HINTS = {
    "": N_("you must draw {total}"),
    "WD4": N_("you must draw {total}, or stack a WD4"),
    "Draw Two": N_("you must draw {total}, or stack a Draw Two"),
    "Draw Two or WD4": N_("you must draw {total}, or stack a Draw Two or WD4"),
}
_STACK_HIGHER = re.compile(r"draw card of \+(\d+) or more")


class MustAnswerDraw(UnoError):
    """``can_stack`` is the game's hint (``Game._stack_hint``: ``Draw Two``, ``draw card of
    +4 or more``): each hint has a whole sentence of its own, so a language can say it."""

    def __init__(self, total: int, can_stack: str) -> None:
        if can_stack in _STACK_HINTS:
            super().__init__(_STACK_HINTS[can_stack], total=total)
        elif m := _STACK_HIGHER.fullmatch(can_stack):
            super().__init__(
                N_("you must draw {total}, or stack a draw card of +{least} or more"),
                total=total,
                least=int(m.group(1)),
            )
        else:
            super().__init__(N_("you must draw {total}, or stack a {cards}"), total=total,
                             cards=can_stack)  # fmt: skip


class MustChooseColor(UnoError):
    def __init__(self) -> None:
        super().__init__(N_("the first card is a Wild: name the colour first (e.g. .color g)"))


class MustNameRouletteColor(UnoError):
    """No Mercy: a Wild Colour Roulette was played on this player, who names its colour."""

    def __init__(self) -> None:
        super().__init__(N_("name a colour for the roulette first (e.g. .color g)"))


class RouletteColorNotYours(UnoError):
    """No Mercy: the Roulette's colour is named by the next player, not by whoever plays it
    (the sheet: "The next player chooses a color")."""

    def __init__(self) -> None:
        super().__init__(
            N_("the next player names the roulette's colour: play it without one (.play wcr)")
        )


class CannotChallenge(UnoError):
    def __init__(self, why: str = "") -> None:
        super().__init__(why or N_("there is no Wild Draw Four to challenge"))


class CannotCatch(UnoError):
    def __init__(self, who: str = "") -> None:
        if who:
            super().__init__(N_("there is nobody called {nick} to catch"), nick=who)
        else:
            super().__init__(N_("there is nobody to catch"))


class UnoNotNeeded(UnoError):
    def __init__(self, why: str = "") -> None:
        super().__init__(why or N_("you have more than one card: no UNO to call"))


class CannotSwap(UnoError):
    """Seven-O: a swap (or a 7's target) that the rules or the state don't allow."""

    def __init__(self, why: str = "") -> None:
        super().__init__(why or N_("there is no 7 to swap hands with"))


class OutOfHand(UnoError):
    """No Mercy: the mercy rule put this player out of the hand; they wait for its end."""

    def __init__(self, who: str = "") -> None:
        if who:
            super().__init__(N_("{nick} is out of this hand (mercy rule)"), nick=who)
        else:
            super().__init__(N_("you are out of this hand (mercy rule)"))


class JumpTooLate(UnoError):
    """Jump-In: someone else already jumped in on that card (the table names them)."""

    def __init__(self, who: str = "") -> None:
        if who:
            super().__init__(N_("too late: {nick} jumped first"), nick=who)
        else:
            super().__init__(N_("too late: someone jumped first"))


class MustSwap(UnoError):
    """Seven-O: the 7 is played; its player must name whom to swap hands with first."""

    def __init__(self) -> None:
        super().__init__(N_("you played a 7: choose whom to swap hands with first (.swap <nick>)"))
