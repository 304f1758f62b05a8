"""``hard``: determinised Monte-Carlo search over the engine, with ``normal`` as the model of
the other players.

On each turn with more than one distinct move (which card, which colour for a wild, play or
keep a drawn card, challenge or not, the colour of a starting Wild, whom a 7 swaps with, and,
where the rules let a player draw instead of playing, holding back a wild that is its only
card to play: such a draw must win clearly, ``FREE_DRAW_Z``) it repeatedly:

1. samples a world consistent with what its seat has seen (:class:`Dealer`): the cards it can't
   see dealt to the other hands, by their public counts, and to the draw pile, each hand avoiding
   what public play says it lacks (``Observation.hidden``: a player who had to draw held nothing
   playable; one who keeps wilds for last and sheds high cards first, as ``normal`` does, gives
   away more by playing a wild or a low card of the colour), and each hand one from which
   ``normal`` would have made every free choice the seat made since it last drew (the card, and
   the colour named for a wild; ``Observation.runs``), and likely to have made its choices from
   before that draw too (``Observation.earlier``: a card ``normal`` would have preferred then
   must be one of the cards taken since); wilds are drawn into hands a little less often than
   a blind deal would, matching how often real hands hold them;
2. applies every candidate move to a copy of that world and plays the hand out with every other
   seat following ``normal``'s rules and its own seat nearly so (:mod:`unobot.ai.playout`,
   compiled with mypyc), using the same dice for every candidate, so that their difference is
   the move and not the luck.

Every ``PRUNE_EVERY`` worlds, moves clearly behind the leader are dropped, so the rest of the
time goes to the moves still in question. The move that won most playouts is chosen (``normal``'s
own move on a tie). Against ``normal`` players the playouts predict the opponents almost exactly
(tests check that the playout policy and ``NormalStrategy`` agree on ~98% of decisions), which
is what makes a one-move search pay. What still limits it is the hidden cards: given the
real hands (a diagnostic, not a strategy) the same search wins 54% against three ``normal``.

The search runs within a time budget per move (``budget_ms``, default 200) or, for reproducible
tests, a fixed number of playouts (``playouts``). Out-of-turn calls (UNO, catches) follow
``normal``'s rules: they are free and never wrong to make.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from random import Random

from unobot.ai.normal import NormalStrategy, best_color, swap_target, unseen_cards
from unobot.ai.observation import EarlierChoice, LastPlay, Observation
from unobot.ai.playout import play_out
from unobot.ai.teams import spares_partner
from unobot.ai.teams import team as team_seats
from unobot.engine import (
    Action,
    CallUno,
    Catch,
    Challenge,
    ChooseColor,
    Draw,
    Game,
    HouseRules,
    Pass,
    Phase,
    Play,
    Swap,
)
from unobot.engine.cards import CARDS, Card, Color, Rank, shuffle

__all__ = ["Dealer", "HardStrategy", "deal_hidden", "determinise", "rollout"]

MAX_ROLLOUT_ACTIONS = 3000
"""A guard only: a hand in which nobody can play and the pile is empty could cycle forever."""


def determinise(obs: Observation, rng: Random, dealer: Dealer | None = None) -> Callable[[], Game]:
    """A full game state consistent with ``obs`` (hidden cards dealt at random, honouring what
    the public actions say each hand lacks: :class:`Dealer`), as a function giving a fresh copy
    of it on each call. ``dealer``: one made for ``obs`` already (it saves the set-up)."""
    hands, pile = (dealer or Dealer(obs)).deal(rng)
    guilty = False
    if obs.phase is Phase.PENDING and obs.top.rank is Rank.WILD_DRAW_FOUR and obs.history:
        last = obs.history[-1]
        guilty = any(c.color is last.color_before for c in hands[last.seat])
    discard = list(obs.discard[:-1])
    seed = rng.random()
    # No Mercy: the seats the mercy rule put out hold nothing and are passed over (a world
    # without them would count "two players left" wrong, and deal them turns).
    out = tuple(s for s, n in enumerate(obs.counts) if not n) if obs.rules.mercy_limit else ()

    def build() -> Game:
        # from_position copies the lists it is given, so every call starts from the same world.
        return Game.from_position(
            obs.rules,
            hands,
            obs.top,
            color=obs.color,
            draw_pile=pile,
            discard=discard,
            current=obs.current,
            direction=obs.direction,
            rng=Random(seed),
            pending=obs.pending,
            phase=obs.phase,
            drawn=obs.drawn,
            wd4_guilty=guilty,
            out=out,
        )

    return build


def deal_hidden(obs: Observation, rng: Random) -> tuple[list[list[Card]], list[Card]]:
    """Every hand and the draw pile (in drawing order) of one world consistent with ``obs``:
    see :class:`Dealer`."""
    return Dealer(obs).deal(rng)


class Dealer:
    """Deals the cards ``obs.seat`` can't see at random to the other hands and the draw pile,
    so that each hand fits what the public play says about it.

    Two kinds of facts. Per part of a hand (``obs.hidden``), cards it lacks: a seat that drew on
    a colour holds none of it unless it drew one since; a wild played with cards to spare, or a
    low card played on its own colour, says more (for a player who keeps wilds and sheds high
    cards first, as ``normal`` does). The likely facts are tried first, then only the certain
    ones, then none (they can contradict: a human keeps a wild for no reason). And per seat, its
    free choices since it last drew (``obs.runs``): a dealt hand should be one from which
    ``normal`` would have made each of them (card and colour named); its earlier choices, from
    before that draw (``obs.earlier``), weigh a hand by how likely the cards ``normal`` would have
    preferred then are all among the cards taken since (:func:`_earlier_odds`).

    Seats are dealt one at a time, the most constrained first, each hand drawn at random from
    the cards still free that its parts may hold; a hand that fails a choice is put back and
    drawn again, as is one that fits them but loses the draw against its earlier choices' odds
    (rejection sampling), up to ``REDEALS`` times (then the one that fitted most choices, with
    the best odds, is kept). Redrawing one hand instead of the whole world makes a consistent
    world cheap enough to build for every playout. The draw pile is the rest, shuffled.
    Everything but the dealing is worked out once per decision, in the constructor.
    """

    def __init__(self, obs: Observation) -> None:
        self.unseen = unseen_cards(obs)
        self.players = obs.players
        self.seat = obs.seat
        self.hand = list(obs.hand)
        self.rules = obs.rules
        # Per seat, (cards laid since, choice): its hand at that choice was its hand now plus
        # the choice's card and the cards laid since.
        self.checks: list[list[tuple[list[Card], LastPlay]]] = [[] for _ in range(obs.players)]
        for seat, run in enumerate(obs.runs):
            if seat == obs.seat or seat >= obs.players:
                continue
            for k, (_, last) in enumerate(run):
                if last is not None:
                    self.checks[seat].append(([card for card, _ in run[k + 1 :]], last))
        # Per seat, its choices from before its last draw (``EarlierChoice``), which a dealt
        # hand fits only as likely as the unseen cards taken since happen to be the ones
        # ``normal`` would have preferred.
        self.earlier: list[list[EarlierChoice]] = [[] for _ in range(obs.players)]
        for seat, choices in enumerate(obs.earlier):
            if seat != obs.seat and seat < obs.players:
                self.earlier[seat] = list(choices)
        # Per level (likely, certain, none): per seat, most constrained first, its parts as
        # (cards, mask).
        self.plans: list[list[tuple[int, list[tuple[int, int]]]]] = []
        for which in (2, 1, 0):
            seats: list[tuple[int, int, list[tuple[int, int]]]] = []
            for seat in range(obs.players):
                if seat == obs.seat:
                    continue
                segments = obs.hidden[seat] if seat < len(obs.hidden) else ()
                if not segments:
                    segments = ((obs.counts[seat], 0, 0),)
                parts: list[tuple[int, int]] = []
                slack = 1 << 30
                for segment in segments:
                    mask = segment[which] if which else 0
                    room = sum(1 for c in self.unseen if not mask & c.bit)
                    slack = min(slack, room - segment[0])
                    parts.append((segment[0], mask))
                parts.sort(key=lambda part: -bin(part[1]).count("1"))
                seats.append((slack, seat, parts))
            seats.sort(key=lambda entry: entry[0])
            plan = [(seat, parts) for _, seat, parts in seats]
            if not self.plans or plan != self.plans[-1]:
                self.plans.append(plan)

    def deal(self, rng: Random) -> tuple[list[list[Card]], list[Card]]:
        """Every hand (this seat's own as it is) and the draw pile, for one random world."""
        for plan in self.plans:
            dealt = self._deal(plan, rng)
            if dealt is not None:
                return dealt
        raise AssertionError("dealing without constraints cannot fail")

    def _deal(
        self, plan: list[tuple[int, list[tuple[int, int]]]], rng: Random
    ) -> tuple[list[list[Card]], list[Card]] | None:
        rand = rng.random
        pool = list(self.unseen)
        hands: list[list[Card]] = [[] for _ in range(self.players)]
        hands[self.seat] = list(self.hand)
        rules = self.rules
        players = self.players
        for seat, parts in plan:
            checks = self.checks[seat]
            earlier = self.earlier[seat]
            best: list[Card] | None = None
            best_misses = 1 << 30
            best_odds = -1.0
            for _ in range(REDEALS if checks or earlier else 1):
                hand = _draw_hand(pool, parts, rand)
                if hand is None:
                    if best is not None:
                        break
                    return None
                misses = 0
                for since, last in checks:
                    if not normal_would_play(hand + since, last, rules, players):
                        misses += 1
                odds = 1.0
                if misses == 0:
                    for choice in earlier:
                        odds *= _earlier_odds(hand, choice, rules, players)
                kept = misses == 0 and (odds >= 1.0 or rand() < odds)
                if kept or misses < best_misses or (misses == best_misses and odds > best_odds):
                    if best is not None:
                        pool += best
                    best, best_misses, best_odds = hand, misses, odds
                    if kept:
                        break
                else:
                    pool += hand
            assert best is not None
            hands[seat] = best
        shuffle(pool, rng)
        return hands, pool


def _draw_hand(
    pool: list[Card], parts: list[tuple[int, int]], rand: Callable[[], float]
) -> list[Card] | None:
    """Take from ``pool`` at random, for each part, its number of cards avoiding its mask (the
    cards leave the pool). None, with the pool as it was, if some part can't be filled."""
    hand: list[Card] = []
    for need, mask in parts:
        tries = 0
        while need > 0:
            size = len(pool)
            if size == 0:
                pool += hand
                return None
            i = int(rand() * size)
            card = pool[i]
            if mask & card.bit or rand() >= _KEEP[card.code]:
                tries += 1
                if tries < 12:
                    continue
                # Few cards fit (or the thinning kept refusing): choose among those that fit.
                fits = [j for j in range(size) if not mask & pool[j].bit]
                if not fits:
                    pool += hand
                    return None
                i = fits[int(rand() * len(fits))]
                card = pool[i]
            pool[i] = pool[-1]
            pool.pop()
            hand.append(card)
            need -= 1
    return hand


HABIT_DECAY = 0.0
WILD_KEEP = 0.6
_KEEP = [WILD_KEEP if c.is_wild else math.exp(-HABIT_DECAY * c.points) for c in CARDS]
"""Per card code, the chance a card drawn at random for a hidden hand is kept there (else it is
drawn again). Players who play a wild as soon as nothing else goes (``normal``, most people) hold
fewer wilds than a blind deal gives them. Without this, sampled hands held a wild noticeably
more often than the real hands of ``normal`` players (e.g. sampled 44% -> real 34%). Thinning
high cards too (``HABIT_DECAY``, the keep odds falling with a card's points) matched them
before the dealer weighed choices made before a seat's last draw; those choices now say the
same about high cards, and thinning on top made action cards rarer than they really are, so
it is off. Both figures are chosen by hand; ``tests/ai/test_observation.py``'s calibration test
checks them (sampled odds of a wild, an action card, a 7-9 and each colour within a few points
of the real hands)."""

REDEALS = 30
"""Draws of one seat's hand at a world that fits its free choices (see ``Dealer``)."""


def _earlier_odds(
    hand: list[Card], choice: EarlierChoice, rules: HouseRules, players: int
) -> float:
    """How likely a seat that made the earlier choice ``choice`` holds ``hand`` now, against a
    hand that fits the choice outright. Its hand then was ``hand`` plus the cards laid since,
    less the ``taken`` cards taken since. A card of ``hand`` it certainly lacked at a later draw
    is one of those; of the ``n`` others, each card ``normal`` would have preferred must be one
    too: with ``b`` of them and ``t`` taken cards left to place, the chance is
    C(n-b, t-b) / C(n, t) (0 when b > t)."""
    last, since, taken, lacks = choice
    held = list(since)
    for card in hand:
        if lacks & card.bit:
            taken -= 1
        else:
            held.append(card)
    n = len(held)
    taken = min(max(taken, 0), n)  # (only if events were missed could it be outside)
    b = normal_objections(held, last, rules, players, n - taken + 1, taken + 1)
    if b == 0:
        return 1.0
    if b > taken:
        return 0.0
    odds = 1.0
    for i in range(b):
        odds *= (taken - i) / (n - i)
    return odds


_THREAT_BONUS = {Rank.DRAW_TWO: 100.0, Rank.WILD_DRAW_FOUR: 160.0, Rank.SKIP: 90.0}


def normal_would_play(after: list[Card], last: LastPlay, rules: HouseRules, players: int) -> bool:
    """Would ``normal`` (``NormalStrategy.best_play``), holding ``after`` plus ``last.card``,
    have chosen ``last.card`` (within its random tie-break) and, for a wild, the colour named?"""
    return normal_objections(after, last, rules, players, len(after) + 1, 1) == 0


def normal_objections(
    after: list[Card], last: LastPlay, rules: HouseRules, players: int, size: int, limit: int
) -> int:
    """How many cards of ``after`` ``normal`` would have played instead of ``last.card`` (and 1
    more if, for a wild, it would have named another colour), counting up to ``limit`` only.
    ``size``: the hand's size at the choice (``after`` may hold cards taken since)."""
    card = last.card
    colors = [0, 0, 0, 0]
    for c in after:
        if c.color is not None:
            colors[c.color] += 1
    if card.color is not None:
        colors[card.color] += 1
    threatened = last.next_count <= 2
    holds = colors[last.color_before] > 0
    bluff = holds and rules.wd4_challenge
    top = last.top
    # Seven-O: ``normal`` scores a 7 or 0 by the cards it gains (``normal.seven_o_value``).
    gain7 = gain0 = 0.0
    if rules.seven_o and last.fewest >= 0:
        gain7 = 10.0 * (size - 1 - last.fewest)
        gain0 = 10.0 * (size - 1 - last.before_count)
    chosen = _normal_score(card, size, bluff, colors, threatened, players, gain7, gain0) + 0.011
    found = 0
    for c in after:  # normal breaks ties with up to 0.01 of noise
        if c.is_wild:
            if c.rank is Rank.WILD_DRAW_FOUR and holds and not rules.wd4_challenge:
                continue  # not a legal play then
        elif c.color is not last.color_before and (top.is_wild or c.rank is not top.rank):
            continue
        if _normal_score(c, size, bluff, colors, threatened, players, gain7, gain0) > chosen:
            found += 1
            if found >= limit:
                return found
    if card.is_wild and best_color(after) is not last.color_after:
        found += 1
    return found


def _normal_score(
    c: Card,
    size: int,
    bluff: bool,
    colors: list[int],
    threatened: bool,
    players: int,
    gain7: float = 0.0,
    gain0: float = 0.0,
) -> float:
    """``NormalStrategy.best_play``'s score of playing ``c`` (without the tie-break noise);
    ``gain7``/``gain0``: Seven-O's value of a 7 / a 0 then."""
    if c.is_wild:
        value = 0.0 if size <= 2 else -60.0
        if bluff and c.rank is Rank.WILD_DRAW_FOUR:
            value -= 100.0
    else:
        value = c.points + 3.0 * (colors[c.color] - 1)  # type: ignore[index]
    if threatened:
        if c.rank is Rank.REVERSE:
            value += 60.0 if players > 2 else 90.0
        else:
            value += _THREAT_BONUS.get(c.rank, 0.0)
    if c.rank == 7:
        value += gain7
    elif c.rank == 0:
        value += gain0
    return value


def rollout(game: Game, rng: Random, color_before: int = -1) -> int:
    """Play the hand out with a fast policy (random, preferring a card over drawing).

    Returns the winning seat, or -1 if the guard stopped it.
    """
    rand = rng.random
    for _ in range(MAX_ROLLOUT_ACTIONS):
        if game.outcome is not None:
            return game.outcome.winner
        seat = game.current
        legal = game.legal_actions(seat)
        action = legal[int(rand() * len(legal))]
        if type(action) is not Play and len(legal) > 1:
            action = legal[int(rand() * len(legal))]  # once more: usually a card
        game.apply(seat, action)
    return -1


def greedy_rollout(game: Game, rng: Random, color_before: int = -1) -> int:
    """Play the hand out with a cheap imitation of the ``normal`` player: each seat lays its
    highest-scoring playable card (wilds last, naming the colour it holds most), hits a next
    player who is about to go out, draws only when it must and calls UNO; a little noise varies
    the playouts. Returns the winning seat, or -1 if the guard stopped it.
    """
    rand = rng.random
    for _ in range(MAX_ROLLOUT_ACTIONS):
        if game.outcome is not None:
            return game.outcome.winner
        seat = game.current
        legal = game.legal_actions(seat)
        if len(legal) == 1:
            game.apply(seat, legal[0])
            continue
        threat = game.hand_size(game.next_seat(1)) <= 2
        best = legal[0]
        best_score = -1e9
        for action in legal:
            kind = type(action)
            if kind is Play:
                card = action.card  # type: ignore[union-attr]
                score = (-40.0 if card.is_wild else card.points) + rand() * 12.0
                if threat and card.rank >= _SKIP and card.rank is not Rank.WILD:
                    score += 100.0
                if action.uno:  # type: ignore[union-attr]
                    score += 0.5
            elif kind is Challenge:
                score = 0.0 if rand() < 0.5 else -200.0  # players challenge about half the time
            else:
                score = -100.0
            if score > best_score:
                best_score = score
                best = action
        if type(best) is Play and game.names_color(best.card):
            color = best_color(game.hand(seat), skip=best.card)
            best = Play(best.card, color, best.uno)
        game.apply(seat, best)
    return -1


_SKIP = Rank.SKIP


ROLLOUTS: dict[str, Callable[[Game, float, int, int], int]] = {
    "random": lambda game, dice, before, hero: rollout(game, Random(dice), before),
    "greedy": lambda game, dice, before, hero: greedy_rollout(game, Random(dice), before),
    "normal": lambda game, dice, before, hero: play_out(game, dice, before),
    "normal+": play_out,
}
"""Playout policies by name, each given the game, a random number in [0, 1) to seed any
randomness, the colour under a Wild Draw Four just played (-1: none) and the searching seat
(``normal+`` plays its moves a little differently: ``unobot.ai.playout.HERO_POINT_WEIGHT``)."""


def candidates(obs: Observation) -> list[Action]:
    """The distinct moves worth searching: one play per card and colour named (UNO called where
    the rules offer it), then draw / pass / challenge, or the colours a starting Wild may be
    given, or (Seven-O) whom to swap hands with: a 7 once per player it may name, and after a
    7 laid without one, each of them. A draw the rules offer beside a card to play only when
    every such card is a wild."""
    by_card: dict[tuple[Card, Color | None], Play] = {}
    others: list[Action] = []
    for action in obs.legal:
        if type(action) is Play:
            key = (action.card, action.color)
            old = by_card.get(key)
            if old is None or (action.uno and not old.uno):
                by_card[key] = action
        elif type(action) in (Draw, Pass, Challenge, ChooseColor, Swap):
            others.append(action)
    if by_card and obs.phase is Phase.PLAY and any(not card.is_wild for card, _ in by_card):
        # A draw while a card could be played (``voluntary_draw``) is searched only when every
        # such card is a wild, the card worth holding back. Elsewhere it is almost never right,
        # and searching it took playouts from the real choices (docs/benchmarks.md: 18.5% of
        # 200 hands won against three ``normal`` at 20 ms a move, searched at every turn).
        others = [a for a in others if type(a) is not Draw]
    plays: list[Action] = []
    for play in by_card.values():
        if play.card.rank == 7 and obs.rules.seven_o and play.target < 0 and len(obs.hand) > 1:
            # Seven-O: the 7 with each player it may swap with, searched together (at an IRC
            # table the 7 names its target in the same move: ``core.computers.named_swap``).
            plays += [
                Play(play.card, play.color, play.uno, target)
                for target in range(obs.players)
                if target != obs.seat and obs.counts[target]
            ]
        else:
            plays.append(play)
    return [*plays, *others]


class HardStrategy:
    name = "hard"

    def __init__(
        self,
        rng: Random,
        *,
        budget_ms: float = 200.0,
        playouts: int | None = None,
        rollout: str = "normal+",
        margin: float = 0.0,
    ) -> None:
        self.rng = rng
        self.rollout = ROLLOUTS[rollout]
        self.margin = margin
        self.budget = budget_ms / 1000.0
        self.playouts = playouts
        self.normal = NormalStrategy(rng)

    def act(self, obs: Observation) -> Action | None:
        if not obs.my_turn:
            return self.normal.act(obs)
        for action in obs.legal:  # free calls and catches, as normal does
            if (type(action) is CallUno and obs.exposed == obs.seat) or (
                type(action) is Catch and spares_partner(obs, action)
            ):
                return action
        moves = candidates(obs)
        if len(moves) <= 1:
            return moves[0] if moves else self.normal.act(obs)
        prior = -1
        usual = self.normal.act(obs)
        if type(usual) is Play and usual.card.rank == 7 and obs.rules.seven_o:
            usual = Play(usual.card, usual.color, usual.uno, swap_target(obs))  # named_swap's
        for i, move in enumerate(moves):
            if move == usual or (  # the same card and colour, with or without the UNO call
                type(move) is Play
                and type(usual) is Play
                and (move.card, move.color, move.target) == (usual.card, usual.color, usual.target)
            ):
                prior = i
                break
        # A draw where a card could be played (the rules let a player hold one back) must
        # clearly beat the usual move: it is seldom right, and a search of a few dozen worlds
        # would otherwise take it on noise alone.
        margins = [
            max(self.margin, FREE_DRAW_Z)
            if type(move) is Draw and obs.phase is Phase.PLAY
            else self.margin
            for move in moves
        ]
        return moves[self.search(obs, moves, prior, margins)]

    def search(
        self,
        obs: Observation,
        moves: list[Action],
        prior: int = -1,
        margins: list[float] | None = None,
    ) -> int:
        """Index of the move that won the most playouts.

        Every candidate is played out on the same worlds. Every ``PRUNE_EVERY`` worlds, a move
        that trails the leader by more than ``PRUNE_Z`` standard deviations on the worlds they
        both played (a sign test on the worlds where exactly one of them won) is dropped, so the
        rest of the budget goes to the moves still in question.

        ``prior`` (the ``normal`` player's choice) is kept unless another move beat it by more
        than ``margin`` standard deviations, compared the same way (``margins``: per move, for a
        move that must win more clearly). The default 0 keeps the prior only on ties.
        """
        rng = self.rng
        seat = obs.seat
        results = [0] * len(moves)  # bit w set: the move won on world w
        active = list(range(len(moves)))
        worlds = 0
        played = 0
        limit = self.playouts
        playout = self.rollout
        deadline = time.perf_counter() + self.budget
        # The colour in force under a Wild Draw Four we play: the victim's challenge odds.
        before = [
            int(obs.color) if type(m) is Play and m.card.rank is Rank.WILD_DRAW_FOUR else -1
            for m in moves
        ]
        dealer = Dealer(obs)
        mine = team_seats(obs)  # a playout any teammate wins is won
        while True:
            world = determinise(obs, rng, dealer)()
            # Common random numbers: every candidate is played out from the same world with
            # the same rollout dice and reshuffles, so their difference is the move, not luck.
            dice = rng.random()
            reshuffle = world.rng  # copies share it: each playout starts it from one state
            state = reshuffle.getstate()
            bit = 1 << worlds
            for i in active:
                game = world.copy()
                reshuffle.setstate(state)
                game.apply(seat, moves[i])
                won = playout(game, dice, before[i], seat)
                if won in mine:
                    results[i] |= bit
            worlds += 1
            played += len(active)
            if limit is not None:
                if played >= limit:
                    break
            elif time.perf_counter() >= deadline:
                break
            if worlds % PRUNE_EVERY == 0 and len(active) > 1:
                lead = max(active, key=lambda i: results[i].bit_count())
                active = [i for i in active if i == lead or not beaten(results[lead], results[i])]
        best = max(active, key=lambda i: results[i].bit_count())
        if (
            margins is not None
            and best != prior
            and prior in active
            and margins[best] > self.margin
            and not beaten(results[best], results[prior], margins[best])
        ):
            # A move that must win more clearly than the others didn't: the choice is made
            # among the others as usual.
            active = [i for i in active if margins[i] <= self.margin]
            best = max(active, key=lambda i: results[i].bit_count())
        if prior < 0 or best == prior or prior not in active:
            return best
        if beaten(results[best], results[prior], self.margin):
            return best
        return prior


PRUNE_EVERY = 24
"""Worlds between two prunings of the candidates."""

FREE_DRAW_Z = 2.5
"""How clearly (standard deviations, the sign test of :func:`beaten`) a draw taken while a card
could be played must beat the ``normal`` player's move to be chosen."""

PRUNE_Z = 2.5
"""How clearly (standard deviations) a move must trail the leader to be searched no further."""


def beaten(lead: int, other: int, z: float = PRUNE_Z) -> bool:
    """Did ``lead`` win clearly more of the common worlds than ``other``? (Bitmasks of the
    worlds each won; a sign test on the worlds only one of them won.)"""
    better = (lead & ~other).bit_count()
    worse = (other & ~lead).bit_count()
    if z <= 0:
        return better > worse
    return better - worse > z * (better + worse) ** 0.5
