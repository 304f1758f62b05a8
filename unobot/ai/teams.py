"""Playing for the team in a teams-of-two game (``HouseRules.teams``): small rules the
``normal`` and ``hard`` players add to their own.

Partners sit opposite, so a card that hits the next player (Skip, Draw Two, Wild Draw Four)
always hits an opponent: there is never a choice between hitting the partner and not. What a
player can do for the partner:

- never catch the partner's missed UNO call (it would cost the team two cards);
- with the partner on one or two cards at a table of four, play a Skip, Draw Two or Wild Draw
  Four first: it stops the opponent in between, so the partner moves next (the turn after
  that is theirs anyway; at six the partner is three seats on and no card hands them the turn);
- name a wild's colour the partner has shown they hold (not one they drew on), when the
  partner is close to going out and the colour is as good as any for our own hand.

``hard`` also counts a playout the partner wins as won.
"""

from __future__ import annotations

from unobot.ai.observation import Observation
from unobot.engine import Action, Catch
from unobot.engine.cards import Card, Color, Rank
from unobot.engine.rules import partner

__all__ = ["PARTNER_CLOSE", "mate", "partner_bonus", "spares_partner", "team_color"]

PARTNER_CLOSE = 2
"""A partner with this many cards or fewer is about to go out: help them there."""

_STOPPERS = {Rank.SKIP: 120.0, Rank.DRAW_TWO: 130.0, Rank.WILD_DRAW_FOUR: 110.0}
"""What stopping the opponent before a close partner is worth, on ``normal``'s scale."""


def mate(obs: Observation) -> int:
    """The partner's seat, or -1 when the game is not in teams."""
    if not obs.rules.teams or obs.players % 2:
        return -1
    return partner(obs.seat, obs.players)


def spares_partner(obs: Observation, action: Action) -> bool:
    """False for a catch of our own partner (the team would draw the penalty)."""
    return not (type(action) is Catch and action.target == mate(obs) >= 0)


def partner_bonus(obs: Observation, card: Card) -> float:
    """Extra score for ``card`` when it hands the turn to a partner close to going out."""
    seat = mate(obs)
    if seat < 0 or obs.players != 4 or obs.counts[seat] > PARTNER_CLOSE:
        return 0.0
    return _STOPPERS.get(card.rank, 0.0)


def team_color(obs: Observation, hand: tuple[Card, ...] | list[Card], mine: Color) -> Color:
    """The colour to name for a wild: ``mine`` (our best), unless the partner is close to going
    out and can't follow it (they drew on it); then the colour they played last, if they have
    not drawn on it since."""
    seat = mate(obs)
    if seat < 0 or obs.counts[seat] > PARTNER_CLOSE:
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
