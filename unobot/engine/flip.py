"""UNO Flip (Mattel GDR44, 2018): its double-sided cards, their notation and the game's rules.

Flip is its own class, :class:`FlipGame`, beside the classic ``Game`` and the other variants
(which stay unchanged): its 112 physical cards each carry a light and a dark face, so the
classic engine's bitmask of distinct cards (one card = one face) can't hold a hand, and Flip
keeps lists of physical cards instead. It is pure Python (not in the mypyc build: nothing here
is on the classic game's hot path).

Faces are written as players see them: light ``R5 YD1 GR BS RF W WD2``, dark ``P5 TD5 OR USE
PF W WDC``. The dark colours are pink ``P``, teal ``T``, orange ``O`` and purple ``U``
(p\\ **u**\\ rple: ``P`` is pink), letters that don't clash with ``R Y G B``. The wilds read the
same on both sides (``W``); ``WD2`` is light only and ``WDC`` dark only.

The rules are the printed sheet's as /work/shared/RULES.md quotes it; where the sheet is
silent the choice is said here and in docs/rules.md ("UNO Flip"):

- the light and dark faces are paired by a fixed table (:data:`FLIP_DECK`): the faces in
  sheet order, the dark ones shuffled once with ``Random(FLIP_PAIRING_SEED)`` (a box's pairing
  is printed once and never changes; a fixed table keeps games reproducible by seed);
- a start card that is not a number goes back into the draw pile at a random place and the next
  card is turned (until a number comes);
- a Flip turns each pile over as a whole (its order reverses, the other faces show) and every
  hand; a wild then on top lets the Flip's player name the colour;
- the draw pile, when empty, is the discard pile but its top card, shuffled; when both are
  empty a draw stops short (a Wild Draw Color's draw too) and the turn goes on;
- UNO is called as at the classic ``official`` table ("A player with one card left must have
  called "UNO" when playing the next-to-last card"): with the card (``FlipPlay(uno=True)``) or
  just before it (:class:`~unobot.engine.actions.CallUno` on the turn, holding two), late while
  nobody has caught them; a miss may be caught (:class:`~unobot.engine.actions.Catch`, "draw
  2") until the next player begins a turn (plays, draws, passes or challenges); a call with
  more cards is refused, no penalty.
"""

# translations: domain("commands")  (the message ids of its refusals, marked N_)

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import IntEnum
from random import Random
from typing import ClassVar, Final

from unobot.engine import errors
from unobot.engine.actions import CallUno, Catch, Challenge, Draw, Pass
from unobot.engine.errors import N_, CardParseError, UnoError

__all__ = [
    "FLIP_DECK",
    "FLIP_PAIRING_SEED",
    "Face",
    "FlipCard",
    "FlipChoose",
    "FlipColor",
    "FlipGame",
    "FlipPhase",
    "FlipPlay",
    "FlipRank",
    "Side",
    "parse_flip_play",
]

FLIP_TARGET: Final = 500
"""The sheet: first to 500 points wins the game."""

UNO_PENALTY: Final = 2
"""The sheet: "UNO not called, caught before the next player begins a turn: draw 2"."""


class Side(IntEnum):
    """Which side of every card faces up on the table (the side in play)."""

    LIGHT = 0
    DARK = 1

    def __str__(self) -> str:
        return self.name.lower()


class FlipColor(IntEnum):
    """The light side's colours (0-3, as the classic ones) and the dark side's (4-7)."""

    RED = 0
    YELLOW = 1
    GREEN = 2
    BLUE = 3
    PINK = 4
    TEAL = 5
    ORANGE = 6
    PURPLE = 7

    @property
    def letter(self) -> str:
        return "RYGBPTOU"[self]

    @property
    def side(self) -> Side:
        return Side.DARK if self >= 4 else Side.LIGHT

    def __str__(self) -> str:
        return self.name.lower()


class FlipRank(IntEnum):
    """Faces of both sides. Numbers are their own value (Flip has no 0)."""

    ONE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    DRAW_ONE = 10
    REVERSE = 11
    SKIP = 12
    FLIP = 13
    DRAW_FIVE = 14
    SKIP_EVERYONE = 15
    WILD = 16
    WILD_DRAW_TWO = 17
    WILD_DRAW_COLOR = 18


_R = FlipRank
_TEXT: Final = {
    _R.DRAW_ONE: "D1",
    _R.REVERSE: "R",
    _R.SKIP: "S",
    _R.FLIP: "F",
    _R.DRAW_FIVE: "D5",
    _R.SKIP_EVERYONE: "SE",
    _R.WILD: "W",
    _R.WILD_DRAW_TWO: "WD2",
    _R.WILD_DRAW_COLOR: "WDC",
}
# The sheet's values: numbers face value, Draw One 10, Draw Five 20, Reverse/Skip/Flip 20,
# Skip Everyone 30, Wild 40, Wild Draw Two 50, Wild Draw Color 60.
_POINTS: Final = {
    _R.DRAW_ONE: 10,
    _R.DRAW_FIVE: 20,
    _R.REVERSE: 20,
    _R.SKIP: 20,
    _R.FLIP: 20,
    _R.SKIP_EVERYONE: 30,
    _R.WILD: 40,
    _R.WILD_DRAW_TWO: 50,
    _R.WILD_DRAW_COLOR: 60,
}
_LIGHT_ACTIONS: Final = (_R.DRAW_ONE, _R.REVERSE, _R.SKIP, _R.FLIP)
_DARK_ACTIONS: Final = (_R.DRAW_FIVE, _R.REVERSE, _R.SKIP_EVERYONE, _R.FLIP)


class Face:
    """One side's face of a card (interned: compare by identity). ``color`` is None for wilds."""

    __slots__ = ("code", "color", "draw", "is_wild", "points", "rank", "side", "text")

    _interned: ClassVar[dict[tuple[Side, FlipColor | None, FlipRank], Face]] = {}

    def __init__(self, side: Side, color: FlipColor | None, rank: FlipRank) -> None:
        self.side = side
        self.color = color
        self.rank = rank
        self.is_wild = color is None
        self.points = _POINTS.get(rank, int(rank))
        self.draw = {_R.DRAW_ONE: 1, _R.DRAW_FIVE: 5, _R.WILD_DRAW_TWO: 2}.get(rank, 0)
        text = _TEXT.get(rank, str(int(rank)))
        self.text = text if color is None else color.letter + text
        # The order hands are shown in (as the classic ``Card.code``): by colour, then
        # rank, wilds last.
        self.code = (8 if color is None else int(color)) * 32 + int(rank)

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Face({self.text})"

    def __reduce__(self) -> tuple[object, tuple[Side, FlipColor | None, FlipRank]]:
        return (Face.of, (self.side, self.color, self.rank))

    @classmethod
    def of(cls, side: Side, color: FlipColor | None, rank: FlipRank) -> Face:
        return cls._interned[(side, color, rank)]

    @classmethod
    def parse(cls, text: str, side: Side | None = None) -> Face:
        """Strict notation (``R5 BD1 GF W WD2`` light, ``P5 TD5 OSE UF W WDC`` dark, any
        case). ``W`` is on both sides: ``side`` says which (light when not given)."""
        face = _FACES.get((text.strip().upper(), side if side is not None else Side.LIGHT))
        if face is None and side is None:
            face = _FACES.get((text.strip().upper(), Side.DARK))
        if face is None:
            raise CardParseError(N_("'{text}' is not a card"), text=_shown(text))
        return face


def _build_faces() -> dict[tuple[str, Side], Face]:
    faces: dict[tuple[str, Side], Face] = {}
    for side, colors, actions, wilds in (
        (Side.LIGHT, list(FlipColor)[:4], _LIGHT_ACTIONS, (_R.WILD, _R.WILD_DRAW_TWO)),
        (Side.DARK, list(FlipColor)[4:], _DARK_ACTIONS, (_R.WILD, _R.WILD_DRAW_COLOR)),
    ):
        made: list[Face] = []
        for color in colors:
            for rank in [*list(FlipRank)[:9], *actions]:
                made.append(Face(side, color, rank))
        made += [Face(side, None, rank) for rank in wilds]
        for face in made:
            Face._interned[(side, face.color, face.rank)] = face
            faces[(face.text, side)] = face
    return faces


_FACES: Final = _build_faces()


def side_faces(side: Side) -> list[Face]:
    """One side's 112 faces in sheet order: per colour 1-9 twice, then its four actions twice
    (Draw One/Five, Reverse, Skip/Skip Everyone, Flip), then 4 Wild and 4 Wild Draw Two/Color."""
    out: list[Face] = []
    colors = list(FlipColor)[:4] if side is Side.LIGHT else list(FlipColor)[4:]
    actions = _LIGHT_ACTIONS if side is Side.LIGHT else _DARK_ACTIONS
    for color in colors:
        for rank in [*list(FlipRank)[:9], *actions]:
            out += [Face.of(side, color, rank)] * 2
    wilds = (_R.WILD, _R.WILD_DRAW_TWO if side is Side.LIGHT else _R.WILD_DRAW_COLOR)
    for rank in wilds:
        out += [Face.of(side, None, rank)] * 4
    return out


class FlipCard:
    """One physical card: ``light`` and ``dark`` faces and ``id`` (0-111, its place in
    :data:`FLIP_DECK`). Two cards may show the same face on one side and differ on the other, so
    the engine always moves physical cards. Interned: compare by identity."""

    __slots__ = ("dark", "id", "light")

    def __init__(self, card_id: int, light: Face, dark: Face) -> None:
        self.id = card_id
        self.light = light
        self.dark = dark

    def face(self, side: Side) -> Face:
        return self.dark if side else self.light

    def __str__(self) -> str:
        return f"{self.light}/{self.dark}"

    def __repr__(self) -> str:
        return f"FlipCard({self.id}: {self.light}/{self.dark})"

    def __reduce__(self) -> tuple[object, tuple[int]]:
        return (_card_by_id, (self.id,))

    def __copy__(self) -> FlipCard:
        return self

    def __deepcopy__(self, memo: object) -> FlipCard:
        return self


FLIP_PAIRING_SEED: Final = 2018
"""The seed that shuffled the dark faces once against the light ones (the sheet gives no
pairing; the table it makes is fixed for ever: a test pins it)."""


def _build_deck() -> tuple[FlipCard, ...]:
    light = side_faces(Side.LIGHT)
    dark = side_faces(Side.DARK)
    Random(FLIP_PAIRING_SEED).shuffle(dark)  # once, at import: the same table every run
    return tuple(FlipCard(i, lf, df) for i, (lf, df) in enumerate(zip(light, dark, strict=True)))


FLIP_DECK: Final = _build_deck()
"""The 112 physical cards, indexed by ``id``."""


def _card_by_id(card_id: int) -> FlipCard:
    return FLIP_DECK[card_id]


_MAX_SHOWN = 20


def _shown(text: str) -> str:
    clean = "".join(ch if ch.isprintable() else "?" for ch in text.strip())
    return clean if len(clean) <= _MAX_SHOWN else clean[: _MAX_SHOWN - 1] + "…"


_COLOR_WORDS: Final = {
    Side.LIGHT: {"r": 0, "red": 0, "y": 1, "yellow": 1, "g": 2, "green": 2, "b": 3, "blue": 3},
    Side.DARK: {"p": 4, "pink": 4, "t": 5, "teal": 5, "o": 6, "orange": 6, "u": 7, "purple": 7},
}
_RANK_WORDS: Final = {
    **{str(i): FlipRank(i) for i in range(1, 10)},
    "d1": _R.DRAW_ONE, "+1": _R.DRAW_ONE, "d5": _R.DRAW_FIVE, "+5": _R.DRAW_FIVE,
    "r": _R.REVERSE, "rev": _R.REVERSE, "reverse": _R.REVERSE,
    "s": _R.SKIP, "skip": _R.SKIP, "se": _R.SKIP_EVERYONE, "skipeveryone": _R.SKIP_EVERYONE,
    "f": _R.FLIP, "flip": _R.FLIP,
}  # fmt: skip
_WILD_WORDS: Final = {
    "w": _R.WILD, "wild": _R.WILD,
    "wd2": _R.WILD_DRAW_TWO, "w+2": _R.WILD_DRAW_TWO, "w2": _R.WILD_DRAW_TWO,
    "wdc": _R.WILD_DRAW_COLOR, "wildcolor": _R.WILD_DRAW_COLOR, "wc": _R.WILD_DRAW_COLOR,
}  # fmt: skip
_WILD_RE: Final = re.compile(
    "^(" + "|".join(sorted(map(re.escape, _WILD_WORDS), key=len, reverse=True)) + r")(.*)$"
)


def parse_flip_color(text: str, side: Side) -> FlipColor:
    """A colour of ``side`` by letter or name (``p``, ``Teal``)."""
    value = _COLOR_WORDS[side].get(text.strip().lower())
    if value is None:
        if side is Side.DARK:
            raise CardParseError(
                N_("'{text}' is not a colour: use p, t, o or u"), text=_shown(text)
            )
        raise CardParseError(N_("'{text}' is not a colour: use r, y, g or b"), text=_shown(text))
    return FlipColor(value)


def parse_flip_play(text: str, side: Side) -> tuple[Face, FlipColor | None]:
    """Read a face as typed after ``.play`` on ``side``: ``p 5``, ``t d5``, ``o se``, ``u f``,
    ``w t``, ``wdc o`` (dark) or ``r 5``, ``b d1``, ``wd2 g`` (light); return it with the colour
    named for a wild (or None). A face of the other side is refused: it is not in play."""
    raw = "".join(text.lower().split())
    if not raw:
        raise CardParseError(N_("which card? e.g. .play r 5, .play w g"))
    m = _WILD_RE.match(raw)
    if m:
        rank = _WILD_WORDS[m.group(1)]
        key = (side, None, rank)
        if key not in Face._interned:
            raise CardParseError(N_("'{text}' is not a card"), text=_shown(text))
        rest = m.group(2)
        return Face._interned[key], (parse_flip_color(rest, side) if rest else None)
    words = _COLOR_WORDS[side]
    for length in (6, 5, 4, 3, 1):
        head = raw[:length]
        if head in words and raw[length:] in _RANK_WORDS:
            key2 = (side, FlipColor(words[head]), _RANK_WORDS[raw[length:]])
            face = Face._interned.get(key2)
            if face is not None:
                return face, None
    raise CardParseError(N_("'{text}' is not a card"), text=_shown(text))


# --- actions and events ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class FlipPlay:
    """Play a card showing ``face`` (the first such card in the hand); ``color`` names the
    colour for a wild. Which of two cards with the same face goes is the engine's: the player
    sees only the face in play."""

    face: Face
    color: FlipColor | None = None
    uno: bool = False
    """Call UNO with the play (of the next-to-last card; refused with more left)."""


@dataclass(frozen=True, slots=True)
class FlipChoose:
    """Name the colour when a Flip turned a wild to the top."""

    color: FlipColor


FlipAction = FlipPlay | FlipChoose | Draw | Pass | Challenge | CallUno | Catch

_TURN_BEGINS: Final = frozenset({FlipPlay, Draw, Pass, Challenge})
"""The moves that begin (or go on with) a turn: each closes the window to catch a missed UNO."""


@dataclass(frozen=True, slots=True)
class FlipEvent:
    """What happened, for the table layer: ``kind`` (played, drew, skipped, reversed,
    flipped, color, challenge, everyone_skipped, passed, reshuffled, won, uno: ``seat``
    called UNO, caught: ``seat`` caught ``value`` without UNO, whose draw follows), the
    ``seat`` it concerns and its details."""

    kind: str
    seat: int = -1
    cards: tuple[FlipCard, ...] = ()
    color: FlipColor | None = None
    value: int = 0


class FlipPhase(IntEnum):
    PLAY = 0
    DRAWN = 1
    """The player drew and may play only that card, or pass."""
    CHOOSE = 2
    """A Flip turned a wild to the top: the Flip's player names the colour."""
    PENDING = 3
    """A Wild Draw Two / Wild Draw Color was played on the player to move: draw or challenge."""
    OVER = 4


@dataclass(frozen=True, slots=True)
class FlipOutcome:
    winner: int
    points: int
    side: Side


# --- the game -----------------------------------------------------------------------------------


class FlipGame:
    """One hand of UNO Flip and the only way to change it (``apply``).

    Public for reading: ``side``, ``hands`` (physical cards), ``draw_pile`` (next drawn last),
    ``discard`` (top last), ``color`` (in force), ``current``, ``direction``, ``phase``,
    ``drawn``, ``outcome``. ``pending_by``/``pending_guilty``: the Wild Draw waiting for an
    answer. ``exposed``: the seat down to one card without a call that may still be caught
    (-1: none); ``armed``: the seat that called UNO just before playing its next-to-last
    card (-1: none)."""

    __slots__ = (
        "armed",
        "color",
        "current",
        "direction",
        "discard",
        "draw_pile",
        "drawn",
        "exposed",
        "hands",
        "n",
        "outcome",
        "pending_by",
        "pending_guilty",
        "phase",
        "rng",
        "side",
    )

    def __init__(self, players: int, rng: Random) -> None:
        if not 2 <= players <= 10:
            raise ValueError("Uno is played by 2 to 10 players")
        self.n = players
        self.rng = rng
        self.side = Side.LIGHT
        self.hands: list[list[FlipCard]] = [[] for _ in range(players)]
        self.draw_pile: list[FlipCard] = []
        self.discard: list[FlipCard] = []
        self.color = FlipColor.RED
        self.current = 0
        self.direction = 1
        self.phase = FlipPhase.PLAY
        self.drawn: FlipCard | None = None
        self.outcome: FlipOutcome | None = None
        self.pending_by = -1
        self.pending_guilty = False
        self.exposed = -1
        self.armed = -1

    # --- setting up -------------------------------------------------------------------------

    @classmethod
    def deal(
        cls, players: int, rng: Random, dealer: int = 0, hand_size: int = 7
    ) -> tuple[FlipGame, list[FlipEvent]]:
        """Shuffle the 112 cards light side up, deal ``hand_size`` each from the left of the
        dealer, who starts; turn the start card (until a number: the sheet is silent)."""
        game = cls(players, rng)
        deck = list(FLIP_DECK)
        rng.shuffle(deck)
        for seat in range(players):
            game.hands[seat] = deck[-hand_size:]
            del deck[-hand_size:]
        game.draw_pile = deck
        events: list[FlipEvent] = []
        while True:
            card = game.draw_pile.pop()
            if card.light.rank <= 9:
                break
            game.draw_pile.insert(rng.randrange(len(game.draw_pile) + 1), card)
        game.discard = [card]
        game.color = card.light.color  # type: ignore[assignment]
        game.current = (dealer + 1) % players
        events.append(FlipEvent("start", -1, (card,), game.color))
        return game, events

    def copy(self) -> FlipGame:
        new = FlipGame(self.n, self.rng)
        for name in FlipGame.__slots__:
            setattr(new, name, getattr(self, name))
        new.hands = [list(h) for h in self.hands]
        new.draw_pile = list(self.draw_pile)
        new.discard = list(self.discard)
        return new

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, FlipGame):
            return NotImplemented
        return self._state() == other._state()

    def _state(self) -> tuple[object, ...]:
        """Everything but the rng, cards by their two faces (two cards alike on both sides are
        the same card to every player and rule)."""

        def faces(cards: list[FlipCard]) -> list[tuple[Face, Face]]:
            return [(c.light, c.dark) for c in cards]

        drawn = self.drawn
        return (
            self.n,
            self.side,
            [faces(h) for h in self.hands],
            faces(self.draw_pile),
            faces(self.discard),
            self.color,
            self.current,
            self.direction,
            self.phase,
            None if drawn is None else (drawn.light, drawn.dark),
            self.outcome,
            self.pending_by,
            self.pending_guilty,
            self.exposed,
            self.armed,
        )

    __hash__ = None  # type: ignore[assignment]

    # --- reading ------------------------------------------------------------------------------

    @property
    def over(self) -> bool:
        return self.phase is FlipPhase.OVER

    @property
    def top(self) -> Face:
        """The face on top of the discard pile, on the side in play."""
        return self.discard[-1].face(self.side)

    def hand(self, seat: int) -> list[Face]:
        """``seat``'s hand as its owner sees it: the faces of the side in play."""
        side = self.side
        return [c.face(side) for c in self.hands[seat]]

    def hand_size(self, seat: int) -> int:
        return len(self.hands[seat])

    def eliminated(self, seat: int) -> bool:
        """Flip has no mercy rule: nobody is ever out of a hand (the table asks every game)."""
        return False

    def public_hand(self, seat: int) -> list[Face]:
        """The side of ``seat``'s hand that faces the others (the side not in play): public
        information in the box, so ``.cards <nick>`` may show it."""
        other = Side(1 - self.side)
        return [c.face(other) for c in self.hands[seat]]

    def next_seat(self, steps: int = 1) -> int:
        return (self.current + self.direction * steps) % self.n

    def matches(self, face: Face) -> bool:
        """Whether ``face`` may go on the top card (colour in force, or same face value)."""
        if face.is_wild:
            return True
        top = self.top
        return face.color is self.color or (not top.is_wild and face.rank is top.rank)

    def _holds_color(self, seat: int, color: FlipColor) -> bool:
        side = self.side
        return any(c.face(side).color is color for c in self.hands[seat])

    def legal_actions(self, seat: int | None = None) -> tuple[FlipAction, ...]:
        """Every action ``seat`` (default: the player to move) may take now: the turn's moves
        first, then the UNO call or catch open to any seat (out of turn too). A play is listed
        without the call; ``uno=True`` on a play down to one card is accepted the same."""
        if seat is None:
            seat = self.current
        if self.phase is FlipPhase.OVER or not 0 <= seat < self.n:
            return ()
        uno = self._uno_actions(seat)
        if seat != self.current:
            return uno
        phase = self.phase
        if phase is FlipPhase.CHOOSE:
            base = 0 if self.side is Side.LIGHT else 4
            return (*(FlipChoose(FlipColor(base + i)) for i in range(4)), *uno)
        if phase is FlipPhase.PENDING:
            return (Draw(), Challenge(), *uno)
        if phase is FlipPhase.DRAWN:
            cards = [self.drawn] if self.drawn is not None else []
        else:
            cards = self.hands[seat]
        out: list[FlipAction] = []
        for face in dict.fromkeys(c.face(self.side) for c in cards):
            if self.matches(face):
                out += self._plays(face)
        out.append(Pass() if phase is FlipPhase.DRAWN else Draw())
        if len(self.hands[seat]) == 2 and self.armed != seat:
            out.append(CallUno())  # said just before laying the next-to-last card
        out += uno
        return tuple(out)

    def _uno_actions(self, seat: int) -> tuple[FlipAction, ...]:
        """The catch of a missed call (any other seat), or the late call (its own)."""
        exposed = self.exposed
        if exposed < 0:
            return ()
        return (Catch(exposed),) if exposed != seat else (CallUno(),)

    def _letters(self) -> str:
        """The letters of the colours on the side in play."""
        return "rygb" if self.side is Side.LIGHT else "ptou"

    def _wrong_side(self) -> UnoError:
        letters = self._letters()
        return UnoError(
            N_("that colour is not on the side in play: use {a}, {b}, {c} or {d}"),
            a=letters[0],
            b=letters[1],
            c=letters[2],
            d=letters[3],
        )

    def _top_text(self) -> str:
        top = self.top
        return f"{top} ({self.color.letter})" if top.is_wild else str(top)

    def _plays(self, face: Face) -> list[FlipAction]:
        if not face.is_wild:
            return [FlipPlay(face)]
        base = 0 if self.side is Side.LIGHT else 4
        return [FlipPlay(face, FlipColor(base + i)) for i in range(4)]

    # --- changing -----------------------------------------------------------------------------

    def apply(self, seat: int, action: FlipAction) -> list[FlipEvent]:
        """Carry out ``action`` for ``seat``; raise an :class:`UnoError` (state unchanged) if
        it isn't allowed."""
        if self.phase is FlipPhase.OVER:
            raise errors.HandOver()
        if not 0 <= seat < self.n:
            raise errors.NotAPlayer()
        kind = type(action)
        if kind is Catch:
            return self._catch(seat, action.target)  # type: ignore[union-attr]
        if kind is CallUno:
            return self._call_uno(seat)
        if seat != self.current:
            raise errors.NotYourTurn()
        events: list[FlipEvent] = []
        phase = self.phase
        if kind in _TURN_BEGINS:
            # "caught before the next player begins a turn": any play, draw, pass or
            # challenge closes the window (refused ones change nothing: restored below)
            was = self.exposed
            self.exposed = -1
            try:
                return self._turn(seat, action, phase, kind, events)
            except UnoError:
                self.exposed = was
                raise
        return self._turn(seat, action, phase, kind, events)

    def _turn(
        self, seat: int, action: FlipAction, phase: FlipPhase, kind: type, events: list[FlipEvent]
    ) -> list[FlipEvent]:
        """``apply`` for the player to move's own moves."""
        if phase is FlipPhase.CHOOSE:
            if kind is not FlipChoose:
                raise UnoError(
                    N_("the Flip turned up a wild: name the colour first (e.g. .color {letter})"),
                    letter=self._letters()[0],
                )
            self._choose(seat, action, events)  # type: ignore[arg-type]
        elif phase is FlipPhase.PENDING:
            if kind is Draw:
                self._take_wild_draw(seat, seat, 0, events)
                events.append(FlipEvent("skipped", seat))
                self._advance(1)
            elif kind is Challenge:
                self._challenge(seat, events)
            else:
                raise UnoError(
                    N_("{card} was played on you: draw the cards or challenge first"),
                    card=str(self.top),
                )
        elif kind is FlipPlay:
            self._play(seat, action, events)  # type: ignore[arg-type]
        elif kind is Draw:
            if phase is FlipPhase.DRAWN:
                raise errors.AlreadyDrew()
            self._draw_turn(seat, events)
        elif kind is Pass:
            if phase is not FlipPhase.DRAWN:
                raise errors.CannotPass()
            events.append(FlipEvent("passed", seat))
            self._advance(1)
        else:
            raise UnoError(N_("that is not a move in UNO Flip"))
        return events

    def _catch(self, seat: int, target: int) -> list[FlipEvent]:
        """ "UNO not called, caught before the next player begins a turn: draw 2"."""
        if target < 0 or target != self.exposed or target == seat or len(self.hands[target]) != 1:
            raise errors.CannotCatch()
        self.exposed = -1
        events = [FlipEvent("caught", seat, value=target)]
        self._draw(target, UNO_PENALTY, events, "penalty")
        return events

    def _call_uno(self, seat: int) -> list[FlipEvent]:
        """UNO said on its own: late (down to one card, not caught yet), or just before the
        next-to-last card on the turn; with more cards refused (``official``: no penalty)."""
        left = len(self.hands[seat])
        if left == 1:
            if self.exposed != seat:
                raise errors.UnoNotNeeded(N_("nobody can catch you any more: no UNO to call"))
            self.exposed = -1
            return [FlipEvent("uno", seat)]
        if (
            left == 2
            and seat == self.current
            and (self.phase is FlipPhase.PLAY or self.phase is FlipPhase.DRAWN)
        ):
            if self.armed == seat:
                raise errors.UnoNotNeeded(N_("your UNO is already called"))
            self.armed = seat
            return [FlipEvent("uno", seat)]
        raise errors.UnoNotNeeded()

    def _choose(self, seat: int, action: FlipChoose, events: list[FlipEvent]) -> None:
        if action.color.side is not self.side:
            raise self._wrong_side()
        self.color = action.color
        events.append(FlipEvent("color", seat, (), action.color))
        self._advance(1)

    def _play(self, seat: int, action: FlipPlay, events: list[FlipEvent]) -> None:
        face = action.face
        side = self.side
        hand = self.hands[seat]
        if self.phase is FlipPhase.DRAWN:
            drawn = self.drawn
            if drawn is None or drawn.face(side) is not face:
                raise errors.OnlyDrawnCard(drawn.face(side) if drawn is not None else "")
            card = drawn
        else:
            found = [c for c in hand if c.face(side) is face]
            if not found:
                raise UnoError(N_("you have no {card}"), card=str(face))
            card = found[0]
        if not self.matches(face):
            raise UnoError(N_("{card} does not match {top}"), card=str(face), top=self._top_text())
        if face.is_wild:
            if action.color is None:
                raise UnoError(
                    N_("name a colour for {card}: e.g. .play {code} {letter}"),
                    card=str(face),
                    code=face.text.lower(),
                    letter=self._letters()[0],
                )
            if action.color.side is not side:
                raise self._wrong_side()
        elif action.color is not None:
            raise UnoError(N_("{card} is not a wild: no colour to name"), card=str(face))
        if action.uno and len(hand) > 2:
            raise errors.UnoNotNeeded()  # a call with more cards: refused, as ``official``
        # Wild Draw Two / Color: "only with no card of the colour in play" (challengeable).
        guilty = face.rank >= _R.WILD_DRAW_TWO and self._holds_color(seat, self.color)
        hand.remove(card)
        self.discard.append(card)
        self.drawn = None
        self.color = action.color if face.is_wild else face.color  # type: ignore[assignment]
        events.append(FlipEvent("played", seat, (card,), self.color, len(hand)))
        if len(hand) == 1:
            if action.uno and self.armed != seat:
                events.append(FlipEvent("uno", seat))
            elif not action.uno and self.armed != seat:
                self.exposed = seat  # catchable until the next player begins a turn
        self.armed = -1
        rank = face.rank
        if not hand:
            self._last_card(seat, face, events)
            return
        if rank <= 9 or rank is _R.WILD:
            self._advance(1)
        elif rank is _R.DRAW_ONE or rank is _R.DRAW_FIVE:
            victim = self.next_seat(1)
            self._draw(victim, face.draw, events, "penalty")
            events.append(FlipEvent("skipped", victim))
            self._advance(2)
        elif rank is _R.SKIP:
            events.append(FlipEvent("skipped", self.next_seat(1)))
            self._advance(2)
        elif rank is _R.REVERSE:
            self.direction = -self.direction
            events.append(FlipEvent("reversed", seat, value=self.direction))
            if self.n == 2:
                events.append(FlipEvent("skipped", self.next_seat(1)))
                self._advance(2)
            else:
                self._advance(1)
        elif rank is _R.SKIP_EVERYONE:
            events.append(FlipEvent("everyone_skipped", seat))
            self.phase = FlipPhase.PLAY  # play returns to whoever laid it
        elif rank is _R.FLIP:
            self._flip(events)
            if self.top.is_wild:
                self.phase = FlipPhase.CHOOSE  # the Flip's player names the colour
            else:
                self.color = self.top.color  # type: ignore[assignment]
                self._advance(1)
        else:  # Wild Draw Two / Wild Draw Color: the next player draws or challenges
            self.pending_by = seat
            self.pending_guilty = guilty
            self._advance(1)
            self.phase = FlipPhase.PENDING

    def _last_card(self, seat: int, face: Face, events: list[FlipEvent]) -> None:
        """Going out ends the hand. "A final Draw card still makes the next player draw; those
        cards count." A final Flip still turns everything over (the sheet is silent: the card's
        effect happens, and the hand is scored by the side it ended on)."""
        rank = face.rank
        victim = (seat + self.direction) % self.n
        if rank is _R.DRAW_ONE or rank is _R.DRAW_FIVE or rank is _R.WILD_DRAW_TWO:
            self._draw(victim, face.draw, events, "penalty")
        elif rank is _R.WILD_DRAW_COLOR:
            self._draw_until(victim, self.color, 0, events)
        elif rank is _R.FLIP:
            self._flip(events)
            if not self.top.is_wild:
                self.color = self.top.color  # type: ignore[assignment]
        self._finish(seat, events)

    def _finish(self, seat: int, events: list[FlipEvent]) -> None:
        side = self.side
        points = sum(c.face(side).points for s, h in enumerate(self.hands) if s != seat for c in h)
        self.outcome = FlipOutcome(seat, points, side)
        self.phase = FlipPhase.OVER
        self.pending_by = -1
        events.append(FlipEvent("won", seat, (), None, points))

    def _flip(self, events: list[FlipEvent]) -> None:
        """ "A Flip turns the discard pile, the draw pile and every hand over": each pile is
        turned as a whole (its order reverses), and the other side is in play everywhere."""
        self.side = Side(1 - self.side)
        self.discard.reverse()
        self.draw_pile.reverse()
        events.append(FlipEvent("flipped", -1, (self.discard[-1],), None, int(self.side)))

    def _draw_turn(self, seat: int, events: list[FlipEvent]) -> None:
        """Draw one, playable card or not ("You may draw instead of playing a playable card
        (then only the drawn card)"); a playable drawn card may be played, else the turn ends."""
        got = self._draw(seat, 1, events, "draw")
        if got and self.matches(got[0].face(self.side)):
            self.phase = FlipPhase.DRAWN
            self.drawn = got[0]
            return
        self._advance(1)

    def _challenge(self, seat: int, events: list[FlipEvent]) -> None:
        """Guilty (the Wild Draw's player held a card of the colour then in play): they draw
        the cards instead, and the challenger plays on. Innocent: the challenger draws the
        cards plus 2 and loses the turn."""
        offender = self.pending_by
        guilty = self.pending_guilty
        # ``cards``: the Wild Draw challenged, for the channel's line.
        events.append(
            FlipEvent("challenge", seat, (self.discard[-1],), None, offender if guilty else -1)
        )
        if guilty:
            self._take_wild_draw(offender, seat, 0, events)
            self.phase = FlipPhase.PLAY
            self.pending_by = -1
            return
        self._take_wild_draw(seat, seat, 2, events)
        events.append(FlipEvent("skipped", seat))
        self._advance(1)

    def _take_wild_draw(self, who: int, victim: int, extra: int, events: list[FlipEvent]) -> None:
        """``who`` draws the pending Wild Draw's cards (plus ``extra``)."""
        face = self.top
        if face.rank is _R.WILD_DRAW_COLOR:
            self._draw_until(who, self.color, extra, events)
        else:
            self._draw(who, face.draw + extra, events, "penalty")
        self.pending_by = -1

    def _draw_until(self, seat: int, color: FlipColor, extra: int, events: list[FlipEvent]) -> None:
        """Wild Draw Color: "draw until they get a color of your choosing" (that card kept
        too), then ``extra`` more; stops short when no card is left anywhere."""
        got: list[FlipCard] = []
        while True:
            one = self._take(seat)
            if one is None:
                break
            got.append(one)
            if one.face(self.side).color is color:
                break
        for _ in range(extra):
            one = self._take(seat)
            if one is None:
                break
            got.append(one)
        events.append(FlipEvent("drew", seat, tuple(got), None, len(got)))

    def _draw(self, seat: int, count: int, events: list[FlipEvent], why: str) -> list[FlipCard]:
        got: list[FlipCard] = []
        for _ in range(count):
            one = self._take(seat)
            if one is None:
                break
            got.append(one)
        events.append(FlipEvent("drew", seat, tuple(got), None, len(got)))
        return got

    def _take(self, seat: int) -> FlipCard | None:
        """One card from the draw pile into ``seat``'s hand; an empty pile is first refilled
        with the discard pile but its top card, shuffled (None when nothing is left)."""
        pile = self.draw_pile
        if not pile:
            if len(self.discard) < 2:
                return None
            pile[:] = self.discard[:-1]
            del self.discard[:-1]
            self.rng.shuffle(pile)
        card = pile.pop()
        self.hands[seat].append(card)
        if seat == self.exposed:
            self.exposed = -1  # no longer down to one card: nothing to catch
        return card

    def remove_seat(self, seat: int) -> list[FlipEvent]:
        """``seat`` leaves the hand for good (three or more players): their cards go under the
        draw pile and the seats after theirs are renumbered one lower. A Wild Draw waiting on
        them is dropped (its player can't be answered); if it was their turn, or they were to
        name a colour, the turn goes to the next player."""
        if self.n <= 2:
            raise ValueError("a hand of two can't lose a player: the other wins it")
        cards = self.hands.pop(seat)
        self.draw_pile[:0] = cards  # under the pile: drawn last
        events = [FlipEvent("removed", seat, (), None, len(cards))]
        was_turn = seat == self.current
        self.n -= 1
        if self.pending_by == seat:
            self.pending_by = -1
            self.pending_guilty = False
        elif self.pending_by > seat:
            self.pending_by -= 1
        # A missed call or a call just made by the leaver goes with them.
        exposed = self.exposed
        self.exposed = -1 if exposed == seat else exposed - (exposed > seat)
        armed = self.armed
        self.armed = -1 if armed == seat else armed - (armed > seat)
        if was_turn:
            step = seat if self.direction > 0 else seat - 1
            self.current = step % self.n
            self.phase = FlipPhase.PLAY
            self.drawn = None
            self.pending_by = -1
        elif self.current > seat:
            self.current -= 1
        if self.phase is FlipPhase.PENDING and self.pending_by < 0:
            self.phase = FlipPhase.PLAY
        return events

    def force_pass(self, seat: int) -> list[FlipEvent]:
        """The turn timer ran out on ``seat``: one card drawn and the turn moves on, whatever
        they might have done (a Wild Draw waiting on them is drawn; a colour to name is the
        first of the side)."""
        phase = self.phase
        if phase is FlipPhase.CHOOSE:
            return self.apply(seat, FlipChoose(FlipColor(0 if self.side is Side.LIGHT else 4)))
        if phase is FlipPhase.PENDING:
            return self.apply(seat, Draw())
        if phase is FlipPhase.DRAWN:
            return self.apply(seat, Pass())
        events = self.apply(seat, Draw())
        if self.phase is FlipPhase.DRAWN:
            events += self.apply(seat, Pass())
        return events

    def _advance(self, steps: int) -> None:
        self.current = self.next_seat(steps)
        self.phase = FlipPhase.PLAY
        self.drawn = None
        self.armed = -1


def match_winner(totals: list[int], target: int = FLIP_TARGET) -> int:
    """The seat that won the game (first to ``target`` points: the sheet's 500), or -1."""
    best = max(range(len(totals)), key=totals.__getitem__)
    return best if totals[best] >= target else -1
