"""The ocuk format (seed 000) from small readable fixtures: tables, the final, play-offs, the
alternative ruleset for 6 or fewer, removals, substitutes, corrections and determinism."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.tournament.helpers import rules_parse, seats
from unobot.tournament.model import (
    Announce,
    Done,
    Game,
    Hand,
    Result,
    Step,
    TournamentError,
    parse_options,
)
from unobot.tournament.ocuk import Ocuk, table_sizes

NAMES = [f"p{i:02d}" for i in range(40)]


def make(seed: int = 1, **options: int) -> Ocuk:
    return Ocuk(Ocuk.Options(**options), random.Random(seed))


def result(
    key: str,
    totals: dict[str, int],
    winners: tuple[str, ...] | None = None,
    gone: tuple[str, ...] = (),
    went_out: str | None = None,
) -> Result:
    """A Result from ``{"ann": 263, "bob": 0}``. Winner-collects tables (key ``t…``/``r…``):
    winners default to the highest total. One-hand games: whoever holds 0 went out (the first
    such), winners are the lowest totals."""
    names = tuple(totals)
    one_hand = not key.startswith(("t", "r"))
    if winners is None:
        best = (min if one_hand else max)(totals.values())
        winners = tuple(n for n in names if totals[n] == best)
    hands: tuple[Hand, ...] = ()
    if one_hand:
        out = went_out or next((n for n in names if totals[n] == 0), None)
        points = tuple(totals.values())
        hands = (Hand(names, points, points, out),)
    return Result(key, tuple(totals.items()), winners, hands, gone)


def texts(steps: list[Step]) -> str:
    return "\n".join(s.text for s in steps if isinstance(s, Announce))


def done(steps: list[Step]) -> Done:
    found = [s for s in steps if isinstance(s, Done)]
    assert len(found) == 1, steps
    return found[0]


def placing(fmt: Ocuk) -> list[tuple[int, str, str]]:
    return [(s.place, s.name, s.note) for s in fmt.standings()]


# --- tables ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "sizes"),
    [(3, [3]), (6, [3, 3]), (7, [4, 3]), (8, [4, 4]), (9, [3, 3, 3]), (20, [5, 5, 5, 5])],
)
def test_table_sizes(players: int, sizes: list[int]) -> None:
    assert table_sizes(players) == sizes


def test_table_sizes_follow_max_table() -> None:
    assert table_sizes(20, max_table=4) == [4, 4, 4, 4, 4]
    assert table_sizes(13, max_table=5) == [5, 4, 4]
    assert table_sizes(40) == [6, 6, 6, 6, 6, 5, 5]


@pytest.mark.parametrize("n", [7, 9, 20, 40])
def test_main_tables_split_everyone_once(n: int) -> None:
    fmt = make()
    games = seats(fmt.start(NAMES[:n]))
    assert [len(g.players) for g in games] == table_sizes(n)
    assert sorted(p for g in games for p in g.players) == NAMES[:n]
    assert [(g.key, g.table, g.stage) for g in games][:2] == [
        ("t1", 1, "Table 1"),
        ("t2", 2, "Table 2"),
    ]
    for game in games:
        assert game.rules == "ocuk-tournament" and game.options == ()
        rules_parse(game)
    assert fmt.pending() == games


def test_other_target_goes_to_the_tables() -> None:
    games = seats(make(target=300).start(NAMES[:7]))
    assert all(g.options == (("target_score", "300"),) for g in games)


def test_too_few_players() -> None:
    with pytest.raises(TournamentError, match="at least 3 players"):
        make().start(["ann", "bob"])


@pytest.mark.parametrize(
    "words",
    [
        ["max_table=11"],
        ["min_table=1"],
        ["min_table=4", "max_table=6"],
        ["target=0"],
        ["small=11"],
        ["min_tables=0"],
        ["tables=3"],
        ["target=lots"],
    ],
)
def test_bad_options(words: list[str]) -> None:
    with pytest.raises(TournamentError):
        parse_options(Ocuk.Options, words)


def test_options_parse() -> None:
    options = parse_options(Ocuk.Options, ["target=300", "max-table=5"])
    assert (options.target, options.max_table, options.small) == (300, 5, 6)


# --- a main tournament -------------------------------------------------------------------------


def start_main(n: int = 9, seed: int = 1) -> tuple[Ocuk, list[Game]]:
    fmt = make(seed)
    return fmt, seats(fmt.start(NAMES[:n]))


def play_table(fmt: Ocuk, game: Game, *winners: str, **extra: int) -> list[Step]:
    totals = {p: (260 if p in winners else 40) for p in game.players}
    totals.update(extra)
    return fmt.finished(result(game.key, totals, winners=tuple(winners)))


def test_full_main_tournament() -> None:
    fmt, (t1, t2, t3) = start_main(9)
    a, b, c = t1.players[0], t2.players[1], t3.players[2]
    steps = play_table(fmt, t1, a)
    assert f"Table 1: {a} (260) goes through." in texts(steps)
    assert not seats(steps)
    play_table(fmt, t2, b)
    steps = play_table(fmt, t3, c)
    (final,) = seats(steps)
    assert (final.key, final.table, final.stage, final.players) == ("final", 1, "Final", (a, b, c))
    assert final.options == (
        ("target_score", "0"),
        ("scoring", "own-points"),
        ("extra_hand_if_first", "off"),
        ("min_players", "2"),
    )
    rules_parse(final)
    steps = fmt.finished(result("final", {a: 12, b: 0, c: 40}))
    standings = done(steps).standings
    assert fmt.done and fmt.pending() == []
    assert [(s.place, s.name, s.score, s.note) for s in standings[:3]] == [
        (1, b, 0, "champion"),
        (2, a, 12, "finalist"),
        (3, c, 40, "finalist"),
    ]
    assert f"Champion: {b}!" in texts(steps)
    rest = standings[3:]
    assert {s.name for s in rest} == set(NAMES[:9]) - {a, b, c}
    assert all(s.place == 4 and s.score == 40 and s.note.startswith("table ") for s in rest)


def test_non_finalists_by_table_total() -> None:
    fmt, (t1, t2, t3) = start_main(9)
    x, y, z = t1.players
    play_table(fmt, t1, x, **{y: 120, z: 30})
    play_table(fmt, t2, t2.players[0])
    steps = play_table(fmt, t3, t3.players[0])
    fmt.finished(result("final", dict.fromkeys(seats(steps)[0].players, 5) | {x: 0}))
    board = {s.name: (s.place, s.score) for s in fmt.standings()}
    assert board[y] == (4, 120)
    assert board[z][1] == 30 and board[z][0] > board[t2.players[1]][0]


def test_first_hand_rule_two_winners_both_reach_the_final() -> None:
    fmt, (t1, t2) = start_main(7)
    a, b = t1.players[:2]
    steps = play_table(fmt, t1, a, b)
    assert f"{a} (260) and {b} (260) go through" in texts(steps)
    (final,) = seats(play_table(fmt, t2, t2.players[0]))
    assert set(final.players) == {a, b, t2.players[0]}


def test_final_tie_on_a_lower_place_is_played_off_and_repeated() -> None:
    fmt, (t1, t2, t3) = start_main(9)
    for game in (t1, t2):
        play_table(fmt, game, *game.players[:2])
    (final,) = seats(play_table(fmt, t3, t3.players[0]))
    a, b, c, d, e = final.players
    steps = fmt.finished(result("final", {a: 0, b: 30, c: 30, d: 30, e: 50}))
    (po,) = seats(steps)
    assert (po.key, po.stage, po.players, po.table) == ("po1", "Play-off for 2nd", (b, c, d), 1)
    rules_parse(po)
    assert [s.place for s in fmt.standings()[:5]] == [1, 2, 2, 2, 5]
    # the play-off ties two of them again: another play-off between just those two
    (po2,) = seats(fmt.finished(result("po1", {b: 7, c: 0, d: 7})))
    assert (po2.key, po2.stage, po2.players) == ("po2", "Play-off for 3rd", (b, d))
    steps = fmt.finished(result("po2", {b: 9, d: 4}, went_out=None))
    standings = done(steps).standings
    assert [(s.place, s.name) for s in standings[:5]] == [(1, a), (2, c), (3, d), (4, b), (5, e)]
    assert "Final placings: 1st" in texts(steps)


def test_tie_for_first_without_a_hand_winner_is_played_off() -> None:
    fmt, games = start_main(7)
    for game in games:
        play_table(fmt, game, game.players[0])
    a, b = fmt.pending()[0].players
    steps = fmt.finished(Result("final", ((a, 0), (b, 0)), (a, b)))
    assert seats(steps)[0].stage == "Play-off for 1st"


def test_gone_winner_does_not_qualify() -> None:
    fmt, (t1, t2) = start_main(7)
    a = t1.players[0]
    rest = {p: 10 for p in t1.players[1:]}
    steps = fmt.finished(result("t1", rest, winners=(a,), gone=(a,)))
    assert "nobody goes through" in texts(steps)
    steps = play_table(fmt, t2, t2.players[0])
    standings = done(steps).standings  # one finalist: champion without a final
    assert (standings[0].name, standings[0].note) == (t2.players[0], "champion")
    assert next(s for s in standings if s.name == a).note == "table 1, left"


def test_too_many_qualifiers_play_another_round() -> None:
    fmt, games = start_main(40)
    steps: list[Step] = []
    for game in games:
        steps = play_table(fmt, game, *game.players[:2])
    round2 = seats(steps)
    assert [g.key for g in round2] == ["r2t1", "r2t2", "r2t3"]
    assert sum(len(g.players) for g in round2) == 14
    for game in round2:
        steps = play_table(fmt, game, game.players[0])
    (final,) = seats(steps)
    done(fmt.finished(result("final", dict(zip(final.players, (0, 5, 9), strict=True)))))
    notes = [s.note for s in fmt.standings()]
    assert notes[:3] == ["champion", "finalist", "finalist"]
    assert all(n.startswith("round 2") for n in notes[3:14])
    assert all(n.startswith("table") for n in notes[14:])


# --- the alternative ruleset ---------------------------------------------------------------


def test_three_players_go_straight_to_the_final() -> None:
    fmt = make()
    (final,) = seats(fmt.start(["ann", "bob", "cat"]))
    assert final.key == "final" and sorted(final.players) == ["ann", "bob", "cat"]
    standings = done(fmt.finished(result("final", {"ann": 9, "bob": 0, "cat": 3}))).standings
    assert [s.name for s in standings] == ["bob", "cat", "ann"]


def test_small_eliminations_down_to_three_then_final() -> None:
    fmt = make()
    (h1,) = seats(fmt.start(["ann", "bob", "cat", "dan", "eve", "fay"]))
    assert (h1.key, h1.stage, h1.table) == ("h1", "Hand 1", 1)
    assert h1.options == (
        ("target_score", "0"),
        ("scoring", "own-points"),
        ("extra_hand_if_first", "off"),
    )
    rules_parse(h1)
    scores = {"ann": 0, "bob": 100, "cat": 150, "dan": 200, "eve": 250, "fay": 251}
    steps = fmt.finished(result("h1", scores))
    assert "Hand 1: out fay (251)" in texts(steps)
    (h2,) = seats(steps)
    assert h2.key == "h2" and "fay" not in h2.players and len(h2.players) == 5
    steps = fmt.finished(result("h2", {"ann": 10, "bob": 0, "cat": 20, "dan": 60, "eve": 1}))
    assert "Hand 2: out" in texts(steps)
    (final,) = seats(steps)
    assert sorted(final.players) == ["ann", "bob", "cat"] and final.key == "final"
    standings = done(fmt.finished(result("final", {"ann": 5, "bob": 0, "cat": 7}))).standings
    assert [(s.place, s.name, s.note) for s in standings] == [
        (1, "bob", "champion"),
        (2, "ann", "finalist"),
        (3, "cat", "finalist"),
        (4, "eve", "eliminated at 251"),
        (5, "dan", "eliminated at 260"),
        (6, "fay", "eliminated at 251"),
    ]


def test_small_too_many_out_lowest_three_go_through() -> None:
    fmt = make()
    fmt.start(["ann", "bob", "cat", "dan", "eve"])
    steps = fmt.finished(result("h1", {"ann": 0, "bob": 300, "cat": 280, "dan": 290, "eve": 270}))
    (final,) = seats(steps)
    assert sorted(final.players) == ["ann", "cat", "eve"]
    board = {s.name: (s.place, s.note) for s in fmt.standings()}
    assert board["dan"] == (4, "eliminated at 290") and board["bob"] == (5, "eliminated at 300")


def test_small_tied_cut_is_played_off_and_repeated() -> None:
    fmt = make()
    seats(fmt.start(["ann", "bob", "cat", "dan", "eve", "fay"]))
    steps = fmt.finished(
        result("h1", {"ann": 0, "bob": 270, "cat": 270, "dan": 270, "eve": 300, "fay": 200})
    )
    assert "Tied on 270 for 1 place(s) in the final, a play-off:" in texts(steps)
    (po,) = seats(steps)
    assert (po.key, po.stage, sorted(po.players)) == (
        "po1",
        "Play-off for the final",
        ["bob", "cat", "dan"],
    )
    rules_parse(po)
    # bob does worst; cat and dan tie again for the one place
    (po2,) = seats(fmt.finished(result("po1", {"bob": 40, "cat": 8, "dan": 8}, went_out=None)))
    assert sorted(po2.players) == ["cat", "dan"] and po2.key == "po2"
    rules_parse(po2)
    (final,) = seats(fmt.finished(result("po2", {"cat": 3, "dan": 0})))
    assert sorted(final.players) == ["ann", "dan", "fay"]
    standings = done(fmt.finished(result("final", {"ann": 0, "dan": 4, "fay": 9}))).standings
    assert [(s.place, s.name) for s in standings] == [
        (1, "ann"),
        (2, "dan"),
        (3, "fay"),
        (4, "cat"),
        (5, "bob"),
        (6, "eve"),
    ]


# --- remove, substitute, correct -----------------------------------------------------------


def test_remove_a_table_player_forfeits() -> None:
    fmt, (t1, t2) = start_main(7)
    a = t1.players[0]
    assert texts(fmt.remove(a)) == f"{a} is out of the tournament."
    assert a not in fmt.pending()[0].players
    fmt.finished(result("t1", {p: 10 for p in t1.players[1:]} | {t1.players[1]: 300}, gone=(a,)))
    steps = play_table(fmt, t2, t2.players[0])
    assert seats(steps)[0].players == (t1.players[1], t2.players[0])
    standings = fmt.standings()
    assert (standings[-1].name, standings[-1].note) == (a, "removed")
    assert standings[-1].place == 7


def test_remove_leaving_one_finalist_makes_them_champion() -> None:
    fmt, games = start_main(7)
    for game in games:
        play_table(fmt, game, game.players[0])
    a, b = fmt.pending()[0].players
    steps = fmt.remove(a)
    standings = done(steps).standings
    assert (standings[0].name, standings[0].note) == (b, "champion")
    assert fmt.finished(result("final", {b: 0})) == []  # the walkover is already decided
    assert fmt.done


def test_remove_from_playoff_leaving_one_decides_it() -> None:
    fmt, games = start_main(7)
    for game in games:
        play_table(fmt, game, *game.players[:2])
    a, b, c, d = fmt.pending()[0].players
    fmt.finished(result("final", {a: 0, b: 20, c: 20, d: 30}))
    standings = done(fmt.remove(c)).standings
    assert [(s.place, s.name) for s in standings[:3]] == [(1, a), (2, b), (3, d)]
    assert standings[-1].name == c


def test_remove_in_small_ruleset_last_one_standing() -> None:
    fmt = make()
    fmt.start(["ann", "bob", "cat", "dan"])
    fmt.remove("ann")
    fmt.remove("BOB")
    steps = fmt.remove("cat")
    standings = done(steps).standings
    assert [(s.place, s.name, s.note) for s in standings] == [
        (1, "dan", "champion"),
        (2, "cat", "removed"),
        (3, "bob", "removed"),
        (4, "ann", "removed"),
    ]
    with pytest.raises(TournamentError, match="over"):
        fmt.remove("dan")


def test_substitute_takes_seat_and_results() -> None:
    fmt = make()
    fmt.start(["ann", "bob", "cat", "dan"])
    assert texts(fmt.substitute("bob", "zed")) == "zed takes bob's place."
    assert "zed" in fmt.pending()[0].players and "bob" not in fmt.pending()[0].players
    # the table still reported the old name: it maps to the substitute
    (h2,) = seats(fmt.finished(result("h1", {"ann": 0, "bob": 20, "cat": 30, "dan": 40})))
    assert "zed" in h2.players
    assert {s.name: s.score for s in fmt.standings()}["zed"] == 20
    with pytest.raises(TournamentError):
        fmt.substitute("bob", "yan")
    with pytest.raises(TournamentError, match="already"):
        fmt.substitute("ann", "ZED")


def test_correct_changes_totals_and_later_decisions() -> None:
    fmt = make()
    fmt.start(["ann", "bob", "cat", "dan", "eve"])
    fmt.finished(result("h1", {"ann": 0, "bob": 200, "cat": 30, "dan": 40, "eve": 50}))
    assert texts(fmt.correct("bob", "h1", 60)) == "h1: bob +60 points, now 260."
    # bob is now over the target: the next hand eliminates him even with 0
    steps = fmt.finished(result("h2", {"ann": 0, "bob": 0, "cat": 1, "dan": 2, "eve": 3}))
    assert sorted(seats(steps)[0].players) == ["ann", "cat", "dan", "eve"]
    with pytest.raises(TournamentError, match="no game"):
        fmt.correct("bob", "h9", 1)
    with pytest.raises(TournamentError, match="no result yet"):
        fmt.correct("ann", "h3", 1)
    with pytest.raises(TournamentError, match="not in the tournament"):
        fmt.correct("zed", "h1", 1)


def test_correct_a_table_total() -> None:
    fmt, (t1, _) = start_main(7)
    a, b = t1.players[:2]
    play_table(fmt, t1, a)
    fmt.correct(b, "t1", 25)
    assert {s.name: s.score for s in fmt.standings()}[b] == 65


def test_result_for_unknown_game_or_player() -> None:
    fmt, _ = start_main(7)
    with pytest.raises(TournamentError):
        fmt.finished(result("t9", {"p00": 1}))
    with pytest.raises(TournamentError, match="did not play"):
        fmt.finished(result("t1", {"nobody": 300}))


# --- determinism and the property --------------------------------------------------------------


def drive(
    fmt: Ocuk, n: int, rng: random.Random, chaos: bool = False
) -> tuple[list[Step], list[str]]:
    """Start with ``n`` entrants and answer every pending game with random results until
    :class:`Done`; with ``chaos`` also remove and substitute
    players and have some leave their games. Returns the steps and the entrants' names now."""
    names = NAMES[:n]
    log = fmt.start(names)
    for step in range(500):
        if fmt.done:
            return log, names
        game = fmt.pending()[0]
        roll = rng.random() if chaos else 1.0
        if roll < 0.05:
            log += fmt.remove(rng.choice(game.players))
            continue
        if roll < 0.1:
            old = rng.choice(game.players)
            new = f"s{step}"
            log += fmt.substitute(old, new)
            names = [new if x == old else x for x in names]
            continue
        gone = (rng.choice(game.players),) if roll < 0.15 else ()
        players = [p for p in game.players if p not in gone]
        if game.key.startswith(("t", "r")):
            winners = tuple(rng.sample(game.players, rng.choice((1, 1, 2))))
            totals = {
                p: (rng.randrange(251, 400) if p in winners else rng.randrange(0, 250))
                for p in players
            }
            log += fmt.finished(result(game.key, totals, winners=winners, gone=gone))
        else:
            points = {p: rng.randrange(1, 120) for p in players}
            if players:
                points[rng.choice(players)] = 0
            log += fmt.finished(result(game.key, points, gone=gone))
    raise AssertionError("no Done")


def checked(log: list[Step]) -> list[Step]:
    """``log``, once the options and size of every game seated in it are checked."""
    for game in seats(log):
        rules_parse(game)
    return log


def test_determinism() -> None:
    for n in (5, 9, 23):
        first, _ = drive(make(seed=7), n, random.Random(3), chaos=True)
        again, _ = drive(make(seed=7), n, random.Random(3), chaos=True)
        assert first == again
        assert any(isinstance(s, Done) for s in checked(first))


@given(
    n=st.integers(3, 40),
    seed=st.integers(0, 2**32),
    play=st.integers(0, 2**32),
    chaos=st.booleans(),
)
def test_every_tournament_reaches_done(n: int, seed: int, play: int, chaos: bool) -> None:
    fmt = make(seed)
    log, names = drive(fmt, n, random.Random(play), chaos)
    standings = done(checked(log)).standings
    assert list(standings) == fmt.standings()
    assert sorted(s.name for s in standings) == sorted(names)
    places = [s.place for s in standings]
    assert places[0] == 1 and places == sorted(places)
    assert all(p == k + 1 or p == places[k - 1] for k, p in enumerate(places))
    assert all(len(s.text) < 300 for s in log if isinstance(s, Announce))


def test_announce_lines_stay_short_with_long_names() -> None:
    names = [f"{'x' * 27}{i:03d}" for i in range(30)]
    fmt = make(max_table=10)
    log = fmt.start(names)
    games = seats(log)
    assert [len(g.players) for g in games] == [10, 10, 10]
    for game in games:
        log += play_table(fmt, game, *game.players[:3])
    (final,) = fmt.pending()
    assert len(final.players) == 9
    log += fmt.finished(result("final", dict.fromkeys(final.players, 5) | {final.players[0]: 0}))
    (po,) = fmt.pending()
    log += fmt.finished(result(po.key, dict(zip(po.players, range(8), strict=True))))
    done(log)
    assert all(len(s.text) < 300 for s in log if isinstance(s, Announce))
    assert sum("Final placings" in s.text for s in log if isinstance(s, Announce)) >= 2
