"""Skill ratings as pure functions over game records (unobot.stats.ratings), and the
ratings benchmark end to end on a tiny history."""

from __future__ import annotations

from datetime import datetime

import pytest
from openskill.models import BradleyTerryFull, PlackettLuce

from unobot.bench import main
from unobot.bench.ratings import compare, synthetic_games
from unobot.stats.model import GameRecord, PlayerResult
from unobot.stats.ratings import (
    DISPLAY_BASE,
    DISPLAY_SCALE,
    EXPLAINED,
    PlayerRating,
    conservative,
    game_ranks,
    new_rating,
    rebuild,
    uncertainty,
    update,
)

WHEN = datetime(2026, 11, 20, 12, 0)


def line(ident: str, place: int, finished: bool = True) -> PlayerResult:
    return PlayerResult(ident, ident.upper(), place, place == 1 and finished, 0, 0, finished)


def game(gid: str, *results: PlayerResult) -> GameRecord:
    return GameRecord(gid, "net", "#uno", "standard", WHEN, WHEN, tuple(results))


def test_ranks_follow_places_and_leavers_tie_last() -> None:
    g = game(
        "g", line("a", 2), line("b", 1), line("c", 3, False), line("d", 2), line("e", 9, False)
    )
    assert game_ranks(g) == [("a", 2), ("b", 1), ("c", 3), ("d", 2), ("e", 3)]


def test_update_moves_winner_up_loser_down_and_counts_games() -> None:
    after = update({}, game("g", line("a", 1), line("b", 2)))
    fresh = new_rating()
    assert after["a"].mu > fresh.mu > after["b"].mu
    assert after["a"].sigma < fresh.sigma and after["b"].sigma < fresh.sigma
    assert after["a"].games == after["b"].games == 1


def test_leaver_ranks_below_every_finisher() -> None:
    after = update({}, game("g", line("a", 1), line("b", 2), line("quit", 1, False)))
    assert after["quit"].mu < after["b"].mu < after["a"].mu


def test_a_game_of_one_changes_nothing() -> None:
    assert update({}, game("g", line("a", 1))) == {}


def test_update_matches_openskill_plackett_luce() -> None:
    before = {"a": PlayerRating(30.0, 5.0, 3)}
    after = update(before, game("g", line("b", 1), line("a", 2)))
    model = PlackettLuce()
    [[b], [a]] = model.rate(
        [[model.rating()], [model.rating(mu=30.0, sigma=5.0)]], ranks=[1.0, 2.0]
    )
    assert after["a"] == PlayerRating(a.mu, a.sigma, 4)
    assert after["b"] == PlayerRating(b.mu, b.sigma, 1)


def test_rebuild_is_deterministic_and_equals_incremental() -> None:
    games = synthetic_games(20, 200, seed=4)
    ratings: dict[str, PlayerRating] = {}
    for g in games:
        ratings.update(update(ratings, g))
    assert rebuild(games) == ratings == rebuild(list(games))
    assert sum(r.games for r in ratings.values()) == sum(len(g.results) for g in games)


def test_display_is_conservative_scaled_and_never_negative() -> None:
    fresh = new_rating()
    assert conservative(fresh.mu, fresh.sigma) == DISPLAY_BASE == fresh.display == 1000
    assert conservative(30.0, 2.0) == DISPLAY_BASE + 24 * DISPLAY_SCALE
    assert conservative(24.5, 8.2) == 1000 - 4  # a newcomer's loss: just under 1000
    assert conservative(-10.0, 8.0) == 0  # floored: never a negative number
    assert uncertainty(2.0) == 6 * DISPLAY_SCALE == PlayerRating(30.0, 2.0).display_uncertainty


def test_the_number_orders_players_as_the_stored_ordinal_does() -> None:
    """The bot and the site rank by ``mu - 3*sigma`` (the stored ordinal); the number shown
    must never put two players the other way round."""
    pairs = [(mu / 2, sigma / 4) for mu in range(-20, 100, 7) for sigma in range(1, 40, 3)]
    ordered = sorted(pairs, key=lambda p: p[0] - 3 * p[1])
    shown = [conservative(mu, sigma) for mu, sigma in ordered]
    assert shown == sorted(shown)


def test_the_explanation_names_the_provisional_games() -> None:
    text = EXPLAINED.format(min_games=5)
    assert "provisional until you have played 5 games" in text and "1000" in text


def test_comparison_beats_chance() -> None:
    games = synthetic_games(40, 800, seed=2)
    for model in (PlackettLuce(), BradleyTerryFull()):
        acc, chance = compare(games, model)
        assert acc > chance + 0.1


def test_ratings_benchmark_runs_tiny(capsys: pytest.CaptureFixture[str]) -> None:
    main(["ratings", "--players", "20", "--games", "200"])
    out = capsys.readouterr().out.splitlines()
    assert out[-1].startswith("ratings: ") and "PlackettLuce/normal" in out[-1]
