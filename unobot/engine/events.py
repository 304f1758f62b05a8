"""What happened, as typed records: the engine returns a list of these from every action.

Renderers turn them into text for the channel and for each player; bots and stats read them.
Events that carry cards a player must keep secret (``CardsDrawn.cards``) are rendered publicly by
count only. Events are slotted records, not frozen: the engine creates several per move in
simulations, and frozen dataclasses cost five times as much to build.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from unobot.engine.cards import Card, Color

__all__ = [
    "CardPlayed",
    "CardsDiscarded",
    "CardsDrawn",
    "ChallengeResolved",
    "ColorChosen",
    "DrawPending",
    "DrawReason",
    "Eliminated",
    "Event",
    "EveryoneSkipped",
    "FirstPlayerDraw",
    "HandEnded",
    "HandOutcome",
    "HandStarted",
    "HandsRotated",
    "HandsSwapped",
    "JumpedIn",
    "MatchEnded",
    "MatchOutcome",
    "Reshuffled",
    "Reversed",
    "RoulettePending",
    "SeatRemoved",
    "Skipped",
    "StartCardReplaced",
    "StartCardTurned",
    "SwapPending",
    "TurnPassed",
    "UnoCalled",
    "UnoCaught",
]


# The events created on every move spell out their __init__ (init=False): mypyc compiles a
# written __init__ to C but leaves a dataclass-generated one as Python bytecode, five times
# slower. Each must take exactly the dataclass fields, in order, with the same defaults
# (tests/engine/test_build_mode.py checks); eq, repr, replace() and fields() are unchanged.


class DrawReason(Enum):
    DEAL = "deal"
    DRAW = "draw"
    """An ordinary draw on the player's turn (one, or until playable)."""
    PENALTY_CARD = "penalty-card"
    """A Draw Two / Wild Draw Four (or a stack of them) hit this player."""
    MISSED_UNO = "missed-uno"
    FALSE_UNO = "false-uno"
    CHALLENGE = "challenge"
    ILLEGAL_PLAY = "illegal-play"
    START_CARD = "start-card"
    """A Draw Two turned up as the first card."""
    ROULETTE = "roulette"
    """No Mercy's Wild Colour Roulette: drawn until a card of the named colour came."""


@dataclass(slots=True)
class HandStarted:
    dealer: int
    first: int
    """The seat whose turn it is once start-card effects are applied."""
    players: int
    hand_size: int
    decks: int


@dataclass(slots=True)
class FirstPlayerDraw:
    """One round of the highest-card draw for first player: the cards shown by ``seats``."""

    seats: tuple[int, ...]
    cards: tuple[Card, ...]


@dataclass(slots=True)
class StartCardTurned:
    card: Card


@dataclass(slots=True)
class StartCardReplaced:
    card: Card
    """The card that may not start the pile; it went back into the deck."""


@dataclass(slots=True, init=False)
class CardPlayed:
    seat: int
    card: Card
    color: Color
    """The colour in force after the card (the chosen one for a wild)."""
    cards_left: int

    def __init__(self, seat: int, card: Card, color: Color, cards_left: int) -> None:
        self.seat = seat
        self.card = card
        self.color = color
        self.cards_left = cards_left


@dataclass(slots=True, init=False)
class CardsDrawn:
    seat: int
    cards: tuple[Card, ...]
    """Secret to everyone but ``seat``: render publicly as ``len(cards)``."""
    reason: DrawReason

    def __init__(self, seat: int, cards: tuple[Card, ...], reason: DrawReason) -> None:
        self.seat = seat
        self.cards = cards
        self.reason = reason


@dataclass(slots=True)
class Reshuffled:
    """The discard pile (less its top card) was shuffled into a new draw pile."""

    cards: int


@dataclass(slots=True, init=False)
class Skipped:
    seat: int

    def __init__(self, seat: int) -> None:
        self.seat = seat


@dataclass(slots=True, init=False)
class Reversed:
    direction: int
    """+1 for seat order, -1 for the other way."""

    def __init__(self, direction: int) -> None:
        self.direction = direction


@dataclass(slots=True)
class ColorChosen:
    seat: int
    color: Color


@dataclass(slots=True, init=False)
class TurnPassed:
    seat: int

    def __init__(self, seat: int) -> None:
        self.seat = seat


@dataclass(slots=True)
class DrawPending:
    """``seat`` must draw ``total`` unless they stack or challenge."""

    seat: int
    total: int


@dataclass(slots=True, init=False)
class UnoCalled:
    seat: int
    automatic: bool = False
    """Called by the engine (``UnoCall.AUTO``)."""

    def __init__(self, seat: int, automatic: bool = False) -> None:
        self.seat = seat
        self.automatic = automatic


@dataclass(slots=True)
class SeatRemoved:
    """``seat`` left the hand; their ``cards`` went under the draw pile. Seats after it are
    renumbered one lower from the next event on."""

    seat: int
    cards: int


@dataclass(slots=True)
class UnoCaught:
    catcher: int
    target: int
    penalty: int


@dataclass(slots=True)
class ChallengeResolved:
    challenger: int
    offender: int
    guilty: bool
    """True when the offender held a card of the colour in force before their Wild Draw Four."""


@dataclass(slots=True)
class HandOutcome:
    """How a hand ended: who went out and what every hand held."""

    winner: int
    remaining: tuple[tuple[Card, ...], ...]
    points: tuple[int, ...]
    """Points of the cards left in each seat's hand."""
    scores: tuple[int, ...]
    """What each seat scores for this hand under the rules' scoring."""
    complete: bool = True
    """False when a timed match cut the hand short (no winner: ``winner`` is -1)."""
    bonus: int = 0
    """The part of the winner's score that is no card: No Mercy's points for the players the
    mercy rule knocked out during the hand (``HouseRules.mercy_bonus``)."""


@dataclass(slots=True)
class HandEnded:
    outcome: HandOutcome


@dataclass(slots=True)
class MatchOutcome:
    totals: tuple[int, ...]
    winners: tuple[int, ...]
    """Seats with the best total (more than one on a tie)."""
    hands: int


@dataclass(slots=True)
class MatchEnded:
    outcome: MatchOutcome


@dataclass(slots=True)
class JumpedIn:
    """Jump-In: ``seat`` played the card on top out of turn (the ``CardPlayed`` follows); play
    goes on from them, and ``skipped`` (whose turn it was) lost the turn."""

    seat: int
    skipped: int


@dataclass(slots=True)
class SwapPending:
    """Seven-O: ``seat`` played a 7 without naming whom to swap with; they must (``Swap``)."""

    seat: int


@dataclass(slots=True)
class HandsSwapped:
    """Seven-O: ``seat`` and ``target`` exchanged hands; the counts are after the swap. Each
    now holds what the other held: only they two may see the cards."""

    seat: int
    target: int
    seat_cards: int
    target_cards: int


@dataclass(slots=True)
class HandsRotated:
    """Seven-O: every hand went to the next player in ``direction`` (seat s got s-direction's
    hand); ``counts`` is each seat's card count after."""

    direction: int
    counts: tuple[int, ...]


@dataclass(slots=True)
class CardsDiscarded:
    """No Mercy's Discard All: ``seat`` laid ``cards`` (the rest of that colour in their hand)
    under the Discard All card just played; they hold ``left`` now."""

    seat: int
    cards: tuple[Card, ...]
    left: int


@dataclass(slots=True)
class EveryoneSkipped:
    """No Mercy's Skip Everyone: every other player is skipped; ``seat`` plays again."""

    seat: int


@dataclass(slots=True)
class RoulettePending:
    """No Mercy's Wild Colour Roulette was played: ``seat`` (the next player) must name a
    colour (``ChooseColor``), then turns cards up until one of it comes and loses the turn."""

    seat: int


@dataclass(slots=True)
class Eliminated:
    """The mercy rule: ``seat`` held ``cards`` cards (at least the limit) and is out of the
    hand; the cards went under the discard pile. Seats keep their numbers: an eliminated seat
    holds nothing and is passed over."""

    seat: int
    cards: int


Event = (
    HandStarted
    | FirstPlayerDraw
    | StartCardTurned
    | StartCardReplaced
    | CardPlayed
    | CardsDrawn
    | Reshuffled
    | Skipped
    | Reversed
    | ColorChosen
    | TurnPassed
    | DrawPending
    | UnoCalled
    | UnoCaught
    | ChallengeResolved
    | SeatRemoved
    | HandEnded
    | MatchEnded
    | JumpedIn
    | SwapPending
    | HandsSwapped
    | HandsRotated
    | CardsDiscarded
    | EveryoneSkipped
    | Eliminated
    | RoulettePending
)
