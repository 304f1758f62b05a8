"""The rotation format (seed 002): seating, the moves after each round, tie-breaks, removals."""

from __future__ import annotations

import itertools
import math
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.tournament.helpers import names, result, rules_parse, seats, texts
from unobot.tournament.model import (
    Announce,
    Done,
    Game,
    RoundClock,
    Seat,
    Step,
    TournamentError,
    parse_options,
)
from unobot.tournament.rotation import Rotation, RotationOptions, table_sizes


def rotation(seed: int = 1, **options: object) -> Rotation:
    return Rotation(RotationOptions(**options), random.Random(seed))  # type: ignore[arg-type]


def play_round(r: Rotation, scores: dict[str, int]) -> list[Step]:
    """Every pending table reports its players' ``scores``; then the round's time is up."""
    for game in r.pending():
        r.finished(result(game.key, {p: scores[p] for p in game.players}))
    return r.round_over()


def by_seat(game: Game, *totals: int) -> dict[str, int]:
    """Totals for ``game``'s players in seat order."""
    return dict(zip(game.players, totals, strict=True))


# --- options and seating ----------------------------------------------------------------------


def test_defaults() -> None:
    o = RotationOptions()
    assert (o.rounds, o.round_seconds, o.warning_seconds, o.max_table, o.min_table) == (
        3,
        1200,
        300,
        5,
        4,
    )


def test_options_parse_and_check() -> None:
    o = parse_options(RotationOptions, ["round=25m", "warning=2m", "rounds=4"])
    assert (o.round_seconds, o.warning_seconds, o.rounds) == (1500, 120, 4)
    for bad in (["rounds=0"], ["warning=30m"], ["max_table=4"], ["min_table=2"], ["min_table=6"]):
        with pytest.raises(TournamentError):
            parse_options(RotationOptions, bad)


@pytest.mark.parametrize("players", range(3, 21))
def test_first_seating(players: int) -> None:
    r = rotation(seed=players)
    steps = r.start(names(players))
    assert isinstance(steps[1], RoundClock) and steps[1] == RoundClock(1, 1200.0, 300.0)
    games = seats(steps)
    sizes = [len(g.players) for g in games]
    assert sizes == table_sizes(players)
    assert len(games) == math.ceil(players / 5)
    assert max(sizes) - min(sizes) <= 1 and sizes == sorted(sizes, reverse=True)
    assert min(sizes) >= 3 and max(sizes) <= 5
    if min(sizes) == 3:  # only when 4 at every table can't be done with at most 5
        assert players < 4 * len(games)
    assert sorted(p for g in games for p in g.players) == sorted(names(players))
    for k, g in enumerate(games, 1):
        assert (g.key, g.table, g.stage) == (f"r1-t{k}", k, f"Round 1 table {k}")
        assert (g.rules, g.seconds, g.warning) == ("bac-tournament", 1200.0, 300.0)
        assert g.options == ((("min_players", "3"),) if len(g.players) == 3 else ())
        rules_parse(g)


def test_seating_examples() -> None:
    assert table_sizes(6) == [3, 3]
    assert table_sizes(7) == [4, 3]
    assert table_sizes(11) == [4, 4, 3]
    assert table_sizes(12) == [4, 4, 4]
    assert table_sizes(20) == [5, 5, 5, 5]
    assert table_sizes(21) == [4, 4, 4, 4, 5][::-1]


def test_too_few() -> None:
    with pytest.raises(TournamentError):
        rotation().start(["ann", "bob"], ["cid"])
    steps = rotation().start(["ann", "bob", "cid"], ["dan"])
    assert "Reserves, on standby for substitutions: dan" in texts(steps)
    assert len(seats(steps)) == 1


def test_round_length_is_said_to_be_the_mcs() -> None:
    steps = rotation().start(names(8))
    assert "the MC's choice" in texts(steps)[0]


# --- moves ------------------------------------------------------------------------------------


def test_one_round_moves_with_wrap_around() -> None:
    r = rotation(seed=3)
    t1, t2, t3 = seats(r.start(names(12)))
    scores = {
        **by_seat(t1, 10, 50, 90, 30),  # lowest: t1[0] -> table 3; highest: t1[2] -> table 2
        **by_seat(t2, 70, 20, 40, 60),  # lowest: t2[1] -> table 1; highest: t2[0] -> table 3
        **by_seat(t3, 45, 35, 25, 99),  # lowest: t3[2] -> table 2; highest: t3[3] -> table 1
    }
    steps = play_round(r, scores)
    assert f"Round 1 table 1: {', '.join(f'{p} {scores[p]}' for p in t1.players)}" in texts(steps)
    assert (
        f"Table 1: {t1.players[0]} (lowest score) down to table 3, "
        f"{t1.players[2]} (highest score) up to table 2."
    ) in texts(steps)
    assert (
        f"Table 3: {t3.players[2]} (lowest score) down to table 2, "
        f"{t3.players[3]} (highest score) up to table 1."
    ) in texts(steps)
    clock = [s for s in steps if isinstance(s, RoundClock)]
    assert clock == [RoundClock(2, 1200.0, 300.0)]
    n1, n2, n3 = seats(steps)
    assert (n1.key, n2.key, n3.key) == ("r2-t1", "r2-t2", "r2-t3")
    stay = lambda g, *out: [p for p in g.players if p not in out]  # noqa: E731
    assert list(n1.players) == [
        *stay(t1, t1.players[0], t1.players[2]),
        t2.players[1],
        t3.players[3],
    ]
    assert list(n2.players) == [
        *stay(t2, t2.players[1], t2.players[0]),
        t1.players[2],
        t3.players[2],
    ]
    assert list(n3.players) == [
        *stay(t3, t3.players[2], t3.players[3]),
        t1.players[0],
        t2.players[0],
    ]
    assert [s.score for s in r.standings()] == sorted(scores.values())


def test_two_tables_swap() -> None:
    r = rotation(seed=4)
    t1, t2 = seats(r.start(names(8)))
    steps = play_round(r, {**by_seat(t1, 1, 2, 3, 4), **by_seat(t2, 5, 6, 7, 8)})
    n1, n2 = seats(steps)
    assert set(n1.players) == {t1.players[1], t1.players[2], t2.players[0], t2.players[3]}
    assert set(n2.players) == {t2.players[1], t2.players[2], t1.players[0], t1.players[3]}


def test_one_table_nobody_moves() -> None:
    r = rotation(seed=5)
    (t1,) = seats(r.start(names(5)))
    steps = play_round(r, by_seat(t1, 5, 4, 3, 2, 1))
    assert not any("down to" in t for t in texts(steps))
    assert seats(steps)[0].players == t1.players


def test_tie_for_lowest_broken_by_tournament_total_then_by_lot() -> None:
    r = rotation(seed=6)
    t1, t2 = seats(r.start(names(8)))
    # round 1: nobody ties
    steps = play_round(r, {**by_seat(t1, 10, 20, 30, 40), **by_seat(t2, 15, 25, 35, 45)})
    n1, n2 = seats(steps)
    totals = {s.name: s.score for s in r.standings()}
    # round 2: table 1 all tie on 50 - the lower tournament total is the lowest, the higher the
    # highest (those are distinct: the round 1 totals all differ)
    steps = play_round(r, {**by_seat(n1, 50, 50, 50, 50), **by_seat(n2, 0, 0, 60, 60)})
    low = min(n1.players, key=lambda p: totals[p])
    high = max(n1.players, key=lambda p: totals[p])
    line = next(t for t in texts(steps) if t.startswith("Table 1:"))
    assert line.startswith(f"Table 1: {low} (lowest score, 4 tied on 50, lower tournament total ")
    assert f"{high} (highest score, 3 tied on 50, higher tournament total " in line
    # table 2: n2[0], n2[1] tie on 0 with (maybe) different totals; then by lot if equal
    line2 = next(t for t in texts(steps) if t.startswith("Table 2:"))
    assert "2 tied on 0" in line2 and "2 tied on 60" in line2


def test_tie_drawn_by_lot_is_deterministic() -> None:
    def once() -> list[Step]:
        r = rotation(seed=7)
        games = seats(r.start(names(8)))
        return play_round(r, {p: 0 for g in games for p in g.players})

    steps = once()
    assert any("drawn by lot" in t for t in texts(steps))
    assert steps == once()


def test_three_rounds_to_done() -> None:
    r = rotation(seed=8)
    steps = r.start(names(10))
    running: dict[str, int] = dict.fromkeys(names(10), 0)
    for number in (1, 2, 3):
        games = seats(steps)
        assert [g.key for g in games] == [f"r{number}-t1", f"r{number}-t2"]
        scores = {p: (int(p[1:]) * 7 + number * 13) % 50 for g in games for p in g.players}
        for p, s in scores.items():
            running[p] += s
        steps = play_round(r, scores)
    assert isinstance(steps[-1], Done)
    assert r.done and r.pending() == []
    assert not any(isinstance(s, (Seat, RoundClock)) for s in steps)
    assert not any("down to" in t for t in texts(steps))  # no moves after the last round
    final = list(steps[-1].standings)
    assert final == r.standings()
    assert sorted((s.score, s.name) for s in final) == sorted((v, k) for k, v in running.items())
    assert [s.score for s in final] == sorted(running.values())
    places = [s.place for s in final]
    for a, b in itertools.pairwise(final):
        assert (a.place == b.place) == (a.score == b.score)
    assert places[0] == 1
    with pytest.raises(TournamentError):
        r.round_over()


def test_round_over_waits_for_every_table() -> None:
    r = rotation(seed=9)
    t1, _ = seats(r.start(names(8)))
    r.finished(result(t1.key, by_seat(t1, 1, 2, 3, 4)))
    with pytest.raises(TournamentError):
        r.round_over()
    with pytest.raises(TournamentError):
        r.finished(result(t1.key, by_seat(t1, 1, 2, 3, 4)))
    assert [g.key for g in r.pending()] == ["r1-t2"]


# --- forfeits, removals, substitutes, corrections ---------------------------------------------


def test_gone_player_forfeits_the_round_and_moves_up() -> None:
    r = rotation(seed=10)
    t1, t2 = seats(r.start(names(8)))
    a, b, c, d = t1.players
    r.finished(result(t1.key, {a: 10, b: 20, c: 30}, gone=(d,)))
    r.finished(result(t2.key, by_seat(t2, 1, 2, 3, 4)))
    steps = r.round_over()
    assert (
        f"Table 1: {a} (lowest score) down to table 2, "
        f"{d} (highest score, forfeited) up to table 2." in texts(steps)
    )
    assert {s.name: s.score for s in r.standings()}[d] == 30


def test_remove_and_rebalance() -> None:
    r = rotation(seed=11)
    t1, t2, t3 = seats(r.start(names(11)))  # 4, 4, 3
    gone = t3.players[0]
    assert r.remove(gone) == []
    with pytest.raises(TournamentError):
        r.remove(gone)
    for g in (t1, t2):
        r.finished(result(g.key, by_seat(g, 1, 2, 3, 4)))
    r.finished(result(t3.key, by_seat(t3, 50, 5, 6)))  # the removed player is left out
    steps = r.round_over()
    games = seats(steps)
    sizes = [len(g.players) for g in games]
    assert sorted(sizes) == [3, 3, 4] and sum(sizes) == 10
    assert gone not in {p for g in games for p in g.players}
    assert any("is short" in t and "(drawn) moves from table" in t for t in texts(steps))
    for g in games:
        rules_parse(g)
    table = r.standings()
    assert (table[-1].name, table[-1].note, table[-1].score) == (gone, "removed", 0)


def test_removals_close_a_table() -> None:
    r = rotation(seed=12)
    t1, t2 = seats(r.start(names(6)))  # 3 and 3
    r.remove(t2.players[0])
    steps = play_round(r, {p: 1 for g in (t1, t2) for p in g.players})
    assert any("closes" in t for t in texts(steps))
    (only,) = seats(steps)
    assert len(only.players) == 5 and only.options == ()


def test_a_table_everyone_left_is_closed_at_once() -> None:
    r = rotation(seed=13)
    t1, t2 = seats(r.start(names(6)))
    r.remove(t2.players[0])
    r.remove(t2.players[1])
    steps = r.remove(t2.players[2])
    assert texts(steps) == ["Round 1 table 2: closed, nobody is left at it."]
    assert [g.key for g in r.pending()] == [t1.key]
    r.finished(result(t1.key, by_seat(t1, 1, 2, 3)))
    (only,) = seats(r.round_over())
    assert only.options == (("min_players", "3"),)


def test_too_few_left_ends_the_tournament() -> None:
    r = rotation(seed=14)
    (t1,) = seats(r.start(names(3)))
    r.remove(t1.players[0])
    r.remove(t1.players[1])
    steps = play_round(r, dict.fromkeys(t1.players, 5))
    assert isinstance(steps[-1], Done)
    assert "too few players are left" in texts(steps)[-1]


def test_two_left_play_on() -> None:
    r = rotation(seed=15)
    (t1,) = seats(r.start(names(3)))
    r.remove(t1.players[0])
    (only,) = seats(play_round(r, dict.fromkeys(t1.players, 5)))
    assert len(only.players) == 2 and only.options == (("min_players", "2"),)
    rules_parse(only)


def test_substitute() -> None:
    r = rotation(seed=16)
    t1, t2 = seats(r.start(names(8)))
    old = t1.players[0]
    play_round(r, {**by_seat(t1, 5, 6, 7, 8), **by_seat(t2, 1, 2, 3, 4)})
    assert r.substitute(old, "zed") == []
    assert "zed" in [p for g in r.pending() for p in g.players]
    scores = {s.name: s.score for s in r.standings()}
    assert scores["zed"] == 5 and old not in scores
    # a result may still come back under the old name
    for g in r.pending():
        r.finished(result(g.key, {(old if p == "zed" else p): 1 for p in g.players}))
    r.round_over()
    assert {s.name: s.score for s in r.standings()}["zed"] == 6
    with pytest.raises(TournamentError):
        r.substitute("zed", t2.players[0])
    with pytest.raises(TournamentError):
        r.substitute(old, "again")  # the old name is no longer playing


def test_correct_before_the_round_ends_changes_the_moves() -> None:
    r = rotation(seed=17)
    t1, t2 = seats(r.start(names(8)))
    a, b, c, d = t1.players
    r.finished(result(t1.key, {a: 10, b: 20, c: 30, d: 40}))
    r.finished(result(t2.key, by_seat(t2, 1, 2, 3, 4)))
    assert r.correct(d, t1.key, -35) == [Announce(f"{t1.key}: {d} -35 points, round total 5.")]
    steps = r.round_over()
    moved = f"Table 1: {d} (lowest score) down to table 2, {c} (highest score) up to table 2."
    assert moved in texts(steps)
    # after the round: only the tournament total changes
    assert r.correct(a, t1.key, 100) == [Announce(f"{t1.key}: {a} +100 points, tournament 110.")]
    assert {s.name: s.score for s in r.standings()}[a] == 110
    with pytest.raises(TournamentError):
        r.correct(a, t2.key, 1)
    with pytest.raises(TournamentError):
        r.correct(a, "r9-t1", 1)
    # before the table reports: added to the total it reports
    (n1, _) = r.pending()
    who = n1.players[0]
    assert r.correct(who, "r2-t1", 7) == []
    with pytest.raises(TournamentError):
        r.correct(who, "r2-t2", 1)  # not at that table
    before = {s.name: s.score for s in r.standings()}[who]
    play_round(r, {p: 1 for g in r.pending() for p in g.players})
    assert {s.name: s.score for s in r.standings()}[who] == before + 1 + 7


# --- determinism and properties ---------------------------------------------------------------


def run(seed: int, players: int, outcome_seed: int, rounds: int = 3) -> tuple[list[Step], Rotation]:
    """A whole rotation with random results, removals, substitutes and forfeits from a seed."""
    r = rotation(seed=seed, rounds=rounds)
    steps = r.start(names(players))
    rng = random.Random(outcome_seed)
    subs = 0
    while not r.done:
        pending = r.pending()
        for game in pending:
            rules_parse(game)
            assert len(game.players) <= 5
            assert len(game.players) >= 3 or sum(len(g.players) for g in pending) < 3
        for game in pending:
            removed = {s.name for s in r.standings() if s.note == "removed"}
            still = [p for p in game.players if p not in removed]
            if rng.random() < 0.05 and still:
                steps += r.remove(still[rng.randrange(len(still))])
            if rng.random() < 0.05:
                subs += 1
                who = game.players[rng.randrange(len(game.players))]
                if who in {s.name for s in r.standings() if s.note != "removed"}:
                    steps += r.substitute(who, f"sub{subs}")
        for game in r.pending():
            totals = {p: rng.choice([0, 5, 20, 50]) for p in game.players}
            gone = tuple(p for p in game.players if rng.random() < 0.05)
            steps += r.finished(result(game.key, totals, gone))
        steps += r.round_over()
    return steps, r


def test_same_inputs_same_steps() -> None:
    one, r1 = run(99, 17, 3)
    two, r2 = run(99, 17, 3)
    assert one == two and r1.standings() == r2.standings()
    assert run(100, 17, 3)[0] != one


@given(seed=st.integers(0, 2**32), players=st.integers(3, 40), outcome=st.integers(0, 2**32))
def test_any_rotation_reaches_done(seed: int, players: int, outcome: int) -> None:
    steps, r = run(seed, players, outcome)
    assert isinstance(steps[-1], Done)
    assert sum(isinstance(s, Done) for s in steps) == 1
    assert sum(isinstance(s, RoundClock) for s in steps) <= 3
    table = r.standings()
    assert list(steps[-1].standings) == table
    assert len(table) == len({s.name for s in table}) == players
    places = [s.place for s in table]
    assert places == sorted(places) and places[0] == 1
    assert all(1 <= p <= players for p in places)
    active = [s for s in table if s.note != "removed"]
    assert [s.score for s in active] == sorted(s.score for s in active)
    assert all(s.note == "removed" for s in table[len(active) :])
