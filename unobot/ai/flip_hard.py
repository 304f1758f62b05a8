"""``hard`` at UNO Flip: a determinised Monte-Carlo search over :class:`FlipGame` copies.

What a seat may see is taken once, into a :class:`FlipView` (:meth:`FlipView.of`): the faces
of its own cards on the side in play, the *other* face of every opponent's card (they face the
table: ``.cards <nick>`` shows them), the other face of the draw pile's top card, the discard
pile, the hand sizes and the public state (side, colour, turn, direction, phase). The search
reads nothing else: not the opponents' faces in play, not the draw pile's order, and not the
fixed pairing table (:data:`~unobot.engine.flip.FLIP_DECK`) either: a person does not know
which dark face is printed behind which light one, so every face it can't see is dealt at
random from the faces of that side not accounted for (the pairing taken as unknown).
:class:`FlipMemory` adds what the seat was shown earlier in the hand (the backs a Flip turned
up, which hands drew for want of a card to play, its own cards' other faces); the view carries
it (``fronts``, ``lacks``, ``own_backs``).

The discard pile counts as seen on both sides (every card on it was played face up, and the
others saw its back while it was in its player's hand; a Flip shows the pile's other side):
an approximation in the player's favour only for the start card and the seat's own plays.

On a turn with more than one distinct move (which card, which colour for a wild, play the
drawn card or keep it) it repeatedly samples a world consistent with the view, applies every
candidate to a copy of it and plays the hand out with every seat following ``normal``'s rules
(:func:`normal_move`, :func:`_play_out`), the same world and reshuffles for every candidate
so that their difference is the move and not the luck. Every ``PRUNE_EVERY`` worlds a move
clearly behind the leader is dropped. The move that won most playouts is chosen (``normal``'s
own move unless another won more: ``MARGIN_Z``). A Wild Draw played on it is drawn, never
challenged (a ``normal`` player plays a Wild Draw only without a card of the colour: a
challenge would only cost two cards), and it plays its own Wild Draws whenever the search
likes them, a card of the colour in hand or not (``normal`` never challenges; a person may).

UNO calls: the search weighs only the turn's moves; the move it makes calls UNO with the
next-to-last card as every level does (:func:`unobot.ai.flip.with_uno_call`), and the
playouts keep calls automatic (nobody in them forgets one, so nobody is caught: a missed call
is a person's mistake, not a strategy).

The search runs within a time budget per move (``budget_ms``, default 200) or a fixed number
of playouts (``playouts``, for reproducible tests); given its seed and the budget in playouts
it is deterministic.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from random import Random

from unobot.ai.flip import flip_action
from unobot.ai.hard import beaten
from unobot.engine.actions import CallUno, Catch, Challenge, Draw, Pass
from unobot.engine.flip import (
    Face,
    FlipAction,
    FlipCard,
    FlipChoose,
    FlipColor,
    FlipEvent,
    FlipGame,
    FlipOutcome,
    FlipPhase,
    FlipPlay,
    FlipRank,
    Side,
    side_faces,
)

__all__ = ["FlipHard", "FlipMemory", "FlipView", "determinise", "flip_hard_action", "normal_move"]

MAX_ROLLOUT_ACTIONS = 3000
"""A guard only: a hand in which nobody can play and no card is left could cycle forever."""

PRUNE_EVERY = 16
"""Worlds between two prunings of the candidates."""

MARGIN_Z = 0.0
"""How clearly a move must beat ``normal``'s own to be chosen instead (0: more wins)."""

_ALL_FACES = {side: Counter(side_faces(side)) for side in Side}

Lack = tuple[tuple[FlipColor, FlipRank | None], ...]
"""What a card in play can't be: no wild, and none of these (colour in force, top card's rank
or None) pairs' colour or rank: the seat drew instead of playing while it held the card.
Empty: nothing known."""


def _excluded(face: Face, lack: Lack) -> bool:
    if not lack:
        return False
    if face.is_wild:
        return True
    return any(face.color is c or face.rank is r for c, r in lack)


class FlipMemory:
    """What one seat remembers of a Flip hand, from the events the table announced and the
    public faces it saw (:meth:`see` after every batch of events, from the deal on).

    Per other seat: the faces in play known to be in that hand (a Flip turns up the backs every
    player saw a moment before; those cards are known on both sides until played) and, for each
    other card, what it can't be (a seat that draws on its turn held nothing to play; ``normal``
    players and most people play when they can). For itself: the other faces of its cards
    (its faces in play before the last Flip; the draw pile's top face of a card it drew).
    Nothing read here is hidden from the seat: played and drawn cards by their public faces,
    hands by :meth:`FlipGame.public_hand` (others) and :meth:`FlipGame.hand` (its own)."""

    def __init__(self, seat: int, players: int) -> None:
        self.seat = seat
        self.side = Side.LIGHT
        self.top: Face | None = None
        self.color: FlipColor | None = None
        self.shown: list[Counter[Face]] = [Counter() for _ in range(players)]
        """Per seat, the faces it last saw: others' backs, its own faces in play."""
        self.fronts: list[Counter[Face]] = [Counter() for _ in range(players)]
        self.lacks: list[list[Lack]] = [[] for _ in range(players)]
        self.own_backs: Counter[Face] = Counter()

    def see(self, events: Sequence[FlipEvent], game: FlipGame) -> None:
        """Take in one batch of events (one move's, or a few), then the public faces of
        ``game`` as they are after them."""
        flipped = False
        for i, event in enumerate(events):
            kind = event.kind
            seat = event.seat
            if kind == "start":
                self.side = Side.LIGHT
                self.top = event.cards[0].light
                self.color = event.color
            elif kind == "drew":
                if seat < 0 or seat >= len(self.shown):
                    continue
                back = Side(1 - self.side)
                if seat == self.seat:
                    for card in event.cards:
                        self.own_backs[card.face(back)] += 1
                    continue
                if (
                    i == 0
                    and self.top is not None
                    and self.color is not None
                    and not any(e.kind == "skipped" and e.seat == seat for e in events[i + 1 :])
                ):  # a draw on its own turn (not a penalty): it held nothing to play
                    rank = None if self.top.is_wild else self.top.rank
                    pair = (self.color, rank)
                    self.lacks[seat] = [(*lack, pair) for lack in self.lacks[seat]]
                for card in event.cards:
                    self.shown[seat][card.face(back)] += 1
                    self.lacks[seat].append(())
            elif kind == "played":
                card = event.cards[0]
                face = card.face(self.side)
                back = card.face(Side(1 - self.side))
                self.top = face
                self.color = event.color
                if 0 <= seat < len(self.shown):
                    if seat == self.seat:
                        _take(self.own_backs, back)
                        _take(self.shown[seat], face)
                    else:
                        _take(self.shown[seat], back)
                        if not _take(self.fronts[seat], face):
                            self._forget_lack(seat, face)
            elif kind == "color":
                self.color = event.color
            elif kind == "flipped":
                self.side = Side(1 - self.side)
                self.top = event.cards[0].face(self.side)
                if not self.top.is_wild:
                    self.color = self.top.color
                for s, shown in enumerate(self.shown):
                    # A second Flip in one batch: the faces shown since the first are not
                    # known here (the game is read after the batch): forget them.
                    known = Counter() if flipped else Counter(shown)
                    if s == self.seat:
                        self.own_backs = known
                    else:
                        self.fronts[s] = known
                        self.lacks[s] = []
                flipped = True
            elif kind == "removed":
                for table in (self.shown, self.fronts, self.lacks):
                    del table[seat]  # type: ignore[attr-defined]
                if seat < self.seat:
                    self.seat -= 1
        self._sync(game)

    def _forget_lack(self, seat: int, face: Face) -> None:
        """A card not known in play left ``seat``'s hand: drop an entry it fits (else any)."""
        lacks = self.lacks[seat]
        for i, lack in enumerate(lacks):
            if not _excluded(face, lack):
                del lacks[i]
                return
        if lacks:
            lacks.pop()

    def _sync(self, game: FlipGame) -> None:
        """The hands' public faces as they are now; known faces that no longer fit (a move the
        memory can't follow) are forgotten."""
        if game.n != len(self.shown):
            self.__init__(self.seat, game.n)  # type: ignore[misc]
        for s in range(game.n):
            if s == self.seat:
                self.shown[s] = Counter(game.hand(s))
                held = len(game.hands[s])
                if sum(self.own_backs.values()) > held:
                    self.own_backs = Counter()
                continue
            self.shown[s] = Counter(game.public_hand(s))
            held = len(game.hands[s])
            known = sum(self.fronts[s].values())
            if known > held:
                self.fronts[s] = Counter()
                self.lacks[s] = [() for _ in range(held)]
                continue
            lacks = self.lacks[s]
            need = held - known
            if len(lacks) > need:
                del lacks[need:]
            lacks.extend(() for _ in range(need - len(lacks)))

    def recall(self, game: FlipGame, drawn_back: Face | None) -> dict[str, object]:
        """The :class:`FlipView` fields this memory fills in."""
        own = Counter(self.own_backs)
        if drawn_back is not None:
            _take(own, drawn_back)
        return {
            "fronts": tuple(tuple(c.elements()) for c in self.fronts),
            "lacks": tuple(tuple(lacks) for lacks in self.lacks),
            "own_backs": tuple(own.elements()),
        }


def _take(counter: Counter[Face], face: Face) -> bool:
    if counter[face] > 0:
        counter[face] -= 1
        return True
    return False


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
    fronts: tuple[tuple[Face, ...], ...] = ()
    """Remembered (:class:`FlipMemory`): per seat, faces in play known to be in that hand (the
    backs it showed before the last Flip turned them up); empty without a memory."""
    lacks: tuple[tuple[Lack, ...], ...] = ()
    """Remembered: per seat, one entry per card in play not in ``fronts``: what that card
    can't be (the seat drew instead of playing while holding it)."""
    own_backs: tuple[Face, ...] = ()
    """Remembered: other faces of this seat's own cards it knows (its faces in play before the
    last Flip, and the backs of cards it drew since), but the drawn card's."""

    @classmethod
    def of(cls, game: FlipGame, seat: int, memory: FlipMemory | None = None) -> FlipView:
        """What ``seat`` sees of ``game`` (and remembers, with ``memory``): the only place the
        search reads a game."""
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
            **(memory.recall(game, drawn_back) if memory is not None else {}),  # type: ignore[arg-type]
        )

    def counts(self) -> tuple[int, ...]:
        return tuple(len(self.hand) if s == self.seat else len(b) for s, b in enumerate(self.backs))


def determinise(view: FlipView, rng: Random) -> FlipGame:
    """A whole game consistent with ``view``: every face the seat can't see dealt at random
    from the faces of its side not accounted for (the pairing of light and dark faces unknown),
    each respecting what the seat remembers (known faces in play, what a card can't be), the
    draw pile in a random order but for its top card's known back."""
    side = view.side
    other = Side(1 - side)
    n = view.players
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
    # Remembered faces, each only while the pool still holds it (a memory that went wrong
    # can't deal a card twice).
    own_backs = [f for f in view.own_backs if _take(pools[other], f)]
    fronts: list[list[Face]] = [[] for _ in range(n)]
    for seat, known in enumerate(view.fronts[:n]):
        if seat != view.seat:
            fronts[seat] = [f for f in known if _take(pools[side], f)]
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

    for seat in range(n):
        if seat != view.seat and len(fronts[seat]) > len(view.backs[seat]):
            front += fronts[seat][len(view.backs[seat]) :]  # can't be: back to the pool
            del fronts[seat][len(view.backs[seat]) :]
    # What each other hand's unknown cards can't be: the most constrained dealt first.
    wanted: list[tuple[int, int, Lack]] = []
    for seat in range(n):
        if seat == view.seat:
            continue
        count = len(view.backs[seat]) - len(fronts[seat])
        lacks = list(view.lacks[seat]) if seat < len(view.lacks) else []
        lacks = (lacks + [()] * count)[:count]
        wanted += [(-len(lack), seat, lack) for lack in lacks]
    wanted.sort(key=lambda w: w[0])
    for _, seat, lack in wanted:
        fronts[seat].append(_deal_one(front, lack))
    game = FlipGame(n, Random(rng.random()))
    game.side = side
    for seat in range(n):
        if seat == view.seat:
            unknown = len(view.hand) - (1 if view.drawn >= 0 and view.drawn_back is not None else 0)
            back += own_backs[unknown:]  # more than it holds (can't be): back to the pool
            own_backs = own_backs[:unknown]
            mine = own_backs + [back.pop() for _ in range(unknown - len(own_backs))]
            rng.shuffle(mine)
            hand = []
            for i, face in enumerate(view.hand):
                if i == view.drawn and view.drawn_back is not None:
                    hand.append(card(face, view.drawn_back))
                else:
                    hand.append(card(face, mine.pop()))
            game.hands[seat] = hand
            if view.drawn >= 0:
                game.drawn = hand[view.drawn]
        else:
            faces = fronts[seat]
            rng.shuffle(faces)
            game.hands[seat] = [card(f, b) for f, b in zip(faces, view.backs[seat], strict=True)]
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


def _deal_one(bag: list[Face], lack: Lack) -> Face:
    """A face from the (shuffled) ``bag`` that ``lack`` allows (any when none does)."""
    for i in range(len(bag) - 1, -1, -1):
        if not _excluded(bag[i], lack):
            bag[i], bag[-1] = bag[-1], bag[i]
            return bag.pop()
    return bag.pop()


_PLAYS: dict[tuple[Face, FlipColor | None], FlipPlay] = {}
_CHOOSE = {c: FlipChoose(c) for c in FlipColor}
_DRAW = Draw()
_PASS = Pass()


def _play(face: Face, color: FlipColor | None = None) -> FlipPlay:
    action = _PLAYS.get((face, color))
    if action is None:
        action = _PLAYS[(face, color)] = FlipPlay(face, color)
    return action


def normal_move(game: FlipGame) -> FlipAction:
    """``normal``'s move for the seat to move (:func:`unobot.ai.flip.flip_action`, the same
    choice every time: a test checks), without building the list of legal actions: the
    playouts' policy, several times faster."""
    phase = game.phase
    if phase is FlipPhase.PENDING:
        return _DRAW
    side = game.side
    hand = game.hands[game.current]
    held = [0] * 8
    faces = [c.dark for c in hand] if side else [c.light for c in hand]
    for f in faces:
        if f.color is not None:
            held[f.color] += 1
    base = 4 if side else 0
    if phase is FlipPhase.CHOOSE:
        return _CHOOSE[FlipColor(max(range(base, base + 4), key=held.__getitem__))]
    if phase is FlipPhase.DRAWN:
        drawn = game.drawn
        faces = [drawn.face(side)] if drawn is not None else []
    top = game.discard[-1].face(side)
    color = game.color
    rank = None if top.is_wild else top.rank
    best: Face | None = None
    best_key = (-1, -1)
    wild: Face | None = None
    for f in faces:
        c = f.color
        if c is None:
            if wild is None:
                wild = f
        elif c is color or f.rank is rank:
            key = (f.points, held[c])
            if key > best_key:
                best, best_key = f, key
    if best is not None:
        return _play(best)
    if wild is not None:
        return _play(wild, FlipColor(max(range(base, base + 4), key=held.__getitem__)))
    return _PASS if phase is FlipPhase.DRAWN else _DRAW


def rollout(game: FlipGame) -> int:
    """Play ``game`` to its end with every seat following ``normal``; the winner (-1: none).

    Through the engine until the hand is in the ordinary phase, then :func:`_play_out`."""
    for _ in range(MAX_ROLLOUT_ACTIONS):
        phase = game.phase
        if phase is FlipPhase.PLAY:
            return _play_out(game)
        if phase is FlipPhase.OVER:
            break
        game.apply(game.current, normal_move(game))
    outcome = game.outcome
    return outcome.winner if outcome is not None else -1


_R = FlipRank


def _play_out(game: FlipGame) -> int:
    """The rest of the hand, every seat playing ``normal``'s move (:func:`normal_move`), on the
    game's own lists without the engine's checks and events: the same rules, cards and
    reshuffles as :meth:`FlipGame.apply` (a test plays both from the same positions and
    compares the end), several times faster. The game is left over, its ``outcome`` set."""
    hands = game.hands
    n = game.n
    side = game.side
    color = game.color
    direction = game.direction
    current = game.current
    discard = game.discard
    pile = game.draw_pile
    shuffle = game.rng.shuffle

    def take(hand: list[FlipCard]) -> FlipCard | None:
        if not pile:
            if len(discard) < 2:
                return None
            pile[:] = discard[:-1]
            del discard[:-1]
            shuffle(pile)
        card = pile.pop()
        hand.append(card)
        return card

    def draw_until(hand: list[FlipCard], wanted: FlipColor) -> None:
        while True:
            card = take(hand)
            if card is None or card.face(side).color is wanted:
                return

    def most_held(hand: list[FlipCard]) -> FlipColor:
        held = [0] * 8
        for card in hand:
            c = (card.dark if side else card.light).color
            if c is not None:
                held[c] += 1
        base = 4 if side else 0
        return FlipColor(max(range(base, base + 4), key=held.__getitem__))

    winner = -1
    for _ in range(MAX_ROLLOUT_ACTIONS):
        hand = hands[current]
        top = discard[-1].dark if side else discard[-1].light
        rank = None if top.is_wild else top.rank
        held = [0] * 8
        best = -1
        best_key = (-1, -1)
        wild = -1
        for card in hand:
            c = (card.dark if side else card.light).color
            if c is not None:
                held[c] += 1
        for i, card in enumerate(hand):
            f = card.dark if side else card.light
            c = f.color
            if c is None:
                if wild < 0:
                    wild = i
            elif c is color or f.rank is rank:
                key = (f.points, held[c])
                if key > best_key:
                    best, best_key = i, key
        if best < 0 and wild < 0:
            card = take(hand)  # nothing to play: draw one, and play it if it can go
            if card is None:
                current = (current + direction) % n
                continue
            f = card.dark if side else card.light
            if f.color is None or f.color is color or f.rank is rank:
                best = len(hand) - 1
            else:
                current = (current + direction) % n
                continue
        index = best if best >= 0 else wild
        card = hand.pop(index)
        face = card.dark if side else card.light
        discard.append(card)
        color = most_held(hand) if face.color is None else face.color
        r = face.rank
        if not hand:  # out: a last Draw still makes the next player draw; a Flip still turns
            victim = hands[(current + direction) % n]
            if r is _R.DRAW_ONE or r is _R.DRAW_FIVE or r is _R.WILD_DRAW_TWO:
                for _ in range(face.draw):
                    if take(victim) is None:
                        break
            elif r is _R.WILD_DRAW_COLOR:
                draw_until(victim, color)
            elif r is _R.FLIP:
                side = Side(1 - side)
                discard.reverse()
                pile.reverse()
                new_top = discard[-1].dark if side else discard[-1].light
                if not new_top.is_wild:
                    color = new_top.color  # type: ignore[assignment]
            winner = current
            break
        if r <= 9 or r is _R.WILD:
            current = (current + direction) % n
        elif r is _R.DRAW_ONE or r is _R.DRAW_FIVE:
            victim = hands[(current + direction) % n]
            for _ in range(face.draw):
                if take(victim) is None:
                    break
            current = (current + 2 * direction) % n
        elif r is _R.SKIP:
            current = (current + 2 * direction) % n
        elif r is _R.REVERSE:
            direction = -direction
            current = (current + (2 if n == 2 else 1) * direction) % n
        elif r is _R.SKIP_EVERYONE:
            pass
        elif r is _R.FLIP:
            side = Side(1 - side)
            discard.reverse()
            pile.reverse()
            new_top = discard[-1].dark if side else discard[-1].light
            color = most_held(hand) if new_top.is_wild else new_top.color  # type: ignore[assignment]
            current = (current + direction) % n
        else:  # a Wild Draw: the next player draws (``normal`` never challenges), skipped
            current = (current + direction) % n
            victim = hands[current]
            if r is _R.WILD_DRAW_COLOR:
                draw_until(victim, color)
            else:
                for _ in range(face.draw):
                    if take(victim) is None:
                        break
            current = (current + direction) % n
    game.side = side
    game.color = color
    game.direction = direction
    game.current = current
    game.drawn = None
    game.pending_by = -1
    if winner >= 0:
        points = sum(c.face(side).points for s, h in enumerate(hands) if s != winner for c in h)
        game.outcome = FlipOutcome(winner, points, side)
        game.phase = FlipPhase.OVER
    return winner


def candidates(game: FlipGame) -> list[FlipAction]:
    """The moves worth searching: every distinct card (and colour for a wild) to play, the
    colour to name, or playing the drawn card against keeping it. A draw while a card could be
    played is left out (as ``normal``, it plays when it can); a Wild Draw played on it is drawn."""
    legal = [a for a in game.legal_actions() if type(a) is not CallUno and type(a) is not Catch]
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
                if rollout(game) == seat:
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
                active = [i for i in active if i == lead or not beaten(results[lead], results[i])]
        best = max(active, key=lambda i: results[i].bit_count())
        if (
            prior in active
            and best != prior
            and not beaten(results[best], results[prior], MARGIN_Z)
        ):
            return prior
        return best


def flip_hard_action(
    game: FlipGame,
    rng: Random,
    *,
    budget_ms: float = 200.0,
    playouts: int | None = None,
    memory: FlipMemory | None = None,
) -> FlipAction:
    """``hard``'s move for the seat to move in ``game``, decided on that seat's
    :class:`FlipView` alone (with what its ``memory`` holds, when it has one)."""
    view = FlipView.of(game, game.current, memory)
    return FlipHard(rng, budget_ms=budget_ms, playouts=playouts).act(view)
