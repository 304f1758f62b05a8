"""``normal``: a sound rule-of-thumb player, as a fair club player would play.

- Sheds high-value and action cards first and keeps wilds for when nothing else plays (a wild
  held is an escape; one left in hand at the end costs 50).
- Follows the colour it holds most, and names that colour for a wild.
- Punishes the player about to go out: with the next player on one or two cards it plays Draw
  Two, Skip, Wild Draw Four or Reverse before anything else.
- Calls UNO with its next-to-last card, and catches anyone who forgot to.
- Challenges a Wild Draw Four when the previous player probably held the colour, judged from
  the cards it can't see (hypergeometric odds) and from seeing them draw on that colour.
- Never bluffs a Wild Draw Four and never draws voluntarily.
- No Mercy: names the Roulette's colour, when it is played on it, as the colour of most cards
  it can't see (the likeliest to come soon); with two players left it plays a Wild Reverse
  Draw Four (which then makes its player draw) only with another draw card of +4 or more (not
  a second one: it would come back too) to send the total back, and counts a Reverse as a
  Skip.
"""

from __future__ import annotations

from random import Random

from unobot.ai.observation import Observation
from unobot.ai.teams import partner_bonus, spares_partner, team_color
from unobot.engine import (
    Action,
    CallUno,
    Catch,
    Challenge,
    ChooseColor,
    Draw,
    Pass,
    Phase,
    Play,
    Swap,
)
from unobot.engine.cards import CARDS, Card, Color, Rank, full_deck, no_mercy_deck
from unobot.engine.rules import Deck

__all__ = ["NormalStrategy", "best_color", "guilty_odds", "roulette_answer", "unseen_cards"]

CHALLENGE_THRESHOLD = 0.7
"""Challenge when the odds that the WD4 was a bluff exceed this. A wrong challenge costs two
extra cards, a right one gives the bluffer four and saves our four; but most players don't
bluff often, so the odds computed as if their hand were random overstate guilt."""


def best_color(hand: tuple[Card, ...] | list[Card], skip: Card | None = None) -> Color:
    """The colour held most (ties: the one with more points), to name for a wild."""
    weight = [0.0, 0.0, 0.0, 0.0]
    skipped = False
    for card in hand:
        if card is skip and not skipped:
            skipped = True
            continue
        if card.color is not None:
            weight[card.color] += 1.0 + card.points / 100.0
    return Color(weight.index(max(weight)))


def unseen_cards(obs: Observation) -> list[Card]:
    """Cards this seat can't place: the full deck less its own hand and the discard pile."""
    left = [0] * len(CARDS)
    nm = obs.rules.deck is Deck.NO_MERCY
    for card in no_mercy_deck() if nm else full_deck(obs.decks):
        left[card.code] += 1
    for card in obs.hand:
        left[card.code] -= 1
    for card in obs.discard:
        left[card.code] -= 1
    out: list[Card] = []
    for code, count in enumerate(left):
        if count > 0:
            out += [CARDS[code]] * count
    return out


def guilty_odds(obs: Observation) -> float:
    """Chance that the player of the Wild Draw Four on top held the colour before it."""
    if not obs.history or obs.history[-1].card.rank is not Rank.WILD_DRAW_FOUR:
        return 0.0
    last = obs.history[-1]
    color = last.color_before
    if color in obs.voids[last.seat]:
        return 0.05
    unseen = unseen_cards(obs)
    total = len(unseen)
    of_color = sum(1 for c in unseen if c.color is color)
    held = obs.counts[last.seat]
    none = 1.0
    for i in range(held):
        if total - i <= 0:
            break
        none *= max(0, total - of_color - i) / (total - i)
    return 1.0 - none


def _uno_variant(plays: list[Play]) -> dict[Card, list[Play]]:
    """Plays by card, keeping the UNO-calling variant where the rules offer both."""
    by_card: dict[Card, list[Play]] = {}
    for play in plays:
        by_card.setdefault(play.card, []).append(play)
    for card, options in by_card.items():
        if any(p.uno for p in options):
            by_card[card] = [p for p in options if p.uno]
    return by_card


class NormalStrategy:
    name = "normal"

    def __init__(self, rng: Random) -> None:
        self.rng = rng

    def act(self, obs: Observation) -> Action | None:
        legal = obs.legal
        for action in legal:  # free out-of-turn actions first: they never cost the turn
            if type(action) is CallUno and obs.exposed == obs.seat:
                return action
            if type(action) is Catch and spares_partner(obs, action):
                return action
        if not obs.my_turn:
            return self.jump(obs)
        if not legal:
            return None
        if obs.phase is Phase.CHOOSE_COLOR:
            return ChooseColor(best_color(obs.hand))
        if obs.phase is Phase.ROULETTE:
            return ChooseColor(roulette_answer(obs))
        if obs.phase is Phase.CHOOSE_SWAP:
            return Swap(swap_target(obs))
        plays = [a for a in legal if type(a) is Play]
        if obs.phase is Phase.PENDING:
            if plays:  # stacking passes the total on
                return self.best_play(obs, plays)
            if Challenge() in legal and guilty_odds(obs) > CHALLENGE_THRESHOLD:
                return Challenge()
            return Draw()
        if plays:
            best = self.best_play(obs, plays)
            if (
                obs.phase is Phase.DRAWN
                and Pass() in legal
                and best.card.is_wild
                and len(obs.hand) > 3
                and obs.counts[obs.next_seat(1)] > 2
            ):
                return Pass()  # keep a drawn wild for later
            return best
        if Draw() in legal:
            return Draw()
        if Pass() in legal:
            return Pass()
        return legal[0]

    def jump(self, obs: Observation) -> Action | None:
        """Jump-In: jump in whenever the card on top is in hand (it sheds a card and takes
        the turn from the players between), unless it is a 7 or 0 of Seven-O that would only
        help others (then the usual scoring of :meth:`best_play` decides, as in turn)."""
        plays = [a for a in obs.legal if type(a) is Play]
        if not plays:
            return None
        best = self.best_play(obs, plays)
        if obs.rules.seven_o and best.card.rank in (0, 7) and seven_o_value(obs, best.card) < 0:
            return None
        return best

    def best_play(self, obs: Observation, plays: list[Play]) -> Play:
        """The play that scores best by the rules of thumb above."""
        hand = obs.hand
        colors = [0, 0, 0, 0]
        for card in hand:
            if card.color is not None:
                colors[card.color] += 1
        threatened = obs.counts[obs.next_seat(1)] <= 2
        holds_color = colors[obs.color] > 0
        two_left = obs.players_left() == 2
        # No Mercy, two left: a Wild Reverse Draw Four makes its own player draw, unless
        # another draw card of +4 or more sends the total back (docs/rules.md).
        own_wrd4 = two_left and not obs.rules.legacy_no_mercy
        sends_back = any(c.draw >= 4 and c.rank is not Rank.WILD_REVERSE_DRAW_FOUR for c in hand)
        best: Play | None = None
        best_score = -1e9
        for card, options in _uno_variant(plays).items():
            rank = card.rank
            score = float(card.points)
            if card.is_wild:
                score = 0.0 if len(hand) <= 2 else -60.0
                if rank is Rank.WILD_DRAW_FOUR and holds_color and obs.rules.wd4_challenge:
                    score -= 100.0  # a bluff: never, unless nothing else is legal
            else:
                score += 3.0 * (colors[card.color] - 1)  # type: ignore[index]
            if threatened:
                score += {
                    Rank.DRAW_TWO: 100.0,
                    Rank.WILD_DRAW_FOUR: 160.0,
                    Rank.SKIP: 90.0,
                    Rank.REVERSE: 90.0 if two_left else 60.0,
                    **NO_MERCY_STOPS,
                }.get(rank, 0.0)
            if own_wrd4 and rank is Rank.WILD_REVERSE_DRAW_FOUR and not sends_back:
                score -= WRD4_ON_SELF
            if rank is Rank.DISCARD_ALL:
                # No Mercy: it sheds every other card of its colour too; the nearer the mercy
                # limit, the more each card shed is worth.
                near = len(hand) >= obs.rules.mercy_limit - 8
                score += (25.0 if near else 12.0) * (colors[card.color] - 1)  # type: ignore[index]
            if obs.rules.teams:
                score += partner_bonus(obs, card)
            if obs.rules.seven_o and rank in (Rank.ZERO, Rank.SEVEN):
                score += seven_o_value(obs, card)
            score += self.rng.random() * 0.01  # break ties without a fixed bias
            if score > best_score:
                best_score = score
                if card.is_wild:
                    color = best_color(hand, skip=card)
                    if rank is Rank.WILD_COLOR_ROULETTE:
                        color = roulette_color(obs, hand, card, color)
                    if obs.rules.teams:
                        color = team_color(obs, hand, color)
                    matching = [p for p in options if p.color is color]
                    best = matching[0] if matching else options[0]
                else:
                    best = options[0]
        assert best is not None
        return best


NO_MERCY_STOPS: dict[Rank, float] = {
    Rank.DRAW_FOUR: 150.0,
    Rank.WILD_REVERSE_DRAW_FOUR: 160.0,
    Rank.WILD_DRAW_SIX: 170.0,
    Rank.WILD_DRAW_TEN: 180.0,
    Rank.WILD_COLOR_ROULETTE: 150.0,
    Rank.SKIP_EVERYONE: 90.0,
}
"""No Mercy: what stopping a player close to going out is worth with each new card."""


WRD4_ON_SELF = 200.0
"""No Mercy with two players left: what a Wild Reverse Draw Four that makes its own player
draw four costs (played then only when nothing else goes)."""


def roulette_answer(obs: Observation) -> Color:
    """No Mercy's Roulette played on this seat: the colour of most cards it can't see (in the
    draw pile or others' hands: the likeliest to come up soon, so the fewest cards drawn); on
    a tie the one it holds most (it is in force afterwards), then the first. ``hard``'s
    playouts answer the same (``unobot.ai.playout``)."""
    unseen = [0, 0, 0, 0]
    for card in unseen_cards(obs):
        if card.color is not None:
            unseen[card.color] += 1
    held = [0, 0, 0, 0]
    for card in obs.hand:
        if card.color is not None:
            held[card.color] += 1
    best = max(range(4), key=lambda c: (unseen[c], held[c], -c))
    return Color(best)


def roulette_color(obs: Observation, hand: tuple[Card, ...], card: Card, own: Color) -> Color:
    """No Mercy's Colour Roulette in a game journaled before version 4, when its player named
    the colour (``HouseRules.legacy_no_mercy``): a colour the next player is known to lack
    (they drew on it), so they turn up more cards looking for it; of those, the one this hand
    holds most (it is the colour to play on next). Else this hand's own best colour."""
    lacking = obs.voids[obs.next_seat(1)] if obs.voids else frozenset()
    if not lacking:
        return own
    held = [0, 0, 0, 0]
    for c in hand:
        if c is not card and c.color is not None:
            held[c.color] += 1
    return max(sorted(lacking), key=lambda c: held[c])


def swap_target(obs: Observation) -> int:
    """Seven-O: whom to swap with: the player with fewest cards (the first of them in the
    direction of play), as the engine's timeout default does."""
    best = -1
    for step in range(1, obs.players):
        other = (obs.seat + obs.direction * step) % obs.players
        if not obs.counts[other]:
            continue  # No Mercy: out by the mercy rule (anyone else with no cards has won)
        if best < 0 or obs.counts[other] < obs.counts[best]:
            best = other
    return best


def seven_o_value(obs: Observation, card: Card) -> float:
    """How much a 7 or 0 of Seven-O gains in cards, times ten: a 7 trades this hand (less the
    7) for the smallest other one; a 0 trades it for the previous player's (in the direction of
    play), since every hand moves on one seat."""
    mine = len(obs.hand) - 1
    if card.rank == 7:
        other = obs.counts[swap_target(obs)]
    else:
        other = obs.counts[(obs.seat - obs.direction) % obs.players]
    return 10.0 * (mine - other)
