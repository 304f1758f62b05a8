"""A strategy can't see what a human in its seat couldn't: the Observation holds only the seat's
own hand and public facts, and hidden cards never change it."""

from __future__ import annotations

import dataclasses
from itertools import combinations
from random import Random

import pytest

from unobot.ai.hard import Dealer, _earlier_odds, deal_hidden, determinise, normal_would_play
from unobot.ai.normal import NormalStrategy
from unobot.ai.observation import LastPlay, Observation, Observer
from unobot.bench.dealer import colour_error, normal_turns
from unobot.engine import CardsDrawn, DrawReason, Game, Phase, preset
from unobot.engine.cards import Card, Color, full_deck

OFFICIAL = preset("official")


def _played(seed: int, moves: int, players: int = 4) -> tuple[Game, list[Observer]]:
    """A seeded game after ``moves`` random actions, with every seat's observer following."""
    rng = Random(seed)
    game, events = Game.deal(players, OFFICIAL, rng)
    observers = [Observer(seat, players, OFFICIAL) for seat in range(players)]
    for _ in range(moves):
        for observer in observers:
            observer.see(events)
        if game.over:
            break
        legal = game.legal_actions(game.current)
        events = game.apply(game.current, rng.choice(legal))
    for observer in observers:
        observer.see(events)
    return game, observers


def _rehide(game: Game, seat: int, rng: Random) -> Game:
    """The same public position with every card ``seat`` can't see dealt differently."""
    hidden: list[Card] = list(game.draw_pile)
    for other in range(game.n):
        if other != seat:
            hidden += game.hand(other)
    rng.shuffle(hidden)
    hands: list[list[Card]] = []
    for other in range(game.n):
        if other == seat:
            hands.append(game.hand(seat))
        else:
            size = game.hand_size(other)
            hands.append(hidden[:size])
            del hidden[:size]
    return Game.from_position(
        game.rules,
        hands,
        game.top,
        color=game.color,
        draw_pile=hidden,
        discard=game.discard[:-1],
        current=game.current,
        direction=game.direction,
        pending=game.pending,
        phase=game.phase,
        drawn=game.drawn,
    )


def test_observation_holds_no_game_and_no_hidden_cards() -> None:
    names = {f.name for f in dataclasses.fields(Observation)}
    assert not names & {"game", "hands", "draw_pile", "rng", "deck"}
    game, observers = _played(3, 25)
    for seat, observer in enumerate(observers):
        obs = observer.observe(game)
        for name in names:
            assert not isinstance(getattr(obs, name), Game)
        # Every card in the observation is in its own hand or on the discard pile.
        visible = set(obs.hand) | set(obs.discard)
        assert {r.card for r in obs.history} <= visible | set(full_deck())  # played: public
        assert obs.drawn is None or obs.drawn in obs.hand
        assert obs.hand == tuple(game.hand(seat))
        assert obs.draw_pile_size == len(game.draw_pile)
    assert dataclasses.is_dataclass(Observation)
    obs = observers[0].observe(game)
    try:
        obs.seat = 1  # type: ignore[misc]
    except dataclasses.FrozenInstanceError:
        pass
    else:
        raise AssertionError("Observation must be frozen")


def test_hidden_cards_do_not_change_the_observation() -> None:
    rng = Random(11)
    checked = 0
    for seed in range(40):
        game, observers = _played(seed, rng.randrange(1, 40))
        if game.over or game.phase is Phase.CHOOSE_COLOR:
            continue
        if game.exposed >= 0 or game.hand_size(game.current) == 2:
            continue  # UNO-call state from_position can't rebuild (not hidden information)
        for seat, observer in enumerate(observers):
            other = _rehide(game, seat, rng)
            assert other.hand(seat) == game.hand(seat)
            assert [other.hand(s) for s in range(4)] != [game.hand(s) for s in range(4)]
            assert observer.observe(other) == observer.observe(game)
            checked += 1
    assert checked > 50


def test_a_seat_whose_count_is_off_gives_away_nothing_by_its_plays() -> None:
    """An observer that missed a draw (its count of a hand is short) must not offer that seat's
    plays as evidence about its hand, which now holds cards the observer never counted."""
    missed = 0
    for seed in range(30):
        game, events = Game.deal(4, OFFICIAL, Random(seed))
        observer = Observer(0, 4, OFFICIAL)
        players = [NormalStrategy(Random(seed * 4 + s)) for s in range(4)]
        skipped = False
        for _ in range(3000):
            drew = any(type(e) is CardsDrawn and e.seat == 1 for e in events)
            if not skipped and drew and observer.runs[1]:
                skipped = True  # this batch never reaches the observer
            else:
                observer.see(events)
            if game.over:
                break
            obs = observer.observe(game)
            if skipped:
                assert obs.runs[1] == () and obs.earlier[1] == () and obs.last_plays[1] is None
                missed += 1
                break
            seat = game.current
            action = players[seat].act(Observer(seat, 4, OFFICIAL).observe(game))
            assert action is not None
            events = game.apply(seat, action)
    assert missed > 10


def test_cards_others_draw_are_not_remembered() -> None:
    a = Observer(0, 3, OFFICIAL)
    b = Observer(0, 3, OFFICIAL)
    a.see([CardsDrawn(1, (Card.parse("R5"), Card.parse("WD4")), DrawReason.PENALTY_CARD)])
    b.see([CardsDrawn(1, (Card.parse("G1"), Card.parse("B7")), DrawReason.PENALTY_CARD)])
    assert a.history == b.history and a.voids == b.voids
    game = Game.from_position(
        OFFICIAL,
        [[Card.parse("R1")], [Card.parse("G2")] * 2, [Card.parse("B3")]],
        Card.parse("R9"),
        draw_pile=[Card.parse("Y4")] * 3,
    )
    assert a.observe(game) == b.observe(game)


def test_determinisation_keeps_what_the_seat_knows() -> None:
    rng = Random(5)
    for seed in range(30):
        game, observers = _played(seed, 15)
        if game.over:
            continue
        seat = game.current
        obs = observers[seat].observe(game)
        world = determinise(obs, rng)()
        assert world.hand(seat) == game.hand(seat)
        assert world.counts() == game.counts()
        assert len(world.draw_pile) == len(game.draw_pile)
        assert world.discard == game.discard and world.color is game.color
        assert world.phase is game.phase and world.current == game.current
        assert world.legal_actions(seat) == game.legal_actions(seat)
        every = sorted(c.code for s in range(4) for c in world.hand(s))
        every += [c.code for c in world.draw_pile + world.discard]
        assert sorted(every) == sorted(c.code for c in full_deck())


def _fits(hand: list[Card], segments: tuple[tuple[int, int, int], ...], which: int) -> bool:
    """Can ``hand`` be split into the segments, each part avoiding its mask ``which``? (Hall's
    condition: every set of segments has enough cards that one of them may hold.)"""
    for size in range(1, len(segments) + 1):
        for group in combinations(segments, size):
            room = sum(1 for c in hand if any(not s[which] & c.bit for s in group))
            if room < sum(s[0] for s in group):
                return False
    return True


@pytest.mark.parametrize("name", ["official", "ocuk-tournament", "irc-classic", "seven-o"])
def test_what_public_play_says_about_hidden_hands_holds(name: str) -> None:
    """Among normal players, every fact the observer infers (certain and likely) is true of the
    real hands, and the segments add up to the public counts."""
    checked = informative = 0
    for game, seat, obs in normal_turns(preset(name), range(60)):
        assert obs.hidden[seat] == ()
        for other in range(4):
            if other == seat:
                continue
            segments = obs.hidden[other]
            assert sum(s[0] for s in segments) == game.hand_size(other)
            assert all(s[1] & ~s[2] == 0 for s in segments)  # likely includes certain
            assert _fits(game.hand(other), segments, 1)
            assert _fits(game.hand(other), segments, 2)
            checked += 1
            informative += any(s[1] for s in segments)
    assert checked > 1000 and informative > checked // 10


def test_sampled_worlds_honour_the_known_facts_and_conserve_cards() -> None:
    rng = Random(8)
    sampled = 0
    for seed in range(40):
        game, observers = _played(seed, 10 + seed % 30)
        if game.over:
            continue
        for seat in range(4):
            obs = observers[seat].observe(game)
            hands, pile = deal_hidden(obs, rng)
            assert hands[seat] == list(obs.hand)
            assert [len(h) for h in hands] == list(obs.counts)
            assert len(pile) == obs.draw_pile_size
            every = sorted(c.code for h in hands for c in h)
            every += [c.code for c in pile + list(obs.discard)]
            assert sorted(every) == sorted(c.code for c in full_deck())
            for other in range(4):
                if other != seat:
                    # The sampler may fall back to the certain facts, never below them.
                    assert _fits(hands[other], obs.hidden[other], 1)
            sampled += 1
    assert sampled > 100


@pytest.mark.parametrize("name", ["official", "irc-classic", "seven-o", "house"])
def test_latest_plays_fit_the_real_hands_of_normal_players(name: str) -> None:
    """``hard`` redeals worlds in which a seat's latest free play isn't the one ``normal`` would
    have made: among normal players the real hands always pass that check."""
    rules = preset(name)
    checked = 0
    for game, seat, obs in normal_turns(rules, range(40)):
        assert obs.last_plays[seat] is None
        for other, last in enumerate(obs.last_plays):
            if last is not None:
                assert normal_would_play(game.hand(other), last, rules, 4)
                checked += 1
    assert checked > 1000


@pytest.mark.parametrize("name", ["official", "irc-classic", "seven-o", "house"])
def test_every_free_choice_since_a_draw_fits_the_real_hands_of_normal_players(name: str) -> None:
    """``obs.runs`` holds each seat's plays since it last drew; the hand at each free choice was
    its hand now plus that card and the later ones, and among normal players ``normal`` would
    have made every one of those choices from it (which is what ``hard``'s dealer checks)."""
    rules = preset(name)
    checked = earlier = 0
    for game, seat, obs in normal_turns(rules, range(40)):
        assert obs.runs[seat] == ()
        for other, run in enumerate(obs.runs):
            if run and run[-1][1] is not None:
                assert run[-1][1] == obs.last_plays[other]
            for k, (card, last) in enumerate(run):
                if last is None:
                    continue
                assert last.card is card
                since = [c for c, _ in run[k + 1 :]]
                assert normal_would_play(game.hand(other) + since, last, rules, 4)
                checked += 1
                earlier += bool(since)
    assert checked > 1000 and earlier > 300


@pytest.mark.parametrize("name", ["official", "irc-classic", "seven-o", "house"])
def test_free_choices_before_a_draw_fit_the_real_hands_of_normal_players(name: str) -> None:
    """``obs.earlier`` keeps choices from before a seat's last draw, with the cards it laid since
    and how many of the cards it took since it still holds. Its hand then was its hand now plus
    the cards laid since, less that many: so with none taken the real hand fits ``normal``'s
    choice outright, and otherwise it fits with odds above zero nearly always (the colour counts
    that steer ``normal`` include the cards taken since, which can tip a close choice)."""
    rules = preset(name)
    checked = exact = impossible = 0
    for game, seat, obs in normal_turns(rules, range(40)):
        assert obs.earlier[seat] == ()
        for other, choices in enumerate(obs.earlier):
            for choice in choices:
                last, since, taken, lacks = choice
                held = game.hand(other) + list(since)
                assert len(held) >= taken >= 0
                assert sum(1 for c in game.hand(other) if lacks & c.bit) <= taken
                odds = _earlier_odds(game.hand(other), choice, rules, 4)
                if taken == 0:
                    assert normal_would_play(held, last, rules, 4)
                    exact += 1
                checked += 1
                impossible += odds == 0
    assert checked > 5000 and exact > 300
    assert impossible < checked * 0.01


def test_odds_of_an_earlier_choice_count_the_cards_taken_since() -> None:
    """Seat played R3 on R7 (normal sheds the higher red first) and now holds, with the cards
    laid since, R9 G2 B3 Y4: R9 must have come after the choice, among the ``taken`` cards."""
    last = LastPlay(Card.parse("R3"), Color.RED, Card.parse("R7"), 7, Color.RED)
    hand = [Card.parse(c) for c in ("R9", "G2", "B3", "Y4")]

    def odds(hand: list[Card], taken: int, lacks: str = "", since: str = "") -> float:
        mask = sum(Card.parse(c).bit for c in lacks.split())
        laid = tuple(Card.parse(c) for c in since.split())
        return _earlier_odds(hand, (last, laid, taken, mask), OFFICIAL, 4)

    assert odds(hand, 0) == 0.0
    assert odds(hand, 1) == pytest.approx(1 / 4)
    assert odds(hand, 2) == pytest.approx(2 / 4)
    assert odds(hand[1:], 1, since="R9") == pytest.approx(1 / 4)  # laid since: held then, or not
    # Two cards it would have preferred (R9, R8): both must be among the taken ones.
    assert odds([*hand, Card.parse("R8")], 1) == 0.0
    assert odds([*hand, Card.parse("R8")], 2) == pytest.approx(2 / 5 * 1 / 4)
    # It later had to draw with no red: R9 came after that draw, so it says nothing.
    assert odds(hand, 1, lacks="R9 R8 R1") == 1.0
    # Nothing it would have preferred: the choice fits whatever was taken since.
    assert odds([Card.parse("G2"), Card.parse("R1")], 1) == 1.0


def test_earlier_choices_make_sampled_hands_closer_to_the_real_ones() -> None:
    """What ``obs.earlier`` is for: over the turns of games among normal players, the hands
    ``hard``'s dealer samples for the opponents are nearer the real ones (per colour and wild,
    the cards held) when it weighs choices from before each seat's last draw than when it
    doesn't."""
    rng = Random(5)
    error = {"with": 0.0, "without": 0.0}
    cases = 0
    worlds = 4
    for game, seat, obs in normal_turns(OFFICIAL, range(200, 260)):
        if seat != 0 or not any(obs.earlier):
            continue
        with_earlier = Dealer(obs)
        without = Dealer(dataclasses.replace(obs, earlier=((),) * obs.players))
        for key, dealer in (("with", with_earlier), ("without", without)):
            for _ in range(worlds):
                hands = dealer.deal(rng)[0]
                for other in range(1, 4):
                    error[key] += colour_error(hands[other], game.hand(other)) / worlds
        cases += 3
    assert cases > 1000
    assert error["with"] < error["without"] * 0.97, error


def test_sampled_hands_hold_wilds_and_high_cards_as_often_as_real_ones() -> None:
    """Calibration of ``hard``'s dealer against normal players' real hands: over many turns,
    the sampled chance that an opponent holds a wild, an action card, a 7-9 or a card of each
    colour averages out to how often its real hand does (a blind deal overstated wilds and
    action cards by about a quarter)."""
    rules = OFFICIAL
    rng = Random(3)
    features = {
        "wild": lambda hand: any(c.is_wild for c in hand),
        "action": lambda hand: any(not c.is_wild and c.rank >= 10 for c in hand),
        "high": lambda hand: any(not c.is_wild and 7 <= c.rank <= 9 for c in hand),
        **{
            f"colour {color}": (lambda hand, color=color: any(c.color is color for c in hand))
            for color in Color
        },
    }
    sampled = dict.fromkeys(features, 0.0)
    real = dict.fromkeys(features, 0)
    cases = 0
    worlds = 8
    for game, seat, obs in normal_turns(rules, range(50)):
        if seat != 0:
            continue
        dealer = Dealer(obs)
        hands = [dealer.deal(rng)[0] for _ in range(worlds)]
        for other in range(1, 4):
            cases += 1
            for name, holds in features.items():
                sampled[name] += sum(holds(h[other]) for h in hands) / worlds
                real[name] += holds(game.hand(other))
    assert cases > 500
    for name in features:
        assert abs(sampled[name] - real[name]) / cases < 0.04, (name, sampled[name], real[name])
