"""The variants' rules: Seven-O, Jump-In, No Mercy (its deck, the mercy rule, the Roulette, Skip
Everyone, Discard All, stacking by the number drawn) and teams, each kept off the classic game.

:class:`~unobot.engine.game.Game` plays the classic rules and runs no variant code on its hot
path (``legal_actions``, ``apply``). Like a python-chess variant board, a variant is a subclass
that overrides the hooks it changes; presets stay :class:`~unobot.engine.rules.HouseRules` data,
and :func:`game_class` picks the class from the rules when a hand is dealt or set up
(``Game.deal``, ``Game.from_position``; ``Game.copy`` keeps the class):

- :class:`TeamsGame`: classic play, team scoring (``_scores``) only;
- :class:`VariantGame`: the options that change play. They combine (``house`` is Seven-O +
  Jump-In + stacking, ``.unorules set seven_o on`` works on any preset, No Mercy plays Seven-O),
  and mypyc compiles no mixins, so one class holds them, each in its own section below, and its
  general paths ask the flags (``_seven_o``, ``rules.jump_in``, ``_nm``, ``_mercy``, ``_out``).

A new variant (Flip) is a new subclass here and one line in :func:`game_class`; the classic
``Game`` and the other variants stay as they are. Compiled with the engine (setup.py): a
subclass of a compiled class must be compiled in the same build.
"""

# translations: domain("commands")  (the message ids of its refusals, marked N_)

from __future__ import annotations

from collections.abc import Callable
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
from unobot.engine.cards import CARDS, Card, Color
from unobot.engine.events import (
    CardPlayed,
    CardsDiscarded,
    CardsDrawn,
    ColorChosen,
    DrawPending,
    DrawReason,
    Eliminated,
    Event,
    EveryoneSkipped,
    HandsRotated,
    HandsSwapped,
    JumpedIn,
    Reversed,
    RoulettePending,
    Skipped,
    SwapPending,
    TurnPassed,
    UnoCalled,
)
from unobot.engine.game import (
    _CALL,
    _CATCH,
    _CHOOSE,
    _CHOOSE_ACTS,
    _COLOR_MASK,
    _COLOR_MASK_ALL,
    _DISCARD_ALL,
    _DRAW,
    _DRAWN,
    _GAME_CLASS,
    _OVER,
    _PASS,
    _PENDING,
    _PLAY,
    _PLAY_ACT,
    _PLAY_UNO,
    _REVERSE,
    _ROUL,
    _ROULETTE,
    _ROULETTE_ACTS,
    _ROULETTE_UNO,
    _SKIP,
    _SKIP_ALL,
    _SWAP,
    _SWAP_ACTS,
    _WCR,
    _WD4,
    _WD4_BIT,
    _WILD,
    _WILD_ACTS,
    _WILD_UNO,
    _WRD4,
    Game,
    _key,
)
from unobot.engine.rules import (
    AfterDraw,
    Deck,
    HouseRules,
    NoPlayableCard,
    Scoring,
    team_scores,
)

__all__ = ["TeamsGame", "VariantGame", "game_class"]


def game_class(rules: HouseRules) -> type[Game]:
    """The class that plays ``rules``: the classic ``Game`` unless a variant's option is on."""
    if rules.seven_o or rules.jump_in or rules.deck is Deck.NO_MERCY or rules.mercy_limit:
        return VariantGame
    if rules.teams:
        return TeamsGame
    return Game


_GAME_CLASS.append(game_class)


class TeamsGame(Game):
    """Teams (pairs or two teams): classic play; a hand's points go to the winner's team."""

    __slots__ = ()

    def _blank(self) -> Game:
        return TeamsGame(self.n, self.rules, self.rng, in_play=True)

    def _scores(self, seat: int, points: tuple[int, ...]) -> tuple[tuple[int, ...], int]:
        rules = self.rules
        return team_scores(seat, points, rules.scoring, rules.team_count(self.n)), 0


class VariantGame(Game):
    """Seven-O, Jump-In and No Mercy (and teams with them), in any combination the rules allow.

    It overrides the hot paths (``legal_actions``, ``apply`` and the turn actions behind it),
    which then ask the variant flags; everything else is the classic ``Game``'s."""

    __slots__ = ()

    def _blank(self) -> Game:
        return VariantGame(self.n, self.rules, self.rng, in_play=True)

    # --- the general paths, asking the flags --------------------------------------------------

    def legal_actions(self, seat: int | None = None) -> tuple[Action, ...]:
        if seat is None:
            seat = self.current
        if self._nm:
            return self._nm_legal(seat)
        phase = self.phase
        if phase is _OVER:
            return ()
        if seat != self.current:
            if self._jump_by >= 0 and 0 <= seat < self.n:
                return self._jump_actions(seat)
        elif phase is _SWAP:
            out: list[Action] = [_SWAP_ACTS[t] for t in range(self.n) if t != seat]
            exposed = self.exposed
            if exposed >= 0 and (exposed != seat or self._late_call):
                out.append(_CATCH[exposed] if exposed != seat else _CALL)
            return tuple(out)
        return super().legal_actions(seat)

    def apply(self, seat: int, action: Action) -> list[Event]:
        # The classic fast path may take a play no variant acts on (not in ``_slow``: the cards
        # whose play moves hands, opens a jump window, or may put a seat out of the hand); it
        # hands anything it doesn't finish to ``_general``, this class's.
        if type(action) is Play and not action.card.bit & self._slow:  # type: ignore[union-attr]
            return super().apply(seat, action)
        return self._general(seat, action)

    def _general(self, seat: int, action: Action) -> list[Event]:
        if self.phase is _OVER:
            raise errors.HandOver()
        if not 0 <= seat < self.n:
            raise errors.NotAPlayer()
        if self._out >> seat & 1:  # No Mercy: out of the hand, not even an UNO call or catch
            raise errors.OutOfHand()
        kind = type(action)
        handler = _VARIANT_ACTIONS.get(kind)
        if handler is None:
            if kind is Catch:
                side = self._catch(seat, action.target)  # type: ignore[union-attr]
            elif kind is CallUno:
                side = self._call_uno(seat)
            else:
                raise TypeError(f"not an action: {action!r}")
            if self._mercy:
                self._mercy_check(side)
            return side
        if seat != self.current:
            if kind is Play and self._jump_by >= 0:
                return self._jump_in(seat, action)  # type: ignore[arg-type]
            raise errors.NotYourTurn()
        phase = self.phase
        if phase is _SWAP and kind is not Swap:
            raise errors.MustSwap()
        if phase is _ROUL and kind is not ChooseColor:
            raise errors.MustNameRouletteColor()
        events: list[Event] = []
        handler(self, seat, action, events)
        if self.rules.jump_in:
            self._jump_window(seat, action)
        if self._mercy:
            self._mercy_check(events)
        return events

    def _choose_color(self, seat: int, action: ChooseColor, events: list[Event]) -> None:
        if self.phase is _ROUL:
            self._roulette(seat, action.color, events)
            return
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
            if card is _WCR and not self._legacy:
                if chosen is not None:
                    raise errors.RouletteColorNotYours()
            elif chosen is None:
                raise errors.ColorRequired(card)
        elif chosen is not None:
            raise errors.ColorNotNeeded(card)
        stack_free = False
        if phase is _PENDING:
            if not card.draw or not self._stacks_on_top(card):
                raise errors.MustAnswerDraw(self.pending, self._stack_hint())
            stack_free = self._higher  # No Mercy: any colour, by the number drawn
        elif phase is _DRAWN and card is not self.drawn:
            if self._must_drawn:
                raise errors.MustPlayDrawnCard(self.drawn)
            if self._after is not AfterDraw.ANY_CARD:
                raise errors.OnlyDrawnCard(self.drawn)
        if not stack_free and not self._table[self._key] & card.bit:
            raise errors.CardNotPlayable(card, self._top_text())
        color = self.color
        rank = card.rank
        guilty = rank is _WD4 and mask & _COLOR_MASK[color] != 0
        if guilty and not self._bluff:
            raise errors.WildDrawFourNotAllowed(color)
        left = self._sizes[seat] - 1
        extra = 0
        if card.rank is _DISCARD_ALL:
            extra = self._discard_all_count(seat, card)
            left -= extra
        manual = self._manual
        false_uno = action.uno and left > 1 and manual
        rules = self.rules
        if false_uno and not rules.false_uno_penalty:
            raise errors.UnoNotNeeded()
        if action.target >= 0:
            self._check_target(seat, card, action.target)

        # Validated: from here on the state changes.
        self.exposed = -1  # any play closes the catch window (both window rules)
        self._sizes[seat] = left
        counts = self._counts[seat]
        held = counts[card.code] - 1
        counts[card.code] = held
        if not held:
            self._masks[seat] = mask ^ card.bit
        discarded: list[Card] = []
        if extra:
            discarded = self._take_color(seat, card.color)  # type: ignore[arg-type]
        self.discard.append(card)
        if chosen is not None:
            color = chosen
        elif card.color is not None:
            color = card.color
        # else the Roulette: the colour in force stays until the next player names one
        self.color = color
        self._key = color * 32 + rank
        events.append(CardPlayed(seat, card, color, left))
        if extra:
            events.append(CardsDiscarded(seat, tuple(discarded), left))
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
            if self._nm and not self._legacy:
                # No Mercy: "When a player plays their final card, they win": at once, the
                # card's draw (and any total stacked before it) not taken.
                self._finish(seat, None, events)
                return
            if rank is _WRD4:
                self.direction = -self.direction
            self._finish(seat, card, events)
            return
        if false_uno:
            drawn = self._draw(seat, rules.false_uno_penalty, events)
            events.append(CardsDrawn(seat, drawn, DrawReason.FALSE_UNO))
        if self._seven_o and (rank == 7 or rank == 0):
            self._seven_o_play(seat, rank, action.target, events)
            return
        if rank <= 9 or rank is _WILD:
            if self._out:
                self.current = self._step(self.current, 1)
            else:
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
            if self.n == 2 or (self._out and self._two_left()):
                events.append(Skipped(self.next_seat(1)))
                self._advance(2)
            else:
                self._advance(1)
        elif rank > 14:
            self._no_mercy_card(seat, card, events)
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
        playable_mask = self._table[self._key]
        if not self._voluntary and self._masks[seat] & playable_mask:
            raise errors.DrawNotAllowed()
        if self._next_turn_window:
            self.exposed = -1
        mode = self._mode
        playable = None
        if mode is NoPlayableCard.DRAW_UNTIL_PLAYABLE:
            got: list[Card] = []
            limit = self._mercy
            while not limit or self._sizes[seat] < limit:
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
            self.current = self._step(seat, 1) if self._out else (seat + self.direction) % self.n
            self._armed = -1
        else:
            self.phase = _DRAWN
            # With "any card" the turn goes on when anything in the hand is playable; ``drawn``
            # names the drawn card only when it is itself one that may be played.
            self.drawn = playable if self.is_playable(playable, seat) else None

    def force_pass(self, seat: int) -> list[Event]:
        """``Game.force_pass`` with the variants' phases: a 7 waiting for its swap swaps with
        ``default_swap_target``; No Mercy's Roulette is named (the colour they hold most) and
        turned up, which ends the turn; then the mercy rule."""
        if self.phase is _OVER:
            raise errors.HandOver()
        if seat != self.current:
            raise errors.NotYourTurn()
        events: list[Event] = []
        self._jump_by = -1
        if self.phase is _SWAP:
            # Seven-O: an idle player's 7 swaps with the default target; the play is done.
            self._swap(seat, _SWAP_ACTS[self.default_swap_target(seat)], events)
            if self._mercy:
                self._mercy_check(events)
            return events
        if self.phase is _CHOOSE or self.phase is _ROUL:
            # The colour they hold most (No Mercy's Roulette: then turned up, and the turn is
            # over: no card drawn on top of it).
            held = [0, 0, 0, 0]
            for card in self.hand(seat):
                if card.color is not None:
                    held[card.color] += 1
            roulette = self.phase is _ROUL
            self._choose_color(seat, _CHOOSE_ACTS[held.index(max(held))], events)
            if roulette:
                if self._mercy:
                    self._mercy_check(events)
                return events
        if self._next_turn_window:
            self.exposed = -1  # like any action that begins their turn
        if self.phase is _PENDING:
            self._take_pending(seat, self.pending, events)
        else:
            if self.phase is _PLAY:
                events.append(CardsDrawn(seat, self._draw(seat, 1, events), DrawReason.DRAW))
            events.append(TurnPassed(seat))
            self._advance(1)
        if self._mercy:
            self._mercy_check(events)
        return events

    def penalize(self, seat: int, cards: int, reason: DrawReason) -> list[Event]:
        events = super().penalize(seat, cards, reason)
        if self._mercy:
            self._mercy_check(events)
        return events

    def _advance(self, steps: int) -> None:
        if self._out:
            self.current = self._step(self.current, steps)
        else:
            self.current = (self.current + self.direction * steps) % self.n
        self.phase = _PLAY
        self.drawn = None
        self._armed = -1

    def next_seat(self, steps: int = 1) -> int:
        if self._out:
            return self._step(self.current, steps)
        return (self.current + self.direction * steps) % self.n

    def _scores(self, seat: int, points: tuple[int, ...]) -> tuple[tuple[int, ...], int]:
        rules = self.rules
        if rules.teams:
            return team_scores(seat, points, rules.scoring, rules.team_count(self.n)), 0
        if rules.scoring is Scoring.WINNER_COLLECTS:
            # The winner's own points are 0 when they went out; a No Mercy winner left standing
            # by the mercy rule may still hold cards, which are not theirs to collect. "250
            # Points for each player knocked out of the game during the hand (ignore the cards
            # in their hand at the time they were knocked out)": their hands are empty.
            bonus = rules.mercy_bonus * self._knocked
            won = sum(points) - points[seat] + bonus
            return tuple(won if s == seat else 0 for s in range(self.n)), bonus
        return points, 0

    # --- Seven-O ------------------------------------------------------------------------------
    # The swap and rotation mechanics serve any deck whose 7s and 0s move hands (No Mercy).

    def _check_target(self, seat: int, card: Card, target: int) -> None:
        if not self._seven_o or card.rank != 7:
            raise errors.CannotSwap(errors.N_("only a 7 swaps hands (with Seven-O)"))
        if not 0 <= target < self.n or target == seat or self._out >> target & 1:
            raise errors.CannotSwap(errors.N_("swap with another player of this hand"))

    def _seven_o_play(self, seat: int, rank: int, target: int, events: list[Event]) -> None:
        """After a 7 or 0 that was not the player's last card (that one just goes out)."""
        if rank == 7:
            if target < 0:
                self.phase = _SWAP  # the turn stays with them until they name a target
                self.drawn = None
                self._armed = -1
                events.append(SwapPending(seat))
                return
            self.swap_hands(seat, target, events)
        else:
            self.rotate_hands(self.direction, events)
        self.current = (seat + self.direction) % self.n if not self._out else self._step(seat, 1)
        self.phase = _PLAY
        self.drawn = None
        self._armed = -1

    def _swap(self, seat: int, action: Swap, events: list[Event]) -> None:
        if self.phase is not _SWAP:
            raise errors.CannotSwap()
        target = action.target
        if not 0 <= target < self.n or target == seat or self._out >> target & 1:
            raise errors.CannotSwap(errors.N_("swap with another player of this hand"))
        self.swap_hands(seat, target, events)
        self._advance(1)

    def swap_hands(self, a: int, b: int, events: list[Event]) -> None:
        """``a`` and ``b`` exchange hands. UNO state stays with the players, not the cards:
        nobody can be caught afterwards and an earlier call is spent (docs/rules.md)."""
        counts, sizes, masks = self._counts, self._sizes, self._masks
        counts[a], counts[b] = counts[b], counts[a]
        sizes[a], sizes[b] = sizes[b], sizes[a]
        masks[a], masks[b] = masks[b], masks[a]
        self.exposed = -1
        self._armed = -1
        events.append(HandsSwapped(a, b, self._sizes[a], self._sizes[b]))

    def rotate_hands(self, direction: int, events: list[Event]) -> None:
        """Every hand moves to the next seat in ``direction`` (seat s gets s-direction's)."""
        n = self.n
        if self._out:  # No Mercy: the hands go round the seats still in the hand
            active = self.active_seats()
            order = list(range(n))
            for i, s in enumerate(active):
                order[s] = active[(i - direction) % len(active)]
        else:
            order = [(s - direction) % n for s in range(n)]
        self._counts = [self._counts[s] for s in order]
        self._sizes = [self._sizes[s] for s in order]
        self._masks = [self._masks[s] for s in order]
        self.exposed = -1
        self._armed = -1
        events.append(HandsRotated(direction, tuple(self._sizes)))

    def default_swap_target(self, seat: int) -> int:
        """Whom an idle 7 swaps with: the player holding fewest cards, the first of them in
        the direction of play on a tie (what a player out to go out would choose)."""
        best = -1
        for step in range(1, self.n):
            other = (seat + self.direction * step) % self.n
            if self._out >> other & 1:
                continue
            if best < 0 or self._sizes[other] < self._sizes[best]:
                best = other
        return best

    # --- No Mercy ----------------------------------------------------------------------------

    def _nm_legal(self, seat: int) -> tuple[Action, ...]:
        """``legal_actions`` for a No Mercy game (its 70 distinct cards don't fit the classic
        cache keys, and eliminated seats can't be swapped with)."""
        phase = self.phase
        if phase is _OVER or not 0 <= seat < self.n or self._out >> seat & 1:
            return ()
        exposed = self.exposed
        if seat != self.current:
            if exposed >= 0:
                if exposed != seat:
                    return (_CATCH[exposed],)
                return (_CALL,) if self._late_call else ()
            return ()
        out: list[Action] = []
        manual = self._manual
        size = self._sizes[seat]
        call = manual and size == 2 and self._armed != seat
        if phase is _SWAP:
            gone = self._out
            out.extend(_SWAP_ACTS[t] for t in range(self.n) if t != seat and not gone >> t & 1)
        elif phase is _CHOOSE or phase is _ROUL:
            out.extend(_CHOOSE_ACTS)
        else:
            mask = self._masks[seat]
            if phase is _PLAY:
                cards = mask & self._table[self._key]
                if (
                    cards
                    and self._bluff is False
                    and cards & _WD4_BIT
                    and (mask & _COLOR_MASK_ALL[self.color])
                ):
                    cards ^= _WD4_BIT
                if not cards or self._voluntary:
                    out.append(_DRAW)
            elif phase is _DRAWN:
                cards = self.drawn.bit if self.drawn is not None else 0
                if not self._must_drawn or not cards:
                    out.append(_PASS)
            else:  # pending
                out.append(_DRAW)
                cards = self._stackable(seat)
                call = call and cards != 0
            while cards:
                low = cards & -cards
                code = low.bit_length() - 1
                card = CARDS[code]
                left = size - 1
                if card.rank is _DISCARD_ALL:
                    left -= self._discard_all_count(seat, card)
                if card is _WCR and not self._legacy:
                    out.extend(_ROULETTE_ACTS)
                    if manual and left == 1:
                        out.extend(_ROULETTE_UNO)
                elif card.is_wild:
                    out.extend(_WILD_ACTS[code])
                    if manual and left == 1:
                        out.extend(_WILD_UNO[code])
                else:
                    out.append(_PLAY_ACT[code])  # type: ignore[arg-type]
                    if manual and left == 1:
                        out.append(_PLAY_UNO[code])  # type: ignore[arg-type]
                cards ^= low
            if call:
                out.append(_CALL)
        if exposed >= 0 and (exposed != seat or self._late_call):
            out.append(_CATCH[exposed] if exposed != seat else _CALL)
        return tuple(dict.fromkeys(out))

    def _discard_all_count(self, seat: int, card: Card) -> int:
        """Cards of ``card``'s colour that a Discard All lays down with it (not itself)."""
        counts = self._counts[seat]
        return sum(counts[c.code] for c in CARDS if c.color is card.color) - 1

    def _take_color(self, seat: int, color: Color) -> list[Card]:
        """Discard All: take ``seat``'s other cards of ``color`` (the card played is already
        counted out) and lay them on the discard pile, under the Discard All card."""
        counts = self._counts[seat]
        taken: list[Card] = []
        for c in CARDS:
            held = counts[c.code] if c.code < len(counts) else 0
            if c.color is color and held:
                taken += [c] * held
                counts[c.code] = 0
                self._masks[seat] &= ~c.bit
        self.discard.extend(taken)
        return taken

    def _no_mercy_card(self, seat: int, card: Card, events: list[Event]) -> None:
        """The effect of a No Mercy card that was not the player's last."""
        rank = card.rank
        if rank is _SKIP_ALL:
            events.append(EveryoneSkipped(seat))
            self.phase = _PLAY  # the turn stays with them: they play again
            self.drawn = None
            self._armed = -1
        elif rank is _DISCARD_ALL:
            self._advance(1)
        elif rank is _ROULETTE:
            if self._legacy:  # named by its player, turned up at once (before version 4)
                victim = self.next_seat(1)
                self._reveal(victim, self.color, events)
                events.append(Skipped(victim))
                self._advance(2)
                return
            # "The next player chooses a color": their turn begins with naming it.
            self._advance(1)
            self.phase = _ROUL
            events.append(RoulettePending(self.current))
        else:  # Draw Four, Wild Draw Six / Ten, Wild Reverse Draw Four
            if rank is _WRD4:
                self.direction = -self.direction
                events.append(Reversed(self.direction))
                if not self._legacy and self._two_left():
                    # "With just two players this card skips the other player and makes YOU
                    # draw 4 cards! You may use the stacking rule to send the penalty back."
                    events.append(Skipped(self.next_seat(1)))
                    self.pending += card.draw
                    self.phase = _PENDING
                    self.drawn = None
                    self._armed = -1
                    events.append(DrawPending(seat, self.pending))
                    return
            self.pending += card.draw
            self._advance(1)
            self.phase = _PENDING
            events.append(DrawPending(self.current, self.pending))

    def _roulette(self, seat: int, color: Color, events: list[Event]) -> None:
        """``seat`` names the Roulette's colour (it is then the colour in force), turns cards
        up until one of it comes, keeps them and loses the turn. Naming it begins their turn:
        a missed UNO call of the Roulette's player can no longer be caught (next-turn)."""
        self.color = color
        self._key = _key(color, _ROULETTE)
        events.append(ColorChosen(seat, color))
        if self._next_turn_window:
            self.exposed = -1
        self._reveal(seat, color, events)
        events.append(Skipped(seat))
        self._advance(1)

    def _reveal(self, seat: int, color: Color, events: list[Event]) -> None:
        """The Roulette's draw: "reveal cards one at a time from the Draw Pile until they get a
        card of that color (Wild Cards do NOT count)"; it stops at the mercy limit."""
        got: list[Card] = []
        limit = self._mercy
        while not limit or self._sizes[seat] < limit:
            one = self._draw(seat, 1, events)
            if not one:
                break
            got.append(one[0])
            if one[0].color is color:
                break
        events.append(CardsDrawn(seat, tuple(got), DrawReason.ROULETTE))

    def _mercy_check(self, events: list[Event]) -> None:
        """The mercy rule: anyone holding ``mercy_limit`` cards or more is out of the hand,
        their cards under the discard pile; the last one standing wins the hand."""
        if self.phase is _OVER:
            return
        limit = self._mercy
        sizes = self._sizes
        for s in range(self.n):
            if sizes[s] >= limit and not self._out >> s & 1:
                self._eliminate(s, events)
        active = self.active_seats()
        if len(active) == 1:
            self._finish(active[0], None, events)

    def _eliminate(self, seat: int, events: list[Event]) -> None:
        cards = self.hand(seat)
        self.discard[:0] = cards  # under the discard pile: the top card stays on top
        self._counts[seat] = [0] * len(self._counts[seat])
        self._masks[seat] = 0
        self._sizes[seat] = 0
        self._out |= 1 << seat
        self._knocked += 1
        if self.exposed == seat:
            self.exposed = -1
        if self._armed == seat:
            self._armed = -1
        events.append(Eliminated(seat, len(cards)))
        if self.current == seat and len(self.active_seats()) > 1:
            # Their turn (or a draw they faced) is over; the next player still in begins.
            self.current = self._step(seat, 1)
            self.phase = _PLAY
            self.pending = 0
            self.drawn = None

    # --- Jump-In -----------------------------------------------------------------------------

    def jump_card(self, seat: int) -> Card | None:
        """The card ``seat`` could jump in with now (Jump-In), or None."""
        if self._jump_by < 0 or seat == self._jump_by or seat == self.current:
            return None
        top = self.discard[-1]
        if not self._counts[seat][top.code]:
            return None
        phase = self.phase
        if phase is _PLAY or (phase is _PENDING and self._stacks_on_top(top)):
            return top
        return None

    def _jump_actions(self, seat: int) -> tuple[Action, ...]:
        """Legal actions of a player not to move while a jump is possible."""
        out: list[Action] = []
        card = self.jump_card(seat)
        if card is not None:
            out.append(_PLAY_ACT[card.code])  # type: ignore[arg-type]
            if self._manual and self._sizes[seat] == 2:
                out.append(_PLAY_UNO[card.code])  # type: ignore[arg-type]
        exposed = self.exposed
        if exposed >= 0:
            if exposed != seat:
                out.append(_CATCH[exposed])
            elif self._late_call:
                out.append(_CALL)
        return tuple(out)

    def _jump_in(self, seat: int, action: Play) -> list[Event]:
        """``seat`` plays the card on top out of turn: as if it were their turn, the player
        to move losing it. Refused (NotYourTurn, or the play's own error) changing nothing."""
        if action.card is not self.jump_card(seat):
            raise errors.NotYourTurn()
        skipped = self.current
        saved = (self.current, self._armed)
        self.current = seat
        self._armed = -1
        events: list[Event] = [JumpedIn(seat, skipped)]
        try:
            self._play(seat, action, events)
        except errors.UnoError:
            self.current, self._armed = saved
            raise
        # A jumped card can't be jumped: the first jump read wins. (-2: a jumped 7 waits for
        # its swap, after which the window stays shut.)
        self._jump_by = -2 if self.phase is _SWAP else -1
        return events

    def _jump_window(self, seat: int, action: Action) -> None:
        """After an in-turn action: a completed play of a coloured card opens the window for
        jumping on it; any other turn action (draw, pass, challenge, …) closes it."""
        kind = type(action)
        if (kind is Play or kind is Swap) and self.phase is not _OVER:
            top = self.discard[-1]
            done = self.phase is not _SWAP and not (kind is Swap and self._jump_by == -2)
            self._jump_by = seat if done and not top.is_wild else -1
        else:
            self._jump_by = -1

    def jump_refusal(self, seat: int, card: Card, whose: str) -> errors.UnoError:
        """Jump-In: why ``seat``'s play of ``card`` out of turn is no jump (``jump_card`` says
        it isn't), as the error to answer with; ``whose``: the nick of the player to move."""
        top = self.discard[-1]
        if card is top and not self.holds(seat, card):
            return errors.CardNotInHand(card)
        if top.is_wild:
            return errors.CannotJumpIn("wild", whose, top)
        if card is not top:
            return errors.CannotJumpIn("card", whose, top)
        if seat == self._jump_by:
            return errors.CannotJumpIn("own", whose, top)
        if self.phase is _SWAP:
            return errors.CannotJumpIn("swap", whose, top)
        return errors.CannotJumpIn("closed", whose, top)


_VARIANT_ACTIONS: Final[dict[type, Callable[[VariantGame, int, Any, list[Event]], None]]] = {
    Play: VariantGame._play,
    Draw: VariantGame._draw_action,
    Pass: Game._pass,
    Challenge: Game._challenge,
    ChooseColor: VariantGame._choose_color,
    Swap: VariantGame._swap,
}
