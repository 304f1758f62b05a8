"""The score sheet adds up: whole tournaments of computer entrants in every format, and for
every game its sheet lines (as stored, and as exported to CSV) give its result rows.

The knockout's and the rotation's games end by the clock: the hand the clock cut short is on
the sheet (marked ``(clock)``) and in the table's channel with its cards and points."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable

import pytest

from tests.core.fakes import channel_lines
from tests.tournament.test_director import Event, play_out
from unobot.tournament.export import rows
from unobot.tournament.model import Game, Hand, Result, Sheet, SheetRow
from unobot.tournament.state import Tournament
from unobot.tournament.store import MemoryTournamentLog, Stored

Collects = Callable[[str], bool]
"""Whether the game with this key is scored winner-collects (else each keeps their own)."""


def ocuk_collects(key: str) -> bool:
    """ocuk's tables (``t2``, ``r2t1``) collect; its hands, final and play-offs don't."""
    return key.startswith("t") or (key.startswith("r") and "t" in key)


def own_points(key: str) -> bool:
    return False


def scored(lines: Iterable[tuple[str, tuple[str, int], str, int, bool]], collects: Collects):
    """Each game's totals from its sheet lines ``(game key, hand id, player, points, won)``:
    winner-collects gives a hand's winner everyone else's points, own points gives each their
    own (the clock's hand included: nobody won it)."""
    hands: dict[tuple[str, tuple[str, int]], list[tuple[str, int, bool]]] = defaultdict(list)
    for key, hand, player, points, won in lines:
        hands[(key, hand)].append((player, points, won))
    totals: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for (key, _), players in hands.items():
        for player, points, won in players:
            totals[key][player] += 0
            if not collects(key):
                totals[key][player] += points
            elif won:
                totals[key][player] += sum(p for n, p, _ in players if n != player)
    return totals


def check_sheet(tournament: Tournament, stored: Stored, collects: Collects) -> list[SheetRow]:
    """Every game's stored sheet lines and its exported CSV sheet rows sum to its result rows
    (the result as kept, and as exported); returns the stored sheet."""
    assert stored.sheet == tournament.sheet.lines
    from_sheet = scored(
        ((r.game_key, (r.where, r.game), r.player, r.points, r.won) for r in stored.sheet),
        collects,
    )
    csv = [list(r) for r in rows(stored)]
    from_csv = scored(
        (
            (
                r[3],
                (r[6].split(" > ", 1)[1].rsplit(",", 1)[0], 0),
                r[4],
                0 if r[5] == "Won" else int(r[5]),
                r[5] == "Won",
            )
            for r in csv
            if r[0] == "sheet"
        ),
        collects,
    )
    exported: dict[str, dict[str, int]] = defaultdict(dict)
    for r in csv:
        if r[0] == "result" and r[5] != "":
            exported[r[3]][r[4]] = int(r[5])
    assert tournament.results, "no game was played"
    for key, result in tournament.results.items():
        want = dict(result.totals)
        assert exported[key] == want, key
        if not result.hands:
            assert all(t == 0 for t in want.values()) and key not in from_sheet, key
            continue
        got = {n: t for n, t in from_sheet[key].items() if n in want}
        assert got == want, (key, stored.sheet)
        assert {n: t for n, t in from_csv[key].items() if n in want} == want, key
    # each CSV sheet row's detail is the sheet's own line
    assert [r[6] for r in csv if r[0] == "sheet"] == [r.text() for r in stored.sheet]
    return stored.sheet


def played(event: Event, log: MemoryTournamentLog, words: str, count: int, seconds: float):
    found, lines = play_out(event, words, count, seconds)
    stored = log.load(found.name)
    assert stored is not None
    return found, stored, lines


def test_ocuk_sheets_add_up_and_the_final_is_named() -> None:
    log = MemoryTournamentLog()
    event = Event(log=log)
    cup, stored, _ = played(event, log, "ocuk cup", 9, 3000)
    sheet = check_sheet(cup, stored, ocuk_collects)
    heats = [r for r in sheet if r.game_key.startswith("t")]
    assert heats and all(r.label == "" and r.round == 1 for r in heats)
    assert heats[0].text().startswith(f"{heats[0].player} > T{heats[0].table},G1,")
    final = [r for r in sheet if r.game_key == "final"]
    assert final and {r.label for r in final} == {"Final"} and {r.game for r in final} == {1}
    assert all(" > Final,G1," in r.text() for r in final)
    assert final[0].round == 2
    assert not any(r.clock for r in sheet)  # untimed: no hand is cut short


def test_ocuk_six_player_alternative_sheets_add_up() -> None:
    log = MemoryTournamentLog()
    event = Event(seed=5, log=log)
    cup, stored, _ = played(event, log, "ocuk six target=150", 6, 6000)
    sheet = check_sheet(cup, stored, ocuk_collects)
    hands = [r for r in sheet if r.game_key.startswith("h")]
    # one table, hand after hand: the seeds' T1,G1, T1,G2 …
    assert sorted({r.game for r in hands}) == list(range(1, len(cup.format._hands) + 1))  # type: ignore[attr-defined]
    assert all(r.text().startswith(f"{r.player} > T1,G") for r in hands)
    assert any(r.label == "Final" for r in sheet)


def test_knockout_sheets_add_up_with_the_hands_the_clock_ended() -> None:
    log = MemoryTournamentLog()
    event = Event(scale=20 / 3600, log=log)  # 60-minute games as 20 s
    ko, stored, _ = played(event, log, "knockout ko", 8, 600)
    sheet = check_sheet(ko, stored, own_points)
    clocked = [r for r in sheet if r.clock]
    assert clocked and all(not r.won and r.text().endswith(" (clock)") for r in clocked)
    # round 1's games are heats (T1, T2); round 2, the final, is named, not T1's next hands
    assert {r.label for r in sheet if r.round == 1 and "sd" not in r.game_key} == {""}
    final = [r for r in sheet if r.game_key.startswith("r2-")]
    assert final and all(" > Final,G" in r.text() for r in final)
    assert min(r.game for r in final) == 1
    # The channel lists the clock's hand: every player's cards and points, as counted.
    for game in (g for g in ko.games.values() if not g.key.endswith(("sd1", "sd2"))):
        channel = ko.channel_of(game)
        text = " ".join(channel_lines(event.transport.sent, channel))
        for row in (r for r in clocked if r.game_key == game.key):
            assert f"{row.player} " in text and f"({row.points} pts)" in text
    said = " ".join(channel_lines(event.transport.sent, "#cup-t1"))
    assert "Cards counted: " in said


def test_rotation_sheets_add_up_round_by_round() -> None:
    log = MemoryTournamentLog()
    event = Event(scale=1 / 60, log=log)  # a 60-minute round as 60 s
    bac, stored, _ = played(event, log, "rotation bac rounds=2 round=60m warning=15m", 8, 400)
    sheet = check_sheet(bac, stored, own_points)
    assert {r.label for r in sheet if r.round == 1} == {""}
    second = [r for r in sheet if r.round == 2]
    assert second and {r.label for r in second} <= {"Round 2 table 1", "Round 2 table 2"}
    assert min(r.game for r in second if r.table == 1) == 1  # not T1's next hands


# --- the sheet's numbering, without a bot --------------------------------------------------------


def test_heats_count_per_table_and_labelled_games_count_within_the_game() -> None:
    sheet = Sheet()
    heat = Game("r1-g1", 1, "Round 1 game 1", ("a", "b"), "knockout")
    final = Game("r2-g1", 1, "Final", ("a", "c"), "knockout", label="Final", round=2)
    two = (Hand(("a", "b"), (0, 7), (0, 7), "a"), Hand(("a", "b"), (3, 9), (3, 9), None, True))
    sheet.add(heat, Result("r1-g1", (("a", 3), ("b", 16)), ("a",), two))
    out = Hand(("a", "c"), (0, 7), (0, 7), "a")
    sheet.add(final, Result("r2-g1", (("a", 0), ("c", 7)), ("a",), (out,)))
    assert [r.text() for r in sheet.lines] == [
        "a > T1,G1,Won",
        "b > T1,G1,7",
        "a > T1,G2,3 (clock)",
        "b > T1,G2,9 (clock)",
        "a > Final,G1,Won",
        "c > Final,G1,7",
    ]
    assert [r.round for r in sheet.lines] == [1, 1, 1, 1, 2, 2]


@pytest.mark.parametrize("clock", [False, True])
def test_a_hands_clock_mark_survives_the_log(clock: bool) -> None:
    from unobot.tournament.state import result_from_json, result_to_json

    result = Result("k", (("a", 5),), ("a",), (Hand(("a",), (5,), (5,), None, clock),))
    assert result_from_json(result_to_json(result)) == result
