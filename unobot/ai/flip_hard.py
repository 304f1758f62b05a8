"""``hard`` at UNO Flip: a determinised Monte-Carlo search over :class:`FlipGame` copies.

What a seat may see is taken once, into a :class:`FlipView` (:meth:`FlipView.of`): the faces
of its own cards on the side in play, the *other* face of every opponent's card (they face the
table: ``.cards <nick>`` shows them), the other face of the draw pile's top card, the discard
pile, the hand sizes and the public state (side, colour, turn, direction, phase). The search
reads nothing else: not the opponents' faces in play, not the draw pile's order, and not the
fixed pairing table (:data:`~unobot.engine.flip.FLIP_DECK`) either: a person does not know
which dark face is printed behind which light one, so every face it can't see is dealt at
random from the faces of that side not accounted for (the pairing taken as unknown).

The discard pile counts as seen on both sides (every card on it was played face up, and the
others saw its back while it was in its player's hand; a Flip shows the pile's other side):
an approximation in the player's favour only for the start card and the seat's own plays.

On a turn with more than one distinct move (which card, which colour for a wild, play the
drawn card or keep it) it repeatedly samples a world consistent with the view, applies every
candidate to a copy of it and plays the hand out with every seat following ``normal``'s rules
(:func:`unobot.ai.flip.flip_action`), the same world and reshuffles for every candidate so
that their difference is the move and not the luck. Every ``PRUNE_EVERY`` worlds a move
clearly behind the leader is dropped. The move that won most playouts is chosen (``normal``'s
own move on a tie). A Wild Draw played on it is drawn, never challenged (a ``normal`` player
plays a Wild Draw only without a card of the colour: a challenge would only cost two cards),
and it plays its own Wild Draws whenever the search likes them (``normal`` never challenges).

The search runs within a time budget per move (``budget_ms``, default 200) or a fixed number
of playouts (``playouts``, for reproducible tests); given its seed and the budget in playouts
it is deterministic.
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass
from random import Random

from unobot.ai.flip import flip_action
from unobot.engine.actions import Challenge, Draw
from unobot.engine.flip import (
    Face,
    FlipAction,
    FlipCard,
    FlipColor,
    FlipGame,
    FlipPhase,
    FlipPlay,
    Side,
    side_faces,
)

__all__ = ["FlipHard", "FlipView", "determinise", "flip_hard_action"]

MAX_ROLLOUT_ACTIONS = 3000
"""A guard only: a hand in which nobody can play and no card is left could cycle forever."""

PRUNE_EVERY = 16
"""Worlds between two prunings of the candidates."""

PRUNE_Z = 2.5
"""How clearly (standard deviations of a sign test) a move must trail the leader to be
searched no further."""

_ALL_FACES = {side: Counter(side_faces(side)) for side in Side}


@dataclass(frozen=True, slots=True)
class FlipView:
    """Everything one seat of a Flip hand can see at one moment; plain values, no game object
    (it crosses to a worker process). Hands and faces are in the game's hand order."""

    seat: int
    players: int
    side: Side
    current: int
    direction: int
    phase: FlipPhase
    color: FlipColor
    pending_by: int
    """The seat whose Wild Draw waits for an answer, or -1."""
    hand: tuple[Face, ...]
    """This seat's cards, by their face on the side in play."""
    drawn: int
    """Index in ``hand`` of the card this seat drew this turn and may play, or -1."""
    drawn_back: Face | None
    """That card's other face (seen on the draw pile before it was drawn)."""
    backs: tuple[tuple[Face, ...], ...]
    """Per seat, the other face of each card (public); this seat's own entry is empty."""
    draw_pile_size: int
    draw_top_back: Face | None
    """The other face of the draw pile's top card (the side facing up on the pile)."""
    discard: tuple[tuple[Face, Face], ...]
    """The discard pile, bottom first, as (light, dark) faces."""

    @classmethod
    def of(cls, game: FlipGame, seat: int) -> FlipView:
        """What ``seat`` sees of ``game``: the only place the search reads a game."""
        side = game.side
        other = Side(1 - side)
        drawn = -1
        drawn_back = None
        hand = game.hands[seat]
        if seat == game.current and game.phase is FlipPhase.DRAWN and game.drawn is not None:
            drawn = next(i for i, c in enumerate(hand) if c is game.drawn)
            drawn_back = game.drawn.face(other)
        pile = game.draw_pile
        return cls(
            seat=seat,
            players=game.n,
            side=side,
            current=game.current,
            direction=game.direction,
            phase=game.phase,
            color=game.color,
            pending_by=game.pending_by,
            hand=tuple(c.face(side) for c in hand),
            drawn=drawn,
            drawn_back=drawn_back,
            backs=tuple(
                () if s == seat else tuple(c.face(other) for c in h)
                for s, h in enumerate(game.hands)
            ),
            draw_pile_size=len(pile),
            draw_top_back=pile[-1].face(other) if pile else None,
            discard=tuple((c.light, c.dark) for c in game.discard),
        )

    def counts(self) -> tuple[int, ...]:
        return tuple(len(self.hand) if s == self.seat else len(b) for s, b in enumerate(self.backs))


def determinise(view: FlipView, rng: Random) -> FlipGame:
    """A whole game consistent with ``view``: every face the seat can't see dealt at random
    from the faces of its side not accounted for (the pairing of light and dark faces unknown),
    the draw pile in a random order but for its top card's known back."""
    side = view.side
    other = Side(1 - side)
    pools = {s: Counter(_ALL_FACES[s]) for s in Side}
    for light, dark in view.discard:
        pools[Side.LIGHT][light] -= 1
        pools[Side.DARK][dark] -= 1
    for face in view.hand:
        pools[side][face] -= 1
    if view.drawn_back is not None:
        pools[other][view.drawn_back] -= 1
    for seat, backs in enumerate(view.backs):
        if seat != view.seat:
            for face in backs:
                pools[other][face] -= 1
    if view.draw_top_back is not None:
        pools[other][view.draw_top_back] -= 1
    bags: dict[Side, list[Face]] = {}
    for s in Side:
        bag = list(pools[s].elements())
        rng.shuffle(bag)
        bags[s] = bag
    front = bags[side]
    back = bags[other]

    def card(front_face: Face, back_face: Face) -> FlipCard:
        if side is Side.LIGHT:
            return FlipCard(-1, front_face, back_face)
        return FlipCard(-1, back_face, front_face)

    game = FlipGame(view.players, Random(rng.random()))
    game.side = side
    for seat in range(view.players):
        if seat == view.seat:
            hand = []
            for i, face in enumerate(view.hand):
                if i == view.drawn and view.drawn_back is not None:
                    hand.append(card(face, view.drawn_back))
                else:
                    hand.append(card(face, back.pop()))
            game.hands[seat] = hand
            if view.drawn >= 0:
                game.drawn = hand[view.drawn]
        else:
            game.hands[seat] = [card(front.pop(), b) for b in view.backs[seat]]
    pile = []
    if view.draw_pile_size:
        # The top card (drawn first: last in the list) shows its known back.
        top = card(front.pop(), view.draw_top_back or back.pop())
        pile = [card(front.pop(), back.pop()) for _ in range(view.draw_pile_size - 1)]
        pile.append(top)
    game.draw_pile = pile
    game.discard = [FlipCard(-1, light, dark) for light, dark in view.discard]
    game.color = view.color
    game.current = view.current
    game.direction = view.direction
    game.phase = view.phase
    game.pending_by = view.pending_by
    game.pending_guilty = False  # its model of the others: ``normal`` is never guilty
    return game


def rollout(game: FlipGame, rng: Random) -> int:
    """Play ``game`` to its end with every seat following ``normal``; the winner (-1: none)."""
    for _ in range(MAX_ROLLOUT_ACTIONS):
        if game.phase is FlipPhase.OVER:
            break
        game.apply(game.current, flip_action(game, "normal", rng))
    outcome = game.outcome
    return outcome.winner if outcome is not None else -1


def candidates(game: FlipGame) -> list[FlipAction]:
    """The moves worth searching: every distinct card (and colour for a wild) to play, the
    colour to name, or playing the drawn card against keeping it. A draw while a card could be
    played is left out (as ``normal``, it plays when it can); a Wild Draw played on it is drawn."""
    legal = list(game.legal_actions())
    phase = game.phase
    if phase is FlipPhase.PENDING:
        return [a for a in legal if type(a) is Draw]
    if phase is FlipPhase.PLAY:
        plays = [a for a in legal if type(a) is FlipPlay]
        return plays or [a for a in legal if type(a) is not Challenge]
    return legal


class FlipHard:
    """The ``hard`` player at Flip; :meth:`act` takes a :class:`FlipView` only."""

    name = "hard"

    def __init__(
        self, rng: Random, *, budget_ms: float = 200.0, playouts: int | None = None
    ) -> None:
        self.rng = rng
        self.budget = budget_ms / 1000.0
        self.playouts = playouts

    def act(self, view: FlipView) -> FlipAction:
        if view.current != view.seat or view.phase is FlipPhase.OVER:
            raise ValueError("not this player's turn")
        rng = self.rng
        sample = determinise(view, rng)
        # Its own moves and normal's read only its own hand and the public state: any world
        # gives the same ones.
        moves = candidates(sample)
        if len(moves) <= 1:
            return moves[0]
        usual = flip_action(sample.copy(), "normal", Random(0))
        prior = moves.index(usual) if usual in moves else -1
        return moves[self.search(view, moves, prior)]

    def search(self, view: FlipView, moves: list[FlipAction], prior: int) -> int:
        """Index of the move that won most playouts (``prior`` on a tie with it), every
        candidate played out on the same worlds with the same reshuffles."""
        rng = self.rng
        seat = view.seat
        results = [0] * len(moves)  # bit w set: the move won on world w
        active = list(range(len(moves)))
        worlds = 0
        played = 0
        limit = self.playouts
        deadline = time.perf_counter() + self.budget
        while True:
            world = determinise(view, rng)
            seed = rng.random()
            bit = 1 << worlds
            for i in active:
                game = world.copy()
                game.rng = Random(seed)
                game.apply(seat, moves[i])
                if rollout(game, game.rng) == seat:
                    results[i] |= bit
            worlds += 1
            played += len(active)
            if limit is not None:
                if played >= limit:
                    break
            elif time.perf_counter() >= deadline:
                break
            if worlds % PRUNE_EVERY == 0 and len(active) > 1:
                lead = max(active, key=lambda i: results[i].bit_count())
                active = [i for i in active if i == lead or not _beaten(results[lead], results[i])]
        best = max(active, key=lambda i: results[i].bit_count())
        if prior in active and results[prior].bit_count() == results[best].bit_count():
            return prior
        return best


def _beaten(lead: int, other: int, z: float = PRUNE_Z) -> bool:
    """Did ``lead`` win clearly more of the common worlds than ``other``? (Bitmasks of the
    worlds each won; a sign test on the worlds only one of them won.)"""
    better = (lead & ~other).bit_count()
    worse = (other & ~lead).bit_count()
    return better - worse > z * (better + worse) ** 0.5


def flip_hard_action(
    game: FlipGame, rng: Random, *, budget_ms: float = 200.0, playouts: int | None = None
) -> FlipAction:
    """``hard``'s move for the seat to move in ``game``, decided on that seat's
    :class:`FlipView` alone."""
    view = FlipView.of(game, game.current)
    return FlipHard(rng, budget_ms=budget_ms, playouts=playouts).act(view)
