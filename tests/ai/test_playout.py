"""hard's playout policy is the normal player's: the two agree on the decisions of real games."""

from __future__ import annotations

from random import Random

import pytest

from unobot.ai.normal import NormalStrategy
from unobot.ai.playout import normal_move, normal_playout
from unobot.bench.dealer import normal_turns
from unobot.engine import PRESETS, Action, Game, Phase, Play, preset
from unobot.engine.cards import Rank


def _same(a: Action, b: Action) -> bool:
    """The same decision (a play of the same card naming the same colour counts as one)."""
    if type(a) is Play and type(b) is Play:
        return (a.card, a.color, a.uno) == (b.card, b.color, b.uno)
    return a == b


def _agreement(rules_name: str, games: int) -> tuple[int, int]:
    """How often the playout policy and ``NormalStrategy`` choose alike, over every turn with a
    choice in ``games`` games among normal players."""
    agree = total = 0
    normal = NormalStrategy(Random(0))
    for game, seat, obs in normal_turns(preset(rules_name), range(games)):
        if len(obs.legal) < 2:
            continue
        theirs = normal.act(obs)
        assert theirs is not None
        # The colour in force under a Wild Draw Four just played: the odds of a challenge.
        before = -1
        if obs.top.rank is Rank.WILD_DRAW_FOUR and obs.history and obs.history[-1].card == obs.top:
            before = int(obs.history[-1].color_before)
        ours = normal_move(game, seat, game.legal_actions(seat), before, 0.5)
        assert ours in obs.legal
        total += 1
        agree += _same(ours, theirs)
    return agree, total


@pytest.mark.parametrize("name", ["official", "irc-classic", "ocuk-tournament"])
def test_playout_policy_agrees_with_normal(name: str) -> None:
    agree, total = _agreement(name, 60)
    assert total > 500
    # Only ties between equally scored cards (broken at random by both) may differ.
    assert agree / total > 0.93, (agree, total)


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_playouts_finish_with_a_winner(name: str) -> None:
    rules = PRESETS[name]
    for seed in range(40):
        players = min(max(2 + seed % 4, rules.min_players), rules.max_players)
        if rules.team_problem(players):
            players = 4  # teams of two: 4 or 6
        game, _ = Game.deal(players, rules, Random(seed))
        winner = normal_playout(game, Random(seed))
        assert winner == game.outcome.winner  # type: ignore[union-attr]


def test_playouts_answer_the_no_mercy_roulette_as_normal_does() -> None:
    """The next player names the Roulette's colour: the playouts of ``hard`` answer as
    ``normal`` does, every time (the search then judges its own answer on them)."""
    normal = NormalStrategy(Random(0))
    answered = 0
    for game, seat, obs in normal_turns(preset("no-mercy"), range(30)):
        if obs.phase is Phase.ROULETTE:
            answered += 1
            assert normal.act(obs) == normal_move(game, seat, game.legal_actions(seat), -1, 0.5)
    assert answered > 50
