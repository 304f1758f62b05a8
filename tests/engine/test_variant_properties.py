"""Property tests of Seven-O, Jump-In and No Mercy over many seeded random games of their
presets: cards are conserved across swaps, rotations and mercy eliminations, nothing illegal
is accepted (jumps, targeted 7s, moves of eliminated seats), every hand ends, and the scores
equal the cards held."""

from __future__ import annotations

import dataclasses
from random import Random

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.engine.test_properties import check_invariants, check_outcome, play_checked, snapshot
from unobot.engine import PRESETS, Game, HouseRules, Match, Play
from unobot.engine.actions import Action, CallUno, Catch, Swap
from unobot.engine.errors import UnoError
from unobot.engine.events import (
    CardsDiscarded,
    Eliminated,
    EveryoneSkipped,
    HandsRotated,
    HandsSwapped,
    JumpedIn,
)

VARIANTS = [
    dataclasses.replace(PRESETS[name], min_players=2, max_players=10)
    for name in ("seven-o", "jump-in", "house")
]


def jumps(game: Game) -> list[tuple[int, Action]]:
    """Every jump any player not to move could make now (from their legal actions)."""
    return [
        (seat, a)
        for seat in range(game.n)
        if seat != game.current
        for a in game.legal_actions(seat)
        if type(a) is Play
    ]


def step(game: Game, rng: Random, seen: dict[str, int]) -> None:
    """One move of a random agent that jumps in when anyone can and names 7s' targets."""
    possible = jumps(game)
    if game.rules.jump_in:
        for seat, action in possible:
            assert game.jump_card(seat) is action.card  # type: ignore[union-attr]
    if possible and rng.random() < 0.7:
        seat, action = rng.choice(possible)
        events = game.apply(seat, action)
        assert type(events[0]) is JumpedIn
        seen["jump"] += 1
        return
    seat = game.current
    legal = game.legal_actions(seat)
    plays = [a for a in legal if type(a) is Play]
    action = rng.choice(plays) if plays and rng.random() < 0.85 else rng.choice(legal)
    if type(action) is Play and action.card.rank == 7 and game.rules.seven_o and rng.random() < 0.5:
        target = rng.choice([s for s in range(game.n) if s != seat])
        action = dataclasses.replace(action, target=target)
    if type(action) is Play and action.target < 0 and rng.random() < 0.2:
        # an illegal target must be refused, changing nothing
        before = snapshot(game)
        try:
            game.apply(seat, dataclasses.replace(action, target=seat))
        except UnoError:
            assert snapshot(game) == before
        else:
            raise AssertionError("a play targeting oneself was accepted")
    events = game.apply(seat, action)
    seen["swap"] += sum(type(e) is HandsSwapped for e in events)
    seen["rotate"] += sum(type(e) is HandsRotated for e in events)


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 10), rules=st.sampled_from(VARIANTS))
def test_variant_hands_keep_every_invariant(seed: int, players: int, rules: HouseRules) -> None:
    game, _ = Game.deal(players, rules, Random(seed))
    rng = Random(seed ^ 0xC0FFEE)
    seen = {"jump": 0, "swap": 0, "rotate": 0}
    moves = 0
    while not game.over:
        assert moves < 5_000, "hand did not end"
        check_invariants(game)
        step(game, rng, seen)
        moves += 1
    check_outcome(game)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 10), rules=st.sampled_from(VARIANTS))
def test_variant_refusals_change_nothing(seed: int, players: int, rules: HouseRules) -> None:
    """The generic prober: random actions by random seats, accepted only when listed."""
    game, _ = Game.deal(players, rules, Random(seed))
    play_checked(game, Random(seed), probes=3)
    check_outcome(game)


def test_many_seeded_games_exercise_every_rule() -> None:
    """Over a few hundred seeded games each new rule really happens (the tests above are not
    vacuous), and matches of the presets reach their end."""
    seen = {"jump": 0, "swap": 0, "rotate": 0}
    for seed in range(300):
        rules = VARIANTS[seed % 3]
        game, _ = Game.deal(2 + seed % 6, rules, Random(seed))
        rng = Random(seed)
        while not game.over:
            step(game, rng, seen)
        check_outcome(game)
    assert min(seen.values()) > 50, seen
    for name in ("seven-o", "jump-in", "house"):
        match = Match(4, dataclasses.replace(PRESETS[name], target_score=150), Random(1))
        rng = Random(2)
        while not match.over:
            match.start_hand()
            game = match.game
            assert game is not None
            while not game.over:
                seat = game.current
                legal = game.legal_actions(seat)
                match.apply(seat, rng.choice(legal))
        assert max(match.totals) >= 150


def test_same_seed_same_variant_game() -> None:
    for rules in VARIANTS:

        def run(rules: HouseRules = rules) -> list[object]:
            game, events = Game.deal(5, rules, Random(9))
            rng = Random(9)
            log: list[object] = list(events)
            seen = {"jump": 0, "swap": 0, "rotate": 0}
            while not game.over:
                before = len(game.discard)
                step(game, rng, seen)
                log.append((before, game.current, tuple(game.counts())))
            return log

        assert run() == run()


def test_swap_is_listed_only_while_choosing() -> None:
    game, _ = Game.deal(3, VARIANTS[0], Random(0))
    assert not any(type(a) is Swap for s in range(3) for a in game.legal_actions(s))


# --- No Mercy --------------------------------------------------------------------------------

NO_MERCY = dataclasses.replace(PRESETS["no-mercy"], min_players=2, max_players=10)


def nm_step(game: Game, rng: Random, seen: dict[str, int]) -> None:
    """One move of a random No Mercy agent: mostly plays, names 7s' targets among the seats
    still in; every few moves an eliminated seat tries a move and is refused, changing nothing."""
    gone = [s for s in range(game.n) if game.eliminated(s)]
    if gone and rng.random() < 0.3:
        before = (snapshot(game), game.active_seats())
        seat = rng.choice(gone)
        assert game.legal_actions(seat) == ()
        probe = rng.choice([*game.legal_actions(), CallUno(), Catch(game.current)])
        try:
            game.apply(seat, probe)
        except UnoError:
            assert (snapshot(game), game.active_seats()) == before
        else:
            raise AssertionError(f"an eliminated seat's {probe} was accepted")
    seat = game.current
    assert not game.eliminated(seat), "an eliminated seat is to move"
    legal = game.legal_actions(seat)
    plays = [a for a in legal if type(a) is Play]
    action = rng.choice(plays) if plays and rng.random() < 0.85 else rng.choice(legal)
    if type(action) is Play and action.card.rank == 7 and rng.random() < 0.5:
        others = [s for s in game.active_seats() if s != seat]
        if others and game.hand_size(seat) > 1:
            action = dataclasses.replace(action, target=rng.choice(others))
    events = game.apply(seat, action)
    for e in events:
        kind = type(e)
        seen["swap"] += kind is HandsSwapped
        seen["rotate"] += kind is HandsRotated
        seen["eliminated"] += kind is Eliminated
        seen["discard-all"] += kind is CardsDiscarded
        seen["skip-everyone"] += kind is EveryoneSkipped


def nm_hand(seed: int, players: int) -> tuple[Game, dict[str, int], list[object]]:
    game, events = Game.deal(players, NO_MERCY, Random(seed))
    rng = Random(seed ^ 0xC0FFEE)
    seen = dict.fromkeys(("swap", "rotate", "eliminated", "discard-all", "skip-everyone"), 0)
    log: list[object] = list(events)
    moves = 0
    while not game.over:
        assert moves < 5_000, "hand did not end"
        check_invariants(game)  # the 168 cards, conserved across swaps and eliminations
        assert all(game.hand_size(s) == 0 for s in range(game.n) if game.eliminated(s))
        assert all(game.hand_size(s) < 25 for s in game.active_seats())
        nm_step(game, rng, seen)
        log.append((len(game.discard), game.current, tuple(game.counts()), game.active_seats()))
        moves += 1
    check_outcome(game)  # scores equal the cards held; the last one standing may hold cards
    return game, seen, log


@settings(max_examples=120, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 10))
def test_no_mercy_hands_keep_every_invariant(seed: int, players: int) -> None:
    nm_hand(seed, players)


@settings(max_examples=50, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 10))
def test_no_mercy_refusals_change_nothing(seed: int, players: int) -> None:
    """The generic prober: random actions (every No Mercy card among them) by random seats,
    eliminated ones included, accepted only when listed."""
    game, _ = Game.deal(players, NO_MERCY, Random(seed))
    play_checked(game, Random(seed), probes=3)
    check_outcome(game)


def test_many_seeded_no_mercy_games_exercise_every_rule() -> None:
    """Over many seeded games eliminations, swaps, rotations and the new cards really happen
    (the property tests above are not vacuous); the same seed plays the same game."""
    total = dict.fromkeys(("swap", "rotate", "eliminated", "discard-all", "skip-everyone"), 0)
    last_standing = 0
    for seed in range(150):
        game, seen, _ = nm_hand(seed, 2 + seed % 7)
        for key, n in seen.items():
            total[key] += n
        outcome = game.outcome
        assert outcome is not None
        last_standing += game.hand_size(outcome.winner) > 0
    assert min(total.values()) > 10, total
    assert last_standing > 0, "no hand was won by the last one standing"
    assert nm_hand(11, 5)[2] == nm_hand(11, 5)[2]
