"""What one seat may know: the only thing computer players ever receive.

A strategy must not see a card a human in the same seat couldn't see. So strategies are never
handed the :class:`~unobot.engine.Game`: an :class:`Observer` (one per seat, owned by the table or
the arena) reads the game's public state and the events, drops what is secret to the seat
(other hands, the order of the draw pile, cards others drew), and hands out a frozen
:class:`Observation` holding plain values only. Tests check that two games differing only in
hidden cards give identical observations.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from unobot.cards import Card, Color
from unobot.engine import (
    Action,
    CardPlayed,
    CardsDrawn,
    ColorChosen,
    DrawReason,
    Event,
    Game,
    HandStarted,
    HouseRules,
    Phase,
    SeatRemoved,
    StartCardTurned,
)

__all__ = ["Observation", "Observer", "PlayRecord"]


@dataclass(frozen=True, slots=True)
class PlayRecord:
    """A card laid on the pile this hand (public): who, what, the colour before and after."""

    seat: int
    card: Card
    color_before: Color
    color_after: Color


@dataclass(frozen=True, slots=True)
class Observation:
    """Everything one seat can see at one moment; plain immutable values, no game object."""

    seat: int
    """Whose view this is."""
    players: int
    hand: tuple[Card, ...]
    """This seat's own cards (sorted)."""
    counts: tuple[int, ...]
    """Cards held by every seat (public: everyone can count)."""
    discard: tuple[Card, ...]
    """The discard pile as it is now, bottom first (the top card is last)."""
    draw_pile_size: int
    color: Color
    """The colour in force."""
    direction: int
    current: int
    """The seat to move."""
    phase: Phase
    pending: int
    """Cards the player to move must draw unless they stack or challenge."""
    drawn: Card | None
    """The card this seat drew this turn and may now play (None for other seats' draws)."""
    exposed: int
    """The seat that went down to one card without calling UNO and may be caught, or -1."""
    legal: tuple[Action, ...]
    """What this seat may do now (derived from its own hand and the public state)."""
    history: tuple[PlayRecord, ...]
    """Every card played this hand, in order."""
    voids: tuple[frozenset[Color], ...]
    """Per seat, colours they were seen not to hold (they had to draw on it) and haven't
    drawn since: public inference, as a watching player would make."""
    decks: int
    rules: HouseRules

    @property
    def top(self) -> Card:
        return self.discard[-1]

    @property
    def my_turn(self) -> bool:
        return self.current == self.seat

    def next_seat(self, steps: int = 1) -> int:
        return (self.current + self.direction * steps) % self.players


class Observer:
    """Follows one hand for one seat: feed it every event (:meth:`see`), ask :meth:`observe`.

    It keeps only public knowledge (the cards played with the colours around them, who had to
    draw on which colour) plus the seat's own hand, read fresh from the game on each observe.
    """

    def __init__(self, seat: int, players: int, rules: HouseRules) -> None:
        self.seat = seat
        self.players = players
        self.rules = rules
        self.decks = rules.decks_for(players)
        self.color: Color | None = None
        self.history: list[PlayRecord] = []
        self.voids: list[set[Color]] = [set() for _ in range(players)]

    def see(self, events: Iterable[Event]) -> None:
        """Take in what happened; only the public part of each event is kept."""
        for event in events:
            kind = type(event)
            if kind is CardPlayed:
                before = self.color if self.color is not None else event.color  # type: ignore[union-attr]
                self.history.append(PlayRecord(event.seat, event.card, before, event.color))  # type: ignore[union-attr]
                self.color = event.color  # type: ignore[union-attr]
            elif kind is CardsDrawn:
                seat = event.seat  # type: ignore[union-attr]
                voids = self.voids[seat]
                voids.clear()
                # Drawing in turn with no choice means no card of the colour in force was held
                # (the drawn card may be one, but then it is usually played at once).
                if (
                    event.reason is DrawReason.DRAW  # type: ignore[union-attr]
                    and not self.rules.voluntary_draw
                    and self.color is not None
                ):
                    voids.add(self.color)
            elif kind is ColorChosen:
                self.color = event.color  # type: ignore[union-attr]
            elif kind is StartCardTurned:
                card = event.card  # type: ignore[union-attr]
                self.color = card.color
            elif kind is HandStarted:
                self.history.clear()
            elif kind is SeatRemoved:
                gone = event.seat  # type: ignore[union-attr]
                del self.voids[gone]
                self.players -= 1
                if gone < self.seat:
                    self.seat -= 1

    def observe(self, game: Game) -> Observation:
        """This seat's view of ``game`` now (reads only public attributes and its own hand)."""
        seat = self.seat
        return Observation(
            seat=seat,
            players=game.n,
            hand=tuple(game.hand(seat)),
            counts=tuple(game.counts()),
            discard=tuple(game.discard),
            draw_pile_size=len(game.draw_pile),
            color=game.color,
            direction=game.direction,
            current=game.current,
            phase=game.phase,
            pending=game.pending,
            drawn=game.drawn if game.current == seat else None,
            exposed=game.exposed,
            legal=game.legal_actions(seat),
            history=tuple(self.history),
            voids=tuple(frozenset(v) for v in self.voids),
            decks=self.decks,
            rules=self.rules,
        )
