"""``unobot tournament export``: a stored tournament as CSV, row by row, and the command."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest

from unobot.main import main
from unobot.tournament.export import HEADER, export_csv, iso, rows
from unobot.tournament.store import (
    Entry,
    MemoryTournamentLog,
    SheetRow,
    SqlTournamentLog,
    Stored,
    TournamentLog,
)

T0 = 1_795_000_000.0
"""2026-11-18T11:06:40Z"""
ODD = 'Zoë, "the" one'
"""Not an IRC nick, but names reach the CSV from the log as stored: quoting must hold."""


def fill(log: TournamentLog, name: str = "Winter Cup") -> None:
    """A small two-table ocuk tournament, finished."""
    log.create(name, "ocuk", "#uno", T0)
    hand = {"players": ["Beank", "BigStu"], "points": [170, 0], "scores": [0, 170],
            "winner": "BigStu"}  # fmt: skip
    data = [
        ("new", {"format": "ocuk", "channel": "#uno", "options": ["rounds=1", "signup=5m"],
                 "by": "ann", "seed": 42, "tables": ["#uno-t1", "#uno-t2"]}),
        ("join", {"name": "Beank", "reserve": False}),
        ("join", {"name": "BigStu", "reserve": False}),
        ("join", {"name": "leaver", "reserve": False}),
        ("join", {"name": ODD, "reserve": False}),
        ("join", {"name": "spare", "reserve": True}),
        ("leave", {"name": "leaver"}),
        ("start", {}),
        ("seat", {"key": "t1", "table": 1, "channel": "#uno-t1", "stage": "Table 1",
                  "players": ["Beank", "BigStu"]}),
        ("seat", {"key": "t2", "table": 2, "channel": "#uno-t2", "stage": "Table 2",
                  "players": [ODD, "spare"]}),
        ("penalty", {"name": "BigStu", "cards": 2, "by": "ann", "channel": "#uno-t1"}),
        ("result", {"key": "t1", "totals": [["Beank", 0], ["BigStu", 170]],
                    "winners": ["BigStu"], "hands": [hand], "gone": []}),
        ("sub", {"old": "spare", "new": "late", "by": "ann"}),
        ("remove", {"name": "late", "by": "ann", "reason": "no show"}),
        ("result", {"key": "t2", "totals": [[ODD, 30]], "winners": [ODD], "hands": [],
                    "gone": ["late"]}),
        ("correct", {"name": "Beank", "key": "t1", "delta": -20, "by": "ann",
                     "reason": "miscount"}),
        ("standings", {"rows": [[1, "BigStu", 170, "table 1"], [2, ODD, 30, ""]],
                       "final": False}),
        ("done", {}),
        ("standings", {"rows": [[1, "BigStu", 170, "champion"], [2, ODD, 30, ""],
                                [3, "Beank", -20, ""], [4, "late", 0, "removed"]],
                       "final": True}),
    ]  # fmt: skip
    for seq, (kind, d) in enumerate(data):
        log.append(name, Entry(seq, kind, d, T0 + 60 * seq))
    log.add_sheet(name, [
        SheetRow("t1", 1, 1, "Beank", 170, False),
        SheetRow("t1", 1, 1, "BigStu", 0, True),
    ])  # fmt: skip


def stored_cup() -> Stored:
    log = MemoryTournamentLog()
    fill(log)
    stored = log.load("winter cup")
    assert stored is not None
    return stored


def at(seq: int) -> str:
    return iso(T0 + 60 * seq)


EXPECTED = [
    ["tournament", "Winter Cup", "", "", "", "",
     "format=ocuk; channel=#uno; status=done; options=rounds=1 signup=5m; by=ann", at(0)],
    ["entrant", "Winter Cup", "", "", "Beank", "", "", at(1)],
    ["entrant", "Winter Cup", "", "", "BigStu", "", "", at(2)],
    ["entrant", "Winter Cup", "", "", ODD, "", "", at(4)],
    ["reserve", "Winter Cup", "", "", "spare", "", "", at(5)],
    ["game", "Winter Cup", "1", "t1", "", "", "Table 1 at #uno-t1: Beank BigStu", at(8)],
    ["game", "Winter Cup", "2", "t2", "", "", f"Table 2 at #uno-t2: {ODD} spare", at(9)],
    ["penalty", "Winter Cup", "", "", "BigStu", "2", "by ann in #uno-t1", at(10)],
    ["result", "Winter Cup", "1", "t1", "Beank", "0", "", at(11)],
    ["result", "Winter Cup", "1", "t1", "BigStu", "170", "won", at(11)],
    ["substitution", "Winter Cup", "", "", "late", "", "replaces spare, by ann", at(12)],
    ["removal", "Winter Cup", "", "", "late", "", "by ann: no show", at(13)],
    ["result", "Winter Cup", "2", "t2", ODD, "30", "won", at(14)],
    ["result", "Winter Cup", "2", "t2", "late", "", "left", at(14)],
    ["correction", "Winter Cup", "", "t1", "Beank", "-20", "by ann: miscount", at(15)],
    ["sheet", "Winter Cup", "1", "t1", "Beank", "170", "Beank > T1,G1,170", at(11)],
    ["sheet", "Winter Cup", "1", "t1", "BigStu", "Won", "BigStu > T1,G1,Won", at(11)],
    ["standing", "Winter Cup", "", "1", "BigStu", "170", "champion; final", at(18)],
    ["standing", "Winter Cup", "", "2", ODD, "30", "final", at(18)],
    ["standing", "Winter Cup", "", "3", "Beank", "-20", "final", at(18)],
    ["standing", "Winter Cup", "", "4", "late", "0", "removed; final", at(18)],
]  # fmt: skip


def test_iso_times_are_utc() -> None:
    assert iso(T0) == "2026-11-18T11:06:40Z"
    assert iso(None) == ""


def test_rows_one_by_one() -> None:
    got = [list(r) for r in rows(stored_cup())]
    for n, (row, want) in enumerate(zip(got, EXPECTED, strict=False)):
        assert row == want, f"row {n}"
    assert len(got) == len(EXPECTED)


def test_csv_quotes_and_reads_back() -> None:
    out = io.StringIO(newline="")
    assert export_csv(stored_cup(), out) == len(EXPECTED)
    text = out.getvalue()
    assert text.startswith("record,tournament,table,game,player,score,detail,at\r\n")
    assert '"Zoë, ""the"" one"' in text
    back = list(csv.reader(io.StringIO(text, newline="")))
    assert back[0] == list(HEADER)
    assert back[1:] == EXPECTED


def test_a_tournament_just_opened() -> None:
    log = MemoryTournamentLog()
    log.create("Quick", "knockout", "#cards", T0)
    stored = log.load("Quick")
    assert stored is not None
    assert [list(r) for r in rows(stored)] == [
        ["tournament", "Quick", "", "", "", "", "format=knockout; channel=#cards; status=signup",
         iso(T0)],
    ]  # fmt: skip


def test_a_cancelled_tournament_says_why() -> None:
    log = MemoryTournamentLog()
    log.append("Rainy", Entry(0, "new", {"format": "ocuk", "channel": "#uno", "options": [],
                                         "by": "ann", "seed": 1, "tables": []}, T0))  # fmt: skip
    log.append("Rainy", Entry(1, "cancel", {"by": "bob", "reason": "rain"}, T0 + 5))
    stored = log.load("Rainy")
    assert stored is not None
    first = next(rows(stored))
    assert first[6] == "format=ocuk; channel=#uno; status=cancelled; by=ann; cancelled by bob: rain"


@pytest.fixture
def database(tmp_path: Path) -> str:
    url = f"sqlite:///{tmp_path / 'stats.db'}"
    log = SqlTournamentLog.from_url(url)
    fill(log)
    log.close()
    return url


def run(argv: list[str]) -> int:
    with pytest.raises(SystemExit) as stop:
        main(argv)
    return int(stop.value.code or 0)


def test_command_to_a_file(database: str, tmp_path: Path) -> None:
    out = tmp_path / "cup.csv"
    assert run(["tournament", "export", "WINTER cup", "--database", database, "-o", str(out)]) == 0
    with out.open(encoding="utf-8", newline="") as f:
        back = list(csv.reader(f))
    assert back[0] == list(HEADER) and back[1:] == EXPECTED


def test_command_to_stdout(database: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["tournament", "export", "Winter Cup", "--database", database]) == 0
    back = list(csv.reader(io.StringIO(capsys.readouterr().out)))
    assert back[1:] == EXPECTED


def test_command_finds_the_bots_database(
    database: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """With no --database: the config's stats.database, else ./stats.db, as the bot."""
    config = tmp_path / "elsewhere" / "unobot.toml"
    config.parent.mkdir()
    config.write_text(f'[stats]\ndatabase = "{database}"\n', encoding="utf-8")
    monkeypatch.chdir(config.parent)
    assert run(["tournament", "export", "Winter Cup", "--config", str(config)]) == 0
    assert "Beank > T1,G1,170" in capsys.readouterr().out
    monkeypatch.chdir(tmp_path)  # where stats.db is
    assert run(["tournament", "export", "Winter Cup"]) == 0
    assert "Beank > T1,G1,170" in capsys.readouterr().out


def test_unknown_name_exits_2(database: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["tournament", "export", "Summer Cup", "--database", database]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "no tournament called 'Summer Cup'" in captured.err
    assert "Winter Cup" in captured.err  # the names it has


def test_missing_database_file_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    url = f"sqlite:///{tmp_path / 'none.db'}"
    assert run(["tournament", "export", "Cup", "--database", url]) == 2
    assert "no stats database" in capsys.readouterr().err
    assert not (tmp_path / "none.db").exists()  # not created by looking


def test_bad_config_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["tournament", "export", "Cup", "--config", str(tmp_path / "nope.toml")]) == 2
    assert "no config file" in capsys.readouterr().err
