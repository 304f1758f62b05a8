"""A recorded game's figures for the records, read from its move list (pure, no I/O).

The move list is the table journal; :func:`move_figures` replays it with
:func:`unobot.core.journal.replay_text`, the loop the bot restores tables with, and watches the
engine's events and the table after each call:

- a *move* is a card played or a draw from the pile on one's turn (``DrawReason.DRAW``);
  penalty cards (Draw Two, a missed UNO, a lost challenge) are not the player's moves;
- a hand is *won* by the player who went out of it with no card left (a hand a timed match
  cut short has no winner); its time runs from its deal to that last card, on the table's
  clock (a restart's downtime, if any, included);
- the points of a hand won are what it scored the winner, or, under scoring where the winner
  scores nothing, the points left in the other hands;
- cards held are read from the table after every call (so a rule that moves hands about
  without an event of its own, a swap, is counted too), and from the hands as a hand ended
  (the next one may be dealt in the same call). A draw's events may come with the next call
  (the table defers them until the drawer decides), so events are used to count moves only.

Players are followed by their seat's object, so a nick change mid-game doesn't split them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from unobot.core.journal import replay_text
from unobot.core.table import Player, Table
from unobot.core.updates import EngineEvents, Update
from unobot.engine.events import (
    CardPlayed,
    CardsDrawn,
    DrawReason,
    HandEnded,
    HandStarted,
    SeatRemoved,
)
from unobot.irc.casemap import irc_lower
from unobot.stats.record_rows import MoveFigures

__all__ = ["move_figures"]


@dataclass(slots=True)
class _Seat:
    player: Player
    cards: int = 0
    hand_moves: int = 0
    hand_cards: int = 0
    best_moves: int | None = None
    best_seconds: int | None = None
    best_points: int | None = None
    most_cards: int = 0
    comeback: int | None = None

    def hold(self, cards: int) -> None:
        self.cards = cards
        self.hand_cards = max(self.hand_cards, cards)
        self.most_cards = max(self.most_cards, cards)


@dataclass(slots=True)
class _Watch:
    seen: dict[int, _Seat] = field(default_factory=dict)
    seats: list[_Seat] = field(default_factory=list)
    hand_started: float = 0.0

    def _seat(self, player: Player) -> _Seat:
        found = self.seen.get(id(player))
        if found is None:
            found = self.seen[id(player)] = _Seat(player)
        return found

    def _at(self, seat: int) -> _Seat | None:
        return self.seats[seat] if 0 <= seat < len(self.seats) else None

    def observe(self, table: Table, update: Update) -> None:
        now = table.last_activity
        for batch in update.events:
            if type(batch) is not EngineEvents:
                continue
            for event in batch.events:
                kind = type(event)
                if kind is HandStarted:
                    self.seats = [self._seat(p) for p in table.players]
                    self.hand_started = now
                    for s in self.seats:
                        s.hand_moves = s.hand_cards = 0
                        s.hold(event.hand_size)
                elif kind is CardPlayed:
                    if (s := self._at(event.seat)) is not None:
                        s.hand_moves += 1
                elif kind is CardsDrawn:
                    if event.reason is DrawReason.DRAW and (s := self._at(event.seat)):
                        s.hand_moves += 1
                elif kind is SeatRemoved:
                    if 0 <= event.seat < len(self.seats):
                        del self.seats[event.seat]
                elif kind is HandEnded:
                    for seat, held in enumerate(event.outcome.remaining):
                        if (s := self._at(seat)) is not None:
                            s.hold(len(held))  # a last Draw Two's victim, before the next deal
                    self._won(event.outcome, now)
        game = table.game
        if game is not None and not (game.over or table.finished):
            # The table is the truth between calls: seats and card counts as they are now.
            self.seats = [self._seat(p) for p in table.players[: game.n]]
            for seat, s in enumerate(self.seats):
                s.hold(game.hand_size(seat))

    def _won(self, outcome: object, now: float) -> None:
        winner = getattr(outcome, "winner", -1)
        remaining = getattr(outcome, "remaining", ())
        if not getattr(outcome, "complete", True) or not 0 <= winner < len(remaining):
            return
        if remaining[winner] or (s := self._at(winner)) is None:
            return
        scores = getattr(outcome, "scores", ())
        points = scores[winner] if winner < len(scores) else 0
        if points <= 0:
            left = getattr(outcome, "points", ())
            points = sum(p for i, p in enumerate(left) if i != winner)
        seconds = max(0, round(now - self.hand_started))
        s.best_moves = _least(s.best_moves, s.hand_moves)
        s.best_seconds = _least(s.best_seconds, seconds)
        s.best_points = max(s.best_points or 0, points) or None
        s.comeback = max(s.comeback or 0, s.hand_cards)


def _least(held: int | None, figure: int) -> int:
    return figure if held is None else min(held, figure)


def move_figures(moves: str) -> dict[str, MoveFigures]:
    """Each seat's :class:`~unobot.stats.record_rows.MoveFigures` in the game ``moves``
    records, keyed by the seat's key (its ident: ``$a:account``, the folded nick it joined
    with, ``$bot:name``) and by ``"nick:"`` + its folded nick at the end. Raises ValueError
    for a text that does not replay."""
    watch = _Watch()
    try:
        replay_text(moves, watch.observe)
    except (AttributeError, KeyError, TypeError, IndexError) as err:
        raise ValueError(f"the move list does not replay: {err!r}") from None
    found: dict[str, MoveFigures] = {}
    for s in watch.seen.values():
        figures = MoveFigures(s.best_moves, s.best_seconds, s.best_points, s.most_cards, s.comeback)
        found.setdefault("nick:" + irc_lower(s.player.nick), figures)
        found.setdefault(s.player.key, figures)
    return found
