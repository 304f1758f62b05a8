"""Playing for the team in a teams game (``HouseRules.teams``: pairs, or two teams with seats
alternating): small rules the ``normal`` and ``hard`` players add to their own.

In either game a card that hits the next player (Skip, Draw Two, Wild Draw Four) always hits an
opponent: partners sit opposite, and two teams alternate seats, so there is never a choice
between hitting a teammate and not. What a player can do for the team:

- never catch a teammate's missed UNO call (it would cost the team two cards);
- with the teammate who moves two turns on at one or two cards, play a Skip, Draw Two or Wild
  Draw Four first: it stops the opponent in between, so that teammate moves next. With two
  teams that is always a teammate; in pairs only at a table of four (at six the partner is
  three seats on and no card hands them the turn);
- name a wild's colour the nearest teammate close to going out has shown they hold (not one
  they drew on), when the colour is as good as any for our own hand.

``hard`` also counts a playout any teammate wins as won.
"""

from __future__ import annotations

from unobot.ai.observation import Observation
from unobot.engine import Action, Catch
from unobot.engine.cards import Card, Color, Rank
from unobot.engine.rules import teammates

__all__ = ["PARTNER_CLOSE", "partner_bonus", "spares_partner", "team", "team_color"]

PARTNER_CLOSE = 2
"""A teammate with this many cards or fewer is about to go out: help them there."""

_STOPPERS = {Rank.SKIP: 120.0, Rank.DRAW_TWO: 130.0, Rank.WILD_DRAW_FOUR: 110.0}
"""What stopping the opponent before a close teammate is worth, on ``normal``'s scale."""


def team(obs: Observation) -> tuple[int, ...]:
    """The seats of our team, ours included; just ours when the game is not in teams."""
    count = obs.rules.team_count(obs.players)
    if count < 2 or obs.players % count:
        return (obs.seat,)
    return teammates(obs.seat, obs.players, count)


def spares_partner(obs: Observation, action: Action) -> bool:
    """False for a catch of a teammate (the team would draw the penalty)."""
    return not (type(action) is Catch and action.target in team(obs))


def partner_bonus(obs: Observation, card: Card) -> float:
    """Extra score for ``card`` when it hands the turn to a teammate close to going out."""
    bonus = _STOPPERS.get(card.rank, 0.0)
    if not bonus:
        return 0.0
    after = (obs.seat + 2 * obs.direction) % obs.players  # who moves after the stopped one
    if after == obs.seat or after not in team(obs) or obs.counts[after] > PARTNER_CLOSE:
        return 0.0
    return bonus


def _close_mate(obs: Observation) -> int:
    """The teammate close to going out who moves first from here, or -1."""
    mine = team(obs)
    for steps in range(1, obs.players):
        seat = (obs.seat + steps * obs.direction) % obs.players
        if seat in mine and obs.counts[seat] <= PARTNER_CLOSE:
            return seat
    return -1


def team_color(obs: Observation, hand: tuple[Card, ...] | list[Card], mine: Color) -> Color:
    """The colour to name for a wild: ``mine`` (our best), unless a teammate is close to going
    out and can't follow it (they drew on it); then the colour they played last, if they have
    not drawn on it since."""
    seat = _close_mate(obs)
    if seat < 0:
        return mine
    voids = obs.voids[seat]
    if mine not in voids:
        return mine
    for play in reversed(obs.history):
        color = play.card.color
        if play.seat == seat and color is not None and color not in voids:
            return color
    held = [c for c in Color if c not in voids and any(h.color is c for h in hand)]
    return held[0] if held else mine
