"""Property tests: invariants of the engine over many seeded random games.

For 2-10 players, every preset and random combinations of options, random agents play complete
hands; at every step we check card conservation, the hand bookkeeping, that ``apply`` accepts
exactly what ``legal_actions`` lists (and that a refused action changes nothing), that every
hand ends, and that the scores match the cards left.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from random import Random

from hypothesis import given
from hypothesis import strategies as st

from unobot.engine import (
    PRESETS,
    AfterDraw,
    CallUno,
    CatchWindow,
    Challenge,
    ChooseColor,
    Draw,
    FirstPlayer,
    Game,
    HouseRules,
    Match,
    NoPlayableCard,
    Pass,
    Play,
    Scoring,
    Stacking,
    StartCard,
    UnoCall,
)
from unobot.engine.actions import Action, Catch, Swap
from unobot.engine.cards import CARDS, Color, full_deck, no_mercy_deck
from unobot.engine.errors import UnoError
from unobot.engine.events import CardsDrawn, DrawReason, HandEnded
from unobot.engine.rules import Deck

MAX_ACTIONS = 5_000


def open_table(rules: HouseRules) -> HouseRules:
    """The same rules for any table size 2-10 (teams of two, for 4 or 6 only, are played
    without partners here: ``tests/engine/test_teams.py`` has their own properties)."""
    return dataclasses.replace(rules, min_players=2, max_players=10, teams=False)


house_rules = st.builds(
    HouseRules,
    name=st.just("random"),
    first_player=st.sampled_from(FirstPlayer),
    start_card=st.sampled_from(StartCard),
    no_playable=st.sampled_from(NoPlayableCard),
    after_draw=st.sampled_from(AfterDraw),
    voluntary_draw=st.booleans(),
    stacking=st.sampled_from(Stacking),
    wd4_challenge=st.booleans(),
    challenge_guilty_draw=st.integers(0, 6),
    challenge_innocent_extra=st.integers(0, 4),
    uno_call=st.sampled_from(UnoCall),
    uno_penalty=st.integers(0, 4),
    catch_window=st.sampled_from(CatchWindow),
    false_uno_penalty=st.integers(0, 3),
    scoring=st.sampled_from(Scoring),
    hand_size=st.integers(1, 10),
    double_deck_above=st.sampled_from([0, 4, 6]),
    seven_o=st.booleans(),
    jump_in=st.booleans(),
)
any_rules = st.one_of(st.sampled_from([open_table(r) for r in PRESETS.values()]), house_rules)


def dealable(rules: HouseRules, players: int) -> HouseRules:
    """``rules`` with the hand size cut to what ``players`` can be dealt (``validate()`` refuses
    the rest: the pile must keep a card the start-card rule accepts)."""
    return dataclasses.replace(rules, hand_size=min(rules.hand_size, rules.max_hand_size(players)))


def snapshot(game: Game) -> tuple[object, ...]:
    """Everything a refused action must leave unchanged."""
    return (
        tuple(tuple(game.hand(s)) for s in range(game.n)),
        tuple(game.draw_pile),
        tuple(game.discard),
        game.color,
        game.current,
        game.direction,
        game.phase,
        game.drawn,
        game.pending,
        game.exposed,
        game.wd4_offender,
        game.wd4_guilty,
        game.outcome,
    )


def choose(legal: tuple[Action, ...], rng: Random) -> Action:
    """A random agent that mostly plays when it can, as people do (pure random agents with a
    voluntary draw can wander for thousands of moves before anyone goes out)."""
    plays = [a for a in legal if isinstance(a, Play)]
    if plays and rng.random() < 0.85:
        return rng.choice(plays)
    return rng.choice(legal)


def check_invariants(game: Game) -> None:
    decks = game.rules.decks_for(game.n)
    everywhere: Counter[object] = Counter(game.draw_pile) + Counter(game.discard)
    for seat in range(game.n):
        hand = game.hand(seat)
        everywhere.update(hand)
        # the fast bookkeeping agrees with the hand
        assert game.hand_size(seat) == len(hand)
        assert game._masks[seat] == sum({c.bit for c in hand})
    deck = no_mercy_deck() if game.rules.deck is Deck.NO_MERCY else full_deck(decks)
    assert everywhere == Counter(deck), "cards created or lost"
    assert game.discard, "the discard pile always has its top card"
    assert 0 <= game.current < game.n
    assert game.direction in (1, -1)
    if not game.top.is_wild:
        assert game.color is game.top.color


def candidate_actions(game: Game) -> list[Action]:
    """A pool of actions, legal or not, to throw at the engine."""
    pool: list[Action] = [Draw(), Pass(), Challenge(), CallUno()]
    pool += [ChooseColor(c) for c in Color]
    pool += [Catch(s) for s in range(game.n)]
    pool += [Swap(s) for s in range(game.n)]
    for card in CARDS:
        if card.is_wild:
            pool += [Play(card, c) for c in Color] + [Play(card)]
        else:
            pool += [Play(card), Play(card, uno=True), Play(card, Color.RED)]
    return pool


def penalised_false_uno(game: Game, seat: int, action: Action) -> bool:
    """Accepted although not listed: a false UNO call that the rules punish with cards."""
    if not game.rules.false_uno_penalty or game.rules.uno_call is not UnoCall.MANUAL:
        return False
    if isinstance(action, CallUno):
        return True
    return isinstance(action, Play) and action.uno and game.hand_size(seat) > 2


def play_checked(game: Game, rng: Random, probes: int) -> int:
    """Play a hand to the end with a random agent, probing ``probes`` extra actions per step."""
    pool = candidate_actions(game)
    steps = 0
    while not game.over:
        assert steps < MAX_ACTIONS, "hand did not end"
        check_invariants(game)
        for _ in range(probes):
            seat = rng.randrange(game.n)
            action = rng.choice(pool)
            legal = game.legal_actions(seat)
            before = snapshot(game)
            false_call = penalised_false_uno(game, seat, action) and action not in legal
            size_before = game.hand_size(seat)
            try:
                events = game.apply(seat, action)
            except UnoError:
                assert snapshot(game) == before, f"refused {action} changed the state"
                assert action not in legal, f"{action} is listed but refused"
                continue
            allowed = action in legal or (
                # "uno" typed with a play is ignored where it means nothing: automatic calls,
                # or the last card
                isinstance(action, Play)
                and (game.rules.uno_call is UnoCall.AUTO or size_before == 1)
                and dataclasses.replace(action, uno=False) in legal
            )
            assert allowed or false_call, f"{action} not legal"
            if false_call:
                assert any(
                    isinstance(e, CardsDrawn) and e.reason is DrawReason.FALSE_UNO for e in events
                )
            if game.over:
                return steps
        seat = game.current
        legal = game.legal_actions(seat)
        assert legal, "the player to move always has something to do"
        assert len(set(legal)) == len(legal), "no duplicate actions"
        game.apply(seat, choose(legal, rng))
        steps += 1
    return steps


def check_outcome(game: Game) -> None:
    check_invariants(game)
    out = game.outcome
    assert out is not None
    if game.rules.mercy_limit and game.active_seats() == [out.winner]:
        # No Mercy: the last one standing wins holding cards; the others hold none.
        assert all(game.hand_size(s) == 0 for s in range(game.n) if s != out.winner)
    else:
        assert game.hand_size(out.winner) == 0
    for seat in range(game.n):
        assert out.points[seat] == sum(c.points for c in game.hand(seat))
        assert out.remaining[seat] == tuple(game.hand(seat))
    if game.rules.scoring is Scoring.WINNER_COLLECTS:
        # No Mercy's bonus: mercy_bonus for each player knocked out during the hand.
        knocked = sum(game.eliminated(s) for s in range(game.n))
        assert out.bonus == game.rules.mercy_bonus * knocked
        assert out.scores[out.winner] == sum(out.points) - out.points[out.winner] + out.bonus
        assert sum(out.scores) == out.scores[out.winner]
    else:
        assert out.scores == out.points
    assert game.legal_actions() == ()


@given(seed=st.integers(0, 2**32), players=st.integers(2, 10), rules=any_rules)
def test_random_hands_keep_every_invariant(seed: int, players: int, rules: HouseRules) -> None:
    game, _ = Game.deal(players, dealable(rules, players), Random(seed))
    play_checked(game, Random(seed ^ 0x5EED), probes=2)
    check_outcome(game)


@given(seed=st.integers(0, 2**32), players=st.integers(2, 10), rules=any_rules)
def test_same_seed_same_game(seed: int, players: int, rules: HouseRules) -> None:
    rules = dealable(rules, players)

    def run() -> list[object]:
        game, events = Game.deal(players, rules, Random(seed))
        agent = Random(seed)
        log: list[object] = list(events)
        while not game.over:
            log.extend(game.apply(game.current, choose(game.legal_actions(), agent)))
        return log

    first = run()
    assert first == run()
    assert isinstance(first[-1], HandEnded)


@given(seed=st.integers(0, 2**32), rules=st.sampled_from(list(PRESETS.values())))
def test_matches_reach_their_end(seed: int, rules: HouseRules) -> None:
    rules = dataclasses.replace(rules, target_score=min(rules.target_score, 200))
    players = max(rules.min_players, min(4, rules.max_players))
    match = Match(players, rules, Random(seed))
    agent = Random(seed)
    hands = 0
    while not match.over and hands < 40:
        match.start_hand()
        game = match.game
        assert game is not None
        while not game.over:
            match.apply(game.current, choose(game.legal_actions(), agent))
        hands += 1
        assert match.totals == [sum(h.scores[s] for h in match.hands) for s in range(players)], (
            "running totals are the sum of hand scores"
        )
    if rules.target_score:
        assert match.over
        assert max(match.totals) >= rules.target_score
    elif not rules.time_limit_minutes:
        assert match.over and hands == 1
    else:
        match.end_by_time()
        assert match.over
    assert match.outcome is not None
    best = (min if rules.scoring is Scoring.OWN_POINTS else max)(match.totals)
    target = rules.target_score
    if rules.extra_hand_if_first and max(match.hands[0].scores) >= target:
        # the target in the first hand: everyone at or above it after one more hand goes through
        assert match.outcome.winners == tuple(s for s, t in enumerate(match.totals) if t >= target)
    else:
        assert all(match.totals[s] == best for s in match.outcome.winners)


def test_the_legal_action_cache_stays_bounded_and_gives_what_it_would_build() -> None:
    """The cache of legal actions by key keeps two generations of a bounded size: a bot that
    plays for months must not hold every hand shape it ever saw (it grew ~0.5 kB a game)."""
    from unobot.engine import game as engine

    rng = Random(7)
    rules = PRESETS["official"]
    for _ in range(300):  # enough random games to fill more than two generations
        game, _events = Game.deal(4, rules, rng)
        while not game.over:
            legal = game.legal_actions(game.current)
            game.apply(game.current, legal[int(rng.random() * len(legal))])
    cap = engine._LEGAL_CACHE_MAX
    assert len(engine._LEGAL_CACHE) <= cap and len(engine._LEGAL_OLD) <= cap
    assert engine._LEGAL_OLD, "the games filled a generation: the old one holds keys"
    for key, actions in [*engine._LEGAL_CACHE.items(), *engine._LEGAL_OLD.items()]:
        assert engine._legal_of(key) == actions
