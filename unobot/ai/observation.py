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

from unobot.engine import (
    Action,
    AfterDraw,
    CardPlayed,
    CardsDrawn,
    ChallengeResolved,
    ColorChosen,
    DrawReason,
    Event,
    Game,
    HandsRotated,
    HandsSwapped,
    HandStarted,
    HouseRules,
    NoPlayableCard,
    Phase,
    Reversed,
    SeatRemoved,
    Stacking,
    StartCardTurned,
    TurnPassed,
)
from unobot.engine.cards import Card, Color, Rank
from unobot.engine.events import JumpedIn

__all__ = [
    "EarlierChoice",
    "LastPlay",
    "Observation",
    "Observer",
    "PlayRecord",
    "Segment",
    "playable_mask",
]

_WILDS_MASK = (1 << 52) | (1 << 53)
_COLOR_MASKS = tuple(((1 << 13) - 1) << (13 * c) for c in range(4))
_RANK_MASKS = tuple(sum(1 << (13 * c + r) for c in range(4)) for r in range(13))
# Per card code (coloured cards): the cards of its colour worth more points.
_HIGHER = tuple(
    sum(1 << (13 * (code // 13) + r) for r in range(code % 13 + 1, 13)) for code in range(52)
)


def playable_mask(color: Color, top: Card) -> int:
    """Bitmask (by ``Card.code``) of the cards that could be laid on ``top`` with ``color`` in
    force: the colour, the top's rank, and both wilds."""
    mask = _COLOR_MASKS[color] | _WILDS_MASK
    if not top.is_wild and top.rank < 13:  # No Mercy ranks: no inference
        mask |= _RANK_MASKS[top.rank]
    return mask


Segment = tuple[int, int, int]
"""Part of a hidden hand: (cards, codes it certainly lacks, codes it most likely lacks), as
bitmasks by ``Card.code``. The first mask follows from the rules (a player who draws on their
turn held nothing playable; where the rules let a player draw instead of playing, taken as so
too: computer players never hold a card back and people seldom do, and a hand that can't be
dealt to fit the facts is dealt without them); the second adds what a player who keeps wilds
for when nothing else plays (``normal``, and most people) gives away by playing one."""


@dataclass(frozen=True, slots=True)
class PlayRecord:
    """A card laid on the pile this hand (public): who, what, the colour before and after."""

    seat: int
    card: Card
    color_before: Color
    color_after: Color


@dataclass(frozen=True, slots=True)
class LastPlay:
    """A seat's latest choice of a card from its hand, with what it chose from (all public): the
    colour in force and the card on top then, and how many cards the next player held. Kept only
    while the seat's hand hasn't changed since, so that its hand then was its hand now plus
    ``card``; a searching player checks sampled hands against the choice a known policy would
    have made."""

    card: Card
    color_before: Color
    top: Card
    next_count: int
    color_after: Color
    fewest: int = -1
    """Seven-O: the fewest cards another player held then (whom a 7 swaps with; -1: unknown)."""
    before_count: int = -1
    """Seven-O: the cards the previous player held then (what a 0 hands over; -1: unknown)."""


EarlierChoice = tuple[LastPlay, tuple[Card, ...], int, int]
"""A free choice a seat made before it last took cards: the choice, the cards it laid from its
hand since, how many of the cards it took since are still in its hand, and a bitmask (by
``Card.code``) of cards its hand certainly lacked when it later had to draw. Its hand at the
choice was its hand now plus the cards laid since, less that many cards nobody saw; a card it
holds now that is in the mask must be one of those."""

EARLIER_KEPT = 6
"""Earlier choices kept per seat (the latest): older ones say little once several draws mixed
new cards into the hand, and every one costs a check per sampled hand."""


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
    hidden: tuple[tuple[Segment, ...], ...]
    """Per seat, their hand split into segments (:data:`Segment`; empty for this seat): what the
    public actions say about cards nobody has seen, for sampling hands that fit."""
    last_plays: tuple[LastPlay | None, ...]
    """Per seat, :class:`LastPlay` while its hand is unchanged since (None otherwise, and for
    this seat)."""
    runs: tuple[tuple[tuple[Card, LastPlay | None], ...], ...]
    """Per seat (empty for this seat), every card it laid since it last took a card, oldest
    first, each with its :class:`LastPlay` when it was a free choice from the hand (None for a
    drawn card played or an answer to a draw card). Its hand at each of those plays was its hand
    now plus the cards of that play and the later ones: a searching player checks sampled hands
    against every one of those choices, not just the latest."""
    earlier: tuple[tuple[EarlierChoice, ...], ...]
    """Per seat (empty for this seat), its latest free choices from before it last took cards
    (:data:`EarlierChoice`), oldest first: weaker evidence than ``runs``, because some cards of
    the hand now were not there then, and a searching player doesn't know which."""
    decks: int
    rules: HouseRules

    @property
    def top(self) -> Card:
        return self.discard[-1]

    @property
    def my_turn(self) -> bool:
        return self.current == self.seat

    def players_left(self) -> int:
        """Players still in the hand: No Mercy's mercy rule puts some out (they hold no cards;
        anyone else with none has won, and the hand is over)."""
        if not self.rules.mercy_limit:
            return self.players
        return sum(1 for n in self.counts if n)

    def next_seat(self, steps: int = 1) -> int:
        """The seat ``steps`` turns on; No Mercy: passing over the seats the mercy rule put
        out (they hold no cards; anyone else with none has won, and the hand is over)."""
        if not self.rules.mercy_limit:
            return (self.current + self.direction * steps) % self.players
        seat = self.current
        counts = self.counts
        for _ in range(self.players * steps):
            seat = (seat + self.direction) % self.players
            if counts[seat]:
                steps -= 1
                if not steps:
                    break
        return seat


@dataclass(slots=True)
class _Earlier:
    """An :data:`EarlierChoice` as the observer keeps it up to date."""

    last: LastPlay
    since: list[Card]
    taken: int = 0
    lacks: int = 0


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
        self.top: Card | None = None
        # Per seat, [cards, certain mask, likely mask] segments (see Segment).
        self.segments: list[list[list[int]]] = [[] for _ in range(players)]
        # (seat, what was playable) after a forced draw of one card, until that turn ends.
        self.drew: tuple[int, int] | None = None
        # The seat that drew this turn (its play, if any, may be forced to the drawn card).
        self.drawer = -1
        self.direction = 1
        self.last_plays: list[LastPlay | None] = [None] * players
        self.runs: list[list[tuple[Card, LastPlay | None]]] = [[] for _ in range(players)]
        # Per seat, its free choices from before its last draw (see EarlierChoice).
        self.earlier: list[list[_Earlier]] = [[] for _ in range(players)]
        # Jump-In: the seat whose out-of-turn play the next ``CardPlayed`` is (-1: none).
        self.jumper = -1
        # Jump-In: (seat, card bit) of the card on top that others could jump on until the next
        # move in turn (0: none open, or none this observer reads anything from).
        self.window: tuple[int, int] = (-1, 0)
        # This seat's own cards as of its last observe, kept up to date by its plays and draws
        # (None: unknown): with Seven-O the hand it gives away is then known exactly.
        self.mine: list[Card] | None = None

    def see(self, events: Iterable[Event]) -> None:
        """Take in what happened; only the public part of each event is kept."""
        for event in events:
            kind = type(event)
            if kind is CardPlayed:
                jump = self.jumper >= 0
                if self.window[1] and not jump:
                    self._not_jumped(event.seat)  # type: ignore[union-attr]
                mine = self.mine if event.seat == self.seat else None  # type: ignore[union-attr]
                if mine is not None and event.card in mine:  # type: ignore[union-attr]
                    mine.remove(event.card)  # type: ignore[union-attr]
                before = self.color if self.color is not None else event.color  # type: ignore[union-attr]
                self.history.append(PlayRecord(event.seat, event.card, before, event.color))  # type: ignore[union-attr]
                self._played(event.seat, event.card, before, event.cards_left)  # type: ignore[union-attr]
                self.color = event.color  # type: ignore[union-attr]
                self.top = event.card  # type: ignore[union-attr]
                # (a card laid by a jump can't be jumped on)
                self.window = (-1, 0) if jump else self._opens(event.seat, event.card)  # type: ignore[union-attr]
            elif kind is CardsDrawn:
                seat = event.seat  # type: ignore[union-attr]
                if self.window[1] and event.reason is DrawReason.DRAW:  # type: ignore[union-attr]
                    self._not_jumped(seat)
                if seat == self.seat and self.mine is not None:
                    self.mine.extend(event.cards)  # type: ignore[union-attr]
                voids = self.voids[seat]
                voids.clear()
                # Drawing in turn with no choice means no card of the colour in force was held
                # (the drawn card may be one, but then it is usually played at once). Where the
                # rules let a player draw instead of playing (``voluntary_draw``) it is taken
                # the same way: treating those draws as telling nothing made ``hard`` weaker
                # (40 playouts a move against three ``normal``, who never hold a card back:
                # 19.4% of 2,000 hands won, against 21.1% with this and 21.9% before the rule).
                forced = event.reason is DrawReason.DRAW and self.color is not None  # type: ignore[union-attr]
                if forced:
                    voids.add(self.color)  # type: ignore[arg-type]
                self._drew(seat, len(event.cards), forced)  # type: ignore[union-attr]
            elif kind is Reversed:
                self.direction = event.direction  # type: ignore[union-attr]
            elif kind is TurnPassed:
                self._kept(event.seat)  # type: ignore[union-attr]
            elif kind is ChallengeResolved:
                if not event.guilty and self.history:  # type: ignore[union-attr]
                    # Innocent: the offender held no card of the colour before the WD4.
                    lacked = _COLOR_MASKS[self.history[-1].color_before]
                    for segment in self.segments[event.offender]:  # type: ignore[union-attr]
                        segment[1] |= lacked
                        segment[2] |= lacked
            elif kind is ColorChosen:
                self.color = event.color  # type: ignore[union-attr]
            elif kind is StartCardTurned:
                card = event.card  # type: ignore[union-attr]
                self.color = card.color
                self.top = card
            elif kind is HandStarted:
                self.mine = None
                self.window = (-1, 0)
                self.history.clear()
                size = event.hand_size  # type: ignore[union-attr]
                self.segments = [[[size, 0, 0]] for _ in range(self.players)]
                self.top = None
                self.direction = 1
                self.last_plays = [None] * self.players
                self.runs = [[] for _ in range(self.players)]
                self.earlier = [[] for _ in range(self.players)]
            elif kind is JumpedIn:
                self.jumper = event.seat  # type: ignore[union-attr]
                self.window = (-1, 0)
            elif kind is HandsSwapped:
                self._swapped(event.seat, event.target)  # type: ignore[union-attr]
            elif kind is HandsRotated:
                self._rotated(event.direction)  # type: ignore[union-attr]
            elif kind is SeatRemoved:
                gone = event.seat  # type: ignore[union-attr]
                self.window = (-1, 0)
                del self.voids[gone]
                del self.segments[gone]
                del self.last_plays[gone]
                del self.runs[gone]
                del self.earlier[gone]
                self.players -= 1
                if gone < self.seat:
                    self.seat -= 1

    # --- Jump-In: who didn't jump ---------------------------------------------------------------

    def _opens(self, seat: int, card: Card) -> tuple[int, int]:
        """The jump window ``seat``'s play of ``card`` opens, as far as this observer reads
        anything from it: number cards, Skips and Reverses (a Draw Two may only be jumped where
        it stacks; a 7 or 0 of Seven-O is kept by a player it would hand a bigger hand)."""
        if not self.rules.jump_in or card.is_wild or card.rank > Rank.REVERSE:
            return (-1, 0)
        if self.rules.seven_o and card.rank in (Rank.ZERO, Rank.SEVEN):
            return (-1, 0)
        return (seat, card.bit)

    def _not_jumped(self, mover: int) -> None:
        """The window closed with ``mover``'s move in turn and nobody jumped: every other seat
        but the one that laid the card most likely doesn't hold it (``normal`` jumps whenever
        it can; a person may be slow or miss it, so it is a likely fact, not a certain one)."""
        laid, bit = self.window
        self.window = (-1, 0)
        for seat, segments in enumerate(self.segments):
            if seat in (laid, mover, self.seat):
                continue
            for segment in segments:
                segment[2] |= bit

    # --- Seven-O: hands change owners --------------------------------------------------------

    def _per_seat(self) -> list[list]:  # type: ignore[type-arg]
        """The per-seat facts that describe a hand (and so move with it)."""
        return [self.voids, self.segments, self.last_plays, self.runs, self.earlier]

    def _swapped(self, a: int, b: int) -> None:
        """``a`` and ``b`` exchanged hands: what was known of each hand follows it; the one
        who gave their hand away knows exactly what the other holds now."""
        given = self.mine
        for facts in self._per_seat():
            facts[a], facts[b] = facts[b], facts[a]
        self.drew = None
        self.drawer = -1
        self.mine = None
        if given is not None and self.seat in (a, b):
            self.segments[b if self.seat == a else a] = _known(given)

    def _rotated(self, direction: int) -> None:
        """Every hand moved on one seat in ``direction``; the next one holds this seat's."""
        n = self.players
        given = self.mine
        for facts in self._per_seat():
            facts[:] = [facts[(s - direction) % n] for s in range(n)]
        self.drew = None
        self.drawer = -1
        self.mine = None
        if given is not None:
            self.segments[(self.seat + direction) % n] = _known(given)

    def _drew(self, seat: int, cards: int, forced: bool) -> None:
        """``seat`` took ``cards`` face down; ``forced``: in turn, with nothing playable."""
        segments = self.segments[seat]
        self.drew = None
        self.last_plays[seat] = None
        earlier = self.earlier[seat]
        run = self.runs[seat]
        for k, (_, last) in enumerate(run):
            if last is not None:
                earlier.append(_Earlier(last, [card for card, _ in run[k + 1 :]]))
        del earlier[:-EARLIER_KEPT]
        for choice in earlier:
            choice.taken += cards
        self.runs[seat] = []
        self.drawer = seat if forced else self.drawer
        if forced and self.top is not None and self.color is not None:
            lacked = playable_mask(self.color, self.top)
            for segment in segments:
                segment[1] |= lacked
                segment[2] |= lacked
            for choice in earlier:  # every card held since the choice was held now, too
                choice.lacks |= lacked
            if self.rules.no_playable is NoPlayableCard.DRAW_UNTIL_PLAYABLE and cards > 1:
                # Every card but the last was drawn because it couldn't be played either.
                segments.append([cards - 1, lacked, lacked])
                cards = 1
            elif cards == 1:
                self.drew = (seat, lacked)
        if cards > 0:
            segments.append([cards, 0, 0])

    def _kept(self, seat: int) -> None:
        """``seat``'s turn ended without a play: a card it just drew (forced) and kept was not
        playable, unless the rules let it keep a playable one: then it most likely was a wild
        kept for later (or not playable); a player who holds a playable card plays it."""
        drew, self.drew = self.drew, None
        self.drawer = -1
        if drew is None or drew[0] != seat:
            return
        segments = self.segments[seat]
        if not segments or segments[-1][0] != 1:
            return
        lacked = drew[1]
        drawn = segments[-1]
        if self.rules.after_draw is AfterDraw.DRAWN_CARD_MUST:
            drawn[1] |= lacked
        if self.rules.after_draw is not AfterDraw.ANY_CARD:
            drawn[2] |= lacked & ~_WILDS_MASK
        drawn[2] |= drawn[1]

    def _played(self, seat: int, card: Card, color_before: Color, left: int) -> None:
        """``seat`` laid ``card``: take it from the segment it must have come from (segments
        that could each have held it are merged, keeping only what all of them lacked)."""
        self.drew = None
        from_hand = self.drawer != seat
        self.drawer = -1
        # Jump-In: a jump is no choice among the hand's cards (only the card on top may jump),
        # so it says nothing of the others.
        jumped, self.jumper = self.jumper == seat, -1
        top = self.top
        self.last_plays[seat] = None
        if (
            from_hand
            and not jumped
            and top is not None
            and not (card.draw and top.draw and self.rules.stacking is not Stacking.NONE)
        ):  # a free choice from the hand (not the drawn card, not an answer to a draw card)
            after = self.history[-1].color_after if self.history else color_before
            ahead = self.segments[(seat + self.direction) % len(self.segments)]
            fewest = before_count = -1
            if self.rules.seven_o:  # what ``normal`` scores a 7 or 0 by (``seven_o_value``)
                sizes = [sum(s[0] for s in segments) for segments in self.segments]
                others = [k for i, k in enumerate(sizes) if i != seat and k]
                fewest = min(others) if others else -1
                before_count = sizes[(seat - self.direction) % len(sizes)]
            self.last_plays[seat] = LastPlay(
                card, color_before, top, sum(s[0] for s in ahead), after, fewest, before_count
            )
        self.runs[seat].append((card, self.last_plays[seat]))
        for choice in self.earlier[seat]:
            if from_hand:
                choice.since.append(card)
            elif choice.taken > 0:  # the card it just took went straight onto the pile
                choice.taken -= 1
        segments = self.segments[seat]
        bit = card.bit
        # A part known to be exactly this card (Seven-O: a hand given away) surely gave it,
        # whatever a habit guessed since.
        able = [s for s in segments if s[1] == _ALL_CARDS ^ bit][:1]
        if not able:
            # Every part that could certainly have held it is merged, not only the ones a habit
            # points at: the card may have come from a part a habit ruled out, and the certain
            # facts of the parts left must stay true (a hand that lacked greens, then drew G8
            # and played R8: the R8 may be from the old part, so "no greens" can't stay).
            able = [s for s in segments if not s[1] & bit]
            if not any(not s[2] & bit for s in able):  # a habit guessed wrong
                for segment in able:
                    segment[2] = segment[1]
        if not able:  # the facts don't fit (missed events?): forget them
            able = segments[:]
            for segment in able:
                segment[1] = segment[2] = 0
        if not able:
            return
        merged = able[0]
        for other in able[1:]:
            merged[0] += other[0]
            merged[1] &= other[1]
            merged[2] &= other[2]
            segments.remove(other)
        merged[0] -= 1
        if merged[0] <= 0:
            segments.remove(merged)
        if card.is_wild and left >= 2 and self.top is not None:
            # Someone who keeps wilds for last plays one (with cards to spare) only when nothing
            # else would go: no card of the colour, nor (a plain Wild) of the top's rank.
            lacked = _COLOR_MASKS[color_before]
            if card.rank is Rank.WILD and not self.top.is_wild and self.top.rank < 13:
                lacked |= _RANK_MASKS[self.top.rank]
            for segment in segments:
                segment[2] |= lacked
        elif (
            from_hand
            and not jumped
            and card.rank <= 9
            and card.color is color_before
            and not (self.rules.seven_o and card.rank in (Rank.ZERO, Rank.SEVEN))
        ):
            # Following the colour with a number card: one who sheds high cards first (normal)
            # held no higher card of that colour (an action card counts 20). Seven-O: a 7 or 0
            # is played (or kept) for the hand it brings, whatever its points.
            lacked = _HIGHER[card.code]
            if self.rules.seven_o:
                lacked &= ~(1 << (13 * int(card.color) + 7))
            for segment in segments:
                segment[2] |= lacked

    def _hidden(self, game: Game) -> tuple[tuple[Segment, ...], ...]:
        """The segments, made to add up to the public counts (an observer that joined late
        or missed a draw knows nothing about the difference)."""
        out: list[tuple[Segment, ...]] = []
        for seat in range(game.n):
            if seat == self.seat or seat >= len(self.segments):
                out.append(())
                continue
            segments = self.segments[seat]
            count = game.hand_size(seat)
            total = sum(s[0] for s in segments)
            if total < count:
                segments.append([count - total, 0, 0])
            elif total > count:
                certain = likely = -1
                for segment in segments:
                    certain &= segment[1]
                    likely &= segment[2]
                segments[:] = [[count, max(certain, 0), max(likely, 0)]] if count else []
            out.append(tuple((s[0], s[1], s[2]) for s in segments if s[0] > 0))
        return tuple(out)

    def _size(self, seat: int) -> int:
        return sum(s[0] for s in self.segments[seat]) if seat < len(self.segments) else -1

    def observe(self, game: Game) -> Observation:
        """This seat's view of ``game`` now (reads only public attributes and its own hand)."""
        seat = self.seat
        self.mine = game.hand(seat)
        # A seat's plays and choices tell about its hand only while the observer's count of its
        # cards agrees with the game's (not after a missed event): checked before ``_hidden``
        # makes the segments add up again.
        kept = [s != seat and game.hand_size(s) == self._size(s) for s in range(game.n)]
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
            hidden=self._hidden(game),
            runs=tuple(tuple(run) if kept[s] else () for s, run in enumerate(self.runs)),
            last_plays=tuple(p if kept[s] else None for s, p in enumerate(self.last_plays)),
            earlier=tuple(
                tuple((c.last, tuple(c.since), c.taken, c.lacks) for c in choices)
                if kept[s]
                else ()
                for s, choices in enumerate(self.earlier)
            ),
            decks=self.decks,
            rules=self.rules,
        )


_ALL_CARDS = (1 << 54) - 1
"""Every card code's bit (54 distinct cards)."""


def _known(cards: list[Card]) -> list[list[int]]:
    """Segments that pin a hand to exactly ``cards``: per distinct card, a part of that many
    cards lacking every other card."""
    counts: dict[Card, int] = {}
    for card in cards:
        counts[card] = counts.get(card, 0) + 1
    out = []
    for card, k in counts.items():
        lacks = _ALL_CARDS & ~card.bit
        out.append([k, lacks, lacks])
    return out
