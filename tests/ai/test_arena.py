"""The arena: seats rotate, results don't depend on --jobs, and the table shows 95% CIs."""

from __future__ import annotations

import re

import pytest

from unobot.ai.arena import run_arena, wilson
from unobot.main import main


def test_arena_prints_the_table_with_confidence_intervals(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["arena", "--players", "hard,normal,easy", "--games", "12", "--playouts", "12"])
    assert stop.value.code == 0
    out = capsys.readouterr().out
    assert "arena: 12 games, players hard,normal,easy, preset official" in out
    rows = {}
    for line in out.splitlines():
        m = re.match(r"(easy|normal|hard)\s+1\s+12\s+(\d+)\s+([\d.]+)% \(([\d.]+)-([\d.]+)\)", line)
        if m:
            rows[m.group(1)] = m
            low, rate, high = float(m.group(4)), float(m.group(3)), float(m.group(5))
            assert low <= rate <= high
            assert re.search(r"[\d.]+ \(-?[\d.]+--?[\d.]+\)\s*$", line)
    assert set(rows) == {"easy", "normal", "hard"}
    assert sum(int(m.group(2)) for m in rows.values()) <= 12


def test_seats_rotate_and_jobs_do_not_change_results() -> None:
    one = run_arena(["normal", "easy", "easy"], 60, "irc-classic", seed=4)
    two = run_arena(["normal", "easy", "easy"], 60, "irc-classic", seed=4, jobs=2)
    assert (one.wins, one.points) == (two.wins, two.points)
    assert sum(one.wins) <= 60


def test_normal_beats_easy() -> None:
    result = run_arena(["normal", "easy", "easy", "easy"], 400, "official", seed=2)
    low, _ = wilson(result.wins[0], 400)
    assert low > 0.25


def test_wilson_interval() -> None:
    low, high = wilson(50, 100)
    assert low == pytest.approx(0.404, abs=0.001) and high == pytest.approx(0.596, abs=0.001)
    assert wilson(0, 10)[0] == 0.0


def test_arena_refuses_bad_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["arena", "--players", "easy,genius"])
    assert "no level 'genius'" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["arena", "--players", "easy,easy", "--preset", "bac-tournament"])
    assert "4 to 5 players" in capsys.readouterr().err
