"""Property tests of UNO Flip over many seeded random games: the 112 physical cards are always
all accounted for, every card shows the face of the side in play everywhere, whatever
``legal_actions`` offers is accepted, ``copy()`` keeps a game equal, every game ends, and a
hand's points are its losers' cards counted on the side it ended on."""

from __future__ import annotations

from random import Random

from hypothesis import given, settings
from hypothesis import strategies as st

from unobot.engine.actions import CallUno, Catch, Draw, Pass
from unobot.engine.flip import FlipGame, FlipPhase, FlipPlay

MAX_MOVES = 3000


def check(game: FlipGame) -> None:
    cards = [*game.draw_pile, *game.discard, *(c for h in game.hands for c in h)]
    assert sorted(c.id for c in cards) == list(range(112))
    side = game.side
    assert game.discard, "the discard pile always has its top card"
    assert game.top.side is side
    if not game.top.is_wild or game.phase is FlipPhase.PLAY:
        # (a Flip that turns up a wild leaves the colour to be named: phase CHOOSE, or over)
        assert game.color.side is side
    assert all(f.side is side for s in range(game.n) for f in game.hand(s))
    assert all(f.side is not side for s in range(game.n) for f in game.public_hand(s))
    if not game.over:
        assert game.legal_actions(), "the player to move always has a move"


def play_out(seed: int, players: int) -> tuple[FlipGame, int, int]:
    """A random agent that plays a card 85% of the time it can (else any legal move)."""
    rng = Random(seed)
    game, _ = FlipGame.deal(players, Random(seed * 7919 + players), dealer=seed % players)
    check(game)
    moves = flips = 0
    while not game.over and moves < MAX_MOVES:
        legal = game.legal_actions()
        plays = [a for a in legal if type(a) is FlipPlay]
        action = rng.choice(plays) if plays and rng.random() < 0.85 else rng.choice(legal)
        if moves % 17 == 0:
            twin = game.copy()
            assert twin == game
            twin.apply(twin.current, action)
        side = game.side
        game.apply(game.current, action)  # a legal action is never refused
        flips += game.side is not side
        moves += 1
        check(game)
    return game, moves, flips


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 10))
def test_random_games_keep_the_invariants_and_end(seed: int, players: int) -> None:
    game, _moves, _flips = play_out(seed, players)
    assert game.over, f"no end in {MAX_MOVES} moves"
    outcome = game.outcome
    assert outcome is not None and outcome.side is game.side
    losers = [c for s, h in enumerate(game.hands) if s != outcome.winner for c in h]
    assert outcome.points == sum(c.face(outcome.side).points for c in losers)
    assert not game.hands[outcome.winner]
    assert game.legal_actions() == () and game.phase is FlipPhase.OVER


def test_many_games_both_sides_reached() -> None:
    """Over 200 seeded games both sides end some hands, and the Flip happens often."""
    sides = set()
    total_flips = 0
    for seed in range(200):
        game, _moves, flips = play_out(seed, 2 + seed % 9)
        assert game.over and game.outcome is not None
        sides.add(game.outcome.side)
        total_flips += flips
    assert len(sides) == 2 and total_flips > 200


def test_pure_random_agent_on_an_exhausted_deck() -> None:
    """Drawing is always allowed, and with every card in the hands a draw gets nothing and
    the turn passes: no loop in the engine. (An agent that never plays can draw for ever;
    the property above uses one that plays.)"""
    game, _ = FlipGame.deal(10, Random(3))
    moves = 0
    while len(game.draw_pile) + len(game.discard) > 1 and moves < 2000:
        game.apply(game.current, Pass() if game.phase is FlipPhase.DRAWN else Draw())
        moves += 1
    assert not game.draw_pile and len(game.discard) == 1
    if game.phase is FlipPhase.DRAWN:
        game.apply(game.current, Pass())
    seat = game.current
    size = len(game.hands[seat])
    game.apply(seat, Draw())
    assert len(game.hands[seat]) == size and game.current != seat


def test_uniformly_random_agents_finish() -> None:
    """Agents choosing uniformly among ``legal_actions`` (drawing as often as playing) still end
    every game: measured over 300 seeds, the longest took 15824 moves; the bound is generous."""
    for seed in range(100):
        rng = Random(seed)
        game, _ = FlipGame.deal(2 + seed % 9, rng)
        moves = 0
        while not game.over and moves < 50_000:
            game.apply(game.current, rng.choice(game.legal_actions()))
            moves += 1
        assert game.over, seed


@settings(max_examples=100, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 10))
def test_uno_calls_and_catches_keep_the_cards(seed: int, players: int) -> None:
    """Random UNO calls (with the card, just before it, late) and catches by any seat, among
    random moves: every card stays accounted for, a catch adds exactly the cards its draw
    took to its target's hand (2 while the piles hold them), a call moves no card, only a
    player down to one card uncalled is ever exposed, and the game still ends."""
    rng = Random(seed)
    game, _ = FlipGame.deal(players, Random(seed * 31 + players), dealer=seed % players)
    moves = 0
    while not game.over and moves < MAX_MOVES:
        seat = rng.randrange(game.n) if rng.random() < 0.3 else game.current
        legal = game.legal_actions(seat)
        if not legal:
            continue
        plays = [a for a in legal if type(a) is FlipPlay]
        action = rng.choice(plays) if plays and rng.random() < 0.8 else rng.choice(legal)
        if type(action) is FlipPlay and len(game.hands[seat]) == 2 and rng.random() < 0.5:
            action = FlipPlay(action.face, action.color, uno=True)
        sizes = [len(h) for h in game.hands]
        events = game.apply(seat, action)
        if type(action) is Catch:
            drew = events[1]
            assert events[0].kind == "caught" and drew.kind == "drew"
            assert drew.seat == action.target and len(drew.cards) <= 2
            assert len(game.hands[action.target]) == sizes[action.target] + len(drew.cards)
            assert [len(h) for i, h in enumerate(game.hands) if i != action.target] == [
                n for i, n in enumerate(sizes) if i != action.target
            ]
        elif type(action) is CallUno:
            assert [len(h) for h in game.hands] == sizes
        if game.exposed >= 0:
            assert len(game.hands[game.exposed]) == 1
        moves += 1
        check(game)
    assert game.over, f"no end in {MAX_MOVES} moves"
