"""The knockout format (seed 001): draws, reserves, sudden death, forfeits, standings."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.tournament.helpers import names, result, rules_parse, seats, texts
from unobot.engine.rules import PRESETS
from unobot.tournament.knockout import Knockout, KnockoutOptions, game_sizes, optimum
from unobot.tournament.model import (
    Announce,
    Done,
    Game,
    Result,
    Seat,
    Step,
    TournamentError,
    parse_options,
)


def knockout(seed: int = 1, **options: object) -> Knockout:
    return Knockout(KnockoutOptions(**options), random.Random(seed))  # type: ignore[arg-type]


def play(k: Knockout, game: Game, first_wins: bool = True) -> list[Step]:
    """The first seated player (or the last) has the lowest total."""
    ordered = game.players if first_wins else game.players[::-1]
    return k.finished(result(game.key, {p: 10 * (n + 1) for n, p in enumerate(ordered)}))


# --- options ----------------------------------------------------------------------------------


def test_defaults_are_the_seeds() -> None:
    o = KnockoutOptions()
    assert (o.max_entrants, o.game_size, o.game_seconds, o.warning_seconds) == (64, 4, 3600, 0)


def test_options_parse_and_check() -> None:
    o = parse_options(KnockoutOptions, ["game=45m", "game_size=3", "max_entrants=27"])
    assert (o.game_seconds, o.game_size, o.max_entrants) == (2700, 3, 27)
    for bad in (["game_size=1"], ["game_size=11"], ["max_entrants=1"], ["warning=2h"]):
        with pytest.raises(TournamentError):
            parse_options(KnockoutOptions, bad)


# --- the draw ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "sizes"),
    [
        (2, [2]),
        (3, [3]),
        (4, [4]),
        (5, [3, 2]),
        (6, [3, 3]),
        (7, [4, 3]),
        (8, [4, 4]),
        (9, [3, 3, 3]),
        (10, [4, 3, 3]),
        (11, [4, 4, 3]),
        (12, [4, 4, 4]),
        (13, [4, 3, 3, 3]),
        (14, [4, 4, 3, 3]),
        (15, [4, 4, 4, 3]),
        (16, [4, 4, 4, 4]),
        (17, [4, 4, 3, 3, 3]),
    ],
)
def test_first_round_game_sizes(players: int, sizes: list[int]) -> None:
    assert game_sizes(players, 4) == sizes
    k = knockout()
    games = seats(k.start(names(players)))
    assert [len(g.players) for g in games] == sizes
    assert sorted(p for g in games for p in g.players) == sorted(names(players))
    assert [g.key for g in games] == [f"r1-g{i}" for i in range(1, len(sizes) + 1)]
    assert [g.table for g in games] == list(range(1, len(sizes) + 1))
    for g in games:
        assert g.rules == "knockout" and g.seconds == 3600 and g.warning == 0
        rules_parse(g)
    if len(sizes) == 1:
        assert games[0].stage == "Final"
    else:
        assert games[0].stage == "Round 1 game 1"


@pytest.mark.parametrize("players", range(2, 18))
def test_pairs_give_byes_for_odd_numbers(players: int) -> None:
    k = knockout(game_size=2)
    steps = k.start(names(players))
    games = seats(steps)
    byes = [t for t in texts(steps) if t.endswith("has a bye.")]
    assert len(byes) == players % 2
    assert all(len(g.players) == 2 for g in games)
    assert len(games) == players // 2


def test_bye_player_is_through() -> None:
    k = knockout(seed=3, game_size=2)
    steps = k.start(["ann", "bob", "cid"])
    (game,) = seats(steps)
    assert game.stage == "Round 1 game 1"  # not the final: the bye goes on to round 2
    assert "Round 1: 3 players, 1 game, 1 bye." in texts(steps)
    (bye,) = [p for p in ["ann", "bob", "cid"] if p not in game.players]
    assert f"Round 1: {bye} has a bye." in texts(steps)
    (final,) = seats(play(k, game))
    assert final.stage == "Final"
    assert set(final.players) == {bye, game.players[0]}


def test_optimum() -> None:
    assert [optimum(n, 4, 64) for n in (1, 2, 4, 5, 16, 17, 64, 65)] == [
        4,
        4,
        4,
        16,
        16,
        64,
        64,
        64,
    ]
    assert optimum(9, 3, 64) == 9 and optimum(10, 3, 64) == 27
    assert optimum(40, 4, 50) == 50


def test_reserves_fill_to_the_optimum() -> None:
    k = knockout(seed=7)
    reserves = names(6, "r")
    steps = k.start(names(13), reserves)
    games = seats(steps)
    seated = [p for g in games for p in g.players]
    assert len(seated) == 16
    chosen = [p for p in seated if p.startswith("r")]
    assert len(chosen) == 3
    line = next(t for t in texts(steps) if "reserve" in t)
    assert all(r in line for r in chosen)
    assert not any(r in line for r in reserves if r not in chosen)
    # the same seed chooses the same reserves
    again = seats(knockout(seed=7).start(names(13), reserves))
    assert [p for g in again for p in g.players] == seated


def test_fewer_reserves_than_places_all_get_in() -> None:
    games = seats(knockout().start(names(5), ["r1", "r2"]))
    assert sum(len(g.players) for g in games) == 7


def test_full_draw_takes_no_reserve() -> None:
    steps = knockout().start(names(16), ["r1"])
    assert sum(len(g.players) for g in seats(steps)) == 16
    assert not any("reserve" in t for t in texts(steps))


def test_entrants_over_the_limit_do_not_get_in() -> None:
    k = knockout(max_entrants=8)
    steps = k.start(names(10), ["r1"])
    seated = {p for g in seats(steps) for p in g.players}
    assert seated == set(names(8))
    assert "Over the limit of 8, not in the draw: p9, p10" in texts(steps)
    assert len(k.standings()) == 8


def test_too_few_players() -> None:
    with pytest.raises(TournamentError):
        knockout().start(["ann"])
    with pytest.raises(TournamentError):
        knockout().start([])
    # one entrant and a reserve make two
    games = seats(knockout().start(["ann"], ["bob"]))
    assert sorted(games[0].players) == ["ann", "bob"]


# --- playing it through -----------------------------------------------------------------------


def test_sixteen_player_bracket_to_the_champion() -> None:
    k = knockout(seed=11)
    round1 = seats(k.start(names(16)))
    assert len(round1) == 4
    winners = []
    final: list[Game] = []
    for game in round1:
        steps = play(k, game)
        winners.append(game.players[0])
        assert f"{game.stage}: {game.players[0]} goes through." in texts(steps)
        final = seats(steps)
    # the last result of round 1 draws the final
    (game,) = final
    assert game.key == "r2-g1" and game.stage == "Final" and sorted(game.players) == sorted(winners)
    assert k.pending() == [game]
    steps = play(k, game, first_wins=False)
    champion = game.players[-1]
    assert f"{champion} is the knockout champion!" in texts(steps)
    assert isinstance(steps[-1], Done)
    assert k.done and k.pending() == []
    table = k.standings()
    assert steps[-1].standings == tuple(table)
    assert (table[0].place, table[0].name, table[0].note) == (1, champion, "champion")
    assert [s.note for s in table[1:4]] == ["finalist"] * 3
    assert [s.place for s in table[1:4]] == [2, 3, 4]  # by their final totals 30, 20, 10
    assert [s.score for s in table[1:4]] == [20, 30, 40]
    assert all(s.note == "out in round 1" for s in table[4:])
    # round 1 losers: by their game totals (20, 30, 40: four each share a place)
    assert [s.place for s in table[4:]] == [5] * 4 + [9] * 4 + [13] * 4
    assert len({s.name for s in table}) == 16


def test_tie_goes_to_sudden_death_and_again() -> None:
    k = knockout(seed=2)
    (game,) = seats(k.start(["ann", "bob", "cid", "dan"]))
    steps = k.finished(result(game.key, {"ann": 40, "bob": 40, "cid": 40, "dan": 95}))
    (sd,) = seats(steps)
    assert sd == Game(
        key="r1-g1-sd1",
        table=1,
        stage="Final sudden death",
        players=("ann", "bob", "cid"),
        rules="knockout",
        options=(("time_limit_minutes", "0"),),
        seconds=0.0,
        label="Final sudden death",  # the score sheet names it: not another hand of T1
    )
    rules_parse(sd)
    assert PRESETS["knockout"].with_option("time_limit_minutes", "0").target_score == 0
    assert "Final: ann, bob, cid tie on 40; Final sudden death: one hand, out wins." in texts(steps)
    # still tied (a walkover, say): another sudden death among those still tied
    (sd2,) = seats(
        k.finished(Result(sd.key, (("ann", 0), ("bob", 0), ("cid", 12)), ("ann", "bob")))
    )
    assert (sd2.key, sd2.stage, sd2.players) == (
        "r1-g1-sd2",
        "Final sudden death 2",
        ("ann", "bob"),
    )
    steps = k.finished(result(sd2.key, {"ann": 7, "bob": 0}))
    assert isinstance(steps[-1], Done)
    table = k.standings()
    assert table[0].name == "bob" and table[0].note == "champion"
    # sudden-death points don't count: ann and cid share 2nd on 40
    assert [(s.place, s.name, s.score) for s in table[1:]] == [
        (2, "ann", 40),
        (2, "cid", 40),
        (4, "dan", 95),
    ]


def test_sudden_death_in_an_early_round_keeps_the_round_open() -> None:
    k = knockout(seed=4)
    g1, g2 = seats(k.start(names(8)))
    tied = {p: 50 for p in g1.players}
    (sd,) = seats(k.finished(result(g1.key, tied)))
    assert sd.key == "r1-g1-sd1" and sd.stage == "Round 1 game 1 sudden death"
    assert seats(play(k, g2)) == []  # the round waits for the sudden death
    assert [g.key for g in k.pending()] == [sd.key]
    (final,) = seats(play(k, sd))
    assert set(final.players) == {sd.players[0], g2.players[0]}


def test_gone_players_forfeit() -> None:
    k = knockout(seed=5)
    (game,) = seats(k.start(["ann", "bob", "cid"]))
    # ann left with the best total; the engine still lists her (it should not matter)
    r = Result(game.key, (("ann", 5), ("bob", 30), ("cid", 20)), ("ann",), (), ("ann",))
    steps = k.finished(r)
    assert k.done and k.standings()[0].name == "cid"
    assert isinstance(steps[-1], Done)
    assert k.standings()[-1].name == "ann"  # forfeited: below those who finished


def test_a_game_whose_players_all_left_sends_nobody_through() -> None:
    k = knockout(seed=6)
    g1, g2 = seats(k.start(names(8)))
    gone = Result(g1.key, (), (), (), g1.players)
    assert "Round 1 game 1: nobody goes through." in texts(k.finished(gone))
    steps = play(k, g2)
    assert isinstance(steps[-1], Done)
    assert k.standings()[0].name == g2.players[0]
    assert k.standings()[0].note == "champion"


def test_remove_forfeits_and_decides_a_game_left_with_one() -> None:
    k = knockout(seed=8)
    g1, g2 = seats(k.start(names(5)))  # 3 and 2
    a, b = g2.players
    steps = k.remove(a)
    assert f"Round 1 game 2: {b} goes through." in texts(steps)
    assert [g.key for g in k.pending()] == [g1.key]
    assert k.finished(result(g2.key, {a: 0, b: 10})) == []  # late result: ignored
    k.remove(g1.players[0])
    # the removed player's best total doesn't send them through
    final = seats(
        k.finished(result(g1.key, {g1.players[0]: 1, g1.players[1]: 2, g1.players[2]: 3}))
    )
    assert set(final[0].players) == {b, g1.players[1]}
    table = k.standings()
    assert [s.note for s in table[-2:]] == ["removed", "removed"]
    assert {s.name for s in table[-2:]} == {a, g1.players[0]}
    with pytest.raises(TournamentError):
        k.remove(a)


def test_remove_a_player_through_to_the_next_round() -> None:
    k = knockout(seed=9)
    g1, g2, g3 = seats(k.start(names(12)))
    play(k, g1)
    k.remove(g1.players[0])
    play(k, g2)
    (final,) = seats(play(k, g3))
    assert sorted(final.players) == sorted([g2.players[0], g3.players[0]])


def test_substitute_takes_the_place_and_future_games() -> None:
    k = knockout(seed=10)
    g1, g2 = seats(k.start(names(8)))
    old = g1.players[1]
    assert k.substitute(old, "zed") == []
    assert "zed" in k.pending()[0].players and old not in k.pending()[0].players
    with pytest.raises(TournamentError):
        k.substitute("zed", g2.players[0])  # already playing
    with pytest.raises(TournamentError):
        k.substitute("nobody", "x")
    # the result may still come back under the old name
    totals = {p: 50 for p in g1.players}
    totals[old] = 1
    play(k, g2)
    (final,) = seats(k.finished(result(g1.key, totals)))
    assert "zed" in final.players
    assert "zed" in [s.name for s in k.standings()] and old not in [s.name for s in k.standings()]


def test_correct_changes_standings_not_decisions() -> None:
    k = knockout(seed=12)
    g1, g2 = seats(k.start(names(8)))
    assert k.correct(g1.players[2], g1.key, 5) == []  # before the result: added to it
    play(k, g1)
    winner, second = g1.players[0], g1.players[1]
    k.correct(second, g1.key, -50)  # now below the winner's total
    assert k.correct(second, g1.key, 5) == [Announce(f"{g1.key}: {second} +5 points, now -25.")]
    (final,) = seats(play(k, g2))
    assert winner in final.players and second not in final.players
    out = {s.name: s for s in k.standings()}
    assert out[second].score == -25
    assert out[second].place < out[g1.players[2]].place
    assert out[g1.players[2]].score == 35
    with pytest.raises(TournamentError):
        k.correct(g2.players[0], g1.key, 1)  # not in that game
    with pytest.raises(TournamentError):
        k.correct(winner, "r9-g9", 1)


def test_standings_during_the_tournament() -> None:
    k = knockout(seed=13)
    g1, _ = seats(k.start(names(8)))
    play(k, g1)
    table = k.standings()
    assert table[0].name == g1.players[0] and table[0].note == "in round 2"
    assert {s.note for s in table[1:5]} == {"in round 1"}
    assert {s.note for s in table[5:]} == {"out in round 1"}
    assert k.round_over() == []


def test_wrong_moments() -> None:
    k = knockout()
    with pytest.raises(TournamentError):
        k.finished(result("r1-g1", {"a": 1}))
    (game,) = seats(k.start(["ann", "bob"]))
    with pytest.raises(TournamentError):
        k.start(["ann", "bob"])
    with pytest.raises(TournamentError):
        k.finished(result("r7-g1", {"ann": 1}))
    play(k, game)
    with pytest.raises(TournamentError):
        k.finished(result(game.key, {"ann": 1}))


def test_big_games_pass_max_players() -> None:
    k = knockout(game_size=6)
    (game,) = seats(k.start(names(6)))
    assert game.options == (("max_players", "6"),)
    rules_parse(game)


# --- determinism and properties ---------------------------------------------------------------


def run(seed: int, players: int, reserves: int, outcome_seed: int) -> tuple[list[Step], Knockout]:
    """A whole knockout with random results (ties, gone players, removals) from a seed."""
    k = knockout(seed=seed)
    steps = k.start(names(players), names(reserves, "r"))
    rng = random.Random(outcome_seed)
    guard = 0
    while not k.done:
        guard += 1
        assert guard < 1000
        pending = k.pending()
        assert pending
        game = pending[rng.randrange(len(pending))]
        rules_parse(game)
        assert 2 <= len(game.players) <= 4
        roll = rng.random()
        removed = {s.name for s in k.standings() if s.note == "removed"}
        still = [p for p in game.players if p not in removed]
        if roll < 0.05 and still:
            steps += k.remove(still[rng.randrange(len(still))])
            continue
        totals = {p: rng.choice([0, 10, 20]) for p in game.players}
        gone = tuple(p for p in game.players if rng.random() < 0.1)
        for p in gone:
            totals.pop(p)
        steps += k.finished(result(game.key, totals, gone))
    return steps, k


def test_same_inputs_same_steps() -> None:
    one, k1 = run(42, 23, 5, 7)
    two, k2 = run(42, 23, 5, 7)
    assert one == two
    assert k1.standings() == k2.standings()
    three, _ = run(43, 23, 5, 7)
    assert one != three


@given(
    seed=st.integers(0, 2**32),
    players=st.integers(2, 70),
    reserves=st.integers(0, 8),
    outcome=st.integers(0, 2**32),
)
def test_any_knockout_reaches_done(seed: int, players: int, reserves: int, outcome: int) -> None:
    steps, k = run(seed, players, reserves, outcome)
    assert isinstance(steps[-1], Done)
    assert sum(isinstance(s, Done) for s in steps) == 1
    table = k.standings()
    assert list(steps[-1].standings) == table
    entered = min(players, 64)
    expected = entered + min(reserves, optimum(entered, 4, 64) - entered)
    assert len(table) == len({s.name for s in table}) == expected
    seated = {p for s in steps if isinstance(s, Seat) for p in s.game.players}
    assert seated <= {s.name for s in table}
    places = [s.place for s in table]
    assert places == sorted(places)
    assert places[0] == 1 and all(1 <= p <= len(table) for p in places)
    assert sum(s.note == "champion" for s in table) <= 1
