"""A match of UNO Flip: hands dealt one after another to the sheet's 500 points.

The classic :class:`~unobot.engine.match.Match` deals a ``Game``; this one deals a
:class:`~unobot.engine.flip.FlipGame` and keeps the same record of the match (``totals``,
``hands`` as :class:`~unobot.engine.events.HandOutcome`, ``outcome``), so the table, the stats
recorder and the channel's lines read a Flip match as they read any other. Its events are the
hand's :class:`~unobot.engine.flip.FlipEvent` list, with the classic ``HandEnded`` and
``MatchEnded`` at its end when the hand or the match ends.

Scoring is the sheet's: "the first player to get rid of all their cards scores points for
the cards left in opponents' hands", each card by the side it ended on (the side in play when
the hand ended); "the first player to reach 500 points wins".
"""

# translations: domain("commands")  (the message ids of its refusals, marked N_)

from __future__ import annotations

from random import Random

from unobot.engine import errors
from unobot.engine.actions import Action
from unobot.engine.events import HandEnded, HandOutcome, MatchEnded, MatchOutcome
from unobot.engine.flip import FlipEvent, FlipGame
from unobot.engine.rules import HouseRules

__all__ = ["FlipMatch"]

FlipMatchEvent = FlipEvent | HandEnded | MatchEnded


class FlipMatch:
    """Hands of UNO Flip to ``rules.target_score`` (the ``flip`` preset: 500); 0: one hand.

    The same reading interface as ``Match`` (``players``, ``rules``, ``totals``, ``hands``,
    ``game``, ``outcome``, ``over``, ``hand_in_progress``): what the table and the stats
    read of a match."""

    def __init__(self, players: int, rules: HouseRules, rng: Random, dealer: int = 0) -> None:
        if not 2 <= players <= 10:
            raise ValueError("Uno is played by 2 to 10 players")
        self.players = players
        self.rules = rules
        self.rng = rng
        self.dealer = dealer % players
        self.totals = [0] * players
        self.hands: list[HandOutcome] = []
        self.game: FlipGame | None = None
        self.outcome: MatchOutcome | None = None
        self._dealt = False

    @property
    def over(self) -> bool:
        return self.outcome is not None

    @property
    def hand_in_progress(self) -> bool:
        return self.game is not None and not self.game.over

    def start_hand(self) -> list[FlipEvent]:
        """Deal the next hand, light side up (the dealer moves one seat on after each)."""
        if self.over:
            raise errors.UnoError(errors.N_("the match is over"))
        if self.hand_in_progress:
            raise errors.UnoError(errors.N_("a hand is already being played"))
        if self._dealt:
            self.dealer = (self.dealer + 1) % self.players
        self._dealt = True
        self.game, events = FlipGame.deal(self.players, self.rng, self.dealer, self.rules.hand_size)
        return events

    def apply(self, seat: int, action: Action | object) -> list[FlipMatchEvent]:
        if self.game is None:
            raise errors.UnoError(errors.N_("no hand has been dealt"))
        return self._recorded(list(self.game.apply(seat, action)))  # type: ignore[arg-type]

    def force_pass(self, seat: int) -> list[FlipMatchEvent]:
        """An idle player's turn timed out (:meth:`FlipGame.force_pass`)."""
        if self.game is None:
            raise errors.UnoError(errors.N_("no hand has been dealt"))
        return self._recorded(list(self.game.force_pass(seat)))

    def _recorded(self, events: list[FlipMatchEvent]) -> list[FlipMatchEvent]:
        game = self.game
        last = events[-1] if events else None
        if game is None or game.outcome is None or type(last) is not FlipEvent:
            return events
        if last.kind != "won":
            return events
        outcome = game.outcome
        side = outcome.side
        remaining = tuple(tuple(c.face(side) for c in hand) for hand in game.hands)
        points = tuple(sum(f.points for f in hand) for hand in remaining)
        scores = tuple(outcome.points if s == outcome.winner else 0 for s in range(game.n))
        hand = HandOutcome(outcome.winner, remaining, points, scores)  # type: ignore[arg-type]
        self.hands.append(hand)
        for seat, score in enumerate(scores):
            self.totals[seat] += score
        events.append(HandEnded(hand))
        target = self.rules.target_score
        if not target or max(self.totals) >= target:
            events.append(self._end((outcome.winner,) if not target else None))
        return events

    def remove_player(self, seat: int) -> list[FlipMatchEvent]:
        """``seat`` leaves the match for good. With two players the other wins the hand (the
        leaver's cards scored, by the side in play) and the match; with more the hand goes on
        without them (their cards under the draw pile), seats after theirs renumbered."""
        if self.over:
            raise errors.UnoError(errors.N_("the match is over"))
        game = self.game
        if self.players <= 2:
            winner = 1 - seat
            events: list[FlipMatchEvent] = []
            if game is not None and not game.over:
                # As the classic ``Game.forfeit``: scored as if the winner had gone out (their
                # own cards score nothing and are not shown).
                side = game.side
                remaining = tuple(
                    () if s == winner else tuple(c.face(side) for c in hand)
                    for s, hand in enumerate(game.hands)
                )
                points = tuple(sum(f.points for f in hand) for hand in remaining)
                scores = tuple(points[seat] if s == winner else 0 for s in range(self.players))
                hand = HandOutcome(winner, remaining, points, scores)  # type: ignore[arg-type]
                self.hands.append(hand)
                for s, score in enumerate(scores):
                    self.totals[s] += score
                events.append(HandEnded(hand))
            events.append(self._end((winner,)))
            return events
        events = []
        if game is not None and not game.over:
            events += game.remove_seat(seat)
        del self.totals[seat]
        self.players -= 1
        if self.dealer >= seat:
            self.dealer -= 1
        self.dealer %= self.players
        return events

    def end_by_time(self) -> list[FlipMatchEvent]:
        """Flip matches are not timed (the table refuses a time limit); a stop ends the match
        on the totals, the highest winning."""
        if self.over:
            return []
        return [self._end()]

    def _end(self, winners: tuple[int, ...] | None = None) -> MatchEnded:
        totals = tuple(self.totals)
        if winners is None:
            best = max(totals)
            winners = tuple(s for s, t in enumerate(totals) if t == best)
        self.outcome = MatchOutcome(totals, winners, len(self.hands))
        return MatchEnded(self.outcome)
