"""Computer players at No Mercy: they stack when a draw is on them, prefer a Discard All that
sheds many cards, answer a Roulette played on them with a colour, keep a Wild Reverse Draw
Four that would come back on them, pass over eliminated seats when judging who is next, and
every level plays No Mercy hands to the end."""

from __future__ import annotations

import dataclasses
from random import Random

import pytest

from tests.ai.test_variants_ai import _apply, _watch
from unobot.ai import Observer, make_strategy
from unobot.ai.arena import play_hand
from unobot.ai.normal import NormalStrategy, roulette_answer
from unobot.ai.playout import normal_move
from unobot.engine import ChooseColor, Draw, Phase, Play, preset
from unobot.engine.cards import Card, Color, Rank


def test_normal_stacks_a_draw_rather_than_take_it() -> None:
    game, observers = _watch(
        "top=R5 | alice*: RD4 R1 R2 | bob: WD10 G9 Y3 B4 | carol: Y1 Y2", "no-mercy"
    )
    _apply(game, observers, 0, Play(Card.parse("RD4")))
    obs = observers[1].observe(game)
    assert obs.phase is Phase.PENDING and Draw() in obs.legal
    act = NormalStrategy(Random(0)).act(obs)
    assert type(act) is Play and act.card == Card.parse("WD10")


def test_normal_prefers_a_discard_all_that_sheds_many() -> None:
    game, observers = _watch(
        "top=R5 | alice*: RDA R1 R2 R3 R8 G9 | bob: G1 G2 G3 | carol: Y1 Y2 Y3", "no-mercy"
    )
    act = NormalStrategy(Random(0)).act(observers[0].observe(game))
    assert type(act) is Play and act.card == Card.parse("RDA")


def test_the_roulette_is_played_without_a_colour_and_its_victim_answers() -> None:
    """The next player names the Roulette's colour: every level plays it without one, and
    ``normal`` (and ``hard``'s playouts, alike) answer with the colour of most cards they
    can't see (the likeliest to come up soon)."""
    game, observers = _watch(
        "top=Y5 | alice*: WCR G1 G2 G3 B1 | bob: R2 R3 R4 Y1 | carol: B2 B3 B4 | "
        "discard=G4 G5 G6 G7 G8 G9 B5 B6 B7 B8 B9 Y6 Y7 Y8 Y9",
        "no-mercy",
    )
    obs = observers[0].observe(game)
    wcr = [a for a in obs.legal if type(a) is Play and a.card.rank is Rank.WILD_COLOR_ROULETTE]
    assert wcr and all(a.color is None for a in wcr)  # what every level chooses from
    _apply(game, observers, 0, Play(Card.parse("WCR")))
    obs = observers[1].observe(game)
    assert obs.phase is Phase.ROULETTE and obs.my_turn
    # Unseen by bob: red 36 - 3 held, yellow 36 - 1 - 5 (Y5..Y9), green 36 - 6, blue 36 - 5.
    assert roulette_answer(obs) is Color.RED
    assert NormalStrategy(Random(0)).act(obs) == ChooseColor(Color.RED)
    assert normal_move(game, 1, game.legal_actions(1), -1, 0.5) == ChooseColor(Color.RED)
    for level in ("easy", "hard"):
        act = make_strategy(level, Random(2), playouts=16).act(obs)
        assert type(act) is ChooseColor


def test_a_legacy_roulette_names_the_colour_the_next_player_lacks() -> None:
    """A game journaled before version 4 goes on as it was played: the Roulette's player
    names the colour, ``normal`` one the next player is known to lack."""
    game, observers = _watch(
        "top=Y5 | alice*: WCR G1 G2 G3 B1 | bob: R2 R3 R4 | carol: B2 B3 B4", "no-mercy"
    )
    game.rules = dataclasses.replace(game.rules, legacy_no_mercy=True)
    game._legacy = True
    observers = [Observer(s, game.n, game.rules) for s in range(game.n)]
    obs = observers[0].observe(game)
    normal = NormalStrategy(Random(0))
    assert normal.act(obs) == Play(Card.parse("WCR"), Color.GREEN)  # nothing known: own best
    # Once bob is known to lack yellow (he had to draw on it), the Roulette names yellow.
    voids = tuple(frozenset({Color.YELLOW}) if s == 1 else frozenset() for s in range(3))
    assert normal.act(dataclasses.replace(obs, voids=voids)) == Play(
        Card.parse("WCR"), Color.YELLOW
    )


@pytest.mark.parametrize("holds", ["G2", "GD4"])
def test_with_two_left_a_wild_reverse_draw_four_is_kept_unless_it_can_be_sent_back(
    holds: str,
) -> None:
    """With two players a Wild Reverse Draw Four makes its own player draw four: ``normal``
    (and the playouts) play it only when another draw card of +4 or more can send the total
    back (a green Draw Four: not playable on R5, but on the total), even with the other
    player on one card."""
    game, observers = _watch(f"top=R5 | alice*: WRD4 R9 {holds} | bob: G1", "no-mercy")
    obs = observers[0].observe(game)
    act = NormalStrategy(Random(0)).act(obs)
    ours = normal_move(game, 0, game.legal_actions(0), -1, 0.5)
    assert type(act) is Play and type(ours) is Play
    wrd4 = holds == "GD4"
    assert (act.card.rank is Rank.WILD_REVERSE_DRAW_FOUR) is wrd4, act
    assert (ours.card.rank is Rank.WILD_REVERSE_DRAW_FOUR) is wrd4, ours


def test_the_next_seat_passes_over_an_eliminated_one() -> None:
    many = " ".join(["G1"] * 20)
    game, observers = _watch(
        f"top=R5 | alice*: WD6 R1 R2 | bob: {many} | carol: R3 Y2 | dave: R4 B3 | "
        + "pile="
        + " ".join(["B9"] * 8),
        "no-mercy",
    )
    _apply(game, observers, 0, Play(Card.parse("WD6"), Color.RED))
    _apply(game, observers, 1, Draw())
    assert game.eliminated(1)
    _apply(game, observers, 2, Play(Card.parse("R3")))
    _apply(game, observers, 3, Play(Card.parse("R4")))
    obs = observers[0].observe(game)
    assert obs.next_seat(1) == 2 and obs.next_seat(2) == 3


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_every_level_plays_no_mercy_to_the_end(seed: int) -> None:
    winner, scores, actions = play_hand(
        ("hard", "normal", "easy", "normal"), preset("no-mercy"), seed, playouts=8
    )
    assert winner >= 0 and sum(scores) >= 0 and actions > 0
