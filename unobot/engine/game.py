"""One hand of Uno: state, legal actions, ``apply(seat, action) -> events``, outcome.

Pure: no I/O, no clock, and the only randomness is the ``random.Random`` passed in, so the same
seed and the same actions give the same hand, card for card.

Every action is checked in :meth:`Game.apply`, independently of :meth:`Game.legal_actions` (tests
cross-check the two); a refused action raises a :class:`~unobot.engine.errors.UnoError` and
leaves the state exactly as it was. The hot path (legal actions, play, draw) works on interned
cards and cached action values and is written for speed: computer players simulate thousands of
hands per move. ``Game`` plays the classic rules, and its hot path reads no variant's state:
Seven-O, Jump-In, No Mercy and teams are subclasses in :mod:`unobot.engine.variants`.
"""

# translations: domain("commands")  (the message ids of its refusals, marked N_)

from __future__ import annotations

from collections.abc import Callable
from enum import IntEnum
from random import Random
from typing import Any, Final

from unobot.engine import errors
from unobot.engine.actions import (
    Action,
    CallUno,
    Catch,
    Challenge,
    ChooseColor,
    Draw,
    Pass,
    Play,
    Swap,
)
from unobot.engine.cards import (
    CARDS,
    CLASSIC_CODES,
    Card,
    Color,
    Rank,
    full_deck,
    no_mercy_deck,
    shuffle,
)
from unobot.engine.events import (
    CardPlayed,
    CardsDrawn,
    ChallengeResolved,
    ColorChosen,
    DrawPending,
    DrawReason,
    Event,
    FirstPlayerDraw,
    HandEnded,
    HandOutcome,
    HandStarted,
    Reshuffled,
    Reversed,
    SeatRemoved,
    Skipped,
    StartCardReplaced,
    StartCardTurned,
    TurnPassed,
    UnoCalled,
    UnoCaught,
)
from unobot.engine.rules import (
    AfterDraw,
    CatchWindow,
    Deck,
    FirstPlayer,
    HouseRules,
    NoPlayableCard,
    Scoring,
    Stacking,
    StartCard,
    UnoCall,
)

__all__ = ["Game", "Phase"]


class Phase(IntEnum):
    """Where the player to move stands in their turn."""

    PLAY = 0
    """Play a card or draw."""
    DRAWN = 1
    """Has drawn (``Game.drawn``); may play as ``AfterDraw`` allows, or pass."""
    PENDING = 2
    """A Draw Two / Wild Draw Four total (``Game.pending``) is pending: stack, challenge or draw."""
    CHOOSE_COLOR = 3
    """A Wild started the pile: name the colour, then play."""
    OVER = 4
    CHOOSE_SWAP = 5
    """Seven-O: the player to move played a 7 without a target: name whom to swap with."""
    ROULETTE = 6
    """No Mercy: a Wild Colour Roulette was played on the player to move: they name a colour
    (``ChooseColor``), turn cards up until one of it comes, keep them and lose the turn."""


# Module constants are Final so that mypyc (setup.py) compiles them to C statics rather than a
# dict lookup per use; in pure Python the annotation changes nothing.
_PLAY: Final = Phase.PLAY
_DRAWN: Final = Phase.DRAWN
_PENDING: Final = Phase.PENDING
_CHOOSE: Final = Phase.CHOOSE_COLOR
_OVER: Final = Phase.OVER
_SWAP: Final = Phase.CHOOSE_SWAP
_ROUL: Final = Phase.ROULETTE
_SKIP: Final = Rank.SKIP
_REVERSE: Final = Rank.REVERSE
_DRAW_TWO: Final = Rank.DRAW_TWO
_WILD: Final = Rank.WILD
_WD4: Final = Rank.WILD_DRAW_FOUR
_SKIP_ALL: Final = Rank.SKIP_EVERYONE
_DISCARD_ALL: Final = Rank.DISCARD_ALL
_WRD4: Final = Rank.WILD_REVERSE_DRAW_FOUR
_ROULETTE: Final = Rank.WILD_COLOR_ROULETTE
_COLORS: Final = tuple(Color)

# Cached action values: legal_actions allocates no actions.
_PLAY_ACT: Final = tuple(Play(c) if not c.is_wild else None for c in CARDS)
_PLAY_UNO: Final = tuple(Play(c, uno=True) if not c.is_wild else None for c in CARDS)
_WILD_ACTS: Final = {c.code: tuple(Play(c, col) for col in _COLORS) for c in CARDS if c.is_wild}
_WILD_UNO: Final = {
    c.code: tuple(Play(c, col, True) for col in _COLORS) for c in CARDS if c.is_wild
}
_DRAW: Final = Draw()
_PASS: Final = Pass()
_CHALLENGE: Final = Challenge()
_CALL: Final = CallUno()
_CATCH: Final = tuple(Catch(i) for i in range(10))
_CHOOSE_ACTS: Final = tuple(ChooseColor(col) for col in _COLORS)
_SWAP_ACTS: Final = tuple(Swap(i) for i in range(10))
_WCR: Final = Card.of(None, Rank.WILD_COLOR_ROULETTE)
_ROULETTE_ACTS: Final = (Play(_WCR),)
"""No Mercy's Roulette is played without a colour: the next player names it."""
_ROULETTE_UNO: Final = (Play(_WCR, uno=True),)
_SEVEN_BITS: Final = sum(c.bit for c in CARDS if c.rank == 7)


def _draw_kinds(deck: list[Card]) -> tuple[Card, ...]:
    """One card of each rank in ``deck`` that makes the next player draw, fewest cards first."""
    kinds: dict[int, Card] = {}
    for c in deck:
        if c.draw and c.rank not in kinds:
            kinds[c.rank] = c
    return tuple(sorted(kinds.values(), key=lambda c: (c.draw, c.rank)))


_DRAW_KINDS: Final = {
    Deck.CLASSIC: _draw_kinds(full_deck()),
    Deck.NO_MERCY: _draw_kinds(no_mercy_deck()),
}
"""Per deck, a card of each kind that draws (the stacking hint names them: ``stack_text``)."""
_ZERO_BITS: Final = sum(c.bit for c in CARDS if c.rank == 0)
_ALL_BITS: Final = sum(c.bit for c in CARDS)
_CLASSIC_BITS: Final = sum(c.bit for c in CARDS[:CLASSIC_CODES])
_WD4_BIT: Final = Card.of(None, _WD4).bit


def _key(color: Color, rank: Rank) -> int:
    return color * 32 + rank


# _PLAYABLE[_key(colour in force, rank on top)]: bitmask of the cards that may be played on it.
# Two tables: the classic cards only (small ints: the hot paths of classic games stay on
# machine-word arithmetic when compiled), and every card (No Mercy: ``Game._table``).
_PLAYABLE: Final = [0] * 128
_PLAYABLE_ALL: Final = [0] * 128
for _col in _COLORS:
    for _rank in Rank:
        _PLAYABLE[_key(_col, _rank)] = sum(
            c.bit for c in CARDS[:CLASSIC_CODES] if c.is_wild or c.color is _col or c.rank is _rank
        )
        _PLAYABLE_ALL[_key(_col, _rank)] = sum(
            c.bit for c in CARDS if c.is_wild or c.color is _col or c.rank is _rank
        )
_COLOR_MASK: Final = tuple(
    sum(c.bit for c in CARDS[:CLASSIC_CODES] if c.color is col) for col in _COLORS
)
_COLOR_MASK_ALL: Final = tuple(sum(c.bit for c in CARDS if c.color is col) for col in _COLORS)

# legal_actions for the PLAY and DRAWN phases is a pure function of a small key (which distinct
# cards are playable, plus a few flags), so results are cached. The keys are many (any set of
# distinct playable cards), so an unbounded cache grows with every game: two generations of at
# most the limit each instead; when the new one is full it becomes the old one, and a key found
# only in the old one moves back, so the keys in use stay (hit rates and sizes measured:
# docs/benchmarks.md, "Memory").
_UNO_FLAG: Final = 1 << 54
_DRAW_FLAG: Final = 1 << 55
_PASS_FLAG: Final = 1 << 56
_CALL_FLAG: Final = 1 << 57
_CATCH_SHIFT: Final = 58
_CARDS_MASK: Final = (1 << 54) - 1
_LEGAL_CACHE: Final[dict[int, tuple[Action, ...]]] = {}
_LEGAL_OLD: Final[dict[int, tuple[Action, ...]]] = {}
# Per card code: its plays, and its plays with and without an UNO call.
_ACTS: Final = tuple(_WILD_ACTS[c.code] if c.is_wild else (_PLAY_ACT[c.code],) for c in CARDS)
_ACTS_UNO: Final = tuple(
    (*_WILD_ACTS[c.code], *_WILD_UNO[c.code])
    if c.is_wild
    else (_PLAY_ACT[c.code], _PLAY_UNO[c.code])
    for c in CARDS
)
_LEGAL_CACHE_MAX: Final = 4_096
_legal_cache_limit = [_LEGAL_CACHE_MAX]
"""Entries per generation now (a list: mypyc compiles no assignment to a module global)."""


def set_legal_cache_limit(entries: int) -> None:
    """Bound each generation of the legal-action cache at ``entries`` (default 4,096, ~1.3 MB
    for both, what ``hard``'s playouts want). The bot's own process plays a few moves a second
    and gains nothing from a big cache, which there only filled for ~1,300 games and read as
    memory growing with every game (``bench memory``): it sets a small one."""
    _legal_cache_limit[0] = max(1, entries)
    while len(_LEGAL_CACHE) > _legal_cache_limit[0]:
        _LEGAL_CACHE.pop(next(iter(_LEGAL_CACHE)))
    _LEGAL_OLD.clear()


def _build_legal(key: int) -> tuple[Action, ...]:
    """The legal actions of ``key``, on a miss in ``_LEGAL_CACHE``: from the old generation,
    else built; stored in the new generation (which, when full, becomes the old one)."""
    result = _LEGAL_OLD.get(key)
    if result is None:
        result = _legal_of(key)
    if len(_LEGAL_CACHE) >= _legal_cache_limit[0]:
        _LEGAL_OLD.clear()
        _LEGAL_OLD.update(_LEGAL_CACHE)
        _LEGAL_CACHE.clear()
    _LEGAL_CACHE[key] = result
    return result


def _legal_of(key: int) -> tuple[Action, ...]:
    out: list[Action] = []
    acts = _ACTS_UNO if key & _UNO_FLAG else _ACTS
    cards = key & _CARDS_MASK
    while cards:
        low = cards & -cards
        out.extend(acts[low.bit_length() - 1])  # type: ignore[arg-type]
        cards ^= low
    if key & _DRAW_FLAG:
        out.append(_DRAW)
    if key & _PASS_FLAG:
        out.append(_PASS)
    if key & _CALL_FLAG:
        out.append(_CALL)
    catch = key >> _CATCH_SHIFT
    if catch:
        out.append(_CATCH[catch - 1])
    return tuple(out)


# Every attribute of a Game, for __slots__ and copy(). (mypyc, which may compile this module, does
# not let code read a native class's __slots__, so the names live here.)
_FIELDS: Final = (
    "_after",
    "_armed",
    "_bluff",
    "_counts",
    "_higher",
    "_jump_by",
    "_key",
    "_knocked",
    "_late_call",
    "_legacy",
    "_manual",
    "_masks",
    "_mercy",
    "_mode",
    "_must_drawn",
    "_next_turn_window",
    "_nm",
    "_out",
    "_pending_d2",
    "_pending_wd4",
    "_seven_o",
    "_sizes",
    "_slow",
    "_table",
    "_voluntary",
    "color",
    "current",
    "dealer",
    "direction",
    "discard",
    "draw_pile",
    "drawn",
    "exposed",
    "n",
    "outcome",
    "pending",
    "phase",
    "rng",
    "rules",
    "wd4_guilty",
    "wd4_offender",
)


_GAME_CLASS: Final[list[Callable[[HouseRules], type[Game]]]] = []
"""``unobot.engine.variants.game_class``, put here when that module is imported (the package's
``__init__`` does): it imports this module, so this one can't import it."""


def _class_for(cls: type[Game], rules: HouseRules) -> type[Game]:
    """The class that plays ``rules``: ``Game.deal`` and ``from_position`` called on ``Game``
    itself pick the variant's class (``unobot.engine.variants``); on a subclass, that one."""
    if cls is not Game:
        return cls
    return _GAME_CLASS[0](rules)


class Game:
    """The state of one hand and the only way to change it (``apply``), under the classic
    rules and their options; the variants' rules subclass it (``unobot.engine.variants``:
    ``deal`` and ``from_position`` pick the class from the rules).

    Seats are numbered ``0 .. players-1`` in clockwise order; names belong to the table layer.
    Attributes are public for reading (renderers, bots, tests) and must not be changed directly.
    """

    __slots__ = _FIELDS

    rules: HouseRules
    rng: Random
    n: int
    draw_pile: list[Card]
    """The next card drawn is ``draw_pile[-1]``."""
    discard: list[Card]
    """The top card is ``discard[-1]``."""
    color: Color
    """The colour in force (the chosen one when a wild is on top)."""
    current: int
    direction: int
    phase: Phase
    drawn: Card | None
    """The card drawn this turn that may now be played (phase DRAWN)."""
    pending: int
    """Cards the player to move must draw unless they stack or challenge (phase PENDING)."""
    exposed: int
    """Seat that went down to one card without calling UNO and can still be caught, or -1."""
    wd4_offender: int
    wd4_guilty: bool
    outcome: HandOutcome | None
    dealer: int

    def __init__(
        self, players: int, rules: HouseRules, rng: Random, *, in_play: bool = False
    ) -> None:
        """An empty table; use :meth:`deal` or :meth:`from_position` to get a playable hand.

        ``in_play``: for a hand being played, which may have fewer players than the rules deal
        to (someone left: :meth:`remove_seat`); only the 2 to 10 of any hand are checked."""
        if not 2 <= players <= 10:
            raise ValueError("Uno is played by 2 to 10 players")
        if not in_play and not rules.min_players <= players <= rules.max_players:
            raise ValueError(
                f"{rules.name} is for {rules.min_players} to {rules.max_players} players"
            )
        self.rules = rules
        self.rng = rng
        self.n = players
        # A hand is a count per card code, plus the bitmask of codes held and its size: playing,
        # drawing and legality checks are then a few integer operations, not list scans.
        nm = rules.deck is Deck.NO_MERCY
        codes = len(CARDS) if nm else CLASSIC_CODES
        self._counts = [[0] * codes for _ in range(players)]
        self._sizes = [0] * players
        self._masks = [0] * players
        self.draw_pile = []
        self.discard = []
        self.color = Color.RED
        self._key = 0
        self.current = 0
        self.dealer = players - 1
        self.direction = 1
        self.phase = _PLAY
        self.drawn = None
        self.pending = 0
        self.exposed = -1
        self._armed = -1
        self.wd4_offender = -1
        self.wd4_guilty = False
        self.outcome = None
        # Rule options read on the hot path, flattened once per hand.
        self._manual = rules.uno_call is UnoCall.MANUAL
        self._bluff = rules.wd4_challenge
        self._voluntary = rules.voluntary_draw
        self._mode = rules.no_playable
        self._after = rules.after_draw
        self._must_drawn = (
            rules.no_playable is NoPlayableCard.DRAW_UNTIL_PLAYABLE
            or rules.after_draw is AfterDraw.DRAWN_CARD_MUST
        )
        self._pending_d2 = rules.stacking is not Stacking.NONE
        self._pending_wd4 = self._pending_d2 or rules.wd4_challenge
        self._next_turn_window = rules.catch_window is CatchWindow.NEXT_TURN
        self._late_call = rules.late_uno_call
        # The variants (``VariantGame.apply``): the cards whose plays must take its general path
        # (where hands move, the jump window is kept, seats may be out of the hand).
        self._seven_o = rules.seven_o
        self._slow = (
            _ALL_BITS
            if nm or rules.mercy_limit
            else _CLASSIC_BITS
            if rules.jump_in
            else (_SEVEN_BITS | _ZERO_BITS if rules.seven_o else 0)
        )
        # No Mercy: every move takes the general paths (legal_actions: ``_nm_legal``), which
        # know its cards, the mercy rule and the eliminated seats (``_out``, a bitmask).
        self._nm = nm
        self._table = _PLAYABLE_ALL if nm else _PLAYABLE
        self._higher = rules.stacking is Stacking.HIGHER
        self._mercy = rules.mercy_limit
        self._out = 0
        self._knocked = 0
        """No Mercy: players the mercy rule put out this hand (the winner's bonus counts them,
        also one who left since)."""
        self._legacy = rules.legacy_no_mercy
        self._jump_by = -1
        """Jump-In: the seat whose play put the top card down while jumping on it is still
        allowed (until the next turn action); -1 when the window is closed."""

    # --- setting up ------------------------------------------------------------------------

    @classmethod
    def deal(
        cls, players: int, rules: HouseRules, rng: Random, dealer: int = 0
    ) -> tuple[Game, list[Event]]:
        """Shuffle, choose the first player, deal and turn the start card.

        Returns the game and the opening events (the highest-card draw, the start card and its
        effects). ``dealer`` matters for ``FirstPlayer.LEFT_OF_DEALER``; with the other methods
        the dealer becomes the seat before the chosen first player, so start-card effects
        always hit "the player to the dealer's left".
        """
        game = _class_for(cls, rules)(players, rules, rng)
        problem = rules.deal_problem(players)
        if problem:
            raise ValueError(problem)
        events: list[Event] = []
        method = rules.first_player
        if method is FirstPlayer.HIGHEST_CARD:
            dealer = game._highest_card_draw(events) - 1
        elif method is FirstPlayer.RANDOM:
            dealer = rng.randrange(players)
        game.dealer = dealer % players
        nm = rules.deck is Deck.NO_MERCY
        deck = no_mercy_deck() if nm else full_deck(rules.decks_for(players))
        shuffle(deck, rng)
        size = rules.hand_size
        for seat in range(players):
            game._give(seat, deck[-size:])
            del deck[-size:]
        game.draw_pile = deck
        game._turn_start_card(events)
        return game, events

    def _highest_card_draw(self, events: list[Event]) -> int:
        """Everyone draws from a shuffled deck; the highest number starts, ties draw again."""
        deck = full_deck()
        contenders = list(range(self.n))
        while True:
            shuffle(deck, self.rng)
            shown = tuple(deck[: len(contenders)])
            events.append(FirstPlayerDraw(tuple(contenders), shown))
            values = [c.rank if c.rank <= 9 else -1 for c in shown]
            best = max(values)
            if best < 0:
                continue  # all specials: shuffle and draw again
            contenders = [s for s, v in zip(contenders, values, strict=True) if v == best]
            if len(contenders) == 1:
                return contenders[0]

    def _turn_start_card(self, events: list[Event]) -> None:
        """Turn the top card; one the rules refuse goes back into the pile, and the next one
        is turned. The refused cards are set aside until a card is accepted, then shuffled
        back in: each card is turned at most once, so this ends (``deal_problem`` makes sure
        the pile holds an acceptable card), and the start card is still a uniformly random
        acceptable one."""
        pile = self.draw_pile
        mode = self.rules.start_card
        put_back: list[Card] = []
        while True:
            if not pile:
                raise ValueError("no card left in the draw pile may start the discard pile")
            card = pile.pop()
            refused = (
                card.rank is _WD4
                or (card.is_wild and mode is not StartCard.OFFICIAL)
                or (card.rank > 9 and mode is StartCard.REDRAW_SPECIALS)
            )
            if not refused:
                break
            events.append(StartCardReplaced(card))
            put_back.append(card)
        if put_back:
            pile.extend(put_back)
            shuffle(pile, self.rng)
        self.discard = [card]
        events.append(StartCardTurned(card))
        first = (self.dealer + 1) % self.n
        self.current = first
        rank = card.rank
        if card.is_wild:
            self.phase = _CHOOSE
            self._key = _key(self.color, rank)
        else:
            self.color = card.color  # type: ignore[assignment]
            self._key = _key(card.color, rank)  # type: ignore[arg-type]
            if not self.rules.start_card_effects:
                pass  # only the first card of the pile: the first player plays on it
            elif rank is _SKIP:
                events.append(Skipped(first))
                self._advance(1)
            elif rank is _REVERSE:
                # The dealer starts and play goes the other way (with two players: a skip).
                self.direction = -1
                events.append(Reversed(-1))
                self.current = self.dealer
            elif rank is _DRAW_TWO:
                events.append(
                    CardsDrawn(first, self._draw(first, 2, events), DrawReason.START_CARD)
                )
                events.append(Skipped(first))
                self._advance(1)
        events.insert(
            0, HandStarted(self.dealer, self.current, self.n, self.rules.hand_size,
                           self.rules.decks_for(self.n))
        )  # fmt: skip

    @classmethod
    def from_position(
        cls,
        rules: HouseRules,
        hands: list[list[Card]],
        top: Card,
        *,
        color: Color | None = None,
        draw_pile: list[Card] | None = None,
        discard: list[Card] | None = None,
        current: int = 0,
        direction: int = 1,
        rng: Random | None = None,
        pending: int = 0,
        phase: Phase = Phase.PLAY,
        drawn: Card | None = None,
        dealer: int | None = None,
        wd4_guilty: bool = False,
        out: tuple[int, ...] = (),
    ) -> Game:
        """A hand in an exact position (tests, puzzles, computer players' determinisations).

        ``draw_pile`` is given in drawing order (its first card is drawn first); ``discard`` holds
        the cards under ``top``, bottom first. ``out``: seats the mercy rule has put out of the
        hand (No Mercy; their hands must be empty), counted as knocked out this hand.
        """
        game = _class_for(cls, rules)(
            len(hands), rules, rng if rng is not None else Random(0), in_play=True
        )
        for seat, hand in enumerate(hands):
            game._give(seat, hand)
        game.draw_pile = list(reversed(draw_pile or []))
        game.discard = [*(discard or []), top]
        if top.is_wild and color is None:
            raise ValueError("a wild on top needs the colour in force")
        game.color = color if color is not None else top.color  # type: ignore[assignment]
        game._key = _key(game.color, top.rank)
        game.current = current % game.n
        game.direction = direction
        game.pending = pending
        game.phase = phase
        game.drawn = drawn
        game.dealer = (current - 1) % game.n if dealer is None else dealer
        if phase is Phase.PENDING and top.rank is _WD4:
            game.wd4_offender = (current - direction) % game.n
            game.wd4_guilty = wd4_guilty
        for seat in out:
            if game._sizes[seat]:
                raise ValueError("a seat out of the hand holds no cards")
            game._out |= 1 << seat
            game._knocked += 1
        return game

    def copy(self) -> Game:
        """An independent copy sharing only the immutable rules and the rng object."""
        new = self._blank()  # mypyc classes need __init__
        for name in _FIELDS:
            setattr(new, name, getattr(self, name))
        new._counts = [list(c) for c in self._counts]
        new._sizes = list(self._sizes)
        new._masks = list(self._masks)
        new.draw_pile = list(self.draw_pile)
        new.discard = list(self.discard)
        return new

    def _blank(self) -> Game:
        """An empty game of this class for :meth:`copy` (each variant's class overrides it: a
        copy plays the same rules' code)."""
        return Game(self.n, self.rules, self.rng, in_play=True)

    # --- reading ---------------------------------------------------------------------------

    @property
    def top(self) -> Card:
        return self.discard[-1]

    @property
    def over(self) -> bool:
        return self.phase is _OVER

    def hand(self, seat: int) -> list[Card]:
        """``seat``'s cards, sorted by colour then rank (wilds last)."""
        out: list[Card] = []
        for code, count in enumerate(self._counts[seat]):
            if count:
                out += [CARDS[code]] * count
        return out

    @property
    def hands(self) -> list[list[Card]]:
        """Every seat's cards (a fresh copy: changing it changes nothing)."""
        return [self.hand(seat) for seat in range(self.n)]

    def hand_size(self, seat: int) -> int:
        return self._sizes[seat]

    def holds(self, seat: int, card: Card) -> int:
        """How many copies of ``card`` ``seat`` holds."""
        counts = self._counts[seat]
        return counts[card.code] if card.code < len(counts) else 0

    def counts(self) -> list[int]:
        """Cards held by each seat."""
        return list(self._sizes)

    def next_seat(self, steps: int = 1) -> int:
        return (self.current + self.direction * steps) % self.n

    def eliminated(self, seat: int) -> bool:
        """Is ``seat`` out of this hand by the mercy rule (No Mercy)?"""
        return bool(self._out >> seat & 1)

    def active_seats(self) -> list[int]:
        """The seats still in the hand (all of them but those the mercy rule put out)."""
        return [s for s in range(self.n) if not self._out >> s & 1]

    def players_left(self) -> int:
        """How many players are still in the hand (No Mercy's mercy rule puts some out)."""
        return self.n - bin(self._out).count("1") if self._out else self.n

    def _two_left(self) -> bool:
        """Do "with just two players" rules apply: two dealt, or (No Mercy, the sheet's
        rules) two left after knock-outs? Before journal version 4 (``_legacy``) the bot
        counted the players dealt only."""
        return self.n == 2 or (bool(self._out) and not self._legacy and self.players_left() == 2)

    def names_color(self, card: Card) -> bool:
        """Does a play of ``card`` name a colour: a wild, but not No Mercy's Roulette, whose
        colour the next player names (``Phase.ROULETTE``)."""
        return card.is_wild and (card.rank is not _ROULETTE or self._legacy)

    def _step(self, seat: int, steps: int) -> int:
        """The seat ``steps`` turns after ``seat``, passing over eliminated seats."""
        out = self._out
        d = self.direction
        n = self.n
        while steps > 0:
            seat = (seat + d) % n
            if not out >> seat & 1:
                steps -= 1
        return seat

    def is_playable(self, card: Card, seat: int) -> bool:
        """Could ``seat`` put ``card`` on the pile now, turn and drawn-card limits aside?"""
        if not self._table[self._key] & card.bit:
            return False
        return not (
            card.rank is _WD4 and not self._bluff and self._masks[seat] & _COLOR_MASK[self.color]
        )

    def legal_actions(self, seat: int | None = None) -> tuple[Action, ...]:
        """Every action ``seat`` (default: the player to move) may take now without penalty.

        Includes out-of-turn actions (calling UNO, catching a missed call). Wild cards appear
        once per colour; with manual UNO calls, a play down to one card appears with and
        without the call. The tuple is shared: don't rely on its identity.
        """
        if seat is None:
            seat = self.current
        phase = self.phase
        if (
            phase is _PLAY
            and seat == self.current
            and self.exposed < 0
            and (self._sizes[seat] != 2 or not self._manual)
        ):
            # The common case, kept short: the player to move, nobody to catch, no UNO to call.
            mask = self._masks[seat]
            key = mask & _PLAYABLE[self._key]
            if key & _WD4_BIT and not self._bluff and mask & _COLOR_MASK[self.color]:
                key ^= _WD4_BIT
            if not key or self._voluntary:
                key |= _DRAW_FLAG
            found = _LEGAL_CACHE.get(key)
            return found if found is not None else _build_legal(key)
        if phase is _OVER:
            return ()
        exposed = self.exposed
        if seat != self.current:
            if exposed >= 0 and 0 <= seat < self.n:
                if exposed != seat:
                    return (_CATCH[exposed],)
                return (_CALL,) if self._late_call else ()
            return ()
        if phase is _PLAY or phase is _DRAWN:
            mask = self._masks[seat]
            if phase is _PLAY or (self._after is AfterDraw.ANY_CARD and not self._must_drawn):
                key = mask & _PLAYABLE[self._key]
                if key & _WD4_BIT and not self._bluff and mask & _COLOR_MASK[self.color]:
                    key ^= _WD4_BIT
                if phase is _PLAY:
                    if not key or self._voluntary:
                        key |= _DRAW_FLAG
                else:
                    key |= _PASS_FLAG
            else:
                key = self.drawn.bit  # type: ignore[union-attr]
                if not self._must_drawn:
                    key |= _PASS_FLAG
            if self._manual and self._sizes[seat] == 2:
                key |= _UNO_FLAG
                if self._armed != seat:
                    key |= _CALL_FLAG
            if exposed >= 0:
                if exposed != seat:
                    key |= (exposed + 1) << _CATCH_SHIFT
                elif self._late_call:
                    key |= _CALL_FLAG
            found = _LEGAL_CACHE.get(key)
            return found if found is not None else _build_legal(key)
        out: list[Action] = []
        if phase is _PENDING:
            out.append(_DRAW)
            if self.discard[-1].rank is _WD4 and self._bluff and self.wd4_offender >= 0:
                out.append(_CHALLENGE)
            stackable = self._stackable(seat)
            if stackable:
                call = self._manual and self._sizes[seat] == 2
                if call:
                    stackable |= _UNO_FLAG
                out.extend(_LEGAL_CACHE.get(stackable) or _build_legal(stackable))
                if call and self._armed != seat and exposed < 0:
                    out.append(_CALL)  # about to stack down to one card: "UNO" first
        else:  # choose colour
            out.extend(_CHOOSE_ACTS)
        if exposed >= 0 and (exposed != seat or self._late_call):
            out.append(_CATCH[exposed] if exposed != seat else _CALL)
        return tuple(out)

    def _stackable(self, seat: int) -> int:
        """Bitmask of the cards ``seat`` may stack on the pending draw (0 without stacking)."""
        mask = 0
        if self._pending_d2 and self.phase is _PENDING:
            higher = self._higher
            for c in self.hand(seat):
                if (
                    c.draw
                    and self._stacks_on_top(c)
                    and ((higher and not c.is_wild) or self.is_playable(c, seat))
                ):
                    mask |= c.bit
        return mask

    def _stacks_on_top(self, card: Card) -> bool:
        """May ``card`` (a draw card) answer the pending draw under the stacking rule?"""
        mode = self.rules.stacking
        if mode is Stacking.NONE:
            return False
        if mode is Stacking.SAME:
            return card.rank is self.discard[-1].rank
        if mode is Stacking.HIGHER:
            return card.draw >= self.discard[-1].draw
        return True

    # --- acting ----------------------------------------------------------------------------

    def apply(self, seat: int, action: Action) -> list[Event]:
        """Apply ``seat``'s action; return what happened. Raises UnoError, changing nothing."""
        if type(action) is Play and seat == self.current and self.phase is _PLAY:
            # Fast path for the commonest move, a number card played in turn without a call;
            # anything else (or anything this doesn't prove legal) takes the general path.
            card = action.card
            bit = card.bit
            mask = self._masks[seat]
            if (
                card.rank <= 9
                and mask & bit
                and _PLAYABLE[self._key] & bit
                and action.color is None
                and not action.uno
                and action.target < 0
            ):
                sizes = self._sizes
                left = sizes[seat] - 1
                if left > 1:
                    sizes[seat] = left
                    counts = self._counts[seat]
                    code = card.code
                    held = counts[code] - 1
                    counts[code] = held
                    if not held:
                        self._masks[seat] = mask ^ bit
                    self.discard.append(card)
                    color = self.color = card.color  # type: ignore[assignment]
                    self._key = card.key
                    self.exposed = -1
                    self.current = (seat + self.direction) % self.n
                    self._armed = -1
                    return [CardPlayed(seat, card, color, left)]  # type: ignore[arg-type]
        return self._general(seat, action)

    def _general(self, seat: int, action: Action) -> list[Event]:
        """``apply`` for every action but the fast path's: checked, then its handler (the
        player to move's play, draw and pass by direct call, the rest from ``_TURN_ACTIONS``:
        a class that overrides one of those overrides this too, as ``VariantGame`` does)."""
        kind = type(action)
        if seat == self.current and self.phase is not _OVER:
            # The player to move's commonest actions, called directly (a native call when
            # compiled, where the table's is a Python one): the same handlers, checked alike.
            events: list[Event] = []
            if kind is Play:
                self._play(seat, action, events)  # type: ignore[arg-type]
                return events
            if kind is Draw:
                self._draw_action(seat, action, events)  # type: ignore[arg-type]
                return events
            if kind is Pass:
                self._pass(seat, action, events)  # type: ignore[arg-type]
                return events
        if self.phase is _OVER:
            raise errors.HandOver()
        if not 0 <= seat < self.n:
            raise errors.NotAPlayer()
        handler = _TURN_ACTIONS.get(kind)
        if handler is None:
            if kind is Catch:
                return self._catch(seat, action.target)  # type: ignore[union-attr]
            if kind is CallUno:
                return self._call_uno(seat)
            raise TypeError(f"not an action: {action!r}")
        if seat != self.current:
            raise errors.NotYourTurn()
        turn: list[Event] = []
        handler(self, seat, action, turn)
        return turn

    def _choose_color(self, seat: int, action: ChooseColor, events: list[Event]) -> None:
        if self.phase is not _CHOOSE:
            raise errors.UnoError(errors.N_("the colour is already set"))
        color = action.color
        self.color = color
        self._key = _key(color, self.discard[-1].rank)
        self.phase = _PLAY
        events.append(ColorChosen(seat, color))

    def _play(self, seat: int, action: Play, events: list[Event]) -> None:
        card = action.card
        phase = self.phase
        mask = self._masks[seat]
        if phase is _CHOOSE:
            raise errors.MustChooseColor()
        if not mask & card.bit:
            raise errors.CardNotInHand(card)
        chosen = action.color
        if card.is_wild:
            if chosen is None:
                raise errors.ColorRequired(card)
        elif chosen is not None:
            raise errors.ColorNotNeeded(card)
        stack_free = False
        if phase is _PENDING:
            if not card.draw or not self._stacks_on_top(card):
                raise errors.MustAnswerDraw(self.pending, self._stack_hint())
            stack_free = self._higher  # stacking higher: any colour, by the number drawn
        elif phase is _DRAWN and card is not self.drawn:
            if self._must_drawn:
                raise errors.MustPlayDrawnCard(self.drawn)
            if self._after is not AfterDraw.ANY_CARD:
                raise errors.OnlyDrawnCard(self.drawn)
        if not stack_free and not _PLAYABLE[self._key] & card.bit:
            raise errors.CardNotPlayable(card, self._top_text())
        color = self.color
        rank = card.rank
        guilty = rank is _WD4 and mask & _COLOR_MASK[color] != 0
        if guilty and not self._bluff:
            raise errors.WildDrawFourNotAllowed(color)
        left = self._sizes[seat] - 1
        manual = self._manual
        false_uno = action.uno and left > 1 and manual
        rules = self.rules
        if false_uno and not rules.false_uno_penalty:
            raise errors.UnoNotNeeded()
        if action.target >= 0:
            raise errors.CannotSwap(errors.N_("only a 7 swaps hands (with Seven-O)"))

        # Validated: from here on the state changes.
        self.exposed = -1  # any play closes the catch window (both window rules)
        self._sizes[seat] = left
        counts = self._counts[seat]
        held = counts[card.code] - 1
        counts[card.code] = held
        if not held:
            self._masks[seat] = mask ^ card.bit
        self.discard.append(card)
        color = chosen if chosen is not None else card.color  # type: ignore[assignment]
        self.color = color
        self._key = color * 32 + rank
        events.append(CardPlayed(seat, card, color, left))
        if left == 1:
            if not manual:
                events.append(UnoCalled(seat, True))
            elif self._armed == seat:
                pass  # called just before this play: UnoCalled was sent then
            elif action.uno:
                events.append(UnoCalled(seat))
            else:
                self.exposed = seat
        elif left == 0:
            self._finish(seat, card, events)
            return
        if false_uno:
            drawn = self._draw(seat, rules.false_uno_penalty, events)
            events.append(CardsDrawn(seat, drawn, DrawReason.FALSE_UNO))
        if rank <= 9 or rank is _WILD:
            self.current = (self.current + self.direction) % self.n
            self.phase = _PLAY
            self.drawn = None
            self._armed = -1
        elif rank is _SKIP:
            events.append(Skipped(self.next_seat(1)))
            self._advance(2)
        elif rank is _REVERSE:
            self.direction = -self.direction
            events.append(Reversed(self.direction))
            if self.n == 2:
                events.append(Skipped(self.next_seat(1)))
                self._advance(2)
            else:
                self._advance(1)
        elif self._pending_d2 or (rank is _WD4 and self._pending_wd4):
            self.pending += card.draw
            if rank is _WD4:
                self.wd4_offender = seat
                self.wd4_guilty = guilty
            self._advance(1)
            self.phase = _PENDING
            events.append(DrawPending(self.current, self.pending))
        else:
            victim = self.next_seat(1)
            events.append(
                CardsDrawn(victim, self._draw(victim, card.draw, events), DrawReason.PENALTY_CARD)
            )
            events.append(Skipped(victim))
            self._advance(2)

    def _draw_action(self, seat: int, action: Draw, events: list[Event]) -> None:
        phase = self.phase
        if phase is not _PLAY:
            if phase is _PENDING:
                if self._next_turn_window:
                    self.exposed = -1
                self._take_pending(seat, self.pending, events)
                return
            if phase is _DRAWN:
                raise errors.AlreadyDrew()
            raise errors.MustChooseColor()
        playable_mask = _PLAYABLE[self._key]
        if not self._voluntary and self._masks[seat] & playable_mask:
            raise errors.DrawNotAllowed()
        if self._next_turn_window:
            self.exposed = -1
        mode = self._mode
        playable = None
        if mode is NoPlayableCard.DRAW_UNTIL_PLAYABLE:
            got: list[Card] = []
            while True:
                one = self._draw(seat, 1, events)
                if not one:
                    break
                got.append(one[0])
                if self.is_playable(one[0], seat):
                    playable = one[0]
                    break
            events.append(CardsDrawn(seat, tuple(got), DrawReason.DRAW))
        else:
            pile = self.draw_pile
            if pile and seat != self.exposed:
                card = pile.pop()
                self._counts[seat][card.code] += 1
                self._sizes[seat] += 1
                self._masks[seat] |= card.bit
                events.append(CardsDrawn(seat, (card,), DrawReason.DRAW))
            else:
                one = self._draw(seat, 1, events)
                events.append(CardsDrawn(seat, one, DrawReason.DRAW))
                if not one:
                    events.append(TurnPassed(seat))
                    self._advance(1)
                    return
                card = one[0]
            if mode is NoPlayableCard.DRAW_ONE:
                if self._after is AfterDraw.ANY_CARD:
                    if self._masks[seat] & playable_mask:
                        playable = card
                elif playable_mask & card.bit and (
                    card.rank is not _WD4
                    or self._bluff
                    or not self._masks[seat] & _COLOR_MASK[self.color]
                ):
                    playable = card
        if playable is None:
            events.append(TurnPassed(seat))
            self.current = (seat + self.direction) % self.n
            self._armed = -1
        else:
            self.phase = _DRAWN
            # With "any card" the turn goes on when anything in the hand is playable; ``drawn``
            # names the drawn card only when it is itself one that may be played.
            self.drawn = playable if self.is_playable(playable, seat) else None

    def _pass(self, seat: int, action: Pass, events: list[Event]) -> None:
        phase = self.phase
        if phase is _PENDING:
            raise errors.MustAnswerDraw(self.pending, self._stack_hint())
        if phase is _CHOOSE:
            raise errors.MustChooseColor()
        if phase is not _DRAWN:
            raise errors.CannotPass()
        if self._must_drawn:
            raise errors.MustPlayDrawnCard(self.drawn)
        if self._next_turn_window:
            self.exposed = -1
        events.append(TurnPassed(seat))
        self._advance(1)

    def _challenge(self, seat: int, action: Challenge, events: list[Event]) -> None:
        if not self._bluff:
            raise errors.CannotChallenge(errors.N_("these rules have no Wild Draw Four challenge"))
        if self.phase is not _PENDING or self.discard[-1].rank is not _WD4:
            raise errors.CannotChallenge()
        if self.wd4_offender < 0:
            raise errors.CannotChallenge(errors.N_("whoever played that WD4 has left the game"))
        if self._next_turn_window:
            self.exposed = -1
        offender = self.wd4_offender
        guilty = self.wd4_guilty
        events.append(ChallengeResolved(seat, offender, guilty))
        if guilty:
            drawn = self._draw(offender, self.rules.challenge_guilty_draw, events)
            events.append(CardsDrawn(offender, drawn, DrawReason.CHALLENGE))
            self.pending -= 4
            if self.pending > 0:
                self._take_pending(seat, self.pending, events)
            else:
                self.pending = 0
                self.phase = _PLAY
        else:
            extra = self.rules.challenge_innocent_extra
            if extra:
                drawn = self._draw(seat, extra, events)
                events.append(CardsDrawn(seat, drawn, DrawReason.CHALLENGE))
            self._take_pending(seat, self.pending, events)

    def _take_pending(self, seat: int, total: int, events: list[Event]) -> None:
        events.append(CardsDrawn(seat, self._draw(seat, total, events), DrawReason.PENALTY_CARD))
        events.append(Skipped(seat))
        self.pending = 0
        self._advance(1)

    def _catch(self, seat: int, target: int) -> list[Event]:
        if (
            not self._manual
            or target < 0
            or target != self.exposed
            or target == seat
            or self._sizes[target] != 1
        ):
            raise errors.CannotCatch()
        events: list[Event] = []
        penalty = self.rules.uno_penalty
        self.exposed = -1
        drawn = self._draw(target, penalty, events)
        events.append(UnoCaught(seat, target, penalty))
        events.append(CardsDrawn(target, drawn, DrawReason.MISSED_UNO))
        return events

    def _call_uno(self, seat: int) -> list[Event]:
        if not self._manual:
            raise errors.UnoNotNeeded(errors.N_("UNO is called automatically in this game"))
        left = self._sizes[seat]
        if left == 1:
            if self.exposed != seat:
                # Called already, or the window closed uncaught, or the one card came by a swap:
                # whichever, nothing is left to call.
                raise errors.UnoNotNeeded(
                    errors.N_("nobody can catch you any more: no UNO to call")
                )
            if not self._late_call:
                raise errors.UnoNotNeeded(
                    errors.N_(
                        "too late: UNO is called with the card or before it (you can be caught "
                        "until the next turn begins)"
                    )
                    if self._next_turn_window
                    else errors.N_(
                        "too late: UNO is called with the card or before it (you can be caught "
                        "until the next card)"
                    )
                )
            self.exposed = -1
            return [UnoCalled(seat)]
        if (
            left == 2
            and seat == self.current
            and (self.phase is _PLAY or self.phase is _DRAWN or self._stackable(seat))
        ):
            if self._armed == seat:
                raise errors.UnoNotNeeded(errors.N_("your UNO is already called"))
            self._armed = seat  # said just before laying the next-to-last card
            return [UnoCalled(seat)]
        penalty = self.rules.false_uno_penalty
        if not penalty:
            raise errors.UnoNotNeeded()
        events: list[Event] = []
        drawn = self._draw(seat, penalty, events)
        events.append(CardsDrawn(seat, drawn, DrawReason.FALSE_UNO))
        return events

    # --- the table's interventions (timeouts, players leaving) ------------------------------

    def force_pass(self, seat: int) -> list[Event]:
        """End an idle player's turn (turn timer): they draw one card and the turn moves on.

        Whatever the phase: a colour still to choose is the one they hold most (a variant's
        phases: ``VariantGame.force_pass``), a pending draw is taken, a drawn card is kept.
        Unlike ``Draw`` this works while they hold a playable card, and unlike ``Pass`` it
        works when the rules say the drawn card must be played.
        """
        if self.phase is _OVER:
            raise errors.HandOver()
        if seat != self.current:
            raise errors.NotYourTurn()
        events: list[Event] = []
        if self.phase is _CHOOSE:
            self._choose_color(seat, _CHOOSE_ACTS[self._most_held_color(seat)], events)
        if self._next_turn_window:
            self.exposed = -1  # like any action that begins their turn
        if self.phase is _PENDING:
            self._take_pending(seat, self.pending, events)
        else:
            if self.phase is _PLAY:
                events.append(CardsDrawn(seat, self._draw(seat, 1, events), DrawReason.DRAW))
            events.append(TurnPassed(seat))
            self._advance(1)
        return events

    def _most_held_color(self, seat: int) -> int:
        """The colour an idle player names (``force_pass``): the one they hold most."""
        held = [0, 0, 0, 0]
        for card in self.hand(seat):
            if card.color is not None:
                held[card.color] += 1
        return held.index(max(held))

    def remove_seat(self, seat: int) -> list[Event]:
        """Take ``seat`` out of the hand (they left the channel); play goes on without them.

        Their cards go under the draw pile and seats after theirs are renumbered one lower. If
        it was their turn, the next player's turn begins (a pending draw they faced lapses).
        Needs three or more players: with two, use :meth:`forfeit`.
        """
        if self.phase is _OVER:
            raise errors.HandOver()
        if not 0 <= seat < self.n:
            raise errors.NotAPlayer()
        if self.n <= 2:
            raise ValueError("with two players, the one who stays wins: use forfeit()")
        cards = self.hand(seat)
        was_turn = seat == self.current
        if was_turn:
            self.current = self._step(seat, 1) if self._out else (seat + self.direction) % self.n
            self.phase = _PLAY if self.phase is not _CHOOSE else _CHOOSE
            self.pending = 0
            self.drawn = None
        self.draw_pile[:0] = cards
        self._jump_by = -1
        del self._counts[seat], self._masks[seat], self._sizes[seat]
        self.n -= 1

        def renumber(s: int) -> int:
            return s - 1 if s > seat else (-1 if s == seat else s)

        self.current = renumber(self.current)
        self.dealer = renumber(self.dealer) % self.n
        self.exposed = renumber(self.exposed)
        self.wd4_offender = renumber(self.wd4_offender)
        self._armed = renumber(self._armed)
        events: list[Event] = [SeatRemoved(seat, len(cards))]
        out = self._out
        if out:
            self._out = (out & ((1 << seat) - 1)) | (out >> (seat + 1) << seat)
            active = self.active_seats()
            if len(active) == 1:  # No Mercy: the leaver was the last one standing beside them
                self._finish(active[0], None, events)
        return events

    def forfeit(self, seat: int) -> list[Event]:
        """End the hand with ``seat`` giving up: the other player of two wins it.

        Scored as if the winner had gone out: the loser's cards count as left in hand (the
        winner's own cards score nothing).
        """
        if self.phase is _OVER:
            raise errors.HandOver()
        if not 0 <= seat < self.n:
            raise errors.NotAPlayer()
        if self.n != 2:
            raise ValueError("forfeit ends a two-player hand: use remove_seat() with more")
        winner = 1 - seat
        self._counts[winner] = [0] * len(self._counts[winner])
        self._masks[winner] = 0
        self._sizes[winner] = 0
        events: list[Event] = []
        self._finish(winner, None, events)
        return events

    def penalize(self, seat: int, cards: int, reason: DrawReason) -> list[Event]:
        """Make ``seat`` draw ``cards`` as a penalty the table decided (e.g. an illegal play)."""
        if self.phase is _OVER:
            raise errors.HandOver()
        events: list[Event] = []
        drawn = self._draw(seat, cards, events)
        events.append(CardsDrawn(seat, drawn, reason))
        return events

    # --- mechanics -------------------------------------------------------------------------

    def _advance(self, steps: int) -> None:
        self.current = (self.current + self.direction * steps) % self.n
        self.phase = _PLAY
        self.drawn = None
        self._armed = -1

    def _draw(self, seat: int, count: int, events: list[Event]) -> tuple[Card, ...]:
        """Move up to ``count`` cards to ``seat``'s hand, reshuffling the discards when needed.

        Fewer come back only when every other card is in someone's hand.
        """
        if count <= 0:
            return ()
        pile = self.draw_pile
        if len(pile) >= count:
            got = pile[-count:]
            del pile[-count:]
            got.reverse()
        else:
            got = []
            for _ in range(count):
                if not pile:
                    discard = self.discard
                    if len(discard) < 2:
                        break
                    under = discard[:-1]
                    del discard[:-1]
                    shuffle(under, self.rng)
                    pile.extend(under)
                    events.append(Reshuffled(len(under)))
                got.append(pile.pop())
        self._give(seat, got)
        if seat == self.exposed:
            self.exposed = -1
        return tuple(got)

    def _give(self, seat: int, cards: list[Card]) -> None:
        counts = self._counts[seat]
        mask = self._masks[seat]
        for c in cards:
            counts[c.code] += 1
            mask |= c.bit
        self._masks[seat] = mask
        self._sizes[seat] += len(cards)

    def _finish(self, seat: int, card: Card | None, events: list[Event]) -> None:
        if card is not None and card.draw:
            victim = self.next_seat(1)
            total = card.draw + (self.pending if self.phase is _PENDING else 0)
            events.append(
                CardsDrawn(victim, self._draw(victim, total, events), DrawReason.PENALTY_CARD)
            )
        self.pending = 0
        self.phase = _OVER
        self.exposed = -1
        remaining = tuple(tuple(self.hand(s)) for s in range(self.n))
        points = tuple(sum(c.points for c in h) for h in remaining)
        scores, bonus = self._scores(seat, points)
        self.outcome = HandOutcome(seat, remaining, points, scores, bonus=bonus)
        events.append(HandEnded(self.outcome))

    def _scores(self, seat: int, points: tuple[int, ...]) -> tuple[tuple[int, ...], int]:
        """The hand's scores from each seat's points left in hand, ``seat`` having won, and
        the winner's bonus (teams and No Mercy's knock-outs score in ``unobot.engine.variants``)."""
        if self.rules.scoring is Scoring.WINNER_COLLECTS:
            won = sum(points) - points[seat]
            return tuple(won if s == seat else 0 for s in range(self.n)), 0
        return points, 0

    # --- what the variants add (``unobot.engine.variants``), answered for the classic game --

    def _swap(self, seat: int, action: Swap, events: list[Event]) -> None:
        raise errors.CannotSwap()

    def default_swap_target(self, seat: int) -> int:
        """Whom an idle 7 swaps with (Seven-O); -1: no swapping in these rules."""
        return -1

    def jump_card(self, seat: int) -> Card | None:
        """The card ``seat`` could jump in with now (Jump-In), or None: none in these rules."""
        return None

    def jump_refusal(self, seat: int, card: Card, whose: str) -> errors.UnoError:
        """Why ``seat``'s play of ``card`` out of turn is refused (Jump-In explains more)."""
        return errors.NotYourTurn()

    def _top_text(self) -> str:
        top = self.discard[-1]
        return f"{top} ({self.color})" if top.is_wild else str(top)

    def stack_text(self) -> str:
        """What may be stacked on the pending draw now, in the notation's terms: ``+2``,
        ``+4``, ``+6/+10`` (No Mercy after a Wild Draw Six), ``D4`` where only one of two
        kinds that draw the same is allowed; empty with nothing pending or no stacking.

        Whatever the hand: it names the kinds of card the stacking rule (``_stacks_on_top``)
        lets answer the card on top, so it agrees with the cards a hand marks as playable (a
        stacking card of the wrong colour aside, under ``stacking any``)."""
        if self.phase is not _PENDING or self.rules.stacking is Stacking.NONE:
            return ""
        kinds = _DRAW_KINDS[self.rules.deck]
        allowed = [c for c in kinds if self._stacks_on_top(c)]
        labels: list[str] = []
        for value in sorted({c.draw for c in allowed}):
            some = [c for c in allowed if c.draw == value]
            if len(some) == sum(1 for c in kinds if c.draw == value):
                labels.append(f"+{value}")
            else:  # No Mercy's deck under ``stacking same``: a D4 on a D4, not a WRD4
                labels.extend(c.text if c.is_wild else c.text[1:] for c in some)
        return "/".join(labels)

    def _stack_hint(self) -> str:
        """The refusal's hint (``errors.MustAnswerDraw``): a card's name where the classic
        deck has one, else :meth:`stack_text`."""
        mode = self.rules.stacking
        if mode is Stacking.NONE:
            return ""
        classic = self.rules.deck is Deck.CLASSIC
        if mode is Stacking.SAME and classic:
            return "WD4" if self.discard[-1].rank is _WD4 else "Draw Two"
        if mode is Stacking.HIGHER:
            return f"draw card of +{self.discard[-1].draw} or more"
        if classic:
            return "Draw Two or WD4"
        return self.stack_text()


_TURN_ACTIONS: Final[dict[type, Callable[[Game, int, Any, list[Event]], None]]] = {
    Play: Game._play,
    Draw: Game._draw_action,
    Pass: Game._pass,
    Challenge: Game._challenge,
    ChooseColor: Game._choose_color,
    Swap: Game._swap,
}
