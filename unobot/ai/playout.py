"""Playouts for ``hard``: the ``normal`` player's rules of thumb, re-implemented on the engine.

``hard`` plays its candidate moves out to the end of the hand many times. How much that tells
it depends on how well the playout predicts the other players, and the players it meets most are
``normal`` ones (and humans playing much like them). So the playout policy here is
:class:`~unobot.ai.normal.NormalStrategy` itself, decision for decision (colour following, the
punishment of a next player on one or two cards, wilds kept for last, no voluntary draws, the
colour named, the drawn wild kept, its challenge odds), but read straight off a ``Game`` instead
of an ``Observation``: building an observation per move would cost more than the whole move.
``tests/ai/test_playout.py`` checks the two agree on the decisions of real games.

The module only uses the engine (no observation, no strategy objects) so that it can be compiled
with mypyc along with it (see ``setup.py``); it reads a few of the ``Game``'s internals (bitmasks
and per-card counts), which is why it lives next to the engine's hot path in spirit.
"""

from __future__ import annotations

from random import Random
from typing import Final

from unobot.ai.normal import NO_MERCY_STOPS, WRD4_ON_SELF
from unobot.engine import (
    Action,
    CallUno,
    Catch,
    Challenge,
    ChooseColor,
    Draw,
    Game,
    Pass,
    Phase,
    Play,
    Swap,
)
from unobot.engine.cards import CARDS, Card, Color, Rank

__all__ = ["MAX_PLAYOUT_ACTIONS", "normal_move", "normal_playout", "play_out", "playout_color"]

MAX_PLAYOUT_ACTIONS: Final = 3000
"""A guard only: a hand in which nobody can play and the pile is empty could cycle forever."""

CHALLENGE_ODDS: Final = 0.7
"""``normal``'s challenge threshold (``unobot.ai.normal.CHALLENGE_THRESHOLD``)."""

HERO_POINT_WEIGHT: Final = 0.0
HERO_WILD_SCORE: Final = -100.0
"""The searching seat's own moves in a playout: ``normal``'s rules but following the colour it
holds most regardless of points (points only matter if someone else wins) and keeping wilds a
little harder. On its own this wins 26.0% against three ``normal`` (40,000 hands) to their 25%,
and a playout policy closer to how the searcher really plays makes its search more accurate."""

_PLAY_PHASE: Final = Phase.PLAY
_DRAWN: Final = Phase.DRAWN
_PENDING: Final = Phase.PENDING
_CHOOSE: Final = Phase.CHOOSE_COLOR
_ROUL: Final = Phase.ROULETTE
_WD4: Final = Rank.WILD_DRAW_FOUR
_COLORS: Final = tuple(Color)
_CHOOSE_ACTS: Final = tuple(ChooseColor(c) for c in Color)
_DRAW_ACT: Final = Draw()
_SWAP_PHASE: Final = Phase.CHOOSE_SWAP
_PASS_ACT: Final = Pass()
_CHALLENGE_ACT: Final = Challenge()

# Per card code: the score ``normal`` gives a coloured card before its colour bonus (points), and
# the bonus for hitting a next player who is about to go out (by rank).
_POINTS: Final = tuple(float(c.points) for c in CARDS)
_THREAT: Final = tuple(
    {
        Rank.DRAW_TWO: 100.0,
        Rank.WILD_DRAW_FOUR: 160.0,
        Rank.SKIP: 90.0,
        **NO_MERCY_STOPS,  # No Mercy's cards, as ``normal`` scores them
    }.get(c.rank, 0.0)
    for c in CARDS
)
_DISCARD_ALL: Final = tuple(1.0 if c.rank is Rank.DISCARD_ALL else 0.0 for c in CARDS)
_SEVEN_O_RANK: Final = tuple(
    7 if c.rank is Rank.SEVEN else 1 if c.rank is Rank.ZERO else 0 for c in CARDS
)
"""Seven-O: per card code, 7 for a 7 (swap with the fewest cards), 1 for a 0 (rotate), else 0."""
_REVERSE_THREAT: Final = tuple(1.0 if c.rank is Rank.REVERSE else 0.0 for c in CARDS)
_POINT_WEIGHT: Final = tuple(c.points / 100.0 for c in CARDS)
_CODE_COLOR: Final = tuple(-1 if c.color is None else int(c.color) for c in CARDS)
_WRD4_CODE: Final = Card.of(None, Rank.WILD_REVERSE_DRAW_FOUR).code
_SENDS_BACK: Final = tuple(
    c.code for c in CARDS if c.draw >= 4 and c.rank is not Rank.WILD_REVERSE_DRAW_FOUR
)
"""No Mercy: cards that send a Wild Reverse Draw Four's total on (two players left)."""
_NO_MERCY_PER_COLOR: Final = 36
"""Cards of each colour in the No Mercy deck (the Roulette is only played with it)."""


def roulette_answer(game: Game, seat: int) -> Color:
    """``normal``'s answer to a Roulette played on ``seat`` (``unobot.ai.normal.
    roulette_answer``): the colour of most cards it can't see (the deck's less its own and the
    discard pile's), then the one it holds most, then the first."""
    unseen = [_NO_MERCY_PER_COLOR] * 4
    held = [0, 0, 0, 0]
    for code, count in enumerate(game._counts[seat]):
        color = _CODE_COLOR[code]
        if count and color >= 0:
            unseen[color] -= count
            held[color] += count
    for card in game.discard:
        if card.color is not None:
            unseen[card.color] -= 1
    best = 0
    for color in range(1, 4):
        if (unseen[color], held[color]) > (unseen[best], held[best]):
            best = color
    return _COLORS[best]


def playout_color(counts: list[int]) -> Color:
    """``normal``'s colour to name (``best_color``), from a per-code count of the hand: the
    colour held most, each card weighing 1 + points/100; the first colour wins ties."""
    best = 0
    best_weight = -1.0
    for color in range(4):
        weight = 0.0
        base = color * 13
        for code in range(base, base + 13):
            held = counts[code]
            if held:
                weight += held * (1.0 + _POINT_WEIGHT[code])
        if weight > best_weight:
            best_weight = weight
            best = color
    return _COLORS[best]


def _guilty_odds(game: Game, seat: int, color_before: int) -> float:
    """``normal``'s odds that the Wild Draw Four on top was a bluff, from ``seat``'s view: the
    chance that a hand of the offender's size, dealt from the cards ``seat`` can't see, holds
    the colour in force before it (hypergeometric)."""
    if color_before < 0:
        return 0.0
    offender = game.wd4_offender
    if offender < 0:
        return 0.0
    decks = game.rules.decks_for(game.n)
    mine = game._counts[seat]
    total = 108 * decks - game._sizes[seat] - len(game.discard)
    of_color = 25 * decks
    for code in range(color_before * 13, color_before * 13 + 13):
        of_color -= mine[code]
    for card in game.discard:
        if card.color is not None and card.color == color_before:
            of_color -= 1
    none = 1.0
    for i in range(game._sizes[offender]):
        if total - i <= 0:
            break
        none *= max(0, total - of_color - i) / (total - i)
    return 1.0 - none


def normal_move(
    game: Game,
    seat: int,
    legal: tuple[Action, ...],
    color_before: int,
    tie: float,
    point_weight: float = 1.0,
    wild_score: float = -60.0,
) -> Action:
    """What ``normal`` would do with ``legal`` on ``seat``'s turn (``NormalStrategy.act``).

    ``color_before`` is the colour in force before the Wild Draw Four on top (-1: unknown), for
    the challenge decision; ``tie`` in [0, 1) breaks ties between equally good cards.
    """
    plays = 0
    for action in legal:
        kind = type(action)
        if kind is Play:
            plays += 1
        elif kind is Catch or (kind is CallUno and game.exposed == seat):
            return action  # free and never costs the turn
    phase = game.phase
    if phase is _CHOOSE:
        return _CHOOSE_ACTS[playout_color(game._counts[seat])]
    if phase is _ROUL:
        return _CHOOSE_ACTS[roulette_answer(game, seat)]
    if phase is _SWAP_PHASE:  # Seven-O: swap with whoever holds fewest cards
        return Swap(game.default_swap_target(seat))
    if not plays:
        if phase is _PENDING:
            if _CHALLENGE_ACT in legal and _guilty_odds(game, seat, color_before) > CHALLENGE_ODDS:
                return _CHALLENGE_ACT
            return _DRAW_ACT
        if _DRAW_ACT in legal:
            return _DRAW_ACT
        if _PASS_ACT in legal:
            return _PASS_ACT
        return legal[0]
    counts = game._counts[seat]
    size = game._sizes[seat]
    colors = [0, 0, 0, 0]
    for color in range(4):
        base = color * 13
        colors[color] = sum(counts[base : base + 13])
    nm = game._nm
    discard_all = 12.0
    if nm:
        # No Mercy: ``normal`` counts its new coloured cards too, and Discard All's shedding
        # weighs more within 8 cards of the mercy limit.
        for code in range(52, len(counts)):
            held = counts[code]
            if held and _CODE_COLOR[code] >= 0:
                colors[_CODE_COLOR[code]] += held
        if size >= game.rules.mercy_limit - 8:
            discard_all = 25.0
    n = game.n
    # No Mercy: the next seat still in the hand (an eliminated one holds no cards).
    threatened = game._sizes[game.next_seat(1)] <= 2
    two_left = game.players_left() == 2
    reverse_bonus = 90.0 if two_left else 60.0
    # No Mercy, two left: a Wild Reverse Draw Four makes its own player draw, unless another
    # draw card of +4 or more sends the total back (as ``normal`` scores it).
    own_wrd4 = two_left and game._nm and not game._legacy
    if own_wrd4:
        own_wrd4 = not any(counts[code] for code in _SENDS_BACK if code < len(counts))
    holds_color = colors[game.color] > 0
    # Seven-O: a 7 or 0 is scored by the cards it gains (``normal.seven_o_value``): a 7 trades
    # this hand, less the 7, for the smallest other one; a 0 for the previous player's.
    seven_o = game.rules.seven_o
    gain7 = gain0 = 0.0
    if seven_o:
        gain7 = 10.0 * (size - 1 - game._sizes[game.default_swap_target(seat)])
        gain0 = 10.0 * (size - 1 - game._sizes[(seat - game.direction) % n])
    bluff_matters = game.rules.wd4_challenge
    best: Play | None = None
    last_code = -1
    best_score = -1e9
    uno = size == 2  # take the UNO-calling variant where the rules offer both
    for action in legal:
        if type(action) is not Play:
            continue
        card: Card = action.card
        code = card.code
        if code == last_code:
            continue  # another variant of a card already scored (colours, the UNO call)
        last_code = code
        if card.is_wild:
            score = 0.0 if size <= 2 else wild_score
            if card.rank is _WD4 and holds_color and bluff_matters:
                score -= 100.0
        else:
            score = point_weight * _POINTS[code] + 3.0 * (colors[card.color] - 1)  # type: ignore[index]
        if threatened:
            score += _THREAT[code] + reverse_bonus * _REVERSE_THREAT[code]
        if own_wrd4 and code == _WRD4_CODE:
            score -= WRD4_ON_SELF
        if _DISCARD_ALL[code]:
            # No Mercy: it sheds the other cards of its colour.
            score += discard_all * (colors[card.color] - 1)  # type: ignore[index]
        if seven_o and _SEVEN_O_RANK[code]:
            score += gain7 if _SEVEN_O_RANK[code] == 7 else gain0
        score += tie * 0.01
        tie = (tie * 7.31 + 0.137) % 1.0
        if score > best_score:
            best_score = score
            if game.names_color(card):
                best = _variant(legal, card, playout_color(counts), uno)
            elif uno:
                best = _variant(legal, card, -1, True)
            else:
                best = action
    assert best is not None
    if (
        phase is _DRAWN
        and best.card.is_wild
        and _PASS_ACT in legal
        and size > 3
        and game._sizes[(game.current + game.direction) % n] > 2
    ):
        return _PASS_ACT  # keep a drawn wild for later
    return best


def _variant(legal: tuple[Action, ...], card: Card, color: int, uno: bool) -> Play:
    """The legal play of ``card`` naming ``color`` (wilds; -1: none named), with the UNO call
    when offered."""
    found: Play | None = None
    for action in legal:
        if type(action) is Play and action.card is card:
            if color >= 0 and action.color != color:
                continue
            if found is None or (uno and action.uno):
                found = action
    assert found is not None
    return found


def normal_playout(game: Game, rng: Random, color_before: int = -1) -> int:
    """Play the hand out with every seat following ``normal``'s rules (``normal_move``).

    Returns the winning seat, or -1 if the guard stopped it. ``color_before``: the colour in
    force before a Wild Draw Four on top (-1 if none or unknown).
    """
    return play_out(game, rng.random(), color_before)


def play_out(game: Game, tie: float, color_before: int = -1, hero: int = -1) -> int:
    """``normal_playout`` with its one random number given (``tie``, in [0, 1)), for the search
    loop, where seeding a ``Random`` per playout would cost a tenth of the playout.

    With Jump-In, a seat that holds the card on top jumps in as ``normal`` does (the first
    such seat in the direction of play: one look at the hand counts per action)."""
    jumps = game.rules.jump_in
    for _ in range(MAX_PLAYOUT_ACTIONS):
        outcome = game.outcome
        if outcome is not None:
            return outcome.winner
        if jumps:
            jumper = _jumper(game)
            if jumper >= 0:
                jump = game.legal_actions(jumper)
                best = jump[0]
                for action in jump:  # the play, with the UNO call when offered (the last)
                    if type(action) is Play:
                        best = action
                game.apply(jumper, best)
                continue
        seat = game.current
        legal = game.legal_actions(seat)
        if len(legal) == 1:
            action = legal[0]
        else:
            if seat == hero:
                action = normal_move(
                    game, seat, legal, color_before, tie, HERO_POINT_WEIGHT, HERO_WILD_SCORE
                )
            else:
                action = normal_move(game, seat, legal, color_before, tie)
            tie = (tie * 3.7 + 0.29) % 1.0
        if type(action) is Play and action.card.rank is _WD4:
            color_before = game.color
        game.apply(seat, action)
    return -1


def _jumper(game: Game) -> int:
    """Jump-In: the first seat after the player to move that could jump in now, or -1."""
    top = game.discard[-1]
    if top.is_wild:
        return -1
    code = top.code
    counts = game._counts
    n = game.n
    current = game.current
    direction = game.direction
    seven_o = game.rules.seven_o and _SEVEN_O_RANK[code] != 0
    for step in range(1, n):
        seat = (current + direction * step) % n
        if counts[seat][code] and game.jump_card(seat) is not None:
            if seven_o and _seven_o_gain(game, seat, _SEVEN_O_RANK[code] == 7) < 0:
                continue  # ``normal.jump``: a 7 or 0 that would hand over a better hand
            return seat
    return -1


def _seven_o_gain(game: Game, seat: int, seven: bool) -> int:
    """Seven-O: the cards ``seat`` gains by playing a 7 (``seven``) or a 0 now (negative: it
    would get a bigger hand), as ``normal.seven_o_value`` counts them."""
    sizes = game._sizes
    other = game.default_swap_target(seat) if seven else (seat - game.direction) % game.n
    return sizes[seat] - 1 - sizes[other]
