"""A match: hands dealt one after another to a target score, with running totals.

The engine has no clock: for a timed match the table calls :meth:`Match.end_by_time` when the
time is up, and the unfinished hand counts as its rules say.
"""

# translations: domain("commands")  (the message ids of its refusals, marked N_)

from __future__ import annotations

from random import Random

from unobot.engine import errors
from unobot.engine.actions import Action
from unobot.engine.events import Event, HandEnded, HandOutcome, MatchEnded, MatchOutcome
from unobot.engine.game import Game
from unobot.engine.rules import HouseRules, Scoring, team_scores

__all__ = ["Match"]


class Match:
    """Hands to ``rules.target_score`` (or one hand when there is no target and no time limit).

    With ``Scoring.WINNER_COLLECTS`` the highest total wins once someone reaches the target; with
    ``Scoring.OWN_POINTS`` reaching the target ends the match and the lowest total wins.
    """

    def __init__(self, players: int, rules: HouseRules, rng: Random, dealer: int = 0) -> None:
        Game(players, rules, rng)  # validates the player count against the rules
        self.players = players
        self.rules = rules
        self.rng = rng
        self.dealer = dealer % players
        self.totals = [0] * players
        self.hands: list[HandOutcome] = []
        self.game: Game | None = None
        self.outcome: MatchOutcome | None = None

    @property
    def over(self) -> bool:
        return self.outcome is not None

    @property
    def hand_in_progress(self) -> bool:
        return self.game is not None and not self.game.over

    def start_hand(self) -> list[Event]:
        """Deal the next hand (the dealer moves one seat on after each hand)."""
        if self.over:
            raise errors.UnoError(errors.N_("the match is over"))
        if self.hand_in_progress:
            raise errors.UnoError(errors.N_("a hand is already being played"))
        if self.game is not None:
            self.dealer = (self.dealer + 1) % self.players
        self.game, events = Game.deal(self.players, self.rules, self.rng, self.dealer)
        return events

    def apply(self, seat: int, action: Action) -> list[Event]:
        """Apply an action to the current hand; adds the match's end when the hand decides it."""
        if self.game is None:
            raise errors.UnoError(errors.N_("no hand has been dealt"))
        return self._recorded(self.game.apply(seat, action))

    def force_pass(self, seat: int) -> list[Event]:
        """``Game.force_pass`` (an idle player's turn timed out), with the match's bookkeeping:
        at No Mercy the card it draws may put the idler over the mercy limit and leave one
        player standing, which ends the hand like any play that goes out."""
        if self.game is None:
            raise errors.UnoError(errors.N_("no hand has been dealt"))
        return self._recorded(self.game.force_pass(seat))

    def _recorded(self, events: list[Event]) -> list[Event]:
        """``events`` of the current hand, with the match's end when the hand ended and that
        decides it (the hand's outcome is added to the totals).

        A hand may go on below the rules' minimum (a player left: :meth:`remove_player`), but
        no new one is dealt to fewer players than the rules deal to: when that hand ends, the
        match ends on the totals, as a timed match's does (:meth:`end_by_time`)."""
        if events and isinstance(events[-1], HandEnded):
            events.extend(self._record(events[-1].outcome))
            if not self.over and self.players < self.rules.min_players:
                events.extend(self.end_by_time())
        return events

    def _record(self, outcome: HandOutcome) -> list[Event]:
        self.hands.append(outcome)
        for seat, score in enumerate(outcome.scores):
            self.totals[seat] += score
        rules = self.rules
        target = rules.target_score
        if target:
            if rules.extra_hand_if_first and len(self.hands) <= 2:
                first_hand_winner = max(self.hands[0].scores) >= target
                if len(self.hands) == 1 and first_hand_winner:
                    return []  # one more hand: whoever else reaches the target goes through too
                if len(self.hands) == 2 and first_hand_winner:
                    return [self._end(tuple(s for s, t in enumerate(self.totals) if t >= target))]
            if max(self.totals) >= target:
                return [self._end()]
        elif not rules.time_limit_minutes:
            # One hand decides the match: its winner wins it, even on totals tied at 0 (No
            # Mercy's last one standing collects nothing from the players it put out; in plain
            # Uno the others may hold only zeros). A team's totals are its partners' together.
            return [self._end(None if rules.teams else (outcome.winner,))]
        return []

    def end_by_time(self) -> list[Event]:
        """The time is up and the match ends.

        Each-keeps-own-points scoring counts the unfinished hand (as the timed tournaments
        do). Winner-collects scoring has nothing to count in it, so the highest total wins; a
        tie there (also the case when no hand was finished at all, everyone on 0) goes to
        whoever of the tied holds the fewest card points in the unfinished hand - the one
        closest to winning it - rather than to everyone.
        """
        if self.over:
            return []
        game = self.game
        winners: tuple[int, ...] | None = None
        if game is not None and not game.over:
            points = tuple(sum(c.points for c in h) for h in game.hands)
            if self.rules.teams:  # a team's cards count together, for every teammate
                count = self.rules.team_count(len(points))
                points = team_scores(-1, points, Scoring.OWN_POINTS, count)
            if self.rules.scoring is Scoring.OWN_POINTS:
                incomplete = HandOutcome(
                    -1, tuple(tuple(h) for h in game.hands), points, points, complete=False
                )
                self.hands.append(incomplete)
                for seat, score in enumerate(points):
                    self.totals[seat] += score
            else:
                best = max(self.totals)
                tied = [s for s, total in enumerate(self.totals) if total == best]
                fewest = min(points[s] for s in tied)
                winners = tuple(s for s in tied if points[s] == fewest)
        return [self._end(winners)]

    def remove_player(self, seat: int) -> list[Event]:
        """``seat`` leaves the match for good (left the channel, timed out twice).

        With three or more players the hand goes on without them (their cards under the draw
        pile) and their total is dropped; seats after theirs are renumbered one lower, also in
        ``totals`` (past ``hands`` keep the old numbering). At No Mercy the leaver may have been
        the last one standing beside one player: that player wins the hand, which is recorded
        (in the new numbering) like any other. With two, the other player wins the
        hand and the match. In a teams game (pairs or two teams) the leaver's team forfeits
        the match (:meth:`_team_forfeit`).
        """
        if self.over:
            raise errors.UnoError(errors.N_("the match is over"))
        if self.rules.teams:
            return [self._team_forfeit(seat)]
        if self.players <= 2:
            winner = 1 - seat
            events: list[Event] = []
            if self.hand_in_progress:
                assert self.game is not None
                hand_end = self.game.forfeit(seat)
                events += hand_end
                self.hands.append(hand_end[-1].outcome)  # type: ignore[union-attr]
                for s, score in enumerate(self.hands[-1].scores):
                    self.totals[s] += score
            events.append(self._end(winners=(winner,)))
            return events
        events = []
        if self.hand_in_progress:
            assert self.game is not None
            events += self.game.remove_seat(seat)
        del self.totals[seat]
        self.players -= 1
        # start_hand moves the deal on one seat: from the seat before the leaver's old one, it
        # reaches the player who sat after them (or the next dealer in line, as before).
        if self.dealer >= seat:
            self.dealer -= 1
        self.dealer %= self.players
        return self._recorded(events)  # after the renumbering: the outcome is in the new one

    def _team_forfeit(self, seat: int) -> MatchEnded:
        """In a teams game a leaver's team can't go on (teams are fixed and their seats
        alternate: one seat fewer breaks the order): the match ends at once, the unfinished
        hand uncounted, and the best of the other teams wins it (all of them on a tie)."""
        count = self.rules.team_count(self.players)
        others = [s for s in range(self.players) if s % count != seat % count]
        best = max(self.totals[s] for s in others)
        return self._end(tuple(s for s in others if self.totals[s] == best))

    def _end(self, winners: tuple[int, ...] | None = None) -> MatchEnded:
        totals = tuple(self.totals)
        if winners is None:
            best = min(totals) if self.rules.scoring is Scoring.OWN_POINTS else max(totals)
            winners = tuple(s for s, t in enumerate(totals) if t == best)
        self.outcome = MatchOutcome(totals, winners, len(self.hands))
        return MatchEnded(self.outcome)
