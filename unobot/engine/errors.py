"""User mistakes as narrow exception types, each with a message fit to show the player.

The dispatcher maps any ``UnoError`` to a short private reply; the game state is unchanged
whenever one is raised.
"""

from __future__ import annotations

__all__ = [
    "AlreadyDrew",
    "CannotCatch",
    "CannotChallenge",
    "CannotPass",
    "CannotSwap",
    "CardNotInHand",
    "CardNotPlayable",
    "ColorNotNeeded",
    "ColorRequired",
    "DrawNotAllowed",
    "HandOver",
    "JumpTooLate",
    "MustAnswerDraw",
    "MustChooseColor",
    "MustPlayDrawnCard",
    "MustSwap",
    "NotAPlayer",
    "NotYourTurn",
    "OnlyDrawnCard",
    "OutOfHand",
    "UnoError",
    "UnoNotNeeded",
    "WildDrawFourNotAllowed",
    "card_name",
]

_FACES = {10: "Skip", 11: "Reverse", 12: "Draw Two", 13: "Wild", 14: "Wild Draw Four"}


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


class UnoError(ValueError):
    """A move the rules don't allow right now. ``str(err)`` is the reply for the player."""


class NotAPlayer(UnoError):
    def __init__(self) -> None:
        super().__init__("you are not playing in this game")


class NotYourTurn(UnoError):
    def __init__(self, whose: str = "") -> None:
        super().__init__(f"it is {whose}'s turn" if whose else "it is not your turn")


class HandOver(UnoError):
    def __init__(self) -> None:
        super().__init__("this hand is over")


class CardNotInHand(UnoError):
    def __init__(self, card: object) -> None:
        super().__init__(f"you have no {card_name(card)}")


class CardNotPlayable(UnoError):
    def __init__(self, card: object, top: object) -> None:
        super().__init__(f"{card} does not match {top}")


class WildDrawFourNotAllowed(UnoError):
    def __init__(self, color: object) -> None:
        super().__init__(f"you may only play a Wild Draw Four when you hold no {color} card")


class ColorRequired(UnoError):
    def __init__(self, card: object) -> None:
        super().__init__(f"name a colour for {card}: e.g. .play {str(card).lower()} g")


class ColorNotNeeded(UnoError):
    def __init__(self, card: object) -> None:
        super().__init__(f"{card} is not a wild: no colour to name")


class CannotPass(UnoError):
    def __init__(self, why: str = "draw a card first") -> None:
        super().__init__(f"you can't pass: {why}")


class AlreadyDrew(UnoError):
    def __init__(self) -> None:
        super().__init__("you already drew this turn: play the card you drew or pass")


class DrawNotAllowed(UnoError):
    def __init__(self) -> None:
        super().__init__("you have a card you can play: you may not draw")


class OnlyDrawnCard(UnoError):
    def __init__(self, card: object) -> None:
        super().__init__(f"after drawing you may only play the card you drew ({card}) or pass")


class MustPlayDrawnCard(UnoError):
    def __init__(self, card: object) -> None:
        super().__init__(f"you must play the card you drew ({card})")


class MustAnswerDraw(UnoError):
    def __init__(self, total: int, can_stack: str) -> None:
        extra = f", or stack a {can_stack}" if can_stack else ""
        super().__init__(f"you must draw {total}{extra}")


class MustChooseColor(UnoError):
    def __init__(self) -> None:
        super().__init__("the first card is a Wild: name the colour first (e.g. .color g)")


class CannotChallenge(UnoError):
    def __init__(self, why: str = "there is no Wild Draw Four to challenge") -> None:
        super().__init__(why)


class CannotCatch(UnoError):
    def __init__(self, who: str = "") -> None:
        super().__init__(f"there is nobody{f' called {who}' if who else ''} to catch")


class UnoNotNeeded(UnoError):
    def __init__(self, why: str = "you have more than one card: no UNO to call") -> None:
        super().__init__(why)


class CannotSwap(UnoError):
    """Seven-O: a swap (or a 7's target) that the rules or the state don't allow."""

    def __init__(self, why: str = "there is no 7 to swap hands with") -> None:
        super().__init__(why)


class OutOfHand(UnoError):
    """No Mercy: the mercy rule put this player out of the hand; they wait for its end."""

    def __init__(self, who: str = "") -> None:
        whom = f"{who} is" if who else "you are"
        super().__init__(f"{whom} out of this hand (mercy rule)")


class JumpTooLate(UnoError):
    """Jump-In: someone else already jumped in on that card (the table names them)."""

    def __init__(self, who: str = "") -> None:
        super().__init__(f"too late: {who or 'someone'} jumped first")


class MustSwap(UnoError):
    """Seven-O: the 7 is played; its player must name whom to swap hands with first."""

    def __init__(self) -> None:
        super().__init__("you played a 7: choose whom to swap hands with first (.swap <nick>)")
