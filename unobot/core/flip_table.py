"""A channel's table of UNO Flip: :class:`FlipTable`, the classic table with a Flip match.

:class:`~unobot.core.table.Table` is written for the classic ``Game`` (one face per card, its
phases and events); UNO Flip's :class:`~unobot.engine.flip.FlipGame` is a class of its own. So
that the classic path stays as it is (not one ``isinstance`` more on a move), a Flip table is
this subclass, chosen once when the table is made (:func:`table_class`): it deals a
:class:`~unobot.engine.flip_match.FlipMatch` and overrides the few methods that read the game
(moves, hands, status, removal). Everything else (lobby, seats, timers, the journal, stats) is
the table's own.

What the channel hears of a Flip move is a :class:`~unobot.core.updates.FlipEvents` batch; a
hand's and a match's end are the classic ``HandEnded``/``MatchEnded`` (in an ``EngineEvents``),
so the stats recorder and the totals read them as any other game's.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from unobot.core.table import State, Table, journaled
from unobot.core.updates import (
    Back,
    Dealt,
    EarlyUno,
    EngineEvents,
    FlipEvents,
    HandNotice,
    Removed,
    Status,
    Update,
)
from unobot.engine import Phase, errors
from unobot.engine.actions import CallUno, Catch, Challenge, Draw, Pass
from unobot.engine.errors import UnoError
from unobot.engine.events import HandEnded, MatchEnded
from unobot.engine.flip import (
    Face,
    FlipChoose,
    FlipColor,
    FlipEvent,
    FlipGame,
    FlipPhase,
    FlipPlay,
    Side,
    parse_flip_color,
)
from unobot.engine.flip_match import FlipMatch
from unobot.engine.rules import HouseRules
from unobot.i18n import domain

_, ngettext = domain("game")

__all__ = ["FlipTable", "table_class"]

_PHASES = {
    FlipPhase.PLAY: Phase.PLAY,
    FlipPhase.DRAWN: Phase.DRAWN,
    FlipPhase.CHOOSE: Phase.CHOOSE_COLOR,
    FlipPhase.PENDING: Phase.PENDING,
    FlipPhase.OVER: Phase.OVER,
}
"""A Flip phase as the status line names it (the same words as the classic game's)."""


def table_class(rules: HouseRules) -> type[Table]:
    """The table that plays ``rules``: :class:`FlipTable` for UNO Flip, else the classic one."""
    return FlipTable if rules.flip else Table


class FlipTable(Table):
    """A table of UNO Flip (``.uno flip``). UNO is called and caught as at a classic
    ``official`` table (the engine plays it); no penalties or swaps; no time limit."""

    flip = True

    _flip_deferred: list[FlipEvent]
    """A draw that left the drawer to decide: told with the decision, in one batch (made with
    the match)."""

    # --- reading ---------------------------------------------------------------------------

    @property
    def game(self) -> FlipGame | None:  # type: ignore[override]
        return self.match.game if self.match is not None else None  # type: ignore[return-value]

    def _flip_game(self) -> FlipGame:
        game = self.game
        if game is None or self.state is not State.PLAYING:
            raise UnoError(_("the cards have not been dealt yet"))
        return game

    def hand_of(self, nick: str) -> tuple[Face, ...]:  # type: ignore[override]
        return tuple(self._flip_game().hand(self._seat(nick)))

    def public_hand_of(self, nick: str) -> tuple[Face, ...]:
        """The faces of ``nick``'s hand that the other players see (the side not in play)."""
        return tuple(self._flip_game().public_hand(self._seat(nick, computer=None)))  # type: ignore[arg-type]

    def hand_notice(self, nick: str, *, again: bool = False) -> HandNotice:
        game = self._flip_game()
        seat = self._seat(nick)
        hand = tuple(game.hand(seat))
        if seat != game.current or game.over or game.phase not in _MARKED:
            return HandNotice(hand, again=again)  # type: ignore[arg-type]
        return HandNotice(hand, playable=self._flip_playable(game, seat), again=again)  # type: ignore[arg-type]

    @staticmethod
    def _flip_playable(game: FlipGame, seat: int) -> tuple[Face, ...]:
        faces = {a.face for a in game.legal_actions(seat) if type(a) is FlipPlay}
        return tuple(sorted(faces, key=lambda f: f.code))

    def status(self) -> Status | None:
        game = self.game
        if game is None or game.over or self.state is not State.PLAYING:
            return None
        pending = game.phase is FlipPhase.PENDING
        return Status(
            game.top,  # type: ignore[arg-type]
            game.color,  # type: ignore[arg-type]
            self.players[game.current].nick,
            _PHASES[game.phase],
            game.top.draw if pending else 0,
            tuple((p.nick, game.hand_size(s)) for s, p in enumerate(self.players)),
            "",
            pending,
            (),
            str(game.side),
        )

    def is_timely(self, nick: str, action: type[Any]) -> bool:
        game = self.game
        if self.state is not State.PLAYING or game is None or game.over or self.frozen is not None:
            return False
        seat = self.seat_of(nick)
        if seat is None:
            return False
        if action is not CallUno and action is not Catch:
            return seat == game.current
        return any(type(a) is action for a in game.legal_actions(seat))

    # --- lobby -----------------------------------------------------------------------------

    def deal(self, nick: str, now: float, time_limit: float | None = None) -> Update:
        if time_limit is not None and self.state is State.LOBBY:
            raise UnoError(_("UNO Flip is played to 500 points, without a time limit"))
        return super().deal(nick, now, time_limit)

    def _new_match(self, rules: HouseRules) -> FlipMatch:  # type: ignore[override]
        self._flip_deferred = []
        return FlipMatch(len(self.players), rules, self.rng, dealer=len(self.players) - 1)

    def _start_hand(self, now: float, update: Update) -> Update:
        match = self.match
        assert match is not None
        events = match.start_hand()
        self.hand_number += 1
        game = self._flip_game()
        first = self.hand_number == 1
        update.events.append(
            Dealt(
                self.names,
                self.config.rules.name,
                self.hand_number,
                0,
                match.rules.target_score if first else 0,
                (),
                match.rules if first else None,
            )
        )
        update.events.append(FlipEvents(tuple(events), self.names))  # type: ignore[arg-type]
        for seat, player in enumerate(self.players):
            if not player.computer:
                update.hands[player.nick] = HandNotice(tuple(game.hand(seat)))  # type: ignore[arg-type]
            player.timeouts = 0
        self._new_turn(now)
        self._flip_turn_hand(update)
        self.last_activity = now
        update.status = self.status()
        return update

    # --- moves -----------------------------------------------------------------------------

    @journaled
    def play(  # type: ignore[override]
        self,
        nick: str,
        card: Face | Any,
        color: FlipColor | Any | None,
        now: float,
        *,
        uno: bool = False,
        computer: bool = False,
        target: str | None = None,
    ) -> Update:
        """Play the face ``card`` (a :class:`Face`, or its text as the journal keeps it) of the
        side in play; ``color`` for a wild (a ``FlipColor``, or a colour letter); ``uno``
        calls UNO with it. An early ``uno`` (the play leaves more than one card) never costs
        the move, as at a classic table: the engine refuses the call alone (the card checked
        first), so the card is played without it and the player is told (:class:`EarlyUno`)."""
        game = self._flip_game()
        face = card if type(card) is Face else Face.parse(_text(card), game.side)
        chosen = _color(color, game.side)
        try:
            return self._flip_act(nick, FlipPlay(face, chosen, uno), now, computer)
        except errors.UnoNotNeeded:
            if not uno:
                raise
        seat = self._seat(nick, computer)
        update = self._flip_act(nick, FlipPlay(face, chosen), now, computer)
        left = next(
            (
                e.value
                for batch in update.events
                if type(batch) is FlipEvents
                for e in batch.events
                if e.kind == "played" and e.seat == seat
            ),
            0,
        )
        update.notes.append(EarlyUno(self.players[seat].nick, left))
        return update

    @journaled
    def choose_color(self, nick: str, color: Any, now: float, *, computer: bool = False) -> Update:
        game = self._flip_game()
        chosen = _color(color, game.side)
        if chosen is None:
            raise UnoError(_("which colour?"))
        return self._flip_act(nick, FlipChoose(chosen), now, computer)

    @journaled
    def draw(self, nick: str, now: float, *, computer: bool = False) -> Update:
        return self._flip_act(nick, Draw(), now, computer)

    @journaled
    def pass_turn(self, nick: str, now: float, *, computer: bool = False) -> Update:
        return self._flip_act(nick, Pass(), now, computer)

    @journaled
    def challenge(self, nick: str, now: float, *, computer: bool = False) -> Update:
        return self._flip_act(nick, Challenge(), now, computer)

    @journaled
    def call_uno(self, nick: str, now: float, *, computer: bool = False) -> Update:
        """Say UNO, out of turn too: just before the next-to-last card, or late."""
        return self._flip_act(nick, CallUno(), now, computer, in_turn=False)

    @journaled
    def catch(self, nick: str, target: str, now: float, *, computer: bool = False) -> Update:
        """Catch ``target`` down to one card without UNO (any seated player, out of turn)."""
        seat = self.seat_of(target, computer=None)
        if seat is None:
            raise errors.CannotCatch(target[:30])
        return self._flip_act(nick, Catch(seat), now, computer, in_turn=False)

    def swap(self, nick: str, target: str, now: float, *, computer: bool = False) -> Update:
        raise errors.CannotSwap(_("Seven-O is not played here: hands are never swapped"))

    def penalize(self, nick: str, cards: int, now: float) -> Update:
        raise UnoError(_("UNO Flip has no penalty cards"))

    def _flip_act(
        self, nick: str, action: Any, now: float, computer: bool, *, in_turn: bool = True
    ) -> Update:
        """A move of ``nick``'s: on their turn, or (``in_turn`` False: an UNO call or a catch)
        at any time, which neither resets their idle count nor is the turn's actor."""
        game = self._flip_game()
        seat = self._seat(nick, computer)
        if in_turn and seat != game.current:
            raise errors.NotYourTurn(self.players[game.current].nick)
        assert self.match is not None
        events = self.match.apply(seat, action)
        player = self.players[seat]
        update = Update()
        if player.away_since is not None:
            player.away_since = None
            update.events.append(Back(player.nick))
        if in_turn:
            player.timeouts = 0
        defer = type(action) is Draw and game.phase is FlipPhase.DRAWN and game.current == seat
        actor = seat if in_turn else None
        return self._after(events, actor, now, update, defer=defer)  # type: ignore[arg-type]

    def _after(  # type: ignore[override]
        self,
        events: Sequence[Any],
        actor: int | None,
        now: float,
        update: Update,
        *,
        defer: bool = False,
    ) -> Update:
        """The classic ``_after`` for a Flip move: hand notices (everyone's after a Flip, whose
        hands all turned over), the next hand, the turn timer."""
        game = self._flip_game()
        names = self.names
        before = self.clock.seat
        flips = [e for e in events if type(e) is FlipEvent]
        ends = [e for e in events if type(e) is not FlipEvent]
        gained: dict[int, list[Face]] = {}
        flipped = False
        for e in flips:
            if e.kind == "drew" and e.cards and 0 <= e.seat < game.n:
                side = game.side
                gained.setdefault(e.seat, []).extend(c.face(side) for c in e.cards)
            elif e.kind == "flipped":
                flipped = True
        if flipped:  # every hand turned over: each person gets theirs as it now reads
            for seat, player in enumerate(self.players[: game.n]):
                if not player.computer and game.hand_size(seat):
                    update.hands[player.nick] = HandNotice(tuple(game.hand(seat)))  # type: ignore[arg-type]
        for seat, cards in gained.items():
            if game.hand_size(seat) and not self.players[seat].computer:
                hint = self._flip_hint(game) if seat == actor else ""
                update.hands[names[seat]] = HandNotice(
                    tuple(game.hand(seat)),  # type: ignore[arg-type]
                    tuple(cards),  # type: ignore[arg-type]
                    hint,
                )
        if flips:
            self.last_activity = now
            if actor is not None or game.current != before:
                self._new_turn(now)  # an out-of-turn UNO call or catch keeps the mover's clock
        if defer:
            self._flip_deferred.extend(flips)
            self._deferred.extend(update.events)
            update.events = []
            return update
        batch = [*self._flip_deferred, *flips]
        self._flip_deferred = []
        update.events[:0] = self._deferred
        self._deferred = []
        if batch:
            update.events.append(FlipEvents(tuple(batch), names, _side_before(batch, game)))
        if ends:
            update.events.append(EngineEvents(tuple(ends), names))
        if any(type(e) is MatchEnded for e in ends):
            self.state = State.FINISHED
            update.finished = True
            return update
        if any(type(e) is HandEnded for e in ends):
            update.events.append(self._totals())
            return self._start_hand(now, update)
        if game.current != before or (
            actor is not None and (game.current == actor or game.phase is FlipPhase.CHOOSE)
        ):
            self._flip_turn_hand(update)
        update.status = self.status()
        return update

    def _flip_hint(self, game: FlipGame) -> str:
        """What the player who just drew a playable card may do."""
        if game.phase is not FlipPhase.DRAWN or game.drawn is None:
            return ""
        face = game.drawn.face(game.side)
        text = face.text
        how = _("{card} with {command} <colour>", card=text, command=f".play {text.lower()}")
        return _(
            "Play {card} or .pass (only the card you drew)", card=how if face.is_wild else text
        )

    def _flip_turn_hand(self, update: Update) -> None:
        """The classic ``_turn_hand``: the hand goes with the turn, the playable faces marked."""
        game = self.game
        if not self.config.turn_hand or game is None or game.over:
            return
        if game.phase not in _MARKED:
            return
        seat = game.current
        player = self.players[seat]
        if player.computer or not game.hand_size(seat):
            return
        marked = self._flip_playable(game, seat)
        sent = update.hands.get(player.nick)
        if sent is not None:
            update.hands[player.nick] = dataclasses.replace(sent, playable=marked)  # type: ignore[arg-type]
        else:
            hand = tuple(game.hand(seat))
            update.hands[player.nick] = HandNotice(hand, playable=marked, optional=True)  # type: ignore[arg-type]

    def _turn_hand(self, update: Update) -> None:
        self._flip_turn_hand(update)

    # --- removal ---------------------------------------------------------------------------

    def _remove(self, seat: int, why: str, now: float, pre: list[Any]) -> Update:
        assert self.match is not None
        game = self._flip_game()
        names = self.names
        player = self.players[seat]
        was_turn = game.current == seat
        update = Update([*self._deferred, *pre, Removed(player.nick, why, True)])
        self._deferred = []
        self._flip_deferred = []
        self.last_activity = now
        events = self.match.remove_player(seat)
        flips = [e for e in events if type(e) is FlipEvent]
        ends = [e for e in events if type(e) is not FlipEvent]
        if flips:
            update.events.append(FlipEvents(tuple(flips), names, game.side))
        if self.match.players < len(self.players):
            del self.players[seat]
        if ends:
            update.events.append(EngineEvents(tuple(ends), names))
        if self._ended_by_removal(update, player):
            return update
        if was_turn:
            self._new_turn(now)
            self._flip_turn_hand(update)
        else:
            self.clock.seat = self._flip_game().current
        update.status = self.status()
        return update


_MARKED = frozenset({FlipPhase.PLAY, FlipPhase.PENDING})
"""Phases whose hand notice marks the playable cards (as the classic PLAY and PENDING)."""


def _side_before(events: Sequence[FlipEvent], game: FlipGame) -> Side:
    """The side in play before ``events`` (the game's now, turned back by each Flip)."""
    flips = sum(1 for e in events if e.kind == "flipped")
    return Side(int(game.side) ^ (flips & 1))


def _text(card: Any) -> str:
    """A card given as text, or as a classic card read back from the journal (``R5``)."""
    return card if type(card) is str else str(getattr(card, "text", card))


def _color(color: Any, side: Side) -> FlipColor | None:
    """A colour as a ``FlipColor``: given as one, as a letter (the journal), or as a classic
    ``Color`` (the journal reads ``r y g b`` as those)."""
    if color is None or type(color) is FlipColor:
        return color
    if type(color) is str:
        return parse_flip_color(color, side)
    return FlipColor(int(color))
